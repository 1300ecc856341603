#include <stdio.h>
#include <stdarg.h>
static double mean(int n, ...) {
    va_list ap; va_start(ap, n); double s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, double);
    va_end(ap); return s / n;
}
static int sum_ints(int n, ...) { va_list ap; va_start(ap, n); int s = 0; while (n--) s += va_arg(ap, int); va_end(ap); return s; }
static void say(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vprintf(fmt, ap); va_end(ap); }
int main(void) {
    say("%.3f %d %s\n", mean(4, 1.0, 2.5, 3.5, 9.0), sum_ints(10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), "ok");
    return 0;
}
