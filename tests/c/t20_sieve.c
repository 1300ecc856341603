#include <stdio.h>
#include <string.h>
static char composite[100001];
int main(void) {
    int count = 0; long sum = 0;
    for (int i = 2; i <= 100000; i++) {
        if (composite[i]) continue;
        count++; sum += i;
        for (long j = (long)i * i; j <= 100000; j += i) composite[j] = 1;
    }
    printf("%d primes, sum %ld\n", count, sum);
    return 0;
}
