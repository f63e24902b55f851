/* tools/chart.h - what every SVG chart of the project draws with: XML text,
   the width of a label, a text element, the ticks of a log axis, the line
   palette (10 colours, 6 dash patterns) and the marker shapes that, with
   the colours, tell up to 30 lines apart. Header only (static inline), for `edan plot` and
   `edan roofline`. */
#ifndef EDAN_CHART_H
#define EDAN_CHART_H
#include <stdio.h>
#include <string.h>

static const char *const chart_colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
static const char *const chart_dashes[] = {"", "7,4", "2,3", "9,3,2,3", "14,4", "5,2,1,2,1,2"};
#define CHART_NCOLORS (sizeof chart_colors / sizeof chart_colors[0])
#define CHART_NDASHES (sizeof chart_dashes / sizeof chart_dashes[0])
#define CHART_NMARKERS 6

/* s as XML character data or attribute value; control bytes (which XML
   does not allow) as spaces. */
static inline void chart_xml(FILE *o, const char *s)
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

/* Width of a text in pixels, roughly (sans-serif at `size` px). */
static inline double chart_text_width(const char *s, double size)
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

/* A text element; rot in degrees about (x, y), 0 for none. */
static inline void chart_text(FILE *o, double x, double y, const char *anchor, double size, const char *color,
                              double rot, const char *text)
{
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"", x, y, size, anchor,
            color);
    if (rot != 0) fprintf(o, " transform=\"rotate(%.2f %.1f %.1f)\"", rot, x, y);
    fputc('>', o);
    chart_xml(o, text);
    fputs("</text>\n", o);
}

/* The ticks of a log axis from 10^lo to 10^hi (whole exponents), every
   `step` decades, with 2 and 5 between powers of ten when with_2_5: tick i
   is mant[i] x 10^decade[i], in increasing order, at most max of them. */
static inline int chart_log_ticks(int lo, int hi, int step, int with_2_5, int *decade, int *mant, int max)
{
    int e, n = 0, k;
    static const int m[3] = {1, 2, 5};
    for (e = lo; e <= hi && n < max; e += step)
        for (k = 0; k < (with_2_5 && e < hi ? 3 : 1) && n < max; k++) {
            decade[n] = e;
            mant[n++] = m[k];
        }
    return n;
}

/* A marker of shape k (circle, square, triangle, diamond, triangle down,
   cross) at (x, y): with more lines than colours, colour and marker
   together tell every line apart (30 pairs). */
static inline void chart_marker(FILE *o, int k, double x, double y, const char *col)
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
#endif
