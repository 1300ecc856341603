#include <stdio.h>
int main(void) {
    long a = 1234567, b = -89;
    printf("%ld %ld %ld %ld %ld\n", a + b, a - b, a * b, a / b, a % b);
    unsigned u = 0xdeadbeef;
    printf("%u %x %o %u\n", u, u >> 3, u & 0777, u * 2654435761u);
    int s = -17;
    printf("%d %d %d\n", s >> 2, s / 4, s % 4);
    return 0;
}
