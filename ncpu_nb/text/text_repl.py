"""`ncpu-nb text --interactive`: the text machine at a prompt.

    text> cipher hello khoor
    found: shift every letter 3 places forward, ... (caesar(3), 26 instructions)
    text> summary
    ...
    text> apply world
    zruog
"""
from __future__ import annotations

import cmd
import shlex

from ncpu_nb.errors import NcpuError
from ncpu_nb.text.text_machine import PRESETS, TextMachine

INTRO = ("The text machine: give example pairs, get an nCPU program that transforms text.\n"
         "Try: cipher hello khoor, then summary, then apply world. `help` lists the commands.")


class TextRepl(cmd.Cmd):
    prompt = "text> "
    intro = INTRO

    def __init__(self, machine: TextMachine | None = None, stdin=None, stdout=None):
        super().__init__(stdin=stdin, stdout=stdout)
        if stdin is not None:
            self.use_rawinput = False  # read the given stream, not the terminal
        self.machine = machine or TextMachine()

    # --- plumbing ---------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def onecmd(self, line: str) -> bool:
        try:
            return super().onecmd(line)
        except (NcpuError, ValueError, KeyError, RuntimeError) as exc:  # a wrong command never ends the session
            self.say(f"error: {exc.args[0] if isinstance(exc, KeyError) else exc}")
            return False

    def emptyline(self) -> bool:
        return False  # Cmd's default repeats the last command: not wanted for `cipher`

    def default(self, line: str) -> None:
        self.say(f"error: unknown command {line.split()[0]!r}; `help` lists the commands")

    def _words(self, arg: str, count: int, usage: str) -> list[str]:
        try:
            words = shlex.split(arg)
        except ValueError as exc:
            raise ValueError(f"{exc}; usage: {usage}") from None
        if len(words) != count:
            raise ValueError(f"expected {count} argument{'s' if count > 1 else ''}, got {len(words)}; usage: {usage}")
        return words

    def _synthesize(self) -> None:
        result = self.machine.synthesize()
        if result.solved:
            self.say(f"found: {result.pipeline.words()} ({result.pipeline}, {result.size} instructions, "
                     f"by {result.solver})")
        else:
            self.say(f"not found: {result.message}")

    # --- commands ---------------------------------------------------------------------------------
    def do_cipher(self, arg: str) -> None:
        """cipher INPUT OUTPUT   add an example pair and search again (quote text with spaces: cipher "a b" "b c")"""
        source, target = self._words(arg, 2, 'cipher INPUT OUTPUT, e.g. cipher hello khoor or cipher "a b" "d e"')
        self.machine.add(source, target)
        self._synthesize()

    do_example = do_cipher

    def do_synthesize(self, arg: str) -> None:
        """synthesize   search again with the examples given"""
        self._synthesize()

    def do_summary(self, arg: str) -> None:
        """summary   the transform in words, how it was found and checked, and the program"""
        if self.machine.result is None:
            self._synthesize()
        self.say(str(self.machine.summary()))

    def do_apply(self, arg: str) -> None:
        """apply TEXT   run the program on TEXT on the nCPU (the rest of the line, spaces included)"""
        if not arg:
            raise ValueError("usage: apply TEXT, e.g. apply world")
        self.say(self.machine.apply(arg))

    def do_examples(self, arg: str) -> None:
        """examples   the example pairs given so far, and the ready-made sets (`preset NAME` loads one)"""
        for x, y in self.machine.examples:
            self.say(f"  {x!r} → {y!r}")
        if not self.machine.examples:
            self.say("  no examples yet")
        self.say("presets: " + ", ".join(PRESETS))

    def do_preset(self, arg: str) -> None:
        """preset NAME   replace the examples by a ready-made set (see `examples`) and search"""
        self.machine.load_preset(arg.strip())
        self._synthesize()

    def do_clear(self, arg: str) -> None:
        """clear   forget every example and the program"""
        self.machine.clear()
        self.say("cleared")

    def do_neural(self, arg: str) -> None:
        """neural on|off   apply the program in neural mode (every ALU operation a trained network) or fast mode"""
        choice = arg.strip().lower()
        if choice not in ("on", "off"):
            raise ValueError(f"usage: neural on|off (got {arg.strip()!r})")
        self.machine.mode = "neural" if choice == "on" else "fast"
        self.say(f"mode: {self.machine.mode}")

    def do_save(self, arg: str) -> None:
        """save FILE   write the program as an .asm file (`ncpu-nb run FILE` runs it)"""
        (path,) = self._words(arg, 1, "save FILE, e.g. save caesar.asm")
        self.say(f"saved {self.machine.save(path)}")

    def do_quit(self, arg: str) -> bool:
        """quit   leave (Ctrl-D too)"""
        return True

    do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:  # noqa: N802 (the name cmd.Cmd calls at end of input)
        self.say()
        return True

    def get_names(self) -> list[str]:
        return [name for name in super().get_names() if name != "do_EOF"]  # not a command to list in help
