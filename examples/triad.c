/* triad: the STREAM triad a[i] = b[i] + s*c[i] over n doubles, repeated
   `reps` times.  Usage: triad [N [REPS]]
   Built with OpenMP as omp_triad: a parallel for (OMP_NUM_THREADS). */
#include "common.h"

EX_NOINLINE void kernel_triad(int n, double *restrict a, const double *restrict b,
                              const double *restrict c, double s)
{
    int i;
    EX_OMP_FOR()
    for (i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 1024, 1 << 26), reps = 1, r;
    double *a, *b, *c;
    if (argc > 2) reps = ex_size(argc - 1, argv + 1, 1, 1 << 20);
    a = ex_alloc((size_t)n * sizeof(double));
    b = ex_alloc((size_t)n * sizeof(double));
    c = ex_alloc((size_t)n * sizeof(double));
    ex_fill(b, 1, n, 1); ex_fill(c, 1, n, 2);
    for (r = 0; r < reps; r++) kernel_triad(n, a, b, c, 3.0 + r);
    ex_print("triad", a, (size_t)n);
    return 0;
}
