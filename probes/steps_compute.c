/* probes/steps_compute.c - the compute steps of a run: the pinned teams
   (one core, all cores), the compute roofs per ISA and op, the roofs'
   summary. */
#include "run.h"
#include "../tools/common/opt.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* the pinned teams, one core and all cores, thread 0 on the chases' buffer */
int step_teams(probe_run *r)
{
    uint64_t mem = 0;
    int i;
    for (i = 0; i < (int)r->topo.numa_nodes && i < 64; i++) mem += r->topo.numa_bytes[i];
    if (mem && (uint64_t)r->topo.cores * DRAM_BYTES > mem / 4) {
        r->state.dram_bytes_all = (size_t)(mem / 4 / r->topo.cores) / (2u << 20) * (2u << 20);
        if (r->state.dram_bytes_all < ((size_t)32 << 20)) r->state.dram_bytes_all = (size_t)32 << 20;
    }
    budget_section(r, SEC_TEAMS, 1);
    r->team1 = probe_team_create_with(&r->topo, 1, DRAM_BYTES, r->chase_buf);
    r->teamN = r->topo.cores > 1 ? probe_team_create_with(&r->topo, (int)r->topo.cores, r->state.dram_bytes_all,
                                                          r->chase_buf)
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
    budget_count(r, why);
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
            if (t || attempt || try) budget_next(r);
            y = compute_window(r, tm, cj, vals, &nsecs, &g);
            probe_stats_of(vals, nsecs, &cur);
            if (!attempt || cur.quartile_spread < st.quartile_spread) ghz = g, why = y;
            if (!stab_again(r, &st, &cur, attempt, what, "GFLOP/s")) break;
        }
        probe_check_flops(&chk, cj->isa, what, st.median, n, ghz);
        if (!check_again(r, &chk, try)) break;
    }
    check_record(r, &chk);
    stab_note(r, what, "GFLOP/s", &st);
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
int step_compute(probe_run *r)
{
    int isa, op, t, nmeas = 0;
    probe_log(&r->o, "compute roofs");
    for (isa = 0; isa < PROBE_ISA_COUNT; isa++)
        nmeas += probe_isa_supported(isa) ? PROBE_FOP_COUNT * (r->teamN ? 2 : 1) : 0;
    budget_section(r, SEC_COMPUTE, nmeas);
    jw_arr(&r->w, "compute");
    for (isa = 0; isa < PROBE_ISA_COUNT; isa++) {
        if (!probe_isa_supported(isa)) continue;
        for (op = 0; op < PROBE_FOP_COUNT; op++) {
            compute_job cj;
            memset(&cj, 0, sizeof cj);
            cj.isa = isa;
            cj.op = op;
            cj.iters = 1000;
            budget_next(r);
            calibrate(compute_job_fn, &cj, &cj.iters, NULL, r->o.rep_seconds);
            for (t = 0; t < 2; t++)
                if (t ? r->teamN : r->team1) compute_one(r, &cj, t);
        }
    }
    jw_end_arr(&r->w);
    return 0;
}

/* roofs: the best median of each family */
int step_roofs(probe_run *r)
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
