/* tools/roofline.c - the CARM chart of a hardware profile, as SVG.
   Log-log axes: arithmetic intensity (flop/byte) against GFLOP/s. One
   horizontal roof per compute kind (best ISA FMA, best ISA ADD, scalar
   FMA), one slanted roof per memory level (its best bandwidth median),
   each meeting the top compute roof; application points on top. The file
   is written to a temporary name and renamed when complete. */
#include "roofline.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct chart {
    double x0, x1, y0, y1;          /* data range (log10 space) */
    double px0, px1, py0, py1;      /* plot area in pixels */
} chart;

static double cx(const chart *c, double ai) { return c->px0 + (log10(ai) - c->x0) / (c->x1 - c->x0) * (c->px1 - c->px0); }
static double cy(const chart *c, double g) { return c->py1 - (log10(g) - c->y0) / (c->y1 - c->y0) * (c->py1 - c->py0); }

static void svg_text(FILE *o, double x, double y, const char *anchor, double size, const char *color, double rot,
                     const char *text)
{
    const char *s;
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"", x, y, size, anchor,
            color);
    if (rot != 0) fprintf(o, " transform=\"rotate(%.2f %.1f %.1f)\"", rot, x, y);
    fputc('>', o);
    for (s = text; *s; s++) {
        if (*s == '<') fputs("&lt;", o);
        else if (*s == '>') fputs("&gt;", o);
        else if (*s == '&') fputs("&amp;", o);
        else fputc(*s, o);
    }
    fputs("</text>\n", o);
}

/* Best compute median of (isa, op) at `threads`; isa NULL = any. */
static double compute_roof(const edan_profile *p, const char *isa, const char *op, uint32_t threads, const char **which)
{
    size_t i;
    double best = 0;
    for (i = 0; i < p->num_compute; i++) {
        const edan_profile_compute *c = &p->compute[i];
        if (c->threads != threads || strcmp(c->op, op) || (isa && strcmp(c->isa, isa))) continue;
        if (c->median > best) {
            best = c->median;
            if (which) *which = c->isa;
        }
    }
    return best;
}

static void ai_label(char *buf, size_t n, double ai)
{
    if (ai >= 1) snprintf(buf, n, "%g", ai);
    else snprintf(buf, n, "1/%g", 1 / ai);
}

