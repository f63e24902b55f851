/* tools/cmd/plot.c - `edan plot`: SVG charts of EDAN results.

   - Data movement over time (the EDAN paper's Fig. 9 and 15): from JSON
     reports of `edan analyze`/`edan trace` run with --tau, one line per
     configuration that has a timeline; several reports overlay, with a legend.
     x = time in cycles (phase i starts at i x tau), y = U_i, the bytes moved
     to or from RAM by the accesses under way at that time (ASAP schedule).
   - Latency what-if: from the CSV of `--sweep`, the upper time bound (or the
     slowdown) against the added RAM latency, one line per configuration and m.

   Only C99, libc and libm; reports are read with the JSON reader of
   edan.h (edan_json_*).
   The SVG is written to a temporary file and renamed when complete. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../common/files.h"
#include "../report/chart.h"
#include "../common/opt.h"

enum {
    PLOT_HELP = 1, PLOT_OUT, PLOT_TITLE, PLOT_LABEL, PLOT_SWEEP, PLOT_CONFIG, PLOT_M, PLOT_SLOWDOWN, PLOT_XMAX,
    PLOT_LOG, PLOT_WIDTH, PLOT_HEIGHT
};
static const opt_def plot_opts[] = {
    {NULL, NULL, 0,
     "usage: edan plot [options] REPORT.json...\n"
     "       edan plot [options] --sweep SWEEP.csv [--sweep SWEEP2.csv ...]\n"
     "\n"
     "Draws an SVG chart.\n"
     "\n"
     "With JSON reports (`edan analyze --json --tau CYCLES`, `edan trace --json\n"
     "--tau CYCLES`): the data movement over time. Every configuration that has a\n"
     "timeline is a line: x = time in cycles (phase i at i x tau), y = the bytes\n"
     "moved to or from RAM by the accesses under way at that time (U_i of the\n"
     "EDAN model, ASAP schedule with unbounded parallelism).\n"
     "\n"
     "With --sweep files (`--sweep FILE.csv` of `edan analyze`/`edan trace`):\n"
     "the upper time bound against the RAM latency added, one line per\n"
     "configuration and m."},
    {NULL, NULL, 0, "\nOptions:"},
    {"-o|--output", "FILE", PLOT_OUT, "write the SVG to FILE (default: standard output)"},
    {"--title", "TEXT", PLOT_TITLE, "the chart's title"},
    {"--label", "TEXT", PLOT_LABEL,
     "legend name of the next REPORT or --sweep file\n(default: the file name without .json/.csv)"},
    {"--sweep", "FILE.csv", PLOT_SWEEP, "plot a latency sweep (repeatable)"},
    {"--config", "NAME|N", PLOT_CONFIG,
     "only this configuration (name, or 0-based index as in\n`edan rank`; repeatable)"},
    {"--m", "LIST", PLOT_M, "with --sweep: only these m, e.g. 4 or 1,8"},
    {"--slowdown", NULL, PLOT_SLOWDOWN, "with --sweep: y = T_upper relative to no added latency"},
    {"--xmax", "CYCLES", PLOT_XMAX, "with reports: draw time 0..CYCLES only"},
    {"--log", NULL, PLOT_LOG, "logarithmic y axis (zero on the bottom edge)"},
    {"--width", "PX", PLOT_WIDTH, "width of the chart (default 960)"},
    {"--height", "PX", PLOT_HEIGHT, "height of the chart (default 540)"},
    {"-h|--help", NULL, PLOT_HELP, "this text"},
    {NULL, NULL, 0, "\nBad input stops with `FILE: what is wrong` and exit status 2."},
};
#define PLOT_NOPTS (sizeof plot_opts / sizeof plot_opts[0])

/* ---- series ---------------------------------------------------------------- */
typedef struct plot_series {
    char label[320];
    char file_label[160];   /* the file's legend name */
    char config[128];       /* configuration name */
    unsigned m;             /* sweep: the m of the line; 0 in timelines */
    double tau;             /* timeline: bin width */
    double *x, *y;
    size_t n, cap;
    int color, dash;
    int marker;             /* -1 none, else a shape of chart_marker */
} plot_series;

typedef struct plot_set {
    plot_series *s;
    size_t n, cap;
} plot_set;

static plot_series *plot_add_series(plot_set *ps)
{
    plot_series *s, *ns = (plot_series *)cli_grow(ps->s, &ps->cap, ps->n, sizeof *ns, 8);
    if (!ns) return NULL;
    ps->s = ns;
    s = &ps->s[ps->n++];
    memset(s, 0, sizeof *s);
    return s;
}

static int plot_push(plot_series *s, double x, double y)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 64;
        double *nx = (double *)realloc(s->x, nc * sizeof *nx), *ny;
        if (!nx) return -1;
        s->x = nx;
        ny = (double *)realloc(s->y, nc * sizeof *ny);
        if (!ny) return -1;
        s->y = ny;
        s->cap = nc;
    }
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->n++;
    return 0;
}

static void plot_free(plot_set *ps)
{
    size_t i;
    for (i = 0; i < ps->n; i++) {
        free(ps->s[i].x);
        free(ps->s[i].y);
    }
    free(ps->s);
    ps->s = NULL;
    ps->n = ps->cap = 0;
}

/* The file name without its directory and without a .json/.csv ending. */
static void plot_stem(const char *path, char *buf, size_t n)
{
    const char *b = strrchr(path, '/');
    size_t len;
    b = b ? b + 1 : path;
    snprintf(buf, n, "%s", b);
    len = strlen(buf);
    if (len > 5 && !strcmp(buf + len - 5, ".json")) buf[len - 5] = 0;
    else if (len > 4 && !strcmp(buf + len - 4, ".csv")) buf[len - 4] = 0;
}

