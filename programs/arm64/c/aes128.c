/* AES-128 (FIPS 197) two ways, for the constant-time checker (`ncpu_nb.constant_time`) and its chapter.
 *
 *     aes128 IMPL MODE < KEY [IV] DATA > OUTPUT
 *
 * IMPL is
 *   ct     constant time: the S-box is computed, not looked up (the inverse in GF(2^8) as x^254, four
 *          multiplications and seven squarings, then FIPS 197's affine map), eight bytes at a time in a
 *          64-bit word, with shifts, ANDs with masks, XORs and subtractions only (no branch, no table, no
 *          multiply instruction): the same instructions and memory addresses whatever the key and the data
 *   table  the usual 256-byte S-box table (and its inverse), indexed by key and data bytes: which
 *          addresses it reads tell an observer about the secrets
 * Everything else (ShiftRows, MixColumns, AddRoundKey, the modes) is the same code for both.
 * MODE is ecb, cbc, ctr (encryption; ctr also decrypts), ecb-decrypt or cbc-decrypt.
 * Standard input holds the 16-byte key, then for cbc/ctr a 16-byte IV (the initial counter block for
 * ctr, incremented as a 128-bit big-endian number, SP 800-38A B.1), then the data: a multiple of 16
 * bytes for ecb/cbc, any length for ctr. Standard output is the output bytes, raw, written once.
 * Exit status 0; 1 for input of a wrong length; 2 for wrong arguments. Built -O2 -g. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 16
#define ROUNDS 10
#define MAX_DATA (1 << 18)

typedef uint8_t block[BLOCK]; /* the state, FIPS 197's s[r, c] at index r + 4c */

/* ---- the constant-time S-box: eight bytes at once, one in each byte of a 64-bit word ---- */
#define LANES(byte) (0x0101010101010101ULL * (byte)) /* the byte repeated in all eight lanes */

static inline uint64_t where_bit(uint64_t a, int k) /* 0xff in each lane whose bit k is set, else 0 */
{
    uint64_t bit = (a >> k) & LANES(0x01);
    return (bit << 8) - bit; /* each lane's 0 or 1 times 0xff, without a multiply instruction */
}

static inline uint64_t xtime8(uint64_t a) /* each lane times x (that is, {02}) in GF(2^8) */
{
    /* a lane whose bit 7 falls out is reduced by x^8 + x^4 + x^3 + x + 1: x^8 = 0x1b */
    return ((a & LANES(0x7f)) << 1) ^ (where_bit(a, 7) & LANES(0x1b));
}

static inline uint64_t gf_mul8(uint64_t a, uint64_t b) /* each lane of a times the same lane of b */
{
    uint64_t product = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) {
        product ^= a & where_bit(b, i);
        a = xtime8(a);
    }
    return product;
}

static inline uint64_t rotl8(uint64_t a, int k) /* each lane rotated left by k bits (0 < k < 8) */
{
    return ((a << k) & LANES((0xff << k) & 0xff)) | ((a >> (8 - k)) & LANES(0xff >> (8 - k)));
}

static inline uint64_t square8(uint64_t a) /* each lane squared, a linear map: bit i of a lane becomes x^2i */
{
    uint64_t one = LANES(0x01);
    /* bits 0..3 move to bits 0, 2, 4, 6; bits 4..7 give x^8, x^10, x^12, x^14 reduced: 1b, 6c, ab, 9a */
    uint64_t low = (a & one) | ((a & (one << 1)) << 1) | ((a & (one << 2)) << 2) | ((a & (one << 3)) << 3);
    return low ^ (where_bit(a, 4) & LANES(0x1b)) ^ (where_bit(a, 5) & LANES(0x6c)) ^
           (where_bit(a, 6) & LANES(0xab)) ^ (where_bit(a, 7) & LANES(0x9a));
}

static uint64_t inverse8(uint64_t x) /* each lane's multiplicative inverse, x^254 (0 for 0) */
{
    uint64_t x2 = square8(x), x3 = gf_mul8(x2, x), x12 = square8(square8(x3)), x15 = gf_mul8(x12, x3);
    uint64_t x240 = square8(square8(square8(square8(x15))));
    return gf_mul8(gf_mul8(x240, x12), x2); /* x^252 times x^2 */
}

