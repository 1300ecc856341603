/* Sorting algorithms side by side: the same 2,000 pseudo-random numbers (a fixed xorshift seed) sorted
 * by bubble, insertion, selection, Shell, heap, merge and quick sort; each one's comparisons and
 * element moves are counted, and the result checked against the others. Usage: sorts [N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long comparisons, moves;

static int less(int a, int b)
{
    comparisons++;
    return a < b;
}

static void swap(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
    moves += 2;
}

static void bubble(int *v, int n)
{
    for (int end = n - 1, swapped = 1; swapped && end > 0; end--) {
        swapped = 0;
        for (int i = 0; i < end; i++)
            if (less(v[i + 1], v[i])) {
                swap(&v[i], &v[i + 1]);
                swapped = 1;
            }
    }
}

static void insertion(int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i;
        for (; j > 0 && less(x, v[j - 1]); j--, moves++)
            v[j] = v[j - 1];
        v[j] = x;
        moves++;
    }
}

static void selection(int *v, int n)
{
    for (int i = 0; i < n - 1; i++) {
        int m = i;
        for (int j = i + 1; j < n; j++)
            if (less(v[j], v[m]))
                m = j;
        if (m != i)
            swap(&v[i], &v[m]);
    }
}

static void shell(int *v, int n)
{
    int gap = 1;
    while (gap < n / 3)
        gap = 3 * gap + 1; /* 1, 4, 13, 40, ... */
    for (; gap > 0; gap /= 3)
        for (int i = gap; i < n; i++) {
            int x = v[i], j = i;
            for (; j >= gap && less(x, v[j - gap]); j -= gap, moves++)
                v[j] = v[j - gap];
            v[j] = x;
            moves++;
        }
}

static void sift_down(int *v, int root, int n)
{
    for (int child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && less(v[child], v[child + 1]))
            child++;
        if (!less(v[root], v[child]))
            return;
        swap(&v[root], &v[child]);
    }
}

static void heap(int *v, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--)
        sift_down(v, i, n);
    for (int end = n - 1; end > 0; end--) {
        swap(&v[0], &v[end]);
        sift_down(v, 0, end);
    }
}

static int *scratch;

static void merge_sort(int *v, int n)
{
    if (n < 2)
        return;
    int half = n / 2;
    merge_sort(v, half);
    merge_sort(v + half, n - half);
    int i = 0, j = half, k = 0;
    while (i < half && j < n)
        scratch[k++] = less(v[j], v[i]) ? v[j++] : v[i++];
    while (i < half)
        scratch[k++] = v[i++];
    while (j < n)
        scratch[k++] = v[j++];
    memcpy(v, scratch, n * sizeof *v);
    moves += 2 * n;
}

static void quick(int *v, int n)
{
    while (n > 1) {
        /* Hoare's partition around the lower middle element (so neither part is ever empty) */
        int pivot = v[(n - 1) / 2];
        int i = -1, j = n;
        for (;;) {
            do
                i++;
            while (less(v[i], pivot));
            do
                j--;
            while (less(pivot, v[j]));
            if (i >= j)
                break;
            swap(&v[i], &v[j]);
        }
        /* recurse into the smaller part, loop on the larger */
        if (j + 1 < n - j - 1) {
            quick(v, j + 1);
            v += j + 1;
            n -= j + 1;
        } else {
            quick(v + j + 1, n - j - 1);
            n = j + 1;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    if (n < 1) {
        fprintf(stderr, "sorts: N must be positive\n");
        return 2;
    }
    struct {
        const char *name;
        void (*sort)(int *, int);
    } algorithms[] = {{"bubble", bubble}, {"insertion", insertion}, {"selection", selection}, {"shell", shell},
                      {"heap", heap},     {"merge", merge_sort},    {"quick", quick}};
    int *input = malloc(n * sizeof *input), *v = malloc(n * sizeof *v), *first = malloc(n * sizeof *first);
    scratch = malloc(n * sizeof *scratch);
    unsigned x = 2463534242u;
    for (int i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        input[i] = (int)(x % 100000);
    }
    printf("%-10s %12s %12s\n", "algorithm", "comparisons", "moves");
    int failures = 0;
    for (size_t a = 0; a < sizeof algorithms / sizeof *algorithms; a++) {
        memcpy(v, input, n * sizeof *v);
        comparisons = moves = 0;
        algorithms[a].sort(v, n);
        int ok = 1;
        for (int i = 1; i < n; i++)
            ok &= v[i - 1] <= v[i];
        if (a == 0)
            memcpy(first, v, n * sizeof *v);
        ok &= !memcmp(first, v, n * sizeof *v);
        failures += !ok;
        printf("%-10s %12ld %12ld%s\n", algorithms[a].name, comparisons, moves, ok ? "" : "  NOT SORTED");
    }
    printf("smallest %d, median %d, largest %d\n", first[0], first[n / 2], first[n - 1]);
    return failures ? 1 : 0;
}
