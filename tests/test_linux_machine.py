"""The AArch64 Linux machine (`ncpu_nb._metal.LinuxMachine`) against the Linux oracle.

C test programs and BusyBox runs are compared byte for byte with what `qemu-aarch64 -cpu cortex-a53`
printed (programs/arm64/c/expected, programs/arm64/busybox/expected). Runs whose output depends on
the host under qemu (ls of /, uname, id, date, /proc) are compared with what the sandbox's own
specification says they must print: the root filesystem of rootfs.rs, the fixed boot time
2024-01-01 00:00:00 UTC, the guest running as root on host "ncpu" with kernel "6.1.0".
"""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

from ncpu_nb import _metal

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARM64 = ROOT / "programs" / "arm64"
BUSYBOX = (ARM64 / "busybox" / "busybox").read_bytes()
CASES = json.loads((ARM64 / "busybox" / "cases.json").read_text())
PATH = "PATH=/bin:/usr/bin"
CHUNK = 20_000_000


def finish(m, limit=3_000_000_000):
    """Runs to the end in chunks, as the Python face does; returns the last stop."""
    while True:
        stop = m.run(CHUNK)
        if stop[0] != "budget" or m.instructions > limit:
            return stop


def busybox(*argv, stdin=b"", env=(PATH,), **kw):
    m = _metal.LinuxMachine(BUSYBOX, ["busybox", *argv], list(env), stdin=stdin, **kw)
    stop = finish(m)
    assert stop[0] == "exited", (stop, m.faults(), m.take_stderr())
    return m


def out(m):
    return m.take_stdout().decode()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_busybox_matches_qemu(case):
    expected = ARM64 / "busybox" / "expected" / case["name"]
    m = busybox(*case["argv"], stdin=case.get("stdin", "").encode())
    assert m.take_stdout() == expected.with_suffix(".out").read_bytes()
    assert m.exit_status == int(expected.with_suffix(".status").read_text())
    assert m.unknown_syscalls() == []


C_RUNS = {
    "hello": ([], []),
    "argv_env": (["one", "two words", "", "last"], ["ARM64_TEST_VAR=hello_world", "ARM64_TEST_EMPTY=", "LANG=C"]),
    "file_io": ([], []),
    "fork_pipe_wait": ([], []),
    "signals": ([], []),
    "sockets": ([], []),
    "float_math": ([], []),
    "threads": ([], []),
    "gradebook": (["90", "120", "50", "100", "100", "100", "100", "100", "30"], []),
}


@pytest.mark.parametrize("name", list(C_RUNS))
def test_c_program_matches_qemu(name):
    args, env = C_RUNS[name]
    elf = (ARM64 / "c" / "bin" / name).read_bytes()
    m = _metal.LinuxMachine(elf, [f"bin/{name}", *args], env, exe_path=f"/bin/{name}")
    stop = finish(m)
    assert stop[0] == "exited", (stop, m.faults())
    assert m.take_stdout() == (ARM64 / "c" / "expected" / f"{name}.out").read_bytes()
    assert m.exit_status == int((ARM64 / "c" / "expected" / f"{name}.status").read_text())


HEAP_BUGS = ["clean", "overflow", "uninit", "use-after-free", "double-free", "unmapped"]


@pytest.mark.parametrize("mode", HEAP_BUGS)
def test_heap_bugs_match_qemu(mode):
    elf = (ARM64 / "c" / "bin" / "heap_bugs").read_bytes()
    m = _metal.LinuxMachine(elf, ["bin/heap_bugs", mode], [], exe_path="/bin/heap_bugs")
    assert finish(m)[0] == "exited"
    expected = ARM64 / "c" / "expected" / f"heap_bugs.{mode}"
    assert m.take_stdout() == pathlib.Path(f"{expected}.out").read_bytes()
    assert m.exit_status == int(pathlib.Path(f"{expected}.status").read_text())


@pytest.mark.parametrize("name, args", [("heap_bugs", ["double-free"]), ("heap_bugs", ["unmapped"]),
                                        ("signals", []), ("fork_pipe_wait", []), ("file_io", [])])
