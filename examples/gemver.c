/* gemver: A += u1*v1^T + u2*v2^T; x += beta*A^T*y + z; w += alpha*A*x.
   Usage: gemver [N] */
#include "common.h"

EX_NOINLINE void kernel_gemver(int n, double alpha, double beta, double (*restrict A)[n],
                               double *restrict u1, double *restrict v1, double *restrict u2,
                               double *restrict v2, double *restrict w, double *restrict x,
                               double *restrict y, double *restrict z)
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) A[i][j] += u1[i] * v1[j] + u2[i] * v2[j];
    for (i = 0; i < n; i++) {
        double acc = x[i];
        for (j = 0; j < n; j++) acc += beta * A[j][i] * y[j];
        x[i] = acc + z[i];
    }
    for (i = 0; i < n; i++) {
        double acc = w[i];
        for (j = 0; j < n; j++) acc += alpha * A[i][j] * x[j];
        w[i] = acc;
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 8192), k;
    double *A = ex_alloc((size_t)n * n * sizeof(double)), *v[8];
    for (k = 0; k < 8; k++) { v[k] = ex_alloc(n * sizeof(double)); ex_fill(v[k], 1, n, k + 2); }
    ex_fill(A, n, n, 1);
    kernel_gemver(n, 1.5, 1.2, (double (*)[n])A, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    ex_print("gemver", v[4], (size_t)n);
    return 0;
}
