#include <stdio.h>
#include <stdlib.h>
typedef struct t { int key; struct t *l, *r; } tree;
static tree *insert(tree *t, int k) {
    if (!t) { t = calloc(1, sizeof *t); t->key = k; return t; }
    if (k < t->key) t->l = insert(t->l, k); else if (k > t->key) t->r = insert(t->r, k);
    return t;
}
static int height(tree *t) { if (!t) return 0; int a = height(t->l), b = height(t->r); return 1 + (a > b ? a : b); }
static void walk(tree *t, int *n) { if (!t) return; walk(t->l, n); if (*n < 10) printf("%d ", t->key); (*n)++; walk(t->r, n); }
int main(void) {
    tree *root = NULL; unsigned x = 7;
    for (int i = 0; i < 500; i++) { x = x * 1664525u + 1013904223u; root = insert(root, x % 10000); }
    int n = 0; walk(root, &n);
    printf("\n%d nodes, height %d\n", n, height(root));
    return 0;
}
