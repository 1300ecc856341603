#include <stdio.h>
#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
    struct node *head = NULL;
    for (int i = 1; i <= 1000; i++) { struct node *n = malloc(sizeof *n); n->v = i * i % 97; n->next = head; head = n; }
    long s = 0; int count = 0;
    while (head) { struct node *n = head; s += n->v; count++; head = n->next; free(n); }
    int *a = calloc(100, sizeof *a); a = realloc(a, 1000 * sizeof *a); a[999] = 7;
    printf("%d %ld %d %d\n", count, s, a[0], a[999]);
    free(a);
    return 0;
}