def test_tracing_does_not_change_a_run(name, args):
    """A traced run (every instruction recorded, with its memory accesses) is the untraced run: the same
    instructions, output, faults and exit status. (glibc's abort once lived on under tracing: the SIGABRT
    it raises stayed pending while the traced loop went on past the system call.)"""
    elf = (ARM64 / "c" / "bin" / name).read_bytes()
    runs = []
    for depth in (0, 64):
        m = _metal.LinuxMachine(elf, [f"bin/{name}", *args], [], exe_path=f"/bin/{name}")
        m.set_trace(depth)
        m.set_trace_accesses(depth > 0)
        finish(m)
        runs.append((m.instructions, m.take_stdout(), m.exit_status, m.faults()))
    assert runs[0] == runs[1]


# ---- runs whose expectations follow from the sandbox's specification ----


ROOT_LISTING = """\
total 41
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 bin
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 dev
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 etc
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 home
lrwxrwxrwx    1 root     root            12 Jan  1 00:00 linuxrc -> /bin/busybox
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 mnt
dr-xr-xr-x    1 root     root             0 Jan  1 00:00 proc
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 root
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 sbin
drwxrwxrwt    2 root     root          4096 Jan  1 00:00 tmp
drwxr-xr-x    4 root     root          4096 Jan  1 00:00 usr
drwxr-xr-x    2 root     root          4096 Jan  1 00:00 var
"""


def test_ls_of_the_root_filesystem():
    # Every entry was made at boot (2024-01-01 00:00 UTC) by root; /tmp is sticky and
    # world-writable; BusyBox's applet list puts linuxrc at the root.
    assert out(busybox("ls", "-l", "/")) == ROOT_LISTING


def test_identity_of_the_machine():
    assert out(busybox("uname", "-a")) == "Linux ncpu 6.1.0 #1 SMP PREEMPT_DYNAMIC aarch64 GNU/Linux\n"
    assert out(busybox("id")) == "uid=0(root) gid=0(root) groups=0(root)\n"
    assert out(busybox("hostname")) == "ncpu\n"
    assert out(busybox("cat", "/etc/motd")).startswith("Welcome to the ncpu_nb Metal machine")


def test_deterministic_clock_and_randomness():
    assert out(busybox("date", "-u")).startswith("Mon Jan  1 00:00:0")
    first = busybox("sh", "-c", "head -c 16 /dev/urandom | od -A n -t x1; date +%s.%N")
    second = busybox("sh", "-c", "head -c 16 /dev/urandom | od -A n -t x1; date +%s.%N")
    assert out(first) == out(second)
    assert first.instructions == second.instructions


def test_exec_paths_applets_and_proc_self_exe():
    assert out(busybox("env", "echo", "via", "env")) == "via env\n"
    # BusyBox re-runs itself through /proc/self/exe with the applet as argv[0]; run directly,
    # argv[0] "exe" names no applet, exactly as on Linux.
    m = busybox("env", "echo", "x")
    assert out(m) == "x\n" and "execve" in {entry[2] for entry in m.syscall_log()}
    m = _metal.LinuxMachine(BUSYBOX, ["busybox", "sh", "-c", "exec /proc/self/exe echo"], [PATH])
    finish(m)
    assert m.exit_status == 127 and m.take_stderr() == b"exe: applet not found\n"
    assert out(busybox("sh", "-c", "echo a b c | xargs -n 1 echo x")) == "x a\nx b\nx c\n"
    assert out(busybox("sh", "-c", "sh -c 'echo nested; exit 4'; echo $?")) == "nested\n4\n"
    assert out(busybox("readlink", "/proc/self/exe")) == "/bin/busybox\n"
    assert out(busybox("sh", "-c", "cat /proc/self/cmdline | tr '\\0' ' '")) == "cat /proc/self/cmdline "


