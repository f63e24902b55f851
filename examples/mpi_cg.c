/* mpi_cg: conjugate gradient for the 1-D Laplacian (2 on the diagonal, -1
   beside it) on N unknowns per rank, the ranks' edges exchanged as halo
   cells before each product with the matrix, the vector operations shared
   among OpenMP threads (OMP_NUM_THREADS) inside each rank.
   Usage: mpirun -np R mpi_cg [N [ITERATIONS]] */
#include <mpi.h>
#include "common.h"

/* q = A p on the rank's cells 1 .. n (p's halos 0 and n + 1 filled) */
EX_NOINLINE void kernel_matvec(const double *p, double *q, int n)
{
    int i;
#pragma omp parallel for schedule(static)
    for (i = 1; i <= n; i++) q[i] = 2.0 * p[i] - p[i - 1] - p[i + 1];
}

EX_NOINLINE double kernel_dot(const double *x, const double *y, int n)
{
    double s = 0;
    int i;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (i = 1; i <= n; i++) s += x[i] * y[i];
    return s;
}

/* y += a x */
EX_NOINLINE void kernel_axpy(double a, const double *x, double *y, int n)
{
    int i;
#pragma omp parallel for schedule(static)
    for (i = 1; i <= n; i++) y[i] += a * x[i];
}

static void halo(double *v, int n, int left, int right)
{
    MPI_Sendrecv(&v[1], 1, MPI_DOUBLE, left, 0, &v[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&v[n], 1, MPI_DOUBLE, right, 1, &v[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static double dot_all(const double *x, const double *y, int n)
{
    double local = kernel_dot(x, y, n), all = 0;
    MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

int main(int argc, char **argv)
{
    int rank, size, n, iters, k, i, left, right;
    double *x, *r, *p, *q, rr, alpha, beta, rr_new;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    n = ex_size(argc, argv, 256, 1 << 24);
    iters = argc > 2 ? ex_size(argc - 1, argv + 1, 10, 1 << 20) : 10;
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    x = ex_alloc((size_t)(n + 2) * sizeof *x);
    r = ex_alloc((size_t)(n + 2) * sizeof *r);
    p = ex_alloc((size_t)(n + 2) * sizeof *p);
    q = ex_alloc((size_t)(n + 2) * sizeof *q);
    for (i = 1; i <= n; i++) r[i] = p[i] = 1.0 + ex_val(rank, i, n);    /* b, with x = 0 */
    rr = dot_all(r, r, n);
    for (k = 0; k < iters && rr > 1e-30; k++) {
        halo(p, n, left, right);
        kernel_matvec(p, q, n);
        alpha = rr / dot_all(p, q, n);
        kernel_axpy(alpha, p, x, n);
        kernel_axpy(-alpha, q, r, n);
        rr_new = dot_all(r, r, n);
        beta = rr_new / rr;
        for (i = 1; i <= n; i++) p[i] = r[i] + beta * p[i];
        rr = rr_new;
    }
    if (rank == 0) printf("mpi_cg residual %.6e after %d iterations\n", rr, k);
    free(x);
    free(r);
    free(p);
    free(q);
    MPI_Finalize();
    return 0;
}