/* The whole file in memory, NUL-terminated (tools/common/files.h). */
/* Configurations asked for with --config (names, or 0-based indices as in
   `edan rank`); none = all. */
typedef struct plot_select {
    const char **names;
    size_t n;
} plot_select;

static int plot_config_wanted(const plot_select *sel, const char *name, size_t index)
{
    size_t i;
    if (!sel->n) return 1;
    for (i = 0; i < sel->n; i++) {
        const char *q = sel->names[i];
        uint64_t v;
        if (!strcmp(q, name)) return 1;
        if (!opt_u64(q, 0, UINT64_MAX, &v) && v == index) return 1;
    }
    return 0;
}

/* ---- reading a JSON report's timelines ------------------------------------ */
/* A bin's bytes are the engine's 64-bit count. */
#define PLOT_MAX_BYTES 18446744073709551616.0
/* The longest time axis (--xmax): far beyond any trace (bins of at most
   1e18 cycles, fewer than 1e9 of them in a report). */
#define PLOT_MAX_CYCLES 1e30

static int plot_read_report(plot_set *ps, const char *path, const char *label, const plot_select *sel)
{
    size_t k, i, found = 0;
    char stem[160];
    char *text;
    edan_json *root;
    const edan_json *configs;
    int rc = -1;
    if (cli_report_read("edan plot", path, &text, &root, &configs)) return -1;
    if (label) snprintf(stem, sizeof stem, "%s", label);
    else if (edan_json_number(edan_json_get(edan_json_get(root, "job"), "size"), 0) > 1)
        cli_result_name(root, path, stem, sizeof stem);    /* a rank of a job: "app rank R" */
    else plot_stem(path, stem, sizeof stem);
    for (k = 0; k < edan_json_len(configs); k++) {
        const edan_json *c = edan_json_at(configs, k), *tl = edan_json_get(c, "timeline"), *bins, *tauv;
        const char *name = edan_json_string(edan_json_get(c, "name"), NULL);
        plot_series *s;
        double tau;
        char cname[48];
        if (edan_json_kind(c) != EDAN_JSON_OBJECT) {
            opt_ferr("edan plot", path, 0, "line %lu: configuration %zu is not an object", edan_json_line(c), k + 1);
            goto out;
        }
        if (!name) {
            snprintf(cname, sizeof cname, "configuration %zu", k + 1);
            name = cname;
        }
        if (!plot_config_wanted(sel, name, k)) continue;
        if (!tl) continue;
        tauv = edan_json_get(tl, "tau");
        bins = edan_json_get(tl, "bins");
        if (edan_json_kind(tauv) != EDAN_JSON_NUMBER || edan_json_kind(bins) != EDAN_JSON_ARRAY) {
            opt_ferr("edan plot", path, 0, "line %lu: the timeline needs a number \"tau\" and an array \"bins\"",
                     edan_json_line(tl));
            goto out;
        }
        tau = edan_json_number(tauv, 0);
        if (!(tau >= 1 && tau <= 1e18) || tau != floor(tau)) {
            opt_ferr("edan plot", path, 0, "line %lu: timeline tau %g is not a whole number of cycles from 1 to 1e18",
                     edan_json_line(tauv), tau);
            goto out;
        }
        s = plot_add_series(ps);
        if (!s) {
            opt_ferr("edan plot", path, 0, "out of memory");
            goto out;
        }
        snprintf(s->file_label, sizeof s->file_label, "%s", stem);
        snprintf(s->config, sizeof s->config, "%s", name);
        s->tau = tau;
        for (i = 0; i < edan_json_len(bins); i++) {
            const edan_json *b = edan_json_at(bins, i);
            double v = edan_json_number(b, -1);
            if (edan_json_kind(b) != EDAN_JSON_NUMBER || !(v >= 0 && v <= PLOT_MAX_BYTES) || v != floor(v)) {
                opt_ferr("edan plot", path, 0, "line %lu: timeline bin %zu of \"%s\" is %g, not a byte count (a whole "
                         "number from 0 to 2^64)", edan_json_line(b), i, name, v);
                goto out;
            }
            if (plot_push(s, tau * (double)i, v)) {
                opt_ferr("edan plot", path, 0, "out of memory");
                goto out;
            }
        }
        if (!s->n) {
            opt_ferr("edan plot", path, 0, "line %lu: the timeline of \"%s\" has no bins", edan_json_line(bins), name);
            goto out;
        }
        found++;
    }
    if (!found && sel->n) {
        opt_ferr("edan plot", path, 0, "no configuration given with --config has a timeline");
        goto out;
    }
    if (!found) {
        opt_ferr("edan plot", path, 0, "no configuration has a timeline (analyse with --tau CYCLES)");
        goto out;
    }
    rc = 0;
out:
    edan_json_free(root);
    free(text);
    return rc;
}

/* ---- reading a sweep CSV --------------------------------------------------- */
/* Splits one CSV line in place (double quotes with "" escapes). */
static int plot_csv_split(char *line, char **field, int max)
{
    int n = 0;
    char *p = line, *w;
    for (;;) {
        if (n == max) return -1;
        if (*p == '"') {
            field[n++] = w = ++p;
            for (;;) {
                if (!*p) return -1;
                if (*p == '"') {
                    if (p[1] == '"') { *w++ = '"'; p += 2; continue; }
                    p++;
                    break;
                }
                *w++ = *p++;
            }
            *w = 0;
            if (*p && *p != ',') return -1;
        } else {
            field[n++] = p;
            while (*p && *p != ',') p++;
        }
        if (!*p) break;
        *p++ = 0;
    }
    return n;
}

