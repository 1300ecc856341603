/* N-queens: counts the ways to put N queens on an N x N board with none attacking another, for every
 * N up to the limit (default 10), by backtracking over columns with bit masks; prints the first
 * solution found for the largest N as a board. Usage: nqueens [MAX_N] */
#include <stdio.h>
#include <stdlib.h>

static int n, first[32], row_of[32], have_first;
static long nodes;

/* columns, diagonals and anti-diagonals taken, as bit masks for the current row */
static long place(int row, unsigned cols, unsigned diag, unsigned anti)
{
    if (row == n) {
        if (!have_first) {
            for (int r = 0; r < n; r++)
                first[r] = row_of[r];
            have_first = 1;
        }
        return 1;
    }
    long found = 0;
    unsigned free_cols = ~(cols | diag | anti) & ((1u << n) - 1);
    while (free_cols) {
        unsigned bit = free_cols & -free_cols;
        free_cols ^= bit;
        nodes++;
        row_of[row] = __builtin_ctz(bit);
        found += place(row + 1, cols | bit, (diag | bit) << 1, (anti | bit) >> 1);
    }
    return found;
}

int main(int argc, char **argv)
{
    int max = argc > 1 ? atoi(argv[1]) : 10;
    if (max < 1 || max > 16) {
        fprintf(stderr, "nqueens: MAX_N must be 1 to 16\n");
        return 2;
    }
    for (n = 1; n <= max; n++) {
        nodes = 0;
        have_first = 0;
        long solutions = place(0, 0, 0, 0);
        printf("%2d queens: %6ld solutions (%ld placements tried)\n", n, solutions, nodes);
    }
    n = max;
    printf("\nthe first for %d:\n", n);
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++)
            printf(c == first[r] ? " Q" : " .");
        printf("\n");
    }
    return 0;
}
