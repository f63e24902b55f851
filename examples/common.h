/* examples/common.h - what the example kernels share: the problem size from
   the command line, deterministic inputs and a checksum, so that the kernels'
   results are used (the compiler cannot drop them) and can be compared. */
#ifndef EDAN_EXAMPLES_COMMON_H
#define EDAN_EXAMPLES_COMMON_H
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* posix_memalign */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EX_NOINLINE __attribute__((noinline))

/* An OpenMP parallel for (static schedule: thread t takes the t-th chunk)
   with the clauses given, when built with -fopenmp (build/.../omp_NAME);
   nothing otherwise, so that the serial build is the same code. */
#define EX_PRAGMA(x) _Pragma(#x)
#ifdef _OPENMP
#define EX_OMP_FOR(...) EX_PRAGMA(omp parallel for schedule(static) __VA_ARGS__)
#else
#define EX_OMP_FOR(...)
#endif

/* argv[1] as the problem size (default def), 1..max. */
static inline int ex_size(int argc, char **argv, int def, int max)
{
    char *end;
    long n;
    if (argc < 2) return def;
    n = strtol(argv[1], &end, 10);
    if (*end || n < 1 || n > max) {
        fprintf(stderr, "%s: problem size must be an integer in 1..%d, not '%s'\n", argv[0], max, argv[1]);
        exit(2);
    }
    return (int)n;
}

static inline void *ex_alloc(size_t bytes)
{
    /* page-aligned: where an array falls in a cache's sets is then the same
       on every run and build, whatever was allocated before it */
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : 1)) { fprintf(stderr, "out of memory\n"); exit(2); }
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

/* Inputs in [0, 1), the same on every run. */
static inline double ex_val(int i, int j, int n)
{
    return (double)((i * 7 + j * 13 + 1) % (n + 3)) / (double)(n + 3);
}

static inline void ex_fill(double *a, int rows, int cols, int salt)
{
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) a[(size_t)i * cols + j] = ex_val(i + salt, j, cols);
}

/* A rows x cols matrix of ex_fill's inputs, in its own pages. */
static inline double *ex_matrix(int rows, int cols, int salt)
{
    double *a = (double *)ex_alloc((size_t)rows * cols * sizeof(double));
    ex_fill(a, rows, cols, salt);
    return a;
}

/* A node of a linked list, and the pointer-chasing pattern: the list's n
   nodes linked in a random order (Fisher-Yates with xorshift from `seed`),
   node i holding its position in `val`; order[] is scratch. The head. */
struct ex_node { struct ex_node *next; long val; };

static inline struct ex_node *ex_link_nodes(struct ex_node *nodes, int *order, int n, unsigned long long seed)
{
    int i;
    for (i = 0; i < n; i++) order[i] = i;
    for (i = n - 1; i > 0; i--) {
        int j, t;
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
        j = (int)(seed % (unsigned long long)(i + 1));
        t = order[i]; order[i] = order[j]; order[j] = t;
    }
    for (i = 0; i < n; i++) {
        nodes[order[i]].val = i;
        nodes[order[i]].next = i + 1 < n ? &nodes[order[i + 1]] : NULL;
    }
    return &nodes[order[0]];
}

static inline void ex_print(const char *name, const double *a, size_t count)
{
    double s = 0;
    size_t i;
    for (i = 0; i < count; i++) s += a[i] * (double)(i % 7 + 1);
    printf("%s checksum %.6e\n", name, s);
}
#endif
