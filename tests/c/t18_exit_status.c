#include <stdio.h>
#include <stdlib.h>
static void bye(void) { puts("atexit ran"); }
int main(void) { atexit(bye); printf("exiting with 42\n"); exit(42); }
