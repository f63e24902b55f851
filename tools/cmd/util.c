/* tools/cmd/util.c - what every subcommand shares: the error printer, the
   progress line, thousands separators, and reading a file, a JSON
   document or a report back. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "../common/files.h"

int cli_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    opt_verr("edan", NULL, 0, fmt, ap);
    va_end(ap);
    return -1;
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

/* ---- thousands ---------------------------------------------------------- */
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

int cli_json_read(const char *cmd, const char *path, char **text, size_t *len, edan_json **root)
{
    char err[512];
    size_t n = 0;
    *root = NULL;
    if (!(*text = cli_file_read(cmd, path, &n))) return -1;
    if (len) *len = n;
    if (edan_json_parse(*text, n, NULL, root, err, sizeof err) != EDAN_OK) {
        unsigned long line;
        const char *why = cli_json_where(err, &line);
        free(*text);
        *text = NULL;
        *root = NULL;
        return opt_ferr(cmd, path, line, "not valid JSON: %s", why);
    }
    return 0;
}

int cli_report_read(const char *cmd, const char *path, char **text, edan_json **root,
                    const edan_json **configs)
{
    if (cli_json_read(cmd, path, text, NULL, root)) return -1;
    *configs = edan_json_get(*root, "configs");
    if (edan_json_kind(*root) == EDAN_JSON_OBJECT && edan_json_kind(*configs) == EDAN_JSON_ARRAY &&
        edan_json_len(*configs))
        return 0;
    edan_json_free(*root);
    free(*text);
    *text = NULL;
    *root = NULL;
    return opt_ferr(cmd, path, 0, "not an edan report (no \"configs\" list; edan analyze --json and edan trace "
                    "--json write one)");
}
