#include <stdio.h>
#include <stdint.h>
#include <string.h>
static uint32_t fnv1a(const char *s) { uint32_t h = 2166136261u; while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; } return h; }
static uint32_t crc32(const unsigned char *p, size_t n) {
    uint32_t c = 0xffffffffu;
    while (n--) { c ^= *p++; for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1; }
    return ~c;
}
int main(void) {
    const char *s = "The quick brown fox jumps over the lazy dog";
    printf("%08x %08x\n", fnv1a(s), crc32((const unsigned char *)s, strlen(s)));
    return 0;
}
