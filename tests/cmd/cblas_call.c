/* cblas_call: C = A B + C of n x n matrices through the system BLAS's C
   interface, cblas_dgemm, a wrapper that checks its arguments and calls the
   Fortran routine dgemm_ of the same library for the work
   (tests/cmd/test_shared_lib.sh). Usage: cblas_call [N] */
#include <stdio.h>
#include <stdlib.h>

enum { COL_MAJOR = 102, NO_TRANS = 111 };     /* cblas.h's CblasColMajor, CblasNoTrans */
extern void cblas_dgemm(int layout, int transa, int transb, int m, int n, int k, double alpha, const double *a,
                        int lda, const double *b, int ldb, double beta, double *c, int ldc);

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8, i;
    double *a, *b, *c, s = 0;
    if (n < 1 || n > 1024) n = 8;
    a = (double *)malloc((size_t)n * n * sizeof *a);
    b = (double *)malloc((size_t)n * n * sizeof *b);
    c = (double *)calloc((size_t)n * n, sizeof *c);
    if (!a || !b || !c) return 1;
    for (i = 0; i < n * n; i++) {
        a[i] = i % 7;
        b[i] = 1.0 / (i + 1);
    }
    cblas_dgemm(COL_MAJOR, NO_TRANS, NO_TRANS, n, n, n, 1.0, a, n, b, n, 1.0, c, n);
    for (i = 0; i < n * n; i++) s += c[i];
    printf("cblas_call %d %f\n", n, s);
    free(a);
    free(b);
    free(c);
    return 0;
}
