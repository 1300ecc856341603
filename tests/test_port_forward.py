"""`Session(forward={guest: host})`: host connections to 127.0.0.1:host reach a guest server on the
machine's own loopback, between commands and while one runs; nothing else crosses."""
import gc
import os
import resource
import socket
import threading
import time
import tracemalloc
import urllib.request

import pytest

import ncpu_nb
from ncpu_nb.arm64 import port_forward
from ncpu_nb.arm64.machine_errors import MachineTimeout


@pytest.fixture
def session():
    s = ncpu_nb.Session(forward={8080: 0, 9000: 0})
    yield s
    s.close()


def test_busybox_httpd_serves_the_host_between_commands(session):
    session.run("mkdir /www && echo '<h1>from the guest</h1>' > /www/index.html && httpd -p 8080 -h /www")
    url = f"http://127.0.0.1:{session.forwards[8080]}/"
    # The deterministic clock does not jump to httpd's 60 s header timeout while the host's bytes are on
    # their way (before, every request here was answered 408).
    for _ in range(3):
        with urllib.request.urlopen(url, timeout=30) as page:
            assert (page.status, page.read()) == (200, b"<h1>from the guest</h1>\n")
    with pytest.raises(urllib.error.HTTPError, match="404"):
        urllib.request.urlopen(url + "missing", timeout=30)
    assert session.run("echo the shell is still here").stdout == "the shell is still here\n"


def test_a_foreground_guest_server_talks_to_a_host_client(session):
    replies = []

    def client():
        for _ in range(100):  # until the guest listens
            try:
                c = socket.create_connection(("127.0.0.1", session.forwards[9000]), timeout=30)
                c.sendall(b"hello from the host\n")
                c.shutdown(socket.SHUT_WR)
                data = c.recv(100)
                if data:
                    replies.append(data)
                    return
            except OSError:
                pass
            threading.Event().wait(0.05)

    thread = threading.Thread(target=client)
    thread.start()
    r = session.run("echo 'hello from the guest' | nc -l -p 9000", timeout=60)
    thread.join()
    assert (r.stdout, r.status) == ("hello from the host\n", 0)
    assert replies == [b"hello from the guest\n"]


def test_output_of_a_background_server_joins_the_next_result(session):
    # The foreground's sleep lets the background nc reach listen() before the command returns (with
    # only `&`, a loaded host could connect first: the forward then finds nothing listening).
    session.run("nc -l -p 9000 & sleep 0.1")
    with socket.create_connection(("127.0.0.1", session.forwards[9000]), timeout=30) as c:
        c.sendall(b"logged by the guest\n")
    # `wait` ends when nc has had the bytes and the end of the connection (a guest `sleep` raced the
    # forward: the machine's clock can pass it before the host's bytes are through).
    r = session.run("wait; echo next", timeout=60)
    assert r.stdout == "logged by the guest\nnext\n"


def test_nothing_listening_resets_the_host_connection(session):
    # The forward resets the connection as soon as the guest refuses it: on a busy host the reset can
    # reach the client while it is still in connect().
    with pytest.raises(ConnectionResetError):
        with socket.create_connection(("127.0.0.1", session.forwards[8080]), timeout=30) as c:
            c.sendall(b"x")
            c.recv(10)
            c.recv(10)


def test_only_the_forwarded_ports_lead_in(session):
    """The host ports are the forwards alone (a guest server on another port serves only the guest), and
    closing the session's forwards closes them."""
    session.run("mkdir /w && echo hi > /w/index.html && httpd -p 8081 -h /w")
    assert session.run("wget -q -O /dev/null http://127.0.0.1:8081/ && echo reachable inside").stdout == "reachable inside\n"
    port = session.forwards[8080]
    session.close()
    assert session.forwards == {}
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5)


def test_bad_forwards_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="guest port 0"):
        ncpu_nb.Session(forward={0: 8080})
    with pytest.raises(ValueError, match="host port 70000"):
        ncpu_nb.Session(forward={80: 70000})
    taken = socket.create_server(("127.0.0.1", 0))
    try:
        with pytest.raises(OSError, match=f"cannot forward host port {taken.getsockname()[1]}"):
            ncpu_nb.Session(forward={80: taken.getsockname()[1]})
    finally:
        taken.close()


