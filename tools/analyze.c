/* tools/analyze.c - `edan analyze`: one streaming pass over a trace file
   (text, .gz or binary) into the eDAG engine, then the report. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "cli.h"
#include "bintrace.h"
#include "suggest.h"

static const char analyze_usage[] =
    "usage: edan analyze [options] TRACE\n"
    "\n"
    "Builds the execution DAG of a RISC-V instruction trace in one pass and prints\n"
    "its memory-latency metrics. TRACE is a text trace (one instruction per line, in\n"
    "any of the formats of README.md), a .gz of one, a binary trace written by\n"
    "`edan trace --binary`, or - for standard input.\n"
    "\n";

#define ANALYZE_MAX_LINE 4096
#define ANALYZE_CHUNK (1u << 22)

typedef struct analyze_input {
    const char *path;       /* for messages */
    gzFile gz;
    unsigned long long total;   /* compressed bytes, 0 if unknown */
} analyze_input;

/* Print one offending line, shortened and with control bytes escaped. */
static void analyze_print_line(const char *s, size_t n)
{
    size_t i;
    if (n > 120) n = 120;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\r' || c == '\n') break;
        if (c < 0x20 || c >= 0x7f) fprintf(stderr, "\\x%02x", c);
        else fputc(c, stderr);
    }
    fputc('\n', stderr);
}

static int analyze_open(analyze_input *in, const char *path)
{
    int fd;
    struct stat st;
    in->path = strcmp(path, "-") ? path : "<stdin>";
    in->total = 0;
    if (!strcmp(path, "-")) {
        fd = dup(0);
    } else {
        fd = open(path, O_RDONLY);
    }
    if (fd < 0) {
        fprintf(stderr, "edan: %s: %s\n", in->path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "edan: %s: is a directory\n", in->path);
        close(fd);
        return -1;
    }
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) in->total = (unsigned long long)st.st_size;
    in->gz = gzdopen(fd, "rb");     /* reads plain files unchanged */
    if (!in->gz) {
        fprintf(stderr, "edan: %s: cannot open\n", in->path);
        close(fd);
        return -1;
    }
    gzbuffer(in->gz, 1u << 18);
    return 0;
}

/* Fill buf[have..cap) from the input; returns bytes added, 0 at end, -1 on error. */
static long analyze_read(analyze_input *in, char *buf, size_t have, size_t cap)
{
    int n = gzread(in->gz, buf + have, (unsigned)(cap - have)), err = Z_OK;
    if (n == 0) {
        /* the end: of a plain file, or of a compressed stream, whose trailer
           (length and CRC) must be there: a cut-off .gz is an error */
        const char *msg = gzerror(in->gz, &err);
        if (err != Z_OK) {
            fprintf(stderr, "edan: %s: %s (a cut-off or damaged .gz file)\n", in->path,
                    err == Z_BUF_ERROR ? "the compressed stream ends early" : msg ? msg : "read error");
            return -1;
        }
    }
    if (n < 0) {
        int err;
        const char *msg = gzerror(in->gz, &err);
        fprintf(stderr, "edan: %s: read error: %s\n", in->path, msg ? msg : "unknown");
        return -1;
    }
    return n;
}

typedef struct analyze_state {
    edan_context *ctx;
    const cli_analysis *a;
    cli_progress prog;
    unsigned long long insns, skipped, lines;
} analyze_state;

/* A `#edan-kill` line of a scoped text trace (what code outside the scope
   wrote): items `r<register id>` and `m0x<address>+<size>`. 0, or -1 with
   *why set. */
static int analyze_kill_line(edan_context *ctx, const char *s, size_t len, const char **why)
{
    const char *e = s + len, *p = s + 10;
    while (e > p && (e[-1] == '\n' || e[-1] == '\r')) e--;
    while (p < e) {
        char tok[64], *end;
        size_t n;
        unsigned long long a, size;
        edan_result r;
        while (p < e && (*p == ' ' || *p == '\t')) p++;
        if (p == e) break;
        for (n = 0; p + n < e && p[n] != ' ' && p[n] != '\t'; n++) {}
        if (n >= sizeof tok) { *why = "bad #edan-kill item (too long)"; return -1; }
        memcpy(tok, p, n);
        tok[n] = 0;
        p += n;
        errno = 0;
        if (tok[0] == 'r' && tok[1] >= '0' && tok[1] <= '9') {
            unsigned long v = strtoul(tok + 1, &end, 10);
            edan_reg reg = (edan_reg)v;
            if (errno || *end || v > 0xffff) { *why = "bad #edan-kill register (expected r<id>)"; return -1; }
            r = edan_kill_regs(ctx, &reg, 1);
        } else if (tok[0] == 'm' && tok[1] == '0' && tok[2] == 'x') {
            a = strtoull(tok + 3, &end, 16);
            if (errno || end == tok + 3 || *end != '+') { *why = "bad #edan-kill range (expected m0x<address>+<size>)"; return -1; }
            size = strtoull(end + 1, &end, 10);
            if (errno || *end || !size) { *why = "bad #edan-kill range (expected m0x<address>+<size>)"; return -1; }
            r = edan_kill_mem(ctx, a, size);
        } else {
            *why = "bad #edan-kill item (expected r<id> or m0x<address>+<size>)";
            return -1;
        }
        if (r != EDAN_OK) { *why = edan_error(ctx); return -1; }
    }
    return 0;
}

