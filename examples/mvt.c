/* mvt: x1 += A*y1 and x2 += A^T*y2, A n x n.  Usage: mvt [N] */
#include "common.h"

EX_NOINLINE void kernel_mvt(int n, double (*restrict A)[n], double *restrict x1, double *restrict x2,
                            double *restrict y1, double *restrict y2)
{
    int i, j;
    for (i = 0; i < n; i++) {
        double acc = x1[i];
        for (j = 0; j < n; j++) acc += A[i][j] * y1[j];
        x1[i] = acc;
    }
    for (i = 0; i < n; i++) {
        double acc = x2[i];
        for (j = 0; j < n; j++) acc += A[j][i] * y2[j];
        x2[i] = acc;
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 8192);
    double *A = ex_alloc((size_t)n * n * sizeof(double));
    double *x1 = ex_alloc(n * sizeof(double)), *x2 = ex_alloc(n * sizeof(double));
    double *y1 = ex_alloc(n * sizeof(double)), *y2 = ex_alloc(n * sizeof(double));
    ex_fill(A, n, n, 1); ex_fill(y1, 1, n, 2); ex_fill(y2, 1, n, 3);
    kernel_mvt(n, (double (*)[n])A, x1, x2, y1, y2);
    ex_print("mvt-x1", x1, (size_t)n);
    ex_print("mvt-x2", x2, (size_t)n);
    return 0;
}