static uint64_t sbox8(uint64_t x) /* FIPS 197 5.1.1: the inverse, then the affine transformation */
{
    uint64_t b = inverse8(x);
    return b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ LANES(0x63);
}

static uint64_t inv_sbox8(uint64_t x) /* FIPS 197 5.3.2: the inverse affine transformation, then the inverse */
{
    return inverse8(rotl8(x, 1) ^ rotl8(x, 3) ^ rotl8(x, 6) ^ LANES(0x05));
}

static uint64_t load8(const uint8_t *p) /* byte i in lane i (bits 8i..8i+7) */
{
    uint64_t w = 0;
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        w |= (uint64_t)p[i] << (8 * i);
    return w;
}

static void store8(uint8_t *p, uint64_t w)
{
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(w >> (8 * i));
}

static void sub_bytes_ct(block s)
{
    store8(s, sbox8(load8(s)));
    store8(s + 8, sbox8(load8(s + 8)));
}

static void sub_word_ct(uint8_t w[4]) /* the key expansion's SubWord: four lanes used */
{
    uint64_t x = sbox8((uint64_t)w[0] | (uint64_t)w[1] << 8 | (uint64_t)w[2] << 16 | (uint64_t)w[3] << 24);
    for (int i = 0; i < 4; i++)
        w[i] = (uint8_t)(x >> (8 * i));
}

static void inv_sub_bytes_ct(block s)
{
    store8(s, inv_sbox8(load8(s)));
    store8(s + 8, inv_sbox8(load8(s + 8)));
}

/* ---- the table S-box: FIPS 197 Figure 7 and Figure 14 ---- */
static const uint8_t sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

static const uint8_t inv_sbox[256] = {
    0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38, 0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb,
    0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87, 0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb,
    0x54, 0x7b, 0x94, 0x32, 0xa6, 0xc2, 0x23, 0x3d, 0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
    0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2, 0x76, 0x5b, 0xa2, 0x49, 0x6d, 0x8b, 0xd1, 0x25,
    0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16, 0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92,
    0x6c, 0x70, 0x48, 0x50, 0xfd, 0xed, 0xb9, 0xda, 0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
    0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a, 0xf7, 0xe4, 0x58, 0x05, 0xb8, 0xb3, 0x45, 0x06,
    0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02, 0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b,
    0x3a, 0x91, 0x11, 0x41, 0x4f, 0x67, 0xdc, 0xea, 0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
    0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85, 0xe2, 0xf9, 0x37, 0xe8, 0x1c, 0x75, 0xdf, 0x6e,
    0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89, 0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b,
    0xfc, 0x56, 0x3e, 0x4b, 0xc6, 0xd2, 0x79, 0x20, 0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
    0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31, 0xb1, 0x12, 0x10, 0x59, 0x27, 0x80, 0xec, 0x5f,
    0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d, 0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef,
    0xa0, 0xe0, 0x3b, 0x4d, 0xae, 0x2a, 0xf5, 0xb0, 0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
    0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26, 0xe1, 0x69, 0x14, 0x63, 0x55, 0x21, 0x0c, 0x7d,
};

static void sub_bytes_table(block s)
{
    for (int i = 0; i < BLOCK; i++)
        s[i] = sbox[s[i]]; /* a leak in every round: the address read depends on the key and the data */
}

static void sub_word_table(uint8_t w[4])
{
    for (int i = 0; i < 4; i++)
        w[i] = sbox[w[i]]; /* the leak, first in a run (the key expansion): the address read depends on the key */
}

static void inv_sub_bytes_table(block s)
{
    for (int i = 0; i < BLOCK; i++)
        s[i] = inv_sbox[s[i]]; /* the inverse cipher's leak, the same way */
}

/* ---- the rest of the cipher, the same for both ---- */
struct impl {
    void (*sub_bytes)(block s);
    void (*sub_word)(uint8_t w[4]);
    void (*inv_sub_bytes)(block s);
};

