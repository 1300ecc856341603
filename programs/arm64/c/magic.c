/* A fuzzing target: a crash behind a 4-byte magic input, and a hang behind a 2-byte one.
 *
 *     magic < INPUT
 *
 * Reads up to 64 bytes from standard input and checks them one byte at a
 * time, as parsers do: input starting "FUZZ" writes through a null pointer
 * (SIGSEGV), input starting "HA" loops for ever, anything else prints how
 * many leading bytes of "FUZZ" it matched and exits 0. One byte at a time
 * is what lets a coverage-guided fuzzer climb: each matched byte takes a
 * branch no input took before. */
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) static void crash(void)
{
    *(volatile int *)16 = 1; /* the planted crash: a store to unmapped memory, near null */
}

__attribute__((noinline)) static void hang(void)
{
    for (volatile unsigned spin = 0;; spin++) /* the planted hang */
        ;
}

int main(void)
{
    unsigned char buf[64];
    ssize_t n = read(0, buf, sizeof buf);
    int matched = 0;
    if (n >= 2 && buf[0] == 'H' && buf[1] == 'A')
        hang();
    if (n >= 1 && buf[0] == 'F') {
        matched = 1;
        if (n >= 2 && buf[1] == 'U') {
            matched = 2;
            if (n >= 3 && buf[2] == 'Z') {
                matched = 3;
                if (n >= 4 && buf[3] == 'Z')
                    crash();
            }
        }
    }
    printf("matched %d of 4\n", matched);
    return 0;
}
