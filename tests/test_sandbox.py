"""The sandbox under attack: a guest must never reach host files outside what the user mounted, and
nothing a guest does to its files may reach another file.

Each attempt is a shell script run as the guest; the host folder around the mount holds a canary
(a file the guest must never read) and a target (a file it must never change).
"""
import io
import os
import stat
import tarfile
import threading

import pytest

import ncpu_nb

CANARY = "host secret 7f3a"


@pytest.fixture
def host(tmp_path):
    """tmp/mount (the guest's /mnt, read-write) beside tmp/outside (canary and target)."""
    mount, outside = tmp_path / "mount", tmp_path / "outside"
    mount.mkdir()
    outside.mkdir()
    (outside / "canary").write_text(CANARY + "\n")
    (outside / "target").write_text("")
    (mount / "file").write_text("inside\n")
    return mount, outside


def guest(script, mount, rw=True, **kw):
    spec = f"{mount}:/mnt" + (":rw" if rw else "")
    return ncpu_nb.busybox("sh", "-c", script, mounts=[spec], timeout=120, **kw)


def assert_untouched(outside):
    assert (outside / "target").read_text() == ""
    assert sorted(p.name for p in outside.iterdir()) == ["canary", "target"]
    assert stat.S_IMODE((outside / "target").stat().st_mode) & 0o7000 == 0


ATTEMPTS = {
    "dot-dot above the mount": "cat /mnt/../outside/canary; cat /mnt/../../outside/canary; cd /mnt/../..; ls",
    "host symlink to an absolute host path": "ln -s {outside}/canary /mnt/abs; cat /mnt/abs",
    "host symlink climbing out": "ln -s ../outside/canary /mnt/up; cat /mnt/up; ln -s ../../../../../.. /mnt/r; cat /mnt/r{outside}/canary",
    "symlink to / then through it": "ln -s / /mnt/root; cat /mnt/root{outside}/canary; echo x >> /mnt/root{outside}/target",
    "hard link of a guest file into the mount": "ln /etc/passwd /mnt/pw; ln /mnt/file /tmp/f",
    "rename out of the mount": "mv /mnt/file /tmp/file; mv /tmp /mnt/tmp",
    "/proc roots and cwds": "cat /proc/self/root{outside}/canary; cat /proc/1/cwd/../outside/canary; ls -l /proc/self/root",
    "/proc/mounts names no host path": "cat /proc/mounts; cat /proc/self/mountinfo",
    "device node in the mount": "mknod /mnt/mem c 1 1; mknod /mnt/sda b 8 0; cat /mnt/mem",
    "setuid bits on the host": "cp /bin/busybox /mnt/suid; chmod 4755 /mnt/suid; chmod 6777 /mnt/file; mkdir -m 7777 /mnt/d",
    "symlink written by the guest, opened for writing": "ln -s {outside}/target /mnt/t; echo x > /mnt/t; echo x >> /mnt/t",
    "open with O_CREAT through a dangling symlink": "ln -s {outside}/newfile /mnt/dangling; echo x > /mnt/dangling",
    "directory swapped for a symlink (one machine)": "mkdir /mnt/d; ln -s {outside} /mnt/s; for i in 1 2 3 4 5 6 7 8; do "
                                                     "mv /mnt/d /mnt/o; mv /mnt/s /mnt/d; cat /mnt/d/canary; "
                                                     "echo x >> /mnt/d/target; mv /mnt/d /mnt/s; mv /mnt/o /mnt/d; done",
    "network": "nc -l -p 8080 & nc 127.0.0.1 22 </dev/null; wget -O- http://127.0.0.1/",
    "symlink to /proc/self/root in the mount": "ln -s /proc/self/root /mnt/pr; cat /mnt/pr{outside}/canary; ls /mnt/pr/",
    "/proc links name guest paths": "readlink /proc/self/exe /proc/self/cwd /proc/self/root; ls -l /proc/self/fd/",
    "dot-dot from deep inside the mount": "mkdir -p /mnt/a/b/c; cd /mnt/a/b/c; cd ../../../../../..; pwd; ls; "
                                          "cat ../../../../../outside/canary",
    "tar archive with dot-dot and absolute members": "cd /mnt; tar -xf evil.tar; tar -xPf evil.tar; ls -la /mnt",
    "symlink loop and overlong paths": "ln -s loop /mnt/loop; cat /mnt/loop; cat /mnt/$(printf 'x%.0s' $(seq 300)); "
                                       "cat /mnt$(printf '/a%.0s' $(seq 3000))",
    "find the canary from the root": "find / -name canary 2>/dev/null; find /mnt -follow -name canary",
    "mount and chroot": "mkdir /tmp/p; mount -t proc proc /tmp/p; mount --bind / /tmp/p; chroot /mnt /bin/sh -c true",
    "devices the machine does not have": "cat /dev/mem /dev/sda /dev/kmsg /sys/kernel/notes; ls /sys",
    "signals reach only guest processes": "kill -9 -1; kill -9 1; echo still here",
    "cp, mv and rm through a directory symlink": "ln -s {outside} /mnt/o; cp /mnt/o/canary /mnt/copy; mv /mnt/o/target /mnt/t; "
                                                 "rm -rf /mnt/o/; rm -rf /mnt/o/*; touch /mnt/o/new",
    "hard link to a host symlink's target": "ln -s {outside}/target /mnt/sl; ln /mnt/sl /mnt/hl; echo x >> /mnt/hl",
    "rename a guest folder over the mount": "mkdir /tmp/x; mv /tmp/x /mnt; mv /mnt /tmp/y; rmdir /mnt",
}


