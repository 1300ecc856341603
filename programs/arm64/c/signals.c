/*
 * signals.c - signal delivery and handler frames.
 *
 * Exercises: rt_sigaction with SA_SIGINFO, kill(getpid(), SIGUSR1) delivery
 * to a handler (siginfo si_signo/si_code/si_pid), rt_sigreturn back to the
 * interrupted code, rt_sigprocmask blocking + rt_sigpending + delivery on
 * unblock (SIGUSR2), SIGCHLD with si_code CLD_EXITED and si_status from a
 * forked child, alarm(1) -> SIGALRM waited for with rt_sigsuspend, and
 * SIG_IGN for SIGUSR1. Registers that live across the handler are checked by
 * keeping a running value in a local that the handler cannot see.
 *
 * Output is one line per event (no PIDs or times are printed).
 * Exit status: 0 if every check matched, 1 otherwise.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t usr1_count, usr2_count, chld_count, alrm_count;
static volatile sig_atomic_t usr1_signo, usr1_code, usr1_pid_ok;
static volatile sig_atomic_t chld_code, chld_status;
static pid_t self_pid;

static int failures;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", what, ok ? "ok" : "FAIL");
    if (!ok)
        failures++;
}

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    usr1_count++;
    usr1_signo = si->si_signo;
    usr1_code = si->si_code;
    usr1_pid_ok = (si->si_pid == self_pid);
    (void)sig;
}

static void on_usr2(int sig)
{
    (void)sig;
    usr2_count++;
}

static void on_chld(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    chld_count++;
    chld_code = si->si_code;
    chld_status = si->si_status;
}

static void on_alrm(int sig)
{
    (void)sig;
    alrm_count++;
}

int main(void)
{
    struct sigaction sa;
    sigset_t block, old, pending, waitmask;
    self_pid = getpid();

    /* ---- SIGUSR1 via kill(getpid()) with SA_SIGINFO ---- */
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_usr1;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    check(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction SIGUSR1");
    volatile unsigned long acc = 0x1234;
    unsigned long local = 0;
    for (int i = 1; i <= 10; i++) {
        local = local * 31 + (unsigned long)i;
        if (i == 5)
            kill(getpid(), SIGUSR1); /* delivered before kill() returns */
    }
    acc += local;
    printf("SIGUSR1: count=%d signo=%d (SIGUSR1=%d) si_code=%d (SI_USER=%d) "
           "si_pid is self: %s\n",
           (int)usr1_count, (int)usr1_signo, SIGUSR1, (int)usr1_code, SI_USER,
           usr1_pid_ok ? "yes" : "no");
    check(usr1_count == 1 && usr1_signo == SIGUSR1 && usr1_code == SI_USER &&
              usr1_pid_ok,
          "SIGUSR1 handler ran once with correct siginfo");
    printf("computation across the signal: %lu\n", (unsigned long)acc);
    check(acc == 0x1234UL + 28231640996005UL,
          "computation across the signal is correct");

    /* ---- SIGUSR2 blocked, pending, then delivered on unblock ---- */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr2;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    sigemptyset(&block);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_BLOCK, &block, &old);
    raise(SIGUSR2);
    sigpending(&pending);
    printf("SIGUSR2 while blocked: count=%d pending=%d\n", (int)usr2_count,
           sigismember(&pending, SIGUSR2));
    check(usr2_count == 0 && sigismember(&pending, SIGUSR2) == 1,
          "blocked SIGUSR2 is pending, not delivered");
    sigprocmask(SIG_SETMASK, &old, NULL);
    sigpending(&pending);
    printf("SIGUSR2 after unblock: count=%d pending=%d\n", (int)usr2_count,
           sigismember(&pending, SIGUSR2));
    check(usr2_count == 1 && sigismember(&pending, SIGUSR2) == 0,
          "SIGUSR2 delivered on unblock");

    /* ---- SIGCHLD from a child exiting with status 5 ---- */
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_chld;
    sa.sa_flags = SA_SIGINFO | SA_NOCLDSTOP;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &old);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        _exit(5);
    waitmask = old;
    sigdelset(&waitmask, SIGCHLD);
    while (chld_count == 0)
        sigsuspend(&waitmask); /* returns -1/EINTR after the handler */
    sigprocmask(SIG_SETMASK, &old, NULL);
    int status = 0;
    pid_t w = waitpid(pid, &status, 0);
    printf("SIGCHLD: count=%d si_code=%d (CLD_EXITED=%d) si_status=%d "
           "waitpid status=%d\n",
           (int)chld_count, (int)chld_code, CLD_EXITED, (int)chld_status,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    check(chld_count == 1 && chld_code == CLD_EXITED && chld_status == 5 &&
              w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 5,
          "SIGCHLD reports child exit status 5");

    /* ---- alarm(1) -> SIGALRM ---- */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alrm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old);
    unsigned prev = alarm(1);
    waitmask = old;
    sigdelset(&waitmask, SIGALRM);
    while (alrm_count == 0)
        sigsuspend(&waitmask);
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("SIGALRM: previous alarm=%u count=%d\n", prev, (int)alrm_count);
    check(prev == 0 && alrm_count == 1, "alarm delivered SIGALRM");

    /* ---- SIG_IGN: an ignored SIGUSR1 has no effect ---- */
    signal(SIGUSR1, SIG_IGN);
    kill(getpid(), SIGUSR1);
    printf("ignored SIGUSR1: count still %d\n", (int)usr1_count);
    check(usr1_count == 1, "SIG_IGN respected");

    printf("%s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
