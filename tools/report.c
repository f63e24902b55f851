/* tools/report.c - the report of an analysis (table, JSON, timeline CSV,
   sweep CSV, DOT, the verdict), the program's symbols that name its
   hotspots, and the progress line. No main: also linked into the QEMU
   plugin. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "x86.h"
#include "files.h"
#include "jsonw.h"
#include "suggest.h"

int cli_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    opt_verr("edan", NULL, 0, fmt, ap);
    va_end(ap);
    return -1;
}

const cli_object *cli_object_of(const cli_analysis *a, uint64_t pc)
{
    size_t i;
    for (i = 0; i < a->nobjects; i++)
        if (pc >= a->objects[i].lo && pc < a->objects[i].hi) return &a->objects[i];
    return NULL;
}

uint64_t cli_file_address(const cli_analysis *a, uint64_t pc)
{
    const cli_object *o = cli_object_of(a, pc);
    return o && !o->is_program && o->path ? pc - o->bias : pc - a->elf_bias;
}

/* The names of pcs for --top: the program's symbols, and those of each
   shared object whose code ran, opened when one of its pcs is named. */
typedef struct cli_where {
    const cli_analysis *a;
    cli_syms prog;
    cli_syms *objs;         /* one per a->objects */
    char *tried;
    const char *why;        /* why the program's could not be opened */
} cli_where;

static void cli_where_open(cli_where *w, const cli_analysis *a)
{
    memset(w, 0, sizeof *w);
    w->a = a;
    if (!a->elf_path || cli_syms_open(&w->prog, a->elf_path, a->elf_bias, &w->why)) {
        memset(&w->prog, 0, sizeof w->prog);
        if (!a->elf_path) w->why = NULL;
    }
    if (a->nobjects) {
        w->objs = (cli_syms *)calloc(a->nobjects, sizeof *w->objs);
        w->tried = (char *)calloc(a->nobjects, 1);
    }
}

/* Names the program or a shared object: any. */
static int cli_where_any(const cli_where *w) { return w->prog.mod || (w->objs && w->a->nobjects > 1); }

/* pc's function (demangled; NULL: none), its symbol as the file has it,
   file and line (NULL: none), and its shared object's name (NULL: the
   program's). */
static void cli_where_at(cli_where *w, uint64_t pc, const char **fn, const char **sym, const char **file, int *line,
                         const char **object)
{
    const cli_object *o = cli_object_of(w->a, pc);
    cli_syms *s = &w->prog;
    *object = NULL;
    if (o && !o->is_program && o->path && w->objs && w->tried) {
        size_t i = (size_t)(o - w->a->objects);
        const char *why, *b = strrchr(o->path, '/');
        if (!w->tried[i]) {
            w->tried[i] = 1;
            if (cli_syms_open(&w->objs[i], o->path, o->bias, &why)) memset(&w->objs[i], 0, sizeof w->objs[i]);
        }
        s = &w->objs[i];
        *object = b ? b + 1 : o->path;
    }
    cli_syms_at(s, pc, fn, file, line);
    *sym = s->sym;
}

static void cli_where_close(cli_where *w)
{
    size_t i;
    cli_syms_close(&w->prog);
    for (i = 0; w->objs && i < w->a->nobjects; i++)
        if (w->tried[i]) cli_syms_close(&w->objs[i]);
    free(w->objs);
    free(w->tried);
}

/* ---- progress ------------------------------------------------------------ */
double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_progress_start(cli_progress *p, unsigned long long total_bytes, int quiet)
{
    p->enabled = !quiet && isatty(2);
    p->t_start = p->t_last = cli_now();
    p->total_bytes = total_bytes;
}

static void cli_human(char *buf, size_t n, double v, const char *unit)
{
    if (v >= 1e9) snprintf(buf, n, "%.1f G%s", v / 1e9, unit);
    else if (v >= 1e6) snprintf(buf, n, "%.1f M%s", v / 1e6, unit);
    else if (v >= 1e3) snprintf(buf, n, "%.1f k%s", v / 1e3, unit);
    else snprintf(buf, n, "%.0f %s", v, unit);
}

void cli_progress_update(cli_progress *p, unsigned long long bytes, unsigned long long insns)
{
    double now;
    char b[32], t[32], r[32];
    if (!p->enabled) return;
    now = cli_now();
    if (now - p->t_last < 1.0) return;
    p->t_last = now;
    cli_human(b, sizeof b, (double)bytes, "B");
    cli_human(r, sizeof r, (double)insns / (now - p->t_start), "instr/s");
    if (p->total_bytes) {
        cli_human(t, sizeof t, (double)p->total_bytes, "B");
        fprintf(stderr, "\r  %s of %s (%.0f%%), %llu instructions, %s   ", b, t,
                100.0 * (double)bytes / (double)p->total_bytes, insns, r);
    } else if (bytes) {
        fprintf(stderr, "\r  %s read, %llu instructions, %s   ", b, insns, r);
    } else {    /* no input file: the tracer's */
        fprintf(stderr, "\r  %llu instructions, %s   ", insns, r);
    }
}

void cli_progress_end(cli_progress *p)
{
    if (p->enabled && p->t_last > p->t_start) fprintf(stderr, "\r%*s\r", 78, "");
}

/* ---- report ---------------------------------------------------------------- */
const char *cli_op_name(const cli_analysis *a, uint32_t op)
{
    const char *n = a && a->op_name ? a->op_name(op) : edan_rv_op_name(op);
    return n ? n : "unknown-op";     /* an op id of another front-end or a damaged trace: named, not NULL */
}

int cli_code_add(cli_code *c, uint64_t pc, const uint8_t *bytes, unsigned len)
{
    size_t i, mask;
    if ((c->used + 1) * 2 > c->cap) {   /* keep the load under 1/2 */
        size_t nc = c->cap ? 2 * c->cap : 1024, j;
        uint64_t *np = (uint64_t *)calloc(nc, sizeof *np);
        uint8_t (*nb)[16] = (uint8_t (*)[16])calloc(nc, sizeof *nb);
        if (!np || !nb) {
            free(np);
            free(nb);
            return -1;
        }
        for (j = 0; j < c->cap; j++) {
            if (!c->pc[j]) continue;
            for (i = (size_t)((c->pc[j] * 0x9e3779b97f4a7c15ull) >> 20) & (nc - 1); np[i]; i = (i + 1) & (nc - 1)) {}
            np[i] = c->pc[j];
            memcpy(nb[i], c->bytes[j], 16);
        }
        free(c->pc);
        free(c->bytes);
        c->pc = np;
        c->bytes = nb;
        c->cap = nc;
    }
    mask = c->cap - 1;
    for (i = (size_t)(((pc + 1) * 0x9e3779b97f4a7c15ull) >> 20) & mask; c->pc[i]; i = (i + 1) & mask)
        if (c->pc[i] == pc + 1) return 0;
    c->pc[i] = pc + 1;      /* 0: an empty slot */
    if (len > 15) len = 15;
    c->bytes[i][0] = (uint8_t)len;
    memcpy(c->bytes[i] + 1, bytes, len);
    c->used++;
    return 0;
}

/* The bytes of the instruction at pc (*len of them), or NULL. */
static const uint8_t *cli_code_get(const cli_code *c, uint64_t pc, unsigned *len)
{
    size_t i, mask;
    if (!c || !c->cap) return NULL;
    mask = c->cap - 1;
    for (i = (size_t)(((pc + 1) * 0x9e3779b97f4a7c15ull) >> 20) & mask; c->pc[i]; i = (i + 1) & mask)
        if (c->pc[i] == pc + 1) {
            *len = c->bytes[i][0];
            return c->bytes[i] + 1;
        }
    return NULL;
}

void cli_code_free(cli_code *c)
{
    free(c->pc);
    free(c->bytes);
    memset(c, 0, sizeof *c);
}

void cli_insn_text(const cli_analysis *a, const edan_insn *in, int role, char *buf, size_t n)
{
    unsigned len = 0;
    const uint8_t *b = a && a->isa == EDAN_ISA_X86_64 && (in->flags & EDAN_INSN_HAS_PC)
                       ? cli_code_get(a->code, in->pc, &len) : NULL;
    size_t used;
    /* rip-relative targets at the program file's addresses, as objdump -d shows them */
    if (!b || x86_format(b, len, cli_file_address(a, in->pc), buf, n) != 0) snprintf(buf, n, "%s", cli_op_name(a, in->op));
    used = strlen(buf);
    if (role && a && a->isa == EDAN_ISA_X86_64 && *x86_op_role(in->op))
        snprintf(buf + used, n - used, " (%s)", x86_op_role(in->op));
}

static void cli_config_label(const edan_config *c, char *buf, size_t n)
{
    uint32_t l;
    size_t used = 0;
    if (c->name && strcmp(c->name, "cache") && strcmp(c->name, "no cache")) {
        snprintf(buf, n, "%s", c->name);
        return;
    }
    if (!c->num_levels) {
        snprintf(buf, n, "no cache");
        return;
    }
    buf[0] = 0;
    for (l = 0; l < c->num_levels && used < n; l++) {
        uint64_t s = c->level[l].size;
        int w;
        if (s % (1u << 20) == 0) w = snprintf(buf + used, n - used, "%sL%u %lluM", l ? " " : "", l + 1, (unsigned long long)(s >> 20));
        else if (s % 1024 == 0) w = snprintf(buf + used, n - used, "%sL%u %lluK", l ? " " : "", l + 1, (unsigned long long)(s >> 10));
        else w = snprintf(buf + used, n - used, "%sL%u %lluB", l ? " " : "", l + 1, (unsigned long long)s);
        if (w < 0) break;
        used += (size_t)w;
    }
    if (used < n && c->write_policy == EDAN_WRITE_THROUGH) snprintf(buf + used, n - used, " wt");
}

/* The report's files (tools/files.h): messages on stderr. */
typedef files_out cli_file;
static int cli_file_open(cli_file *cf, const char *path)
{
    char err[512];
    return files_out_open(cf, path, err, sizeof err) ? cli_err("cannot write %s", err) : 0;
}
static int cli_file_close(cli_file *cf)
{
    char err[512];
    return files_out_close(cf, err, sizeof err) ? cli_err("cannot write %s", err) : 0;
}

int cli_output_check(const char *path)
{
    cli_file cf;
    char err[512];
    if (files_out_in_place(path)) return 0;     /* opening a FIFO now would wait for its reader */
    if (files_out_open(&cf, path, err, sizeof err)) return cli_err("cannot write %s", err);
    files_out_discard(&cf);
    return 0;
}

static int cli_write_timeline(edan_context *ctx, const cli_analysis *a)
{
    cli_file cf;
    uint32_t k, K = edan_num_configs(ctx);
    const uint64_t *bins[EDAN_MAX_CONFIGS];
    size_t nb[EDAN_MAX_CONFIGS], rows = 0, i;
    char label[128];
    /* each configuration's bin array stays valid until the next feed */
    for (k = 0; k < K; k++) {
        if (edan_get_timeline(ctx, k, &bins[k], &nb[k]) != EDAN_OK)
            return cli_err("timeline: %s", edan_error(ctx));
        if (nb[k] > rows) rows = nb[k];
    }
    if (cli_file_open(&cf, a->timeline_path)) return -1;
    fprintf(cf.f, "phase");
    for (k = 0; k < K; k++) {
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        fprintf(cf.f, ",cycle[%s],bytes[%s]", label, label);
    }
    fputc('\n', cf.f);
    for (i = 0; i < rows; i++) {
        fprintf(cf.f, "%zu", i);
        for (k = 0; k < K; k++) {
            uint64_t tau = edan_get_config(ctx, k)->tau;
            fprintf(cf.f, ",%llu,%llu", (unsigned long long)(tau * i), (unsigned long long)(i < nb[k] ? bins[k][i] : 0));
        }
        fputc('\n', cf.f);
    }
    return cli_file_close(&cf);
}

