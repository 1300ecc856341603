"""The ARM64 machine's Python face: `Machine`, `busybox(...)`, the ELF reader and the IPython magics."""
from ncpu_nb.machine.busybox import BusyboxResult, busybox, busybox_path
from ncpu_nb.machine.elf import ElfFile
from ncpu_nb.machine.errors import ElfError, MachineError, MachineTimeout, MountError
from ncpu_nb.machine.limits import Limits
from ncpu_nb.machine.machine import Machine, MachineRun, MachineSnapshot
from ncpu_nb.machine.mounts import Mount, parse_mount
from ncpu_nb.machine.syscalls import SyscallLog

__all__ = ["Machine", "Limits", "MachineRun", "MachineSnapshot", "busybox", "busybox_path", "BusyboxResult", "ElfFile",
           "ElfError", "MachineError", "MachineTimeout", "MountError", "Mount", "parse_mount", "SyscallLog"]
