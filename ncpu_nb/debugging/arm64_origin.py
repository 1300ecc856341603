"""`origin` on the AArch64 machine: a dynamic backward slice in which each step's sources are found by
the machine itself.

The run is recorded once (every step's register changes and memory accesses). Walking back, the
writer of a byte is the last step that stored it, or the last system call that read into it (read,
pread64, getrandom, recvfrom: those are inputs, shown with their arguments). Which registers a step
read is not looked up in a table: the machine is put back just before the step (a snapshot of the start
and a replay), and the step is executed again once per candidate register with that register's bits
inverted — a register whose change alters the step's output is a data source, one whose change alters
the addresses the step touches chose an address. That is exact for the values this run had (a source
whose change cannot show, like x1 in `and x0, x1, x2` when x2 is 0, is not one here).
"""
from __future__ import annotations

import bisect

from ncpu_nb.arm64.machine_errors import MachineError
from ncpu_nb.debugging.origin_slice import Origin, SliceStep, Source, merged

GENERAL = [f"x{i}" for i in range(31)] + ["sp", "nzcv"]
VECTOR = [f"v{i}" for i in range(32)]
READS_INTO = {"read": (1, None), "pread64": (1, None), "getrandom": (0, None), "recvfrom": (1, None)}
FLAG_BITS = {"N": 1 << 31, "Z": 1 << 30, "C": 1 << 29, "V": 1 << 28}
MAX_NODES = 120


def _nzcv(text: str) -> int:
    return sum(bit for letter, bit in FLAG_BITS.items() if letter in text)


def _flipped(name: str, value: int) -> int:
    if name == "nzcv":
        return value ^ 0xF000_0000
    return value ^ ((1 << 128) - 1 if name.startswith("v") else (1 << 64) - 1)


def _vector_word(word: int) -> bool:
    """SIMD & FP data processing and loads/stores (bits 27 and 26 both set)."""
    return (word >> 26) & 3 == 3


class _Run:
    """One recorded run and the machine to re-execute its steps on."""

    def __init__(self, machine, max_steps: int):
        self.machine = machine
        self.settings = machine.trace_depth, machine.trace_accesses  # given back by `finish`
        self._at: int | None = None  # the step the machine stands just before, if known
        self.start = machine.snapshot()
        self.start_registers = {**machine.registers, **machine.vregs}
        machine.trace_depth, machine.trace_accesses = max_steps + 1, True
        machine.run(max_steps, check=False)
        self.trace = list(machine.trace)
        self.end = machine.snapshot()
        self.changes: dict[str, list[int]] = {}
        self.byte_writers: dict[int, list[int]] = {}
        for i, step in enumerate(self.trace):
            for name in step.changes:
                self.changes.setdefault(name, []).append(i)
            if step.flags_before != step.flags_after:
                self.changes.setdefault("nzcv", []).append(i)
            for address, size, write in step.accesses:
                if write:
                    for byte in range(address, address + size):
                        self.byte_writers.setdefault(byte, []).append(i)
        self.calls = self._calls()
        for i, call in self.calls.items():  # system calls that read data into guest memory
            if call.name in READS_INTO and 0 < call.result < 1 << 32:
                buffer = call.args[READS_INTO[call.name][0]]
                for byte in range(buffer, buffer + call.result):
                    self.byte_writers.setdefault(byte, []).append(i)
        for writers in self.byte_writers.values():
            writers.sort()

    def _calls(self) -> dict[int, object]:
        """Step index of each `svc` -> its system call (aligned from the end: the log keeps the newest,
        and a final exit has no step)."""
        log = list(self.machine.syscall_log())
        svcs = [i for i, s in enumerate(self.trace) if s.instruction.startswith("svc")]
        if log and log[-1].name in ("exit", "exit_group") and len(log) > len(svcs):
            log = log[:-1]
        return dict(zip(reversed(svcs), reversed(log)))

    def finish(self) -> None:
        """The machine where the recorded run stopped, with its trace settings as they were."""
        self.machine.trace_depth, self.machine.trace_accesses = self.settings
        self.machine.restore(self.end)

    @staticmethod
    def last(writers: list[int], before: int) -> int | None:
        k = bisect.bisect_left(writers, before) - 1
        return writers[k] if k >= 0 else None

    def register(self, name: str, before: int) -> int:
        c = self.last(self.changes.get(name, []), before)
        if c is None:
            return self.start_registers.get(name, 0)
        step = self.trace[c]
        return _nzcv(step.flags_after) if name == "nzcv" else step.changes[name][1]

    def register_source(self, name: str, before: int) -> Source:
        return Source(name, self.register(name, before), self.last(self.changes.get(name, []), before))

    def byte_sources(self, address: int, size: int, before: int) -> list[Source]:
        out, byte = [], address
        while byte < address + size:
            w = self.last(self.byte_writers.get(byte, []), before)
            end = byte + 1
            while end < address + size and self.last(self.byte_writers.get(end, []), before) == w:
                end += 1
            what = f"mem[0x{byte:x}]" if end == byte + 1 else f"mem[0x{byte:x}..0x{end - 1:x}]"
            call = self.calls.get(w) if w is not None else None
            value = int.from_bytes(self.memory_at(byte, end - byte, before), "little")
            out.append(Source(what, value, None if call else w, str(call) if call else ""))
            byte = end
        return out

    def memory_at(self, address: int, size: int, before: int) -> bytes:
        self._goto(before)
        return self.machine.read_memory(address, size)

    def _goto(self, step: int) -> None:
        """The machine just before `step` (a replay from the start, untraced)."""
        m = self.machine
        if self._at == step:
            return
        m.trace_depth = 0
        m.restore(self.start)
        if step:
            m.run(step, check=False)
        self._at = step

    def sources(self, i: int, output: str) -> tuple[list[Source], list[str]]:
        """The sources of `output` written by step `i`, found by re-executing the step with each
        candidate register inverted; and the registers that chose its addresses."""
        step, m = self.trace[i], self.machine
        if output.startswith("mem"):
            lo, _, hi = output[4:-1].partition("..")
            region = (int(lo, 16), int(hi or lo, 16) + 1 - int(lo, 16))
        else:
            region = None
        self._goto(i)
        pre = m.snapshot()
        word = int.from_bytes(m.read_memory(step.pc, 4), "little")
        m.trace_depth = 1

        def once(name: str | None):
            m.restore(pre)
            if name is not None:
                m.set_register(name, _flipped(name, m.get_register(name)))
            try:
                m.step(1)
            except MachineError:  # an inverted register can make the step impossible: a dependence too
                return None, None
            done = list(m.trace)
            accesses = tuple((a, n, w) for a, n, w in done[-1].accesses) if done else ()
            value = m.read_memory(*region) if region else m.get_register(output)
            return value, accesses

        base_value, base_accesses = once(None)
        data, addressing = [], []
        for name in GENERAL + (VECTOR if _vector_word(word) else []):
            value, accesses = once(name)
            if accesses != base_accesses:
                addressing.append(name)
            elif value != base_value:
                data.append(name)
        m.trace_depth = 0
        m.restore(pre)  # back before the step, for the memory it read
        self._at = i
        sources = [self.register_source(name, i) for name in data]
        for address, size, write in step.accesses:
            if not write:
                sources += self.byte_sources(address, size, i)
        return sources, addressing


