"""`SynthesisSpec`: what a program must do, given as input -> output examples.

Inputs and outputs are registers; an example may also place arrays in data memory (inputs) and
expect arrays there after the run (outputs): the key "memory" maps an address to a list of values
of `memory_width` bytes each. `from_sequence` and `from_arrays` build specs from an integer
sequence or from array examples."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ncpu_nb.errors import NcpuError
from ncpu_nb.ncpu.table import REGISTERS, SP

USABLE = REGISTERS[:SP]  # R0-R7: SP is the stack pointer, not a data register
MEMORY = "memory"  # the example key holding arrays: {address: [values]}
MEMORY_SIZE = 65536  # data memory per lane of the CPU the exact check runs (its stack grows down from the top)
STACK_RESERVE = 4096  # arrays stay below the stack
ARRAY_BASE, OUTPUT_BASE = 0x100, 0x800  # where from_arrays places the input array and an output array


class SpecError(NcpuError):
    """A malformed synthesis specification; the message says which field."""


def _register(name, where: str) -> str:
    if not isinstance(name, str) or name.upper() not in USABLE:
        raise SpecError(f"{where}: {name!r} is not a register (use R0-R7)")
    return name.upper()


def _memory(raw, width: int, where: str) -> dict[int, tuple[int, ...]]:
    """{address: values} from JSON (addresses may be strings), checked against the width and the memory size."""
    if not isinstance(raw, dict) or not raw:
        raise SpecError(f"{where}: {MEMORY} maps an address to a list of values, e.g. {{\"256\": [3, 1, 4]}}")
    blocks = {}
    for key, values in raw.items():
        try:
            address = int(key, 0) if isinstance(key, str) else key
        except ValueError:
            raise SpecError(f"{where}: memory address {key!r} is not an integer") from None
        if not isinstance(address, int) or isinstance(address, bool) or address < 0:
            raise SpecError(f"{where}: memory address {key!r} is not a non-negative integer")
        if address % width:
            raise SpecError(f"{where}: memory address {address} is not a multiple of the width {width}")
        if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise SpecError(f"{where}: memory at {address}: expected a list of integers")
        if address + width * len(values) > MEMORY_SIZE - STACK_RESERVE:
            raise SpecError(f"{where}: memory at {address}: {len(values)} values of {width} bytes pass the end of "
                            f"data memory ({MEMORY_SIZE - STACK_RESERVE} bytes below the stack)")
        low, high = (-(1 << 31), 1 << 32) if width == 4 else (-128, 256)
        for i, v in enumerate(values):
            if not low <= v < high:
                raise SpecError(f"{where}: memory at {address}[{i}] = {v} does not fit in {width} byte(s)")
        blocks[address] = tuple(values)
    ends = sorted((a, a + width * len(v)) for a, v in blocks.items())
    for (_, end), (start, _) in zip(ends, ends[1:]):
        if start < end:
            raise SpecError(f"{where}: memory blocks overlap at address {start}")
    return blocks


def _examples(raw, inputs, outputs, where: str, width: int = 4) -> list[tuple[dict, dict]]:
    if not isinstance(raw, list):
        raise SpecError(f"{where}: expected a list of [inputs, outputs] pairs")
    out = []
    memory_out = None
    for n, pair in enumerate(raw):
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(isinstance(d, dict) for d in pair)):
            raise SpecError(f"{where}[{n}]: expected [{{inputs}}, {{outputs}}]")
        sides = []
        for side in pair:
            regs = {_register(k, f"{where}[{n}]"): v for k, v in side.items() if k != MEMORY}
            if MEMORY in side:
                regs[MEMORY] = _memory(side[MEMORY], width, f"{where}[{n}]")
            sides.append(regs)
        got_in, got_out = sides
        if set(got_in) - {MEMORY} != set(inputs) or set(got_out) - {MEMORY} != set(outputs):
            raise SpecError(f"{where}[{n}]: needs inputs {inputs} and outputs {outputs}")
        if memory_out is None:
            memory_out = MEMORY in got_out
        elif memory_out != (MEMORY in got_out):
            raise SpecError(f"{where}[{n}]: every example must expect memory, or none")
        for k, v in {**got_in, **got_out}.items():
            if k != MEMORY and (not isinstance(v, int) or isinstance(v, bool) or not -(1 << 31) <= v < (1 << 32)):
                raise SpecError(f"{where}[{n}]: {k}={v!r} is not a 32-bit integer")
        out.append((got_in, got_out))
    return out


def _int_list(values, what: str) -> list[int]:
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                         for v in values):
        raise SpecError(f"{what}: expected a list of integers, got {values!r}")
    for i, v in enumerate(values):
        if not -(1 << 31) <= v < (1 << 32):
            raise SpecError(f"{what}[{i}]: {v} is not a 32-bit integer")
    return list(values)


@dataclass
class SynthesisSpec:
    """Named input and output registers, examples, and limits.

    examples    [(inputs, outputs)] the synthesizer learns from
    held_out    examples it never sees: a program counts as solved only if it passes them too
    constants   extra immediates the search may use (besides a small default pool)
    memory_width  bytes per value of the examples' memory arrays (4: words, LDR/STR; 1: bytes, LDRB/STRB)
    gradient_seconds  at most this long for gradient descent when other solvers follow (None: its share
                of the time limit); loops are outside its reach, so loop suites cap it to keep the
                median short, and its own figure is reported either way
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
    memory_width: int = 4
    gradient_seconds: float | None = None

    @property
    def uses_memory(self) -> bool:
        return any(MEMORY in side for pair in self.examples for side in pair)

    @property
    def output_memory(self) -> bool:
        return any(MEMORY in out for _, out in self.examples)

    @classmethod
    def from_sequence(cls, terms, *, mode: str = "next", order: int = 2, held_out: int = 2, first_index: int = 0,
                      name: str = "sequence", **options) -> "SynthesisSpec":
        """A spec from the first terms of an integer sequence.

        mode "next": the next term from the `order` previous ones: R0..R(order-1) -> R(order)
                     ([1, 1, 2, 3, 5] with order 2: (1, 1) -> 2, (1, 2) -> 3, (2, 3) -> 5)
        mode "nth":  the term from its index: R0 = n -> R1 = a(n), n counted from `first_index`
        The last `held_out` examples are kept back as held-out examples."""
        terms = _int_list(terms, "sequence")
        if mode not in ("next", "nth"):
            raise SpecError(f"mode: {mode!r} is neither 'next' (a term from the previous ones) nor 'nth' "
                            "(a term from its index)")
        if mode == "next" and not (isinstance(order, int) and 1 <= order <= len(USABLE) - 2):
            raise SpecError(f"order: {order!r} previous terms cannot be held in R0-R7 with room to work")
        if not isinstance(held_out, int) or held_out < 0:
            raise SpecError(f"held_out: {held_out!r} is not a count of examples")
        if mode == "next":
            inputs, outputs = list(USABLE[:order]), [USABLE[order]]
            pairs = [({r: v for r, v in zip(inputs, terms[i - order:i])}, {outputs[0]: terms[i]})
                     for i in range(order, len(terms))]
        else:
            inputs, outputs = ["R0"], ["R1"]
            pairs = [({"R0": first_index + i}, {"R1": t}) for i, t in enumerate(terms)]
        if len(pairs) < held_out + 2:
            need = held_out + 2 + (order if mode == "next" else 0)
            raise SpecError(f"sequence: {len(terms)} terms give {len(pairs)} examples; give at least {need} "
                            f"terms ({held_out} examples are held out)")
        cut = len(pairs) - held_out
        return cls(inputs, outputs, pairs[:cut], pairs[cut:], name=name, category="sequence", **options)

    @classmethod
    def from_arrays(cls, examples, *, held_out=(), output: str = "R2", width: int = 4, in_place: bool = False,
                    name: str = "arrays", **options) -> "SynthesisSpec":
        """A spec from (array, result) pairs: the array is placed at ARRAY_BASE, R0 = its address and
        R1 = its length. `output` a register: result is an integer in it; "array": result is a list
        expected at OUTPUT_BASE (or, with `in_place`, over the input array)."""
        if output != "array":
            output = _register(output, "output")
            if output in ("R0", "R1"):
                raise SpecError("output: R0 and R1 hold the array's address and length; use R2-R7")

        def pair(item, where):
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise SpecError(f"{where}: expected (array, result)")
            array = _int_list(item[0], f"{where} array")
            inputs = {"R0": ARRAY_BASE, "R1": len(array), MEMORY: {ARRAY_BASE: array}}
            if output == "array":
                return inputs, {MEMORY: {ARRAY_BASE if in_place else OUTPUT_BASE: _int_list(item[1],
                                                                                          f"{where} result")}}
            return inputs, {output: item[1]}

        train = [pair(item, f"examples[{i}]") for i, item in enumerate(examples)]
        test = [pair(item, f"held_out[{i}]") for i, item in enumerate(held_out)]
        data = {"inputs": ["R0", "R1"], "outputs": [] if output == "array" else [output],
                "examples": train, "held_out": test, "memory_width": width, **options}
        return cls.from_dict(data, name=name)

    @classmethod
    def from_strings(cls, examples, *, held_out=(), output: str = "string", in_place: bool = False,
                     name: str = "strings", **options) -> "SynthesisSpec":
        """A spec from (text, result) pairs: the text's bytes placed at ARRAY_BASE (R0 its address, R1
        its length; the zero after it ends it), read and written a byte at a time. `output` "string":
        the result text is expected at OUTPUT_BASE (or, with `in_place`, over the input), its zero
        byte included; a register: the result is an integer in it (a length, a count)."""
        def text(value, where):
            if not isinstance(value, str):
                raise SpecError(f"{where}: expected text, got {type(value).__name__}")
            try:
                data = value.encode("latin-1")
            except UnicodeEncodeError:
                raise SpecError(f"{where}: {value!r} has a character outside one byte (latin-1)") from None
            if 0 in data:
                raise SpecError(f"{where}: a zero byte ends a string; {value!r} holds one")
            return list(data)

        def pair(item, where):
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise SpecError(f"{where}: expected (text, result)")
            result = text(item[1], f"{where} result") + [0] if output == "string" else item[1]
            return text(item[0], f"{where} text"), result

        return cls.from_arrays([pair(item, f"examples[{i}]") for i, item in enumerate(examples)],
                               held_out=[pair(item, f"held_out[{i}]") for i, item in enumerate(held_out)],
                               output="array" if output == "string" else output, width=1, in_place=in_place,
                               name=name, **options)

    @classmethod
    def from_dict(cls, data: dict, name: str = "spec") -> "SynthesisSpec":
        if not isinstance(data, dict):
            raise SpecError("a spec is a JSON object")
        for key in ("inputs", "outputs", "examples"):
            if key not in data:
                raise SpecError(f"missing field {key!r}")
        inputs = [_register(r, "inputs") for r in data["inputs"]]
        outputs = [_register(r, "outputs") for r in data["outputs"]]
        width = data.get("memory_width", 4)
        if width not in (1, 4):
            raise SpecError(f"memory_width: {width!r} is neither 1 (bytes) nor 4 (words)")
        examples = _examples(data["examples"], inputs, outputs, "examples", width)
        if not examples:
            raise SpecError("examples: give at least one example")
        if not outputs and MEMORY not in examples[0][1]:
            raise SpecError("outputs: name at least one register (or expect memory in every example)")
        held_out = _examples(data.get("held_out", []), inputs, outputs, "held_out", width)
        if held_out and (MEMORY in held_out[0][1]) != (MEMORY in examples[0][1]):
            raise SpecError("held_out: expect memory exactly where the examples do")
        max_len, limit = data.get("max_len", 6), data.get("time_limit", 30.0)
        if not isinstance(max_len, int) or not 1 <= max_len <= 32:
            raise SpecError(f"max_len: {max_len!r} is not an integer from 1 to 32")
        if not isinstance(limit, (int, float)) or limit <= 0:
            raise SpecError(f"time_limit: {limit!r} is not a positive number of seconds")
        constants = data.get("constants", [])
        if not all(isinstance(c, int) and -(1 << 15) <= c < (1 << 15) for c in constants):
            raise SpecError("constants: integers from -32768 to 32767 (they become imm16 operands)")
        cap = data.get("gradient_seconds")
        if cap is not None and (not isinstance(cap, (int, float)) or cap <= 0):
            raise SpecError(f"gradient_seconds: {cap!r} is not a positive number of seconds")
        return cls(inputs, outputs, examples, held_out, max_len, float(limit), list(constants),
                   data.get("name", name), data.get("category", ""), data.get("description", ""), width,
                   None if cap is None else float(cap))

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
