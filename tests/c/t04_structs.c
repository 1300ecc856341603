#include <stdio.h>
#include <string.h>
struct point { int x, y; };
struct rect { struct point a, b; char name[12]; };
static struct rect grow(struct rect r, int d) { r.a.x -= d; r.a.y -= d; r.b.x += d; r.b.y += d; return r; }
static int area(const struct rect *r) { return (r->b.x - r->a.x) * (r->b.y - r->a.y); }
int main(void) {
    struct rect r = { {1, 2}, {4, 6}, "box" };
    struct rect g = grow(r, 2);
    strcat(g.name, "+2");
    printf("%s %d -> %s %d size %zu\n", r.name, area(&r), g.name, area(&g), sizeof(struct rect));
    return 0;
}
