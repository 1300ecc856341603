#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
    int fd[2]; pipe(fd);
    pid_t pid = fork();
    if (pid == 0) { close(fd[0]); const char msg[] = "from child"; write(fd[1], msg, sizeof msg); _exit(7); }
    close(fd[1]);
    char buf[32] = {0}; read(fd[0], buf, sizeof buf - 1);
    int status; waitpid(pid, &status, 0);
    printf("%s, child exit %d\n", buf, WEXITSTATUS(status));
    return 0;
}
