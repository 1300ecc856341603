"""Circuits of threshold neurons, the building block of the neural ALU, for coursework.

A neuron fires (outputs 1) when the weighted sum of its 0/1 inputs plus its bias is at least 0:

    c = Circuit()
    a, b = c.input("a"), c.input("b")
    both = c.neuron([a, b], weights=[1, 1], bias=-2)      # AND
    c.evaluate([both], {"a": [0, 1, 1], "b": [1, 0, 1]})  # -> [[0, 0, 1]]
    c.depth([both]), c.size                               # 1 layer, 1 neuron

Evaluation is vectorised over numpy arrays, so checking an 8-bit adder on all 65,536 input pairs is
one pass. `check_gate` and `check_adder` grade student-built circuits exhaustively.
"""
from __future__ import annotations

import itertools
import numbers
from dataclasses import dataclass

import numpy as np

from ncpu_nb.coursework.checks import Checks
from ncpu_nb.exercises.checker import Row


class CircuitError(ValueError):
    """A neuron wired wrongly: the message says which neuron and what is wrong."""


@dataclass(frozen=True)
class Wire:
    circuit: "Circuit"
    index: int

    def __repr__(self) -> str:
        return f"<wire {self.circuit.describe(self)}>"


class Circuit:
    def __init__(self):
        self._inputs: dict[str, int] = {}
        self._nodes: list[tuple] = []  # ("input", name) | ("const", bit) | ("neuron", inputs, weights, bias)
        self._depth: list[int] = []

    def input(self, name: str) -> Wire:
        if name in self._inputs:
            return Wire(self, self._inputs[name])
        self._inputs[name] = len(self._nodes)
        return self._add(("input", name), 0)

    def inputs(self, name: str, bits: int) -> list[Wire]:
        """`bits` inputs name0 (least significant) ... name{bits-1}."""
        return [self.input(f"{name}{i}") for i in range(bits)]

    def constant(self, bit: int) -> Wire:
        if bit not in (0, 1):
            raise CircuitError(f"a constant is 0 or 1, not {bit!r}")
        return self._add(("const", bit), 0)

    def neuron(self, inputs, weights, bias) -> Wire:
        """1 when sum(weights[i] * inputs[i]) + bias >= 0, else 0."""
        where = f"neuron {self.size + 1}"
        inputs, weights = list(inputs), list(weights)
        if not inputs:
            raise CircuitError(f"{where}: give it at least one input wire")
        if len(inputs) != len(weights):
            raise CircuitError(f"{where}: {len(inputs)} inputs but {len(weights)} weights")
        for wire in inputs:
            if not isinstance(wire, Wire) or wire.circuit is not self:
                raise CircuitError(f"{where}: {wire!r} is not a wire of this circuit")
        for value in (*weights, bias):
            if not isinstance(value, numbers.Real) or isinstance(value, bool) or not np.isfinite(value):
                raise CircuitError(f"{where}: weights and bias must be finite numbers, got {value!r}")
        depth = 1 + max(self._depth[w.index] for w in inputs)
        return self._add(("neuron", tuple(w.index for w in inputs), tuple(weights), bias), depth)

    def _add(self, node: tuple, depth: int) -> Wire:
        self._nodes.append(node)
        self._depth.append(depth)
        return Wire(self, len(self._nodes) - 1)

    @property
    def size(self) -> int:
        """How many neurons."""
        return sum(node[0] == "neuron" for node in self._nodes)

    @property
    def fan_in(self) -> int:
        """The most inputs any neuron has."""
        return max((len(node[1]) for node in self._nodes if node[0] == "neuron"), default=0)

    def depth(self, outputs) -> int:
        """The longest chain of neurons from an input to any of `outputs` (the circuit's delay)."""
        return max((self._depth[w.index] for w in outputs), default=0)

    def describe(self, wire: Wire) -> str:
        node = self._nodes[wire.index]
        return {"input": lambda: f"input {node[1]}", "const": lambda: f"constant {node[1]}",
                "neuron": lambda: f"neuron at depth {self._depth[wire.index]}"}[node[0]]()

    def evaluate(self, outputs, values: dict) -> np.ndarray:
        """Each output's 0/1 values, one row per output, for inputs given as equal-length 0/1 arrays."""
        missing = set(self._inputs) - set(values)
        if missing:
            raise CircuitError(f"no values for inputs {sorted(missing)}")
        n = len(np.atleast_1d(next(iter(values.values())))) if values else 1
        signals: list[np.ndarray | None] = [None] * len(self._nodes)
        for index, node in enumerate(self._nodes):
            if node[0] == "input":
                signals[index] = np.asarray(values[node[1]], dtype=np.int8).reshape(n)
            elif node[0] == "const":
                signals[index] = np.full(n, node[1], dtype=np.int8)
            else:
                _, sources, weights, bias = node
                total = sum(float(w) * signals[s] for s, w in zip(sources, weights)) + float(bias)
                signals[index] = (total >= 0).astype(np.int8)
        return np.stack([signals[w.index] for w in outputs])


