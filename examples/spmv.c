/* spmv: a CSR sparse matrix-vector product and one conjugate-gradient step
   on the 5-point Laplacian of an n x n grid (the core of HPCG's CG).
   Usage: spmv [N] */
#include "common.h"

typedef struct csr { int rows; int *rowptr; int *col; double *val; } csr;

EX_NOINLINE void kernel_spmv(const csr *restrict A, const double *restrict x, double *restrict y)
{
    int i, k;
    for (i = 0; i < A->rows; i++) {
        double acc = 0;
        for (k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) acc += A->val[k] * x[A->col[k]];
        y[i] = acc;
    }
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0;
    int i;
    for (i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* One CG iteration: q = A p; alpha = rr / (p.q); x += alpha p; r -= alpha q;
   beta = rr' / rr; p = r + beta p. Returns the new rr. */
EX_NOINLINE double kernel_cg_step(const csr *A, double *restrict x, double *restrict r,
                                  double *restrict p, double *restrict q, double rr)
{
    int i, n = A->rows;
    double alpha, beta, rr_new;
    kernel_spmv(A, p, q);
    alpha = rr / dot(n, p, q);
    for (i = 0; i < n; i++) { x[i] += alpha * p[i]; r[i] -= alpha * q[i]; }
    rr_new = dot(n, r, r);
    beta = rr_new / rr;
    for (i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
    return rr_new;
}

int main(int argc, char **argv)
{
    int g = ex_size(argc, argv, 16, 2048), n = g * g, i, j, nnz = 0, it;
    csr A;
    double *x, *r, *p, *q, rr;
    A.rows = n;
    A.rowptr = ex_alloc((size_t)(n + 1) * sizeof(int));
    A.col = ex_alloc((size_t)5 * n * sizeof(int));
    A.val = ex_alloc((size_t)5 * n * sizeof(double));
    for (i = 0; i < g; i++)
        for (j = 0; j < g; j++) {
            int row = i * g + j;
            A.rowptr[row] = nnz;
            if (i > 0) { A.col[nnz] = row - g; A.val[nnz++] = -1; }
            if (j > 0) { A.col[nnz] = row - 1; A.val[nnz++] = -1; }
            A.col[nnz] = row; A.val[nnz++] = 4;
            if (j < g - 1) { A.col[nnz] = row + 1; A.val[nnz++] = -1; }
            if (i < g - 1) { A.col[nnz] = row + g; A.val[nnz++] = -1; }
        }
    A.rowptr[n] = nnz;
    x = ex_alloc(n * sizeof(double)); r = ex_alloc(n * sizeof(double));
    p = ex_alloc(n * sizeof(double)); q = ex_alloc(n * sizeof(double));
    ex_fill(r, 1, n, 1);        /* x = 0, so r = b */
    for (i = 0; i < n; i++) p[i] = r[i];
    rr = dot(n, r, r);
    for (it = 0; it < 3; it++) rr = kernel_cg_step(&A, x, r, p, q, rr);
    printf("cg residual %.6e\n", rr);
    ex_print("cg-x", x, (size_t)n);
    return 0;
}
