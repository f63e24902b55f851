/* doitgen: for every (r, q): A[r][q][:] = A[r][q][:] * C4, sizes n.
   Usage: doitgen [N] */
#include "common.h"

EX_NOINLINE void kernel_doitgen(int n, double (*restrict A)[n][n], double (*restrict C4)[n],
                                double *restrict sum)
{
    int r, q, p, s;
    for (r = 0; r < n; r++)
        for (q = 0; q < n; q++) {
            for (p = 0; p < n; p++) {
                double acc = 0;
                for (s = 0; s < n; s++) acc += A[r][q][s] * C4[s][p];
                sum[p] = acc;
            }
            for (p = 0; p < n; p++) A[r][q][p] = sum[p];
        }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 16, 512);
    double *A = ex_alloc((size_t)n * n * n * sizeof(double));
    double *C4 = ex_alloc((size_t)n * n * sizeof(double)), *sum = ex_alloc(n * sizeof(double));
    ex_fill(A, n * n, n, 1); ex_fill(C4, n, n, 2);
    kernel_doitgen(n, (double (*)[n][n])A, (double (*)[n])C4, sum);
    ex_print("doitgen", A, (size_t)n * n * n);
    return 0;
}
