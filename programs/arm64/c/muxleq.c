/* MUXLEQ, the two-instruction machine, running the eForth image (programs/forth/muxleq.dec, public domain,
 * from howerj/muxleq; see programs/forth/README.md). The image is compiled in: build.sh turns the .dec file
 * into muxleq_image.h (one number and a comma a line).
 *
 * Each instruction is three 16-bit cells a, b, c at pc; pc += 3, then
 *   a == -1          m[b] = the next byte of stdin, or -1 (0xFFFF) at end of file
 *   b == -1          write the low byte of m[a] to stdout
 *   c < 0, c != -1   m[b] = (m[a] & ~m[c & 0x7FFF]) | (m[b] & m[c & 0x7FFF])   (mux)
 *   otherwise        r = m[b] - m[a]; m[b] = r; if r <= 0 (signed), pc = c    (subleq)
 * and the machine stops when pc is negative as a 16-bit number. Exit status 0. */
#include <stdint.h>
#include <stdio.h>

static const int16_t image[] = {
#include "muxleq_image.h"
};

static uint16_t m[1 << 16];

int main(void)
{
    for (size_t i = 0; i < sizeof image / sizeof image[0]; i++)
        m[i] = (uint16_t)image[i];
    uint32_t pc = 0;
    while (pc < 0x8000) {
        uint16_t a = m[pc], b = m[pc + 1], c = m[pc + 2];
        pc += 3;
        if (a == 0xFFFF) {
            fflush(stdout); /* the prompt shows before the machine waits at a terminal */
            m[b] = (uint16_t)getchar();
        } else if (b == 0xFFFF) {
            putchar(m[a] & 0xFF);
        } else if ((c & 0x8000) && c != 0xFFFF) {
            uint16_t select = m[c & 0x7FFF];
            m[b] = (uint16_t)((m[a] & ~select) | (m[b] & select));
        } else {
            uint16_t r = (uint16_t)(m[b] - m[a]);
            m[b] = r;
            if (r == 0 || (r & 0x8000))
                pc = c;
        }
    }
    return 0;
}
