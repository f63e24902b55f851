/* tools/cmd/rank.c - `edan rank`: ranks applications by memory-latency
   sensitivity from the JSON reports of `edan analyze` / `edan trace`, by
   lambda (absolute) and by Lambda (relative), the way the EDAN paper
   compares kernels. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../common/files.h"
#include "../common/jsonw.h"
#include "../common/opt.h"

enum { RANK_HELP = 1, RANK_M, RANK_CONFIG, RANK_JSON };
static const opt_def rank_opts[] = {
    {NULL, NULL, 0,
     "usage: edan rank [options] RESULT.json...\n"
     "\n"
     "Ranks applications by memory-latency sensitivity: first by lambda_window\n"
     "(the RAM latencies on the windowed schedule's critical path: how many\n"
     "latencies a core's time grows by when the latency grows by one; when\n"
     "every report has it at M), then by lambda (the same for the paper's\n"
     "worst-case time, any two independent accesses overlapping) and by Lambda\n"
     "(lambda relative to the application's time). Each RESULT is the --json\n"
     "report of `edan analyze` or `edan trace`.\n"
     "\n"
     "Options (each applies to every report, before or after it):"},
    {"--m", "M", RANK_M, "memory issue slots to rank at (default 4; must be in the\nreports)"},
    {"--config", "NAME|N", RANK_CONFIG, "which configuration of each report (default: the\nfirst)"},
    {"--json", NULL, RANK_JSON, "print the ranking as JSON"},
    {"-h|--help", NULL, RANK_HELP, "this text"},
    {NULL, NULL, 0,
     "\n"
     "Lambda ignores how computation overlaps memory accesses, so it ranks well\n"
     "only when memory work is a large part of the work: the W/C column shows it\n"
     "(rows with W/C < 0.3 are marked)."},
};
#define RANK_NOPTS (sizeof rank_opts / sizeof rank_opts[0])

typedef struct rank_app {
    char name[128];
    double W, D, C, lambda, Lambda, w_over_c;
    double lambda_window;   /* -1: the report has no windowed schedule at this m */
} rank_app;

