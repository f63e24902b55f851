/* tools/roofline.c - the roofline charts of a hardware profile, as SVG.
   CARM: log-log, arithmetic intensity (flop/byte) against GFLOP/s; one
   horizontal roof per compute kind (best ISA FMA, best ISA ADD, scalar FMA)
   and one slanted roof per memory level (its best bandwidth median), each
   meeting the top compute roof. LARM (Denoyelle et al., TPDS 2019): the
   same chart for one cluster, a NUMA node with cores, with its cache roofs
   and the memory roofs `probe --numa` measured from it: local, remote,
   contended, congested. On either, applications and the hybrid roof
   (Eq. 5) of an application's loads and stores with a fraction F of its
   data in the fast memory. The charts read the profile's JSON, so they
   also draw the reference profiles transcribed from papers. Each file is
   written to a temporary name and renamed when complete. */
#define _POSIX_C_SOURCE 200809L
#include "roofline.h"
#include "cli.h"
#include "files.h"
#include "opt.h"
#include "chart.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define RL_MAX_LINES 64
#define RL_MAX_POINTS 64
#define RL_MAX_ARGS 32      /* --app and --point: an --app with a runtime draws two points */
/* What a chart draws: roofs (GB/s, GFLOP/s), intensities (flop/byte) and
   performance from a billionth to a trillion. Beyond, its decades would
   not fit a page; infinity or a subnormal would have none. */
#define RL_MIN_VALUE 1e-9
#define RL_MAX_VALUE 1e12

static int rl_drawable(double v) { return v >= RL_MIN_VALUE && v <= RL_MAX_VALUE; }

/* A slanted memory roof: GB/s; lo/hi: a hybrid roof's bounds (Eq. 4, 3) */
typedef struct rl_line {
    char label[128];
    char name[48];          /* along the line on a CARM chart */
    char kind[16];          /* L1..DRAM, local, remote, contended, congested, hybrid */
    double gbps, lo, hi;
    double stores;          /* a hybrid roof's share of stores */
    const char *color, *dash;
    unsigned long line;     /* of its value in the profile; 0: computed here */
} rl_line;

typedef struct rl_compute {
    char label[96];
    double gflops;
    unsigned long line;     /* as rl_line's */
} rl_compute;

typedef struct rl_chart {
    char title[400], foot[400];
    char hybrid_note[900];  /* what the hybrid roofs are, and why they may lie above the memory roofs */
    char checks_note[600];  /* probe's checks of the figures that failed, the unstable ones */
    rl_compute comp[3];     /* comp[0]: the top roof, where memory roofs end */
    int ncomp;
    rl_line line[RL_MAX_LINES];
    int nline;
    int larm;               /* legend outside at the right, no labels along the lines */
} rl_chart;


/* ---- the drawing ------------------------------------------------------- */

/* 0 when the point's intensity and performance can be drawn (low <=
   high), else 1 with what is wrong in why. */
static int point_out_of_range(const roofline_point *q, char *why, size_t n)
{
    if (!rl_drawable(q->ai))
        snprintf(why, n, "intensity %g flop/byte is out of range (a chart draws %g to %g)", q->ai, RL_MIN_VALUE,
                 RL_MAX_VALUE);
    else if (!rl_drawable(q->gflops_lo) || !rl_drawable(q->gflops_hi))
        snprintf(why, n, "performance %g GFLOP/s is out of range (a chart draws %g to %g)",
                 rl_drawable(q->gflops_lo) ? q->gflops_hi : q->gflops_lo, RL_MIN_VALUE, RL_MAX_VALUE);
    else if (q->gflops_lo > q->gflops_hi)
        snprintf(why, n, "the low performance %g is above the high %g", q->gflops_lo, q->gflops_hi);
    else
        return 0;
    return 1;
}

/* 0 when every value the chart draws lies in what a chart draws, else -1
   with `PATH:LINE: what` (PATH: when the value is computed here) in err. */
static int rl_check(const rl_chart *ch, const roofline_point *pts, size_t npts, const char *path, char *err,
                    size_t n)
{
    char at[32] = "";
    size_t i;
    int k;
    if (!ch->nline) {
        snprintf(err, n, "%s: no memory roof to draw", path);
        return -1;
    }
    for (k = 0; k < ch->ncomp; k++) {
        const rl_compute *c = &ch->comp[k];
        if (rl_drawable(c->gflops)) continue;
        if (c->line) snprintf(at, sizeof at, "%lu:", c->line);
        snprintf(err, n, "%s:%s compute roof '%s' of %g GFLOP/s is out of range (a chart draws %g to %g)", path, at,
                 c->label, c->gflops, RL_MIN_VALUE, RL_MAX_VALUE);
        return -1;
    }
    for (k = 0; k < ch->nline; k++) {
        const rl_line *l = &ch->line[k];
        if (rl_drawable(l->gbps) && (l->lo == 0 || (rl_drawable(l->lo) && rl_drawable(l->hi)))) continue;
        if (l->line) snprintf(at, sizeof at, "%lu:", l->line);
        if (rl_drawable(l->gbps))
            snprintf(err, n, "%s:%s the bounds %g to %g GB/s of roof '%s' are out of range (a chart draws %g to %g)",
                     path, at, l->lo, l->hi, l->label, RL_MIN_VALUE, RL_MAX_VALUE);
        else
            snprintf(err, n, "%s:%s roof '%s' of %g GB/s is out of range (a chart draws %g to %g)", path, at,
                     l->label, l->gbps, RL_MIN_VALUE, RL_MAX_VALUE);
        return -1;
    }
    for (i = 0; i < npts; i++) {
        char why[200];
        if (point_out_of_range(&pts[i], why, sizeof why)) {
            snprintf(err, n, "point '%s': %s", pts[i].label ? pts[i].label : "", why);
            return -1;
        }
    }
    return 0;
}

/* Everything is placed before a byte is written: labels where they cover
   no other label and no marker (chart_layout), the notes under the plot,
   and the canvas grows for them. */
#define RL_NOTES 16
#define RL_NOTE_BYTES 240
#define RL_MAX_SEGS (RL_MAX_LINES + 3)

/* A line on the plot, that labels would rather not cross. */
typedef struct rl_seg { double x0, y0, x1, y1; } rl_seg;

/* A text placed on the plot: its anchor, and a leader line from its point
   when it stands away from it. */
typedef struct rl_label {
    double x, y, rot;
    const char *anchor;
    int shown;
    int leader;
    double lx0, ly0, lx1, ly1;
    char text[160];
} rl_label;

/* The lines under the plot: notes (11 px) and the foot (10 px). */
typedef struct rl_notes {
    char line[RL_NOTES][RL_NOTE_BYTES];
    const char *color[RL_NOTES];
    double size[RL_NOTES];
    size_t n;
} rl_notes;

/* Adds a note, wrapped to width px. */
static void rl_note(rl_notes *nt, double width, double size, const char *color, const char *text)
{
    size_t k, n = chart_wrap(text, size, width, nt->line[nt->n], RL_NOTE_BYTES, RL_NOTES - nt->n);
    for (k = 0; k < n; k++) {
        nt->color[nt->n + k] = color;
        nt->size[nt->n + k] = size;
    }
    nt->n += n;
}

/* What is taken on the plot: markers (points, bars, LARM roof markers),
   texts (labels, the legend) and the points' leader lines. */
typedef struct rl_layout { chart_layout marks, texts, leaders; } rl_layout;

/* 1 when a label's box lies inside the plot, on nothing taken and, with
   avoid, across none of the lines but line `own`. */
static int rl_spot_ok(const rl_layout *lay, const chart_plane *c, const chart_box *b, const rl_seg *seg, int nseg,
                      int own, int avoid)
{
    int k;
    if (!chart_box_within(b, c->x.p0 + 2, c->y.p1 + 2, c->x.p1 - 2, c->y.p0 - 2) || !chart_layout_free(&lay->marks, b) ||
        !chart_layout_free(&lay->texts, b) || !chart_layout_free(&lay->leaders, b))
        return 0;
    for (k = 0; avoid && k < nseg; k++)
        if (k != own && chart_segment_hits(b, seg[k].x0, seg[k].y0, seg[k].x1, seg[k].y1)) return 0;
    return 1;
}

/* The label of the point at (x, y), whose own markers (its dot and bar)
   are taken as numbers own_lo to own_hi - 1: the first free spot nearest
   the point, in rings of growing distance (up to `rings` of them). In
   each ring, in order of what is given up: the label off the roofs and
   its leader line (when away from the point) across no marker, text or
   other leader; the leader across other leaders; the label across roofs;
   then the leader across markers; last, across texts (drawn under them,
   their outline hides it). All of these within 112 px of the point first,
   then farther. 0 when there is no free spot. */
static int rl_place_point_label(rl_layout *lay, const chart_plane *c, const rl_seg *seg, int nseg, double x, double y,
                                size_t own_lo, size_t own_hi, size_t rings, rl_label *lab)
{
    static const double ring[] = {0, 10, 22, 36, 54, 76, 104, 140, 185, 240, 310, 400, 500};
    static const double angle[] = {0, 180, -30, 30, -150, 150, -60, 60, -120, 120, -90, 90, -15, 15, -165, 165};
    static const int first[6] = {0, 3, 4, 0, 3, 4}, last[6] = {2, 3, 4, 2, 3, 4};
    static const size_t from[6] = {0, 0, 0, 7, 7, 7}, to[6] = {7, 7, 7, 99, 99, 99};
    size_t r, d;
    int level, group;
    for (group = 0; group < 6; group++)
    for (r = from[group]; r < sizeof ring / sizeof ring[0] && r < rings && r < to[group]; r++)
        for (level = first[group]; level <= last[group]; level++)
            for (d = 0; d < sizeof angle / sizeof angle[0]; d++) {
                double ux = cos(angle[d] * 3.14159265358979 / 180), uy = sin(angle[d] * 3.14159265358979 / 180);
                double gap = 8 + ring[r], px = x + gap * ux, py = y + gap * uy, base, tx, ty, len, lx0 = 0, ly0 = 0;
                const char *anchor = ux > 0.35 ? "start" : ux < -0.35 ? "end" : "middle";
                int leader;
                chart_box b;
                if (ring[r] == 0 && d >= 6) break;     /* next to the point: right, left and the four corners */
                /* the box's middle on the ray (its near side when above or below) */
                base = *anchor != 'm' ? py + 3.4 : uy < 0 ? py - 3.2 : py + 9.9;
                b = chart_text_box(px, base, anchor, 12, 0, 0, lab->text);
                if (!rl_spot_ok(lay, c, &b, seg, nseg, -1, level < 2)) continue;
                /* the leader: from the dot's edge to the nearest point of the box */
                tx = x < b.x0 ? b.x0 : x > b.x1 ? b.x1 : x;
                ty = y < b.y0 ? b.y0 : y > b.y1 ? b.y1 : y;
                len = sqrt((tx - x) * (tx - x) + (ty - y) * (ty - y));
                leader = ring[r] > 0 && len >= 9;
                if (leader) {
                    lx0 = x + (tx - x) / len * 7.5;
                    ly0 = y + (ty - y) / len * 7.5;
                    if ((level < 4 && !chart_layout_segment_free(&lay->texts, 0, 0, lx0, ly0, tx, ty)) ||
                        (level < 3 && !chart_layout_segment_free(&lay->marks, own_lo, own_hi, lx0, ly0, tx, ty)) ||
                        (level < 1 && !chart_layout_segment_free(&lay->leaders, 0, 0, lx0, ly0, tx, ty)))
                        continue;
                }
                lab->x = px;
                lab->y = base;
                lab->rot = 0;
                lab->anchor = anchor;
                lab->shown = 1;
                lab->leader = leader;
                lab->lx0 = lx0;
                lab->ly0 = ly0;
                lab->lx1 = tx;
                lab->ly1 = ty;
                chart_layout_take(&lay->texts, &b);
                if (leader) {
                    chart_box lb = chart_segment_box(lx0, ly0, tx, ty, 1.5);
                    chart_layout_take(&lay->leaders, &lb);
                }
                return 1;
            }
    return 0;
}

/* The x pixel where memory roof l ends: at the top compute roof, or the
   right edge. */
static double rl_line_end(const rl_chart *ch, const rl_line *l, double xmax)
{
    double peak = ch->ncomp ? ch->comp[0].gflops : 0;
    return peak > 0 && peak / l->gbps < xmax ? peak / l->gbps : xmax;
}

/* A chart as placed, before a byte is written (rl_svg's steps fill it in
   order). */