def evil_tar(path, outside):
    """An archive whose members climb out with .., name absolute host paths and plant symlinks out."""
    with tarfile.open(path, "w") as tar:
        for name in ("../outside/target", f"{outside}/target", "../../x"):
            info = tarfile.TarInfo(name)
            info.size = 6
            tar.addfile(info, io.BytesIO(b"INJECT"))
        link = tarfile.TarInfo("escape")
        link.type, link.linkname = tarfile.SYMTYPE, str(outside)
        tar.addfile(link)
        through = tarfile.TarInfo("escape/planted")
        through.size = 6
        tar.addfile(through, io.BytesIO(b"INJECT"))


@pytest.mark.parametrize("name", list(ATTEMPTS))
def test_escape_attempt_is_held(host, name):
    mount, outside = host
    evil_tar(mount / "evil.tar", outside)
    r = guest(ATTEMPTS[name].format(outside=outside), mount)
    assert CANARY not in r.stdout + r.stderr
    assert str(outside.parent) not in r.stdout, "the guest saw a host path"
    assert_untouched(outside)
    for p in mount.rglob("*"):
        if not p.is_symlink():
            assert stat.S_IMODE(p.lstat().st_mode) & 0o7000 == 0, f"{p} carries setuid/setgid/sticky"


def test_read_only_mount_refuses_every_change(host):
    mount, outside = host
    before = {p.name: p.read_bytes() for p in mount.iterdir()}
    r = guest("echo x > /mnt/file; echo x >> /mnt/file; true > /mnt/new; rm /mnt/file; mv /mnt/file /mnt/f2; "
              "mkdir /mnt/d; ln -s x /mnt/l; chmod 777 /mnt/file; touch /mnt/file; mkfifo /mnt/p; cat /mnt/file",
              mount, rw=False)
    assert r.stdout == "inside\n"
    assert r.stderr.count("Read-only file system") == 10, r.stderr
    assert {p.name: p.read_bytes() for p in mount.iterdir()} == before
    assert_untouched(outside)


def test_a_fifo_in_a_mount_joins_guest_processes_only(host):
    """A FIFO in a mounted folder (the host's or one the guest made) is a pipe between guest
    processes: what a host process left in it never reaches the guest."""
    mount, _ = host
    os.mkfifo(mount / "hostfifo")
    held = os.open(mount / "hostfifo", os.O_RDWR | os.O_NONBLOCK)
    os.write(held, b"from a host process\n")
    try:
        r = guest("mkfifo /mnt/p && ls -l /mnt/p; (echo to the guest > /mnt/p &); cat /mnt/p; "
                  "(echo guest again > /mnt/hostfifo &); cat /mnt/hostfifo", mount)
    finally:
        os.close(held)
    assert r.stdout.startswith("prw-r--r--") and r.stdout.endswith("to the guest\nguest again\n"), r.stdout + r.stderr
    assert stat.S_ISFIFO((mount / "p").lstat().st_mode)
    r = guest("mkfifo /mnt/q", mount, rw=False)
    assert "Read-only file system" in r.stderr


