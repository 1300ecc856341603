"""`RegisterView`: a machine's registers, flags and PC, alone. Values changed since the previous
refresh (after every cell, or `refresh()`) are highlighted; hex or signed decimal."""
from __future__ import annotations

import traitlets

from ncpu_nb import html
from ncpu_nb.protocol import MachineProtocol, debug_layout
from ncpu_nb.widgets import static, wire
from ncpu_nb.widgets.base import MachineView, browser_code


class RegisterView(MachineView):
    _esm = browser_code("register_view.js")
    machine_state = traitlets.Dict().tag(sync=True)
    open_groups = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, machine: MachineProtocol):
        self.machine, self.debug_layout = machine, debug_layout(machine)
        self._values: dict = {}
        self._flags: dict = {}
        super().__init__()
        self.refresh()

    def refresh(self) -> None:
        groups, self._values = wire.registers(self.machine, self.debug_layout, self._values, set(self.open_groups))
        flags, self._flags = wire.flags(self.machine, self._flags)
        self.machine_state = {"groups": groups, "flags": flags, "pc": wire.location(self.debug_layout, self.machine.pc)}

    @traitlets.observe("open_groups")
    def _groups_changed(self, _change) -> None:
        groups, _ = wire.registers(self.machine, self.debug_layout, {}, set(self.open_groups))
        self.machine_state = {**self.machine_state, "groups": groups}

    def static_html(self) -> str:
        s = self.machine_state
        return html.view(f"Registers: {type(self.machine).__name__}, pc {s['pc']}",
                         html.box(static.registers([g for g in s["groups"] if g["open"]], self.radix)),
                         html.box(static.flags(s["flags"])))
