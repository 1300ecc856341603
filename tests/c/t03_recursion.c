#include <stdio.h>
static unsigned long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) { return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1)); }
int main(void) {
    for (int i = 0; i < 25; i += 4) printf("fib(%d)=%lu\n", i, fib(i));
    printf("ack(2,3)=%d\n", ack(2, 3));
    return 0;
}
