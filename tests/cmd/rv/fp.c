/* Floating-point coverage for the decoder differential test: arithmetic,
   fused multiply-add, sqrt, min/max, sign injection, conversions, compares,
   classification and the rounding-mode / exception-flag CSRs. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
static double xd[N], yd[N];
static float xf[N], yf[N];

__attribute__((noinline)) static double kernel_d(int n, double a)
{
    double s = 0, m = -1e300, lo = 1e300;
    for (int i = 0; i < n; i++) {
        double v = fma(a, xd[i], yd[i]);
        s += v * v - xd[i] / (yd[i] + 1.0);
        s -= fma(-a, v, s) * 1e-9;
        m = fmax(m, v);
        lo = fmin(lo, v);
        s += sqrt(fabs(v)) + copysign(1.0, -v);
        s += -(-v) * 0.5;
        if (v < s || v <= m || v == lo || isnan(v) || isinf(v)) s += 1;
    }
    return s + m + lo;
}

__attribute__((noinline)) static float kernel_f(int n, float a)
{
    float s = 0, m = -1e30f, lo = 1e30f;
    for (int i = 0; i < n; i++) {
        float v = fmaf(a, xf[i], yf[i]);
        s += v * v - xf[i] / (yf[i] + 1.0f);
        s -= fmaf(-a, v, -s) * 1e-3f;
        m = fmaxf(m, v);
        lo = fminf(lo, v);
        s += sqrtf(fabsf(v)) + copysignf(1.0f, -v);
        if (v < s || v <= m || v == lo || isnan(v)) s += 1;
    }
    return s + m + lo;
}

__attribute__((noinline)) static long conversions(int n)
{
    long acc = 0;
    for (int i = 0; i < n; i++) {
        double d = xd[i] * 1000;
        float f = xf[i] * 100;
        acc += (long)d + (int)d + (long)(unsigned long)fabs(d) + (unsigned)fabs(d);
        acc += (long)f + (int)f + (unsigned)fabsf(f) + (unsigned long)fabsf(f);
        acc += (long)lround(d) + (long)lrintf(f) + (long)floor(d) + (long)ceilf(f);
        xd[i] = (double)acc + (double)(unsigned)i + (double)(unsigned long)acc + (float)(long)i;
        xf[i] = (float)(int)acc + (float)(unsigned)acc + (float)(unsigned long)i + (float)d;
        union { double d; long l; } u = { d };
        union { float f; int i; } w = { f };
        acc ^= u.l ^ w.i;
        u.l ^= 1;
        w.i ^= 2;
        yd[i] = u.d;
        yf[i] = w.f;
    }
    return acc;
}

__attribute__((noinline)) static int fenv_use(double v)
{
    int r = 0;
    fesetround(FE_TOWARDZERO);
    r += (int)rint(v);
    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
    volatile double z = 0.0;
    v = v / z;
    if (fetestexcept(FE_DIVBYZERO)) r++;
    fenv_t env;
    fegetenv(&env);
    fesetenv(&env);
    return r + fegetround();
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : N;
    if (n > N) n = N;
    for (int i = 0; i < N; i++) {
        xd[i] = i * 0.25 - 3;
        yd[i] = 1.0 / (i + 1);
        xf[i] = (float)xd[i];
        yf[i] = (float)yd[i];
    }
    double r = kernel_d(n, 1.5) + kernel_f(n, 0.5f) + (double)conversions(n) + fenv_use(3.7);
    printf("%g\n", r);
    return 0;
}
