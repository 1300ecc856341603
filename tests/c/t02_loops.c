#include <stdio.h>
int main(void) {
    int sum = 0, i = 0;
    for (int k = 0; k < 100; k++) { if (k % 7 == 3) continue; if (k > 90) break; sum += k; }
    while (i < 10) i += 3;
    do { sum -= i; } while (--i > 5);
    printf("%d %d\n", sum, i);
    return sum & 0x7f;
}
