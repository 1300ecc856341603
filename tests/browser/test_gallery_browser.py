"""The gallery in a real JupyterLab: a drawing program run live shows its /dev/fb0 frames in the
screen view (a 320x200 image, the caption at the last frame), and a frame shown as output is a PNG."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from labpage import run_notebook, screenshot

CELLS = [
    "from ncpu_nb import gallery\nrun = gallery.run('life', ['/dev/fb0', '40', '4'], live=True)\nprint(run.summary())",
    "run.frame",
]


def test_a_live_run_shows_the_framebuffer_and_a_frame_shows_as_an_image(lab, page):
    run_notebook(page, lab, "gallery.ipynb", CELLS)
    view = page.locator(".ncpu-screen")
    expect(view).to_have_count(1, timeout=60_000)
    expect(view.locator("[data-field=caption]")).to_have_text("frame 11", timeout=60_000)  # generations 0, 4, … 40
    image = view.locator("img[data-field=screen]")
    expect(image).to_have_attribute("src", re.compile(r"^blob:"))
    size = image.evaluate("img => [img.naturalWidth, img.naturalHeight, img.width, img.height]")
    assert size == [320, 200, 640, 400]
    expect(page.get_by_text("life: exit status 0")).to_be_visible()
    frame = page.locator(".jp-OutputArea-output img[src^='data:image/png']")  # the second cell's Frame
    expect(frame).to_have_count(1)
    assert frame.evaluate("img => img.naturalWidth") == 320
    screenshot(page, view, "gallery_screen.png")
