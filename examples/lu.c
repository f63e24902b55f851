/* lu: in-place LU decomposition without pivoting (L unit lower, U upper)
   of a diagonally dominant n x n matrix.  Usage: lu [N] */
#include "common.h"

EX_NOINLINE void kernel_lu(int n, double (*restrict A)[n])
{
    int i, j, k;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            double v = A[i][j];
            for (k = 0; k < j; k++) v -= A[i][k] * A[k][j];
            A[i][j] = v / A[j][j];
        }
        for (j = i; j < n; j++) {
            double v = A[i][j];
            for (k = 0; k < i; k++) v -= A[i][k] * A[k][j];
            A[i][j] = v;
        }
    }
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 32, 4096), i;
    double (*A)[n] = ex_alloc((size_t)n * n * sizeof(double));
    ex_fill(&A[0][0], n, n, 1);
    for (i = 0; i < n; i++) A[i][i] += n;
    kernel_lu(n, A);
    ex_print("lu", &A[0][0], (size_t)n * n);
    return 0;
}