int roofline_svg(FILE *o, const edan_profile *p, const roofline_opts *opt, const roofline_point *pts, size_t npts,
                 char *err, size_t errlen)
{
    static const char *const levels[4] = {"L1", "L2", "L3", "DRAM"};
    static const char *const level_color[4] = {"#1f77b4", "#2ca02c", "#ff7f0e", "#d62728"};
    uint32_t threads = opt && opt->threads ? opt->threads : 1;
    int W = opt && opt->width ? opt->width : 880, H = opt && opt->height ? opt->height : 620;
    double bw[4], peak, add_peak, scalar_peak, ymin, ymax, xmin = 1.0 / 32, xmax = 64, v;
    const char *peak_isa = "", *add_isa = "";
    char title[200], buf[160];
    chart c;
    size_t i;
    int k, e;

    peak = compute_roof(p, NULL, "fma", threads, &peak_isa);
    add_peak = compute_roof(p, peak_isa, "add", threads, &add_isa);
    scalar_peak = compute_roof(p, "scalar", "fma", threads, NULL);
    for (k = 0; k < 4; k++) bw[k] = edan_profile_roof(p, levels[k], threads);
    if (!(peak > 0) || !(bw[3] > 0)) {
        snprintf(err, errlen, "the profile has no FMA or DRAM roof for %u thread(s)", (unsigned)threads);
        return -1;
    }
    for (i = 0; i < npts; i++) {
        const roofline_point *q = &pts[i];
        if (!(q->ai > 0) || !(q->gflops_lo > 0) || !(q->gflops_hi >= q->gflops_lo)) {
            snprintf(err, errlen, "point '%s': intensity and performance must be positive, low <= high",
                     q->label ? q->label : "");
            return -1;
        }
        if (q->ai < xmin) xmin = q->ai / 2;
        if (q->ai > xmax) xmax = q->ai * 2;
    }
    /* y range: from DRAM's roof at the left edge to above the peak, whole decades */
    ymin = bw[3] * xmin;
    if (scalar_peak > 0 && scalar_peak < ymin) ymin = scalar_peak;
    for (i = 0; i < npts; i++) if (pts[i].gflops_lo < ymin) ymin = pts[i].gflops_lo;
    ymax = peak * 2;
    for (i = 0; i < npts; i++) if (pts[i].gflops_hi * 1.5 > ymax) ymax = pts[i].gflops_hi * 1.5;
    c.x0 = log10(xmin);
    c.x1 = log10(xmax);
    c.y0 = floor(log10(ymin * 0.9));
    c.y1 = ceil(log10(ymax));
    c.px0 = 90;
    c.px1 = W - 30;
    c.py0 = 60;
    c.py1 = H - 70;

    if (opt && opt->title) snprintf(title, sizeof title, "%s", opt->title);
    else snprintf(title, sizeof title, "Cache-aware roofline: %s, %u thread%s", p->host[0] ? p->host : "machine",
                  (unsigned)threads, threads == 1 ? "" : "s");

    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n", W, H, W, H);
    fprintf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    svg_text(o, W / 2.0, 30, "middle", 17, "#222", 0, title);

    /* grid and ticks: x at powers of two, y at 1-2-5 per decade */
    fprintf(o, "<g stroke=\"#e4e4e4\" stroke-width=\"1\">\n");
    for (e = (int)floor(log2(xmin)); e <= (int)ceil(log2(xmax)); e++) {
        v = pow(2, e);
        if (v < xmin * 0.999 || v > xmax * 1.001) continue;
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cx(&c, v), c.py0, cx(&c, v), c.py1);
    }
    for (e = (int)c.y0; e < (int)c.y1; e++) {
        static const double m[3] = {1, 2, 5};
        for (k = 0; k < 3; k++) {
            v = m[k] * pow(10, e);
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s/>\n", c.px0, cy(&c, v), c.px1,
                    cy(&c, v), k ? "" : " stroke=\"#c8c8c8\"");
        }
    }
    fprintf(o, "</g>\n");
    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n", c.px0,
            c.py0, c.px1 - c.px0, c.py1 - c.py0);
    for (e = (int)floor(log2(xmin)); e <= (int)ceil(log2(xmax)); e++) {
        v = pow(2, e);
        if (v < xmin * 0.999 || v > xmax * 1.001) continue;
        ai_label(buf, sizeof buf, v);
        svg_text(o, cx(&c, v), c.py1 + 18, "middle", 12, "#333", 0, buf);
    }
    for (e = (int)c.y0; e <= (int)c.y1; e++) {
        static const double m[3] = {1, 2, 5};
        for (k = 0; k < 3; k++) {
            v = m[k] * pow(10, e);
            if (e == (int)c.y1 && k) break;
            snprintf(buf, sizeof buf, "%g", v);
            svg_text(o, c.px0 - 8, cy(&c, v) + 4, "end", k ? 10 : 12, k ? "#777" : "#333", 0, buf);
        }
    }
    svg_text(o, (c.px0 + c.px1) / 2, H - 25, "middle", 14, "#222", 0,
             "arithmetic intensity [flop/byte of loads and stores]");
    svg_text(o, 25, (c.py0 + c.py1) / 2, "middle", 14, "#222", -90, "performance [GFLOP/s]");

    fprintf(o, "<clipPath id=\"plot\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>\n",
            c.px0, c.py0, c.px1 - c.px0, c.py1 - c.py0);
    fprintf(o, "<g clip-path=\"url(#plot)\" fill=\"none\" stroke-linecap=\"round\">\n");
    /* compute roofs, from the ridge of DRAM to the right edge */
    {
        double roofs[3] = {peak, add_peak, scalar_peak};
        const char *dash[3] = {"", " stroke-dasharray=\"8 5\"", " stroke-dasharray=\"3 4\""};
        for (k = 0; k < 3; k++) {
            if (!(roofs[k] > 0) || (k == 1 && roofs[1] >= peak * 0.98)) continue;
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-width=\"%s\"%s/>\n",
                    k ? cx(&c, roofs[k] / bw[0] > xmin ? roofs[k] / bw[0] : xmin) : cx(&c, peak / bw[0] > xmin ? peak / bw[0] : xmin),
                    cy(&c, roofs[k]), c.px1, cy(&c, roofs[k]), k ? "1.5" : "2.5", dash[k]);
        }
    }
    /* memory roofs: y = ai * bw up to the peak */
    for (k = 0; k < 4; k++) {
        double ridge;
        if (!(bw[k] > 0)) continue;
        ridge = peak / bw[k];
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
                cx(&c, xmin), cy(&c, bw[k] * xmin), cx(&c, ridge < xmax ? ridge : xmax),
                cy(&c, bw[k] * (ridge < xmax ? ridge : xmax)), level_color[k]);
    }
    fprintf(o, "</g>\n");

    /* labels: compute roofs above their line at the right; memory roofs
       along their line, rotated to its slope, left of the ridge */
    {
        double roofs[3] = {peak, add_peak, scalar_peak};
        const char *names[3] = {"FMA", "ADD", "FMA"};
        const char *isas[3] = {peak_isa, add_isa, "scalar"};
        for (k = 0; k < 3; k++) {
            if (!(roofs[k] > 0) || (k == 1 && roofs[1] >= peak * 0.98)) continue;
            snprintf(buf, sizeof buf, "%s %s: %.1f GFLOP/s", isas[k], names[k], roofs[k]);
            svg_text(o, c.px1 - 6, cy(&c, roofs[k]) - 6, "end", 12, "#222", 0, buf);
        }
    }
    {
        /* names along the memory roofs (text above the line, rotated to its
           slope in pixels, the same for every roof), staggered so close
           roofs do not share a spot; the values go in the legend */
        double ang = atan2(cy(&c, 10) - cy(&c, 1), cx(&c, 10) - cx(&c, 1));
        double nx = sin(ang), ny = -cos(ang);       /* unit normal, pointing up-left */
        double lx, ly;
        int shown = 0;
        for (k = 0; k < 4; k++) {
            double ai, x, y;
            if (!(bw[k] > 0)) continue;
            ai = xmin * 1.3 * pow(1.45, shown);
            if (cy(&c, bw[k] * ai) > c.py1 - 12) ai = pow(10, c.y0) * 1.6 * pow(1.45, shown) / bw[k];
            x = cx(&c, ai) + 4 * nx;
            y = cy(&c, bw[k] * ai) + 4 * ny;
            svg_text(o, x, y, "start", 12, level_color[k], ang * 180 / 3.14159265358979, levels[k]);
            shown++;
        }
        /* legend, lower right */
        lx = c.px1 - 200;
        ly = c.py1 - 14 - 20.0 * shown;
        fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"190\" height=\"%.1f\" fill=\"white\" fill-opacity=\"0.9\" "
                   "stroke=\"#bbb\"/>\n", lx, ly - 8, 20.0 * shown + 12);
        for (k = 0; k < 4; k++) {
            if (!(bw[k] > 0)) continue;
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
                    lx + 8, ly + 6, lx + 32, ly + 6, level_color[k]);
            snprintf(buf, sizeof buf, "%-4s %.1f GB/s", levels[k], bw[k]);
            svg_text(o, lx + 40, ly + 10, "start", 12, "#222", 0, buf);
            ly += 20;
        }
    }
    /* application points */
    for (i = 0; i < npts; i++) {
        const roofline_point *q = &pts[i];
        double x = cx(&c, q->ai);
        if (q->gflops_hi > q->gflops_lo)
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#7b2d8e\" stroke-width=\"3\"/>\n",
                    x, cy(&c, q->gflops_lo), x, cy(&c, q->gflops_hi));
        fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#7b2d8e\"/>\n", x,
                cy(&c, sqrt(q->gflops_lo * q->gflops_hi)));
        svg_text(o, x + 8, cy(&c, sqrt(q->gflops_lo * q->gflops_hi)) + 4, "start", 12, "#7b2d8e", 0,
                 q->label ? q->label : "");
    }
    /* footnote: what the roofs are */
    snprintf(buf, sizeof buf, "roofs: best medians of probe %s; memory levels at %u thread%s%s", p->host,
             (unsigned)threads, threads == 1 ? "" : "s", p->write_allocate_counted ? "" : ", write-allocate not counted");
    svg_text(o, c.px0, H - 6, "start", 10, "#777", 0, buf);
    fprintf(o, "</svg>\n");
    return ferror(o) ? -1 : 0;
}