/* --layers FILE: every W_i of each configuration, streamed through a
   buffer (the engine holds no array of D counts). FILE.csv: "layer,W[label]
   ..." and a row a layer, 0 past a configuration's D; any other name: the
   binary form, "EDANLAYR", u32 version 1, u32 configurations K, K x u64 D,
   then each configuration's D x u64 W_i (all little-endian). */
static void cli_put_le(FILE *f, uint64_t v, int bytes)
{
    int i;
    for (i = 0; i < bytes; i++) fputc((int)(v >> (8 * i) & 0xff), f);
}
static int cli_write_layers(edan_context *ctx, const cli_analysis *a)
{
    enum { CHUNK = 4096 };
    static uint64_t w[EDAN_MAX_CONFIGS][CHUNK];
    cli_file cf;
    uint32_t k, K = edan_num_configs(ctx);
    uint64_t D[EDAN_MAX_CONFIGS], Dmax = 0, i, j;
    const char *dot = strrchr(a->layers_path, '.');
    int csv = dot && !strcmp(dot, ".csv");
    char label[128];
    for (k = 0; k < K; k++) {
        edan_metrics mt;
        edan_get_metrics(ctx, k, &mt);
        D[k] = mt.D;
        if (D[k] > Dmax) Dmax = D[k];
    }
    if (cli_file_open(&cf, a->layers_path)) return -1;
    if (csv) {
        fprintf(cf.f, "layer");
        for (k = 0; k < K; k++) {
            cli_config_label(edan_get_config(ctx, k), label, sizeof label);
            fprintf(cf.f, ",W[%s]", label);
        }
        fputc('\n', cf.f);
        for (i = 1; i <= Dmax; i += CHUNK) {
            for (k = 0; k < K; k++) edan_get_layers(ctx, k, i, w[k], CHUNK);
            for (j = 0; j < CHUNK && i + j <= Dmax; j++) {
                fprintf(cf.f, "%llu", (unsigned long long)(i + j));
                for (k = 0; k < K; k++) fprintf(cf.f, ",%llu", (unsigned long long)w[k][j]);
                fputc('\n', cf.f);
            }
        }
    } else {
        fwrite("EDANLAYR", 1, 8, cf.f);
        cli_put_le(cf.f, 1, 4);
        cli_put_le(cf.f, K, 4);
        for (k = 0; k < K; k++) cli_put_le(cf.f, D[k], 8);
        for (k = 0; k < K; k++)
            for (i = 1; i <= D[k]; i += CHUNK) {
                edan_get_layers(ctx, k, i, w[0], CHUNK);
                for (j = 0; j < CHUNK && i + j <= D[k]; j++) cli_put_le(cf.f, w[0][j], 8);
            }
    }
    return cli_file_close(&cf);
}

static void cli_dot_write(void *user, const char *data, size_t len) { fwrite(data, 1, len, (FILE *)user); }
static const char *cli_dot_label(void *user, const edan_insn *in, char *buf, size_t n)
{
    cli_insn_text((const cli_analysis *)user, in, 1, buf, n);
    return buf;
}

static int cli_write_dot(edan_context *ctx, const cli_analysis *a)
{
    cli_file cf;
    edan_result r;
    edan_metrics mt;
    if (edan_get_config(ctx, 0) == NULL) return -1;
    edan_get_metrics(ctx, 0, &mt);
    if (mt.N > CLI_DOT_LIMIT)   /* --chain=VERTICES records more of the graph than a drawing takes */
        return cli_err("--dot %s: the eDAG has more than %u vertices; DOT output is limited to small graphs",
                       a->dot_path, CLI_DOT_LIMIT);
    if (cli_file_open(&cf, a->dot_path)) return -1;
    r = edan_write_dot(ctx, 0, cli_dot_write, cf.f, cli_dot_label, (void *)a);
    if (r != EDAN_OK) {
        files_out_discard(&cf);
        return cli_err("--dot %s: %s", a->dot_path, edan_error(ctx));
    }
    return cli_file_close(&cf);
}

/* Floating-point operations of the trace: the op histogram times each op's flops. */
static uint64_t cli_flops(edan_context *ctx, const cli_analysis *a)
{
    const uint64_t *cnt;
    size_t n, op;
    uint64_t f = 0;
    if (a->flops_counted) return a->flops;
    if (edan_get_op_counts(ctx, &cnt, &n) != EDAN_OK) return 0;
    for (op = 0; op < n; op++)
        if (cnt[op]) f += cnt[op] * edan_rv_op_flops((uint32_t)op);
    return f;
}

static const uint32_t cli_default_m[] = EDAN_DEFAULT_M;
static uint32_t cli_m_at(const cli_analysis *a, uint32_t j)
{
    return a->opts.num_m ? a->opts.m[j] : cli_default_m[j];
}
static uint32_t cli_num_m(const cli_analysis *a)
{
    return a->opts.num_m ? a->opts.num_m : (uint32_t)(sizeof cli_default_m / sizeof cli_default_m[0]);
}

/* RAM latency in cycles after adding `ns` nanoseconds at the config's clock. */
static double cli_far_alpha(const edan_config *c, double ns) { return (double)c->alpha + ns * c->freq_ghz; }

/* Configuration k's windowed schedule at m: 1 and *w, or 0 when it has
   none there (--window 0, --paper; another m without --window-all-m). */
static int cli_window_at(edan_context *ctx, const cli_analysis *a, uint32_t k, uint32_t m, edan_window *w)
{
    if (edan_get_config(ctx, k)->window == EDAN_WINDOW_OFF || (a->opts.window_m && a->opts.window_m != m)) return 0;
    return edan_get_window(ctx, k, m, w) == EDAN_OK;
}

static int cli_write_sweep(edan_context *ctx, const cli_analysis *a)
{
    cli_file cf;
    uint32_t k, j, K = edan_num_configs(ctx);
    int ns;
    char label[128];
    if (cli_file_open(&cf, a->sweep_path)) return -1;
    /* T_window_lower: the windowed schedule's time along today's critical
       path at the far latency, c + lambda_window x alpha (its time is a
       maximum of such lines: at least this); empty where it did not run */
    fprintf(cf.f, "config,m,added_ns,alpha_cycles,T_lower,T_layered,T_upper,slowdown_upper,T_window_lower,"
                  "slowdown_window\n");
    for (k = 0; k < K; k++) {
        const edan_config *c = edan_get_config(ctx, k);
        cli_config_label(c, label, sizeof label);
        for (j = 0; j < cli_num_m(a); j++) {
            edan_bounds base, b;
            edan_window wd;
            const int win = cli_window_at(ctx, a, k, cli_m_at(a, j), &wd);
            edan_get_bounds(ctx, k, cli_m_at(a, j), &base);
            for (ns = 0; ns <= 250; ns += 5) {
                double al = cli_far_alpha(c, ns);
                edan_get_bounds_at(ctx, k, cli_m_at(a, j), al, &b);
                fprintf(cf.f, "\"%s\",%u,%d,%.6g,%.17g,%.17g,%.17g,%.9g,", label, cli_m_at(a, j), ns, al, b.T_lower,
                        b.T_layered, b.T_upper, base.T_upper > 0 ? b.T_upper / base.T_upper : 1.0);
                if (win) {
                    double tw = (double)wd.c + (double)wd.lambda * al;
                    fprintf(cf.f, "%.17g,%.9g\n", tw, wd.T ? tw / (double)wd.T : 1.0);
                } else {
                    fprintf(cf.f, ",\n");
                }
            }
        }
    }
    return cli_file_close(&cf);
}

/* ---- the verdict ------------------------------------------------------------ */

const char *cli_group(char *buf, size_t n, uint64_t v)
{
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v), i, o = 0;
    for (i = 0; i < len && (size_t)o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = 0;
    return buf;
}

/* seconds as ns, us, ms or s with three significant digits */
static const char *cli_duration(char *buf, size_t n, double s)
{
    if (s < 1e-6) snprintf(buf, n, "%.3g ns", s * 1e9);
    else if (s < 1e-3) snprintf(buf, n, "%.3g us", s * 1e6);
    else if (s < 1.0) snprintf(buf, n, "%.3g ms", s * 1e3);
    else snprintf(buf, n, "%.3g s", s);
    return buf;
}

#define CLI_VERDICT_NS 100.0
/* The classes by the chain's share of the upper bound's RAM latencies,
   D / lambda(m) (README, "Reading the verdict"): half or more, the chain
   is at least as long as the rounds that all accesses take m at a time
   (D >= W/(m+1)), and more accesses in flight would not shorten it. */
#define CLI_VERDICT_LATENCY_BOUND 0.5
#define CLI_VERDICT_MIXED 0.1
/* Below this share of the time in RAM latency (the window's lambda_window
   alpha / T_window, or the paper's lambda alpha / T_upper) the run is
   compute-bound: a kernel that the caches hold, whose few RAM accesses
   more or fewer in flight would not change, is not a DRAM stream. */
#define CLI_VERDICT_COMPUTE_BOUND 0.1
typedef struct cli_verdict {
    const char *cls;            /* latency-bound, mixed, throughput-bound, compute-bound; none without RAM accesses */
    double ram_share;           /* the share of the time that is RAM latency on the critical path */
    int windowed;               /* the class and the what-if are the windowed schedule's (below) */
    uint64_t T_window, lambda_window;   /* the window's time and its RAM latencies on the critical path */
    double window_share;        /* the share of T_window that is RAM latency more slots would not hide: lambda_window
                                   alpha / T_window times the larger of D / max(lambda_window, lambda) (the chain's)
                                   and 1 - (W/m) / lambda_window (beyond what m at a time need) */
    double add_window_s;        /* what CLI_VERDICT_NS more RAM latency adds on the window, at least (its slope) */
    uint32_t m;                 /* memory accesses in flight */
    uint64_t W, D;
    double w_over_m;            /* RAM latencies for every access, m at a time: the lower bound without the chain */
    double lambda;              /* RAM latencies of the upper bound, (W - D)/m + D */
    double chain_share;         /* D / lambda: the part of them that is the longest chain's */
    double add_min_s, add_max_s;    /* what CLI_VERDICT_NS more RAM latency adds: lower and upper bound */
    double slowdown_min, slowdown_max;  /* the lower and the upper time bound, far over near */
    char text[1024];
} cli_verdict;

/* The class from the share of the time that is RAM latency and the share of
   it that more accesses in flight would not hide. */
static const char *cli_verdict_class(double ram_share, double hidden_not_share)
{
    if (ram_share < CLI_VERDICT_COMPUTE_BOUND) return "compute-bound";
    return hidden_not_share >= CLI_VERDICT_LATENCY_BOUND ? "latency-bound"
           : hidden_not_share >= CLI_VERDICT_MIXED ? "mixed" : "throughput-bound";
}

/* a count of RAM latencies: whole (half up) and grouped from 100 on, else 3 digits */
static const char *cli_rounds(char *buf, size_t n, double v)
{
    if (v >= 100.0) return cli_group(buf, n, (uint64_t)(v + 0.5));
    snprintf(buf, n, "%.3g", v);
    return buf;
}

/* The plain-words verdict of configuration k, from W, D, m and the what-if
   alone (README, "Reading the verdict"). */

/* The verdict's class and text from the windowed schedule: its time, the
   RAM latencies on its critical path against W/m (all overlapped m at a
   time) and W (none overlapped), its slope as the what-if; the paper's
   bounds beside it. */
