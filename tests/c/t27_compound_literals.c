#include <stdio.h>
struct v { int x, y, z; };
static int dot(struct v a, struct v b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
int main(void) {
    struct v a = {.z = 3, .x = 1};
    int arr[10] = {[2] = 5, [7] = 9};
    printf("%d %d %d %d\n", dot(a, (struct v){2, 4, 6}), arr[2] + arr[7], a.y, ((int[]){10, 20, 30})[1]);
    return 0;
}
