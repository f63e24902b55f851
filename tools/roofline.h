/* tools/roofline.h - `edan roofline PROFILE -o chart.svg`: the Cache-Aware
   (CARM) and Locality-Aware (LARM) roofline charts of a hardware profile
   written by `probe`, with applications and their hybrid fast/slow roofs. */
#ifndef EDAN_ROOFLINE_H
#define EDAN_ROOFLINE_H
#include <stddef.h>
#include <stdio.h>
#define EDAN_INTERNAL     /* the CLI reads JSON with the profile loader's reader */
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

int edan_cmd_roofline(int argc, char **argv);
#endif
