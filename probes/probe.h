/* probes/probe.h - shared declarations of the probe program. */
#ifndef PROBE_PROBE_H
#define PROBE_PROBE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROBE_MAX_THREADS 256
#define PROBE_MAX_CACHES 4          /* data/unified cache levels kept: L1..L4 */

/* ---- topology (topo.c) ---- */
typedef struct probe_cache {
    int level;                      /* 1, 2, 3 */
    uint64_t size;                  /* bytes, one instance, as reported */
    unsigned line, assoc;           /* assoc 0 = unknown, -1 in hwloc = full */
    int fully_assoc;
    unsigned sharing;               /* cores sharing one instance */
    unsigned instances;
    const char *source;             /* "hwloc" or "sysfs" */
    uint64_t effective;             /* per-core capacity used for working sets */
    const char *effective_source;
} probe_cache;

typedef struct probe_topo {
    unsigned packages, cores, pus, numa_nodes;
    uint64_t numa_bytes[64];
    int core_pu[PROBE_MAX_THREADS];     /* first PU (os index) of each core */
    unsigned ncaches;
    probe_cache cache[PROBE_MAX_CACHES];
    char cpu_model[128];
    void *hwloc;                        /* hwloc_topology_t */
} probe_topo;

int probe_topo_init(probe_topo *t);
void probe_topo_free(probe_topo *t);
/* The machine as hwloc-ls draws it (caches, cores, PUs, NUMA nodes), each
   kind's measured figures from profile p beside its first object; p may be
   NULL (no figures). */
struct edan_profile;
void probe_topo_print(FILE *f, const probe_topo *t, const struct edan_profile *p);
/* Binds the calling thread to core `core` (one PU). 0 on success. */
int probe_bind_core(const probe_topo *t, int core);
/* Allocates `bytes` aligned to 2 MiB with transparent huge pages asked for. */
void *probe_alloc(size_t bytes);
void probe_free(void *p, size_t bytes);
/* The page size backing [p, p+bytes) as far as /proc/self/smaps tells. */
size_t probe_page_size(const void *p);

/* ---- timing (measure.c) ---- */
double probe_now(void);                 /* seconds, CLOCK_MONOTONIC */
uint64_t probe_tsc(void);

typedef struct probe_stats {
    double median, min, max;            /* of the per-repetition values */
    int reps;
    double spread;                      /* (max-min)/median of the kept reps */
    double q1, q3;                      /* quartiles (linear interpolation) */
    double quartile_spread;             /* (q3-q1)/median: the middle half's spread */
    int runs;                           /* measured this many times (reruns of an unstable one + 1) */
} probe_stats;
void probe_stats_of(const double *v, int n, probe_stats *s);

/* Unstable: the middle half of the repetitions spans more than
   PROBE_UNSTABLE of the median. One disturbed repetition does not make a
   figure unstable (max - min would); a machine that is busy for a while does. */
#define PROBE_UNSTABLE 0.10
int probe_stats_unstable(const probe_stats *s);

typedef struct probe_opts {
    int quick, verbose;                 /* verbose: the log is written (not --quiet) */
    double rep_seconds;                 /* target duration of one repetition */
    int min_reps, max_reps;
    double settle;                      /* stop when the best 5 reps agree within this */
    int floor_reps;                     /* never fewer (min, median, max need 3) */
    double budget;                      /* seconds for the whole run */
    double deadline;                    /* probe_now() after which the current measurement
                                           stops at floor_reps; 0: none */
    double t_begin;                     /* probe_now() at the run's start: the log's times */
} probe_opts;

/* Why a measurement's repetitions stopped. */
enum { PROBE_STOP_SETTLED, PROBE_STOP_MAX_REPS, PROBE_STOP_DEADLINE, PROBE_STOP_COUNT };
extern const char *const probe_stop_name[PROBE_STOP_COUNT];
/* More repetitions wanted after n: below min_reps, or not settled, and
   neither max_reps nor (with floor_reps done) the deadline reached.
   secs may be NULL (then only the counts and the deadline decide).
   Sets *why when it says stop. */
