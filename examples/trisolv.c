/* trisolv: solve L*x = b by forward substitution, L lower triangular n x n.
   Usage: trisolv [N] */
#include "common.h"

EX_NOINLINE void kernel_trisolv(int n, double (*restrict L)[n], double *restrict x,
                                double *restrict b)
{
    int i, j;
    for (i = 0; i < n; i++) {
        double v = b[i];
        for (j = 0; j < i; j++) v -= L[i][j] * x[j];
        x[i] = v / L[i][i];
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 8192), i;
    double (*L)[n] = ex_alloc((size_t)n * n * sizeof(double));
    double *x = ex_alloc(n * sizeof(double)), *b = ex_alloc(n * sizeof(double));
    ex_fill(&L[0][0], n, n, 1); ex_fill(b, 1, n, 2);
    for (i = 0; i < n; i++) L[i][i] += 1.0;
    kernel_trisolv(n, L, x, b);
    ex_print("trisolv", x, (size_t)n);
    return 0;
}
