/* tools/report/roofline_roofs.c - the roofs of a roofline chart, read from a
   hardware profile's JSON: the compute roofs and the memory levels' roofs
   of a CARM chart, the cluster roofs of a LARM chart (the memory roofs
   `probe --numa` measured: local, remote, contended, congested), the
   hybrid roofs (Eq. 5) of an application's loads and stores with a
   fraction F of its data in the fast memory, and the checks of a
   reference profile transcribed from a paper. */
#define _POSIX_C_SOURCE 200809L
#include "roofline.h"
#include "../common/opt.h"
#include "chart.h"
#include <string.h>

/* ---- the profile ------------------------------------------------------- */

static double stat_median(const edan_json *v)
{
    if (edan_json_kind(v) == EDAN_JSON_NUMBER) return edan_json_number(v, 0);
    return edan_json_number(edan_json_get(v, "median"), 0);
}

int rl_str_is(const edan_json *v, const char *s)
{
    const char *t = edan_json_string(v, NULL);
    return t && !strcmp(t, s);
}

/* The best median of `value` over the entries of list `name` at `threads`
   whose key[k] is want[k] (want NULL: any); *best_entry: that entry. */
static double best_median(const edan_json *root, const char *name, const char *value, double threads,
                          const char *const key[2], const char *const want[2], const edan_json **best_entry)
{
    const edan_json *list = edan_json_get(root, name);
    double best = 0;
    size_t i;
    int k;
    for (i = 0; i < edan_json_len(list); i++) {
        const edan_json *e = edan_json_at(list, i);
        double g = stat_median(edan_json_get(e, value));
        int match = edan_json_number(edan_json_get(e, "threads"), 0) == threads;
        for (k = 0; k < 2 && match; k++) match = !key[k] || !want[k] || rl_str_is(edan_json_get(e, key[k]), want[k]);
        if (match && g > best) {
            best = g;
            if (best_entry) *best_entry = e;
        }
    }
    return best;
}

/* Best median of bandwidth[] entries of `level` at `threads` (any op);
   *line (when not NULL): where it is in the profile. */
static double dom_bandwidth(const edan_json *root, const char *level, double threads, unsigned long *line)
{
    const char *const key[2] = {"level", NULL}, *const want[2] = {level, NULL};
    const edan_json *e = NULL;
    double best = best_median(root, "bandwidth", "GBps", threads, key, want, &e);
    if (line) *line = edan_json_line(edan_json_get(e, "GBps"));
    return best;
}

/* Best compute median of (isa, op) at `threads`; isa NULL = any ISA;
   *which: its ISA; *line: where it is in the profile. */
static double dom_compute(const edan_json *root, const char *isa, const char *op, double threads, const char **which,
                          unsigned long *line)
{
    const char *const key[2] = {"op", "isa"}, *const want[2] = {op, isa};
    const edan_json *e = NULL;
    double best = best_median(root, "compute", "GFLOPs", threads, key, want, &e);
    if (which && e) *which = edan_json_string(edan_json_get(e, "isa"), "?");
    *line = edan_json_line(edan_json_get(e, "GFLOPs"));
    return best;
}

/* What a chart is of: the profile's host, or its machine's name (a
   reference profile's); without either, its file's name and the CPU model
   it gives. "(none)" (the kernel's name of a host without one, as in an
   emulated machine), "localhost" and "unknown-host" (probe's when the host
   has no name) name nothing. */
static void host_of(const edan_json *root, const char *path, char *buf, size_t n)
{
    const char *h = edan_json_string(edan_json_get(root, "host"), NULL), *s;
    const char *cpu = edan_json_string(edan_json_get(edan_json_get(root, "topology"), "cpu_model"), NULL);
    if (h && *h && strcmp(h, "(none)") && strcmp(h, "localhost") && strcmp(h, "unknown-host")) {
        snprintf(buf, n, "%.150s", h);
        return;
    }
    h = edan_json_string(edan_json_get(edan_json_get(root, "machine"), "name"), NULL);
    if (h && *h) {
        snprintf(buf, n, "%.150s", h);
        return;
    }
    s = strrchr(path, '/');
    if (cpu && *cpu) snprintf(buf, n, "%.70s (%.75s)", s ? s + 1 : path, cpu);
    else snprintf(buf, n, "%.150s", s ? s + 1 : path);
}

