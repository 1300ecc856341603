"""The ARM64 machine's Python face: mounts, the ELF reader, the machine protocol, Ctrl-C, reprs, magics, CLI."""
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ncpu_nb import _metal
from ncpu_nb.cli import build_parser, main
from ncpu_nb.arm64 import ElfError, ElfFile, Arm64Machine, MachineError, MachineTimeout, MountError, busybox, parse_mount
from ncpu_nb.magics import parse_options
from ncpu_nb.arm64.mounts import Mount, parse_mounts
from ncpu_nb.arm64.syscall_log import SyscallLog
from ncpu_nb.protocol import MachineProtocol

ROOT = Path(__file__).resolve().parent.parent
C_BIN = ROOT / "programs" / "arm64" / "c" / "bin"
HELLO = C_BIN / "hello"
needs_machine = pytest.mark.skipif(not hasattr(_metal, "LinuxMachine"),
                                   reason="the extension was built without the Linux machine")


# --- mounts ------------------------------------------------------------------------------------------
def test_mount_specs(tmp_path):
    host = str(tmp_path)
    assert parse_mount(f"{host}:/mnt/data") == Mount(host, "/mnt/data", False)
    assert parse_mount(f"{host}:/mnt/data:ro") == Mount(host, "/mnt/data", False)
    assert parse_mount(f"{host}:/mnt/data/:rw") == Mount(host, "/mnt/data", True)
    assert parse_mount((tmp_path, "/x", True)) == Mount(host, "/x", True)
    assert str(parse_mount(f"{host}:/x:rw")) == f"{host}:/x:rw"


@pytest.mark.parametrize("spec, message", [
    ("{host}", "expected HOST:GUEST"),
    ("{host}:mnt", "must be absolute"),
    ("{host}:/mnt:wr", "unknown mode 'wr'"),
    ("{host}/missing:/mnt", "does not exist"),
    ("{host}/file:/mnt", "is not a folder"),
    ("{host}:/", "root"),
    (":/mnt", "host folder is empty"),
])
def test_bad_mount_specs_say_what_is_wrong(tmp_path, spec, message):
    (tmp_path / "file").write_text("x")
    with pytest.raises(MountError, match=re.escape(message)):
        parse_mount(spec.format(host=tmp_path))


def test_a_tuple_mount_takes_only_the_documented_modes(tmp_path):
    host = str(tmp_path)
    assert parse_mount((host, "/x", "ro")) == Mount(host, "/x", False)  # bool("ro") would make it read-write
    assert parse_mount((host, "/x", "rw")) == Mount(host, "/x", True)
    assert parse_mount((host, "/x", False)) == Mount(host, "/x", False)
    for mode in ("RO", "readonly", 1, 0, None, "yes"):
        with pytest.raises(MountError, match=r"third item \(writable\) is .*True or 'rw'.*False or 'ro'"):
            parse_mount((host, "/x", mode))


def test_a_guest_path_is_mounted_once(tmp_path):
    with pytest.raises(MountError, match="mounted twice"):
        parse_mounts([f"{tmp_path}:/a", f"{tmp_path}:/a/:rw"])


