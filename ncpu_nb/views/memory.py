"""`MemoryView`: a machine's memory as hex and ASCII, alone. Pages come from the kernel on demand
(binary messages). It re-reads the machine after every cell, or on `refresh()`, and highlights the
bytes that changed since the machine last moved."""
from __future__ import annotations

import traitlets

from ncpu_nb import html
from ncpu_nb.protocol import MachineProtocol
from ncpu_nb.views import static, wire
from ncpu_nb.views.base import MachineView, browser_code


class MemoryView(MachineView):
    _esm = browser_code("memory_view.js")
    memory_address = traitlets.Unicode("0").tag(sync=True)  # hex
    machine_state = traitlets.Dict().tag(sync=True)  # generation, registers (for "go to register")

    def __init__(self, machine: MachineProtocol, address: int = 0):
        self.machine, self.debug_layout = machine, machine.debug_layout()
        self.pages = wire.MemoryPages(machine)
        self._generation = 0
        self._moved = None  # the machine's PC and registers when last refreshed
        super().__init__(memory_address=format(address, "x"))
        self.refresh()

    def refresh(self) -> None:
        """Re-read the machine. Once it has moved (its PC or registers changed), highlights show
        what changed since the view last showed it before that."""
        self._generation += 1
        moved = (self.machine.pc, dict(self.machine.registers))
        if moved != self._moved:
            self._moved = moved
            self.pages.begin_action()
        groups, _ = wire.registers(self.machine, self.debug_layout, {}, set())
        self.machine_state = {"generation": self._generation, "groups": groups,
                              "address_digits": self.debug_layout.address_bits // 4}

    def on_memory(self, content: dict) -> None:
        message, data = self.pages.read(int(str(content["address"]), 16), self._generation)
        self.reply(content, message, [data])

    def static_html(self) -> str:
        page = self.pages.read(int(self.memory_address, 16), self._generation)
        return html.view(f"Memory: {type(self.machine).__name__}",
                         static.memory(*page, self.machine_state["address_digits"]))
