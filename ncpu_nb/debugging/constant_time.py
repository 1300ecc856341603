"""Does a program's execution depend on a secret? Run it on many secrets and compare, exactly.

    report = ncpu_nb.constant_time(source, [{"R0": s} for s in secrets])       # an nCPU program
    report = ncpu_nb.constant_time(lambda s: Arm64Machine.busybox("sh", "-c", script, stdin=s), secrets)
    report.constant, report.leak                                              # the verdict; the first leak
    report.leak.line, report.leak.code    # its C source line (SourceLine) and text: ARM64 programs built with -g

A timing side channel needs the secret to change *what the machine does*: which instructions run
(the PC sequence), which way branches go, or which memory addresses are touched (caches remember
them). The machines here are deterministic and record every step, so this is checked, not sampled:
each secret's run is recorded (PC, the next PC, every memory access's address, size and direction)
and compared step by step with the first secret's run. On the AArch64 machine the engine folds the
record into a digest as it runs, so a thousand long runs cost a thousand digests; only runs whose
digest differs are traced in full to find the step where they part. Values may differ (that is the
point of a computation on secrets); nothing else may. The first step where any run departs is
reported with the instruction, the symbol or label it is in, what differs and the two secrets, and for
an AArch64 program built with `-g` the C source line of that instruction (the ELF's DWARF line table).

What this cannot see: the time an instruction itself takes for different operand values (on real
hardware some multipliers and dividers vary), and anything outside the recorded run (the kernel's
side of a system call). The runs are as long as the machine lets them be (`max_steps`).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from html import escape
from typing import Any, Callable, Sequence

from ncpu_nb import html
from ncpu_nb.protocol import AccessTracing, Hosted, MachineProtocol, Observed, TraceStep

KINDS = {"control flow": "branch outcomes (the next PC)", "memory address": "memory-access addresses",
         "length": "the number of instructions"}


@dataclass(frozen=True)
class Leak:
    """The first step at which some secret's run departs from the first secret's."""

    step: int
    kind: str  # control flow, memory address or length
    pc: int
    instruction: str
    where: str  # symbol+offset (ARM64, from the ELF) or code label (nCPU)
    secret_a: Any
    secret_b: Any
    detail: str
    line: Any = None  # SourceLine (file, line) of the instruction: an ARM64 ELF with a line table (-g)
    code: str | None = None  # that line's text, when the C file is beside the program (or bin/)


def _observed(step: TraceStep) -> tuple:
    """What a timing observer could learn from one step: where it is, where it goes, what it touches."""
    return step.pc, step.next_pc, step.accesses


def _where(labels: list[tuple[int, str]], pc: int, hex_pc: bool) -> str:
    i = bisect.bisect_right(labels, (pc, "\uffff")) - 1
    if i < 0:
        return f"0x{pc:x}" if hex_pc else f"instruction {pc}"
    start, name = labels[i]
    return name if pc == start else f"{name}+{(f'0x{pc - start:x}' if hex_pc else pc - start)}"


def _accesses_text(step: TraceStep | None) -> str:
    if step is None or not step.accesses:
        return "no memory access"
    return ", ".join(f"{'write' if w else 'read'} of {size} at 0x{address:x}" for address, size, w in step.accesses)


def _compare(reference: list[tuple], run: list[tuple]) -> tuple[int, str] | None:
    """(step, kind) of the first difference between two recorded runs, or None."""
    for i, (x, y) in enumerate(zip(reference, run)):
        if x != y:
            return i, "memory address" if x[:2] == y[:2] else "control flow"
    if len(reference) != len(run):
        return min(len(reference), len(run)), "length"
    return None


class ConstantTimeReport:
    """The verdict over every secret (see the module doc); `_repr_html_` shows it with the first leak."""

    def __init__(self, secrets: list, steps: list[int], outcomes: list[str], differing: dict[str, int],
                 first: tuple | None, labels: dict[int, str], hex_pc: bool, lines=None):
        self.secrets, self.steps, self.outcomes, self.differing = secrets, steps, outcomes, differing
        self._labels, self._hex, self._lines = sorted(labels.items()), hex_pc, lines
        self.leak = self._describe(*first) if first else None

    def _describe(self, step: int, k: int, kind: str, a: TraceStep | None, b: TraceStep | None) -> Leak:
        """The leak at `step` between the first secret's run (its step `a`) and secret k's (`b`)."""
        at = a or b
        where = _where(self._labels, at.pc, self._hex)
        pc = f"0x{at.pc:x}" if self._hex else str(at.pc)
        if kind == "control flow":
            places = [_where(self._labels, s.next_pc, self._hex) for s in (a, b)]
            detail = f"{at.instruction} at {pc} went on to {places[0]} for one secret and {places[1]} for the other"
        elif kind == "memory address":
            detail = f"{at.instruction} at {pc}: {_accesses_text(a)} for one secret, {_accesses_text(b)} for the other"
        else:
            detail = (f"one run stopped after {step:,} instructions, the other went on "
                      f"({self.outcomes[0]} / {self.outcomes[k]})")
        line = self._lines.at(at.pc) if self._lines else None
        code = self._lines.text(line) if line else None
        return Leak(step, kind, at.pc, at.instruction, where, self.secrets[0], self.secrets[k], detail, line, code)

    @property
    def constant(self) -> bool:
        """True when every secret's run executed the same instructions, took the same branches and
        touched the same addresses, for as long as the longest run."""
        return self.leak is None

    def summary(self) -> list[str]:
        n = len(self.secrets)
        lines = [f"{n:,} secrets, {min(self.steps):,}–{max(self.steps):,} instructions a run"
                 if min(self.steps) != max(self.steps) else f"{n:,} secrets, {self.steps[0]:,} instructions each"]
        if self.leak is None:
            lines.append("constant time: the same instructions, branch outcomes and memory addresses for every secret")
        else:
            leak = self.leak
            at = f" at {leak.line}" if leak.line else ""
            lines.append(f"NOT constant time: {KINDS[leak.kind]} depend on the secret, first at step {leak.step:,} "
                         f"of the run, in {leak.where}{at} ({leak.secret_a!r} vs {leak.secret_b!r}): {leak.detail}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def _repr_html_(self) -> str:
        n = len(self.secrets) - 1
        rows = []
        for kind, what in KINDS.items():
            bad = self.differing[kind]
            rows.append([escape(what), "✔ the same for every secret" if not bad else
                         f"✘ departs first by this in {bad} of {n} runs"])
        parts = ["".join(f"<div>{escape(line)}</div>" for line in self.summary()),
                 html.table(["compared with the first secret's run", "result"], rows)]
        if self.leak is not None:
            leak = self.leak
            source = ""
            if leak.line:
                code = f": <code>{escape(leak.code)}</code>" if leak.code else ""
                source = f"<div><b>source line</b>: {escape(str(leak.line))}{code}</div>"
            parts.append(html.box(f"<div><b>first leaking instruction</b>: <code>{escape(leak.instruction)}</code> "
                                  f"in <code>{escape(leak.where)}</code> (instruction {leak.step:,} of the run)</div>"
                                  f"{source}<div class='dim'>{escape(leak.detail)}</div>"))
        title = "Constant time ✔" if self.constant else "Constant time ✘"
        return html.view(title, *parts)


def _machine_for(program, secret: Any) -> MachineProtocol:
    if callable(program):
        return program(secret)
    from ncpu_nb.ncpu.cpu import CPU

    cpu = CPU(program)
    if not isinstance(secret, dict):
        raise TypeError("for an nCPU program, each secret is a dict of registers, e.g. {'R0': 7}; "
                        "pass a function secret -> machine for anything else")
    cpu.set_registers(**secret)
    return cpu


def constant_time(program: Any | Callable[[Any], MachineProtocol], secret_inputs: Sequence,
                  *, max_steps: int = 1_000_000) -> ConstantTimeReport:
    """Run `program` once per secret and report whether its PC sequence, branch outcomes or
    memory-access addresses depend on the secret (see the module doc).

    `program` is nCPU assembly (text or a Program; each secret a dict of registers, e.g. {"R0": 7})
    or, for any engine, a function from a secret to a machine in its starting state (an
    `Arm64Machine` given the secret on stdin, in argv or in a file; a CPU with it in memory). Each
    run goes at most `max_steps` instructions."""
    secrets = list(secret_inputs)
    if len(secrets) < 2:
        raise ValueError("constant_time needs at least two secrets to compare")
    if max_steps < 1:
        raise ValueError("max_steps must be at least 1")

    def traced(secret) -> tuple[MachineProtocol, list]:
        machine = _machine_for(program, secret)
        machine.trace_depth = max_steps + 1  # room for every step this run can take
        if isinstance(machine, AccessTracing):
            machine.trace_accesses = True  # where they are recorded only when asked
        machine.run(max_steps, check=False)
        return machine, list(machine.trace)

    # An Observed machine (the AArch64 one) keeps only a digest of what it did (the engine folds every PC,
    # next PC and access into it); a run whose digest differs from the first secret's is run again with a
    # full trace, as is the first secret's, to find where they part. Other machines' runs (the nCPU's are
    # short) are traced whole.
    # Every run is compared with the first secret's as it comes and dropped, but for the steps of the
    # earliest leak so far.
    reference = observed = digest = None
    steps, outcomes, differing, first = [], [], dict.fromkeys(KINDS, 0), None
    for k, secret in enumerate(secrets):
        machine = _machine_for(program, secret)
        if isinstance(machine, Observed):
            machine.set_observation(True)
            machine.run(max_steps, check=False)
            count, seen = machine.observation
            trace = None
        else:
            machine, trace = traced(secret)
            count, seen = len(trace), None
        steps.append(count)
        outcomes.append(machine.status)
        if k == 0:
            labels, hex_pc = machine.code_labels(), machine.debug_layout().hex_locations
            elf = machine.elf if isinstance(machine, Hosted) else None
            digest, reference = seen, trace
            continue
        if seen is not None and (count, seen) == (steps[0], digest):
            continue  # the same digest: the same PCs, branch outcomes and addresses
        if trace is None:
            trace = traced(secret)[1]
        if reference is None:
            reference = traced(secrets[0])[1]
        if observed is None:
            observed = [_observed(s) for s in reference]
        found = _compare(observed, [_observed(s) for s in trace])
        if found is not None:
            at, kind = found
            differing[kind] += 1
            if first is None or at < first[0]:
                first = (at, k, kind, reference[at] if at < len(reference) else None,
                         trace[at] if at < len(trace) else None)
    lines = None
    if first is not None and elf is not None:  # the leak's C source line, from the DWARF line table (-g)
        from ncpu_nb.arm64.source_lines import SourceLines

        lines = SourceLines.of(elf)
    return ConstantTimeReport(secrets, steps, outcomes, differing, first, labels, hex_pc, lines)
