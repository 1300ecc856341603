/* Sockets on one machine: socketpair, AF_UNIX streams and datagrams by path and abstract name,
 * descriptors passed with SCM_RIGHTS, TCP and UDP on the loopback (IPv4 and IPv6), poll, select and
 * epoll over sockets, shutdown, socket options and the errors a program meets. Ports come from the kernel (bind to port 0),
 * and nothing printed depends on them, so the output is the same on any Linux. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static void check(int ok, const char *what) {
    if (!ok) {
        printf("FAILED: %s (errno %s)\n", what, strerror(errno));
        exit(1);
    }
}

static void write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        check(w > 0, "write");
        s += w;
        n -= (size_t)w;
    }
}

/* Reads until end of file into buf; returns the length. */
static size_t read_all(int fd, char *buf, size_t cap) {
    size_t n = 0;
    for (;;) {
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        check(r >= 0, "read");
        if (r == 0) break;
        n += (size_t)r;
    }
    buf[n] = 0;
    return n;
}

static void pair_stream(void) {
    int sv[2];
    check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
    write_all(sv[0], "ping", 4);
    char buf[64];
    ssize_t n = read(sv[1], buf, sizeof buf);
    printf("socketpair stream: %.*s\n", (int)n, buf);
    write_all(sv[1], "pong", 4);
    n = recv(sv[0], buf, 2, MSG_PEEK);
    printf("  peeked %.*s,", (int)n, buf);
    n = read(sv[0], buf, sizeof buf);
    printf(" read %.*s\n", (int)n, buf);
    check(shutdown(sv[0], SHUT_WR) == 0, "shutdown");
    printf("  after shutdown(SHUT_WR) the peer reads %zd bytes\n", read(sv[1], buf, sizeof buf));
    struct stat st;
    check(fstat(sv[0], &st) == 0, "fstat");
    printf("  fstat says socket: %d\n", S_ISSOCK(st.st_mode));
    close(sv[0]);
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
    printf("  writing to a closed peer: %zd, %s\n", write(sv[1], "x", 1), strerror(errno));
    close(sv[1]);
}

static void pair_dgram(void) {
    int sv[2];
    check(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0, "socketpair dgram");
    send(sv[0], "one", 3, 0);
    send(sv[0], "three", 5, 0);
    char buf[64];
    ssize_t a = recv(sv[1], buf, sizeof buf, 0);
    printf("socketpair datagrams keep boundaries: %zd", a);
    ssize_t b = recv(sv[1], buf, 2, MSG_TRUNC);
    printf(" then %zd (truncated to 2: %.2s)\n", b, buf);
    errno = 0;
    printf("  nothing left, non-blocking: %zd %s\n", recv(sv[1], buf, sizeof buf, MSG_DONTWAIT), strerror(errno));
    close(sv[0]);
    close(sv[1]);
}

static void unix_path_server(void) {
    const char *path = "/tmp/sockets-test.sock";
    unlink(path);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strcpy(a.sun_path, path);
    check(bind(l, (struct sockaddr *)&a, sizeof a) == 0, "bind unix");
    errno = 0;
    int l2 = socket(AF_UNIX, SOCK_STREAM, 0);
    printf("unix: binding the same path again: %d %s\n", bind(l2, (struct sockaddr *)&a, sizeof a), strerror(errno));
    close(l2);
    struct stat st;
    check(stat(path, &st) == 0, "stat socket file");
    printf("  the path is a socket file: %d\n", S_ISSOCK(st.st_mode));
    int c = socket(AF_UNIX, SOCK_STREAM, 0);
    errno = 0;
    printf("  connecting before listen: %d %s\n", connect(c, (struct sockaddr *)&a, sizeof a), strerror(errno));
    close(c);
    check(listen(l, 4) == 0, "listen");
    pid_t child = fork();
    if (child == 0) {
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        check(connect(s, (struct sockaddr *)&a, sizeof a) == 0, "connect unix");
        write_all(s, "hello over a path", 17);
        shutdown(s, SHUT_WR);
        char buf[64];
        size_t n = read_all(s, buf, sizeof buf);
        printf("  client got back: %.*s\n", (int)n, buf);
        _exit(0);
    }
    struct sockaddr_un peer;
    socklen_t len = sizeof peer;
    int s = accept(l, (struct sockaddr *)&peer, &len);
    check(s >= 0, "accept unix");
    printf("  accepted; the client has no name (address length %u)\n", (unsigned)len);
    struct sockaddr_un me;
    len = sizeof me;
    getsockname(s, (struct sockaddr *)&me, &len);
    printf("  the accepted socket is named %s\n", me.sun_path);
    struct ucred cred;
    len = sizeof cred;
    check(getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0, "SO_PEERCRED");
    printf("  SO_PEERCRED names the child: %d\n", cred.pid == child);
    char buf[64];
    size_t n = read_all(s, buf, sizeof buf);
    printf("  server got: %.*s\n", (int)n, buf);
    for (size_t i = 0; i < n; i++) buf[i] = (char)(buf[i] >= 'a' && buf[i] <= 'z' ? buf[i] - 32 : buf[i]);
    write_all(s, buf, n);
    close(s);
    int status;
    waitpid(child, &status, 0);
    close(l);
    unlink(path);
    c = socket(AF_UNIX, SOCK_STREAM, 0);
    errno = 0;
    printf("  after unlink, connect: %d %s\n", connect(c, (struct sockaddr *)&a, sizeof a), strerror(errno));
    close(c);
}

