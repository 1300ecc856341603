"""The `ncpu-nb` command line. Errors go to stderr with a non-zero status, never a traceback.

Each command imports what it needs when it runs: `ncpu-nb busybox` and `ncpu-nb exec` drive the
engine alone (`ncpu_nb.arm64.bare_machine`), so they start in tens of milliseconds."""
from __future__ import annotations

import os
import sys
import time

from ncpu_nb.cli_options import add_ray_option, passed_through, ray_for, user_file
from ncpu_nb.errors import NcpuError

STDIN_CHUNK = 1 << 16  # bytes of host stdin read each time the guest waits for input


def _type_error(message: str) -> Exception:
    import argparse  # only where a command line is parsed by argparse (`busybox` and `exec` may not be)

    return argparse.ArgumentTypeError(message)


def _parse_assignment(text: str) -> tuple[str, int]:
    from ncpu_nb.ncpu.table import REGISTERS

    name, sep, value = text.partition("=")
    if not sep:
        raise _type_error(f"expected REG=VALUE, got {text!r}")
    name = name.strip().upper()
    if name not in REGISTERS:
        raise _type_error(f"no register {name}; registers are {', '.join(REGISTERS)}")
    try:
        return name, int(value.strip(), 0)
    except ValueError as exc:
        raise _type_error(f"{value!r} is not an integer") from exc


def _parse_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):  # false for nan too, which would otherwise mean "no timeout"
        raise _type_error(f"expected a positive number of seconds, got {text!r}")
    return seconds


def _parse_size(text: str) -> int:
    from ncpu_nb.arm64.limits import parse_size

    try:
        size = parse_size(text)
    except ValueError as exc:
        raise _type_error(str(exc)) from None
    if not 0 < size < 1 << 64:  # the engine keeps limits in 64 bits
        raise _type_error(f"expected a size above zero and below 16 EiB, got {text!r}")
    return size