int probe_more_reps(const double *secs, int n, const probe_opts *o, int *why);

/* A team of pinned threads, one per core, each owning a buffer it touched
   first. job(tid, nthreads, arg, buf) runs one repetition's work. */
typedef struct probe_team probe_team;
typedef void (*probe_job)(int tid, int nthreads, void *arg, char *buf);
probe_team *probe_team_create(const probe_topo *t, int nthreads, size_t buf_bytes);
/* The same, thread 0 (the calling thread, on core 0) using buf0, a buffer
   of at least buf_bytes it already touched; the team does not free it. */
probe_team *probe_team_create_with(const probe_topo *t, int nthreads, size_t buf_bytes, char *buf0);
void probe_team_destroy(probe_team *team);
int probe_team_size(const probe_team *team);
char *probe_team_buf(probe_team *team, int tid);
/* Runs job on every thread: one untimed warm-up, then timed repetitions
   while probe_more_reps says so; fills per-rep seconds (barrier to the
   last thread's end) and returns why it stopped (PROBE_STOP_*). */
int probe_team_measure(probe_team *team, probe_job job, void *arg, const probe_opts *o,
                       double *secs, int *nsecs);

/* ---- checks of the figures against the machine's limits (check.c) ----
   A figure that breaks physics (more flops a cycle than the core has
   units for, a deeper level faster than the one above it) is measured
   again, PROBE_CHECK_RETRIES times at most, and one that still fails is
   recorded as failed in the profile ("checks"), never silently kept. */
#define PROBE_CHECK_RETRIES 2
/* A check fails when its value exceeds its limit by more than this: the
   clock and a kernel are measured a few milliseconds apart and turbo moves
   the clock by a few percent in between. */
#define PROBE_CHECK_SLACK 0.05
enum { PROBE_CHECK_FLOPS, PROBE_CHECK_CLOCK, PROBE_CHECK_ROOFS, PROBE_CHECK_LATENCY, PROBE_CHECK_KINDS };
/* "flops_per_cycle", "clock_vs_flop_roof", "roof_order", "latency_order" */
extern const char *const probe_check_name[PROBE_CHECK_KINDS];
/* What a check holds against what: passed when value <= limit x (1 +
   PROBE_CHECK_SLACK); fig[] are the measured figures it was computed from. */
typedef struct probe_check {
    int kind, passed, retries;
    char figure[64];                    /* which: "avx512 fma 1 thread(s)", "L2 <= L1 1 thread(s)" */
    double value, limit;
    const char *value_is, *limit_is;    /* what value and limit are, in words */
    int nfig;
    struct { char name[24]; double v; } fig[3];
} probe_check;
/* The most flops one core can do a cycle with isa: 2 FP units (no x86 core
   issues more than two FMA, ADD or MUL vector instructions a cycle) x the
   ISA's double lanes x 2 flops (an FMA is a multiply and an add): scalar
   4, SSE 8, AVX2 16, AVX-512 32. */
double probe_flops_per_cycle_limit(int isa);
/* gflops measured with `threads` threads (one per core) at a core clock
   of ghz (measured around the kernel): per core and cycle within isa's limit. */
int probe_check_flops(probe_check *c, int isa, const char *what, double gflops, int threads, double ghz);
/* The profile's clock against one core's FLOP roof (of isa): the slowest
   clock that could deliver the roof within the limit must not exceed it. */
int probe_check_clock(probe_check *c, int isa, double roof_gflops, double ghz);
/* Memory roofs ordered L1 >= L2 >= L3 >= DRAM: the deeper level's roof
   not above the shallower one's (kind PROBE_CHECK_ROOFS, GB/s, threads);
   latencies increasing by level: the shallower not above the deeper
   (PROBE_CHECK_LATENCY, ns; threads ignored). */
int probe_check_order(probe_check *c, int kind, const char *shallow, double shallow_v, const char *deep, double deep_v,
                      int threads);

