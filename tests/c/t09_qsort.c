#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int icmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
int main(void) {
    const char *w[] = {"pear", "apple", "fig", "kiwi", "banana", "cherry"};
    qsort(w, 6, sizeof w[0], cmp);
    for (int i = 0; i < 6; i++) printf("%s ", w[i]);
    int v[50]; unsigned x = 12345;
    for (int i = 0; i < 50; i++) { x = x * 1103515245 + 12345; v[i] = (x >> 16) % 1000; }
    qsort(v, 50, sizeof v[0], icmp);
    int key = v[17]; int *hit = bsearch(&key, v, 50, sizeof v[0], icmp);
    printf("\n%d %d %d %d\n", v[0], v[49], *hit, hit != NULL);
    return 0;
}
