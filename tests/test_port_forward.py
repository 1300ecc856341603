"""`Session(forward={guest: host})`: host connections to 127.0.0.1:host reach a guest server on the
machine's own loopback, between commands and while one runs; nothing else crosses."""
import socket
import threading
import urllib.request

import pytest

import ncpu_nb


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
    r = session.run("sleep 1; echo next")
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