INDEX_BELOW = 1 << 16  # an address register holding less is an index or offset (followed); more, a pointer


def arm64_origin(machine, what, at: int | None, max_steps: int, addresses: bool = False) -> Origin:
    run = _Run(machine, max_steps)
    trace = run.trace
    if isinstance(what, str) and what == "stdout":
        writes = [(i, c) for i, c in run.calls.items() if c.name in ("write", "writev") and c.args[0] == 1]
        if not writes:
            raise ValueError("the run wrote nothing to stdout")
        at, call = max(writes, key=lambda ic: ic[0])
        what = (call.args[1], call.result) if call.name == "write" else what
    at = len(trace) if at is None else at
    if not 0 <= at <= len(trace):
        raise ValueError(f"at={at} is outside the run (0..{len(trace)} steps)")
    if isinstance(what, str):
        name = what.lower()
        if name not in run.start_registers and name != "nzcv":
            raise ValueError(f"no register {what!r}")
        roots = [run.register_source(name, at)]
        target, value = name, roots[0].value
    else:
        address, size = what if isinstance(what, tuple) else (what, 8)
        roots = run.byte_sources(address, size, at)
        target = f"mem[0x{address:x}..0x{address + size - 1:x}]"
        value = int.from_bytes(run.memory_at(address, size, at), "little")
    steps: dict[tuple[int, str], SliceStep] = {}
    inputs: dict[str, Source] = {}
    pending, truncated = list(roots), False
    while pending:
        src = pending.pop()
        if src.writer is None:
            inputs.setdefault(src.what + src.note, src)
            continue
        if (src.writer, src.what) in steps:
            continue
        if len(steps) >= MAX_NODES:
            truncated = True
            continue
        i = src.writer
        step = trace[i]
        call = run.calls.get(i)
        if call is not None:  # a register a system call set (x0): the call is the input
            inputs.setdefault(str(call), Source(src.what, src.value, None, str(call)))
            continue
        sources, addressing = run.sources(i, src.what)
        steps[i, src.what] = SliceStep(i, step.pc, step.instruction, src.what, src.value, sources, addressing)
        pending += sources
        if addresses:  # indexes, not pointers: a pointer's history is where a buffer lives, not what it holds
            indexes = [run.register_source(name, i) for name in addressing]
            pending += [s for s in indexes if s.value < INDEX_BELOW]
    run.finish()
    return Origin(target, value, at, merged(steps), list(inputs.values()), machine.code_labels(), hex_pc=True,
                  truncated=truncated)
