"""`SynthesisSpec`: what a program must do, given as input -> output examples."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ncpu_nb.errors import NcpuError
from ncpu_nb.ncpu.table import REGISTERS, SP

USABLE = REGISTERS[:SP]  # R0-R7: SP is the stack pointer, not a data register


class SpecError(NcpuError):
    """A malformed synthesis specification; the message says which field."""


def _register(name, where: str) -> str:
    if not isinstance(name, str) or name.upper() not in USABLE:
        raise SpecError(f"{where}: {name!r} is not a register (use R0-R7)")
    return name.upper()


def _examples(raw, inputs, outputs, where: str) -> list[tuple[dict, dict]]:
    if not isinstance(raw, list):
        raise SpecError(f"{where}: expected a list of [inputs, outputs] pairs")
    out = []
    for n, pair in enumerate(raw):
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(isinstance(d, dict) for d in pair)):
            raise SpecError(f"{where}[{n}]: expected [{{inputs}}, {{outputs}}]")
        got_in = {_register(k, f"{where}[{n}]"): v for k, v in pair[0].items()}
        got_out = {_register(k, f"{where}[{n}]"): v for k, v in pair[1].items()}
        if set(got_in) != set(inputs) or set(got_out) != set(outputs):
            raise SpecError(f"{where}[{n}]: needs inputs {inputs} and outputs {outputs}")
        for k, v in {**got_in, **got_out}.items():
            if not isinstance(v, int) or not -(1 << 31) <= v < (1 << 32):
                raise SpecError(f"{where}[{n}]: {k}={v!r} is not a 32-bit integer")
        out.append((got_in, got_out))
    return out


@dataclass
class SynthesisSpec:
    """Named input and output registers, examples, and limits.

    examples    [(inputs, outputs)] the synthesizer learns from
    held_out    examples it never sees: a program counts as solved only if it passes them too
    constants   extra immediates the search may use (besides a small default pool)
    """

    inputs: list[str]
    outputs: list[str]
    examples: list[tuple[dict, dict]]
    held_out: list[tuple[dict, dict]] = field(default_factory=list)
    max_len: int = 6
    time_limit: float = 30.0
    constants: list[int] = field(default_factory=list)
    name: str = "spec"
    category: str = ""
    description: str = ""

    @classmethod
    def from_dict(cls, data: dict, name: str = "spec") -> "SynthesisSpec":
        if not isinstance(data, dict):
            raise SpecError("a spec is a JSON object")
        for key in ("inputs", "outputs", "examples"):
            if key not in data:
                raise SpecError(f"missing field {key!r}")
        inputs = [_register(r, "inputs") for r in data["inputs"]]
        outputs = [_register(r, "outputs") for r in data["outputs"]]
        if not outputs:
            raise SpecError("outputs: name at least one register")
        examples = _examples(data["examples"], inputs, outputs, "examples")
        if not examples:
            raise SpecError("examples: give at least one example")
        held_out = _examples(data.get("held_out", []), inputs, outputs, "held_out")
        max_len, limit = data.get("max_len", 6), data.get("time_limit", 30.0)
        if not isinstance(max_len, int) or not 1 <= max_len <= 32:
            raise SpecError(f"max_len: {max_len!r} is not an integer from 1 to 32")
        if not isinstance(limit, (int, float)) or limit <= 0:
            raise SpecError(f"time_limit: {limit!r} is not a positive number of seconds")
        constants = data.get("constants", [])
        if not all(isinstance(c, int) and -(1 << 15) <= c < (1 << 15) for c in constants):
            raise SpecError("constants: integers from -32768 to 32767 (they become imm16 operands)")
        return cls(inputs, outputs, examples, held_out, max_len, float(limit), list(constants),
                   data.get("name", name), data.get("category", ""), data.get("description", ""))

    @classmethod
    def from_json(cls, path: str | Path) -> "SynthesisSpec":
        path = Path(path)
        try:
            data = json.loads(path.read_text())
        except OSError as exc:
            raise SpecError(f"cannot read {path}: {exc.strerror}") from exc
        except json.JSONDecodeError as exc:
            raise SpecError(f"{path}: line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
        return cls.from_dict(data, name=path.stem)
