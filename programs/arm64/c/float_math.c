/*
 * float_math.c - IEEE-754 single/double (and a little quad) arithmetic.
 *
 * Exercises: FP/SIMD registers, fadd/fsub/fmul/fdiv/fsqrt in single and
 * double precision, fused multiply-add (fma/fmaf -> fmadd) versus separately
 * rounded multiply and add, conversions between int/unsigned/int64/float/
 * double (scvtf/ucvtf/fcvtzs/fcvtzu/fcvt), rounding instructions (frint*),
 * fmin/fmax with NaN (fminnm/fmaxnm), signed zero, infinities and the
 * AArch64 default NaN, subnormals, FPCR rounding modes (fesetround) and
 * FPSR exception flags (fetestexcept), a few libm functions (exp, log, sin,
 * cos, pow, atan2), software long double (IEEE binary128 via libgcc), and
 * glibc printf of floats with %a, %.9g and %.17g.
 *
 * Inputs are read from volatile variables so that the compiler cannot fold
 * the arithmetic at compile time: the instructions really run.
 * Exit status: 0 if every check matched the IEEE-754 answer, 1 otherwise.
 */
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static volatile float vf_a = 1.1f, vf_b = 3.3f, vf_two = 2.0f;
static volatile double vd_a = 0.1, vd_b = 0.2, vd_one = 1.0, vd_three = 3.0;
static volatile double vd_two = 2.0, vd_zero = 0.0, vd_neg1 = -1.0;
static volatile double vd_big = 1e308, vd_ten = 10.0;
static volatile double vd_tiny = DBL_TRUE_MIN, vd_minnorm = DBL_MIN;
static volatile double vd_nan = NAN;

static int failures;

