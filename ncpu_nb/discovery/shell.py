"""`ncpu-nb discover`: the discovery REPL.

    ncpu> preset fib
    ncpu> synthesize
    ncpu> summary
    ncpu> test 13, 21
    34

The search runs on a worker thread; Ctrl-C stops it cleanly (what was found so far is kept)."""
from __future__ import annotations

import cmd
import threading
import time

from ncpu_nb.discovery.discovery import Discovery, DiscoveryError, instruction_count
from ncpu_nb.discovery.examples import ExampleError, format_values, parse_values
from ncpu_nb.discovery.presets import PRESETS
from ncpu_nb.errors import NcpuError

PROGRESS_EVERY = 1.0  # seconds between progress lines of a running search


def run_search(discovery: Discovery, say) -> object:
    """Synthesize on a worker thread, reporting which solver runs (and gradient descent's best loss)
    through `say`; Ctrl-C asks the search to stop and waits for it."""
    state = {"method": None, "shown": 0.0, "error": None, "result": None}

    def progress(info):
        now = time.perf_counter()
        if info.get("method") != state["method"]:
            state["method"] = info.get("method")
            say(f"  trying {state['method']} ...")
        elif "loss" in info and now - state["shown"] > PROGRESS_EVERY:
            state["shown"] = now
            say(f"  gradient: {info['restarts']} restarts, best loss {info['loss']:.4f}")

    def work():
        try:
            state["result"] = discovery.synthesize(progress)
        except NcpuError as exc:
            state["error"] = exc

    worker = threading.Thread(target=work, name="discover-search", daemon=True)
    worker.start()
    while worker.is_alive():
        try:
            worker.join(0.1)
        except KeyboardInterrupt:
            say("  stopping ...")
            discovery.stop()
    if state["error"] is not None:
        raise state["error"]
    return state["result"]


class DiscoverShell(cmd.Cmd):
    intro = ("Programs from examples. Type `preset fib` then `synthesize`, or add your own examples "
             "(`add 1,1=2`); `help` lists the commands.")
    prompt = "ncpu> "

    def __init__(self, discovery: Discovery | None = None, stdin=None, stdout=None):
        super().__init__(stdin=stdin, stdout=stdout)
        if stdin is not None:
            self.use_rawinput = False
        self.discovery = discovery or Discovery()

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def onecmd(self, line: str) -> bool:
        try:
            return super().onecmd(line)
        except NcpuError as exc:
            self.say(f"error: {exc}")
            return False

    def emptyline(self) -> bool:
        return False

    def default(self, line: str) -> bool:
        self.say(f"unknown command {line.split()[0]!r}; `help` lists the commands")
        return False

    # --- commands -------------------------------------------------------------------------------
    def do_preset(self, arg: str) -> None:
        """preset NAME — load a preset's examples (without NAME: list the presets)"""
        name = arg.strip()
        if not name:
            for preset in PRESETS.values():
                self.say(f"  {preset.name:11s} {preset.description}")
            return
        self.discovery.preset(name)
        d = self.discovery
        self.say(f"{name}: {d.description}")
        self.say(f"{len(d.examples)} examples, {len(d.held_out)} held out; inputs {', '.join(d.input_registers)}"
                 f" -> outputs {', '.join(d.output_registers)}")

    def do_examples(self, arg: str) -> None:
        """examples — list the examples (inputs = outputs)"""
        lines = self.discovery.example_lines()
        self.say("\n".join(lines) if lines else "no examples yet: `add 1,1=2` or `preset fib`")

    def do_add(self, arg: str) -> None:
        """add IN,IN,...=OUT,... — add an example, e.g. add 1,1=2 (inputs in R0, R1, ...)"""
        self.discovery.add_text(arg.strip())
        self.say(f"{len(self.discovery.examples)} examples")

    def do_clear(self, arg: str) -> None:
        """clear — remove every example"""
        self.discovery.clear()
        self.say("no examples")

    def do_synthesize(self, arg: str) -> None:
        """synthesize — search for a program that fits the examples (Ctrl-C stops it)"""
        result = run_search(self.discovery, self.say)
        if result.program is None:
            self.say("stopped: nothing found yet" if result.stopped else
                     f"no program found in {result.seconds:.1f} s")
        elif result.solved:
            self.say(f"found by {result.method} in {result.seconds:.2f} s: {instruction_count(len(result.program) - 1)} "
                     f"(+ HALT), held-out {result.held_out[0]}/{result.held_out[1]}")
        else:
            self.say(f"found by {result.method} but it fails held-out examples "
                     f"({result.held_out[0]}/{result.held_out[1]}): not solved")

    def do_summary(self, arg: str) -> None:
        """summary — the program found: listing, size, cycles, solver, held-out check"""
        self.say(str(self.discovery.summary()))

    def do_test(self, arg: str) -> None:
        """test IN,IN,... — run the program on new inputs, e.g. test 13, 21"""
        if not arg.strip():
            raise ExampleError("test needs inputs, e.g. test 13, 21")
        self.say(format_values(self.discovery.test(parse_values(arg, "test: "))))

    def do_save(self, arg: str) -> None:
        """save FILE — write the program as an .asm file"""
        if not arg.strip():
            raise DiscoveryError("save needs a file name, e.g. save fib.asm")
        self.say(f"wrote {self.discovery.save(arg.strip())}")

    def do_quit(self, arg: str) -> bool:
        """quit — leave (also exit, or Ctrl-D)"""
        return True

    do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:
        """Ctrl-D — leave"""
        self.say()
        return True
