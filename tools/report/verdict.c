/* tools/report/verdict.c - what the reports derive from the engine's metrics:
   the verdict (cli_verdict_make), a configuration's label, the flops,
   the list of m, RAM farther away, the windowed schedule at m, a
   sampled run's estimates and a named region's analysis. The text
   report (tools/report/report.c) and the JSON report (tools/report/report_json.c)
   both print them. */
#include <string.h>
#include "report.h"

void cli_config_label(const edan_config *c, char *buf, size_t n)
{
    uint32_t l;
    size_t used = 0;
    if (c->name && strcmp(c->name, "cache") && strcmp(c->name, "no cache")) {
        snprintf(buf, n, "%s", c->name);
        return;
    }
    if (!c->num_levels) {
        snprintf(buf, n, "no cache");
        return;
    }
    buf[0] = 0;
    for (l = 0; l < c->num_levels && used < n; l++) {
        uint64_t s = c->level[l].size;
        int w;
        if (s % (1u << 20) == 0) w = snprintf(buf + used, n - used, "%sL%u %lluM", l ? " " : "", l + 1, (unsigned long long)(s >> 20));
        else if (s % 1024 == 0) w = snprintf(buf + used, n - used, "%sL%u %lluK", l ? " " : "", l + 1, (unsigned long long)(s >> 10));
        else w = snprintf(buf + used, n - used, "%sL%u %lluB", l ? " " : "", l + 1, (unsigned long long)s);
        if (w < 0) break;
        used += (size_t)w;
    }
    if (used < n && c->write_policy == EDAN_WRITE_THROUGH) snprintf(buf + used, n - used, " wt");
}

/* Floating-point operations of the trace: the op histogram times each op's flops. */
uint64_t cli_flops(edan_context *ctx, const cli_analysis *a)
{
    const uint64_t *cnt;
    size_t n, op;
    uint64_t f = 0;
    if (a->run.flops_counted) return a->run.flops;
    if (edan_get_op_counts(ctx, &cnt, &n) != EDAN_OK) return 0;
    for (op = 0; op < n; op++)
        if (cnt[op]) f += cnt[op] * edan_rv_op_flops((uint32_t)op);
    return f;
}

static const uint32_t cli_default_m[] = EDAN_DEFAULT_M;
uint32_t cli_m_at(const cli_analysis *a, uint32_t j)
{
    return a->opts.num_m ? a->opts.m[j] : cli_default_m[j];
}
uint32_t cli_num_m(const cli_analysis *a)
{
    return a->opts.num_m ? a->opts.num_m : (uint32_t)(sizeof cli_default_m / sizeof cli_default_m[0]);
}

/* RAM latency in cycles after adding `ns` nanoseconds at the config's clock. */
double cli_far_alpha(const edan_config *c, double ns) { return (double)c->alpha + ns * c->freq_ghz; }

/* Configuration k's windowed schedule at m: 1 and *w, or 0 when it has
   none there (--window 0, --paper; another m without --window-all-m). */
int cli_window_at(edan_context *ctx, const cli_analysis *a, uint32_t k, uint32_t m, edan_window *w)
{
    if (edan_get_config(ctx, k)->window == EDAN_WINDOW_OFF || (a->opts.window_m && a->opts.window_m != m)) return 0;
    return edan_get_window(ctx, k, m, w) == EDAN_OK;
}

/* ---- the verdict ------------------------------------------------------------ */

/* seconds as ns, us, ms or s with three significant digits */
static const char *cli_duration(char *buf, size_t n, double s)
{
    if (s < 1e-6) snprintf(buf, n, "%.3g ns", s * 1e9);
    else if (s < 1e-3) snprintf(buf, n, "%.3g us", s * 1e6);
    else if (s < 1.0) snprintf(buf, n, "%.3g ms", s * 1e3);
    else snprintf(buf, n, "%.3g s", s);
    return buf;
}

