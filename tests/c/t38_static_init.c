#include <stdio.h>
struct entry { const char *k; int v; const struct entry *next; };
static const struct entry c3 = {"three", 3, 0}, c2 = {"two", 2, &c3}, c1 = {"one", 1, &c2};
static const char *const words[] = {"alpha", "beta", "gamma", 0};
static int *ptr_into = &((int[]){4, 5, 6})[1];
int main(void) {
    for (const struct entry *e = &c1; e; e = e->next) printf("%s=%d ", e->k, e->v);
    for (const char *const *w = words; *w; w++) printf("%s ", *w);
    printf("%d\n", *ptr_into);
    return 0;
}
