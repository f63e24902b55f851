/* tools/report/chart.c - the SVG chart engine (tools/report/chart.h says what it draws). */
#include "chart.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const chart_colors[10] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
const char *const chart_dashes[6] = {"", "7,4", "2,3", "9,3,2,3", "14,4", "5,2,1,2,1,2"};

/* ---- text ---------------------------------------------------------------- */
void chart_xml(FILE *o, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&') fputs("&amp;", o);
        else if (c == '<') fputs("&lt;", o);
        else if (c == '>') fputs("&gt;", o);
        else if (c == '"') fputs("&quot;", o);
        else if (c < 0x20 && c != '\t') fputc(' ', o);
        else fputc(c, o);
    }
}

/* The advance widths of DejaVu Sans and DejaVu Sans Bold, in thousandths
   of an em, of the printable ASCII characters (from the fonts' hmtx). */
static const short chart_adv[2][95] = {
   {318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
    1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
    500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
    635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838},
   {348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
    696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
    1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
    733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
    500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
    716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838}};

static double chart_width_of(const char *s, double size, int bold)
{
    double w = 0;
    while (*s) {
        unsigned char c = (unsigned char)*s++;
        if (c >= 0x20 && c < 0x7f) {
            w += chart_adv[bold][c - 0x20];
        } else if (c < 0x80) {
            w += chart_adv[bold][0];        /* a control byte: written as a space */
        } else {
            /* a UTF-8 sequence: its code point's width where the charts use
               it (middle dot, multiplication sign, tau), else an em */
            unsigned long cp = c & (c >= 0xf0 ? 0x07 : c >= 0xe0 ? 0x0f : 0x1f);
            while ((*s & 0xc0) == 0x80) cp = cp << 6 | ((unsigned char)*s++ & 0x3f);
            w += cp == 0xb7 ? chart_adv[bold][0] : cp == 0xd7 ? 838 : cp == 0x3c4 ? 640 : 1000;
        }
    }
    return w / 1000 * size;
}

double chart_text_width(const char *s, double size) { return chart_width_of(s, size, 0); }
double chart_text_width_bold(const char *s, double size) { return chart_width_of(s, size, 1); }

/* ---- boxes ---------------------------------------------------------------- */
chart_box chart_box_of(double x0, double y0, double x1, double y1)
{
    chart_box b;
    b.x0 = x0;
    b.y0 = y0;
    b.x1 = x1;
    b.y1 = y1;
    b.rot = b.ox = b.oy = 0;
    return b;
}

chart_box chart_text_box(double x, double y, const char *anchor, double size, int bold, double rot, const char *text)
{
    double w = chart_width_of(text, size, bold), x0 = !strcmp(anchor, "end") ? x - w : !strcmp(anchor, "middle") ? x - w / 2 : x;
    chart_box b = chart_box_of(x0 - 0.06 * size, y - 0.82 * size, x0 + w + 0.06 * size, y + 0.26 * size);
    b.rot = rot;
    b.ox = x;
    b.oy = y;
    return b;
}

/* A marker's shapes reach 1.3 r from its centre, the cross 1 px more. */
chart_box chart_marker_box(double x, double y) { return chart_box_of(x - 5.7, y - 5.7, x + 5.7, y + 5.7); }

/* The corners of a box in the chart's pixels, in order around it. */
static void chart_corners(const chart_box *b, double *p)
{
    double c = cos(b->rot * 3.14159265358979 / 180), s = sin(b->rot * 3.14159265358979 / 180);
    double xs[4] = {b->x0, b->x1, b->x1, b->x0}, ys[4] = {b->y0, b->y0, b->y1, b->y1};
    int k;
    for (k = 0; k < 4; k++) {
        double dx = xs[k] - b->ox, dy = ys[k] - b->oy;
        p[2 * k] = b->rot != 0 ? b->ox + c * dx - s * dy : xs[k];
        p[2 * k + 1] = b->rot != 0 ? b->oy + s * dx + c * dy : ys[k];
    }
}

