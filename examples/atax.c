/* atax: y = A^T * (A * x), A n x n.  Usage: atax [N] */
#include "common.h"

EX_NOINLINE void kernel_atax(int n, double (*restrict A)[n], double *restrict x,
                             double *restrict y, double *restrict tmp)
{
    int i, j;
    for (j = 0; j < n; j++) y[j] = 0;
    for (i = 0; i < n; i++) {
        double t = 0;
        for (j = 0; j < n; j++) t += A[i][j] * x[j];
        tmp[i] = t;
        for (j = 0; j < n; j++) y[j] += A[i][j] * t;
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 8192);
    double *A = ex_alloc((size_t)n * n * sizeof(double));
    double *x = ex_alloc(n * sizeof(double)), *y = ex_alloc(n * sizeof(double)), *t = ex_alloc(n * sizeof(double));
    ex_fill(A, n, n, 1); ex_fill(x, 1, n, 2);
    kernel_atax(n, (double (*)[n])A, x, y, t);
    ex_print("atax", y, (size_t)n);
    return 0;
}