static void unix_abstract_dgram(void) {
    int r = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, "\0ncpu-abstract", 14);
    socklen_t alen = offsetof(struct sockaddr_un, sun_path) + 14;
    check(bind(r, (struct sockaddr *)&a, alen) == 0, "bind abstract");
    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    check(sendto(s, "datagram to a name", 18, 0, (struct sockaddr *)&a, alen) == 18, "sendto abstract");
    char buf[64];
    struct sockaddr_un from;
    socklen_t flen = sizeof from;
    ssize_t n = recvfrom(r, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen);
    printf("abstract unix datagram: %.*s (sender address length %u)\n", (int)n, buf, (unsigned)flen);
    struct sockaddr_un none = {.sun_family = AF_UNIX};
    memcpy(none.sun_path, "\0nobody-here", 12);
    errno = 0;
    printf("  to a name no one has: %zd %s\n",
           sendto(s, "x", 1, 0, (struct sockaddr *)&none, offsetof(struct sockaddr_un, sun_path) + 12), strerror(errno));
    close(r);
    close(s);
}

/* A descriptor passed over an AF_UNIX socket (SCM_RIGHTS): the receiver reads a pipe the sender
 * made, through a descriptor number of its own; a control buffer too small cuts it (MSG_CTRUNC). */
static void pass_descriptor(void) {
    int sv[2], p[2];
    check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair for rights");
    check(pipe(p) == 0, "pipe");
    char cbuf[CMSG_SPACE(sizeof(int))];
    memset(cbuf, 0, sizeof cbuf);
    struct iovec iov = {.iov_base = "fd", .iov_len = 2};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &p[0], sizeof(int));
    check(sendmsg(sv[0], &msg, 0) == 2, "sendmsg rights");
    close(p[0]);
    write_all(p[1], "through a passed pipe", 21);
    close(p[1]);
    char data[8], rbuf[CMSG_SPACE(sizeof(int))];
    struct iovec riov = {.iov_base = data, .iov_len = sizeof data};
    struct msghdr r = {.msg_iov = &riov, .msg_iovlen = 1, .msg_control = rbuf, .msg_controllen = sizeof rbuf};
    ssize_t n = recvmsg(sv[1], &r, 0);
    struct cmsghdr *rc = CMSG_FIRSTHDR(&r);
    int got = -1;
    if (rc && rc->cmsg_level == SOL_SOCKET && rc->cmsg_type == SCM_RIGHTS) memcpy(&got, CMSG_DATA(rc), sizeof(int));
    char text[64];
    size_t t = got >= 0 ? read_all(got, text, sizeof text) : 0;
    printf("scm_rights: %zd bytes \"%.*s\", a descriptor %d, reading: %.*s\n", n, (int)n, data, got >= 0, (int)t, text);
    close(got);
    check(pipe(p) == 0, "pipe");
    memcpy(CMSG_DATA(c), &p[0], sizeof(int));
    msg.msg_controllen = sizeof cbuf;
    sendmsg(sv[0], &msg, 0);
    r.msg_controllen = 4; /* no room for the message */
    n = recvmsg(sv[1], &r, 0);
    printf("  with no room for it: %zd bytes, MSG_CTRUNC %d, control length %zu\n", n, !!(r.msg_flags & MSG_CTRUNC),
           (size_t)r.msg_controllen);
    close(p[0]);
    close(p[1]);
    close(sv[0]);
    close(sv[1]);
}

static unsigned short port_of(int fd) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    check(getsockname(fd, (struct sockaddr *)&ss, &len) == 0, "getsockname");
    return ss.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)&ss)->sin_port)
                                   : ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