/* 1 when the convex point sets p (np points) and q (nq) are apart along a
   normal of one of their edges (separating axes), by at least 0.01 px. */
static int chart_apart(const double *p, int np, const double *q, int nq)
{
    int pass, k, j;
    for (pass = 0; pass < 2; pass++) {
        const double *e = pass ? q : p;
        int ne = pass ? nq : np;
        for (k = 0; k < (ne == 2 ? 1 : ne); k++) {
            int k2 = (k + 1) % ne;
            double nx = e[2 * k + 1] - e[2 * k2 + 1], ny = e[2 * k2] - e[2 * k], len = sqrt(nx * nx + ny * ny);
            double pmin = 1e300, pmax = -1e300, qmin = 1e300, qmax = -1e300;
            if (len <= 0) continue;
            for (j = 0; j < np; j++) {
                double v = (p[2 * j] * nx + p[2 * j + 1] * ny) / len;
                if (v < pmin) pmin = v;
                if (v > pmax) pmax = v;
            }
            for (j = 0; j < nq; j++) {
                double v = (q[2 * j] * nx + q[2 * j + 1] * ny) / len;
                if (v < qmin) qmin = v;
                if (v > qmax) qmax = v;
            }
            if (pmax <= qmin + 0.01 || qmax <= pmin + 0.01) return 1;
        }
    }
    return 0;
}

int chart_boxes_overlap(const chart_box *a, const chart_box *b)
{
    double p[8], q[8];
    if (a->rot == 0 && b->rot == 0)
        return a->x0 < b->x1 - 0.01 && b->x0 < a->x1 - 0.01 && a->y0 < b->y1 - 0.01 && b->y0 < a->y1 - 0.01;
    chart_corners(a, p);
    chart_corners(b, q);
    return !chart_apart(p, 4, q, 4);
}

int chart_box_within(const chart_box *b, double x0, double y0, double x1, double y1)
{
    double p[8];
    int k;
    chart_corners(b, p);
    for (k = 0; k < 4; k++)
        if (p[2 * k] < x0 || p[2 * k] > x1 || p[2 * k + 1] < y0 || p[2 * k + 1] > y1) return 0;
    return 1;
}

int chart_segment_hits(const chart_box *b, double x0, double y0, double x1, double y1)
{
    double p[8], q[4];
    q[0] = x0;
    q[1] = y0;
    q[2] = x1;
    q[3] = y1;
    chart_corners(b, p);
    return !chart_apart(p, 4, q, 2);
}

void chart_bbox_attr(FILE *o, const chart_box *b)
{
    fprintf(o, " data-bbox=\"%.1f %.1f %.1f %.1f\"", floor(b->x0 * 10) / 10, floor(b->y0 * 10) / 10,
            ceil(b->x1 * 10) / 10, ceil(b->y1 * 10) / 10);
}

void chart_layout_take(chart_layout *l, const chart_box *b)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        chart_box *nb = (chart_box *)realloc(l->box, nc * sizeof *nb);
        if (!nb) return;
        l->box = nb;
        l->cap = nc;
    }
    l->box[l->n++] = *b;
}

int chart_layout_free(const chart_layout *l, const chart_box *b)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (chart_boxes_overlap(&l->box[i], b)) return 0;
    return 1;
}

int chart_layout_segment_free(const chart_layout *l, size_t skip_lo, size_t skip_hi, double x0, double y0, double x1,
                              double y1)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if ((i < skip_lo || i >= skip_hi) && chart_segment_hits(&l->box[i], x0, y0, x1, y1)) return 0;
    return 1;
}

chart_box chart_segment_box(double x0, double y0, double x1, double y1, double w)
{
    chart_box b = chart_box_of(x0, y0 - w / 2, x0 + sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)), y0 + w / 2);
    b.rot = atan2(y1 - y0, x1 - x0) * 180 / 3.14159265358979;
    b.ox = x0;
    b.oy = y0;
    return b;
}

