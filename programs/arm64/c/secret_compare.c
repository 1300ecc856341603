/* Two ways to check a password, for the constant-time checker (`ncpu_nb.constant_time`) and its chapter.
 *
 *     secret_compare MODE < GUESS
 *
 * Reads a guess of up to 16 bytes from standard input (a shorter one is padded with zero bytes) and
 * compares it with the stored 16-byte password, "open sesame 2024":
 *   early-exit  byte by byte, returning at the first byte that differs (as memcmp does): how long it
 *               runs, and which branches it takes, tell an observer how many leading bytes were right
 *   constant    ORs together the XOR of every pair of bytes and looks only at the total: the same
 *               instructions and addresses whatever the guess
 * Both print "MODE: match 1" or "MODE: match 0" and exit 0. The digit is computed, not chosen by a
 * branch, and written with write(2), so the only difference between a right and a wrong guess is in
 * the compare itself. Built with -g, so the checker names the source line of the leaking branch. */
#include <string.h>
#include <unistd.h>

#define SIZE 16

static const unsigned char password[SIZE] = "open sesame 2024";

__attribute__((noinline)) static int early_exit_equal(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) /* the leak: returns at the first differing byte */
            return 0;
    return 1;
}

__attribute__((noinline)) static int constant_time_equal(const unsigned char *a, const unsigned char *b, size_t n)
{
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= a[i] ^ b[i]; /* every byte, whatever the earlier ones were */
    return diff == 0;
}

int main(int argc, char **argv)
{
    static char early_exit_line[] = "early-exit: match ?\n", constant_line[] = "constant: match ?\n";
    int constant;
    if (argc == 2 && strcmp(argv[1], "early-exit") == 0)
        constant = 0;
    else if (argc == 2 && strcmp(argv[1], "constant") == 0)
        constant = 1;
    else {
        static const char usage[] = "usage: secret_compare early-exit|constant < GUESS\n";
        write(2, usage, sizeof usage - 1);
        return 2;
    }
    unsigned char guess[SIZE] = {0};
    for (size_t got = 0; got < SIZE;) { /* up to 16 bytes, however read() splits them */
        ssize_t n = read(0, guess + got, SIZE - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    int equal = constant ? constant_time_equal(guess, password, SIZE) : early_exit_equal(guess, password, SIZE);
    char *line = constant ? constant_line : early_exit_line; /* depends on the mode, not on the guess */
    size_t length = strlen(line);
    line[length - 2] = (char)('0' + equal);
    write(1, line, length);
    return 0;
}
