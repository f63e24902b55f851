/* tests/cmd/numa/model_check.c LOG RUN - reads the RUN-th numa section of an
   emulated machine's log the way the analyzer reads a profile (edan.h's
   JSON reader and edan_hybrid_from_json) and evaluates every cluster's
   hybrid model at the sweep's points: every point must evaluate (the theta
   left undetermined, null, are exactly those no point needs), and the
   footnote-10 error must be the one the probe printed. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static const char *const names[4] = {"lf", "ls", "sf", "ss"};

int main(int argc, char **argv)
{
    FILE *f;
    char *text, *begin, *end, *doc, err[256];
    long len;
    int run, k, bad = 0;
    size_t i, h;
    edan_json *root;
    const edan_json *hy;
    if (argc != 3) {
        fprintf(stderr, "usage: model_check LOG RUN\n");
        return 2;
    }
    run = atoi(argv[2]);
    f = fopen(argv[1], "rb");
    if (!f) { fprintf(stderr, "%s: cannot open\n", argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = malloc((size_t)len + 1);
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) { fprintf(stderr, "%s: read error\n", argv[1]); return 1; }
    fclose(f);
    text[len] = 0;
    begin = text;
    for (k = 0; k <= run; k++) {
        begin = strstr(begin, "@@EDAN-NUMA-BEGIN");
        if (!begin || !strchr(begin, '\n')) { fprintf(stderr, "%s: no run %d\n", argv[1], run); return 1; }
        begin = strchr(begin, '\n') + 1;      /* the serial line ends in \r\n */
    }
    end = strstr(begin, "@@EDAN-NUMA-END");
    if (!end) { fprintf(stderr, "%s: run %d is not terminated\n", argv[1], run); return 1; }
    /* the section alone, as a profile's "numa" value */
    doc = malloc((size_t)(end - begin) + 16);
    if (!doc) return 1;
    sprintf(doc, "{\"numa\": %.*s}", (int)(end - begin), begin);
    if (edan_json_parse(doc, strlen(doc), NULL, &root, err, sizeof err) != EDAN_OK) {
        fprintf(stderr, "%s: run %d: %s\n", argv[1], run, err);
        return 1;
    }
    hy = edan_json_get(edan_json_get(root, "numa"), "hybrid");
    if (edan_json_len(hy) == 0) { fprintf(stderr, "%s: run %d: no hybrid models\n", argv[1], run); return 1; }
    for (h = 0; h < edan_json_len(hy); h++) {
        const edan_json *e = edan_json_at(hy, h), *pts = edan_json_get(e, "points");
        int cluster = (int)edan_json_number(edan_json_get(e, "cluster"), -1);
        edan_hybrid_model m;
        double (*q)[4] = calloc(edan_json_len(pts) + 1, sizeof *q);
        double *y = calloc(edan_json_len(pts) + 1, sizeof *y), got, printed;
        size_t n = 0;
        if (!q || !y) return 1;
        if (edan_hybrid_from_json(root, cluster, &m, err, sizeof err) != EDAN_OK) {
            fprintf(stderr, "%s: run %d: cluster %d: %s\n", argv[1], run, cluster, err);
            return 1;
        }
        for (i = 0; i < edan_json_len(pts); i++) {
            const edan_json *p = edan_json_at(pts, i);
            edan_hybrid_times t;
            if (!edan_json_bool(edan_json_get(p, "valid"), 0)) continue;
            for (k = 0; k < 4; k++) q[n][k] = edan_json_number(edan_json_get(edan_json_get(p, "q_GB"), names[k]), -1);
            y[n] = edan_json_number(edan_json_get(edan_json_get(p, "GBps"), "median"), -1);
            if (edan_hybrid_times_of(&m, q[n], &t) != EDAN_OK) {
                fprintf(stderr, "%s:%lu: cluster %d: the model does not evaluate at this point "
                        "(an undetermined theta is needed)\n", argv[1], edan_json_line(p), cluster);
                bad = 1;
            }
            n++;
        }
        printed = edan_json_number(edan_json_get(e, "error_pct"), NAN);
        if (edan_hybrid_error(&m, n, (const double (*)[4])q, y, &got) != EDAN_OK) got = NAN;
        if (isnan(got) != isnan(printed) || (!isnan(got) && fabs(got - printed) > 1e-6 * (1 + fabs(got)))) {
            fprintf(stderr, "%s: run %d: cluster %d: error_pct %g printed, %g from the profile through edan.h\n",
                    argv[1], run, cluster, printed, got);
            bad = 1;
        }
        printf("%s: run %d: cluster %d: %zu points evaluate, error %.3g%%\n", argv[1], run, cluster, n, got);
        free(q);
        free(y);
    }
    edan_json_free(root);
    free(doc);
    free(text);
    return bad;
}
