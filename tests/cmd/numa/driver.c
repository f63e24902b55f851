/* tests/cmd/numa/driver.c - runs probe_numa_section() alone and prints its JSON
   between marker lines, for the emulated NUMA machines (whose initramfs
   holds no full probe) and for a one-node run on the host. */
#include "probes/numa.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    probe_numa_args a;
    char *json;
    int i;
    memset(&a, 0, sizeof a);
    a.verbose = 1;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) a.quick = 1;
        else if (strcmp(argv[i], "--silent") == 0) a.verbose = 0;
        else {
            fprintf(stderr, "usage: %s [--quick] [--silent]\n", argv[0]);
            return 2;
        }
    }
    json = probe_numa_section(&a);
    if (!json) {
        fprintf(stderr, "numa-driver: out of memory\n");
        return 1;
    }
    printf("@@EDAN-NUMA-BEGIN\n%s\n@@EDAN-NUMA-END\n", json);
    if (a.note[0]) printf("@@EDAN-NUMA-NOTE\n%s\n", a.note);   /* what probe's summary says */
    fflush(stdout);
    free(json);
    return 0;
}