void chart_layout_release(chart_layout *l)
{
    free(l->box);
    l->box = NULL;
    l->n = l->cap = 0;
}

/* ---- text ----------------------------------------------------------------- */
static void chart_text_full(FILE *o, double x, double y, const char *anchor, double size, int bold, const char *color,
                            double rot, int halo, const char *text)
{
    chart_box b = chart_text_box(x, y, anchor, size, bold, rot, text);
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"", x, y, size, anchor,
            color);
    if (bold) fputs(" font-weight=\"bold\"", o);
    if (halo) fputs(" stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"", o);
    if (rot != 0) fprintf(o, " transform=\"rotate(%.2f %.1f %.1f)\"", rot, x, y);
    chart_bbox_attr(o, &b);
    fputc('>', o);
    chart_xml(o, text);
    fputs("</text>\n", o);
}

void chart_text(FILE *o, double x, double y, const char *anchor, double size, const char *color, double rot,
                const char *text)
{
    chart_text_full(o, x, y, anchor, size, 0, color, rot, 0, text);
}

void chart_text_halo(FILE *o, double x, double y, const char *anchor, double size, const char *color, double rot,
                     const char *text)
{
    chart_text_full(o, x, y, anchor, size, 0, color, rot, 1, text);
}

size_t chart_wrap(const char *text, double size, double max_w, char *lines, size_t each, size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (*p == ' ') p++;
    while (*p && n < max) {
        char *line = lines + n * each;
        const char *end = p;
        size_t fit = 0;         /* the bytes of p that fit: whole words, at least one */
        for (;;) {
            while (*end && *end != ' ') end++;
            if ((size_t)(end - p) >= each) break;
            memcpy(line, p, (size_t)(end - p));
            line[end - p] = 0;
            if (fit && chart_text_width(line, size) > max_w) break;
            fit = (size_t)(end - p);
            if (!*end) break;
            end++;
        }
        if (!fit) fit = strlen(p) < each - 1 ? strlen(p) : each - 1;     /* a word longer than a line */
        memcpy(line, p, fit);
        line[fit] = 0;
        p += fit;
        while (*p == ' ') p++;
        n++;
    }
    return n;
}

void chart_marker(FILE *o, int k, double x, double y, const char *col)
{
    const double r = 3.6;
    chart_box b = chart_marker_box(x, y);
    switch (k % CHART_NMARKERS) {
    case 0: fprintf(o, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" fill=\"%s\"", x, y, r, col); break;
    case 1: fprintf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x - r, y - r, 2 * r, 2 * r, col); break;
    case 2: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\"", x, y - r * 1.2, x + r * 1.1, y + r * 0.8,
                    x - r * 1.1, y + r * 0.8, col); break;
    case 3: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\"", x, y - r * 1.3, x + r * 1.3, y,
                    x, y + r * 1.3, x - r * 1.3, y, col); break;
    case 4: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\"", x, y + r * 1.2, x + r * 1.1, y - r * 0.8,
                    x - r * 1.1, y - r * 0.8, col); break;
    default: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fM%.2f %.2fL%.2f %.2f\" stroke=\"%s\" stroke-width=\"2\"", x - r, y - r,
                     x + r, y + r, x - r, y + r, x + r, y - r, col); break;
    }
    chart_bbox_attr(o, &b);
    fputs("/>", o);
}

void chart_dash_attr(FILE *o, const char *dash)
{
    if (dash && *dash) fprintf(o, " stroke-dasharray=\"%s\"", dash);
}

/* ---- axes ---------------------------------------------------------------- */
/* The decades of a log axis with ticks: a double's, and no more, so that a
   decade or a power of two becomes an int only when it fits one. */
#define CHART_MAX_DECADE 300.0

