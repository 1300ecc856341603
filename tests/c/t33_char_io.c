#include <stdio.h>
int main(void) {
    int c; unsigned sum = 0; int upper = 0;
    while ((c = getchar()) != EOF) { sum = sum * 31 + c; if (c >= 'A' && c <= 'Z') upper++; putchar(c >= 'a' && c <= 'z' ? c - 32 : c); }
    fprintf(stderr, "done\n");
    printf("%u %d\n", sum, upper);
    return 0;
}
