/* 3mm: G = (A*B)*(C*D), all n x n.  Usage: 3mm [N] */
#include "common.h"

static void matmul(int n, double (*restrict X)[n], double (*restrict P)[n], double (*restrict Q)[n])
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double acc = 0;
            for (k = 0; k < n; k++) acc += P[i][k] * Q[k][j];
            X[i][j] = acc;
        }
}

EX_NOINLINE void kernel_3mm(int n, double (*restrict E)[n], double (*restrict F)[n],
                            double (*restrict G)[n], double (*restrict A)[n], double (*restrict B)[n],
                            double (*restrict C)[n], double (*restrict D)[n])
{
    matmul(n, E, A, B);
    matmul(n, F, C, D);
    matmul(n, G, E, F);
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096);
    size_t sz = (size_t)n * n * sizeof(double);
    double *A = ex_alloc(sz), *B = ex_alloc(sz), *C = ex_alloc(sz), *D = ex_alloc(sz);
    double *E = ex_alloc(sz), *F = ex_alloc(sz), *G = ex_alloc(sz);
    ex_fill(A, n, n, 1); ex_fill(B, n, n, 2); ex_fill(C, n, n, 3); ex_fill(D, n, n, 4);
    kernel_3mm(n, (double (*)[n])E, (double (*)[n])F, (double (*)[n])G, (double (*)[n])A,
               (double (*)[n])B, (double (*)[n])C, (double (*)[n])D);
    ex_print("3mm", G, (size_t)n * n);
    return 0;
}