static int rank_by_window(const void *a, const void *b)
{
    const rank_app *x = (const rank_app *)a, *y = (const rank_app *)b;
    if (x->lambda_window != y->lambda_window) return x->lambda_window < y->lambda_window ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int rank_by_lambda(const void *a, const void *b)
{
    const rank_app *x = (const rank_app *)a, *y = (const rank_app *)b;
    if (x->lambda != y->lambda) return x->lambda < y->lambda ? 1 : -1;
    return strcmp(x->name, y->name);
}
static int rank_by_Lambda(const void *a, const void *b)
{
    const rank_app *x = (const rank_app *)a, *y = (const rank_app *)b;
    if (x->Lambda != y->Lambda) return x->Lambda < y->Lambda ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The largest W, D, C (the engine's 64-bit counts) and lambda, Lambda (at
   most one latency per access) a report can hold. */
#define RANK_MAX_VALUE 18446744073709551616.0

/* obj's number `key`: 0 and *out, or -1 with `path:line: what is wrong`.
   W, D and C are counts (whole); every value is in [0, 2^64], so that
   what rank prints and divides stays finite. */
static int rank_value(const char *path, const edan_json *obj, const char *key, int whole, double *out)
{
    const edan_json *v = edan_json_get(obj, key);
    double x = edan_json_number(v, -1);
    if (edan_json_kind(v) != EDAN_JSON_NUMBER) {
        opt_ferr("edan rank", path, edan_json_line(v ? v : obj), "no number \"%s\"", key);
        return -1;
    }
    if (!(x >= 0 && x <= RANK_MAX_VALUE) || (whole && x != floor(x))) {
        opt_ferr("edan rank", path, edan_json_line(v), "\"%s\" is %g: expected a %s from 0 to 2^64", key, x,
                 whole ? "whole number" : "number");
        return -1;
    }
    *out = x;
    return 0;
}

/* Reads one report; returns 0 or prints `path: what is wrong` and returns -1. */
static int rank_load(const char *path, const char *config, uint32_t m, rank_app *app)
{
    size_t i, n;
    char key[16], *text;
    edan_json *root;
    const edan_json *cfgs, *c = NULL, *b;
    int rc = -1;
    if (cli_report_read("edan rank", path, &text, &root, &cfgs)) return -1;
    n = edan_json_len(cfgs);
    if (!config) {
        c = edan_json_at(cfgs, 0);
    } else {
        uint64_t idx;
        if (!opt_u64(config, 0, UINT64_MAX, &idx)) c = idx < n ? edan_json_at(cfgs, (size_t)idx) : NULL;
        for (i = 0; !c && i < n; i++)
            if (!strcmp(edan_json_string(edan_json_get(edan_json_at(cfgs, i), "name"), ""), config))
                c = edan_json_at(cfgs, i);
        if (!c) {
            opt_ferr("edan rank", path, 0, "no configuration '%s'", config);
            goto done;
        }
    }
    snprintf(key, sizeof key, "%u", m);
    b = edan_json_get(edan_json_get(c, "m"), key);
    if (!b) {
        opt_ferr("edan rank", path, 0, "the report has no m = %u (analyse with --m %u)", m, m);
        goto done;
    }
    cli_result_name(root, path, app->name, sizeof app->name);
    if (rank_value(path, c, "W", 1, &app->W) || rank_value(path, c, "D", 1, &app->D) ||
        rank_value(path, c, "C", 1, &app->C) || rank_value(path, b, "lambda", 0, &app->lambda) ||
        rank_value(path, b, "Lambda", 0, &app->Lambda))
        goto done;
    app->w_over_c = app->C > 0 ? app->W / app->C : 0.0;     /* C >= 1: at most 2^64 */
    app->lambda_window = -1;
    if (edan_json_get(b, "lambda_window") && rank_value(path, b, "lambda_window", 1, &app->lambda_window)) goto done;
    rc = 0;
done:
    edan_json_free(root);
    free(text);
    return rc;
}

int edan_cmd_rank(int argc, char **argv)
{
    rank_app *apps;
    const char *config = NULL;
    uint32_t m = CLI_M_PAPER;
    const char *val;
    int i, n = 0, json = 0, k, window = 0;
    apps = (rank_app *)calloc((size_t)argc, sizeof *apps);
    if (!apps) return 2;
    /* the options first, wherever they stand: each applies to every report */
    for (i = 1; (k = opt_next("edan rank", rank_opts, RANK_NOPTS, argc, argv, &i, &val)) != OPT_END;) {
        if (k == RANK_HELP) {
            opt_help(stdout, rank_opts, RANK_NOPTS);
            free(apps);
            return 0;
        } else if (k == RANK_JSON) {
            json = 1;
        } else if (k == RANK_M) {
            if (opt_u32(val, 1, CLI_MAX_M, &m)) {
                opt_err("edan rank", "--m %s: expected a positive integer", val);
                free(apps);
                return 2;
            }
        } else if (k == RANK_CONFIG) {
            config = val;
        } else if (k == OPT_ERROR || k == OPT_REST) {
            if (k == OPT_REST) opt_err("edan rank", "'--' is not an option of edan rank (see edan rank --help)");
            free(apps);
            return 2;
        }
    }
    for (i = 1; (k = opt_next("edan rank", rank_opts, RANK_NOPTS, argc, argv, &i, &val)) != OPT_END;) {
        if (k == OPT_OPERAND) {
            if (rank_load(val, config, m, &apps[n])) {
                free(apps);
                return 2;
            }
            n++;
        }
    }
    if (n < 1) {
        opt_help(stderr, rank_opts, RANK_NOPTS);
        opt_err("edan rank", "no reports given");
        free(apps);
        return 2;
    }
    {   /* the window's ranking when every report has it at m */
        int all = 1;
        for (i = 0; i < n; i++) all &= apps[i].lambda_window >= 0;
        window = all;
        if (!all && !json)
            for (i = 0; i < n; i++)
                if (apps[i].lambda_window < 0) {
                    printf("No ranking by lambda_window: %s has no windowed schedule at m = %u (analysed with "
                           "--window 0, or at another m: --window-all-m).\n\n", apps[i].name, m);
                    break;
                }
    }
    if (json) {
        jw w;
        jw_init(&w, stdout);
        w.real_digits = 17;
        jw_obj_as(&w, NULL, JW_ROWS);
        jw_row(&w);
        jw_uint(&w, "m", m);
        for (k = window ? -1 : 0; k < 2; k++) {
            qsort(apps, (size_t)n, sizeof *apps, k < 0 ? rank_by_window : k ? rank_by_Lambda : rank_by_lambda);
            jw_row(&w);
            jw_arr_as(&w, k < 0 ? "by_lambda_window" : k ? "by_Lambda" : "by_lambda", JW_ROWS);
            for (i = 0; i < n; i++) {
                jw_row(&w);
                jw_obj_as(&w, NULL, JW_INLINE);
                jw_int(&w, "rank", i + 1);
                jw_str(&w, "name", apps[i].name);
                jw_num(&w, "W", apps[i].W);
                jw_num(&w, "D", apps[i].D);
                jw_num(&w, "C", apps[i].C);
                jw_num(&w, "lambda", apps[i].lambda);
                jw_num(&w, "Lambda", apps[i].Lambda);
                jw_num(&w, "W_over_C", apps[i].w_over_c);
                if (apps[i].lambda_window >= 0) jw_num(&w, "lambda_window", apps[i].lambda_window);
                jw_end_obj(&w);
            }
            jw_end_arr(&w);
        }
        jw_end_obj(&w);
        putchar('\n');
    } else {
        for (k = window ? -1 : 0; k < 2; k++) {
            char lw[32] = "-";
            qsort(apps, (size_t)n, sizeof *apps, k < 0 ? rank_by_window : k ? rank_by_Lambda : rank_by_lambda);
            printf("%sRanking by %s (m = %u), most latency-sensitive first:\n", k > (window ? -1 : 0) ? "\n" : "",
                   k < 0 ? "lambda_window, a core's sensitivity (the windowed schedule)"
                   : k ? "Lambda, relative sensitivity" : "lambda, absolute sensitivity (the paper's bound)", m);
            printf("  %4s  %-20s %14s %10s %14s %14s %12s %10s %8s\n", "rank", "application", "W", "D",
                   "lambda_window", "lambda", "Lambda", "W/C", "");
            for (i = 0; i < n; i++) {
                if (apps[i].lambda_window >= 0) snprintf(lw, sizeof lw, "%.0f", apps[i].lambda_window);
                else snprintf(lw, sizeof lw, "-");
                printf("  %4d  %-20s %14.0f %10.0f %14s %14.2f %12.6g %10.4f %8s\n", i + 1, apps[i].name, apps[i].W,
                       apps[i].D, lw, apps[i].lambda, apps[i].Lambda, apps[i].w_over_c,
                       k > 0 && apps[i].w_over_c < 0.3 ? "W/C<0.3" : "");
            }
        }
    }
    free(apps);
    return 0;
}