/* The class from the share of the time that is RAM latency and the share of
   it that more accesses in flight would not hide. */
static const char *cli_verdict_class(double ram_share, double hidden_not_share)
{
    if (ram_share < CLI_VERDICT_COMPUTE_BOUND) return "compute-bound";
    return hidden_not_share >= CLI_VERDICT_LATENCY_BOUND ? "latency-bound"
           : hidden_not_share >= CLI_VERDICT_MIXED ? "mixed" : "throughput-bound";
}

/* a count of RAM latencies: whole (half up) and grouped from 100 on, else 3 digits */
static const char *cli_rounds(char *buf, size_t n, double v)
{
    if (v >= 100.0) return cli_group(buf, n, (uint64_t)(v + 0.5));
    snprintf(buf, n, "%.3g", v);
    return buf;
}

/* The plain-words verdict of configuration k, from W, D, m and the what-if
   alone (README, "Reading the verdict"). */

/* The verdict's class and text from the windowed schedule: its time, the
   RAM latencies on its critical path against W/m (all overlapped m at a
   time) and W (none overlapped), its slope as the what-if; the paper's
   bounds beside it. */
static void cli_verdict_window(edan_context *ctx, uint32_t k, const edan_window *wd, const edan_metrics *mt,
                               cli_verdict *v)
{
    char w[32], lw[32], d[32], wm[32], lam[32], add[32], lo[32], hi[32], T[32], per[96] = "";
    const edan_config *c = edan_get_config(ctx, k);
    uint32_t t, threads = 0;
    uint64_t busiest = mt->W;
    double hz = c->freq_ghz * 1e9, ideal;
    if (edan_num_threads(ctx) > 1) {   /* each thread that ran is a core with m slots: its accesses over them */
        busiest = 0;
        for (t = 0; t < edan_num_threads(ctx); t++) {
            edan_thread_metrics tm;
            if (edan_get_thread_metrics(ctx, k, t, &tm) != EDAN_OK || !tm.N) continue;
            threads++;
            if (tm.W > busiest) busiest = tm.W;
        }
    }
    if (threads > 1) snprintf(per, sizeof per, " in each of %u threads, the busiest's %s", threads,
                              cli_group(lo, sizeof lo, busiest));
    ideal = (double)busiest / (double)v->m;
    v->windowed = 1;
    v->T_window = wd->T;
    v->lambda_window = wd->lambda;
    if (wd->lambda && wd->T) {
        /* the critical path's RAM latencies that more slots would not
           hide: the chain's (its share of the window's latencies, or of the
           paper's upper bound where that is larger), or those beyond what
           m at a time need */
        const double lw = (double)wd->lambda, beyond = 1.0 - ideal / lw;
        const double chain = (double)mt->D / (lw > v->lambda ? lw : v->lambda);
        const double hidden_not = chain > beyond ? chain : beyond;
        v->ram_share = lw * (double)c->alpha / (double)wd->T;
        if (v->ram_share > 1) v->ram_share = 1;
        v->window_share = (hidden_not < 1.0 ? hidden_not : 1.0) * v->ram_share;
        if (v->window_share < 0) v->window_share = 0;
    }
    v->add_window_s = (double)wd->lambda * CLI_VERDICT_NS * c->freq_ghz / hz;
    v->cls = cli_verdict_class(v->ram_share, v->window_share);
    cli_group(w, sizeof w, mt->W);
    cli_group(lw, sizeof lw, wd->lambda);
    cli_group(d, sizeof d, mt->D);
    cli_rounds(wm, sizeof wm, ideal);
    cli_rounds(lam, sizeof lam, v->lambda);
    cli_duration(add, sizeof add, v->add_window_s);
    cli_duration(lo, sizeof lo, v->add_min_s);
    cli_duration(hi, sizeof hi, v->add_max_s);
    cli_duration(T, sizeof T, (double)wd->T / hz);
    snprintf(v->text, sizeof v->text,
             "%s: on a core's window (%u in flight, %u loads, %u stores, %u RAM accesses at a time) %s of the %s RAM "
             "accesses' latencies lie on the critical path (the longest chain %s, %s if every %u overlapped%s); %.0f%% "
             "of its %s is RAM latency, %.0f%% latency that more accesses in flight would not hide; %.0f ns more RAM "
             "latency adds about %s (at least that: the schedule's slope); by the paper's bounds, where any two "
             "independent accesses overlap, lambda is %s and the %.0f ns add %s to %s",
             v->cls, wd->rob, wd->lq, wd->sq, v->m, lw, w, d, wm, v->m, per, 100.0 * v->ram_share, T,
             100.0 * v->window_share, CLI_VERDICT_NS, add, lam, CLI_VERDICT_NS, lo, hi);
}

