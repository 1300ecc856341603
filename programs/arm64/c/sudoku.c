/* Sudoku: solves the puzzles given on stdin (81 characters each, digits and '.' or '0' for blanks, one a
 * line) by backtracking, always filling the empty cell with the fewest candidates first. Prints each
 * solution as a grid and how many guesses it took. With no input, solves a built-in puzzle. */
#include <stdio.h>
#include <string.h>

static int grid[81];
static long guesses;

static int candidates(int cell)
{
    int r = cell / 9, c = cell % 9, br = r / 3 * 3, bc = c / 3 * 3, used = 0;
    for (int i = 0; i < 9; i++) {
        used |= 1 << grid[r * 9 + i];
        used |= 1 << grid[i * 9 + c];
        used |= 1 << grid[(br + i / 3) * 9 + bc + i % 3];
    }
    return ~used & 0x3fe; /* bits 1..9 */
}

static int solve(void)
{
    int best = -1, best_count = 10, best_mask = 0;
    for (int cell = 0; cell < 81; cell++) {
        if (grid[cell])
            continue;
        int mask = candidates(cell), count = __builtin_popcount(mask);
        if (count < best_count) {
            best = cell;
            best_count = count;
            best_mask = mask;
        }
    }
    if (best < 0)
        return 1;
    for (int d = 1; d <= 9; d++)
        if (best_mask >> d & 1) {
            guesses++;
            grid[best] = d;
            if (solve())
                return 1;
        }
    grid[best] = 0;
    return 0;
}

static void print_grid(void)
{
    for (int r = 0; r < 9; r++) {
        if (r && r % 3 == 0)
            printf("------+-------+------\n");
        for (int c = 0; c < 9; c++)
            printf("%s%d", c == 0 ? "" : c % 3 == 0 ? " | " : " ", grid[r * 9 + c]);
        printf("\n");
    }
}

static int load(const char *text)
{
    int n = 0;
    for (const char *p = text; *p && n < 81; p++)
        if (*p >= '1' && *p <= '9')
            grid[n++] = *p - '0';
        else if (*p == '.' || *p == '0')
            grid[n++] = 0;
    return n == 81;
}

static int solve_one(int number)
{
    guesses = 0;
    printf("puzzle %d:\n", number);
    if (!solve()) {
        printf("no solution (%ld guesses)\n\n", guesses);
        return 0;
    }
    print_grid();
    printf("solved with %ld guesses\n\n", guesses);
    return 1;
}

int main(void)
{
    /* a puzzle made for this program (input/sudoku.in has two more) */
    static const char builtin[] = "85.4..6.3.49..61.....2.8457.9....571..5..7..9....5.2..9.1....2........6....6..9.4";
    char line[256];
    int puzzles = 0, unsolved = 0;
    while (fgets(line, sizeof line, stdin))
        if (load(line))
            unsolved += !solve_one(++puzzles);
    if (puzzles == 0 && load(builtin))
        unsolved += !solve_one(++puzzles);
    return unsolved ? 1 : 0;
}
