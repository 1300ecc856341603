"""The `ncpu-nb` command line. Errors go to stderr with a non-zero status, never a traceback."""
from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import time
from pathlib import Path

from ncpu_nb.errors import NcpuError

STDIN_CHUNK = 1 << 16  # bytes of host stdin read each time the guest waits for input


def _parse_assignment(text: str) -> tuple[str, int]:
    from ncpu_nb.ncpu.table import REGISTERS

    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected REG=VALUE, got {text!r}")
    name = name.strip().upper()
    if name not in REGISTERS:
        raise argparse.ArgumentTypeError(f"no register {name}; registers are {', '.join(REGISTERS)}")
    try:
        return name, int(value.strip(), 0)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{value!r} is not an integer") from exc


def _parse_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):  # nan would otherwise mean "no timeout"
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return seconds


def _parse_size(text: str) -> int:
    from ncpu_nb.arm64.limits import parse_size

    try:
        size = parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if size <= 0:
        raise argparse.ArgumentTypeError(f"expected a size above zero, got {text!r}")
    return size


def _parse_positive(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"expected a whole number above zero, got {text!r}")
    return int(text)


def _parse_env(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not (sep and name):
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def _read_program(path: str):
    from ncpu_nb.ncpu.assembler import assemble

    try:
        source = Path(path).read_text()
    except OSError as exc:
        raise NcpuError(f"cannot read {path}: {exc.strerror}") from exc
    return assemble(source, name=Path(path).name)


def cmd_run(args) -> int:
    from ncpu_nb.ncpu import CPU

    program = _read_program(args.file)
    cpu = CPU(program, mode=args.mode, trace_depth=0, registers=dict(args.set or []))
    result = cpu.run(args.max_cycles)
    if args.json:
        print(json.dumps({"registers": cpu.registers, "flags": cpu.flags, "cycles": cpu.cycles,
                          "halted": cpu.halted}))
    else:
        print("  ".join(f"{k}={v}" for k, v in cpu.registers.items()))
        print("flags " + " ".join(f"{k}={int(v)}" for k, v in cpu.flags.items()))
        print(f"{cpu.cycles} cycles, {result.stop}, {result.seconds * 1e3:.2f} ms")
    return 0


def cmd_asm(args) -> int:
    program = _read_program(args.file)
    for index, label, word, text, source in program.listing():
        print(f"{index:5d}  {word:08X}  {(label + ':') if label else '':12s} {text:28s} ; {source}")
    return 0


def cmd_isa(args) -> int:
    from ncpu_nb.ncpu.isa_reference import ISAReference

    print(ISAReference().markdown() if args.markdown else ISAReference())
    return 0


def cmd_bench(args) -> int:
    from ncpu_nb import bench

    report = bench.run(args.target, quick=args.quick)
    print(json.dumps(report, indent=2) if args.json else bench.format_report(report))
    return 0


def cmd_verify(args) -> int:
    from ncpu_nb.verification import verify

    report = verify(full=args.full, progress=not args.json, device=args.device)
    if args.json:
        print(json.dumps({"exact": report.exact, "checks": [
            {"check": c.what, "domain": c.domain, "cases": c.cases, "torch_cases": c.torch_cases,
             "mismatches": c.mismatches, "seconds": round(c.seconds, 3)} for c in report]}))
    else:
        print(report)
    return 0 if report.exact else 1


def cmd_synth(args) -> int:
    from ncpu_nb.synthesis.spec import SynthesisSpec
    from ncpu_nb.synthesis.synthesizer import Synthesizer

    spec = SynthesisSpec.from_json(args.spec)
    bar = None
    if not args.json:
        from tqdm.auto import tqdm

        bar = tqdm(total=None, desc="synthesizing", unit="step", leave=False)

    def progress(info):
        bar.set_postfix({k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()})
        bar.update(10 if info.get("method") == "gradient" else 1)

    result = Synthesizer(progress=progress if bar is not None else None).synthesize(spec, time_limit=args.time_limit)
    if bar is not None:  # a tqdm bar has no truth value
        bar.close()
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        status = f"solved by {result.method}" if result.solved else (
            "fits the examples but fails the held-out ones" if result.program else "not solved")
        print(f"{spec.name}: {status} in {result.seconds:.2f} s")
        if result.program:
            print(result.program.source)
    return 0 if result.solved else 1


def cmd_synth_bench(args) -> int:
    from ncpu_nb.synthesis import synth_bench as bench

    methods = ("gradient",) if args.gradient_only else bench.METHODS
    outcomes = bench.run(args.dir, names=args.task, limit=args.limit, time_limit=args.time_limit,
                         methods=methods, ablation=args.ablation, progress=not args.json)
    print(bench.as_json(outcomes, args.ablation) if args.json
          else bench.format_report(outcomes, args.ablation, methods))
    return 0


def cmd_lab(args) -> int:
    from ncpu_nb.lab import launch

    return launch(args.dir, args.port, extra=args.jupyter_args, here=args.here)


def _forward(out: bytes, err: bytes) -> None:
    for stream, data in ((sys.stdout.buffer, out), (sys.stderr.buffer, err)):
        if data:
            stream.write(data)
            stream.flush()


def _guest_run(machine, timeout: float | None) -> int:
    """Runs a guest program with the host's standard streams; its exit status becomes ours. Host stdin
    is read only when the guest waits for input, a chunk at a time: `yes | ncpu-nb busybox head -n1`
    ends at once, and input a guest never reads stays unread."""
    stdin = _host_stdin_fd()
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        run = machine.run(timeout=left, on_output=_forward)
        if run.stop != "stdin":
            break
        data = b"" if stdin is None else os.read(stdin, STDIN_CHUNK)
        if data:
            machine.write_stdin(data)
        else:
            machine.close_stdin()
    if not run.exited:
        raise NcpuError(f"the guest did not exit: stopped ({run.stop}) after {machine.instructions:,} instructions")
    return machine.exit_status


def _host_stdin_fd() -> int | None:
    """The host's stdin as a file descriptor, None when there is none (the guest sees end of file)."""
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or replaced by an object without one
        return None


def _guest_options(args) -> dict:
    """Machine options from the command line: the guest's stdin streams from ours; its output goes
    straight to ours, so the machine keeps none of it."""
    from ncpu_nb.arm64.machine import DEFAULT_ENV

    env = dict(entry.split("=", 1) for entry in DEFAULT_ENV)
    env.update(args.env or [])
    limits = {name: value for name in ("memory", "tmpfs_size", "max_procs")
              if (value := getattr(args, name)) is not None}
    return {"env": [f"{name}={value}" for name, value in env.items()], "mounts": args.mount or (),
            "cwd": args.cwd, "interactive": True, "max_output": 0, "limits": limits}


def _passed_through(words: list[str]) -> list[str]:
    """The guest's own arguments: a leading `--` only ends our options (`ncpu-nb busybox -- --list`)."""
    return words[1:] if words[:1] == ["--"] else words


def cmd_busybox(args) -> int:
    from ncpu_nb.arm64 import Arm64Machine

    machine = Arm64Machine.busybox(*_passed_through(args.args), **_guest_options(args))
    return _guest_run(machine, args.timeout)


def cmd_exec(args) -> int:
    from ncpu_nb.arm64 import Arm64Machine
    from ncpu_nb.arm64.elf import read_elf

    elf = read_elf(args.elf)
    name = Path(args.elf).name
    machine = Arm64Machine(elf, [name, *_passed_through(args.args)], path=args.elf, **_guest_options(args))
    return _guest_run(machine, args.timeout)


def cmd_conformance(args) -> int:
    from ncpu_nb.arm64.conformance.busybox_suite import main as busybox_conformance

    return busybox_conformance(args)


# --- `ncpu-nb text`: the text machine (ncpu_nb/text) -----------------------------------------------
def _parse_text_example(text: str) -> tuple[str, str]:
    source, sep, target = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected INPUT=OUTPUT (e.g. hello=khoor), got {text!r}")
    if not source:
        raise argparse.ArgumentTypeError(f"{text!r}: the input before '=' is empty")
    return source, target


def cmd_text(args) -> int:
    from ncpu_nb.text.text_machine import TextMachine
    from ncpu_nb.text.text_repl import TextRepl

    machine = TextMachine(args.example or (), mode="neural" if args.neural else "fast", time_limit=args.time_limit)
    if args.interactive:
        if args.example:
            machine.synthesize()
        TextRepl(machine).cmdloop()
        return 0
    if not args.example:
        raise NcpuError("give examples with --example INPUT=OUTPUT (repeatable), or use --interactive")
    result = machine.synthesize()
    applied = [machine.apply(text) for text in args.apply or []] if result.solved else []
    if args.json:
        print(json.dumps({"program": result.program.source if result.solved else None, "solver": result.solver,
                          "transform": str(result.pipeline) if result.solved else None, "applied": applied}))
    else:
        print(result.summary())
        for text, out in zip(args.apply or [], applied):
            print(f"{text} → {out}")
    return 0 if result.solved else 1


def cmd_text_bench(args) -> int:
    from ncpu_nb.text import suite as bench

    outcomes = bench.run_suite(args.dir, names=args.task, limit=args.limit, time_limit=args.time_limit,
                               progress=not args.json)
    print(bench.as_json(outcomes) if args.json else bench.format_report(outcomes))
    return 0


def _add_text_commands(sub) -> None:
    p = sub.add_parser("text", help="the text machine: a text transform or cipher from examples, as an nCPU program",
                       description="Finds a text transform (Caesar, ROT13, Atbash, case, removing or replacing a "
                                   "character class, reversal, doubling, run-length encoding, Vigenère, or two of "
                                   "these in a row) from example pairs, as an nCPU program verified on the exact CPU.")
    p.add_argument("--example", action="append", type=_parse_text_example, metavar="INPUT=OUTPUT",
                   help="an example pair, e.g. --example hello=khoor (repeatable; split at the first '=')")
    p.add_argument("--apply", action="append", metavar="TEXT", help="run the program found on TEXT (repeatable)")
    p.add_argument("--neural", action="store_true", help="apply in neural mode (every ALU operation a trained network)")
    p.add_argument("--interactive", "-i", action="store_true", help="a prompt: cipher, summary, apply, help, quit")
    p.add_argument("--time-limit", type=_parse_seconds, default=30.0, help="seconds for the search (default 30)")
    p.add_argument("--json", action="store_true", help='print {"program", "solver", "transform", "applied"}')
    p.set_defaults(func=cmd_text)

    p = sub.add_parser("text-bench", help="run the text machine's suite (programs/synth/text)")
    p.add_argument("--dir", help="a folder of text tasks (default: the bundled programs/synth/text)")
    p.add_argument("--task", action="append", help="run only this task (repeatable)")
    p.add_argument("--limit", type=_parse_positive, help="run only the first N tasks")
    p.add_argument("--time-limit", type=_parse_seconds, help="seconds per task (default: each task's time_limit)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_text_bench)


def _add_guest_options(p) -> None:
    p.add_argument("--mount", action="append", metavar="HOST:GUEST[:rw]",
                   help="show a host folder to the guest (read-only unless :rw; repeatable)")
    p.add_argument("--cwd", default="/", help="the guest's working directory (default /)")
    p.add_argument("--env", action="append", type=_parse_env, metavar="NAME=VALUE",
                   help="an environment variable for the guest, besides PATH and HOME (repeatable)")
    p.add_argument("--timeout", type=_parse_seconds, help="give up after this many seconds")
    p.add_argument("--memory", type=_parse_size, metavar="SIZE",
                   help="guest memory over all its processes, e.g. 512M (default 4G; past it: ENOMEM)")
    p.add_argument("--tmpfs-size", type=_parse_size, metavar="SIZE",
                   help="bytes the in-memory filesystem may hold (default 1G; past it: ENOSPC)")
    p.add_argument("--max-procs", type=_parse_positive, metavar="N",
                   help="threads over all guest processes (default 256; past it fork fails with EAGAIN)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ncpu-nb", description="ncpu_nb: neural computers in a notebook")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="assemble and run an nCPU program")
    p.add_argument("file", help="an .asm file")
    p.add_argument("--mode", default="fast", help="fast (exact integer ALU) or neural (trained networks)")
    p.add_argument("--max-cycles", type=int, default=1_000_000, help="cycle budget (default 1,000,000)")
    p.add_argument("--set", action="append", type=_parse_assignment, metavar="REG=VALUE",
                   help="initial register value, e.g. --set R0=5 (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("asm", help="assemble a program and print its listing")
    p.add_argument("file")
    p.set_defaults(func=cmd_asm)

    p = sub.add_parser("isa", help="print the instruction set reference")
    p.add_argument("--markdown", action="store_true")
    p.set_defaults(func=cmd_isa)

    p = sub.add_parser("bench", help="measure speed")
    p.add_argument("target", choices=["fast", "neural", "debugger", "machine"])
    p.add_argument("--quick", action="store_true", help="a shorter run (for smoke tests)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("verify", help="prove the neural ALU exact: every cell on its whole domain, every "
                                      "operation against fast mode")
    p.add_argument("--full", action="store_true", help="check every pair through the torch wiring too, "
                                                       "MUL, DIV and MOD included (slower)")
    p.add_argument("--device", default="cpu", help="where the torch wiring runs: cpu (default) or cuda")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("synth", help="synthesize a program from a JSON spec of input/output examples")
    p.add_argument("spec", help='a JSON file: {"inputs": ["R0"], "outputs": ["R1"], "examples": [[{...}, {...}]], '
                                '"max_len": 6, "time_limit": 30}')
    p.add_argument("--time-limit", type=float, help="seconds (default: the spec's time_limit)")
    p.add_argument("--json", action="store_true", help='print {"solved", "program", "method", "seconds"}')
    p.set_defaults(func=cmd_synth)

    p = sub.add_parser("synth-bench", help="run the synthesis benchmark (programs/synth)")
    p.add_argument("--dir", help="a folder of task specs (default: the bundled programs/synth)")
    p.add_argument("--task", action="append", help="run only this task (repeatable)")
    p.add_argument("--limit", type=int, help="run only the first N tasks")
    p.add_argument("--time-limit", type=float, help="seconds per task (default: each task's time_limit)")
    p.add_argument("--gradient-only", action="store_true", help="gradient descent alone, no portfolio")
    p.add_argument("--ablation", choices=["random"],
                   help="random: gradient descent's sampler alone with learning rate 0 (does the gradient help?)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_synth_bench)

    p = sub.add_parser("lab", help="open the curriculum in JupyterLab",
                       epilog="Options after -- go to JupyterLab, e.g. ncpu-nb lab -- --no-browser")
    p.add_argument("--dir", help="your copy of the curriculum: made on the first run, kept (with your changes) "
                                 "on later ones (default: ~/ncpu_nb-curriculum)")
    p.add_argument("--here", action="store_true", help="open the source checkout itself (for contributors)")
    p.add_argument("--port", type=int, help="port for JupyterLab")
    p.add_argument("jupyter_args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_lab)

    p = sub.add_parser("busybox", help="run BusyBox on the AArch64 Linux machine, e.g. ncpu-nb busybox ls -l /",
                       description="Runs the bundled BusyBox (Debian's, for arm64) on the AArch64 Linux machine. "
                                   "Standard input, output and error pass through; the exit status is the guest's.")
    _add_guest_options(p)
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="the applet and its arguments")
    p.set_defaults(func=cmd_busybox)

    p = sub.add_parser("exec", help="run a static AArch64 Linux ELF executable on the machine",
                       description="Runs a static AArch64 Linux executable on the machine. Standard streams pass "
                                   "through; the exit status is the guest's.")
    _add_guest_options(p)
    p.add_argument("elf", help="the executable (a host file)")
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="its arguments")
    p.set_defaults(func=cmd_exec)

    p = sub.add_parser("conformance", help="run BusyBox 1.35.0's own testsuite on the machine (and under qemu-user)",
                       description="Runs BusyBox's upstream testsuite (runtest, as Debian's build runs it) against "
                                   "the machine and reports the failures qemu-user does not have. Status 1 when "
                                   "there are any.")
    p.add_argument("suite", choices=["busybox"])
    p.add_argument("--subset", choices=["quick", "full"], default="full",
                   help="quick: the tests of 17 text applets (under a minute); full (default): every applet's")
    p.add_argument("--qemu", action="store_true",
                   help="run it under qemu-aarch64 -cpu cortex-a53 too and compare with that run "
                        "(default: with qemu's recorded failures)")
    p.add_argument("--jobs", type=int, help="applets tested at once (default: one per CPU core)")
    p.add_argument("--keep", metavar="DIR", help="leave the work folders and each applet's runtest log in DIR")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_conformance)

    _add_text_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _run_command(argv)
    except BrokenPipeError:  # the reader left (`ncpu-nb isa | head -1`): stop quietly, as a shell tool does
        _silence_stdout()
        return 128 + signal.SIGPIPE


def _silence_stdout() -> None:
    """Send what is still buffered for stdout nowhere, so Python's flush at exit fails no more."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no real stdout (e.g. captured by a test)
        pass


def _run_command(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()  # here, not at exit: a closed pipe is then handled like any other
        return status
    except NcpuError as exc:
        print(f"ncpu-nb {args.command}: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:  # e.g. an unknown mode
        print(f"ncpu-nb {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