/* An application from an `edan analyze/trace --json` report (its first
   configuration): AI = flops / requested bytes; performance = flops over
   the model's time bounds at m (the profile's m when the report has it,
   else 4, else its first m), converted with the report's clock; or flops /
   runtime when one is given (FILE:SECONDS). */
static int app_point(const char *spec, uint32_t prof_m, roofline_point *q, char *label, size_t n)
{
    char path[1024], key[16], *colon, *end, err[300];
    double runtime = 0, flops, ghz, lo_t, hi_t;
    FILE *f;
    char *text;
    long len;
    edan_json *root = NULL;
    const edan_json *c, *ms, *b;
    const char *src, *base;
    int rc = -1;
    snprintf(path, sizeof path, "%s", spec);
    colon = strrchr(path, ':');
    if (colon) {
        runtime = strtod(colon + 1, &end);
        if (end != colon + 1 && !*end && runtime > 0) *colon = 0;
        else runtime = 0;
    }
    f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "edan roofline: --app %s: cannot read\n", path); return -1; }
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = (char *)malloc(len > 0 ? (size_t)len : 1);
    if (!text || (len > 0 && fread(text, 1, (size_t)len, f) != (size_t)len)) {
        fprintf(stderr, "edan roofline: --app %s: cannot read\n", path);
        fclose(f); free(text);
        return -1;
    }
    fclose(f);
    if (edan_json_parse(text, (size_t)(len > 0 ? len : 0), NULL, &root, err, sizeof err) != EDAN_OK) {
        fprintf(stderr, "%s:%s\n", path, err + (strncmp(err, "line ", 5) ? 0 : 5));
        goto done;
    }
    c = edan_json_at(edan_json_get(root, "configs"), 0);
    ms = edan_json_get(c, "m");
    if (!c || !ms || !edan_json_len(ms)) {
        fprintf(stderr, "edan roofline: --app %s: not an edan report\n", path);
        goto done;
    }
    flops = edan_json_number(edan_json_get(c, "flops"), 0);
    q->ai = edan_json_number(edan_json_get(c, "arithmetic_intensity"), 0);
    ghz = edan_json_number(edan_json_get(c, "freq_ghz"), 1);
    if (flops <= 0 || q->ai <= 0) {
        fprintf(stderr, "edan roofline: --app %s: the application does no floating-point work\n", path);
        goto done;
    }
    snprintf(key, sizeof key, "%u", prof_m);
    b = edan_json_get(ms, key);
    if (!b) b = edan_json_get(ms, "4");
    if (!b) b = edan_json_value_at(ms, 0);
    lo_t = edan_json_number(edan_json_get(b, "T_upper"), 0);
    hi_t = edan_json_number(edan_json_get(b, "T_lower"), 0);
    if (runtime > 0) {
        q->gflops_lo = q->gflops_hi = flops / runtime / 1e9;
    } else if (lo_t > 0 && hi_t > 0) {
        q->gflops_lo = flops * ghz / lo_t;      /* flop per cycle x cycles per ns */
        q->gflops_hi = flops * ghz / hi_t;
    } else {
        fprintf(stderr, "edan roofline: --app %s: no time bounds\n", path);
        goto done;
    }
    src = edan_json_string(edan_json_get(root, "source"), path);
    base = strrchr(src, '/');
    snprintf(label, n, "%s", base ? base + 1 : src);
    q->label = label;
    rc = 0;
