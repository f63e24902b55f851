/* tools/report/roofline.h - `edan roofline PROFILE -o chart.svg`: the Cache-Aware
   (CARM) and Locality-Aware (LARM) roofline charts of a hardware profile
   written by `probe`, with applications and their hybrid fast/slow roofs.
   The data flow: tools/cmd/roofline.c (the command: options, inputs, --app
   points) -> tools/report/roofline_roofs.c (an rl_chart's roofs from the profile)
   -> tools/report/roofline_svg.c (the rl_chart and points drawn as SVG). */
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
    double load_bytes;      /* requested bytes, for its hybrid roof; 0 = unknown */
    double store_bytes;
    int predicted;          /* from EDAN's time bounds (an --app without a runtime), not measured */
    int foreign;            /* predicted with another profile than the chart's (1) or with none (2) */
    char analysed_with[160];    /* foreign 1: the profile the report names */
} roofline_point;

#define RL_MAX_LINES 64
#define RL_MAX_POINTS 64
#define RL_MAX_ARGS 32      /* --app and --point: an --app with a runtime draws two points */
/* What a chart draws: roofs (GB/s, GFLOP/s), intensities (flop/byte) and
   performance from a billionth to a trillion. Beyond, its decades would
   not fit a page; infinity or a subnormal would have none. */
#define RL_MIN_VALUE 1e-9
#define RL_MAX_VALUE 1e12

static inline int rl_drawable(double v) { return v >= RL_MIN_VALUE && v <= RL_MAX_VALUE; }

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

/* One chart: its roofs and notes, as tools/report/roofline_roofs.c reads them
   from a profile and tools/report/roofline_svg.c draws them. */
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

/* The hybrid roofs asked for (--fast-fraction, --store-fraction). */
typedef struct rl_hybrid_req {
    double fast_fraction;   /* < 0: none */
    double store_fraction;  /* without applications; < 0: none */
} rl_hybrid_req;

int edan_cmd_roofline(int argc, char **argv);

/* tools/report/roofline_roofs.c: the roofs of a profile (CARM, LARM clusters,
   hybrid roofs) and the checks of a reference profile. The builders
   return 0, or -1 with `file:line: what` in err. */
int rl_str_is(const edan_json *v, const char *s);
int rl_build_carm(rl_chart *ch, const edan_json *root, const char *path, double threads, double peak,
                  char *err, size_t n);
const edan_json *rl_larm_roofs(const edan_json *root, const char *path, char *err, size_t n);
int rl_build_larm(rl_chart *ch, const edan_json *root, const char *path, int cluster, const char *mode,
                  const char *op, double peak, char *err, size_t n);
void rl_sort_lines(rl_chart *ch);
edan_result rl_hybrid_of(const edan_profile *p, const edan_json *root, int cluster, edan_hybrid_model *m,
                         char *err, size_t n);
int rl_add_hybrid(rl_chart *ch, const edan_profile *p, const edan_json *root, const char *path, int cluster,
                  const rl_hybrid_req *h, const roofline_point *pts, size_t npts, char *err, size_t n);
int rl_ref_check(const edan_json *root, const char *path, char *err, size_t errlen);

/* tools/report/roofline_svg.c: the checks before drawing, of a point (0, or 1
   with what is wrong in why) and of a chart (0, or -1 with `file:line:
   what` in err), and the chart drawn as SVG to a file written atomically
   (tools/common/files.h). */
int rl_point_out_of_range(const roofline_point *q, char *why, size_t n);
int rl_check(const rl_chart *ch, const roofline_point *pts, size_t npts, const char *path, char *err,
             size_t n);
int rl_write_chart(const char *out, const rl_chart *ch, const roofline_point *pts, size_t npts);
#endif
