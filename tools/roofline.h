/* tools/roofline.h - `edan roofline PROFILE -o chart.svg`: the Cache-Aware
   Roofline Model (CARM) chart of a hardware profile written by `probe`. */
#ifndef EDAN_ROOFLINE_H
#define EDAN_ROOFLINE_H
#include <stddef.h>
#include <stdio.h>
#include "edan.h"

/* An application placed on the chart: its arithmetic intensity (flop per
   byte of loads and stores) and its performance, one value (lo == hi) or
   a range (for instance the lower and upper bounds of an analysis). */
typedef struct roofline_point {
    const char *label;
    double ai;              /* flop/byte, > 0 */
    double gflops_lo;       /* GFLOP/s, > 0 */
    double gflops_hi;       /* >= gflops_lo */
} roofline_point;

typedef struct roofline_opts {
    uint32_t threads;       /* the roofs of this many threads; 0 = 1 */
    const char *title;      /* NULL = "CARM: <host>, <n> thread(s)" */
    int width, height;      /* pixels; 0 = 880 x 620 */
} roofline_opts;

/* Writes the SVG chart. Returns 0, or -1 with a message in err when the
   profile has no roofs for o->threads or a point is invalid. */
int roofline_svg(FILE *out, const edan_profile *p, const roofline_opts *o, const roofline_point *pts,
                 size_t npts, char *err, size_t errlen);

int edan_cmd_roofline(int argc, char **argv);
#endif
