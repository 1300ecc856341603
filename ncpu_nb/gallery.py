"""The gallery: C programs worth showing, each run on the AArch64 machine from a cell.

    from ncpu_nb import gallery
    gallery.programs()                      # the list, with what each one does
    gallery.run("primes")                   # output, exit status, instructions
    gallery.run("mandelbrot", live=True)    # frames shown in an image widget as they are drawn
    gallery.run("raycaster").frame          # the last frame of /dev/fb0, a PNG in the notebook
    gallery.qemu("sorts")                   # the same program under qemu-aarch64, for comparison

The programs are programs/arm64/c/*.c built by its build.sh (Debian's aarch64 gcc, static, -O2); their
runs under `qemu-aarch64 -cpu cortex-a53` are recorded in expected/. The drawing ones (`gallery_fb.h`)
write 320x200 XRGB frames to the framebuffer path they are given — /dev/fb0 on the machine — and print
each frame's FNV-1a checksum, so their stdout is the same under qemu, where the path is a plain file.
"""
from __future__ import annotations

import base64
import io
import shutil
import subprocess
import tempfile
from html import escape
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ncpu_nb import html
from ncpu_nb.arm64 import Arm64Machine
from ncpu_nb.resources import data_dir

SCREEN = "/dev/fb0"
CHUNK = 5_000_000  # instructions between looks at the framebuffer in a live run


class Program(NamedTuple):
    name: str
    about: str
    args: tuple[str, ...] = ()  # argv after the program's name; "/dev/fb0" for the drawing ones
    stdin: str | None = None  # a session in programs/arm64/c/input/, read on stdin

    @property
    def draws(self) -> bool:
        return SCREEN in self.args

    @property
    def path(self) -> Path:
        return data_dir("programs") / "arm64" / "c" / "bin" / self.name

    @property
    def source(self) -> Path:
        return data_dir("programs") / "arm64" / "c" / f"{self.name}.c"

    def input(self) -> bytes:
        return (data_dir("programs") / "arm64" / "c" / "input" / self.stdin).read_bytes() if self.stdin else b""


PROGRAMS = {p.name: p for p in [
    Program("mandelbrot", "the Mandelbrot set in fixed point, zooming into the seahorse valley", (SCREEN,)),
    Program("life", "Conway's Game of Life on a torus: a glider gun, an R-pentomino, gliders", (SCREEN,)),
    Program("raycaster", "a first-person walk through a maze, one ray per screen column", (SCREEN,)),
    Program("primes", "a bit sieve of Eratosthenes to 2,000,000: pi(x), twin primes, the largest gap"),
    Program("nqueens", "N-queens by backtracking with bit masks, N = 1..10"),
    Program("sudoku", "a sudoku solver: fewest candidates first, then backtracking", stdin="sudoku.in"),
    Program("kvstore", "a key-value store reading SET/GET/DEL/INCR/KEYS commands", stdin="kvstore.in"),
    Program("sorts", "seven sorting algorithms on the same 2,000 numbers: comparisons and moves"),
    Program("lisp", "a Lisp REPL: closures, define, let, recursion, tail calls", stdin="lisp.in"),
    Program("squeeze", "CRC-32, LZ77 and run-length coding with a round trip", ("-x",)),
    Program("calc", "a calculator: precedence, variables, functions and errors by column", stdin="calc.in"),
]}


def program(name: str) -> Program:
    try:
        return PROGRAMS[name]
    except KeyError:
        raise ValueError(f"no gallery program {name!r}; there are {', '.join(PROGRAMS)}") from None


def programs() -> html.Table:
    """The gallery as a table: name, what it does, its arguments and stdin."""
    return html.Table("The gallery", ["program", "what it does", "arguments", "stdin"],
                      [[p.name, p.about, " ".join(p.args), f"input/{p.stdin}" if p.stdin else ""]
                       for p in PROGRAMS.values()])


# --- frames ------------------------------------------------------------------------------------------
def fnv1a(data: bytes) -> int:
    """The 32-bit FNV-1a hash the drawing programs print for each frame."""
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


class Frame(NamedTuple):
    """A framebuffer's contents: `pixels` holds 4 bytes a pixel, blue, green, red, unused."""
    width: int
    height: int
    pixels: bytes

    def rgb(self) -> np.ndarray:
        """(height, width, 3) uint8 red, green, blue."""
        return np.frombuffer(self.pixels, np.uint8).reshape(self.height, self.width, 4)[:, :, 2::-1]

    @property
    def checksum(self) -> int:
        return fnv1a(self.pixels)

    def png(self, scale: int = 1) -> bytes:
        """The frame as a PNG file (8-bit RGB, by Pillow), each pixel `scale` x `scale`."""
        from PIL import Image

        out = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(self.rgb().repeat(scale, 0).repeat(scale, 1)), "RGB").save(out, "PNG")
        return out.getvalue()

    def img_tag(self, scale: int = 2, alt: str = "framebuffer") -> str:
        data = base64.b64encode(self.png()).decode()
        return (f"<img src='data:image/png;base64,{data}' alt='{escape(alt)}' width='{self.width * scale}' "
                f"height='{self.height * scale}' style='image-rendering:pixelated'>")

    def _repr_png_(self) -> bytes:
        return self.png()

    def _repr_html_(self) -> str:
        return html.view(f"{self.width}x{self.height} frame, checksum {self.checksum:08x}", self.img_tag())

    def __repr__(self) -> str:
        return f"<Frame {self.width}x{self.height}, checksum {self.checksum:08x}>"


