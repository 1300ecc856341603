/* Mandelbrot: the set drawn at 320x200 in fixed-point arithmetic (so every emulator gets the same
 * pixels), zooming in over a few frames; each frame's checksum and how many points stayed inside.
 * Usage: mandelbrot [FRAMEBUFFER [FRAMES]] */
#include <stdlib.h>
#include "gallery_fb.h"

#define MAX_ITER 96
#define FRAC 24 /* fixed point: 8.24 in 64-bit integers */

/* a smooth palette from the escape count: Bernstein polynomials in t = n / MAX_ITER */
static uint32_t palette(int n)
{
    if (n >= MAX_ITER)
        return 0;
    int64_t t = n * 255 / MAX_ITER, u = 255 - t, cube = 255 * 255 * 255;
    return rgb((int)(9 * u * t * t * t * 255 / (cube * 255)), (int)(15 * u * u * t * t * 255 / (cube * 255)),
               (int)(17 * u * u * u * t * 255 / (2 * cube * 255)));
}

int main(int argc, char **argv)
{
    fb_open(argc > 1 ? argv[1] : NULL);
    int frames = argc > 2 ? atoi(argv[2]) : 3;
    int64_t one = (int64_t)1 << FRAC;
    /* centre -0.743643, 0.131825 (the seahorse valley); the view shrinks by 2 each frame */
    int64_t cx = -743643 * one / 1000000, cy = 131825 * one / 1000000;
    int64_t span = 3 * one; /* width of the view */
    for (int f = 0; f < frames; f++, span /= 2) {
        long inside = 0, total_iter = 0;
        int64_t step = span / FB_W;
        for (int y = 0; y < FB_H; y++) {
            int64_t ci = cy + (y - FB_H / 2) * step;
            for (int x = 0; x < FB_W; x++) {
                int64_t cr = cx + (x - FB_W / 2) * step, zr = 0, zi = 0;
                int n = 0;
                while (n < MAX_ITER) {
                    int64_t rr = zr * zr >> FRAC, ii = zi * zi >> FRAC;
                    if (rr + ii > 4 * one)
                        break;
                    zi = (2 * zr * zi >> FRAC) + ci;
                    zr = rr - ii + cr;
                    n++;
                }
                inside += n == MAX_ITER;
                total_iter += n;
                fb[y * FB_W + x] = palette(n);
            }
        }
        printf("zoom %d: %ld points inside, %ld iterations\n", 1 << f, inside, total_iter);
        fb_present(f);
    }
    return 0;
}