static void cli_verdict_window(edan_context *ctx, uint32_t k, const edan_window *wd, const edan_metrics *mt,
                               cli_verdict *v)
{
    char w[32], lw[32], d[32], wm[32], lam[32], add[32], lo[32], hi[32], T[32], per[96] = "";
    const edan_config *c = edan_get_config(ctx, k);
    uint32_t t, threads = 0;
    uint64_t busiest = mt->W;
    double hz = c->freq_ghz * 1e9, ideal;
    if (edan_num_threads(ctx) > 1) {   /* each thread that ran is a core with m slots: its accesses over them */
        busiest = 0;
        for (t = 0; t < edan_num_threads(ctx); t++) {
            edan_thread_metrics tm;
            if (edan_get_thread_metrics(ctx, k, t, &tm) != EDAN_OK || !tm.N) continue;
            threads++;
            if (tm.W > busiest) busiest = tm.W;
        }
    }
    if (threads > 1) snprintf(per, sizeof per, " in each of %u threads, the busiest's %s", threads,
                              cli_group(lo, sizeof lo, busiest));
    ideal = (double)busiest / (double)v->m;
    v->windowed = 1;
    v->T_window = wd->T;
    v->lambda_window = wd->lambda;
    if (wd->lambda && wd->T) {
        /* the critical path's RAM latencies that more slots would not
           hide: the chain's (its share of the window's latencies, or of the
           paper's upper bound where that is larger), or those beyond what
           m at a time need */
        const double lw = (double)wd->lambda, beyond = 1.0 - ideal / lw;
        const double chain = (double)mt->D / (lw > v->lambda ? lw : v->lambda);
        const double hidden_not = chain > beyond ? chain : beyond;
        v->ram_share = lw * (double)c->alpha / (double)wd->T;
        if (v->ram_share > 1) v->ram_share = 1;
        v->window_share = (hidden_not < 1.0 ? hidden_not : 1.0) * v->ram_share;
        if (v->window_share < 0) v->window_share = 0;
    }
    v->add_window_s = (double)wd->lambda * CLI_VERDICT_NS * c->freq_ghz / hz;
    v->cls = cli_verdict_class(v->ram_share, v->window_share);
    cli_group(w, sizeof w, mt->W);
    cli_group(lw, sizeof lw, wd->lambda);
    cli_group(d, sizeof d, mt->D);
    cli_rounds(wm, sizeof wm, ideal);
    cli_rounds(lam, sizeof lam, v->lambda);
    cli_duration(add, sizeof add, v->add_window_s);
    cli_duration(lo, sizeof lo, v->add_min_s);
    cli_duration(hi, sizeof hi, v->add_max_s);
    cli_duration(T, sizeof T, (double)wd->T / hz);
    snprintf(v->text, sizeof v->text,
             "%s: on a core's window (%u in flight, %u loads, %u stores, %u RAM accesses at a time) %s of the %s RAM "
             "accesses' latencies lie on the critical path (the longest chain %s, %s if every %u overlapped%s); %.0f%% "
             "of its %s is RAM latency, %.0f%% latency that more accesses in flight would not hide; %.0f ns more RAM "
             "latency adds about %s (at least that: the schedule's slope); by the paper's bounds, where any two "
             "independent accesses overlap, lambda is %s and the %.0f ns add %s to %s",
             v->cls, wd->rob, wd->lq, wd->sq, v->m, lw, w, d, wm, v->m, per, 100.0 * v->ram_share, T,
             100.0 * v->window_share, CLI_VERDICT_NS, add, lam, CLI_VERDICT_NS, lo, hi);
}

static void cli_verdict_make(edan_context *ctx, const cli_analysis *a, uint32_t k, cli_verdict *v)
{
    const edan_config *c = edan_get_config(ctx, k);
    edan_metrics mt;
    edan_bounds nb, fb;
    char w[32], d[32], wm[32], lam[32], lo[32], hi[32], pct[32], add[128];
    double hz = c->freq_ghz * 1e9;
    memset(v, 0, sizeof *v);
    v->m = cli_verdict_m(a);
    edan_get_metrics(ctx, k, &mt);
    edan_get_bounds(ctx, k, v->m, &nb);
    edan_get_bounds_at(ctx, k, v->m, cli_far_alpha(c, CLI_VERDICT_NS), &fb);
    v->W = mt.W;
    v->D = mt.D;
    v->w_over_m = (double)mt.W / (double)v->m;
    v->lambda = nb.lambda;
    v->chain_share = nb.lambda > 0 ? (double)mt.D / nb.lambda : 0.0;
    v->add_min_s = (fb.T_lower - nb.T_lower) / hz;
    v->add_max_s = (fb.T_upper - nb.T_upper) / hz;
    v->slowdown_min = nb.T_lower > 0 ? fb.T_lower / nb.T_lower : 1.0;
    v->slowdown_max = nb.T_upper > 0 ? fb.T_upper / nb.T_upper : 1.0;
    if (!mt.W) {
        v->cls = "none";
        snprintf(v->text, sizeof v->text,
                 "no access reaches RAM%s: RAM latency does not change this run's time",
                 c->num_levels ? " (the caches serve every load and store)" : "");
        return;
    }
    {
        edan_window wd;
        if (cli_window_at(ctx, a, k, v->m, &wd)) {
            cli_verdict_window(ctx, k, &wd, &mt, v);
            return;
        }
    }
    v->ram_share = nb.T_upper > 0 ? v->lambda * (double)c->alpha / nb.T_upper : 0.0;
    v->cls = cli_verdict_class(v->ram_share, v->chain_share);
    if (v->chain_share < 0.001) snprintf(pct, sizeof pct, "under 0.1%%");
    else snprintf(pct, sizeof pct, "%.1f%%", 100.0 * v->chain_share);
    cli_group(w, sizeof w, mt.W);
    cli_group(d, sizeof d, mt.D);
    cli_rounds(wm, sizeof wm, v->w_over_m);
    cli_rounds(lam, sizeof lam, v->lambda);
    cli_duration(lo, sizeof lo, v->add_min_s);
    cli_duration(hi, sizeof hi, v->add_max_s);
    if (!strcmp(lo, hi)) snprintf(add, sizeof add, "%s (%.2fx the time)", hi, v->slowdown_max);
    else snprintf(add, sizeof add, "%s to %s (up to %.2fx the time)", lo, hi, v->slowdown_max);
    snprintf(v->text, sizeof v->text,
             "%s: the longest chain makes %s RAM round trip%s in a row, against %s rounds for all %s RAM accesses with "
             "%u in flight; the chain is %s of the upper bound's %s rounds, RAM latency %.0f%% of its time; %.0f ns "
             "more RAM latency adds %s",
             v->cls, d, mt.D == 1 ? "" : "s", wm, w, v->m, pct, lam, 100.0 * v->ram_share, CLI_VERDICT_NS, add);
}

static void cli_hot_key(const cli_analysis *a, const edan_hotspot *h, char *buf, size_t n)
{
    edan_insn in;
    char text[160];
    memset(&in, 0, sizeof in);
    in.pc = h->key;
    in.op = h->op;
    in.flags = EDAN_INSN_HAS_PC;
    cli_insn_text(a, &in, 0, text, sizeof text);
    /* the program file's address, as objdump -d has it: where it was loaded does not show */
    if (h->has_pc) snprintf(buf, n, "0x%llx %s", (unsigned long long)cli_file_address(a, h->key), text);
    else snprintf(buf, n, "%s", cli_op_name(a, (uint32_t)h->key));
}

/* The --top list of a configuration: its first a->top hotspots (all
   there are, when fewer), and with --chain each one's vertices on the
   critical chain (chain[q]; NULL and why[] when it could not be found). */
typedef struct cli_hot {
    edan_hotspot *h;
    size_t n;
    uint64_t *chain;
    char why[200];
} cli_hot;

/* A vertex of the critical chain: its key as the hotspots have it. */
typedef struct cli_chain_key { uint64_t key; int has_pc; } cli_chain_key;
typedef struct cli_chain_keys { cli_chain_key *k; size_t n, cap; int nomem; } cli_chain_keys;

static void cli_chain_add(void *user, const edan_insn *v, uint32_t md)
{
    cli_chain_keys *c = (cli_chain_keys *)user;
    cli_chain_key *nk;
    (void)md;
    if (c->nomem) return;
    if (!(nk = (cli_chain_key *)cli_grow(c->k, &c->cap, c->n, sizeof *c->k, 1024))) {
        c->nomem = 1;
        return;
    }
    c->k = nk;
    c->k[c->n].has_pc = (v->flags & EDAN_INSN_HAS_PC) != 0;
    c->k[c->n].key = c->k[c->n].has_pc ? v->pc : v->op;
    c->n++;
}

static int cli_chain_cmp(const void *x, const void *y)
{
    const cli_chain_key *a = (const cli_chain_key *)x, *b = (const cli_chain_key *)y;
    if (a->has_pc != b->has_pc) return a->has_pc < b->has_pc ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

static void cli_hot_free(cli_hot *t)
{
    free(t->h);
    free(t->chain);
    memset(t, 0, sizeof *t);
}

/* 0, or -1 (a message printed) when out of memory. */
static int cli_hot_get(edan_context *ctx, const cli_analysis *a, uint32_t k, cli_hot *t)
{
    size_t all = 0, q;
    cli_chain_keys c;
    edan_metrics mt;
    memset(t, 0, sizeof *t);
    edan_get_hotspots(ctx, k, NULL, 0, &all);
    if (all > a->top) all = a->top;
    if (!(t->h = (edan_hotspot *)calloc(all ? all : 1, sizeof *t->h))) return cli_err("out of memory");
    edan_get_hotspots(ctx, k, t->h, all, &t->n);
    if (!a->chain) return 0;
    edan_get_metrics(ctx, k, &mt);
    if (a->chain != CLI_CHAIN_STREAM && mt.N > a->chain) {
        snprintf(t->why, sizeof t->why, "the eDAG has %llu vertices, more than --chain=%u records: give --chain "
                 "alone (streamed, at any size)", (unsigned long long)mt.N, a->chain);
        return 0;
    }
    memset(&c, 0, sizeof c);
    if (edan_get_critical_chain(ctx, k, cli_chain_add, &c) != EDAN_OK || c.nomem) {
        snprintf(t->why, sizeof t->why, "%s", c.nomem ? "out of memory" : edan_error(ctx));
        free(c.k);
        return 0;
    }
    qsort(c.k, c.n, sizeof *c.k, cli_chain_cmp);
    if (!(t->chain = (uint64_t *)calloc(t->n ? t->n : 1, sizeof *t->chain))) {
        free(c.k);
        return cli_err("out of memory");
    }
    for (q = 0; q < t->n; q++) {        /* the chain's vertices of each key: a range of the sorted keys */
        cli_chain_key want;
        size_t lo = 0, hi = c.n;
        want.key = t->h[q].key;
        want.has_pc = t->h[q].has_pc;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cli_chain_cmp(&c.k[mid], &want) < 0) lo = mid + 1;
            else hi = mid;
        }
        while (lo < c.n && !cli_chain_cmp(&c.k[lo], &want)) { t->chain[q]++; lo++; }
    }
    free(c.k);
    return 0;
}

/* ---- the JSON report ---------------------------------------------------- */
/* Through tools/jsonw.h: rows of a few members each, small records inline;
   reals round-trip (%.17g), beyond 1e300 null. */

/* ---- sampled runs --------------------------------------------------------- */

/* The whole run's value of a sum over windows of c . (insns, W, bytes, D),
   by the ratio to the instructions, scaled to the run's; its 95% interval
   from the windows' spread (Student's t, the share not sampled taken into
   account). No interval from fewer than two windows. */
typedef struct cli_estimate { double value, low, high; int interval; } cli_estimate;
static double cli_t95(uint64_t df)
{
    static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    return df >= 1 && df <= 30 ? t[df - 1] : df > 120 ? 1.960 : df > 60 ? 1.980 : 2.000;
}

