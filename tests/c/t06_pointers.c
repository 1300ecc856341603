#include <stdio.h>
static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
int main(void) {
    int v[8] = {8, 3, 5, 1, 9, 2, 7, 4};
    for (int i = 0; i < 8; i++) for (int *p = v; p < v + 7 - i; p++) if (p[0] > p[1]) swap(p, p + 1);
    int (*row)[4] = (int (*)[4])v;
    for (int i = 0; i < 8; i++) printf("%d%c", v[i], i == 7 ? '\n' : ' ');
    printf("%d %d %td\n", row[1][2], *(*row + 3), &v[7] - &v[2]);
    return 0;
}
