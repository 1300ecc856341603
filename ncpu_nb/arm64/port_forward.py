"""Port forwards into a session's machine, the one way between the host's network and the guest's.

`Session(forward={8080: 18080})` listens on the host's 127.0.0.1:18080 (loopback only) and carries
each connection to guest port 8080 on the machine's own loopback, where a guest server accepts it as
a connection from 127.0.0.1. Without a forward the guest's sockets reach nothing outside the machine.

While no command runs, a thread runs the machine in short slices whenever a forwarded connection
has something to carry; during a command, the command's own loop carries it (`pump`).
"""
from __future__ import annotations

import errno
import select
import socket
import threading
from collections.abc import Callable

SLICE = 1 / 30  # seconds of machine time per slice, as a session's commands run
CHUNK = 1 << 16


class _Link:
    """One forwarded connection: a host socket and the guest connection it is joined to."""

    def __init__(self, host: socket.socket, conn: int):
        self.host, self.conn = host, conn
        self.to_guest, self.to_host = bytearray(), bytearray()
        self.host_ended = self.guest_ended = False  # each side has sent all it will
        self.told_guest = self.told_host = False  # the other side has been told so
        self.broken = False

    @property
    def finished(self) -> bool:
        return self.broken or (self.told_guest and self.told_host)

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
        if not self.host_ended:
            try:
                data = self.host.recv(CHUNK)
                self.to_guest += data
                self.host_ended = not data
            except BlockingIOError:
                pass
        if self.to_guest:
            del self.to_guest[:machine.host_send(self.conn, bytes(self.to_guest))]
        if self.host_ended and not self.to_guest and not self.told_guest:
            machine.host_close(self.conn, write_only=True)
            self.told_guest = True

    def _from_guest(self, machine) -> None:
        if not self.guest_ended:
            data, self.guest_ended = machine.host_recv(self.conn, CHUNK)
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
    one); `host_ports` says which host port each guest port got. All machine calls happen under `lock`."""

    def __init__(self, machine, ports: dict[int, int], lock: threading.RLock,
                 on_output: Callable[[bytes, bytes], None]):
        self.machine, self.lock, self.on_output = machine, lock, on_output
        self.listeners: dict[socket.socket, int] = {}
        self.links: list[_Link] = []
        for guest, host in ports.items():
            for port, side in ((guest, "guest"), (host, "host")):
                if not isinstance(port, int) or not 0 <= port <= 65535 or (side == "guest" and port == 0):
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
        moved = False
        for listener, guest in self.listeners.items():
            while True:
                try:
                    host, _ = listener.accept()
                except (BlockingIOError, OSError):
                    break
                host.setblocking(False)
                try:
                    self.links.append(_Link(host, self.machine.host_connect(guest)))
                except ConnectionRefusedError:  # nothing listens on the guest port: the host sees a reset
                    host.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
                    host.close()
                moved = True
        for link in list(self.links):
            moved |= link.move(self.machine)
            if link.finished:
                link.close(self.machine)
                self.links.remove(link)
        return moved

    def _serve(self) -> None:
        while not self._closed.is_set():
            waiting = list(self.listeners) + [link.host for link in self.links if not link.host_ended]
            try:
                ready, _, _ = select.select(waiting, [], [], 0.05)
            except (OSError, ValueError):  # closed meanwhile
                continue
            if not ready and not self.links:
                continue
            if not self.lock.acquire(timeout=0.1):  # a command runs: its loop carries the bytes
                continue
            try:
                if self._closed.is_set():
                    break
                if self.pump() or self.links:
                    self.machine.run(timeout=SLICE, check=False, on_output=self.on_output)
                    self.pump()
            finally:
                self.lock.release()

    def close(self) -> None:
        """Stop forwarding: the host ports close and open connections end."""
        closed = getattr(self, "_closed", None)
        if closed is not None:
            closed.set()
            self._thread.join(timeout=2)
        with self.lock:
            for link in self.links:
                link.close(self.machine)
            self.links.clear()
        for listener in self.listeners:
            listener.close()
        self.listeners.clear()