typedef struct rl_plan {
    const rl_chart *ch;
    const roofline_point *pts;
    size_t npts;
    int W, H;
    double xmin, xmax, span;    /* intensities; span: decades */
    double bwmax;               /* the fastest memory roof */
    chart_plane c;              /* both log axes */
    rl_seg seg[RL_MAX_SEGS];    /* memory roofs, then compute roofs */
    int nseg;
    rl_layout lay;
    rl_label comp_lab[3], line_lab[RL_MAX_LINES], *app_lab;
    size_t *own, *order, *crowd;    /* per point: its first marker in lay.marks (own[npts]: the end);
                                       the order its label is placed in; its neighbours */
    double lx, ly, lw, lh;      /* the CARM legend's box */
    int legend_out;             /* outside the plot, at the right */
    size_t numbered;            /* points labelled by number */
    char unplaced[400];         /* what their numbers stand for */
    int any_model, any_foreign;
    rl_notes *nt;
} rl_plan;

/* The axes: intensities from 1/32 to 64 or wider for the points; y from
   the lowest roof at the left edge (a --peak may lie under the memory
   roofs there) to above the peak, whole decades. */
static void rl_plan_axes(rl_plan *pl)
{
    const rl_chart *ch = pl->ch;
    const roofline_point *pts = pl->pts;
    double peak = ch->ncomp ? ch->comp[0].gflops : 0, bwmin = 0, ymin, ymax;
    size_t i;
    int k;
    pl->xmin = 1.0 / 32;
    pl->xmax = 64;
    for (k = 0; k < ch->nline; k++) {
        if (ch->line[k].gbps > pl->bwmax) pl->bwmax = ch->line[k].gbps;
        if (bwmin == 0 || ch->line[k].gbps < bwmin) bwmin = ch->line[k].gbps;
    }
    /* without a compute roof nothing bends the memory roofs: a range of
       intensities that does not run them up to performance no machine has */
    if (!ch->ncomp) pl->xmax = 4;
    for (i = 0; i < pl->npts; i++) {
        if (pts[i].ai < pl->xmin) pl->xmin = pts[i].ai / 2;
        if (pts[i].ai > pl->xmax) pl->xmax = pts[i].ai * 2;
    }
    ymin = bwmin * pl->xmin;
    for (k = 0; k < ch->ncomp; k++) if (ch->comp[k].gflops < ymin) ymin = ch->comp[k].gflops;
    for (i = 0; i < pl->npts; i++) if (pts[i].gflops_lo < ymin) ymin = pts[i].gflops_lo;
    ymax = peak > 0 ? peak * 2 : pl->bwmax * pl->xmax;
    for (i = 0; i < pl->npts; i++) if (pts[i].gflops_hi * 1.5 > ymax) ymax = pts[i].gflops_hi * 1.5;
    pl->c.x.lo = log10(pl->xmin);
    pl->c.x.hi = log10(pl->xmax);
    pl->c.y.lo = floor(log10(ymin * 0.9));
    pl->c.y.hi = ceil(log10(ymax));
    /* a peak under the roofs: not an axis of no height */
    if (pl->c.y.hi <= pl->c.y.lo) pl->c.y.hi = pl->c.y.lo + 1;
    pl->c.x.p0 = 90;
    pl->c.x.p1 = ch->larm ? pl->W - 330 : pl->W - 30;
    pl->c.y.p1 = 60;
    pl->c.y.p0 = 550;
    pl->c.x.log = pl->c.y.log = 1;
    pl->span = log10(pl->xmax / pl->xmin);
}

/* The lines labels would rather not cross: memory roofs up to the top
   compute roof, then compute roofs from the fastest memory roof's ridge. */
static void rl_plan_segments(rl_plan *pl)
{
    const rl_chart *ch = pl->ch;
    const chart_plane *c = &pl->c;
    rl_seg *seg = pl->seg;
    int k;
    for (k = 0; k < ch->nline && pl->nseg < RL_MAX_SEGS; k++) {
        const rl_line *l = &ch->line[k];
        double x2 = rl_line_end(ch, l, pl->xmax);
        seg[pl->nseg].x0 = chart_x(c, pl->xmin);
        seg[pl->nseg].y0 = chart_y(c, l->gbps * pl->xmin);
        seg[pl->nseg].x1 = chart_x(c, x2);
        seg[pl->nseg++].y1 = chart_y(c, l->gbps * x2);
    }
    for (k = 0; k < ch->ncomp && pl->nseg < RL_MAX_SEGS; k++) {
        double g = ch->comp[k].gflops, x = g / pl->bwmax > pl->xmin ? g / pl->bwmax : pl->xmin;
        seg[pl->nseg].x0 = chart_x(c, x);
        seg[pl->nseg].x1 = c->x.p1;
        seg[pl->nseg].y0 = seg[pl->nseg].y1 = chart_y(c, g);
        pl->nseg++;
    }
}

/* The intensity of LARM roof k's marker q (of 3): its own places along
   the line, as in the legend, so that roofs of nearly the same bandwidth,
   which lie on each other, show each; beyond the roof's end (x2) none. */
static double rl_marker_ai(const rl_plan *pl, int k, int q)
{
    return pl->xmin * pow(10, pl->span * (0.1 + 0.3 * q + 0.27 * (k + 0.5) / pl->ch->nline));
}

/* The middle of point q's range (geometric), in pixels. */
static double rl_point_y(const rl_plan *pl, const roofline_point *q)
{
    return chart_y(&pl->c, sqrt(q->gflops_lo * q->gflops_hi));
}

/* 1 when point q's range is tall enough to draw as a bar (2 px), with its
   box in *b. */
static int rl_bar_box(const rl_plan *pl, const roofline_point *q, chart_box *b)
{
    double x = chart_x(&pl->c, q->ai);
    if (chart_y(&pl->c, q->gflops_lo) - chart_y(&pl->c, q->gflops_hi) < 2) return 0;
    *b = chart_box_of(x - 6, chart_y(&pl->c, q->gflops_hi) - 1, x + 6, chart_y(&pl->c, q->gflops_lo) + 1);
    return 1;
}

/* Step 1, what does not move: the LARM roofs' markers, the points and
   their bars. */
static void rl_take_marks(rl_plan *pl)
{
    const rl_chart *ch = pl->ch;
    size_t i;
    int k, q;
    if (ch->larm)
        for (k = 0; k < ch->nline; k++) {
            double x2 = rl_line_end(ch, &ch->line[k], pl->xmax);
            for (q = 0; q < 3; q++) {
                double ai = rl_marker_ai(pl, k, q);
                chart_box b = chart_marker_box(chart_x(&pl->c, ai), chart_y(&pl->c, ch->line[k].gbps * ai));
                if (ai <= x2) chart_layout_take(&pl->lay.marks, &b);
            }
        }
    for (i = 0; i < pl->npts; i++) {
        double x = chart_x(&pl->c, pl->pts[i].ai), yd = rl_point_y(pl, &pl->pts[i]);
        chart_box b = chart_box_of(x - 5, yd - 5, x + 5, yd + 5);
        pl->own[i] = pl->lay.marks.n;
        chart_layout_take(&pl->lay.marks, &b);
        if (rl_bar_box(pl, &pl->pts[i], &b)) chart_layout_take(&pl->lay.marks, &b);
        pl->any_model |= pl->pts[i].predicted;
        pl->any_foreign |= pl->pts[i].foreign;
    }
    pl->own[pl->npts] = pl->lay.marks.n;
}

/* Step 2, the CARM legend: inside the plot where it covers no point and,
   if it can, no roof; else outside at the right, the canvas wider. */
static void rl_place_legend(rl_plan *pl)
{
    static const double at[8][2] = {{1, 1}, {0, 1}, {0, 0}, {0.5, 1}, {0.5, 0}, {1, 0.5}, {0, 0.5}, {1, 0}};
    const rl_chart *ch = pl->ch;
    const chart_plane *c = &pl->c;
    char buf[200];
    int k, pass, a, found = 0;
    pl->lh = 20.0 * ch->nline + 12;
    if (ch->larm) return;
    for (k = 0; k < ch->nline; k++) {
        snprintf(buf, sizeof buf, "%s %.1f GB/s", ch->line[k].label, ch->line[k].gbps);
        if (chart_text_width(buf, 12) + 48 > pl->lw) pl->lw = chart_text_width(buf, 12) + 48;
    }
    for (pass = 0; pass < 2 && !found; pass++)
        for (a = 0; a < 8 && !found; a++) {
            chart_box b;
            pl->lx = c->x.p0 + 10 + at[a][0] * (c->x.p1 - c->x.p0 - 20 - pl->lw);
            pl->ly = c->y.p1 + 10 + at[a][1] * (c->y.p0 - c->y.p1 - 20 - pl->lh);
            b = chart_box_of(pl->lx, pl->ly, pl->lx + pl->lw, pl->ly + pl->lh);
            found = rl_spot_ok(&pl->lay, c, &b, pl->seg, pl->nseg, -1, !pass);
            if (found) chart_layout_take(&pl->lay.texts, &b);
        }
    if (!found) {
        pl->legend_out = 1;
        pl->lx = c->x.p1 + 16;
        pl->ly = c->y.p1;
        pl->W = (int)ceil(pl->lx + pl->lw + 10);
    }
}

/* Step 3, the points' labels: beside their points where there is room,
   then the others farther away with a leader line, the most crowded
   points first (the others find room anywhere); one with no room left is
   numbered, and the note under the plot names it. */
static void rl_place_point_labels(rl_plan *pl)
{
    const roofline_point *pts = pl->pts;
    size_t i, j, k, npts = pl->npts;
    for (i = 0; i < npts; i++) {
        const roofline_point *q = &pts[i];
        snprintf(pl->app_lab[i].text, sizeof pl->app_lab[i].text, "%s%s", q->label ? q->label : "",
                 !q->predicted ? "" : q->foreign == 1 ? " (model, other profile)"
                                    : q->foreign == 2 ? " (model, no profile)" : " (model)");
        pl->order[i] = i;
        pl->crowd[i] = 0;
        for (j = 0; j < npts; j++)
            if (j != i && fabs(chart_x(&pl->c, pts[j].ai) - chart_x(&pl->c, q->ai)) < 60 &&
                fabs(rl_point_y(pl, &pts[j]) - rl_point_y(pl, q)) < 30)
                pl->crowd[i]++;
    }
    for (i = 1; i < npts; i++) {
        size_t t = pl->order[i];
        for (j = i; j > 0 && pl->crowd[pl->order[j - 1]] < pl->crowd[t]; j--) pl->order[j] = pl->order[j - 1];
        pl->order[j] = t;
    }
    for (k = 0; k < npts; k++) {
        rl_label *lab = &pl->app_lab[i = pl->order[k]];
        double x = chart_x(&pl->c, pts[i].ai), yd = rl_point_y(pl, &pts[i]);
        size_t len = strlen(pl->unplaced);
        if (lab->shown ||
            rl_place_point_label(&pl->lay, &pl->c, pl->seg, pl->nseg, x, yd, pl->own[i], pl->own[i + 1], 99, lab))
            continue;
        snprintf(pl->unplaced + len, sizeof pl->unplaced - len, "%s%zu = %s", len ? "; " : "", pl->numbered + 1,
                 lab->text);
        snprintf(lab->text, sizeof lab->text, "%zu", ++pl->numbered);
        if (!rl_place_point_label(&pl->lay, &pl->c, pl->seg, pl->nseg, x, yd, pl->own[i], pl->own[i + 1], 99, lab)) {
            lab->x = x + 8;       /* nowhere free at all: beside the point */
            lab->y = yd + 3.4;
            lab->anchor = "start";
            lab->shown = 1;
            lab->leader = 0;
        }
    }
}

/* Step 4, the compute roofs' values: above the line at its right end,
   else under it, else farther left; none free: said in a note. */
static void rl_place_compute_labels(rl_plan *pl)
{
    const rl_chart *ch = pl->ch;
    int k;
    for (k = 0; k < ch->ncomp; k++) {
        rl_label *lab = &pl->comp_lab[k];
        double yl = chart_y(&pl->c, ch->comp[k].gflops), ridge = pl->seg[ch->nline + k].x0;
        int pass, found = 0, s2, side;
        snprintf(lab->text, sizeof lab->text, "%s: %.1f GFLOP/s", ch->comp[k].label, ch->comp[k].gflops);
        for (pass = 0; pass < 2 && !found; pass++)
            for (s2 = 0; !found; s2++) {
                double xe = pl->c.x.p1 - 6 - 60.0 * s2;
                if (xe - chart_text_width(lab->text, 12) < ridge + 4) break;
                for (side = 0; side < 2 && !found; side++) {
                    double base = side ? yl + 14 : yl - 5;
                    chart_box b = chart_text_box(xe, base, "end", 12, 0, 0, lab->text);
                    if (!rl_spot_ok(&pl->lay, &pl->c, &b, pl->seg, pl->nseg, ch->nline + k, !pass)) continue;
                    found = 1;
                    lab->x = xe;
                    lab->y = base;
                    lab->anchor = "end";
                    lab->shown = 1;
                    chart_layout_take(&pl->lay.texts, &b);
                }
            }
    }
}

