"""`Discovery`: find a program from examples, look at it, try it. The notebook widget, the terminal
REPL and the tests all drive this one class.

    d = Discovery()
    d.preset("fib")            # or d.add([1, 1], [2]); d.add_text("2,3=5")
    d.synthesize()             # gradient descent first, then the sketches and enumeration
    print(d.summary())         # listing, size, cycles, which solver, held-out check
    d.test([13, 21])           # -> [34]

Inputs are R0, R1, …; outputs the registers after the last input."""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from ncpu_nb import html
from ncpu_nb.discovery.examples import ExampleError, format_values, parse_example
from ncpu_nb.discovery.presets import PRESETS
from ncpu_nb.errors import NcpuError
from ncpu_nb.ncpu.table import REGISTERS
from ncpu_nb.synthesis.spec import USABLE

GRADIENT_SECONDS = 5.0  # gradient descent's turn before the sketches get theirs (see SynthesisSpec.gradient_seconds)


def instruction_count(n: int) -> str:
    return f"{n} instruction" + ("" if n == 1 else "s")


class DiscoveryError(NcpuError):
    """Something asked of a discovery that it cannot do yet (no examples, no program found, ...)."""


@dataclass
class Summary:
    """What was found, in numbers: see `Discovery.summary`."""

    source: str
    size: int
    solver: str
    solved: bool
    gradient_found: bool
    held_out: tuple[int, int]
    seconds: float
    cycles: list[int]
    inputs: list[str]
    outputs: list[str]
    attempts: list = field(default_factory=list)
    stopped: bool = False

    def lines(self) -> list[str]:
        held = (f"{self.held_out[0]}/{self.held_out[1]} held-out examples pass" if self.held_out[1]
                else "no held-out examples")
        return [f"program: {instruction_count(self.size)} (+ HALT), {', '.join(self.inputs)} -> {', '.join(self.outputs)}",
                *("    " + line for line in self.source.splitlines()),
                f"found by: {self.solver} in {self.seconds:.2f} s" + (" (stopped early)" if self.stopped else ""),
                f"gradient descent alone: {'found it' if self.gradient_found else 'did not find it'}",
                f"held-out check: {held}" + ("" if self.solved else " — NOT solved"),
                f"cycles per example: {', '.join(map(str, self.cycles))}",
                "solvers tried: " + "; ".join(f"{m} {s:.2f} s ({o})" for m, s, o in self.attempts
                                              if not o.startswith("not applicable"))]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict:
        return {"program": self.source, "size": self.size, "solver": self.solver, "solved": self.solved,
                "gradient_found": self.gradient_found, "held_out": list(self.held_out),
                "seconds": round(self.seconds, 3), "cycles": self.cycles, "inputs": self.inputs,
                "outputs": self.outputs, "stopped": self.stopped,
                "attempts": [[m, round(s, 3), o] for m, s, o in self.attempts]}

    def _repr_html_(self) -> str:
        facts = [["found by", escape(self.solver)], ["size", f"{instruction_count(self.size)} (+ HALT)"],
                 ["gradient descent alone", "found it" if self.gradient_found else "did not find it"],
                 ["held-out", f"{self.held_out[0]} / {self.held_out[1]}"],
                 ["cycles per example", escape(", ".join(map(str, self.cycles)))],
                 ["time", f"{self.seconds:.2f} s"]]
        return html.view("Discovered program", html.box(html.table(["", ""], facts)),
                         f"<pre>{escape(self.source)}</pre>")


