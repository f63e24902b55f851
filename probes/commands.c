/* probes/commands.c - probe's stand-alone commands, which write no
   profile: --chase, --bench, --topology, --check FILE, --install FILE. */
#include "run.h"
#include "../tools/common/files.h"
#include "../tools/common/opt.h"
#include "edan.h"
#include <papi.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --chase BYTES: one pointer-chase latency over BYTES, "median min max" ns
   on stdout */
int bench_chase(const char *spec, const probe_opts *o, const probe_topo *topo)
{
    double vals[1024], t;
    probe_stats st;
    size_t line = topo->ncaches ? topo->cache[0].line : 64;
    long steps = 2000;
    uint64_t bytes;
    char *cb;
    int r;
    if (opt_u64(spec, line * 2, SIZE_MAX, &bytes)) {
        opt_err("probe", "--chase wants a size in bytes (at least two lines), not '%s'", spec);
        return 2;
    }
    cb = (char *)probe_alloc((size_t)bytes);
    if (!cb) {
        opt_err("probe", "cannot allocate %llu bytes", (unsigned long long)bytes);
        return 1;
    }
    memset(cb, 0, (size_t)bytes);
    probe_bind_core(topo, 0);
    probe_chase_build(cb, (size_t)bytes, line, 99, 0);
    t = probe_chase_run(cb, (size_t)bytes, line, 1, steps);
    steps = (long)(o->rep_seconds * 4 / (t / (double)steps > 1e-10 ? t / (double)steps : 1e-10));
    if (steps < 2000) steps = 2000;
    for (r = 0; r < o->min_reps; r++)
        vals[r] = probe_chase_run(cb, (size_t)bytes, line, 1, steps) / (double)steps * 1e9;
    probe_stats_of(vals, o->min_reps, &st);
    printf("%.3f %.3f %.3f\n", st.median, st.min, st.max);
    probe_free(cb, (size_t)bytes);
    return 0;
}

/* "OP,BYTES,THREADS" into op's name (at most 15 bytes), bytes (at least
   4096) and threads (at least 1): 0, or -1 when spec is not one */
