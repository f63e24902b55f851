/* probes/numa.c - `probe --numa`: the LARM roofs and the hybrid fast/slow
   memory model (Denoyelle et al., TPDS 2019, sections 2-3 and 6).

   What it measures, per cluster (a NUMA node with CPUs) and memory node:
   - local/remote load and store bandwidth with the cluster's cores, and the
     load latency of one core (pointer chase);
   - contended: every core of every cluster on one node, bandwidth per cluster;
   - congested: every core, private buffers interleaved over all nodes;
   - the hybrid surface for a fast and a slow node: fast fraction 0..1 in 1/8
     x store fraction 0..1 in 1/4, pages placed as in the paper's Fig. 15,
     with the twelve theta of Eq. (5) fitted by least squares.
   Every buffer is placed with hwloc/libnuma and checked page by page with
   move_pages before and after the timed runs. The node kinds (hwloc subtype,
   HMAT attributes, memkind HBW / DAX_KMEM) are recorded beside the
   measurements. The result is one JSON object (documented in
   hwprofiles/README.md, section "numa").

   This file: the section, stage by stage, and the helpers its files share;
   the machine and its node kinds are in numa_machine.c, the buffers,
   kernels, jobs and latency chase in numa_measure.c, the hybrid model's
   points and fit in numa_hybrid.c (what they share: numa_shared.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* numa.c holds the probe's one copy of edan.h's implementation (the hybrid
   model fit and error, and the reading loop files.c shares) */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "numa_shared.h"
#include "../tools/common/opt.h"
#include <hwloc.h>
#include <numa.h>
#include <numaif.h>
#include <memkind.h>
#include <pthread.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */
/* median, min and max of n repetitions by measure.c's statistics; NaN
   (null in the JSON) when there are none */
probe_stats np_stats_of(const double *v, int n)
{
    probe_stats s;
    probe_stats_of(v, n, &s);
    if (n <= 0) s.median = s.min = s.max = NAN;
    return s;
}

/* median, min and max of n repetitions under key */
void np_json_stats(jw *w, const char *key, const double *v, int n)
{
    probe_stats s = np_stats_of(v, n);
    jw_obj_as(w, key, JW_INLINE);
    jw_num(w, "median", s.median);
    jw_num(w, "min", s.min);
    jw_num(w, "max", s.max);
    jw_end_obj(w);
}