/* The compute roofs at `threads`: measured at that count, else one core's
   times threads (compute scales with cores), said so in the label. */
static void add_compute(rl_chart *ch, const edan_json *root, double threads, double given_peak)
{
    const char *isa = "", *add_isa = "";
    double scale = 1, peak, add, scalar;
    unsigned long peak_line, add_line, scalar_line;
    char note[40] = "";
    if (given_peak > 0) {
        snprintf(ch->comp[0].label, sizeof ch->comp[0].label, "peak (--peak)");
        ch->comp[0].gflops = given_peak;
        ch->ncomp = 1;
        return;
    }
    peak = dom_compute(root, NULL, "fma", threads, &isa, &peak_line);
    if (!(peak > 0) && threads != 1) {
        scale = threads;
        snprintf(note, sizeof note, " (1 core x %g)", threads);
        peak = dom_compute(root, NULL, "fma", 1, &isa, &peak_line);
    }
    if (!(peak > 0)) return;
    add = dom_compute(root, isa, "add", scale == 1 ? threads : 1, &add_isa, &add_line);
    scalar = dom_compute(root, "scalar", "fma", scale == 1 ? threads : 1, NULL, &scalar_line);
    ch->ncomp = 0;
    snprintf(ch->comp[ch->ncomp].label, sizeof ch->comp[0].label, "%s FMA%s", isa, note);
    ch->comp[ch->ncomp].line = peak_line;
    ch->comp[ch->ncomp++].gflops = peak * scale;
    if (add > 0 && add * scale < peak * scale * 0.98) {
        snprintf(ch->comp[ch->ncomp].label, sizeof ch->comp[0].label, "%s ADD%s", add_isa, note);
        ch->comp[ch->ncomp].line = add_line;
        ch->comp[ch->ncomp++].gflops = add * scale;
    }
    if (scalar > 0 && strcmp(isa, "scalar")) {
        snprintf(ch->comp[ch->ncomp].label, sizeof ch->comp[0].label, "scalar FMA%s", note);
        ch->comp[ch->ncomp].line = scalar_line;
        ch->comp[ch->ncomp++].gflops = scalar * scale;
    }
}

/* A roof of gbps (none when not positive: the profile has no such entry)
   from the profile's line `line` (0: computed here). */
static rl_line *new_line(rl_chart *ch, const char *kind, double gbps, unsigned long line, const char *color,
                         const char *dash)
{
    rl_line *l;
    if (ch->nline >= RL_MAX_LINES || !(gbps > 0)) return NULL;
    l = &ch->line[ch->nline++];
    memset(l, 0, sizeof *l);
    snprintf(l->kind, sizeof l->kind, "%s", kind);
    l->gbps = gbps;
    l->line = line;
    l->color = color;
    l->dash = dash;
    return l;
}

static const char *const level_name[4] = {"L1", "L2", "L3", "DRAM"};
/* from chart_colors: blue, green, orange, red */
static const int level_color[4] = {0, 2, 1, 3};
/* in a LARM chart the caches step aside for the memory roofs' colours */
static const int larm_level_color[3] = {9, 2, 8};

/* The thread counts bandwidth[] has, as text: "1, 2". */
static void bandwidth_threads(const edan_json *root, char *buf, size_t n, double *smallest)
{
    const edan_json *list = edan_json_get(root, "bandwidth");
    double seen[32];
    size_t i, ns = 0, k, len = 0;
    *smallest = 0;
    buf[0] = 0;
    for (i = 0; i < edan_json_len(list); i++) {
        double t = edan_json_number(edan_json_get(edan_json_at(list, i), "threads"), 0);
        for (k = 0; k < ns && seen[k] != t; k++) {}
        if (k < ns || ns == 32 || !(t > 0)) continue;
        seen[ns++] = t;
        if (*smallest == 0 || t < *smallest) *smallest = t;
        if (len < n) len += (size_t)snprintf(buf + len, n - len, "%s%g", ns > 1 ? ", " : "", t);
    }
}

/* What probe's checks of the profile's figures found ("checks"; the
   unstable figures of "stability"), under the chart: the failed checks
   with their figures; nothing for a profile with neither. With warn, a
   failed check is also said on stderr. */
