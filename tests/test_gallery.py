"""The gallery (ncpu_nb.gallery, programs/arm64/c): every program on the machine prints what
`qemu-aarch64 -cpu cortex-a53` printed (recorded in expected/, and run again here when qemu is
installed), and the drawing programs' frames on /dev/fb0 are the ones they checksum, and qemu's."""
import io
import re
import shutil

import numpy as np
import pytest

from ncpu_nb import gallery
from ncpu_nb.arm64 import Arm64Machine
from ncpu_nb.resources import data_dir

C = data_dir("programs") / "arm64" / "c"
NAMES = list(gallery.PROGRAMS)
DRAWING = [name for name in NAMES if gallery.program(name).draws]
needs_qemu = pytest.mark.skipif(shutil.which("qemu-aarch64") is None, reason="qemu-aarch64 is not installed")


@pytest.fixture(scope="module")
def runs():
    """Each program run once on the machine (they take 0.01 to 0.2 s each)."""
    return {name: gallery.run(name) for name in NAMES}


def test_the_gallery_has_ten_programs_or_more_each_with_its_source_and_binary():
    assert len(NAMES) >= 10 and len(DRAWING) >= 3
    for p in gallery.PROGRAMS.values():
        assert p.path.is_file() and p.source.is_file(), p.name
        assert p.stdin is None or p.input(), p.name


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_the_machine_prints_what_qemu_printed(runs, name):
    run = runs[name]
    assert run.machine.stdout_bytes == (C / "expected" / f"{name}.out").read_bytes()
    assert run.exit_status == int((C / "expected" / f"{name}.status").read_text())
    assert run.machine.stderr_bytes == b"" and run.machine.unknown_syscalls() == []


@needs_qemu
@pytest.mark.parametrize("name", NAMES)
def test_the_machine_and_qemu_today_agree(runs, name):
    """qemu run now, /dev/fb0 replaced by a plain file: the same stdout and status, and for the drawing
    programs the same last frame, byte for byte."""
    ours, theirs = runs[name], gallery.qemu(name)
    assert ours.machine.stdout_bytes == theirs.stdout
    assert ours.exit_status == theirs.exit_status
    if name in DRAWING:
        assert theirs.frame is not None and ours.frame.pixels == theirs.frame.pixels


@pytest.mark.parametrize("name", DRAWING)
def test_every_frame_is_presented_and_the_last_is_the_one_checksummed(runs, name):
    run = runs[name]
    printed = re.findall(r"frame (\d+) checksum ([0-9a-f]{8})", run.stdout)
    assert printed and run.frames == len(printed)  # one FBIOPAN_DISPLAY per frame
    assert f"{run.frame.checksum:08x}" == printed[-1][1]
    assert run.frame.rgb().shape == (200, 320, 3) and run.frame.rgb().any()


def test_a_live_run_shows_each_frame_in_a_screen_view(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda view, display_id: shown.append(view))
    run = gallery.run("life", ["/dev/fb0", "20", "10"], live=True)
    (screen,) = shown
    assert run.frames == 3 and screen.frame == run.frame
    assert screen.png == run.frame.png() and screen.png.startswith(b"\x89PNG\r\n\x1a\n")
    data, _ = screen._repr_mimebundle_()
    assert data["image/png"] == screen.png and "data:image/png;base64," in data["text/html"]


def test_a_frame_is_a_png_of_its_pixels():
    from PIL import Image

    pixels = bytes(range(256)) * 1000  # 64,000 pixels: blue, green, red, unused
    png = gallery.Frame(320, 200, pixels).png()
    image = np.asarray(Image.open(io.BytesIO(png)))
    assert image.shape == (200, 320, 3)
    assert image[0, :2].tolist() == [[2, 1, 0], [6, 5, 4]]  # red, green, blue of the first two pixels
    assert (image == gallery.Frame(320, 200, pixels).rgb()).all()


def test_framebuffer_device_geometry_reads_writes_and_bounds():
    """/dev/fb0 from BusyBox: a character device 29,0 of 320*200*4 bytes; what is written reads back;
    writing past the end fails with EFBIG (File too large); no frame is counted without FBIOPAN_DISPLAY."""
    m = Arm64Machine.busybox("sh", "-c", "ls -l /dev/fb0; printf 'ABC' | dd of=/dev/fb0 bs=1 seek=4 2>/dev/null; "
                             "dd if=/dev/fb0 bs=4096 2>/dev/null | wc -c; dd if=/dev/fb0 bs=1 count=8 2>/dev/null; "
                             "echo; head -c 256001 /dev/zero > /dev/fb0")
    m.run()
    lines = m.stdout.splitlines()
    assert lines[0].startswith("crw-rw-rw-") and "29,   0" in lines[0]
    assert lines[1] == "256000" and lines[2] == "\0\0\0\0ABC\0"
    assert "File too large" in m.stderr
    width, height, pixels = m.framebuffer()
    assert (width, height, len(pixels)) == (320, 200, 256000) and pixels[:8] == b"\0" * 8 and m.frames == 0