done:
    edan_json_free(root);
    free(text);
    return rc;
}

/* LABEL:AI:GFLOPS or LABEL:AI:LO-HI (the label may not contain ':') */
static int parse_point(const char *s, roofline_point *q, char *label, size_t n)
{
    const char *a = strchr(s, ':'), *b;
    char *end;
    if (!a || (size_t)(a - s) >= n) return -1;
    memcpy(label, s, (size_t)(a - s));
    label[a - s] = 0;
    q->label = label;
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

static const char roofline_usage[] =
    "usage: edan roofline PROFILE -o CHART.svg [--threads N] [--title TEXT]\n"
    "                     [--point LABEL:AI:GFLOPS | --point LABEL:AI:LOW-HIGH]...\n"
    "                     [--app RESULT.json[:RUNTIME_SECONDS]]...\n"
    "Draws the cache-aware roofline chart (CARM) of a hardware profile written\n"
    "by `probe`: log-log, one roof per compute kind (best ISA FMA and ADD,\n"
    "scalar FMA) and per memory level (L1, L2, L3, DRAM: the best bandwidth\n"
    "median of the level at N threads, default 1), and application points\n"
    "(arithmetic intensity in flop/byte, performance or a range in GFLOP/s).\n";

int edan_cmd_roofline(int argc, char **argv)
{
    const char *profile = NULL, *out = NULL;
    roofline_opts ro;
    roofline_point pts[64];
    char labels[64][64], err[400], tmp[4200];
    size_t npts = 0, napps = 0, k;
    const char *apps[64];
    edan_profile *p;
    FILE *f;
    int i, rc;
    memset(&ro, 0, sizeof ro);
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(roofline_usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--title") && i + 1 < argc) ro.title = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            char *end;
            long t = strtol(argv[++i], &end, 10);
            if (*end || t < 1 || t > 1 << 20) {
                fprintf(stderr, "edan roofline: --threads wants a positive number, not '%s'\n", argv[i]);
                return 2;
            }
            ro.threads = (uint32_t)t;
        } else if (!strcmp(argv[i], "--app") && i + 1 < argc) {
            if (napps >= sizeof apps / sizeof apps[0]) {
                fprintf(stderr, "edan roofline: at most %u applications\n", (unsigned)(sizeof apps / sizeof apps[0]));
                return 2;
            }
            apps[napps++] = argv[++i];
        } else if (!strcmp(argv[i], "--point") && i + 1 < argc) {
            if (npts == sizeof pts / sizeof pts[0]) {
                fprintf(stderr, "edan roofline: at most %u points\n", (unsigned)(sizeof pts / sizeof pts[0]));
                return 2;
            }
            if (parse_point(argv[++i], &pts[npts], labels[npts], sizeof labels[0])) {
                fprintf(stderr, "edan roofline: --point '%s': expected LABEL:AI:GFLOPS or LABEL:AI:LOW-HIGH\n",
                        argv[i]);
                return 2;
            }
            npts++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "edan roofline: unknown or incomplete option '%s'\n%s", argv[i], roofline_usage);
            return 2;
        } else if (!profile) profile = argv[i];
        else {
            fprintf(stderr, "edan roofline: one profile only ('%s')\n", argv[i]);
            return 2;
        }
    }
    if (!profile || !out) {
        fputs(roofline_usage, stderr);
        return 2;
    }
    if (edan_profile_load(profile, NULL, &p, err, sizeof err) != EDAN_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (k = 0; k < napps; k++) {
        if (npts >= sizeof pts / sizeof pts[0] || app_point(apps[k], p->mlp_m, &pts[npts], labels[npts], sizeof labels[0])) {
            edan_profile_free(p);
            return 2;
        }
        npts++;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "edan roofline: cannot write %s\n", tmp);
        edan_profile_free(p);
        return 1;
    }
    rc = roofline_svg(f, p, &ro, pts, npts, err, sizeof err);
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        snprintf(err, sizeof err, "write error");
    }
    edan_profile_free(p);
    if (rc != 0 || rename(tmp, out) != 0) {
        fprintf(stderr, "edan roofline: %s: %s\n", out, rc ? err : "cannot rename the temporary file");
        remove(tmp);
        return 1;
    }
    return 0;
}