static void checks_note(rl_chart *ch, const edan_json *root, const char *path, int warn)
{
    const edan_json *res = edan_json_get(edan_json_get(root, "checks"), "results");
    size_t i, n = edan_json_len(res), failed = 0, len = 0, cap = sizeof ch->checks_note, said = 0;
    size_t unstable = edan_json_len(edan_json_get(edan_json_get(root, "stability"), "unstable"));
    char *t = ch->checks_note;
    t[0] = 0;
    for (i = 0; i < n; i++) failed += !edan_json_bool(edan_json_get(edan_json_at(res, i), "passed"), 1);
    if (!n && !unstable) return;
    if (n) len = (size_t)snprintf(t, cap, "probe's checks: %u of %u failed", (unsigned)failed, (unsigned)n);
    else len = (size_t)snprintf(t, cap, "probe's checks: none recorded");
    for (i = 0; i < n && len < cap; i++) {
        const edan_json *e = edan_json_at(res, i);
        if (edan_json_bool(edan_json_get(e, "passed"), 1)) continue;
        len += (size_t)snprintf(t + len, cap - len, "%s %s %s (%.4g > %.4g)", said++ ? ";" : ":",
                                edan_json_string(edan_json_get(e, "check"), "?"),
                                edan_json_string(edan_json_get(e, "figure"), "?"),
                                edan_json_number(edan_json_get(e, "value"), 0),
                                edan_json_number(edan_json_get(e, "limit"), 0));
    }
    if (len < cap && unstable)
        len += (size_t)snprintf(t + len, cap - len, "; %u figures unstable", (unsigned)unstable);
    if (len < cap) snprintf(t + len, cap - len, " (probe --check %s)", path);
    if (failed && warn)
        opt_ferr(NULL, path, 0, "warning: %u of %u of the profile's checks against the machine's limits failed: the "
                 "chart says which", (unsigned)failed, (unsigned)n);
}

int rl_build_carm(rl_chart *ch, const edan_json *root, const char *path, double threads, double peak,
               char *err, size_t n)
{
    char host[160];
    char counts[200];
    double smallest;
    int k;
    bandwidth_threads(root, counts, sizeof counts, &smallest);
    if (threads == 0) {
        threads = smallest;
        if (dom_bandwidth(root, "DRAM", 1, NULL) > 0 || dom_bandwidth(root, "L1", 1, NULL) > 0) threads = 1;
    }
    memset(ch, 0, sizeof *ch);
    for (k = 0; k < 4; k++) {
        unsigned long line;
        double g = dom_bandwidth(root, level_name[k], threads, &line);
        rl_line *l = new_line(ch, level_name[k], g, line, chart_colors[level_color[k]], "");
        if (l) snprintf(l->label, sizeof l->label, "%s", level_name[k]);
    }
    if (ch->nline == 0) {
        if (counts[0])
            snprintf(err, n, "%s: no bandwidth roofs for %g thread(s); the profile has them for %s thread(s)", path,
                     threads, counts);
        else snprintf(err, n, "%s: the profile has no CARM bandwidth roofs (bandwidth[] is empty)%s", path,
                      edan_json_len(edan_json_get(edan_json_get(root, "numa"), "roofs"))
                          ? "; it has LARM roofs: use --larm or --cluster N" : "");
        return -1;
    }
    add_compute(ch, root, threads, peak);
    host_of(root, path, host, sizeof host);
    snprintf(ch->title, sizeof ch->title, "Cache-aware roofline: %s, %g thread%s", host, threads,
             threads == 1 ? "" : "s");
    snprintf(ch->foot, sizeof ch->foot, "roofs: best medians of %s; memory levels at %g thread%s%s%s", path, threads,
             threads == 1 ? "" : "s",
             edan_json_bool(edan_json_get(edan_json_get(root, "bandwidth_method"), "write_allocate_counted"), 0)
                 ? "" : ", write-allocate not counted",
             ch->ncomp ? "" : "; the profile has no compute roofs");
    checks_note(ch, root, path, 1);
    return 0;
}

