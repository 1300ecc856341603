#include <stdio.h>
#include <stdint.h>
static int popcount(uint64_t x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
int main(void) {
    uint64_t v = 0x0123456789abcdefULL;
    printf("%d %08x %016llx\n", popcount(v), rotl(0x80000001u, 3), (unsigned long long)(v ^ (v >> 7)));
    int8_t c = (int8_t)200; uint16_t w = (uint16_t)-1; int64_t big = INT64_MIN;
    printf("%d %u %lld %d\n", c, w, (long long)(big + 1), (int)(uint8_t)(c * 3));
    return 0;
}
