/* probes/probe.c - `probe`: measures this machine (topology, compute and
   bandwidth roofs, latencies, memory-level parallelism, CARM validation)
   and writes the hardware profile JSON that edan.h's edan_profile_load
   reads. See hwprofiles/README.md for the schema. */
#include "probe.h"
#include "../tools/files.h"
#include "../tools/jsonw.h"
#include "../tools/opt.h"
#define EDAN_INTERNAL      /* the profile's JSON, for --check */
#include "edan.h"
#include <sys/stat.h>
#include "numa.h"
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <hwloc.h>
#include <papi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DRAM_BYTES ((size_t)256 << 20)     /* per thread; >= 8x any real last-level share */

static double t_begin;
static int quiet;
/* DRAM working set per thread when all cores run: 256 MiB, less on a
   machine where cores x 256 MiB would not fit in a quarter of its memory */
static size_t dram_bytes_all = DRAM_BYTES;
/* the figures measured and those that stayed unstable (see stab_again) */
#define STAB_MAX 128
typedef struct stab_fig { char what[96]; const char *unit; probe_stats st; } stab_fig;
static struct {
    int rerun_limit, reruns, n, total;
    stab_fig fig[STAB_MAX];
} stab;

/* the checks against the machine's limits made during the run, each as
   it stands after its retries (check_again); the profile's "checks" and the
   closing summary list them */
#define CHECK_MAX 128
static struct {
    int n, failed, retries;
    probe_check c[CHECK_MAX];
} checks;

/* a check's final result, counted */
static void check_record(const probe_check *c)
{
    checks.retries += c->retries;
    if (!c->passed) checks.failed++;
    if (checks.n < CHECK_MAX) checks.c[checks.n++] = *c;
}

