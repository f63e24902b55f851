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
   hwprofiles/README.md, section "numa"). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "numa.h"
#include "probe.h"
#include "sattolo.h"
/* numa.c holds the probe's one copy of edan.h's implementation (the hybrid
   model fit and error, and the reading loop files.c shares) */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "../tools/common/jsonw.h"
#include "../tools/common/opt.h"
#include <hwloc.h>
#include <numa.h>
#include <numaif.h>
#include <memkind.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#define NUMA_NT_STORES 1
#endif

#define LINE 64
#define MAX_REPS 15
#define MAX_NODES 64

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */
/* median, min and max of n repetitions by measure.c's statistics; NaN
   (null in the JSON) when there are none */
static probe_stats stats_of(const double *v, int n)
{
    probe_stats s;
    probe_stats_of(v, n, &s);
    if (n <= 0) s.median = s.min = s.max = NAN;
    return s;
}

/* median, min and max of n repetitions under key */
static void json_stats(jw *w, const char *key, const double *v, int n)
{
    probe_stats s = stats_of(v, n);
    jw_obj_as(w, key, JW_INLINE);
    jw_num(w, "median", s.median);
    jw_num(w, "min", s.min);
    jw_num(w, "max", s.max);
    jw_end_obj(w);
}

static void progress(const probe_numa_args *a, const char *fmt, ...)
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
/* The machine                                                              */
/* ------------------------------------------------------------------------ */
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

static int node_slot(const machine *m, int os)
{
    int i;
    for (i = 0; i < m->nnodes; i++)
        if (m->node_os[i] == os) return i;
    return -1;
}

static int cluster_threads(const machine *m, int c)
{
    int i, k = 0;
    for (i = 0; i < m->npu; i++) k += m->pu_cluster[i] == c;
    return k;
}

static void machine_free(machine *m)
{
    free(m->pu);
    free(m->pu_cluster);
    if (m->topo) hwloc_topology_destroy(m->topo);
}

/* Nodes and clusters: hwloc for the node list and cores, libnuma for which
   nodes have CPUs (hwloc gives CPU-less nodes their parent's cpuset). */
static int machine_load(machine *m, char *err, size_t errlen)
{
    hwloc_obj_t o = NULL;
    int i, ncores;
    memset(m, 0, sizeof *m);
    m->page = (size_t)sysconf(_SC_PAGESIZE);
    if (hwloc_topology_init(&m->topo) != 0 || hwloc_topology_load(m->topo) != 0) {
        snprintf(err, errlen, "hwloc could not load the topology");
        return -1;
    }
    while ((o = hwloc_get_next_obj_by_type(m->topo, HWLOC_OBJ_NUMANODE, o)) != NULL) {
        if (m->nnodes == MAX_NODES) break;
        m->node_os[m->nnodes] = (int)o->os_index;
        m->node_obj[m->nnodes] = o;
        m->nnodes++;
    }
    if (m->nnodes == 0) {
        snprintf(err, errlen, "hwloc reports no NUMA node");
        return -1;
    }
    if (numa_available() >= 0) {
        struct bitmask *cpus = numa_allocate_cpumask();
        for (i = 0; i < m->nnodes && cpus; i++) {
            unsigned j;
            numa_bitmask_clearall(cpus);
            if (numa_node_to_cpus(m->node_os[i], cpus) == 0)
                for (j = 0; j < cpus->size; j++)
                    if (numa_bitmask_isbitset(cpus, j)) { m->has_cpus[i] = 1; break; }
        }
        if (cpus) numa_free_cpumask(cpus);
    } else if (m->nnodes == 1) {
        m->has_cpus[0] = 1;
    }
    for (i = 0; i < m->nnodes; i++)
        if (m->has_cpus[i]) m->cluster[m->ncluster++] = i;
    ncores = hwloc_get_nbobjs_by_type(m->topo, HWLOC_OBJ_CORE);
    if (ncores <= 0) ncores = hwloc_get_nbobjs_by_type(m->topo, HWLOC_OBJ_PU);
    m->pu = calloc((size_t)ncores + 1, sizeof *m->pu);
    m->pu_cluster = calloc((size_t)ncores + 1, sizeof *m->pu_cluster);
    if (!m->pu || !m->pu_cluster) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (i = 0; i < ncores; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(m->topo, HWLOC_OBJ_CORE, (unsigned)i);
        hwloc_obj_t pu;
        int node, slot, c;
        if (!core) core = hwloc_get_obj_by_type(m->topo, HWLOC_OBJ_PU, (unsigned)i);
        if (!core) continue;
        pu = core->type == HWLOC_OBJ_PU ? core
           : hwloc_get_next_obj_inside_cpuset_by_type(m->topo, core->cpuset, HWLOC_OBJ_PU, NULL);
        if (!pu) continue;
        node = numa_available() >= 0 ? numa_node_of_cpu((int)pu->os_index) : m->node_os[0];
        slot = node_slot(m, node);
        for (c = 0; c < m->ncluster; c++)
            if (m->cluster[c] == slot) break;
        if (c == m->ncluster) continue;
        m->pu[m->npu] = (int)pu->os_index;
        m->pu_cluster[m->npu] = c;
        m->npu++;
    }
    return 0;
}

/* Whether memory node slot n is local to cluster c: the cluster's own node,
   or a CPU-less node that hwloc attaches inside the cluster's cpuset (KNL's
   MCDRAM, HBM next to its socket). */
static int node_is_local(const machine *m, int c, int n)
{
    int cs = m->cluster[c];
    if (n == cs) return 1;
    if (m->has_cpus[n]) return 0;
    return hwloc_bitmap_isincluded(m->node_obj[n]->cpuset, m->node_obj[cs]->cpuset) &&
           !hwloc_bitmap_isequal(m->node_obj[n]->cpuset, hwloc_topology_get_topology_cpuset(m->topo));
}

