/* bicg: s = A^T * r and q = A * p, A n x n.  Usage: bicg [N] */
#include "common.h"

EX_NOINLINE void kernel_bicg(int n, double (*restrict A)[n], double *restrict s, double *restrict q,
                             double *restrict p, double *restrict r)
{
    int i, j;
    for (j = 0; j < n; j++) s[j] = 0;
    for (i = 0; i < n; i++) {
        double acc = 0;
        for (j = 0; j < n; j++) {
            s[j] += r[i] * A[i][j];
            acc += A[i][j] * p[j];
        }
        q[i] = acc;
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 8192);
    double *A = ex_alloc((size_t)n * n * sizeof(double));
    double *s = ex_alloc(n * sizeof(double)), *q = ex_alloc(n * sizeof(double));
    double *p = ex_alloc(n * sizeof(double)), *r = ex_alloc(n * sizeof(double));
    ex_fill(A, n, n, 1); ex_fill(p, 1, n, 2); ex_fill(r, 1, n, 3);
    kernel_bicg(n, (double (*)[n])A, s, q, p, r);
    ex_print("bicg-s", s, (size_t)n);
    ex_print("bicg-q", q, (size_t)n);
    return 0;
}
