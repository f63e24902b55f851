/* probes/numa_machine.c - the machine `probe --numa` measures: its NUMA
   nodes and clusters (hwloc, libnuma), the last-level caches, the node
   kinds (hwloc subtype, HMAT attributes, memory tiers) and where memkind's
   kinds allocate from each cluster. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "edan.h"
#include "numa_shared.h"
#include <hwloc.h>
#include <numa.h>
#include <numaif.h>
#include <memkind.h>
#include <sys/wait.h>
#include <unistd.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The machine                                                              */
/* ------------------------------------------------------------------------ */

int np_node_slot(const machine *m, int os)
{
    int i;
    for (i = 0; i < m->nnodes; i++)
        if (m->node_os[i] == os) return i;
    return -1;
}

int np_cluster_threads(const machine *m, int c)
{
    int i, k = 0;
    for (i = 0; i < m->npu; i++) k += m->pu_cluster[i] == c;
    return k;
}

void np_machine_free(machine *m)
{
    free(m->pu);
    free(m->pu_cluster);
    if (m->topo) hwloc_topology_destroy(m->topo);
}

/* Nodes and clusters: hwloc for the node list and cores, libnuma for which
   nodes have CPUs (hwloc gives CPU-less nodes their parent's cpuset). */
int np_machine_load(machine *m, char *err, size_t errlen)
{
    hwloc_obj_t o = NULL;
    int i, ncores;
    memset(m, 0, sizeof *m);
    m->page = (size_t)sysconf(_SC_PAGESIZE);
    if (hwloc_topology_init(&m->topo) != 0 || hwloc_topology_load(m->topo) != 0) {
        snprintf(err, errlen, "hwloc could not load the topology");
        return -1;
    }
    while ((o = hwloc_get_next_obj_by_type(m->topo, HWLOC_OBJ_NUMANODE, o)) != NULL) {
        if (m->nnodes == MAX_NODES) break;
        m->node_os[m->nnodes] = (int)o->os_index;
        m->node_obj[m->nnodes] = o;
        m->nnodes++;
    }
    if (m->nnodes == 0) {
        snprintf(err, errlen, "hwloc reports no NUMA node");
        return -1;
    }
    if (numa_available() >= 0) {
        struct bitmask *cpus = numa_allocate_cpumask();
        for (i = 0; i < m->nnodes && cpus; i++) {
            unsigned j;
            numa_bitmask_clearall(cpus);
            if (numa_node_to_cpus(m->node_os[i], cpus) == 0)
                for (j = 0; j < cpus->size; j++)
                    if (numa_bitmask_isbitset(cpus, j)) { m->has_cpus[i] = 1; break; }
        }
        if (cpus) numa_free_cpumask(cpus);
    } else if (m->nnodes == 1) {
        m->has_cpus[0] = 1;
    }
    for (i = 0; i < m->nnodes; i++)
        if (m->has_cpus[i]) m->cluster[m->ncluster++] = i;
    ncores = hwloc_get_nbobjs_by_type(m->topo, HWLOC_OBJ_CORE);
    if (ncores <= 0) ncores = hwloc_get_nbobjs_by_type(m->topo, HWLOC_OBJ_PU);
    m->pu = calloc((size_t)ncores + 1, sizeof *m->pu);
    m->pu_cluster = calloc((size_t)ncores + 1, sizeof *m->pu_cluster);
    if (!m->pu || !m->pu_cluster) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (i = 0; i < ncores; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(m->topo, HWLOC_OBJ_CORE, (unsigned)i);
        hwloc_obj_t pu;
        int node, slot, c;
        if (!core) core = hwloc_get_obj_by_type(m->topo, HWLOC_OBJ_PU, (unsigned)i);
        if (!core) continue;
        pu = core->type == HWLOC_OBJ_PU ? core
           : hwloc_get_next_obj_inside_cpuset_by_type(m->topo, core->cpuset, HWLOC_OBJ_PU, NULL);
        if (!pu) continue;
        node = numa_available() >= 0 ? numa_node_of_cpu((int)pu->os_index) : m->node_os[0];
        slot = np_node_slot(m, node);
        for (c = 0; c < m->ncluster; c++)
            if (m->cluster[c] == slot) break;
        if (c == m->ncluster) continue;
        m->pu[m->npu] = (int)pu->os_index;
        m->pu_cluster[m->npu] = c;
        m->npu++;
    }
    return 0;
}