double chart_pos(const chart_axis *a, double v)
{
    double r;
    if (!a->log) return a->p0 + (v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
    r = v > 0 ? (log10(v) - a->lo) / (a->hi - a->lo) : 0;
    if (r < 0) r = 0;       /* zero, and anything under the axis, on its edge */
    return a->p0 + r * (a->p1 - a->p0);
}

double chart_x(const chart_plane *p, double v) { return chart_pos(&p->x, v); }
double chart_y(const chart_plane *p, double v) { return chart_pos(&p->y, v); }

/* A round step (1, 2, 2.5 or 5 x 10^k) that cuts `range` into about `want` pieces. */
static double chart_nice_step(double range, int want)
{
    double raw = range / want, p = pow(10.0, floor(log10(raw))), f = raw / p;
    if (f <= 1.0) return p;
    if (f <= 2.0) return 2 * p;
    if (f <= 2.5) return 2.5 * p;
    if (f <= 5.0) return 5 * p;
    return 10 * p;
}

void chart_fit_linear(chart_axis *a, double lo, double hi, int want, int si)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P"};
    double top, min_span;
    int i = 0;
    a->log = 0;
    if (!(hi > lo)) hi = lo + 1;
    /* a span of a millionth of the largest value (or of 1) at the least:
       a narrower one (between subnormals, or + 1 at 1e19, which rounds to
       nothing) has no step its tick labels tell apart, or a zero one */
    top = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
    min_span = 1e-6 * (top > 1 ? top : 1);
    if (hi - lo < min_span) hi = lo + min_span;
    a->step = chart_nice_step(hi - lo, want);
    a->lo = floor(lo / a->step) * a->step;
    a->hi = ceil(hi / a->step - 1e-9) * a->step;
    if (a->hi <= a->lo) a->hi = a->lo + a->step;
    top = fabs(a->hi) > fabs(a->lo) ? fabs(a->hi) : fabs(a->lo);
    a->scale = 1;
    if (si && top >= (si == 2 ? 1000 : 10000))
        for (i = 0; i < 5 && top / a->scale >= 1000; i++) a->scale *= 1000;
    a->prefix = pre[i];
    a->decimals = 0;
    while (a->decimals < 6 && fabs(a->step / a->scale * pow(10, a->decimals) -
                                   floor(a->step / a->scale * pow(10, a->decimals) + 0.5)) > 1e-6)
        a->decimals++;
}

size_t chart_ticks_linear(const chart_axis *a, const char *unit, chart_tick *t, size_t max)
{
    static const char times[] = "\xc3\x97";
    size_t n = 0;
    double v;
    for (v = a->lo; v <= a->hi + a->step * 1e-6 && n < max; v += a->step, n++) {
        double s = v / a->scale;
        t[n].v = v;
        t[n].minor = 0;
        if (fabs(s) < 1e-12) snprintf(t[n].label, sizeof t[n].label, "0%s", strcmp(unit, times) ? "" : unit);
        else if (!*unit) snprintf(t[n].label, sizeof t[n].label, "%.*f%s", a->decimals, s, a->prefix);
        else if (!strcmp(unit, times)) snprintf(t[n].label, sizeof t[n].label, "%.*f%s", a->decimals, s, unit);
        else snprintf(t[n].label, sizeof t[n].label, "%.*f %s%s", a->decimals, s, a->prefix, unit);
    }
    return n;
}

/* mant x 10^e with an SI prefix: 1 B, 20 kB, 500 M. */
static void chart_si_label(int e, int mant, const char *unit, char *buf, size_t n)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    int p = 0;
    if (e < 0) {
        snprintf(buf, n, "%g%s%s", mant * pow(10, e), *unit ? " " : "", unit);
        return;
    }
    while (e >= 3 && p < 6) {
        e -= 3;
        p++;
    }
    snprintf(buf, n, "%.0f%s%s%s", mant * pow(10, e), *unit ? " " : "", pre[p], unit);
}

