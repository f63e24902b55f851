/* tools/report/report_files.c - the files an analysis writes beside its report:
   --timeline (CSV), --layers (CSV or binary), --dot and --sweep (CSV),
   each written atomically (tools/common/files.h). */
#include <string.h>
#include "report.h"
#include "../common/files.h"

/* The report's files (tools/common/files.h): messages on stderr. */
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
    if (cli_file_open(&cf, a->cmd.timeline_path)) return -1;
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
    const char *dot = strrchr(a->cmd.layers_path, '.');
    int csv = dot && !strcmp(dot, ".csv");
    char label[128];
    for (k = 0; k < K; k++) {
        edan_metrics mt;
        edan_get_metrics(ctx, k, &mt);
        D[k] = mt.D;
        if (D[k] > Dmax) Dmax = D[k];
    }
    if (cli_file_open(&cf, a->cmd.layers_path)) return -1;
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
                       a->cmd.dot_path, CLI_DOT_LIMIT);
    if (cli_file_open(&cf, a->cmd.dot_path)) return -1;
    r = edan_write_dot(ctx, 0, cli_dot_write, cf.f, cli_dot_label, (void *)a);
    if (r != EDAN_OK) {
        files_out_discard(&cf);
        return cli_err("--dot %s: %s", a->cmd.dot_path, edan_error(ctx));
    }
    return cli_file_close(&cf);
}

static int cli_write_sweep(edan_context *ctx, const cli_analysis *a)
{
    cli_file cf;
    uint32_t k, j, K = edan_num_configs(ctx);
    int ns;
    char label[128];
    if (cli_file_open(&cf, a->cmd.sweep_path)) return -1;
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
int cli_write_files(edan_context *ctx, const cli_analysis *a)
{
    int rc = 0;
    if (!rc && a->cmd.timeline_path) rc = cli_write_timeline(ctx, a);
    if (!rc && a->cmd.dot_path) rc = cli_write_dot(ctx, a);
    if (!rc && a->cmd.layers_path) rc = cli_write_layers(ctx, a);
    if (!rc && a->cmd.sweep_path) rc = cli_write_sweep(ctx, a);
    return rc;
}
