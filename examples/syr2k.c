/* syr2k: C = alpha*A*B^T + alpha*B*A^T + beta*C on the lower triangle of C;
   n x n.  Usage: syr2k [N] */
#include "common.h"

EX_NOINLINE void kernel_syr2k(int n, double alpha, double beta, double (*restrict C)[n],
                              double (*restrict A)[n], double (*restrict B)[n])
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            double acc = 0;
            for (k = 0; k < n; k++) acc += A[i][k] * B[j][k] + B[i][k] * A[j][k];
            C[i][j] = beta * C[i][j] + alpha * acc;
        }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096);
    double *A = ex_matrix(n, n, 1), *B = ex_matrix(n, n, 2), *C = ex_matrix(n, n, 3);
    kernel_syr2k(n, 1.5, 1.2, (double (*)[n])C, (double (*)[n])A, (double (*)[n])B);
    ex_print("syr2k", C, (size_t)n * n);
    return 0;
}
