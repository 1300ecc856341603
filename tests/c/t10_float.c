#include <stdio.h>
#include <math.h>
int main(void) {
    double x = 2.0;
    printf("%.10f %.10f %.10f %.10f\n", sqrt(x), sin(x), exp(x), log(x));
    printf("%.6e %g %g %.3f\n", pow(10, -5.5), floor(-2.5), ceil(-2.5), fmod(10.75, 3));
    float f = 1.0f / 3.0f; double d = 1.0 / 3.0;
    printf("%.9f %.17f %d\n", f, d, (int)(f * 3 == 1.0f));
    long long ll = (long long)1e18; printf("%lld %f\n", ll, (double)ll);
    return 0;
}