def _all_inputs(names: list[str]) -> dict[str, np.ndarray]:
    table = np.array(list(itertools.product((0, 1), repeat=len(names))), dtype=np.int8).reshape(-1, len(names))
    return {name: table[:, i] for i, name in enumerate(names)}


def check_gate(name: str, build, truth, inputs: int = 2, max_neurons: int | None = None) -> Checks:
    """`build(circuit, *input_wires) -> wire`, checked on every input combination against
    `truth(*bits) -> 0 or 1`; optionally no more than `max_neurons` neurons."""
    def rows(build):
        c = Circuit()
        names = [f"x{i}" for i in range(inputs)]
        out = build(c, *[c.input(n) for n in names])
        if not isinstance(out, Wire):
            raise CircuitError(f"{name} must return the output wire, not {type(out).__name__}")
        values = _all_inputs(names)
        got = c.evaluate([out], values)[0]
        result = []
        for k in range(len(got)):
            bits = tuple(int(values[n][k]) for n in names)
            want = int(truth(*bits))
            result.append(Row(f"{name}{bits}", int(got[k]) == want, f"expected {want}, got {int(got[k])}"))
        if max_neurons is not None:
            result.append(Row("neurons", c.size <= max_neurons, f"{c.size} (at most {max_neurons})"))
        return result
    return Checks.of(f"{name} from threshold neurons", rows, build)


def check_adder(build, bits: int = 8, max_depth: int | None = None, max_fan_in: int | None = None,
                name: str = "adder") -> Checks:
    """`build(circuit, a_wires, b_wires) -> sum wires` (least significant first, `bits + 1` of them:
    the last is the carry out), checked on every pair of `bits`-bit numbers; optionally its depth
    (the longest chain of neurons) at most `max_depth` and no neuron with more than `max_fan_in`
    inputs (one neuron with weights 1, 2, 4, ... computes any carry: a fan-in limit rules it out)."""
    def rows(build):
        c = Circuit()
        a, b = c.inputs("a", bits), c.inputs("b", bits)
        outs = build(c, a, b)
        outs = list(outs) if isinstance(outs, (list, tuple)) else outs
        if not isinstance(outs, list) or len(outs) != bits + 1 or not all(isinstance(w, Wire) for w in outs):
            raise CircuitError(f"the adder must return a list of {bits + 1} wires (sum bits, then the carry)")
        x, y = np.meshgrid(np.arange(1 << bits), np.arange(1 << bits), indexing="ij")
        x, y = x.ravel(), y.ravel()
        values = {f"a{i}": (x >> i) & 1 for i in range(bits)} | {f"b{i}": (y >> i) & 1 for i in range(bits)}
        got_bits = c.evaluate(outs, values).astype(np.int64)
        got = sum(got_bits[i] << i for i in range(bits + 1))
        wrong = np.flatnonzero(got != x + y)
        result = [Row(f"all {len(x):,} pairs of {bits}-bit numbers", wrong.size == 0,
                      "every sum right" if wrong.size == 0 else
                      f"{wrong.size:,} wrong, e.g. {x[wrong[0]]} + {y[wrong[0]]} gave {got[wrong[0]]}")]
        depth = c.depth(outs)
        if max_depth is not None:
            result.append(Row("depth (neurons on the longest path)", depth <= max_depth,
                              f"{depth} (at most {max_depth})"))
        if max_fan_in is not None:
            result.append(Row("inputs per neuron", c.fan_in <= max_fan_in, f"at most {c.fan_in} (limit {max_fan_in})"))
        result.append(Row("size", True, f"{c.size} neurons, depth {depth}"))
        return result
    return Checks.of(f"{bits}-bit {name}", rows, build)
