#include <stdio.h>
int main(void) {
    int a = 3, b = 0, c;
    c = (b++, a += b, a * 2);
    int m = a > b ? a > c ? a : c : b > c ? b : c;
    int sh = (1 << 10) >> 3 | 5 & 6 ^ 2;
    printf("%d %d %d %d %d %d\n", a, b, c, m, sh, !a || b && c);
    return 0;
}
