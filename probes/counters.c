/* probes/counters.c - the PAPI step of a run: hardware counters around
   the kernels, against what the kernels are known to execute. */
#include "run.h"
#include <papi.h>

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

int step_counters(probe_run *r)
{
    budget_section(r, SEC_TAIL, 1);
    write_counters(&r->w, r->best_isa, r->team1, &r->o);
    return 0;
}
