#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(void) {
    char a[40]; memset(a, 'x', sizeof a); a[39] = 0;
    memmove(a + 5, a, 10); memcpy(a, "0123456789", 10);
    printf("%s %d %d\n", a, memcmp("abc", "abd", 3) < 0, memchr(a, 'z', 39) == NULL);
    char *d = strdup("duplicate"); char *r = strrchr(d, 'a');
    printf("%s %s %zu %zu\n", d, r, strspn("aaabbb", "a"), strcspn("hello", "l"));
    printf("%d %ld %.2f %lu\n", atoi("  -123x"), atol("99999999999"), atof("2.5e1"), strtoul("ff", NULL, 16));
    free(d);
    return 0;
}
