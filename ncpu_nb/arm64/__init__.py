"""The AArch64 engine's Python face: `Arm64Machine` (over the Rust core in metal_ext/), `busybox(...)`, the
ELF reader, mounts and limits, the system-call log and the BusyBox conformance runner (`conformance`)."""
import warnings

from ncpu_nb._metal import Arm64Core, compiled_code  # the bare core (no OS); the block compiler's totals
from ncpu_nb.arm64.busybox import BusyboxResult, busybox, busybox_path
from ncpu_nb.arm64.elf import ElfFile
from ncpu_nb.arm64.machine_errors import ElfError, MachineError, MachineTimeout, MountError
from ncpu_nb.arm64.limits import Limits
from ncpu_nb.arm64.machine import Arm64Machine, Arm64Run
from ncpu_nb.arm64.mounts import Mount, parse_mount
from ncpu_nb.arm64.syscall_log import SyscallLog

__all__ = ["Arm64Machine", "Arm64Run", "Arm64Core", "compiled_code", "Limits", "busybox", "busybox_path", "BusyboxResult", "ElfFile",
           "ElfError", "MachineError", "MachineTimeout", "MountError", "Mount", "parse_mount", "SyscallLog"]

_RENAMED = {"Machine": "Arm64Machine", "MachineRun": "Arm64Run"}


def __getattr__(name: str):
    if name in _RENAMED:
        warnings.warn(f"ncpu_nb.{name} is now ncpu_nb.{_RENAMED[name]}", DeprecationWarning, stacklevel=2)
        return globals()[_RENAMED[name]]
    if name == "MachineSnapshot":
        from ncpu_nb.protocol import Snapshot

        warnings.warn("MachineSnapshot is now ncpu_nb.Snapshot, one type for every engine", DeprecationWarning,
                      stacklevel=2)
        return Snapshot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
