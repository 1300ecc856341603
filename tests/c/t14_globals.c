#include <stdio.h>
static int counter = 10;
int table[5] = {1, 1, 2, 3, 5};
const char *const greeting = "hello";
static int next(void) { static int calls; return ++calls + counter++; }
int main(void) {
    for (int i = 0; i < 4; i++) printf("%d ", next());
    printf("%d %s %zu\n", table[4] + table[3], greeting, sizeof table);
    return 0;
}