static int analyze_text_with(analyze_state *st, analyze_input *in, char *buf, size_t have, edan_rv_parser *p)
{
    size_t start = 0;
    int eof = 0;
    for (;;) {
        char *nl;
        /* the first NUL byte of the buffer, looked up once per read */
        const char *nul = (const char *)memchr(buf + start, 0, have - start);
        /* process every complete line in buf[start..have) */
        while (start < have && (nl = (char *)memchr(buf + start, '\n', have - start)) != NULL) {
            char *line = buf + start;
            size_t len = (size_t)(nl - line) + 1;
            edan_insn insn;
            edan_result r;
            st->lines++;
            if (len > ANALYZE_MAX_LINE) {
                fprintf(stderr, "%s:%llu: line longer than %d bytes: ", in->path, st->lines, ANALYZE_MAX_LINE);
                analyze_print_line(line, len);
                return 2;
            }
            if (nul && nul < line + len) {
                fprintf(stderr, "%s:%llu: binary data (NUL byte) in a text trace: ", in->path, st->lines);
                analyze_print_line(line, len);
                return 2;
            }
            if (line[0] == '#' && len >= 10 && !memcmp(line, "#edan-kill", 10)) {
                const char *why = NULL;
                if (analyze_kill_line(st->ctx, line, len, &why)) {
                    fprintf(stderr, "%s:%llu: %s: ", in->path, st->lines, why);
                    analyze_print_line(line, len);
                    return 2;
                }
                start += len;
                continue;
            }
            r = edan_rv_parse_line(p, line, len, &insn);
            if (r == EDAN_OK) {
                r = edan_feed(st->ctx, &insn);
                if (r != EDAN_OK) {
                    fprintf(stderr, "%s:%llu: %s: ", in->path, st->lines, edan_error(st->ctx));
                    analyze_print_line(line, len);
                    return 2;
                }
                st->insns++;
            } else if (r == EDAN_ERR_UNKNOWN_OP && st->a->skip_unknown) {
                if (st->skipped < 5) {
                    fprintf(stderr, "%s:%llu: skipped: %s: ", in->path, st->lines, p->error);
                    analyze_print_line(line, len);
                }
                st->skipped++;
            } else if (r != EDAN_SKIP) {
                fprintf(stderr, "%s:%llu: %s: ", in->path, st->lines, p->error);
                analyze_print_line(line, len);
                return 2;
            }
            start += len;
        }
        if (eof) break;
        /* keep the partial line, read more */
        if (start) {
            memmove(buf, buf + start, have - start);
            have -= start;
            start = 0;
        }
        if (have > ANALYZE_MAX_LINE) {
            fprintf(stderr, "%s:%llu: line longer than %d bytes: ", in->path, st->lines + 1, ANALYZE_MAX_LINE);
            analyze_print_line(buf, have);
            return 2;
        }
        {
            long n = analyze_read(in, buf, have, ANALYZE_CHUNK);
            if (n < 0) return 2;
            if (n == 0) {
                eof = 1;
                if (have) {         /* a last line without '\n' */
                    edan_insn insn;
                    edan_result r;
                    st->lines++;
                    buf[have] = 0;
                    r = memchr(buf, 0, have) ? EDAN_ERR_PARSE : edan_rv_parse_line(p, buf, have, &insn);
                    if (r == EDAN_OK) {
                        if (edan_feed(st->ctx, &insn) != EDAN_OK) {
                            fprintf(stderr, "%s:%llu: %s: ", in->path, st->lines, edan_error(st->ctx));
                            analyze_print_line(buf, have);
                            return 2;
                        }
                        st->insns++;
                    } else if (r == EDAN_ERR_UNKNOWN_OP && st->a->skip_unknown) {
                        st->skipped++;
                    } else if (r != EDAN_SKIP) {
                        fprintf(stderr, "%s:%llu: truncated last line (no newline; %s): ", in->path, st->lines,
                                memchr(buf, 0, have) ? "binary data" : p->error);
                        analyze_print_line(buf, have);
                        return 2;
                    }
                    have = 0;
                }
                break;
            }
            have += (size_t)n;
        }
        cli_progress_update(&st->prog, (unsigned long long)gzoffset(in->gz), st->insns);
    }
    return 0;
}

