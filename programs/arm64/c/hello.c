/*
 * hello.c - the smallest useful AArch64 Linux test program.
 *
 * Exercises: process start-up of a static glibc binary (auxv, TLS setup,
 * IRELATIVE/ifunc relocs, stdio init), the write(2) syscall via stdio to
 * stdout, and exit_group(2) with status 0.
 *
 * Expected stdout: "Hello, world!" followed by a newline; exit status 0.
 */
#include <stdio.h>

int main(void)
{
    printf("Hello, world!\n");
    return 0;
}