def _parse_positive(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 1 << 32:
        raise _type_error(f"expected a whole number above zero and below 2**32, got {text!r}")
    return int(text)


def _parse_env(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not (sep and name):
        raise _type_error(f"expected NAME=VALUE, got {text!r}")
    return name, value


def _read_program(path: str):
    from pathlib import Path

    from ncpu_nb.ncpu.assembler import assemble

    try:
        source = Path(user_file(path)).read_text()
    except OSError as exc:
        raise NcpuError(f"cannot read {path}: {exc.strerror}") from exc
    return assemble(source, name=Path(path).name)


def cmd_run(args) -> int:
    import json

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
    import json
    from pathlib import Path

    from ncpu_nb import bench, bench_report

    old = None
    if args.compare:
        try:
            old = json.loads(Path(user_file(args.compare)).read_text())
        except (OSError, ValueError) as exc:
            raise NcpuError(f"cannot read {args.compare}: {exc}") from exc
    report = bench.run(args.target, quick=args.quick, device=args.device)
    print(json.dumps(report, indent=2) if args.json else bench.format_report(report))
    if old is not None:
        print(bench_report.compare(old, report), file=sys.stderr if args.json else sys.stdout)
    return 0


def cmd_verify(args) -> int:
    import json

    from ncpu_nb.verification import verify

    with ray_for(args):
        report = verify(full=args.full, progress=not args.json, device=args.device, ray=args.ray,
                        float_pairs=args.float_pairs)
    if args.json:
        print(json.dumps({"exact": report.exact, "checks": [
            {"check": c.what, "domain": c.domain, "cases": c.cases, "torch_cases": c.torch_cases,
             "mismatches": c.mismatches, "max_ulp": c.max_ulp, "seconds": round(c.seconds, 3)} for c in report]}))
    else:
        print(report)
    return 0 if report.exact else 1


def cmd_synth(args) -> int:
    import json

    path = user_file(args.spec)  # before torch's import: a refusal is quick
    from ncpu_nb.synthesis.spec import SynthesisSpec
    from ncpu_nb.synthesis.synthesizer import Synthesizer

    spec = SynthesisSpec.from_json(path)
    bar = None
    if not args.json:
        from tqdm.auto import tqdm

        bar = tqdm(total=None, desc="synthesizing", unit="step", leave=False)

    def progress(info):
        bar.set_postfix({k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()})
        bar.update(10 if info.get("method") == "gradient" else 1)

    result = Synthesizer(progress=progress if bar is not None else None,
                         device=args.device).synthesize(spec, time_limit=args.time_limit)
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
    if args.dir and args.suite:
        raise NcpuError("give --dir or --suite, not both")
    if args.suite == "text":  # the text machine's tasks are string pairs, searched by its own solver
        if args.ray:
            raise NcpuError("--ray runs the register and memory suites; the text suite runs here only")
        if args.gradient_only or args.ablation:
            raise NcpuError("--suite text has no gradient search: its transforms are found by enumeration")
        return cmd_text_bench(args)
    try:
        directory = args.dir or (bench.suite_directory(args.suite) if args.suite else None)
    except KeyError as exc:
        raise NcpuError(exc.args[0]) from None
    with ray_for(args):
        outcomes = bench.run(directory, names=args.task, limit=args.limit, time_limit=args.time_limit,
                             methods=methods, ablation=args.ablation, progress=not args.json, ray=args.ray,
                             turn_steps=args.turn_steps, device=args.device)
    print(bench.as_json(outcomes, args.ablation) if args.json
          else bench.format_report(outcomes, args.ablation, methods))
    return 0


def cmd_coursework(args) -> int:
    from ncpu_nb.coursework import course

    source = args.source or course.sources()
    if args.action == "release":
        for path in course.release(source, args.folder, names=args.assignment, course=args.course):
            print(path)
        return 0
    grades = course.grade(source, args.folder, csv=args.csv, names=args.assignment, course=args.course,
                          timeout=args.timeout)
    for g in grades.rows:
        print(f"{g.student:20s} {g.assignment:36s} {g.score:g}/{g.max_score:g}  {g.seconds:5.1f} s  {g.status}")
    if args.csv:
        print(f"wrote {args.csv}")
    return 0


# --- ncpu-nb discover: programs from examples (the REPL, or one search for scripts) -----------------
def cmd_discover(args) -> int:
    import json

    from ncpu_nb.discovery import Discovery
    from ncpu_nb.discovery.examples import format_values, parse_values
    from ncpu_nb.discovery.shell import DiscoverShell, run_search

    discovery = Discovery(time_limit=args.time_limit)
    if args.preset:
        discovery.preset(args.preset)
    for n, text in enumerate(args.example or [], 1):
        discovery.add_text(text, where=f"--example {n} ({text!r}): ")
    tests = [parse_values(text, f"--test {n} ({text!r}): ") for n, text in enumerate(args.test or [], 1)]
    if not (args.preset or args.example):
        if tests or args.json or args.save:
            raise NcpuError("give examples (--example 1,1=2, repeatable) or --preset NAME to search from")
        DiscoverShell(discovery).cmdloop()
        return 0
    quiet = args.json or not sys.stderr.isatty()
    result = run_search(discovery, (lambda text: None) if quiet else (lambda text: print(text, file=sys.stderr)))
    if result.program is None:
        raise NcpuError(f"no program fits the examples (searched {result.seconds:.1f} s)")
    outputs = [discovery.test(values) for values in tests]
    if args.save:
        discovery.save(args.save)
    if args.json:
        print(json.dumps({"program": result.program.source, "solver": result.method, "tests": outputs}))
    else:
        print(discovery.summary())
        for values, got in zip(tests, outputs):
            print(f"test {format_values(values)} -> {format_values(got)}")
    return 0 if result.solved else 1


def _fill_discover(p) -> None:
    from ncpu_nb.discovery.presets import PRESETS

    p.add_argument("--example", action="append", metavar="IN,...=OUT,...",
                   help="an example: inputs in R0, R1, ... and outputs after them, e.g. 1,1=2 (repeatable)")
    p.add_argument("--preset", choices=list(PRESETS), help="start from a preset's examples")
    p.add_argument("--test", action="append", metavar="IN,...", help="run the program on these inputs (repeatable)")
    p.add_argument("--time-limit", type=_parse_seconds, default=30.0, help="seconds for the search (default 30)")
    p.add_argument("--save", metavar="FILE", help="write the program as an .asm file")
    p.add_argument("--json", action="store_true", help='print {"program", "solver", "tests"}')
    p.set_defaults(func=cmd_discover)
# --- end of ncpu-nb discover ------------------------------------------------------------------------


def cmd_lab(args) -> int:
    from ncpu_nb.lab import launch

    return launch(args.dir, args.port, extra=args.jupyter_args, here=args.here)


def _forward(out: bytes, err: bytes) -> None:
    for stream, data in ((sys.stdout.buffer, out), (sys.stderr.buffer, err)):
        if data:
            stream.write(data)
            stream.flush()


def _guest_run(engine, timeout: float | None) -> int:
    """Runs a guest program (an engine of `ncpu_nb.arm64.bare_machine`) with the host's standard streams; its
    exit status becomes ours. Its output goes straight to ours, so nothing of it is kept. Host stdin
    is read only when the guest waits for input, a chunk at a time: `yes | ncpu-nb busybox head -n1`
    ends at once, and input a guest never reads stays unread. A guest given the host's terminal
    (`_guest_options`) gets its keys as they are typed instead (ncpu_nb.arm64.host_terminal)."""
    from ncpu_nb.arm64 import bare_machine as bare

    if engine.tty is not None:
        from ncpu_nb.arm64 import host_terminal

        stop = host_terminal.run(engine, timeout)
        bare.raise_fault(engine, stop)
        if stop[0] != "exited":
            raise NcpuError(f"the guest did not exit: stopped ({stop[0]}) after {engine.instructions:,} instructions")
        return engine.exit_status

    def forward() -> None:
        _forward(engine.take_stdout(), engine.take_stderr())

    stdin = _host_stdin_fd()
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            stop = bare.run_chunks(engine, None, left, forward)
        except KeyboardInterrupt:
            forward()
            raise
        bare.raise_fault(engine, stop)
        if stop[0] != "stdin":
            break
        data = b"" if stdin is None else os.read(stdin, STDIN_CHUNK)
        if data:
            engine.write_stdin(data)
        else:
            engine.close_stdin()
    if stop[0] != "exited":
        raise NcpuError(f"the guest did not exit: stopped ({stop[0]}) after {engine.instructions:,} instructions")
    return engine.exit_status


def _host_stdin_fd() -> int | None:
    """The host's stdin as a file descriptor, None when there is none (the guest sees end of file)."""
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or replaced by an object without one
        return None


def _guest_options(args) -> dict:
    """Engine options from the command line (`ncpu_nb.arm64.bare_machine.new_engine`): the guest's stdin
    streams from ours. Run in a terminal window (stdin and stdout both the host's terminal), the guest
    gets a terminal of the window's size, and the host's clock: an interactive shell's `sleep 5`
    takes five seconds."""
    from ncpu_nb.arm64.bare_machine import DEFAULT_ENV
    from ncpu_nb.arm64.host_terminal import attached

    terminal = attached()
    env = dict(entry.split("=", 1) for entry in DEFAULT_ENV)
    if terminal is not None:
        env["TERM"] = os.environ.get("TERM", "xterm")
    env.update(args.env or [])
    limits = {name: value for name in ("memory", "tmpfs_size", "max_procs")
              if (value := getattr(args, name)) is not None}
    mounts = []
    if args.mount:
        from ncpu_nb.arm64.mounts import parse_mounts

        mounts = parse_mounts(args.mount)
    return {"env": [f"{name}={value}" for name, value in env.items()], "mounts": mounts,
            "cwd": args.cwd, "interactive": True, "limits": limits or None, "tty": terminal,
            "deterministic": terminal is None}


def cmd_busybox(args) -> int:
    from ncpu_nb.arm64 import bare_machine as bare

    path = bare.busybox_file()  # bundled and known good: no ELF checks in Python
    with open(path, "rb") as file:
        elf = file.read()
    engine = bare.new_engine(elf, ["busybox", *passed_through(args.args)], exe_path="/bin/busybox", path=path,
                             **_guest_options(args))
    return _guest_run(engine, args.timeout)


def cmd_exec(args) -> int:
    from ncpu_nb.arm64 import bare_machine as bare
    from ncpu_nb.arm64.elf import ElfFile, read_elf

    elf = read_elf(args.elf)
    ElfFile(elf, args.elf)  # its checks name what is wrong before the loader sees it, as Arm64Machine's do
    name = os.path.basename(args.elf)
    engine = bare.new_engine(elf, [name, *passed_through(args.args)], exe_path=f"/bin/{name}", path=args.elf,
                             **_guest_options(args))
    return _guest_run(engine, args.timeout)


# --- `ncpu-nb text`: the text machine (ncpu_nb/text) -----------------------------------------------
def _parse_text_example(text: str) -> tuple[str, str]:
    import argparse

    source, sep, target = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected INPUT=OUTPUT (e.g. hello=khoor), got {text!r}")
    if not source:
        raise argparse.ArgumentTypeError(f"{text!r}: the input before '=' is empty")
    return source, target


def cmd_text(args) -> int:
    import json

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


def _fill_text(p) -> None:
    p.add_argument("--example", action="append", type=_parse_text_example, metavar="INPUT=OUTPUT",
                   help="an example pair, e.g. --example hello=khoor (repeatable; split at the first '=')")
    p.add_argument("--apply", action="append", metavar="TEXT", help="run the program found on TEXT (repeatable)")
    p.add_argument("--neural", action="store_true", help="apply in neural mode (every ALU operation a trained network)")
    p.add_argument("--interactive", "-i", action="store_true", help="a prompt: cipher, summary, apply, help, quit")
    p.add_argument("--time-limit", type=_parse_seconds, default=30.0, help="seconds for the search (default 30)")
    p.add_argument("--json", action="store_true", help='print {"program", "solver", "transform", "applied"}')
    p.set_defaults(func=cmd_text)


def _fill_text_bench(p) -> None:
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


def _fill_run(p) -> None:
    p.add_argument("file", help="an .asm file")
    p.add_argument("--mode", default="fast", help="fast (exact integer ALU) or neural (trained networks)")
    p.add_argument("--max-cycles", type=int, default=1_000_000, help="cycle budget (default 1,000,000)")
    p.add_argument("--set", action="append", type=_parse_assignment, metavar="REG=VALUE",
                   help="initial register value, e.g. --set R0=5 (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_run)


def _fill_asm(p) -> None:
    p.add_argument("file")
    p.set_defaults(func=cmd_asm)


def _fill_isa(p) -> None:
    p.add_argument("--markdown", action="store_true")
    p.set_defaults(func=cmd_isa)


def _fill_bench(p) -> None:
    p.add_argument("target", choices=["fast", "neural", "debugger", "machine", "synth", "coprocessor",
                                      "learned-compiler", "fuzz"])
    p.add_argument("--quick", action="store_true", help="a shorter run (for smoke tests: the figures then mean little)")
    p.add_argument("--json", action="store_true", help="print the whole run as JSON: every figure with its reference, "
                                                        "run count, statistic and the host (CPU, cores, load)")
    p.add_argument("--compare", metavar="OLD.json", help="also print each row's change from an earlier --json run")
    p.add_argument("--device", help="fast and neural: instead, lane-instructions/s of the torch lanes on this torch "
                                    "device (cpu, cuda) at 1K-64K lanes (to 1M on a GPU) beside the Rust executor; "
                                    "synth: gradient descent's restarts run on this device")
    p.set_defaults(func=cmd_bench)


def _fill_verify(p) -> None:
    p.add_argument("--full", action="store_true", help="check every pair through the torch wiring too, "
                                                       "MUL, DIV and MOD included (slower)")
    p.add_argument("--device", default="cpu", help="where the torch wiring runs: cpu (default) or cuda")
    p.add_argument("--float-pairs", type=int, default=None, metavar="N",
                   help="random pairs per float operation for fast and wired mode (default 10,000,000); neural "
                        "mode checks the first 10,000 of them, all of them with --full")
    add_ray_option(p, "the operations (one task per operation; the cells are one more)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_verify)


def _fill_synth(p) -> None:
    p.add_argument("spec", help='a JSON file: {"inputs": ["R0"], "outputs": ["R1"], "examples": [[{...}, {...}]], '
                                '"max_len": 6, "time_limit": 30}')
    p.add_argument("--time-limit", type=float, help="seconds (default: the spec's time_limit)")
    p.add_argument("--json", action="store_true", help='print {"solved", "program", "method", "seconds"}')
    p.add_argument("--device", default="cpu", help="where gradient descent's restarts run: cpu (default) or cuda")
    p.set_defaults(func=cmd_synth)


def _fill_synth_bench(p) -> None:
    p.add_argument("--dir", help="a folder of task specs (default: the bundled programs/synth)")
    p.add_argument("--suite", help="a bundled suite: default (programs/synth) or a folder of it, e.g. sequences")
    p.add_argument("--task", action="append", help="run only this task (repeatable)")
    p.add_argument("--limit", type=int, help="run only the first N tasks")
    p.add_argument("--time-limit", type=float, help="seconds per task (default: each task's time_limit)")
    p.add_argument("--gradient-only", action="store_true", help="gradient descent alone, no portfolio")
    p.add_argument("--ablation", choices=["random"],
                   help="random: gradient descent's sampler alone with learning rate 0 (does the gradient help?)")
    p.add_argument("--turn-steps", type=_parse_positive, metavar="N",
                   help="gradient descent's turns take N steps x the length instead of seconds: the same answers "
                        "on any machine, within the time limit")
    p.add_argument("--device", default="cpu", help="where gradient descent's restarts run: cpu (default) or cuda")
    add_ray_option(p, "the tasks (one task each)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_synth_bench)


def _fill_coursework(p) -> None:
    p.add_argument("action", choices=["release", "grade"])
    p.add_argument("folder", help="release: where the student versions go; grade: the submissions")
    p.add_argument("--source", help="the assignments' source notebooks (default: the git checkout's tutorials/; "
                   "the installed package holds student versions only)")
    p.add_argument("--assignment", action="append", help="only this assignment (repeatable)")
    p.add_argument("--course", help="keep nbgrader's course folder (gradebook.db, autograded notebooks) here")
    p.add_argument("--csv", help="grade: write the grades to this CSV file")
    p.add_argument("--timeout", type=_parse_positive, default=60, help="grade: seconds allowed per cell (default 60)")
    p.set_defaults(func=cmd_coursework)


def _fill_lab(p) -> None:
    import argparse

    p.add_argument("--dir", help="your copy of the curriculum: made on the first run, kept (with your changes) "
                                 "on later ones (default: ~/ncpu_nb-curriculum)")
    p.add_argument("--here", action="store_true", help="open the source checkout itself (for contributors)")
    p.add_argument("--port", type=int, help="port for JupyterLab")
    p.add_argument("jupyter_args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_lab)


def _fill_busybox(p) -> None:
    import argparse

    _add_guest_options(p)
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="the applet and its arguments")
    p.set_defaults(func=cmd_busybox)


def _fill_exec(p) -> None:
    import argparse

    _add_guest_options(p)
    p.add_argument("elf", help="the executable (a host file)")
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="its arguments")
    p.set_defaults(func=cmd_exec)


COMMANDS = ('run', 'asm', 'isa', 'bench', 'verify', 'synth', 'synth-bench', 'discover', 'coursework', 'lab', 'busybox',
            'exec', 'sanitize', 'conformance', 'differential', 'fuzz', 'text', 'text-bench')


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; `only`: the arguments of that one command alone (the others are listed,
    without their options), which is all that parsing its own command line needs."""
    import argparse

    from ncpu_nb import cli_checks

    parser = argparse.ArgumentParser(prog="ncpu-nb", description="ncpu_nb: neural computers in a notebook")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="assemble and run an nCPU program")
    if only in (None, "run"):
        _fill_run(p)

    p = sub.add_parser("asm", help="assemble a program and print its listing")
    if only in (None, "asm"):
        _fill_asm(p)

    p = sub.add_parser("isa", help="print the instruction set reference")
    if only in (None, "isa"):
        _fill_isa(p)

    p = sub.add_parser("bench", help="measure speed")
    if only in (None, "bench"):
        _fill_bench(p)

    p = sub.add_parser("verify", help="prove the neural ALU exact: every cell on its whole domain, every "
                                      "operation against fast mode, every float operation against IEEE 754")
    if only in (None, "verify"):
        _fill_verify(p)

    p = sub.add_parser("synth", help="synthesize a program from a JSON spec of input/output examples")
    if only in (None, "synth"):
        _fill_synth(p)

    p = sub.add_parser("synth-bench", help="run the synthesis benchmark (programs/synth)")
    if only in (None, "synth-bench"):
        _fill_synth_bench(p)

    p = sub.add_parser("discover", help="find a program from input/output examples (a REPL without options)",
                       description="Without --example or --preset: an interactive REPL (preset fib, synthesize, "
                                   "summary, test 13, 21, help). With them: one search, then the tests.")
    if only in (None, "discover"):
        _fill_discover(p)

    p = sub.add_parser("coursework", help="release assignments and grade submissions, with nbgrader",
                       description="release FOLDER: student versions of the assignments (solutions and hidden "
                                   "tests removed) written to FOLDER. grade FOLDER: autograde "
                                   "FOLDER/<student>/<assignment>.ipynb with nbgrader.")
    if only in (None, "coursework"):
        _fill_coursework(p)

    p = sub.add_parser("lab", help="open the curriculum in JupyterLab",
                       epilog="Options after -- go to JupyterLab, e.g. ncpu-nb lab -- --no-browser")
    if only in (None, "lab"):
        _fill_lab(p)

    p = sub.add_parser("busybox", help="run BusyBox on the AArch64 Linux machine, e.g. ncpu-nb busybox ls -l /",
                       description="Runs the bundled BusyBox (Debian's, for arm64) on the AArch64 Linux machine. "
                                   "Standard input, output and error pass through; the exit status is the guest's.")
    if only in (None, "busybox"):
        _fill_busybox(p)

    p = sub.add_parser("exec", help="run a static AArch64 Linux ELF executable on the machine",
                       description="Runs a static AArch64 Linux executable on the machine. Standard streams pass "
                                   "through; the exit status is the guest's.")
    if only in (None, "exec"):
        _fill_exec(p)

    p = sub.add_parser("sanitize", help="run an AArch64 program under the memory sanitizer and report its memory errors",
                       description="Runs a static AArch64 Linux executable on the machine under ncpu_nb.sanitize: "
                                   "its output, then heap overflows, uses after free, uninitialised heap reads, "
                                   "double frees and bad accesses with backtraces and C source lines. Status 1 "
                                   "when there are any, else the program's exit status.")
    if only in (None, "sanitize"):
        cli_checks.fill_sanitize(p)

    p = sub.add_parser("conformance", help="run BusyBox 1.35.0's own testsuite on the machine (and under qemu-user)",
                       description="Runs BusyBox's upstream testsuite (runtest, as Debian's build runs it) against "
                                   "the machine and reports the failures qemu-user does not have. Status 1 when "
                                   "there are any.")
    if only in (None, "conformance"):
        cli_checks.fill_conformance(p)

    p = sub.add_parser("differential", help="run BusyBox and the C test programs on the machine against qemu's "
                                            "recorded outputs, case by case",
                       description="Runs every case of the differential suites (programs/arm64/busybox/cases.json "
                                   "and the C test programs) on the machine and compares stdout and exit status "
                                   "with what qemu-aarch64 printed. Status 1 when a case differs.")
    if only in (None, "differential"):
        cli_checks.fill_differential(p)

    p = sub.add_parser("fuzz", help="fuzz an AArch64 program, one campaign per seed (merged), here or on Ray",
                       description="Runs a coverage-guided campaign of a fixed number of executions per seed on "
                                   "an AArch64 program (ncpu_nb.fuzz_campaign) and merges them: coverage, corpus, "
                                   "each crash and hang once. Each seed's campaign is deterministic, so --ray "
                                   "gives the same findings.")
    if only in (None, "fuzz"):
        cli_checks.fill_fuzz(p)

    p = sub.add_parser("text", help="the text machine: a text transform or cipher from examples, as an nCPU program",
                       description="Finds a text transform (Caesar, ROT13, Atbash, case, removing or replacing a "
                                   "character class, reversal, doubling, run-length encoding, Vigenère, or two of "
                                   "these in a row) from example pairs, as an nCPU program verified on the exact CPU.")
    if only in (None, "text"):
        _fill_text(p)

    p = sub.add_parser("text-bench", help="run the text machine's suite (programs/synth/text; also synth-bench --suite text)")
    if only in (None, "text-bench"):
        _fill_text_bench(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _run_command(argv)
    except BrokenPipeError:  # the reader left (`ncpu-nb isa | head -1`): stop quietly, as a shell tool does
        _silence_stdout()
        import signal  # not at the top: it imports enum, ~3 ms of every start

        return 128 + signal.SIGPIPE


def _silence_stdout() -> None:
    """Send what is still buffered for stdout nowhere, so Python's flush at exit fails no more."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no real stdout (e.g. captured by a test)
        pass


# `ncpu-nb busybox` and `ncpu-nb exec` options: (attribute, converter, repeatable). Their well-formed
# command lines are read without argparse (its import and parser cost a start ~10 ms); anything else
# (-h, an abbreviation, a bad value) goes to argparse, which says what is wrong as usual.
GUEST_OPTIONS = {"--mount": ("mount", str, True), "--cwd": ("cwd", str, False), "--env": ("env", _parse_env, True),
                 "--timeout": ("timeout", _parse_seconds, False), "--memory": ("memory", _parse_size, False),
                 "--tmpfs-size": ("tmpfs_size", _parse_size, False),
                 "--max-procs": ("max_procs", _parse_positive, False)}


def _quick_guest_args(words: list[str]):
    """The parsed command line of `busybox …` / `exec ELF …` as argparse would give it, or None when
    argparse must read it."""
    from types import SimpleNamespace

    command, rest = words[0], words[1:]
    args = SimpleNamespace(command=command, func=cmd_busybox if command == "busybox" else cmd_exec, mount=None,
                           cwd="/", env=None, timeout=None, memory=None, tmpfs_size=None, max_procs=None)
    i = 0
    while i < len(rest) and rest[i].startswith("-") and rest[i] != "--":
        name, eq, value = rest[i].partition("=")
        if name not in GUEST_OPTIONS or (not eq and i + 1 >= len(rest)):
            return None  # -h, an abbreviation, an unknown option or a missing value
        if not eq:
            i += 1
            value = rest[i]
            if value.startswith("-"):
                return None  # argparse takes it for an option
        attribute, convert, repeatable = GUEST_OPTIONS[name]
        try:
            value = convert(value)
        except Exception:  # noqa: BLE001 (argparse gives the message)
            return None
        setattr(args, attribute, [*(getattr(args, attribute) or []), value] if repeatable else value)
        i += 1
    rest = rest[i:]
    if command == "exec":
        if not rest or rest[0] == "--":
            return None
        args.elf, rest = rest[0], rest[1:]
    args.args = rest
    return args


def _run_command(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    command = words[0] if words and words[0] in COMMANDS else None  # else: every command (e.g. --help)
    args = _quick_guest_args(words) if command in ("busybox", "exec") else None
    if args is None:
        args = build_parser(command).parse_args(argv)
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
    except BrokenPipeError:
        raise  # the reader left: main() stops quietly
    except OSError as exc:  # a path the host refuses (e.g. a folder to make under a file): what and where
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"ncpu-nb {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
