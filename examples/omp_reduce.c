/* omp_reduce: the sum of n doubles, an OpenMP reduction: each thread sums
   its chunk, then the partial sums are combined. Usage: omp_reduce [N];
   OMP_NUM_THREADS sets the threads. */
#include "common.h"

EX_NOINLINE double kernel_omp_reduce(int n, const double *a)
{
    double s = 0;
    int i;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (i = 0; i < n; i++) s += a[i];
    return s;
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 4096, 1 << 26);
    double *a = ex_matrix(1, n, 1);
    printf("omp_reduce %.6e\n", kernel_omp_reduce(n, a));
    return 0;
}
