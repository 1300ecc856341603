"""Two runs side by side: where they part, and where their control flow meets again.

    diff = ncpu_nb.diff_runs(machine_a, machine_b)   # two machines in their starting states
    diff                                             # the summary and the steps around the divergence
    diff.divergence, diff.rejoin                     # the first difference; where the paths meet again

Both machines run (up to `max_steps` instructions each) with every step recorded, through the
machine protocol, so any engine with a trace works: the nCPU (`CPU`, fast or neural mode) and the
AArch64 machine (`Arm64Machine`, where symbols from the ELF name the code). The machines are
deterministic, so the comparison is exact: every step before `divergence.step` executed the same
instruction at the same address, wrote the same values to the same registers, flags and memory.

The first difference is one of
  * "instruction": the runs execute different instructions (another program, another entry point);
  * "control flow": the same instruction went to a different next instruction (a branch decided
    otherwise);
  * "values": the same instruction wrote different values (different inputs reached it);
  * "memory": the same instruction wrote memory at a different address or width;
  * "flags": the same instruction left different flags;
  * "length": one run ended (halted, exited, faulted or ran out of steps) while the other went on.
The first difference is often in data (different inputs flow through the same instructions);
`branch` is the first step where control flow itself parts ("control flow", or "instruction"), and
`rejoin` the first pair of steps after it (one in each run) from which both runs execute the same
addresses again for a while (`agree` steps): where the paths merge.
On the AArch64 machine the system calls are compared too (`syscall_divergence`), and the outputs.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.protocol import AccessTracing, Hosted, MachineProtocol, TraceStep

AGREE = 4  # steps at the same addresses that count as control flow having met again


@dataclass(frozen=True)
class Divergence:
    step: int  # the first step that differs (0-based); the steps before it are identical
    kind: str  # entry, control flow, values, memory, flags or length
    a: TraceStep | None
    b: TraceStep | None
    detail: str


@dataclass(frozen=True)
class Rejoin:
    step_a: int
    step_b: int
    pc: int


def _key(step: TraceStep) -> tuple:
    changes = tuple(sorted((register, new) for register, (_, new) in step.changes.items()))
    return step.pc, step.instruction, step.next_pc, changes, step.memory_write, step.flags_after


def _hex(value: int) -> str:
    return f"0x{value:x}"


def _control(step: TraceStep) -> tuple:
    return step.pc, step.instruction, step.next_pc


def _describe(i: int, x: TraceStep, y: TraceStep) -> Divergence:
    """What differs between two steps that were to be the same."""
    if x.pc != y.pc or x.instruction != y.instruction:
        return Divergence(i, "instruction", x, y, f"different instructions: {x.instruction} at {_hex(x.pc)} and "
                                                  f"{y.instruction} at {_hex(y.pc)}")
    if x.next_pc != y.next_pc:
        return Divergence(i, "control flow", x, y, f"{x.instruction} at {_hex(x.pc)} went on to "
                                                   f"{_hex(x.next_pc)} in run a, to {_hex(y.next_pc)} in run b")
    xa, yb = ({r: new for r, (_, new) in s.changes.items()} for s in (x, y))
    if xa != yb:
        parts = [f"{r}: {_hex(xa[r]) if r in xa else 'unchanged'} vs {_hex(yb[r]) if r in yb else 'unchanged'}"
                 for r in sorted(set(xa) | set(yb), key=str) if xa.get(r) != yb.get(r)]
        return Divergence(i, "values", x, y, f"{x.instruction} at {_hex(x.pc)} wrote " + "; ".join(parts))
    if x.memory_write != y.memory_write:
        return Divergence(i, "memory", x, y, f"{x.instruction} at {_hex(x.pc)} wrote memory at "
                                             f"{x.memory_write} vs {y.memory_write} (address, width)")
    return Divergence(i, "flags", x, y, f"{x.instruction} at {_hex(x.pc)} left flags "
                                        f"{x.flags_after or 'none set'} vs {y.flags_after or 'none set'}")


def _first_difference(a: list[TraceStep], b: list[TraceStep], key) -> Divergence | None:
    for i, (x, y) in enumerate(zip(a, b)):
        if key(x) != key(y):
            return _describe(i, x, y)
    if len(a) != len(b):
        shorter, longer = ("a", "b") if len(a) < len(b) else ("b", "a")
        n = min(len(a), len(b))
        return Divergence(n, "length", a[n] if n < len(a) else None, b[n] if n < len(b) else None,
                          f"run {shorter} stopped after {n:,} steps; run {longer} went on")
    return None


def _rejoin(a: list[TraceStep], b: list[TraceStep], start: int, agree: int) -> Rejoin | None:
    """The first step of run a (from `start`) whose address run b reaches too (its first time from
    `start`), with the next `agree` addresses equal in both."""
    first_in_b: dict[int, list[int]] = {}
    for j in range(start, len(b)):
        first_in_b.setdefault(b[j].pc, []).append(j)
    for i in range(start, len(a)):
        for j in first_in_b.get(a[i].pc, ())[:8]:  # a few candidates: loops revisit addresses
            n = min(agree, len(a) - i, len(b) - j)
            if all(a[i + k].pc == b[j + k].pc for k in range(n)):
                return Rejoin(i, j, a[i].pc)
    return None


class RunDiff:
    """Two recorded runs compared step by step (see the module doc)."""

    def __init__(self, a: list[TraceStep], b: list[TraceStep], *, labels: dict[int, str], outcome_a: str,
                 outcome_b: str, syscall_divergence=None, output_differs: bool = False, registers_differ=(),
                 agree: int = AGREE, context: int = 6):
        self.steps_a, self.steps_b = a, b
        self.divergence = _first_difference(a, b, _key)
        self.branch = _first_difference(a, b, _control) if self.divergence else None
        self.rejoin = (_rejoin(a, b, self.branch.step + 1, agree)
                       if self.branch and self.branch.kind == "control flow" else None)
        self.outcome_a, self.outcome_b = outcome_a, outcome_b
        self.syscall_divergence = syscall_divergence
        self.output_differs = output_differs
        self.registers_differ = list(registers_differ)
        self._labels = sorted(labels.items())
        self._context = context

    @property
    def identical(self) -> bool:
        return (self.divergence is None and self.syscall_divergence is None and not self.output_differs
                and not self.registers_differ)

    def where(self, pc: int) -> str:
        """The symbol (or code label) a PC is in, as name+offset, or the bare address."""
        i = bisect.bisect_right(self._labels, (pc, "\uffff")) - 1
        if i < 0:
            return _hex(pc)
        start, name = self._labels[i]
        return name if pc == start else f"{name}+{_hex(pc - start)}"

    def summary(self) -> list[str]:
        lines = [f"run a: {len(self.steps_a):,} steps, {self.outcome_a}",
                 f"run b: {len(self.steps_b):,} steps, {self.outcome_b}"]
        d = self.divergence
        if d is None:
            lines.append("every step identical")
        else:
            at = d.a or d.b
            lines.append(f"first divergence at step {d.step:,} ({d.kind}), in {self.where(at.pc)}: {d.detail}")
            branch = self.branch
            if branch is not None and branch is not d and branch.step != d.step:
                at = branch.a or branch.b
                lines.append(f"control flow parts at step {branch.step:,} ({branch.kind}), in {self.where(at.pc)}: "
                             f"{branch.detail}")
            if branch is not None and branch.kind == "control flow":
                lines.append(f"control flow meets again at {self.where(self.rejoin.pc)} (step {self.rejoin.step_a:,} "
                             f"of run a, {self.rejoin.step_b:,} of run b)" if self.rejoin else
                             "control flow does not meet again within the recorded steps")
        if self.syscall_divergence is not None:
            index, x, y = self.syscall_divergence
            lines.append(f"system calls part at call {index}: {x if x else '(none)'} vs {y if y else '(none)'}")
        if self.output_differs:
            lines.append("the outputs differ")
        if self.registers_differ:
            lines.append(f"registers at the end differ: {', '.join(self.registers_differ)}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def rows(self) -> list[tuple]:
        """(step, run a's step, run b's step) where control flow parts (or, if it never does, at the first
        divergence): `context` steps before, then the two paths until they meet again."""
        if self.divergence is None:
            return []
        d = (self.branch or self.divergence).step  # the paths, where they part
        start = max(0, d - self._context)
        out = [(i, self.steps_a[i], self.steps_b[i]) for i in range(start, d)]
        end_a = self.rejoin.step_a if self.rejoin else d + self._context
        end_b = self.rejoin.step_b if self.rejoin else d + self._context
        span = min(max(end_a - d, end_b - d) + 1, 4 * self._context)
        for k in range(span):
            x = self.steps_a[d + k] if d + k < len(self.steps_a) and (not self.rejoin or d + k <= end_a) else None
            y = self.steps_b[d + k] if d + k < len(self.steps_b) and (not self.rejoin or d + k <= end_b) else None
            if x is None and y is None:
                break
            out.append((d + k, x, y))
        return out

    def _cell(self, step: TraceStep | None) -> str:
        if step is None:
            return "<span class='dim'>—</span>"
        changes = ", ".join(f"{r}={_hex(new)}" for r, (_, new) in step.changes.items())
        return (f"<code>{escape(self.where(step.pc))}</code> {escape(step.instruction)}"
                f"<div class='dim'>{escape(changes)}</div>")

    def _repr_html_(self) -> str:
        summary = "".join(f"<div>{escape(line)}</div>" for line in self.summary())
        d = self.divergence.step if self.divergence else None
        rows = [[f"{i:,}" + (" ◀" if i == d else ""), self._cell(x), self._cell(y)] for i, x, y in self.rows()]
        table = html.table(["step", "run a", "run b"], rows, numeric=(0,)) if rows else ""
        return html.view("Two runs compared", summary + table)


def _outcome(machine: MachineProtocol) -> str:
    detail = machine.stop_detail
    return f"{machine.status} ({detail})" if detail else machine.status


def diff_runs(a: MachineProtocol, b: MachineProtocol, *, max_steps: int = 200_000, agree: int = AGREE,
              context: int = 6) -> RunDiff:
    """Run two machines from their current states (each at most `max_steps` instructions), recording
    every step, and compare the runs (see the module doc). The machines are left where they stopped."""
    if max_steps < 1:
        raise ValueError("max_steps must be at least 1")

    traces = []
    for machine in (a, b):
        machine.trace_depth = max_steps + 1  # room for every step this run can take
        if isinstance(machine, AccessTracing):
            machine.trace_accesses = True  # so memory writes are compared too (the nCPU records them always)
        machine.run(max_steps, check=False)
        traces.append(list(machine.trace))

    labels = {**a.code_labels(), **b.code_labels()}
    syscalls, output_differs = None, False
    if isinstance(a, Hosted) and isinstance(b, Hosted):
        calls_a, calls_b = list(a.syscall_log()), list(b.syscall_log())
        for i in range(max(len(calls_a), len(calls_b))):
            x = calls_a[i] if i < len(calls_a) else None
            y = calls_b[i] if i < len(calls_b) else None
            if x is None or y is None or (x.name, x.arguments, x.result) != (y.name, y.arguments, y.result):
                syscalls = (i, x, y)
                break
        output_differs = (a.stdout_bytes, a.stderr_bytes) != (b.stdout_bytes, b.stderr_bytes)
    registers_differ = [name for name, value in a.registers.items() if b.registers.get(name) != value]
    return RunDiff(traces[0], traces[1], labels=labels, outcome_a=_outcome(a), outcome_b=_outcome(b),
                   syscall_divergence=syscalls, output_differs=output_differs, registers_differ=registers_differ,
                   agree=agree, context=context)
