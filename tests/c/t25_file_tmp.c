#include <stdio.h>
#include <string.h>
int main(void) {
    FILE *f = fopen("/tmp/tcc_test.txt", "w");
    if (!f) { perror("fopen"); return 1; }
    for (int i = 0; i < 5; i++) fprintf(f, "line %d: %d\n", i, i * i);
    fclose(f);
    f = fopen("/tmp/tcc_test.txt", "r");
    char buf[64]; int n = 0; long total = 0;
    while (fgets(buf, sizeof buf, f)) { n++; total += strlen(buf); }
    fseek(f, 0, SEEK_END); long size = ftell(f); fclose(f);
    remove("/tmp/tcc_test.txt");
    printf("%d lines, %ld bytes, size %ld, gone %d\n", n, total, size, fopen("/tmp/tcc_test.txt", "r") == NULL);
    return 0;
}
