/* tools/chart.h - the one SVG chart engine of the project, for `edan plot`
   and `edan roofline`: the document and its titles, linear and log axes
   (an honest zero on a log axis: the bottom edge says 0), their ticks,
   grid and labels, the frame, legend entries, the line palette (10
   colours, 6 dash patterns) and the marker shapes that, with the colours,
   tell up to 30 lines apart, text widths (labels that do not overlap) and
   XML text. A chart is drawn in this order: chart_begin, chart_axes, the
   data (clipped by chart_clip), chart_frame, legend, chart_end. */
#ifndef EDAN_CHART_H
#define EDAN_CHART_H
#include <stddef.h>
#include <stdio.h>

extern const char *const chart_colors[10];
extern const char *const chart_dashes[6];
#define CHART_NCOLORS 10
#define CHART_NDASHES 6
#define CHART_NMARKERS 6
#define CHART_MAX_TICKS 64

/* An axis: the values at its two ends and their pixels. On a log axis lo
   and hi are exponents of ten, and zero (or less) sits on the lo edge. A
   linear axis also carries its tick step and how its labels are written
   (chart_fit_linear). */
typedef struct chart_axis {
    int log;
    double lo, hi;
    double p0, p1;
    double step;            /* linear: between ticks */
    double scale;           /* linear: 1, 1e3, 1e6 ... for the labels */
    const char *prefix;     /* linear: "", "k", "M" ... */
    int decimals;           /* linear: in the labels */
} chart_axis;

/* A tick: its value and label; a minor one (2 and 5 between the powers of
   ten of a log axis) gets a lighter grid line and a smaller label. */
typedef struct chart_tick {
    double v;
    int minor;
    char label[40];
} chart_tick;

/* The pixel of value v on axis a. */
double chart_pos(const chart_axis *a, double v);

/* A linear axis over at least [lo, hi] (finite) in round steps (1, 2, 2.5,
   5 x 10^k), about `want` of them, spanning at least a millionth of the
   largest value or of 1; si: labels with k/M/G from 10000 on (2: from 1000
   on, 0: never). Pixels are left as they are. */
void chart_fit_linear(chart_axis *a, double lo, double hi, int want, int si);
/* The ticks of a linear axis, every step from lo to hi: "20k", "1.5 kB",
   "2x" (unit "\xc3\x97" follows the number), 0 as "0". */
size_t chart_ticks_linear(const chart_axis *a, const char *unit, chart_tick *t, size_t max);
/* The ticks of a log axis at its powers of ten, every `step` decades, with
   2 and 5 between them when with_2_5; zero_at_lo: the lo edge is labelled
   0 (the data has zeros) and has nothing between it and the next decade.
   Labels with SI prefixes and the unit ("20 kB"), or plain numbers
   ("0.1", "2000") when unit is NULL. None for an axis beyond 1e-300 to
   1e300. */
size_t chart_ticks_log10(const chart_axis *a, int step, int with_2_5, int zero_at_lo, const char *unit,
                         chart_tick *t, size_t max);
/* The ticks of a log axis at the powers of two inside it, as "1/4", "1",
   "16": intensities, whose ridges fall on them. None for an axis beyond
   1e-300 to 1e300. */
size_t chart_ticks_log2(const chart_axis *a, chart_tick *t, size_t max);

/* The XML prologue, the <svg> element (W x H px), a white background, the
   title (bold, shrunk to fit) centred at x = cx, and a subtitle under it
   when not NULL. */
void chart_begin(FILE *o, int W, int H, double cx, const char *title, const char *subtitle);
/* Grid lines, tick marks and labels of both axes, and the axis titles. */
void chart_axes(FILE *o, const chart_axis *x, const chart_axis *y, const chart_tick *xt, size_t nx,
                const chart_tick *yt, size_t ny, const char *xtitle, const char *ytitle);
/* A clip path named id, the plot area (pad px more above and below). */
void chart_clip(FILE *o, const chart_axis *x, const chart_axis *y, const char *id, double pad);
/* The plot area's outline, drawn over the data. */
void chart_frame(FILE *o, const chart_axis *x, const chart_axis *y);
/* A legend entry: a 24 px stretch of the line (colour, dash, marker shape
   or -1) from (x, y) and the label after it, shortened with "..." to fit
   max_w px (0: any width). */
void chart_legend_entry(FILE *o, double x, double y, const char *color, const char *dash, int marker,
                        const char *label, double max_w);
void chart_end(FILE *o);

/* s as XML character data or attribute value; control bytes (which XML
   does not allow) as spaces. */
void chart_xml(FILE *o, const char *s);
/* Width of a text in pixels, roughly (sans-serif at `size` px). */
double chart_text_width(const char *s, double size);
/* A text element; rot in degrees about (x, y), 0 for none. */
void chart_text(FILE *o, double x, double y, const char *anchor, double size, const char *color, double rot,
                const char *text);
/* A marker of shape k (circle, square, triangle, diamond, triangle down,
   cross) at (x, y). */
void chart_marker(FILE *o, int k, double x, double y, const char *col);
/* The stroke-dasharray attribute of a dash pattern ("" for none). */
void chart_dash_attr(FILE *o, const char *dash);
#endif