/* The numa section's roofs, or NULL with a message. */
const edan_json *rl_larm_roofs(const edan_json *root, const char *path, char *err, size_t n)
{
    const edan_json *numa = edan_json_get(root, "numa"), *roofs = edan_json_get(numa, "roofs");
    if (!numa) {
        snprintf(err, n, "%s: the profile has no LARM roofs (no \"numa\" section: run probe --numa)", path);
        return NULL;
    }
    if (edan_json_bool(edan_json_get(numa, "skipped"), 0) || !edan_json_len(roofs)) {
        snprintf(err, n, "%s: the profile has no LARM roofs (%s)", path,
                 edan_json_string(edan_json_get(numa, "reason"), "numa.roofs is empty"));
        return NULL;
    }
    return roofs;
}

/* The chart of (cluster, mode): mode NULL = entries without a mode. */
int rl_build_larm(rl_chart *ch, const edan_json *root, const char *path, int cluster, const char *mode,
               const char *op, double peak, char *err, size_t n)
{
    char host[160];
    static const char *const kinds[4] = {"local", "remote", "contended", "congested"};
    static const char *const kind_color[4] = {"#08519c", "#cb181d", "#e6850e", "#6a3d9a"};
    static const char *const dashes[5] = {"", "9 4", "3 3", "12 3 3 3", "1 3"};
    const edan_json *roofs = rl_larm_roofs(root, path, err, n), *clusters;
    double threads = 0;
    size_t i;
    int k, invalid = 0, drawn = 0;
    if (!roofs) return -1;
    memset(ch, 0, sizeof *ch);
    ch->larm = 1;
    /* the cluster's threads: numa.clusters, else its fewest-thread local roof */
    clusters = edan_json_get(edan_json_get(root, "numa"), "clusters");
    for (i = 0; i < edan_json_len(clusters); i++) {
        const edan_json *e = edan_json_at(clusters, i);
        if (edan_json_number(edan_json_get(e, "cluster"), -1) == cluster)
            threads = edan_json_number(edan_json_get(e, "threads"), 0);
    }
    for (i = 0; i < edan_json_len(roofs) && !(threads > 0); i++) {
        const edan_json *e = edan_json_at(roofs, i);
        double t = edan_json_number(edan_json_get(e, "threads"), 0);
        if (edan_json_number(edan_json_get(e, "cluster"), -1) == cluster && rl_str_is(edan_json_get(e, "roof"), "local") &&
            t > 0 && (threads == 0 || t < threads))
            threads = t;
    }
    /* cache roofs of the cluster's cores, where the profile has them */
    for (k = 0; k < 3; k++) {
        unsigned long line;
        double g = dom_bandwidth(root, level_name[k], threads, &line);
        rl_line *l = new_line(ch, level_name[k], g, line, chart_colors[larm_level_color[k]], "");
        if (l) snprintf(l->label, sizeof l->label, "%s", level_name[k]);
    }
    for (k = 0; k < 4; k++) {
        int nth = 0;
        for (i = 0; i < edan_json_len(roofs); i++) {
            const edan_json *e = edan_json_at(roofs, i), *node = edan_json_get(e, "node");
            const char *m = edan_json_string(edan_json_get(e, "mode"), NULL);
            double t = edan_json_number(edan_json_get(e, "threads"), 0);
            char where[64];
            rl_line *l;
            if (edan_json_number(edan_json_get(e, "cluster"), -1) != cluster || !rl_str_is(edan_json_get(e, "roof"), kinds[k]) ||
                !rl_str_is(edan_json_get(e, "op"), op) || (mode ? !m || strcmp(m, mode) : m != NULL))
                continue;
            if (!edan_json_bool(edan_json_get(e, "valid"), 1)) {
                invalid++;
                continue;
            }
            if (edan_json_string(edan_json_get(e, "node_label"), NULL))
                snprintf(where, sizeof where, "%s", edan_json_string(edan_json_get(e, "node_label"), ""));
            else if (edan_json_kind(node) == EDAN_JSON_NUMBER)
                snprintf(where, sizeof where, "node %g", edan_json_number(node, 0));
            else snprintf(where, sizeof where, "interleaved");
            l = new_line(ch, kinds[k], stat_median(edan_json_get(e, "GBps")),
                         edan_json_line(edan_json_get(e, "GBps")), kind_color[k], dashes[nth % 5]);
            if (!l) continue;
            nth++;
            drawn++;
            snprintf(l->label, sizeof l->label, "%s %s", kinds[k], where);
            if (t > 0 && t != threads) {
                size_t len = strlen(l->label);
                snprintf(l->label + len, sizeof l->label - len, ", %g threads", t);
            }
        }
    }
    if (!drawn) {
        snprintf(err, n, "%s: no LARM %s roofs for cluster %d%s%s", path, op, cluster, mode ? " in mode " : "",
                 mode ? mode : "");
        return -1;
    }
    add_compute(ch, root, threads, peak);
    host_of(root, path, host, sizeof host);
    snprintf(ch->title, sizeof ch->title, "Locality-aware roofline: %s, cluster %d (%g core%s)%s%s",
             host, cluster, threads, threads == 1 ? "" : "s", mode ? ", " : "", mode ? mode : "");
    snprintf(ch->foot, sizeof ch->foot, "%s roofs of %s (probe --numa): the bandwidth the cluster's cores get", op,
             path);
    if (invalid) {
        size_t len = strlen(ch->foot);
        snprintf(ch->foot + len, sizeof ch->foot - len, "; %d left out: their pages were not on their node", invalid);
    }
    checks_note(ch, root, path, 0);
    return 0;
}

