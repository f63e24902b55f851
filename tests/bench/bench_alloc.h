/* tests/bench/bench_alloc.h - the engine's allocations counted, for the
   benchmarks that report its peak: bench_alloc_hooks(&opts.allocator)
   routes them through malloc with a size header; bench_alloc_peak is the
   most bytes live at once. Included after edan.h by one file. */
#ifndef BENCH_ALLOC_H
#define BENCH_ALLOC_H
#include <stdlib.h>
#include <string.h>

static size_t bench_alloc_live, bench_alloc_peak;

static void *bench_alloc(size_t n, void *u)
{
    size_t *p = (size_t *)malloc(n + 16);
    (void)u;
    if (!p) return NULL;
    p[0] = n;
    if ((bench_alloc_live += n) > bench_alloc_peak) bench_alloc_peak = bench_alloc_live;
    return p + 2;
}

static void bench_free(void *q, void *u)
{
    (void)u;
    if (q) {
        bench_alloc_live -= ((size_t *)q)[-2];
        free((size_t *)q - 2);
    }
}

static void *bench_realloc(void *q, size_t n, void *u)
{
    void *r = bench_alloc(n, u);
    if (r && q) {
        size_t old = ((size_t *)q)[-2];
        memcpy(r, q, old < n ? old : n);
        bench_free(q, u);
    }
    return r;
}

static void bench_alloc_hooks(edan_allocator *a)
{
    a->alloc = bench_alloc;
    a->realloc = bench_realloc;
    a->free = bench_free;
}
#endif