static void tcp_v4(void) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    check(setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0, "SO_REUSEADDR");
    int got = 0;
    socklen_t glen = sizeof got;
    getsockopt(l, SOL_SOCKET, SO_REUSEADDR, &got, &glen);
    printf("tcp: SO_REUSEADDR reads back %d\n", got != 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    check(bind(l, (struct sockaddr *)&a, sizeof a) == 0, "bind tcp");
    check(listen(l, 8) == 0, "listen tcp");
    unsigned short port = port_of(l);
    printf("  the kernel chose a port: %d\n", port != 0);
    glen = sizeof got;
    getsockopt(l, SOL_SOCKET, SO_ACCEPTCONN, &got, &glen);
    printf("  SO_ACCEPTCONN %d\n", got);
    a.sin_port = htons(port);
    pid_t child = fork();
    if (child == 0) {
        for (int i = 0; i < 3; i++) {
            int s = socket(AF_INET, SOCK_STREAM, 0);
            check(connect(s, (struct sockaddr *)&a, sizeof a) == 0, "connect tcp");
            int nodelay = 1;
            setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof nodelay);
            char msg[32];
            int n = snprintf(msg, sizeof msg, "request %d", i);
            write_all(s, msg, (size_t)n);
            shutdown(s, SHUT_WR);
            char buf[64];
            size_t r = read_all(s, buf, sizeof buf);
            printf("  client %d got: %.*s\n", i, (int)r, buf);
            close(s);
        }
        _exit(0);
    }
    for (int i = 0; i < 3; i++) {
        struct sockaddr_in peer;
        socklen_t len = sizeof peer;
        int s = accept(l, (struct sockaddr *)&peer, &len);
        check(s >= 0, "accept tcp");
        char ip[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &peer.sin_addr, ip, sizeof ip);
        char buf[64];
        size_t n = read_all(s, buf, sizeof buf);
        printf("  server: %.*s from %s (a different port: %d)\n", (int)n, buf, ip, ntohs(peer.sin_port) != port);
        char reply[80];
        int m = snprintf(reply, sizeof reply, "reply to %.*s", (int)n, buf);
        write_all(s, reply, (size_t)m);
        close(s);
    }
    int status;
    waitpid(child, &status, 0);
    int dup = socket(AF_INET, SOCK_STREAM, 0);
    errno = 0;
    printf("  binding its port again: %d %s\n", bind(dup, (struct sockaddr *)&a, sizeof a), strerror(errno));
    close(dup);
    close(l);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    errno = 0;
    printf("  after close, connect: %d %s\n", connect(c, (struct sockaddr *)&a, sizeof a), strerror(errno));
    close(c);
}

static void tcp_v6_takes_v4(void) {
    int l = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 a6 = {.sin6_family = AF_INET6, .sin6_addr = in6addr_any};
    check(bind(l, (struct sockaddr *)&a6, sizeof a6) == 0, "bind v6");
    check(listen(l, 1) == 0, "listen v6");
    unsigned short port = port_of(l);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    check(connect(c, (struct sockaddr *)&a, sizeof a) == 0, "v4 to v6 connect");
    struct sockaddr_in6 peer;
    socklen_t len = sizeof peer;
    int s = accept(l, (struct sockaddr *)&peer, &len);
    check(s >= 0, "accept v6");
    char ip[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, &peer.sin6_addr, ip, sizeof ip);
    printf("ipv6 wildcard listener, ipv4 client: the peer is %s\n", ip);
    int c6 = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 lo = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = in6addr_loopback};
    check(connect(c6, (struct sockaddr *)&lo, sizeof lo) == 0, "v6 connect");
    len = sizeof peer;
    int s6 = accept(l, (struct sockaddr *)&peer, &len);
    inet_ntop(AF_INET6, &peer.sin6_addr, ip, sizeof ip);
    printf("  and an ipv6 client: %s\n", ip);
    close(s6);
    close(c6);
    close(s);
    close(c);
    close(l);
}

static void udp(void) {
    int r = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    check(bind(r, (struct sockaddr *)&a, sizeof a) == 0, "bind udp");
    a.sin_port = htons(port_of(r));
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    sendto(s, "first", 5, 0, (struct sockaddr *)&a, sizeof a);
    sendto(s, "second", 6, 0, (struct sockaddr *)&a, sizeof a);
    char buf[64];
    struct sockaddr_in from;
    socklen_t flen = sizeof from;
    ssize_t n = recvfrom(r, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen);
    printf("udp: %.*s from the sender's port: %d\n", (int)n, buf, ntohs(from.sin_port) == port_of(s));
    sendto(r, "echo", 4, 0, (struct sockaddr *)&from, flen);
    n = recv(s, buf, sizeof buf, 0);
    printf("  the reply: %.*s\n", (int)n, buf);
    n = recv(r, buf, sizeof buf, 0);
    printf("  next: %.*s\n", (int)n, buf);
    close(r);
    /* A connected UDP socket hears that no one listens on the port (ECONNREFUSED). */
    int c = socket(AF_INET, SOCK_DGRAM, 0);
    check(connect(c, (struct sockaddr *)&a, sizeof a) == 0, "connect udp");
    send(c, "anyone?", 7, 0);
    struct pollfd p = {.fd = c, .events = POLLIN};
    poll(&p, 1, 1000);
    errno = 0;
    n = recv(c, buf, sizeof buf, 0);
    printf("  to a closed port: %zd %s\n", n, strerror(errno));
    close(c);
    close(s);
}