static cli_estimate cli_sample_estimate(const cli_sampled *s, const double *c)
{
    cli_estimate e;
    double v[CLI_WIN_VARS], sx = 0, sn = s->sum[CLI_WIN_INSNS], R, ss = 0, f, se;
    int i, j;
    memset(&e, 0, sizeof e);
    for (i = 0; i < CLI_WIN_VARS; i++) sx += c[i] * s->sum[i];
    if (sn <= 0) return e;
    R = sx / sn;
    e.value = e.low = e.high = R * (double)s->insns;
    if (s->windows < 2) return e;
    for (i = 0; i < CLI_WIN_VARS; i++) v[i] = c[i] - (i == CLI_WIN_INSNS ? R : 0);
    for (i = 0; i < CLI_WIN_VARS; i++)
        for (j = 0; j < CLI_WIN_VARS; j++) ss += v[i] * v[j] * s->prod[i][j];
    if (ss < 0) ss = 0;     /* rounding */
    f = s->insns ? sn / (double)s->insns : 1;
    se = (double)s->insns * sqrt((f < 1 ? 1 - f : 0) * ss / (double)(s->windows - 1) / (double)s->windows) /
         (sn / (double)s->windows);
    e.interval = 1;
    e.low = e.value - cli_t95(s->windows - 1) * se;
    e.high = e.value + cli_t95(s->windows - 1) * se;
    if (e.low < 0) e.low = 0;
    return e;
}

/* The estimates the report gives: W, bytes, lambda at m. */
static void cli_sample_estimates(const cli_sampled *s, uint32_t m, cli_estimate out[3])
{
    double cw[CLI_WIN_VARS] = {0}, cb[CLI_WIN_VARS] = {0}, cl[CLI_WIN_VARS] = {0};
    cw[CLI_WIN_W] = 1;
    cb[CLI_WIN_BYTES] = 1;
    cl[CLI_WIN_W] = 1.0 / m;
    cl[CLI_WIN_D] = 1 - 1.0 / m;
    out[0] = cli_sample_estimate(s, cw);
    out[1] = cli_sample_estimate(s, cb);
    out[2] = cli_sample_estimate(s, cl);
}

/* A window's lambda at m: (W - D)/m + D, 0 without W (the page's rule;
   the estimate's coefficients in cli_sample_estimates are the same). */
static double cli_window_lambda(const cli_window *x, uint32_t m)
{
    return x->W ? (double)(x->W - x->D) / m + (double)x->D : 0;
}

