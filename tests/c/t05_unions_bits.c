#include <stdio.h>
#include <stdint.h>
union pun { float f; uint32_t u; unsigned char b[4]; };
struct flags { unsigned a : 3, b : 5, c : 1; int d : 4; };
int main(void) {
    union pun p; p.f = 1.5f;
    printf("%08x %02x %02x\n", p.u, p.b[0], p.b[3]);
    struct flags f = { 5, 17, 1, -3 };
    f.b += 20;
    printf("%u %u %u %d %zu\n", f.a, f.b, f.c, f.d, sizeof f);
    return 0;
}
