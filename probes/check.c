/* probes/check.c - the checks of probe's figures against the machine's
   limits (flops per cycle per ISA, the clock against the FLOP roof, roofs
   and latencies ordered by level); the run's steps re-measure what fails
   and record the results, probe --check holds a profile's figures to them. */
#include "probe.h"
#include <stdio.h>
#include <string.h>

const char *const probe_check_name[PROBE_CHECK_KINDS] = {"flops_per_cycle", "clock_vs_flop_roof", "roof_order",
                                                         "latency_order"};

double probe_flops_per_cycle_limit(int isa)
{
    return isa >= 0 && isa < PROBE_ISA_COUNT ? 2.0 * probe_isa_lanes(isa) * 2 : 0;
}

static void check_fig(probe_check *c, const char *name, double v)
{
    if (c->nfig >= (int)(sizeof c->fig / sizeof c->fig[0])) return;
    snprintf(c->fig[c->nfig].name, sizeof c->fig[c->nfig].name, "%s", name);
    c->fig[c->nfig++].v = v;
}

/* value against limit; a figure that is not a positive number fails */
static int check_set(probe_check *c, double value, double limit)
{
    c->value = value;
    c->limit = limit;
    c->passed = value == value && limit == limit && value >= 0 && limit > 0 && value <= limit * (1 + PROBE_CHECK_SLACK);
    return c->passed;
}

static void check_begin(probe_check *c, int kind)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
}

int probe_check_flops(probe_check *c, int isa, const char *what, double gflops, int threads, double ghz)
{
    check_begin(c, PROBE_CHECK_FLOPS);
    snprintf(c->figure, sizeof c->figure, "%s", what);
    c->value_is = "flops per cycle per core (GFLOP/s / threads / GHz)";
    c->limit_is = "2 FP units x the ISA's double lanes x 2 flops (FMA)";
    check_fig(c, "GFLOPs", gflops);
    check_fig(c, "threads", threads);
    check_fig(c, "clock_ghz", ghz);
    return check_set(c, threads > 0 && ghz > 0 ? gflops / threads / ghz : -1, probe_flops_per_cycle_limit(isa));
}

int probe_check_clock(probe_check *c, int isa, double roof_gflops, double ghz)
{
    double lim = probe_flops_per_cycle_limit(isa);
    check_begin(c, PROBE_CHECK_CLOCK);
    snprintf(c->figure, sizeof c->figure, "core clock against the %s FLOP roof of one core",
             isa >= 0 && isa < PROBE_ISA_COUNT ? probe_isa_name[isa] : "?");
    c->value_is = "the slowest clock that gives the roof (GFLOP/s / flops-per-cycle limit), GHz";
    c->limit_is = "the profile's core clock, GHz";
    check_fig(c, "roof_GFLOPs", roof_gflops);
    check_fig(c, "flops_per_cycle_limit", lim);
    check_fig(c, "clock_ghz", ghz);
    return check_set(c, lim > 0 ? roof_gflops / lim : -1, ghz);
}

int probe_check_order(probe_check *c, int kind, const char *shallow, double shallow_v, const char *deep, double deep_v,
                      int threads)
{
    int roofs = kind == PROBE_CHECK_ROOFS;
    check_begin(c, roofs ? PROBE_CHECK_ROOFS : PROBE_CHECK_LATENCY);
    if (roofs) {
        snprintf(c->figure, sizeof c->figure, "%s <= %s %d thread(s)", deep, shallow, threads);
        c->value_is = "the deeper level's roof, GB/s";
        c->limit_is = "the shallower level's roof, GB/s";
        check_fig(c, shallow, shallow_v);
        check_fig(c, deep, deep_v);
        check_fig(c, "threads", threads);
        return check_set(c, deep_v, shallow_v);
    }
    snprintf(c->figure, sizeof c->figure, "%s < %s", shallow, deep);
    c->value_is = "the shallower level's latency, ns";
    c->limit_is = "the deeper level's latency, ns";
    check_fig(c, shallow, shallow_v);
    check_fig(c, deep, deep_v);
    return check_set(c, shallow_v, deep_v);
}
