#include <stdio.h>
int main(void) {
    int i = 0, found = -1;
    int grid[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
    for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) if (grid[r][c] == 11) { found = r * 4 + c; goto done; }
done:
    again: if (++i < 5) goto again;
    printf("%d %d\n", found, i);
    return 0;
}
