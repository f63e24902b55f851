/* probes/numa_shared.h - what the files of `probe --numa` share: the
   machine (numa_machine.c), the buffers' placement, the jobs of pinned
   threads and the latency chase (numa_measure.c), the section's run
   (numa.c, which also has the helpers named here), the hybrid model
   (numa_hybrid.c). Their shared functions are named np_ (libnuma has
   numa_). */
#ifndef PROBE_NUMA_SHARED_H
#define PROBE_NUMA_SHARED_H
#include "numa.h"
#include "probe.h"
#include "../tools/common/jsonw.h"
#include <hwloc.h>
#include <memkind.h>
#include <pthread.h>
#include <stddef.h>

#define LINE 64
#define MAX_REPS 15
#define MAX_NODES 64
#if defined(__SSE2__)
#define NUMA_NT_STORES 1        /* stores bypass the caches (numa_measure.c) */
#endif

typedef struct machine {
    hwloc_topology_t topo;
    int nnodes;                     /* NUMA nodes (hwloc) */
    int node_os[MAX_NODES];         /* their OS indexes */
    hwloc_obj_t node_obj[MAX_NODES];
    int has_cpus[MAX_NODES];        /* the node is a cluster */
    int ncluster;
    int cluster[MAX_NODES];         /* node slots of the clusters */
    int *pu;                        /* one PU per core, all clusters */
    int *pu_cluster;                /* its cluster slot */
    int npu;
    size_t page;
} machine;

enum place_kind { PLACE_NODE, PLACE_INTERLEAVE, PLACE_SPLIT };

typedef struct placement {
    enum place_kind kind;
    int node;                   /* PLACE_NODE: OS index */
    int fast, slow;             /* PLACE_SPLIT: OS indexes */
    int fast_eighths;           /* PLACE_SPLIT: fast fraction in 1/8 */
} placement;

typedef struct page_check {
    size_t pages;               /* pages checked */
    size_t misplaced;           /* not on the intended node (or not present) */
    size_t per_node[MAX_NODES]; /* by node slot */
} page_check;

enum kernel_kind { K_LOAD, K_STORE, K_MIX };

typedef struct job job;
typedef struct worker {
    job *job;
    int pu, cluster;
    placement place;
    char *r, *w;
    size_t rbytes, wbytes;
    double t0[MAX_REPS + 1], t1[MAX_REPS + 1];
    page_check before_r, before_w, after_r, after_w;
    double sink;
    char err[160];
} worker;

struct job {
    const machine *m;
    enum kernel_kind kind;
    int store_quarters;         /* K_MIX */
    int reps;
    size_t bytes;               /* per thread and pass */
    int nw;
    worker *w;
    pthread_barrier_t bar;
    pthread_mutex_t mu;         /* start gate: no thread uses the barrier */
    pthread_cond_t cv;          /* before every thread was created */
    int go, cancel;
};

typedef struct pages_sum { size_t pages, before, after; } pages_sum;

typedef struct chase_arg {
    const machine *m;
    int pu, node;
    size_t bytes;
    long steps;
    int reps;
    double ns[MAX_REPS];
    page_check pc;
    char err[160];
} chase_arg;

typedef struct warnings { char text[16][200]; int n; } warnings;

/* What the section's stages share. */
typedef struct numa_run {
    probe_numa_args *a;
    machine m;
    char *text;                     /* the section's text, in memory (w.f) */
    size_t len;
    jw w;
    int oom;
    warnings wn;
    char err[200];
    int balancing;                  /* /proc/sys/kernel/numa_balancing, -1 unknown */
    int hbw_avail, dax_avail;       /* memkind's kinds */
    int hbw_of_node[MAX_NODES], dax_of_node[MAX_NODES], hbw_cluster[MAX_NODES];
    double (*load_bw)[MAX_NODES];   /* [cluster][node slot] median GB/s */
    size_t bytes;                   /* per thread */
    int reps;
    unsigned long long llc_total, llc_largest, cache_mult;
} numa_run;

/* ---- numa.c ---- */
probe_stats np_stats_of(const double *v, int n);
void np_json_stats(jw *w, const char *key, const double *v, int n);
void np_progress(const probe_numa_args *a, const char *fmt, ...);
void np_warn(warnings *w, const probe_numa_args *a, const char *fmt, ...);
const char *np_store_op_name(void);

/* ---- numa_machine.c ---- */
int np_node_slot(const machine *m, int os);
int np_cluster_threads(const machine *m, int c);
void np_machine_free(machine *m);
int np_machine_load(machine *m, char *err, size_t errlen);
int np_node_is_local(const machine *m, int c, int n);
void np_llc_sizes(const machine *m, unsigned long long *total, unsigned long long *largest);
void np_json_nodes(jw *w, const machine *m, const int *hbw_of_node);
int np_kind_node(const machine *m, memkind_t kind, int c, int *used);

/* ---- numa_measure.c ---- */
placement np_place_on_node(int node);
int np_job_run(job *j, char *err, size_t errlen);
int np_job_bandwidth(const job *j, int c, double *gbps);
pages_sum np_job_pages(const job *j, int c);
void np_json_pages(jw *w, pages_sum s);
job *np_job_new(const machine *m, int c, enum kernel_kind kind, int sq, int reps, size_t bytes,
                const placement *p);
void np_job_free(job *j);
void *np_chase_main(void *arg);

/* ---- numa_hybrid.c ---- */
void np_json_hybrid(numa_run *r);
#endif