/* Lines in order of bandwidth, fastest first: the legend then lists them
   as they lie on the chart. Insertion sort, stable. */
void rl_sort_lines(rl_chart *ch)
{
    int i, j;
    for (i = 1; i < ch->nline; i++) {
        rl_line t = ch->line[i];
        for (j = i; j > 0 && ch->line[j - 1].gbps < t.gbps; j--) ch->line[j] = ch->line[j - 1];
        ch->line[j] = t;
    }
}

/* ---- hybrid roofs ------------------------------------------------------ */

/* GB/s as the notes print it; "?" when the model has none. */
static const char *gbps_text(double v, char *buf, size_t n)
{
    if (v > 0) snprintf(buf, n, "%.3g", v);
    else snprintf(buf, n, "?");
    return buf;
}

/* The chart's note on its hybrid roofs: what they are, and why one lies
   above every memory roof drawn, when it does. The hybrid model of the
   LARM paper (Sec. 6) is a bandwidth of both memories at once, from its
   own benchmark; the memory roofs are each one memory's, of one op. */
static void hybrid_note(rl_chart *ch, const edan_hybrid_model *m, double F)
{
    char b[4][16], *note = ch->hybrid_note;
    size_t n = sizeof ch->hybrid_note, len;
    double mem = 0, top = 0, upper = 0, stores = 0, st_bw, ld_bw;
    int k;
    for (k = 0; k < ch->nline; k++) {
        const rl_line *l = &ch->line[k];
        if (!strcmp(l->kind, "hybrid")) {
            if (l->gbps > top) {
                top = l->gbps;
                upper = l->hi;
            }
            if (l->stores > stores) stores = l->stores;
        } else if (strcmp(l->kind, "L1") && strcmp(l->kind, "L2") && strcmp(l->kind, "L3") && l->gbps > mem) {
            mem = l->gbps;
        }
    }
    snprintf(note, n, "hybrid: Eq. 5 of the LARM paper (TPDS 2019) for the application's own loads and stores with F = "
             "%g of its data in the fast memory, from the profile's hybrid model: its bandwidths of loads from the fast "
             "and the slow memory %s and %s GB/s, of stores %s and %s GB/s (measured by probe --numa's own benchmark), "
             "and its fitted overlaps theta.", F, gbps_text(m->bw[EDAN_HYBRID_LF], b[0], 16),
             gbps_text(m->bw[EDAN_HYBRID_LS], b[1], 16), gbps_text(m->bw[EDAN_HYBRID_SF], b[2], 16),
             gbps_text(m->bw[EDAN_HYBRID_SS], b[3], 16));
    if (!(mem > 0) || top <= mem) return;
    len = strlen(note);
    snprintf(note + len, n - len, " It lies above every memory roof here (at most %.3g GB/s):", mem);
    ld_bw = m->bw[EDAN_HYBRID_LF] > m->bw[EDAN_HYBRID_LS] ? m->bw[EDAN_HYBRID_LF] : m->bw[EDAN_HYBRID_LS];
    st_bw = m->bw[EDAN_HYBRID_SF] > m->bw[EDAN_HYBRID_SS] ? m->bw[EDAN_HYBRID_SF] : m->bw[EDAN_HYBRID_SS];
    if (F > 0 && F < 1) {
        len = strlen(note);
        snprintf(note + len, n - len, " with its data on two memories both serve at once, and the transfers overlap "
                 "(up to Eq. 3's bound, %.3g GB/s);", upper);
    }
    if (stores > 0 && st_bw > mem) {
        len = strlen(note);
        snprintf(note + len, n - len, " its stores move at the stores' bandwidth (up to %.3g GB/s), which these roofs "
                 "do not show;", st_bw);
    }
    if (ld_bw > mem) {
        len = strlen(note);
        snprintf(note + len, n - len, " the model's own load bandwidths exceed these roofs: its benchmark (the "
                 "paper's Fig. 15, loads and stores interleaved over pages of both memories) is not theirs;");
    }
    len = strlen(note);
    if (note[len - 1] == ';') note[len - 1] = '.';
}

