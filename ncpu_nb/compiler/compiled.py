"""`compile_python`: a subset of Python -> an nCPU `Program`, and `CompiledPython`, what it made.

    compiled = ncpu_nb.compile_python('''
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)
    x = fib(n)
    ''', inputs=["n"])
    compiled.run(n=10)          # {'n': 10, 'x': 55}
    compiled.program            # the listing, each instruction with its Python line
    compiled.debugger(n=10)     # the nCPU debugger on it

Integers are the machine's: 32-bit two's complement, wrapping on overflow (Python's would grow);
everything else — `//` and `%` flooring, `and`/`or` giving an operand, negative indices, the
exceptions a division by zero or a bad index raise — is Python's. The subset is listed in
`ncpu_nb.compiler.python_subset`; anything outside it is a `CompileError` listing every problem
with line, column and caret. A runtime error stops the program and `run` raises
`CompiledRuntimeError` naming Python's exception and the Python line.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from html import escape

from ncpu_nb import html
from ncpu_nb.compiler.codegen import CodeGen, Site, wrap32
from ncpu_nb.compiler.python_subset import Problems, check_subset, parse
from ncpu_nb.compiler.register_roles import ERROR_CELL
from ncpu_nb.compiler.scopes import LIST, Analysis
from ncpu_nb.errors import CompiledRuntimeError
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import REGISTERS

RUNTIME_NOTE = "# (compiled runtime: the final HALT, the list allocator, the runtime-error exits)"


@dataclass(frozen=True)
class Variable:
    """A module variable of a compiled program: where it lives (a register, or a memory address) and
    its type ('int', or 'list': the value is the address of element 0, the length the word before)."""

    name: str
    type: str
    register: str | None = None
    address: int | None = None

    @property
    def where(self) -> str:
        return self.register or f"[{self.address}]"


@dataclass(frozen=True)
class CompiledPython:
    """What `compile_python` made (see the module docstring).

    program    the nCPU Program; `program.source` is the Python (plus one note line for the runtime),
               `program.lines` the Python line of every instruction
    assembly   the assembly text it was assembled from
    variables  module variable name -> `Variable` (register or address, type)
    inputs     the module variables given values at the start (`run(n=10)`)
    constants  instruction index -> (line, column, value) of the Python literal its immediate is
    sites      the runtime-error exits: Python's exception, message, line and column
    """

    source: str
    program: Program
    assembly: str
    variables: dict
    inputs: tuple
    constants: dict
    sites: tuple = ()
    functions: tuple = ()
    notes: dict = field(default_factory=dict)

    # --- running ------------------------------------------------------------------------------------
    def with_inputs(self, values: dict) -> tuple[Program, dict]:
        """The program with the inputs in memory placed in its data image, and the register inputs."""
        unknown = set(values) - set(self.inputs)
        if unknown:
            raise KeyError(f"not an input of this program: {', '.join(sorted(unknown))}; inputs: "
                           f"{', '.join(self.inputs) or 'none'} (compile_python(..., inputs=[...]))")
        registers, data = {}, bytearray(self.program.data)
        for name, value in values.items():
            variable = self.variables[name]
            value = wrap32(int(value))
            if variable.register:
                registers[variable.register] = value
            else:
                data[variable.address:variable.address + 4] = (value & 0xFFFF_FFFF).to_bytes(4, "little")
        return replace(self.program, data=bytes(data)), registers

    def cpu(self, mode: str = "fast", max_steps: int | None = None, **inputs):
        """An nCPU loaded with the program and `inputs`, ready to run or debug."""
        from ncpu_nb.ncpu.cpu import CPU

        program, registers = self.with_inputs(inputs)
        return CPU(program, mode=mode, registers=registers, max_steps=max_steps)

    def run(self, mode: str = "fast", max_steps: int | None = None, **inputs) -> dict:
        """Run on the nCPU with `inputs`; the module variables it ends with (ints, lists of ints).
        A runtime error raises CompiledRuntimeError; no HALT within `max_steps`, CycleBudgetExceeded."""
        cpu = self.cpu(mode=mode, max_steps=max_steps, **inputs)
        cpu.run()
        return self.read(cpu)

    def error(self, machine) -> CompiledRuntimeError | None:
        """The runtime error a halted machine stopped on (None if it ran to its end)."""
        code = _word(machine, ERROR_CELL)
        if not code:
            return None
        site: Site = self.sites[code - 1]
        lines = self.source.splitlines()
        text = lines[site.line - 1] if 0 < site.line <= len(lines) else ""
        return CompiledRuntimeError(site.kind, site.message, site.line, site.column, text, site.length)

    def read(self, machine, check: bool = True) -> dict:
        """The module variables of a machine that ran this program (an nCPU, or anything with
        `registers` and `read_memory`). With `check`, a runtime error raises it."""
        error = self.error(machine)
        if error is not None and check:
            raise error
        registers = machine.registers
        values = {}
        for name, variable in self.variables.items():
            value = registers[variable.register] if variable.register else _word(machine, variable.address)
            if variable.type == LIST:
                value = _list(machine, value)
            values[name] = value
        return values

    def debugger(self, mode: str = "fast", **inputs):
        """The nCPU debugger on this program with `inputs`; the listing shows each instruction's Python line."""
        return self.cpu(mode=mode, **inputs).debugger()

    # --- display ------------------------------------------------------------------------------------
    def layout(self) -> list[tuple[str, str, str]]:
        """(variable, type, where) of every module variable."""
        return [(v.name, v.type, v.where) for v in self.variables.values()]

    def _repr_html_(self) -> str:
        rows = [[escape(n), t, escape(w)] for n, t, w in self.layout()]
        head = (f"Compiled Python: {len(self.program)} instructions, {len(self.variables)} module variables"
                + (f", functions {', '.join(self.functions)}" if self.functions else ""))
        return html.view(head, html.table(["variable", "type", "home"], rows) + self.program.listing_html())

    def __repr__(self) -> str:
        return f"<CompiledPython: {len(self.program)} instructions, variables {', '.join(self.variables)}>"


