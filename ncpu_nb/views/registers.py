"""`RegisterView`: a machine's registers, flags and PC, alone, in hex or signed decimal. It re-reads
the machine after every cell (or on `refresh()`) and highlights what changed since it last showed
something different."""
from __future__ import annotations

import traitlets

from ncpu_nb import html
from ncpu_nb.protocol import MachineProtocol
from ncpu_nb.views import static, wire
from ncpu_nb.views.base import MachineView, browser_code


class RegisterView(MachineView):
    _esm = browser_code("register_view.js")
    machine_state = traitlets.Dict().tag(sync=True)
    open_groups = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, machine: MachineProtocol):
        self.machine, self.debug_layout = machine, machine.debug_layout()
        self._shown: tuple = (None, {}, {})  # pc, registers, flags as shown
        self._before: tuple = ({}, {})  # registers and flags before the change shown
        super().__init__()
        self.refresh()

    def refresh(self) -> None:
        """Re-read the machine; if it changed, highlight what changed since it was last shown."""
        now = (self.machine.pc, dict(self.machine.registers), dict(self.machine.flags))
        if now != self._shown:
            self._before, self._shown = self._shown[1:], now
            self._show()

    @traitlets.observe("open_groups")
    def _groups_changed(self, _change) -> None:
        self._show()

    def _show(self) -> None:
        groups, _ = wire.registers(self.machine, self.debug_layout, self._before[0], set(self.open_groups))
        flags, _ = wire.flags(self.machine, self._before[1])
        self.machine_state = {"groups": groups, "flags": flags, "pc": wire.location(self.debug_layout, self.machine.pc)}

    def static_html(self) -> str:
        s = self.machine_state
        return html.view(f"Registers: {type(self.machine).__name__}, pc {s['pc']}",
                         html.box(static.registers([g for g in s["groups"] if g["open"]], self.radix)),
                         html.box(static.flags(s["flags"])))
