/* A raycaster: a walk through a small maze drawn in first person, one ray per screen column stepped
 * through the map's grid until it meets a wall (a digital differential analyser), the wall's height
 * the inverse of its distance. Prints where the camera is and each frame's checksum.
 * Usage: raycaster [FRAMEBUFFER [FRAMES]] */
#include <math.h>
#include <stdlib.h>
#include "gallery_fb.h"

#define MAP 16

static const char *map[MAP] = {
    "1111111111111111",
    "1..............1",
    "1..22222...3...1",
    "1..2...2...3...1",
    "1..2...2...3...1",
    "1..2.......3...1",
    "1..............1",
    "1......44444...1",
    "1..........4...1",
    "1...5......4...1",
    "1...5..........1",
    "1...5...3333...1",
    "1...5..........1",
    "1...5555.......1",
    "1..............1",
    "1111111111111111",
};

static const uint32_t wall_colour[] = {0, 0xb0b0b0, 0xc04030, 0x3070d0, 0x40b050, 0xd0b030};

static uint32_t shade(uint32_t c, double k)
{
    int r = (int)((c >> 16 & 255) * k), g = (int)((c >> 8 & 255) * k), b = (int)((c & 255) * k);
    return rgb(r, g, b);
}

static void render(double px, double py, double angle)
{
    double dx = cos(angle), dy = sin(angle);
    double planex = -dy * 0.66, planey = dx * 0.66; /* the camera plane: a 66 degree field of view */
    for (int x = 0; x < FB_W; x++) {
        double camera = 2.0 * x / FB_W - 1, rx = dx + planex * camera, ry = dy + planey * camera;
        int mx = (int)px, my = (int)py, stepx = rx < 0 ? -1 : 1, stepy = ry < 0 ? -1 : 1, side = 0;
        double deltax = rx == 0 ? 1e30 : fabs(1 / rx), deltay = ry == 0 ? 1e30 : fabs(1 / ry);
        double sidex = (rx < 0 ? px - mx : mx + 1.0 - px) * deltax;
        double sidey = (ry < 0 ? py - my : my + 1.0 - py) * deltay;
        while (map[my][mx] == '.') {
            if (sidex < sidey) {
                sidex += deltax;
                mx += stepx;
                side = 0;
            } else {
                sidey += deltay;
                my += stepy;
                side = 1;
            }
        }
        double distance = side == 0 ? sidex - deltax : sidey - deltay;
        int height = (int)(FB_H / (distance > 0.01 ? distance : 0.01));
        int top = FB_H / 2 - height / 2, bottom = FB_H / 2 + height / 2;
        double light = 1.0 / (1.0 + distance * 0.15) * (side ? 0.7 : 1.0);
        uint32_t wall = shade(wall_colour[map[my][mx] - '0'], light);
        for (int y = 0; y < FB_H; y++) {
            uint32_t c;
            if (y < top)
                c = rgb(30 + y / 4, 40 + y / 3, 90 + y / 2); /* sky */
            else if (y >= bottom)
                c = rgb(60 + (y - FB_H / 2) / 2, 50 + (y - FB_H / 2) / 3, 40); /* floor */
            else
                c = wall;
            fb[y * FB_W + x] = c;
        }
    }
}

int main(int argc, char **argv)
{
    fb_open(argc > 1 ? argv[1] : NULL);
    int frames = argc > 2 ? atoi(argv[2]) : 8;
    double px = 1.5, py = 14.5, angle = -0.6;
    for (int f = 0; f < frames; f++) {
        render(px, py, angle);
        printf("at (%.2f, %.2f) facing %.0f degrees: ", px, py, angle * 180 / M_PI);
        fb_present(f);
        /* walk on while the way ahead is open, else turn */
        double nx = px + cos(angle) * 0.6, ny = py + sin(angle) * 0.6;
        if (map[(int)ny][(int)nx] == '.') {
            px = nx;
            py = ny;
            angle += 0.08;
        } else {
            angle += 0.7;
        }
    }
    return 0;
}