/* Adds the hybrid roof of each application with load/store bytes (or of
   the store fraction alone) from the cluster's model (-1: the first).
   Returns the number added, or -1 with a message. */
/* The cluster's hybrid model: a measured profile's through the typed API,
   a reference profile's (which the loader refuses) from its JSON. */
edan_result rl_hybrid_of(const edan_profile *p, const edan_json *root, int cluster, edan_hybrid_model *m,
                      char *err, size_t n)
{
    return p ? edan_hybrid_from_profile(p, cluster, m, err, n) : edan_hybrid_from_json(root, cluster, m, err, n);
}

int rl_add_hybrid(rl_chart *ch, const edan_profile *p, const edan_json *root, const char *path, int cluster, const rl_hybrid_req *h,
               const roofline_point *pts, size_t npts, char *err, size_t n)
{
    static const char *const tname[4] = {"loads from the fast memory (lf)", "loads from the slow memory (ls)",
                                         "stores to the fast memory (sf)", "stores to the slow memory (ss)"};
    static const char *const dashes[4] = {"", "9 4", "3 3", "12 3 3 3"};
    edan_hybrid_model m;
    char e2[300];
    size_t i, count = npts ? npts : 1;
    int added = 0;
    double F = h->fast_fraction;
    if (F < 0) return 0;
    if (!edan_json_get(root, "numa")) {
        snprintf(err, n, "%s: the profile has no hybrid model (no \"numa\" section: probe --numa measures it on a "
                 "machine with two or more NUMA nodes)", path);
        return -1;
    }
    if (edan_json_bool(edan_json_get(edan_json_get(root, "numa"), "skipped"), 0)) {
        snprintf(err, n, "%s: the profile has no hybrid model: probe --numa skipped the NUMA section (%s)", path,
                 edan_json_string(edan_json_get(edan_json_get(root, "numa"), "reason"), "no reason given"));
        return -1;
    }
    if (rl_hybrid_of(p, root, cluster, &m, e2, sizeof e2) != EDAN_OK) {
        snprintf(err, n, "%s:%s", path, e2[0] ? e2 + (strncmp(e2, "line ", 5) ? 0 : 5) : " no hybrid model");
        return -1;
    }
    for (i = 0; i < count; i++) {
        double ld, st, q[EDAN_HYBRID_COUNT];
        edan_hybrid_roof r;
        edan_hybrid_times t;
        rl_line *l;
        const char *who;
        int k;
        if (npts) {
            ld = pts[i].load_bytes;
            st = pts[i].store_bytes;
            who = pts[i].label;
            if (!(ld + st > 0)) continue;   /* a --point: no quantities */
        } else {
            ld = 1 - h->store_fraction;
            st = h->store_fraction;
            who = NULL;
        }
        q[EDAN_HYBRID_LF] = F * ld;
        q[EDAN_HYBRID_LS] = (1 - F) * ld;
        q[EDAN_HYBRID_SF] = F * st;
        q[EDAN_HYBRID_SS] = (1 - F) * st;
        if (edan_hybrid_bandwidth(&m, q, &r) != EDAN_OK) {
            for (k = 0; k < EDAN_HYBRID_COUNT; k++)
                if (q[k] > 0 && !(m.bw[k] > 0)) break;
            if (k < EDAN_HYBRID_COUNT)
                snprintf(err, n, "%s: the hybrid model has no bandwidth for %s, which %s needs", path, tname[k],
                         who ? who : "this store fraction");
            else if (edan_hybrid_times_of(&m, q, &t) == EDAN_OK && !(t.t_fit > 0))
                snprintf(err, n, "%s: the hybrid model's fitted time is not positive for %s", path,
                         who ? who : "this store fraction");
            else
                snprintf(err, n, "%s: the hybrid model leaves a theta undetermined that %s needs", path,
                         who ? who : "this store fraction");
            return -1;
        }
        l = new_line(ch, "hybrid", r.bw_fit, 0, "#8c564b", dashes[added % 4]);
        if (!l) break;
        l->lo = r.bw_lower;
        l->hi = r.bw_upper;
        if (who) {
            snprintf(l->label, sizeof l->label, "hybrid %.40s, F=%g (stores %.0f%%)", who, F, 100 * st / (ld + st));
            snprintf(l->name, sizeof l->name, "hybrid %.40s", who);
        } else {
            snprintf(l->label, sizeof l->label, "hybrid F=%g, stores %g", F, h->store_fraction);
            snprintf(l->name, sizeof l->name, "hybrid");
        }
        l->stores = st / (ld + st);
        added++;
    }
    if (added) hybrid_note(ch, &m, F);
    return added;
}

