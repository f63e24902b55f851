/* probes/chase.c - latency and memory-level parallelism by pointer chasing,
   and the two clocks (core clock from a dependent-add chain, TSC). */
#include "probe.h"
#include "sattolo.h"
#include <stdlib.h>
#include <string.h>

/* The chases continue where the previous call stopped, so repetitions do
   not revisit lines they have just brought into the caches. The probe
   chases one buffer at a time from one thread; this state is the
   program's. */
#define CHASE_MARKS 64
typedef struct chase_state {
    char *buf;
    size_t bytes;
    int k;
    char *p[32];
    char *built;                /* buffer whose marks are known */
    size_t built_bytes;
    size_t mark[CHASE_MARKS];   /* line at cycle position i * n / CHASE_MARKS */
} chase_state;
static chase_state chase_cur;

/* Each line's first word points to the next line of one random cycle
   (probe_cycle_order: uniform over single cycles, as Sattolo's algorithm),
   so every load depends on the previous one and all lines are visited once
   per lap in an order the prefetchers cannot guess. */
void probe_chase_build(char *buf, size_t bytes, size_t stride, uint64_t seed, int with_marks)
{
    size_t n = bytes / stride, i;
    size_t *order = (size_t *)malloc((n ? n : 1) * sizeof *order);
    chase_cur.buf = NULL;
    chase_cur.built = NULL;
    if (!order) {     /* fall back to a sequential cycle rather than crash */
        for (i = 0; i < n; i++) *(char **)(buf + i * stride) = buf + ((i + 1) % n) * stride;
        return;
    }
    probe_cycle_order(order, n, seed);
    for (i = 0; i + 1 < n; i++) *(char **)(buf + order[i] * stride) = buf + order[i + 1] * stride;
    if (n) *(char **)(buf + order[n - 1] * stride) = buf + order[0] * stride;
    /* evenly spaced positions along the cycle, for interleaved chases */
    if (with_marks && n >= CHASE_MARKS) {
        size_t gap = n / CHASE_MARKS;
        for (i = 0; i < CHASE_MARKS; i++) chase_cur.mark[i] = order[i * gap];
        chase_cur.built = buf;
        chase_cur.built_bytes = bytes;
    }
    free(order);
}

static void chase_reset(char *buf, size_t bytes, size_t stride, int k)
{
    size_t n = bytes / stride;
    int j;
    chase_cur.buf = buf;
    chase_cur.bytes = bytes;
    chase_cur.k = k;
    /* starts evenly spaced along the one cycle: chases advancing in lock
       step keep their distance (about n/k lines), so none reaches lines
       another one has just brought into the caches */
    for (j = 0; j < k; j++) {
        size_t line = (size_t)((double)j * (double)n / k);
        if (chase_cur.built == buf && chase_cur.built_bytes == bytes)
            line = chase_cur.mark[j * CHASE_MARKS / k];
        chase_cur.p[j] = buf + line * stride;
    }
}

void probe_chase_two(char *buf, size_t bytes, size_t stride, char **p, char **q)
{
    chase_reset(buf, bytes, stride, 2);
    *p = chase_cur.p[0];
    *q = chase_cur.p[1];
    chase_cur.buf = NULL;       /* the next probe_chase_run starts afresh */
}

/* K chains in one loop; K is a compile-time constant so the pointers live
   in registers. */
#define CHASE_K(K)                                                     \
    static void chase_##K(char *p0[], long steps)                      \
    {                                                                  \
        char *p[K];                                                    \
        long s;                                                        \
        int j;                                                         \
        for (j = 0; j < K; j++) p[j] = p0[j];                          \
        for (s = 0; s < steps; s++)                                    \
            for (j = 0; j < K; j++) p[j] = *(char **)p[j];             \
        for (j = 0; j < K; j++) p0[j] = p[j];                          \
    }
CHASE_K(1) CHASE_K(2) CHASE_K(3) CHASE_K(4) CHASE_K(5) CHASE_K(6) CHASE_K(7) CHASE_K(8)

/* Beyond 8 chains the array lives in L1; its extra store-to-load delay is
   a few cycles against a DRAM latency of hundreds. */
static void chase_many(char *p[], int k, long steps)
{
    long s;
    int j;
    for (s = 0; s < steps; s++)
        for (j = 0; j < k; j++) p[j] = *(char **)p[j];
}

double probe_chase_run(char *buf, size_t bytes, size_t stride, int k, long steps)
{
    double t0, t1;
    if (k < 1) k = 1;
    if (k > 32) k = 32;
    if (chase_cur.buf != buf || chase_cur.bytes != bytes || chase_cur.k != k) chase_reset(buf, bytes, stride, k);
    t0 = probe_now();
    switch (k) {
    case 1: chase_1(chase_cur.p, steps); break;
    case 2: chase_2(chase_cur.p, steps); break;
    case 3: chase_3(chase_cur.p, steps); break;
    case 4: chase_4(chase_cur.p, steps); break;
    case 5: chase_5(chase_cur.p, steps); break;
    case 6: chase_6(chase_cur.p, steps); break;
    case 7: chase_7(chase_cur.p, steps); break;
    case 8: chase_8(chase_cur.p, steps); break;
    default: chase_many(chase_cur.p, k, steps); break;
    }
    t1 = probe_now();
    return t1 - t0;
}

/* 100 dependent adds of a register per iteration: one per cycle on every
   x86 core since the P6, so adds/second is the core clock; the loop's own
   counter and branch run in parallel on other ports. Not adds of an
   immediate: cores since Golden Cove fold chains of those at rename (about
   3 a cycle), which read as a clock three times too fast. */
static long add_chain(long iters)
{
    long x = 0, one = 1, i;
    for (i = 0; i < iters; i++)
        __asm__ volatile(".rept 100\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
    return x;
}

double probe_core_ghz(double seconds)
{
    long iters = 10000, x;
    double t0, t;
    add_chain(iters);   /* warm-up: lets the clock ramp up */
    for (;;) {
        t0 = probe_now();
        x = add_chain(iters);
        t = probe_now() - t0;
        if (t >= seconds || iters > (1L << 40)) break;
        iters *= 2;
    }
    return (double)x / t * 1e-9;
}

double probe_tsc_ghz(double seconds)
{
    double t0 = probe_now(), t;
    uint64_t c0 = probe_tsc(), c1;
    do t = probe_now(); while (t - t0 < seconds);
    c1 = probe_tsc();
    return (double)(c1 - c0) / (t - t0) * 1e-9;
}