void cli_verdict_make(edan_context *ctx, const cli_analysis *a, uint32_t k, cli_verdict *v)
{
    const edan_config *c = edan_get_config(ctx, k);
    edan_metrics mt;
    edan_bounds nb, fb;
    char w[32], d[32], wm[32], lam[32], lo[32], hi[32], pct[32], add[128];
    double hz = c->freq_ghz * 1e9;
    memset(v, 0, sizeof *v);
    v->m = cli_verdict_m(a);
    edan_get_metrics(ctx, k, &mt);
    edan_get_bounds(ctx, k, v->m, &nb);
    edan_get_bounds_at(ctx, k, v->m, cli_far_alpha(c, CLI_VERDICT_NS), &fb);
    v->W = mt.W;
    v->D = mt.D;
    v->w_over_m = (double)mt.W / (double)v->m;
    v->lambda = nb.lambda;
    v->chain_share = nb.lambda > 0 ? (double)mt.D / nb.lambda : 0.0;
    v->add_min_s = (fb.T_lower - nb.T_lower) / hz;
    v->add_max_s = (fb.T_upper - nb.T_upper) / hz;
    v->slowdown_min = nb.T_lower > 0 ? fb.T_lower / nb.T_lower : 1.0;
    v->slowdown_max = nb.T_upper > 0 ? fb.T_upper / nb.T_upper : 1.0;
    if (!mt.W) {
        v->cls = "none";
        snprintf(v->text, sizeof v->text,
                 "no access reaches RAM%s: RAM latency does not change this run's time",
                 c->num_levels ? " (the caches serve every load and store)" : "");
        return;
    }
    {
        edan_window wd;
        if (cli_window_at(ctx, a, k, v->m, &wd)) {
            cli_verdict_window(ctx, k, &wd, &mt, v);
            return;
        }
    }
    v->ram_share = nb.T_upper > 0 ? v->lambda * (double)c->alpha / nb.T_upper : 0.0;
    v->cls = cli_verdict_class(v->ram_share, v->chain_share);
    if (v->chain_share < 0.001) snprintf(pct, sizeof pct, "under 0.1%%");
    else snprintf(pct, sizeof pct, "%.1f%%", 100.0 * v->chain_share);
    cli_group(w, sizeof w, mt.W);
    cli_group(d, sizeof d, mt.D);
    cli_rounds(wm, sizeof wm, v->w_over_m);
    cli_rounds(lam, sizeof lam, v->lambda);
    cli_duration(lo, sizeof lo, v->add_min_s);
    cli_duration(hi, sizeof hi, v->add_max_s);
    if (!strcmp(lo, hi)) snprintf(add, sizeof add, "%s (%.2fx the time)", hi, v->slowdown_max);
    else snprintf(add, sizeof add, "%s to %s (up to %.2fx the time)", lo, hi, v->slowdown_max);
    snprintf(v->text, sizeof v->text,
             "%s: the longest chain makes %s RAM round trip%s in a row, against %s rounds for all %s RAM accesses with "
             "%u in flight; the chain is %s of the upper bound's %s rounds, RAM latency %.0f%% of its time; %.0f ns "
             "more RAM latency adds %s",
             v->cls, d, mt.D == 1 ? "" : "s", wm, w, v->m, pct, lam, 100.0 * v->ram_share, CLI_VERDICT_NS, add);
}

