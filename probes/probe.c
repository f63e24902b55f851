/* probes/probe.c - `probe`: measures this machine (topology, compute and
   bandwidth roofs, latencies, memory-level parallelism, CARM validation)
   and writes the hardware profile JSON that edan.h's edan_profile_load
   reads. See hwprofiles/README.md for the schema. This file: the command
   line, the table of steps, the run's clock, time budget, stability and
   checks (run.h), and the profile's output; the measuring steps are in
   steps_memory.c, steps_compute.c and counters.c, the stand-alone
   commands in commands.c, the closing summary in summary.c. */
#include "run.h"
#include "../tools/common/files.h"
#include "../tools/common/jsonw.h"
#include "../tools/common/opt.h"
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

/* a check's final result, counted */
void check_record(probe_run *r, const probe_check *c)
{
    probe_checks *ch = &r->state.checks;
    ch->retries += c->retries;
    if (!c->passed) ch->failed++;
    if (ch->n < CHECK_MAX) ch->c[ch->n++] = *c;
}

void probe_log(const probe_opts *o, const char *fmt, ...)
{
    va_list ap;
    if (!o->verbose) return;
    fprintf(stderr, "probe [%5.1fs] ", probe_now() - o->t_begin);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* a measurement's statistics as a JSON object */
void jw_stats_as(jw *w, const char *const key[5], const probe_stats *s)
{
    jw_num(w, key[0], s->median);
    jw_num(w, key[1], s->min);
    jw_num(w, key[2], s->max);
    jw_num(w, key[3], s->spread);
    jw_num(w, key[4], s->quartile_spread);
    if (s->runs > 1) jw_int(w, "runs", s->runs);
    if (probe_stats_unstable(s)) jw_bool(w, "unstable", 1);
}

void jw_stats(jw *w, const char *key, const probe_stats *s)
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
/* ---- time budget --------------------------------------------------------
   The run has o->budget seconds. Each section gets the share of what is
   left that its weight (its usual seconds on a quiet machine) has among the
   sections still to come; each measurement in it the section's remaining
   time over the measurements left, as o->deadline. Past its deadline a
   measurement stops at floor_reps; on a quiet machine repetitions settle
   long before. Fixed costs (buffers, chase builds, calibration, warm-ups,
   floor_reps) are not cut; their weights make room for them. */
static const char *const sec_name[SEC_COUNT] = {"clocks", "latency_sweep", "latency_mlp", "buffers", "compute",
                                                 "bandwidth", "carm_validation", "counters"};
static const double sec_weight[SEC_COUNT] = {0.4, 0.9, 0.5, 0.5, 0.7, 1.4, 1.2, 0.1};

/* A measurement costs about floor_reps + 3 repetitions at least
   (calibration, warm-up); when its time is shorter than that, its
   repetitions shrink (not below REP_SECONDS_MIN) so that the floor fits. */
#define REP_SECONDS_MIN 0.001

void budget_section(probe_run *r, int sec, int measurements)
{
    probe_budget *b = &r->state.bud;
    double now = probe_now(), rest = 0, left = b->end - now;
    int k;
    if (b->cur >= 0) b->used[b->cur] = now - b->start[b->cur];
    for (k = sec; k < SEC_COUNT; k++) rest += sec_weight[k];
    b->cur = sec;
    b->start[sec] = now;
    b->planned[sec] = left > 0 ? left * sec_weight[sec] / rest : 0;
    b->sec_end = now + b->planned[sec];
    b->left = measurements > 0 ? measurements : 1;
    r->o.deadline = b->sec_end;
}

/* the current section's seconds */
static void budget_close(probe_budget *b)
{
    if (b->cur >= 0) b->used[b->cur] = probe_now() - b->start[b->cur];
    b->cur = -1;
}

/* before each measurement of the section */
void budget_next(probe_run *r)
{
    probe_opts *o = &r->o;
    probe_budget *b = &r->state.bud;
    double now = probe_now(), slot = b->sec_end > now ? (b->sec_end - now) / b->left : 0;
    double rep = slot / (o->floor_reps + 3);
    o->deadline = now + slot;
    if (b->left > 1) b->left--;
    if (rep > b->rep_seconds) rep = b->rep_seconds;
    if (rep < REP_SECONDS_MIN) rep = REP_SECONDS_MIN;
    o->rep_seconds = rep;
    if (rep < b->shortest_rep) b->shortest_rep = rep;
}

void budget_count(probe_run *r, int why)
{
    if (why == PROBE_STOP_DEADLINE) r->state.bud.deadline_stops++;
}

/* ---- stability ----------------------------------------------------------
   A figure whose repetitions disagree (probe_stats_unstable) is measured
   again, up to rerun_limit times while the budget lasts, and the run whose
   middle half agrees best is kept; one still unstable is listed in the
   profile ("stability") and in the closing summary, so that nobody takes
   a busy machine's numbers for its own. */

/* after attempt (0, 1, ...) gave cur: keeps the steadier of *best and
   cur in *best; returns 1 when another attempt is wanted */
int stab_again(probe_run *r, probe_stats *best, const probe_stats *cur, int attempt, const char *what,
               const char *unit)
{
    probe_stability *sb = &r->state.stab;
    int runs = attempt + 1;
    if (!attempt || cur->quartile_spread < best->quartile_spread) *best = *cur;
    best->runs = runs;
    if (!probe_stats_unstable(best) || attempt >= sb->rerun_limit || probe_now() >= r->state.bud.end) return 0;
    sb->reruns++;
    probe_log(&r->o, "  %s unstable: %.4g %s, middle half %.4g..%.4g (%.0f%% of the median): again", what,
              best->median, unit, best->q1, best->q3, 100 * best->quartile_spread);
    return 1;
}

/* a figure's final statistics: counted, and listed when unstable */
void stab_note(probe_run *r, const char *what, const char *unit, const probe_stats *st)
{
    probe_stability *sb = &r->state.stab;
    sb->total++;
    if (!probe_stats_unstable(st) || sb->n >= STAB_MAX) return;
    snprintf(sb->fig[sb->n].what, sizeof sb->fig[sb->n].what, "%s", what);
    sb->fig[sb->n].unit = unit;
    sb->fig[sb->n].st = *st;
    sb->n++;
}

/* The core clock in a measurement's window: dependent-add chains right
   before or after it, the fastest of five of about a millisecond each.
   Other work only slows a chain (a chain the scheduler stops for a few
   milliseconds reads as a clock several times too slow), so the fastest
   short one is the clock; of two samples around a measurement the faster
   is the clock the kernel saw. */
double clock_sample(const probe_opts *o)
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
int check_again(probe_run *r, probe_check *c, int try)
{
    c->retries = try;
    if (c->passed || try >= PROBE_CHECK_RETRIES) return 0;
    probe_log(&r->o, "  %s %s: %.4g against %.4g (%s): again", probe_check_name[c->kind], c->figure, c->value, c->limit,
              c->limit_is);
    return 1;
}

/* repetition loops outside the team (chases): at least floor_reps, up to
   nr, no more once the deadline has passed */
int chase_more(const probe_opts *o, int r, int nr, int *why)
{
    int more = r < nr ? probe_more_reps(NULL, r, o, why) : 0;
    if (r >= nr) *why = PROBE_STOP_MAX_REPS;
    return more;
}

/* Repetitions of the job long enough to time: scale `*count` until one
   run on thread 0's buffer takes about o->rep_seconds. */
long calibrate(void (*fn)(int, int, void *, char *), void *arg, long *count, char *buf, double target)
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

/* The profile written as tools/common/files.h says (a temporary file renamed over
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
int stdout_status(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    opt_err("probe", "cannot write to standard output: %s", strerror(errno));
    return 2;
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


/* The TSC's rate, and a first reading of the core clock for the progress
   lines; the profile's clock is measured in the latencies' window (see
   latency_of_level). */
static int step_clocks(probe_run *r)
{
    budget_section(r, SEC_CLOCKS, 1);
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
    jw_num(w, "rep_seconds", r->state.bud.rep_seconds);
    jw_num(w, "budget_seconds", r->o.budget);
    jw_int(w, "window_bytes", (long long)WINDOW_BYTES);
    jw_str(w, "windows", "DRAM working sets are walked window by window, each call continuing where the "
                         "last stopped, so a repetition lasts rep_seconds, not a pass over the whole set");
    jw_str(w, "loop_overhead", "kernels are unrolled 8 (memory) or 12 (compute) wide; the loop counter runs "
                               "on other ports in parallel; a repetition takes rep_seconds so timer and "
                               "barrier costs (microseconds) stay below 0.1%");
    jw_end_obj(w);
    budget_close(&r->state.bud);
    return 0;
}

/* --numa: the LARM roofs and the hybrid model (numa.c), outside the budget */
static int step_numa(probe_run *r)
{
    probe_numa_args na;
    char *sec;
    memset(&na, 0, sizeof na);
    na.quick = r->o.quick;
    na.verbose = r->o.verbose;
    na.freq_ghz = r->core_ghz;
    probe_log(&r->o, "NUMA section");
    sec = probe_numa_section(&na);
    if (!sec) {
        opt_err("probe", "out of memory in the NUMA probes");
        return 1;
    }
    summary_numa_note(&r->state, na.note);
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
    const probe_stability *sb = &r->state.stab;
    jw *w = &r->w;
    int i;
    jw_obj(w, "stability");
    jw_num(w, "threshold", PROBE_UNSTABLE);
    jw_str(w, "rule", "a figure is unstable when the middle half of its repetitions (q1..q3) spans more than "
                      "'threshold' of its median; it is measured again (up to max_reruns times while the "
                      "budget lasts) and the run whose middle half agrees best is kept; every statistic "
                      "carries its 'spread' ((max-min)/median) and 'quartile_spread' ((q3-q1)/median)");
    jw_int(w, "max_reruns", sb->rerun_limit);
    jw_int(w, "reruns", sb->reruns);
    jw_int(w, "figures", sb->total);
    jw_arr(w, "unstable");
    for (i = 0; i < sb->n; i++) {
        jw_obj(w, NULL);
        jw_str(w, "figure", sb->fig[i].what);
        jw_str(w, "unit", sb->fig[i].unit);
        jw_num(w, "median", sb->fig[i].st.median);
        jw_num(w, "q1", sb->fig[i].st.q1);
        jw_num(w, "q3", sb->fig[i].st.q3);
        jw_num(w, "min", sb->fig[i].st.min);
        jw_num(w, "max", sb->fig[i].st.max);
        jw_num(w, "quartile_spread", sb->fig[i].st.quartile_spread);
        jw_int(w, "runs", sb->fig[i].st.runs);
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
    jw_int(w, "count", r->state.checks.n);
    jw_int(w, "failed", r->state.checks.failed);
    jw_int(w, "retries", r->state.checks.retries);
    jw_int(w, "unstable", r->state.stab.n);
    jw_int(w, "figures", r->state.stab.total);
    jw_arr(w, "results");
    for (i = 0; i < r->state.checks.n; i++) jw_check(w, &r->state.checks.c[i]);
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
    jw_num(w, "elapsed_seconds", probe_now() - r->o.t_begin);
    jw_int(w, "deadline_stops", r->state.bud.deadline_stops);
    jw_num(w, "shortest_rep_seconds", r->state.bud.shortest_rep);
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
        jw_num(w, "planned_seconds", r->state.bud.planned[i]);
        jw_num(w, "seconds", r->state.bud.used[i]);
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
    r->o.verbose = 1;
    while ((k = opt_next("probe", probe_opts_table, PROBE_NOPTS, argc, argv, &i, &val)) != OPT_END) {
        switch (k) {
        case PROBE_QUICK: r->o.quick = 1; break;
        case PROBE_BUDGET:
            if (opt_double(val, 0, 1, DBL_MAX, &r->o.budget))
                return opt_err("probe", "--budget wants seconds > 0, not '%s'", val), 2;
            break;
        case PROBE_NUMA: r->want_numa = 1; break;
        case PROBE_QUIET: r->o.verbose = 0; break;
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
    o->t_begin = probe_now();
    o->rep_seconds = o->quick ? 0.004 : 0.02;
    o->min_reps = o->quick ? 5 : 9;
    o->max_reps = o->quick ? 11 : 31;
    o->settle = o->quick ? 0.03 : 0.01;
    o->floor_reps = 3;
    if (!(o->budget > 0)) o->budget = o->quick ? 15 : 90;
    r->state.bud.end = o->t_begin + o->budget;
    r->state.bud.cur = -1;
    r->state.bud.rep_seconds = r->state.bud.shortest_rep = o->rep_seconds;
    r->state.stab.rerun_limit = o->quick ? 1 : 2;
    r->state.dram_bytes_all = DRAM_BYTES;
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
        print_summary(!strcmp(r->out_path, "-") ? stderr : stdout, &r->state, r->json, r->json_len, r->out_path,
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
