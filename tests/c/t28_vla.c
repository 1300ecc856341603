#include <stdio.h>
static long trace(int n, int m[n][n]) { long t = 0; for (int i = 0; i < n; i++) t += m[i][i]; return t; }
int main(void) {
    for (int n = 1; n <= 5; n++) {
        int m[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) m[i][j] = i * n + j;
        printf("n=%d sizeof=%zu trace=%ld\n", n, sizeof m, trace(n, m));
    }
    return 0;
}
