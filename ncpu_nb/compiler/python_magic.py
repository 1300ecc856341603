"""`%%ncpu_python`: a cell of Python compiled to the nCPU, its listing shown, run, or debugged.

    %%ncpu_python n=10
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)
    x = fib(n)

Line: `NAME=VALUE` inputs (module variables set before the run; each name becomes an input), then
options: `--debug` (open the nCPU debugger on it instead of running), `--no-run` (compile and show
only), `--quiet` (no listing), `--mode fast|neural` (the ALU), `--max-steps N`, `--as NAME` (keep the
`CompiledPython` in the notebook's variable NAME). The cell's value is the module variables after the
run (a dict), or the debugger. A construct outside the subset is reported with line, column and caret.
"""
from __future__ import annotations

import shlex

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, magics_class

FLAGS = ("--debug", "--no-run", "--quiet")
VALUED = ("--mode", "--max-steps", "--as")


def parse_line(line: str) -> tuple[dict, dict]:
    """(inputs, options) from the magic's line."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"%%ncpu_python: {exc}") from None
    inputs, i = {}, 0
    options = {"mode": "fast", "max_steps": None, "as": None, "debug": False, "no_run": False, "quiet": False}
    while i < len(words):
        word = words[i]
        name, eq, value = word.partition("=")
        if word in FLAGS:
            options[word[2:].replace("-", "_")] = True
        elif name in VALUED:
            if not eq:
                if i + 1 >= len(words):
                    raise UsageError(f"{name} needs a value")
                i, value = i + 1, words[i + 1]
            options[name[2:].replace("-", "_")] = value
        elif eq and name.isidentifier():
            try:
                inputs[name] = int(value, 0)
            except ValueError:
                raise UsageError(f"input {name} takes an integer, not {value!r}") from None
        else:
            raise UsageError(f"unknown word {word!r}; the line takes NAME=VALUE inputs and "
                             f"{', '.join(FLAGS + VALUED)}")
        i += 1
    if options["max_steps"] is not None:
        if not str(options["max_steps"]).isdigit():
            raise UsageError(f"--max-steps takes a number of steps, not {options['max_steps']!r}")
        options["max_steps"] = int(options["max_steps"])
    if options["mode"] not in ("fast", "neural"):
        raise UsageError(f"--mode is fast or neural, not {options['mode']!r}")
    return inputs, options


@magics_class
class NcpuPythonMagics(Magics):
    @cell_magic("ncpu_python")
    def ncpu_python(self, line: str, cell: str):
        """%%ncpu_python [NAME=VALUE ...] [--debug] [--no-run] [--quiet] [--mode fast|neural] [--max-steps N]
        [--as NAME]: compile the cell's Python to the nCPU, show the listing, run it (see the module docstring)."""
        from IPython.display import display

        from ncpu_nb.compiler.compiled import compile_python
        from ncpu_nb.errors import CompileError

        inputs, options = parse_line(line)
        try:
            compiled = compile_python(cell, inputs=list(inputs), name="%%ncpu_python")
        except CompileError as exc:
            raise UsageError(str(exc)) from None
        if options["as"]:
            self.shell.user_ns[options["as"]] = compiled
        if not options["quiet"] and not options["debug"]:
            display(compiled)
        if options["debug"]:
            return compiled.debugger(mode=options["mode"], **inputs)
        if options["no_run"]:
            return None
        return compiled.run(mode=options["mode"], max_steps=options["max_steps"], **inputs)
