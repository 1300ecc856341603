"""The AArch64 engine's Python face: `Arm64Machine` (over the Rust core in metal_ext/), `busybox(...)`, `Session`, the
ELF reader, mounts and limits, the system-call log and the BusyBox conformance runner (`conformance`).

Its names load on first use, so `ncpu-nb busybox` (which drives the engine through `engine` alone)
does not pay for the notebook face."""
import importlib
import sys
import types
import warnings

_LAZY = {
    "Arm64Core": "ncpu_nb._metal", "compiled_code": "ncpu_nb._metal",  # the bare core (no OS); the block compiler's totals
    **dict.fromkeys(["BusyboxResult", "busybox", "busybox_path"], "ncpu_nb.arm64.busybox"),
    "ElfFile": "ncpu_nb.arm64.elf",
    **dict.fromkeys(["ElfError", "MachineError", "MachineTimeout", "MountError"], "ncpu_nb.arm64.machine_errors"),
    "Limits": "ncpu_nb.arm64.limits",
    **dict.fromkeys(["Arm64Machine", "Arm64Run"], "ncpu_nb.arm64.machine"),
    **dict.fromkeys(["Mount", "parse_mount"], "ncpu_nb.arm64.mounts"),
    "SyscallLog": "ncpu_nb.arm64.syscall_log",
    **dict.fromkeys(["Session", "SessionResult"], "ncpu_nb.arm64.session"),
    **dict.fromkeys(["cc", "compile_c", "CcResult", "CCompileError", "CDiagnostic", "tcc_root"], "ncpu_nb.arm64.cc"),
}
__all__ = ["Arm64Machine", "Arm64Run", "Arm64Core", "compiled_code", "Limits", "busybox", "busybox_path", "BusyboxResult", "ElfFile",
           "ElfError", "MachineError", "MachineTimeout", "MountError", "Mount", "parse_mount", "SyscallLog",
           "Session", "SessionResult", "cc", "compile_c", "CcResult", "CCompileError", "CDiagnostic", "tcc_root"]

_RENAMED = {"Machine": "Arm64Machine", "MachineRun": "Arm64Run"}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # once loaded, a plain attribute
        return value
    if name in _RENAMED:
        warnings.warn(f"ncpu_nb.{name} is now ncpu_nb.{_RENAMED[name]}", DeprecationWarning, stacklevel=2)
        return __getattr__(_RENAMED[name])
    if name == "MachineSnapshot":
        from ncpu_nb.protocol import Snapshot

        warnings.warn("MachineSnapshot is now ncpu_nb.Snapshot, one type for every engine", DeprecationWarning,
                      stacklevel=2)
        return Snapshot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """`ncpu_nb.arm64.busybox` is the function, even once its module (of the same name) is imported: the
    import system then sets the package's attribute to the module, which this setter declines."""

    @property
    def busybox(self):
        from ncpu_nb.arm64.busybox import busybox

        return busybox

    @busybox.setter
    def busybox(self, value) -> None:
        if not isinstance(value, types.ModuleType):
            raise AttributeError("ncpu_nb.arm64.busybox is the function busybox(...)")


sys.modules[__name__].__class__ = _Package
