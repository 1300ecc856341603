#include <stdio.h>
int main(void) {
    unsigned long long x = 18446744073709551557ULL;
    long long y = -9223372036854775807LL;
    printf("%llu %llu %lld %lld\n", x / 3, x % 1000000007ULL, y / 7, y % 13);
    unsigned long long hi = (x >> 32) * 1000, lo = (x & 0xffffffffULL) * 1000;
    printf("%llu %llu\n", hi + (lo >> 32), (hi << 32) + lo);
    return 0;
}