static int plot_m_wanted(const unsigned *ms, size_t nm, unsigned m)
{
    size_t i;
    if (!nm) return 1;
    for (i = 0; i < nm; i++)
        if (ms[i] == m) return 1;
    return 0;
}

static int plot_read_sweep(plot_set *ps, const char *path, const char *label, int slowdown, const unsigned *ms,
                           size_t nm, const plot_select *sel)
{
    size_t len, first = ps->n, i;
    char *text = cli_file_read("edan plot", path, &len), *line, *next, *field[32], stem[160];
    int n, col_config = -1, col_m = -1, col_ns = -1, col_t = -1, col_sd = -1, j, rc = -1;
    unsigned long lineno = 0;
    const char *seen[EDAN_MAX_CONFIGS * 4];
    size_t nseen = 0;
    if (!text) return -1;
    if (memchr(text, 0, len)) {
        opt_ferr("edan plot", path, 0, "binary data, not a CSV");
        goto out;
    }
    if (label) snprintf(stem, sizeof stem, "%s", label);
    else plot_stem(path, stem, sizeof stem);
    for (line = text; line && *line; line = next) {
        double m, ns, t, sd;
        plot_series *s = NULL;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        lineno++;
        if (*line && line[strlen(line) - 1] == '\r') line[strlen(line) - 1] = 0;
        if (!*line) continue;
        n = plot_csv_split(line, field, 32);
        if (n < 0) {
            opt_ferr("edan plot", path, 0, "line %lu: malformed CSV", lineno);
            goto out;
        }
        if (col_config < 0) {   /* the header: the first line that is not empty */
            for (j = 0; j < n; j++) {
                if (!strcmp(field[j], "config")) col_config = j;
                else if (!strcmp(field[j], "m")) col_m = j;
                else if (!strcmp(field[j], "added_ns")) col_ns = j;
                else if (!strcmp(field[j], "T_upper")) col_t = j;
                else if (!strcmp(field[j], "slowdown_upper")) col_sd = j;
            }
            if (col_config < 0 || col_m < 0 || col_ns < 0 || col_t < 0 || col_sd < 0) {
                opt_ferr("edan plot", path, 0, "line %lu: not a sweep CSV (needs the columns config, m, added_ns, "
                         "T_upper, slowdown_upper; write one with --sweep FILE.csv)", lineno);
                goto out;
            }
            continue;
        }
        if (n <= col_config || n <= col_m || n <= col_ns || n <= col_t || n <= col_sd) {
            opt_ferr("edan plot", path, 0, "line %lu: %d fields, fewer than the header's", lineno, n);
            goto out;
        }
        if (opt_double(field[col_m], 1, 0, 1e9, &m) || m != floor(m)) {
            opt_ferr("edan plot", path, 0, "line %lu: m '%s' is not a positive integer", lineno, field[col_m]);
            goto out;
        }
        if (opt_double(field[col_ns], 0, 0, 1e12, &ns)) {
            opt_ferr("edan plot", path, 0, "line %lu: added_ns '%s' is not a latency", lineno, field[col_ns]);
            goto out;
        }
        if (opt_double(field[col_t], 0, 0, 1e300, &t)) {
            opt_ferr("edan plot", path, 0, "line %lu: T_upper '%s' is not a time", lineno, field[col_t]);
            goto out;
        }
        if (opt_double(field[col_sd], 0, 0, 1e300, &sd)) {
            opt_ferr("edan plot", path, 0, "line %lu: slowdown_upper '%s' is not a ratio", lineno, field[col_sd]);
            goto out;
        }
        if (sel->n) {
            /* the configuration's index: its order of first appearance */
            size_t q;
            for (q = 0; q < nseen && strcmp(seen[q], field[col_config]); q++) {}
            if (q == nseen && nseen < sizeof seen / sizeof seen[0]) seen[nseen++] = field[col_config];
            if (!plot_config_wanted(sel, field[col_config], q)) continue;
        }
        if (!plot_m_wanted(ms, nm, (unsigned)m)) continue;
        for (i = first; i < ps->n; i++)
            if (ps->s[i].m == (unsigned)m && !strcmp(ps->s[i].config, field[col_config])) s = &ps->s[i];
        if (!s) {
            s = plot_add_series(ps);
            if (!s) {
                opt_ferr("edan plot", path, 0, "out of memory");
                goto out;
            }
            snprintf(s->file_label, sizeof s->file_label, "%s", stem);
            snprintf(s->config, sizeof s->config, "%s", field[col_config]);
            s->m = (unsigned)m;
        }
        if (s->n && ns <= s->x[s->n - 1]) {
            opt_ferr("edan plot", path, 0, "line %lu: added_ns %g does not increase along \"%s\", m = %u", lineno, ns,
                     s->config, s->m);
            goto out;
        }
        if (plot_push(s, ns, slowdown ? sd : t)) {
            opt_ferr("edan plot", path, 0, "out of memory");
            goto out;
        }
    }
    if (col_config < 0) {
        opt_ferr("edan plot", path, 0, "empty file, not a sweep CSV");
        goto out;
    }
    if (ps->n == first) {
        if (nm || sel->n) opt_ferr("edan plot", path, 0, "no rows for the configurations and m asked for");
        else opt_ferr("edan plot", path, 0, "no rows after the header");
        goto out;
    }
    rc = 0;
out:
    free(text);
    return rc;
}

/* ---- SVG ----------------------------------------------------------------- */
typedef struct plot_chart {
    const char *title, *subtitle, *xtitle, *ytitle, *xunit, *yunit;
    int width, height;
    double xmax;            /* 0 = fit the data */
    int y_from_data;        /* y range from the data's minimum (else from 0) */
    int logy;               /* logarithmic y axis */
    int legend_by_last;     /* legend ordered by each line's last value, largest first */
    double y_floor;         /* with y_from_data: the axis starts at this or lower (0: none) */
} plot_chart;

