/*
 * argv_env.c - command-line arguments and environment.
 *
 * Exercises: the initial stack layout built by the loader/emulator
 * (argc, argv[] pointers, envp[], auxv), string handling on argv, and
 * getenv() over the environment block.
 *
 * Output:
 *   argc=N
 *   argv[0] basename=NAME   (only the basename, so the output does not depend
 *                            on the path used to start the program)
 *   argv[i]=[TEXT] len=L     for i >= 1 (brackets show empty/space args)
 *   env NAME=[VALUE] or env NAME unset   for a fixed list of variables
 *
 * Exit status: 0, or 2 if argc < 1 or argv[argc] is not NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const vars[] = {
    "ARM64_TEST_VAR", /* set by the test harness (see expected/RUNS.md) */
    "ARM64_TEST_EMPTY", /* set to the empty string */
    "LANG",
    "ARM64_TEST_UNSET", /* never set */
};

int main(int argc, char **argv)
{
    if (argc < 1 || argv[argc] != NULL) {
        printf("bad argv layout\n");
        return 2;
    }
    printf("argc=%d\n", argc);
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    printf("argv[0] basename=%s\n", base);
    for (int i = 1; i < argc; i++)
        printf("argv[%d]=[%s] len=%zu\n", i, argv[i], strlen(argv[i]));
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v)
            printf("env %s=[%s]\n", vars[i], v);
        else
            printf("env %s unset\n", vars[i]);
    }
    return 0;
}