EXECFN_C = r"""
#include <stdio.h>
#include <sys/auxv.h>
int main(int argc, char **argv) {
    printf("%s %s\n", (const char *)getauxval(AT_EXECFN), argv[0]);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None,
                    reason="Debian's cross compiler is not installed (apt-get install gcc-aarch64-linux-gnu)")
def test_at_execfn_is_the_path_given_to_execve(tmp_path):
    """AT_EXECFN points at the program's path as execve was given it (Linux's bprm->filename): relative,
    through a symlink, a script's own path; not where it leads (that is /proc/self/exe)."""
    (tmp_path / "execfn.c").write_text(EXECFN_C)
    subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O1", "-o", str(tmp_path / "execfn"),
                    str(tmp_path / "execfn.c")], check=True)
    (tmp_path / "link").symlink_to("execfn")
    m = busybox("sh", "-c", "cd /mnt/host && ./link && ./execfn && /mnt/host/link && ../host/link && "
                "printf '#!/mnt/host/execfn\\n' > /tmp/s && chmod +x /tmp/s && cd /tmp && ./s",
                mounts=[(str(tmp_path), "/mnt/host", False)])
    assert out(m).splitlines() == ["./link ./link", "./execfn ./execfn", "/mnt/host/link /mnt/host/link",
                                   "../host/link ../host/link", "./s /mnt/host/execfn"]
    m = _metal.LinuxMachine((tmp_path / "execfn").read_bytes(), ["prog"], [], exe_path="/usr/local/bin/prog")
    assert finish(m)[0] == "exited" and out(m) == "/usr/local/bin/prog prog\n"  # at boot: the exe_path
    if shutil.which("qemu-aarch64"):  # qemu-user gives the path on its command line, as Linux does
        for path in ("./link", "./execfn"):
            done = subprocess.run(["qemu-aarch64", "-cpu", "cortex-a53", path], cwd=tmp_path, capture_output=True,
                                  check=True)
            assert done.stdout.decode() == f"{path} {path}\n"


def test_exit_statuses_of_signals():
    assert busybox("sh", "-c", "kill -9 $$").exit_status == 137
    assert out(busybox("sh", "-c", "sh -c 'kill -TERM $$'; echo $?")) == "143\n"
    assert busybox("sh", "-c", "exit 300").exit_status == 44


def test_interactive_stdin():
    m = _metal.LinuxMachine(BUSYBOX, ["busybox", "sh", "-c", "read line; echo got $line"], [PATH], stdin_closed=False)
    assert finish(m)[0] == "stdin"
    m.write_stdin(b"hello\n")
    assert finish(m)[0] == "exited"
    assert m.take_stdout() == b"got hello\n"


def test_mounted_host_folder_is_read_only_and_closed(tmp_path):
    (tmp_path / "data.txt").write_text("from the host\n")
    (tmp_path / "escape").symlink_to("/etc/hostname")
    m = busybox("sh", "-c", "cat /mnt/host/data.txt; cat /mnt/host/escape; cd /mnt/host/../..; pwd; "
                "echo x > /mnt/host/new || echo refused", mounts=[(str(tmp_path), "/mnt/host", False)])
    assert out(m) == "from the host\nncpu\n/\nrefused\n"
    assert "Read-only file system" in m.take_stderr().decode()
    assert not (tmp_path / "new").exists()
    m = busybox("sh", "-c", "echo written > /mnt/host/new", mounts=[(str(tmp_path), "/mnt/host", True)])
    assert (tmp_path / "new").read_text() == "written\n"


def test_exec_of_a_folder_is_eacces_so_a_path_search_goes_on():
    # Linux says EACCES for a folder; glibc's execvp gives up on EISDIR but tries the next PATH entry.
    m = busybox("sh", "-c", "mkdir -p /tmp/d/printf; PATH=/tmp/d:/bin env printf 'found\\n'; /tmp/d/printf; echo $?")
    assert out(m) == "found\n126\n"
    assert "Permission denied" in m.take_stderr().decode()


def test_host_names_that_are_not_utf8_round_trip(tmp_path):
    folder = os.path.join(os.fsencode(tmp_path), b"dir\xe9")
    os.mkdir(folder)
    with open(os.path.join(folder, b"caf\xe9"), "wb") as f:
        f.write(b"latin-1 name\n")
    m = busybox("sh", "-c", "cd /mnt/host/dir*; pwd; cat ./caf*; echo made > \"$(printf 'new\\377')\"; "
                "for f in *; do echo \"$f\"; done",
                mounts=[(str(tmp_path), "/mnt/host", True)])
    assert m.take_stdout() == b"/mnt/host/dir\xe9\nlatin-1 name\ncaf\xe9\nnew\xff\n"
    with open(os.path.join(folder, b"new\xff"), "rb") as f:
        assert f.read() == b"made\n"


