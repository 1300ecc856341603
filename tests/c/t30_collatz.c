#include <stdio.h>
int main(void) {
    int best = 0, arg = 0;
    for (int n = 1; n < 30000; n++) {
        long x = n; int steps = 0;
        while (x != 1) { x = x & 1 ? 3 * x + 1 : x / 2; steps++; }
        if (steps > best) { best = steps; arg = n; }
    }
    printf("%d takes %d steps\n", arg, best);
    return 0;
}
