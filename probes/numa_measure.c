/* probes/numa_measure.c - how `probe --numa` measures: buffers placed on
   nodes and checked page by page, the load, store and mixed kernels, jobs
   of pinned threads (one per core) running them, and one core's latency
   chase. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "edan.h"
#include "numa_shared.h"
#include "sattolo.h"
#include <hwloc.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef NUMA_NT_STORES
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------------------ */
/* Buffers: placement and page-by-page verification                         */
/* ------------------------------------------------------------------------ */

/* Every page on one node (OS index). */
placement np_place_on_node(int node)
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
            int slot = status[k] >= 0 ? np_node_slot(m, status[k]) : -1;
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
int np_job_run(job *j, char *err, size_t errlen)
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
int np_job_bandwidth(const job *j, int c, double *gbps)
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

pages_sum np_job_pages(const job *j, int c)
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

void np_json_pages(jw *w, pages_sum s)
{
    jw_obj_as(w, "pages", JW_INLINE);
    jw_uint(w, "checked", s.pages);
    jw_uint(w, "misplaced_before", s.before);
    jw_uint(w, "misplaced_after", s.after);
    jw_end_obj(w);
}

/* A job over the cores of cluster c (all clusters when c < 0). */
job *np_job_new(const machine *m, int c, enum kernel_kind kind, int sq, int reps, size_t bytes,
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

void np_job_free(job *j)
{
    if (j) free(j->w);
    free(j);
}

/* ------------------------------------------------------------------------ */
/* Latency: one core, Sattolo single-cycle chase over lines on one node     */
/* ------------------------------------------------------------------------ */

void *np_chase_main(void *arg)
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
    p = np_place_on_node(a->node);
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
