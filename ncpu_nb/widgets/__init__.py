"""Live views of a machine in a notebook (anywidgets), each with a static HTML fallback.

    cpu.debugger()              # Debugger(machine): any engine of the machine protocol
    RegisterView(cpu), MemoryView(cpu, address), TraceView(cpu.trace)
    BusyboxTerminal()           # BusyBox sh on the AArch64 machine
"""
from ncpu_nb.widgets.debugger import Debugger
from ncpu_nb.widgets.memory import MemoryView
from ncpu_nb.widgets.registers import RegisterView
from ncpu_nb.widgets.terminal import BusyboxTerminal
from ncpu_nb.widgets.trace import TraceView

__all__ = ["Debugger", "RegisterView", "MemoryView", "TraceView", "BusyboxTerminal"]