/* Step 5, CARM: each memory roof's name along it (rotated to its slope in
   pixels, the same for every roof), above or under it, at the first free
   place from its own staggered start; none free: the legend names it. */
static void rl_place_line_names(rl_plan *pl)
{
    const rl_chart *ch = pl->ch;
    const chart_plane *c = &pl->c;
    double ang = atan2(chart_y(c, 10) - chart_y(c, 1), chart_x(c, 10) - chart_x(c, 1)), nx = sin(ang), ny = -cos(ang);
    int k, nstep = (int)ceil(pl->span / log10(1.45)) + 1;
    for (k = 0; k < ch->nline; k++) {
        const rl_line *l = &ch->line[k];
        const char *name = l->name[0] ? l->name : l->label;
        double x2 = chart_x(c, rl_line_end(ch, l, pl->xmax)), w = chart_text_width(name, 12);
        rl_label *lab = &pl->line_lab[k];
        int pass, found = 0, step, side;
        snprintf(lab->text, sizeof lab->text, "%s", name);
        for (pass = 0; pass < 2 && !found; pass++)
            for (step = 0; step < 2 * nstep && !found; step++) {
                /* k, k + 1, ... to the right end, then k - 1, ... 0 */
                int j = step < nstep - k ? k + step : nstep - 1 - step;
                double ai = pl->xmin * 1.3 * pow(1.45, j), px, py;
                if (j < 0) break;
                px = chart_x(c, ai);
                py = chart_y(c, l->gbps * ai);
                if (px + w * cos(ang) > x2) continue;
                for (side = 0; side < 2 && !found; side++) {
                    double off = side ? -(0.82 * 12 + 4) : 5;
                    chart_box b = chart_text_box(px + off * nx, py + off * ny, "start", 12, 0,
                                                 ang * 180 / 3.14159265358979, name);
                    if (!rl_spot_ok(&pl->lay, c, &b, pl->seg, pl->nseg, k, !pass)) continue;
                    found = 1;
                    lab->x = px + off * nx;
                    lab->y = py + off * ny;
                    lab->rot = ang * 180 / 3.14159265358979;
                    lab->anchor = "start";
                    lab->shown = 1;
                    chart_layout_take(&pl->lay.texts, &b);
                }
            }
    }
}

/* Step 6, the notes under the plot: what its lines do not say; then the
   canvas's height, which they and the legends take. */
static void rl_plan_notes(rl_plan *pl)
{
    const rl_chart *ch = pl->ch;
    double width = pl->W - pl->c.x.p0 - 20;
    char names[300] = "", text[1200];
    size_t i, len;
    int k;
    if (!ch->ncomp)
        rl_note(pl->nt, width, 11, "#444",
                "this profile has no compute roofs: the memory roofs alone, up to 4 flop/byte");
    for (k = 0; k < ch->ncomp; k++)
        if (!pl->comp_lab[k].shown && strlen(names) + strlen(pl->comp_lab[k].text) + 3 < sizeof names)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? ", " : "",
                     pl->comp_lab[k].text);
    if (*names) {
        snprintf(text, sizeof text, "compute roofs (no room for their labels on the plot): %s", names);
        rl_note(pl->nt, width, 11, "#222", text);
    }
    if (pl->any_model)
        rl_note(pl->nt, width, 11, "#7b2d8e",
                pl->any_foreign ? "(model): predicted by EDAN from the trace and a profile, "
                                  "not measured; bar: upper to lower time bound"
                                : "(model): predicted by EDAN from the trace and this profile, "
                                  "not measured; bar: upper to lower time bound");
    if (pl->any_foreign) {
        snprintf(text, sizeof text, "hollow: predicted with another profile than this chart's (");
        for (i = 0; i < pl->npts; i++) {
            const roofline_point *q = &pl->pts[i];
            len = strlen(text);
            if (q->foreign && len + 200 < sizeof text)
                snprintf(text + len, sizeof text - len, "%s%s: %s", text[len - 1] == '(' ? "" : "; ",
                         q->label ? q->label : "", q->foreign == 1 ? q->analysed_with : "none");
        }
        len = strlen(text);
        snprintf(text + len, sizeof text - len, "): its performance is the model's for that profile's latency, m "
                 "and clock, not a prediction under these roofs");
        rl_note(pl->nt, width, 11, "#7b2d8e", text);
    }
    if (pl->numbered) {
        snprintf(text, sizeof text, "points labelled by number (no room beside them): %s", pl->unplaced);
        rl_note(pl->nt, width, 11, "#7b2d8e", text);
    }
    if (ch->hybrid_note[0]) rl_note(pl->nt, width, 11, "#8c564b", ch->hybrid_note);
    if (ch->checks_note[0]) rl_note(pl->nt, width, 11, "#c00000", ch->checks_note);
    rl_note(pl->nt, width, 10, "#777", ch->foot);
    pl->H = (int)(pl->c.y.p0 + 56 + 14 * pl->nt->n);
    if (ch->larm && pl->c.y.p1 + 30 + 19.0 * ch->nline > pl->H - 20) pl->H = (int)(pl->c.y.p1 + 50 + 19.0 * ch->nline);
    if (pl->legend_out && pl->ly + pl->lh + 20 > pl->H) pl->H = (int)(pl->ly + pl->lh + 20);
}

/* The roofs, clipped to the plot: compute roofs from the ridge of the
   fastest memory roof to the right edge, memory roofs y = ai * bw up to
   the top compute roof (or the edge), and on a LARM chart each memory
   roof's markers. */
static void rl_draw_roofs(FILE *o, const rl_plan *pl)
{
    static const char *const dash[3] = {"", " stroke-dasharray=\"8 5\"", " stroke-dasharray=\"3 4\""};
    const rl_chart *ch = pl->ch;
    const rl_seg *seg = pl->seg;
    int k, q;
    fprintf(o, "<g clip-path=\"url(#plot)\" fill=\"none\" stroke-linecap=\"round\">\n");
    for (k = 0; k < ch->ncomp; k++) {
        const rl_seg *sg = &seg[ch->nline + k];
        fprintf(o, "<line class=\"roof\" data-kind=\"compute\" data-label=\"");
        chart_xml(o, ch->comp[k].label);
        fprintf(o, "\" data-gflops=\"%.6g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
                   "stroke-width=\"%s\"%s/>\n",
                ch->comp[k].gflops, sg->x0, sg->y0, sg->x1, sg->y1, k ? "1.5" : "2.5", dash[k < 3 ? k : 2]);
    }
    for (k = 0; k < ch->nline; k++) {
        const rl_line *l = &ch->line[k];
        fprintf(o, "<line class=\"roof\" data-kind=\"%s\" data-label=\"", l->kind);
        chart_xml(o, l->label);
        fprintf(o, "\" data-gbps=\"%.6g\"", l->gbps);
        if (l->lo > 0) fprintf(o, " data-gbps-lower=\"%.6g\" data-gbps-upper=\"%.6g\"", l->lo, l->hi);
        fprintf(o, " x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"", seg[k].x0,
                seg[k].y0, seg[k].x1, seg[k].y1, l->color, !strcmp(l->kind, "hybrid") ? "3.5" : "2.5");
        if (l->dash && *l->dash) fprintf(o, " stroke-dasharray=\"%s\"", l->dash);
        fprintf(o, "/>\n");
    }
    for (k = 0; ch->larm && k < ch->nline; k++) {
        const rl_line *l = &ch->line[k];
        double x2 = rl_line_end(ch, l, pl->xmax);
        fprintf(o, "<g class=\"roof-markers\" data-label=\"");
        chart_xml(o, l->label);
        fprintf(o, "\">");
        for (q = 0; q < 3; q++) {
            double ai = rl_marker_ai(pl, k, q);
            if (ai <= x2) chart_marker(o, k, chart_x(&pl->c, ai), chart_y(&pl->c, l->gbps * ai), l->color);
        }
        fprintf(o, "</g>\n");
    }
    fprintf(o, "</g>\n");
}

/* The memory roofs' legend: CARM, a box where step 2 put it, the values
   after the names; LARM, at the right of the plot, the values first, in
   the order of the lines (fastest first, as they lie on the chart), with
   their markers. */
static void rl_draw_legend(FILE *o, const rl_plan *pl)
{
    const rl_chart *ch = pl->ch;
    double lx2 = pl->c.x.p1 + 16, ly2 = pl->c.y.p1 + 6;
    char buf[200];
    int k;
    if (!ch->larm)
        fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" fill-opacity=\"0.9\" "
                   "stroke=\"#bbb\"/>\n", pl->lx, pl->ly, pl->lw, pl->lh);
    else {
        chart_text(o, lx2, ly2, "start", 13, "#222", 0, "memory roofs [GB/s]");
        ly2 += 20;
    }
    fprintf(o, "<g class=\"legend\">\n");
    for (k = 0; k < ch->nline; k++) {
        const rl_line *l = &ch->line[k];
        if (!ch->larm) {
            snprintf(buf, sizeof buf, "%s %.1f GB/s", l->label, l->gbps);
            chart_legend_entry(o, pl->lx + 8, pl->ly + 14 + 20.0 * k, l->color, l->dash, -1, buf, 0);
        } else {
            snprintf(buf, sizeof buf, "%7.1f  %s", l->gbps, l->label);
            chart_legend_entry(o, lx2, ly2 - 4, l->color, l->dash, k, buf, pl->W - lx2 - 40);
            ly2 += 19;
        }
    }
    fprintf(o, "</g>\n");
}

/* The application points: the leader lines under them, then each one's
   dot at the geometric middle of its range (hollow when predicted with
   another profile or none), the range as a bar, the label where step 3
   put it. */
static void rl_draw_points(FILE *o, const rl_plan *pl)
{
    size_t i;
    fprintf(o, "<g class=\"leaders\" stroke=\"#7b2d8e\" stroke-width=\"0.8\">\n");
    for (i = 0; i < pl->npts; i++)
        if (pl->app_lab[i].leader)
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", pl->app_lab[i].lx0,
                    pl->app_lab[i].ly0, pl->app_lab[i].lx1, pl->app_lab[i].ly1);
    fprintf(o, "</g>\n");
    for (i = 0; i < pl->npts; i++) {
        const roofline_point *q = &pl->pts[i];
        const rl_label *lab = &pl->app_lab[i];
        double x = chart_x(&pl->c, q->ai), yd = rl_point_y(pl, q);
        chart_box b;
        fprintf(o, "<g class=\"app\" data-label=\"");
        chart_xml(o, q->label ? q->label : "");
        fprintf(o, "\" data-ai=\"%.6g\" data-gflops-lo=\"%.6g\" data-gflops-hi=\"%.6g\"%s>\n", q->ai, q->gflops_lo,
                q->gflops_hi,
                q->foreign == 1 ? " data-profile=\"other\"" : q->foreign == 2 ? " data-profile=\"none\"" : "");
        if (rl_bar_box(pl, q, &b)) {     /* a range too short to see is not drawn */
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#7b2d8e\" "
                       "stroke-width=\"3\"/>\n", x, chart_y(&pl->c, q->gflops_lo), x, chart_y(&pl->c, q->gflops_hi));
            fprintf(o, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"#7b2d8e\" stroke-width=\"2\"", x - 5,
                    chart_y(&pl->c, q->gflops_lo), x + 5, x - 5, chart_y(&pl->c, q->gflops_hi), x + 5);
            chart_bbox_attr(o, &b);
            fputs("/>\n", o);
        }
        b = chart_box_of(x - 5, yd - 5, x + 5, yd + 5);
        if (q->foreign)
            fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"white\" stroke=\"#7b2d8e\" stroke-width=\"2\"",
                    x, yd);
        else
            fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#7b2d8e\"", x, yd);
        chart_bbox_attr(o, &b);
        fputs("/>\n", o);
        chart_text_halo(o, lab->x, lab->y, lab->anchor, 12, "#7b2d8e", 0, lab->text);
        fprintf(o, "</g>\n");
    }
}

/* The chart; rl_check has passed it. Everything is placed first (steps 1
   to 6), then drawn. */
