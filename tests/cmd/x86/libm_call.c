/* tests/cmd/x86/libm_call.c - a dynamically linked program whose traced
   function calls libm (exp) and whose main calls printf: for
   test_trace_x86.sh. kernel's own loads are n (a[i]) plus its return. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double kernel(const double *a, int n)
{
    double s = 0;
    int i;
    for (i = 0; i < n; i++) s += exp(a[i]);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100, i;
    double *a = malloc((size_t)n * sizeof *a);
    if (!a) return 1;
    for (i = 0; i < n; i++) a[i] = i * 0.001;
    printf("libm_call %.6f\n", kernel(a, n));
    free(a);
    return 0;
}