static void waiting(void) {
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    struct pollfd p[2] = {{.fd = sv[0], .events = POLLIN | POLLOUT}, {.fd = sv[1], .events = POLLIN}};
    int n = poll(p, 2, 0);
    printf("poll: %d ready; writable %d, readable %d\n", n, !!(p[0].revents & POLLOUT), !!(p[1].revents & POLLIN));
    write_all(sv[0], "x", 1);
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(sv[1], &rd);
    struct timeval tv = {0, 0};
    printf("select: %d, readable %d\n", select(sv[1] + 1, &rd, NULL, NULL, &tv), FD_ISSET(sv[1], &rd));

    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 42};
    check(epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &ev) == 0, "epoll_ctl add");
    errno = 0;
    printf("epoll: adding it twice: %d %s\n", epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &ev), strerror(errno));
    struct epoll_event out[4];
    n = epoll_wait(ep, out, 4, 1000);
    printf("  %d ready, data %llu, EPOLLIN %d\n", n, (unsigned long long)out[0].data.u64, !!(out[0].events & EPOLLIN));
    char c;
    read(sv[1], &c, 1);
    printf("  drained: %d ready after 10 ms\n", epoll_wait(ep, out, 4, 10));
    ev.events = EPOLLIN | EPOLLONESHOT;
    epoll_ctl(ep, EPOLL_CTL_MOD, sv[1], &ev);
    write_all(sv[0], "yz", 2);
    printf("  one-shot: %d then %d\n", epoll_wait(ep, out, 4, 0), epoll_wait(ep, out, 4, 0));
    pid_t child = fork();
    if (child == 0) {
        usleep(20000);
        write_all(sv[0], "late", 4);
        _exit(0);
    }
    int ep2 = epoll_create1(0);
    int sv2[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv2);
    ev.events = EPOLLIN;
    ev.data.u64 = 7;
    epoll_ctl(ep2, EPOLL_CTL_ADD, sv2[1], &ev);
    char buf[16];
    read(sv[1], buf, 2);
    ev.data.u64 = 8;
    epoll_ctl(ep2, EPOLL_CTL_ADD, sv[1], &ev);
    n = epoll_wait(ep2, out, 4, 5000);
    printf("  waited for a writer in another process: %d ready, data %llu\n", n, (unsigned long long)out[0].data.u64);
    int status;
    waitpid(child, &status, 0);
    close(sv[0]);
    read(sv[1], buf, sizeof buf);
    ev.events = EPOLLIN | EPOLLRDHUP;
    epoll_ctl(ep2, EPOLL_CTL_MOD, sv[1], &ev);
    n = epoll_wait(ep2, out, 4, 0);
    printf("  the writer closed: %d ready, EPOLLIN %d, EPOLLRDHUP %d, EPOLLHUP %d\n", n, !!(out[0].events & EPOLLIN),
           !!(out[0].events & EPOLLRDHUP), !!(out[0].events & EPOLLHUP));
    close(ep);
    close(ep2);
    close(sv[1]);
    close(sv2[0]);
    close(sv2[1]);
}

static void errors(void) {
    errno = 0;
    printf("errors: a socket of an unknown family: %d %s\n", socket(12345, SOCK_STREAM, 0), strerror(errno));
    int s = socket(AF_INET, SOCK_STREAM, 0);
    char buf[4];
    errno = 0;
    printf("  reading an unconnected TCP socket: %zd %s\n", read(s, buf, sizeof buf), strerror(errno));
    struct sockaddr_in peer;
    socklen_t len = sizeof peer;
    errno = 0;
    printf("  getpeername unconnected: %d %s\n", getpeername(s, (struct sockaddr *)&peer, &len), strerror(errno));
    errno = 0;
    printf("  accept without listen: %d %s\n", accept(s, NULL, NULL), strerror(errno));
    int fd = open("/dev/null", 0);
    errno = 0;
    printf("  getsockname of /dev/null: %d %s\n", getsockname(fd, (struct sockaddr *)&peer, &len), strerror(errno));
    close(fd);
    int type = 0;
    socklen_t tlen = sizeof type;
    getsockopt(s, SOL_SOCKET, SO_TYPE, &type, &tlen);
    printf("  SO_TYPE %d\n", type);
    close(s);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    pair_stream();
    pair_dgram();
    unix_path_server();
    unix_abstract_dgram();
    pass_descriptor();
    tcp_v4();
    tcp_v6_takes_v4();
    udp();
    waiting();
    errors();
    puts("done");
    return 0;
}
