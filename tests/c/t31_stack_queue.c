#include <stdio.h>
#define CAP 16
typedef struct { int d[CAP]; int head, tail, size; } queue;
static void push(queue *q, int v) { q->d[q->tail] = v; q->tail = (q->tail + 1) % CAP; q->size++; }
static int pop(queue *q) { int v = q->d[q->head]; q->head = (q->head + 1) % CAP; q->size--; return v; }
int main(void) {
    queue q = {0};
    for (int i = 0; i < 40; i++) { push(&q, i); if (i % 3 == 2) printf("%d ", pop(&q) + pop(&q)); }
    printf("| size %d\n", q.size);
    return 0;
}
