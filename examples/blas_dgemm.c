/* blas_dgemm: C = A x B + C of n x n matrices (column-major, as Fortran
   stores them) by the system BLAS's dgemm_: the kernel lives in a shared
   library, libblas.so.3 (Debian's reference BLAS, libblas3, or OpenBLAS,
   libopenblas0, when the alternatives or LD_LIBRARY_PATH pick it).
   Usage: blas_dgemm [N [K]]   (C is N x N, the inner dimension K, default N)
   edan trace --func dgemm_ -- blas_dgemm 16 analyses the library's routine.
   The reference dgemm_ with alpha = beta = 1 runs the loop nest
       do j = 1, n; do l = 1, k; temp = alpha * b(l, j)
         do i = 1, n; c(i, j) = c(i, j) + temp * a(i, l)
   a load of b per (j, l), and a load of a, a load and a store of c per (i, j, l). */
#include <stddef.h>
#include "common.h"

/* gfortran's calling convention: every argument by reference, then the
   lengths of the character arguments */
extern void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
                   const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
                   const double *beta, double *c, const int *ldc, size_t transa_len, size_t transb_len);

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 64, 4096), k = argc > 2 ? ex_size(argc - 1, argv + 1, n, 4096) : n, i;
    const double one = 1.0;
    double *a = ex_matrix(k, n, 1), *b = ex_matrix(n, k, 2), *c = ex_matrix(n, n, 3), sum = 0;
    dgemm_("N", "N", &n, &n, &k, &one, a, &n, b, &k, &one, c, &n, 1, 1);
    for (i = 0; i < n * n; i++) sum += c[i];
    printf("blas_dgemm %d %d %f\n", n, k, sum);
    free(a);
    free(b);
    free(c);
    return 0;
}