void probe_log(const probe_opts *o, const char *fmt, ...)
{
    va_list ap;
    (void)o;
    if (quiet) return;
    fprintf(stderr, "probe [%5.1fs] ", probe_now() - t_begin);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* a measurement's statistics as a JSON object */
static void jw_stats_as(jw *w, const char *const key[5], const probe_stats *s)
{
    jw_num(w, key[0], s->median);
    jw_num(w, key[1], s->min);
    jw_num(w, key[2], s->max);
    jw_num(w, key[3], s->spread);
    jw_num(w, key[4], s->quartile_spread);
    if (s->runs > 1) jw_int(w, "runs", s->runs);
    if (probe_stats_unstable(s)) jw_bool(w, "unstable", 1);
}

static void jw_stats(jw *w, const char *key, const probe_stats *s)
{
    static const char *const keys[5] = {"median", "min", "max", "spread", "quartile_spread"};
    jw_obj(w, key);
    jw_stats_as(w, keys, s);
    jw_end_obj(w);
}

/* ---- atomic output, no half file on Ctrl-C ----------------------------- */
static char tmp_path[4096];
static volatile sig_atomic_t tmp_live;

static void on_signal(int sig)
{
    if (tmp_live) unlink(tmp_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The figures of the closing summary, by level (L1.., DRAM): their
   statistics, for the spreads the profile's loader does not keep. */
static struct {
    const char *level;
    probe_stats lat, load1, loadN;
} sumrow[PROBE_MAX_CACHES + 1];
static int nsumrow;
static char numa_note[512];

static int sumrow_of(const char *level)
{
    int i;
    for (i = 0; i < nsumrow; i++)
        if (!strcmp(sumrow[i].level, level)) return i;
    if (nsumrow > PROBE_MAX_CACHES) return PROBE_MAX_CACHES;
    memset(&sumrow[nsumrow], 0, sizeof sumrow[0]);
    sumrow[nsumrow].level = level;
    return nsumrow++;
}

/* the unstable figures the analysis uses first (clock, latencies), then
   the least steady */
static int stab_order(const void *a, const void *b)
{
    const stab_fig *x = (const stab_fig *)a, *y = (const stab_fig *)b;
    int ux = !strcmp(x->what, "core clock") || strstr(x->what, "latency") != NULL;
    int uy = !strcmp(y->what, "core clock") || strstr(y->what, "latency") != NULL;
    if (ux != uy) return uy - ux;
    return x->st.quartile_spread < y->st.quartile_spread ? 1 : x->st.quartile_spread > y->st.quartile_spread ? -1 : 0;
}

/* "12.3 ±4%": the median and half the middle half's span; '!' unstable */
static void fig(char *buf, size_t n, const char *fmt, double v, const probe_stats *st)
{
    size_t len;
    snprintf(buf, n, fmt, v);
    len = strlen(buf);
    if (st && st->reps >= 3)
        snprintf(buf + len, n - len, " ±%2.0f%%%s", 50 * st->quartile_spread,
                 probe_stats_unstable(st) ? "!" : " ");
}

/* The failed ones of the n checks c (nfailed of them) on f; run: the
   checks of this run (they were measured again). */
static void print_failed_checks(FILE *f, const probe_check *c, int n, int nfailed, int run)
{
    int i;
    if (!nfailed) return;
    fprintf(f, "probe: warning: %d of %d checks against the machine's limits failed", nfailed, n);
    if (run) fprintf(f, " (after up to %d re-measurements each)", PROBE_CHECK_RETRIES);
    fprintf(f, "; these figures break physics:\n");
    for (i = 0; i < n; i++)
        if (!c[i].passed)
            fprintf(f, "    %-18s %-36s %.4g > %.4g: %s above %s\n", probe_check_name[c[i].kind], c[i].figure, c[i].value,
                    c[i].limit, c[i].value_is, c[i].limit_is);
    if (run) fprintf(f, "  The profile records them (\"checks\"); edan trace, edan roofline and make run show them.\n");
}

/* The closing result block, from the profile just written (read back with
   edan.h's loader, as the analysis will read it): clock, caches and
   latencies, RAM's latency (alpha) and m, the roofs, the figures that stayed
   unstable, and how to use the profile. */
static void print_summary(FILE *f, const char *json, size_t len, const char *path, int is_default)
{
    edan_profile *p = NULL;
    char err[300];
    size_t i;
    uint32_t l;
    int k;
    static const char *const levels[] = {"L1", "L2", "L3", "L4", "DRAM"};
    if (edan_profile_parse(json, len, path, NULL, &p, err, sizeof err) != EDAN_OK) {
        opt_err("probe", "the profile does not read back: %s", err);
        return;
    }
    fprintf(f, "--------------------------------------------------------------------------\n");
    fprintf(f, "probe: %s\n", !strcmp(path, "-") ? "profile on standard output" : path);
    fprintf(f, "  host %-24s cores %-6u core clock %.2f GHz\n", p->host, p->cores, p->core_ghz);
    fprintf(f, "  %-6s %10s %14s %12s %16s %16s\n", "level", "size", "latency ns", "cycles", "load GB/s 1 thr",
            "load GB/s all");
    for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        char size[32] = "-", lat[40] = "-", cyc[32] = "-", b1[40] = "-", bn[40] = "-";
        double x;
        int have = !strcmp(levels[i], "DRAM"), row = -1;
        for (k = 0; k < nsumrow; k++)
            if (!strcmp(sumrow[k].level, levels[i])) row = k;
        for (l = 0; l < p->num_caches; l++)
            if (!strcmp(p->cache[l].level, levels[i])) {
                snprintf(size, sizeof size, "%llu KiB", (unsigned long long)(p->cache[l].size >> 10));
                fig(lat, sizeof lat, "%.1f", p->cache[l].latency_ns, row >= 0 ? &sumrow[row].lat : NULL);
                snprintf(cyc, sizeof cyc, "%.0f", p->cache[l].latency_cycles);
                have = 1;
            }
        if (!have) continue;
        if (!strcmp(levels[i], "DRAM")) {
            fig(lat, sizeof lat, "%.1f", p->dram_latency_ns, row >= 0 ? &sumrow[row].lat : NULL);
            snprintf(cyc, sizeof cyc, "%.0f = alpha", p->dram_latency_cycles);
        }
        if ((x = edan_profile_bandwidth_of(p, levels[i], "load", 1)) > 0)
            fig(b1, sizeof b1, "%.1f", x, row >= 0 ? &sumrow[row].load1 : NULL);
        if ((x = edan_profile_bandwidth_of(p, levels[i], "load", p->cores)) > 0)
            fig(bn, sizeof bn, "%.1f", x, row >= 0 && p->cores > 1 ? &sumrow[row].loadN : NULL);
        fprintf(f, "  %-6s %10s %15s %12s %17s %17s\n", levels[i], size, lat, cyc, b1, bn);
    }
    fprintf(f, "  memory-level parallelism m %u; peak %.1f GFLOP/s one core, %.1f all cores\n", p->mlp_m,
            p->peak_GFLOPs_1core, p->peak_GFLOPs_all);
    fprintf(f, "  (±: half the span of the middle half of the repetitions, of the median; !: unstable)\n");
    if (numa_note[0]) fprintf(f, "  %s\n", numa_note);
    if (stab.n) {
        qsort(stab.fig, (size_t)stab.n, sizeof stab.fig[0], stab_order);
        fprintf(f, "probe: warning: %d of %d figures stayed unstable (the middle half of their repetitions "
                   "spans more than %.0f%% of the median, after %d rerun(s) in all):\n",
                stab.n, stab.total, 100 * PROBE_UNSTABLE, stab.reruns);
        for (k = 0; k < stab.n && k < 12; k++)
            fprintf(f, "    %-28s %10.4g %-7s middle half %.4g..%.4g, all %.4g..%.4g\n", stab.fig[k].what,
                    stab.fig[k].st.median, stab.fig[k].unit, stab.fig[k].st.q1, stab.fig[k].st.q3,
                    stab.fig[k].st.min, stab.fig[k].st.max);
        if (stab.n > 12) fprintf(f, "    ... and %d more (the profile's \"stability\" lists them)\n", stab.n - 12);
        fprintf(f, "  Other work on this machine, frequency changes or a virtual machine's neighbours move them;\n"
                   "  probe again on a quiet machine (a longer --budget helps) before trusting them.\n");
    }
    if (checks.n && !checks.failed)
        fprintf(f, "  checks against the machine's limits: all %d passed (%d re-measurement(s) on the way)\n", checks.n,
                checks.retries);
    print_failed_checks(f, checks.c, checks.n, checks.failed, 1);
    if (strcmp(path, "-")) {
        if (is_default)
            fprintf(f, "Use it: edan trace -- PROG and edan analyze TRACE take it without --profile (this machine's\n"
                       "        own; --no-profile goes without); edan roofline %s -o roofline.svg\n", path);
        else
            fprintf(f, "Use it: edan trace --profile %s -- PROG (caches, alpha, m, clock);\n"
                       "        edan roofline %s -o roofline.svg\n", path, path);
    }
    fprintf(f, "--------------------------------------------------------------------------\n");
    edan_profile_free(p);
}

/* ---- measurements ------------------------------------------------------ */
typedef struct level_info {
    const char *name;       /* "L1".."L3", "DRAM" */
    size_t capacity;        /* effective bytes of one instance */
    unsigned sharing;       /* cores sharing one instance */
    size_t prev;            /* the previous level's per-core capacity (0 for L1) */
    double lat_ns;
    double load_GBps;       /* one thread, load: the CARM roof of the level */
} level_info;

static size_t level_ws(const level_info *L, int threads)
{
    unsigned share;
    size_t ws;
    if (!strcmp(L->name, "DRAM")) return threads > 1 ? dram_bytes_all : DRAM_BYTES;
    share = (unsigned)threads < L->sharing ? (unsigned)threads : L->sharing;
    if (!share) share = 1;
    /* L1: half of it; further levels: the geometric mean of the previous
       level's capacity and this one's per-thread share, well beyond the
       former and well inside the latter */
    ws = L->prev ? (size_t)sqrt((double)L->prev * (double)(L->capacity / share)) : L->capacity / share / 2;
    if (ws < L->prev) ws = L->prev;
    return ws >= 8192 ? ws / 4096 * 4096 : ws / 512 * 512;
}

/* DRAM working sets (from WINDOWED_BYTES up; the caches' are far
   smaller) are walked in windows of WINDOW_BYTES, each call continuing
   where the last stopped and wrapping at the end, so that a repetition
   lasts about rep_seconds rather than a pass over 256 MiB. The addresses
   follow each other as in whole passes, and every line comes from DRAM
   (it was last touched a working set ago). */
#define WINDOW_BYTES ((size_t)2 << 20)
#define WINDOWED_BYTES ((size_t)32 << 20)

/* The bytes of one call: the whole working set, or a window of a DRAM one. */
static size_t span_of(size_t bytes)
{
    return bytes >= WINDOWED_BYTES ? WINDOW_BYTES : bytes;
}

/* the window at *at of a working set of `bytes`; advances *at */
static size_t window_at(size_t *at, size_t bytes, size_t span)
{
    size_t len = bytes - *at < span ? bytes - *at : span;
    *at = *at + len >= bytes ? 0 : *at + len;
    return len;
}

typedef struct mem_job {
    int isa;
    probe_memop op;
    size_t bytes;           /* working set per thread */
    size_t span;            /* bytes per call: bytes, or a window */
    long passes;            /* calls per repetition */
    double moved;
    double sink[PROBE_MAX_THREADS];
    size_t at[PROBE_MAX_THREADS];   /* where each thread's next window starts */
} mem_job;

static void mem_job_fn(int tid, int n, void *arg, char *buf)
{
    mem_job *j = (mem_job *)arg;
    double m = 0, sink = 0;     /* a local sink: threads sharing its cache line would ping-pong it */
    size_t at = j->at[tid];
    long p;
    (void)n;
    for (p = 0; p < j->passes; p++) {
        char *q = buf + at;
        m += probe_mem_pass(j->isa, j->op, q, window_at(&at, j->bytes, j->span), &sink);
    }
    j->at[tid] = at;
    j->sink[tid] += sink;
    if (tid == 0) j->moved = m;
}

typedef struct compute_job {
    int isa, op;
    long iters;
    double sink[PROBE_MAX_THREADS];
} compute_job;

static void compute_job_fn(int tid, int n, void *arg, char *buf)
{
    compute_job *j = (compute_job *)arg;
    (void)n;
    (void)buf;
    j->sink[tid] += probe_compute_run(j->isa, j->op, j->iters, 1.0 + tid);
}

typedef struct carm_job {
    int isa, variant;
    size_t bytes, span, at;     /* as in mem_job */
    long passes;
    double flops, moved, sink;
} carm_job;

static void carm_job_fn(int tid, int n, void *arg, char *buf)
{
    carm_job *j = (carm_job *)arg;
    double f = 0, b = 0, ff, bb;
    long p;
    (void)tid;
    (void)n;
    for (p = 0; p < j->passes; p++) {
        char *q = buf + j->at;
        probe_carm_pass(j->isa, j->variant, q, window_at(&j->at, j->bytes, j->span), &ff, &bb, &j->sink);
        f += ff;
        b += bb;
    }
    j->flops = f;
    j->moved = b;
}

/* ---- time budget --------------------------------------------------------
   The run has o->budget seconds. Each section gets the share of what is
   left that its weight (its usual seconds on a quiet machine) has among the
   sections still to come; each measurement in it the section's remaining
   time over the measurements left, as o->deadline. Past its deadline a
   measurement stops at floor_reps; on a quiet machine repetitions settle
   long before. Fixed costs (buffers, chase builds, calibration, warm-ups,
   floor_reps) are not cut; their weights make room for them. */
enum { SEC_CLOCKS, SEC_SWEEP, SEC_LATENCY, SEC_TEAMS, SEC_COMPUTE, SEC_BANDWIDTH, SEC_CARM, SEC_TAIL, SEC_COUNT };
static const char *const sec_name[SEC_COUNT] = {"clocks", "latency_sweep", "latency_mlp", "buffers", "compute",
                                                 "bandwidth", "carm_validation", "counters"};
static const double sec_weight[SEC_COUNT] = {0.4, 0.9, 0.5, 0.5, 0.7, 1.4, 1.2, 0.1};
static struct {
    double end;                     /* t_begin + budget */
    int cur, left;                  /* current section, measurements left in it */
    double sec_end;
    double start[SEC_COUNT], planned[SEC_COUNT], used[SEC_COUNT];
    int deadline_stops;
    double rep_seconds;             /* the options' repetition length */
    double shortest_rep;            /* the shortest one a deadline asked for */
} bud;

/* A measurement costs about floor_reps + 3 repetitions at least
   (calibration, warm-up); when its time is shorter than that, its
   repetitions shrink (not below REP_SECONDS_MIN) so that the floor fits. */
#define REP_SECONDS_MIN 0.001

static void budget_section(probe_opts *o, int sec, int measurements)
{
    double now = probe_now(), rest = 0, left = bud.end - now;
    int k;
    if (bud.cur >= 0) bud.used[bud.cur] = now - bud.start[bud.cur];
    for (k = sec; k < SEC_COUNT; k++) rest += sec_weight[k];
    bud.cur = sec;
    bud.start[sec] = now;
    bud.planned[sec] = left > 0 ? left * sec_weight[sec] / rest : 0;
    bud.sec_end = now + bud.planned[sec];
    bud.left = measurements > 0 ? measurements : 1;
    o->deadline = bud.sec_end;
}

/* the current section's seconds */
static void budget_close(void)
{
    if (bud.cur >= 0) bud.used[bud.cur] = probe_now() - bud.start[bud.cur];
    bud.cur = -1;
}

/* before each measurement of the section */
static void budget_next(probe_opts *o)
{
    double now = probe_now(), slot = bud.sec_end > now ? (bud.sec_end - now) / bud.left : 0;
    double rep = slot / (o->floor_reps + 3);
    o->deadline = now + slot;
    if (bud.left > 1) bud.left--;
    if (rep > bud.rep_seconds) rep = bud.rep_seconds;
    if (rep < REP_SECONDS_MIN) rep = REP_SECONDS_MIN;
    o->rep_seconds = rep;
    if (rep < bud.shortest_rep) bud.shortest_rep = rep;
}

static void budget_count(int why)
{
    if (why == PROBE_STOP_DEADLINE) bud.deadline_stops++;
}

/* ---- stability ----------------------------------------------------------
   A figure whose repetitions disagree (probe_stats_unstable) is measured
   again, up to rerun_limit times while the budget lasts, and the run whose
   middle half agrees best is kept; one still unstable is listed in the
   profile ("stability") and in the closing summary, so that nobody takes
   a busy machine's numbers for its own. */

/* after attempt (0, 1, ...) gave cur: keeps the steadier of *best and
   cur in *best; returns 1 when another attempt is wanted */
static int stab_again(probe_stats *best, const probe_stats *cur, int attempt, const char *what, const char *unit)
{
    int runs = attempt + 1;
    if (!attempt || cur->quartile_spread < best->quartile_spread) *best = *cur;
    best->runs = runs;
    if (!probe_stats_unstable(best) || attempt >= stab.rerun_limit || probe_now() >= bud.end) return 0;
    stab.reruns++;
    probe_log(NULL, "  %s unstable: %.4g %s, middle half %.4g..%.4g (%.0f%% of the median): again", what,
              best->median, unit, best->q1, best->q3, 100 * best->quartile_spread);
    return 1;
}

/* a figure's final statistics: counted, and listed when unstable */
static void stab_note(const char *what, const char *unit, const probe_stats *st)
{
    stab.total++;
    if (!probe_stats_unstable(st) || stab.n >= STAB_MAX) return;
    snprintf(stab.fig[stab.n].what, sizeof stab.fig[stab.n].what, "%s", what);
    stab.fig[stab.n].unit = unit;
    stab.fig[stab.n].st = *st;
    stab.n++;
}

/* The core clock in a measurement's window: dependent-add chains right
   before or after it, the fastest of five of about a millisecond each.
   Other work only slows a chain (a chain the scheduler stops for a few
   milliseconds reads as a clock several times too slow), so the fastest
   short one is the clock; of two samples around a measurement the faster
   is the clock the kernel saw. */
static double clock_sample(const probe_opts *o)
{
    double best = 0, g;
    int k;
    (void)o;
    for (k = 0; k < 5; k++)
        if ((g = probe_core_ghz(0.001)) > best) best = g;
    return best;
}

/* after try (0, 1, ...) gave check c: 1 when its figures are to be
   measured again (failed, fewer than PROBE_CHECK_RETRIES retries so far) */
static int check_again(probe_check *c, int try)
{
    c->retries = try;
    if (c->passed || try >= PROBE_CHECK_RETRIES) return 0;
    probe_log(NULL, "  %s %s: %.4g against %.4g (%s): again", probe_check_name[c->kind], c->figure, c->value, c->limit,
              c->limit_is);
    return 1;
}

/* repetition loops outside the team (chases): at least floor_reps, up to
   nr, no more once the deadline has passed */
static int chase_more(const probe_opts *o, int r, int nr, int *why)
{
    int more = r < nr ? probe_more_reps(NULL, r, o, why) : 0;
    if (r >= nr) *why = PROBE_STOP_MAX_REPS;
    return more;
}

/* Repetitions of the job long enough to time: scale `*count` until one
   run on thread 0's buffer takes about o->rep_seconds. */
static long calibrate(void (*fn)(int, int, void *, char *), void *arg, long *count, char *buf, double target)
{
    double t;
    int tries;
    for (tries = 0; tries < 30; tries++) {
        double t0 = probe_now();
        fn(0, 1, arg, buf);
        t = probe_now() - t0;
        if (t >= target * 0.7) break;
        if (t < target / 64) *count *= 16;
        else *count = (long)ceil((double)*count * target / t);
    }
    return *count;
}

/* One bandwidth measurement of `op` over `bytes` per thread of team tm:
   calibration, warm-up, repetitions; GB/s of all threads together.
   Returns why the repetitions stopped. */
static int mem_measure(probe_team *tm, int isa, probe_memop op, size_t bytes, const probe_opts *o, probe_stats *st,
                       int *reps)
{
    double secs[1024], vals[1024];
    int n = probe_team_size(tm), nsecs, r, why;
    mem_job mj;
    memset(&mj, 0, sizeof mj);
    mj.isa = isa;
    mj.op = op;
    mj.bytes = bytes;
    mj.span = span_of(bytes);
    mj.passes = 1;
    calibrate(mem_job_fn, &mj, &mj.passes, probe_team_buf(tm, 0), o->rep_seconds);
    why = probe_team_measure(tm, mem_job_fn, &mj, o, secs, &nsecs);
    for (r = 0; r < nsecs; r++) vals[r] = mj.moved * n / secs[r] * 1e-9;
    probe_stats_of(vals, nsecs, st);
    *reps = nsecs;
    return why;
}

/* A bandwidth roof of op. A load is measured in both orders (in address
   order, then last vector first) and the better median is the roof: L3 and
   DRAM reward asking for the next lines a step early, L2 punishes it.
   st/reps/why[order] for each order measured (*orders: 1 or 2); returns the
   roof's order. budgeted: each measurement takes its share of the budget. */
static int roof_measure(probe_team *tm, int isa, probe_memop op, size_t bytes, probe_opts *o, int budgeted,
                        probe_stats st[2], int reps[2], int why[2], int *orders)
{
    int order, best = 0;
    *orders = op == PROBE_LOAD ? 2 : 1;
    for (order = 0; order < *orders; order++) {
        if (budgeted) budget_next(o);
        why[order] = mem_measure(tm, isa, order ? PROBE_LOAD_LAST_FIRST : op, bytes, o, &st[order], &reps[order]);
        if (budgeted) budget_count(why[order]);
        if (st[order].median > st[best].median) best = order;
    }
    return best;
}

/* k = 1..32 interleaved chases over the DRAM cycle (built by the sweep,
   with marks): throughput against k; m = the smallest k within 90% of the best. */
static void mlp_measure(jw *w, probe_opts *o, char *cb, size_t line, double dram_ns)
{
    double thr[33], best = 0, vals[64];
    probe_stats st;
    int k, m = 1;
    probe_log(o, "memory-level parallelism: 1..32 interleaved chases over %zu MiB", (size_t)DRAM_BYTES >> 20);
    jw_obj(w, "mlp");
    jw_str(w, "level", "DRAM");
    jw_int(w, "bytes", (long long)DRAM_BYTES);
    jw_arr(w, "points");
    for (k = 1; k <= 32; k++) {
        long steps;
        int r, nr = o->quick ? 3 : 5, why;
        budget_next(o);
        steps = (long)(o->rep_seconds * 1e9 / (dram_ns > 1 ? dram_ns : 1));
        if (steps < 1000) steps = 1000;
        probe_chase_run(cb, DRAM_BYTES, line, k, steps / 4);     /* warm-up */
        for (r = 0; chase_more(o, r, nr, &why); r++)
            vals[r] = (double)k * (double)steps / probe_chase_run(cb, DRAM_BYTES, line, k, steps) * 1e-9;
        budget_count(why);
        nr = r;
        probe_stats_of(vals, nr, &st);
        thr[k] = st.median;
        if (thr[k] > best) best = thr[k];
        jw_obj(w, NULL);
        jw_int(w, "k", k);
        jw_num(w, "accesses_per_ns", st.median);
        jw_num(w, "GBps", st.median * (double)line);
        jw_num(w, "ns_per_access", st.median > 0 ? 1.0 / st.median : 0);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    for (k = 1; k <= 32; k++)
        if (thr[k] >= 0.9 * best) { m = k; break; }
    jw_int(w, "m", m);
    jw_num(w, "threshold", 0.9);
    jw_num(w, "best_accesses_per_ns", best);
    jw_num(w, "speedup_at_m", thr[m] / thr[1]);
    jw_num(w, "latency_ns", dram_ns);
    jw_num(w, "line_bytes", (double)line);
    jw_end_obj(w);
    probe_log(o, "  m = %d (%.4f accesses/ns at k=1, best %.4f)", m, thr[1], best);
}

/* PAPI: where the machine has counters, count DP ops, loads and stores
   around one core's FMA and L1 load/store kernels against what the kernels
   are known to execute. */
static const char *const counter_names[3] = {"PAPI_DP_OPS", "PAPI_LD_INS", "PAPI_SR_INS"};

/* An event set of the counter_names this machine can count (have[k]), tried
   once: 0, or -1 with why not in reason. PAPI can report counters (from
   CPUID) that perf_event cannot open, as in a virtual machine. */
static int counters_open(int ncnt, int *es, int *have, char *reason, size_t n)
{
    int k, codes[3], nev = 0, rc;
    long long val[3];
    *es = PAPI_NULL;
    if (PAPI_create_eventset(es) != PAPI_OK) {
        snprintf(reason, n, "PAPI_create_eventset failed");
        return -1;
    }
    for (k = 0; k < 3; k++) {
        have[k] = PAPI_event_name_to_code((char *)counter_names[k], &codes[k]) == PAPI_OK &&
                  PAPI_add_event(*es, codes[k]) == PAPI_OK;
        nev += have[k];
    }
    if (!nev)
        snprintf(reason, n, "PAPI reports %d hardware counters, but none of PAPI_DP_OPS, PAPI_LD_INS and "
                 "PAPI_SR_INS can be counted (perf_event cannot open them: virtual machine, or "
                 "/proc/sys/kernel/perf_event_paranoid)", ncnt);
    else if ((rc = PAPI_start(*es)) != PAPI_OK)
        snprintf(reason, n, "PAPI_start failed: %s", PAPI_strerror(rc));
    else if ((rc = PAPI_stop(*es, val)) != PAPI_OK)
        snprintf(reason, n, "PAPI_stop failed: %s", PAPI_strerror(rc));
    else return 0;
    PAPI_cleanup_eventset(*es);
    PAPI_destroy_eventset(es);
    return -1;
}

static void write_counters(jw *w, int isa, probe_team *team1, const probe_opts *o)
{
    int ncnt = -1, rc, es = PAPI_NULL, have[3];
    char reason[320];
    reason[0] = 0;
    rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) snprintf(reason, sizeof reason, "PAPI_library_init failed: %s", PAPI_strerror(rc));
    else {
        ncnt = PAPI_num_cmp_hwctrs(0);
        if (ncnt <= 0)
            snprintf(reason, sizeof reason, "PAPI_num_cmp_hwctrs(0) = %d: no hardware counters visible "
                     "(virtual machine or perf_event disabled)", ncnt);
        else counters_open(ncnt, &es, have, reason, sizeof reason);
    }
    jw_obj(w, "counters");
    if (reason[0]) {
        jw_bool(w, "available", 0);
        if (ncnt > 0) jw_int(w, "hardware_counters", ncnt);
        jw_str(w, "reason", reason);
        jw_end_obj(w);
        probe_log(o, "counters: %s", reason);
        return;
    } else {
        int k, j, nev;
        long long val[3];
        char *buf = probe_team_buf(team1, 0);
        double sink = 0;
        jw_bool(w, "available", 1);
        jw_int(w, "hardware_counters", ncnt);
        jw_arr(w, "kernels");
        for (j = 0; j < 3; j++) {
            /* j = 0: FMA compute, 1: L1 load, 2: L1 store */
            double exp_flops = 0, exp_ld = 0, exp_st = 0;
            long iters = 100000;
            size_t bytes = 16384;
            int lanes = probe_isa_lanes(isa);
            memset(val, 0, sizeof val);
            if (PAPI_start(es) != PAPI_OK) break;
            if (j == 0) {
                sink += probe_compute_run(isa, PROBE_OP_FMA, iters, 1.0);
                exp_flops = (double)iters * probe_compute_accumulators() * 2.0 * lanes;
            } else {
                double moved = probe_mem_pass(isa, j == 1 ? PROBE_LOAD : PROBE_STORE, buf, bytes, &sink);
                if (j == 1) { exp_ld = moved / 8 / lanes; exp_flops = moved / 8; }
                else exp_st = moved / 8 / lanes;
            }
            PAPI_stop(es, val);
            jw_obj(w, NULL);
            jw_str(w, "kernel", j == 0 ? "compute fma" : j == 1 ? "L1 load" : "L1 store");
            jw_str(w, "isa", probe_isa_name[isa]);
            for (k = 0, nev = 0; k < 3; k++) {
                char key[64];
                if (!have[k]) continue;
                snprintf(key, sizeof key, "%s_measured", counter_names[k]);
                jw_num(w, key, (double)val[nev++]);
                snprintf(key, sizeof key, "%s_expected", counter_names[k]);
                jw_num(w, key, k == 0 ? exp_flops : k == 1 ? exp_ld : exp_st);
            }
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_str(w, "note", "expected counts are what the kernels execute: DP flops (FMA = 2 per lane), "
                          "vector load and store instructions; loop control is not included");
        PAPI_cleanup_eventset(es);
        PAPI_destroy_eventset(&es);
        (void)sink;
    }
    jw_end_obj(w);
}

/* The profile written as tools/files.h says (a temporary file renamed over
   a regular one: readers see the old file or the new one, never half; in
   place for a FIFO or a device; - for standard output); a signal removes
   the temporary file. 2 when it cannot be written. */
static int write_atomically(const char *path, const char *text, size_t len, const probe_opts *o)
{
    files_out out;
    char err[600];
    if (files_out_open(&out, path, err, sizeof err)) {
        opt_err("probe", "cannot write %s", err);
        return 2;
    }
    if (out.tmp) {
        snprintf(tmp_path, sizeof tmp_path, "%s", out.tmp);
        tmp_live = 1;
    }
    if (fwrite(text, 1, len, out.f) != len) {
        int e = errno;
        files_out_discard(&out);
        tmp_live = 0;
        opt_err("probe", "cannot write %s: %s", path, strerror(e));
        return 2;
    }
    if (files_out_close(&out, err, sizeof err)) {
        tmp_live = 0;
        opt_err("probe", "cannot write %s", err);
        return 2;
    }
    tmp_live = 0;
    probe_log(o, "wrote %s", path);
    return 0;
}

/* 0, or 2 with a message when what went to standard output did not all
   arrive: /dev/full or a closed pipe is an error */
static int stdout_status(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    opt_err("probe", "cannot write to standard output: %s", strerror(errno));
    return 2;
}

/* --chase BYTES: one pointer-chase latency over BYTES, "median min max" ns
   on stdout */
static int bench_chase(const char *spec, const probe_opts *o, const probe_topo *topo)
{
    double vals[1024], t;
    probe_stats st;
    size_t line = topo->ncaches ? topo->cache[0].line : 64;
    long steps = 2000;
    uint64_t bytes;
    char *cb;
    int r;
    if (opt_u64(spec, line * 2, SIZE_MAX, &bytes)) {
        opt_err("probe", "--chase wants a size in bytes (at least two lines), not '%s'", spec);
        return 2;
    }
    cb = (char *)probe_alloc((size_t)bytes);
    if (!cb) {
        opt_err("probe", "cannot allocate %llu bytes", (unsigned long long)bytes);
        return 1;
    }
    memset(cb, 0, (size_t)bytes);
    probe_bind_core(topo, 0);
    probe_chase_build(cb, (size_t)bytes, line, 99, 0);
    t = probe_chase_run(cb, (size_t)bytes, line, 1, steps);
    steps = (long)(o->rep_seconds * 4 / (t / (double)steps > 1e-10 ? t / (double)steps : 1e-10));
    if (steps < 2000) steps = 2000;
    for (r = 0; r < o->min_reps; r++)
        vals[r] = probe_chase_run(cb, (size_t)bytes, line, 1, steps) / (double)steps * 1e9;
    probe_stats_of(vals, o->min_reps, &st);
    printf("%.3f %.3f %.3f\n", st.median, st.min, st.max);
    probe_free(cb, (size_t)bytes);
    return 0;
}

/* "OP,BYTES,THREADS" into op's name (at most 15 bytes), bytes (at least
   4096) and threads (at least 1): 0, or -1 when spec is not one */
static int bench_spec_read(const char *spec, char opname[16], uint64_t *bytes, int *threads)
{
    const char *c1 = strchr(spec, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
    char num[32];
    size_t len;
    uint64_t n;
    if (!c2 || c1 == spec || c1 - spec > 15 || (len = (size_t)(c2 - c1 - 1)) >= sizeof num) return -1;
    memcpy(opname, spec, (size_t)(c1 - spec));
    opname[c1 - spec] = 0;
    memcpy(num, c1 + 1, len);
    num[len] = 0;
    if (opt_u64(num, 4096, SIZE_MAX, bytes) || opt_u64(c2 + 1, 1, INT_MAX, &n)) return -1;
    *threads = (int)n;
    return 0;
}

/* --bench OP,BYTES,THREADS: one bandwidth kernel, for side-by-side runs
   with other tools: "median min max" GB/s on stdout */
static int bench_bandwidth(const char *spec, const probe_opts *o, const probe_topo *topo)
{
    int threads, k, one_order = 0, reps[2], why[2], orders;
    uint64_t bytes;
    char opname[16];
    probe_stats st, ost[2];
    probe_opts oc = *o;
    probe_team *tm;
    if (bench_spec_read(spec, opname, &bytes, &threads)) {
        opt_err("probe", "--bench wants OP,BYTES,THREADS (e.g. load,24576,1), not '%s'", spec);
        return 2;
    }
    for (k = 0; k < PROBE_MEMOP_COUNT; k++)
        if (!strcmp(opname, probe_memop_name[k])) break;
    if (!strcmp(opname, "load_in_order")) k = PROBE_LOAD, one_order = 1;
    if (k == PROBE_MEMOP_COUNT) {
        opt_err("probe", "--bench: unknown op '%s' (load, load_in_order, load_last_first, store, store_nt, 2:1, 1:1)",
                opname);
        return 2;
    }
    tm = probe_team_create(topo, threads, (size_t)bytes);
    if (!tm) {
        opt_err("probe", "cannot create %d pinned threads with %llu bytes each", threads, (unsigned long long)bytes);
        return 1;
    }
    if (one_order) mem_measure(tm, probe_isa_best(), (probe_memop)k, (size_t)bytes, o, &st, &reps[0]);
    else st = ost[roof_measure(tm, probe_isa_best(), (probe_memop)k, (size_t)bytes, &oc, 0, ost, reps, why, &orders)];
    printf("%.3f %.3f %.3f\n", st.median, st.min, st.max);
    probe_team_destroy(tm);
    return 0;
}

/* --topology [--profile FILE]: the machine, with the figures of FILE or of
   this machine's own profile */
static int show_topology(const char *path)
{
    probe_topo topo;
    edan_profile *p = NULL;
    char own[4400], err[600], host[256];
    if (!path && files_own_profile_find(own, sizeof own) == 0) path = own;
    if (path && edan_profile_load(path, NULL, &p, err, sizeof err) != EDAN_OK) {
        opt_err("probe", "%s", err);
        return 2;
    }
    if (probe_topo_init(&topo)) {
        opt_err("probe", "hwloc could not load the topology");
        edan_profile_free(p);
        return 1;
    }
    probe_topo_print(stdout, &topo, p);
    files_host(host, sizeof host);
    if (p) {
        printf("figures: %s%s", path, path == own ? " (this machine's own profile)" : "");
        if (strcmp(p->host, host)) printf("; measured on %s, not on this machine (%s)", p->host, host);
        printf("\n");
    } else
        printf("figures: none, no profile of this machine yet (probe writes one; --profile FILE shows another's)\n");
    probe_topo_free(&topo);
    edan_profile_free(p);
    return stdout_status();
}

/* the ISA named s (probe_isa_name), or -1 */
static int isa_of(const char *s)
{
    int i;
    for (i = 0; s && i < PROBE_ISA_COUNT; i++)
        if (!strcmp(s, probe_isa_name[i])) return i;
    return -1;
}

/* A profile's compute entries checked (each at its "clock_ghz", or the
   profile's clock in profiles without it) into c[*n..max), and the
   profile's clock against one core's FLOP roof. */
static void check_profile_compute(const edan_profile *p, probe_check *c, int *n, int max)
{
    const edan__json *arr = edan__json_get(edan__profile_json(p), "compute");
    double roof = 0;
    int roof_isa = 0;
    size_t i;
    for (i = 0; i < edan__json_len(arr) && *n < max - 1; i++) {
        const edan__json *e = edan__json_at(arr, i);
        const edan_profile_compute *k = &p->compute[i];
        int isa = isa_of(k->isa);
        char what[64];
        if (isa < 0) continue;
        snprintf(what, sizeof what, "%s %s %u thread(s)", k->isa, k->op, (unsigned)k->threads);
        probe_check_flops(&c[(*n)++], isa, what, k->median, (int)k->threads,
                          edan__json_number(edan__json_get(e, "clock_ghz"), p->core_ghz));
        if (k->threads == 1 && k->median > roof) roof = k->median, roof_isa = isa;
    }
    if (roof > 0) probe_check_clock(&c[(*n)++], roof_isa, roof, p->core_ghz);
}

/* A profile's memory roofs (one core and all) and latencies checked in
   level order into c[*n..max). */
static void check_profile_levels(const edan_profile *p, probe_check *c, int *n, int max)
{
    static const char *const levels[] = {"L1", "L2", "L3", "L4", "DRAM"};
    const int nl = (int)(sizeof levels / sizeof levels[0]);
    int t, k, prev;
    size_t i;
    for (t = 0; t < (p->cores > 1 ? 2 : 1); t++) {
        uint32_t th = t ? p->cores : 1;
        for (k = 0, prev = -1; k < nl && *n < max; k++) {
            if (!(edan__profile_roof(p, levels[k], th) > 0)) continue;
            if (prev >= 0)
                probe_check_order(&c[(*n)++], PROBE_CHECK_ROOFS, levels[prev], edan__profile_roof(p, levels[prev], th),
                                  levels[k], edan__profile_roof(p, levels[k], th), (int)th);
            prev = k;
        }
    }
    {
        double ns[5] = {0};
        for (i = 0; i < p->num_latency; i++)
            for (k = 0; k < nl; k++)
                if (!strcmp(p->latency[i].level, levels[k])) ns[k] = p->latency[i].ns;
        for (k = 0, prev = -1; k < nl && *n < max; k++) {
            if (!(ns[k] > 0)) continue;
            if (prev >= 0) probe_check_order(&c[(*n)++], PROBE_CHECK_LATENCY, levels[prev], ns[prev], levels[k], ns[k], 1);
            prev = k;
        }
    }
}

/* --check FILE: a profile's figures against the machine's limits, the
   checks a run makes of its own (without re-measuring): the failed ones
   and a count on standard output; 1 when one failed, 2 when FILE does
   not load. */
static int check_profile(const char *path)
{
    static probe_check c[CHECK_MAX];
    edan_profile *p = NULL;
    char err[600];
    int n = 0, failed = 0, i;
    if (edan_profile_load(path, NULL, &p, err, sizeof err) != EDAN_OK) {
        opt_err("probe", "%s", err);
        return 2;
    }
    check_profile_compute(p, c, &n, CHECK_MAX);
    check_profile_levels(p, c, &n, CHECK_MAX);
    for (i = 0; i < n; i++) failed += !c[i].passed;
    print_failed_checks(stdout, c, n, failed, 0);
    printf("probe --check %s: %d checks, %d failed", path, n, failed);
    if (p->num_checks)
        printf("; its run recorded %u, %u failed", (unsigned)p->num_checks, (unsigned)p->checks_failed);
    printf("\n");
    edan_profile_free(p);
    i = stdout_status();
    return i ? i : failed ? 1 : 0;
}

enum {
    PROBE_QUICK = 1, PROBE_BUDGET, PROBE_NUMA, PROBE_OUT, PROBE_QUIET, PROBE_TOPOLOGY, PROBE_PROFILE, PROBE_BENCH,
    PROBE_CHASE, PROBE_INSTALL, PROBE_CHECK, PROBE_VERSION, PROBE_HELP
};
static const opt_def probe_opts_table[] = {
    {NULL, NULL, 0,
     "usage: probe [--quick] [--budget SECONDS] [--numa] [-o FILE] [-q]\n"
     "       probe --topology [--profile FILE]\n"
     "       probe --install FILE\n"
     "       probe --bench OP,BYTES,THREADS | --chase BYTES\n"
     "       probe --check FILE\n"
     "       probe --version\n"
     "Measures this machine and writes its hardware profile (JSON, schema\n"
     "\"edan-hwprofile\", see hwprofiles/README.md) for `edan` to use:\n"
     "  topology and caches (hwloc; sysfs where hwloc lacks a field; cache\n"
     "    sizes checked against a latency sweep), the core clock (dependent-add\n"
     "    chain) and the TSC rate;\n"
     "  compute roofs: FMA/ADD/MUL, scalar/SSE/AVX2/AVX-512 double (those this\n"
     "    CPU has), one core and all cores;\n"
     "  bandwidth roofs: L1, L2, L3, DRAM x load, store, 2:1 and 1:1 in-place\n"
     "    load:store mixes, non-temporal store (DRAM), one core and all cores;\n"
     "  latency per level and DRAM (Sattolo pointer chase; DRAM = the analyzer's\n"
     "    alpha), memory-level parallelism m from 1..32 interleaved chases;\n"
     "  CARM validation (FMA+load mixes, AI 1/16..16) with its RMS error;\n"
     "  PAPI counters where the machine has them.\n"
     "Threads are pinned one per core with hwloc."},
    {"--quick", NULL, PROBE_QUICK, "fewer and shorter repetitions, 15 s budget (full: 90 s)"},
    {"--budget", "SECONDS", PROBE_BUDGET, "the run's time budget: measurements past their share\n"
                                          "stop at 3 repetitions (min, median, max)"},
    {"--numa", NULL, PROBE_NUMA, "add the \"numa\" section (LARM roofs; skipped on one node)"},
    {"-o", "FILE", PROBE_OUT, "output file (- standard output; default\n"
                              "$XDG_DATA_HOME/edan/hwprofiles/HOST.json, that is\n"
                              "~/.local/share/edan/hwprofiles/HOST.json: never a\n"
                              "shipped profile)"},
    {"-q", NULL, PROBE_QUIET, "no progress lines on stderr"},
    {NULL, NULL, 0,
     "Every figure is the median of its repetitions; one whose middle half spans\n"
     "more than 10% of the median is measured again (up to 2 times, --quick 1)\n"
     "and, still unstable, listed in the profile (\"stability\") and in a warning.\n"
     "Every figure is checked against the machine's limits: flops per cycle per\n"
     "core at most 2 FP units x the ISA's lanes x 2 (scalar 4, SSE 8, AVX2 16,\n"
     "AVX-512 32) at the clock measured around the kernel, the clock at least one\n"
     "core's FLOP roof over that, roofs L1 >= L2 >= L3 >= DRAM, latencies rising\n"
     "by level (5% slack); what fails is measured again (up to 2 times) and,\n"
     "still failing, recorded in the profile (\"checks\") and in a warning."},
    {"--topology", NULL, PROBE_TOPOLOGY, "the machine as hwloc-ls draws it, with the measured\n"
                                         "figures (latency, load bandwidth, alpha, m) beside the\n"
                                         "caches and NUMA nodes: from this machine's own profile\n"
                                         "or --profile FILE"},
    {"--profile", "FILE", PROBE_PROFILE, "the profile whose figures --topology shows"},
    {"--install", "FILE", PROBE_INSTALL, "make FILE (a profile of this machine, written by probe\n"
                                         "-o FILE) this machine's own profile, the one edan\n"
                                         "uses without --profile, when it has none; says where.\n"
                                         "An own profile already there is kept (exit 0)"},
    {"--bench", "OP,BYTES,THREADS", PROBE_BENCH, "measure one bandwidth kernel (OP: load, store,\n"
                                                 "store_nt, 2:1, 1:1; BYTES per thread) and print its GB/s\n"
                                                 "median, min and max; writes no profile. load is the\n"
                                                 "roof: the better of load_in_order and load_last_first"},
    {"--chase", "BYTES", PROBE_CHASE, "one pointer-chase latency over BYTES: ns median, min, max"},
    {"--check", "FILE", PROBE_CHECK, "check profile FILE's figures against the machine's limits\n"
                                     "(flops per cycle, roofs and latencies ordered by level,\n"
                                     "the clock against the FLOP roof); exit 1 if one fails"},
    {"--version", NULL, PROBE_VERSION, "probe's version, its profile version and libraries"},
    {"-h|--help", NULL, PROBE_HELP, "this text"},
    {NULL, NULL, 0,
     "\n"
     "Exit status: 0 success (a profile whose checks failed is written, and says so);\n"
     "1 a measurement failed, or with --check a check failed; 2 a usage error, a\n"
     "profile that cannot be written, or a --check FILE that does not load."},
};
#define PROBE_NOPTS (sizeof probe_opts_table / sizeof probe_opts_table[0])

/* path with %h the host's name (a profile per node: srun -N K probe -o
   profiles/%h.json) and %% a %; kept for the run (NULL: out of memory, the
   path as given). */
static const char *probe_host_path(const char *path)
{
    char host[256], *out;
    if (!strchr(path, '%')) return path;
    files_host(host, sizeof host);
    out = files_expand(path, -1, host);
    return out ? out : path;
}


/* --install FILE: FILE, a profile of this host, becomes its own profile
   (copied atomically where edan looks first) unless it has one. */
static int install_profile(const char *path)
{
    edan_profile *p = NULL;
    char own[4400], err[600], host[256];
    char *text;
    size_t len;
    files_out t;
    if (edan_profile_load(path, NULL, &p, err, sizeof err) != EDAN_OK) {
        opt_err("probe", "--install %s", err);
        return 2;
    }
    files_host(host, sizeof host);
    if (strcmp(p->host, host)) {
        opt_err("probe", "--install %s: measured on %s, not on this machine (%s): not installed", path, p->host, host);
        edan_profile_free(p);
        return 2;
    }
    edan_profile_free(p);
    if (files_own_profile_find(own, sizeof own) == 0) {
        printf("this machine's own profile is %s already; %s not installed (probe -o %s measures it anew)\n", own,
               path, own);
        return stdout_status();
    }
    if (files_own_profile_home(own, sizeof own)) {
        opt_err("probe", "--install %s: no home directory to install it in ($HOME, $XDG_DATA_HOME unset)", path);
        return 2;
    }
    if (!(text = files_read_all(path, (size_t)1 << 26, &len, err, sizeof err))) {
        opt_err("probe", "--install %s", err);
        return 2;
    }
    if (files_out_open(&t, own, err, sizeof err)) {
        opt_err("probe", "--install: cannot write %s", err);
        free(text);
        return 2;
    }
    fwrite(text, 1, len, t.f);
    free(text);
    if (files_out_close(&t, err, sizeof err)) {
        opt_err("probe", "--install: %s", err);
        return 2;
    }
    printf("installed %s as this machine's own profile: %s (edan uses it without --profile)\n", path, own);
    return stdout_status();
}

/* ---- the run: a table of steps, each measuring and writing its part ---- */
typedef struct probe_run {
    probe_opts o;
    const char *install;        /* --install FILE */
    int want_numa, topology, bench_chase;
    const char *out_path;           /* the profile's path; "-": standard output */
    const char *bench_spec, *topo_profile, *check_path;
    char host[256], defpath[4200];  /* defpath: this machine's own profile */
    probe_topo topo;
    int best_isa;
    size_t line_bytes;
    probe_stats ghz;                /* the core clock: the samples around the latencies */
    double clk[256];                /* those samples */
    int nclk;
    probe_stats lat_st[PROBE_MAX_CACHES + 1];   /* each level's latency, ns */
    size_t lat_ws[PROBE_MAX_CACHES + 1];        /* and its working set */
    double core_ghz, tsc_ghz;
    char *json;                     /* the profile's text, as w writes it */
    size_t json_len;
    jw w;
    char *chase_buf;                /* the chases' buffer, then thread 0's in both teams */
    size_t built;                   /* the working set whose cycle chase_buf holds */
    size_t page;                    /* the page size backing chase_buf */
    double sweep_ns[40];            /* the latency sweep: ns at sweep_sz bytes */
    size_t sweep_sz[40];
    int nsweep;
    level_info lv[PROBE_MAX_CACHES + 1];
    int nlevels;
    probe_team *team1, *teamN;      /* one core; all cores (NULL on one core) */
    double roof_flops[2];           /* the best compute median, one core and all */
    int roof_isa[2];                /* its ISA */
    char roof_label[2][64];
    double fma_peak_1;              /* one core's best FMA median: CARM's roof */
} probe_run;

/* The TSC's rate, and a first reading of the core clock for the progress
   lines; the profile's clock is measured in the latencies' window (see
   latency_of_level). */
static int step_clocks(probe_run *r)
{
    budget_section(&r->o, SEC_CLOCKS, 1);
    r->core_ghz = probe_core_ghz(r->o.quick ? 0.02 : 0.05);
    r->tsc_ghz = probe_tsc_ghz(r->o.quick ? 0.05 : 0.2);
    probe_log(&r->o, "core clock %.3f GHz (dependent adds, a first reading), TSC %.3f GHz", r->core_ghz, r->tsc_ghz);
    return 0;
}

/* the profile's text opens: what it is, where and when measured */
static int step_header(probe_run *r)
{
    jw *w = &r->w;
    char ts[64];
    time_t now = time(NULL);
    FILE *mf = open_memstream(&r->json, &r->json_len);
    if (!mf) {
        opt_err("probe", "out of memory");
        return 1;
    }
    jw_init(w, mf);
    jw_obj(w, NULL);
    jw_str(w, "schema", EDAN_PROFILE_SCHEMA);
    jw_int(w, "version", EDAN_PROFILE_VERSION);
    jw_str(w, "generator", "probe");
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    jw_str(w, "created", ts);
    jw_str(w, "host", r->host);
    jw_str(w, "mode", r->o.quick ? "quick" : "full");
    return 0;
}

static int step_topology(probe_run *r)
{
    jw *w = &r->w;
    int i, isa;
    jw_obj(w, "topology");
    jw_str(w, "source", "hwloc");
    jw_str(w, "cpu_model", r->topo.cpu_model);
    jw_int(w, "packages", r->topo.packages);
    jw_int(w, "cores", r->topo.cores);
    jw_int(w, "pus", r->topo.pus);
    jw_arr(w, "numa_nodes");
    for (i = 0; i < (int)r->topo.numa_nodes && i < 64; i++) {
        jw_obj(w, NULL);
        jw_int(w, "index", i);
        jw_int(w, "bytes", (long long)r->topo.numa_bytes[i]);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_arr(w, "isa");
    for (isa = 0; isa < PROBE_ISA_COUNT; isa++)
        if (probe_isa_supported(isa)) jw_str(w, NULL, probe_isa_name[isa]);
    jw_end_arr(w);
    jw_bool(w, "fma", __builtin_cpu_supports("fma"));
    jw_end_obj(w);
    return 0;
}

/* Steps of one chase over `bytes` (the cycle built) that last about
   `seconds`, at least 2000. */
static long chase_steps(const probe_run *r, size_t bytes, double seconds)
{
    long steps = 2000;
    double t = probe_chase_run(r->chase_buf, bytes, r->line_bytes, 1, steps);
    steps = (long)(seconds / (t / (double)steps > 1e-10 ? t / (double)steps : 1e-10));
    return steps < 2000 ? 2000 : steps;
}

/* The levels (r->lv): each cache's reported size, unless at the working
   set it would give the latency is already nearer DRAM's than the previous
   level's (seen in VMs that report the host's cache); then the largest
   swept size that is not. DRAM last. */
static void sweep_levels(probe_run *r)
{
    const double *sweep_ns = r->sweep_ns;
    const size_t *sweep_sz = r->sweep_sz;
    double dram_ns = sweep_ns[r->nsweep - 1];
    level_info *lv = r->lv;
    int li, ns = r->nsweep;
    for (li = 0; li < (int)r->topo.ncaches && li < 3; li++) {
        probe_cache *c = &r->topo.cache[li];
        size_t per_core = c->size / c->sharing, prev = li ? lv[li - 1].capacity / lv[li - 1].sharing : 0;
        int j, at = -1, fit = -1, below = 0;
        double limit;
        /* `at`: the swept size nearest below the working set this level
           would get (see level_ws) */
        for (j = 0; j < ns; j++) {
            if (sweep_sz[j] <= (li ? (size_t)sqrt((double)prev * (double)per_core) : per_core / 2)) at = j;
            if (sweep_sz[j] <= prev / 2) below = j;
        }
        /* a level ends where the latency passes the geometric mean of the
           previous level's and DRAM's */
        limit = sqrt(sweep_ns[below] * dram_ns);
        for (j = 0; j < ns; j++)
            if (sweep_ns[j] <= limit && sweep_sz[j] <= c->size && sweep_sz[j] > prev) fit = j;
        lv[r->nlevels].capacity = c->size;
        lv[r->nlevels].sharing = c->sharing;
        lv[r->nlevels].prev = prev;
        if (li > 0 && at >= 0 && sweep_ns[at] > limit) {
            if (fit < 0)    /* nothing beyond the previous level stays below: the smallest step */
                for (fit = 0; fit + 1 < ns && sweep_sz[fit] <= prev; fit++) {}
            c->effective = sweep_sz[fit];
            c->effective_source = "latency sweep: at half the reported size the latency is already nearer DRAM's";
            lv[r->nlevels].capacity = sweep_sz[fit];
            lv[r->nlevels].sharing = r->topo.cores;     /* unknown sharing: assume all cores share it */
            probe_log(&r->o, "L%d: hwloc reports %zu KiB, the latency sweep ends the level at %zu KiB; using that",
                      c->level, (size_t)(c->size >> 10), (size_t)(sweep_sz[fit] >> 10));
        }
        lv[r->nlevels].name = c->level == 1 ? "L1" : c->level == 2 ? "L2" : "L3";
        r->nlevels++;
    }
    lv[r->nlevels].name = "DRAM";
    lv[r->nlevels].capacity = DRAM_BYTES;
    lv[r->nlevels].sharing = 1;
    lv[r->nlevels].prev = 0;
    r->nlevels++;
}

/* latency sweep 4 KiB .. DRAM_BYTES: checks the reported cache sizes */
static int step_sweep(probe_run *r)
{
    char *cb = r->chase_buf = (char *)probe_alloc(DRAM_BYTES);
    double vals[1024];
    probe_stats st;
    size_t sz;
    int i;
    if (!cb) {
        opt_err("probe", "cannot allocate %zu bytes", (size_t)DRAM_BYTES);
        return 1;
    }
    budget_section(&r->o, SEC_SWEEP, r->o.quick ? 15 : 17);
    memset(cb, 0, DRAM_BYTES);
    r->page = probe_page_size(cb);
    probe_log(&r->o, "latency sweep 4 KiB .. %zu MiB (page size %zu KiB)", (size_t)DRAM_BYTES >> 20, r->page >> 10);
    for (sz = 4096; sz <= DRAM_BYTES && r->nsweep < 40; sz *= 2) {
        long steps;
        int k, nr = r->o.quick ? 3 : 5, why;
        /* quick: no sizes between 32 MiB and the DRAM buffer (their builds are slow) */
        if (r->o.quick && sz > ((size_t)32 << 20) && sz < DRAM_BYTES) continue;
        budget_next(&r->o);
        probe_chase_build(cb, sz, r->line_bytes, 12345 + sz, sz == DRAM_BYTES);
        r->built = sz;
        steps = chase_steps(r, sz, r->o.rep_seconds);
        for (k = 0; chase_more(&r->o, k, nr, &why); k++)
            vals[k] = probe_chase_run(cb, sz, r->line_bytes, 1, steps) / (double)steps * 1e9;
        budget_count(why);
        probe_stats_of(vals, k, &st);
        r->sweep_sz[r->nsweep] = sz;
        r->sweep_ns[r->nsweep++] = st.min;      /* the least disturbed: other work only adds */
    }
    jw_str(&r->w, "latency_sweep_statistic", "min of the repetitions (interference only adds)");
    jw_arr(&r->w, "latency_sweep");
    for (i = 0; i < r->nsweep; i++) {
        jw_obj(&r->w, NULL);
        jw_int(&r->w, "bytes", (long long)r->sweep_sz[i]);
        jw_num(&r->w, "ns", r->sweep_ns[i]);
        jw_end_obj(&r->w);
    }
    jw_end_arr(&r->w);
    sweep_levels(r);
    return 0;
}

/* level li's latency: a chase over its working set (*ws), measured again
   while unstable; the core clock sampled before and after each run of
   repetitions (r->clk: the latencies' cycles use that clock) */
static void latency_of_level(probe_run *r, int li, probe_stats *st, size_t *ws)
{
    double vals[1024];
    char what[64];
    long steps;
    int k, nr = r->o.min_reps, why, attempt;
    *ws = level_ws(&r->lv[li], 1);
    budget_next(&r->o);
    if (*ws != r->built) probe_chase_build(r->chase_buf, *ws, r->line_bytes, 777 + li, 0);
    r->built = *ws;
    steps = chase_steps(r, *ws, r->o.rep_seconds * 2);
    snprintf(what, sizeof what, "%s latency", r->lv[li].name);
    for (attempt = 0;; attempt++) {
        probe_stats cur;
        if (attempt) budget_next(&r->o);
        if (r->nclk < (int)(sizeof r->clk / sizeof r->clk[0])) r->clk[r->nclk++] = clock_sample(&r->o);
        for (k = 0; chase_more(&r->o, k, nr, &why); k++)
            vals[k] = probe_chase_run(r->chase_buf, *ws, r->line_bytes, 1, steps) / (double)steps * 1e9;
        if (r->nclk < (int)(sizeof r->clk / sizeof r->clk[0])) r->clk[r->nclk++] = clock_sample(&r->o);
        budget_count(why);
        probe_stats_of(vals, k, &cur);
        if (!stab_again(st, &cur, attempt, what, "ns")) break;
    }
    r->lv[li].lat_ns = st->median;
    sumrow[sumrow_of(r->lv[li].name)].lat = *st;
}

/* the profile's core clock: the statistics of the samples around the
   latencies */
static void latency_clock(probe_run *r)
{
    probe_stats_of(r->clk, r->nclk, &r->ghz);
    r->core_ghz = r->ghz.median;
}

/* the caches as reported, with the working sets the levels use */
static void write_caches(probe_run *r)
{
    jw *w = &r->w;
    int li;
    jw_arr(w, "caches");
    for (li = 0; li + 1 < r->nlevels; li++) {
        const probe_cache *c = &r->topo.cache[li];
        jw_obj(w, NULL);
        jw_str(w, "level", r->lv[li].name);
        jw_int(w, "size_bytes", (long long)c->size);
        jw_int(w, "line_bytes", c->line);
        jw_int(w, "assoc", c->fully_assoc ? 0 : c->assoc);
        jw_bool(w, "fully_associative", c->fully_assoc);
        jw_int(w, "sharing_cores", c->sharing);
        jw_int(w, "instances", c->instances);
        jw_str(w, "source", c->source ? c->source : "hwloc");
        jw_int(w, "effective_bytes", (long long)r->lv[li].capacity);
        jw_int(w, "effective_sharing_cores", r->lv[li].sharing);
        jw_str(w, "effective_source", c->effective_source ? c->effective_source : "reported size");
        jw_num(w, "latency_ns", r->lv[li].lat_ns);
        jw_num(w, "latency_cycles", r->lv[li].lat_ns * r->core_ghz);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

/* latency per level, DRAM first on the cycle the sweep built last (and
   memory-level parallelism and the window on it), then the caches; the
   core clock of their window. They are checked and written after the
   compute roofs (step_latency_out). */
static int step_latency(probe_run *r)
{
    jw *w = &r->w;
    int li;
    probe_log(&r->o, "latency per level");
    budget_section(&r->o, SEC_LATENCY, r->nlevels + 32);
    for (li = r->nlevels - 1; li >= 0; li--) {
        latency_of_level(r, li, &r->lat_st[li], &r->lat_ws[li]);
        probe_log(&r->o, "  %-4s %9zu B: %.2f ns", r->lv[li].name, r->lat_ws[li], r->lv[li].lat_ns);
        if (li == r->nlevels - 1) {
            mlp_measure(w, &r->o, r->chase_buf, r->line_bytes, r->lv[li].lat_ns);
            probe_window_measure(w, &r->o, r->chase_buf, DRAM_BYTES, r->line_bytes, r->lv[li].lat_ns, r->core_ghz);
        }
    }
    latency_clock(r);
    /* from here on thread 0's buffer in both teams (a second 256 MiB first
       touch costs a VM like this one half a second): refilled as a fresh
       team buffer, the chase's pointers gone */
    memset(r->chase_buf, 1, DRAM_BYTES);
    r->built = 0;
    return 0;
}

/* A round of re-measurements of failed checks: `measurements` of them,
   each given floor_reps + 3 repetitions of the run's length, past the
   section's share of the budget if need be (the rounds are bounded:
   PROBE_CHECK_RETRIES). */
static void budget_retry(probe_opts *o, int measurements)
{
    double need = probe_now() + measurements * (o->floor_reps + 3) * bud.rep_seconds;
    if (bud.sec_end < need) bud.sec_end = need;
    bud.left = measurements > 0 ? measurements : 1;
}

/* The latencies' checks: the clock of their window against one core's
   FLOP roof (c[0]), and rising level by level (c[1..]); returns how many
   failed. */
static int latency_checks(probe_run *r, probe_check *c)
{
    int li, failed = 0;
    probe_check_clock(&c[0], r->roof_isa[0], r->roof_flops[0], r->core_ghz);
    for (li = 1; li < r->nlevels; li++)
        probe_check_order(&c[li], PROBE_CHECK_LATENCY, r->lv[li - 1].name, r->lat_st[li - 1].median, r->lv[li].name,
                          r->lat_st[li].median, 1);
    for (li = 0; li < r->nlevels; li++) failed += !c[li].passed;
    return failed;
}

/* After the compute roofs: the latencies and their clock checked (a clock
   too slow for the FLOP roof: the clock and every latency measured again,
   in a new window; two levels out of order: the two again), at most
   PROBE_CHECK_RETRIES rounds; then written with the cycles of that clock. */
static int step_latency_out(probe_run *r)
{
    static const char *const keys[5] = {"ns", "ns_min", "ns_max", "ns_spread", "ns_quartile_spread"};
    jw *w = &r->w;
    probe_check c[PROBE_MAX_CACHES + 1];
    int li, try, again = 0, retried[PROBE_MAX_CACHES + 1] = {0};
    for (try = 0; latency_checks(r, c) && try < PROBE_CHECK_RETRIES; try++) {
        int redo[PROBE_MAX_CACHES + 1] = {0};
        for (li = 0; li < r->nlevels; li++) {
            if (c[li].passed) continue;
            check_again(&c[li], try);
            retried[li]++;
            if (li) redo[li - 1] = redo[li] = 1;
        }
        if (!c[0].passed) r->nclk = 0;      /* a new window for the clock */
        budget_retry(&r->o, r->nlevels);
        for (li = r->nlevels - 1; li >= 0; li--)
            if (!c[0].passed || redo[li]) {
                latency_of_level(r, li, &r->lat_st[li], &r->lat_ws[li]);
                again = 1;
            }
        latency_clock(r);
    }
    if (again) {    /* the chases' pointers gone again */
        memset(r->chase_buf, 1, DRAM_BYTES);
        r->built = 0;
    }
    for (li = 0; li < r->nlevels; li++) {
        c[li].retries = retried[li];
        check_record(&c[li]);
    }
    stab_note("core clock", "GHz", &r->ghz);
    jw_arr(w, "latency");
    for (li = 0; li < r->nlevels; li++) {
        const probe_stats *st = &r->lat_st[li];
        char what[64];
        snprintf(what, sizeof what, "%s latency", r->lv[li].name);
        stab_note(what, "ns", st);
        jw_obj(w, NULL);
        jw_str(w, "level", r->lv[li].name);
        jw_int(w, "bytes", (long long)r->lat_ws[li]);
        jw_stats_as(w, keys, st);
        jw_num(w, "cycles", st->median * r->core_ghz);
        jw_num(w, "tsc_cycles", st->median * r->tsc_ghz);
        jw_int(w, "page_bytes", (long long)r->page);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    write_caches(r);
    jw_str(w, "latency_clock", "cycles: the core clock (dependent-add chain) sampled before and after each level's "
                               "chase, the median of those samples (\"frequency\"); tsc_cycles: TSC");
    return 0;
}

/* the pinned teams, one core and all cores, thread 0 on the chases' buffer */
static int step_teams(probe_run *r)
{
    uint64_t mem = 0;
    int i;
    for (i = 0; i < (int)r->topo.numa_nodes && i < 64; i++) mem += r->topo.numa_bytes[i];
    if (mem && (uint64_t)r->topo.cores * DRAM_BYTES > mem / 4) {
        dram_bytes_all = (size_t)(mem / 4 / r->topo.cores) / (2u << 20) * (2u << 20);
        if (dram_bytes_all < ((size_t)32 << 20)) dram_bytes_all = (size_t)32 << 20;
    }
    budget_section(&r->o, SEC_TEAMS, 1);
    r->team1 = probe_team_create_with(&r->topo, 1, DRAM_BYTES, r->chase_buf);
    r->teamN = r->topo.cores > 1 ? probe_team_create_with(&r->topo, (int)r->topo.cores, dram_bytes_all, r->chase_buf)
                                 : NULL;
    if (!r->team1 || (r->topo.cores > 1 && !r->teamN)) {
        opt_err("probe", "cannot create the pinned threads or their buffers");
        return 1;
    }
    return 0;
}

/* one compute measurement with the clock sampled before and after it:
   GFLOP/s per repetition into vals, the window's clock into *ghz */
static int compute_window(probe_run *r, probe_team *tm, compute_job *cj, double *vals, int *nvals, double *ghz)
{
    double secs[1024], fpi = (double)probe_isa_lanes(cj->isa) * (cj->op == PROBE_OP_FMA ? 2 : 1), flops, g1;
    int n = probe_team_size(tm), k, why;
    *ghz = clock_sample(&r->o);
    why = probe_team_measure(tm, compute_job_fn, cj, &r->o, secs, nvals);
    g1 = clock_sample(&r->o);
    if (g1 > *ghz) *ghz = g1;
    budget_count(why);
    flops = (double)cj->iters * probe_compute_accumulators() * fpi * n;
    for (k = 0; k < *nvals; k++) vals[k] = flops / secs[k] * 1e-9;
    return why;
}

/* compute roof of isa and op with team t (0: one core, 1: all cores),
   cj calibrated: measured again while unstable, and while its flops per
   cycle (at the clock of its window) break the ISA's limit; the entry
   written */
static void compute_one(probe_run *r, compute_job *cj, int t)
{
    jw *w = &r->w;
    probe_team *tm = t ? r->teamN : r->team1;
    double vals[1024], ghz = 0, g;
    double fpi = (double)probe_isa_lanes(cj->isa) * (cj->op == PROBE_OP_FMA ? 2 : 1);
    const char *isa = probe_isa_name[cj->isa], *op = probe_fop_name[cj->op];
    probe_stats st;
    probe_check chk;
    char what[64];
    int n = probe_team_size(tm), why = 0, attempt, nsecs, try;
    snprintf(what, sizeof what, "%s %s %d thread(s)", isa, op, n);
    for (try = 0;; try++) {
        for (attempt = 0;; attempt++) {
            probe_stats cur;
            int y;
            if (t || attempt || try) budget_next(&r->o);
            y = compute_window(r, tm, cj, vals, &nsecs, &g);
            probe_stats_of(vals, nsecs, &cur);
            if (!attempt || cur.quartile_spread < st.quartile_spread) ghz = g, why = y;
            if (!stab_again(&st, &cur, attempt, what, "GFLOP/s")) break;
        }
        probe_check_flops(&chk, cj->isa, what, st.median, n, ghz);
        if (!check_again(&chk, try)) break;
    }
    check_record(&chk);
    stab_note(what, "GFLOP/s", &st);
    jw_obj(w, NULL);
    jw_str(w, "isa", isa);
    jw_str(w, "op", op);
    jw_int(w, "threads", n);
    jw_int(w, "accumulators", probe_compute_accumulators());
    jw_stats(w, "GFLOPs", &st);
    jw_num(w, "clock_ghz", ghz);
    jw_num(w, "flops_per_cycle_per_core", st.median / n / ghz);
    jw_num(w, "instructions_per_cycle_per_core", st.median / n / ghz / fpi);
    jw_int(w, "reps", st.reps);
    jw_str(w, "stop", probe_stop_name[why]);
    if (!chk.passed) jw_bool(w, "check_failed", 1);
    jw_end_obj(w);
    if (st.median > r->roof_flops[t]) {
        r->roof_flops[t] = st.median;
        r->roof_isa[t] = cj->isa;
        snprintf(r->roof_label[t], sizeof r->roof_label[t], "%s %s", isa, op);
    }
    if (t == 0 && cj->op == PROBE_OP_FMA && st.median > r->fma_peak_1) r->fma_peak_1 = st.median;
    probe_log(&r->o, "  %-6s %s %d thread(s): %.1f GFLOP/s (%.2f instr/cycle/core at %.2f GHz)", isa, op, n, st.median,
              st.median / n / ghz / fpi, ghz);
}

/* compute roofs: every ISA the CPU has x FMA, ADD, MUL, one core and all */
static int step_compute(probe_run *r)
{
    int isa, op, t, nmeas = 0;
    probe_log(&r->o, "compute roofs");
    for (isa = 0; isa < PROBE_ISA_COUNT; isa++)
        nmeas += probe_isa_supported(isa) ? PROBE_FOP_COUNT * (r->teamN ? 2 : 1) : 0;
    budget_section(&r->o, SEC_COMPUTE, nmeas);
    jw_arr(&r->w, "compute");
    for (isa = 0; isa < PROBE_ISA_COUNT; isa++) {
        if (!probe_isa_supported(isa)) continue;
        for (op = 0; op < PROBE_FOP_COUNT; op++) {
            compute_job cj;
            memset(&cj, 0, sizeof cj);
            cj.isa = isa;
            cj.op = op;
            cj.iters = 1000;
            budget_next(&r->o);
            calibrate(compute_job_fn, &cj, &cj.iters, NULL, r->o.rep_seconds);
            for (t = 0; t < 2; t++)
                if (t ? r->teamN : r->team1) compute_one(r, &cj, t);
        }
    }
    jw_end_arr(&r->w);
    return 0;
}

/* One bandwidth entry, measured before it is written: the roofs are
   checked level against level first. */
typedef struct bw_entry {
    int li, t, orders, why;
    probe_memop op;
    size_t bytes;
    probe_stats st, kept[2];        /* the figure; each order's (loads) */
} bw_entry;

/* bandwidth roof of e's op at level e->li with team e->t (0: one core, 1:
   all cores), measured again while unstable (the orders of the steadiest
   run kept) */
static void bandwidth_one(probe_run *r, bw_entry *e)
{
    probe_team *tm = e->t ? r->teamN : r->team1;
    level_info *L = &r->lv[e->li];
    int n = probe_team_size(tm), best, attempt, oreps[2], owhy[2];
    probe_stats ost[2];
    char what[64];
    e->bytes = level_ws(L, n);
    snprintf(what, sizeof what, "%s %s %d thread(s)", L->name, probe_memop_name[e->op], n);
    for (attempt = 0;; attempt++) {
        best = roof_measure(tm, r->best_isa, e->op, e->bytes, &r->o, 1, ost, oreps, owhy, &e->orders);
        if (!attempt || ost[best].quartile_spread < e->st.quartile_spread) {
            e->kept[0] = ost[0];
            e->kept[1] = ost[1];
            e->why = owhy[best];
        }
        if (!stab_again(&e->st, &ost[best], attempt, what, "GB/s")) break;
    }
    best = e->orders == 2 && e->kept[1].median > e->kept[0].median;
    if (e->op == PROBE_LOAD && n == 1) L->load_GBps = e->st.median;
    probe_log(&r->o, "  %-4s %-8s %d thread(s) %9zu B/thread: %7.1f GB/s [%.1f..%.1f]%s", L->name,
              probe_memop_name[e->op], n, e->bytes, e->st.median, e->st.min, e->st.max,
              e->orders == 2 ? (best ? " (last vector first)" : " (in order)") : "");
}

/* the entry written (its figure noted for the stability list) */
static void bandwidth_write(probe_run *r, const bw_entry *e, int check_failed)
{
    jw *w = &r->w;
    const level_info *L = &r->lv[e->li];
    int n = e->t ? probe_team_size(r->teamN) : 1, best = e->orders == 2 && e->kept[1].median > e->kept[0].median;
    char what[64];
    snprintf(what, sizeof what, "%s %s %d thread(s)", L->name, probe_memop_name[e->op], n);
    stab_note(what, "GB/s", &e->st);
    jw_obj(w, NULL);
    jw_str(w, "level", L->name);
    jw_str(w, "op", probe_memop_name[e->op]);
    jw_int(w, "threads", n);
    jw_int(w, "bytes", (long long)e->bytes);
    jw_str(w, "isa", probe_isa_name[r->best_isa]);
    jw_stats(w, "GBps", &e->st);
    jw_int(w, "reps", e->st.reps);
    jw_str(w, "stop", probe_stop_name[e->why]);
    if (e->orders == 2) {
        jw_str(w, "order", best ? "last_first" : "in_order");
        jw_obj(w, "orders_GBps");
        jw_num(w, "in_order", e->kept[0].median);
        jw_num(w, "last_first", e->kept[1].median);
        jw_end_obj(w);
    }
    if (check_failed) jw_bool(w, "check_failed", 1);
    jw_end_obj(w);
    if (e->op == PROBE_LOAD) {
        if (e->t) sumrow[sumrow_of(L->name)].loadN = e->st;
        else sumrow[sumrow_of(L->name)].load1 = e->st;
    }
}

/* the entry that is level li's roof with team t (the best median of its
   ops); -1 if none */
static int bandwidth_roof(const bw_entry *e, int n, int li, int t)
{
    int i, best = -1;
    for (i = 0; i < n; i++)
        if (e[i].li == li && e[i].t == t && (best < 0 || e[i].st.median > e[best].st.median)) best = i;
    return best;
}

/* The roofs ordered L1 >= L2 >= L3 >= DRAM, one core and all: a level
   whose roof is above the one before it has both roofs (the entries that
   set them) measured again, PROBE_CHECK_RETRIES rounds at most; the
   checks recorded, failed[i] set for each entry of a failed one. */
static void bandwidth_checks(probe_run *r, bw_entry *e, int n, int *failed)
{
    int t, li, try;
    for (t = 0; t < 2; t++)
        for (li = 1; li < r->nlevels && (t ? r->teamN : r->team1); li++) {
            probe_check c;
            int a, b, threads = t ? probe_team_size(r->teamN) : 1;
            for (try = 0;; try++) {
                a = bandwidth_roof(e, n, li - 1, t);
                b = bandwidth_roof(e, n, li, t);
                if (a < 0 || b < 0) break;
                probe_check_order(&c, PROBE_CHECK_ROOFS, r->lv[li - 1].name, e[a].st.median, r->lv[li].name,
                                  e[b].st.median, threads);
                if (!check_again(&c, try)) break;
                budget_retry(&r->o, 2 * (e[a].orders + e[b].orders));
                bandwidth_one(r, &e[a]);
                bandwidth_one(r, &e[b]);
            }
            if (a < 0 || b < 0) continue;
            check_record(&c);
            if (!c.passed) failed[a] = failed[b] = 1;
        }
}

/* how the bandwidth figures count, and DRAM's parallelism by Little's law */
static void write_bandwidth_method(probe_run *r)
{
    jw *w = &r->w;
    const level_info *dram = &r->lv[r->nlevels - 1];
    /* Little's law: outstanding lines = bandwidth x latency / line */
    jw_obj(w, "mlp_little");
    jw_num(w, "m", dram->load_GBps * dram->lat_ns / (double)r->line_bytes);
    jw_num(w, "GBps", dram->load_GBps);
    jw_num(w, "latency_ns", dram->lat_ns);
    jw_int(w, "line_bytes", (long long)r->line_bytes);
    jw_str(w, "note", "one core's DRAM load bandwidth (prefetchers included) x DRAM latency / line size");
    jw_end_obj(w);
    jw_obj(w, "bandwidth_method");
    jw_bool(w, "write_allocate_counted", 0);
    jw_str(w, "bytes_counted", "bytes named by the load and store instructions; the read a write-allocate "
                               "cache does before a plain store is not counted");
    jw_str(w, "mixes", "2:1 is a[i] += b[i] and 1:1 is a[i] += c, in place, so they cause no "
                       "write-allocate traffic; load = 1:0 and store = 0:1");
    jw_str(w, "working_set", "bytes is per thread: L1 half its size, deeper levels the geometric mean of "
                             "the previous level's and this level's per-thread capacity, DRAM 256 MiB "
                             "(all cores: less if cores x 256 MiB exceed a quarter of the memory)");
    jw_str(w, "GBps", "1e9 bytes per second, all threads together");
    jw_end_obj(w);
}

/* bandwidth roofs: every level x load, store, the mixes (and non-temporal
   stores to DRAM), one core and all */
static int step_bandwidth(probe_run *r)
{
    static const probe_memop ops[] = {PROBE_LOAD, PROBE_STORE, PROBE_MIX_2_1, PROBE_MIX_1_1, PROBE_STORE_NT};
    static bw_entry e[(PROBE_MAX_CACHES + 1) * 5 * 2];
    int li, k, t, nmeas = 0, n = 0, failed[sizeof e / sizeof e[0]] = {0};
    probe_log(&r->o, "bandwidth roofs (%s kernels)", probe_isa_name[r->best_isa]);
    for (li = 0; li < r->nlevels; li++)
        for (k = 0; k < (int)(sizeof ops / sizeof ops[0]); k++)
            if (ops[k] != PROBE_STORE_NT || !strcmp(r->lv[li].name, "DRAM"))
                nmeas += (r->teamN ? 2 : 1) * (ops[k] == PROBE_LOAD ? 2 : 1);
    budget_section(&r->o, SEC_BANDWIDTH, nmeas);
    for (li = 0; li < r->nlevels; li++)
        for (k = 0; k < (int)(sizeof ops / sizeof ops[0]); k++) {
            if (ops[k] == PROBE_STORE_NT && strcmp(r->lv[li].name, "DRAM")) continue;
            for (t = 0; t < 2; t++)
                if ((t ? r->teamN : r->team1) && n < (int)(sizeof e / sizeof e[0])) {
                    memset(&e[n], 0, sizeof e[n]);
                    e[n].li = li;
                    e[n].op = ops[k];
                    e[n].t = t;
                    bandwidth_one(r, &e[n++]);
                }
        }
    bandwidth_checks(r, e, n, failed);
    jw_arr(&r->w, "bandwidth");
    for (k = 0; k < n; k++) bandwidth_write(r, &e[k], failed[k]);
    jw_end_arr(&r->w);
    write_bandwidth_method(r);
    return 0;
}

/* CARM validation at level li: one core, FMA + load mixes against the
   roofs min(AI x the level's load roof, peak); their relative RMS error */
static void carm_level(probe_run *r, int li, int cisa, double peak)
{
    jw *w = &r->w;
    const level_info *L = &r->lv[li];
    double err = 0, secs[1024], vals[1024];
    probe_stats st;
    int v, npts = 0, nsecs;
    jw_obj(w, NULL);
    jw_str(w, "level", L->name);
    jw_str(w, "isa", probe_isa_name[cisa]);
    jw_int(w, "threads", 1);
    jw_int(w, "bytes", (long long)level_ws(L, 1));
    jw_num(w, "roof_GBps", L->load_GBps);
    jw_num(w, "peak_GFLOPs", peak);
    jw_arr(w, "points");
    for (v = 0; v < PROBE_CARM_VARIANTS; v++) {
        carm_job cj;
        int k, why;
        double ai, roof;
        memset(&cj, 0, sizeof cj);
        cj.isa = cisa;
        cj.variant = v;
        cj.bytes = level_ws(L, 1);
        cj.span = span_of(cj.bytes);
        cj.passes = 1;
        budget_next(&r->o);
        calibrate(carm_job_fn, &cj, &cj.passes, probe_team_buf(r->team1, 0), r->o.rep_seconds);
        why = probe_team_measure(r->team1, carm_job_fn, &cj, &r->o, secs, &nsecs);
        budget_count(why);
        for (k = 0; k < nsecs; k++) vals[k] = cj.flops / secs[k] * 1e-9;
        probe_stats_of(vals, nsecs, &st);
        ai = cj.moved > 0 ? cj.flops / cj.moved : probe_carm_ai(cisa, v);
        roof = ai * L->load_GBps < peak ? ai * L->load_GBps : peak;
        if (roof > 0) {
            err += ((st.median - roof) / roof) * ((st.median - roof) / roof);
            npts++;
        }
        jw_obj(w, NULL);
        jw_num(w, "ai", ai);
        jw_stats(w, "GFLOPs", &st);
        jw_num(w, "roof_GFLOPs", roof);
        jw_int(w, "reps", nsecs);
        jw_str(w, "stop", probe_stop_name[why]);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    /* the paper's footnote 5: 100/n * sqrt(sum(((y - yhat)/yhat)^2)) */
    err = npts ? 100.0 / npts * sqrt(err) : 0;
    jw_num(w, "rms_error_pct", err);
    jw_end_obj(w);
    probe_log(&r->o, "  %-4s relative RMS error %.2f%%", L->name, err);
}

/* CARM validation: one core, FMA + load mixes, held against one core's
   best FMA median */
static int step_carm(probe_run *r)
{
    int li, cisa = r->best_isa >= PROBE_ISA_AVX2 ? r->best_isa : PROBE_ISA_SSE;
    probe_log(&r->o, "CARM validation (%s FMA + loads, AI 1/16..16)", probe_isa_name[cisa]);
    budget_section(&r->o, SEC_CARM, r->nlevels * PROBE_CARM_VARIANTS);
    jw_arr(&r->w, "carm_validation");
    for (li = 0; li < r->nlevels; li++) carm_level(r, li, cisa, r->fma_peak_1);
    jw_end_arr(&r->w);
    return 0;
}

/* roofs: the best median of each family */
static int step_roofs(probe_run *r)
{
    jw *w = &r->w;
    int t;
    jw_obj(w, "roofs");
    jw_arr(w, "compute");
    for (t = 0; t < 2; t++) {
        if (!r->roof_flops[t]) continue;
        jw_obj(w, NULL);
        jw_str(w, "name", r->roof_label[t]);
        jw_int(w, "threads", t ? (int)r->topo.cores : 1);
        jw_num(w, "GFLOPs", r->roof_flops[t]);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_str(w, "rule", "each roof is the best median of its family (compute: every ISA and op; memory: "
                      "every op of the level); see \"compute\" and \"bandwidth\"");
    jw_end_obj(w);
    return 0;
}

static int step_counters(probe_run *r)
{
    budget_section(&r->o, SEC_TAIL, 1);
    write_counters(&r->w, r->best_isa, r->team1, &r->o);
    return 0;
}

/* how the figures were measured; the budgeted part of the run ends */
static int step_method(probe_run *r)
{
    jw *w = &r->w;
    jw_obj(w, "method");
    jw_str(w, "threads", "pinned with hwloc, one per core (first PU of each core), main thread on core 0");
    jw_str(w, "buffers", "mmap'd, 2 MiB aligned, MADV_HUGEPAGE, first touched by their owning thread "
                         "before any timing");
    jw_str(w, "repetitions", "one untimed warm-up, then at least floor_reps timed repetitions, and more "
                             "until min_reps are done and the best five agree within 'settle', or max_reps, "
                             "or the measurement's deadline from the time budget (see \"budget\"); each "
                             "entry's 'reps' and 'stop' tell which; median, min and max over the timed ones");
    jw_int(w, "floor_reps", r->o.floor_reps);
    jw_int(w, "min_reps", r->o.min_reps);
    jw_int(w, "max_reps", r->o.max_reps);
    jw_num(w, "settle", r->o.settle);
    jw_num(w, "rep_seconds", bud.rep_seconds);
    jw_num(w, "budget_seconds", r->o.budget);
    jw_int(w, "window_bytes", (long long)WINDOW_BYTES);
    jw_str(w, "windows", "DRAM working sets are walked window by window, each call continuing where the "
                         "last stopped, so a repetition lasts rep_seconds, not a pass over the whole set");
    jw_str(w, "loop_overhead", "kernels are unrolled 8 (memory) or 12 (compute) wide; the loop counter runs "
                               "on other ports in parallel; a repetition takes rep_seconds so timer and "
                               "barrier costs (microseconds) stay below 0.1%");
    jw_end_obj(w);
    budget_close();
    return 0;
}

/* --numa: the LARM roofs and the hybrid model (numa.c), outside the budget */
static int step_numa(probe_run *r)
{
    probe_numa_args na;
    char *sec;
    memset(&na, 0, sizeof na);
    na.quick = r->o.quick;
    na.verbose = !quiet;
    na.freq_ghz = r->core_ghz;
    probe_log(&r->o, "NUMA section");
    sec = probe_numa_section(&na);
    if (!sec) {
        opt_err("probe", "out of memory in the NUMA probes");
        return 1;
    }
    snprintf(numa_note, sizeof numa_note, "%s", na.note);
    if (na.note[0]) probe_log(&r->o, "%s", na.note);
    jw_raw(&r->w, "numa", sec);
    free(sec);
    return 0;
}

static int numa_wanted(const probe_run *r) { return r->want_numa; }

static int step_frequency(probe_run *r)
{
    jw *w = &r->w;
    jw_obj(w, "frequency");
    jw_stats(w, "core_ghz", &r->ghz);
    jw_num(w, "tsc_ghz", r->tsc_ghz);
    jw_str(w, "core_method", "100 dependent 64-bit adds per loop iteration, one per cycle; sampled before and after "
                             "each level's latency chase (the window of the figures alpha and the cycles come "
                             "from), the statistics of those samples");
    jw_int(w, "core_samples", r->nclk);
    jw_str(w, "tsc_method", "rdtsc against CLOCK_MONOTONIC");
    jw_end_obj(w);
    return 0;
}

/* stability: the figures that stayed unstable */
static int step_stability(probe_run *r)
{
    jw *w = &r->w;
    int i;
    jw_obj(w, "stability");
    jw_num(w, "threshold", PROBE_UNSTABLE);
    jw_str(w, "rule", "a figure is unstable when the middle half of its repetitions (q1..q3) spans more than "
                      "'threshold' of its median; it is measured again (up to max_reruns times while the "
                      "budget lasts) and the run whose middle half agrees best is kept; every statistic "
                      "carries its 'spread' ((max-min)/median) and 'quartile_spread' ((q3-q1)/median)");
    jw_int(w, "max_reruns", stab.rerun_limit);
    jw_int(w, "reruns", stab.reruns);
    jw_int(w, "figures", stab.total);
    jw_arr(w, "unstable");
    for (i = 0; i < stab.n; i++) {
        jw_obj(w, NULL);
        jw_str(w, "figure", stab.fig[i].what);
        jw_str(w, "unit", stab.fig[i].unit);
        jw_num(w, "median", stab.fig[i].st.median);
        jw_num(w, "q1", stab.fig[i].st.q1);
        jw_num(w, "q3", stab.fig[i].st.q3);
        jw_num(w, "min", stab.fig[i].st.min);
        jw_num(w, "max", stab.fig[i].st.max);
        jw_num(w, "quartile_spread", stab.fig[i].st.quartile_spread);
        jw_int(w, "runs", stab.fig[i].st.runs);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_end_obj(w);
    return 0;
}

/* one check as a JSON object: what was held against what, its figures */
static void jw_check(jw *w, const probe_check *c)
{
    int k;
    jw_obj(w, NULL);
    jw_str(w, "check", probe_check_name[c->kind]);
    jw_str(w, "figure", c->figure);
    jw_bool(w, "passed", c->passed);
    jw_num(w, "value", c->value);
    jw_num(w, "limit", c->limit);
    jw_str(w, "value_is", c->value_is);
    jw_str(w, "limit_is", c->limit_is);
    jw_int(w, "retries", c->retries);
    jw_obj_as(w, "figures", JW_INLINE);
    for (k = 0; k < c->nfig; k++) jw_num(w, c->fig[k].name, c->fig[k].v);
    jw_end_obj(w);
    jw_end_obj(w);
}

/* checks: the figures held against the machine's limits, each check's
   result after its retries; the unstable figures counted */
static int step_checks(probe_run *r)
{
    jw *w = &r->w;
    int i;
    jw_obj(w, "checks");
    jw_str(w, "rule", "each figure is held against the machine's limits: flops per cycle per core within the ISA's "
                      "limit (at the clock measured around the kernel), the profile's clock at least one core's "
                      "FLOP roof over that limit, memory roofs ordered L1 >= L2 >= L3 >= DRAM (one core and all), "
                      "latencies rising by level; a check fails when its value exceeds its limit by more than "
                      "'slack'; a failed one has its figures measured again, at most 'max_retries' times, and one "
                      "that still fails is kept here with passed false (and \"check_failed\" in its entry)");
    jw_num(w, "slack", PROBE_CHECK_SLACK);
    jw_int(w, "max_retries", PROBE_CHECK_RETRIES);
    jw_obj(w, "flops_per_cycle_limit");
    for (i = 0; i < PROBE_ISA_COUNT; i++) jw_num(w, probe_isa_name[i], probe_flops_per_cycle_limit(i));
    jw_str(w, "reason", "2 FP units (no x86 core issues more than two FMA, ADD or MUL vector instructions a cycle) x "
                        "the ISA's double lanes (1, 2, 4, 8) x 2 flops (an FMA is a multiply and an add)");
    jw_end_obj(w);
    jw_int(w, "count", checks.n);
    jw_int(w, "failed", checks.failed);
    jw_int(w, "retries", checks.retries);
    jw_int(w, "unstable", stab.n);
    jw_int(w, "figures", stab.total);
    jw_arr(w, "results");
    for (i = 0; i < checks.n; i++) jw_check(w, &checks.c[i]);
    jw_end_arr(w);
    jw_end_obj(w);
    return 0;
}

/* budget: planned and used seconds per section */
static int step_budget(probe_run *r)
{
    jw *w = &r->w;
    int i;
    jw_obj(w, "budget");
    jw_num(w, "seconds", r->o.budget);
    jw_num(w, "elapsed_seconds", probe_now() - t_begin);
    jw_int(w, "deadline_stops", bud.deadline_stops);
    jw_num(w, "shortest_rep_seconds", bud.shortest_rep);
    jw_str(w, "rule", "each section gets the share of the time left that its weight has among the sections "
                      "to come, each measurement its section's time left over the measurements left; past "
                      "its deadline a measurement stops at floor_reps; when its time is less than "
                      "floor_reps + 3 repetitions, its repetitions are shortened (not below 1 ms). Buffers, "
                      "chase builds, calibration and warm-ups are not cut; the NUMA section (--numa) is outside "
                      "the budget");
    jw_arr(w, "sections");
    for (i = 0; i < SEC_COUNT; i++) {
        jw_obj(w, NULL);
        jw_str(w, "name", sec_name[i]);
        jw_num(w, "weight", sec_weight[i]);
        jw_num(w, "planned_seconds", bud.planned[i]);
        jw_num(w, "seconds", bud.used[i]);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_end_obj(w);
    return 0;
}

/* The profile's steps in the order of its keys. */
typedef struct probe_step {
    const char *name;
    int (*wanted)(const probe_run *r);  /* whether the options ask for it; NULL: always */
    int (*run)(probe_run *r);           /* 0, or the exit status (1: a measurement failed) */
} probe_step;
static const probe_step probe_steps[] = {
    {"clocks", NULL, step_clocks},
    {"header", NULL, step_header},
    {"topology", NULL, step_topology},
    {"latency sweep", NULL, step_sweep},
    {"latency", NULL, step_latency},
    {"teams", NULL, step_teams},
    {"compute", NULL, step_compute},
    {"latency checks", NULL, step_latency_out},
    {"bandwidth", NULL, step_bandwidth},
    {"carm validation", NULL, step_carm},
    {"roofs", NULL, step_roofs},
    {"counters", NULL, step_counters},
    {"method", NULL, step_method},
    {"numa", numa_wanted, step_numa},
    {"frequency", NULL, step_frequency},
    {"checks", NULL, step_checks},
    {"stability", NULL, step_stability},
    {"budget", NULL, step_budget},
};

/* The command line into r: -1 to go on, or the exit status (--help,
   --version, a usage error). --help and --version act where they stand. */
static int probe_args(int argc, char **argv, probe_run *r)
{
    const char *val;
    int i = 1, k;
    while ((k = opt_next("probe", probe_opts_table, PROBE_NOPTS, argc, argv, &i, &val)) != OPT_END) {
        switch (k) {
        case PROBE_QUICK: r->o.quick = 1; break;
        case PROBE_BUDGET:
            if (opt_double(val, 0, 1, DBL_MAX, &r->o.budget))
                return opt_err("probe", "--budget wants seconds > 0, not '%s'", val), 2;
            break;
        case PROBE_NUMA: r->want_numa = 1; break;
        case PROBE_QUIET: quiet = 1; break;
        case PROBE_OUT: r->out_path = probe_host_path(val); break;
        case PROBE_BENCH: r->bench_spec = val; break;
        case PROBE_CHASE: r->bench_spec = val; r->bench_chase = 1; break;
        case PROBE_TOPOLOGY: r->topology = 1; break;
        case PROBE_CHECK: r->check_path = val; break;
        case PROBE_PROFILE: r->topo_profile = val; break;
        case PROBE_INSTALL: r->install = val; break;
        case PROBE_VERSION:
            printf("probe %d.%d (edan.h %d.%d, profile version %d; hwloc %s, PAPI %d.%d)\n", EDAN_VERSION_MAJOR,
                   EDAN_VERSION_MINOR, EDAN_VERSION_MAJOR, EDAN_VERSION_MINOR, EDAN_PROFILE_VERSION, HWLOC_VERSION,
                   PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION));
            return stdout_status();
        case PROBE_HELP:
            opt_help(stdout, probe_opts_table, PROBE_NOPTS);
            return stdout_status();
        case OPT_OPERAND: return opt_err("probe", "unexpected argument '%s' (see probe --help)", val), 2;
        case OPT_REST: return opt_err("probe", "'--' is not an option of probe (see probe --help)"), 2;
        default: return 2;      /* OPT_ERROR: said */
        }
    }
    if (r->install && (r->topology || r->bench_spec || r->out_path || r->want_numa || r->o.quick || r->check_path))
        return opt_err("probe", "--install FILE takes no other option"), 2;
    if (r->topo_profile && !r->topology)
        return opt_err("probe", "--profile FILE is for --topology (the figures it shows)"), 2;
    return -1;
}

/* The repetition rules of the mode, the budget, the stability reruns. */
static void probe_setup(probe_run *r)
{
    probe_opts *o = &r->o;
    t_begin = probe_now();
    o->verbose = !quiet;
    o->rep_seconds = o->quick ? 0.004 : 0.02;
    o->min_reps = o->quick ? 5 : 9;
    o->max_reps = o->quick ? 11 : 31;
    o->settle = o->quick ? 0.03 : 0.01;
    o->floor_reps = 3;
    if (!(o->budget > 0)) o->budget = o->quick ? 15 : 90;
    bud.end = t_begin + o->budget;
    bud.cur = -1;
    bud.rep_seconds = bud.shortest_rep = o->rep_seconds;
    stab.rerun_limit = o->quick ? 1 : 2;
}

/* The profile's path (this machine's own, where edan finds it, by
   default; HOST.json here without a home), checked writable before
   anything is measured: 0, or 2 with a message. */
static int probe_output(probe_run *r)
{
    files_host(r->host, sizeof r->host);
    if (!r->out_path) {
        if (files_own_profile_home(r->defpath, sizeof r->defpath))
            snprintf(r->defpath, sizeof r->defpath, "%s.json", r->host);
        r->out_path = r->defpath;
    }
    /* a directory, no permission, no such directory */
    if (!files_out_in_place(r->out_path)) {
        files_out t;
        char err[600];
        if (files_out_open(&t, r->out_path, err, sizeof err)) {
            opt_err("probe", "cannot write %s", err);
            return 2;
        }
        files_out_discard(&t);
    }
    return 0;
}

/* The profile's text closed, written and summed up: the exit status. */
static int probe_finish(probe_run *r)
{
    int rc;
    probe_team_destroy(r->team1);
    probe_team_destroy(r->teamN);
    probe_free(r->chase_buf, DRAM_BYTES);
    probe_topo_free(&r->topo);
    jw_end_obj(&r->w);
    fputc('\n', r->w.f);
    if (fclose(r->w.f) != 0 || !r->json) {
        opt_err("probe", "out of memory");
        return 1;
    }
    rc = write_atomically(r->out_path, r->json, r->json_len, &r->o);
    /* the result block: on standard output, or standard error when the
       profile itself went there */
    if (rc == 0)
        print_summary(!strcmp(r->out_path, "-") ? stderr : stdout, r->json, r->json_len, r->out_path,
                      r->out_path == r->defpath);
    free(r->json);
    return rc;
}

int main(int argc, char **argv)
{
    static probe_run run;
    probe_run *r = &run;
    size_t s;
    int rc = probe_args(argc, argv, r);
    if (rc >= 0) return rc;
    if (r->topology) return show_topology(r->topo_profile);
    if (r->install) return install_profile(r->install);
    if (r->check_path) return check_profile(r->check_path);
    probe_setup(r);
    if (r->bench_spec) {
        if (probe_topo_init(&r->topo)) return opt_err("probe", "hwloc could not load the topology"), 1;
        rc = r->bench_chase ? bench_chase(r->bench_spec, &r->o, &r->topo)
                            : bench_bandwidth(r->bench_spec, &r->o, &r->topo);
        probe_topo_free(&r->topo);
        return rc;
    }
    if ((rc = probe_output(r)) != 0) return rc;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    if (probe_topo_init(&r->topo)) return opt_err("probe", "hwloc could not load the topology"), 1;
    probe_log(&r->o, "%u package(s), %u cores, %u PUs, %u NUMA node(s), %u cache levels (%s)", r->topo.packages,
              r->topo.cores, r->topo.pus, r->topo.numa_nodes, r->topo.ncaches, r->o.quick ? "quick" : "full");
    probe_bind_core(&r->topo, 0);
    r->best_isa = probe_isa_best();
    r->line_bytes = r->topo.ncaches ? r->topo.cache[0].line : 64;
    for (s = 0; s < sizeof probe_steps / sizeof probe_steps[0]; s++)
        if (!probe_steps[s].wanted || probe_steps[s].wanted(r))
            if ((rc = probe_steps[s].run(r)) != 0) return rc;
    return probe_finish(r);
}
