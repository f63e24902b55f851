/* mpi_stencil: a 1-D three-point stencil over N cells per rank, the ranks'
   edges exchanged as halo cells (MPI_Sendrecv) before each of T sweeps.
   Usage: mpirun -np R mpi_stencil [N [T]]
   kernel_stencil updates cells lo .. hi-1 of a rank's block, each from its
   two neighbours: two loads and a store a cell. The job's boundary cells
   (the first of rank 0, the last of the last rank) stay fixed, so an edge
   rank updates N - 1 cells and an interior one N: the ranks differ by
   their halos. */
#include <mpi.h>
#include "common.h"

EX_NOINLINE void kernel_stencil(const double *in, double *out, int lo, int hi)
{
    int i;
    for (i = lo; i < hi; i++) out[i] = 0.5 * (in[i - 1] + in[i + 1]);
}

int main(int argc, char **argv)
{
    int rank, size, n, t, sweeps, i, left, right;
    double *a, *b, *tmp, local = 0, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    n = ex_size(argc, argv, 64, 1 << 24);
    sweeps = argc > 2 ? ex_size(argc - 1, argv + 1, 4, 1 << 20) : 4;
    /* cells 1 .. n are the rank's, 0 and n + 1 its halos */
    a = ex_alloc((size_t)(n + 2) * sizeof *a);
    b = ex_alloc((size_t)(n + 2) * sizeof *b);
    for (i = 1; i <= n; i++) a[i] = b[i] = ex_val(rank, i, n);
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    for (t = 0; t < sweeps; t++) {
        MPI_Sendrecv(&a[1], 1, MPI_DOUBLE, left, 0, &a[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&a[n], 1, MPI_DOUBLE, right, 1, &a[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        kernel_stencil(a, b, rank == 0 ? 2 : 1, rank == size - 1 ? n : n + 1);
        if (rank == 0) b[1] = a[1];
        if (rank == size - 1) b[n] = a[n];
        tmp = a;
        a = b;
        b = tmp;
    }
    for (i = 1; i <= n; i++) local += a[i];
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("mpi_stencil checksum %.6e\n", total);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
