"""Live views of a machine in a notebook (anywidgets), each with a static HTML fallback.

    dbg = cpu.debugger()        # or Debugger(machine) for any engine of the machine protocol
"""
from ncpu_nb.widgets.debugger import Debugger

__all__ = ["Debugger"]
