/* probes/numa_hybrid.c - `probe --numa`'s hybrid fast/slow memory
   model: the surface of fast fractions and store fractions measured on a
   fast and a slow node, the theta of Eq. (5) fitted (edan.h's
   edan_hybrid_fit), and its JSON. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "edan.h"
#include "numa_shared.h"
#include <memkind.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    j = np_job_new(m, c, K_MIX, p->sq, r->reps, r->bytes, &pl);
    if (!j) { snprintf(p->err, sizeof p->err, "out of memory"); return; }
    np_progress(r->a, "hybrid cluster %d fast %d/8 stores %d/4", m->node_os[m->cluster[c]], p->fe, p->sq);
    if (np_job_run(j, p->err, sizeof p->err) != 0) { np_job_free(j); return; }
    p->nrep = np_job_bandwidth(j, -1, p->gbps);
    p->bw = np_stats_of(p->gbps, p->nrep);
    p->pages = np_job_pages(j, -1);
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
        np_warn(&r->wn, r->a, "hybrid cluster %d point fast %d/8 stores %d/4: pages misplaced (%zu before, %zu "
                "after)", m->node_os[m->cluster[c]], p->fe, p->sq, p->pages.before, p->pages.after);
    np_job_free(j);
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
            np_json_stats(w, "GBps", p->gbps, p->nrep);
            np_json_pages(w, p->pages);
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
        np_warn(&r->wn, r->a, "hybrid cluster %d: the fitted theta give a time <= 0 at some point; the fit is "
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
    int n, h = r->hbw_cluster[c] >= 0 ? np_node_slot(m, r->hbw_cluster[c]) : -1;
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
void np_json_hybrid(numa_run *r)
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
        jw_int(w, "threads", np_cluster_threads(m, c));
        jw_uint(w, "bytes_per_thread", r->bytes);
        jw_str(w, "store_op", np_store_op_name());
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