static int bench_spec_read(const char *spec, char opname[16], uint64_t *bytes, int *threads)
{
    const char *c1 = strchr(spec, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
    char num[32];
    size_t len;
    uint64_t n;
    if (!c2 || c1 == spec || c1 - spec > 15 || (len = (size_t)(c2 - c1 - 1)) >= sizeof num) return -1;
    memcpy(opname, spec, (size_t)(c1 - spec));
    opname[c1 - spec] = 0;
    memcpy(num, c1 + 1, len);
    num[len] = 0;
    if (opt_u64(num, 4096, SIZE_MAX, bytes) || opt_u64(c2 + 1, 1, INT_MAX, &n)) return -1;
    *threads = (int)n;
    return 0;
}

/* --bench OP,BYTES,THREADS: one bandwidth kernel, for side-by-side runs
   with other tools: "median min max" GB/s on stdout */
int bench_bandwidth(const char *spec, const probe_opts *o, const probe_topo *topo)
{
    int threads, k, one_order = 0, reps[2], why[2], orders;
    uint64_t bytes;
    char opname[16];
    probe_stats st, ost[2];
    probe_opts oc = *o;
    probe_team *tm;
    if (bench_spec_read(spec, opname, &bytes, &threads)) {
        opt_err("probe", "--bench wants OP,BYTES,THREADS (e.g. load,24576,1), not '%s'", spec);
        return 2;
    }
    for (k = 0; k < PROBE_MEMOP_COUNT; k++)
        if (!strcmp(opname, probe_memop_name[k])) break;
    if (!strcmp(opname, "load_in_order")) k = PROBE_LOAD, one_order = 1;
    if (k == PROBE_MEMOP_COUNT) {
        opt_err("probe", "--bench: unknown op '%s' (load, load_in_order, load_last_first, store, store_nt, 2:1, 1:1)",
                opname);
        return 2;
    }
    tm = probe_team_create(topo, threads, (size_t)bytes);
    if (!tm) {
        opt_err("probe", "cannot create %d pinned threads with %llu bytes each", threads, (unsigned long long)bytes);
        return 1;
    }
    if (one_order) mem_measure(tm, probe_isa_best(), (probe_memop)k, (size_t)bytes, o, &st, &reps[0]);
    else
        st = ost[roof_measure(tm, probe_isa_best(), (probe_memop)k, (size_t)bytes, &oc, NULL, ost, reps, why, &orders)];
    printf("%.3f %.3f %.3f\n", st.median, st.min, st.max);
    probe_team_destroy(tm);
    return 0;
}

/* --topology [--profile FILE]: the machine, with the figures of FILE or of
   this machine's own profile */
int show_topology(const char *path)
{
    probe_topo topo;
    edan_profile *p = NULL;
    char own[4400], err[600], host[256];
    if (!path && files_own_profile_find(own, sizeof own) == 0) path = own;
    if (path && edan_profile_load(path, NULL, &p, err, sizeof err) != EDAN_OK) {
        opt_err("probe", "%s", err);
        return 2;
    }
    if (probe_topo_init(&topo)) {
        opt_err("probe", "hwloc could not load the topology");
        edan_profile_free(p);
        return 1;
    }
    probe_topo_print(stdout, &topo, p);
    files_host(host, sizeof host);
    if (p) {
        printf("figures: %s%s", path, path == own ? " (this machine's own profile)" : "");
        if (strcmp(p->host, host)) printf("; measured on %s, not on this machine (%s)", p->host, host);
        printf("\n");
    } else
        printf("figures: none, no profile of this machine yet (probe writes one; --profile FILE shows another's)\n");
    probe_topo_free(&topo);
    edan_profile_free(p);
    return stdout_status();
}

/* the ISA named s (probe_isa_name), or -1 */
static int isa_of(const char *s)
{
    int i;
    for (i = 0; s && i < PROBE_ISA_COUNT; i++)
        if (!strcmp(s, probe_isa_name[i])) return i;
    return -1;
}

/* A profile's compute entries checked (each at its "clock_ghz", or the
   profile's clock in profiles without it) into c[*n..max), and the
   profile's clock against one core's FLOP roof. */
static void check_profile_compute(const edan_profile *p, probe_check *c, int *n, int max)
{
    const edan_json *arr = edan_json_get(edan_profile_json(p), "compute");
    double roof = 0;
    int roof_isa = 0;
    size_t i;
    for (i = 0; i < edan_json_len(arr) && *n < max - 1; i++) {
        const edan_json *e = edan_json_at(arr, i);
        const edan_profile_compute *k = &p->compute[i];
        int isa = isa_of(k->isa);
        char what[64];
        if (isa < 0) continue;
        snprintf(what, sizeof what, "%s %s %u thread(s)", k->isa, k->op, (unsigned)k->threads);
        probe_check_flops(&c[(*n)++], isa, what, k->median, (int)k->threads,
                          edan_json_number(edan_json_get(e, "clock_ghz"), p->core_ghz));
        if (k->threads == 1 && k->median > roof) roof = k->median, roof_isa = isa;
    }
    if (roof > 0) probe_check_clock(&c[(*n)++], roof_isa, roof, p->core_ghz);
}

/* A profile's memory roofs (one core and all) and latencies checked in
   level order into c[*n..max). */
static void check_profile_levels(const edan_profile *p, probe_check *c, int *n, int max)
{
    static const char *const levels[] = {"L1", "L2", "L3", "L4", "DRAM"};
    const int nl = (int)(sizeof levels / sizeof levels[0]);
    int t, k, prev;
    size_t i;
    for (t = 0; t < (p->cores > 1 ? 2 : 1); t++) {
        uint32_t th = t ? p->cores : 1;
        for (k = 0, prev = -1; k < nl && *n < max; k++) {
            if (!(edan_profile_roof(p, levels[k], th) > 0)) continue;
            if (prev >= 0)
                probe_check_order(&c[(*n)++], PROBE_CHECK_ROOFS, levels[prev], edan_profile_roof(p, levels[prev], th),
                                  levels[k], edan_profile_roof(p, levels[k], th), (int)th);
            prev = k;
        }
    }
    {
        double ns[5] = {0};
        for (i = 0; i < p->num_latency; i++)
            for (k = 0; k < nl; k++)
                if (!strcmp(p->latency[i].level, levels[k])) ns[k] = p->latency[i].ns;
        for (k = 0, prev = -1; k < nl && *n < max; k++) {
            if (!(ns[k] > 0)) continue;
            if (prev >= 0) probe_check_order(&c[(*n)++], PROBE_CHECK_LATENCY, levels[prev], ns[prev], levels[k], ns[k], 1);
            prev = k;
        }
    }
}

/* --check FILE: a profile's figures against the machine's limits, the
   checks a run makes of its own (without re-measuring): the failed ones
   and a count on standard output; 1 when one failed, 2 when FILE does
   not load. */
int check_profile(const char *path)
{
    static probe_check c[CHECK_MAX];
    edan_profile *p = NULL;
    char err[600];
    int n = 0, failed = 0, i;
    if (edan_profile_load(path, NULL, &p, err, sizeof err) != EDAN_OK) {
        opt_err("probe", "%s", err);
        return 2;
    }
    check_profile_compute(p, c, &n, CHECK_MAX);
    check_profile_levels(p, c, &n, CHECK_MAX);
    for (i = 0; i < n; i++) failed += !c[i].passed;
    print_failed_checks(stdout, c, n, failed, 0);
    printf("probe --check %s: %d checks, %d failed", path, n, failed);
    if (p->num_checks)
        printf("; its run recorded %u, %u failed", (unsigned)p->num_checks, (unsigned)p->checks_failed);
    printf("\n");
    edan_profile_free(p);
    i = stdout_status();
    return i ? i : failed ? 1 : 0;
}

/* path with %h the host's name (a profile per node: srun -N K probe -o
   profiles/%h.json) and %% a %; kept for the run (NULL: out of memory, the
   path as given). */
const char *probe_host_path(const char *path)
{
    char host[256], *out;
    if (!strchr(path, '%')) return path;
    files_host(host, sizeof host);
    out = files_expand(path, -1, host);
    return out ? out : path;
}


/* --install FILE: FILE, a profile of this host, becomes its own profile
   (copied atomically where edan looks first) unless it has one. */
int install_profile(const char *path)
{
    edan_profile *p = NULL;
    char own[4400], err[600], host[256];
    char *text;
    size_t len;
    files_out t;
    int other;
    /* read once: the bytes installed are the bytes checked */
    if (!(text = files_read_all(path, (size_t)1 << 26, &len, err, sizeof err))) {
        opt_err("probe", "--install %s", err);
        return 2;
    }
    if (edan_profile_parse(text, len, path, NULL, &p, err, sizeof err) != EDAN_OK) {
        opt_err("probe", "--install %s", err);
        free(text);
        return 2;
    }
    files_host(host, sizeof host);
    other = strcmp(p->host, host) != 0;
    if (other)
        opt_err("probe", "--install %s: measured on %s, not on this machine (%s): not installed", path, p->host,
                host);
    edan_profile_free(p);
    if (other) {
        free(text);
        return 2;
    }
    if (files_own_profile_find(own, sizeof own) == 0) {
        printf("this machine's own profile is %s already; %s not installed (probe -o %s measures it anew)\n", own,
               path, own);
        free(text);
        return stdout_status();
    }
    if (files_own_profile_home(own, sizeof own)) {
        opt_err("probe", "--install %s: no home directory to install it in ($HOME, $XDG_DATA_HOME unset)", path);
        free(text);
        return 2;
    }
    if (files_out_open(&t, own, err, sizeof err)) {
        opt_err("probe", "--install: cannot write %s", err);
        free(text);
        return 2;
    }
    fwrite(text, 1, len, t.f);
    free(text);
    if (files_out_close(&t, err, sizeof err)) {
        opt_err("probe", "--install: %s", err);
        return 2;
    }
    printf("installed %s as this machine's own profile: %s (edan uses it without --profile)\n", path, own);
    return stdout_status();
}