static void cli_json_sampled(jw *w, const cli_sampled *s, uint32_t m)
{
    static const char *const names[3] = {"W", "bytes", "lambda"};
    cli_estimate e[3];
    uint64_t i, n = s->windows < CLI_SAMPLE_LISTED ? s->windows : CLI_SAMPLE_LISTED;
    int k;
    cli_sample_estimates(s, m, e);
    jw_row(w);
    jw_obj_as(w, "sampled", JW_ROWS);
    jw_row(w);
    jw_uint(w, "period", s->period);
    jw_uint(w, "length", s->length);
    jw_uint(w, "skip", s->skip);
    jw_uint(w, "windows", s->windows);
    jw_row(w);
    jw_uint(w, "instructions", s->insns);
    jw_uint(w, "analysed", (uint64_t)s->sum[CLI_WIN_INSNS]);
    jw_uint(w, "m", m);
    jw_uint(w, "config", 0);
    jw_num(w, "confidence", 0.95);
    for (k = 0; k < 3 && s->period; k++) {     /* --skip alone: nothing to estimate */
        jw_row(w);
        jw_obj_as(w, names[k], JW_INLINE);
        jw_num(w, "estimate", e[k].value);
        if (e[k].interval) {
            jw_num(w, "low", e[k].low);
            jw_num(w, "high", e[k].high);
        } else {
            jw_null(w, "low");
            jw_null(w, "high");
        }
        jw_end_obj(w);
    }
    jw_row(w);
    jw_uint(w, "D_lower_bound", s->D_max);
    jw_bool(w, "window_D_lower_bound", s->D_lower);
    jw_row(w);
    jw_arr_as(w, "listed", JW_ROWS);
    for (i = 0; i < n; i++) {
        const cli_window *x = &s->listed[i];
        jw_row(w);
        jw_obj_as(w, NULL, JW_INLINE);
        jw_uint(w, "start", x->start);
        jw_uint(w, "instructions", x->insns);
        jw_uint(w, "W", x->W);
        jw_uint(w, "D", x->D);
        jw_bool(w, "D_lower_bound", x->D_lower);
        jw_num(w, "lambda", cli_window_lambda(x, m));
        jw_uint(w, "bytes", x->bytes);
        jw_uint(w, "T1", x->T1);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_end_obj(w);
}

static void cli_table_sampled(const cli_sampled *s, uint32_t m, const char *config, FILE *o)
{
    static const char *const names[3] = {"W", "bytes between the last level and RAM", "lambda (the windows')"};
    cli_estimate e[3];
    uint64_t i, an = (uint64_t)s->sum[CLI_WIN_INSNS];
    int k;
    cli_sample_estimates(s, m, e);
    if (!s->period) {       /* --skip alone: one window from there on */
        fprintf(o, "SKIPPED: the first %llu instructions of the scope ran without analysis (--skip); the counts below "
                "are of the %llu that followed, of %llu.\n\n", (unsigned long long)s->skip, (unsigned long long)an,
                (unsigned long long)s->insns);
        return;
    }
    fprintf(o, "SAMPLED: %llu window%s of %llu instructions of the scope every %llu", (unsigned long long)s->windows,
            s->windows == 1 ? "" : "s", (unsigned long long)s->length, (unsigned long long)s->period);
    if (s->skip) fprintf(o, ", after %llu skipped", (unsigned long long)s->skip);
    fprintf(o, ": %llu of %llu instructions analysed (%.1f%%). The counts below are the windows'; each window starts "
            "with every writer forgotten, so no chain crosses windows. The whole run, estimated from the windows",
            (unsigned long long)an, (unsigned long long)s->insns, s->insns ? 100.0 * (double)an / (double)s->insns : 0);
    if (config) fprintf(o, " (its first configuration, %s)", config);
    fprintf(o, s->windows >= 2 ? " (95%% interval from their spread):\n" : " (one window: no interval):\n");
    for (k = 0; k < 3; k++) {
        const char *f = k == 2 ? "  %s: %.1f" : "  %s: %.0f", *fi = k == 2 ? " [%.1f, %.1f]" : " [%.0f, %.0f]";
        fprintf(o, f, names[k], e[k].value);
        if (e[k].interval) fprintf(o, fi, e[k].low, e[k].high);
        if (k == 2) fprintf(o, " at m = %u", m);
        fputc('\n', o);
    }
    fprintf(o, "  D: at least %llu (the deepest window's%s)\n", (unsigned long long)s->D_max,
            s->D_lower ? ", itself a lower bound" : "");
    fprintf(o, "  %-14s %14s %12s %12s %10s\n", "window start", "instructions", "W", "D", "lambda");
    for (i = 0; i < s->windows && i < 8; i++) {
        const cli_window *x = &s->listed[i];
        fprintf(o, "  %-14llu %14llu %12llu %11llu%s %10.1f\n", (unsigned long long)x->start,
                (unsigned long long)x->insns, (unsigned long long)x->W, (unsigned long long)x->D, x->D_lower ? "+" : " ",
                cli_window_lambda(x, m));
    }
    if (s->windows > 8)
        fprintf(o, "  ... %llu more (--json lists up to %d)\n", (unsigned long long)(s->windows - 8), CLI_SAMPLE_LISTED);
    fputc('\n', o);
}

/* What edan trace met: the address randomisation, the signal handlers,
   the non-local exits, what the scope's names found. */
/* A row of a list of functions, open for the caller's members: the
   scope's option and name (s; NULL: none), the function, its file. */
static void cli_json_function(jw *w, const cli_scoped *s, const char *function, const char *object, int shared)
{
    jw_row(w);
    jw_obj_as(w, NULL, JW_INLINE);
    if (s) {
        jw_str(w, "option", s->option);
        jw_str(w, "name", s->name);
    }
    jw_str(w, "function", function);
    jw_str(w, "object", object);
    jw_bool(w, "shared", shared);
}

static void cli_json_tracer(jw *w, const cli_tracer *t)
{
    size_t i;
    jw_row(w);
    jw_obj_as(w, "tracer", JW_ROWS);
    jw_row(w);
    jw_bool(w, "aslr", t->aslr);
    jw_row(w);
    jw_obj_as(w, "signals", JW_INLINE);
    jw_uint(w, "handled", t->signals);
    jw_uint(w, "at_faults", t->signals_cut);
    jw_uint(w, "returns_unseen", t->sigreturns_unseen);
    jw_uint(w, "left", t->signals_left);
    jw_end_obj(w);
    jw_row(w);
    jw_obj_as(w, "nonlocal_exits", JW_INLINE);
    jw_uint(w, "followed", t->nonlocal);
    jw_uint(w, "unplaced", t->unplaced);
    jw_uint(w, "unplaced_in_scope", t->unplaced_in_scope);
    if (t->unplaced) {
        char at[24];
        snprintf(at, sizeof at, "0x%llx", (unsigned long long)t->unplaced_from);
        jw_str(w, "first_from", at);
        snprintf(at, sizeof at, "0x%llx", (unsigned long long)t->unplaced_to);
        jw_str(w, "first_to", at);
    }
    jw_end_obj(w);
    jw_row(w);
    jw_arr_as(w, "scope", JW_ROWS);
    for (i = 0; i < t->nscoped; i++) {
        cli_json_function(w, &t->scoped[i], t->scoped[i].function, t->scoped[i].object, t->scoped[i].shared);
        jw_bool(w, "ifunc", t->scoped[i].ifunc);
        jw_str(w, "short_of", t->scoped[i].short_of);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    if (t->func_scope) {    /* what its calls ran outside it: {"instructions": N, "functions": [rows]} */
        jw_row(w);
        jw_obj_as(w, "called_out", JW_INLINE);
        jw_uint(w, "instructions", t->called_out);
        jw_arr_as(w, "functions", JW_ROWS);
        for (i = 0; i < t->ncallees; i++) {
            cli_json_function(w, NULL, t->callees[i].function, t->callees[i].object, t->callees[i].shared);
            jw_uint(w, "instructions", t->callees[i].insns);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_end_obj(w);
    }
    jw_end_obj(w);
}

/* The trace: its source, ISA, program, whether it is partial, the job's
   rank and the profile the configurations came from. */
static void cli_json_header(jw *w, const cli_analysis *a, const char *source)
{
    char crc[16];
    jw_row(w);
    jw_str(w, "source", source);
    jw_row(w);
    if (a->isa == EDAN_ISA_X86_64) {
        jw_str(w, "isa", "x86-64");
        jw_str(w, "vertices", "micro-operations");
        jw_uint(w, "machine_instructions", a->machine_insns);
    } else {
        jw_str(w, "isa", "riscv64");
        jw_str(w, "vertices", "instructions");
    }
    if (a->elf_path && a->top) {    /* the program whose symbols and lines name the hotspots */
        jw_row(w);
        jw_str(w, "elf", a->elf_path);
    }
    jw_row(w);
    jw_bool(w, "partial", a->partial != NULL);
    if (a->job) {
        jw_row(w);
        jw_obj_as(w, "job", JW_INLINE);
        jw_int(w, "rank", a->job->rank);
        jw_int(w, "size", a->job->size);
        jw_str(w, "host", a->job->host);
        jw_str(w, "launcher", a->job->var ? a->job->var : "");
        jw_str(w, "command", a->job->command ? a->job->command : "");
        jw_end_obj(w);
    }
    if (a->partial) jw_str(w, "partial_reason", a->partial);
    if (a->tracer) cli_json_tracer(w, a->tracer);
    if (a->sampled) cli_json_sampled(w, a->sampled, cli_verdict_m(a));
    if (a->profile_path) {
        jw_row(w);
        jw_str(w, "profile", a->profile_path);
        jw_uint(w, "profile_m", a->profile_m);
        jw_bool(w, "profile_default", a->profile_default);
        if (a->profile_cache_note[0]) jw_str(w, "profile_caches", a->profile_cache_note);
        snprintf(crc, sizeof crc, "%08lx", a->profile_crc);
        jw_str(w, "profile_crc32", crc);
    }
}

static void cli_json_verdict(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    static const char *const names[] = {"W_over_m", "lambda", "chain_share", "latency_bound_from", "mixed_from",
                                        "compute_bound_below", "ram_share", "added_ns", "added_seconds_min", "added_seconds_max", "slowdown_min",
                                        "slowdown_max"};
    cli_verdict v;
    cli_verdict_make(ctx, a, k, &v);
    {
        const double vals[] = {v.w_over_m, v.lambda, v.chain_share, CLI_VERDICT_LATENCY_BOUND, CLI_VERDICT_MIXED,
                               CLI_VERDICT_COMPUTE_BOUND, v.ram_share, CLI_VERDICT_NS, v.add_min_s, v.add_max_s, v.slowdown_min, v.slowdown_max};
        jw_row(w);
        jw_obj_as(w, "verdict", JW_INLINE);
        jw_str(w, "text", v.text);
        jw_str(w, "class", v.cls);
        jw_str(w, "from", v.windowed ? "window" : "bounds");
        jw_uint(w, "m", v.m);
        jw_uint(w, "W", v.W);
        jw_uint(w, "D", v.D);
        jw_nums(w, names, vals, sizeof vals / sizeof vals[0]);
        if (v.windowed) {
            jw_row(w);
            jw_uint(w, "T_window", v.T_window);
            jw_uint(w, "lambda_window", v.lambda_window);
            jw_num(w, "window_share", v.window_share);
            jw_num(w, "added_seconds_window", v.add_window_s);
        }
        jw_end_obj(w);
    }
}

/* The configuration itself: caches, write policy, RAM latency, clock, costs. */
static void cli_json_config(jw *w, const edan_config *c)
{
    uint32_t l, j;
    jw_row(w);
    jw_arr_as(w, "cache", JW_INLINE);
    for (l = 0; l < c->num_levels; l++) {
        jw_obj_as(w, NULL, JW_INLINE);
        jw_uint(w, "level", l + 1);
        jw_uint(w, "size", c->level[l].size);
        jw_uint(w, "assoc", c->level[l].assoc);
        jw_uint(w, "line", c->level[l].line);
        jw_uint(w, "latency", c->level[l].latency);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_row(w);
    jw_str(w, "write_policy", c->write_policy == EDAN_WRITE_THROUGH ? "wt" : "wb");
    jw_uint(w, "alpha", c->alpha);
    jw_num(w, "alpha0", c->alpha0);
    jw_num(w, "freq_ghz", c->freq_ghz);
    jw_row(w);
    jw_obj_as(w, "costs", JW_INLINE);
    for (j = 0; j < EDAN_CLASS_COUNT; j++) jw_uint(w, edan_class_name((edan_class)j), c->cost[j]);
    jw_end_obj(w);
}

/* The layer histogram, a size that does not grow with D: at most
   CLI_LAYER_BINS bins of `width` layers, each's first layer, layers, sum
   of W_i and largest W_i (width 1 up to D = CLI_LAYER_BINS: every W_i);
   the whole in --layers FILE. */
static void cli_json_layers(jw *w, edan_context *ctx, uint32_t k, const edan_metrics *mt)
{
    static edan_layer_bin bins[CLI_LAYER_BINS];
    size_t n = 0, i;
    uint64_t width = 1;
    (void)mt;
    if (edan_get_layer_summary(ctx, k, bins, CLI_LAYER_BINS, &n, &width) != EDAN_OK) n = 0;
    jw_row(w);
    jw_obj_as(w, "layers", JW_INLINE);
    jw_uint(w, "width", width);
    jw_uint(w, "bins", n);
    {
        static const char *const names[] = {"first", "count", "sum", "max"};
        size_t f;
        for (f = 0; f < 4; f++) {
            jw_arr_as(w, names[f], JW_INLINE);
            for (i = 0; i < n; i++)
                jw_uint(w, NULL, f == 0 ? bins[i].first : f == 1 ? bins[i].count : f == 2 ? bins[i].sum : bins[i].max);
            jw_end_arr(w);
        }
    }
    jw_end_obj(w);
}

/* The eDAG's counts: size, W, D, C, T1, Tinf, bytes, accesses, each
   level's hits and the layers' summary. */
static void cli_json_metrics(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k, const edan_metrics *mt)
{
    static const char *const size_names[] = {"instructions", "edges", "fill_edges", "W", "D", "C"};
    static const char *const access_names[] = {"loads", "stores", "amos", "chained", "forwarded"};
    static const char *const byte_names[] = {"flops", "load_bytes", "store_bytes"};
    uint64_t fl = cli_flops(ctx, a), req = mt->load_bytes + mt->store_bytes;
    const uint64_t sizes[] = {mt->N, mt->E, mt->fill_edges, mt->W, mt->D, mt->C};
    const uint64_t accesses[] = {mt->loads, mt->stores, mt->amos, mt->chained, mt->forwarded};
    const uint64_t bytes[] = {fl, mt->load_bytes, mt->store_bytes};
    uint32_t l;
    jw_row(w);
    jw_uints(w, size_names, sizes, sizeof sizes / sizeof sizes[0]);
    jw_row(w);
    jw_uint(w, "T1", mt->T1);
    jw_uint(w, "Tinf", mt->Tinf);
    jw_num(w, "parallelism", mt->parallelism);
    jw_row(w);
    jw_uint(w, "bytes", mt->bytes);
    jw_num(w, "B_bytes_per_cycle", mt->B_bytes_per_cycle);
    jw_num(w, "B_GBps", mt->B_GBps);
    jw_row(w);
    jw_uints(w, access_names, accesses, sizeof accesses / sizeof accesses[0]);
    jw_row(w);
    jw_uints(w, byte_names, bytes, sizeof bytes / sizeof bytes[0]);
    jw_num(w, "arithmetic_intensity", req ? (double)fl / (double)req : 0.0);
    jw_uint(w, "ram_lines", mt->ram_lines);
    jw_uint(w, "writebacks", mt->writebacks);
    jw_arr_as(w, "level_hits", JW_INLINE);
    for (l = 0; l < edan_get_config(ctx, k)->num_levels; l++) jw_uint(w, NULL, mt->level_hits[l]);
    jw_end_arr(w);
    cli_json_layers(w, ctx, k, mt);
}

/* The bounds for each m. */
static void cli_json_bounds(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    static const char *const names[] = {"lambda", "Lambda", "M_lower", "M_layered", "M_upper",
                                        "T_lower", "T_layered", "T_upper"};
    char m[16];
    uint32_t j;
    jw_row(w);
    jw_obj_as(w, "m", JW_ROWS);
    for (j = 0; j < cli_num_m(a); j++) {
        edan_bounds b;
        edan_get_bounds(ctx, k, cli_m_at(a, j), &b);
        {
            const double vals[] = {b.lambda, b.Lambda, b.M_lower, b.M_layered, b.M_upper,
                                   b.T_lower, b.T_layered, b.T_upper};
            edan_window wd;
            snprintf(m, sizeof m, "%u", cli_m_at(a, j));
            jw_row(w);
            jw_obj_as(w, m, JW_INLINE);
            jw_nums(w, names, vals, sizeof vals / sizeof vals[0]);
            if (cli_window_at(ctx, a, k, cli_m_at(a, j), &wd)) {
                jw_uint(w, "T_window", wd.T);
                jw_uint(w, "lambda_window", wd.lambda);
            }
            jw_end_obj(w);
        }
    }
    jw_end_obj(w);
}

/* --alpha-add: the time bounds with RAM that many nanoseconds farther. */
static void cli_json_what_if(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    const edan_config *c = edan_get_config(ctx, k);
    double far = cli_far_alpha(c, a->alpha_add_ns);
    char m[16];
    uint32_t j;
    jw_row(w);
    jw_obj_as(w, "what_if", JW_INLINE);
    jw_num(w, "alpha_add_ns", a->alpha_add_ns);
    jw_uint(w, "alpha_cycles", c->alpha);
    jw_num(w, "alpha_far_cycles", far);
    jw_obj_as(w, "m", JW_ROWS);
    for (j = 0; j < cli_num_m(a); j++) {
        edan_bounds nb, fb;
        edan_get_bounds(ctx, k, cli_m_at(a, j), &nb);
        edan_get_bounds_at(ctx, k, cli_m_at(a, j), far, &fb);
        snprintf(m, sizeof m, "%u", cli_m_at(a, j));
        jw_row(w);
        jw_obj_as(w, m, JW_INLINE);
        jw_num(w, "T_lower", fb.T_lower);
        jw_num(w, "T_layered", fb.T_layered);
        jw_num(w, "T_upper", fb.T_upper);
        jw_num(w, "delta_T_upper", fb.T_upper - nb.T_upper);
        jw_num(w, "slowdown_upper", nb.T_upper > 0 ? fb.T_upper / nb.T_upper : 1.0);
        {   /* the window's time along today's critical path at the far latency: at least this */
            edan_window wd;
            if (cli_window_at(ctx, a, k, cli_m_at(a, j), &wd)) {
                const double tw = (double)wd.c + (double)wd.lambda * far;
                jw_num(w, "T_window_lower", tw);
                jw_num(w, "delta_T_window", tw - (double)wd.T);
                jw_num(w, "slowdown_window", wd.T ? tw / (double)wd.T : 1.0);
            }
        }
        jw_end_obj(w);
    }
    jw_end_obj(w);
    jw_end_obj(w);
}

static void cli_json_timeline(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    const edan_config *c = edan_get_config(ctx, k);
    const uint64_t *bins;
    size_t nb, b;
    if (!c->tau || edan_get_timeline(ctx, k, &bins, &nb) != EDAN_OK) return;
    jw_row(w);
    jw_obj_as(w, "timeline", JW_INLINE);
    jw_uint(w, "tau", c->tau);
    if (c->tau != a->configs[k].tau)    /* doubled: the bins were bounded */
        jw_uint(w, "tau_requested", a->configs[k].tau);
    jw_arr_as(w, "bins", JW_INLINE);
    for (b = 0; b < nb; b++) jw_uint(w, NULL, bins[b]);
    jw_end_arr(w);
    jw_end_obj(w);
}

/* A hotspot: where it is (addresses, object, function, line), what it is
   and its counts. */
static void cli_json_hotspot(jw *w, const cli_analysis *a, cli_where *where, const cli_hot *t, size_t q,
                             uint32_t levels)
{
    const edan_hotspot *h = &t->h[q];
    char text[160];
    uint32_t l;
    jw_row(w);
    jw_obj_as(w, NULL, JW_INLINE);
    if (h->has_pc) {        /* address: in the program's (or its object's) file; pc: where it ran */
        snprintf(text, sizeof text, "0x%llx", (unsigned long long)cli_file_address(a, h->key));
        jw_str(w, "address", text);
        snprintf(text, sizeof text, "0x%llx", (unsigned long long)h->key);
        jw_str(w, "pc", text);
    }
    if (h->has_pc && cli_where_any(where)) {
        const char *fn, *sym, *file, *object;
        int line;
        cli_where_at(where, h->key, &fn, &sym, &file, &line, &object);
        if (object) jw_str(w, "object", object);
        if (fn) jw_str(w, "function", fn);
        if (fn && strcmp(fn, sym)) jw_str(w, "symbol", sym);
        if (file) {
            jw_str(w, "file", file);
            jw_int(w, "line", line);
        }
    }
    jw_str(w, "op", cli_op_name(a, h->op));
    if (a->isa == EDAN_ISA_X86_64 && h->has_pc) {
        edan_insn in;
        memset(&in, 0, sizeof in);
        in.pc = h->key;
        in.op = h->op;
        in.flags = EDAN_INSN_HAS_PC;
        cli_insn_text(a, &in, 0, text, sizeof text);
        jw_str(w, "instruction", text);
    }
    jw_uint(w, "executed", h->executed);
    jw_uint(w, "mem_vertices", h->mem_vertices);
    jw_uint(w, "chained", h->chained);
    jw_uint(w, "max_md", h->max_md);
    if (levels) {       /* the accesses each cache level served, L1 first (those of RAM: mem_vertices) */
        jw_arr_as(w, "served", JW_INLINE);
        for (l = 0; l < levels; l++) jw_uint(w, NULL, h->served[l]);
        jw_end_arr(w);
    }
    if (t->chain) jw_uint(w, "chain", t->chain[q]);
    jw_end_obj(w);
}

/* --top's hotspots, and with --chain whether the critical chain was found;
   0, or -1 (a message printed) when out of memory. */
static int cli_json_hotspots(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k, const edan_metrics *mt)
{
    cli_hot t;
    cli_where where;
    size_t q;
    if (cli_hot_get(ctx, a, k, &t)) return -1;
    cli_where_open(&where, a);
    if (a->chain) {
        jw_row(w);
        jw_obj_as(w, "critical_chain", JW_INLINE);
        jw_bool(w, "found", t.chain != NULL);
        if (t.chain) jw_uint(w, "length", mt->D);
        else jw_str(w, "why", t.why);
        jw_end_obj(w);
    }
    jw_row(w);
    jw_arr_as(w, "hotspots", JW_ROWS);
    for (q = 0; q < t.n; q++) cli_json_hotspot(w, a, &where, &t, q, edan_get_config(ctx, k)->num_levels);
    jw_end_arr(w);
    cli_where_close(&where);
    cli_hot_free(&t);
    return 0;
}

/* Each thread's share of a trace of several, per configuration. */
static void cli_json_threads(jw *w, edan_context *ctx)
{
    uint32_t t, k, K = edan_num_configs(ctx);
    if (edan_num_threads(ctx) < 2) return;
    jw_row(w);
    jw_arr_as(w, "threads", JW_ROWS);
    for (t = 0; t < edan_num_threads(ctx); t++) {
        edan_thread_metrics tm;
        if (edan_get_thread_metrics(ctx, 0, t, &tm) != EDAN_OK) continue;    /* an id never used */
        jw_row(w);
        jw_obj_as(w, NULL, JW_INLINE);
        jw_uint(w, "thread", t);
        jw_bool(w, "live", tm.live);
        jw_uint(w, "instructions", tm.N);
        jw_uint(w, "cross_edges", tm.cross_edges);
        jw_arr_as(w, "configs", JW_INLINE);
        for (k = 0; k < K; k++) {
            edan_get_thread_metrics(ctx, k, t, &tm);
            jw_obj_as(w, NULL, JW_INLINE);
            jw_uint(w, "W", tm.W);
            jw_uint(w, "D", tm.D);
            jw_uint(w, "C", tm.C);
            jw_uint(w, "chained", tm.chained);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

/* The "configs" list: each configuration's metrics. 0, or -1 (a message
   printed) when out of memory. */
static int cli_json_configs(jw *w, edan_context *ctx, const cli_analysis *a)
{
    uint32_t k, K = edan_num_configs(ctx);
    char label[128];
    jw_row(w);
    jw_arr_as(w, "configs", JW_ROWS);
    for (k = 0; k < K; k++) {
        const edan_config *c = edan_get_config(ctx, k);
        edan_metrics mt;
        edan_get_metrics(ctx, k, &mt);
        cli_config_label(c, label, sizeof label);
        jw_row(w);
        jw_obj_as(w, NULL, JW_ROWS);
        jw_row(w);
        jw_str(w, "name", label);
        jw_row(w);
        jw_str(w, "provenance", a->provenance[k]);
        cli_json_verdict(w, ctx, a, k);
        cli_json_config(w, c);
        jw_row(w);
        jw_obj_as(w, "window", JW_INLINE);
        if (c->window != EDAN_WINDOW_OFF) {
            jw_uint(w, "rob", c->window);
            jw_uint(w, "lq", c->lq);
            jw_uint(w, "sq", c->sq);
            jw_uint(w, "width", c->width);
            jw_uint(w, "m", a->opts.window_m);     /* 0: every m */
        }
        jw_str(w, "source", cli_window_source(a, k));
        jw_end_obj(w);
        cli_json_metrics(w, ctx, a, k, &mt);
        cli_json_bounds(w, ctx, a, k);
        if (a->alpha_add_ns > 0) cli_json_what_if(w, ctx, a, k);
        cli_json_timeline(w, ctx, a, k);
        if (a->top && cli_json_hotspots(w, ctx, a, k, &mt)) return -1;
        jw_end_obj(w);
    }
    jw_end_arr(w);
    return 0;
}

/* A named region's report is the main one's with its own counts and
   without what only the whole run has (--top lists, the tracer's account,
   the windows of a sampled run, the files). */
static cli_analysis cli_region_analysis(const cli_analysis *a, const cli_region *r)
{
    cli_analysis ra = *a;
    ra.top = 0;
    ra.machine_insns = r->machine_insns;
    ra.flops = r->flops;
    ra.tracer = NULL;
    ra.sampled = NULL;
    ra.job = NULL;
    ra.partial = NULL;
    ra.regions = NULL;
    ra.nregions = 0;
    return ra;
}

/* The "regions" list: each named region's name, entries and configurations. */
static void cli_json_regions(jw *w, const cli_analysis *a)
{
    size_t i;
    if (!a->nregions) return;
    jw_row(w);
    jw_arr_as(w, "regions", JW_ROWS);
    for (i = 0; i < a->nregions; i++) {
        const cli_region *r = &a->regions[i];
        cli_analysis ra = cli_region_analysis(a, r);
        jw_row(w);
        jw_obj_as(w, NULL, JW_ROWS);
        jw_row(w);
        jw_str(w, "name", r->name);
        jw_uint(w, "entries", r->entries);
        if (a->isa == EDAN_ISA_X86_64) jw_uint(w, "machine_instructions", r->machine_insns);
        jw_bool(w, "open_at_end", r->open_at_end);
        (void)cli_json_configs(w, r->ctx, &ra);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

static int cli_report_json(edan_context *ctx, const cli_analysis *a, const char *source, FILE *o)
{
    jw w;
    jw_init(&w, o);
    w.real_digits = 17;
    w.real_max = 1e300;
    jw_obj_as(&w, NULL, JW_ROWS);
    cli_json_header(&w, a, source);
    if (cli_json_configs(&w, ctx, a)) return -1;
    cli_json_threads(&w, ctx);
    cli_json_regions(&w, a);
    jw_end_obj(&w);
    fputc('\n', o);
    return 0;
}

/* The threads of a trace of several: each one's N, W, D, chained share in
   configuration 0 and the edges into it from other threads (values passed
   between threads, through memory or a new thread's registers). */
static void cli_report_threads(edan_context *ctx, FILE *o)
{
    uint32_t t;
    uint64_t cross = 0;
    char label[128];
    if (edan_num_threads(ctx) < 2) return;
    cli_config_label(edan_get_config(ctx, 0), label, sizeof label);
    fprintf(o, "\nThreads [%s]:\n  %6s %14s %12s %12s %10s %14s\n", label, "thread", "instructions", "W", "D",
            "chained", "edges from");
    fprintf(o, "  %6s %14s %12s %12s %10s %14s\n", "", "", "", "", "", "other threads");
    uint32_t shown = 0, more = 0;
    uint64_t moreN = 0, moreW = 0;
    for (t = 0; t < edan_num_threads(ctx); t++) {
        edan_thread_metrics tm;
        if (edan_get_thread_metrics(ctx, 0, t, &tm) != EDAN_OK) continue;
        cross += tm.cross_edges;
        if (shown == 32) {      /* thousands of short threads: the first ones, then a sum */
            more++;
            moreN += tm.N;
            moreW += tm.W;
            continue;
        }
        shown++;
        fprintf(o, "  %6u %14llu %12llu %12llu %9.1f%% %14llu\n", t, (unsigned long long)tm.N,
                (unsigned long long)tm.W, (unsigned long long)tm.D,
                tm.W ? 100.0 * (double)tm.chained / (double)tm.W : 0.0, (unsigned long long)tm.cross_edges);
    }
    if (more)
        fprintf(o, "  ... %u more threads: %llu instructions, W %llu in all (--json lists every thread)\n", more,
                (unsigned long long)moreN, (unsigned long long)moreW);
    fprintf(o, "  cross-thread edges: %llu\n", (unsigned long long)cross);
}

/* A row of the table: its name, then a column of width w per configuration. */
static void cli_row_u(FILE *o, const char *name, const uint64_t *v, uint32_t K, int w)
{
    uint32_t k;
    fprintf(o, "  %-26s", name);
    for (k = 0; k < K; k++) fprintf(o, " %*llu", w, (unsigned long long)v[k]);
    fputc('\n', o);
}
/* A row of configurations' values; "-" in the columns whose has[k] is 0
   (has NULL: none; a windowed schedule that did not run there). */
static void cli_row_where(FILE *o, const char *name, const double *v, const int *has, uint32_t K, const char *fmt, int w)
{
    uint32_t k;
    char cell[64];
    fprintf(o, "  %-26s", name);
    for (k = 0; k < K; k++) {
        if (!has || has[k]) snprintf(cell, sizeof cell, fmt, v[k]);
        else snprintf(cell, sizeof cell, "-");
        fprintf(o, " %*s", w, cell);
    }
    fputc('\n', o);
}
static void cli_row_d(FILE *o, const char *name, const double *v, uint32_t K, const char *fmt, int w)
{
    cli_row_where(o, name, v, NULL, K, fmt, w);
}

/* The table's rows: `expr`, a value of configuration k, for each k. */
#define CLI_ROW_U(title, expr) do { for (k = 0; k < K; k++) u[k] = (expr); cli_row_u(o, title, u, K, w); } while (0)
#define CLI_ROW_D(title, expr, fmt) \
    do { for (k = 0; k < K; k++) d[k] = (expr); cli_row_d(o, title, d, K, fmt, w); } while (0)

/* What the scope's name of entry i found, on a line, when it is worth
   saying (an IFUNC, a shared object's function, several functions, a C++
   function named short);
   *next: the entry after the name's. */
static void cli_table_scope_name(const cli_tracer *t, size_t i, size_t *next, FILE *o)
{
    size_t j, end = i;
    int say = 0;
    while (end < t->nscoped && !strcmp(t->scoped[end].name, t->scoped[i].name) &&
           !strcmp(t->scoped[end].option, t->scoped[i].option))
        end++;
    *next = end;
    for (j = i; j < end; j++) say |= t->scoped[j].ifunc || t->scoped[j].shared || t->scoped[j].short_of[0] || end - i > 1;
    if (!say) return;
    fprintf(o, "Scope: %s %s:", t->scoped[i].option, t->scoped[i].name);
    for (j = i; j < end; j++) {
        const cli_scoped *f = &t->scoped[j];
        if (f->ifunc && !f->function[0])
            fprintf(o, "%s an IFUNC of %s whose implementation the program never reached", j > i ? ";" : "", f->object);
        else if (f->ifunc)
            fprintf(o, "%s %s [%s], the implementation of the IFUNC that the program ran", j > i ? ";" : "", f->function,
                    f->object);
        else
            fprintf(o, "%s %s [%s]", j > i ? ";" : "", f->short_of[0] ? f->short_of : f->function, f->object);
    }
    fprintf(o, "\n");
}

/* --func alone: the instructions its functions' calls ran outside the
   scope, and in which functions, when there were any. */
static void cli_table_called_out(const cli_tracer *t, FILE *o)
{
    size_t i;
    const char *name = "NAME";
    char n[32];
    for (i = 0; i < t->nscoped; i++)
        if (!strcmp(t->scoped[i].option, "--func")) {
            name = t->scoped[i].name;
            break;
        }
    fprintf(o, "Called out: calls from the --func scope ran %s instructions outside it, which were not analysed",
            cli_group(n, sizeof n, t->called_out));
    for (i = 0; i < t->ncallees; i++)
        fprintf(o, "%s%s%s%s%s %s", i ? ", " : ": ", t->callees[i].function[0] ? t->callees[i].function : "?",
                t->callees[i].object[0] ? " [" : "", t->callees[i].object, t->callees[i].object[0] ? "]" : "",
                cli_group(n, sizeof n, t->callees[i].insns));
    fprintf(o, ". --region %s analyses the function with all it calls.\n", name);
}

/* What the tracer met that the numbers depend on: what the scope's names
   found, signal handlers, non-local exits, transfers it could not place. */
static void cli_table_tracer(const cli_tracer *t, FILE *o)
{
    size_t i, next;
    int said = 0;
    for (i = 0; i < t->nscoped; i = next) cli_table_scope_name(t, i, &next, o), said = 1;
    if (t->func_scope && t->called_out) cli_table_called_out(t, o), said = 1;
    if (t->signals) {
        fprintf(o, "Signals: %llu signal handler%s ran, analysed as code of the program (within the scope or not, as any "
                "code); at each one's sigreturn the interrupted code got its registers back", (unsigned long long)t->signals,
                t->signals == 1 ? "" : "s");
        if (t->signals_cut) fprintf(o, "; %llu at a fault, after the instructions before it", (unsigned long long)t->signals_cut);
        if (t->signals_left) fprintf(o, "; %llu left by a non-local exit", (unsigned long long)t->signals_left);
        fprintf(o, ".\n");
        said = 1;
    }
    if (t->sigreturns_unseen) {
        fprintf(o, "Signals: %llu sigreturn%s whose handler's start the tracer did not see: the registers lost their "
                "writers there.\n", (unsigned long long)t->sigreturns_unseen, t->sigreturns_unseen == 1 ? "" : "s");
        said = 1;
    }
    if (t->nonlocal) {
        fprintf(o, "Non-local exits: %llu (longjmp, C++ exceptions) left frames; a --region or --exclude scope ends when "
                "control returns below its frame by any path.\n", (unsigned long long)t->nonlocal);
        said = 1;
    }
    if (t->unplaced_in_scope) {
        fprintf(o, "WARNING: %llu time%s control went somewhere no frame explains while a --region or --exclude scope "
                "ran (first from 0x%llx to 0x%llx: a coroutine switch, a hand-made stack?): the tracer could not follow "
                "it, and where the scope ends may be wrong there.\n", (unsigned long long)t->unplaced_in_scope,
                t->unplaced_in_scope == 1 ? "" : "s", (unsigned long long)t->unplaced_from,
                (unsigned long long)t->unplaced_to);
        said = 1;
    }
    if (said) fputc('\n', o);
}

/* What was analysed, the job's rank, whether it is partial, each
   configuration's verdict. */
/* Where the report's machine came from, when not all from a profile: the
   report's first lines, before any number (README, "Reading the report"). */
static void cli_table_settings(edan_context *ctx, const cli_analysis *a, FILE *o)
{
    uint32_t k;
    int said = 0;
    char label[128], prof[128];
    if (!a->profile_path && !a->no_profile) {
        const edan_config *c = edan_get_config(ctx, 0);
        char list[256] = "";
        size_t n = 0;
        if (!(a->explicit_set[0] & CLI_SET_ALPHA))
            n += (size_t)snprintf(list + n, sizeof list - n, "RAM latency alpha %u cycles, ", c->alpha);
        if (!(a->explicit_set[0] & CLI_SET_FREQ))
            n += (size_t)snprintf(list + n, sizeof list - n, "clock %.3g GHz, ", c->freq_ghz);
        if (!a->opts.num_m) n += (size_t)snprintf(list + n, sizeof list - n, "m 4, ");
        if (!(a->explicit_set[0] & CLI_SET_CACHE)) n += (size_t)snprintf(list + n, sizeof list - n, "no cache, ");
        if (!(a->explicit_set[0] & CLI_SET_WINDOW_ANY) && !a->paper)
            n += (size_t)snprintf(list + n, sizeof list - n, "window %u/%u/%u/%u, ", c->window, c->lq, c->sq,
                                  c->width);
        if (n >= 2 && n < sizeof list) list[n - 2] = 0;
        if (list[0])
            fprintf(o, "No hardware profile of this machine: the model's defaults (%s) stand where no option is "
                    "given. ./probe measures them and writes this machine's profile, which every later run uses "
                    "(make run does too); --profile FILE takes another machine's.\n\n", list);
    }
    for (k = 0; a->profile_path && k < edan_num_configs(ctx); k++) {
        if (!(a->explicit_set[k] & CLI_SET_CACHE)) continue;
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        cli_config_label(&a->profile_caches, prof, sizeof prof);
        fprintf(o, "Caches [%s]: --cache, in place of the profile's whole hierarchy (%s).\n", label, prof);
        said = 1;
    }
    if (said) fputc('\n', o);
}

static void cli_table_head(edan_context *ctx, const cli_analysis *a, const char *source, const edan_metrics *mt,
                           FILE *o)
{
    uint32_t k;
    char label[128];
    if (a->isa == EDAN_ISA_X86_64)
        fprintf(o, "%s (x86-64): %llu instructions cracked into %llu vertices (%llu loads, %llu stores, the rest "
                "operations; N counts the vertices), %llu register and memory edges\n\n",
                source, (unsigned long long)a->machine_insns, (unsigned long long)mt->N,
                (unsigned long long)mt->loads, (unsigned long long)mt->stores,
                (unsigned long long)(mt->E - mt->fill_edges));
    else
        fprintf(o, "%s (RISC-V): %llu instructions (%llu loads, %llu stores, %llu atomics), %llu register and memory "
                "edges\n\n", source, (unsigned long long)mt->N, (unsigned long long)mt->loads,
                (unsigned long long)mt->stores, (unsigned long long)mt->amos,
                (unsigned long long)(mt->E - mt->fill_edges));
    if (a->job) fprintf(o, "Rank %ld of %ld, on %s.\n\n", a->job->rank, a->job->size, a->job->host);
    if (a->partial)
        fprintf(o, "PARTIAL: the run ended early (%s): this report covers what was analysed until then.\n\n",
                a->partial);
    if (a->tracer) cli_table_tracer(a->tracer, o);
    if (a->sampled) {       /* the windows' counts are the first configuration's */
        cli_config_label(edan_get_config(ctx, 0), label, sizeof label);
        cli_table_sampled(a->sampled, cli_verdict_m(a), edan_num_configs(ctx) > 1 ? label : NULL, o);
    }
    for (k = 0; k < edan_num_configs(ctx); k++) {
        cli_verdict v;
        cli_verdict_make(ctx, a, k, &v);
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        fprintf(o, "Verdict [%s]: %s.\n", label, v.text);
    }
    fputc('\n', o);
}

/* The configurations' labels over their columns; returns the columns'
   width, that of the longest label (none is cut), 18 at least. */
static int cli_table_columns(edan_context *ctx, FILE *o)
{
    uint32_t k, K = edan_num_configs(ctx);
    int w = 18;
    char label[128];
    for (k = 0; k < K; k++) {
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        if ((int)strlen(label) > w) w = (int)strlen(label);
    }
    fprintf(o, "  %-26s", "");
    for (k = 0; k < K; k++) {
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        fprintf(o, " %*s", w, label);
    }
    fputc('\n', o);
    return w;
}

/* The eDAG's metrics, a row each. */
static void cli_table_metrics(edan_context *ctx, const cli_analysis *a, const edan_metrics *mt, int w, FILE *o)
{
    uint32_t k, K = edan_num_configs(ctx);
    uint64_t u[EDAN_MAX_CONFIGS] = {0};
    double d[EDAN_MAX_CONFIGS] = {0};
    CLI_ROW_U("alpha (cycles)", edan_get_config(ctx, k)->alpha);
    CLI_ROW_U("memory work W", mt[k].W);
    CLI_ROW_U("memory depth D", mt[k].D);
    CLI_ROW_U("chained (md >= 2)", mt[k].chained);
    CLI_ROW_U("forwarded loads", mt[k].forwarded);
    CLI_ROW_U("fill edges", mt[k].fill_edges);
    CLI_ROW_U("C (cycles)", mt[k].C);
    CLI_ROW_U("T1 (cycles)", mt[k].T1);
    CLI_ROW_U("Tinf (cycles)", mt[k].Tinf);
    CLI_ROW_D("parallelism T1/Tinf", mt[k].parallelism, "%.2f");
    CLI_ROW_D("W/C", mt[k].C ? (double)mt[k].W / (double)mt[k].C : 0.0, "%.4f");
    CLI_ROW_U("bytes to/from RAM", mt[k].bytes);
    CLI_ROW_U("bytes requested (ld+st)", mt[k].load_bytes + mt[k].store_bytes);
    CLI_ROW_U("flops", cli_flops(ctx, a));
    /* the bandwidth the run would need to finish in its critical path's
       time: a figure of the model, not a measurement (each configuration's
       clock) */
    CLI_ROW_D("B = bytes/Tinf (B/cycle)", mt[k].B_bytes_per_cycle, "%.3f");
    CLI_ROW_D("B = bytes/Tinf (GB/s)", mt[k].B_GBps, "%.2f");
}

/* The bounds for each m; with --alpha-add, the time bounds with RAM farther. */
static void cli_table_bounds(edan_context *ctx, const cli_analysis *a, int w, FILE *o)
{
    uint32_t k, K = edan_num_configs(ctx), j, num_m = cli_num_m(a);
    double d[EDAN_MAX_CONFIGS] = {0};
    for (j = 0; j < num_m; j++) {
        uint32_t m = cli_m_at(a, j);
        edan_bounds b[EDAN_MAX_CONFIGS];
        for (k = 0; k < K; k++) edan_get_bounds(ctx, k, m, &b[k]);
        fprintf(o, "  m = %u\n", m);
        {   /* the windowed schedule first, where it ran at this m ("-": not here) */
            edan_window wd[EDAN_MAX_CONFIGS];
            int any = 0, has[EDAN_MAX_CONFIGS];
            for (k = 0; k < K; k++) any |= has[k] = cli_window_at(ctx, a, k, m, &wd[k]);
            if (any) {
                for (k = 0; k < K; k++) d[k] = (double)wd[k].T;
                cli_row_where(o, "  T window (cycles)", d, has, K, "%.0f", w);
                for (k = 0; k < K; k++) d[k] = (double)wd[k].lambda;
                cli_row_where(o, "  lambda window", d, has, K, "%.0f", w);
            }
        }
        CLI_ROW_D("  lambda", b[k].lambda, "%.2f");
        CLI_ROW_D("  Lambda", b[k].Lambda, "%.6g");
        CLI_ROW_D("  T lower (cycles)", b[k].T_lower, "%.1f");
        CLI_ROW_D("  T layered (cycles)", b[k].T_layered, "%.1f");
        CLI_ROW_D("  T upper (cycles)", b[k].T_upper, "%.1f");
    }
    if (!(a->alpha_add_ns > 0)) return;
    fprintf(o, "\nWhat-if: RAM latency + %g ns\n", a->alpha_add_ns);
    CLI_ROW_D("alpha far (cycles)", cli_far_alpha(edan_get_config(ctx, k), a->alpha_add_ns), "%.1f");
    for (j = 0; j < num_m; j++) {
        uint32_t m = cli_m_at(a, j);
        edan_bounds nb[EDAN_MAX_CONFIGS], fb[EDAN_MAX_CONFIGS];
        for (k = 0; k < K; k++) {
            edan_get_bounds(ctx, k, m, &nb[k]);
            edan_get_bounds_at(ctx, k, m, cli_far_alpha(edan_get_config(ctx, k), a->alpha_add_ns), &fb[k]);
        }
        fprintf(o, "  m = %u\n", m);
        {   /* the window's slope first, where it ran at this m ("-": not here) */
            edan_window wd[EDAN_MAX_CONFIGS];
            int any = 0, has[EDAN_MAX_CONFIGS];
            for (k = 0; k < K; k++) any |= has[k] = cli_window_at(ctx, a, k, m, &wd[k]);
            if (any) {
                for (k = 0; k < K; k++)
                    d[k] = (double)wd[k].lambda * (cli_far_alpha(edan_get_config(ctx, k), a->alpha_add_ns) -
                                                   (double)edan_get_config(ctx, k)->alpha);
                cli_row_where(o, "  + lambda_window x d-alpha", d, has, K, "%.1f", w);
            }
        }
        CLI_ROW_D("  T upper far (cycles)", fb[k].T_upper, "%.1f");
        CLI_ROW_D("  + lambda x d-alpha", fb[k].T_upper - nb[k].T_upper, "%.1f");
        CLI_ROW_D("  slowdown (upper)", nb[k].T_upper > 0 ? fb[k].T_upper / nb[k].T_upper : 1.0, "%.4fx");
    }
}
#undef CLI_ROW_U
#undef CLI_ROW_D

/* Where each configuration's values come from: the profile, the options. */
static void cli_table_provenance(edan_context *ctx, const cli_analysis *a, FILE *o)
{
    uint32_t k;
    char label[128];
    fprintf(o, "\nWhere the values come from");
    if (a->profile_path)
        fprintf(o, " (profile %s%s, measured m = %u)", a->profile_path,
                a->profile_default ? ": this machine's own, used without --profile; --no-profile to go without" : "",
                a->profile_m);
    fprintf(o, ":\n");
    if (a->tracer)
        fprintf(o, "  the program's addresses: %s\n", a->tracer->aslr ? "randomised by the system (--aslr): caches may see "
                "other sets in another run" : "the same in every run (address randomisation off; --aslr keeps it)");
    if (a->profile_cache_note[0]) fprintf(o, "  the profile's caches: %s\n", a->profile_cache_note);
    for (k = 0; k < edan_num_configs(ctx); k++) {
        const edan_config *c = edan_get_config(ctx, k);
        cli_config_label(c, label, sizeof label);
        fprintf(o, "  %s:\n    %s\n", label, a->provenance[k]);
        if (c->tau && c->tau != a->configs[k].tau)
            fprintf(o, "    timeline: tau %llu cycles (--tau %llu would need more than the bins allowed; each "
                       "doubling keeps every other bin)\n",
                    (unsigned long long)c->tau, (unsigned long long)a->configs[k].tau);
    }
}

/* A hotspot's function [object]  file:line, when the program is known. */
static void cli_table_where(cli_where *w, const edan_hotspot *h, char *where, size_t n)
{
    const char *fn, *sym, *file, *base, *object;
    char fo[400];
    int line;
    where[0] = 0;
    if (!h->has_pc || !cli_where_any(w)) return;
    cli_where_at(w, h->key, &fn, &sym, &file, &line, &object);
    base = file ? strrchr(file, '/') : NULL;
    snprintf(fo, sizeof fo, "%s%s%s%s", fn ? fn : "?", object ? " [" : "", object ? object : "", object ? "]" : "");
    if (file) snprintf(where, n, "%s  %s:%d", fo, base ? base + 1 : file, line);
    else snprintf(where, n, "%s", fo);
}

/* Configuration k's --top list; 0, or -1 (a message printed) when out of memory. */
static int cli_table_hotspots(edan_context *ctx, const cli_analysis *a, uint32_t k, const edan_metrics *mt,
                              cli_where *w, FILE *o)
{
    char key[200], where[720], chain[24] = "", label[128];
    int kw = 24;
    cli_hot t;
    const edan_hotspot *h;
    size_t q;
    if (cli_hot_get(ctx, a, k, &t)) return -1;
    h = t.h;
    cli_config_label(edan_get_config(ctx, k), label, sizeof label);
    for (q = 0; q < t.n; q++) {     /* the instruction column as wide as its longest entry */
        cli_hot_key(a, &h[q], key, sizeof key);
        if ((int)strlen(key) > kw) kw = (int)strlen(key);
    }
    fprintf(o, "\nTop %u memory instructions by chained accesses [%s]:\n", a->top, label);
    fprintf(o, "  %-*s %12s %12s %12s %8s%s  %s\n", kw, "instruction",
            a->isa == EDAN_ISA_X86_64 ? "accesses" : "executed", "mem vertices", "chained", "max md",
            t.chain ? "    chain" : "", cli_where_any(w) ? "where" : "");
    for (q = 0; q < t.n; q++) {
        cli_table_where(w, &h[q], where, sizeof where);
        if (t.chain) snprintf(chain, sizeof chain, " %8llu", (unsigned long long)t.chain[q]);
        cli_hot_key(a, &h[q], key, sizeof key);
        fprintf(o, "  %-*s %12llu %12llu %12llu %8llu%s  %s\n", kw, key, (unsigned long long)h[q].executed,
                (unsigned long long)h[q].mem_vertices, (unsigned long long)h[q].chained,
                (unsigned long long)h[q].max_md, chain, where);
    }
    if (t.chain) fprintf(o, "  (chain: the instruction's accesses among the D = %llu of the critical chain)\n",
                         (unsigned long long)mt->D);
    else if (a->chain) fprintf(o, "  (no critical chain: %s)\n", t.why);
    cli_hot_free(&t);
    return 0;
}

/* Each named region's section: what it ran, its verdicts and metrics
   (the main report's provenance holds for them). */
static void cli_report_regions(const cli_analysis *a, FILE *o)
{
    size_t i;
    for (i = 0; i < a->nregions; i++) {
        const cli_region *r = &a->regions[i];
        cli_analysis ra = cli_region_analysis(a, r);
        uint32_t k, K = edan_num_configs(r->ctx);
        edan_metrics mt[EDAN_MAX_CONFIGS];
        char title[200];
        int w;
        for (k = 0; k < K; k++) edan_get_metrics(r->ctx, k, &mt[k]);
        snprintf(title, sizeof title, "Region \"%s\", entered %llu time%s%s", r->name, (unsigned long long)r->entries,
                 r->entries == 1 ? "" : "s", r->open_at_end ? " (still open at the end)" : "");
        fprintf(o, "\n");
        cli_table_head(r->ctx, &ra, title, &mt[0], o);
        w = cli_table_columns(r->ctx, o);
        cli_table_metrics(r->ctx, &ra, mt, w, o);
        cli_table_bounds(r->ctx, &ra, w, o);
    }
}

static int cli_report_table(edan_context *ctx, const cli_analysis *a, const char *source, FILE *o)
{
    uint32_t K = edan_num_configs(ctx), k;
    int w;
    edan_metrics mt[EDAN_MAX_CONFIGS];
    for (k = 0; k < K; k++) edan_get_metrics(ctx, k, &mt[k]);
    cli_table_settings(ctx, a, o);     /* once, before the whole report (not a region's section) */
    cli_table_head(ctx, a, source, &mt[0], o);
    w = cli_table_columns(ctx, o);
    cli_table_metrics(ctx, a, mt, w, o);
    cli_table_bounds(ctx, a, w, o);
    cli_table_provenance(ctx, a, o);
    if (a->top) {
        cli_where where;
        cli_where_open(&where, a);
        for (k = 0; k < K; k++)
            if (cli_table_hotspots(ctx, a, k, &mt[k], &where, o)) {
                cli_where_close(&where);
                return -1;
            }
        if (a->elf_path && !where.prog.mod)
            fprintf(o, "(no function names: %s: %s)\n", a->elf_path, where.why ? where.why : "error");
        cli_where_close(&where);
    }
    cli_report_threads(ctx, o);
    cli_report_regions(a, o);
    return 0;
}

int cli_report(edan_context *ctx, const cli_analysis *a, const char *source, FILE *out)
{
    uint32_t k;
    int rc;
    for (k = 0; k < edan_num_configs(ctx); k++) {   /* the timelines' final tau, before anything says it */
        const uint64_t *bins;
        size_t nb;
        if (edan_get_config(ctx, k)->tau && edan_get_timeline(ctx, k, &bins, &nb) != EDAN_OK)
            return cli_err("timeline: %s", edan_error(ctx));
    }
    rc = a->json ? cli_report_json(ctx, a, source, out) : cli_report_table(ctx, a, source, out);
    if (!rc && a->timeline_path) rc = cli_write_timeline(ctx, a);
    if (!rc && a->dot_path) rc = cli_write_dot(ctx, a);
    if (!rc && a->layers_path) rc = cli_write_layers(ctx, a);
    if (!rc && a->sweep_path) rc = cli_write_sweep(ctx, a);
    fflush(out);
    return rc;
}

/* ---- reading a report back ---------------------------------------------- */

char *cli_file_read(const char *cmd, const char *path, size_t *len)
{
    char err[512], *text = files_read_all(path, CLI_MAX_REPORT_BYTES, len, err, sizeof err);
    if (!text) opt_err(cmd, "%s", err);
    return text;
}

const char *cli_json_where(const char *err, unsigned long *line)
{
    char *at;
    *line = strncmp(err, "line ", 5) ? 0 : strtoul(err + 5, &at, 10);
    if (*line && !strncmp(at, ": ", 2)) return at + 2;
    *line = 0;
    return err;
}

int cli_json_read(const char *cmd, const char *path, char **text, size_t *len, edan__json **root)
{
    char err[512];
    size_t n = 0;
    *root = NULL;
    if (!(*text = cli_file_read(cmd, path, &n))) return -1;
    if (len) *len = n;
    if (edan__json_parse(*text, n, NULL, root, err, sizeof err) != EDAN_OK) {
        unsigned long line;
        const char *why = cli_json_where(err, &line);
        free(*text);
        *text = NULL;
        *root = NULL;
        return opt_ferr(cmd, path, line, "not valid JSON: %s", why);
    }
    return 0;
}

int cli_report_read(const char *cmd, const char *path, char **text, edan__json **root,
                    const edan__json **configs)
{
    if (cli_json_read(cmd, path, text, NULL, root)) return -1;
    *configs = edan__json_get(*root, "configs");
    if (edan__json_kind(*root) == EDAN__JSON_OBJECT && edan__json_kind(*configs) == EDAN__JSON_ARRAY &&
        edan__json_len(*configs))
        return 0;
    edan__json_free(*root);
    free(*text);
    *text = NULL;
    *root = NULL;
    return opt_ferr(cmd, path, 0, "not an edan report (no \"configs\" list; edan analyze --json and edan trace "
                    "--json write one)");
}