# --- running -----------------------------------------------------------------------------------------
class GalleryRun(NamedTuple):
    program: Program
    machine: Arm64Machine
    frame: Frame | None  # the last frame on /dev/fb0 (drawing programs)

    @property
    def stdout(self) -> str:
        return self.machine.stdout

    @property
    def exit_status(self) -> int | None:
        return self.machine.exit_status

    @property
    def instructions(self) -> int:
        return self.machine.instructions

    @property
    def frames(self) -> int:
        return self.machine.frames

    def summary(self) -> str:
        shown = f", {self.frames} frames" if self.program.draws else ""
        return f"{self.program.name}: exit status {self.exit_status}, {self.instructions:,} instructions{shown}"

    def _repr_html_(self) -> str:
        parts = [f"<pre>{escape(self.stdout)}</pre>"]
        if self.frame is not None:
            parts.append(self.frame.img_tag())
        return html.view(self.summary(), *parts)

    def __repr__(self) -> str:
        return f"{self.summary()}\n{self.stdout}"


def machine(name: str, args=None, stdin: bytes | str | None = None) -> Arm64Machine:
    """A machine about to run gallery program `name` (argv after the name: `args`, default the gallery's)."""
    p = program(name)
    argv = [name, *(p.args if args is None else args)]
    return Arm64Machine.from_elf(p.path, argv, [], stdin=p.input() if stdin is None else stdin,
                                 exe_path=f"/bin/{name}")


def run(name: str, args=None, stdin: bytes | str | None = None, *, live: bool = False,
        max_steps: int | None = 20_000_000_000) -> GalleryRun:
    """Runs gallery program `name` to its end. With `live`, an image widget shows each frame as the
    program presents it (drawing programs)."""
    m = machine(name, args, stdin)
    if live:
        from IPython.display import display

        from ncpu_nb.views.screen import ScreenView

        screen = ScreenView(title=name)
        shown_at = display(screen, display_id=True)
        shown, left = 0, max_steps
        while m.alive and (left is None or left > 0):
            m.run(CHUNK if left is None else min(CHUNK, left))
            left = None if left is None else left - CHUNK
            if m.frames != shown:
                shown = m.frames
                screen.show(Frame(*m.framebuffer()), f"frame {shown}")
        if shown_at is not None:  # the output kept in the notebook: the last frame, not the empty screen
            shown_at.update(screen)
    else:
        m.run(max_steps)
    drew = program(name).draws and m.frames > 0
    return GalleryRun(program(name), m, Frame(*m.framebuffer()) if drew else None)


class QemuRun(NamedTuple):
    stdout: bytes
    exit_status: int
    frame: Frame | None  # the plain file standing for /dev/fb0, as the program left it


def qemu(name: str, args=None, stdin: bytes | str | None = None, *, timeout: float = 60) -> QemuRun:
    """The same run under `qemu-aarch64 -cpu cortex-a53` (the oracle), with /dev/fb0 replaced by a plain
    file; FileNotFoundError if qemu-aarch64 is not installed."""
    qemu_path = shutil.which("qemu-aarch64")
    if qemu_path is None:
        raise FileNotFoundError("qemu-aarch64 is not installed (Debian: apt-get install qemu-user)")
    p = program(name)
    argv = list(p.args if args is None else args)
    stdin = p.input() if stdin is None else stdin.encode() if isinstance(stdin, str) else stdin
    with tempfile.TemporaryDirectory() as tmp:
        screen = Path(tmp) / "fb0"
        screen.write_bytes(b"")
        argv = [str(screen) if a == SCREEN else a for a in argv]
        done = subprocess.run([qemu_path, "-cpu", "cortex-a53", str(p.path), *argv], input=stdin, check=False,
                              capture_output=True, env={}, timeout=timeout)
        pixels = screen.read_bytes()
    frame = Frame(320, 200, pixels) if len(pixels) == 320 * 200 * 4 else None
    return QemuRun(done.stdout, done.returncode if done.returncode >= 0 else 128 - done.returncode, frame)


def compare_with_qemu(name: str, args=None, stdin=None) -> html.Table:
    """One program on the machine and under qemu: stdout, exit status and (drawing programs) the last
    frame, side by side."""
    ours, theirs = run(name, args, stdin), qemu(name, args, stdin)
    rows = [["stdout", f"{len(ours.machine.stdout_bytes):,} bytes", f"{len(theirs.stdout):,} bytes",
             ours.machine.stdout_bytes == theirs.stdout],
            ["exit status", ours.exit_status, theirs.exit_status, ours.exit_status == theirs.exit_status]]
    if ours.frame is not None:
        rows.append(["last frame", f"{ours.frame.checksum:08x}",
                     f"{theirs.frame.checksum:08x}" if theirs.frame else "none",
                     theirs.frame is not None and ours.frame.pixels == theirs.frame.pixels])
    return html.Table(f"{name}: the machine and qemu-aarch64", ["", "machine", "qemu", "same"], rows)
