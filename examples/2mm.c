/* 2mm: D = alpha*A*B*C + beta*D, all n x n.  Usage: 2mm [N] */
#include "common.h"

EX_NOINLINE void kernel_2mm(int n, double alpha, double beta, double (*restrict tmp)[n],
                            double (*restrict A)[n], double (*restrict B)[n],
                            double (*restrict C)[n], double (*restrict D)[n])
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double acc = 0;
            for (k = 0; k < n; k++) acc += alpha * A[i][k] * B[k][j];
            tmp[i][j] = acc;
        }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double acc = D[i][j] * beta;
            for (k = 0; k < n; k++) acc += tmp[i][k] * C[k][j];
            D[i][j] = acc;
        }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096);
    size_t sz = (size_t)n * n * sizeof(double);
    double *T = ex_alloc(sz), *A = ex_alloc(sz), *B = ex_alloc(sz), *C = ex_alloc(sz), *D = ex_alloc(sz);
    ex_fill(A, n, n, 1); ex_fill(B, n, n, 2); ex_fill(C, n, n, 3); ex_fill(D, n, n, 4);
    kernel_2mm(n, 1.5, 1.2, (double (*)[n])T, (double (*)[n])A, (double (*)[n])B,
               (double (*)[n])C, (double (*)[n])D);
    ex_print("2mm", D, (size_t)n * n);
    return 0;
}
