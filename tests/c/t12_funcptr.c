#include <stdio.h>
typedef int (*op)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int fold(op f, const int *v, int n, int acc) { for (int i = 0; i < n; i++) acc = f(acc, v[i]); return acc; }
int main(void) {
    op ops[] = {add, sub, mul};
    const char *names[] = {"add", "sub", "mul"};
    int v[] = {3, 4, 5, 6};
    for (int i = 0; i < 3; i++) printf("%s %d\n", names[i], fold(ops[i], v, 4, i == 2));
    return 0;
}
