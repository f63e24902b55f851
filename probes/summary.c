/* probes/summary.c - the closing summary of a run: the profile's figures
   by level with their spreads, the unstable ones, the NUMA note, and the
   checks that failed (also printed by probe --check). */
#include "run.h"
#include "../tools/common/opt.h"
#include "edan.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

summary_row *summary_row_of(probe_state *s, const char *level)
{
    int i;
    for (i = 0; i < s->nrows; i++)
        if (!strcmp(s->rows[i].level, level)) return &s->rows[i];
    if (s->nrows > PROBE_MAX_CACHES) return &s->rows[PROBE_MAX_CACHES];
    memset(&s->rows[s->nrows], 0, sizeof s->rows[0]);
    s->rows[s->nrows].level = level;
    return &s->rows[s->nrows++];
}

void summary_numa_note(probe_state *s, const char *note)
{
    snprintf(s->numa_note, sizeof s->numa_note, "%s", note);
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
void print_failed_checks(FILE *f, const probe_check *c, int n, int nfailed, int run)
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
void print_summary(FILE *f, probe_state *s, const char *json, size_t len, const char *path, int is_default)
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
        for (k = 0; k < s->nrows; k++)
            if (!strcmp(s->rows[k].level, levels[i])) row = k;
        for (l = 0; l < p->num_caches; l++)
            if (!strcmp(p->cache[l].level, levels[i])) {
                snprintf(size, sizeof size, "%llu KiB", (unsigned long long)(p->cache[l].size >> 10));
                fig(lat, sizeof lat, "%.1f", p->cache[l].latency_ns, row >= 0 ? &s->rows[row].lat : NULL);
                snprintf(cyc, sizeof cyc, "%.0f", p->cache[l].latency_cycles);
                have = 1;
            }
        if (!have) continue;
        if (!strcmp(levels[i], "DRAM")) {
            fig(lat, sizeof lat, "%.1f", p->dram_latency_ns, row >= 0 ? &s->rows[row].lat : NULL);
            snprintf(cyc, sizeof cyc, "%.0f = alpha", p->dram_latency_cycles);
        }
        if ((x = edan_profile_bandwidth_of(p, levels[i], "load", 1)) > 0)
            fig(b1, sizeof b1, "%.1f", x, row >= 0 ? &s->rows[row].load1 : NULL);
        if ((x = edan_profile_bandwidth_of(p, levels[i], "load", p->cores)) > 0)
            fig(bn, sizeof bn, "%.1f", x, row >= 0 && p->cores > 1 ? &s->rows[row].loadN : NULL);
        fprintf(f, "  %-6s %10s %15s %12s %17s %17s\n", levels[i], size, lat, cyc, b1, bn);
    }
    fprintf(f, "  memory-level parallelism m %u; peak %.1f GFLOP/s one core, %.1f all cores\n", p->mlp_m,
            p->peak_GFLOPs_1core, p->peak_GFLOPs_all);
    fprintf(f, "  (±: half the span of the middle half of the repetitions, of the median; !: unstable)\n");
    if (s->numa_note[0]) fprintf(f, "  %s\n", s->numa_note);
    if (s->stab.n) {
        qsort(s->stab.fig, (size_t)s->stab.n, sizeof s->stab.fig[0], stab_order);
        fprintf(f, "probe: warning: %d of %d figures stayed unstable (the middle half of their repetitions "
                   "spans more than %.0f%% of the median, after %d rerun(s) in all):\n",
                s->stab.n, s->stab.total, 100 * PROBE_UNSTABLE, s->stab.reruns);
        for (k = 0; k < s->stab.n && k < 12; k++)
            fprintf(f, "    %-28s %10.4g %-7s middle half %.4g..%.4g, all %.4g..%.4g\n", s->stab.fig[k].what,
                    s->stab.fig[k].st.median, s->stab.fig[k].unit, s->stab.fig[k].st.q1, s->stab.fig[k].st.q3,
                    s->stab.fig[k].st.min, s->stab.fig[k].st.max);
        if (s->stab.n > 12)
            fprintf(f, "    ... and %d more (the profile's \"stability\" lists them)\n", s->stab.n - 12);
        fprintf(f, "  Other work on this machine, frequency changes or a virtual machine's neighbours move them;\n"
                   "  probe again on a quiet machine (a longer --budget helps) before trusting them.\n");
    }
    if (s->checks.n && !s->checks.failed)
        fprintf(f, "  checks against the machine's limits: all %d passed (%d re-measurement(s) on the way)\n",
                s->checks.n, s->checks.retries);
    print_failed_checks(f, s->checks.c, s->checks.n, s->checks.failed, 1);
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
