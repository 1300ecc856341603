/* Conway's Game of Life on an 80x50 torus, drawn as 4x4 blocks on the 320x200 screen: a glider gun,
 * an R-pentomino and a few gliders, run for some generations. Prints each drawn generation's
 * population and checksum. Usage: life [FRAMEBUFFER [GENERATIONS [EVERY]]] */
#include <stdlib.h>
#include <string.h>
#include "gallery_fb.h"

#define W 80
#define H 50

static unsigned char grid[H][W], next[H][W];

static void place(int x0, int y0, const char *rows[])
{
    for (int y = 0; rows[y]; y++)
        for (int x = 0; rows[y][x]; x++)
            grid[(y0 + y) % H][(x0 + x) % W] = rows[y][x] == 'O';
}

static void step(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int n = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    if (dx || dy)
                        n += grid[(y + dy + H) % H][(x + dx + W) % W];
            next[y][x] = n == 3 || (n == 2 && grid[y][x]);
        }
    memcpy(grid, next, sizeof grid);
}

static int draw(int generation)
{
    int population = 0;
    for (int y = 0; y < FB_H; y++)
        for (int x = 0; x < FB_W; x++) {
            int alive = grid[y / 4][x / 4], edge = x % 4 == 3 || y % 4 == 3;
            population += alive && x % 4 == 0 && y % 4 == 0;
            fb[y * FB_W + x] = alive ? (edge ? rgb(20, 120, 40) : rgb(80 + generation % 128, 230, 90))
                                     : (edge ? rgb(16, 16, 24) : rgb(4, 4, 10));
        }
    return population;
}

int main(int argc, char **argv)
{
    static const char *gun[] = {
        "........................O...........",
        "......................O.O...........",
        "............OO......OO............OO",
        "...........O...O....OO............OO",
        "OO........O.....O...OO..............",
        "OO........O...O.OO....O.O...........",
        "..........O.....O.......O...........",
        "...........O...O....................",
        "............OO......................",
        NULL};
    static const char *r_pentomino[] = {".OO", "OO.", ".O.", NULL};
    static const char *glider[] = {".O.", "..O", "OOO", NULL};
    fb_open(argc > 1 ? argv[1] : NULL);
    int generations = argc > 2 ? atoi(argv[2]) : 60, every = argc > 3 ? atoi(argv[3]) : 10;
    place(2, 2, gun);
    place(55, 30, r_pentomino);
    place(10, 35, glider);
    place(30, 40, glider);
    for (int g = 0; g <= generations; g++) {
        if (g % every == 0) {
            printf("generation %d: population %d\n", g, draw(g));
            fb_present(g / every);
        }
        step();
    }
    return 0;
}