static void rl_svg(FILE *o, const rl_chart *ch, const roofline_point *pts, size_t npts)
{
    rl_plan *pl = (rl_plan *)calloc(1, sizeof *pl);
    chart_tick xt[CHART_MAX_TICKS], yt[CHART_MAX_TICKS];
    size_t nxt, nyt, k2;
    double y;
    int k;
    if (pl) {
        pl->app_lab = (rl_label *)calloc(npts + 1, sizeof *pl->app_lab);
        pl->own = (size_t *)calloc(3 * (npts + 1), sizeof *pl->own);
        pl->nt = (rl_notes *)calloc(1, sizeof *pl->nt);
    }
    if (!pl || !pl->app_lab || !pl->own || !pl->nt) {
        if (pl) {
            free(pl->app_lab);
            free(pl->own);
            free(pl->nt);
        }
        free(pl);
        fprintf(o, "<!-- out of memory -->\n");
        return;
    }
    pl->ch = ch;
    pl->pts = pts;
    pl->npts = npts;
    pl->W = ch->larm ? 1120 : 880;
    pl->order = pl->own + npts + 1;
    pl->crowd = pl->order + npts + 1;
    rl_plan_axes(pl);
    rl_plan_segments(pl);
    rl_take_marks(pl);
    rl_place_legend(pl);
    rl_place_point_labels(pl);
    rl_place_compute_labels(pl);
    if (!ch->larm) rl_place_line_names(pl);
    rl_plan_notes(pl);

    nxt = chart_ticks_log2(&pl->c.x, xt, CHART_MAX_TICKS);            /* ridges fall on powers of two */
    nyt = chart_ticks_log10(&pl->c.y, 1, 1, 0, NULL, yt, CHART_MAX_TICKS);
    chart_begin(o, pl->W, pl->H, (pl->c.x.p0 + pl->c.x.p1) / 2, ch->title, NULL);
    chart_axes(o, &pl->c.x, &pl->c.y, xt, nxt, yt, nyt, "arithmetic intensity [flop/byte of loads and stores]",
               "performance [GFLOP/s]");
    chart_clip(o, &pl->c.x, &pl->c.y, "plot", 0);
    rl_draw_roofs(o, pl);
    chart_frame(o, &pl->c.x, &pl->c.y);
    for (k = 0; k < ch->ncomp; k++)
        if (pl->comp_lab[k].shown)
            chart_text_halo(o, pl->comp_lab[k].x, pl->comp_lab[k].y, "end", 12, "#222", 0, pl->comp_lab[k].text);
    for (k = 0; k < ch->nline; k++)
        if (pl->line_lab[k].shown)
            chart_text_halo(o, pl->line_lab[k].x, pl->line_lab[k].y, "start", 12, ch->line[k].color,
                            pl->line_lab[k].rot, pl->line_lab[k].text);
    rl_draw_legend(o, pl);
    rl_draw_points(o, pl);
    y = pl->c.y.p0 + 62;
    for (k2 = 0; k2 < pl->nt->n; k2++, y += 14)
        chart_text(o, pl->c.x.p0, y, "start", pl->nt->size[k2], pl->nt->color[k2], 0, pl->nt->line[k2]);
    chart_end(o);       /* write errors: the caller's close says them */
    chart_layout_release(&pl->lay.marks);
    chart_layout_release(&pl->lay.texts);
    chart_layout_release(&pl->lay.leaders);
    free(pl->app_lab);
    free(pl->own);
    free(pl->nt);
    free(pl);
}

/* ---- the profile ------------------------------------------------------- */

static double stat_median(const edan__json *v)
{
    if (edan__json_kind(v) == EDAN__JSON_NUMBER) return edan__json_number(v, 0);
    return edan__json_number(edan__json_get(v, "median"), 0);
}

static int str_is(const edan__json *v, const char *s)
{
    const char *t = edan__json_string(v, NULL);
    return t && !strcmp(t, s);
}

/* The best median of `value` over the entries of list `name` at `threads`
   whose key[k] is want[k] (want NULL: any); *best_entry: that entry. */
static double best_median(const edan__json *root, const char *name, const char *value, double threads,
                          const char *const key[2], const char *const want[2], const edan__json **best_entry)
{
    const edan__json *list = edan__json_get(root, name);
    double best = 0;
    size_t i;
    int k;
    for (i = 0; i < edan__json_len(list); i++) {
        const edan__json *e = edan__json_at(list, i);
        double g = stat_median(edan__json_get(e, value));
        int match = edan__json_number(edan__json_get(e, "threads"), 0) == threads;
        for (k = 0; k < 2 && match; k++) match = !key[k] || !want[k] || str_is(edan__json_get(e, key[k]), want[k]);
        if (match && g > best) {
            best = g;
            if (best_entry) *best_entry = e;
        }
    }
    return best;
}

/* Best median of bandwidth[] entries of `level` at `threads` (any op);
   *line (when not NULL): where it is in the profile. */
static double dom_bandwidth(const edan__json *root, const char *level, double threads, unsigned long *line)
{
    const char *const key[2] = {"level", NULL}, *const want[2] = {level, NULL};
    const edan__json *e = NULL;
    double best = best_median(root, "bandwidth", "GBps", threads, key, want, &e);
    if (line) *line = edan__json_line(edan__json_get(e, "GBps"));
    return best;
}

/* Best compute median of (isa, op) at `threads`; isa NULL = any ISA;
   *which: its ISA; *line: where it is in the profile. */
static double dom_compute(const edan__json *root, const char *isa, const char *op, double threads, const char **which,
                          unsigned long *line)
{
    const char *const key[2] = {"op", "isa"}, *const want[2] = {op, isa};
    const edan__json *e = NULL;
    double best = best_median(root, "compute", "GFLOPs", threads, key, want, &e);
    if (which && e) *which = edan__json_string(edan__json_get(e, "isa"), "?");
    *line = edan__json_line(edan__json_get(e, "GFLOPs"));
    return best;
}

/* What a chart is of: the profile's host, or its machine's name (a
   reference profile's); without either, its file's name and the CPU model
   it gives. "(none)" (the kernel's name of a host without one, as in an
   emulated machine), "localhost" and "unknown-host" (probe's when the host
   has no name) name nothing. */
static void host_of(const edan__json *root, const char *path, char *buf, size_t n)
{
    const char *h = edan__json_string(edan__json_get(root, "host"), NULL), *s;
    const char *cpu = edan__json_string(edan__json_get(edan__json_get(root, "topology"), "cpu_model"), NULL);
    if (h && *h && strcmp(h, "(none)") && strcmp(h, "localhost") && strcmp(h, "unknown-host")) {
        snprintf(buf, n, "%.150s", h);
        return;
    }
    h = edan__json_string(edan__json_get(edan__json_get(root, "machine"), "name"), NULL);
    if (h && *h) {
        snprintf(buf, n, "%.150s", h);
        return;
    }
    s = strrchr(path, '/');
    if (cpu && *cpu) snprintf(buf, n, "%.70s (%.75s)", s ? s + 1 : path, cpu);
    else snprintf(buf, n, "%.150s", s ? s + 1 : path);
}

/* The compute roofs at `threads`: measured at that count, else one core's
   times threads (compute scales with cores), said so in the label. */
static void add_compute(rl_chart *ch, const edan__json *root, double threads, double given_peak)
{
    const char *isa = "", *add_isa = "";
    double scale = 1, peak, add, scalar;
    unsigned long peak_line, add_line, scalar_line;
    char note[40] = "";
    if (given_peak > 0) {
        snprintf(ch->comp[0].label, sizeof ch->comp[0].label, "peak (--peak)");
        ch->comp[0].gflops = given_peak;
        ch->ncomp = 1;
        return;
    }
    peak = dom_compute(root, NULL, "fma", threads, &isa, &peak_line);
    if (!(peak > 0) && threads != 1) {
        scale = threads;
        snprintf(note, sizeof note, " (1 core x %g)", threads);
        peak = dom_compute(root, NULL, "fma", 1, &isa, &peak_line);
    }
    if (!(peak > 0)) return;
    add = dom_compute(root, isa, "add", scale == 1 ? threads : 1, &add_isa, &add_line);
    scalar = dom_compute(root, "scalar", "fma", scale == 1 ? threads : 1, NULL, &scalar_line);
    ch->ncomp = 0;
    snprintf(ch->comp[ch->ncomp].label, sizeof ch->comp[0].label, "%s FMA%s", isa, note);
    ch->comp[ch->ncomp].line = peak_line;
    ch->comp[ch->ncomp++].gflops = peak * scale;
    if (add > 0 && add * scale < peak * scale * 0.98) {
        snprintf(ch->comp[ch->ncomp].label, sizeof ch->comp[0].label, "%s ADD%s", add_isa, note);
        ch->comp[ch->ncomp].line = add_line;
        ch->comp[ch->ncomp++].gflops = add * scale;
    }
    if (scalar > 0 && strcmp(isa, "scalar")) {
        snprintf(ch->comp[ch->ncomp].label, sizeof ch->comp[0].label, "scalar FMA%s", note);
        ch->comp[ch->ncomp].line = scalar_line;
        ch->comp[ch->ncomp++].gflops = scalar * scale;
    }
}

/* A roof of gbps (none when not positive: the profile has no such entry)
   from the profile's line `line` (0: computed here). */
static rl_line *new_line(rl_chart *ch, const char *kind, double gbps, unsigned long line, const char *color,
                         const char *dash)
{
    rl_line *l;
    if (ch->nline >= RL_MAX_LINES || !(gbps > 0)) return NULL;
    l = &ch->line[ch->nline++];
    memset(l, 0, sizeof *l);
    snprintf(l->kind, sizeof l->kind, "%s", kind);
    l->gbps = gbps;
    l->line = line;
    l->color = color;
    l->dash = dash;
    return l;
}

static const char *const level_name[4] = {"L1", "L2", "L3", "DRAM"};
/* from chart_colors: blue, green, orange, red */
static const int level_color[4] = {0, 2, 1, 3};
/* in a LARM chart the caches step aside for the memory roofs' colours */
static const int larm_level_color[3] = {9, 2, 8};

/* The thread counts bandwidth[] has, as text: "1, 2". */
static void bandwidth_threads(const edan__json *root, char *buf, size_t n, double *smallest)
{
    const edan__json *list = edan__json_get(root, "bandwidth");
    double seen[32];
    size_t i, ns = 0, k, len = 0;
    *smallest = 0;
    buf[0] = 0;
    for (i = 0; i < edan__json_len(list); i++) {
        double t = edan__json_number(edan__json_get(edan__json_at(list, i), "threads"), 0);
        for (k = 0; k < ns && seen[k] != t; k++) {}
        if (k < ns || ns == 32 || !(t > 0)) continue;
        seen[ns++] = t;
        if (*smallest == 0 || t < *smallest) *smallest = t;
        if (len < n) len += (size_t)snprintf(buf + len, n - len, "%s%g", ns > 1 ? ", " : "", t);
    }
}

/* What probe's checks of the profile's figures found ("checks"; the
   unstable figures of "stability"), under the chart: the failed checks
   with their figures; nothing for a profile with neither. With warn, a
   failed check is also said on stderr. */
static void checks_note(rl_chart *ch, const edan__json *root, const char *path, int warn)
{
    const edan__json *res = edan__json_get(edan__json_get(root, "checks"), "results");
    size_t i, n = edan__json_len(res), failed = 0, len = 0, cap = sizeof ch->checks_note, said = 0;
    size_t unstable = edan__json_len(edan__json_get(edan__json_get(root, "stability"), "unstable"));
    char *t = ch->checks_note;
    t[0] = 0;
    for (i = 0; i < n; i++) failed += !edan__json_bool(edan__json_get(edan__json_at(res, i), "passed"), 1);
    if (!n && !unstable) return;
    if (n) len = (size_t)snprintf(t, cap, "probe's checks: %u of %u failed", (unsigned)failed, (unsigned)n);
    else len = (size_t)snprintf(t, cap, "probe's checks: none recorded");
    for (i = 0; i < n && len < cap; i++) {
        const edan__json *e = edan__json_at(res, i);
        if (edan__json_bool(edan__json_get(e, "passed"), 1)) continue;
        len += (size_t)snprintf(t + len, cap - len, "%s %s %s (%.4g > %.4g)", said++ ? ";" : ":",
                                edan__json_string(edan__json_get(e, "check"), "?"),
                                edan__json_string(edan__json_get(e, "figure"), "?"),
                                edan__json_number(edan__json_get(e, "value"), 0),
                                edan__json_number(edan__json_get(e, "limit"), 0));
    }
    if (len < cap && unstable)
        len += (size_t)snprintf(t + len, cap - len, "; %u figures unstable", (unsigned)unstable);
    if (len < cap) snprintf(t + len, cap - len, " (probe --check %s)", path);
    if (failed && warn)
        opt_ferr(NULL, path, 0, "warning: %u of %u of the profile's checks against the machine's limits failed: the "
                 "chart says which", (unsigned)failed, (unsigned)n);
}

