/* trmm: B = alpha * A^T * B with A unit lower triangular; n x n.
   Usage: trmm [N] */
#include "common.h"

EX_NOINLINE void kernel_trmm(int n, double alpha, double (*restrict A)[n], double (*restrict B)[n])
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            for (k = i + 1; k < n; k++) B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096);
    double *A = ex_matrix(n, n, 1), *B = ex_matrix(n, n, 2);
    kernel_trmm(n, 1.5, (double (*)[n])A, (double (*)[n])B);
    ex_print("trmm", B, (size_t)n * n);
    return 0;
}
