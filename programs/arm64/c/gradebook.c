/* Coursework: a program with a memory bug, for the ARM64 debugging assignment.
 *
 *     gradebook SCORE...
 *
 * Records up to MAX_SCORES scores from the command line, caps each at the
 * book's limit (100) and prints how many were recorded and their capped
 * total. It has a bug on purpose: the check that should stop at MAX_SCORES
 * lets one score too many through, and that score lands on `limit`, the
 * field after the array. With nine or more scores the cap changes and the
 * total goes wrong. Students find it with a watchpoint and step-back, then
 * patch the binary. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_SCORES 8

struct gradebook {
    int scores[MAX_SCORES];
    int limit; /* the highest score that counts */
    int count;
};

struct gradebook book = {{0}, 100, 0};

__attribute__((noinline)) void record(int score)
{
    if (book.count <= MAX_SCORES) /* the bug: should be < */
        book.scores[book.count++] = score;
}

__attribute__((noinline)) int capped_total(void)
{
    int total = 0;
    for (int i = 0; i < book.count && i < MAX_SCORES; i++)
        total += book.scores[i] > book.limit ? book.limit : book.scores[i];
    return total;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        record(atoi(argv[i]));
    int count = book.count < MAX_SCORES ? book.count : MAX_SCORES;
    printf("%d scores, capped total %d\n", count, capped_total());
    return 0;
}
