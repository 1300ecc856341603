#include <stdio.h>
int main(void) {
    int n; double total = 0; char name[32];
    if (scanf("%31s %d", name, &n) != 2) return 2;
    for (int i = 0; i < n; i++) { double v; if (scanf("%lf", &v) != 1) return 3; total += v; }
    printf("%s: %d values, total %.3f, mean %.3f\n", name, n, total, total / n);
    return 0;
}