static void check(int ok, const char *what)
{
    printf("  check %s: %s\n", what, ok ? "ok" : "FAIL");
    if (!ok)
        failures++;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void pd(const char *name, double d)
{
    printf("%-22s %.17g  %a  0x%016" PRIx64 "\n", name, d, d, dbits(d));
}

static void pf(const char *name, float f)
{
    printf("%-22s %.9g  %a  0x%08" PRIx32 "\n", name, (double)f, (double)f,
           fbits(f));
}

static void print_flags(const char *what)
{
    int f = fetestexcept(FE_ALL_EXCEPT);
    printf("%-22s flags:%s%s%s%s%s\n", what, f & FE_INVALID ? " INVALID" : "",
           f & FE_DIVBYZERO ? " DIVBYZERO" : "",
           f & FE_OVERFLOW ? " OVERFLOW" : "",
           f & FE_UNDERFLOW ? " UNDERFLOW" : "",
           f & FE_INEXACT ? " INEXACT" : "");
}

int main(void)
{
    printf("== single precision ==\n");
    float fa = vf_a, fb = vf_b;
    pf("a", fa);
    pf("b", fb);
    pf("a+b", fa + fb);
    pf("a-b", fa - fb);
    pf("a*b", fa * fb);
    pf("a/b", fa / fb);
    float fs = sqrtf(vf_two);
    pf("sqrtf(2)", fs);
    check(fbits(fs) == 0x3fb504f3u, "sqrtf(2) correctly rounded");
    check(fbits(fa + fb) == 0x408ccccdu, "1.1f+3.3f = 4.4000001f");

    printf("== double precision ==\n");
    double a = vd_a, b = vd_b;
    pd("0.1+0.2", a + b);
    check(dbits(a + b) == 0x3fd3333333333334ull, "0.1+0.2 = 0.30000000000000004");
    pd("0.1*0.2", a * b);
    pd("0.1-0.2", a - b);
    pd("1/3", vd_one / vd_three);
    check(dbits(vd_one / vd_three) == 0x3fd5555555555555ull, "1/3");
    double s2 = sqrt(vd_two);
    pd("sqrt(2)", s2);
    check(dbits(s2) == 0x3ff6a09e667f3bcdull, "sqrt(2) correctly rounded");

    printf("== fused multiply-add ==\n");
    volatile double x = 1.0 + 0x1p-30, y = 1.0 - 0x1p-30, z = -1.0;
    volatile double prod = x * y; /* rounded to 1.0 */
    double unfused = prod + z;
    double fused = fma(x, y, z); /* exact: -2^-60 */
    pd("(x*y)+z unfused", unfused);
    pd("fma(x,y,z)", fused);
    check(unfused == 0.0 && fused == -0x1p-60, "fma keeps the low bits");
    volatile float fx = 1.0f + 0x1p-13f, fy = 1.0f - 0x1p-13f, fz = -1.0f;
    volatile float fprod = fx * fy;
    pf("(x*y)+z unfused f", fprod + fz);
    pf("fmaf(x,y,z)", fmaf(fx, fy, fz));
    check(fmaf(fx, fy, fz) == -0x1p-26f, "fmaf keeps the low bits");

    printf("== conversions ==\n");
    volatile double m275 = -2.75, big_u = 3.9e9, e18 = 1e18;
    volatile int64_t i64max = INT64_MAX;
    volatile uint64_t u64max = UINT64_MAX;
    volatile int32_t i2p24p1 = 16777217;
    printf("(int)-2.75              = %d\n", (int)m275);
    printf("(unsigned)3.9e9         = %u\n", (unsigned)big_u);
    printf("(int64_t)1e18           = %" PRId64 "\n", (int64_t)e18);
    pd("(double)INT64_MAX", (double)i64max);
    pd("(double)UINT64_MAX", (double)u64max);
    pf("(float)16777217", (float)i2p24p1);
    pf("(float)0.1", (float)a);
    pd("(double)(float)0.1", (double)(float)a);
    check((int)m275 == -2 && (unsigned)big_u == 3900000000u &&
              (float)i2p24p1 == 16777216.0f,
          "int/float conversions");

    printf("== rounding ==\n");
    static const double rv[] = {2.5, 3.5, -2.5, -0.5, 1.4999999999999998};
    for (unsigned i = 0; i < sizeof rv / sizeof rv[0]; i++) {
        volatile double v = rv[i];
        printf("v=%-20.17g floor=%g ceil=%g trunc=%g round=%g rint=%g "
               "lround=%ld lrint=%ld\n",
               v, floor(v), ceil(v), trunc(v), round(v), rint(v), lround(v),
               lrint(v));
    }
    volatile double two5 = 2.5;
    check(rint(two5) == 2.0 && round(two5) == 3.0, "rint ties-to-even, round away");

    printf("== special values ==\n");
    double pinf = vd_one / vd_zero;
    double ninf = vd_neg1 / vd_zero;
    double nz = vd_neg1 * vd_zero;
    double dnan = sqrt(vd_neg1);
    double zz = vd_zero / vd_zero;
    pd("1/0", pinf);
    pd("-1/0", ninf);
    pd("-1*0", nz);
    pd("sqrt(-1)", dnan);
    pd("0/0", zz);
    printf("signbit(-0)=%d  -0 == 0: %d\n", signbit(nz) ? 1 : 0, nz == 0.0);
    /* AArch64 generates the default NaN 0x7ff8000000000000 (sign clear);
       x86 SSE would give 0xfff8000000000000. */
    check(dbits(zz) == 0x7ff8000000000000ull, "0/0 is the AArch64 default NaN");
    pd("fmin(NaN,1)", fmin(vd_nan, vd_one));
    pd("fmax(-0,0)", fmax(nz, vd_zero));
    check(fmin(vd_nan, vd_one) == 1.0, "fmin ignores a quiet NaN");
    pd("DBL_TRUE_MIN", vd_tiny);
    pd("DBL_TRUE_MIN/2", vd_tiny / vd_two);
    pd("DBL_MIN/2 subnormal", vd_minnorm / vd_two);
    pd("copysign(3,-0)", copysign(vd_three, nz));

    printf("== rounding modes (FPCR) ==\n");
    static const int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD,
                                FE_TOWARDZERO};
    static const char *const mname[] = {"nearest", "upward", "downward",
                                        "towardzero"};
    double up = 0, down = 0;
    for (int i = 0; i < 4; i++) {
        fesetround(modes[i]);
        double q = vd_one / vd_three;
        double nq = vd_neg1 / vd_three;
        long r = lrint(two5);
        printf("%-10s 1/3=%a -1/3=%a lrint(2.5)=%ld fegetround ok: %d\n",
               mname[i], q, nq, r, fegetround() == modes[i]);
        if (modes[i] == FE_UPWARD)
            up = q;
        if (modes[i] == FE_DOWNWARD)
            down = q;
    }
    fesetround(FE_TONEAREST);
    check(dbits(up) - dbits(down) == 1, "upward and downward 1/3 differ by 1 ulp");

    printf("== exception flags (FPSR) ==\n");
    volatile double r;
    feclearexcept(FE_ALL_EXCEPT);
    print_flags("cleared");
    feclearexcept(FE_ALL_EXCEPT);
    r = vd_one / vd_zero;
    print_flags("1/0");
    check(fetestexcept(FE_ALL_EXCEPT) == FE_DIVBYZERO, "1/0 raises only DIVBYZERO");
    feclearexcept(FE_ALL_EXCEPT);
    r = vd_zero / vd_zero;
    print_flags("0/0");
    feclearexcept(FE_ALL_EXCEPT);
    r = vd_big * vd_ten;
    print_flags("1e308*10");
    check(fetestexcept(FE_OVERFLOW | FE_INEXACT) == (FE_OVERFLOW | FE_INEXACT),
          "overflow raises OVERFLOW|INEXACT");
    feclearexcept(FE_ALL_EXCEPT);
    r = vd_tiny / vd_two;
    print_flags("TRUE_MIN/2");
    feclearexcept(FE_ALL_EXCEPT);
    r = vd_a + vd_b;
    print_flags("0.1+0.2");
    feclearexcept(FE_ALL_EXCEPT);
    r = vd_one + vd_two;
    print_flags("1+2");
    (void)r;

    printf("== libm ==\n");
    pd("exp(1)", exp(vd_one));
    pd("log(10)", log(vd_ten));
    pd("sin(1)", sin(vd_one));
    pd("cos(1)", cos(vd_one));
    pd("pow(2,0.5)", pow(vd_two, 0.5 * vd_one));
    pd("4*atan2(1,1)", 4.0 * atan2(vd_one, vd_one));
    pf("expf(1)", expf((float)vd_one));
    pf("logf(10)", logf((float)vd_ten));

    printf("== long double (binary128, software) ==\n");
    long double l3 = (long double)vd_one / (long double)vd_three;
    printf("%-22s %.36Lg  %La\n", "1/3L", l3, l3);
    long double ls2 = sqrtl((long double)vd_two);
    printf("%-22s %.36Lg  %La\n", "sqrtl(2)", ls2, ls2);
    printf("LDBL_MANT_DIG=%d sizeof(long double)=%zu\n", LDBL_MANT_DIG,
           sizeof(long double));

    printf("%s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
