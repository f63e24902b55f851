/* tools/cmd/roofline.c - `edan roofline`: the command (options, inputs, the
   --app and --point applications) that draws the roofline charts of a
   hardware profile, as SVG (roofs: tools/report/roofline_roofs.c, drawing:
   tools/report/roofline_svg.c).
   CARM: log-log, arithmetic intensity (flop/byte) against GFLOP/s; one
   horizontal roof per compute kind (best ISA FMA, best ISA ADD, scalar FMA)
   and one slanted roof per memory level (its best bandwidth median), each
   meeting the top compute roof. LARM (Denoyelle et al., TPDS 2019): the
   same chart for one cluster, a NUMA node with cores, with its cache roofs
   and the memory roofs `probe --numa` measured from it: local, remote,
   contended, congested. On either, applications and the hybrid roof
   (Eq. 5) of an application's loads and stores with a fraction F of its
   data in the fast memory. The charts read the profile's JSON, so they
   also draw the reference profiles transcribed from papers. Each file is
   written to a temporary name and renamed when complete. */
#define _POSIX_C_SOURCE 200809L
#include "../report/roofline.h"
#include "cli.h"
#include "../common/files.h"
#include "../common/opt.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* ---- applications ------------------------------------------------------ */

/* A report's counts (flops, bytes) are the engine's 64-bit integers. */
#define RL_MAX_COUNT 18446744073709551616.0

/* The number `key` of a report's object, dflt when missing; 0, or -1 with
   `edan roofline: --app PATH:LINE: what` when it is no number from lo to hi. */
static int app_number(const char *path, const edan_json *obj, const char *key, double lo, double hi, double dflt,
                      double *out)
{
    const edan_json *v = edan_json_get(obj, key);
    *out = edan_json_number(v, dflt);
    if (!v || (edan_json_kind(v) == EDAN_JSON_NUMBER && *out >= lo && *out <= hi)) return 0;
    if (edan_json_kind(v) == EDAN_JSON_NUMBER)
        opt_err("edan roofline", "--app %s:%lu: \"%s\" is %g: expected a number from %g to %g", path,
                edan_json_line(v), key, *out, lo, hi);
    else
        opt_err("edan roofline", "--app %s:%lu: \"%s\" must be a number", path, edan_json_line(v), key);
    return -1;
}

/* The chart's profile: its path and the zlib CRC-32 of its bytes. */
typedef struct rl_profile_id {
    const char *path;
    unsigned long crc;
} rl_profile_id;

/* 0 when the report was analysed with the chart's profile, 1 with another
   (named in `with`), 2 with none. A report names its profile's CRC-32
   ("profile_crc32"), whatever the file is called now; one written before
   names only the path: the same file or not. */
