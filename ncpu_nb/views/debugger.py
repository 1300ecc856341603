"""`Debugger`: a live debugger for any machine of the protocol — registers, memory, a listing with
breakpoints, the trace, and step / step N / run / pause / back / reset.

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

import traitlets

from ncpu_nb import html
from ncpu_nb.protocol import MachineProtocol
from ncpu_nb.views import static, wire
from ncpu_nb.views.base import MachineView, browser_code
from ncpu_nb.views.history import History
from ncpu_nb.views.retrace import UntracedRun

FRAME = 1 / 30  # seconds: the most often a running machine updates the view
CHECKPOINT_EVERY = 0.25  # seconds of running between checkpoints: the most that stepping back re-executes


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
        super().__init__()
        self._publish()

    # --- the state the view shows ----------------------------------------------------------------
    def _begin_action(self) -> None:
        """From here on, highlights show what changed since now (registers, flags, memory)."""
        self._before = (self._values, self._flags)
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
        self.machine_state = {
            "generation": self._generation, "message": self._message, "title": m.title,
            "pc": wire.location(self.debug_layout, m.pc), "cycles": cycles, "status": m.status,
            "oldest": self.history.oldest, "address_digits": self.debug_layout.address_bits // 4,
            "groups": groups, "flags": flag_rows,
            "listing": wire.listing(m, self.debug_layout, *self._listing, extras.location_weights),
            "panels": wire.panels(extras.panels),
            "trace": self._trace,
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
                self.history.restart()
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
    def _start(self, budget: int | None, breakpoints: bool) -> bool:
        with self._lock:
            if self._worker is not None:
                return False
            status = self.machine.status
            if status not in ("running", "breakpoint", "watchpoint"):
                why = {"halted": "the program has halted", "fault": "the machine stopped at a fault"}
                self._finish(f"{why.get(status, 'the machine is ' + status)}: step back or reset")
                return False
            self._pause.clear()
            self._begin_action()
            self.running = True
            self._worker = threading.Thread(target=self._work, args=(budget, breakpoints),
                                            name="ncpu-debugger", daemon=True)
            self._worker.start()
            return True

    def _work(self, budget: int | None, breakpoints: bool) -> None:
        m, message = self.machine, ""
        start, chunk = m.cycles, 1
        shown = checkpoint = time.perf_counter()
        untraced = self._untraced = UntracedRun(m) if breakpoints and m.trace_depth > 0 else None  # see `retrace`
        try:
            while not self._pause.is_set():
                left = None if budget is None else budget - (m.cycles - start)
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
                if m.status != "running" or m.cycles == before:
                    break
                if time.perf_counter() - shown >= FRAME:
                    self._publish()
                    shown = time.perf_counter()
        except Exception as error:  # a fault: the machine keeps its state, the view says what happened
            message = str(error)
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
            self.history.restart()
            self.pages.forget()
            self._values, self._flags = {}, {}
            self._begin_action()
            self._finish("reset")

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
        store = last[0].memory_write if last and last[0].cycle == self.machine.cycles - 1 else None
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
            *(html.box(static.panel(p)) for p in s["panels"]),
            html.box(static.memory(*page, s["address_digits"])) if page else "",
            html.box(static.trace(s["trace"], self.radix)),
        )