static int analyze_text(analyze_state *st, analyze_input *in, char *buf, size_t have)
{
    edan_rv_parser *p = (edan_rv_parser *)calloc(1, sizeof *p);    /* large: its memo */
    int rc;
    if (!p) {
        fprintf(stderr, "edan: out of memory for the text parser\n");
        return 2;
    }
    rc = analyze_text_with(st, in, buf, have, p);
    free(p);
    return rc;
}

static int analyze_binary(analyze_state *st, analyze_input *in, char *buf, size_t have)
{
    bintrace_reader rd;
    int rc;
    if (bintrace_reader_init(&rd) != BINTRACE_OK) {
        fprintf(stderr, "edan: out of memory\n");
        return 2;
    }
    for (;;) {
        size_t used = 0;
        long n;
        int warned = rd.warning[0] != 0;
        rc = bintrace_reader_feed(&rd, (const unsigned char *)buf, have, &used, st->ctx);
        if (!warned && rd.warning[0]) fprintf(stderr, "%s: warning: %s\n", in->path, rd.warning);
        if (rc == BINTRACE_ERR) {
            fprintf(stderr, "%s: byte %llu: %s\n", in->path, rd.offset, rd.error);
            bintrace_reader_free(&rd);
            return 2;
        }
        st->insns = rd.count;
        if (rc == BINTRACE_EOF) break;
        memmove(buf, buf + used, have - used);
        have -= used;
        n = analyze_read(in, buf, have, ANALYZE_CHUNK);
        if (n < 0) { bintrace_reader_free(&rd); return 2; }
        if (n == 0) {
            fprintf(stderr, "%s: truncated binary trace (no end record after %llu instructions)\n", in->path,
                    rd.count);
            bintrace_reader_free(&rd);
            return 2;
        }
        have += (size_t)n;
        cli_progress_update(&st->prog, (unsigned long long)gzoffset(in->gz), st->insns);
    }
    bintrace_reader_free(&rd);
    return 0;
}

int edan_cmd_analyze(int argc, char **argv)
{
    cli_analysis a;
    analyze_state st;
    analyze_input in;
    const char *path = NULL;
    char *buf;
    long n;
    int i = 1, rc, only_files = 0;
    edan_result r;
    cli_analysis_init(&a);
    while (i < argc) {
        if (!only_files && argv[i][0] == '-' && argv[i][1]) {
            int got;
            if (!strcmp(argv[i], "--")) { only_files = 1; i++; continue; }
            if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
                printf("%s%s", analyze_usage, cli_analysis_help);
                return 0;
            }
            got = cli_analysis_option(&a, argc, argv, &i);
            if (got < 0) return 2;
            if (got == 0) {
                char near[64], help[8192];
                snprintf(help, sizeof help, "%s%s", analyze_usage, cli_analysis_help);
                suggest_option(argv[i], help, near, sizeof near);
                fprintf(stderr, "edan analyze: unknown option %s%s%s%s (see edan analyze --help)\n", argv[i],
                        near[0] ? "; did you mean " : "", near, near[0] ? "?" : "");
                return 2;
            }
            continue;
        }
        if (path) {
            fprintf(stderr, "edan analyze: one trace at a time (got %s and %s)\n", path, argv[i]);
            return 2;
        }
        path = argv[i++];
    }
    if (!path) {
        fprintf(stderr, "%sedan analyze: no trace given\n", analyze_usage);
        return 2;
    }
    if (cli_analysis_finish(&a)) return 2;
    memset(&st, 0, sizeof st);
    st.a = &a;
    r = edan_create(&st.ctx, &a.opts);
    if (r != EDAN_OK) {
        fprintf(stderr, "edan analyze: %s\n", st.ctx ? edan_error(st.ctx) : edan_result_string(r));
        edan_destroy(st.ctx);
        return 2;
    }
    if (analyze_open(&in, path)) {
        edan_destroy(st.ctx);
        return 2;
    }
    buf = (char *)malloc(ANALYZE_CHUNK + 1);
    if (!buf) {
        fprintf(stderr, "edan: out of memory\n");
        return 2;
    }
    cli_progress_start(&st.prog, in.total, a.quiet);
    n = analyze_read(&in, buf, 0, ANALYZE_CHUNK);
    if (n < 0) rc = 2;
    else if (bintrace_detect((const unsigned char *)buf, (size_t)n)) rc = analyze_binary(&st, &in, buf, (size_t)n);
    else rc = analyze_text(&st, &in, buf, (size_t)n);
    cli_progress_end(&st.prog);
    gzclose(in.gz);
    free(buf);
    if (!rc && st.insns == 0) {
        fprintf(stderr, "%s: no instructions in the trace%s\n", in.path, st.lines ? "" : " (empty file)");
        rc = 2;
    }
    if (!rc) {
        if (st.skipped)
            fprintf(stderr, "edan analyze: skipped %llu lines with unknown instructions (--skip-unknown)\n",
                    st.skipped);
        if (cli_report(st.ctx, &a, in.path, stdout)) rc = 2;
    }
    edan_destroy(st.ctx);
    return rc;
}