# --- the ELF reader, against binutils' readelf ----------------------------------------------------
def _readelf(path, flag):
    return subprocess.run(["readelf", flag, "-W", str(path)], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("path", [HELLO, ROOT / "programs" / "arm64" / "busybox" / "busybox"])
def test_elf_segments_and_entry_match_readelf(path):
    elf = ElfFile.read(path)
    text = _readelf(path, "-l")
    assert f"Entry point 0x{elf.entry:x}" in text
    rows = re.findall(r"^\s+([A-Z_]+)\s+0x([0-9a-f]+) 0x([0-9a-f]+) 0x[0-9a-f]+ 0x([0-9a-f]+) 0x([0-9a-f]+) "
                      r"([RWE ]{3}) 0x([0-9a-f]+)", text, re.M)
    assert len(rows) == len(elf.segments) == 6
    for seg, (kind, offset, vaddr, filesz, memsz, flags, align) in zip(elf.segments, rows):
        assert (seg.type, seg.offset, seg.vaddr, seg.filesz, seg.memsz, seg.align) == (
            kind, int(offset, 16), int(vaddr, 16), int(filesz, 16), int(memsz, 16), int(align, 16))
        assert [c != "-" for c in seg.perms] == [f in flags for f in "RWE"]


def test_elf_symbols_match_readelf():
    elf = ElfFile.read(HELLO)
    text = _readelf(HELLO, "-s")
    main_line = next(line for line in text.splitlines() if line.endswith(" main"))
    assert elf.address_of("main") == int(main_line.split()[1], 16)
    assert elf.symbol_at(elf.address_of("main") + 8) == "main+0x8"
    busybox_elf = ElfFile.read(ROOT / "programs" / "arm64" / "busybox" / "busybox")
    assert busybox_elf.stripped
    with pytest.raises(KeyError, match="stripped"):
        busybox_elf.address_of("main")
    assert "LOAD" in elf._repr_html_() and "<script" not in elf._repr_html_()


def _x86_elf() -> bytes:
    return Path(sys.executable).resolve().read_bytes()


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d[:40], "too short"),
    (lambda d: b"MZ" + d[2:], "not an ELF file"),
    (lambda d: d[:4] + b"\x01" + d[5:], "not a 64-bit ELF"),
    (lambda d: d[:5] + b"\x02" + d[6:], "not a little-endian ELF"),
    (lambda d: d[:16] + b"\x01\x00" + d[18:], "not an executable"),
    (lambda d: d[:0x100], "past the end of the file"),
])
def test_malformed_elf_files_raise_elf_error(mutate, message):
    with pytest.raises(ElfError, match=message):
        ElfFile(mutate(HELLO.read_bytes()), "hello")


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 4095), st.integers(0, 255)), min_size=1, max_size=8), st.booleans())
def test_mutated_elf_files_give_elf_errors_only(flips, in_section_table):  # and never crash the loader
    data = bytearray(HELLO.read_bytes())
    base = int.from_bytes(data[0x28:0x30], "little") if in_section_table else 0  # e_shoff or the header
    for at, value in flips:
        data[(base + at) % len(data)] = value
    try:
        elf = ElfFile(bytes(data), "mutated")
        elf.symbols, elf.sections, elf.stripped  # read on demand: checked then
        if hasattr(_metal, "LinuxMachine"):
            Arm64Machine(bytes(data), ["mutated"])  # what Python let through, the loader checks again
    except ElfError:
        pass


def test_an_x86_program_is_named_as_such():
    data = _x86_elf()
    if data[18] != 62:
        pytest.skip("the host's Python is not an x86-64 ELF file")
    with pytest.raises(ElfError, match=r"x86-64 \(e_machine=62\), not AArch64"):
        ElfFile(data, "python3")


# --- pieces without the machine ---------------------------------------------------------------------
def test_magic_options_come_before_the_command():
    assert parse_options(["--mount", "a:/b", "--cwd=/tmp", "--timeout", "2", "ls", "--help"]) == (
        {"mounts": ["a:/b"], "limits": {}, "cwd": "/tmp", "timeout": 2.0}, ["ls", "--help"])
    assert parse_options(["--", "--help"]) == ({"mounts": [], "limits": {}}, ["--help"])
    assert parse_options(["--max-output=4096", "yes"]) == ({"mounts": [], "limits": {}, "max_output": 4096}, ["yes"])
    assert parse_options(["--memory", "1G", "--tmpfs-size=64M", "--max-procs", "9", "sh"]) == (
        {"mounts": [], "limits": {"memory": "1G", "tmpfs_size": "64M", "max_procs": 9}}, ["sh"])
    from IPython.core.error import UsageError
    with pytest.raises(UsageError, match="unknown option --color"):
        parse_options(["--color", "ls"])
    with pytest.raises(UsageError, match="needs a value"):
        parse_options(["--cwd"])
    with pytest.raises(UsageError, match="--max-output takes a number of bytes"):
        parse_options(["--max-output", "lots", "yes"])
    for bad in ("nan", "inf", "-1", "0", "soon"):
        with pytest.raises(UsageError, match="--timeout takes a positive number of seconds"):
            parse_options(["--timeout", bad, "ls"])


