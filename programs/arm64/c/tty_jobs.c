/* A program on a terminal: termios and the window size, canonical and raw reads of typed keys,
 * process groups and the foreground group, a child stopped and continued (wait4's WUNTRACED and
 * WCONTINUED), a background reader stopped by SIGTTIN and then given the terminal, and ^C as
 * SIGINT ending a wait. It prints a prompt ending in '?' or ':' before each thing it wants typed;
 * the test types it then (tests/test_tty.py), under qemu on a host pseudo-terminal and on the
 * machine's own. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static void on_int(int sig) {
    (void)sig;
    write(1, "[SIGINT]", 8);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("isatty %d %d %d\n", isatty(0), isatty(1), isatty(2));
    struct termios t;
    tcgetattr(0, &t);
    printf("iflag %o oflag %o lflag %o csize %o\n", t.c_iflag & (ICRNL | IXON | INLCR | IGNCR), t.c_oflag,
           t.c_lflag, t.c_cflag & CSIZE);
    printf("intr %d quit %d erase %d kill %d eof %d susp %d min %d time %d\n", t.c_cc[VINTR], t.c_cc[VQUIT],
           t.c_cc[VERASE], t.c_cc[VKILL], t.c_cc[VEOF], t.c_cc[VSUSP], t.c_cc[VMIN], t.c_cc[VTIME]);
    struct winsize ws;
    ioctl(0, TIOCGWINSZ, &ws);
    printf("size %d x %d\n", ws.ws_row, ws.ws_col);
    printf("session leader %d, in the foreground %d\n", getsid(0) == getpid(), tcgetpgrp(0) == getpgrp());

    char buf[128];
    printf("line? ");
    ssize_t n = read(0, buf, sizeof buf);
    printf("read %zd bytes: %.*s", n, (int)n, buf);

    struct termios raw = t;
    raw.c_lflag &= ~(ICANON | ECHO);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    tcsetattr(0, TCSANOW, &raw);
    printf("raw? ");
    size_t got = 0;
    while (got < 3) {
        n = read(0, buf + got, 3 - got);
        if (n <= 0) break;
        got += (size_t)n;
    }
    printf("\nraw bytes, not echoed: %02x %02x %02x\n", buf[0], buf[1], buf[2]);
    raw.c_cc[VMIN] = 0;
    tcsetattr(0, TCSANOW, &raw);
    printf("nothing typed, VMIN 0: read gives %zd\n", read(0, buf, 1));
    tcsetattr(0, TCSANOW, &t);

    int go[2];
    pipe(go);
    pid_t c = fork();
    if (c == 0) {
        setpgid(0, 0);
        raise(SIGSTOP);
        char b;
        read(go[0], &b, 1); /* exits only when told: its continue is reported first */
        _exit(3);
    }
    setpgid(c, c);
    int st;
    waitpid(c, &st, WUNTRACED);
    printf("child stopped %d by %s\n", WIFSTOPPED(st), strsignal(WSTOPSIG(st)));
    kill(c, SIGCONT);
    waitpid(c, &st, WCONTINUED);
    printf("child continued %d\n", WIFCONTINUED(st));
    write(go[1], "x", 1);
    waitpid(c, &st, 0);
    printf("child exited %d\n", WEXITSTATUS(st));

    c = fork();
    if (c == 0) {
        setpgid(0, 0);
        char k;
        ssize_t r = read(0, &k, 1);
        _exit(r == 1 ? k : 100);
    }
    setpgid(c, c);
    waitpid(c, &st, WUNTRACED);
    printf("background reader stopped by %s\n", strsignal(WSTOPSIG(st)));
    signal(SIGTTOU, SIG_IGN);
    tcsetpgrp(0, c);
    kill(c, SIGCONT);
    printf("key for the child? ");
    waitpid(c, &st, 0);
    tcsetpgrp(0, getpgrp());
    tcflush(0, TCIFLUSH); /* the rest of the line the child read one byte of */
    printf("the child read '%c'; the foreground is ours again %d\n", WEXITSTATUS(st), tcgetpgrp(0) == getpgrp());

    /* SIGINT is blocked until ppoll waits, so a ^C typed as soon as the prompt shows is not lost
     * before the wait begins (ppoll unblocks it atomically). */
    struct sigaction sa = {.sa_handler = on_int};
    sigaction(SIGINT, &sa, NULL);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &old);
    printf("interrupt me: ");
    struct pollfd pfd = {.fd = 0, .events = POLLIN};
    errno = 0;
    int r = ppoll(&pfd, 1, NULL, &old);
    printf(" ppoll %d, %s\n", r, strerror(errno));
    return 0;
}
