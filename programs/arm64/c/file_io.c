/*
 * file_io.c - basic file system syscalls on a file under /tmp.
 *
 * Exercises: umask, openat(O_CREAT|O_TRUNC|O_RDWR), write, lseek
 * (SEEK_SET/SEEK_CUR/SEEK_END), read, pwrite/pread, fstat/stat (newfstatat),
 * ftruncate, close, rename, unlink, and errno (ENOENT) after unlink.
 *
 * The file is /tmp/arm64_file_io_test.tmp (renamed to ...renamed.tmp and then
 * deleted). Each step prints its result; a mismatch prints "FAIL ..." and the
 * program exits 1. Exit status 0 means every check passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define PATH1 "/tmp/arm64_file_io_test.tmp"
#define PATH2 "/tmp/arm64_file_io_test.renamed.tmp"

static int failures;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", what, ok ? "ok" : "FAIL");
    if (!ok)
        failures++;
}

int main(void)
{
    static const char msg[] = "The quick brown fox jumps over the lazy dog\n";
    const size_t len = sizeof msg - 1; /* 44 */
    char buf[128];

    umask(022);
    unlink(PATH1);
    unlink(PATH2);

    int fd = open(PATH1, O_CREAT | O_TRUNC | O_RDWR, 0666);
    check(fd >= 0, "open O_CREAT");
    if (fd < 0)
        return 1;

    ssize_t n = write(fd, msg, len);
    printf("write returned %zd\n", n);
    check(n == (ssize_t)len, "write length");

    off_t pos = lseek(fd, 0, SEEK_CUR);
    printf("lseek(0, SEEK_CUR) = %lld\n", (long long)pos);
    check(pos == (off_t)len, "position after write");

    pos = lseek(fd, 0, SEEK_SET);
    printf("lseek(0, SEEK_SET) = %lld\n", (long long)pos);
    memset(buf, 0, sizeof buf);
    n = read(fd, buf, sizeof buf);
    printf("read returned %zd: %s", n, buf);
    check(n == (ssize_t)len && memcmp(buf, msg, len) == 0, "read back");

    n = read(fd, buf, sizeof buf);
    printf("read at EOF returned %zd\n", n);
    check(n == 0, "EOF read");

    pos = lseek(fd, 4, SEEK_SET);
    n = write(fd, "QUICK", 5);
    printf("overwrite at %lld returned %zd\n", (long long)pos, n);
    pos = lseek(fd, -5, SEEK_CUR);
    printf("lseek(-5, SEEK_CUR) = %lld\n", (long long)pos);
    memset(buf, 0, sizeof buf);
    n = read(fd, buf, 15);
    printf("read 15 bytes: [%s]\n", buf);
    check(n == 15 && memcmp(buf, "QUICK brown fox", 15) == 0, "overwrite");

    pos = lseek(fd, 0, SEEK_END);
    printf("lseek(0, SEEK_END) = %lld\n", (long long)pos);
    check(pos == (off_t)len, "size via SEEK_END");

    /* Seek past the end and write: creates a hole that reads back as zeros. */
    pos = lseek(fd, 100, SEEK_SET);
    n = write(fd, "END", 3);
    printf("write past end at %lld returned %zd\n", (long long)pos, n);
    memset(buf, 0x55, sizeof buf);
    n = pread(fd, buf, 10, 50);
    int zeros = 1;
    for (int i = 0; i < 10; i++)
        zeros &= buf[i] == 0;
    printf("pread 10 bytes from the hole returned %zd, all zero: %s\n", n,
           zeros ? "yes" : "no");
    check(n == 10 && zeros, "hole reads as zero");

    ssize_t w = pwrite(fd, "xyz", 3, 0);
    memset(buf, 0, sizeof buf);
    n = pread(fd, buf, 6, 0);
    pos = lseek(fd, 0, SEEK_CUR); /* pread/pwrite must not move the offset */
    printf("pwrite returned %zd, pread at 0: [%s], offset still %lld\n", w,
           buf, (long long)pos);
    check(w == 3 && n == 6 && memcmp(buf, "xyz QU", 6) == 0 && pos == 103,
          "pwrite/pread");

    struct stat st;
    int r = fstat(fd, &st);
    printf("fstat: r=%d size=%lld regular=%d mode=%04o nlink=%lu\n", r,
           (long long)st.st_size, S_ISREG(st.st_mode) ? 1 : 0,
           (unsigned)(st.st_mode & 07777), (unsigned long)st.st_nlink);
    check(r == 0 && st.st_size == 103 && S_ISREG(st.st_mode) &&
              (st.st_mode & 07777) == 0644 && st.st_nlink == 1,
          "fstat");

    r = ftruncate(fd, 10);
    pos = lseek(fd, 0, SEEK_END);
    printf("ftruncate(10): r=%d new end=%lld\n", r, (long long)pos);
    check(r == 0 && pos == 10, "ftruncate");

    check(close(fd) == 0, "close");

    r = rename(PATH1, PATH2);
    printf("rename: r=%d\n", r);
    check(r == 0, "rename");

    r = stat(PATH2, &st);
    printf("stat renamed: r=%d size=%lld\n", r, (long long)st.st_size);
    check(r == 0 && st.st_size == 10, "stat after rename");

    errno = 0;
    r = stat(PATH1, &st);
    printf("stat old name: r=%d errno is ENOENT: %s\n", r,
           errno == ENOENT ? "yes" : "no");
    check(r == -1 && errno == ENOENT, "old name gone");

    r = unlink(PATH2);
    printf("unlink: r=%d\n", r);
    check(r == 0, "unlink");

    errno = 0;
    r = open(PATH2, O_RDONLY);
    printf("open after unlink: r=%d errno is ENOENT: %s\n", r,
           errno == ENOENT ? "yes" : "no");
    check(r == -1 && errno == ENOENT, "file gone");

    printf("%s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