size_t chart_ticks_log10(const chart_axis *a, int step, int with_2_5, int zero_at_lo, const char *unit,
                         chart_tick *t, size_t max)
{
    static const int mant[3] = {1, 2, 5};
    int lo, hi, e, k;
    size_t n = 0;
    if (!(a->lo >= -CHART_MAX_DECADE && a->hi <= CHART_MAX_DECADE)) return 0;
    lo = (int)floor(a->lo + 0.5);
    hi = (int)floor(a->hi + 0.5);
    for (e = lo; e <= hi && n < max; e += step)
        for (k = 0; k < (with_2_5 && e < hi ? 3 : 1) && n < max; k++) {
            if (zero_at_lo && e == lo) {
                if (k) continue;    /* nothing between zero and the first decade */
                t[n].v = 0;
                t[n].minor = 0;
                snprintf(t[n++].label, sizeof t[0].label, "0");
                continue;
            }
            t[n].v = mant[k] * pow(10, e);
            t[n].minor = k != 0;
            if (unit) chart_si_label(e, mant[k], unit, t[n].label, sizeof t[n].label);
            else snprintf(t[n].label, sizeof t[n].label, "%g", t[n].v);
            n++;
        }
    return n;
}

size_t chart_ticks_log2(const chart_axis *a, chart_tick *t, size_t max)
{
    double vlo, vhi;
    size_t n = 0;
    int e, elo, ehi, step;
    if (!(a->lo >= -CHART_MAX_DECADE && a->hi <= CHART_MAX_DECADE) || !max) return 0;
    vlo = pow(10, a->lo);
    vhi = pow(10, a->hi);
    elo = (int)floor(log2(vlo));
    ehi = (int)ceil(log2(vhi));
    step = (ehi - elo) / (int)max + 1;     /* more powers than ticks: every step-th, over the whole axis */
    for (e = elo; e <= ehi && n < max; e += step) {
        double v = pow(2, e);
        if (v < vlo * 0.999 || v > vhi * 1.001) continue;
        t[n].v = v;
        t[n].minor = 0;
        if (v >= 1) snprintf(t[n].label, sizeof t[n].label, "%g", v);
        else snprintf(t[n].label, sizeof t[n].label, "1/%g", 1 / v);
        n++;
    }
    return n;
}

