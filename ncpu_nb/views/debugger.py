"""`Debugger`: a live debugger for any machine of the protocol — registers and memory you can edit,
a listing with breakpoints (and C source lines where the program has them), the call stack,
watchpoints, the trace, a scrubber over the recorded history, and step / step N / step over /
step out / run / run to cursor / pause / back / reset; a lane picker for batched machines and an
editor that reassembles an nCPU program in place.

Who runs the machine, and when:

* Every step and run executes on a worker thread, never on the kernel's main thread. The engine runs
  in chunks sized to last about 1/30 s (nCPU's executor releases the GIL inside each chunk) and the
  view is updated after a chunk at most 30 times a second. The kernel stays idle meanwhile, so the
  *pause* button (a message handled on the kernel's shell thread) is seen within one chunk.
* A run goes with the engine's trace off (the trace costs most of its speed) and rebuilds the
  trace's last steps when it stops, by re-execution from a snapshot (see `retrace`); steps trace.
* While the worker owns the machine, other requests (memory pages, breakpoint toggles) are queued and
  served by the worker between chunks; step, back and reset wait for pause.
* A kernel handles the view's messages between cells: while a cell runs, clicks wait (the view says
  so) and are handled when it ends. So a run started by a cell (`dbg.run()`, which waits for it, or
  `cpu.run()`) is stopped by interrupting the kernel, which pauses `dbg.run()`; `dbg.run(wait=False)`
  returns at once and leaves *pause* working. (Frontends that send widget messages to a kernel
  subshell deliver them during a cell: then only *pause* acts at once, the rest waits for the cell.)
* The view re-reads the machine after every cell, so it follows what code does to the machine. While
  the debugger runs the machine, code should leave the machine alone (pause first).
"""
from __future__ import annotations

import threading
import time
from typing import NamedTuple

import traitlets

from ncpu_nb import html
from ncpu_nb.errors import SourceErrors
from ncpu_nb.protocol import Batched, MachineProtocol, Editable, Symbolic
from ncpu_nb.views import static, wire
from ncpu_nb.views.base import MachineView, browser_code
from ncpu_nb.views.history import History
from ncpu_nb.views.retrace import UntracedRun

FRAME = 1 / 30  # seconds: the most often a running machine updates the view
CHECKPOINT_EVERY = 0.25  # seconds of running between checkpoints: the most that stepping back re-executes


class Until(NamedTuple):
    """Where a run started by step over, step out or run to cursor ends: at `location` once the stack
    pointer is at least `stack` (None: any), saying `done`."""

    location: int
    stack: int | None
    done: str


def shown_status(status: str, cycles: int) -> str:
    """What the status line says of an idle machine (as the live view does): an engine says
    'running' whenever it can go on, which reads 'ready' at the start and 'paused' after."""
    return status if status != "running" else "ready" if cycles == 0 else "paused"


