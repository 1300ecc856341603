#include <stdio.h>
#include <ctype.h>
int main(void) {
    long lines = 0, words = 0, chars = 0; int c, in = 0;
    while ((c = getchar()) != EOF) {
        chars++; if (c == '\n') lines++;
        if (isspace(c)) in = 0; else if (!in) { in = 1; words++; }
    }
    printf("%ld %ld %ld\n", lines, words, chars);
    return 0;
}
