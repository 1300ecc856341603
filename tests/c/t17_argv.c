#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    long total = 0;
    for (int i = 1; i < argc; i++) { total += strtol(argv[i], NULL, 0); printf("[%s]", argv[i]); }
    printf("\n%d %ld\n", argc, total);
    return argc;
}
