"""Port forwards into a session's machine, the one way between the host's network and the guest's.

`Session(forward={8080: 18080})` listens on the host's 127.0.0.1:18080 (loopback only) and carries
each connection to guest port 8080 on the machine's own loopback, where a guest server accepts it as
a connection from 127.0.0.1. Without a forward the guest's sockets reach nothing outside the machine.

Only the session's owner may connect: on Linux a connection whose client socket belongs to another
user (another login on a shared host) is reset before it reaches the guest. A guest server may serve
the files the owner mounted, which the other users of the host must not read through it. An HTTP
request naming a Host other than localhost/127.0.0.1/[::1] is refused (403): that is a web page whose
DNS name was rebound to 127.0.0.1, in the owner's own browser.

While no command runs, a thread runs the machine in short slices whenever a forwarded connection
has something to carry; during a command, the command's own loop carries it (`pump`). Each link
holds at most BUFFER bytes each way: past that it stops reading the side that is ahead.
"""
from __future__ import annotations

import errno
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable

SLICE = 1 / 30  # seconds of machine time per slice, as a session's commands run
CHUNK = 1 << 16
BUFFER = 1 << 18  # bytes a link holds for a side that does not read, before it stops reading the other
MAX_LINKS = 16  # connections carried at once; more wait in the listener's backlog
BACKOFF = 0.5  # seconds without accepting after accept() ran out of descriptors (EMFILE)
OUT_OF_DESCRIPTORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
TCP_TABLE = "/proc/net/tcp"  # Linux: every IPv4 TCP socket with its owner's uid
HTTP_METHODS = (b"GET ", b"HEAD ", b"POST ", b"PUT ", b"DELETE ", b"OPTIONS ", b"PATCH ", b"CONNECT ", b"TRACE ")
HTTP_HEAD = 1 << 13  # bytes an HTTP request's headers may take before its Host is known
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
FORBIDDEN = b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def _tcp_address(address: tuple[str, int]) -> str:
    """(ip, port) as /proc/net/tcp writes it: the address as a host-order hex word, the port in hex."""
    ip, port = address
    return f"{int.from_bytes(socket.inet_aton(ip), 'little'):08X}:{port:04X}"


def peer_owner(connection: socket.socket) -> int | None:
    """The uid owning the client end of an accepted loopback TCP connection, -1 if the table lacks it,
    None where the system keeps no such table (not Linux)."""
    client, server = _tcp_address(connection.getpeername()), _tcp_address(connection.getsockname())
    try:
        with open(TCP_TABLE) as table:
            rows = [line.split() for line in table.readlines()[1:]]
    except OSError:
        return None
    return next((int(row[7]) for row in rows if row[1] == client and row[2] == server), -1)