class Discovery:
    """Examples in, a verified program out.

    time_limit        seconds for the whole search
    gradient_seconds  gradient descent's turn before the discrete solvers (None: half the time limit)
    """

    def __init__(self, examples=(), held_out=(), *, time_limit: float = 30.0,
                 gradient_seconds: float | None = GRADIENT_SECONDS, name: str = "discovery"):
        self.time_limit, self.gradient_seconds, self.name = time_limit, gradient_seconds, name
        self.examples: list[tuple[list[int], list[int]]] = []
        self.held_out: list[tuple[list[int], list[int]]] = []
        self.description = ""
        self.result = None
        self._synthesizer = None
        for inputs, outputs in examples:
            self.add(inputs, outputs)
        for inputs, outputs in held_out:
            self.add(inputs, outputs, held_out=True)

    # --- examples -----------------------------------------------------------------------------------
    def preset(self, name: str) -> "Discovery":
        """Replace the examples by a preset's (see PRESETS)."""
        if name not in PRESETS:
            raise DiscoveryError(f"no preset {name!r}; the presets are {', '.join(PRESETS)}")
        p = PRESETS[name]
        self.clear()
        self.name, self.description = name, p.description
        for inputs, outputs in p.pairs(p.train):
            self.add(inputs, outputs)
        for inputs, outputs in p.pairs(p.held_out):
            self.add(inputs, outputs, held_out=True)
        return self

    def add(self, inputs, outputs, *, held_out: bool = False) -> None:
        inputs, outputs = [int(v) for v in inputs], [int(v) for v in outputs]
        shape = self.shape
        if not inputs or not outputs:
            raise ExampleError("an example needs at least one input and one output")
        if len(inputs) + len(outputs) > len(USABLE) - 2:
            raise ExampleError(f"{len(inputs)} inputs and {len(outputs)} outputs leave too few of R0-R7 to work in")
        if shape and (len(inputs), len(outputs)) != shape:
            raise ExampleError(f"this example has {len(inputs)} inputs and {len(outputs)} outputs; the others have "
                               f"{shape[0]} and {shape[1]}")
        (self.held_out if held_out else self.examples).append((inputs, outputs))
        self.result = None

    def add_text(self, text: str, *, held_out: bool = False, where: str = "") -> None:
        """Add an example typed as '1,1=2'."""
        self.add(*parse_example(text, where), held_out=held_out)

    def clear(self) -> None:
        self.examples, self.held_out, self.result, self.description = [], [], None, ""

    @property
    def shape(self) -> tuple[int, int] | None:
        first = (self.examples or self.held_out or [None])[0]
        return (len(first[0]), len(first[1])) if first else None

    @property
    def input_registers(self) -> list[str]:
        return list(REGISTERS[: self.shape[0]]) if self.shape else []

    @property
    def output_registers(self) -> list[str]:
        if not self.shape:
            return []
        k, m = self.shape
        return list(REGISTERS[k:k + m])

    def spec(self):
        from ncpu_nb.synthesis.spec import SynthesisSpec

        if not self.examples:
            raise DiscoveryError("no examples yet: add some (e.g. 1,1=2) or choose a preset")
        ins, outs = self.input_registers, self.output_registers

        def pairs(rows):
            return [[dict(zip(ins, i)), dict(zip(outs, o))] for i, o in rows]

        spec = SynthesisSpec.from_dict({"inputs": ins, "outputs": outs, "examples": pairs(self.examples),
                                        "held_out": pairs(self.held_out), "time_limit": self.time_limit,
                                        **({} if self.gradient_seconds is None
                                           else {"gradient_seconds": self.gradient_seconds})}, name=self.name)
        return spec

    # --- search ---------------------------------------------------------------------------------------
    def synthesize(self, progress=None):
        """Search (blocking; `stop()` from another thread ends it early). Returns the SynthesisResult.
        `progress(info)` is called with the synthesizer's progress dicts."""
        from ncpu_nb.synthesis.synthesizer import Synthesizer

        spec = self.spec()
        self._synthesizer = Synthesizer(progress=progress)
        try:
            self.result = self._synthesizer.synthesize(spec)
        finally:
            self._synthesizer = None
        return self.result

    def stop(self) -> None:
        synthesizer = self._synthesizer
        if synthesizer is not None:
            synthesizer.stop()

    @property
    def program(self):
        if self.result is None or self.result.program is None:
            raise DiscoveryError("no program yet: synthesize first" if self.result is None
                                 else "the search found no program that fits the examples")
        return self.result.program

    def summary(self) -> Summary:
        from ncpu_nb.ncpu.exact_check import run_exact

        program, result = self.program, self.result
        _, _, cpu = run_exact(program, [dict(zip(self.input_registers, i)) for i, _ in self.examples])
        return Summary(program.source, len(program) - 1, result.method, result.solved, result.gradient_found,
                       result.held_out, result.seconds, [int(c) for c in cpu.lane_cycles()], self.input_registers,
                       self.output_registers, list(result.attempts), result.stopped)

    def test(self, inputs) -> list[int]:
        """The found program's outputs for new inputs, run on the exact CPU."""
        from ncpu_nb.ncpu.exact_check import run_exact

        inputs = [int(v) for v in inputs]
        if len(inputs) != len(self.input_registers):
            raise ExampleError(f"the program takes {len(self.input_registers)} inputs "
                               f"({', '.join(self.input_registers)}); got {len(inputs)}")
        values, halted, _ = run_exact(self.program, [dict(zip(self.input_registers, inputs))])
        if not halted[0]:
            raise DiscoveryError(f"the program did not halt on {format_values(inputs)} within its cycle budget")
        return [int(values[0, REGISTERS.index(r)]) for r in self.output_registers]

    def cpu(self, inputs=None):
        """A CPU loaded with the program (and the inputs, or the first example's)."""
        from ncpu_nb.ncpu import CPU

        inputs = self.examples[0][0] if inputs is None else [int(v) for v in inputs]
        return CPU(self.program, registers=dict(zip(self.input_registers, inputs)))

    def debugger(self, inputs=None):
        """The program in the live debugger, inputs in place."""
        return self.cpu(inputs).debugger()

    def save(self, path) -> Path:
        """Write the program as an .asm file, a comment saying what it does first."""
        path = Path(path)
        lines = [f"; {self.name}: {', '.join(self.input_registers)} -> {', '.join(self.output_registers)}"]
        if self.description:
            lines.append(f"; {self.description}")
        lines.append(f"; found by {self.result.method if self.result else '?'} (ncpu-nb discover) from "
                     f"{len(self.examples)} examples")
        lines += [f";   {format_values(i)} = {format_values(o)}" for i, o in self.examples]
        try:
            path.write_text("\n".join(lines + [self.program.source, ""]))
        except OSError as exc:
            raise DiscoveryError(f"cannot write {path}: {exc.strerror}") from exc
        return path

    def example_lines(self) -> list[str]:
        rows = [f"  {format_values(i)} = {format_values(o)}" for i, o in self.examples]
        rows += [f"  {format_values(i)} = {format_values(o)}   (held out)" for i, o in self.held_out]
        return rows