# ---- the debugging primitives ----


def test_breakpoint_step_trace_and_registers():
    elf = (ARM64 / "c" / "bin" / "hello").read_bytes()
    m = _metal.LinuxMachine(elf, ["hello"], [], exe_path="/bin/hello")
    entry = m.get_register("pc")
    m.add_breakpoint(entry + 8)
    assert m.run(1000) == ("breakpoint", entry + 8, "")
    assert m.instructions == 2 and m.get_register("pc") == entry + 8
    m.set_trace(4)
    assert m.step(3)[0] == "budget"
    trace = m.trace()
    assert [t[0] for t in trace] == [entry + 8, entry + 12, entry + 16]
    assert all(isinstance(t[2], list) for t in trace)
    assert m.breakpoints() == [entry + 8]
    m.remove_breakpoint(entry + 8)
    m.set_trace(0)
    assert finish(m)[0] == "exited"
    assert m.take_stdout() == (ARM64 / "c" / "expected" / "hello.out").read_bytes()


TRACED_REGISTERS = ([f"x{i}" for i in range(31)] + ["sp"] + [f"v{i}" for i in range(32)]
                    + ["fpcr", "fpsr", "tpidr_el0"])


def test_every_traced_path_records_what_single_steps_show_changed():
    """The oracle steps a second machine one instruction at a time and reads all of its
    registers around each step; the trace ring must name exactly the ones that changed, whether
    it is filled by the trace-only loop, the loop that checks breakpoints before each
    instruction, or the one that also logs memory accesses."""
    argv = ["busybox", "sh", "-c", "echo traced | md5sum; printf '%08.3f\\n' 2.5"]
    n = 6000  # start-up, the shell, its string routines (vector loads and compares), system calls

    def machine():
        return _metal.LinuxMachine(BUSYBOX, argv, [PATH])

    oracle = machine()
    expected = []
    for _ in range(n):
        pc, regs = oracle.get_register("pc"), [oracle.get_register(r) for r in TRACED_REGISTERS]
        nzcv = oracle.get_register("nzcv")
        assert oracle.step(1)[0] == "budget"
        after = [oracle.get_register(r) for r in TRACED_REGISTERS]
        changes = [(r, a, b) for r, a, b in zip(TRACED_REGISTERS, regs, after) if a != b]
        expected.append((pc, changes, nzcv, oracle.get_register("nzcv")))
    assert any(c[0].startswith("v") for e in expected for c in e[1])

    for setup in ("trace only", "breakpoint elsewhere", "accesses"):
        m = machine()
        m.set_trace(n)
        if setup == "breakpoint elsewhere":
            m.add_breakpoint(0x10)
        if setup == "accesses":
            m.set_trace_accesses(True)
        assert m.run(n)[0] == "budget"
        got = [(pc, changes, before, after) for pc, _, changes, before, after, _, _ in m.trace()]
        assert got == expected, setup


def test_watchpoint_stops_before_the_store():
    m = _metal.LinuxMachine(BUSYBOX, ["busybox", "echo", "watched"], [PATH])
    sp = m.get_register("sp")
    m.add_watchpoint(sp - 64, 64, read=False, write=True)
    kind, pc, detail = m.run(100_000)
    assert kind == "watchpoint" and detail.startswith("write of 0x")
    assert m.watchpoints() == [(sp - 64, 64, False, True)]
    m.remove_watchpoint(sp - 64, 64)
    assert finish(m)[0] == "exited" and m.take_stdout() == b"watched\n"