/* The index of the series that is n-th in the legend when it is ordered by
   last value, largest first (ties in series order). */
static size_t plot_nth_by_last(const plot_set *ps, size_t n)
{
    size_t i, j;
    for (i = 0; i < ps->n; i++) {
        size_t rank = 0;
        double vi = ps->s[i].n ? ps->s[i].y[ps->s[i].n - 1] : 0;
        for (j = 0; j < ps->n; j++) {
            double vj = ps->s[j].n ? ps->s[j].y[ps->s[j].n - 1] : 0;
            if (vj > vi || (vj == vi && j < i)) rank++;
        }
        if (rank == n) return i;
    }
    return n;
}


/* One series as polyline points. Long series are reduced per pixel column to
   the first, lowest, highest and last point (in time order), which draws the
   same picture as every point. */
static void plot_points(FILE *o, const chart_plane *f, const plot_series *s, double xmax)
{
    size_t i = 0, col_n = 0;
    long col = -1;
    double cols = 2 * (f->x.p1 - f->x.p0);
    size_t first = 0, last = 0, lo = 0, hi = 0;
    int reduce = s->n > (size_t)(4 * cols);
    int cnt = 0;
#define PT(k) do { fprintf(o, "%s%.2f,%.2f", cnt++ ? " " : "", chart_x(f, s->x[k]), chart_y(f, s->y[k])); \
                   if (cnt % 8 == 0) fputc('\n', o); } while (0)
    for (i = 0; i < s->n; i++) {
        long c;
        if (xmax > 0 && s->x[i] > xmax) break;
        if (!reduce) {
            PT(i);
            continue;
        }
        c = (long)((s->x[i] - f->x.lo) / (f->x.hi - f->x.lo) * cols);
        if (c != col) {
            if (col_n) {
                size_t a = lo < hi ? lo : hi, b = lo < hi ? hi : lo;
                PT(first);
                if (a != first) PT(a);
                if (b != a && b != first) PT(b);
                if (last != b && last != first) PT(last);
            }
            col = c;
            col_n = 0;
            first = lo = hi = i;
        }
        col_n++;
        last = i;
        if (s->y[i] < s->y[lo]) lo = i;
        if (s->y[i] > s->y[hi]) hi = i;
    }
    if (reduce && col_n) {
        size_t a = lo < hi ? lo : hi, b = lo < hi ? hi : lo;
        PT(first);
        if (a != first) PT(a);
        if (b != a && b != first) PT(b);
        if (last != b && last != first) PT(last);
    }
#undef PT
}

/* The points of a series that the chart draws (up to --xmax). */
static size_t plot_drawn(const plot_series *s, double xmax)
{
    size_t n = 0;
    while (n < s->n && !(xmax > 0 && s->x[n] > xmax)) n++;
    return n;
}

/* 1 when two series have the same points (those drawn). */
static int same_values(const plot_series *a, const plot_series *b, double xmax)
{
    size_t j, n = plot_drawn(a, xmax);
    if (n != plot_drawn(b, xmax)) return 0;
    for (j = 0; j < n; j++)
        if (a->x[j] != b->x[j] || a->y[j] != b->y[j]) return 0;
    return 1;
}

/* Lines that coincide: on[i] is the earlier line that series i lies on
   (the same x, within 2.5 px in y at every point drawn: two lines of
   1.6 px closer than that read as one), (size_t)-1 for none; nth[i]
   numbers the lines on one (1, 2, ...), so that each is drawn dashed in
   its own stretches and the line under it shows in the others. */
static void plot_coincide(const plot_chart *ch, const plot_set *ps, const chart_plane *f, size_t *on, size_t *nth)
{
    size_t i, j, k;
    for (i = 0; i < ps->n; i++) {
        const plot_series *a = &ps->s[i];
        size_t n = plot_drawn(a, ch->xmax);
        on[i] = (size_t)-1;
        nth[i] = 0;
        for (j = 0; j < i && on[i] == (size_t)-1; j++) {
            const plot_series *b = &ps->s[j];
            if (on[j] != (size_t)-1 || n < 2 || plot_drawn(b, ch->xmax) != n) continue;
            for (k = 0; k < n; k++)
                if (a->x[k] != b->x[k] || fabs(chart_y(f, a->y[k]) - chart_y(f, b->y[k])) > 2.5) break;
            if (k == n) on[i] = j;
        }
        if (on[i] != (size_t)-1)
            for (j = 0; j < i; j++)
                if (on[j] == on[i]) nth[i]++;
        if (on[i] != (size_t)-1) nth[i]++;
    }
}

/* The data's range up to --xmax: x from 0 (or below), y as its axis wants
   it (exponents of ten on a log axis, a decade under the data when it has
   zeros: 1 is returned then, the bottom edge says 0). */