static int build_carm(rl_chart *ch, const edan__json *root, const char *path, double threads, double peak,
                      char *err, size_t n)
{
    char host[160];
    char counts[200];
    double smallest;
    int k;
    bandwidth_threads(root, counts, sizeof counts, &smallest);
    if (threads == 0) {
        threads = smallest;
        if (dom_bandwidth(root, "DRAM", 1, NULL) > 0 || dom_bandwidth(root, "L1", 1, NULL) > 0) threads = 1;
    }
    memset(ch, 0, sizeof *ch);
    for (k = 0; k < 4; k++) {
        unsigned long line;
        double g = dom_bandwidth(root, level_name[k], threads, &line);
        rl_line *l = new_line(ch, level_name[k], g, line, chart_colors[level_color[k]], "");
        if (l) snprintf(l->label, sizeof l->label, "%s", level_name[k]);
    }
    if (ch->nline == 0) {
        if (counts[0])
            snprintf(err, n, "%s: no bandwidth roofs for %g thread(s); the profile has them for %s thread(s)", path,
                     threads, counts);
        else snprintf(err, n, "%s: the profile has no CARM bandwidth roofs (bandwidth[] is empty)%s", path,
                      edan__json_len(edan__json_get(edan__json_get(root, "numa"), "roofs"))
                          ? "; it has LARM roofs: use --larm or --cluster N" : "");
        return -1;
    }
    add_compute(ch, root, threads, peak);
    host_of(root, path, host, sizeof host);
    snprintf(ch->title, sizeof ch->title, "Cache-aware roofline: %s, %g thread%s", host, threads,
             threads == 1 ? "" : "s");
    snprintf(ch->foot, sizeof ch->foot, "roofs: best medians of %s; memory levels at %g thread%s%s%s", path, threads,
             threads == 1 ? "" : "s",
             edan__json_bool(edan__json_get(edan__json_get(root, "bandwidth_method"), "write_allocate_counted"), 0)
                 ? "" : ", write-allocate not counted",
             ch->ncomp ? "" : "; the profile has no compute roofs");
    checks_note(ch, root, path, 1);
    return 0;
}

/* The numa section's roofs, or NULL with a message. */
static const edan__json *larm_roofs(const edan__json *root, const char *path, char *err, size_t n)
{
    const edan__json *numa = edan__json_get(root, "numa"), *roofs = edan__json_get(numa, "roofs");
    if (!numa) {
        snprintf(err, n, "%s: the profile has no LARM roofs (no \"numa\" section: run probe --numa)", path);
        return NULL;
    }
    if (edan__json_bool(edan__json_get(numa, "skipped"), 0) || !edan__json_len(roofs)) {
        snprintf(err, n, "%s: the profile has no LARM roofs (%s)", path,
                 edan__json_string(edan__json_get(numa, "reason"), "numa.roofs is empty"));
        return NULL;
    }
    return roofs;
}

/* The chart of (cluster, mode): mode NULL = entries without a mode. */
static int build_larm(rl_chart *ch, const edan__json *root, const char *path, int cluster, const char *mode,
                      const char *op, double peak, char *err, size_t n)
{
    char host[160];
    static const char *const kinds[4] = {"local", "remote", "contended", "congested"};
    static const char *const kind_color[4] = {"#08519c", "#cb181d", "#e6850e", "#6a3d9a"};
    static const char *const dashes[5] = {"", "9 4", "3 3", "12 3 3 3", "1 3"};
    const edan__json *roofs = larm_roofs(root, path, err, n), *clusters;
    double threads = 0;
    size_t i;
    int k, invalid = 0, drawn = 0;
    if (!roofs) return -1;
    memset(ch, 0, sizeof *ch);
    ch->larm = 1;
    /* the cluster's threads: numa.clusters, else its fewest-thread local roof */
    clusters = edan__json_get(edan__json_get(root, "numa"), "clusters");
    for (i = 0; i < edan__json_len(clusters); i++) {
        const edan__json *e = edan__json_at(clusters, i);
        if (edan__json_number(edan__json_get(e, "cluster"), -1) == cluster)
            threads = edan__json_number(edan__json_get(e, "threads"), 0);
    }
    for (i = 0; i < edan__json_len(roofs) && !(threads > 0); i++) {
        const edan__json *e = edan__json_at(roofs, i);
        double t = edan__json_number(edan__json_get(e, "threads"), 0);
        if (edan__json_number(edan__json_get(e, "cluster"), -1) == cluster && str_is(edan__json_get(e, "roof"), "local") &&
            t > 0 && (threads == 0 || t < threads))
            threads = t;
    }
    /* cache roofs of the cluster's cores, where the profile has them */
    for (k = 0; k < 3; k++) {
        unsigned long line;
        double g = dom_bandwidth(root, level_name[k], threads, &line);
        rl_line *l = new_line(ch, level_name[k], g, line, chart_colors[larm_level_color[k]], "");
        if (l) snprintf(l->label, sizeof l->label, "%s", level_name[k]);
    }
    for (k = 0; k < 4; k++) {
        int nth = 0;
        for (i = 0; i < edan__json_len(roofs); i++) {
            const edan__json *e = edan__json_at(roofs, i), *node = edan__json_get(e, "node");
            const char *m = edan__json_string(edan__json_get(e, "mode"), NULL);
            double t = edan__json_number(edan__json_get(e, "threads"), 0);
            char where[64];
            rl_line *l;
            if (edan__json_number(edan__json_get(e, "cluster"), -1) != cluster || !str_is(edan__json_get(e, "roof"), kinds[k]) ||
                !str_is(edan__json_get(e, "op"), op) || (mode ? !m || strcmp(m, mode) : m != NULL))
                continue;
            if (!edan__json_bool(edan__json_get(e, "valid"), 1)) {
                invalid++;
                continue;
            }
            if (edan__json_string(edan__json_get(e, "node_label"), NULL))
                snprintf(where, sizeof where, "%s", edan__json_string(edan__json_get(e, "node_label"), ""));
            else if (edan__json_kind(node) == EDAN__JSON_NUMBER)
                snprintf(where, sizeof where, "node %g", edan__json_number(node, 0));
            else snprintf(where, sizeof where, "interleaved");
            l = new_line(ch, kinds[k], stat_median(edan__json_get(e, "GBps")),
                         edan__json_line(edan__json_get(e, "GBps")), kind_color[k], dashes[nth % 5]);
            if (!l) continue;
            nth++;
            drawn++;
            snprintf(l->label, sizeof l->label, "%s %s", kinds[k], where);
            if (t > 0 && t != threads) {
                size_t len = strlen(l->label);
                snprintf(l->label + len, sizeof l->label - len, ", %g threads", t);
            }
        }
    }
    if (!drawn) {
        snprintf(err, n, "%s: no LARM %s roofs for cluster %d%s%s", path, op, cluster, mode ? " in mode " : "",
                 mode ? mode : "");
        return -1;
    }
    add_compute(ch, root, threads, peak);
    host_of(root, path, host, sizeof host);
    snprintf(ch->title, sizeof ch->title, "Locality-aware roofline: %s, cluster %d (%g core%s)%s%s",
             host, cluster, threads, threads == 1 ? "" : "s", mode ? ", " : "", mode ? mode : "");
    snprintf(ch->foot, sizeof ch->foot, "%s roofs of %s (probe --numa): the bandwidth the cluster's cores get", op,
             path);
    if (invalid) {
        size_t len = strlen(ch->foot);
        snprintf(ch->foot + len, sizeof ch->foot - len, "; %d left out: their pages were not on their node", invalid);
    }
    checks_note(ch, root, path, 0);
    return 0;
}

/* Lines in order of bandwidth, fastest first: the legend then lists them
   as they lie on the chart. Insertion sort, stable. */
static void sort_lines(rl_chart *ch)
{
    int i, j;
    for (i = 1; i < ch->nline; i++) {
        rl_line t = ch->line[i];
        for (j = i; j > 0 && ch->line[j - 1].gbps < t.gbps; j--) ch->line[j] = ch->line[j - 1];
        ch->line[j] = t;
    }
}

/* ---- hybrid roofs ------------------------------------------------------ */

typedef struct rl_hybrid_req {
    double fast_fraction;   /* < 0: none */
    double store_fraction;  /* without applications; < 0: none */
} rl_hybrid_req;

/* GB/s as the notes print it; "?" when the model has none. */
static const char *gbps_text(double v, char *buf, size_t n)
{
    if (v > 0) snprintf(buf, n, "%.3g", v);
    else snprintf(buf, n, "?");
    return buf;
}

/* The chart's note on its hybrid roofs: what they are, and why one lies
   above every memory roof drawn, when it does. The hybrid model of the
   LARM paper (Sec. 6) is a bandwidth of both memories at once, from its
   own benchmark; the memory roofs are each one memory's, of one op. */
static void hybrid_note(rl_chart *ch, const edan_hybrid_model *m, double F)
{
    char b[4][16], *note = ch->hybrid_note;
    size_t n = sizeof ch->hybrid_note, len;
    double mem = 0, top = 0, upper = 0, stores = 0, st_bw, ld_bw;
    int k;
    for (k = 0; k < ch->nline; k++) {
        const rl_line *l = &ch->line[k];
        if (!strcmp(l->kind, "hybrid")) {
            if (l->gbps > top) {
                top = l->gbps;
                upper = l->hi;
            }
            if (l->stores > stores) stores = l->stores;
        } else if (strcmp(l->kind, "L1") && strcmp(l->kind, "L2") && strcmp(l->kind, "L3") && l->gbps > mem) {
            mem = l->gbps;
        }
    }
    snprintf(note, n, "hybrid: Eq. 5 of the LARM paper (TPDS 2019) for the application's own loads and stores with F = "
             "%g of its data in the fast memory, from the profile's hybrid model: its bandwidths of loads from the fast "
             "and the slow memory %s and %s GB/s, of stores %s and %s GB/s (measured by probe --numa's own benchmark), "
             "and its fitted overlaps theta.", F, gbps_text(m->bw[EDAN_HYBRID_LF], b[0], 16),
             gbps_text(m->bw[EDAN_HYBRID_LS], b[1], 16), gbps_text(m->bw[EDAN_HYBRID_SF], b[2], 16),
             gbps_text(m->bw[EDAN_HYBRID_SS], b[3], 16));
    if (!(mem > 0) || top <= mem) return;
    len = strlen(note);
    snprintf(note + len, n - len, " It lies above every memory roof here (at most %.3g GB/s):", mem);
    ld_bw = m->bw[EDAN_HYBRID_LF] > m->bw[EDAN_HYBRID_LS] ? m->bw[EDAN_HYBRID_LF] : m->bw[EDAN_HYBRID_LS];
    st_bw = m->bw[EDAN_HYBRID_SF] > m->bw[EDAN_HYBRID_SS] ? m->bw[EDAN_HYBRID_SF] : m->bw[EDAN_HYBRID_SS];
    if (F > 0 && F < 1) {
        len = strlen(note);
        snprintf(note + len, n - len, " with its data on two memories both serve at once, and the transfers overlap "
                 "(up to Eq. 3's bound, %.3g GB/s);", upper);
    }
    if (stores > 0 && st_bw > mem) {
        len = strlen(note);
        snprintf(note + len, n - len, " its stores move at the stores' bandwidth (up to %.3g GB/s), which these roofs "
                 "do not show;", st_bw);
    }
    if (ld_bw > mem) {
        len = strlen(note);
        snprintf(note + len, n - len, " the model's own load bandwidths exceed these roofs: its benchmark (the "
                 "paper's Fig. 15, loads and stores interleaved over pages of both memories) is not theirs;");
    }
    len = strlen(note);
    if (note[len - 1] == ';') note[len - 1] = '.';
}

/* Adds the hybrid roof of each application with load/store bytes (or of
   the store fraction alone) from the cluster's model (-1: the first).
   Returns the number added, or -1 with a message. */
/* The cluster's hybrid model: a measured profile's through the typed API,
   a reference profile's (which the loader refuses) from its JSON. */
static edan_result hybrid_of(const edan_profile *p, const edan__json *root, int cluster, edan_hybrid_model *m,
                             char *err, size_t n)
{
    return p ? edan_hybrid_from_profile(p, cluster, m, err, n) : edan__hybrid_from_json(root, cluster, m, err, n);
}

