/* tools/chart.c - the SVG chart engine (tools/chart.h says what it draws). */
#include "chart.h"
#include <math.h>
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

double chart_text_width(const char *s, double size)
{
    double w = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c & 0xc0) == 0x80) continue;
        w += (c == 'i' || c == 'l' || c == '.' || c == ',' || c == ':' || c == ' ' || c == '|') ? 0.3
             : (c >= 'A' && c <= 'Z') || c == 'm' || c == 'w' ? 0.72
                                                                : 0.56;
    }
    return w * size;
}

void chart_text(FILE *o, double x, double y, const char *anchor, double size, const char *color, double rot,
                const char *text)
{
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"", x, y, size, anchor,
            color);
    if (rot != 0) fprintf(o, " transform=\"rotate(%.2f %.1f %.1f)\"", rot, x, y);
    fputc('>', o);
    chart_xml(o, text);
    fputs("</text>\n", o);
}

void chart_marker(FILE *o, int k, double x, double y, const char *col)
{
    const double r = 3.6;
    switch (k % CHART_NMARKERS) {
    case 0: fprintf(o, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" fill=\"%s\"/>", x, y, r, col); break;
    case 1: fprintf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>", x - r, y - r, 2 * r, 2 * r, col); break;
    case 2: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\"/>", x, y - r * 1.2, x + r * 1.1, y + r * 0.8,
                    x - r * 1.1, y + r * 0.8, col); break;
    case 3: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\"/>", x, y - r * 1.3, x + r * 1.3, y,
                    x, y + r * 1.3, x - r * 1.3, y, col); break;
    case 4: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\"/>", x, y + r * 1.2, x + r * 1.1, y - r * 0.8,
                    x - r * 1.1, y - r * 0.8, col); break;
    default: fprintf(o, "<path d=\"M%.2f %.2fL%.2f %.2fM%.2f %.2fL%.2f %.2f\" stroke=\"%s\" stroke-width=\"2\"/>", x - r, y - r,
                     x + r, y + r, x - r, y + r, x + r, y - r, col); break;
    }
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
    double room = 2 * (cx < W - cx ? cx : W - cx) - 20, fs;
    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n", W, H, W, H);
    fprintf(o, "<title>");
    chart_xml(o, title);
    fprintf(o, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    /* titles shrink to fit the width */
    fs = chart_text_width(title, 17) * 1.2 > room ? 17 * room / (chart_text_width(title, 17) * 1.2) : 17;
    fprintf(o, "<text x=\"%.1f\" y=\"26\" font-size=\"%.1f\" font-weight=\"bold\" text-anchor=\"middle\">", cx, fs);
    chart_xml(o, title);
    fprintf(o, "</text>\n");
    if (subtitle) {
        fs = chart_text_width(subtitle, 12) > room ? 12 * room / chart_text_width(subtitle, 12) : 12;
        fprintf(o, "<text x=\"%.1f\" y=\"46\" font-size=\"%.1f\" fill=\"#444\" text-anchor=\"middle\">", cx, fs);
        chart_xml(o, subtitle);
        fprintf(o, "</text>\n");
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
    fprintf(o, "</g>\n<g class=\"yticks\" font-size=\"12\" text-anchor=\"end\">\n");
    for (i = 0; i < ny; i++) {
        double py = chart_pos(y, yt[i].v);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"black\"/>", left - (yt[i].minor ? 3 : 5),
                py, left, py);
        fprintf(o, "<text x=\"%.1f\" y=\"%.2f\"%s>", left - 8, py + 4, yt[i].minor ? " font-size=\"10\" fill=\"#777\"" : "");
        chart_xml(o, yt[i].label);
        fprintf(o, "</text>\n");
    }
    fprintf(o, "</g>\n<g class=\"xticks\" font-size=\"12\" text-anchor=\"middle\">\n");
    for (i = 0; i < nx; i++) {
        double px = chart_pos(x, xt[i].v);
        fprintf(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>", px, bottom, px,
                bottom + (xt[i].minor ? 3 : 5));
        fprintf(o, "<text x=\"%.2f\" y=\"%.1f\"%s>", px, bottom + 19, xt[i].minor ? " font-size=\"10\" fill=\"#777\"" : "");
        chart_xml(o, xt[i].label);
        fprintf(o, "</text>\n");
    }
    fprintf(o, "</g>\n");
    fprintf(o, "<text class=\"xtitle\" x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">", (left + right) / 2,
            bottom + 42);
    chart_xml(o, xtitle);
    fprintf(o, "</text>\n<text class=\"ytitle\" x=\"0\" y=\"0\" font-size=\"13\" text-anchor=\"middle\" "
               "transform=\"translate(18,%.1f) rotate(-90)\">", (top + bottom) / 2);
    chart_xml(o, ytitle);
    fprintf(o, "</text>\n");
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
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\">", x + 30, y + 4);
    if (max_w > 0 && chart_text_width(label, 12) > max_w + 0.5) {
        char sh[320];
        size_t n = strlen(label);
        snprintf(sh, sizeof sh, "%s", label);
        if (n >= sizeof sh) n = sizeof sh - 1;
        while (n > 4 && chart_text_width(sh, 12) > max_w - 12) sh[--n] = 0;
        chart_xml(o, sh);
        fputs("...", o);
    } else {
        chart_xml(o, label);
    }
    fprintf(o, "</text>\n");
}

void chart_end(FILE *o) { fputs("</svg>\n", o); }