@pytest.mark.slow
def test_swapping_a_folder_for_a_symlink_from_another_machine_never_leads_out(host):
    """The race: one machine swaps a folder of a shared rw mount for a symlink to the host's
    folder around it while another machine reads and appends through the folder's name."""
    mount, outside = host
    (mount / "d").mkdir()
    (mount / "d" / "canary").write_text("inside canary\n")
    os.symlink(outside, mount / "sym")
    swapper = ("i=0; while [ $i -lt 3000 ]; do mv /mnt/d /mnt/d_old; mv /mnt/sym /mnt/d; mv /mnt/d /mnt/sym; "
               "mv /mnt/d_old /mnt/d; i=$((i+1)); done")
    attacker = ("i=0; while [ $i -lt 3000 ]; do cat /mnt/d/canary; echo INJECT >> /mnt/d/target; "
                "i=$((i+1)); done 2>/dev/null")
    results = {}

    def run(name, script):
        results[name] = guest(script, mount, deterministic=False)

    threads = [threading.Thread(target=run, args=a) for a in (("swap", swapper), ("attack", attacker))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    attack = results["attack"]
    assert CANARY not in attack.stdout
    assert attack.stdout.count("inside canary") > 0, "the attacker never read the folder it raced for"
    assert_untouched(outside)


def test_an_unlinked_open_file_keeps_its_bytes_and_never_aliases_another():
    r = ncpu_nb.busybox("sh", "-c", "echo data >/tmp/x; exec 3>>/tmp/x; exec 4</tmp/x; rm /tmp/x; "
                        "echo secret >/tmp/y; echo INJECT >&3; cat /tmp/y; cat <&4; ls /tmp")
    assert r.stdout == "secret\ndata\nINJECT\ny\n", r.stdout + r.stderr
    assert r.exit_code == 0 and r.stderr == ""


def test_diff_against_stdin_uses_an_unlinked_temporary_file():
    # diff - copies stdin to a file made by mkstemp and unlinked at once (BusyBox's bc/dc tests do this).
    r = ncpu_nb.busybox("sh", "-c", "printf 'a\\nb\\n' >/tmp/f; printf 'a\\nc\\n' | diff -u /tmp/f -; echo status $?")
    assert "-b\n+c\n" in r.stdout and r.stdout.endswith("status 1\n"), r.stdout + r.stderr


# ---- the network: the guest's sockets are its own --------------------------------------------------

@pytest.fixture
def host_server():
    """A TCP server on the host's loopback that counts the connections it gets."""
    import socket
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    hits, done = [], threading.Event()

    def serve():
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:  # a timeout, or closed
                continue
            hits.append("connection")
            conn.sendall(CANARY.encode() + b"\n")
            conn.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], hits
    done.set()
    thread.join(timeout=2)
    server.close()


def test_the_guest_loopback_is_not_the_hosts(host_server):
    """A host server listening on 127.0.0.1 is not reachable from the guest's 127.0.0.1 (its own
    loopback), and any other address is unreachable: the machine has no network."""
    port, hits = host_server
    r = ncpu_nb.busybox("sh", "-c", f"nc 127.0.0.1 {port} </dev/null; echo \"loopback $?\"; "
                        f"wget -q -O - http://127.0.0.1:{port}/; wget -q -O - http://10.1.2.3:{port}/; "
                        f"nc ::1 {port} </dev/null; nc 192.0.2.1 {port} </dev/null; echo end", timeout=60)
    assert CANARY not in r.stdout + r.stderr
    assert "loopback 1" in r.stdout and r.stdout.endswith("end\n")
    assert "Connection refused" in r.stderr and "Network is unreachable" in r.stderr
    assert "connection" not in hits


def test_a_port_forward_is_bound_to_the_hosts_loopback_only():
    import socket
    session = ncpu_nb.Session(forward={8080: 0})
    try:
        port = session.forwards[8080]
        socket.create_connection(("127.0.0.1", port)).close()  # reachable from this computer
        # Every listener on that port is the session's one, on 127.0.0.1 (no 0.0.0.0, no other address).
        own = [line.split()[1] for line in open("/proc/net/tcp").read().splitlines()[1:]
               if line.split()[3] == "0A" and int(line.split()[1].split(":")[1], 16) == port]
        assert own == [f"0100007F:{port:04X}"]
    finally:
        session.close()
