/*
 * fork_pipe_wait.c - process creation, pipes and exit-status propagation.
 *
 * Exercises: pipe2/pipe, fork (clone with SIGCHLD), close, write/read on a
 * pipe until EOF, waitpid (wait4) with WIFEXITED/WEXITSTATUS and
 * WIFSIGNALED/WTERMSIG, _exit from the child, kill/raise in a child.
 *
 * Case 1: the child writes a message into a pipe and exits with status 3;
 *         the parent reads the message to EOF and checks that waitpid
 *         reports a normal exit with status 3 (the child's status is
 *         propagated; the program itself still exits 0).
 * Case 2: the parent writes into a pipe, the child reads it, and returns the
 *         byte count (as its exit status, 11) to the parent.
 * Case 3: the child kills itself with SIGTERM; the parent checks WIFSIGNALED
 *         and WTERMSIG == SIGTERM.
 *
 * No PIDs are printed. Exit status: 0 if every check matched, 1 otherwise.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", what, ok ? "ok" : "FAIL");
    if (!ok)
        failures++;
}

static void report_status(const char *who, int status)
{
    if (WIFEXITED(status))
        printf("%s: exited, status=%d\n", who, WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        printf("%s: killed by signal %d\n", who, WTERMSIG(status));
    else
        printf("%s: other wait status 0x%x\n", who, status);
}

int main(void)
{
    int fds[2], status;
    char buf[256];

    /* ---- Case 1: child -> parent through a pipe, child exits 3 ---- */
    if (pipe(fds) != 0) {
        perror("pipe");
        return 1;
    }
    fflush(stdout); /* do not duplicate buffered output into the child */
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        close(fds[0]);
        static const char m1[] = "hello from the child, ";
        static const char m2[] = "in two writes\n";
        if (write(fds[1], m1, sizeof m1 - 1) != (ssize_t)(sizeof m1 - 1) ||
            write(fds[1], m2, sizeof m2 - 1) != (ssize_t)(sizeof m2 - 1))
            _exit(100);
        close(fds[1]);
        _exit(3);
    }
    close(fds[1]);
    size_t total = 0;
    ssize_t n;
    while ((n = read(fds[0], buf + total, sizeof buf - 1 - total)) > 0)
        total += (size_t)n;
    buf[total] = '\0';
    close(fds[0]);
    printf("parent read %zu bytes: %s", total, buf);
    check(strcmp(buf, "hello from the child, in two writes\n") == 0,
          "case 1 pipe data");
    pid_t w = waitpid(pid, &status, 0);
    check(w == pid, "case 1 waitpid returned the child");
    report_status("case 1 child", status);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 3,
          "case 1 exit status 3 propagated");

    /* ---- Case 2: parent -> child through a pipe, count as exit status ---- */
    if (pipe(fds) != 0) {
        perror("pipe");
        return 1;
    }
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        close(fds[1]);
        size_t got = 0;
        char cbuf[64];
        while ((n = read(fds[0], cbuf, sizeof cbuf)) > 0)
            got += (size_t)n;
        _exit((int)got);
    }
    close(fds[0]);
    n = write(fds[1], "eleven byte", 11);
    close(fds[1]);
    printf("parent wrote %zd bytes\n", n);
    w = waitpid(pid, &status, 0);
    check(w == pid, "case 2 waitpid returned the child");
    report_status("case 2 child", status);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 11,
          "case 2 child counted 11 bytes");

    /* ---- Case 3: child killed by SIGTERM ---- */
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        signal(SIGTERM, SIG_DFL);
        kill(getpid(), SIGTERM);
        _exit(99); /* not reached */
    }
    w = waitpid(pid, &status, 0);
    check(w == pid, "case 3 waitpid returned the child");
    report_status("case 3 child", status);
    check(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
          "case 3 child killed by SIGTERM");

    /* No children left: waitpid(-1) must fail with ECHILD. */
    w = waitpid(-1, &status, WNOHANG);
    printf("waitpid with no children returned %d\n", (int)w);
    check(w == -1, "no children left");

    printf("%s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
