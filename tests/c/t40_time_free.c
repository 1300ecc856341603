#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    char *blocks[64];
    size_t total = 0;
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 64; i++) { size_t n = (size_t)(i * 37 + round * 11) % 4000 + 1; blocks[i] = malloc(n); memset(blocks[i], i, n); total += n; }
        for (int i = 0; i < 64; i += 2) free(blocks[i]);
        for (int i = 1; i < 64; i += 2) { if (blocks[i][0] != (char)i) return 1; free(blocks[i]); }
    }
    printf("allocated %zu bytes in 1280 blocks\n", total);
    return 0;
}
