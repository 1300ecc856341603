/* Primes: a sieve of Eratosthenes up to N (default 2,000,000), one bit per odd number; prints how many
 * primes lie below each power of ten, the twin-prime pairs, the largest gap between neighbours and
 * the last primes found. Usage: primes [N] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    if (n < 10) {
        fprintf(stderr, "primes: N must be at least 10\n");
        return 2;
    }
    /* bit i stands for the odd number 2i+1; a set bit means composite */
    uint64_t *composite = calloc((size_t)(n / 2 / 64 + 1), sizeof *composite);
#define IS_COMPOSITE(k) (composite[(k) / 2 / 64] >> ((k) / 2 % 64) & 1)
    for (long p = 3; p * p <= n; p += 2)
        if (!IS_COMPOSITE(p))
            for (long m = p * p; m <= n; m += 2 * p)
                composite[m / 2 / 64] |= (uint64_t)1 << (m / 2 % 64);
    long count = 1, twins = 0, previous = 2, gap = 0, gap_after = 0, decade = 10, last[5] = {2};
    for (long k = 3; k <= n; k += 2) {
        while (k > decade) {
            printf("pi(%ld) = %ld\n", decade, count);
            decade *= 10;
        }
        if (IS_COMPOSITE(k))
            continue;
        twins += k - previous == 2;
        if (k - previous > gap) {
            gap = k - previous;
            gap_after = previous;
        }
        last[count % 5] = k;
        previous = k;
        count++;
    }
    printf("pi(%ld) = %ld\n", n, count);
    printf("twin prime pairs: %ld\n", twins);
    printf("largest gap: %ld (after %ld)\n", gap, gap_after);
    printf("last primes:");
    for (long i = count - 5; i < count; i++)
        printf(" %ld", last[i % 5]);
    printf("\n");
    free(composite);
    return 0;
}
