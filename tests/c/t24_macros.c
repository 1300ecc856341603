#include <stdio.h>
#define SQUARE(x) ((x) * (x))
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define VERSION 3
#define LOG(fmt, ...) printf("[log] " fmt "\n", __VA_ARGS__)
int main(void) {
    int CAT(my, var) = 7;
    LOG("%d %d %s %s", SQUARE(myvar + 1), MAX(3, myvar), STR(a + b), XSTR(VERSION));
#if VERSION > 2 && defined(SQUARE)
    puts("new");
#else
    puts("old");
#endif
    return 0;
}
