/* probes/numa.c - `probe --numa`: NUMA and memory-kind probes.
   First version: counts the NUMA nodes with hwloc and records why the
   multi-node roofs are skipped on a one-node machine. */
#include "numa.h"
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

char *probe_numa_section(const probe_numa_args *args)
{
    hwloc_topology_t topo;
    int nodes = 1;
    char *out;
    (void)args;
    if (hwloc_topology_init(&topo) == 0) {
        if (hwloc_topology_load(topo) == 0) {
            int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
            if (n > 0) nodes = n;
        }
        hwloc_topology_destroy(topo);
    }
    out = malloc(512);
    if (!out) return NULL;
    if (nodes < 2)
        snprintf(out, 512,
                 "{\"skipped\": true, \"reason\": \"the machine has one NUMA node\", "
                 "\"nodes\": 1, \"needs\": [\"remote\", \"contended\", \"congested\", \"hybrid\"]}");
    else
        snprintf(out, 512,
                 "{\"skipped\": true, \"reason\": \"multi-node probes not yet implemented\", "
                 "\"nodes\": %d, \"needs\": []}", nodes);
    return out;
}
