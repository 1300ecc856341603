"""The Rust engine alone, with no Python face: build a `_metal.LinuxMachine` from a machine's options and
run it in chunks. `Arm64Machine` is built on these, and `ncpu-nb busybox` / `ncpu-nb exec` use them
directly, so a command starts without loading what only notebooks need (dataclasses, typing, the
machine protocol, HTML views): this module imports the engine and the error types, nothing more.
"""
from __future__ import annotations

import os
import time

from ncpu_nb import _metal
from ncpu_nb.arm64.limit_defaults import DEFAULT_MAX_PROCS, DEFAULT_MEMORY, DEFAULT_TMPFS_SIZE
from ncpu_nb.arm64.machine_errors import ElfError, MachineError

DEFAULT_ENV = ("PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/")
CHUNK_SECONDS = 0.02  # each call into the engine runs about this long, so Ctrl-C lands within ~20 ms
FIRST_CHUNK = 200_000  # instructions, before the rate is known


def busybox_file() -> str:
    """The bundled BusyBox's path as text (`ncpu_nb.arm64.busybox_path()` gives it as a Path): in the
    installed package's data folder, or in the checkout beside the package."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for programs in (os.path.join(package, "data", "programs"), os.path.join(os.path.dirname(package), "programs")):
        if os.path.isdir(programs):
            return os.path.join(programs, "arm64", "busybox", "busybox")
    raise FileNotFoundError(f"ncpu_nb's programs/ folder is missing from {package}; reinstall the package")


def limit_options(limits=None) -> dict:
    """The engine's keyword arguments for `limits` (None: the defaults, without importing `Limits`)."""
    if limits is None:
        return {"memory_limit": DEFAULT_MEMORY, "file_limit": DEFAULT_TMPFS_SIZE, "task_limit": DEFAULT_MAX_PROCS}
    from ncpu_nb.arm64.limits import Limits

    return Limits.of(limits).engine_options()


def new_engine(elf: bytes, argv: list[str], env: list[str], *, exe_path: str, mounts=(), cwd: str = "/",
               stdin: bytes = b"", interactive: bool = False, deterministic: bool = True, limits=None,
               trace_depth: int = 0, path: str | None = None, tty: tuple[int, int] | None = None):
    """A LinuxMachine about to run `elf`; `mounts` are parsed `Mount`s (host, guest, writable)."""
    try:
        engine = _metal.LinuxMachine(
            elf, argv, env, exe_path=exe_path, mounts=[(m.host, m.guest, m.writable) for m in mounts], cwd=cwd,
            stdin=stdin, stdin_closed=not interactive, deterministic=deterministic, tty=tty, **limit_options(limits))
    except _metal.ElfError as exc:
        raise ElfError(str(exc), path) from exc
    engine.set_trace(trace_depth)
    return engine


def call(method, n: int) -> tuple:
    """One engine call; the engine's own failure becomes `MachineError` (one error type for users)."""
    try:
        return method(n)
    except _metal.MachineError as exc:
        raise MachineError(str(exc)) from exc


def run_chunks(engine, max_steps: int | None, timeout: float | None, after_chunk) -> tuple:
    """Run in chunks of about CHUNK_SECONDS (so Ctrl-C lands between them) until a stop other than the
    budget, `max_steps` instructions (None: no limit) or `timeout` seconds; `after_chunk()` runs after
    each chunk (to collect output). Returns the stop (kind, pc, detail)."""
    start, t0 = engine.instructions, time.perf_counter()
    chunk = FIRST_CHUNK
    stop = ("budget", engine.get_register("pc"), "")
    while True:
        left = None if max_steps is None else max_steps - (engine.instructions - start)
        if left is not None and left <= 0:
            break
        if timeout is not None and time.perf_counter() - t0 >= timeout:
            stop = ("timeout", engine.get_register("pc"), f"{timeout:g} s")
            break
        before, t_chunk = engine.instructions, time.perf_counter()
        stop = call(engine.run, chunk if left is None else min(chunk, left))
        after_chunk()
        if stop[0] != "budget":
            break
        elapsed = time.perf_counter() - t_chunk
        done = engine.instructions - before
        if done and elapsed > 0:  # aim the next chunk at CHUNK_SECONDS of work
            chunk = max(10_000, min(int(done * CHUNK_SECONDS / elapsed), 100_000_000))
    return stop


def instruction_at(engine, pc: int) -> str:
    try:
        return engine.disassemble(pc, 1)[0][2]
    except (ValueError, IndexError):
        return "(no readable instruction there)"


def raise_fault(engine, stop: tuple) -> None:
    """A 'fault' stop (the machine cannot go on) as MachineError, with the PC and its instruction."""
    kind, pc, detail = stop
    if kind == "fault":
        raise MachineError(detail, pc, instruction_at(engine, pc))