/* Whether memory node slot n is local to cluster c: the cluster's own node,
   or a CPU-less node that hwloc attaches inside the cluster's cpuset (KNL's
   MCDRAM, HBM next to its socket). */
int np_node_is_local(const machine *m, int c, int n)
{
    int cs = m->cluster[c];
    if (n == cs) return 1;
    if (m->has_cpus[n]) return 0;
    return hwloc_bitmap_isincluded(m->node_obj[n]->cpuset, m->node_obj[cs]->cpuset) &&
           !hwloc_bitmap_isequal(m->node_obj[n]->cpuset, hwloc_topology_get_topology_cpuset(m->topo));
}

/* The last-level data caches: their total size and the largest one. */
void np_llc_sizes(const machine *m, unsigned long long *total, unsigned long long *largest)
{
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                             HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
    size_t t;
    *total = *largest = 0;
    for (t = 0; t < sizeof types / sizeof *types && *total == 0; t++) {
        hwloc_obj_t o = NULL;
        while ((o = hwloc_get_next_obj_by_type(m->topo, types[t], o)) != NULL) {
            *total += o->attr->cache.size;
            if (o->attr->cache.size > *largest) *largest = o->attr->cache.size;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Node kinds: hwloc subtype, HMAT attributes, memory tiers                 */
/* ------------------------------------------------------------------------ */
static const struct memattr_key {
    hwloc_memattr_id_t id;
    const char *key;
} memattr_keys[] = {
    {HWLOC_MEMATTR_ID_BANDWIDTH, "bandwidth_MiBps"},
    {HWLOC_MEMATTR_ID_READ_BANDWIDTH, "read_bandwidth_MiBps"},
    {HWLOC_MEMATTR_ID_WRITE_BANDWIDTH, "write_bandwidth_MiBps"},
    {HWLOC_MEMATTR_ID_LATENCY, "latency_ns"},
    {HWLOC_MEMATTR_ID_READ_LATENCY, "read_latency_ns"},
    {HWLOC_MEMATTR_ID_WRITE_LATENCY, "write_latency_ns"},
};
#define N_MEMATTR (sizeof memattr_keys / sizeof memattr_keys[0])

/* node n's HMAT attributes as seen from cluster c's cores: have[k] says
   whether memattr_keys[k] is known; returns how many are */
static int memattrs_of(const machine *m, int n, int c, hwloc_uint64_t *v, int *have)
{
    struct hwloc_location loc;
    size_t k;
    int known = 0;
    loc.type = HWLOC_LOCATION_TYPE_CPUSET;
    loc.location.cpuset = m->node_obj[m->cluster[c]]->cpuset;
    for (k = 0; k < N_MEMATTR; k++) {
        have[k] = hwloc_memattr_get_value(m->topo, memattr_keys[k].id, m->node_obj[n], &loc, 0, &v[k]) == 0;
        known += have[k];
    }
    return known;
}

/* The kernel's memory tier of a node (Linux >= 6.1), -1 when unknown. */
static int memory_tier(int node_os)
{
    char path[128], line[256];
    int t;
    for (t = 0; t < 64; t++) {
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/virtual/memory_tiering/memory_tier%d/nodelist", t);
        f = fopen(path, "r");
        if (!f) continue;
        if (fgets(line, sizeof line, f)) {
            /* a list like 0-1,3 */
            char *s = line;
            while (*s) {
                long a = strtol(s, &s, 10), z = a;
                if (*s == '-') z = strtol(s + 1, &s, 10);
                if (node_os >= a && node_os <= z) { fclose(f); return t; }
                if (*s != ',') break;
                s++;
            }
        }
        fclose(f);
    }
    return -1;
}

/* node n's HMAT attributes, one entry per cluster that has any */
static void json_hmat(jw *w, const machine *m, int n)
{
    int c;
    size_t k;
    jw_arr_as(w, "hmat", JW_INLINE);
    for (c = 0; c < m->ncluster; c++) {
        hwloc_uint64_t v[N_MEMATTR];
        int have[N_MEMATTR];
        if (!memattrs_of(m, n, c, v, have)) continue;
        jw_obj_as(w, NULL, JW_INLINE);
        jw_int(w, "cluster", m->node_os[m->cluster[c]]);
        for (k = 0; k < N_MEMATTR; k++)
            if (have[k]) jw_uint(w, memattr_keys[k].key, v[k]);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

void np_json_nodes(jw *w, const machine *m, const int *hbw_of_node)
{
    int n, c;
    jw_arr_as(w, "node_info", JW_WRAP);
    for (n = 0; n < m->nnodes; n++) {
        hwloc_obj_t o = m->node_obj[n];
        int tier = memory_tier(m->node_os[n]);
        jw_row(w);
        jw_obj_as(w, NULL, JW_INLINE);
        jw_int(w, "node", m->node_os[n]);
        jw_bool(w, "cpus", m->has_cpus[n]);
        jw_uint(w, "bytes", (unsigned long long)o->attr->numanode.local_memory);
        if (o->subtype) jw_str(w, "subtype", o->subtype);
        else jw_null(w, "subtype");
        if (tier >= 0) jw_int(w, "memory_tier", tier);
        else jw_null(w, "memory_tier");
        jw_bool(w, "memkind_hbw", hbw_of_node[n]);
        jw_arr_as(w, "local_to", JW_INLINE);
        for (c = 0; c < m->ncluster; c++)
            if (np_node_is_local(m, c, n)) jw_int(w, NULL, m->node_os[m->cluster[c]]);
        jw_end_arr(w);
        json_hmat(w, m, n);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

/* ------------------------------------------------------------------------ */
/* memkind: which node an allocation of a kind lands on, from each cluster  */
/* ------------------------------------------------------------------------ */
/* The allocation runs in a child process pinned to a core of cluster c:
   memkind keeps freed extents in its arenas, so a second allocation in one
   process could reuse pages that an earlier cluster's allocation placed.
   Returns the node of the first page (-1 if none) and marks every node
   used in used[]. */
int np_kind_node(const machine *m, memkind_t kind, int c, int *used)
{
    int fd[2], i, pu = -1, first = -1;
    pid_t pid;
    unsigned char got[MAX_NODES + 1];
    for (i = 0; i < m->npu; i++)
        if (m->pu_cluster[i] == c) { pu = m->pu[i]; break; }
    if (pu < 0 || pipe(fd) != 0) return -1;
    fflush(NULL);
    pid = fork();
    if (pid < 0) { close(fd[0]); close(fd[1]); return -1; }
    if (pid == 0) {
        hwloc_cpuset_t set = hwloc_bitmap_alloc();
        size_t len = 4 * 1024 * 1024, k;
        unsigned char res[MAX_NODES + 1];
        char *p;
        close(fd[0]);
        memset(res, 0, sizeof res);
        res[MAX_NODES] = 0xff;      /* first node: none */
        hwloc_bitmap_only(set, (unsigned)pu);
        hwloc_set_cpubind(m->topo, set, HWLOC_CPUBIND_PROCESS);
        hwloc_bitmap_free(set);
        p = memkind_malloc(kind, len);
        if (p) {
            memset(p, 1, len);
            for (k = 0; k < len; k += m->page) {
                void *addr = p + k;
                int st = -1, s;
                if (numa_move_pages(0, 1, &addr, NULL, &st, 0) != 0 || st < 0) continue;
                s = np_node_slot(m, st);
                if (s < 0) continue;
                res[s] = 1;
                if (res[MAX_NODES] == 0xff) res[MAX_NODES] = (unsigned char)s;
            }
        }
        if (write(fd[1], res, sizeof res) != (ssize_t)sizeof res) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], got, sizeof got) == (ssize_t)sizeof got) {
        for (i = 0; i < m->nnodes; i++) used[i] |= got[i];
        if (got[MAX_NODES] != 0xff && got[MAX_NODES] < m->nnodes) first = m->node_os[got[MAX_NODES]];
    }
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return first;
}