static int add_hybrid(rl_chart *ch, const edan_profile *p, const edan__json *root, const char *path, int cluster, const rl_hybrid_req *h,
                      const roofline_point *pts, size_t npts, char *err, size_t n)
{
    static const char *const tname[4] = {"loads from the fast memory (lf)", "loads from the slow memory (ls)",
                                         "stores to the fast memory (sf)", "stores to the slow memory (ss)"};
    static const char *const dashes[4] = {"", "9 4", "3 3", "12 3 3 3"};
    edan_hybrid_model m;
    char e2[300];
    size_t i, count = npts ? npts : 1;
    int added = 0;
    double F = h->fast_fraction;
    if (F < 0) return 0;
    if (!edan__json_get(root, "numa")) {
        snprintf(err, n, "%s: the profile has no hybrid model (no \"numa\" section: probe --numa measures it on a "
                 "machine with two or more NUMA nodes)", path);
        return -1;
    }
    if (edan__json_bool(edan__json_get(edan__json_get(root, "numa"), "skipped"), 0)) {
        snprintf(err, n, "%s: the profile has no hybrid model: probe --numa skipped the NUMA section (%s)", path,
                 edan__json_string(edan__json_get(edan__json_get(root, "numa"), "reason"), "no reason given"));
        return -1;
    }
    if (hybrid_of(p, root, cluster, &m, e2, sizeof e2) != EDAN_OK) {
        snprintf(err, n, "%s:%s", path, e2[0] ? e2 + (strncmp(e2, "line ", 5) ? 0 : 5) : " no hybrid model");
        return -1;
    }
    for (i = 0; i < count; i++) {
        double ld, st, q[EDAN_HYBRID_COUNT];
        edan_hybrid_roof r;
        edan_hybrid_times t;
        rl_line *l;
        const char *who;
        int k;
        if (npts) {
            ld = pts[i].load_bytes;
            st = pts[i].store_bytes;
            who = pts[i].label;
            if (!(ld + st > 0)) continue;   /* a --point: no quantities */
        } else {
            ld = 1 - h->store_fraction;
            st = h->store_fraction;
            who = NULL;
        }
        q[EDAN_HYBRID_LF] = F * ld;
        q[EDAN_HYBRID_LS] = (1 - F) * ld;
        q[EDAN_HYBRID_SF] = F * st;
        q[EDAN_HYBRID_SS] = (1 - F) * st;
        if (edan_hybrid_bandwidth(&m, q, &r) != EDAN_OK) {
            for (k = 0; k < EDAN_HYBRID_COUNT; k++)
                if (q[k] > 0 && !(m.bw[k] > 0)) break;
            if (k < EDAN_HYBRID_COUNT)
                snprintf(err, n, "%s: the hybrid model has no bandwidth for %s, which %s needs", path, tname[k],
                         who ? who : "this store fraction");
            else if (edan_hybrid_times_of(&m, q, &t) == EDAN_OK && !(t.t_fit > 0))
                snprintf(err, n, "%s: the hybrid model's fitted time is not positive for %s", path,
                         who ? who : "this store fraction");
            else
                snprintf(err, n, "%s: the hybrid model leaves a theta undetermined that %s needs", path,
                         who ? who : "this store fraction");
            return -1;
        }
        l = new_line(ch, "hybrid", r.bw_fit, 0, "#8c564b", dashes[added % 4]);
        if (!l) break;
        l->lo = r.bw_lower;
        l->hi = r.bw_upper;
        if (who) {
            snprintf(l->label, sizeof l->label, "hybrid %.40s, F=%g (stores %.0f%%)", who, F, 100 * st / (ld + st));
            snprintf(l->name, sizeof l->name, "hybrid %.40s", who);
        } else {
            snprintf(l->label, sizeof l->label, "hybrid F=%g, stores %g", F, h->store_fraction);
            snprintf(l->name, sizeof l->name, "hybrid");
        }
        l->stores = st / (ld + st);
        added++;
    }
    if (added) hybrid_note(ch, &m, F);
    return added;
}

/* ---- reference profiles ------------------------------------------------ */
/* A roof of a reference profile: null (the paper gives none), a number or
   {median, min, max}, each a number a chart draws or null. 0, or -1 with
   `file:line: what` in err. */
static int ref_roof_ok(const edan__json *v, const char *key, const char *path, char *err, size_t errlen)
{
    size_t i;
    if (edan__json_kind(v) == EDAN__JSON_OBJECT) {
        for (i = 0; i < edan__json_len(v); i++)
            if (ref_roof_ok(edan__json_value_at(v, i), key, path, err, errlen)) return -1;
        return 0;
    }
    if (edan__json_kind(v) == EDAN__JSON_NULL) return 0;
    if (edan__json_kind(v) == EDAN__JSON_NUMBER) {
        double x = edan__json_number(v, 0);
        if (rl_drawable(x)) return 0;
        snprintf(err, errlen, "%s:%lu: \"%s\" is %g: a roof must be a number from %g to %g (or null when unknown)",
                 path, edan__json_line(v), key, x, RL_MIN_VALUE, RL_MAX_VALUE);
        return -1;
    }
    snprintf(err, errlen, "%s:%lu: \"%s\" must be a number, an object of numbers or null", path, edan__json_line(v),
             key);
    return -1;
}

/* Every "GBps" and "GFLOPs" anywhere in v. */
static int ref_roofs_ok(const edan__json *v, const char *path, char *err, size_t errlen, int depth)
{
    size_t i;
    if (depth > 32) return 0;
    for (i = 0; i < edan__json_len(v); i++) {
        const char *k = edan__json_kind(v) == EDAN__JSON_OBJECT ? edan__json_key_at(v, i) : NULL;
        const edan__json *x = edan__json_kind(v) == EDAN__JSON_OBJECT ? edan__json_value_at(v, i) : edan__json_at(v, i);
        if (k && (!strcmp(k, "GBps") || !strcmp(k, "GFLOPs"))) {
            if (ref_roof_ok(x, k, path, err, errlen)) return -1;
        } else if (ref_roofs_ok(x, path, err, errlen, depth + 1)) {
            return -1;
        }
    }
    return 0;
}

/* A reference profile (transcribed from a paper): a version this edan
   reads, roofs that are numbers, and the numa section as the loader
   checks a measured profile's. */
static int ref_check(const edan__json *root, const char *path, char *err, size_t errlen)
{
    if (edan__profile_check_version(root, path, NULL, err, errlen) != EDAN_OK) return -1;
    if (ref_roofs_ok(root, path, err, errlen, 0)) return -1;
    return edan__profile_check_numa(root, path, err, errlen) == EDAN_OK ? 0 : -1;
}

/* ---- applications ------------------------------------------------------ */

/* A report's counts (flops, bytes) are the engine's 64-bit integers. */
#define RL_MAX_COUNT 18446744073709551616.0

/* The number `key` of a report's object, dflt when missing; 0, or -1 with
   `edan roofline: --app PATH:LINE: what` when it is no number from lo to hi. */
static int app_number(const char *path, const edan__json *obj, const char *key, double lo, double hi, double dflt,
                      double *out)
{
    const edan__json *v = edan__json_get(obj, key);
    *out = edan__json_number(v, dflt);
    if (!v || (edan__json_kind(v) == EDAN__JSON_NUMBER && *out >= lo && *out <= hi)) return 0;
    if (edan__json_kind(v) == EDAN__JSON_NUMBER)
        opt_err("edan roofline", "--app %s:%lu: \"%s\" is %g: expected a number from %g to %g", path,
                edan__json_line(v), key, *out, lo, hi);
    else
        opt_err("edan roofline", "--app %s:%lu: \"%s\" must be a number", path, edan__json_line(v), key);
    return -1;
}

/* The chart's profile: its path and the zlib CRC-32 of its bytes. */
typedef struct rl_profile_id {
    const char *path;
    unsigned long crc;
} rl_profile_id;

/* 0 when the report was analysed with the chart's profile, 1 with another
   (named in `with`), 2 with none. A report names its profile's CRC-32
   ("profile_crc32"), whatever the file is called now; one written before
   names only the path: the same file or not. */