static int plot_range(const plot_chart *ch, const plot_set *ps, double *xmin, double *xmax, double *ymin, double *ymax)
{
    size_t i, j;
    int any = 0, zero_at_bottom = 0;
    for (i = 0; i < ps->n; i++)
        for (j = 0; j < ps->s[i].n; j++) {
            double x = ps->s[i].x[j];
            if (ch->xmax > 0 && x > ch->xmax) break;
            if (!any || x < *xmin) *xmin = x;
            if (!any || x > *xmax) *xmax = x;
            if (!any || ps->s[i].y[j] < *ymin) *ymin = ps->s[i].y[j];
            if (!any || ps->s[i].y[j] > *ymax) *ymax = ps->s[i].y[j];
            any = 1;
        }
    if (ch->xmax > 0) *xmax = ch->xmax;
    if (*xmin > 0) *xmin = 0;
    if (ch->logy) {
        /* the smallest positive value sets the bottom decade */
        double pmin = 0;
        for (i = 0; i < ps->n; i++)
            for (j = 0; j < ps->s[i].n; j++)
                if (ps->s[i].y[j] > 0 && (pmin == 0 || ps->s[i].y[j] < pmin)) pmin = ps->s[i].y[j];
        *ymin = pmin > 0 ? floor(log10(pmin)) : 0;
        *ymax = *ymax > 0 ? ceil(log10(*ymax) - 1e-9) : 1;
        /* zero has no place on a log axis: when the data has zeros, the
           bottom edge is a decade below the smallest value and says 0 */
        for (i = 0; i < ps->n && !zero_at_bottom; i++)
            for (j = 0; j < ps->s[i].n; j++)
                if (!(ps->s[i].y[j] > 0) && !(ch->xmax > 0 && ps->s[i].x[j] > ch->xmax)) zero_at_bottom = 1;
        if (zero_at_bottom) *ymin -= 1;
    } else if (ch->y_from_data) {
        /* leave a little room under the lowest line, but not below the
           floor when no line goes under it */
        double lowest = *ymin, pad = (*ymax - *ymin) * 0.05;
        *ymin = lowest - pad < 0 ? 0 : lowest - pad;
        if (ch->y_floor > 0 && lowest >= ch->y_floor && *ymin < ch->y_floor) *ymin = ch->y_floor;
    } else {
        *ymin = 0;
    }
    if (*ymax <= *ymin) *ymax = *ymin + 1;
    return zero_at_bottom;
}

/* The y axis over plot_range's ymin..ymax, from pixel bottom up to top,
   and its ticks. */
static size_t plot_y_axis(const plot_chart *ch, chart_axis *y, double ymin, double ymax, int zero_at_bottom,
                          double top, double bottom, chart_tick *yt)
{
    /* one y tick per 60 pixels */
    int yt_want = (int)((bottom - top) / 60), ny = yt_want < 2 ? 2 : yt_want > 8 ? 8 : yt_want;
    size_t nyt;
    if (ch->logy) {
        /* a log axis gets 2 and 5 between its powers of ten when it spans
           few decades; it labels every decade over up to 8 of them, every
           other over up to 16, and so on (a sweep's times may span 600) */
        int step = 1 + (int)((ymax - ymin - 1) / 8);
        y->log = 1;
        y->lo = ymin;
        y->hi = ymax;
        nyt = chart_ticks_log10(y, step, ymax - ymin <= 3 && step == 1, zero_at_bottom, ch->yunit, yt,
                                CHART_MAX_TICKS);
    } else {
        chart_fit_linear(y, ymin, ymax, ny, strcmp(ch->yunit, "B") ? 1 : 2);
        if (*ch->yunit && strcmp(ch->yunit, "B")) {
            y->scale = 1;
            y->prefix = "";
        }
        nyt = chart_ticks_linear(y, ch->yunit, yt, CHART_MAX_TICKS);
    }
    y->p0 = bottom;
    y->p1 = top;
    return nyt;
}

/* Each line's legend text ("B = A" for a line on another with the same
   values, with an almost-equal sign for the same pixels: plot_coincide)
   and dash (its own stretches when on another; nth becomes its
   stroke-dashoffset); the widest text's width. */
static double plot_legend_texts(const plot_chart *ch, const plot_set *ps, const chart_plane *f, size_t *on,
                                size_t *nth, char (*legend)[400], char (*dash)[40])
{
    double legend_w = 0;
    size_t i, j;
    plot_coincide(ch, ps, f, on, nth);
    for (i = 0; i < ps->n; i++) {
        const plot_series *s = &ps->s[i];
        if (on[i] == (size_t)-1) snprintf(legend[i], sizeof legend[i], "%s", s->label);
        else
            snprintf(legend[i], sizeof legend[i], "%s %s %s", s->label,
                     same_values(s, &ps->s[on[i]], ch->xmax) ? "=" : "\xe2\x89\x88", ps->s[on[i]].label);
        if (chart_text_width(legend[i], 12) > legend_w) legend_w = chart_text_width(legend[i], 12);
    }
    for (i = 0; i < ps->n; i++) {
        size_t g = 0;
        if (on[i] == (size_t)-1) {
            snprintf(dash[i], sizeof dash[i], "%s", chart_dashes[ps->s[i].dash % CHART_NDASHES]);
            continue;
        }
        /* the g lines on line b take turns in stretches of 6 px of every
           6 (g + 1), b shows in the first: the nth from 6 nth px on */
        for (j = 0; j < ps->n; j++) g += on[j] == on[i];
        snprintf(dash[i], sizeof dash[i], "6,%zu", 6 * g);
        nth[i] = 6 * (g + 1 - nth[i]);      /* now its stroke-dashoffset */
    }
    return legend_w;
}

/* Series i, clipped to the frame: a dot for a single point, else its
   line (dashed over the line it lies on, on[i]) and its markers. */