/* ---- the document -------------------------------------------------------- */
void chart_begin(FILE *o, int W, int H, double cx, const char *title, const char *subtitle)
{
    double room = 2 * (cx < W - cx ? cx : W - cx) - 20, fs, w;
    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n", W, H, W, H);
    fprintf(o, "<title>");
    chart_xml(o, title);
    fprintf(o, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    /* titles shrink to fit the width */
    w = chart_text_width_bold(title, 17);
    fs = w > room ? 17 * room / w : 17;
    chart_text_full(o, cx, 26, "middle", fs, 1, "black", 0, 0, title);
    if (subtitle) {
        w = chart_text_width(subtitle, 12);
        fs = w > room ? 12 * room / w : 12;
        chart_text(o, cx, 46, "middle", fs, "#444", 0, subtitle);
    }
}

/* The tick labels of one axis, each skipped that would overlap the one
   before it (minor labels of a dense log axis). */
static void chart_tick_labels(FILE *o, const chart_axis *a, const chart_tick *t, size_t n, int vertical, double at)
{
    chart_box prev;
    size_t i;
    int any = 0;
    for (i = 0; i < n; i++) {
        double p = chart_pos(a, t[i].v), size = t[i].minor ? 10 : 12;
        double x = vertical ? at : p, y = vertical ? p + 4 : at;
        const char *anchor = vertical ? "end" : "middle";
        chart_box b = chart_text_box(x, y, anchor, size, 0, 0, t[i].label);
        if (any && chart_boxes_overlap(&prev, &b)) continue;
        chart_text(o, x, y, anchor, size, t[i].minor ? "#777" : "black", 0, t[i].label);
        prev = b;
        any = 1;
    }
}

void chart_axes(FILE *o, const chart_axis *x, const chart_axis *y, const chart_tick *xt, size_t nx,
                const chart_tick *yt, size_t ny, const char *xtitle, const char *ytitle)
{
    size_t i;
    int minors = 0;
    double left = x->p0, right = x->p1, bottom = y->p0, top = y->p1;
    for (i = 0; i < nx; i++) minors |= xt[i].minor;
    for (i = 0; i < ny; i++) minors |= yt[i].minor;
    /* grid: with minor ticks, the major lines a shade darker */
    fprintf(o, "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n");
    for (i = 0; i < ny; i++)
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\"%s/>\n", left, chart_pos(y, yt[i].v), right,
                chart_pos(y, yt[i].v), minors && !yt[i].minor ? " stroke=\"#c8c8c8\"" : "");
    for (i = 0; i < nx; i++)
        fprintf(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"%s/>\n", chart_pos(x, xt[i].v), top,
                chart_pos(x, xt[i].v), bottom, minors && !xt[i].minor ? " stroke=\"#c8c8c8\"" : "");
    fprintf(o, "</g>\n<g class=\"yticks\">\n");
    for (i = 0; i < ny; i++) {
        double py = chart_pos(y, yt[i].v);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"black\"/>\n",
                left - (yt[i].minor ? 3 : 5), py, left, py);
    }
    chart_tick_labels(o, y, yt, ny, 1, left - 8);
    fprintf(o, "</g>\n<g class=\"xticks\">\n");
    for (i = 0; i < nx; i++) {
        double px = chart_pos(x, xt[i].v);
        fprintf(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n", px, bottom, px,
                bottom + (xt[i].minor ? 3 : 5));
    }
    chart_tick_labels(o, x, xt, nx, 0, bottom + 19);
    fprintf(o, "</g>\n");
    chart_text(o, (left + right) / 2, bottom + 42, "middle", 13, "black", 0, xtitle);
    chart_text(o, 18, (top + bottom) / 2, "middle", 13, "black", -90, ytitle);
}

void chart_clip(FILE *o, const chart_axis *x, const chart_axis *y, const char *id, double pad)
{
    fprintf(o, "<clipPath id=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>\n", id,
            x->p0, y->p1 - pad, x->p1 - x->p0, y->p0 - y->p1 + 2 * pad);
}

void chart_frame(FILE *o, const chart_axis *x, const chart_axis *y)
{
    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n", x->p0,
            y->p1, x->p1 - x->p0, y->p0 - y->p1);
}

void chart_legend_entry(FILE *o, double x, double y, const char *color, const char *dash, int marker,
                        const char *label, double max_w)
{
    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"", x, y, x + 24, y,
            color);
    chart_dash_attr(o, dash);
    fputs("/>", o);
    if (marker >= 0) chart_marker(o, marker, x + 12, y, color);
    if (max_w > 0 && chart_text_width(label, 12) > max_w + 0.5) {
        char sh[320];
        size_t n = strlen(label);
        if (n > sizeof sh - 4) n = sizeof sh - 4;
        memcpy(sh, label, n);
        sh[n] = 0;
        /* shorter by whole characters (not into a UTF-8 sequence) until it fits with "..." */
        while (n > 4 && (chart_text_width(sh, 12) > max_w - chart_text_width("...", 12) ||
                         ((unsigned char)label[n] & 0xc0) == 0x80)) sh[--n] = 0;
        memcpy(sh + n, "...", 4);
        chart_text(o, x + 30, y + 4, "start", 12, "black", 0, sh);
    } else {
        chart_text(o, x + 30, y + 4, "start", 12, "black", 0, label);
    }
}

void chart_end(FILE *o) { fputs("</svg>\n", o); }
