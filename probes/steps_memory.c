/* probes/steps_memory.c - the memory steps of a run: the latency sweep,
   each level's latency and the memory-level parallelism, the bandwidth
   roofs and the CARM validation, with the working sets they measure. */
#include "run.h"
#include "../tools/common/opt.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- measurements ------------------------------------------------------ */

static size_t level_ws(const probe_run *r, const level_info *L, int threads)
{
    unsigned share;
    size_t ws;
    if (!strcmp(L->name, "DRAM")) return threads > 1 ? r->state.dram_bytes_all : DRAM_BYTES;
    share = (unsigned)threads < L->sharing ? (unsigned)threads : L->sharing;
    if (!share) share = 1;
    /* L1: half of it; further levels: the geometric mean of the previous
       level's capacity and this one's per-thread share, well beyond the
       former and well inside the latter */
    ws = L->prev ? (size_t)sqrt((double)L->prev * (double)(L->capacity / share)) : L->capacity / share / 2;
    if (ws < L->prev) ws = L->prev;
    return ws >= 8192 ? ws / 4096 * 4096 : ws / 512 * 512;
}

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

/* One bandwidth measurement of `op` over `bytes` per thread of team tm:
   calibration, warm-up, repetitions; GB/s of all threads together.
   Returns why the repetitions stopped. */
