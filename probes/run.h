/* probes/run.h - what the steps of a probe run share: the run itself
   (probe_run, passed to every step), with the state the steps report into
   (probe_state: the time budget, the figures' stability, the checks
   against the machine's limits, the DRAM working set of all cores, the
   closing summary's figures).
   probe.c keeps them; the steps in steps_memory.c, steps_compute.c and
   counters.c, the stand-alone commands in commands.c and the closing
   summary in summary.c use them. The run's clock and --quiet are the
   options' (probe_opts.t_begin, .verbose), which the log reads. */
#ifndef PROBE_RUN_H
#define PROBE_RUN_H
#include "probe.h"
#include "../tools/common/jsonw.h"

#define DRAM_BYTES ((size_t)256 << 20)     /* per thread; >= 8x any real last-level share */

/* the figures measured and those that stayed unstable (see stab_again) */
#define STAB_MAX 128
typedef struct stab_fig { char what[96]; const char *unit; probe_stats st; } stab_fig;
typedef struct probe_stability {
    int rerun_limit, reruns, n, total;
    stab_fig fig[STAB_MAX];
} probe_stability;

/* the checks against the machine's limits made during the run, each as
   it stands after its retries (check_again); the profile's "checks" and the
   closing summary list them */
#define CHECK_MAX 128
typedef struct probe_checks {
    int n, failed, retries;
    probe_check c[CHECK_MAX];
} probe_checks;

/* the time budget's sections (see budget_section in probe.c) */
enum { SEC_CLOCKS, SEC_SWEEP, SEC_LATENCY, SEC_TEAMS, SEC_COMPUTE, SEC_BANDWIDTH, SEC_CARM, SEC_TAIL, SEC_COUNT };
typedef struct probe_budget {
    double end;                     /* the run's start (probe_opts.t_begin) + budget */
    int cur, left;                  /* current section, measurements left in it */
    double sec_end;
    double start[SEC_COUNT], planned[SEC_COUNT], used[SEC_COUNT];
    int deadline_stops;
    double rep_seconds;             /* the options' repetition length */
    double shortest_rep;            /* the shortest one a deadline asked for */
} probe_budget;

/* The figures of the closing summary, by level (L1.., DRAM): their
   statistics, for the spreads the profile's loader does not keep; the
   steps fill them in. */
typedef struct summary_row {
    const char *level;
    probe_stats lat, load1, loadN;
} summary_row;

/* A run's state, which the steps report into and read (probe_run.state). */
typedef struct probe_state {
    probe_budget bud;
    probe_stability stab;
    probe_checks checks;
    /* DRAM working set per thread when all cores run: 256 MiB, less on a
       machine where cores x 256 MiB would not fit in a quarter of its memory */
    size_t dram_bytes_all;
    summary_row rows[PROBE_MAX_CACHES + 1];     /* the closing summary's, nrows of them */
    int nrows;
    char numa_note[512];                        /* the NUMA step's, for the summary */
} probe_state;

/* DRAM working sets (from WINDOWED_BYTES up; the caches' are far
   smaller) are walked in windows of WINDOW_BYTES, each call continuing
   where the last stopped and wrapping at the end, so that a repetition
   lasts about rep_seconds rather than a pass over 256 MiB. The addresses
   follow each other as in whole passes, and every line comes from DRAM
   (it was last touched a working set ago). */
#define WINDOW_BYTES ((size_t)2 << 20)
#define WINDOWED_BYTES ((size_t)32 << 20)

/* ---- measurements ------------------------------------------------------ */
typedef struct level_info {
    const char *name;       /* "L1".."L3", "DRAM" */
    size_t capacity;        /* effective bytes of one instance */
    unsigned sharing;       /* cores sharing one instance */
    size_t prev;            /* the previous level's per-core capacity (0 for L1) */
    double lat_ns;
    double load_GBps;       /* one thread, load: the CARM roof of the level */
} level_info;

/* ---- the run: a table of steps, each measuring and writing its part ---- */
typedef struct probe_run {
    probe_opts o;
    probe_state state;
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

/* ---- probe.c: the run's budget, stability, checks and output ---- */
void check_record(probe_run *r, const probe_check *c);
void jw_stats_as(jw *w, const char *const key[5], const probe_stats *s);
void jw_stats(jw *w, const char *key, const probe_stats *s);
void budget_section(probe_run *r, int sec, int measurements);
void budget_next(probe_run *r);
void budget_count(probe_run *r, int why);
int stab_again(probe_run *r, probe_stats *best, const probe_stats *cur, int attempt, const char *what,
               const char *unit);
void stab_note(probe_run *r, const char *what, const char *unit, const probe_stats *st);
double clock_sample(const probe_opts *o);
int check_again(probe_run *r, probe_check *c, int try);
int chase_more(const probe_opts *o, int r, int nr, int *why);
int stdout_status(void);
long calibrate(void (*fn)(int, int, void *, char *), void *arg, long *count, char *buf, double target);

/* ---- summary.c: the closing summary ---- */
/* s's row of level, added when new */
summary_row *summary_row_of(probe_state *s, const char *level);
/* the NUMA step's note, printed under the summary's table */
void summary_numa_note(probe_state *s, const char *note);
void print_failed_checks(FILE *f, const probe_check *c, int n, int nfailed, int run);
/* s: the run's stability and checks (its unstable figures are sorted) */
void print_summary(FILE *f, probe_state *s, const char *json, size_t len, const char *path, int is_default);

/* ---- steps_memory.c: latency sweep, latencies, bandwidth roofs, CARM ---- */
int mem_measure(probe_team *tm, int isa, probe_memop op, size_t bytes, const probe_opts *o, probe_stats *st, int *reps);
int roof_measure(probe_team *tm, int isa, probe_memop op, size_t bytes, probe_opts *o, probe_run *budget,
                 probe_stats st[2], int reps[2], int why[2], int *orders);
int step_sweep(probe_run *r);
int step_latency(probe_run *r);
int step_latency_out(probe_run *r);
int step_bandwidth(probe_run *r);
int step_carm(probe_run *r);

/* ---- steps_compute.c: the teams, compute roofs ---- */
int step_teams(probe_run *r);
int step_compute(probe_run *r);
int step_roofs(probe_run *r);

/* ---- counters.c: PAPI ---- */
int step_counters(probe_run *r);

/* ---- commands.c: --bench, --chase, --topology, --check, --install ---- */
int bench_chase(const char *spec, const probe_opts *o, const probe_topo *topo);
int bench_bandwidth(const char *spec, const probe_opts *o, const probe_topo *topo);
int show_topology(const char *path);
int check_profile(const char *path);
const char *probe_host_path(const char *path);
int install_profile(const char *path);
#endif
