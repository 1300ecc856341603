"""Typed errors of the ARM64 machine: each says where (the PC and instruction, or the file and offset)."""
from __future__ import annotations

from ncpu_nb.errors import NcpuError


class MachineError(NcpuError):
    """The machine itself could not go on: an instruction it cannot execute or a state it cannot
    represent. (A guest fault Linux turns into a signal is not an error: that process dies as on Linux.)"""

    def __init__(self, message: str, pc: int | None = None, instruction: str | None = None):
        self.pc, self.instruction = pc, instruction
        super().__init__(message if pc is None else f"{message}; PC=0x{pc:x}: {instruction}")


class ElfError(NcpuError, ValueError):
    """A file that is not an AArch64 ELF executable the machine can load (or whose dynamic loader is missing)."""

    def __init__(self, message: str, path: str | None = None):
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class MountError(NcpuError, ValueError):
    """A mount spec that is not HOST:GUEST[:ro|rw], or names a host folder that is not there."""


class MachineTimeout(NcpuError):
    """A guest program did not exit within its time or instruction budget. Carries what it printed."""

    def __init__(self, message: str, stdout: str = "", stderr: str = ""):
        self.stdout, self.stderr = stdout, stderr
        super().__init__(message)