def _word(machine, address: int) -> int:
    raw = int.from_bytes(bytes(machine.read_memory(address, 4)), "little")
    return raw - (1 << 32) if raw & 0x8000_0000 else raw


def _list(machine, address: int) -> list[int] | None:
    if address < 4:
        return None  # never assigned
    n = _word(machine, address - 4)
    raw = bytes(machine.read_memory(address, 4 * n))
    return [wrap32(int.from_bytes(raw[4 * k:4 * k + 4], "little")) for k in range(n)]


def compile_python(source: str, inputs=(), name: str = "<python>") -> CompiledPython:
    """Compile a subset of Python (see `ncpu_nb.compiler.python_subset`) to an nCPU program.

    inputs  names of module variables given values when it runs (`compiled.run(a=3, b=5)`)
    Raises CompileError listing every construct outside the subset, each with line, column and caret."""
    import textwrap

    source = textwrap.dedent(source)
    inputs = tuple(inputs)
    problems = Problems(source)
    for item in inputs:
        if not (isinstance(item, str) and item.isidentifier()):
            raise ValueError(f"an input is a variable name, not {item!r}")
    tree = parse(source)
    check_subset(tree, problems)
    problems.raise_if_any()
    analysis = Analysis(tree, list(inputs), problems)
    problems.raise_if_any()
    generator = CodeGen(analysis, problems, tree)
    items = generator.generate()
    problems.raise_if_any()
    text_lines, line_of, constant_of = [], {}, {}
    for item in items:
        if item.label:
            text_lines.append(f"{item.text}:")
        else:
            text_lines.append(f"    {item.text}")
            line_of[len(text_lines)] = item.line
            constant_of[len(text_lines)] = item.constant
    assembly = "\n".join(text_lines) + "\n" + generator.data_section() + "\n"
    program = assemble(assembly, name=name)
    note_line = len(source.splitlines()) + 1
    shown = source.rstrip("\n") + "\n" + RUNTIME_NOTE + "\n"
    lines = tuple(line_of[n] or note_line for n in program.lines)
    constants = {i: constant_of[n] for i, n in enumerate(program.lines) if constant_of[n] is not None}
    program = replace(program, source=shown, lines=lines)
    variables = {}
    for variable in analysis.module.variables.values():
        if variable.hidden:
            continue
        home = variable.home
        variables[variable.name] = Variable(variable.name, variable.type,
                                            register=home.register or None if home.kind == "register" else None,
                                            address=home.offset if home.kind == "global" else None)
    return CompiledPython(source, program, assembly, variables, inputs, constants, tuple(generator.sites),
                          tuple(analysis.functions))


__all__ = ["compile_python", "CompiledPython", "Variable", "REGISTERS"]