static void plot_draw_series(FILE *o, const plot_chart *ch, const plot_set *ps, const chart_plane *f, size_t i,
                             const size_t *on, const size_t *nth, const char *dash)
{
    const plot_series *s = &ps->s[i];
    const char *col = chart_colors[s->color % CHART_NCOLORS];
    size_t j;
    fprintf(o, "<g class=\"series\" data-label=\"");
    chart_xml(o, s->label);
    fprintf(o, "\" data-points=\"%zu\"", s->n);
    if (on[i] != (size_t)-1) {
        fprintf(o, " data-on=\"");
        chart_xml(o, ps->s[on[i]].label);
        fputc('"', o);
    }
    fprintf(o, " clip-path=\"url(#frame)\">\n");
    if (s->n == 1 || (ch->xmax > 0 && s->n > 1 && s->x[1] > ch->xmax)) {
        fprintf(o, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"%s\"/>\n", chart_x(f, s->x[0]),
                chart_y(f, s->y[0]), col);
    } else {
        fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" stroke-opacity=\"0.9\" "
                   "stroke-linejoin=\"round\"", col);
        chart_dash_attr(o, dash);
        if (on[i] != (size_t)-1) fprintf(o, " stroke-dashoffset=\"%zu\"", nth[i]);
        fprintf(o, " points=\"");
        plot_points(o, f, s, ch->xmax);
        fprintf(o, "\"/>\n");
        if (s->marker >= 0) {   /* at every point of a short series, at a dozen of a long one */
            size_t every = s->n > 40 ? s->n / 12 : 1;
            for (j = 0; j < s->n; j += every) {
                if (ch->xmax > 0 && s->x[j] > ch->xmax) break;
                chart_marker(o, s->marker, chart_x(f, s->x[j]), chart_y(f, s->y[j]), col);
            }
            fputc('\n', o);
        }
    }
    fprintf(o, "</g>\n");
}

static int plot_svg(FILE *o, const plot_chart *ch, const plot_set *ps)
{
    chart_plane f;
    double xmin = 0, xmax = 0, ymin = 0, ymax = 0, legend_w, left, right, top, bottom;
    size_t i, nxt, nyt;
    int W = ch->width, H = ch->height, zero_at_bottom, xt_want;
    chart_tick xt[CHART_MAX_TICKS], yt[CHART_MAX_TICKS];
    size_t *on = (size_t *)calloc(2 * ps->n + 1, sizeof *on), *nth = on + ps->n;
    char (*legend)[400] = (char (*)[400])calloc(ps->n + 1, sizeof *legend);
    char (*dash)[40] = (char (*)[40])calloc(ps->n + 1, sizeof *dash);
    if (!on || !legend || !dash) {
        free(on);
        free(legend);
        free(dash);
        return opt_err("edan plot", "out of memory");
    }
    memset(&f, 0, sizeof f);
    zero_at_bottom = plot_range(ch, ps, &xmin, &xmax, &ymin, &ymax);
    left = 84;
    top = ch->subtitle ? 66 : 50;
    bottom = H - 58;
    if (ps->n * 18.0 + top + 20 > H - 20) {
        H = (int)(ps->n * 18.0 + top + 40);
        bottom = H - 58;
    }
    nyt = plot_y_axis(ch, &f.y, ymin, ymax, zero_at_bottom, top, bottom, yt);
    legend_w = plot_legend_texts(ch, ps, &f, on, nth, legend, dash) + 40;
    if (legend_w > W * 0.4) legend_w = W * 0.4;
    right = W - legend_w - 24;
    /* about one x tick per 90 pixels (labels like "200k" fit) */
    xt_want = (int)((right - left) / 90);
    chart_fit_linear(&f.x, xmin, xmax, xt_want < 2 ? 2 : xt_want > 10 ? 10 : xt_want, 1);
    /* the axis ends where the data (or --xmax) does, not at the next round tick */
    f.x.hi = ch->xmax > 0 ? ch->xmax : xmax > f.x.lo ? xmax : f.x.hi;
    f.x.p0 = left;
    f.x.p1 = right;
    nxt = chart_ticks_linear(&f.x, ch->xunit, xt, CHART_MAX_TICKS);

    chart_begin(o, W, H, W / 2.0, ch->title, ch->subtitle);
    chart_axes(o, &f.x, &f.y, xt, nxt, yt, nyt, ch->xtitle, ch->ytitle);
    /* the data, clipped to the frame */
    chart_clip(o, &f.x, &f.y, "frame", 2);
    for (i = 0; i < ps->n; i++) plot_draw_series(o, ch, ps, &f, i, on, nth, dash[i]);
    chart_frame(o, &f.x, &f.y);
    fprintf(o, "<g class=\"legend\" font-size=\"12\">\n");
    for (i = 0; i < ps->n; i++) {
        size_t k = ch->legend_by_last ? plot_nth_by_last(ps, i) : i;
        const plot_series *s = &ps->s[k];
        chart_legend_entry(o, right + 16, top + 10 + 18.0 * (double)i, chart_colors[s->color % CHART_NCOLORS], dash[k],
                           s->marker, legend[k], legend_w - 40);
    }
    fprintf(o, "</g>\n");
    chart_end(o);
    free(on);
    free(legend);
    free(dash);
    return 0;
}

/* Legend names: the configuration alone for one file, the file alone when
   every file has one configuration, else both; ", m = M" when a sweep has
   several m. Colours per file and configuration; in sweeps the dash tells m
   apart; with more lines than colours, a marker shape too. */