def test_snapshot_and_restore_replay_identically():
    m = _metal.LinuxMachine(BUSYBOX, ["busybox", "sh", "-c", "seq 200 | sha256sum"], [PATH])
    m.run(300_000)
    snap = m.snapshot()
    finish(m)
    first = (m.take_stdout(), m.instructions, m.syscalls)
    m.restore(snap)
    assert m.instructions < first[1]
    finish(m)
    assert (m.take_stdout(), m.instructions, m.syscalls) == first


def test_machine_introspection():
    m = _metal.LinuxMachine(BUSYBOX, ["busybox", "sh", "-c", "sleep 1; echo done"], [PATH])
    finish(m)
    log = m.syscall_log()
    names = {entry[2] for entry in log}
    assert {"clone", "wait4", "execve", "exit_group", "write"} <= names or {"clone", "wait4"} <= names
    assert out(m) == "done\n"
    assert m.read_file("/etc/hostname") == b"ncpu\n"
    assert m.processes() == []


def test_bad_executables_raise_typed_errors():
    with pytest.raises(_metal.ElfError, match="not an ELF file"):
        _metal.LinuxMachine(b"#!/bin/sh\necho not a binary\n" + bytes(64), ["x"], [])
    with pytest.raises(_metal.ElfError, match="too short"):
        _metal.LinuxMachine(b"\x7fELF", ["x"], [])
    with pytest.raises(ValueError, match="working directory"):
        _metal.LinuxMachine(BUSYBOX, ["busybox"], [], cwd="/nonexistent")
    with pytest.raises(ValueError, match='cannot place a file at "/etc/passwd/x"'):
        _metal.LinuxMachine(BUSYBOX, ["busybox"], [], files=[("/etc/passwd/x", b"", 0o644)])
    with pytest.raises(ValueError, match='cannot place a file at "relative"'):
        _metal.LinuxMachine(BUSYBOX, ["busybox"], [], files=[("relative", b"", 0o644)])
    with pytest.raises(ValueError, match="cannot mount"):
        _metal.LinuxMachine(BUSYBOX, ["busybox"], [], mounts=[("/nonexistent-host-folder", "/mnt/x", False)])


def test_faults_kill_the_process_like_linux():
    # An undefined instruction word placed at the entry point: SIGILL, status 128 + 4.
    elf = (ARM64 / "c" / "bin" / "hello").read_bytes()
    m = _metal.LinuxMachine(elf, ["hello"], [], exe_path="/bin/hello")
    m.write_memory(m.get_register("pc"), (0).to_bytes(4, "little"))
    assert finish(m)[0] == "exited"
    assert m.exit_status == 132
    pid, signal, pc, what = m.faults()[0]
    assert signal == 4 and "undefined instruction 0x00000000" in what


def test_stack_grows_on_demand_up_to_its_limit():
    recurse = "function f(n) { return n ? f(n-1) + 1 : 0 } BEGIN { print f(%d); " \
              "while ((getline l < \"/proc/self/maps\") > 0) if (l ~ /stack/) print l }"
    text = out(busybox("awk", recurse % 3000))
    depth, stack = text.splitlines()
    start, end = (int(x, 16) for x in stack.split()[0].split("-"))
    assert depth == "3000" and end - start > 1 << 20
    # Past 8 MiB (RLIMIT_STACK) the program dies of SIGSEGV, as under qemu.
    m = busybox("awk", recurse % 20000)
    assert m.exit_status == 139 and m.faults()[0][1] == 11


def test_proc_dev_and_mounts_as_applets_read_them():
    assert out(busybox("sh", "-c", "echo hi > /dev/stdout; echo x | cat /dev/stdin")) == "hi\nx\n"
    assert out(busybox("df", "/")).splitlines()[1].split()[0] == "tmpfs"
    assert out(busybox("ps", "-o", "pid,ppid,comm")) == "PID   PPID  COMMAND\n  100     1 busybox\n"
    assert out(busybox("sh", "-c", "sleep 2; cat /proc/uptime")).startswith("2.0")
    assert out(busybox("head", "-n", "3", "/proc/cpuinfo")) == "processor\t: 0\nBogoMIPS\t: 100.00\nFeatures\t: fp asimd\n"
    top = out(busybox("sh", "-c", "top -b -n 1 | head -n 4")).splitlines()
    assert top[0].startswith("Mem: ") and top[1].startswith("CPU: ") and top[3].split()[:2] == ["PID", "PPID"]
    # The command name is the last name of the path given to execve, as on Linux.
    assert out(busybox("sh", "-c", "cat /proc/self/comm; /bin/cat /proc/self/comm")) == "exe\ncat\n"
    m = busybox("hostname", "-f")  # tries a socket first: the sandbox has no network
    assert out(m) == "ncpu\n" and m.unknown_syscalls() == []


