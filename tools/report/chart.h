/* tools/report/chart.h - the one SVG chart engine of the project, for `edan plot`
   and `edan roofline`: the document and its titles, linear and log axes
   (an honest zero on a log axis: the bottom edge says 0), their ticks,
   grid and labels, the frame, legend entries, the line palette (10
   colours, 6 dash patterns) and the marker shapes that, with the colours,
   tell up to 30 lines apart, text widths (labels that do not overlap) and
   XML text. A chart is drawn in this order: chart_begin, chart_axes, the
   data (clipped by chart_clip), chart_frame, legend, chart_end.

   Every text and every marker carries data-bbox="x0 y0 x1 y1": the box it
   takes in its own coordinates (a text's transform, a rotation about its
   anchor, turns it), from the advance widths of DejaVu Sans, the charts'
   first font, and its tallest and deepest glyphs, so that a test can
   check that no two overlap and that the rendered glyphs stay inside. A
   chart_layout keeps the boxes taken so far, so that labels are placed
   where they cover no other label and no marker. */
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

/* A plot's two axes, and the pixel of a value on each. */
typedef struct chart_plane {
    chart_axis x, y;
} chart_plane;
double chart_x(const chart_plane *p, double v);
double chart_y(const chart_plane *p, double v);

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
   or -1) from (x, y) and the label after it (12 px), shortened with "..."
   to fit max_w px (0: any width). */
void chart_legend_entry(FILE *o, double x, double y, const char *color, const char *dash, int marker,
                        const char *label, double max_w);
void chart_end(FILE *o);

/* s as XML character data or attribute value; control bytes (which XML
   does not allow) as spaces. */
void chart_xml(FILE *o, const char *s);
/* Width of a text in pixels: the sum of its characters' advances in DejaVu
   Sans (bold or not) at `size` px, a whole em for a character it does not
   know (kerning only narrows a text). */
double chart_text_width(const char *s, double size);
double chart_text_width_bold(const char *s, double size);

/* A box: the rectangle x0..x1, y0..y1 (y down), turned by rot degrees
   about (ox, oy). */
typedef struct chart_box {
    double x0, y0, x1, y1, rot, ox, oy;
} chart_box;
/* The box of a text at (x, y), anchor "start", "middle" or "end", rotated
   by rot degrees about (x, y): its advance and 0.06 em either side, 0.82 em
   above the baseline and 0.26 em under it (DejaVu Sans's glyphs reach 0.80
   and 0.24). */
chart_box chart_text_box(double x, double y, const char *anchor, double size, int bold, double rot, const char *text);
/* An upright box, and one around a marker of chart_marker at (x, y). */
chart_box chart_box_of(double x0, double y0, double x1, double y1);
chart_box chart_marker_box(double x, double y);
/* 1 when the boxes share more than a line (rotated ones too). */
int chart_boxes_overlap(const chart_box *a, const chart_box *b);
/* 1 when the box lies wholly inside the upright rectangle. */
int chart_box_within(const chart_box *b, double x0, double y0, double x1, double y1);
/* 1 when the segment from (x0, y0) to (x1, y1) crosses the box. */
int chart_segment_hits(const chart_box *b, double x0, double y0, double x1, double y1);
/* The data-bbox attribute of a box (its rectangle; a rotation is the
   element's own transform). */
void chart_bbox_attr(FILE *o, const chart_box *b);

/* The boxes taken on a chart so far: labels, markers, legends. */
typedef struct chart_layout {
    chart_box *box;
    size_t n, cap;
} chart_layout;
/* Takes b (an allocation failure leaves it out: a later label may cover it). */
void chart_layout_take(chart_layout *l, const chart_box *b);
/* 1 when b overlaps no box taken. */
int chart_layout_free(const chart_layout *l, const chart_box *b);
/* 1 when the segment crosses no box taken but those of index skip_lo to
   skip_hi - 1 (a leader line's own point). */
int chart_layout_segment_free(const chart_layout *l, size_t skip_lo, size_t skip_hi, double x0, double y0, double x1,
                              double y1);
/* The box of a line's stroke from (x0, y0) to (x1, y1), w px wide. */
chart_box chart_segment_box(double x0, double y0, double x1, double y1, double w);
void chart_layout_release(chart_layout *l);

/* A text element with its data-bbox; rot in degrees about (x, y), 0 for
   none. chart_text_halo: with a white outline under the glyphs, for a
   label that may lie on a line. */
void chart_text(FILE *o, double x, double y, const char *anchor, double size, const char *color, double rot,
                const char *text);
void chart_text_halo(FILE *o, double x, double y, const char *anchor, double size, const char *color, double rot,
                     const char *text);
/* Lines of at most max_w px at `size` px: text cut at spaces into up to
   `max` lines of `each` bytes; returns the number of lines. */
size_t chart_wrap(const char *text, double size, double max_w, char *lines, size_t each, size_t max);
/* A marker of shape k (circle, square, triangle, diamond, triangle down,
   cross) at (x, y), with its data-bbox. */
void chart_marker(FILE *o, int k, double x, double y, const char *col);
/* The stroke-dasharray attribute of a dash pattern ("" for none). */
void chart_dash_attr(FILE *o, const char *dash);
#endif