class Debugger(MachineView):
    """`Debugger(machine)` or `machine.debugger()`.

    trace_rows   recent steps shown in the trace panel
    listing      (before, after): instructions shown around the PC
    checkpoints  snapshots kept for stepping back (older ones are thinned, see `history`)
    """

    _esm = browser_code("debugger.js")
    anytime = frozenset({"pause"})
    machine_state = traitlets.Dict().tag(sync=True)  # everything the panels show; see `_publish`
    memory_address = traitlets.Unicode("0").tag(sync=True)  # hex: the address the memory panel shows
    running = traitlets.Bool(False).tag(sync=True)
    open_groups = traitlets.List(traitlets.Unicode()).tag(sync=True)  # on-demand register groups shown

    def __init__(self, machine: MachineProtocol, *, trace_rows: int = 12, listing: tuple[int, int] = (8, 24),
                 checkpoints: int = 128):
        if not isinstance(machine, MachineProtocol):
            raise TypeError(f"{type(machine).__name__} does not implement the machine protocol "
                            "(ncpu_nb.MachineProtocol)")
        self.machine, self.debug_layout = machine, machine.debug_layout()
        self._trace_rows, self._listing = trace_rows, listing
        self.history = History(machine, checkpoints)
        self.pages = wire.MemoryPages(machine)
        self._generation, self._message = 0, ""
        self._values: dict = {}  # registers and flags as last shown
        self._flags: dict = {}
        self._before: tuple[dict, dict] = ({}, {})  # ... and when the last action began: what it changed
        self._seen = None  # (cycles, registers) the view last showed: detects changes made by code
        self._pause = threading.Event()
        self._lock = threading.RLock()  # guards `_worker` and `_queue`
        self._worker: threading.Thread | None = None
        self._queue: list[dict] = []  # requests for the worker to serve between chunks
        self._untraced: UntracedRun | None = None  # while a run goes untraced, the trace shown stays
        self._trace: list = []  # the trace rows last shown
        self._frames: list = []  # the call stack last shown (read when the machine stops)
        self._temporary: int | None = None  # a breakpoint the debugger set itself (step over, run to cursor)
        self._furthest = machine.cycles  # the latest cycle reached since history began: the scrubber's end
        self._source_error: dict | None = None  # the editor's first problem: line, column, message
        self._typed: tuple[int, int] | None = None  # memory typed in since the last action: (address, size)
        super().__init__()
        self._publish()

    # --- the state the view shows ----------------------------------------------------------------
    def _begin_action(self) -> None:
        """From here on, highlights show what changed since now (registers, flags, memory)."""
        self._before = (self._values, self._flags)
        self._typed = None
        self.pages.begin_action()

    def _publish(self, moved: bool = True) -> None:
        """Show the machine; `moved`: its state changed since it was last shown."""
        m = self.machine
        if moved:
            self._generation += 1
        groups, values = wire.registers(m, self.debug_layout, self._before[0], set(self.open_groups))
        flag_rows, flags = wire.flags(m, self._before[1])
        self._values, self._flags = values, flags
        cycles = m.cycles
        extras = m.debug_extras()
        self._seen = (cycles, values)
        if self._untraced is None:
            bits = wire.register_bits(self.debug_layout)
            steps = wire.recent_steps(m.trace, cycles, self._trace_rows)
            self._trace = [wire.trace_step(s, self.debug_layout, bits) for s in steps]
        if self._worker is None:  # a walk of the stack per frame of a run would slow it: read it at stops
            self._frames = wire.frames(m, self.debug_layout)
        self._furthest = max(self._furthest, cycles)
        batched = isinstance(m, Batched)
        lanes = m.lanes if batched else 1
        source = m.program.source if isinstance(m, Editable) and m.program is not None else ""
        self.machine_state = {
            "generation": self._generation, "message": self._message, "title": m.title,
            "pc": wire.location(self.debug_layout, m.pc), "cycles": cycles, "status": m.status,
            "oldest": self.history.oldest, "address_digits": self.debug_layout.address_bits // 4,
            "groups": groups, "flags": flag_rows,
            "listing": wire.listing(m, self.debug_layout, *self._listing, extras.location_weights, self._temporary),
            "panels": wire.panels(extras.panels),
            "trace": self._trace,
            "frames": self._frames,
            "watchpoints": wire.watchpoints(m),
            "furthest": self._furthest,
            "lanes": lanes, "lane": m.lane if batched else 0,
            "lane_states": _lane_states(m) if lanes > 1 else "",
            "editor": {"source": source, "error": self._source_error} if source else None,
        }

    def refresh(self) -> None:
        """Show the machine as it is now. If code changed it (not the debugger), stepping back starts
        from here: the history before it no longer leads to this state."""
        with self._lock:
            if self._worker is not None:
                return
            cycles, shown = self._seen
            now = self.machine.registers  # shown may hold more (on-demand groups a machine reads apart)
            if cycles != self.machine.cycles or any(shown.get(name) != value for name, value in now.items()):
                self._restart_history()
                self._message = ""
                self._begin_action()
                self._publish()

    @traitlets.observe("open_groups")
    def _groups_changed(self, _change) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        with self._lock:
            if self._worker is None:
                self._publish(moved=False)

    # --- running on the worker ---------------------------------------------------------------------
    def _restart_history(self) -> None:
        self.history.restart()
        self._furthest = self.machine.cycles

    def _start(self, budget: int | None, breakpoints: bool, until: Until | None = None,
               over_watchpoints: bool = False) -> bool:
        with self._lock:
            if self._worker is not None:
                return False
            status = self.machine.status
            if status not in ("running", "breakpoint", "watchpoint") and not _other_lanes_running(self.machine):
                why = {"halted": "the program has halted", "fault": "the machine stopped at a fault"}
                self._finish(f"{why.get(status, 'the machine is ' + status)}: step back or reset")
                return False
            self._pause.clear()
            self._begin_action()
            self.running = True
            if until is not None and until.location not in self.machine.breakpoints:
                self.machine.breakpoints.add(until.location)
                self._temporary = until.location
            worker = threading.Thread(target=self._work, args=(budget, breakpoints, until, over_watchpoints),
                                      name="ncpu-debugger", daemon=True)
            worker.start()  # before it is published: `wait` on another thread joins it unlocked
            self._worker = worker
            return True

    def _arrived(self, until: Until) -> bool:
        m = self.machine
        if m.status != "breakpoint" or m.pc != until.location:
            return False
        return until.stack is None or self._stack_pointer() >= until.stack

    def _stack_pointer(self) -> int:
        return self.machine.registers[self.debug_layout.stack_pointer] & ((1 << 64) - 1)

    def _work(self, budget: int | None, breakpoints: bool, until: Until | None = None,
              over_watchpoints: bool = False) -> None:
        m, message = self.machine, ""
        start, chunk, ran = m.cycles, 1, 0  # ran: steps of the shown lane or, once it halted, of the others
        shown = checkpoint = time.perf_counter()
        untraced = self._untraced = UntracedRun(m) if breakpoints and m.trace_depth > 0 else None  # see `retrace`
        try:
            while not self._pause.is_set():
                left = None if budget is None else budget - ran
                if left is not None and left <= 0:
                    break
                n = chunk if left is None else min(chunk, left)
                if untraced and left is not None and untraced.depth < left <= chunk:
                    n = left - untraced.depth  # the last steps as a chunk of their own: none to re-execute
                if untraced:
                    untraced.chunk()
                t0 = time.perf_counter()
                before = m.cycles
                if breakpoints:
                    m.run(n, check=False)
                else:
                    m.step(n)
                spent = time.perf_counter() - t0
                if n == chunk:  # aim each chunk at one frame
                    chunk = max(1, min(chunk * 8, int(chunk * FRAME / max(spent, 1e-6))))
                if time.perf_counter() - checkpoint >= CHECKPOINT_EVERY:
                    self.history.record()
                    checkpoint = time.perf_counter()
                self._serve_queue()
                if until is not None and self._arrived(until):
                    message = f"{m.cycles - start:,} instructions, {until.done}"
                    break
                others = m.status == "halted" and _other_lanes_running(m)  # a batched run goes on for them
                ran += m.cycles - before or (n if others else 0)
                if m.cycles == before and not others:
                    break
                passing = (m.status == "breakpoint" and m.pc == self._temporary  # not there yet (a deeper call)
                           or m.status == "watchpoint" and over_watchpoints or others)
                if m.status != "running" and not passing:
                    break
                if time.perf_counter() - shown >= FRAME:
                    self._publish()
                    shown = time.perf_counter()
        except Exception as error:  # a fault: the machine keeps its state, the view says what happened
            message = str(error)
        if self._temporary is not None:
            self.machine.breakpoints.discard(self._temporary)
            self._temporary = None
        if untraced:
            try:
                untraced.finish()
            except Exception as error:  # re-execution failed: the machine is as the run left it, its trace empty
                message = message or f"the trace could not be rebuilt: {error}"
            self._untraced = None
        with self._lock:
            self.history.record()  # every stop is a checkpoint
            self._worker = None
            self._serve_queue()
            self.running = False
            self._finish(message or self._stop_text(m.cycles - start))

    def _stop_text(self, ran: int) -> str:
        m = self.machine
        status = m.status
        if status == "fault":  # the PC is at the instruction that faulted
            text = dict(m.disassemble(m.pc, 1)).get(m.pc, "")
            why = f"fault at {wire.location(self.debug_layout, m.pc)}" + (f" ({text})" if text else "")
        else:
            why = {"running": "paused" if self._pause.is_set() else "", "breakpoint": "stopped at a breakpoint",
                   "watchpoint": "stopped at a watchpoint" + (f" ({m.stop_detail})" if m.stop_detail else ""),
                   "halted": "halted", "stdin": "waiting for input on stdin"}.get(status, status)
        return f"{ran:,} instruction{'s' if ran != 1 else ''}" + (f", {why}" if why else "")

    def _finish(self, message: str) -> None:
        self._message = message
        self._publish()

    def _serve_queue(self) -> None:
        with self._lock:
            queue, self._queue = self._queue, []
        for content in queue:
            self.handle(content)

    def _when_free(self, content: dict) -> bool:
        """Queue a request for the worker if it owns the machine (and this is not it); True if queued."""
        with self._lock:
            if self._worker is None or self._worker is threading.current_thread():
                return False
            self._queue.append(content)
            return True

    def wait(self, timeout: float | None = None) -> None:
        """Block until the current step or run ends. Ctrl-C (interrupting the kernel) pauses it."""
        worker = self._worker
        if worker is None:
            return
        try:
            worker.join(timeout)
        except KeyboardInterrupt:
            self._pause.set()
            worker.join()
            raise

    # --- actions: the view's buttons send them; code calls these, which wait unless told not to ------
    def step(self, n: int = 1, wait: bool = True) -> None:
        self.on_step({"n": n})
        if wait:
            self.wait()

    def run(self, max_cycles: int | None = None, wait: bool = True) -> None:
        """Run until a breakpoint, halt, fault, `max_cycles` or `pause()`. With `wait=False` it returns
        at once and the machine runs on while the notebook goes on (leave the machine alone meanwhile)."""
        self.on_run({"max_cycles": max_cycles})
        if wait:
            self.wait()

    def step_over(self, wait: bool = True) -> None:
        """One instruction; a call runs until it returns (a breakpoint inside still stops it)."""
        self.on_step_over({})
        if wait:
            self.wait()

    def step_out(self, wait: bool = True) -> None:
        """Run until the current function returns to its caller."""
        self.on_step_out({})
        if wait:
            self.wait()

    def run_to(self, where, wait: bool = True) -> None:
        """Run until the PC reaches `where` (a location or, on machines with symbols, a name)."""
        named = isinstance(where, str) and isinstance(self.machine, Symbolic)
        location = self.machine.address(where) if named else int(where)
        self.on_run_to({"key": hex(location)})
        if wait:
            self.wait()

    def goto(self, cycle: int, wait: bool = True) -> None:
        """Move to any recorded cycle, back or forward (the scrubber): exact, by re-execution."""
        self.on_goto({"cycle": cycle})
        if wait:
            self.wait()

    def set_register(self, name: str, value) -> None:
        """As typed into the registers panel: an edit that stepping back undoes."""
        self.on_set_register({"name": name, "value": str(value)})

    def write_memory(self, address: int, data: bytes) -> None:
        """As typed into the memory panel (the shown lane's memory): an edit that stepping back undoes."""
        self.on_write_memory({"address": format(address, "x"), "bytes": bytes(data).hex()})

    def show_lane(self, lane: int) -> None:
        """The lane picker: show another lane of a batched machine."""
        self.on_lane({"lane": lane})

    def assemble(self, source: str) -> None:
        """The editor: reassemble and load `source`, breakpoints kept by line (errors show in the view)."""
        self.on_assemble({"source": source})

    def pause(self) -> None:
        self.on_pause({})

    def back(self, n: int = 1) -> None:
        self.on_back({"n": n})

    def reset(self) -> None:
        self.on_reset({})

    def on_step(self, content: dict) -> None:
        n = int(content.get("n", 1))
        if n < 1:
            raise ValueError(f"cannot step {n} instructions")
        self._start(n, False)

    def on_run(self, content: dict) -> None:
        self._start(content.get("max_cycles"), True)

    def on_pause(self, content: dict) -> None:
        self._pause.set()

    def _idle_only(self, what: str) -> None:
        if self._worker is not None:
            raise RuntimeError(f"pause before {what}")

    def on_back(self, content: dict) -> None:
        with self._lock:
            self._idle_only("stepping back")
            n = int(content.get("n", 1))
            self._begin_action()
            before = self.machine.cycles
            reached = self.history.back(n)
            went = before - reached
            note = "" if went == n else f" (history starts at cycle {self.history.oldest:,})"
            self._finish(f"back {went:,} instruction{'s' if went != 1 else ''}{note}")

    def on_reset(self, content: dict) -> None:
        with self._lock:
            self._idle_only("reset")
            self.machine.reset()
            self._restart_history()
            self.pages.forget()
            self._values, self._flags = {}, {}
            self._begin_action()
            self._finish("reset")

    def on_step_over(self, content: dict) -> None:
        if self._worker is not None:
            return
        m = self.machine
        after = m.return_address(m.pc)
        if after is None:
            self._start(1, False)
        else:
            self._start(None, True, Until(after, self._stack_pointer(), "stepped over the call"))

    def on_step_out(self, content: dict) -> None:
        if self._worker is not None:
            return
        frames = self.machine.call_stack()
        if not frames or frames[0].returns_to is None:
            self._finish("step out: no caller to return to (this is the outermost frame)")
            return
        name = frames[0].function or "the function"
        self._start(None, True, Until(frames[0].returns_to, frames[0].stack, f"returned from {name}"))

    def on_run_to(self, content: dict) -> None:
        location = int(content["key"], 16)
        self._start(None, True, Until(location, None, f"reached {wire.location(self.debug_layout, location)}"))

    def on_goto(self, content: dict) -> None:
        """The scrubber: to any cycle between the history's start and the furthest reached."""
        with self._lock:
            self._idle_only("moving in time")
            target = max(self.history.oldest, min(int(content["cycle"]), self._furthest))
            now = self.machine.cycles
        if target < now:
            self.on_back({"n": now - target})
        elif target > now:
            self._start(target - now, False, over_watchpoints=True)

    def on_set_register(self, content: dict) -> None:
        """A register typed into the view: {"name", "value": text (0x…, decimal, negative; a number)}."""
        name, text = str(content["name"]), str(content["value"]).strip()
        value = _number(text)
        self._edit(lambda: self.machine.set_register(name, value), f"{name} = {text}")

    def on_write_memory(self, content: dict) -> None:
        """Bytes typed into the memory view: {"address": hex, "bytes": hex text, spaces allowed}."""
        address = int(str(content["address"]), 16)
        try:
            data = bytes.fromhex(str(content["bytes"]))
        except ValueError:
            raise ValueError(f"not hex bytes: {content['bytes']!r} (type e.g. 2a or de ad be ef)") from None
        if not data:
            raise ValueError("no bytes to write")
        lane = {"lane": self.machine.lane} if isinstance(self.machine, Batched) and self.machine.lanes > 1 else {}
        self._edit(lambda: self.machine.write_memory(address, data, **lane),
                   f"{len(data)} byte{'s' if len(data) != 1 else ''} written at 0x{address:x}")
        self._typed = (address, len(data))  # marked changed in the memory view, as a store would be

    def _edit(self, change, what: str) -> None:
        with self._lock:
            self._idle_only("editing")
            self._begin_action()
            self.history.edit(change)
            self._furthest = self.machine.cycles  # the future after an edit is not the one recorded
            self._finish(what)

    def on_watch(self, content: dict) -> None:
        """{"where": address, register-free text or a symbol, "size": bytes, "access": 'w', 'r' or 'rw'}."""
        if self._when_free(content):
            return
        where, access = str(content["where"]).strip(), str(content.get("access", "w"))
        size = int(content["size"]) if content.get("size") not in (None, "") else None
        try:
            target = int(where, 0)
        except ValueError:
            target = where  # a label or symbol: the machine resolves it
        self.machine.watchpoints.add(target, size, read="r" in access, write="w" in access)
        self.refresh_view() if self._worker is None else None

    def on_unwatch(self, content: dict) -> None:
        if self._when_free(content):
            return
        self.machine.watchpoints.remove(int(str(content["address"]), 16), int(content["size"]))
        self.refresh_view() if self._worker is None else None

    def on_lane(self, content: dict) -> None:
        """Show another lane of a batched machine. History stays while both lanes have run alike."""
        with self._lock:
            self._idle_only("changing lanes")
            m = self.machine
            before = m.cycles
            m.lane = int(content["lane"])
            if m.cycles != before:  # the lanes ran apart: the history's clock was the other lane's
                self._restart_history()
            self._values, self._flags = {}, {}
            self.pages.forget()
            self._begin_action()
            self._finish(f"lane {m.lane}")

    def on_assemble(self, content: dict) -> None:
        """The editor: reassemble the program, load it afresh, keep the breakpoints (by source line)."""
        with self._lock:
            self._idle_only("assembling")
            try:
                self.machine.reload(str(content["source"]))
            except SourceErrors as error:
                self._source_error = {"line": error.line, "column": error.column, "message": str(error)}
                more = len(error.diagnostics) - 1
                self._finish(f"not assembled: {str(error.diagnostics[0]).splitlines()[0]}"
                             + (f" (and {more} more)" if more else ""))
                return
            self._source_error = None
            self._restart_history()
            self.pages.forget()
            self._values, self._flags = {}, {}
            self._begin_action()
            n, kept = len(self.machine.program), len(self.machine.breakpoints)
            self._finish(f"assembled and loaded {n} instructions; {kept} breakpoint{'s' if kept != 1 else ''} kept")

    def on_toggle_breakpoint(self, content: dict) -> None:
        if self._when_free(content):
            return
        location = int(content["key"], 16)
        breakpoints = self.machine.breakpoints
        (breakpoints.discard if location in breakpoints else breakpoints.add)(location)
        self.refresh_view() if self._worker is None else None

    def on_memory(self, content: dict) -> None:
        """A page of memory: {"address": hex} -> page message + its bytes as one buffer."""
        if self._when_free(content):
            return
        last = self.machine.trace[-1:] if self.machine.cycles > self.history.oldest else []
        store = self._typed or (last[0].memory_write if last and last[0].cycle == self.machine.cycles - 1 else None)
        message, data = self.pages.read(int(str(content["address"]), 16), self._generation, store)
        self.reply(content, message, [data])

    # --- static fallback -------------------------------------------------------------------------
    def static_html(self) -> str:
        s = self.machine_state
        with self._lock:  # the worker owns the machine while it runs: show memory when it stops
            page = None if self._worker else self.pages.read(int(self.memory_address, 16), self._generation)
        head = html.table(["", ""], [["pc", s["pc"]], ["cycles", f"{s['cycles']:,}"], ["status", shown_status(s["status"], s["cycles"])]])
        return html.view(
            f"Debugger: {s['title']} at cycle {s['cycles']:,}",
            html.box(static.registers([g for g in s["groups"] if g["open"]], self.radix), static.flags(s["flags"]), head),
            html.box(static.listing(s["listing"])),
            html.box(static.frames(s["frames"]), static.watchpoints(s["watchpoints"]))
            if s["frames"] or s["watchpoints"] else "",
            *(html.box(static.panel(p)) for p in s["panels"]),
            html.box(static.memory(*page, s["address_digits"])) if page else "",
            html.box(static.trace(s["trace"], self.radix)),
        )


def _number(text: str):
    """A typed value: an integer (0x…, 0b…, decimal, negative) or, failing that, a real number."""
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"not a number: {text!r} (type e.g. 42, -7 or 0x2a)") from None


def _other_lanes_running(machine) -> bool:
    """Lanes of a batched machine still running, whatever the shown lane does."""
    return isinstance(machine, Batched) and machine.lanes > 1 and machine.lane_counts().get("running", 0) > 0


def _lane_states(machine) -> str:
    """'60 halted, 4 running': how the lanes of a batched machine stand."""
    return ", ".join(f"{n:,} {status}" for status, n in machine.lane_counts().items() if n)
