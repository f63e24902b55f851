/* probes/topo.c - topology with hwloc (sysfs fills what hwloc lacks),
   thread binding, buffers backed by transparent huge pages. */
#include "probe.h"
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t sysfs_u64(const char *path, int *ok)
{
    FILE *f = fopen(path, "r");
    char buf[64];
    char *end;
    unsigned long long v;
    *ok = 0;
    if (!f) return 0;
    if (!fgets(buf, sizeof buf, f)) { fclose(f); return 0; }
    fclose(f);
    v = strtoull(buf, &end, 10);
    if (end == buf) return 0;
    if (*end == 'K') v <<= 10;
    else if (*end == 'M') v <<= 20;
    *ok = 1;
    return v;
}

/* sysfs: /sys/devices/system/cpu/cpu0/cache/indexN for the data/unified cache of `level`. */
static void sysfs_fill(probe_cache *c)
{
    int i, ok;
    char path[128], type[32];
    for (i = 0; i < 8; i++) {
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if ((int)sysfs_u64(path, &ok) != c->level || !ok) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        f = fopen(path, "r");
        if (!f) continue;
        if (!fgets(type, sizeof type, f)) type[0] = 0;
        fclose(f);
        if (!strncmp(type, "Instruction", 11)) continue;
        if (!c->size) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
            c->size = sysfs_u64(path, &ok);
            if (ok) c->source = "sysfs";
        }
        if (!c->line) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
            c->line = (unsigned)sysfs_u64(path, &ok);
        }
        if (!c->assoc && !c->fully_assoc) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/ways_of_associativity", i);
            c->assoc = (unsigned)sysfs_u64(path, &ok);
        }
    }
}

int probe_topo_init(probe_topo *t)
{
    hwloc_topology_t topo;
    int lvl, i, n;
    const char *model;
    memset(t, 0, sizeof *t);
    if (hwloc_topology_init(&topo) || hwloc_topology_load(topo)) return -1;
    t->hwloc = topo;
    t->packages = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    t->cores = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    t->pus = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    if (!t->cores) t->cores = t->pus;
    if (t->cores > PROBE_MAX_THREADS) t->cores = PROBE_MAX_THREADS;
    n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    t->numa_nodes = (unsigned)n;
    for (i = 0; i < n && i < 64; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
        t->numa_bytes[i] = o->attr ? o->attr->numanode.local_memory : 0;
    }
    for (i = 0; i < (int)t->cores; i++) {
        hwloc_obj_t c = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
        hwloc_obj_t pu = c ? hwloc_get_obj_inside_cpuset_by_type(topo, c->cpuset, HWLOC_OBJ_PU, 0)
                           : hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
        t->core_pu[i] = pu ? (int)pu->os_index : i;
    }
    model = NULL;
    {
        hwloc_obj_t pk = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
        if (pk) model = hwloc_obj_get_info_by_name(pk, "CPUModel");
    }
    snprintf(t->cpu_model, sizeof t->cpu_model, "%s", model ? model : "unknown");
    for (lvl = 1; lvl <= PROBE_MAX_CACHES; lvl++) {
        static const hwloc_obj_type_t types[4] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
                                                  HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE};
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, types[lvl - 1], 0);
        probe_cache c;
        memset(&c, 0, sizeof c);
        c.level = lvl;
        if (o && o->attr) {
            c.size = o->attr->cache.size;
            c.line = o->attr->cache.linesize;
            if (o->attr->cache.associativity == -1) c.fully_assoc = 1;
            else c.assoc = (unsigned)o->attr->cache.associativity;
            c.instances = (unsigned)hwloc_get_nbobjs_by_type(topo, types[lvl - 1]);
            c.sharing = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(topo, o->cpuset, HWLOC_OBJ_CORE);
            if (!c.sharing) c.sharing = 1;
            c.source = "hwloc";
        }
        sysfs_fill(&c);
        if (!c.size) continue;
        if (!c.line) c.line = 64;
        if (!c.sharing) c.sharing = 1;
        if (!c.instances) c.instances = 1;
        c.effective = c.size / c.sharing;
        c.effective_source = c.sharing > 1 ? "per-core share of the reported size" : "reported size";
        t->cache[t->ncaches++] = c;
    }
    return 0;
}

void probe_topo_free(probe_topo *t)
{
    if (t->hwloc) hwloc_topology_destroy((hwloc_topology_t)t->hwloc);
    t->hwloc = NULL;
}

int probe_bind_core(const probe_topo *t, int core)
{
    hwloc_topology_t topo = (hwloc_topology_t)t->hwloc;
    hwloc_obj_t pu;
    if (!topo) return -1;
    pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)t->core_pu[core % (int)t->cores]);
    if (!pu) return -1;
    return hwloc_set_cpubind(topo, pu->cpuset, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT) ? -1 : 0;
}

#define PROBE_HUGE (2u << 20)
void *probe_alloc(size_t bytes)
{
    size_t len = (bytes + PROBE_HUGE - 1) / PROBE_HUGE * PROBE_HUGE;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

void probe_free(void *p, size_t bytes)
{
    size_t len = (bytes + PROBE_HUGE - 1) / PROBE_HUGE * PROBE_HUGE;
    if (p) munmap(p, len);
}

/* Reads the smaps entry holding p: AnonHugePages > 0 means 2 MiB pages
   (at least partly), else the KernelPageSize. */
size_t probe_page_size(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[256];
    int inside = 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), huge = 0;
    uintptr_t a = (uintptr_t)p;
    if (!f) return page;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi, kb;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            if (inside) break;
            inside = a >= lo && a < hi;
            continue;
        }
        if (!inside) continue;
        if (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1 && kb > 0) huge = PROBE_HUGE;
        if (sscanf(line, "KernelPageSize: %lu kB", &kb) == 1) page = kb << 10;
    }
    fclose(f);
    return huge ? huge : page;
}
