/* tools/report/roofline_svg.c - a roofline chart drawn as SVG: its checks (every
   roof and point a value a chart draws), the axes, roofs, legend, points
   and labels placed first, then written. Log-log: arithmetic intensity
   (flop/byte) against GFLOP/s. */
#define _POSIX_C_SOURCE 200809L
#include "roofline.h"
#include "../common/files.h"
#include "../common/opt.h"
#include "chart.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the drawing ------------------------------------------------------- */

/* 0 when the point's intensity and performance can be drawn (low <=
   high), else 1 with what is wrong in why. */
int rl_point_out_of_range(const roofline_point *q, char *why, size_t n)
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
int rl_check(const rl_chart *ch, const roofline_point *pts, size_t npts, const char *path, char *err,
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
        if (rl_point_out_of_range(&pts[i], why, sizeof why)) {
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


/* The chart, as tools/common/files.h writes outputs; rl_check has passed it. */
int rl_write_chart(const char *out, const rl_chart *ch, const roofline_point *pts, size_t npts)
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
