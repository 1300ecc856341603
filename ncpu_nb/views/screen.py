"""`ScreenView`: a guest's framebuffer as an image that changes while the program runs.

The kernel sends each frame as a PNG (a few tens of KB for 320x200) in the synced `png` trait; the
browser swaps the image. Exported notebooks keep the last frame as a static `<img>` and an image/png.
"""
from __future__ import annotations

import traitlets

from ncpu_nb import html
from ncpu_nb.views.base import MachineView, browser_code


class ScreenView(MachineView):
    _esm = browser_code("screen.js")

    png = traitlets.Bytes(b"").tag(sync=True)  # the frame shown, a PNG file
    caption = traitlets.Unicode("no frame yet").tag(sync=True)
    title = traitlets.Unicode("screen").tag(sync=True)
    scale = traitlets.Int(2).tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.frame = None

    def show(self, frame, caption: str = "") -> None:
        """Shows `frame` (an `ncpu_nb.gallery.Frame`)."""
        self.frame = frame
        self.caption = caption or f"checksum {frame.checksum:08x}"
        self.png = frame.png()

    def static_html(self) -> str:
        if self.frame is None:
            return html.view(f"{self.title}: {self.caption}")
        return html.view(f"{self.title}: {self.caption}", self.frame.img_tag(self.scale))

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        if self.png:
            data["image/png"] = self.png
        return data, metadata

    def __repr__(self) -> str:
        return f"<ScreenView {self.title}: {self.caption}>"
