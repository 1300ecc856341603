"""`TextMachine`: one session of the text machine — examples, the program found, applying it on the
nCPU in fast or neural mode. The REPL, the widget and the tests all drive this class."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ncpu_nb.ncpu.cpu import MODES
from ncpu_nb.text.execute import TextInputError, result, text_cpu, to_bytes
from ncpu_nb.text.synthesize import TextResult, TextSynthesizer

# Ready-made example sets: name -> pairs (what `examples` in the REPL lists).
PRESETS: dict[str, list[tuple[str, str]]] = {
    "caesar": [("hello", "khoor")],
    "rot13": [("Hello, World!", "Uryyb, Jbeyq!")],
    "atbash": [("wizard", "draziw"), ("abc", "zyx")],
    "upper": [("Hello World", "HELLO WORLD")],
    "swapcase": [("Hello World", "hELLO wORLD")],
    "no vowels": [("programs from examples", "prgrms frm xmpls")],
    "no digits": [("R2-D2 and C-3PO", "R-D and C-PO")],
    "stars for vowels": [("hello world", "h*ll* w*rld")],
    "reverse": [("stressed", "desserts")],
    "double": [("hello", "hheelllloo"), ("a b", "aa  bb")],
    "run-length": [("aaabccdddd", "3a1b2c4d")],
    "vigenere": [("attack at dawn", "bvwben bv gbyq")],
    "reverse + caesar": [("hello world", "gourz roohk")],
}


class TextMachine:
    """Example pairs in, an nCPU program out, then applied to new text.

        tm = TextMachine([("hello", "khoor")])
        tm.synthesize().pipeline   # caesar(3)
        tm.apply("world")          # 'zruog', run on the nCPU
        tm.mode = "neural"         # the same program, every ALU operation through the trained networks
    """

    def __init__(self, examples=(), mode: str = "fast", time_limit: float = 30.0):
        self.examples: list[tuple[str, str]] = []
        for x, y in examples:
            self.add(x, y)
        self.mode = mode
        self.time_limit = time_limit
        self.result: TextResult | None = None
        self._synthesizer = TextSynthesizer()

    # --- examples ---------------------------------------------------------------------------------
    def add(self, source: str, target: str) -> None:
        """One more example pair (checked now: single-byte text, no NUL, not too long)."""
        to_bytes(source, "example input")
        to_bytes(target, "example output")
        if any(x == source and y != target for x, y in self.examples):
            raise TextInputError(f"{source!r} already maps to a different output; an example input has one output")
        if (source, target) not in self.examples:
            self.examples.append((source, target))
        self.result = None  # the program found no longer answers the question asked

    def load_preset(self, name: str) -> None:
        if name not in PRESETS:
            raise KeyError(f"no preset {name!r}; presets are {', '.join(PRESETS)}")
        self.clear()
        for x, y in PRESETS[name]:
            self.add(x, y)

    def clear(self) -> None:
        self.examples.clear()
        self.result = None

    # --- the mode ---------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        """'fast' (the exact ALU) or 'neural' (every ALU operation through the trained networks)."""
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        self._mode = mode

    # --- synthesis and use ------------------------------------------------------------------------
    def synthesize(self, progress: Callable[[dict], None] | None = None) -> TextResult:
        """Search, verify on the exact CPU and keep the best program (`result`)."""
        self.result = self._synthesizer.synthesize(self.examples, self.time_limit, progress)
        return self.result

    def _solved(self) -> TextResult:
        if self.result is None:
            raise RuntimeError("nothing synthesized yet: add examples and synthesize first"
                               if self.examples else "no examples yet: add a pair such as hello → khoor")
        if not self.result.solved:
            raise RuntimeError(f"no program: {self.result.message}")
        return self.result

    def cpu(self, text: str, mode: str | None = None):
        """A CPU holding the program with `text` in memory, not yet run (for stepping and the debugger)."""
        return text_cpu(self._solved().program, to_bytes(text, "text to apply"), mode or self.mode)

    def apply(self, text: str, mode: str | None = None) -> str:
        """`text` through the program, run on the nCPU (in `mode`, default the machine's)."""
        cpu = self.cpu(text, mode)
        cpu.set_trace(0)  # applying needs no trace
        cpu.run()
        return result(cpu).decode("latin-1")

    def summary(self) -> TextResult:
        return self._solved()

    def debugger(self, text: str, mode: str | None = None):
        """The program in the live debugger with `text` in memory; the memory panel opens at the input."""
        from ncpu_nb.text.memory_layout import INPUT

        dbg = self.cpu(text, mode).debugger()
        dbg.memory_address = format(INPUT, "x")
        return dbg

    def save(self, path: str | Path) -> Path:
        """Write the program's assembly to `path` (an .asm file `ncpu-nb run` and `CPU` read)."""
        path = Path(path)
        path.write_text(self._solved().program.source)
        return path

    def widget(self):
        from ncpu_nb.text.text_widget import TextMachineWidget

        return TextMachineWidget(self)

    def __repr__(self) -> str:
        found = "" if self.result is None else f", found {self.result.pipeline}" if self.result.solved else ", unsolved"
        return f"<TextMachine {self.mode}: {len(self.examples)} examples{found}>"
