/* tools/report/report.h - what the report's files share, private to them: the
   text report (tools/report/report.c), the JSON report (tools/report/report_json.c),
   the files beside them (tools/report/report_files.c), the verdict and the
   numbers both reports derive (tools/report/verdict.c), the --top list and the
   names of its instructions (tools/report/hotspots.c). */
#ifndef EDAN_REPORT_H
#define EDAN_REPORT_H
#include "../cmd/cli.h"

/* ---- hotspots (tools/report/hotspots.c) ----------------------------------------- */
/* The names of pcs for --top: the program's symbols, and those of each
   shared object whose code ran, opened when one of its pcs is named. */
typedef struct cli_where {
    const cli_analysis *a;
    cli_syms prog;
    cli_syms *objs;         /* one per a->objects */
    char *tried;
    const char *why;        /* why the program's could not be opened */
} cli_where;
void cli_where_open(cli_where *w, const cli_analysis *a);
/* Names the program or a shared object: any. */
int cli_where_any(const cli_where *w);
/* pc's function (demangled; NULL: none), its symbol as the file has it,
   file and line (NULL: none), and its shared object's name (NULL: the
   program's). */
void cli_where_at(cli_where *w, uint64_t pc, const char **fn, const char **sym, const char **file, int *line,
                  const char **object);
void cli_where_close(cli_where *w);

/* The --top list of a configuration: its first a->top hotspots (all
   there are, when fewer), and with --chain each one's vertices on the
   critical chain (chain[q]; NULL and why[] when it could not be found). */
typedef struct cli_hot {
    edan_hotspot *h;
    size_t n;
    uint64_t *chain;
    char why[200];
} cli_hot;
/* 0, or -1 (a message printed) when out of memory. */
int cli_hot_get(edan_context *ctx, const cli_analysis *a, uint32_t k, cli_hot *t);
void cli_hot_free(cli_hot *t);

/* ---- the verdict and the reports' numbers (tools/report/verdict.c) -------------- */
#define CLI_VERDICT_NS 100.0
/* The classes by the chain's share of the upper bound's RAM latencies,
   D / lambda(m) (README, "Reading the verdict"): half or more, the chain
   is at least as long as the rounds that all accesses take m at a time
   (D >= W/(m+1)), and more accesses in flight would not shorten it. */
#define CLI_VERDICT_LATENCY_BOUND 0.5
#define CLI_VERDICT_MIXED 0.1
/* Below this share of the time in RAM latency (the window's lambda_window
   alpha / T_window, or the paper's lambda alpha / T_upper) the run is
   compute-bound: a kernel that the caches hold, whose few RAM accesses
   more or fewer in flight would not change, is not a DRAM stream. */
#define CLI_VERDICT_COMPUTE_BOUND 0.1
typedef struct cli_verdict {
    const char *cls;            /* latency-bound, mixed, throughput-bound, compute-bound; none without RAM accesses */
    double ram_share;           /* the share of the time that is RAM latency on the critical path */
    int windowed;               /* the class and the what-if are the windowed schedule's (below) */
    uint64_t T_window, lambda_window;   /* the window's time and its RAM latencies on the critical path */
    double window_share;        /* the share of T_window that is RAM latency more slots would not hide: lambda_window
                                   alpha / T_window times the larger of D / max(lambda_window, lambda) (the chain's)
                                   and 1 - (W/m) / lambda_window (beyond what m at a time need) */
    double add_window_s;        /* what CLI_VERDICT_NS more RAM latency adds on the window, at least (its slope) */
    uint32_t m;                 /* memory accesses in flight */
    uint64_t W, D;
    double w_over_m;            /* RAM latencies for every access, m at a time: the lower bound without the chain */
    double lambda;              /* RAM latencies of the upper bound, (W - D)/m + D */
    double chain_share;         /* D / lambda: the part of them that is the longest chain's */
    double add_min_s, add_max_s;    /* what CLI_VERDICT_NS more RAM latency adds: lower and upper bound */
    double slowdown_min, slowdown_max;  /* the lower and the upper time bound, far over near */
    char text[1024];
} cli_verdict;
/* The plain-words verdict of configuration k, from W, D, m and the what-if
   alone (README, "Reading the verdict"). */
void cli_verdict_make(edan_context *ctx, const cli_analysis *a, uint32_t k, cli_verdict *v);

/* The whole run's value of a sum over windows of c . (insns, W, bytes, D),
   by the ratio to the instructions, scaled to the run's; its 95% interval
   from the windows' spread (Student's t, the share not sampled taken into
   account). No interval from fewer than two windows. */
typedef struct cli_estimate { double value, low, high; int interval; } cli_estimate;
/* The estimates the report gives: W, bytes, lambda at m. */
void cli_sample_estimates(const cli_sampled *s, uint32_t m, cli_estimate out[3]);
/* A window's lambda at m: (W - D)/m + D, 0 without W. */
double cli_window_lambda(const cli_window *x, uint32_t m);

/* A configuration's name, or its caches ("L1 32K L2 1M", "no cache"). */
void cli_config_label(const edan_config *c, char *buf, size_t n);
/* Floating-point operations of the trace: the op histogram times each op's flops. */
uint64_t cli_flops(edan_context *ctx, const cli_analysis *a);
/* The list of m: the options' (--m), else EDAN_DEFAULT_M. */
uint32_t cli_m_at(const cli_analysis *a, uint32_t j);
uint32_t cli_num_m(const cli_analysis *a);
/* RAM latency in cycles after adding `ns` nanoseconds at the config's clock. */
double cli_far_alpha(const edan_config *c, double ns);
/* Configuration k's windowed schedule at m: 1 and *w, or 0 when it has
   none there (--window 0, --paper; another m without --window-all-m). */
int cli_window_at(edan_context *ctx, const cli_analysis *a, uint32_t k, uint32_t m, edan_window *w);
/* A named region's report is the main one's with its own counts and
   without what only the whole run has (--top lists, the tracer's account,
   the windows of a sampled run, the files). */
cli_analysis cli_region_analysis(const cli_analysis *a, const cli_region *r);

/* ---- the reports ---------------------------------------------------------- */
/* The JSON report (tools/report/report_json.c): 0, or -1 (a message printed). */
int cli_report_json(edan_context *ctx, const cli_analysis *a, const char *source, FILE *o);
/* The files the options ask for (tools/report/report_files.c): --timeline, --dot,
   --layers, --sweep, in that order; 0, or -1 (a message printed) at the
   first that fails. */
int cli_write_files(edan_context *ctx, const cli_analysis *a);
#endif
