#include <stdio.h>
static const char *kind(int c) {
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return "vowel";
    case '0' ... '9': return "digit";
    case ' ': return "space";
    default: return "other";
    }
}
int main(void) {
    const char *s = "hi 42 you";
    for (const char *p = s; *p; p++) printf("%c:%s\n", *p, kind(*p));
    return 0;
}
