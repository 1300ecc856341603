/* Planted memory defects, for the sanitizer (`ncpu_nb.sanitize`) and its chapter.
 *
 *     heap_bugs MODE
 *
 * Each MODE runs one small piece of code with one defect in it, or none:
 *   clean          builds a table on the heap, uses it and frees it, correctly
 *   overflow       fills an array of 5 ints and then writes a 6th (off by one)
 *   uninit         sums 5 ints of which the last was never written
 *   use-after-free reads a record's score after freeing the record
 *   double-free    frees a record twice (glibc notices and aborts)
 *   unmapped       reads a page after munmap has given it back (SIGSEGV)
 * The first four print the same under any emulator: glibc's chunks have room
 * for the 6th int, and a freed record keeps its score. Built with -g, so the
 * sanitizer names the source line of each defect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct record {
    char name[16];
    int score;
};

__attribute__((noinline)) static int *make_table(int n)
{
    int *table = malloc(n * sizeof *table);
    for (int i = 0; i < n; i++)
        table[i] = i * i;
    return table;
}

__attribute__((noinline)) static int sum(const int *table, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += table[i];
    return total;
}

static int clean(void)
{
    int *table = make_table(5);
    int total = sum(table, 5);
    free(table);
    return total;
}

__attribute__((noinline)) static void fill(int *table, int n)
{
    for (int i = 0; i <= n; i++) /* the bug: should be < */
        table[i] = 7;
}

static int overflow(void)
{
    int *table = malloc(5 * sizeof *table);
    fill(table, 5);
    int total = sum(table, 5);
    free(table);
    return total;
}

static int uninit(void)
{
    int *table = malloc(5 * sizeof *table);
    for (int i = 0; i < 4; i++) /* the bug: table[4] is never written */
        table[i] = i;
    int total = sum(table, 5);
    free(table);
    return total;
}

__attribute__((noinline)) static struct record *new_record(const char *name, int score)
{
    struct record *r = malloc(sizeof *r);
    strncpy(r->name, name, sizeof r->name - 1);
    r->name[sizeof r->name - 1] = '\0';
    r->score = score;
    return r;
}

static int use_after_free(void)
{
    struct record *r = new_record("ada", 42);
    free(r);
    return r->score; /* the bug: r was freed */
}

static int double_free(void)
{
    struct record *r = new_record("alan", 7);
    free(r);
    free(r); /* the bug: freed twice */
    return 0;
}

static int unmapped(void)
{
    int *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    page[0] = 1;
    munmap(page, 4096);
    return ((volatile int *)page)[0]; /* the bug: the page is gone */
}

int main(int argc, char **argv)
{
    static const struct { const char *name; int (*run)(void); } modes[] = {
        {"clean", clean}, {"overflow", overflow}, {"uninit", uninit},
        {"use-after-free", use_after_free}, {"double-free", double_free}, {"unmapped", unmapped},
    };
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(argv[1], modes[i].name) == 0) {
            printf("%s: %d\n", argv[1], modes[i].run());
            return 0;
        }
    fprintf(stderr, "usage: heap_bugs clean|overflow|uninit|use-after-free|double-free|unmapped\n");
    return 2;
}