/* ---- kernels (kernels.c) ---- */
enum { PROBE_ISA_SCALAR, PROBE_ISA_SSE, PROBE_ISA_AVX2, PROBE_ISA_AVX512, PROBE_ISA_COUNT };
enum { PROBE_OP_FMA, PROBE_OP_ADD, PROBE_OP_MUL, PROBE_FOP_COUNT };
extern const char *const probe_isa_name[PROBE_ISA_COUNT];
extern const char *const probe_fop_name[PROBE_FOP_COUNT];
int probe_isa_supported(int isa);
int probe_isa_best(void);
int probe_isa_lanes(int isa);           /* doubles per vector */
/* Runs `iters` iterations of the compute kernel: returns the flops done. */
double probe_compute_run(int isa, int op, long iters, double seed);
int probe_compute_accumulators(void);

/* Memory kernels on buf[0..bytes): loads/stores of `ratio` (see below). */
typedef enum probe_memop {
    PROBE_LOAD, PROBE_STORE, PROBE_STORE_NT, PROBE_MIX_2_1, PROBE_MIX_1_1,
    PROBE_LOAD_LAST_FIRST,      /* loads, each step's last vector first (a "load" roof's second order) */
    PROBE_MEMOP_COUNT
} probe_memop;
extern const char *const probe_memop_name[PROBE_MEMOP_COUNT];
/* One pass over bytes; returns the bytes moved by the instructions
   (loads + stores; write-allocate reads not counted). */
double probe_mem_pass(int isa, probe_memop op, char *buf, size_t bytes, double *sink);
/* CARM validation kernel: passes over buf doing `fmas` FMAs per `loads`
   vector loads; returns flops in *flops, bytes loaded in *bytes. */
void probe_carm_pass(int isa, int variant, char *buf, size_t bytes, double *flops, double *bytes_out,
                     double *sink);
#define PROBE_CARM_VARIANTS 9           /* AI = 2^(v-4) flop/byte with AVX-512 */
double probe_carm_ai(int isa, int variant);

/* ---- latency (chase.c) ---- */
/* Links buf (n lines of `stride` bytes) into one Sattolo cycle; with_marks
   also finds evenly spaced points of the cycle for interleaved chases. */
void probe_chase_build(char *buf, size_t bytes, size_t stride, uint64_t seed, int with_marks);
/* Follows k interleaved chases for `steps` steps each; returns seconds. */
double probe_chase_run(char *buf, size_t bytes, size_t stride, int k, long steps);
/* One-thread dependent-add chain: GHz of the core clock. */
double probe_core_ghz(double seconds);
double probe_tsc_ghz(double seconds);

/* ---- the core's window (window.c) ---- */
enum { PROBE_WINDOW_ROB, PROBE_WINDOW_LQ, PROBE_WINDOW_SQ, PROBE_WINDOW_WIDTH };
#define PROBE_WINDOW_MAX_FILL 1024      /* fillers after each load, at most */
/* 1 where the generated loops run (x86-64). */
int probe_window_supported(void);
/* Seconds for `iters` iterations of: *p = **p, n fillers of `kind`
   (PROBE_WINDOW_ROB nops, _LQ L1 loads, _SQ stores), *q = **q, n fillers;
   the chases go on from where they stop. -1 when it cannot run. */
double probe_window_run(int kind, int n, char **p, char **q, long iters);
/* Seconds for `iters` passes over a block of n nops: the dispatch width
   is n x iters / (seconds x core Hz). */
double probe_window_nops(int n, long iters);
/* Two starts half a lap apart on the chase cycle of buf (built with marks). */
void probe_chase_two(char *buf, size_t bytes, size_t stride, char **p, char **q);
/* The window's section of the profile ("window", "window_method"): each
   structure's sweep and jump, the dispatch width; over a chase buffer cb of
   `bytes` (lines of `line`), DRAM at dram_ns. */
struct jw;
void probe_window_measure(struct jw *w, probe_opts *o, char *cb, size_t bytes, size_t line, double dram_ns,
                          double ghz);

/* ---- JSON text output (probe.c) ---- */
/* A line of the log on standard error, with the seconds since o->t_begin;
   nothing unless o->verbose. */
void probe_log(const probe_opts *o, const char *fmt, ...);
#endif