/* The last-level data caches: their total size and the largest one. */
static void llc_sizes(const machine *m, unsigned long long *total, unsigned long long *largest)
{
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                             HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
    size_t t;
    *total = *largest = 0;
    for (t = 0; t < sizeof types / sizeof *types && *total == 0; t++) {
        hwloc_obj_t o = NULL;
        while ((o = hwloc_get_next_obj_by_type(m->topo, types[t], o)) != NULL) {
            *total += o->attr->cache.size;
            if (o->attr->cache.size > *largest) *largest = o->attr->cache.size;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Buffers: placement and page-by-page verification                         */
/* ------------------------------------------------------------------------ */
enum place_kind { PLACE_NODE, PLACE_INTERLEAVE, PLACE_SPLIT };

typedef struct placement {
    enum place_kind kind;
    int node;                   /* PLACE_NODE: OS index */
    int fast, slow;             /* PLACE_SPLIT: OS indexes */
    int fast_eighths;           /* PLACE_SPLIT: fast fraction in 1/8 */
} placement;

/* Every page on one node (OS index). */
static placement place_on_node(int node)
{
    placement p;
    memset(&p, 0, sizeof p);
    p.kind = PLACE_NODE;
    p.node = node;
    return p;
}

/* PLACE_SPLIT as in the paper's Fig. 15: the first 2*min(F,S) pages
   alternate fast, slow; the rest go to the node that has more pages. */
static int split_node_of_page(const placement *p, size_t i, size_t npages)
{
    size_t nf = (size_t)((double)npages * p->fast_eighths / 8.0 + 0.5);
    size_t ns = npages - nf, pair = nf < ns ? nf : ns;
    if (i < 2 * pair) return (i & 1) ? p->slow : p->fast;
    return nf > ns ? p->fast : p->slow;
}

typedef struct page_check {
    size_t pages;               /* pages checked */
    size_t misplaced;           /* not on the intended node (or not present) */
    size_t per_node[MAX_NODES]; /* by node slot */
} page_check;

/* Where every page of [buf, buf+len) is, through move_pages(2) in query
   mode; compares with the intended node when the placement has one. */
static int check_pages(const machine *m, const placement *p, char *buf, size_t len, page_check *out)
{
    enum { BATCH = 1024 };
    void *addr[BATCH];
    int status[BATCH];
    size_t npages = len / m->page, i, k;
    memset(out, 0, sizeof *out);
    for (i = 0; i < npages; i += BATCH) {
        size_t n = npages - i < BATCH ? npages - i : BATCH;
        for (k = 0; k < n; k++) addr[k] = buf + (i + k) * m->page;
        if (numa_move_pages(0, (unsigned long)n, addr, NULL, status, 0) != 0) return -1;
        for (k = 0; k < n; k++) {
            int slot = status[k] >= 0 ? node_slot(m, status[k]) : -1;
            int want = -1;
            if (slot >= 0) out->per_node[slot]++;
            if (p->kind == PLACE_NODE) want = p->node;
            else if (p->kind == PLACE_SPLIT) want = split_node_of_page(p, i + k, npages);
            if (slot < 0 || (want >= 0 && status[k] != want)) out->misplaced++;
        }
        out->pages += n;
    }
    if (p->kind == PLACE_INTERLEAVE) {
        /* the kernel interleaves page by page: counts differ by at most one */
        size_t lo = (size_t)-1, hi = 0;
        for (k = 0; k < (size_t)m->nnodes; k++) {
            if (out->per_node[k] < lo) lo = out->per_node[k];
            if (out->per_node[k] > hi) hi = out->per_node[k];
        }
        if (hi - lo > 1) out->misplaced += hi - lo - 1;
    }
    return 0;
}

/* A node mask for set_mempolicy/mbind with nodes a and b (-1 = none). */
#define MASK_WORDS (MAX_NODES / (8 * sizeof(unsigned long)) + 1)
static void node_mask(unsigned long *mask, int a, int b)
{
    const int bits = 8 * (int)sizeof(unsigned long);
    memset(mask, 0, MASK_WORDS * sizeof *mask);
    if (a >= 0 && a < MAX_NODES) mask[a / bits] |= 1UL << (a % bits);
    if (b >= 0 && b < MAX_NODES) mask[b / bits] |= 1UL << (b % bits);
}

static void set_policy(int mode, int node)
{
    unsigned long mask[MASK_WORDS];
    node_mask(mask, node, -1);
    set_mempolicy(mode, node >= 0 ? mask : NULL, node >= 0 ? MAX_NODES + 1 : 0);
}

/* Maps, places and first-touches a buffer; called by its own (pinned)
   thread. Small pages only, so that pages can be placed one by one. */
static char *buffer_make(const machine *m, const placement *p, size_t len, char *err, size_t errlen)
{
    char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t i, npages = len / m->page;
    if (buf == MAP_FAILED) {
        snprintf(err, errlen, "mmap of %zu bytes failed: %s", len, strerror(errno));
        return NULL;
    }
#ifdef MADV_NOHUGEPAGE
    madvise(buf, len, MADV_NOHUGEPAGE);
#endif
    if (p->kind == PLACE_NODE || p->kind == PLACE_INTERLEAVE) {
        hwloc_nodeset_t set = hwloc_bitmap_alloc();
        int rc;
        if (p->kind == PLACE_NODE) hwloc_bitmap_only(set, (unsigned)p->node);
        else {
            int k;
            for (k = 0; k < m->nnodes; k++) hwloc_bitmap_set(set, (unsigned)m->node_os[k]);
        }
        rc = hwloc_set_area_membind(m->topo, buf, len, set,
                                    p->kind == PLACE_NODE ? HWLOC_MEMBIND_BIND : HWLOC_MEMBIND_INTERLEAVE,
                                    HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
        hwloc_bitmap_free(set);
        if (rc != 0) {
            snprintf(err, errlen, "hwloc_set_area_membind failed: %s", strerror(errno));
            munmap(buf, len);
            return NULL;
        }
        for (i = 0; i < npages; i++) buf[i * m->page] = 1;
    } else {
        /* first touch under a per-thread policy switched page by page: no
           per-page VMA (mbind would split the mapping into thousands) */
        int cur = -2;
        for (i = 0; i < npages; i++) {
            int node = split_node_of_page(p, i, npages);
            if (node != cur) { set_policy(MPOL_BIND, node); cur = node; }
            buf[i * m->page] = 1;
        }
        set_policy(MPOL_DEFAULT, -1);
        /* then bind the mapping to both nodes: the placed pages stay where
           they are, and NUMA balancing does not migrate bound pages */
        {
            unsigned long mask[MASK_WORDS];
            node_mask(mask, p->fast, p->slow);
            if (mbind(buf, len, MPOL_BIND, mask, MAX_NODES + 1, 0) != 0) {
                snprintf(err, errlen, "mbind to nodes %d,%d failed: %s", p->fast, p->slow, strerror(errno));
                munmap(buf, len);
                return NULL;
            }
        }
    }
    memset(buf, 0, len);
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                  */
/* ------------------------------------------------------------------------ */
enum kernel_kind { K_LOAD, K_STORE, K_MIX };

static double kernel_load(const double *x, size_t n)
{
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    size_t i;
    for (i = 0; i + 8 <= n; i += 8) {
        a0 += x[i]; a1 += x[i + 1]; a2 += x[i + 2]; a3 += x[i + 3];
        a4 += x[i + 4]; a5 += x[i + 5]; a6 += x[i + 6]; a7 += x[i + 7];
    }
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

/* One cache line of stores; non-temporal where the ISA has them, so that
   the written bytes are the traffic (no write-allocate read). */
static void store_line(double *y, double v)
{
#ifdef NUMA_NT_STORES
    __m128d a = _mm_set1_pd(v);
    _mm_stream_pd(y, a);
    _mm_stream_pd(y + 2, a);
    _mm_stream_pd(y + 4, a);
    _mm_stream_pd(y + 6, a);
#else
    int k;
    for (k = 0; k < 8; k++) y[k] = v;
#endif
}

static void store_fence(void)
{
#ifdef NUMA_NT_STORES
    _mm_sfence();
#endif
}

static void kernel_store(double *y, size_t n, double v)
{
    size_t i;
    for (i = 0; i + 8 <= n; i += 8) store_line(y + i, v);
    store_fence();
}

/* Fig. 15: groups of four lines, (4 - sq) loaded from r then sq stored to w,
   so loads and stores are interleaved in the ratio of the store fraction. */
static double kernel_mix(const double *r, double *w, size_t groups, int sq)
{
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    size_t g;
    int l, k;
    for (g = 0; g < groups; g++) {
        for (l = 0; l < 4 - sq; l++) {
            const double *x = r + 8 * l;
            a0 += x[0] + x[4]; a1 += x[1] + x[5]; a2 += x[2] + x[6]; a3 += x[3] + x[7];
        }
        for (k = 0; k < sq; k++) store_line(w + 8 * k, 1.0);
        if (sq < 4) r += 8 * (4 - sq);
        if (sq > 0) w += 8 * sq;
    }
    store_fence();
    return a0 + a1 + a2 + a3;
}

/* ------------------------------------------------------------------------ */
/* Jobs: a set of pinned threads, one per core, each with private buffers   */
/* ------------------------------------------------------------------------ */
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

static void run_kernel(worker *w)
{
    job *j = w->job;
    if (j->kind == K_LOAD) w->sink += kernel_load((const double *)w->r, w->rbytes / sizeof(double));
    else if (j->kind == K_STORE) kernel_store((double *)w->w, w->wbytes / sizeof(double), w->sink + 1.0);
    else w->sink += kernel_mix((const double *)w->r, (double *)w->w, j->bytes / (4 * LINE), j->store_quarters);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    job *j = w->job;
    const machine *m = j->m;
    hwloc_cpuset_t set;
    int rep, ok, cancel;
    pthread_mutex_lock(&j->mu);
    while (!j->go) pthread_cond_wait(&j->cv, &j->mu);
    cancel = j->cancel;
    pthread_mutex_unlock(&j->mu);
    if (cancel) return NULL;
    set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, (unsigned)w->pu);
    if (hwloc_set_cpubind(m->topo, set, HWLOC_CPUBIND_THREAD) != 0)
        snprintf(w->err, sizeof w->err, "could not pin a thread to PU %d", w->pu);
    hwloc_bitmap_free(set);
    if (j->kind == K_LOAD) w->rbytes = j->bytes;
    else if (j->kind == K_STORE) w->wbytes = j->bytes;
    else {
        w->rbytes = j->bytes / 4 * (size_t)(4 - j->store_quarters);
        w->wbytes = j->bytes / 4 * (size_t)j->store_quarters;
    }
    if (!w->err[0] && w->rbytes) w->r = buffer_make(m, &w->place, w->rbytes, w->err, sizeof w->err);
    if (!w->err[0] && w->wbytes) w->w = buffer_make(m, &w->place, w->wbytes, w->err, sizeof w->err);
    if (!w->err[0]) {
        if ((w->r && check_pages(m, &w->place, w->r, w->rbytes, &w->before_r) != 0) ||
            (w->w && check_pages(m, &w->place, w->w, w->wbytes, &w->before_w) != 0))
            snprintf(w->err, sizeof w->err, "move_pages could not query the pages: %s", strerror(errno));
    }
    pthread_barrier_wait(&j->bar);
    ok = !w->err[0];
    if (ok) run_kernel(w);      /* warm-up: TLB, prefetchers, clocks */
    for (rep = 0; rep < j->reps; rep++) {
        pthread_barrier_wait(&j->bar);
        w->t0[rep] = probe_now();
        if (ok) run_kernel(w);
        w->t1[rep] = probe_now();
    }
    pthread_barrier_wait(&j->bar);
    if (ok) {
        if (w->r) check_pages(m, &w->place, w->r, w->rbytes, &w->after_r);
        if (w->w) check_pages(m, &w->place, w->w, w->wbytes, &w->after_w);
    }
    if (w->r) munmap(w->r, w->rbytes);
    if (w->w) munmap(w->w, w->wbytes);
    w->r = w->w = NULL;
    return NULL;
}

/* Runs the job; every worker's pu, cluster and place must be set. */
static int job_run(job *j, char *err, size_t errlen)
{
    pthread_t *tid = calloc((size_t)j->nw, sizeof *tid);
    int i, started = 0;
    if (!tid) { snprintf(err, errlen, "out of memory"); return -1; }
    if (pthread_barrier_init(&j->bar, NULL, (unsigned)j->nw) != 0) {
        free(tid);
        snprintf(err, errlen, "pthread_barrier_init failed");
        return -1;
    }
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    j->go = j->cancel = 0;
    for (i = 0; i < j->nw; i++) {
        j->w[i].job = j;
        if (pthread_create(&tid[i], NULL, worker_main, &j->w[i]) != 0) break;
        started++;
    }
    pthread_mutex_lock(&j->mu);
    j->go = 1;
    j->cancel = started < j->nw;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    for (i = 0; i < started; i++) pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&j->bar);
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
    free(tid);
    if (started < j->nw) {
        snprintf(err, errlen, "could not start %d threads", j->nw);
        return -1;
    }
    for (i = 0; i < j->nw; i++)
        if (j->w[i].err[0]) { snprintf(err, errlen, "%s", j->w[i].err); return -1; }
    return 0;
}

/* Bandwidth of the threads of cluster c (all when c < 0) in each rep:
   their bytes over the span from the first start to the last end. */
static int job_bandwidth(const job *j, int c, double *gbps)
{
    int rep, i;
    for (rep = 0; rep < j->reps; rep++) {
        double t0 = INFINITY, t1 = -INFINITY, bytes = 0;
        for (i = 0; i < j->nw; i++) {
            const worker *w = &j->w[i];
            if (c >= 0 && w->cluster != c) continue;
            if (w->t0[rep] < t0) t0 = w->t0[rep];
            if (w->t1[rep] > t1) t1 = w->t1[rep];
            bytes += (double)(w->rbytes + w->wbytes);
        }
        gbps[rep] = t1 > t0 ? bytes / (t1 - t0) / 1e9 : NAN;
    }
    return j->reps;
}

typedef struct pages_sum { size_t pages, before, after; } pages_sum;

static pages_sum job_pages(const job *j, int c)
{
    pages_sum s = {0, 0, 0};
    int i;
    for (i = 0; i < j->nw; i++) {
        const worker *w = &j->w[i];
        if (c >= 0 && w->cluster != c) continue;
        s.pages += w->before_r.pages + w->before_w.pages;
        s.before += w->before_r.misplaced + w->before_w.misplaced;
        s.after += w->after_r.misplaced + w->after_w.misplaced;
    }
    return s;
}

static void json_pages(jw *w, pages_sum s)
{
    jw_obj_as(w, "pages", JW_INLINE);
    jw_uint(w, "checked", s.pages);
    jw_uint(w, "misplaced_before", s.before);
    jw_uint(w, "misplaced_after", s.after);
    jw_end_obj(w);
}

/* A job over the cores of cluster c (all clusters when c < 0). */
static job *job_new(const machine *m, int c, enum kernel_kind kind, int sq, int reps, size_t bytes,
                    const placement *p)
{
    job *j = calloc(1, sizeof *j);
    int i, k = 0;
    if (!j) return NULL;
    j->m = m;
    j->kind = kind;
    j->store_quarters = sq;
    j->reps = reps;
    j->bytes = bytes;
    j->w = calloc((size_t)m->npu + 1, sizeof *j->w);
    if (!j->w) { free(j); return NULL; }
    for (i = 0; i < m->npu; i++) {
        if (c >= 0 && m->pu_cluster[i] != c) continue;
        j->w[k].pu = m->pu[i];
        j->w[k].cluster = m->pu_cluster[i];
        j->w[k].place = *p;
        k++;
    }
    j->nw = k;
    return j;
}

static void job_free(job *j)
{
    if (j) free(j->w);
    free(j);
}

/* ------------------------------------------------------------------------ */
/* Latency: one core, Sattolo single-cycle chase over lines on one node     */
/* ------------------------------------------------------------------------ */
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

static void *chase_main(void *arg)
{
    chase_arg *a = arg;
    const machine *m = a->m;
    hwloc_cpuset_t set = hwloc_bitmap_alloc();
    placement p;
    size_t n = a->bytes / LINE, i, *next;
    char *buf;
    int rep;
    hwloc_bitmap_only(set, (unsigned)a->pu);
    hwloc_set_cpubind(m->topo, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
    p = place_on_node(a->node);
    buf = buffer_make(m, &p, a->bytes, a->err, sizeof a->err);
    if (!buf) return NULL;
    /* one random cycle through every line (sattolo.h, as the other chases) */
    if (!(next = malloc(n * sizeof *next))) {
        snprintf(a->err, sizeof a->err, "out of memory");
        munmap(buf, a->bytes);
        return NULL;
    }
    probe_sattolo(next, n, 0);
    for (i = 0; i < n; i++) *(void **)(buf + i * LINE) = buf + next[i] * LINE;
    free(next);
    {
        void **q = (void **)buf;
        long s;
        for (s = 0; s < a->steps; s++) q = (void **)*q;     /* warm-up */
        for (rep = 0; rep < a->reps; rep++) {
            double t0 = probe_now();
            for (s = 0; s < a->steps; s++) q = (void **)*q;
            a->ns[rep] = (probe_now() - t0) * 1e9 / (double)a->steps;
        }
        if (q == NULL) a->err[0] = '?';     /* keeps the chase alive */
    }
    check_pages(m, &p, buf, a->bytes, &a->pc);
    munmap(buf, a->bytes);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Node kinds: hwloc subtype, HMAT attributes, memory tiers                 */
/* ------------------------------------------------------------------------ */
static const struct memattr_key {
    hwloc_memattr_id_t id;
    const char *key;
} memattr_keys[] = {
    {HWLOC_MEMATTR_ID_BANDWIDTH, "bandwidth_MiBps"},
    {HWLOC_MEMATTR_ID_READ_BANDWIDTH, "read_bandwidth_MiBps"},
    {HWLOC_MEMATTR_ID_WRITE_BANDWIDTH, "write_bandwidth_MiBps"},
    {HWLOC_MEMATTR_ID_LATENCY, "latency_ns"},
    {HWLOC_MEMATTR_ID_READ_LATENCY, "read_latency_ns"},
    {HWLOC_MEMATTR_ID_WRITE_LATENCY, "write_latency_ns"},
};
#define N_MEMATTR (sizeof memattr_keys / sizeof memattr_keys[0])

/* node n's HMAT attributes as seen from cluster c's cores: have[k] says
   whether memattr_keys[k] is known; returns how many are */
static int memattrs_of(const machine *m, int n, int c, hwloc_uint64_t *v, int *have)
{
    struct hwloc_location loc;
    size_t k;
    int known = 0;
    loc.type = HWLOC_LOCATION_TYPE_CPUSET;
    loc.location.cpuset = m->node_obj[m->cluster[c]]->cpuset;
    for (k = 0; k < N_MEMATTR; k++) {
        have[k] = hwloc_memattr_get_value(m->topo, memattr_keys[k].id, m->node_obj[n], &loc, 0, &v[k]) == 0;
        known += have[k];
    }
    return known;
}

/* The kernel's memory tier of a node (Linux >= 6.1), -1 when unknown. */
static int memory_tier(int node_os)
{
    char path[128], line[256];
    int t;
    for (t = 0; t < 64; t++) {
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/virtual/memory_tiering/memory_tier%d/nodelist", t);
        f = fopen(path, "r");
        if (!f) continue;
        if (fgets(line, sizeof line, f)) {
            /* a list like 0-1,3 */
            char *s = line;
            while (*s) {
                long a = strtol(s, &s, 10), z = a;
                if (*s == '-') z = strtol(s + 1, &s, 10);
                if (node_os >= a && node_os <= z) { fclose(f); return t; }
                if (*s != ',') break;
                s++;
            }
        }
        fclose(f);
    }
    return -1;
}

/* node n's HMAT attributes, one entry per cluster that has any */
static void json_hmat(jw *w, const machine *m, int n)
{
    int c;
    size_t k;
    jw_arr_as(w, "hmat", JW_INLINE);
    for (c = 0; c < m->ncluster; c++) {
        hwloc_uint64_t v[N_MEMATTR];
        int have[N_MEMATTR];
        if (!memattrs_of(m, n, c, v, have)) continue;
        jw_obj_as(w, NULL, JW_INLINE);
        jw_int(w, "cluster", m->node_os[m->cluster[c]]);
        for (k = 0; k < N_MEMATTR; k++)
            if (have[k]) jw_uint(w, memattr_keys[k].key, v[k]);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

static void json_nodes(jw *w, const machine *m, const int *hbw_of_node)
{
    int n, c;
    jw_arr_as(w, "node_info", JW_WRAP);
    for (n = 0; n < m->nnodes; n++) {
        hwloc_obj_t o = m->node_obj[n];
        int tier = memory_tier(m->node_os[n]);
        jw_row(w);
        jw_obj_as(w, NULL, JW_INLINE);
        jw_int(w, "node", m->node_os[n]);
        jw_bool(w, "cpus", m->has_cpus[n]);
        jw_uint(w, "bytes", (unsigned long long)o->attr->numanode.local_memory);
        if (o->subtype) jw_str(w, "subtype", o->subtype);
        else jw_null(w, "subtype");
        if (tier >= 0) jw_int(w, "memory_tier", tier);
        else jw_null(w, "memory_tier");
        jw_bool(w, "memkind_hbw", hbw_of_node[n]);
        jw_arr_as(w, "local_to", JW_INLINE);
        for (c = 0; c < m->ncluster; c++)
            if (node_is_local(m, c, n)) jw_int(w, NULL, m->node_os[m->cluster[c]]);
        jw_end_arr(w);
        json_hmat(w, m, n);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

/* ------------------------------------------------------------------------ */
/* memkind: which node an allocation of a kind lands on, from each cluster  */
/* ------------------------------------------------------------------------ */
/* The allocation runs in a child process pinned to a core of cluster c:
   memkind keeps freed extents in its arenas, so a second allocation in one
   process could reuse pages that an earlier cluster's allocation placed.
   Returns the node of the first page (-1 if none) and marks every node
   used in used[]. */
static int kind_node(const machine *m, memkind_t kind, int c, int *used)
{
    int fd[2], i, pu = -1, first = -1;
    pid_t pid;
    unsigned char got[MAX_NODES + 1];
    for (i = 0; i < m->npu; i++)
        if (m->pu_cluster[i] == c) { pu = m->pu[i]; break; }
    if (pu < 0 || pipe(fd) != 0) return -1;
    fflush(NULL);
    pid = fork();
    if (pid < 0) { close(fd[0]); close(fd[1]); return -1; }
    if (pid == 0) {
        hwloc_cpuset_t set = hwloc_bitmap_alloc();
        size_t len = 4 * 1024 * 1024, k;
        unsigned char res[MAX_NODES + 1];
        char *p;
        close(fd[0]);
        memset(res, 0, sizeof res);
        res[MAX_NODES] = 0xff;      /* first node: none */
        hwloc_bitmap_only(set, (unsigned)pu);
        hwloc_set_cpubind(m->topo, set, HWLOC_CPUBIND_PROCESS);
        hwloc_bitmap_free(set);
        p = memkind_malloc(kind, len);
        if (p) {
            memset(p, 1, len);
            for (k = 0; k < len; k += m->page) {
                void *addr = p + k;
                int st = -1, s;
                if (numa_move_pages(0, 1, &addr, NULL, &st, 0) != 0 || st < 0) continue;
                s = node_slot(m, st);
                if (s < 0) continue;
                res[s] = 1;
                if (res[MAX_NODES] == 0xff) res[MAX_NODES] = (unsigned char)s;
            }
        }
        if (write(fd[1], res, sizeof res) != (ssize_t)sizeof res) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], got, sizeof got) == (ssize_t)sizeof got) {
        for (i = 0; i < m->nnodes; i++) used[i] |= got[i];
        if (got[MAX_NODES] != 0xff && got[MAX_NODES] < m->nnodes) first = m->node_os[got[MAX_NODES]];
    }
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return first;
}

/* ------------------------------------------------------------------------ */
/* The hybrid model fit (paper Eq. 5): edan.h's edan_hybrid_fit             */
/* ------------------------------------------------------------------------ */
enum { LF = EDAN_HYBRID_LF, LS = EDAN_HYBRID_LS, SF = EDAN_HYBRID_SF, SS = EDAN_HYBRID_SS };
static const char *const hy_name[4] = {"lf", "ls", "sf", "ss"};

typedef struct hy_point {
    int fe, sq;                 /* fast fraction in 1/8, store fraction in 1/4 */
    double q[4];                /* GB per pass, from the verified pages */
    double gbps[MAX_REPS];
    int nrep;
    probe_stats bw;
    pages_sum pages;
    int valid;
    char err[160];
} hy_point;

typedef struct hy_fit {
    double b[4];                /* GB/s of lf, ls, sf, ss */
    double theta[4][4];         /* theta[dominant][other], NaN = undetermined */
    double err_pct, rms_pct;
    int used;
} hy_fit;

static void hy_fit_points(const hy_point *pt, int np, hy_fit *f)
{
    edan_hybrid_model m;
    double (*q)[EDAN_HYBRID_COUNT] = calloc((size_t)np + 1, sizeof *q);
    double *y = calloc((size_t)np + 1, sizeof *y);
    int d, i, k, n = 0;
    memset(&m, 0, sizeof m);
    for (d = 0; d < 4; d++)
        for (k = 0; k < 4; k++) f->theta[d][k] = NAN;
    f->err_pct = f->rms_pct = NAN;
    f->used = 0;
    for (k = 0; k < 4; k++) f->b[k] = NAN;
    /* the four bandwidths: the sweep's corners */
    for (i = 0; i < np; i++) {
        if (!pt[i].valid) continue;
        if (pt[i].fe == 8 && pt[i].sq == 0) f->b[LF] = pt[i].bw.median;
        if (pt[i].fe == 0 && pt[i].sq == 0) f->b[LS] = pt[i].bw.median;
        if (pt[i].fe == 8 && pt[i].sq == 4) f->b[SF] = pt[i].bw.median;
        if (pt[i].fe == 0 && pt[i].sq == 4) f->b[SS] = pt[i].bw.median;
    }
    for (k = 0; k < 4; k++)
        if (!(f->b[k] > 0)) goto out;
    for (i = 0; i < np; i++) {
        if (!pt[i].valid) continue;
        for (k = 0; k < 4; k++) q[n][k] = pt[i].q[k];
        y[n++] = pt[i].bw.median;
    }
    for (k = 0; k < 4; k++) m.bw[k] = f->b[k];
    if (n == 0 || edan_hybrid_fit(&m, (size_t)n, (const double (*)[EDAN_HYBRID_COUNT])q, y) != EDAN_OK)
        goto out;
    for (d = 0; d < 4; d++)
        for (k = 0; k < 4; k++) {
            if (k == d) continue;
            f->theta[d][k] = m.theta[d][k];
            /* undetermined: the pair occurs in no point, so 0 changes no point */
            if (isnan(m.theta[d][k])) m.theta[d][k] = 0;
        }
    f->used = n;
    if (edan_hybrid_error(&m, (size_t)n, (const double (*)[EDAN_HYBRID_COUNT])q, y, &f->err_pct) == EDAN_OK)
        f->rms_pct = f->err_pct * sqrt((double)n);     /* 100 * sqrt(sum / n) */
    else
        f->err_pct = NAN;   /* some point's fitted time is <= 0: no model bandwidth there */
out:
    free(q);
    free(y);
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

typedef struct warnings { char text[16][200]; int n; } warnings;

static void warn(warnings *w, const probe_numa_args *a, const char *fmt, ...)
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
    pages_sum ps = job_pages(j, c);
    int n = err ? 0 : job_bandwidth(j, c, g);
    jw_row(w);
    jw_obj_as(w, NULL, JW_INLINE);
    jw_str(w, "roof", roof);
    jw_int(w, "cluster", m->node_os[m->cluster[c]]);
    if (node_os >= 0) jw_int(w, "node", node_os);
    else jw_null(w, "node");
    jw_str(w, "op", op);
    jw_int(w, "threads", cluster_threads(m, c));
    jw_int(w, "threads_total", j->nw);
    jw_uint(w, "bytes", j->bytes * (size_t)cluster_threads(m, c));
    if (err) {
        jw_bool(w, "valid", 0);
        jw_str(w, "error", err);
    } else {
        int valid = ps.before == 0 && ps.after == 0;
        json_stats(w, "GBps", g, n);
        json_pages(w, ps);
        jw_bool(w, "valid", valid);
        if (!valid)
            warn(wn, a, "%s %s roof cluster %d node %d: %zu pages misplaced before, %zu after the runs",
                 roof, op, m->node_os[m->cluster[c]], node_os, ps.before, ps.after);
    }
    jw_end_obj(w);
}

static double median_of(const job *j, int c)
{
    double g[MAX_REPS];
    int n = job_bandwidth(j, c, g);
    return stats_of(g, n).median;
}

static const char *store_op_name(void)
{
#ifdef NUMA_NT_STORES
    return "store_nt";
#else
    return "store";
#endif
}

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

/* The section's text, or NULL when out of memory; the machine freed. */
static char *numa_done(numa_run *r)
{
    free(r->load_bw);
    machine_free(&r->m);
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
        r->hbw_cluster[c] = r->hbw_avail ? kind_node(&r->m, MEMKIND_HBW, c, r->hbw_of_node) : -1;
        if (r->dax_avail) kind_node(&r->m, MEMKIND_DAX_KMEM, c, r->dax_of_node);
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
        jw_int(w, "threads", cluster_threads(m, c));
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_row(w);
    if (r->balancing >= 0) jw_int(w, "numa_balancing", r->balancing);
    else jw_null(w, "numa_balancing");
    jw_uint(w, "page_bytes", m->page);
    jw_bool(w, "huge_pages", 0);
    jw_row(w);
    json_nodes(w, m, r->hbw_of_node);
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
    llc_sizes(m, &r->llc_total, &r->llc_largest);
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
        warn(&r->wn, r->a, "buffers of %zu bytes per thread are below %llux the last-level cache share: the smallest "
                           "node is too small, roofs may include cache hits", r->bytes, r->cache_mult);
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
                placement p = place_on_node(m->node_os[n]);
                const char *e = NULL;
                job *j = job_new(m, c, op ? K_STORE : K_LOAD, 0, r->reps, r->bytes, &p);
                if (!j) continue;
                progress(r->a, "cluster %d node %d %s", m->node_os[m->cluster[c]], m->node_os[n],
                         op ? "store" : "load");
                if (job_run(j, r->err, sizeof r->err) != 0) e = r->err;
                json_roof_entry(&r->w, m, node_is_local(m, c, n) ? "local" : "remote", c, m->node_os[n],
                                op ? store_op_name() : "load", j, e, &r->wn, r->a);
                if (!op) {
                    pages_sum ps = job_pages(j, c);
                    r->load_bw[c][n] = e || ps.before || ps.after ? NAN : median_of(j, c);
                }
                job_free(j);
            }
}

/* every core of every cluster at once, buffers placed by p: one roof
   entry per cluster (node_os -1: interleaved over all nodes) */
static void numa_all_cores(numa_run *r, const char *roof, placement *p, int node_os)
{
    const char *e = NULL;
    int c;
    job *j = job_new(&r->m, -1, K_LOAD, 0, r->reps, r->bytes, p);
    if (!j) return;
    if (node_os >= 0) progress(r->a, "%s node %d", roof, node_os);
    else progress(r->a, "%s", roof);
    if (job_run(j, r->err, sizeof r->err) != 0) e = r->err;
    for (c = 0; c < r->m.ncluster; c++)
        json_roof_entry(&r->w, &r->m, roof, c, node_os, "load", j, e, &r->wn, r->a);
    job_free(j);
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
        p = place_on_node(r->m.node_os[n]);
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
    json_stats(w, "ns", ca->ns, ca->reps);
    if (r->a->freq_ghz > 0) {
        double cyc[MAX_REPS];
        for (k = 0; k < ca->reps; k++) cyc[k] = ca->ns[k] * r->a->freq_ghz;
        json_stats(w, "cycles", cyc, ca->reps);
    }
    json_pages(w, ps);
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
            if (ca.pu < 0 || pthread_create(&t, NULL, chase_main, &ca) != 0) continue;
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

/* one hybrid point of cluster c: fe/8 of the pages on the fast node, sq/4
   of the traffic stores; the quantities from where the pages really are */
static void hybrid_point(numa_run *r, int c, int fast, int slow, hy_point *p)
{
    const machine *m = &r->m;
    placement pl;
    job *j;
    int w, k;
    memset(&pl, 0, sizeof pl);
    pl.kind = PLACE_SPLIT;
    pl.fast = m->node_os[fast];
    pl.slow = m->node_os[slow];
    pl.fast_eighths = p->fe;
    j = job_new(m, c, K_MIX, p->sq, r->reps, r->bytes, &pl);
    if (!j) { snprintf(p->err, sizeof p->err, "out of memory"); return; }
    progress(r->a, "hybrid cluster %d fast %d/8 stores %d/4", m->node_os[m->cluster[c]], p->fe, p->sq);
    if (job_run(j, p->err, sizeof p->err) != 0) { job_free(j); return; }
    p->nrep = job_bandwidth(j, -1, p->gbps);
    p->bw = stats_of(p->gbps, p->nrep);
    p->pages = job_pages(j, -1);
    p->valid = p->pages.before == 0 && p->pages.after == 0 && p->bw.median > 0;
    for (w = 0; w < j->nw; w++) {
        const worker *wk = &j->w[w];
        double pg = (double)m->page / 1e9;
        p->q[LF] += pg * (double)wk->before_r.per_node[fast];
        p->q[LS] += pg * (double)wk->before_r.per_node[slow];
        p->q[SF] += pg * (double)wk->before_w.per_node[fast];
        p->q[SS] += pg * (double)wk->before_w.per_node[slow];
    }
    for (k = 0; k < 4; k++)
        if (!(p->q[k] >= 0)) p->valid = 0;
    if (!p->valid)
        warn(&r->wn, r->a, "hybrid cluster %d point fast %d/8 stores %d/4: pages misplaced (%zu before, %zu after)",
             m->node_os[m->cluster[c]], p->fe, p->sq, p->pages.before, p->pages.after);
    job_free(j);
}

static void json_hybrid_points(jw *w, const hy_point *pt, int np)
{
    int i;
    for (i = 0; i < np; i++) {
        const hy_point *p = &pt[i];
        jw_row(w);
        jw_obj_as(w, NULL, JW_INLINE);
        jw_num(w, "fast_fraction", p->fe / 8.0);
        jw_num(w, "store_fraction", p->sq / 4.0);
        if (p->err[0]) {
            jw_bool(w, "valid", 0);
            jw_str(w, "error", p->err);
        } else {
            jw_obj_as(w, "q_GB", JW_INLINE);
            jw_nums(w, hy_name, p->q, 4);
            jw_end_obj(w);
            json_stats(w, "GBps", p->gbps, p->nrep);
            json_pages(w, p->pages);
            jw_bool(w, "valid", p->valid);
        }
        jw_end_obj(w);
    }
}

/* the fitted model of cluster c: bandwidths, theta, its error */
static void json_hybrid_fit(numa_run *r, int c, const hy_fit *fit)
{
    jw *w = &r->w;
    int i, k;
    jw_row(w);
    jw_obj_as(w, "bandwidth_GBps", JW_INLINE);
    jw_nums(w, hy_name, fit->b, 4);
    jw_end_obj(w);
    jw_row(w);
    jw_obj_as(w, "theta", JW_INLINE);
    for (i = 0; i < 4; i++) {
        jw_obj_as(w, hy_name[i], JW_INLINE);
        for (k = 0; k < 4; k++)
            if (k != i) jw_num(w, hy_name[k], fit->theta[i][k]);
        jw_end_obj(w);
    }
    jw_end_obj(w);
    jw_row(w);
    jw_int(w, "points_fitted", fit->used);
    jw_num(w, "error_pct", fit->err_pct);
    jw_num(w, "rms_error_pct", fit->rms_pct);
    if (fit->used && isnan(fit->err_pct)) {
        jw_str(w, "error_note", "the fitted theta give a time <= 0 at some point (an ill-conditioned fit): no error");
        warn(&r->wn, r->a, "hybrid cluster %d: the fitted theta give a time <= 0 at some point; the fit is "
                           "ill-conditioned, no model error", r->m.node_os[r->m.cluster[c]]);
    }
}

/* cluster c's fast and slow nodes: memkind's HBW node and the cluster's
   own, else the best and worst measured load bandwidth; 0, or -1 when
   there are no two */
static int hybrid_nodes(const numa_run *r, int c, int *fast, int *slow, const char **fast_from,
                        const char **slow_from)
{
    const machine *m = &r->m;
    int n, h = r->hbw_cluster[c] >= 0 ? node_slot(m, r->hbw_cluster[c]) : -1;
    *fast = *slow = -1;
    if (h >= 0 && h != m->cluster[c]) {
        *fast = h;
        *slow = m->cluster[c];
        *fast_from = "memkind_hbw";
        *slow_from = "cluster_node";
        return 0;
    }
    for (n = 0; n < m->nnodes; n++)
        if (isfinite(r->load_bw[c][n]) && (*fast < 0 || r->load_bw[c][n] > r->load_bw[c][*fast])) *fast = n;
    for (n = 0; n < m->nnodes; n++)
        if (n != *fast && isfinite(r->load_bw[c][n]) && (*slow < 0 || r->load_bw[c][n] < r->load_bw[c][*slow]))
            *slow = n;
    *fast_from = "best_measured_load";
    *slow_from = "worst_measured_load";
    return *fast < 0 || *slow < 0 ? -1 : 0;
}

/* hybrid: per cluster, a fast and a slow node, fast fraction 0..1 in 1/8
   x store fraction 0..1 in 1/4, and the model fitted to them */
static void json_hybrid(numa_run *r)
{
    const machine *m = &r->m;
    jw *w = &r->w;
    int c;
    jw_row(w);
    jw_arr_as(w, "hybrid", JW_WRAP);
    for (c = 0; c < m->ncluster; c++) {
        int fast, slow, np = 0, fe, sq;
        const char *fast_from, *slow_from;
        hy_point *pt;
        hy_fit fit;
        jw_row(w);
        jw_obj_as(w, NULL, JW_WRAP);
        jw_int(w, "cluster", m->node_os[m->cluster[c]]);
        if (hybrid_nodes(r, c, &fast, &slow, &fast_from, &slow_from)) {
            jw_bool(w, "skipped", 1);
            jw_str(w, "reason", "no two nodes with a valid load bandwidth");
            jw_end_obj(w);
            continue;
        }
        jw_int(w, "fast_node", m->node_os[fast]);
        jw_str(w, "fast_from", fast_from);
        jw_int(w, "slow_node", m->node_os[slow]);
        jw_str(w, "slow_from", slow_from);
        jw_int(w, "threads", cluster_threads(m, c));
        jw_uint(w, "bytes_per_thread", r->bytes);
        jw_str(w, "store_op", store_op_name());
        jw_arr_as(w, "points", JW_WRAP);
        pt = calloc(9 * 5, sizeof *pt);
        if (!pt) {
            jw_end_arr(w);
            jw_end_obj(w);
            continue;
        }
        for (fe = 0; fe <= 8; fe++)
            for (sq = 0; sq <= 4; sq++) {
                hy_point *p = &pt[np++];
                p->fe = fe;
                p->sq = sq;
                hybrid_point(r, c, fast, slow, p);
            }
        json_hybrid_points(w, pt, np);
        jw_end_arr(w);
        hy_fit_points(pt, np, &fit);
        json_hybrid_fit(r, c, &fit);
        jw_end_obj(w);
        free(pt);
    }
    jw_end_arr(w);
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
    if (machine_load(&r->m, err, sizeof err) != 0) {
        snprintf(r->a->note, sizeof r->a->note, "--numa: skipped: %s", err);
        jw_bool(&r->w, "skipped", 1);
        jw_str(&r->w, "reason", err);
        jw_null(&r->w, "nodes");
        jw_arr_as(&r->w, "needs", JW_INLINE);
        jw_end_arr(&r->w);
        return numa_done(r);
    }
    progress(r->a, "%d NUMA nodes, %d clusters, %d cores", r->m.nnodes, r->m.ncluster, r->m.npu);
    numa_kinds(r);
    json_topology(r);
    if (r->m.nnodes < 2) {
        json_nothing_measured(&r->w);
        return numa_done(r);
    }
    if (r->balancing > 0)
        warn(&r->wn, r->a, "NUMA balancing is on (/proc/sys/kernel/numa_balancing = %d): pages are checked after "
                           "every run and runs whose pages moved are marked invalid", r->balancing);
    numa_sizes(r);
    r->load_bw = calloc((size_t)r->m.ncluster, sizeof *r->load_bw);
    if (!r->load_bw) {
        r->oom = 1;
        return numa_done(r);
    }
    json_roofs(r);
    json_latency(r);
    json_hybrid(r);
    jw_row(&r->w);
    jw_arr_as(&r->w, "warnings", JW_INLINE);
    for (i = 0; i < r->wn.n; i++) jw_str(&r->w, NULL, r->wn.text[i]);
    jw_end_arr(&r->w);
    /* the section's duration, to a tenth of a second */
    snprintf(seconds, sizeof seconds, "%.1f", probe_now() - t_start);
    jw_raw(&r->w, "seconds", seconds);
    return numa_done(r);
}