static const struct impl ct = {sub_bytes_ct, sub_word_ct, inv_sub_bytes_ct},
                          table = {sub_bytes_table, sub_word_table, inv_sub_bytes_table};

static void key_expansion(const struct impl *impl, const uint8_t key[16], block round_keys[ROUNDS + 1])
{
    uint8_t *w = round_keys[0]; /* FIPS 197 5.2: the words w[0..43], four bytes each */
    uint8_t rcon = 0x01;
    memcpy(w, key, 16);
    for (int i = 4; i < 4 * (ROUNDS + 1); i++) {
        uint8_t temp[4];
        memcpy(temp, w + 4 * (i - 1), 4);
        if (i % 4 == 0) { /* on the word's number only */
            uint8_t first = temp[0]; /* RotWord, SubWord, then Rcon */
            temp[0] = temp[1], temp[1] = temp[2], temp[2] = temp[3], temp[3] = first;
            impl->sub_word(temp);
            temp[0] ^= rcon;
            rcon = (uint8_t)((rcon << 1) ^ (0x1b & -(rcon >> 7))); /* times x: 01, 02, 04, ... 80, 1b, 36 */
        }
        for (int j = 0; j < 4; j++)
            w[4 * i + j] = w[4 * (i - 4) + j] ^ temp[j];
    }
}

static void add_round_key(block s, const block k)
{
    for (int i = 0; i < BLOCK; i++)
        s[i] ^= k[i];
}

static void shift_rows(block s) /* row r rotated left by r columns */
{
    block t;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
    memcpy(s, t, BLOCK);
}

static void inv_shift_rows(block s)
{
    block t;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[r + 4 * ((c + r) % 4)] = s[r + 4 * c];
    memcpy(s, t, BLOCK);
}

/* Two columns in a 64-bit word, a column's row r in its lane r: rot(a, k) puts row r + k at row r. */
static inline uint64_t rot_column(uint64_t a, int k)
{
    uint64_t low = 0xffffffffULL >> (8 * k); /* the 4 - k lanes (in each column) that take a later row */
    low |= low << 32;
    return ((a >> (8 * k)) & low) | ((a << (8 * (4 - k))) & ~low);
}

static void mix_columns(block s) /* FIPS 197 5.1.3: s'_r = 2 s_r + 3 s_(r+1) + s_(r+2) + s_(r+3) */
{
    for (int half = 0; half < BLOCK; half += 8) {
        uint64_t a = load8(s + half), a1 = rot_column(a, 1), a2 = rot_column(a, 2), a3 = rot_column(a, 3);
        store8(s + half, xtime8(a ^ a1) ^ a1 ^ a2 ^ a3);
    }
}

static void inv_mix_columns(block s) /* FIPS 197 5.3.3: s'_r = e s_r + b s_(r+1) + d s_(r+2) + 9 s_(r+3) */
{
    for (int half = 0; half < BLOCK; half += 8) {
        uint64_t a = load8(s + half), a2 = xtime8(a), a4 = xtime8(a2), a8 = xtime8(a4);
        uint64_t e = a8 ^ a4 ^ a2, b = a8 ^ a2 ^ a, d = a8 ^ a4 ^ a, nine = a8 ^ a;
        store8(s + half, e ^ rot_column(b, 1) ^ rot_column(d, 2) ^ rot_column(nine, 3));
    }
}

static void cipher(const struct impl *impl, const block round_keys[ROUNDS + 1], block s) /* FIPS 197 5.1 */
{
    add_round_key(s, round_keys[0]);
    for (int round = 1; round <= ROUNDS; round++) {
        impl->sub_bytes(s);
        shift_rows(s);
        if (round < ROUNDS)
            mix_columns(s);
        add_round_key(s, round_keys[round]);
    }
}

