/* cholesky: in-place A = L * L^T of a symmetric positive definite n x n
   matrix (L in the lower triangle).  Usage: cholesky [N] */
#include "common.h"
#include <math.h>

EX_NOINLINE void kernel_cholesky(int n, double (*restrict A)[n])
{
    int i, j, k;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            double v = A[i][j];
            for (k = 0; k < j; k++) v -= A[i][k] * A[j][k];
            A[i][j] = v / A[j][j];
        }
        {
            double d = A[i][i];
            for (k = 0; k < i; k++) d -= A[i][k] * A[i][k];
            A[i][i] = sqrt(d);
        }
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096), i, j;
    double (*A)[n] = ex_alloc((size_t)n * n * sizeof(double));
    /* diagonally dominant, symmetric: positive definite */
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) A[i][j] = A[j][i] = i == j ? n + 1.0 : ex_val(i, j, n);
    kernel_cholesky(n, A);
    ex_print("cholesky", &A[0][0], (size_t)n * n);
    return 0;
}
