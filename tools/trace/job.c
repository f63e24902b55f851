/* tools/trace/job.c - MPI jobs: a rank's place in its job, from the environment
   its launcher gives it (mpirun and mpiexec of Open MPI and MPICH, Slurm's
   srun), for `edan trace`; and `edan job`, one report of a whole job from
   its ranks' JSON results. No launcher of our own: the cluster's runs the
   ranks. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../cmd/cli.h"
#include "../report/chart.h"
#include "../common/files.h"
#include "../common/jsonw.h"
#include "../common/opt.h"

/* ---------------------------------------------------------------------- */
/* A rank in its job                                                      */
/* ---------------------------------------------------------------------- */
/* A rank's or a job size's variable: the number, at most 2^24; -1 when not one. */
static long job_number(const char *s)
{
    uint32_t v;
    return s && !opt_u32(s, 0, 1u << 24, &v) ? (long)v : -1;
}

int cli_job_detect(cli_job *j, char *err, size_t errlen)
{
    /* the rank: the first of these set; the size: its launcher's variable, else another's (a
       PMIx rank under srun has Slurm's SLURM_NTASKS) */
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE",
                                            "SLURM_NTASKS"};
    size_t k, s;
    memset(j, 0, sizeof j[0]);
    j->size = 1;
    files_host(j->host, sizeof j->host);
    for (k = 0; k < sizeof rank_vars / sizeof rank_vars[0]; k++) {
        const char *r = getenv(rank_vars[k]), *n = getenv(size_vars[k]), *nv = size_vars[k];
        long rank, size;
        if (!r) continue;
        for (s = 0; !n && s < sizeof size_vars / sizeof size_vars[0]; s++)
            if ((n = getenv(size_vars[s]))) nv = size_vars[s];
        rank = job_number(r);
        size = job_number(n);
        if (rank < 0 || size < 1 || rank >= size) {
            if (err && errlen)
                snprintf(err, errlen, "%s=%s, %s=%s: not a rank of a job of that size", rank_vars[k], r, nv,
                         n ? n : "(not set)");
            return -1;
        }
        j->rank = rank;
        j->size = size;
        j->var = rank_vars[k];
        j->size_var = nv;
        return 0;
    }
    return 0;
}

char *cli_job_expand(const cli_job *j, const char *path)
{
    return files_expand(path, j->rank, j->host);
}

