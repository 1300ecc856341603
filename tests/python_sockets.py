"""Sockets from Debian's python3 inside the machine, run by tests/test_dynamic_programs.py beside qemu -L:
an epoll server on the loopback with three clients, socketpair, an abstract AF_UNIX datagram and IPv6."""
import select
import socket

server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen()
server.setblocking(False)
poller = select.epoll()
poller.register(server.fileno(), select.EPOLLIN)
clients = [socket.create_connection(("127.0.0.1", server.getsockname()[1])) for _ in range(3)]
for i, c in enumerate(clients):
    c.sendall(b"word%d\n" % i)
connections, requests = {}, []
while len(requests) < 3:
    for fd, _ in poller.poll(5):
        if fd == server.fileno():
            c, _ = server.accept()
            c.setblocking(False)
            connections[c.fileno()] = c
            poller.register(c.fileno(), select.EPOLLIN)
        else:
            c = connections.pop(fd)
            data = c.recv(100)
            c.sendall(data.upper())
            poller.unregister(fd)
            c.close()
            requests.append(data)
print(sorted(requests), [c.recv(100) for c in clients])

a, b = socket.socketpair()
a.sendall(b"pair")
print(b.recv(10))

receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
receiver.bind("\0python-abstract")
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"dgram", "\0python-abstract")
print(receiver.recvfrom(10))

listener6 = socket.socket(socket.AF_INET6)
listener6.bind(("::1", 0))
listener6.listen()
client6 = socket.create_connection(("::1", listener6.getsockname()[1]))
print(listener6.accept()[1][0])