static int app_foreign(const edan_json *root, const rl_profile_id *id, char *with, size_t n)
{
    const char *p = edan_json_string(edan_json_get(root, "profile"), NULL);
    const char *crc = edan_json_string(edan_json_get(root, "profile_crc32"), NULL);
    struct stat a, b;
    if (!p) return 2;
    snprintf(with, n, "%s", p);
    if (crc && *crc) {
        char *end;
        unsigned long v;
        errno = 0;
        v = strtoul(crc, &end, 16);
        if (!*end && !errno) return v != id->crc;
    }
    if (!strcmp(p, id->path)) return 0;
    return !(stat(p, &a) == 0 && stat(id->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino);
}

/* --app RESULT.json[:RUNTIME_SECONDS]: the file's name into path, and the
   runtime (0 when not given; a name may hold colons of its own). */
static double app_file(const char *spec, char *path, size_t n)
{
    char *colon;
    double runtime = 0;
    snprintf(path, n, "%s", spec);
    colon = strrchr(path, ':');
    if (colon && !opt_double(colon + 1, 0, 1, DBL_MAX, &runtime)) *colon = 0;
    else runtime = 0;
    return runtime;
}

/* An application from an `edan analyze/trace --json` report (its first
   configuration): AI = flops / requested bytes; performance = flops over
   the windowed schedule's time T_window at m (the profile's m when the
   report has it, else 4, else its first m), converted with the report's
   clock; without the window flops over the model's time bounds (a range:
   their C adds every instruction's cost as if none overlapped); or flops /
   runtime when one is given (FILE:SECONDS), unless model_only (the model's
   point drawn beside the measured one). A prediction made with another
   profile than the chart's, or none, is marked (foreign) and said on
   standard error. */
static int app_point(const char *spec, int model_only, unsigned prof_m, const rl_profile_id *id, roofline_point *q,
                     char *label, size_t n)
{
    char path[1024], key[16], err[300];
    double runtime = 0, flops, ghz, lo_t, hi_t;
    char *text;
    edan_json *root;
    const edan_json *cfgs, *c, *ms, *b;
    int rc = -1;
    runtime = app_file(spec, path, sizeof path);
    if (model_only) runtime = 0;
    if (cli_report_read("edan roofline", path, &text, &root, &cfgs)) return -1;
    c = edan_json_at(cfgs, 0);
    ms = edan_json_get(c, "m");
    if (!ms || !edan_json_len(ms)) {
        opt_err("edan roofline", "--app %s: not an edan report (its first configuration has no \"m\")", path);
        goto done;
    }
    if (app_number(path, c, "flops", 0, RL_MAX_COUNT, 0, &flops) ||
        app_number(path, c, "arithmetic_intensity", 0, RL_MAX_COUNT, 0, &q->ai) ||
        app_number(path, c, "load_bytes", 0, RL_MAX_COUNT, 0, &q->load_bytes) ||
        app_number(path, c, "store_bytes", 0, RL_MAX_COUNT, 0, &q->store_bytes) ||
        app_number(path, c, "freq_ghz", RL_MIN_VALUE, RL_MAX_VALUE, 1, &ghz))
        goto done;
    if (flops <= 0 || q->ai <= 0) {
        opt_err("edan roofline", "--app %s: the application does no floating-point work", path);
        goto done;
    }
    /* the profile's m, else the paper's, else the report's first */
    snprintf(key, sizeof key, "%u", prof_m);
    b = edan_json_get(ms, key);
    snprintf(key, sizeof key, "%u", CLI_M_PAPER);
    if (!b) b = edan_json_get(ms, key);
    if (!b) b = edan_json_value_at(ms, 0);
    if (edan_json_get(b, "T_window")) {     /* a core's time (the windowed schedule): one point */
        lo_t = hi_t = edan_json_number(edan_json_get(b, "T_window"), 0);
    } else {                                    /* the paper's bounds: a range */
        lo_t = edan_json_number(edan_json_get(b, "T_upper"), 0);
        hi_t = edan_json_number(edan_json_get(b, "T_lower"), 0);
    }
    q->predicted = runtime <= 0;
    q->foreign = q->predicted ? app_foreign(root, id, q->analysed_with, sizeof q->analysed_with) : 0;
    if (q->foreign == 1)
        opt_err("edan roofline", "--app %s was analysed with the profile %s, not %s: its point is drawn hollow and "
                "marked \"other profile\" (the model's performance with that profile's latency, m and clock; analysed "
                "with --profile %s it belongs on this chart)", path, q->analysed_with, id->path, id->path);
    else if (q->foreign == 2)
        opt_err("edan roofline", "--app %s was analysed without a profile: its point is drawn hollow and marked "
                "\"no profile\" (the model's performance with its default latency and clock; analysed with --profile "
                "%s it belongs on this chart)", path, id->path);
    if (runtime > 0) {
        q->gflops_lo = q->gflops_hi = flops / runtime / 1e9;
    } else if (lo_t > 0 && hi_t > 0) {
        q->gflops_lo = flops * ghz / lo_t;      /* flop per cycle x cycles per ns */
        q->gflops_hi = flops * ghz / hi_t;
    } else {
        opt_err("edan roofline", "--app %s: no time bounds", path);
        goto done;
    }
    if (rl_point_out_of_range(q, err, sizeof err)) {
        opt_err("edan roofline", "--app %s: %s", spec, err);
        goto done;
    }
    cli_result_name(root, path, label, n);     /* as edan rank and edan plot name it */
    q->label = label;
    rc = 0;
done:
    edan_json_free(root);
    free(text);
    return rc;
}

/* LABEL:AI:GFLOPS or LABEL:AI:LO-HI (the label may not contain ':'): any
   number strtod reads, so that the range check says what is wrong with
   an infinite or a subnormal one. */
static int parse_point(const char *s, roofline_point *q, char *label, size_t n)
{
    const char *a = strchr(s, ':'), *b;
    char *end;
    memset(q, 0, sizeof *q);
    if (!a || (size_t)(a - s) >= n) return -1;
    memcpy(label, s, (size_t)(a - s));
    label[a - s] = 0;
    q->label = label;
    q->predicted = 0;
    q->ai = strtod(a + 1, &end);
    if (*end != ':') return -1;
    b = end + 1;
    q->gflops_lo = strtod(b, &end);
    if (end == b) return -1;
    if (*end == '-') {
        b = end + 1;
        q->gflops_hi = strtod(b, &end);
        if (end == b) return -1;
    } else q->gflops_hi = q->gflops_lo;
    return *end ? -1 : 0;
}

/* A chart that would be the profile or an --app's result file destroys it. */
static int out_clashes(const char *out, const char *profile, const char *const *apps, size_t napps)
{
    files_role in[RL_MAX_POINTS + 1];
    char paths[RL_MAX_POINTS][1024];
    size_t k, n = 0;
    in[n].path = profile;
    in[n++].what = "the profile";
    for (k = 0; k < napps; k++) {
        app_file(apps[k], paths[k], sizeof paths[k]);
        in[n].path = paths[k];
        in[n++].what = "an --app result";
    }
    return files_check_output("edan roofline", out, "the chart", in, n);
}

/* --larm names its charts after -o CHART.svg, CHART-clusterN.svg beside
   it: only a plain file path has a "beside", a regular file or a new name
   in an existing directory. "-", a FIFO, a device or a directory would give
   names like "--cluster0.svg" or "/dev/null-cluster0.svg". 0, or -1 with
   a message. */
static int larm_base_ok(const char *out)
{
    struct stat st;
    char dir[4096];
    const char *slash = strrchr(out, '/');
    if (!strcmp(out, "-")) {
        opt_err("edan roofline", "--larm writes one chart per cluster, named after -o CHART.svg: standard output "
                "(-o -) cannot name them");
        return -1;
    }
    if (stat(out, &st) == 0) {
        if (S_ISREG(st.st_mode)) return 0;
        opt_err("edan roofline", "--larm names its charts after -o CHART.svg: %s is %s, not a regular file",
                out, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
        return -1;
    }
    if (errno != ENOENT) {
        opt_err("edan roofline", "-o %s: %s", out, strerror(errno));
        return -1;
    }
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if ((size_t)(slash - out) >= sizeof dir) {
        opt_err("edan roofline", "-o %s: too long a name", out);
        return -1;
    } else snprintf(dir, sizeof dir, "%.*s", slash == out ? 1 : (int)(slash - out), out);
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        opt_err("edan roofline", "--larm names its charts after -o CHART.svg: %s is not a directory", dir);
        return -1;
    }
    return 0;
}

/* 1 when a mode's name can be part of a file name: no directories (no
   '/', no leading '.'), no control bytes. */
static int names_file(const char *mode)
{
    const char *c;
    if (!*mode || *mode == '.') return 0;
    for (c = mode; *c; c++)
        if (*c == '/' || (unsigned char)*c < 0x20) return 0;
    return 1;
}

/* The clusters (and modes) numa.roofs has, in order of appearance; line:
   of the first entry's mode. */
typedef struct rl_key { int cluster; const char *mode; unsigned long line; } rl_key;

static size_t larm_keys(const edan_json *roofs, rl_key *keys, size_t max)
{
    size_t i, k, nk = 0;
    for (i = 0; i < edan_json_len(roofs); i++) {
        const edan_json *e = edan_json_at(roofs, i);
        /* an integer from 0 to 2^20 when present: the loader or rl_ref_check checked it */
        int c = (int)edan_json_number(edan_json_get(e, "cluster"), -1);
        const char *m = edan_json_string(edan_json_get(e, "mode"), NULL);
        if (c < 0) continue;
        for (k = 0; k < nk; k++)
            if (keys[k].cluster == c && (keys[k].mode == m || (keys[k].mode && m && !strcmp(keys[k].mode, m)))) break;
        if (k == nk && nk < max) {
            keys[nk].cluster = c;
            keys[nk].line = edan_json_line(edan_json_get(e, "mode"));
            keys[nk++].mode = m;
        }
    }
    return nk;
}

/* ---- the command ------------------------------------------------------- */

enum {
    RL_HELP = 1, RL_OUT, RL_TITLE, RL_THREADS, RL_CLUSTER, RL_LARM, RL_MODE, RL_OP, RL_APP, RL_POINT, RL_FAST,
    RL_STORE, RL_PEAK
};
static const opt_def roofline_opts[] = {
    {NULL, NULL, 0,
     "usage: edan roofline PROFILE -o CHART.svg [options]\n"
     "Draws roofline charts of a hardware profile written by `probe` (or a\n"
     "reference profile in hwprofiles/), log-log, GFLOP/s against flop/byte.\n"
     "\n"
     "Charts:\n"
     "  (default)           the cache-aware roofline (CARM): one roof per compute\n"
     "                      kind (best ISA FMA and ADD, scalar FMA) and per memory\n"
     "                      level (L1, L2, L3, DRAM: the best bandwidth median of\n"
     "                      the level at --threads)"},
    {"--threads", "N", RL_THREADS, "the roofs of N threads (default 1, or the fewest the\nprofile has)"},
    {"--cluster", "N", RL_CLUSTER,
     "the locality-aware roofline (LARM) of cluster N (a NUMA\nnode with cores) from `probe --numa`: its cache "
     "roofs and\nits local, remote, contended and congested memory roofs"},
    {"--larm", NULL, RL_LARM,
     "one LARM chart per cluster (and mode), named after -o\nCHART.svg (a file path: not -, a FIFO or a device):\n"
     "CHART-clusterN.svg, CHART-clusterN-MODE.svg when the\nroofs name modes"},
    {"--mode", "M", RL_MODE, "with --cluster: the roofs of mode M (e.g. flat, cache)"},
    {"--op", "OP", RL_OP, "LARM roofs of this op (default load; store_nt, store)"},
    {NULL, NULL, 0, "Applications:"},
    {"--app", "RESULT.json[:RUNTIME_SECONDS]", RL_APP,
     "an `edan analyze/trace --json` report: its arithmetic\nintensity and the model's performance, flops over the\n"
     "windowed schedule's time T_window (without the window:\nover the time bounds, a range); with SECONDS, the\n"
     "measured performance (flops / SECONDS) beside it"},
    {"--point", "LABEL:AI:GFLOPS", RL_POINT, "a point of your own; LABEL:AI:LOW-HIGH for a range"},
    {"--fast-fraction", "F", RL_FAST,
     "for each --app, the hybrid roof (TPDS 2019, Eq. 5) of\nits loads and stores with the fraction F (0..1) of them\n"
     "in the fast memory, from the profile's hybrid model\n(probe --numa; the cluster's, else the first)"},
    {"--store-fraction", "S", RL_STORE,
     "without --app: the hybrid roof of a kernel whose bytes\nare the fraction S stores"},
    {"--peak", "GFLOPS", RL_PEAK,
     "the top compute roof, for a profile without compute\nroofs (reference profiles) or to show another peak"},
    {NULL, NULL, 0, "Output:"},
    {"-o", "CHART.svg", RL_OUT, "the chart; with --larm, the base of the charts' names"},
    {"--title", "TEXT", RL_TITLE, "the chart's title"},
    {"-h|--help", NULL, RL_HELP, "this text"},
    {NULL, NULL, 0,
     "A chart draws roofs, intensities and performance from 1e-9 to 1e12; a value\n"
     "outside is an error that names it, and no chart is written.\n"
     "Every roof line carries data-kind, data-label and data-gbps (or\n"
     "data-gflops) attributes for scripts."},
};
#define RL_NOPTS (sizeof roofline_opts / sizeof roofline_opts[0])

/* What the command line asks for. */
typedef struct rl_args {
    const char *path, *out, *title, *mode, *op;
    roofline_point pts[RL_MAX_POINTS];      /* the --point's, then the --app's */
    char labels[RL_MAX_POINTS][64];
    const char *apps[RL_MAX_POINTS];
    size_t npts, napps;
    double threads, cluster, peak;          /* cluster -1: none */
    int larm;
    rl_hybrid_req hy;
} rl_args;

/* The value of option opt: a number from lo to hi, whole when `whole`;
   0, or -1 with a message. */
static int rl_number(const char *opt, const char *s, double lo, double hi, int whole, double *out)
{
    double v;
    if (opt_double(s, lo, 0, hi, &v) || (whole && v != floor(v)))
        return opt_err("edan roofline", "%s wants a %snumber from %.15g to %.15g, not '%s'", opt,
                       whole ? "whole " : "", lo, hi, s);
    *out = v;
    return 0;
}

/* --point SPEC as the next point; 0, or -1 with a message. */
static int rl_add_point(rl_args *a, const char *spec)
{
    char why[600];
    roofline_point *q = &a->pts[a->npts];
    if (parse_point(spec, q, a->labels[a->npts], sizeof a->labels[0]))
        return opt_err("edan roofline", "--point '%s': expected LABEL:AI:GFLOPS or LABEL:AI:LOW-HIGH", spec);
    if (rl_point_out_of_range(q, why, sizeof why)) return opt_err("edan roofline", "--point '%s': %s", spec, why);
    a->npts++;
    return 0;
}

/* The options: 1 when --help was printed, 0, or -1 with a message. */
static int rl_read_options(rl_args *a, int argc, char **argv)
{
    const char *val;
    int i, k;
    for (i = 1; (k = opt_next("edan roofline", roofline_opts, RL_NOPTS, argc, argv, &i, &val)) != OPT_END;) {
        if ((k == RL_APP || k == RL_POINT) && a->napps + a->npts >= RL_MAX_ARGS)
            return opt_err("edan roofline", "at most %d applications and points", RL_MAX_ARGS);
        switch (k) {
        case RL_HELP: opt_help(stdout, roofline_opts, RL_NOPTS); return 1;
        case RL_OUT: a->out = val; break;
        case RL_TITLE: a->title = val; break;
        case RL_MODE: a->mode = val; break;
        case RL_OP: a->op = val; break;
        case RL_LARM: a->larm = 1; break;
        case RL_THREADS: if (rl_number("--threads", val, 1, 1 << 20, 1, &a->threads)) return -1; break;
        case RL_CLUSTER: if (rl_number("--cluster", val, 0, 1 << 20, 1, &a->cluster)) return -1; break;
        case RL_PEAK: if (rl_number("--peak", val, RL_MIN_VALUE, RL_MAX_VALUE, 0, &a->peak)) return -1; break;
        case RL_FAST: if (rl_number("--fast-fraction", val, 0, 1, 0, &a->hy.fast_fraction)) return -1; break;
        case RL_STORE: if (rl_number("--store-fraction", val, 0, 1, 0, &a->hy.store_fraction)) return -1; break;
        case RL_APP: a->apps[a->napps++] = val; break;
        case RL_POINT: if (rl_add_point(a, val)) return -1; break;
        case OPT_OPERAND:
            if (a->path) return opt_err("edan roofline", "one profile only ('%s')", val);
            a->path = val;
            break;
        case OPT_REST:
            return opt_err("edan roofline", "'--' is not an option of edan roofline (see edan roofline --help)");
        default: return -1;     /* OPT_ERROR: said */
        }
    }
    return 0;
}

/* The options that go together; 0, or -1 with a message. */
static int rl_check_options(const rl_args *a)
{
    if (!a->path || !a->out) {
        opt_help(stderr, roofline_opts, RL_NOPTS);
        return opt_err("edan roofline", "%s", !a->path ? "no profile given (edan roofline PROFILE -o CHART.svg)"
                                                       : "no output given (-o CHART.svg)");
    }
    if (a->larm && a->cluster >= 0)
        return opt_err("edan roofline", "--larm draws every cluster; --cluster N draws one: not both");
    if (a->mode && a->cluster < 0) return opt_err("edan roofline", "--mode goes with --cluster N");
    if (a->larm && larm_base_ok(a->out)) return -1;
    if (a->hy.store_fraction >= 0 && a->napps)
        return opt_err("edan roofline", "--store-fraction is for a chart without --app (an application has its own)");
    if (a->hy.store_fraction >= 0 && a->hy.fast_fraction < 0)
        return opt_err("edan roofline", "--store-fraction needs --fast-fraction F");
    if (a->hy.fast_fraction >= 0 && !a->napps && a->hy.store_fraction < 0)
        return opt_err("edan roofline", "--fast-fraction needs --app RESULT.json or --store-fraction S");
    return 0;
}

/* The profile as read: its text, the loader's profile (a measured one) or
   the JSON alone (a reference profile, which the loader does not take). */
typedef struct rl_input {
    char *text;
    size_t len;
    edan_profile *p;
    edan_json *own_root;
    const edan_json *root;     /* the profile's JSON, either way */
    unsigned prof_m;            /* the measured profile's m; 0: none */
} rl_input;

static void rl_input_free(rl_input *in)
{
    if (in->p) edan_profile_free(in->p);
    edan_json_free(in->own_root);
    free(in->text);
}

/* The profile, then the --app points after the --point ones; 0, or -1
   with a message. One parse: a measured profile through the loader, which
   checks it and keeps its JSON; only when that fails, the JSON alone, to
   tell a reference profile (transcribed from a paper, with only what the
   paper gives) from a file that is not a profile. */
static int rl_read_inputs(rl_args *a, rl_input *in)
{
    char err[600], jerr[600];
    rl_profile_id id;
    size_t k;
    in->text = cli_file_read("edan roofline", a->path, &in->len);
    if (!in->text) return -1;
    if (edan_profile_parse(in->text, in->len, a->path, NULL, &in->p, err, sizeof err) == EDAN_OK) {
        in->root = edan_profile_json(in->p);
        in->prof_m = in->p->mlp_m;
    } else {
        if (edan_json_parse(in->text, in->len, NULL, &in->own_root, jerr, sizeof jerr) != EDAN_OK) {
            unsigned long line;
            const char *why = cli_json_where(jerr, &line);
            return opt_ferr(NULL, a->path, line, "%s", why);
        }
        in->root = in->own_root;
        if (!rl_str_is(edan_json_get(in->root, "schema"), EDAN_PROFILE_SCHEMA))
            return opt_ferr(NULL, a->path, 0, "not a hardware profile (\"schema\" is not \"" EDAN_PROFILE_SCHEMA "\")");
        /* else the loader's message: a measured profile that does not check */
        if (!edan_json_bool(edan_json_get(in->root, "reference"), 0)) return opt_err(NULL, "%s", err);
        if (rl_ref_check(in->root, a->path, err, sizeof err)) return opt_err(NULL, "%s", err);
    }
    id.path = a->path;
    id.crc = crc32(0L, (const unsigned char *)in->text, (unsigned)in->len);
    for (k = 0; k < a->napps; k++) {
        char path[1024];
        int measured = app_file(a->apps[k], path, sizeof path) > 0, model;
        /* a measured runtime: the model's point first, the measured one beside it */
        for (model = measured; model >= 0; model--) {
            if (app_point(a->apps[k], model, in->prof_m, &id, &a->pts[a->npts], a->labels[a->npts],
                          sizeof a->labels[0]))
                return -1;
            a->npts++;
        }
    }
    return 0;
}

/* A built chart made ready: its lines in order, the --title, its values
   checked; 0, or -1 with a message. */
static int rl_finish(rl_chart *ch, const rl_args *a)
{
    char err[600];
    rl_sort_lines(ch);
    if (a->title) snprintf(ch->title, sizeof ch->title, "%s", a->title);
    if (rl_check(ch, a->pts, a->npts, a->path, err, sizeof err)) return opt_err(NULL, "%s", err);
    return 0;
}

/* The LARM chart of --cluster N, of --mode or, when the roofs name modes,
   of the first one (said); 0, or -1 with a message. */
static int rl_build_cluster(rl_chart *ch, const rl_args *a, const rl_input *in)
{
    char err[600];
    const edan_json *roofs = rl_larm_roofs(in->root, a->path, err, sizeof err);
    const char *mode = a->mode;
    int cl = (int)a->cluster;
    rl_key keys[64];
    size_t nk, j;
    if (!roofs) return opt_err(NULL, "%s", err);
    nk = larm_keys(roofs, keys, 64);
    for (j = 0; j < nk && keys[j].cluster != cl; j++) {}
    if (j == nk) {
        char list[300];
        size_t l = 0, q;
        list[0] = 0;
        for (q = 0; q < nk; q++)
            if ((q == 0 || keys[q].cluster != keys[q - 1].cluster) && l < sizeof list)
                l += (size_t)snprintf(list + l, sizeof list - l, "%s%d", l ? ", " : "", keys[q].cluster);
        return opt_ferr(NULL, a->path, 0, "no LARM roofs for cluster %d; the profile has clusters %s", cl, list);
    }
    if (!mode && keys[j].mode) {
        mode = keys[j].mode;
        opt_err("edan roofline", "cluster %d, mode %s (--mode chooses another)", cl, mode);
    }
    if (rl_build_larm(ch, in->root, a->path, cl, mode, a->op, a->peak, err, sizeof err)) return opt_err(NULL, "%s", err);
    return 0;
}

/* The one chart of the CARM or of --cluster N, written to -o; 0, or -1
   with a message. */
static int rl_draw_one(const rl_args *a, const rl_input *in)
{
    char err[600];
    const edan_json *numa = edan_json_get(in->root, "numa");
    int rc = -1;
    rl_chart *ch = (rl_chart *)calloc(1, sizeof *ch);
    if (!ch) return opt_err("edan roofline", "out of memory");
    if (a->cluster >= 0) {
        if (rl_build_cluster(ch, a, in)) goto done;
    } else if (rl_build_carm(ch, in->root, a->path, a->threads, a->peak, err, sizeof err)) {
        opt_err(NULL, "%s", err);
        goto done;
    }
    if (rl_add_hybrid(ch, in->p, in->root, a->path, (int)a->cluster, &a->hy, a->pts, a->npts, err, sizeof err) < 0) {
        opt_err(NULL, "%s", err);
        goto done;
    }
    if (rl_finish(ch, a) || out_clashes(a->out, a->path, a->apps, a->napps) || rl_write_chart(a->out, ch, a->pts, a->npts))
        goto done;
    if (a->cluster < 0 && edan_json_len(edan_json_get(numa, "roofs")) &&
        !edan_json_bool(edan_json_get(numa, "skipped"), 0))
        opt_err("edan roofline", "the profile also has LARM roofs: --larm draws one chart per cluster");
    rc = 0;
done:
    free(ch);
    return rc;
}

/* --larm's charts, one per key that has one (which[]: its key): every one
   is built and checked before any is written, so that a value that
   cannot be drawn leaves no charts behind. How many, or -1 with a
   message. */
static int rl_build_larm_all(rl_chart *charts, const rl_key *keys, size_t nk, size_t *which, const rl_args *a,
                             const rl_input *in)
{
    char err[600];
    size_t j;
    int ndrawn = 0, hybrids = 0;
    for (j = 0; j < nk; j++) {
        rl_chart *c = &charts[ndrawn];
        if (rl_build_larm(c, in->root, a->path, keys[j].cluster, keys[j].mode, a->op, a->peak, err, sizeof err)) {
            opt_err("edan roofline", "skipped: %s", err);
            continue;
        }
        if (keys[j].mode && !names_file(keys[j].mode))
            return opt_ferr(NULL, a->path, keys[j].line, "mode \"%s\" of cluster %d cannot be part of a file name "
                            "(--larm writes CHART-clusterN-MODE.svg)", keys[j].mode, keys[j].cluster);
        if (a->hy.fast_fraction >= 0) {
            edan_hybrid_model m;
            if (rl_hybrid_of(in->p, in->root, keys[j].cluster, &m, err, sizeof err) == EDAN_OK) {
                int h = rl_add_hybrid(c, in->p, in->root, a->path, keys[j].cluster, &a->hy, a->pts, a->npts, err,
                                   sizeof err);
                if (h < 0) return opt_err(NULL, "%s", err);
                hybrids += h;
            } else
                opt_err("edan roofline", "cluster %d has no hybrid model: no hybrid roof on its chart",
                        keys[j].cluster);
        }
        if (rl_finish(c, a)) return -1;
        which[ndrawn++] = j;
    }
    if (!ndrawn) return opt_ferr(NULL, a->path, 0, "no LARM chart could be drawn");
    if (a->hy.fast_fraction >= 0 && !hybrids)
        return opt_ferr(NULL, a->path, 0, "no cluster has a hybrid model for --fast-fraction");
    return ndrawn;
}

/* The name of key's --larm chart: -o CHART.svg's first base_len bytes
   (without .svg), -clusterN, -MODE; -1 when it does not fit. */
static int larm_name(char *name, size_t n, const char *out, size_t base_len, const rl_key *key)
{
    return (size_t)snprintf(name, n, "%.*s-cluster%d%s%s.svg", (int)base_len, out, key->cluster, key->mode ? "-" : "",
                            key->mode ? key->mode : "") >= n ? -1 : 0;
}

/* --larm: one chart per cluster (and mode), named after -o; every name is
   checked before a chart is written. 0, or -1 with a message. */
static int rl_draw_larm(const rl_args *a, const rl_input *in)
{
    char err[600], name[4300];
    const edan_json *roofs = rl_larm_roofs(in->root, a->path, err, sizeof err);
    rl_key keys[64];
    size_t nk, j, which[64], base_len = strlen(a->out);
    int ndrawn, rc = -1;
    rl_chart *charts;
    if (!roofs) return opt_err(NULL, "%s", err);
    if (base_len > 4 && !strcmp(a->out + base_len - 4, ".svg")) base_len -= 4;
    nk = larm_keys(roofs, keys, 64);
    charts = (rl_chart *)calloc(nk ? nk : 1, sizeof *charts);
    if (!charts) return opt_err("edan roofline", "out of memory");
    ndrawn = rl_build_larm_all(charts, keys, nk, which, a, in);
    if (ndrawn < 0) goto done;
    for (j = 0; j < (size_t)ndrawn; j++) {
        if (larm_name(name, sizeof name, a->out, base_len, &keys[which[j]])) {
            opt_err("edan roofline", "-o %s: too long a name for the charts of --larm", a->out);
            goto done;
        }
        if (out_clashes(name, a->path, a->apps, a->napps)) goto done;
    }
    for (j = 0; j < (size_t)ndrawn; j++) {
        larm_name(name, sizeof name, a->out, base_len, &keys[which[j]]);
        if (rl_write_chart(name, &charts[j], a->pts, a->npts)) goto done;
        opt_err("edan roofline", "wrote %s", name);
    }
    rc = 0;
done:
    free(charts);
    return rc;
}

int edan_cmd_roofline(int argc, char **argv)
{
    rl_args a;
    rl_input in;
    int r, rc = 2;     /* every failure here is of the input or the output */
    memset(&a, 0, sizeof a);
    memset(&in, 0, sizeof in);
    a.op = "load";
    a.cluster = -1;
    a.hy.fast_fraction = a.hy.store_fraction = -1;
    r = rl_read_options(&a, argc, argv);
    if (r) return r > 0 ? 0 : 2;
    if (rl_check_options(&a)) return 2;
    if (!rl_read_inputs(&a, &in) && !(a.larm ? rl_draw_larm(&a, &in) : rl_draw_one(&a, &in))) rc = 0;
    rl_input_free(&in);
    return rc;
}
