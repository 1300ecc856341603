"""Live views of a machine in a notebook (anywidgets), each with a static HTML fallback.

    cpu.debugger()              # Debugger(machine): any engine of the machine protocol
    RegisterView(cpu), MemoryView(cpu, address), TraceView(cpu.trace)
    BusyboxTerminal()           # BusyBox sh on the AArch64 machine
    DiscoverView(discovery)     # programs from examples (ncpu_nb.discover())
    ScreenView()                # a guest's /dev/fb0 frames (ncpu_nb.gallery.run(..., live=True))
"""
from ncpu_nb.views.debugger import Debugger
from ncpu_nb.views.discover import DiscoverView
from ncpu_nb.views.memory import MemoryView
from ncpu_nb.views.registers import RegisterView
from ncpu_nb.views.screen import ScreenView
from ncpu_nb.views.terminal import BusyboxTerminal
from ncpu_nb.views.trace import TraceView

__all__ = ["Debugger", "DiscoverView", "RegisterView", "MemoryView", "TraceView", "BusyboxTerminal", "ScreenView"]
