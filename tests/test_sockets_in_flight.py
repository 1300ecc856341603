"""Sockets passed inside sockets (SCM_RIGHTS) and full socket queues, from a hostile guest: the host
process stays up, and the kernel-side buffers stay within the machine's memory limit.

Each case runs in a child Python process, so a guest that crashed the host fails the test instead of
killing pytest, and the child's peak memory (VmHWM) shows what the guest took of the host.
"""
import json
import shutil
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None,
                                reason="Debian's cross compiler is not installed (apt-get install gcc-aarch64-linux-gnu)")

SOCKETS_IN_FLIGHT_C = r"""
/* Sockets passed inside sockets (SCM_RIGHTS) and full socket queues, as a hostile guest uses them:
 *   chain N   a chain of N sockets, each sent inside the next, one descriptor open at a time
 *   cycle N   N rounds of: fill socket b, send b over its own pair, close both
 *   fill K P  K children, each filling up to P socketpairs until the machine refuses */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int send_fd(int via, int fd) {
    char byte = 'x';
    struct iovec iov = {&byte, 1};
    union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } control;
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof control.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(via, &msg, 0) == 1 ? 0 : -1;
}

/* Writes until the queue is full (EAGAIN) or the machine refuses: the errno that stopped it. */
static int fill(int fd) {
    static char block[65536];
    fcntl(fd, F_SETFL, O_NONBLOCK);
    while (write(fd, block, sizeof block) > 0) {
    }
    return errno;
}

int main(int argc, char **argv) {
    int n = argc > 2 ? atoi(argv[2]) : 0, sv[2];
    if (argc > 1 && strcmp(argv[1], "chain") == 0) {
        int held = -1;
        for (int i = 0; i < n; i++) {
            if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return printf("socketpair %d: %s\n", i, strerror(errno)), 1;
            if (held >= 0) {
                if (send_fd(sv[0], held) != 0) return printf("sendmsg %d: %s\n", i, strerror(errno)), 1;
                close(held);
            }
            close(sv[0]);
            held = sv[1];
        }
        close(held);
        printf("chain of %d closed\n", n);
    } else if (argc > 1 && strcmp(argv[1], "cycle") == 0) {
        for (int i = 0; i < n; i++) {
            if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return printf("socketpair %d: %s\n", i, strerror(errno)), 1;
            if (send_fd(sv[0], sv[1]) != 0) return printf("sendmsg %d: %s\n", i, strerror(errno)), 1;
            int stopped = fill(sv[0]);
            if (stopped != EAGAIN) return printf("round %d: %s\n", i, strerror(stopped)), 1;
            close(sv[0]);
            close(sv[1]);
        }
        printf("%d cycles collected\n", n);
    } else if (argc > 3 && strcmp(argv[1], "fill") == 0) {
        int pairs = atoi(argv[3]);
        for (int k = 0; k < n; k++) {
            if (fork() == 0) {
                for (int i = 0; i < pairs; i++) {
                    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 2;
                    if (fill(sv[0]) == ENOBUFS) return 3; /* refused: the machine's memory is spent */
                }
                return 0;
            }
        }
        int refused = 0, status;
        while (wait(&status) > 0) refused += WIFEXITED(status) && WEXITSTATUS(status) == 3;
        printf("%d of %d children refused\n", refused, n);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    d = tmp_path_factory.mktemp("sockets_in_flight")
    (d / "sif.c").write_text(SOCKETS_IN_FLIGHT_C)
    subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O1", "-o", str(d / "sif"), str(d / "sif.c")], check=True)
    return d / "sif"


def run_in_child(program, args, **limits) -> dict:
    code = textwrap.dedent(f"""
        import json, re
        from ncpu_nb import _metal
        m = _metal.LinuxMachine(open({str(program)!r}, "rb").read(), ["sif", *{args!r}], [], **{limits!r})
        while (stop := m.run(50_000_000))[0] == "budget":
            pass
        print(json.dumps(dict(stop=stop[0], out=m.take_stdout().decode(),
                              rss_mb=int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1]) // 1024)))
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"the host process died ({p.returncode}): {p.stderr[-2000:]}"
    return json.loads(p.stdout)


def test_a_chain_of_100000_sockets_each_inside_the_next_closes_without_killing_the_host(program):
    r = run_in_child(program, ["chain", "100000"])
    assert (r["stop"], r["out"]) == ("exited", "chain of 100000 closed\n")


def test_the_chain_is_refused_at_the_machine_s_memory_instead(program):
    r = run_in_child(program, ["chain", "100000"], memory_limit=64 << 20)
    assert r["out"].startswith("sendmsg ") and r["out"].endswith(": No buffer space available\n"), r["out"]


def test_sockets_sent_over_their_own_full_connection_are_collected(program):
    r = run_in_child(program, ["cycle", "6000"], memory_limit=64 << 20)
    assert (r["stop"], r["out"]) == ("exited", "6000 cycles collected\n")
    assert r["rss_mb"] < 400, "each round's 208 KiB queue was freed (it leaked 1.27 GB)"


def test_full_socket_pairs_in_eight_children_are_refused_at_the_machine_s_memory(program):
    r = run_in_child(program, ["fill", "8", "509"], memory_limit=64 << 20)
    assert (r["stop"], r["out"]) == ("exited", "8 of 8 children refused\n")
    assert r["rss_mb"] < 400, "the queues stayed within the 64 MiB limit (they reached 1.76 GB)"