int cli_job_per_rank(const char *path)
{
    const char *p;
    for (p = path; *p; p++) {
        if (p[0] == '%' && p[1] == 'r') return 1;
        if (p[0] == '%' && p[1]) p++;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* edan job                                                               */
/* ---------------------------------------------------------------------- */
void cli_result_name(const edan_json *root, const char *path, char *out, size_t n)
{
    const char *source = edan_json_string(edan_json_get(root, "source"), path);
    const char *b = strrchr(source, '/');
    const edan_json *job = edan_json_get(root, "job");
    double rank = edan_json_number(edan_json_get(job, "rank"), -1);
    double size = edan_json_number(edan_json_get(job, "size"), 0);
    char *dot;
    size_t len;
    b = b ? b + 1 : source;
    snprintf(out, n, "%s", b);
    dot = strrchr(out, '.');
    if (dot && dot != out && (!strcmp(dot, ".txt") || !strcmp(dot, ".gz") || !strcmp(dot, ".json") ||
                              !strcmp(dot, ".bin") || !strcmp(dot, ".edbt")))
        *dot = 0;
    len = strlen(out);
    if (size > 1 && rank >= 0 && rank < size && rank == floor(rank) && len < n)
        snprintf(out + len, n - len, " rank %.0f", rank);
}

enum { JOB_HELP = 1, JOB_CONFIG, JOB_M, JOB_JSON, JOB_SVG };
static const opt_def job_opts[] = {
    {NULL, NULL, 0,
     "usage: edan job [options] RESULT.json...\n"
     "\n"
     "One report of an MPI job from its ranks' results (the --json reports that\n"
     "`edan trace -o results/rank%r.json ...` writes under mpirun, mpiexec or\n"
     "srun): a table of the ranks (instructions, W, D, chained share, lambda,\n"
     "time bounds), their totals, and the job's verdict: a bulk-synchronous job\n"
     "runs at the pace of its slowest rank (the largest upper bound), and the\n"
     "spread of W and D across the ranks is its imbalance. Every rank of the job\n"
     "must be there once: a missing rank, a rank twice, a result of another job\n"
     "(another program, ISA or other options), a rank that is not a whole number\n"
     "and a D or chained count above W are errors naming the files.\n"
     "\n"
     "Options:"},
    {"--config", "N", JOB_CONFIG, "which configuration of the reports (default 0)"},
    {"--m", "M", JOB_M, "memory issue slots (default 4; must be in the reports)"},
    {"--json", NULL, JOB_JSON, "print the job report as JSON"},
    {"--svg", "FILE", JOB_SVG, "draw the ranks' time bounds (SVG; - is standard output)"},
    {"-h|--help", NULL, JOB_HELP, "this text"},
};
#define JOB_NOPTS (sizeof job_opts / sizeof job_opts[0])

typedef struct job_rank {
    const char *path;
    long rank, size;
    char host[128], command[2048], program[1024], isa[16];
    double insns, W, D, chained, lambda, T_lower, T_upper;
    int partial;
} job_rank;

/* One rank's result; 0, or a message and -1. */
static int job_load(const char *path, uint32_t config, uint32_t m, job_rank *r)
{
    char key[16], *text;
    edan_json *root;
    const edan_json *job, *c, *mb;
    int rc = -1;
    memset(r, 0, sizeof *r);
    r->path = path;
    if (cli_json_read("edan job", path, &text, NULL, &root)) return -1;
    job = edan_json_get(root, "job");
    if (edan_json_kind(job) != EDAN_JSON_OBJECT) {
        opt_err("edan job", "%s: no \"job\" section: not the result of a rank (edan trace under mpirun, mpiexec or srun)",
                path);
        goto done;
    }
    {   /* whole numbers: a rank of 1.5 is no rank, not rank 1 */
        double rank = edan_json_number(edan_json_get(job, "rank"), -1);
        double size = edan_json_number(edan_json_get(job, "size"), -1);
        if (!(rank >= 0 && rank == floor(rank) && rank < 1 << 24)) {
            opt_err("edan job", "%s: \"job\".\"rank\" is not a whole number from 0", path);
            goto done;
        }
        if (!(size >= 1 && size == floor(size) && size <= 1 << 24) || rank >= size) {
            opt_err("edan job", "%s: \"job\".\"size\" is not a whole number above the rank", path);
            goto done;
        }
        r->rank = (long)rank;
        r->size = (long)size;
    }
    snprintf(r->isa, sizeof r->isa, "%s", edan_json_string(edan_json_get(root, "isa"), "?"));
    snprintf(r->host, sizeof r->host, "%s", edan_json_string(edan_json_get(job, "host"), "?"));
    snprintf(r->command, sizeof r->command, "%s", edan_json_string(edan_json_get(job, "command"), ""));
    snprintf(r->program, sizeof r->program, "%s", edan_json_string(edan_json_get(root, "source"), ""));
    r->partial = edan_json_bool(edan_json_get(root, "partial"), 0);
    c = edan_json_at(edan_json_get(root, "configs"), config);
    if (!c) {
        opt_err("edan job", "%s: no configuration %u", path, config);
        goto done;
    }
    snprintf(key, sizeof key, "%u", m);
    mb = edan_json_get(edan_json_get(c, "m"), key);
    if (!mb) {
        opt_err("edan job", "%s: no m = %u in configuration %u (--m picks one the reports have)", path, m, config);
        goto done;
    }
    r->insns = edan_json_number(edan_json_get(c, "instructions"), -1);
    r->W = edan_json_number(edan_json_get(c, "W"), -1);
    r->D = edan_json_number(edan_json_get(c, "D"), -1);
    r->chained = edan_json_number(edan_json_get(c, "chained"), -1);
    r->lambda = edan_json_number(edan_json_get(mb, "lambda"), -1);
    r->T_lower = edan_json_number(edan_json_get(mb, "T_lower"), -1);
    r->T_upper = edan_json_number(edan_json_get(mb, "T_upper"), -1);
    {
        const double v[] = {r->insns, r->W, r->D, r->chained, r->lambda, r->T_lower, r->T_upper};
        size_t k;
        for (k = 0; k < sizeof v / sizeof v[0]; k++)
            if (!(v[k] >= 0 && v[k] < 1e300)) {
                opt_err("edan job", "%s: a metric of configuration %u is missing or out of range", path, config);
                goto done;
            }
        if (r->D > r->W || r->chained > r->W) {   /* D counts accesses of W; chained ones too */
            opt_err("edan job", "%s: configuration %u's %s (%.0f) exceeds its W (%.0f)", path, config,
                    r->D > r->W ? "D" : "\"chained\"", r->D > r->W ? r->D : r->chained, r->W);
            goto done;
        }
    }
    rc = 0;
done:
    edan_json_free(root);
    free(text);
    return rc;
}

static int job_cmp_rank(const void *a, const void *b)
{
    const job_rank *x = (const job_rank *)a, *y = (const job_rank *)b;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* The ranks are one job, each once, all there: 0, or a message naming the files and -1. */
static int job_check(job_rank *r, size_t n)
{
    size_t i, missing = 0;
    char list[256] = "";
    for (i = 1; i < n; i++) {
        if (strcmp(r[i].isa, r[0].isa))
            return opt_err("edan job", "%s is not of the job of %s: \"isa\" %s, not %s", r[i].path, r[0].path,
                           r[i].isa, r[0].isa);
        if (r[i].size != r[0].size || strcmp(r[i].command, r[0].command) || strcmp(r[i].program, r[0].program))
            return opt_err("edan job", "%s is not of the job of %s (%s): %s", r[i].path, r[0].path,
                           r[i].size != r[0].size ? "another number of ranks"
                           : strcmp(r[i].program, r[0].program) ? "another program" : "other options",
                           r[i].size != r[0].size ? "" : strcmp(r[i].program, r[0].program) ? r[i].program
                                                                                              : r[i].command);
    }
    qsort(r, n, sizeof *r, job_cmp_rank);
    for (i = 1; i < n; i++)
        if (r[i].rank == r[i - 1].rank)
            return opt_err("edan job", "%s and %s are both rank %ld", r[i - 1].path, r[i].path, r[i].rank);
    if ((long)n == r[0].size) return 0;
    {
        long k;
        size_t j = 0;
        for (k = 0; k < r[0].size; k++) {
            while (j < n && r[j].rank < k) j++;
            if (j < n && r[j].rank == k) continue;
            if (missing++ < 8)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%ld", missing > 1 ? ", " : "", k);
        }
    }
    return opt_err("edan job", "%zu rank%s of the job's %ld missing: %s%s", missing, missing == 1 ? "" : "s", r[0].size,
                   list, missing > 8 ? ", ..." : "");
}

static double job_median(const job_rank *r, size_t n, size_t off)
{
    double *v = (double *)malloc(n * sizeof *v), med;
    size_t i, j;
    if (!v) return 0;
    for (i = 0; i < n; i++) v[i] = *(const double *)((const char *)&r[i] + off);
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    free(v);
    return med;
}

/* The job's figures from its ranks. */
typedef struct job_sum {
    double insns, W, D, chained;        /* totals (D: the largest) */
    size_t slowest;                     /* the rank with the largest upper bound */
    double median_upper;
    double W_min, W_max, D_min, D_max;
    int partial;
} job_sum;

static void job_summarise(const job_rank *r, size_t n, job_sum *s)
{
    size_t i;
    memset(s, 0, sizeof *s);
    s->W_min = s->D_min = 1e300;
    for (i = 0; i < n; i++) {
        s->insns += r[i].insns;
        s->W += r[i].W;
        s->chained += r[i].chained;
        if (r[i].D > s->D) s->D = r[i].D;
        if (r[i].T_upper > r[s->slowest].T_upper) s->slowest = i;
        if (r[i].W < s->W_min) s->W_min = r[i].W;
        if (r[i].W > s->W_max) s->W_max = r[i].W;
        if (r[i].D < s->D_min) s->D_min = r[i].D;
        if (r[i].D > s->D_max) s->D_max = r[i].D;
        s->partial |= r[i].partial;
    }
    s->median_upper = job_median(r, n, offsetof(job_rank, T_upper));
}

static void job_verdict(const job_rank *r, size_t n, const job_sum *s, char *out, size_t len)
{
    const job_rank *w = &r[s->slowest];
    double ratio = s->median_upper > 0 ? w->T_upper / s->median_upper : 1.0;
    snprintf(out, len,
             "rank %ld bounds the job: its upper time bound, %.4g cycles, is %.2fx the median rank's (a "
             "bulk-synchronous job waits for its slowest rank at every step); W spreads %.2fx across the %zu ranks "
             "(%.0f to %.0f) and D %.2fx (%.0f to %.0f)",
             w->rank, w->T_upper, ratio, s->W_min > 0 ? s->W_max / s->W_min : 1.0, n, s->W_min, s->W_max,
             s->D_min > 0 ? s->D_max / s->D_min : 1.0, s->D_min, s->D_max);
}

static void job_table(const job_rank *r, size_t n, const job_sum *s, uint32_t config, uint32_t m, FILE *o)
{
    size_t i;
    char verdict[600];
    job_verdict(r, n, s, verdict, sizeof verdict);
    fprintf(o, "Job of %zu ranks: %s (configuration %u, m = %u)%s\n\n", n, r[0].program, config, m,
            s->partial ? "; PARTIAL: a rank's run ended early" : "");
    fprintf(o, "Verdict: %s.\n\n", verdict);
    fprintf(o, "  %5s %-16s %14s %12s %9s %8s %12s %14s %14s\n", "rank", "host", "instructions", "W", "D", "chained",
            "lambda", "T lower", "T upper");
    for (i = 0; i < n; i++)
        fprintf(o, "  %5ld %-16.16s %14.0f %12.0f %9.0f %7.1f%% %12.2f %14.0f %14.0f%s\n", r[i].rank, r[i].host,
                r[i].insns, r[i].W, r[i].D, r[i].W > 0 ? 100.0 * r[i].chained / r[i].W : 0.0, r[i].lambda,
                r[i].T_lower, r[i].T_upper, r[i].partial ? "  (partial)" : "");
    fprintf(o, "  %5s %-16s %14.0f %12.0f %9.0f %7.1f%%\n", "all", "", s->insns, s->W, s->D,
            s->W > 0 ? 100.0 * s->chained / s->W : 0.0);
    fprintf(o, "\n(instructions, W and chained: sums over the ranks; D: the largest rank's.)\n");
}

static void job_json(const job_rank *r, size_t n, const job_sum *s, uint32_t config, uint32_t m, FILE *o)
{
    static const char *const spread_names[] = {"W_min", "W_max", "D_min", "D_max"};
    static const char *const total_names[] = {"instructions", "W", "D", "chained"};
    static const char *const rank_names[] = {"instructions", "W", "D", "chained", "lambda", "T_lower", "T_upper"};
    const double spread[] = {s->W_min, s->W_max, s->D_min, s->D_max};
    const double total[] = {s->insns, s->W, s->D, s->chained};
    size_t i;
    char verdict[600];
    jw w;
    job_verdict(r, n, s, verdict, sizeof verdict);
    jw_init(&w, o);
    w.real_digits = 17;
    jw_obj_as(&w, NULL, JW_ROWS);
    jw_row(&w);
    jw_str(&w, "program", r[0].program);
    jw_row(&w);
    jw_uint(&w, "ranks", n);
    jw_uint(&w, "config", config);
    jw_uint(&w, "m", m);
    jw_bool(&w, "partial", s->partial);
    jw_row(&w);
    jw_str(&w, "verdict", verdict);
    jw_row(&w);
    jw_obj_as(&w, "slowest", JW_INLINE);
    jw_int(&w, "rank", r[s->slowest].rank);
    jw_num(&w, "T_upper", r[s->slowest].T_upper);
    jw_num(&w, "over_median", s->median_upper > 0 ? r[s->slowest].T_upper / s->median_upper : 1.0);
    jw_end_obj(&w);
    jw_row(&w);
    jw_obj_as(&w, "imbalance", JW_INLINE);
    jw_nums(&w, spread_names, spread, sizeof spread / sizeof spread[0]);
    jw_end_obj(&w);
    jw_row(&w);
    jw_obj_as(&w, "total", JW_INLINE);
    jw_nums(&w, total_names, total, sizeof total / sizeof total[0]);
    jw_end_obj(&w);
    jw_row(&w);
    jw_arr_as(&w, "by_rank", JW_ROWS);
    for (i = 0; i < n; i++) {
        const double counts[] = {r[i].insns, r[i].W, r[i].D, r[i].chained, r[i].lambda, r[i].T_lower, r[i].T_upper};
        jw_row(&w);
        jw_obj_as(&w, NULL, JW_INLINE);
        jw_int(&w, "rank", r[i].rank);
        jw_str(&w, "host", r[i].host);
        jw_str(&w, "file", r[i].path);
        jw_nums(&w, rank_names, counts, sizeof counts / sizeof counts[0]);
        jw_bool(&w, "partial", r[i].partial);
        jw_end_obj(&w);
    }
    jw_end_arr(&w);
    jw_end_obj(&w);
    fputc('\n', o);
}

/* The ranks' time bounds: a bar from the lower to the upper bound per rank,
   the slowest rank's in red. */
static int job_svg(const job_rank *r, size_t n, const job_sum *s, uint32_t m, const char *path)
{
    files_out out;
    char err[512], title[200];
    chart_axis x, y;
    chart_tick xt[CHART_MAX_TICKS], yt[CHART_MAX_TICKS];
    size_t nx, ny, i;
    double hi = 0;
    FILE *o;
    for (i = 0; i < n; i++)
        if (r[i].T_upper > hi) hi = r[i].T_upper;
    if (files_out_open(&out, path, err, sizeof err)) return opt_err("edan job", "cannot write %s", err);
    o = out.f;
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.p0 = 90;
    x.p1 = 760;
    y.p0 = 420;
    y.p1 = 70;
    chart_fit_linear(&x, -0.5, (double)n - 0.5, n < 16 ? (int)n : 16, 0);
    x.lo = -0.5;
    x.hi = (double)n - 0.5;
    chart_fit_linear(&y, 0, hi > 0 ? hi : 1, 6, 1);
    nx = 0;
    for (i = 0; i < n && nx < CHART_MAX_TICKS; i += (n + CHART_MAX_TICKS - 1) / CHART_MAX_TICKS) {
        xt[nx].v = (double)i;
        xt[nx].minor = 0;
        snprintf(xt[nx].label, sizeof xt[nx].label, "%ld", r[i].rank);
        nx++;
    }
    ny = chart_ticks_linear(&y, "", yt, CHART_MAX_TICKS);
    snprintf(title, sizeof title, "Time bounds of the job's %zu ranks (m = %u)", n, m);
    chart_begin(o, 800, 480, 425, title, "bar: lower to upper bound; red: the rank that bounds the job");
    chart_axes(o, &x, &y, xt, nx, yt, ny, "rank", "cycles");
    for (i = 0; i < n; i++) {
        double cx = chart_pos(&x, (double)i), w = (x.p1 - x.p0) / (double)n * 0.6;
        double y0 = chart_pos(&y, r[i].T_lower), y1 = chart_pos(&y, r[i].T_upper);
        fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", cx - w / 2, y1,
                w, y0 - y1 > 1 ? y0 - y1 : 1, i == s->slowest ? "#d62728" : chart_colors[0]);
    }
    chart_frame(o, &x, &y);
    chart_end(o);
    if (files_out_close(&out, err, sizeof err)) return opt_err("edan job", "cannot write %s", err);
    return 0;
}

int edan_cmd_job(int argc, char **argv)
{
    uint32_t config = 0, m = CLI_M_PAPER;
    int json = 0, i, k, rc = 2;
    const char *svg = NULL, *val;
    job_rank *r = NULL;
    size_t n = 0;
    job_sum s;
    const char **files = (const char **)calloc((size_t)argc + 1, sizeof *files);
    if (!files) {
        cli_err("out of memory");
        return 2;
    }
    for (i = 1; (k = opt_next("edan job", job_opts, JOB_NOPTS, argc, argv, &i, &val)) != OPT_END;) {
        if (k == OPT_ERROR) goto out;
        if (k == JOB_HELP) {
            opt_help(stdout, job_opts, JOB_NOPTS);
            rc = 0;
            goto out;
        }
        if (k == JOB_JSON) json = 1;
        else if (k == JOB_SVG) svg = val;
        else if (k == OPT_OPERAND) files[n++] = val;
        else if (k == OPT_REST) while (i < argc) files[n++] = argv[i++];
        else if (k == JOB_M ? opt_u32(val, 1, CLI_MAX_M, &m) : opt_u32(val, 0, EDAN_MAX_CONFIGS - 1, &config)) {
            opt_err("edan job", "%s %s: a small whole number", k == JOB_M ? "--m" : "--config", val);
            goto out;
        }
    }
    if (!n) {
        opt_help(stderr, job_opts, JOB_NOPTS);
        opt_err("edan job", "no results given");
        goto out;
    }
    if (svg) {
        files_role out_role = {svg, "--svg"};
        files_role *in = (files_role *)calloc(n, sizeof *in);
        char err[600];
        size_t k;
        if (!in) goto out;
        for (k = 0; k < n; k++) { in[k].path = files[k]; in[k].what = "a result"; }
        if (files_check_roles(&out_role, 1, in, n, err, sizeof err)) {
            free(in);
            opt_err("edan job", "%s", err);
            goto out;
        }
        free(in);
        if (cli_output_check(svg)) goto out;
    }
    r = (job_rank *)calloc(n, sizeof *r);
    if (!r) goto out;
    for (i = 0; i < (int)n; i++)
        if (job_load(files[i], config, m, &r[i])) goto out;
    if (job_check(r, n)) goto out;
    job_summarise(r, n, &s);
    if (json) job_json(r, n, &s, config, m, stdout);
    else job_table(r, n, &s, config, m, stdout);
    if (svg && job_svg(r, n, &s, m, svg)) goto out;
    rc = s.partial ? 1 : 0;
out:
    free(r);
    free(files);
    return rc;
}