int mem_measure(probe_team *tm, int isa, probe_memop op, size_t bytes, const probe_opts *o, probe_stats *st,
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
   roof's order. budget (NULL: none): the run whose budget each measurement
   takes its share of (o: its options). */
int roof_measure(probe_team *tm, int isa, probe_memop op, size_t bytes, probe_opts *o, probe_run *budget,
                 probe_stats st[2], int reps[2], int why[2], int *orders)
{
    int order, best = 0;
    *orders = op == PROBE_LOAD ? 2 : 1;
    for (order = 0; order < *orders; order++) {
        if (budget) budget_next(budget);
        why[order] = mem_measure(tm, isa, order ? PROBE_LOAD_LAST_FIRST : op, bytes, o, &st[order], &reps[order]);
        if (budget) budget_count(budget, why[order]);
        if (st[order].median > st[best].median) best = order;
    }
    return best;
}

/* k = 1..32 interleaved chases over the DRAM cycle (built by the sweep,
   with marks): throughput against k; m = the smallest k within 90% of the best. */
static void mlp_measure(probe_run *run, jw *w, char *cb, size_t line, double dram_ns)
{
    probe_opts *o = &run->o;
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
        budget_next(run);
        steps = (long)(o->rep_seconds * 1e9 / (dram_ns > 1 ? dram_ns : 1));
        if (steps < 1000) steps = 1000;
        probe_chase_run(cb, DRAM_BYTES, line, k, steps / 4);     /* warm-up */
        for (r = 0; chase_more(o, r, nr, &why); r++)
            vals[r] = (double)k * (double)steps / probe_chase_run(cb, DRAM_BYTES, line, k, steps) * 1e-9;
        budget_count(run, why);
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
int step_sweep(probe_run *r)
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
    budget_section(r, SEC_SWEEP, r->o.quick ? 15 : 17);
    memset(cb, 0, DRAM_BYTES);
    r->page = probe_page_size(cb);
    probe_log(&r->o, "latency sweep 4 KiB .. %zu MiB (page size %zu KiB)", (size_t)DRAM_BYTES >> 20, r->page >> 10);
    for (sz = 4096; sz <= DRAM_BYTES && r->nsweep < 40; sz *= 2) {
        long steps;
        int k, nr = r->o.quick ? 3 : 5, why;
        /* quick: no sizes between 32 MiB and the DRAM buffer (their builds are slow) */
        if (r->o.quick && sz > ((size_t)32 << 20) && sz < DRAM_BYTES) continue;
        budget_next(r);
        probe_chase_build(cb, sz, r->line_bytes, 12345 + sz, sz == DRAM_BYTES);
        r->built = sz;
        steps = chase_steps(r, sz, r->o.rep_seconds);
        for (k = 0; chase_more(&r->o, k, nr, &why); k++)
            vals[k] = probe_chase_run(cb, sz, r->line_bytes, 1, steps) / (double)steps * 1e9;
        budget_count(r, why);
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
    *ws = level_ws(r, &r->lv[li], 1);
    budget_next(r);
    if (*ws != r->built) probe_chase_build(r->chase_buf, *ws, r->line_bytes, 777 + li, 0);
    r->built = *ws;
    steps = chase_steps(r, *ws, r->o.rep_seconds * 2);
    snprintf(what, sizeof what, "%s latency", r->lv[li].name);
    for (attempt = 0;; attempt++) {
        probe_stats cur;
        if (attempt) budget_next(r);
        if (r->nclk < (int)(sizeof r->clk / sizeof r->clk[0])) r->clk[r->nclk++] = clock_sample(&r->o);
        for (k = 0; chase_more(&r->o, k, nr, &why); k++)
            vals[k] = probe_chase_run(r->chase_buf, *ws, r->line_bytes, 1, steps) / (double)steps * 1e9;
        if (r->nclk < (int)(sizeof r->clk / sizeof r->clk[0])) r->clk[r->nclk++] = clock_sample(&r->o);
        budget_count(r, why);
        probe_stats_of(vals, k, &cur);
        if (!stab_again(r, st, &cur, attempt, what, "ns")) break;
    }
    r->lv[li].lat_ns = st->median;
    summary_row_of(&r->state, r->lv[li].name)->lat = *st;
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
int step_latency(probe_run *r)
{
    jw *w = &r->w;
    int li;
    probe_log(&r->o, "latency per level");
    budget_section(r, SEC_LATENCY, r->nlevels + 32);
    for (li = r->nlevels - 1; li >= 0; li--) {
        latency_of_level(r, li, &r->lat_st[li], &r->lat_ws[li]);
        probe_log(&r->o, "  %-4s %9zu B: %.2f ns", r->lv[li].name, r->lat_ws[li], r->lv[li].lat_ns);
        if (li == r->nlevels - 1) {
            mlp_measure(r, w, r->chase_buf, r->line_bytes, r->lv[li].lat_ns);
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
static void budget_retry(probe_run *r, int measurements)
{
    probe_budget *b = &r->state.bud;
    double need = probe_now() + measurements * (r->o.floor_reps + 3) * b->rep_seconds;
    if (b->sec_end < need) b->sec_end = need;
    b->left = measurements > 0 ? measurements : 1;
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
int step_latency_out(probe_run *r)
{
    static const char *const keys[5] = {"ns", "ns_min", "ns_max", "ns_spread", "ns_quartile_spread"};
    jw *w = &r->w;
    probe_check c[PROBE_MAX_CACHES + 1];
    int li, try, again = 0, retried[PROBE_MAX_CACHES + 1] = {0};
    for (try = 0; latency_checks(r, c) && try < PROBE_CHECK_RETRIES; try++) {
        int redo[PROBE_MAX_CACHES + 1] = {0};
        for (li = 0; li < r->nlevels; li++) {
            if (c[li].passed) continue;
            check_again(r, &c[li], try);
            retried[li]++;
            if (li) redo[li - 1] = redo[li] = 1;
        }
        if (!c[0].passed) r->nclk = 0;      /* a new window for the clock */
        budget_retry(r, r->nlevels);
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
        check_record(r, &c[li]);
    }
    stab_note(r, "core clock", "GHz", &r->ghz);
    jw_arr(w, "latency");
    for (li = 0; li < r->nlevels; li++) {
        const probe_stats *st = &r->lat_st[li];
        char what[64];
        snprintf(what, sizeof what, "%s latency", r->lv[li].name);
        stab_note(r, what, "ns", st);
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
    e->bytes = level_ws(r, L, n);
    snprintf(what, sizeof what, "%s %s %d thread(s)", L->name, probe_memop_name[e->op], n);
    for (attempt = 0;; attempt++) {
        best = roof_measure(tm, r->best_isa, e->op, e->bytes, &r->o, r, ost, oreps, owhy, &e->orders);
        if (!attempt || ost[best].quartile_spread < e->st.quartile_spread) {
            e->kept[0] = ost[0];
            e->kept[1] = ost[1];
            e->why = owhy[best];
        }
        if (!stab_again(r, &e->st, &ost[best], attempt, what, "GB/s")) break;
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
    stab_note(r, what, "GB/s", &e->st);
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
        if (e->t) summary_row_of(&r->state, L->name)->loadN = e->st;
        else summary_row_of(&r->state, L->name)->load1 = e->st;
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
                if (!check_again(r, &c, try)) break;
                budget_retry(r, 2 * (e[a].orders + e[b].orders));
                bandwidth_one(r, &e[a]);
                bandwidth_one(r, &e[b]);
            }
            if (a < 0 || b < 0) continue;
            check_record(r, &c);
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
int step_bandwidth(probe_run *r)
{
    static const probe_memop ops[] = {PROBE_LOAD, PROBE_STORE, PROBE_MIX_2_1, PROBE_MIX_1_1, PROBE_STORE_NT};
    static bw_entry e[(PROBE_MAX_CACHES + 1) * 5 * 2];
    int li, k, t, nmeas = 0, n = 0, failed[sizeof e / sizeof e[0]] = {0};
    probe_log(&r->o, "bandwidth roofs (%s kernels)", probe_isa_name[r->best_isa]);
    for (li = 0; li < r->nlevels; li++)
        for (k = 0; k < (int)(sizeof ops / sizeof ops[0]); k++)
            if (ops[k] != PROBE_STORE_NT || !strcmp(r->lv[li].name, "DRAM"))
                nmeas += (r->teamN ? 2 : 1) * (ops[k] == PROBE_LOAD ? 2 : 1);
    budget_section(r, SEC_BANDWIDTH, nmeas);
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
    jw_int(w, "bytes", (long long)level_ws(r, L, 1));
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
        cj.bytes = level_ws(r, L, 1);
        cj.span = span_of(cj.bytes);
        cj.passes = 1;
        budget_next(r);
        calibrate(carm_job_fn, &cj, &cj.passes, probe_team_buf(r->team1, 0), r->o.rep_seconds);
        why = probe_team_measure(r->team1, carm_job_fn, &cj, &r->o, secs, &nsecs);
        budget_count(r, why);
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
int step_carm(probe_run *r)
{
    int li, cisa = r->best_isa >= PROBE_ISA_AVX2 ? r->best_isa : PROBE_ISA_SSE;
    probe_log(&r->o, "CARM validation (%s FMA + loads, AI 1/16..16)", probe_isa_name[cisa]);
    budget_section(r, SEC_CARM, r->nlevels * PROBE_CARM_VARIANTS);
    jw_arr(&r->w, "carm_validation");
    for (li = 0; li < r->nlevels; li++) carm_level(r, li, cisa, r->fma_peak_1);
    jw_end_arr(&r->w);
    return 0;
}