/* ---- sampled runs --------------------------------------------------------- */

/* The whole run's value of a sum over windows of c . (insns, W, bytes, D),
   by the ratio to the instructions, scaled to the run's; its 95% interval
   from the windows' spread (Student's t, the share not sampled taken into
   account). No interval from fewer than two windows. */
static double cli_t95(uint64_t df)
{
    static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    return df >= 1 && df <= 30 ? t[df - 1] : df > 120 ? 1.960 : df > 60 ? 1.980 : 2.000;
}

static cli_estimate cli_sample_estimate(const cli_sampled *s, const double *c)
{
    cli_estimate e;
    double v[CLI_WIN_VARS], sx = 0, sn = s->sum[CLI_WIN_INSNS], R, ss = 0, f, se;
    int i, j;
    memset(&e, 0, sizeof e);
    for (i = 0; i < CLI_WIN_VARS; i++) sx += c[i] * s->sum[i];
    if (sn <= 0) return e;
    R = sx / sn;
    e.value = e.low = e.high = R * (double)s->insns;
    if (s->windows < 2) return e;
    for (i = 0; i < CLI_WIN_VARS; i++) v[i] = c[i] - (i == CLI_WIN_INSNS ? R : 0);
    for (i = 0; i < CLI_WIN_VARS; i++)
        for (j = 0; j < CLI_WIN_VARS; j++) ss += v[i] * v[j] * s->prod[i][j];
    if (ss < 0) ss = 0;     /* rounding */
    f = s->insns ? sn / (double)s->insns : 1;
    se = (double)s->insns * sqrt((f < 1 ? 1 - f : 0) * ss / (double)(s->windows - 1) / (double)s->windows) /
         (sn / (double)s->windows);
    e.interval = 1;
    e.low = e.value - cli_t95(s->windows - 1) * se;
    e.high = e.value + cli_t95(s->windows - 1) * se;
    if (e.low < 0) e.low = 0;
    return e;
}

/* The estimates the report gives: W, bytes, lambda at m. */
void cli_sample_estimates(const cli_sampled *s, uint32_t m, cli_estimate out[3])
{
    double cw[CLI_WIN_VARS] = {0}, cb[CLI_WIN_VARS] = {0}, cl[CLI_WIN_VARS] = {0};
    cw[CLI_WIN_W] = 1;
    cb[CLI_WIN_BYTES] = 1;
    cl[CLI_WIN_W] = 1.0 / m;
    cl[CLI_WIN_D] = 1 - 1.0 / m;
    out[0] = cli_sample_estimate(s, cw);
    out[1] = cli_sample_estimate(s, cb);
    out[2] = cli_sample_estimate(s, cl);
}

/* A window's lambda at m: (W - D)/m + D, 0 without W (the page's rule;
   the estimate's coefficients in cli_sample_estimates are the same). */
double cli_window_lambda(const cli_window *x, uint32_t m)
{
    return x->W ? (double)(x->W - x->D) / m + (double)x->D : 0;
}

/* A named region's report is the main one's with its own counts and
   without what only the whole run has (--top lists, the tracer's account,
   the windows of a sampled run, the files). */
cli_analysis cli_region_analysis(const cli_analysis *a, const cli_region *r)
{
    cli_analysis ra = *a;
    ra.cmd.top = 0;
    ra.run.machine_insns = r->machine_insns;
    ra.run.flops = r->flops;
    ra.run.tracer = NULL;
    ra.run.sampled = NULL;
    ra.run.job = NULL;
    ra.run.partial = NULL;
    ra.run.regions = NULL;
    ra.run.nregions = 0;
    return ra;
}
