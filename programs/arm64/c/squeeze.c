/* squeeze: a checksum and compression tool. Reads stdin (or, with no input, a built-in text), prints its
 * CRC-32 (the zlib/PNG polynomial, table computed at start), compresses it with a small LZ77 (a 4 KiB
 * window searched through hash chains; tokens are literals or (distance, length) pairs, packed 8 to a
 * flag byte) and with run-length coding, decompresses both and checks they give the input back.
 * Usage: squeeze [-x] (with -x, also print the first LZ77 matches) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 4096
#define MIN_MATCH 3
#define MAX_MATCH 18
#define HASH_SIZE 4096

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc32(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

/* LZ77: a flag byte says for each of the next 8 tokens whether it is a literal (0) or a match (1); a
 * match is 2 bytes: 12 bits of distance-1 and 4 bits of length-MIN_MATCH. */
static size_t lz_compress(const unsigned char *in, size_t n, unsigned char *out, int show)
{
    static int head[HASH_SIZE], prev[WINDOW];
    for (int i = 0; i < HASH_SIZE; i++)
        head[i] = -1;
    size_t o = 0, flag_at = 0, shown = 0;
    int bit = 8;
    for (size_t i = 0; i < n;) {
        if (bit == 8) {
            flag_at = o++;
            out[flag_at] = 0;
            bit = 0;
        }
        size_t best = 0, best_distance = 0;
        if (i + MIN_MATCH <= n) {
            unsigned h = (in[i] << 8 ^ in[i + 1] << 4 ^ in[i + 2]) % HASH_SIZE;
            for (int j = head[h], tries = 0; j >= 0 && i - j <= WINDOW && tries < 64; j = prev[j % WINDOW], tries++) {
                size_t len = 0;
                while (len < MAX_MATCH && i + len < n && in[j + len] == in[i + len])
                    len++;
                if (len > best) {
                    best = len;
                    best_distance = i - j;
                }
                if (prev[j % WINDOW] >= j)
                    break;
            }
        }
        size_t advance = best >= MIN_MATCH ? best : 1;
        if (best >= MIN_MATCH) {
            out[flag_at] |= 1 << bit;
            unsigned code = (unsigned)(best_distance - 1) << 4 | (unsigned)(best - MIN_MATCH);
            out[o++] = code >> 8;
            out[o++] = code & 0xff;
            if (show && shown++ < 12)
                printf("  match: back %zu, %zu bytes \"%.*s\"\n", best_distance, best, (int)best, (const char *)in + i);
        } else {
            out[o++] = in[i];
        }
        bit++;
        for (size_t k = 0; k < advance; k++, i++)
            if (i + MIN_MATCH <= n) {
                unsigned h = (in[i] << 8 ^ in[i + 1] << 4 ^ in[i + 2]) % HASH_SIZE;
                prev[i % WINDOW] = head[h];
                head[h] = (int)i;
            }
    }
    return o;
}

static size_t lz_decompress(const unsigned char *in, size_t n, unsigned char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned flags = in[i++];
        for (int bit = 0; bit < 8 && i < n; bit++)
            if (flags >> bit & 1) {
                unsigned code = in[i] << 8 | in[i + 1];
                i += 2;
                size_t distance = (code >> 4) + 1, len = (code & 15) + MIN_MATCH;
                for (size_t k = 0; k < len; k++, o++)
                    out[o] = out[o - distance];
            } else {
                out[o++] = in[i++];
            }
    }
    return o;
}

/* run-length: a count byte (1..255) then the byte repeated */
static size_t rle_compress(const unsigned char *in, size_t n, unsigned char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && in[i + run] == in[i] && run < 255)
            run++;
        out[o++] = (unsigned char)run;
        out[o++] = in[i];
        i += run;
    }
    return o;
}

static size_t rle_decompress(const unsigned char *in, size_t n, unsigned char *out)
{
    size_t o = 0;
    for (size_t i = 0; i + 1 < n; i += 2)
        for (int k = 0; k < in[i]; k++)
            out[o++] = in[i + 1];
    return o;
}

static int report(const char *name, const unsigned char *in, size_t n, size_t packed, const unsigned char *back,
                  size_t unpacked)
{
    int ok = unpacked == n && !memcmp(in, back, n);
    printf("%-5s %7zu -> %7zu bytes (%5.1f%%), round trip %s\n", name, n, packed, n ? 100.0 * packed / n : 0.0,
           ok ? "ok" : "FAILED");
    return ok;
}

int main(int argc, char **argv)
{
    size_t cap = 1 << 16, n = 0;
    unsigned char *in = malloc(cap);
    for (size_t got; (got = fread(in + n, 1, cap - n, stdin)) > 0;)
        if ((n += got) == cap)
            in = realloc(in, cap *= 2);
    if (n == 0) {
        /* the built-in text: a verse and a picture's worth of repeated runs */
        const char *verse = "the quick brown fox jumps over the lazy dog; the lazy dog sleeps on.\n";
        for (int i = 0; i < 40; i++)
            n += (size_t)sprintf((char *)in + n, "%d: %s", i % 7, verse);
        memset(in + n, '=', 300);
        n += 300;
    }
    crc_init();
    printf("input %zu bytes, crc32 %08x\n", n, crc32(in, n));
    unsigned char *packed = malloc(2 * n + 16), *back = malloc(n + 32);
    int show = argc > 1 && !strcmp(argv[1], "-x");
    if (show)
        printf("first LZ77 matches:\n");
    size_t lz = lz_compress(in, n, packed, show);
    int ok = report("lz77", in, n, lz, back, lz_decompress(packed, lz, back));
    printf("      crc32 of the unpacked copy %08x\n", crc32(back, n));
    size_t rle = rle_compress(in, n, packed);
    ok &= report("rle", in, n, rle, back, rle_decompress(packed, rle, back));
    return ok ? 0 : 1;
}
