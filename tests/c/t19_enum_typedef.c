#include <stdio.h>
typedef enum { RED, GREEN = 5, BLUE } color;
typedef struct { color c; const char *name; } named;
int main(void) {
    named v[] = {{RED, "red"}, {GREEN, "green"}, {BLUE, "blue"}};
    for (unsigned i = 0; i < sizeof v / sizeof *v; i++) printf("%s=%d\n", v[i].name, v[i].c);
    return BLUE;
}
