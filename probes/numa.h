/* probes/numa.h - the NUMA / memory-kind probes (LARM roofs, hybrid model).
   probe's main calls probe_numa_section() for `--numa`; it returns the JSON
   value stored under the profile's "numa" key. */
#ifndef PROBE_NUMA_H
#define PROBE_NUMA_H
#include <stdio.h>

typedef struct probe_numa_args {
    int quick;              /* --quick: fewer repetitions, smaller sweeps */
    int verbose;            /* progress lines on stderr */
    double freq_ghz;        /* measured core clock, for cycles */
    char note[512];         /* set: what the section skipped and why, for the summary */
} probe_numa_args;

/* Returns a malloc'd JSON object text (never NULL unless out of memory).
   On a one-node machine it is {"skipped": true, "reason": "..."}. */
char *probe_numa_section(probe_numa_args *args);
#endif
