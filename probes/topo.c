/* probes/topo.c - topology with hwloc (sysfs fills what hwloc lacks),
   thread binding, buffers backed by transparent huge pages. */
#include "probe.h"
#include "edan.h"
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

/* ---- probe --topology: the machine as hwloc-ls draws it, with the
   profile's measured figures beside the objects they describe ---------- */

static const edan_profile_cache *topo_cache_of(const edan_profile *p, int level)
{
    char name[8];
    uint32_t i;
    snprintf(name, sizeof name, "L%d", level);
    for (i = 0; p && i < p->num_caches; i++)
        if (!strcmp(p->cache[i].level, name)) return &p->cache[i];
    return NULL;
}

/* "L2 L#0 (1024KB)", "PU L#1 (P#1)", "NUMANode L#0 (P#0 17GB)" */
static void topo_obj_name(char *b, size_t n, hwloc_obj_t o)
{
    char type[64], attr[256] = "", os[32] = "";
    hwloc_obj_type_snprintf(type, sizeof type, o, 0);
    hwloc_obj_attr_snprintf(attr, sizeof attr, o, " ", 0);
    if ((o->type == HWLOC_OBJ_PU || o->type == HWLOC_OBJ_NUMANODE) && o->os_index != (unsigned)-1)
        snprintf(os, sizeof os, "P#%u%s", o->os_index, attr[0] ? " " : "");
    snprintf(b, n, "%s L#%u%s%s%s%s", type, o->logical_index, os[0] || attr[0] ? " (" : "", os, attr,
             os[0] || attr[0] ? ")" : "");
}

/* the figures of o's kind, on the first object of that kind */
static void topo_obj_figures(char *b, size_t n, hwloc_obj_t o, const edan_profile *p)
{
    double one, all;
    size_t len = strlen(b);
    if (!p || o->logical_index != 0) return;
    if (hwloc_obj_type_is_dcache(o->type) && o->attr) {
        int level = (int)o->attr->cache.depth;
        const edan_profile_cache *c = topo_cache_of(p, level);
        char name[8];
        snprintf(name, sizeof name, "L%d", level);
        if (!c) return;
        one = edan_profile_bandwidth_of(p, name, "load", 1);
        all = edan_profile_bandwidth_of(p, name, "load", p->cores);
        snprintf(b + len, n - len, "%s%s: %.1f ns (%.0f cycles), load %.1f GB/s one core, %.1f all", len ? "\n" : "",
                 name, c->latency_ns, c->latency_cycles, one, all);
    } else if (o->type == HWLOC_OBJ_NUMANODE) {
        one = edan_profile_bandwidth_of(p, "DRAM", "load", 1);
        all = edan_profile_bandwidth_of(p, "DRAM", "load", p->cores);
        snprintf(b + len, n - len, "%sDRAM: %.1f ns (alpha %.0f cycles), load %.1f GB/s one core, %.1f all; m %u",
                 len ? "\n" : "", p->dram_latency_ns, p->dram_latency_cycles, one, all, p->mlp_m);
    }
}

/* a cache or a core with one child and no memory is drawn on one line with
   it, joined by " + " (as hwloc-ls does) */
static int topo_joins(hwloc_obj_t o)
{
    return o->arity == 1 && !o->memory_arity && (hwloc_obj_type_is_cache(o->type) || o->type == HWLOC_OBJ_CORE) &&
           !o->first_child->memory_arity;
}

static void topo_print_obj(FILE *f, hwloc_obj_t o, int depth, const edan_profile *p)
{
    char line[2048] = "", figs[1024] = "";
    hwloc_obj_t cur = o, c;
    for (;;) {
        size_t len = strlen(line);
        if (len) snprintf(line + len, sizeof line - len, " + ");
        len = strlen(line);
        topo_obj_name(line + len, sizeof line - len, cur);
        topo_obj_figures(figs, sizeof figs, cur, p);
        if (!topo_joins(cur)) break;
        cur = cur->first_child;
    }
    fprintf(f, "%*s%s\n", 2 * depth, "", line);
    if (figs[0]) {      /* one measured level a line, under the object */
        char *q = figs, *nl;
        for (;;) {
            nl = strchr(q, '\n');
            if (nl) *nl = 0;
            fprintf(f, "%*s  | %s\n", 2 * depth, "", q);
            if (!nl) break;
            q = nl + 1;
        }
    }
    for (c = cur->memory_first_child; c; c = c->next_sibling) topo_print_obj(f, c, depth + 1, p);
    for (c = cur->first_child; c; c = c->next_sibling) topo_print_obj(f, c, depth + 1, p);
}

void probe_topo_print(FILE *f, const probe_topo *t, const edan_profile *p)
{
    hwloc_topology_t topo = (hwloc_topology_t)t->hwloc;
    hwloc_obj_t root = hwloc_get_root_obj(topo), c;
    char total[64];
    snprintf(total, sizeof total, "%.1f GiB total", (double)root->total_memory / (double)(1u << 30));
    fprintf(f, "Machine (%s): %s, %u package(s), %u cores, %u PUs\n", total, t->cpu_model, t->packages, t->cores,
            t->pus);
    if (p)
        fprintf(f, "  measured: core clock %.2f GHz, peak %.1f GFLOP/s one core, %.1f all cores\n", p->core_ghz,
                p->peak_GFLOPs_1core, p->peak_GFLOPs_all);
    for (c = root->memory_first_child; c; c = c->next_sibling) topo_print_obj(f, c, 1, p);
    for (c = root->first_child; c; c = c->next_sibling) topo_print_obj(f, c, 1, p);
}