/* ---- reference profiles ------------------------------------------------ */
/* A roof of a reference profile: null (the paper gives none), a number or
   {median, min, max}, each a number a chart draws or null. 0, or -1 with
   `file:line: what` in err. */
static int ref_roof_ok(const edan_json *v, const char *key, const char *path, char *err, size_t errlen)
{
    size_t i;
    if (edan_json_kind(v) == EDAN_JSON_OBJECT) {
        for (i = 0; i < edan_json_len(v); i++)
            if (ref_roof_ok(edan_json_value_at(v, i), key, path, err, errlen)) return -1;
        return 0;
    }
    if (edan_json_kind(v) == EDAN_JSON_NULL) return 0;
    if (edan_json_kind(v) == EDAN_JSON_NUMBER) {
        double x = edan_json_number(v, 0);
        if (rl_drawable(x)) return 0;
        snprintf(err, errlen, "%s:%lu: \"%s\" is %g: a roof must be a number from %g to %g (or null when unknown)",
                 path, edan_json_line(v), key, x, RL_MIN_VALUE, RL_MAX_VALUE);
        return -1;
    }
    snprintf(err, errlen, "%s:%lu: \"%s\" must be a number, an object of numbers or null", path, edan_json_line(v),
             key);
    return -1;
}

/* Every "GBps" and "GFLOPs" anywhere in v. */
static int ref_roofs_ok(const edan_json *v, const char *path, char *err, size_t errlen, int depth)
{
    size_t i;
    if (depth > 32) return 0;
    for (i = 0; i < edan_json_len(v); i++) {
        const char *k = edan_json_kind(v) == EDAN_JSON_OBJECT ? edan_json_key_at(v, i) : NULL;
        const edan_json *x = edan_json_kind(v) == EDAN_JSON_OBJECT ? edan_json_value_at(v, i) : edan_json_at(v, i);
        if (k && (!strcmp(k, "GBps") || !strcmp(k, "GFLOPs"))) {
            if (ref_roof_ok(x, k, path, err, errlen)) return -1;
        } else if (ref_roofs_ok(x, path, err, errlen, depth + 1)) {
            return -1;
        }
    }
    return 0;
}

/* A reference profile (transcribed from a paper): a version this edan
   reads, roofs that are numbers, and the numa section as the loader
   checks a measured profile's. */
int rl_ref_check(const edan_json *root, const char *path, char *err, size_t errlen)
{
    if (edan_profile_check_version(root, path, NULL, err, errlen) != EDAN_OK) return -1;
    if (ref_roofs_ok(root, path, err, errlen, 0)) return -1;
    return edan_profile_check_numa(root, path, err, errlen) == EDAN_OK ? 0 : -1;
}