def test_load_ext_registers_both_magics():
    from IPython.core.error import UsageError
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ncpu_nb")
    magics = shell.magics_manager.magics
    assert "busybox" in magics["line"] and "busybox" in magics["cell"]
    with pytest.raises(UsageError, match="needs a command"):
        shell.run_line_magic("busybox", "--cwd /tmp")
    with pytest.raises(UsageError, match="only options"):
        shell.run_cell_magic("busybox", "ls", "echo hi")
    with pytest.raises(UsageError, match="does not exist"):
        shell.run_line_magic("busybox", "--mount /nonexistent/folder:/data ls /data")


def test_cli_parses_guest_options_then_the_command():
    args = build_parser().parse_args(["busybox", "--mount", "a:/b:rw", "--cwd", "/b", "ls", "-l", "/"])
    assert (args.mount, args.cwd, args.args) == (["a:/b:rw"], "/b", ["ls", "-l", "/"])
    args = build_parser().parse_args(["exec", "prog", "-x", "--mount", "y"])
    assert (args.elf, args.args, args.mount) == ("prog", ["-x", "--mount", "y"], None)


def test_cli_exec_of_a_missing_file_is_an_error(capsys):
    assert main(["exec", "/nonexistent/prog"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_syscall_log_names_errors():
    log = SyscallLog([(1, 56, "openat", [(1 << 64) - 100, 0x4a0000, 0, 0], (1 << 64) - 2),
                      (1, 64, "write", [1, 0x4a0000, 6], 6)])
    assert str(log) == "[1] openat(-100, 0x4a0000, 0, 0) = -1 ENOENT\n[1] write(1, 0x4a0000, 6) = 6"
    assert log.counts() == {"openat": 1, "write": 1} and [c.name for c in log.failed()] == ["openat"]
    assert "ENOENT" in log._repr_html_()


def test_machine_error_says_pc_and_instruction():
    error = MachineError("unsupported instruction", 0x400580, "fmla v0.4s, v1.4s, v2.4s")
    assert str(error) == "unsupported instruction; PC=0x400580: fmla v0.4s, v1.4s, v2.4s"


# --- the real machine -------------------------------------------------------------------------------
@needs_machine
def test_hello_runs_to_exit_and_implements_the_protocol():
    m = Arm64Machine.from_elf(HELLO)
    assert isinstance(m, MachineProtocol)
    assert m.pc == ElfFile.read(HELLO).entry and (m.stop, m.status, m.cycles) == ("ready", "running", 0) and m.alive
    assert set(m.registers) == {f"x{i}" for i in range(31)} | {"sp", "pc", "nzcv"} and len(m.vregs) == 32
    run = m.run()
    assert run.exited and m.exit_status == 0 and m.stdout == "Hello, world!\n"
    assert run.steps == m.instructions > 1000 and m.syscall_count == len(m.syscall_log()) > 0
    assert m.syscall_log()[-1].name == "exit_group"
    assert not m.alive and m.registers["x8"] == 94  # the last thread as it ended: in exit_group
    assert m.run().exited and m.step() == 0 and m.stdout == "Hello, world!\n"  # nothing more happens
    assert "exited" in m._repr_html_() and "<script" not in m._repr_html_() and "exited" in repr(m)


@needs_machine
def test_breakpoint_on_a_symbol_step_and_snapshot_restore():
    m = Arm64Machine.from_elf(HELLO, trace_depth=8)
    main_address = m.elf.address_of("main")
    m.breakpoints.add("main")
    assert main_address in m.breakpoints and list(m.breakpoints) == [main_address]
    run = m.run()
    assert (run.stop, m.status, m.pc) == ("breakpoint", "breakpoint", main_address)
    assert m.code_labels()[main_address] == "main"
    assert m.registers["x0"] == 1  # argc
    argv0 = int.from_bytes(m.read_memory(m.registers["x1"], 8), "little")
    assert m.read_string(argv0) == "/bin/hello"
    snap = m.snapshot()
    m.breakpoints.add(main_address + 4)
    assert m.step(3) == 3 and m.pc == main_address + 12  # a step goes through breakpoints
    m.breakpoints.discard(main_address + 4)
    trace = m.trace
    assert [s.pc for s in trace[-3:]] == [main_address, main_address + 4, main_address + 8]  # main starts straight
    assert all(s.instruction for s in trace)
    m.run()
    assert m.stdout == "Hello, world!\n" and m.exit_status == 0
    done = m.snapshot()
    m.restore(snap)
    assert (m.pc, m.stdout, m.exit_status) == (main_address, "", None)
    m.restore(done)  # forward again: the output comes back too
    assert (m.stdout, m.exit_status) == ("Hello, world!\n", 0)
    m.restore(snap)
    m.run()
    assert m.stdout == "Hello, world!\n"
    m.reset()
    assert m.stdout == "" and list(m.breakpoints) == [main_address]


@needs_machine
def test_read_watchpoint_stops_at_the_load():
    m = Arm64Machine.from_elf(C_BIN / "float_math")
    m.watchpoints.add("vd_a", 8, read=True, write=False)
    assert list(m.watchpoints)[0].address == m.elf.address_of("vd_a")
    run = m.run()
    assert run.stop == "watchpoint"
    m.watchpoints.clear()
    assert m.run().exited and m.exit_status == 0 and "PASSED" in m.stdout


@needs_machine
def test_an_undefined_instruction_kills_the_process_like_linux_and_is_recorded():
    m = Arm64Machine.busybox("true")
    m.write_memory(m.pc, bytes(4))  # UDF #0 at the entry point
    assert m.run().exited and m.exit_status == 128 + 4  # SIGILL
    (fault,) = m.faults()
    assert (fault.signal, fault.pc) == (4, m.elf.entry)
    assert "SIGILL" in m._repr_html_() or "signal 4" in m._repr_html_()


@needs_machine
def test_busybox_result_and_exit_status():
    r = busybox("sh", "-c", "echo one; echo two >&2; exit 3")
    assert (r.stdout, r.stderr, r.exit_code) == ("one\n", "two\n", 3)
    html = r._repr_html_()
    assert "$ busybox sh -c" in html and "exit 3" in html and "<script" not in html
    assert busybox("cat", stdin="piped\n").stdout == "piped\n"


@needs_machine
def test_a_mounted_folder_is_seen_read_only_unless_rw(tmp_path):
    (tmp_path / "in.txt").write_text("from the host\n")
    assert busybox("cat", "/mnt/in.txt", mounts=[f"{tmp_path}:/mnt"]).stdout == "from the host\n"
    assert not busybox("sh", "-c", "echo x > /mnt/out.txt", mounts=[f"{tmp_path}:/mnt"]).ok
    assert busybox("sh", "-c", "echo x > /mnt/out.txt", mounts=[f"{tmp_path}:/mnt:rw"]).ok
    assert (tmp_path / "out.txt").read_text() == "x\n"


@needs_machine
def test_ctrl_c_stops_a_run_within_100_ms_and_keeps_the_state():
    m = Arm64Machine.busybox("sh", "-c", "while :; do :; done")
    sent = []

    def interrupt():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.3, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            m.run(timeout=10)  # the guest loops forever: only the interrupt (or the timeout) ends this
    finally:
        timer.cancel()  # never let a late SIGINT hit the test session
    latency = time.perf_counter() - sent[0]
    assert latency < 0.1, f"KeyboardInterrupt {latency * 1e3:.0f} ms after SIGINT"
    assert (m.stop, m.status) == ("interrupted", "running") and m.instructions > 0
    before = m.instructions
    assert m.run(max_steps=50_000).stop == "budget" and m.instructions == before + 50_000


@needs_machine
def test_timeout_and_budget():
    m = Arm64Machine.busybox("sh", "-c", "while :; do :; done")
    t0 = time.perf_counter()
    assert m.run(timeout=0.2).stop == "timeout"
    assert time.perf_counter() - t0 < 5  # it stops (a bound on hanging, not a speed: CI's load stretched 0.2 s to 0.8)
    with pytest.raises(MachineTimeout, match="did not exit"):
        busybox("yes", max_steps=2_000_000)


@needs_machine
def test_endless_output_keeps_only_the_newest_up_to_max_output():
    m = Arm64Machine.busybox("yes", max_output=1000)
    produced = []
    for _ in range(100):  # short runs: many pieces of output
        m.run(max_steps=400_000, on_output=lambda out, err: produced.append(len(out)))
    assert len(produced) > 64 and len(m.stdout_bytes) == 1000 and m.stdout.endswith("y\ny\n")
    assert m.truncated == {"stdout": sum(produced) - 1000}
    assert "output truncated: kept the last 1,000 bytes of stdout" in m._repr_html_()


@needs_machine
def test_a_result_past_max_output_is_cut_warned_and_marked():
    script = "seq 2000; seq 200 >&2"
    whole = busybox("sh", "-c", script)  # the default cap keeps all of it, with no mark
    assert whole.truncated == {} and whole.stdout.startswith("1\n2\n") and "truncated" not in whole._repr_html_()
    with pytest.warns(UserWarning, match="output truncated: kept the last 1,000 bytes of stdout"):
        cut = busybox("sh", "-c", script, max_output=1000)
    assert cut.stdout == whole.stdout[-1000:] and cut.stderr == whole.stderr  # stderr is under the cap
    assert cut.truncated == {"stdout": len(whole.stdout) - 1000}
    assert "⚠ output truncated" in cut._repr_html_()
    assert busybox("sh", "-c", script, max_output=None).stdout == whole.stdout
    with pytest.raises(ValueError, match="max_output"):
        busybox("true", max_output=-1)


def test_output_pieces_keep_the_newest_bytes_exactly():
    from ncpu_nb.arm64.machine import PIECE, Output

    kept, written = Output(), b""
    for i in range(300):  # small and large writes, across pieces
        data = bytes([i % 251]) * (i * 97 % (2 * PIECE))
        kept, written = kept.add(data, 200_000), written + data
        assert bytes(kept) == written[-200_000:] and kept.dropped == max(0, len(written) - 200_000)
    assert len(kept.pieces) <= 200_000 // PIECE + 2


@needs_machine
def test_a_malformed_elf_is_an_elf_error_from_the_loader():
    data = HELLO.read_bytes()
    with pytest.raises(ElfError):
        Arm64Machine(data[:4096], ["hello"])


@needs_machine
def test_cli_passes_streams_and_exit_status(tmp_path):
    (tmp_path / "f").write_text("mounted\n")
    command = [sys.executable, "-m", "ncpu_nb.cli", "busybox", "--mount", f"{tmp_path}:/data", "sh", "-c",
               "cat; cat /data/f; echo err >&2; exit 7"]
    done = subprocess.run(command, input=b"from stdin\n", capture_output=True, cwd=ROOT)
    assert (done.stdout, done.stderr, done.returncode) == (b"from stdin\nmounted\n", b"err\n", 7)
    done = subprocess.run([sys.executable, "-m", "ncpu_nb.cli", "exec", str(C_BIN / "hello")], capture_output=True,
                          cwd=ROOT)
    assert (done.stdout, done.returncode) == (b"Hello, world!\n", 0)


@needs_machine
def test_magics_in_an_ipython_shell():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ncpu_nb")
    r = shell.run_line_magic("busybox", "echo 'two words'")
    assert r.stdout == "two words\n"
    r = shell.run_cell_magic("busybox", "--cwd /tmp", "pwd\nfor i in 1 2 3; do echo $i; done | wc -l\n")
    assert r.stdout == "/tmp\n3\n" and r.exit_code == 0


def test_write_file_puts_input_into_the_machines_own_filesystem():
    from ncpu_nb.arm64.machine import Arm64Machine, MachineError

    machine = Arm64Machine.busybox("sh", "-c", "cat /tmp/new /etc/passwd")
    machine.write_file("/tmp/new", "made outside\n")
    machine.write_file("/etc/passwd", b"replaced\n")  # an existing file: replaced whole
    machine.run()
    assert machine.stdout == "made outside\nreplaced\n"
    with pytest.raises(MachineError, match="cannot resolve"):
        machine.write_file("/no/such/folder/file", "x")


def test_exit_signal_tells_a_signal_from_an_exit_status():
    from ncpu_nb.arm64.machine import Arm64Machine

    for script, status, signal in (("exit 134", 134, None), ("kill -ABRT $$", 134, 6), ("true", 0, None)):
        machine = Arm64Machine.busybox("sh", "-c", script)
        machine.run()
        assert (machine.exit_status, machine.exit_signal) == (status, signal), script