static void plot_name_series(plot_set *ps, int sweep)
{
    size_t i, j, files = 0, nconf = 0, conf_max = 0;
    unsigned ms[64];
    size_t nm = 0, k;
    for (i = 0; i < ps->n; i++) {
        plot_series *s = &ps->s[i];
        int color = -1;
        if (i == 0 || strcmp(s->file_label, ps->s[i - 1].file_label)) files++;
        for (j = 0; j < i; j++)
            if (!strcmp(ps->s[j].file_label, s->file_label) && !strcmp(ps->s[j].config, s->config)) {
                color = ps->s[j].color;
                break;
            }
        if (color < 0) color = (int)nconf++;
        s->color = color;
        for (k = 0; k < nm && ms[k] != s->m; k++) {}
        if (k == nm && nm < 64) ms[nm++] = s->m;
    }
    /* configurations per file */
    for (i = 0; i < ps->n; i++) {
        size_t c = 0;
        for (j = 0; j < ps->n; j++)
            if (!strcmp(ps->s[j].file_label, ps->s[i].file_label)) {
                size_t q;
                int seen = 0;
                for (q = 0; q < j; q++)
                    if (!strcmp(ps->s[q].file_label, ps->s[j].file_label) && !strcmp(ps->s[q].config, ps->s[j].config))
                        seen = 1;
                if (!seen) c++;
            }
        if (c > conf_max) conf_max = c;
    }
    for (i = 0; i < ps->n; i++) {
        plot_series *s = &ps->s[i];
        char base[300];
        if (files == 1) snprintf(base, sizeof base, "%s", s->config);
        else if (conf_max == 1) snprintf(base, sizeof base, "%s", s->file_label);
        else snprintf(base, sizeof base, "%s: %s", s->file_label, s->config);
        if (sweep && nm > 1) snprintf(s->label, sizeof s->label, "%s, m = %u", base, s->m);
        else snprintf(s->label, sizeof s->label, "%s", base);
        s->dash = 0;
        s->marker = nconf > CHART_NCOLORS ? s->color % CHART_NMARKERS : -1;
        if (sweep && nm > 1) {
            for (k = 0; k < nm; k++)
                if (ms[k] == s->m) s->dash = (int)k;
        }
    }
}

/* What the command line asks for. */
typedef struct plot_args {
    const char *out_path, *title;
    const char **inputs, **labels;  /* labels[i]: the --label given before inputs[i], or NULL */
    int ninputs;
    int sweep_mode;                 /* -1 no input yet, 0 reports, 1 --sweep files */
    int slowdown, logy, width, height;
    unsigned ms[64];
    size_t nm;
    double xmax;
    plot_select sel;
} plot_args;

/* --m LIST: positive integers separated by commas (one may end it);
   0, or -1 with a message. */
static int plot_parse_m(const char *val, unsigned *ms, size_t *nm)
{
    uint32_t m[64];
    int n = opt_u32_list(val, 1, CLI_MAX_M, m, 64), k;
    if (n == 0) return opt_err("edan plot", "--m: empty list");
    if (n < 0) return opt_err("edan plot", "--m %s: expected a list of positive integers, e.g. 1,4,8", val);
    for (k = 0; k < n; k++) ms[k] = m[k];
    *nm = (size_t)n;
    return 0;
}

/* The options, in order: a --label names the input after it. 1 when
   --help was printed, 0, or -1 with a message. */
static int plot_read_options(plot_args *a, int argc, char **argv)
{
    const char *val, *pending_label = NULL;
    uint32_t px;
    int i, k;
    for (i = 1; (k = opt_next("edan plot", plot_opts, PLOT_NOPTS, argc, argv, &i, &val)) != OPT_END;) {
        switch (k) {
        case PLOT_HELP: opt_help(stdout, plot_opts, PLOT_NOPTS); return 1;
        case PLOT_OUT: a->out_path = val; break;
        case PLOT_TITLE: a->title = val; break;
        case PLOT_LABEL: pending_label = val; break;
        case PLOT_SLOWDOWN: a->slowdown = 1; break;
        case PLOT_LOG: a->logy = 1; break;
        case PLOT_CONFIG: a->sel.names[a->sel.n++] = val; break;
        case PLOT_M:
            if (plot_parse_m(val, a->ms, &a->nm)) return -1;
            break;
        case PLOT_WIDTH:
        case PLOT_HEIGHT:
            if (k == PLOT_WIDTH ? opt_u32(val, 300, 10000, &px) : opt_u32(val, 200, 10000, &px))
                return opt_err("edan plot", "%s %s: expected pixels in %s..10000",
                               k == PLOT_WIDTH ? "--width" : "--height", val, k == PLOT_WIDTH ? "300" : "200");
            *(k == PLOT_WIDTH ? &a->width : &a->height) = (int)px;
            break;
        case PLOT_XMAX:
            if (opt_double(val, 1, 0, PLOT_MAX_CYCLES, &a->xmax))
                return opt_err("edan plot", "--xmax %s: expected cycles from 1 to %g", val, PLOT_MAX_CYCLES);
            break;
        case PLOT_SWEEP:
        case OPT_OPERAND:
            if (a->sweep_mode >= 0 && a->sweep_mode != (k == PLOT_SWEEP))
                return opt_err("edan plot", "give either JSON reports or --sweep files, not both");
            a->sweep_mode = k == PLOT_SWEEP;
            a->labels[a->ninputs] = pending_label;
            pending_label = NULL;
            a->inputs[a->ninputs++] = val;
            break;
        case OPT_REST: return opt_err("edan plot", "'--' is not an option of edan plot (see edan plot --help)");
        default: return -1;     /* OPT_ERROR: said */
        }
    }
    return 0;
}

/* The options that go together, the chart that is none of its inputs,
   then the inputs read into ps; 0, or -1 with a message. */