static int app_foreign(const edan__json *root, const rl_profile_id *id, char *with, size_t n)
{
    const char *p = edan__json_string(edan__json_get(root, "profile"), NULL);
    const char *crc = edan__json_string(edan__json_get(root, "profile_crc32"), NULL);
    struct stat a, b;
    if (!p) return 2;
    snprintf(with, n, "%s", p);
    if (crc && *crc) {
        char *end;
        unsigned long v;
        errno = 0;
        v = strtoul(crc, &end, 16);
        if (!*end && !errno) return v != id->crc;
    }
    if (!strcmp(p, id->path)) return 0;
    return !(stat(p, &a) == 0 && stat(id->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino);
}

/* --app RESULT.json[:RUNTIME_SECONDS]: the file's name into path, and the
   runtime (0 when not given; a name may hold colons of its own). */
static double app_file(const char *spec, char *path, size_t n)
{
    char *colon;
    double runtime = 0;
    snprintf(path, n, "%s", spec);
    colon = strrchr(path, ':');
    if (colon && !opt_double(colon + 1, 0, 1, DBL_MAX, &runtime)) *colon = 0;
    else runtime = 0;
    return runtime;
}

/* An application from an `edan analyze/trace --json` report (its first
   configuration): AI = flops / requested bytes; performance = flops over
   the windowed schedule's time T_window at m (the profile's m when the
   report has it, else 4, else its first m), converted with the report's
   clock; without the window flops over the model's time bounds (a range:
   their C adds every instruction's cost as if none overlapped); or flops /
   runtime when one is given (FILE:SECONDS), unless model_only (the model's
   point drawn beside the measured one). A prediction made with another
   profile than the chart's, or none, is marked (foreign) and said on
   standard error. */
static int app_point(const char *spec, int model_only, unsigned prof_m, const rl_profile_id *id, roofline_point *q,
                     char *label, size_t n)
{
    char path[1024], key[16], err[300];
    double runtime = 0, flops, ghz, lo_t, hi_t;
    char *text;
    edan__json *root;
    const edan__json *cfgs, *c, *ms, *b;
    int rc = -1;
    runtime = app_file(spec, path, sizeof path);
    if (model_only) runtime = 0;
    if (cli_report_read("edan roofline", path, &text, &root, &cfgs)) return -1;
    c = edan__json_at(cfgs, 0);
    ms = edan__json_get(c, "m");
    if (!ms || !edan__json_len(ms)) {
        opt_err("edan roofline", "--app %s: not an edan report (its first configuration has no \"m\")", path);
        goto done;
    }
    if (app_number(path, c, "flops", 0, RL_MAX_COUNT, 0, &flops) ||
        app_number(path, c, "arithmetic_intensity", 0, RL_MAX_COUNT, 0, &q->ai) ||
        app_number(path, c, "load_bytes", 0, RL_MAX_COUNT, 0, &q->load_bytes) ||
        app_number(path, c, "store_bytes", 0, RL_MAX_COUNT, 0, &q->store_bytes) ||
        app_number(path, c, "freq_ghz", RL_MIN_VALUE, RL_MAX_VALUE, 1, &ghz))
        goto done;
    if (flops <= 0 || q->ai <= 0) {
        opt_err("edan roofline", "--app %s: the application does no floating-point work", path);
        goto done;
    }
    /* the profile's m, else the paper's, else the report's first */
    snprintf(key, sizeof key, "%u", prof_m);
    b = edan__json_get(ms, key);
    snprintf(key, sizeof key, "%u", CLI_M_PAPER);
    if (!b) b = edan__json_get(ms, key);
    if (!b) b = edan__json_value_at(ms, 0);
    if (edan__json_get(b, "T_window")) {     /* a core's time (the windowed schedule): one point */
        lo_t = hi_t = edan__json_number(edan__json_get(b, "T_window"), 0);
    } else {                                    /* the paper's bounds: a range */
        lo_t = edan__json_number(edan__json_get(b, "T_upper"), 0);
        hi_t = edan__json_number(edan__json_get(b, "T_lower"), 0);
    }
    q->predicted = runtime <= 0;
    q->foreign = q->predicted ? app_foreign(root, id, q->analysed_with, sizeof q->analysed_with) : 0;
    if (q->foreign == 1)
        opt_err("edan roofline", "--app %s was analysed with the profile %s, not %s: its point is drawn hollow and "
                "marked \"other profile\" (the model's performance with that profile's latency, m and clock; analysed "
                "with --profile %s it belongs on this chart)", path, q->analysed_with, id->path, id->path);
    else if (q->foreign == 2)
        opt_err("edan roofline", "--app %s was analysed without a profile: its point is drawn hollow and marked "
                "\"no profile\" (the model's performance with its default latency and clock; analysed with --profile "
                "%s it belongs on this chart)", path, id->path);
    if (runtime > 0) {
        q->gflops_lo = q->gflops_hi = flops / runtime / 1e9;
    } else if (lo_t > 0 && hi_t > 0) {
        q->gflops_lo = flops * ghz / lo_t;      /* flop per cycle x cycles per ns */
        q->gflops_hi = flops * ghz / hi_t;
    } else {
        opt_err("edan roofline", "--app %s: no time bounds", path);
        goto done;
    }
    if (point_out_of_range(q, err, sizeof err)) {
        opt_err("edan roofline", "--app %s: %s", spec, err);
        goto done;
    }
    cli_result_name(root, path, label, n);     /* as edan rank and edan plot name it */
    q->label = label;
    rc = 0;
done:
    edan__json_free(root);
    free(text);
    return rc;
}

/* LABEL:AI:GFLOPS or LABEL:AI:LO-HI (the label may not contain ':'): any
   number strtod reads, so that the range check says what is wrong with
   an infinite or a subnormal one. */
static int parse_point(const char *s, roofline_point *q, char *label, size_t n)
{
    const char *a = strchr(s, ':'), *b;
    char *end;
    memset(q, 0, sizeof *q);
    if (!a || (size_t)(a - s) >= n) return -1;
    memcpy(label, s, (size_t)(a - s));
    label[a - s] = 0;
    q->label = label;
    q->predicted = 0;
    q->ai = strtod(a + 1, &end);
    if (*end != ':') return -1;
    b = end + 1;
    q->gflops_lo = strtod(b, &end);
    if (end == b) return -1;
    if (*end == '-') {
        b = end + 1;
        q->gflops_hi = strtod(b, &end);
        if (end == b) return -1;
    } else q->gflops_hi = q->gflops_lo;
    return *end ? -1 : 0;
}

/* The chart, as tools/files.h writes outputs; rl_check has passed it. */
static int write_chart(const char *out, const rl_chart *ch, const roofline_point *pts, size_t npts)
{
    char err[600];
    files_out fo;
    if (files_out_open(&fo, out, err, sizeof err)) {
        opt_err("edan roofline", "cannot write %s", err);
        return -1;
    }
    rl_svg(fo.f, ch, pts, npts);
    if (files_out_close(&fo, err, sizeof err)) {
        opt_err("edan roofline", "cannot write %s", err);
        return -1;
    }
    return 0;
}

/* A chart that would be the profile or an --app's result file destroys it. */
static int out_clashes(const char *out, const char *profile, const char *const *apps, size_t napps)
{
    files_role in[RL_MAX_POINTS + 1];
    char paths[RL_MAX_POINTS][1024];
    size_t k, n = 0;
    in[n].path = profile;
    in[n++].what = "the profile";
    for (k = 0; k < napps; k++) {
        app_file(apps[k], paths[k], sizeof paths[k]);
        in[n].path = paths[k];
        in[n++].what = "an --app result";
    }
    return files_check_output("edan roofline", out, "the chart", in, n);
}

/* --larm names its charts after -o CHART.svg, CHART-clusterN.svg beside
   it: only a plain file path has a "beside", a regular file or a new name
   in an existing directory. "-", a FIFO, a device or a directory would give
   names like "--cluster0.svg" or "/dev/null-cluster0.svg". 0, or -1 with
   a message. */
static int larm_base_ok(const char *out)
{
    struct stat st;
    char dir[4096];
    const char *slash = strrchr(out, '/');
    if (!strcmp(out, "-")) {
        opt_err("edan roofline", "--larm writes one chart per cluster, named after -o CHART.svg: standard output "
                "(-o -) cannot name them");
        return -1;
    }
    if (stat(out, &st) == 0) {
        if (S_ISREG(st.st_mode)) return 0;
        opt_err("edan roofline", "--larm names its charts after -o CHART.svg: %s is %s, not a regular file",
                out, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
        return -1;
    }
    if (errno != ENOENT) {
        opt_err("edan roofline", "-o %s: %s", out, strerror(errno));
        return -1;
    }
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if ((size_t)(slash - out) >= sizeof dir) {
        opt_err("edan roofline", "-o %s: too long a name", out);
        return -1;
    } else snprintf(dir, sizeof dir, "%.*s", slash == out ? 1 : (int)(slash - out), out);
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        opt_err("edan roofline", "--larm names its charts after -o CHART.svg: %s is not a directory", dir);
        return -1;
    }
    return 0;
}

/* 1 when a mode's name can be part of a file name: no directories (no
   '/', no leading '.'), no control bytes. */
static int names_file(const char *mode)
{
    const char *c;
    if (!*mode || *mode == '.') return 0;
    for (c = mode; *c; c++)
        if (*c == '/' || (unsigned char)*c < 0x20) return 0;
    return 1;
}

/* The clusters (and modes) numa.roofs has, in order of appearance; line:
   of the first entry's mode. */
typedef struct rl_key { int cluster; const char *mode; unsigned long line; } rl_key;

static size_t larm_keys(const edan__json *roofs, rl_key *keys, size_t max)
{
    size_t i, k, nk = 0;
    for (i = 0; i < edan__json_len(roofs); i++) {
        const edan__json *e = edan__json_at(roofs, i);
        /* an integer from 0 to 2^20 when present: the loader or ref_check checked it */
        int c = (int)edan__json_number(edan__json_get(e, "cluster"), -1);
        const char *m = edan__json_string(edan__json_get(e, "mode"), NULL);
        if (c < 0) continue;
        for (k = 0; k < nk; k++)
            if (keys[k].cluster == c && (keys[k].mode == m || (keys[k].mode && m && !strcmp(keys[k].mode, m)))) break;
        if (k == nk && nk < max) {
            keys[nk].cluster = c;
            keys[nk].line = edan__json_line(edan__json_get(e, "mode"));
            keys[nk++].mode = m;
        }
    }
    return nk;
}

/* ---- the command ------------------------------------------------------- */

enum {
    RL_HELP = 1, RL_OUT, RL_TITLE, RL_THREADS, RL_CLUSTER, RL_LARM, RL_MODE, RL_OP, RL_APP, RL_POINT, RL_FAST,
    RL_STORE, RL_PEAK
};
static const opt_def roofline_opts[] = {
    {NULL, NULL, 0,
     "usage: edan roofline PROFILE -o CHART.svg [options]\n"
     "Draws roofline charts of a hardware profile written by `probe` (or a\n"
     "reference profile in hwprofiles/), log-log, GFLOP/s against flop/byte.\n"
     "\n"
     "Charts:\n"
     "  (default)           the cache-aware roofline (CARM): one roof per compute\n"
     "                      kind (best ISA FMA and ADD, scalar FMA) and per memory\n"
     "                      level (L1, L2, L3, DRAM: the best bandwidth median of\n"
     "                      the level at --threads)"},
    {"--threads", "N", RL_THREADS, "the roofs of N threads (default 1, or the fewest the\nprofile has)"},
    {"--cluster", "N", RL_CLUSTER,
     "the locality-aware roofline (LARM) of cluster N (a NUMA\nnode with cores) from `probe --numa`: its cache "
     "roofs and\nits local, remote, contended and congested memory roofs"},
    {"--larm", NULL, RL_LARM,
     "one LARM chart per cluster (and mode), named after -o\nCHART.svg (a file path: not -, a FIFO or a device):\n"
     "CHART-clusterN.svg, CHART-clusterN-MODE.svg when the\nroofs name modes"},
    {"--mode", "M", RL_MODE, "with --cluster: the roofs of mode M (e.g. flat, cache)"},
    {"--op", "OP", RL_OP, "LARM roofs of this op (default load; store_nt, store)"},
    {NULL, NULL, 0, "Applications:"},
    {"--app", "RESULT.json[:RUNTIME_SECONDS]", RL_APP,
     "an `edan analyze/trace --json` report: its arithmetic\nintensity and the model's performance, flops over the\n"
     "windowed schedule's time T_window (without the window:\nover the time bounds, a range); with SECONDS, the\n"
     "measured performance (flops / SECONDS) beside it"},
    {"--point", "LABEL:AI:GFLOPS", RL_POINT, "a point of your own; LABEL:AI:LOW-HIGH for a range"},
    {"--fast-fraction", "F", RL_FAST,
     "for each --app, the hybrid roof (TPDS 2019, Eq. 5) of\nits loads and stores with the fraction F (0..1) of them\n"
     "in the fast memory, from the profile's hybrid model\n(probe --numa; the cluster's, else the first)"},
    {"--store-fraction", "S", RL_STORE,
     "without --app: the hybrid roof of a kernel whose bytes\nare the fraction S stores"},
    {"--peak", "GFLOPS", RL_PEAK,
     "the top compute roof, for a profile without compute\nroofs (reference profiles) or to show another peak"},
    {NULL, NULL, 0, "Output:"},
    {"-o", "CHART.svg", RL_OUT, "the chart; with --larm, the base of the charts' names"},
    {"--title", "TEXT", RL_TITLE, "the chart's title"},
    {"-h|--help", NULL, RL_HELP, "this text"},
    {NULL, NULL, 0,
     "A chart draws roofs, intensities and performance from 1e-9 to 1e12; a value\n"
     "outside is an error that names it, and no chart is written.\n"
     "Every roof line carries data-kind, data-label and data-gbps (or\n"
     "data-gflops) attributes for scripts."},
};
#define RL_NOPTS (sizeof roofline_opts / sizeof roofline_opts[0])

/* What the command line asks for. */
typedef struct rl_args {
    const char *path, *out, *title, *mode, *op;
    roofline_point pts[RL_MAX_POINTS];      /* the --point's, then the --app's */
    char labels[RL_MAX_POINTS][64];
    const char *apps[RL_MAX_POINTS];
    size_t npts, napps;
    double threads, cluster, peak;          /* cluster -1: none */
    int larm;
    rl_hybrid_req hy;
} rl_args;

/* The value of option opt: a number from lo to hi, whole when `whole`;
   0, or -1 with a message. */
static int rl_number(const char *opt, const char *s, double lo, double hi, int whole, double *out)
{
    double v;
    if (opt_double(s, lo, 0, hi, &v) || (whole && v != floor(v)))
        return opt_err("edan roofline", "%s wants a %snumber from %.15g to %.15g, not '%s'", opt,
                       whole ? "whole " : "", lo, hi, s);
    *out = v;
    return 0;
}

/* --point SPEC as the next point; 0, or -1 with a message. */
static int rl_add_point(rl_args *a, const char *spec)
{
    char why[600];
    roofline_point *q = &a->pts[a->npts];
    if (parse_point(spec, q, a->labels[a->npts], sizeof a->labels[0]))
        return opt_err("edan roofline", "--point '%s': expected LABEL:AI:GFLOPS or LABEL:AI:LOW-HIGH", spec);
    if (point_out_of_range(q, why, sizeof why)) return opt_err("edan roofline", "--point '%s': %s", spec, why);
    a->npts++;
    return 0;
}

/* The options: 1 when --help was printed, 0, or -1 with a message. */
static int rl_read_options(rl_args *a, int argc, char **argv)
{
    const char *val;
    int i, k;
    for (i = 1; (k = opt_next("edan roofline", roofline_opts, RL_NOPTS, argc, argv, &i, &val)) != OPT_END;) {
        if ((k == RL_APP || k == RL_POINT) && a->napps + a->npts >= RL_MAX_ARGS)
            return opt_err("edan roofline", "at most %d applications and points", RL_MAX_ARGS);
        switch (k) {
        case RL_HELP: opt_help(stdout, roofline_opts, RL_NOPTS); return 1;
        case RL_OUT: a->out = val; break;
        case RL_TITLE: a->title = val; break;
        case RL_MODE: a->mode = val; break;
        case RL_OP: a->op = val; break;
        case RL_LARM: a->larm = 1; break;
        case RL_THREADS: if (rl_number("--threads", val, 1, 1 << 20, 1, &a->threads)) return -1; break;
        case RL_CLUSTER: if (rl_number("--cluster", val, 0, 1 << 20, 1, &a->cluster)) return -1; break;
        case RL_PEAK: if (rl_number("--peak", val, RL_MIN_VALUE, RL_MAX_VALUE, 0, &a->peak)) return -1; break;
        case RL_FAST: if (rl_number("--fast-fraction", val, 0, 1, 0, &a->hy.fast_fraction)) return -1; break;
        case RL_STORE: if (rl_number("--store-fraction", val, 0, 1, 0, &a->hy.store_fraction)) return -1; break;
        case RL_APP: a->apps[a->napps++] = val; break;
        case RL_POINT: if (rl_add_point(a, val)) return -1; break;
        case OPT_OPERAND:
            if (a->path) return opt_err("edan roofline", "one profile only ('%s')", val);
            a->path = val;
            break;
        case OPT_REST:
            return opt_err("edan roofline", "'--' is not an option of edan roofline (see edan roofline --help)");
        default: return -1;     /* OPT_ERROR: said */
        }
    }
    return 0;
}

/* The options that go together; 0, or -1 with a message. */
static int rl_check_options(const rl_args *a)
{
    if (!a->path || !a->out) {
        opt_help(stderr, roofline_opts, RL_NOPTS);
        return opt_err("edan roofline", "%s", !a->path ? "no profile given (edan roofline PROFILE -o CHART.svg)"
                                                       : "no output given (-o CHART.svg)");
    }
    if (a->larm && a->cluster >= 0)
        return opt_err("edan roofline", "--larm draws every cluster; --cluster N draws one: not both");
    if (a->mode && a->cluster < 0) return opt_err("edan roofline", "--mode goes with --cluster N");
    if (a->larm && larm_base_ok(a->out)) return -1;
    if (a->hy.store_fraction >= 0 && a->napps)
        return opt_err("edan roofline", "--store-fraction is for a chart without --app (an application has its own)");
    if (a->hy.store_fraction >= 0 && a->hy.fast_fraction < 0)
        return opt_err("edan roofline", "--store-fraction needs --fast-fraction F");
    if (a->hy.fast_fraction >= 0 && !a->napps && a->hy.store_fraction < 0)
        return opt_err("edan roofline", "--fast-fraction needs --app RESULT.json or --store-fraction S");
    return 0;
}

/* The profile as read: its text, the loader's profile (a measured one) or
   the JSON alone (a reference profile, which the loader does not take). */
typedef struct rl_input {
    char *text;
    size_t len;
    edan_profile *p;
    edan__json *own_root;
    const edan__json *root;     /* the profile's JSON, either way */
    unsigned prof_m;            /* the measured profile's m; 0: none */
} rl_input;

static void rl_input_free(rl_input *in)
{
    if (in->p) edan_profile_free(in->p);
    edan__json_free(in->own_root);
    free(in->text);
}

/* The profile, then the --app points after the --point ones; 0, or -1
   with a message. One parse: a measured profile through the loader, which
   checks it and keeps its JSON; only when that fails, the JSON alone, to
   tell a reference profile (transcribed from a paper, with only what the
   paper gives) from a file that is not a profile. */
static int rl_read_inputs(rl_args *a, rl_input *in)
{
    char err[600], jerr[600];
    rl_profile_id id;
    size_t k;
    in->text = cli_file_read("edan roofline", a->path, &in->len);
    if (!in->text) return -1;
    if (edan_profile_parse(in->text, in->len, a->path, NULL, &in->p, err, sizeof err) == EDAN_OK) {
        in->root = edan__profile_json(in->p);
        in->prof_m = in->p->mlp_m;
    } else {
        if (edan__json_parse(in->text, in->len, NULL, &in->own_root, jerr, sizeof jerr) != EDAN_OK) {
            unsigned long line;
            const char *why = cli_json_where(jerr, &line);
            return opt_ferr(NULL, a->path, line, "%s", why);
        }
        in->root = in->own_root;
        if (!str_is(edan__json_get(in->root, "schema"), EDAN_PROFILE_SCHEMA))
            return opt_ferr(NULL, a->path, 0, "not a hardware profile (\"schema\" is not \"" EDAN_PROFILE_SCHEMA "\")");
        /* else the loader's message: a measured profile that does not check */
        if (!edan__json_bool(edan__json_get(in->root, "reference"), 0)) return opt_err(NULL, "%s", err);
        if (ref_check(in->root, a->path, err, sizeof err)) return opt_err(NULL, "%s", err);
    }
    id.path = a->path;
    id.crc = crc32(0L, (const unsigned char *)in->text, (unsigned)in->len);
    for (k = 0; k < a->napps; k++) {
        char path[1024];
        int measured = app_file(a->apps[k], path, sizeof path) > 0, model;
        /* a measured runtime: the model's point first, the measured one beside it */
        for (model = measured; model >= 0; model--) {
            if (app_point(a->apps[k], model, in->prof_m, &id, &a->pts[a->npts], a->labels[a->npts],
                          sizeof a->labels[0]))
                return -1;
            a->npts++;
        }
    }
    return 0;
}

/* A built chart made ready: its lines in order, the --title, its values
   checked; 0, or -1 with a message. */
static int rl_finish(rl_chart *ch, const rl_args *a)
{
    char err[600];
    sort_lines(ch);
    if (a->title) snprintf(ch->title, sizeof ch->title, "%s", a->title);
    if (rl_check(ch, a->pts, a->npts, a->path, err, sizeof err)) return opt_err(NULL, "%s", err);
    return 0;
}

/* The LARM chart of --cluster N, of --mode or, when the roofs name modes,
   of the first one (said); 0, or -1 with a message. */
static int rl_build_cluster(rl_chart *ch, const rl_args *a, const rl_input *in)
{
    char err[600];
    const edan__json *roofs = larm_roofs(in->root, a->path, err, sizeof err);
    const char *mode = a->mode;
    int cl = (int)a->cluster;
    rl_key keys[64];
    size_t nk, j;
    if (!roofs) return opt_err(NULL, "%s", err);
    nk = larm_keys(roofs, keys, 64);
    for (j = 0; j < nk && keys[j].cluster != cl; j++) {}
    if (j == nk) {
        char list[300];
        size_t l = 0, q;
        list[0] = 0;
        for (q = 0; q < nk; q++)
            if ((q == 0 || keys[q].cluster != keys[q - 1].cluster) && l < sizeof list)
                l += (size_t)snprintf(list + l, sizeof list - l, "%s%d", l ? ", " : "", keys[q].cluster);
        return opt_ferr(NULL, a->path, 0, "no LARM roofs for cluster %d; the profile has clusters %s", cl, list);
    }
    if (!mode && keys[j].mode) {
        mode = keys[j].mode;
        opt_err("edan roofline", "cluster %d, mode %s (--mode chooses another)", cl, mode);
    }
    if (build_larm(ch, in->root, a->path, cl, mode, a->op, a->peak, err, sizeof err)) return opt_err(NULL, "%s", err);
    return 0;
}

/* The one chart of the CARM or of --cluster N, written to -o; 0, or -1
   with a message. */
static int rl_draw_one(const rl_args *a, const rl_input *in)
{
    char err[600];
    const edan__json *numa = edan__json_get(in->root, "numa");
    int rc = -1;
    rl_chart *ch = (rl_chart *)calloc(1, sizeof *ch);
    if (!ch) return opt_err("edan roofline", "out of memory");
    if (a->cluster >= 0) {
        if (rl_build_cluster(ch, a, in)) goto done;
    } else if (build_carm(ch, in->root, a->path, a->threads, a->peak, err, sizeof err)) {
        opt_err(NULL, "%s", err);
        goto done;
    }
    if (add_hybrid(ch, in->p, in->root, a->path, (int)a->cluster, &a->hy, a->pts, a->npts, err, sizeof err) < 0) {
        opt_err(NULL, "%s", err);
        goto done;
    }
    if (rl_finish(ch, a) || out_clashes(a->out, a->path, a->apps, a->napps) || write_chart(a->out, ch, a->pts, a->npts))
        goto done;
    if (a->cluster < 0 && edan__json_len(edan__json_get(numa, "roofs")) &&
        !edan__json_bool(edan__json_get(numa, "skipped"), 0))
        opt_err("edan roofline", "the profile also has LARM roofs: --larm draws one chart per cluster");
    rc = 0;
done:
    free(ch);
    return rc;
}

/* --larm's charts, one per key that has one (which[]: its key): every one
   is built and checked before any is written, so that a value that
   cannot be drawn leaves no charts behind. How many, or -1 with a
   message. */
static int rl_build_larm_all(rl_chart *charts, const rl_key *keys, size_t nk, size_t *which, const rl_args *a,
                             const rl_input *in)
{
    char err[600];
    size_t j;
    int ndrawn = 0, hybrids = 0;
    for (j = 0; j < nk; j++) {
        rl_chart *c = &charts[ndrawn];
        if (build_larm(c, in->root, a->path, keys[j].cluster, keys[j].mode, a->op, a->peak, err, sizeof err)) {
            opt_err("edan roofline", "skipped: %s", err);
            continue;
        }
        if (keys[j].mode && !names_file(keys[j].mode))
            return opt_ferr(NULL, a->path, keys[j].line, "mode \"%s\" of cluster %d cannot be part of a file name "
                            "(--larm writes CHART-clusterN-MODE.svg)", keys[j].mode, keys[j].cluster);
        if (a->hy.fast_fraction >= 0) {
            edan_hybrid_model m;
            if (hybrid_of(in->p, in->root, keys[j].cluster, &m, err, sizeof err) == EDAN_OK) {
                int h = add_hybrid(c, in->p, in->root, a->path, keys[j].cluster, &a->hy, a->pts, a->npts, err,
                                   sizeof err);
                if (h < 0) return opt_err(NULL, "%s", err);
                hybrids += h;
            } else
                opt_err("edan roofline", "cluster %d has no hybrid model: no hybrid roof on its chart",
                        keys[j].cluster);
        }
        if (rl_finish(c, a)) return -1;
        which[ndrawn++] = j;
    }
    if (!ndrawn) return opt_ferr(NULL, a->path, 0, "no LARM chart could be drawn");
    if (a->hy.fast_fraction >= 0 && !hybrids)
        return opt_ferr(NULL, a->path, 0, "no cluster has a hybrid model for --fast-fraction");
    return ndrawn;
}

/* The name of key's --larm chart: -o CHART.svg's first base_len bytes
   (without .svg), -clusterN, -MODE; -1 when it does not fit. */
static int larm_name(char *name, size_t n, const char *out, size_t base_len, const rl_key *key)
{
    return (size_t)snprintf(name, n, "%.*s-cluster%d%s%s.svg", (int)base_len, out, key->cluster, key->mode ? "-" : "",
                            key->mode ? key->mode : "") >= n ? -1 : 0;
}

/* --larm: one chart per cluster (and mode), named after -o; every name is
   checked before a chart is written. 0, or -1 with a message. */
static int rl_draw_larm(const rl_args *a, const rl_input *in)
{
    char err[600], name[4300];
    const edan__json *roofs = larm_roofs(in->root, a->path, err, sizeof err);
    rl_key keys[64];
    size_t nk, j, which[64], base_len = strlen(a->out);
    int ndrawn, rc = -1;
    rl_chart *charts;
    if (!roofs) return opt_err(NULL, "%s", err);
    if (base_len > 4 && !strcmp(a->out + base_len - 4, ".svg")) base_len -= 4;
    nk = larm_keys(roofs, keys, 64);
    charts = (rl_chart *)calloc(nk ? nk : 1, sizeof *charts);
    if (!charts) return opt_err("edan roofline", "out of memory");
    ndrawn = rl_build_larm_all(charts, keys, nk, which, a, in);
    if (ndrawn < 0) goto done;
    for (j = 0; j < (size_t)ndrawn; j++) {
        if (larm_name(name, sizeof name, a->out, base_len, &keys[which[j]])) {
            opt_err("edan roofline", "-o %s: too long a name for the charts of --larm", a->out);
            goto done;
        }
        if (out_clashes(name, a->path, a->apps, a->napps)) goto done;
    }
    for (j = 0; j < (size_t)ndrawn; j++) {
        larm_name(name, sizeof name, a->out, base_len, &keys[which[j]]);
        if (write_chart(name, &charts[j], a->pts, a->npts)) goto done;
        opt_err("edan roofline", "wrote %s", name);
    }
    rc = 0;
done:
    free(charts);
    return rc;
}

int edan_cmd_roofline(int argc, char **argv)
{
    rl_args a;
    rl_input in;
    int r, rc = 2;     /* every failure here is of the input or the output */
    memset(&a, 0, sizeof a);
    memset(&in, 0, sizeof in);
    a.op = "load";
    a.cluster = -1;
    a.hy.fast_fraction = a.hy.store_fraction = -1;
    r = rl_read_options(&a, argc, argv);
    if (r) return r > 0 ? 0 : 2;
    if (rl_check_options(&a)) return 2;
    if (!rl_read_inputs(&a, &in) && !(a.larm ? rl_draw_larm(&a, &in) : rl_draw_one(&a, &in))) rc = 0;
    rl_input_free(&in);
    return rc;
}