def names_this_computer(head: bytes, complete: bool) -> bool | None:
    """Whether the first bytes a host client sent may go to the guest: not an HTTP request, or one whose
    Host is this computer's loopback. None while too few have come to say (`complete`: no more will)."""
    if any(m.startswith(head) for m in HTTP_METHODS) and not complete:
        return None  # could still become a request line
    if not head.startswith(HTTP_METHODS):
        return True
    end = head.find(b"\r\n\r\n")
    if end < 0:
        return None if len(head) < HTTP_HEAD and not complete else False
    for line in head[:end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"host":
            host = value.strip().decode("latin-1").lower()
            return (host[:host.find("]") + 1] if host.startswith("[") else host.partition(":")[0]) in LOOPBACK_NAMES
    return True  # HTTP/1.0 without a Host: no browser sends that


def _reset(connection: socket.socket) -> None:
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
    connection.close()


class _Link:
    """One forwarded connection: a host socket and the guest connection it is joined to."""

    def __init__(self, host: socket.socket, conn: int):
        self.host, self.conn = host, conn
        self.to_guest, self.to_host = bytearray(), bytearray()
        self.host_ended = self.guest_ended = False  # each side has sent all it will
        self.told_guest = self.told_host = False  # the other side has been told so
        self.broken = False
        self.screened = False  # the host's first bytes were found no rebound web page's request

    @property
    def finished(self) -> bool:
        return self.broken or (self.told_guest and self.told_host)

    @property
    def host_events(self) -> int:
        """What the host socket must become able to do for this link to go on."""
        read = selectors.EVENT_READ if not self.host_ended and len(self.to_guest) < BUFFER else 0
        return read | (selectors.EVENT_WRITE if self.to_host else 0)

    def move(self, machine) -> bool:
        """Carry what can go now, both ways, without waiting; returns whether anything moved."""
        before = (len(self.to_guest), len(self.to_host), self.host_ended, self.guest_ended)
        try:
            self._from_host(machine)
            self._from_guest(machine)
        except OSError:  # either side reset the connection
            self.broken = True
        return before != (len(self.to_guest), len(self.to_host), self.host_ended, self.guest_ended) or self.broken

    def _from_host(self, machine) -> None:
        if not self.host_ended and len(self.to_guest) < BUFFER:
            try:
                data = self.host.recv(min(CHUNK, BUFFER - len(self.to_guest)))
                self.to_guest += data
                self.host_ended = not data
            except BlockingIOError:
                pass
        if not self.screened and (self.to_guest or self.host_ended):
            verdict = names_this_computer(bytes(self.to_guest), self.host_ended)
            if verdict is None:
                return
            if not verdict:
                self.host.send(FORBIDDEN)
                self.broken = True
                return
            self.screened = True
        if self.to_guest:
            del self.to_guest[:machine.host_send(self.conn, bytes(self.to_guest))]
        if self.host_ended and not self.to_guest and not self.told_guest:
            machine.host_close(self.conn, write_only=True)
            self.told_guest = True

    def _from_guest(self, machine) -> None:
        if not self.guest_ended and len(self.to_host) < BUFFER:
            data, self.guest_ended = machine.host_recv(self.conn, min(CHUNK, BUFFER - len(self.to_host)))
            self.to_host += data
        if self.to_host:
            try:
                del self.to_host[:self.host.send(self.to_host)]
            except BlockingIOError:
                pass
        if self.guest_ended and not self.to_host and not self.told_host:
            self.host.shutdown(socket.SHUT_WR)
            self.told_host = True

    def close(self, machine) -> None:
        self.host.close()
        try:
            machine.host_close(self.conn)
        except OSError:  # the machine was restored to a time before this connection
            pass


class PortForward:
    """Host ports on 127.0.0.1 leading to guest ports. `ports` maps guest port → host port (0: any free
    one); `host_ports` says which host port each guest port got. All machine calls happen under `lock`;
    `on_output` gets what the guest prints while the forward runs the machine."""

    def __init__(self, machine, ports: dict[int, int], lock: threading.RLock,
                 on_output: Callable[[bytes, bytes], None]):
        self.machine, self.lock, self.on_output = machine, lock, on_output
        self.listeners: dict[socket.socket, int] = {}
        self.links: list[_Link] = []
        self._accept_after = 0.0  # monotonic time before which the listeners rest (out of descriptors)
        for guest, host in ports.items():
            for port, side in ((guest, "guest"), (host, "host")):
                if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535 or (
                        side == "guest" and port == 0):
                    raise ValueError(f"forward={ports!r}: {side} port {port!r} is not a port number")
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                listener.bind(("127.0.0.1", host))  # loopback only: the forward is for this computer
            except OSError as error:
                listener.close()
                self.close()
                hint = " (a session made earlier may hold it: its close() frees it)" if error.errno == errno.EADDRINUSE else ""
                raise OSError(error.errno, f"cannot forward host port {host}: {error.strerror}{hint}") from None
            listener.listen(16)
            listener.setblocking(False)
            self.listeners[listener] = guest
            machine.forward_port(guest)
        self.host_ports = {guest: s.getsockname()[1] for s, guest in self.listeners.items()}
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="ncpu-port-forward", daemon=True)
        self._thread.start()

    def pump(self) -> bool:
        """Accept new host connections and carry bytes both ways (the caller holds the lock)."""
        moved = self._accept()
        for link in list(self.links):
            moved |= link.move(self.machine)
            if link.finished:
                link.close(self.machine)
                self.links.remove(link)
        return moved

    def _accept(self) -> bool:
        accepted = False
        for listener, guest in self.listeners.items():
            while len(self.links) < MAX_LINKS and time.monotonic() >= self._accept_after:
                try:
                    host, _ = listener.accept()
                except BlockingIOError:
                    break
                except OSError as error:
                    if error.errno in OUT_OF_DESCRIPTORS:  # let descriptors free up before trying again
                        self._accept_after = time.monotonic() + BACKOFF
                    break
                accepted = True
                if peer_owner(host) not in (None, os.geteuid()):  # another user of this host
                    _reset(host)
                    continue
                host.setblocking(False)
                try:
                    self.links.append(_Link(host, self.machine.host_connect(guest)))
                except ConnectionRefusedError:  # nothing listens on the guest port: the host sees a reset
                    _reset(host)
        return accepted

    def _wait(self, selector: selectors.BaseSelector, timeout: float) -> bool:
        """Wait up to `timeout` for a listener or a link's host socket to become ready for what it is
        waited on for; returns whether one did. (`selectors`, not select(): descriptors past 1023.)"""
        for key in list(selector.get_map().values()):
            selector.unregister(key.fd)  # by number: the socket may be closed by now
        try:
            if len(self.links) < MAX_LINKS and time.monotonic() >= self._accept_after:
                for listener in self.listeners:
                    selector.register(listener, selectors.EVENT_READ)
            for link in list(self.links):
                if link.host_events:
                    selector.register(link.host, link.host_events)
        except (OSError, ValueError):  # a socket closed meanwhile: look again
            return True
        if not selector.get_map():
            self._closed.wait(timeout)
            return False
        return bool(selector.select(timeout))

    def _serve(self) -> None:
        with selectors.DefaultSelector() as selector:  # made once: with no descriptor left it could not be
            while not self._closed.is_set():
                self._serve_once(selector)

    def _serve_once(self, selector: selectors.BaseSelector) -> None:
        if not self._wait(selector, 0.05) and not self.links:
            return
        if not self.lock.acquire(timeout=0.1):  # a command runs: its loop carries the bytes
            return
        try:
            if not self._closed.is_set() and (self.pump() or self.links):
                self.machine.run(timeout=SLICE, check=False, on_output=self.on_output)
                self.pump()
        finally:
            self.lock.release()

    def close(self) -> None:
        """Stop forwarding: the host ports close and open connections end."""
        closed = getattr(self, "_closed", None)
        if closed is not None:
            closed.set()
            if self._thread is not threading.current_thread():
                self._thread.join(timeout=2)
        with self.lock:
            for link in self.links:
                link.close(self.machine)
            self.links.clear()
        for listener in self.listeners:
            listener.close()
        self.listeners.clear()