# --- hardening --------------------------------------------------------------------------------------
def serve_a_page(session, port=8080):
    session.run(f"mkdir -p /www && echo secret > /www/index.html && httpd -p {port} -h /www")
    return f"http://127.0.0.1:{session.forwards[port]}/"


def fetch_as(uid, port):
    """What a GET to the port gets back when another user sends it (a child process that became `uid`)."""
    read, write = os.pipe()
    if (child := os.fork()) == 0:  # the child only makes a socket call or two, then leaves
        try:
            os.setgid(uid)
            os.setuid(uid)
            c = socket.create_connection(("127.0.0.1", port), timeout=10)
            c.sendall(b"GET / HTTP/1.0\r\n\r\n")
            answer = repr(c.recv(1000))
        except OSError as error:
            answer = type(error).__name__
        os.write(write, answer.encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    with os.fdopen(read) as answer:
        return answer.read()


@pytest.mark.skipif(os.geteuid() != 0 or not os.path.exists("/proc/net/tcp"),
                    reason="needs root (to connect as another user) and Linux's /proc/net/tcp")
def test_another_user_of_the_host_cannot_connect(session):
    """A user who may not read the owner's files must not fetch them through the guest's server."""
    url = serve_a_page(session)
    assert fetch_as(65534, session.forwards[8080]) in ("b''", "ConnectionResetError")
    with urllib.request.urlopen(url, timeout=30) as page:  # the owner still can
        assert page.read() == b"secret\n"


def test_the_forward_serves_past_descriptor_1023():
    """select() cannot wait on descriptors ≥ 1024: the forward must still serve (and not spin)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        with ncpu_nb.Session(forward={8080: 0}) as s:
            url = serve_a_page(s)
            assert s._forward._thread.is_alive()
            with urllib.request.urlopen(url, timeout=30) as page:
                assert page.read() == b"secret\n"
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def cpu_seconds_over(seconds):
    before = time.process_time()
    time.sleep(seconds)
    return time.process_time() - before


@pytest.mark.slow
def test_out_of_descriptors_the_forward_backs_off_then_serves(session):
    url = serve_a_page(session)
    port = session.forwards[8080]
    clients = [socket.socket() for _ in range(3)]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    probe = os.open(os.devnull, os.O_RDONLY)  # the lowest free descriptor: none may be free past it
    os.close(probe)
    resource.setrlimit(resource.RLIMIT_NOFILE, (probe, hard))
    try:
        for c in clients:
            c.connect(("127.0.0.1", port))  # accept() finds no descriptor for these: EMFILE
        assert cpu_seconds_over(2) < 0.6  # it waits instead of spinning on the listener
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    for c in clients:
        c.settimeout(30)
        c.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert b"secret" in b"".join(iter(lambda: c.recv(1000), b""))
        c.close()
    with urllib.request.urlopen(url, timeout=30) as page:
        assert page.read() == b"secret\n"


@pytest.mark.slow
def test_a_guest_that_never_reads_stops_the_host_being_read(session):
    session.run("nc -l -p 9000 -e sleep 1000 & sleep 0.1")  # accepts, then never reads
    c = socket.create_connection(("127.0.0.1", session.forwards[9000]), timeout=30)
    c.setblocking(False)
    deadline, sent = time.monotonic() + 4, 0
    while time.monotonic() < deadline:
        try:
            sent += c.send(b"x" * 65536)
        except BlockingIOError:
            time.sleep(0.01)
    held = [len(link.to_guest) for link in session._forward.links]
    assert held and max(held) <= port_forward.BUFFER, (held, sent)
    c.close()


@pytest.mark.slow
def test_a_host_that_never_reads_stops_the_guest_being_read(session):
    session.run("nc -l -p 9000 -e yes & sleep 0.1")  # writes as fast as it can
    c = socket.create_connection(("127.0.0.1", session.forwards[9000]), timeout=30)
    time.sleep(4)
    held = [len(link.to_host) for link in session._forward.links]
    assert held and max(held) <= port_forward.BUFFER, held
    c.close()


@pytest.mark.slow
def test_background_output_between_commands_is_bounded():
    """A host link keeps the forward running the machine between commands: a chatty background job's
    output waits for the next result, the newest max_output bytes of it."""
    with ncpu_nb.Session(forward={9000: 0}, max_output=1000) as s:
        s.run("nc -l -p 9000 >/dev/null & yes background & sleep 0.1")
        tracemalloc.start()
        try:
            with socket.create_connection(("127.0.0.1", s.forwards[9000]), timeout=30):
                time.sleep(3)
                held, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert held < 2 << 20, f"{held:,} bytes held for the next result"
        r = s.run("kill %2; echo done")
        assert len(r.stdout) <= 1000 and r.stdout.endswith("done\n") and "background\n" in r.stdout


def test_a_command_waiting_on_a_closed_forward_ends_with_the_reason(session):
    session.close()
    with pytest.raises(MachineTimeout, match="no port forward is open"):
        session.run("nc -l -p 9000", timeout=60)
    assert session.run("echo still here").stdout == "still here\n"


def test_a_session_dropped_without_close_stops_serving():
    s = ncpu_nb.Session(forward={8080: 0})
    url = serve_a_page(s)
    with urllib.request.urlopen(url, timeout=30) as page:
        assert page.read() == b"secret\n"
    thread = s._forward._thread
    del s
    gc.collect()
    thread.join(timeout=5)
    assert not thread.is_alive()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)


def test_a_with_block_closes_the_forwards():
    with ncpu_nb.Session(forward={8080: 0}) as s:
        port = s.forwards[8080]
    assert s.forwards == {}
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5)


@pytest.mark.parametrize("forward, message", [([8080], "forward=\\[8080\\]: a dict"), ({True: 80}, "guest port True"),
                                              ({80: "80"}, "host port '80'")])
def test_a_forward_that_is_not_a_port_map_is_refused(forward, message):
    with pytest.raises((TypeError, ValueError), match=message):
        ncpu_nb.Session(forward=forward)


def request(port, host_header):
    with socket.create_connection(("127.0.0.1", port), timeout=30) as c:
        c.sendall(f"GET / HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n".encode())
        return b"".join(iter(lambda: c.recv(1000), b""))


def test_a_web_page_whose_name_was_rebound_to_loopback_is_refused(session):
    """DNS rebinding: the owner's browser, on evil.example rebound to 127.0.0.1, must not read the guest's pages."""
    serve_a_page(session)
    port = session.forwards[8080]
    for name in (f"evil.example:{port}", "evil.example", "127.0.0.1.evil.example"):
        assert request(port, name).startswith(b"HTTP/1.1 403"), name
    for name in (f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST", f"[::1]:{port}"):
        answer = request(port, name)
        assert answer.startswith(b"HTTP/1.") and b" 200 " in answer.split(b"\r\n")[0] and b"secret" in answer, name


def test_the_forward_carries_a_bounded_number_of_connections():
    """More clients than MAX_LINKS wait in the listener's backlog instead of each taking descriptors
    and guest buffers."""
    session = ncpu_nb.Session(forward={8080: 0}, deterministic=False)  # httpd's header timeout stays far off
    serve_a_page(session)  # httpd: a process for each connection, waiting for its request
    clients = [socket.create_connection(("127.0.0.1", session.forwards[8080]), timeout=30)
               for _ in range(port_forward.MAX_LINKS + 8)]
    try:
        deadline = time.monotonic() + 60  # a loaded machine accepts slowly: wait for the condition, not a time
        while len(session._forward.links) < port_forward.MAX_LINKS and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1)  # time to take more, if it would
        assert len(session._forward.links) == port_forward.MAX_LINKS
    finally:
        for c in clients:
            c.close()
        session.close()