def test_df_reports_the_in_memory_filesystem_as_linux_reports_a_tmpfs():
    # As on Linux (checked with qemu-aarch64 on a host tmpfs): a file takes whole 4 KiB pages, and
    # Used + Available is the size. Available is what can still be written: 8 MiB at boot, then none.
    script = "df /; echo x > /tmp/one; df /; head -c 20000000 /dev/zero > /tmp/big 2>/dev/null; df /"
    sizes = [[int(n) for n in line.split()[1:4]]
             for line in out(busybox("sh", "-c", script, file_limit=8 << 20)).splitlines() if line.startswith("tmpfs")]
    (size, used, free), one, full = sizes
    assert free == 8192 and size == used + free
    assert one == [size, used + 4, free - 4]  # 2 bytes cost a page
    assert full[1:] == [full[0], 0]  # it used to show half of the filesystem free, always


def test_vfork_spawn_from_glibc_system_and_popen():
    m = busybox("awk", 'BEGIN { system("echo from system"); "echo piped" | getline x; print x; '
                       'print "to sort" | "sort"; close("sort"); print "done" }')
    assert out(m) == "from system\npiped\nto sort\ndone\n"
    clone_flags = [entry[3][0] for entry in m.syscall_log() if entry[2] == "clone"]
    assert any(f & 0x4000 for f in clone_flags)  # CLONE_VFORK: glibc's posix_spawn


def test_host_clock_when_not_deterministic():
    import time
    m = busybox("date", "+%s", deterministic=False)
    assert abs(int(out(m)) - time.time()) < 60


def test_registers_and_memory_remain_readable_after_the_run():
    elf = (ARM64 / "c" / "bin" / "hello").read_bytes()
    m = _metal.LinuxMachine(elf, ["hello"], [], exe_path="/bin/hello")
    pid = m.pid()
    assert finish(m)[0] == "exited"
    regs = m.registers()
    assert regs["x8"] == 94 and m.pid() == pid  # stopped in exit_group
    assert m.disassemble(regs["pc"] - 4, 1)[0][1] == 0xD4000001  # svc #0
    assert m.read_memory(m.memory_map()[0][0], 4) == b"\x7fELF"


def test_chunk_size_does_not_change_the_run():
    script = "seq 300 | sort -r | sha256sum; sleep 1; date +%s.%N"
    runs = []
    for chunk in (7_919, 1_000_000_000):
        m = _metal.LinuxMachine(BUSYBOX, ["busybox", "sh", "-c", script], [PATH])
        while m.run(chunk)[0] == "budget":
            pass
        runs.append((m.take_stdout(), m.instructions, m.syscalls, m.syscall_log()))
    assert runs[0] == runs[1]


def test_timeout_kills_the_command_it_runs():
    # BusyBox's timeout vforks twice; the grandchild sleeps, then kills the process that exec'd
    # the command, whose parent must see it end (128 + SIGTERM). (qemu-user cannot run this:
    # its guest cannot exec /proc/self/exe.)
    m = busybox("sh", "-c", "timeout 1 sleep 5; echo st $?; timeout 5 true; echo st $?")
    assert out(m) == "st 143\nst 0\n"


def test_argument_lists_too_long():
    with pytest.raises(_metal.ElfError, match="too long"):
        _metal.LinuxMachine(BUSYBOX, ["busybox", "echo", "x" * (3 << 20)], [])
    m = busybox("sh", "-c", "x=$(head -c 200000 /dev/zero | tr '\\0' a); /bin/echo $x; echo st $?")
    assert out(m) == "st 126\n" and b"Argument list too long" in m.take_stderr()
