/* gesummv: y = alpha*A*x + beta*B*x, A and B n x n.  Usage: gesummv [N] */
#include "common.h"

EX_NOINLINE void kernel_gesummv(int n, double alpha, double beta, double (*restrict A)[n],
                                double (*restrict B)[n], double *restrict x, double *restrict y)
{
    int i, j;
    for (i = 0; i < n; i++) {
        double a = 0, b = 0;
        for (j = 0; j < n; j++) {
            a += A[i][j] * x[j];
            b += B[i][j] * x[j];
        }
        y[i] = alpha * a + beta * b;
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 8192);
    double *A = ex_alloc((size_t)n * n * sizeof(double)), *B = ex_alloc((size_t)n * n * sizeof(double));
    double *x = ex_alloc(n * sizeof(double)), *y = ex_alloc(n * sizeof(double));
    ex_fill(A, n, n, 1); ex_fill(B, n, n, 2); ex_fill(x, 1, n, 3);
    kernel_gesummv(n, 1.5, 1.2, (double (*)[n])A, (double (*)[n])B, x, y);
    ex_print("gesummv", y, (size_t)n);
    return 0;
}
