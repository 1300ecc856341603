#include <stdio.h>
#include <string.h>
#include <ctype.h>
int main(void) {
    char buf[64] = "The quick brown fox";
    char *w, *save = NULL; int n = 0;
    char copy[64]; strcpy(copy, buf);
    for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) n++;
    for (char *c = buf; *c; c++) *c = toupper((unsigned char)*c);
    printf("%s %d %zu %d %s\n", buf, n, strlen(buf), strcmp("abc", "abd") < 0, strstr(buf, "BROWN"));
    char out[32]; snprintf(out, sizeof out, "%-6s|%6.2f|%+d", "ab", 3.14159, 42);
    puts(out);
    return 0;
}