static int plot_read_inputs(const plot_args *a, plot_set *ps)
{
    int i;
    if (!a->ninputs) {
        opt_help(stderr, plot_opts, PLOT_NOPTS);
        return opt_err("edan plot", "no report or --sweep file given");
    }
    if (a->out_path) {
        files_role *in = (files_role *)calloc((size_t)a->ninputs, sizeof *in);
        int clash;
        if (!in) return opt_err("edan plot", "out of memory");
        for (i = 0; i < a->ninputs; i++) {
            in[i].path = a->inputs[i];
            in[i].what = a->sweep_mode ? "a --sweep file" : "a report";
        }
        clash = files_check_output("edan plot", a->out_path, "the chart", in, (size_t)a->ninputs);
        free(in);
        if (clash) return -1;
    }
    if (a->logy && a->slowdown) return opt_err("edan plot", "--log and --slowdown do not go together");
    if (a->sweep_mode == 1 && a->xmax > 0) return opt_err("edan plot", "--xmax is for timelines, not --sweep");
    if (a->sweep_mode == 0 && (a->nm || a->slowdown))
        return opt_err("edan plot", "%s is for --sweep files", a->nm ? "--m" : "--slowdown");
    for (i = 0; i < a->ninputs; i++) {
        int r = a->sweep_mode ? plot_read_sweep(ps, a->inputs[i], a->labels[i], a->slowdown, a->ms, a->nm, &a->sel)
                              : plot_read_report(ps, a->inputs[i], a->labels[i], &a->sel);
        if (r) return -1;
    }
    return 0;
}

/* The titles, units and axis rules of a what-if chart (sweeps) and of a
   data movement chart (timelines); subtitle: room for the subtitle. */
static void plot_describe(plot_chart *ch, const plot_args *a, const plot_set *ps, char *subtitle, size_t n)
{
    size_t k;
    memset(ch, 0, sizeof *ch);
    ch->width = a->width;
    ch->height = a->height;
    ch->logy = a->logy;
    ch->subtitle = subtitle;
    ch->xunit = "";
    if (a->sweep_mode) {
        int one = ps->n > 0;
        ch->title = a->title ? a->title
                  : a->slowdown ? "Slowdown when RAM gets farther" : "Time bound when RAM gets farther";
        snprintf(subtitle, n, "%s against the RAM latency added (EDAN what-if, exact at every point)",
                 a->slowdown ? "upper time bound relative to the local one" : "upper time bound T_upper");
        ch->xtitle = "added RAM latency (ns)";
        ch->ytitle = a->slowdown ? "slowdown (T_upper / T_upper at +0 ns)" : "T_upper (cycles)";
        ch->yunit = a->slowdown ? "\xc3\x97" : "";
        ch->y_from_data = a->slowdown;
        ch->y_floor = a->slowdown ? 1 : 0;    /* x1: no slower; nothing is below it */
        ch->legend_by_last = 1;
        /* one configuration throughout: the subtitle names it */
        for (k = 1; k < ps->n; k++)
            if (strcmp(ps->s[k].config, ps->s[0].config)) one = 0;
        if (one && strlen(subtitle) + strlen(ps->s[0].config) + 20 < n)
            snprintf(subtitle + strlen(subtitle), n - strlen(subtitle), "; configuration %s", ps->s[0].config);
    } else {
        double tau0 = ps->s[0].tau;
        int same = 1;
        for (k = 1; k < ps->n; k++)
            if (ps->s[k].tau != tau0) same = 0;
        ch->title = a->title ? a->title : "Data movement over time";
        if (same)
            snprintf(subtitle, n,
                     "bytes moved to/from RAM by the accesses under way at time t = i\xc2\xb7\xcf\x84 "
                     "(\xcf\x84 = %g cycle%s; ASAP schedule)", tau0, tau0 == 1 ? "" : "s");
        else
            snprintf(subtitle, n,
                     "bytes moved to/from RAM by the accesses under way at time t = i\xc2\xb7\xcf\x84 "
                     "(\xcf\x84 differs per line; ASAP schedule)");
        ch->xtitle = "time (cycles)";
        ch->ytitle = "data movement U_i (bytes)";
        ch->yunit = "B";
        ch->xmax = a->xmax;
    }
}

/* The chart, as tools/common/files.h writes outputs (standard output without
   -o); 0, or -1 with a message. */
static int plot_write(const char *out_path, const plot_chart *ch, const plot_set *ps)
{
    files_out fo;
    char ferr[600];
    if (files_out_open(&fo, out_path ? out_path : "-", ferr, sizeof ferr))
        return opt_err("edan plot", "cannot write %s", ferr);
    if (plot_svg(fo.f, ch, ps)) {
        files_out_discard(&fo);
        return -1;
    }
    if (files_out_close(&fo, ferr, sizeof ferr)) return opt_err("edan plot", "cannot write %s", ferr);
    return 0;
}

int edan_cmd_plot(int argc, char **argv)
{
    plot_args a;
    plot_chart ch;
    plot_set ps = {NULL, 0, 0};
    char subtitle[512];
    int rc = 2, r;

    memset(&a, 0, sizeof a);
    a.sweep_mode = -1;
    a.width = 960;
    a.height = 540;
    a.inputs = (const char **)calloc((size_t)argc + 1, sizeof *a.inputs);
    a.labels = (const char **)calloc((size_t)argc + 1, sizeof *a.labels);
    a.sel.names = (const char **)calloc((size_t)argc + 1, sizeof *a.sel.names);
    if (!a.inputs || !a.labels || !a.sel.names) {
        opt_err("edan plot", "out of memory");
        goto done;
    }
    r = plot_read_options(&a, argc, argv);
    if (r) {
        rc = r > 0 ? 0 : 2;
        goto done;
    }
    if (plot_read_inputs(&a, &ps)) goto done;
    plot_name_series(&ps, a.sweep_mode);
    plot_describe(&ch, &a, &ps, subtitle, sizeof subtitle);
    if (plot_write(a.out_path, &ch, &ps)) goto done;
    rc = 0;
done:
    plot_free(&ps);
    free(a.inputs);
    free(a.labels);
    free(a.sel.names);
    return rc;
}
