/* gemm: C = alpha*A*B + beta*C, n x n.  Usage: gemm [N]
   Built with OpenMP as omp_gemm: the rows of C shared among the threads
   (OMP_NUM_THREADS). */
#include "common.h"

EX_NOINLINE void kernel_gemm(int n, double alpha, double beta, double (*restrict C)[n],
                             double (*restrict A)[n], double (*restrict B)[n])
{
    int i, j, k;
    EX_OMP_FOR(private(j, k))
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double acc = C[i][j] * beta;
            for (k = 0; k < n; k++) acc += alpha * A[i][k] * B[k][j];
            C[i][j] = acc;
        }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096);
    double *A = ex_matrix(n, n, 1), *B = ex_matrix(n, n, 2), *C = ex_matrix(n, n, 3);
    kernel_gemm(n, 1.5, 1.2, (double (*)[n])C, (double (*)[n])A, (double (*)[n])B);
    ex_print("gemm", C, (size_t)n * n);
    return 0;
}
