#include <stdio.h>
int main(void) { volatile int *p = (int *)0; printf("before\n"); fflush(stdout); return *p; }