static void inv_cipher(const struct impl *impl, const block round_keys[ROUNDS + 1], block s) /* FIPS 197 5.3 */
{
    add_round_key(s, round_keys[ROUNDS]);
    for (int round = ROUNDS - 1; round >= 0; round--) {
        inv_shift_rows(s);
        impl->inv_sub_bytes(s);
        add_round_key(s, round_keys[round]);
        if (round > 0)
            inv_mix_columns(s);
    }
}

/* ---- the modes (SP 800-38A) ---- */
enum mode { ECB, CBC, CTR, ECB_DECRYPT, CBC_DECRYPT };

static void run_mode(const struct impl *impl, enum mode mode, const block round_keys[ROUNDS + 1], const uint8_t iv[16],
                     const uint8_t *in, uint8_t *out, size_t n)
{
    block chain, s;
    memcpy(chain, iv, BLOCK); /* the previous ciphertext block (cbc) or the counter block (ctr) */
    for (size_t at = 0; at < n; at += BLOCK) { /* on the length, never on the bytes */
        size_t size = n - at < BLOCK ? n - at : BLOCK; /* ctr's last block may be short */
        switch (mode) {
        case ECB:
            memcpy(s, in + at, BLOCK);
            cipher(impl, round_keys, s);
            break;
        case CBC:
            for (int i = 0; i < BLOCK; i++)
                s[i] = in[at + i] ^ chain[i];
            cipher(impl, round_keys, s);
            memcpy(chain, s, BLOCK);
            break;
        case CTR: {
            memcpy(s, chain, BLOCK);
            cipher(impl, round_keys, s);
            for (size_t i = 0; i < size; i++)
                s[i] ^= in[at + i];
            unsigned carry = 1; /* the counter plus one, every byte whatever the carries */
            for (int i = BLOCK - 1; i >= 0; i--) {
                unsigned sum = chain[i] + carry;
                chain[i] = (uint8_t)sum;
                carry = sum >> 8;
            }
            break;
        }
        case ECB_DECRYPT:
            memcpy(s, in + at, BLOCK);
            inv_cipher(impl, round_keys, s);
            break;
        case CBC_DECRYPT:
            memcpy(s, in + at, BLOCK);
            inv_cipher(impl, round_keys, s);
            for (int i = 0; i < BLOCK; i++)
                s[i] ^= chain[i];
            memcpy(chain, in + at, BLOCK);
            break;
        }
        memcpy(out + at, s, size);
    }
}

static void say(const char *text)
{
    write(2, text, strlen(text));
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"ecb", "cbc", "ctr", "ecb-decrypt", "cbc-decrypt"};
    static uint8_t input[32 + MAX_DATA + 1], output[MAX_DATA];
    const struct impl *impl = NULL;
    int mode = -1;
    if (argc == 3) {
        impl = strcmp(argv[1], "ct") == 0 ? &ct : strcmp(argv[1], "table") == 0 ? &table : NULL;
        for (int m = 0; m < 5; m++)
            if (strcmp(argv[2], modes[m]) == 0)
                mode = m;
    }
    if (impl == NULL || mode < 0) {
        say("usage: aes128 ct|table ecb|cbc|ctr|ecb-decrypt|cbc-decrypt < KEY [IV] DATA\n");
        return 2;
    }
    size_t got = 0;
    for (;;) { /* all of stdin, however read() splits it */
        ssize_t n = read(0, input + got, sizeof input - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    size_t header = mode == ECB || mode == ECB_DECRYPT ? 16 : 32; /* the key, and the IV but for ecb */
    if (got < header || got - header > MAX_DATA || (mode != CTR && (got - header) % BLOCK != 0)) {
        say("aes128: stdin must hold the key, the IV (but for ecb) and the data (ecb/cbc: whole blocks)\n");
        return 1;
    }
    block round_keys[ROUNDS + 1];
    key_expansion(impl, input, round_keys);
    size_t n = got - header;
    run_mode(impl, (enum mode)mode, (const block *)round_keys, input + 16, input + header, output, n);
    for (size_t done = 0; done < n;) { /* one write of the whole output (more only if the pipe takes less) */
        ssize_t w = write(1, output + done, n - done);
        if (w <= 0)
            return 1;
        done += (size_t)w;
    }
    return 0;
}