void np_progress(const probe_numa_args *a, const char *fmt, ...)
{
    va_list ap;
    if (!a->verbose) return;
    fprintf(stderr, "probe: numa: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
}

/* ------------------------------------------------------------------------ */
/* The section                                                              */
/* ------------------------------------------------------------------------ */
static int numa_balancing_state(void)
{
    FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
    int v = -1;
    if (!f) return -1;
    if (fscanf(f, "%d", &v) != 1) v = -1;
    fclose(f);
    return v;
}

void np_warn(warnings *w, const probe_numa_args *a, const char *fmt, ...)
{
    va_list ap;
    if (w->n == 16) return;
    va_start(ap, fmt);
    vsnprintf(w->text[w->n], sizeof w->text[0], fmt, ap);
    va_end(ap);
    if (a->verbose) opt_err("probe", "numa: warning: %s", w->text[w->n]);
    w->n++;
}

/* Appends the roof entry of cluster c from a finished job. */
static void json_roof_entry(jw *w, const machine *m, const char *roof, int c, int node_os, const char *op,
                            const job *j, const char *err, warnings *wn, const probe_numa_args *a)
{
    double g[MAX_REPS];
    pages_sum ps = np_job_pages(j, c);
    int n = err ? 0 : np_job_bandwidth(j, c, g);
    jw_row(w);
    jw_obj_as(w, NULL, JW_INLINE);
    jw_str(w, "roof", roof);
    jw_int(w, "cluster", m->node_os[m->cluster[c]]);
    if (node_os >= 0) jw_int(w, "node", node_os);
    else jw_null(w, "node");
    jw_str(w, "op", op);
    jw_int(w, "threads", np_cluster_threads(m, c));
    jw_int(w, "threads_total", j->nw);
    jw_uint(w, "bytes", j->bytes * (size_t)np_cluster_threads(m, c));
    if (err) {
        jw_bool(w, "valid", 0);
        jw_str(w, "error", err);
    } else {
        int valid = ps.before == 0 && ps.after == 0;
        np_json_stats(w, "GBps", g, n);
        np_json_pages(w, ps);
        jw_bool(w, "valid", valid);
        if (!valid)
            np_warn(wn, a, "%s %s roof cluster %d node %d: %zu pages misplaced before, %zu after the runs",
                    roof, op, m->node_os[m->cluster[c]], node_os, ps.before, ps.after);
    }
    jw_end_obj(w);
}

static double median_of(const job *j, int c)
{
    double g[MAX_REPS];
    int n = np_job_bandwidth(j, c, g);
    return np_stats_of(g, n).median;
}

const char *np_store_op_name(void)
{
#ifdef NUMA_NT_STORES
    return "store_nt";
#else
    return "store";
#endif
}

/* The section's text, or NULL when out of memory; the machine freed. */
static char *numa_done(numa_run *r)
{
    free(r->load_bw);
    np_machine_free(&r->m);
    jw_end_obj(&r->w);
    if (fclose(r->w.f) != 0 || r->oom) {
        free(r->text);
        return NULL;
    }
    return r->text;
}

/* memkind's kinds: where an allocation lands when made from each cluster */
static void numa_kinds(numa_run *r)
{
    int c;
    r->hbw_avail = memkind_check_available(MEMKIND_HBW) == 0;
    r->dax_avail = memkind_check_available(MEMKIND_DAX_KMEM) == 0;
    for (c = 0; c < r->m.ncluster; c++) {
        r->hbw_cluster[c] = r->hbw_avail ? np_kind_node(&r->m, MEMKIND_HBW, c, r->hbw_of_node) : -1;
        if (r->dax_avail) np_kind_node(&r->m, MEMKIND_DAX_KMEM, c, r->dax_of_node);
    }
}

/* memkind's HBW and DAX_KMEM kinds as found */
static void json_memkind(numa_run *r)
{
    jw *w = &r->w;
    const char *hbw_env = getenv("MEMKIND_HBW_NODES");
    int c, n;
    jw_obj_as(w, "memkind", JW_INLINE);
    jw_obj_as(w, "hbw", JW_INLINE);
    jw_bool(w, "available", r->hbw_avail);
    if (hbw_env) jw_str(w, "MEMKIND_HBW_NODES", hbw_env);
    else jw_null(w, "MEMKIND_HBW_NODES");
    if (r->hbw_avail) {
        jw_arr_as(w, "from_cluster", JW_INLINE);
        for (c = 0; c < r->m.ncluster; c++) {
            jw_obj_as(w, NULL, JW_INLINE);
            jw_int(w, "cluster", r->m.node_os[r->m.cluster[c]]);
            jw_int(w, "node", r->hbw_cluster[c]);
            jw_end_obj(w);
        }
        jw_end_arr(w);
    } else {
        jw_str(w, "reason", "memkind finds no high-bandwidth node (set MEMKIND_HBW_NODES to name them)");
    }
    jw_end_obj(w);
    jw_obj_as(w, "dax_kmem", JW_INLINE);
    jw_bool(w, "available", r->dax_avail);
    jw_arr_as(w, "nodes", JW_INLINE);
    for (n = 0; n < r->m.nnodes; n++)
        if (r->dax_of_node[n]) jw_int(w, NULL, r->m.node_os[n]);
    jw_end_arr(w);
    jw_end_obj(w);
    jw_end_obj(w);
}

/* The topology: nodes, clusters, balancing, pages, the nodes' kinds and
   memkind's; on one node, what is skipped and why. */
static void json_topology(numa_run *r)
{
    jw *w = &r->w;
    const machine *m = &r->m;
    int c;
    if (m->nnodes < 2)
        snprintf(r->a->note, sizeof r->a->note,
                 "--numa: one NUMA node, so no remote, contended or congested roofs, no latency matrix and no\n"
                 "  hybrid model (each needs two nodes); the profile's \"numa\" section says so (\"skipped\") and\n"
                 "  keeps the node and memkind's kinds (high-bandwidth memory: %s)",
                 r->hbw_avail ? "found" : "none");
    jw_bool(w, "skipped", m->nnodes < 2);
    if (m->nnodes < 2) {
        static const char *const needs[] = {"remote", "contended", "congested", "hybrid"};
        jw_str(w, "reason", "the machine has one NUMA node");
        jw_arr_as(w, "needs", JW_INLINE);
        for (c = 0; c < 4; c++) {
            jw_obj_as(w, NULL, JW_INLINE);
            jw_str(w, "roof", needs[c]);
            jw_int(w, "nodes", 2);
            jw_end_obj(w);
        }
        jw_end_arr(w);
    }
    jw_int(w, "nodes", m->nnodes);
    jw_arr_as(w, "clusters", JW_INLINE);
    for (c = 0; c < m->ncluster; c++) {
        jw_obj_as(w, NULL, JW_INLINE);
        jw_int(w, "cluster", m->node_os[m->cluster[c]]);
        jw_int(w, "threads", np_cluster_threads(m, c));
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_row(w);
    if (r->balancing >= 0) jw_int(w, "numa_balancing", r->balancing);
    else jw_null(w, "numa_balancing");
    jw_uint(w, "page_bytes", m->page);
    jw_bool(w, "huge_pages", 0);
    jw_row(w);
    np_json_nodes(w, m, r->hbw_of_node);
    jw_row(w);
    json_memkind(r);
}

/* Buffer sizes: large enough to leave the caches, small enough for every
   node; then the method, which says them. */
static void numa_sizes(numa_run *r)
{
    const machine *m = &r->m;
    unsigned long long smallest = (unsigned long long)-1;
    int n;
    r->reps = r->a->quick ? 3 : 7;
    r->bytes = r->a->quick ? (size_t)8 << 20 : (size_t)64 << 20;
    /* per thread at least 2x (quick) or 4x its share of the last-level caches */
    np_llc_sizes(m, &r->llc_total, &r->llc_largest);
    r->cache_mult = r->a->quick ? 2 : 4;
    if (m->npu > 0 && (unsigned long long)r->bytes < r->cache_mult * r->llc_total / (unsigned long long)m->npu)
        r->bytes = (size_t)(((r->cache_mult * r->llc_total / (unsigned long long)m->npu) + ((1u << 20) - 1)) &
                            ~((1ULL << 20) - 1));
    for (n = 0; n < m->nnodes; n++)
        if (m->node_obj[n]->attr->numanode.local_memory && m->node_obj[n]->attr->numanode.local_memory < smallest)
            smallest = m->node_obj[n]->attr->numanode.local_memory;
    /* contended puts every thread's buffer on one node: use at most a quarter of it */
    while (r->bytes > ((size_t)1 << 20) && (unsigned long long)r->bytes * (unsigned long long)m->npu > smallest / 4)
        r->bytes /= 2;
    r->bytes -= r->bytes % (4 * LINE > m->page ? 4 * LINE : m->page);
    if (m->npu > 0 && (unsigned long long)r->bytes < r->cache_mult * r->llc_total / (unsigned long long)m->npu)
        np_warn(&r->wn, r->a, "buffers of %zu bytes per thread are below %llux the last-level cache share: the "
                "smallest node is too small, roofs may include cache hits", r->bytes, r->cache_mult);
    jw_row(&r->w);
    jw_obj_as(&r->w, "method", JW_INLINE);
    jw_uint(&r->w, "bytes_per_thread", r->bytes);
    jw_int(&r->w, "reps", r->reps);
    jw_int(&r->w, "warmup", 1);
    jw_str(&r->w, "load", "sum of doubles, 8 accumulators");
#ifdef NUMA_NT_STORES
    jw_str(&r->w, "store", "non-temporal (movntpd) stores");
#else
    jw_str(&r->w, "store", "plain stores");
#endif
    jw_bool(&r->w, "write_allocate_counted", 0);
    jw_str(&r->w, "threads", "one per core, pinned with hwloc");
    jw_str(&r->w, "placement", "hwloc_set_area_membind (bind, interleave); per-page first touch under "
                               "set_mempolicy (hybrid)");
    jw_str(&r->w, "verification", "move_pages on every page before and after the runs");
    jw_end_obj(&r->w);
}

/* local and remote roofs: cluster c's cores, buffers on node n, load and
   store; the load medians kept for the hybrid model's nodes */
static void numa_local_remote(numa_run *r)
{
    const machine *m = &r->m;
    int c, n, op;
    for (c = 0; c < m->ncluster; c++)
        for (n = 0; n < m->nnodes; n++)
            for (op = 0; op < 2; op++) {
                placement p = np_place_on_node(m->node_os[n]);
                const char *e = NULL;
                job *j = np_job_new(m, c, op ? K_STORE : K_LOAD, 0, r->reps, r->bytes, &p);
                if (!j) continue;
                np_progress(r->a, "cluster %d node %d %s", m->node_os[m->cluster[c]], m->node_os[n],
                            op ? "store" : "load");
                if (np_job_run(j, r->err, sizeof r->err) != 0) e = r->err;
                json_roof_entry(&r->w, m, np_node_is_local(m, c, n) ? "local" : "remote", c, m->node_os[n],
                                op ? np_store_op_name() : "load", j, e, &r->wn, r->a);
                if (!op) {
                    pages_sum ps = np_job_pages(j, c);
                    r->load_bw[c][n] = e || ps.before || ps.after ? NAN : median_of(j, c);
                }
                np_job_free(j);
            }
}

/* every core of every cluster at once, buffers placed by p: one roof
   entry per cluster (node_os -1: interleaved over all nodes) */
static void numa_all_cores(numa_run *r, const char *roof, placement *p, int node_os)
{
    const char *e = NULL;
    int c;
    job *j = np_job_new(&r->m, -1, K_LOAD, 0, r->reps, r->bytes, p);
    if (!j) return;
    if (node_os >= 0) np_progress(r->a, "%s node %d", roof, node_os);
    else np_progress(r->a, "%s", roof);
    if (np_job_run(j, r->err, sizeof r->err) != 0) e = r->err;
    for (c = 0; c < r->m.ncluster; c++)
        json_roof_entry(&r->w, &r->m, roof, c, node_os, "load", j, e, &r->wn, r->a);
    np_job_free(j);
}

/* the roofs: local and remote; contended (all buffers on node n);
   congested (private buffers interleaved over all nodes) */
static void json_roofs(numa_run *r)
{
    placement p;
    int n;
    jw_row(&r->w);
    jw_arr_as(&r->w, "roofs", JW_WRAP);
    numa_local_remote(r);
    for (n = 0; n < r->m.nnodes; n++) {
        p = np_place_on_node(r->m.node_os[n]);
        numa_all_cores(r, "contended", &p, r->m.node_os[n]);
    }
    memset(&p, 0, sizeof p);
    p.kind = PLACE_INTERLEAVE;
    numa_all_cores(r, "congested", &p, -1);
    jw_end_arr(&r->w);
}

/* one latency entry: a finished chase */
static void json_latency_entry(numa_run *r, const chase_arg *ca)
{
    jw *w = &r->w;
    pages_sum ps;
    int k;
    if (ca->err[0] && ca->err[0] != '?') {
        jw_bool(w, "valid", 0);
        jw_str(w, "error", ca->err);
        return;
    }
    ps.pages = ca->pc.pages;
    ps.before = ca->pc.misplaced;
    ps.after = ca->pc.misplaced;
    np_json_stats(w, "ns", ca->ns, ca->reps);
    if (r->a->freq_ghz > 0) {
        double cyc[MAX_REPS];
        for (k = 0; k < ca->reps; k++) cyc[k] = ca->ns[k] * r->a->freq_ghz;
        np_json_stats(w, "cycles", cyc, ca->reps);
    }
    np_json_pages(w, ps);
    jw_bool(w, "valid", !ca->pc.misplaced);
}

/* the latency matrix: one core of each cluster, a chase on each node */
static void json_latency(numa_run *r)
{
    const machine *m = &r->m;
    int c, n;
    jw_row(&r->w);
    jw_arr_as(&r->w, "latency", JW_WRAP);
    for (c = 0; c < m->ncluster; c++)
        for (n = 0; n < m->nnodes; n++) {
            chase_arg ca;
            pthread_t t;
            int k;
            memset(&ca, 0, sizeof ca);
            ca.m = m;
            ca.node = m->node_os[n];
            ca.bytes = r->a->quick ? (size_t)8 << 20 : (size_t)128 << 20;
            while ((unsigned long long)ca.bytes < r->cache_mult * r->llc_largest) ca.bytes *= 2;
            while (ca.bytes > ((size_t)1 << 20) &&
                   (unsigned long long)ca.bytes > m->node_obj[n]->attr->numanode.local_memory / 4)
                ca.bytes /= 2;
            ca.steps = r->a->quick ? 200000 : 4000000;
            ca.reps = r->a->quick ? 3 : 5;
            ca.pu = -1;
            for (k = 0; k < m->npu; k++)
                if (m->pu_cluster[k] == c) { ca.pu = m->pu[k]; break; }
            if (ca.pu < 0 || pthread_create(&t, NULL, np_chase_main, &ca) != 0) continue;
            pthread_join(t, NULL);
            jw_row(&r->w);
            jw_obj_as(&r->w, NULL, JW_INLINE);
            jw_int(&r->w, "cluster", m->node_os[m->cluster[c]]);
            jw_int(&r->w, "node", m->node_os[n]);
            jw_uint(&r->w, "bytes", ca.bytes);
            json_latency_entry(r, &ca);
            jw_end_obj(&r->w);
        }
    jw_end_arr(&r->w);
}

/* the empty measurement lists of a section that measured nothing */
static void json_nothing_measured(jw *w)
{
    jw_row(w);
    jw_arr_as(w, "roofs", JW_WRAP);
    jw_end_arr(w);
    jw_arr_as(w, "latency", JW_WRAP);
    jw_end_arr(w);
    jw_arr_as(w, "hybrid", JW_WRAP);
    jw_end_arr(w);
    jw_arr_as(w, "warnings", JW_INLINE);
    jw_end_arr(w);
}

char *probe_numa_section(probe_numa_args *args)
{
    probe_numa_args a0;
    numa_run run;
    numa_run *r = &run;
    char err[200], seconds[32];
    double t_start = probe_now();
    FILE *f;
    int i;
    memset(r, 0, sizeof *r);
    if (!(f = open_memstream(&r->text, &r->len))) return NULL;
    /* the section is written on its own, its root's members wrapped at the
       rows below; probe puts the text under the profile's "numa" key */
    jw_init(&r->w, f);
    r->w.real_digits = 9;
    jw_obj_as(&r->w, NULL, JW_WRAP);
    r->balancing = numa_balancing_state();
    if (!args) { memset(&a0, 0, sizeof a0); args = &a0; }
    r->a = args;
    if (np_machine_load(&r->m, err, sizeof err) != 0) {
        snprintf(r->a->note, sizeof r->a->note, "--numa: skipped: %s", err);
        jw_bool(&r->w, "skipped", 1);
        jw_str(&r->w, "reason", err);
        jw_null(&r->w, "nodes");
        jw_arr_as(&r->w, "needs", JW_INLINE);
        jw_end_arr(&r->w);
        return numa_done(r);
    }
    np_progress(r->a, "%d NUMA nodes, %d clusters, %d cores", r->m.nnodes, r->m.ncluster, r->m.npu);
    numa_kinds(r);
    json_topology(r);
    if (r->m.nnodes < 2) {
        json_nothing_measured(&r->w);
        return numa_done(r);
    }
    if (r->balancing > 0)
        np_warn(&r->wn, r->a, "NUMA balancing is on (/proc/sys/kernel/numa_balancing = %d): pages are checked after "
                           "every run and runs whose pages moved are marked invalid", r->balancing);
    numa_sizes(r);
    r->load_bw = calloc((size_t)r->m.ncluster, sizeof *r->load_bw);
    if (!r->load_bw) {
        r->oom = 1;
        return numa_done(r);
    }
    json_roofs(r);
    json_latency(r);
    np_json_hybrid(r);
    jw_row(&r->w);
    jw_arr_as(&r->w, "warnings", JW_INLINE);
    for (i = 0; i < r->wn.n; i++) jw_str(&r->w, NULL, r->wn.text[i]);
    jw_end_arr(&r->w);
    /* the section's duration, to a tenth of a second */
    snprintf(seconds, sizeof seconds, "%.1f", probe_now() - t_start);
    jw_raw(&r->w, "seconds", seconds);
    return numa_done(r);
}
