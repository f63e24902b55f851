/* symm: C = alpha*A*B + beta*C with A symmetric, only its lower triangle
   read; A, B, C n x n.  Usage: symm [N] */
#include "common.h"

EX_NOINLINE void kernel_symm(int n, double alpha, double beta, double (*restrict C)[n],
                             double (*restrict A)[n], double (*restrict B)[n])
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double acc = 0;
            for (k = 0; k < n; k++) acc += (k <= i ? A[i][k] : A[k][i]) * B[k][j];
            C[i][j] = beta * C[i][j] + alpha * acc;
        }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096);
    double *A = ex_matrix(n, n, 1), *B = ex_matrix(n, n, 2), *C = ex_matrix(n, n, 3);
    kernel_symm(n, 1.5, 1.2, (double (*)[n])C, (double (*)[n])A, (double (*)[n])B);
    ex_print("symm", C, (size_t)n * n);
    return 0;
}
