/* tools/cmd/analyze.c - `edan analyze`: one streaming pass over a trace file
   (text, .gz or binary) into the eDAG engine, then the report. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "cli.h"
#include "../common/files.h"
#include "../front/bintrace.h"
#include "../front/x86.h"

enum { ANALYZE_HELP = 1 };
static const opt_def analyze_opts[] = {
    {NULL, NULL, 0,
     "usage: edan analyze [options] TRACE\n"
     "\n"
     "Builds the execution DAG of an instruction trace in one pass and prints its\n"
     "memory-latency metrics. TRACE is a text trace (RISC-V: one instruction per\n"
     "line, in any of the formats of README.md; x86-64: the lines `edan trace --text`\n"
     "writes), a .gz of one, a binary trace written by `edan trace --binary` (either\n"
     "ISA), or - for standard input. A text trace's first line `#edan-trace x86-64`\n"
     "or `#edan-trace riscv64` (edan trace writes it) says its ISA; without it the\n"
     "first instruction line decides. A RISC-V text trace is read and parsed on a\n"
     "second thread while the engine runs (the same answer; two cores used at most).\n"
     "A trace of a program's several threads (`#edan-thread` lines, THREAD records)\n"
     "is one eDAG; the report adds a Threads table. A signal handler that ran\n"
     "(`#edan-signal` lines) gives the interrupted code its registers back when it\n"
     "returns.\n"},
    {"-h|--help", NULL, ANALYZE_HELP, "this text"},
    {NULL, NULL, 0, ""},
};
#define ANALYZE_NOPTS (sizeof analyze_opts / sizeof analyze_opts[0])

#define ANALYZE_MAX_LINE 4096
#define ANALYZE_CHUNK (1u << 22)

typedef struct analyze_input {
    const char *path;       /* for messages */
    int fd;
    int mode;               /* 0 not yet known, 1 plain, 2 gzip (one or more members), 3 done */
    z_stream z;             /* gzip: the member being inflated */
    unsigned char *raw;     /* bytes read from fd, raw[pos .. have) not yet used */
    size_t pos, have;
    int eof;                /* fd is at its end */
    unsigned long long read;    /* bytes read from fd */
    unsigned long long total;   /* compressed bytes, 0 if unknown */
} analyze_input;

#define ANALYZE_RAW (1u << 18)

/* "PATH:LINE: WHY: TEXT" on standard error: the offending line, shortened
   and with control bytes escaped. */
static void analyze_bad_line(const char *path, unsigned long long no, const char *why, const char *s, size_t n)
{
    char text[4 * 120 + 1];
    size_t i, o = 0;
    if (n > 120) n = 120;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\r' || c == '\n') break;
        if (c < 0x20 || c >= 0x7f) o += (size_t)snprintf(text + o, sizeof text - o, "\\x%02x", c);
        else text[o++] = (char)c;
    }
    text[o] = 0;
    opt_ferr(NULL, path, no, "%s: %s", why, text);
}

/* A text trace's head: its leading comment lines up to the first
   instruction, of which `#edan-trace ISA` (the first line of the traces
   edan trace writes) says the ISA and `#edan-load 0xADDR` where a
   position-independent program was loaded. The ISA, ANALYZE_ISA_UNSAID
   (read by the first instruction line then), or -1 after an error. */
#define ANALYZE_ISA_UNSAID 0x7fff
static int analyze_text_head(const char *path, const char *buf, size_t n, uint64_t *load)
{
    const char *p = buf, *e = buf + n;
    unsigned long long no = 0;
    int isa = ANALYZE_ISA_UNSAID;
    while (p < e && *p == '#') {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(e - p)), *end = nl ? nl : e;
        size_t len = (size_t)(end - p);
        no++;
        if (len > 12 && !memcmp(p, "#edan-trace ", 12)) {
            const char *w = p + 12;
            size_t wl = len - 12;
            while (wl && (w[wl - 1] == '\r' || w[wl - 1] == ' ')) wl--;
            if (wl == 6 && !memcmp(w, "x86-64", 6)) isa = EDAN_ISA_X86_64;
            else if (wl == 7 && !memcmp(w, "riscv64", 7)) isa = EDAN_ISA_RISCV64;
            else {
                analyze_bad_line(path, no, "unknown ISA (expected #edan-trace riscv64 or #edan-trace x86-64)", p, len);
                return -1;
            }
        } else if (len > 13 && !memcmp(p, "#edan-load 0x", 13)) {
            *load = strtoull(p + 13, NULL, 16);
        }
        if (!nl) break;
        p = nl + 1;
    }
    return isa;
}

static int analyze_open(analyze_input *in, const char *path)
{
    int fd;
    struct stat st;
    memset(in, 0, sizeof *in);
    in->fd = -1;
    in->path = strcmp(path, "-") ? path : "<stdin>";
    if (!strcmp(path, "-")) {
        fd = dup(0);
    } else {
        fd = open(path, O_RDONLY);
    }
    if (fd < 0) {
        cli_err("%s: %s", in->path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_err("%s: is a directory", in->path);
        close(fd);
        return -1;
    }
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) in->total = (unsigned long long)st.st_size;
    if (!(in->raw = (unsigned char *)malloc(ANALYZE_RAW))) {
        cli_err("out of memory");
        close(fd);
        return -1;
    }
    in->fd = fd;
    return 0;
}

static void analyze_close(analyze_input *in)
{
    if (in->mode == 2) inflateEnd(&in->z);
    if (in->fd >= 0) close(in->fd);
    free(in->raw);
    in->fd = -1;
    in->raw = NULL;
}

/* The input's bytes consumed so far (compressed ones for a .gz), for the
   progress line. */
static unsigned long long analyze_consumed(const analyze_input *in)
{
    return in->read - (in->have - in->pos) - (in->mode == 2 ? in->z.avail_in : 0);
}

/* More raw bytes, after raw[pos .. have) (moved to the start): 0, or -1 on
   a read error (errno). At the end of the file, in->eof. */
static int analyze_refill(analyze_input *in)
{
    ssize_t n;
    if (in->pos) {
        memmove(in->raw, in->raw + in->pos, in->have - in->pos);
        in->have -= in->pos;
        in->pos = 0;
    }
    while (!in->eof && in->have < ANALYZE_RAW) {
        n = read(in->fd, in->raw + in->have, ANALYZE_RAW - in->have);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) in->eof = 1;
        in->have += (size_t)n;
        in->read += (unsigned long long)n;
        if (n > 0) break;
    }
    return 0;
}

/* Some bytes into buf[have..cap): analyze_read's step. */
static long analyze_read_some(analyze_input *in, char *buf, size_t have, size_t cap, char *why, size_t why_len);

/* Fill buf[have..cap) from the input: a plain file as it is, a .gz (one
   or more gzip members, as gzip writes and concatenates them) inflated;
   returns bytes added, 0 at end, -1 on error, its message in why[] (or on
   standard error when why is NULL): a read error, a damaged or cut-off
   .gz, or data after its last member (which zlib's gzread would ignore and
   gzip -t refuses). */
static long analyze_read_some(analyze_input *in, char *buf, size_t have, size_t cap, char *why, size_t why_len)
{
    char msg[256];
    long got = 0;
    msg[0] = 0;
    if (in->mode == 0) {        /* plain or gzip, by the first two bytes */
        while (in->have < 2 && !in->eof)
            if (analyze_refill(in)) goto read_error;
        in->mode = in->have >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b ? 2 : 1;
        if (in->mode == 2 && inflateInit2(&in->z, 16 + MAX_WBITS) != Z_OK) {
            snprintf(msg, sizeof msg, "edan: %s: out of memory", in->path);
            goto fail;
        }
    }
    if (in->mode == 1) {
        if (in->pos == in->have && !in->eof && analyze_refill(in)) goto read_error;
        got = (long)(in->have - in->pos < cap - have ? in->have - in->pos : cap - have);
        memcpy(buf + have, in->raw + in->pos, (size_t)got);
        in->pos += (size_t)got;
        return got;
    }
    while (in->mode == 2 && got == 0) {
        int r;
        if (in->pos == in->have && !in->eof && analyze_refill(in)) goto read_error;
        in->z.next_in = in->raw + in->pos;
        in->z.avail_in = (uInt)(in->have - in->pos);
        in->z.next_out = (Bytef *)buf + have;
        in->z.avail_out = (uInt)(cap - have);
        r = inflate(&in->z, Z_NO_FLUSH);
        in->pos = in->have - in->z.avail_in;
        got = (long)(cap - have - in->z.avail_out);
        if (r == Z_STREAM_END) {
            /* a member ends: another follows, or nothing, or data that is no gzip member */
            while (in->have - in->pos < 2 && !in->eof)
                if (analyze_refill(in)) goto read_error;
            if (in->have == in->pos) {
                in->mode = 3;
            } else if (in->have - in->pos >= 2 && in->raw[in->pos] == 0x1f && in->raw[in->pos + 1] == 0x8b) {
                inflateReset(&in->z);
            } else {
                unsigned long long after = in->have - in->pos;
                if (in->total) after = in->total - (in->read - (in->have - in->pos));
                snprintf(msg, sizeof msg, "edan: %s: %llu bytes after the end of the compressed stream (a damaged "
                         "or appended-to .gz file)", in->path, after);
                goto fail;
            }
        } else if (r == Z_BUF_ERROR && in->pos == in->have && in->eof) {
            snprintf(msg, sizeof msg, "edan: %s: the compressed stream ends early (a cut-off or damaged .gz file)",
                     in->path);
            goto fail;
        } else if (r != Z_OK && r != Z_BUF_ERROR) {
            snprintf(msg, sizeof msg, "edan: %s: %s (a damaged .gz file)", in->path,
                     in->z.msg ? in->z.msg : "inflate failed");
            goto fail;
        }
    }
    return got;
read_error:
    snprintf(msg, sizeof msg, "edan: %s: read error: %s", in->path, strerror(errno));
fail:
    if (why) snprintf(why, why_len, "%s", msg);
    else opt_err(NULL, "%s", msg);
    return -1;
}

static long analyze_read(analyze_input *in, char *buf, size_t have, size_t cap, char *why, size_t why_len)
{
    size_t start = have;
    while (have < cap) {
        long n = analyze_read_some(in, buf, have, cap, why, why_len);
        if (n < 0) return -1;
        if (n == 0) break;
        have += (size_t)n;
    }
    return (long)(have - start);
}

typedef struct analyze_state {
    edan_context *ctx;
    const cli_analysis *a;
    cli_progress prog;
    unsigned long long insns, skipped, lines;
    int x86;                    /* an x86-64 trace: its flops were counted */
    unsigned long long flops;
    cli_code code;              /* x86-64: the instructions' bytes by pc, for --top and --dot */
    uint64_t load;              /* where the program was loaded (a binary trace's header), 0: as linked */
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

/* A `#edan-thread` line of a text trace of several threads:
   `create CREATOR CHILD`, `switch THREAD` or `exit THREAD` (edan_thread_*).
   0, or -1 with *why set. */
/* A thread id: a plain decimal, at most 4294967295 (opt.h's number
   parser: no sign, no spaces). 0, or -1. */
static int analyze_thread_id(const char *tok, uint32_t *out)
{
    return opt_u32(tok, 0, UINT32_MAX, out);
}

static int analyze_thread_line(edan_context *ctx, const char *s, size_t len, const char **why)
{
    char buf[128], *tok[4], *save = NULL, *t;
    uint32_t a = 0, b = 0;
    int n = 0;
    edan_result r;
    if (len >= sizeof buf) { *why = "bad #edan-thread line (too long)"; return -1; }
    memcpy(buf, s, len);
    buf[len] = 0;
    for (t = strtok_r(buf + 12, " \t\r\n", &save); t && n < 4; t = strtok_r(NULL, " \t\r\n", &save)) tok[n++] = t;
    if (n == 3 && !strcmp(tok[0], "create") && !analyze_thread_id(tok[1], &a) && !analyze_thread_id(tok[2], &b)) {
        r = bintrace_thread_apply(ctx, 0, a, b);
    } else if (n == 2 && (!strcmp(tok[0], "switch") || !strcmp(tok[0], "exit")) && !analyze_thread_id(tok[1], &a)) {
        r = bintrace_thread_apply(ctx, !strcmp(tok[0], "switch") ? 1 : 2, a, 0);
    } else {
        *why = "bad #edan-thread line (expected create CREATOR CHILD, switch THREAD or exit THREAD, each thread a "
               "decimal from 0 to 4294967295)";
        return -1;
    }
    if (r != EDAN_OK) { *why = edan_error(ctx); return -1; }
    return 0;
}

/* A `#edan-signal` line: `deliver` (a signal handler of the running
   thread starts), `return` (it returns: sigreturn) or `drop` (it is left
   by a non-local exit). 0, or -1 with *why set. */
static int analyze_signal_line(edan_context *ctx, const char *s, size_t len, const char **why)
{
    static const char *const verbs[] = {"deliver", "return", "drop"};
    const char *p = s + 12, *e = s + len;
    size_t n;
    unsigned v;
    while (e > p && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    n = (size_t)(e - p);
    for (v = 0; v < 3; v++)
        if (n == strlen(verbs[v]) && !memcmp(p, verbs[v], n)) {
            if (bintrace_thread_apply(ctx, BINTRACE_SIGNAL + v, 0, 0) == EDAN_OK) return 0;
            *why = edan_error(ctx);
            return -1;
        }
    *why = "bad #edan-signal line (expected deliver, return or drop)";
    return -1;
}

/* The directive lines a text trace carries among its instructions, in
   trace order; any other comment is skipped. */
typedef int (*analyze_directive_fn)(edan_context *ctx, const char *s, size_t len, const char **why);
static const struct { const char *prefix; size_t len; analyze_directive_fn fn; } analyze_directives[] = {
    {"#edan-kill", 10, analyze_kill_line},
    {"#edan-thread", 12, analyze_thread_line},
    {"#edan-signal", 12, analyze_signal_line},
};

/* The directive of line s[0 .. len), or NULL. */
static analyze_directive_fn analyze_directive_of(const char *s, size_t len)
{
    size_t k;
    for (k = 0; k < sizeof analyze_directives / sizeof analyze_directives[0]; k++)
        if (len >= analyze_directives[k].len && !memcmp(s, analyze_directives[k].prefix, analyze_directives[k].len))
            return analyze_directives[k].fn;
    return NULL;
}

/* A directive line applied; 0, or -1 with *why set. */
static int analyze_directive(edan_context *ctx, const char *s, size_t len, const char **why)
{
    analyze_directive_fn fn = analyze_directive_of(s, len);
    return fn ? fn(ctx, s, len, why) : 0;
}

/* The text trace is read and parsed on a second thread while this one feeds
   the engine: parsing is a third of the time on compiled code's mix, and
   the two halves share nothing but batches handed over in line order, so
   the result is the same as one thread's. A batch is whole lines of text,
   their parsed instructions, and the events among them (a #edan-kill line,
   a skipped line to report, an error), each at the instruction it comes
   before, so that messages come out in line order too. */
#define ANALYZE_BATCH_TEXT (1u << 18)   /* text per batch: its instructions stay in L2 */
#define ANALYZE_SLOTS 3

enum { ANALYZE_EV_KILL, ANALYZE_EV_SKIP, ANALYZE_EV_ERROR };

typedef struct analyze_event {
    size_t at;                  /* instructions of the batch before it */
    int kind;
    unsigned long long line_no;
    const char *line;           /* in the batch's text */
    size_t len;
    char msg[320];              /* skip and error: what to print before the line */
} analyze_event;

typedef struct analyze_batch {
    char *text;                 /* ANALYZE_BATCH_TEXT + ANALYZE_MAX_LINE + 2 bytes */
    edan_insn *insn;
    uint32_t *off;              /* each instruction's line: its offset in text */
    size_t n, cap;
    analyze_event *ev;
    size_t nev, evcap;
    size_t len;                 /* bytes of text */
    unsigned long long first_line;  /* the number of text's first line */
    unsigned long long gzpos;       /* input consumed, for the progress line */
    int last;                   /* nothing follows: the end, or an error */
} analyze_batch;

typedef struct analyze_pipe {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    analyze_batch slot[ANALYZE_SLOTS];
    unsigned full;              /* batches handed over, not yet given back */
    int stop;                   /* the feeding side gave up: the reader ends */
    /* the reader's own */
    analyze_input *in;
    edan_rv_parser *p;
    int skip_unknown;
    char *first;                /* what was read before the format was known */
    size_t first_len;
    unsigned long long lines, skipped;
} analyze_pipe;

static analyze_event *analyze_event_add(analyze_batch *b, int kind, unsigned long long line_no, const char *line,
                                        size_t len)
{
    analyze_event *e, *ev = (analyze_event *)cli_grow(b->ev, &b->evcap, b->nev, sizeof *ev, 16);
    if (!ev) return NULL;
    b->ev = ev;
    e = &b->ev[b->nev++];
    e->at = b->n;
    e->kind = kind;
    e->line_no = line_no;
    e->line = line;
    e->len = len;
    e->msg[0] = 0;
    return e;
}

/* An error event ends the batch and the reading; when even that cannot be
   recorded (out of memory), the batch's first event says so. */
#if defined(__GNUC__)
static void analyze_error(analyze_batch *b, unsigned long long line_no, const char *line, size_t len,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#endif
static void analyze_error(analyze_batch *b, unsigned long long line_no, const char *line, size_t len,
                          const char *fmt, ...)
{
    analyze_event *e = analyze_event_add(b, ANALYZE_EV_ERROR, line_no, line, len);
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    } else {                    /* out of memory: the batch's first event (allocated with it) says so */
        e = &b->ev[0];
        b->nev = 1;
        e->at = 0;
        e->kind = ANALYZE_EV_ERROR;
        e->line = NULL;
        snprintf(e->msg, sizeof e->msg, "edan: out of memory reading the trace");
    }
    b->last = 1;
}

/* Parse one line of b's text (line_no, without the last line's missing
   '\n' when eof_line) into b. 0, or -1 after an error event. */
static int analyze_parse_line(analyze_pipe *pp, analyze_batch *b, char *line, size_t len, int has_nul,
                              int eof_line)
{
    edan_result r;
    unsigned long long no = ++pp->lines;
    if (len > ANALYZE_MAX_LINE) {
        analyze_error(b, no, line, len, "line longer than %d bytes", ANALYZE_MAX_LINE);
        return -1;
    }
    if (has_nul) {
        analyze_error(b, no, line, len, "%s",
                      eof_line ? "truncated last line (no newline; binary data)"
                               : "binary data (NUL byte) in a text trace");
        return -1;
    }
    if (line[0] == '#' && analyze_directive_of(line, len)) {
        if (!analyze_event_add(b, ANALYZE_EV_KILL, no, line, len)) {
            analyze_error(b, no, line, len, "out of memory");
            return -1;
        }
        return 0;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8192;
        edan_insn *insn = (edan_insn *)realloc(b->insn, cap * sizeof *insn);
        uint32_t *off;
        if (insn) b->insn = insn;
        off = insn ? (uint32_t *)realloc(b->off, cap * sizeof *off) : NULL;
        if (!off) {
            analyze_error(b, no, line, len, "out of memory");
            return -1;
        }
        b->off = off;
        b->cap = cap;
    }
    r = edan_rv_parse_line(pp->p, line, len, &b->insn[b->n]);
    if (r == EDAN_OK) {
        b->off[b->n++] = (uint32_t)(line - b->text);
    } else if (r == EDAN_ERR_UNKNOWN_OP && pp->skip_unknown) {
        if (pp->skipped++ < 5) {
            analyze_event *e = analyze_event_add(b, ANALYZE_EV_SKIP, no, line, len);
            if (!e) {
                analyze_error(b, no, line, len, "out of memory");
                return -1;
            }
            snprintf(e->msg, sizeof e->msg, "skipped: %s", edan_rv_error(pp->p));
        }
    } else if (r != EDAN_SKIP) {
        analyze_error(b, no, line, len, eof_line ? "truncated last line (no newline; %s)" : "%s", edan_rv_error(pp->p));
        return -1;
    }
    return 0;
}

/* Fill b: the carried partial line, then text read up to ANALYZE_BATCH_TEXT,
   parsed up to its last whole line; the rest carried in *carry. */
static void analyze_fill(analyze_pipe *pp, analyze_batch *b, char *carry, size_t *carry_len, int *eof)
{
    size_t have = *carry_len, start = 0;
    const char *nul;
    char *nl;
    b->n = b->nev = 0;
    b->last = 0;
    b->first_line = pp->lines + 1;
    memcpy(b->text, carry, have);
    *carry_len = 0;
    if (pp->first) {            /* the bytes read to tell the format */
        memcpy(b->text + have, pp->first, pp->first_len);
        have += pp->first_len;
        pp->first = NULL;
    }
    while (have < ANALYZE_BATCH_TEXT && !*eof) {
        char why[256];
        long n = analyze_read(pp->in, b->text, have, ANALYZE_BATCH_TEXT, why, sizeof why);
        if (n < 0) {
            analyze_error(b, 0, NULL, 0, "%s", why);
            return;
        }
        if (n == 0) *eof = 1;
        have += (size_t)n;
    }
    b->gzpos = analyze_consumed(pp->in);
    b->len = have;
    nul = (const char *)memchr(b->text, 0, have);
    while (start < have && (nl = (char *)memchr(b->text + start, '\n', have - start)) != NULL) {
        char *line = b->text + start;
        size_t len = (size_t)(nl - line) + 1;
        if (analyze_parse_line(pp, b, line, len, nul && nul < line + len, 0)) return;
        start += len;
    }
    if (start == have) {
        if (*eof) b->last = 1;
        return;
    }
    if (*eof) {                 /* a last line without '\n' */
        b->text[have] = 0;      /* the parser may look one byte past a line */
        if (analyze_parse_line(pp, b, b->text + start, have - start, nul && nul >= b->text + start, 1) == 0)
            b->last = 1;
        return;
    }
    if (have - start > ANALYZE_MAX_LINE) {
        analyze_error(b, pp->lines + 1, b->text + start, have - start, "line longer than %d bytes", ANALYZE_MAX_LINE);
        return;
    }
    memcpy(carry, b->text + start, have - start);
    *carry_len = have - start;
}

static void *analyze_reader(void *arg)
{
    analyze_pipe *pp = (analyze_pipe *)arg;
    char carry[ANALYZE_MAX_LINE + 1];
    size_t carry_len = 0;
    unsigned k = 0;
    int eof = 0, last = 0;
    while (!last) {
        analyze_batch *b = &pp->slot[k];
        pthread_mutex_lock(&pp->mu);
        while (pp->full == ANALYZE_SLOTS && !pp->stop) pthread_cond_wait(&pp->cv, &pp->mu);
        last = pp->stop;
        pthread_mutex_unlock(&pp->mu);
        if (last) break;
        analyze_fill(pp, b, carry, &carry_len, &eof);
        last = b->last;
        pthread_mutex_lock(&pp->mu);
        pp->full++;
        pthread_cond_broadcast(&pp->cv);
        pthread_mutex_unlock(&pp->mu);
        k = (k + 1) % ANALYZE_SLOTS;
    }
    return NULL;
}

/* The line of b's instruction i: its number and text. */
static unsigned long long analyze_line_of(const analyze_batch *b, size_t i, const char **line, size_t *len)
{
    const char *s = b->text, *at = b->text + b->off[i], *end = b->text + b->len, *nl;
    unsigned long long no = b->first_line;
    while ((nl = (const char *)memchr(s, '\n', (size_t)(at - s))) != NULL) {
        no++;
        s = nl + 1;
    }
    nl = (const char *)memchr(at, '\n', (size_t)(end - at));
    *line = at;
    *len = nl ? (size_t)(nl - at) + 1 : (size_t)(end - at);
    return no;
}

/* Feed b's instructions [from, to); 0, or 2 after printing the error. */
static int analyze_feed_range(analyze_state *st, analyze_input *in, const analyze_batch *b, size_t from, size_t to)
{
    size_t fed = 0;
    if (edan_feed_many(st->ctx, b->insn + from, to - from, &fed) != EDAN_OK) {
        const char *line;
        size_t len;
        unsigned long long no = analyze_line_of(b, from + fed, &line, &len);
        analyze_bad_line(in->path, no, edan_error(st->ctx), line, len);
        return 2;
    }
    st->insns += fed;
    return 0;
}

/* Feed one batch and act on its events in line order; 0, 1 after its last,
   or 2 after printing an error. */
static int analyze_consume(analyze_state *st, analyze_input *in, const analyze_batch *b)
{
    size_t i = 0, e;
    for (e = 0; e < b->nev; e++) {
        const analyze_event *ev = &b->ev[e];
        if (analyze_feed_range(st, in, b, i, ev->at)) return 2;
        i = ev->at;
        if (ev->kind == ANALYZE_EV_KILL) {
            const char *why = NULL;
            if (analyze_directive(st->ctx, ev->line, ev->len, &why)) {
                analyze_bad_line(in->path, ev->line_no, why, ev->line, ev->len);
                return 2;
            }
        } else if (!ev->line) {         /* a read error, or out of memory */
            opt_err(NULL, "%s", ev->msg);
            return 2;
        } else {
            analyze_bad_line(in->path, ev->line_no, ev->msg, ev->line, ev->len);
            if (ev->kind == ANALYZE_EV_ERROR && x86_text_is(ev->line, ev->len))
                opt_ferr(NULL, in->path, ev->line_no, "an x86-64 trace's line, in a trace read as RISC-V: the trace "
                         "has no \"#edan-trace x86-64\" first line (edan trace writes it) and no x86-64 line in its "
                         "first %u KiB", ANALYZE_BATCH_TEXT >> 10);
            if (ev->kind == ANALYZE_EV_ERROR) return 2;
        }
    }
    if (analyze_feed_range(st, in, b, i, b->n)) return 2;
    cli_progress_update(&st->prog, b->gzpos, st->insns);
    return b->last;
}

static int analyze_text(analyze_state *st, analyze_input *in, char *buf, size_t have)
{
    analyze_pipe *pp = (analyze_pipe *)calloc(1, sizeof *pp);
    pthread_t reader;
    unsigned k = 0, i;
    int rc = 0, started = 0, inited = 0;
    if (pp && edan_rv_parser_create(&pp->p, NULL) != EDAN_OK) pp->p = NULL;
    for (i = 0; pp && pp->p && i < ANALYZE_SLOTS; i++) {
        analyze_batch *b = &pp->slot[i];
        b->text = (char *)malloc(ANALYZE_BATCH_TEXT + ANALYZE_MAX_LINE + 2);
        b->ev = (analyze_event *)malloc(16 * sizeof *b->ev);
        b->evcap = 16;
        if (!b->text || !b->ev) break;
    }
    if (!pp || !pp->p || i < ANALYZE_SLOTS) {
        cli_err("out of memory for the text parser");
        rc = 2;
        goto done;
    }
    pp->in = in;
    pp->skip_unknown = st->a->cmd.skip_unknown;
    pp->first = buf;            /* at most ANALYZE_BATCH_TEXT bytes */
    pp->first_len = have;
    pthread_mutex_init(&pp->mu, NULL);
    pthread_cond_init(&pp->cv, NULL);
    inited = 1;
    if (pthread_create(&reader, NULL, analyze_reader, pp)) {
        cli_err("cannot start the reading thread");
        rc = 2;
        goto done;
    }
    started = 1;
    for (;;) {
        analyze_batch *b = &pp->slot[k];
        pthread_mutex_lock(&pp->mu);
        while (!pp->full) pthread_cond_wait(&pp->cv, &pp->mu);
        pthread_mutex_unlock(&pp->mu);
        rc = analyze_consume(st, in, b);
        pthread_mutex_lock(&pp->mu);
        pp->full--;
        if (rc) pp->stop = 1;
        pthread_cond_broadcast(&pp->cv);
        pthread_mutex_unlock(&pp->mu);
        if (rc) break;
        k = (k + 1) % ANALYZE_SLOTS;
    }
    if (rc == 1) rc = 0;
done:
    if (started) pthread_join(reader, NULL);
    if (pp) {
        st->lines = pp->lines;
        st->skipped = pp->skipped;
        for (i = 0; i < ANALYZE_SLOTS; i++) {
            free(pp->slot[i].text);
            free(pp->slot[i].insn);
            free(pp->slot[i].off);
            free(pp->slot[i].ev);
        }
        edan_rv_parser_destroy(pp->p);
        if (inited) {
            pthread_mutex_destroy(&pp->mu);
            pthread_cond_destroy(&pp->cv);
        }
        free(pp);
    }
    return rc;
}

/* x86-64: what the user should know of the accesses recorded. */
static void analyze_x86_notes(const char *path, unsigned long long mismatches, unsigned long long missing)
{
    if (mismatches)
        opt_ferr(NULL, path, 0, "warning: %llu executions made other memory accesses than their decoding; analysed "
                 "with the accesses recorded", mismatches);
    if (missing)
        opt_ferr(NULL, path, 0, "warning: %llu executions of memory instructions have no accesses recorded (QEMU 7.2 "
                 "reports none for an instruction that crosses a page boundary); analysed without them", missing);
}

/* bintrace_decode_fn for x86-64 binary traces: decoded and cracked. */
static int analyze_x86_decode(const uint8_t *bytes, unsigned len, uint64_t pc, bintrace_decoded *out)
{
    x86_decoded d;
    if (x86_decode(bytes, len, pc, &d, NULL, 0) != EDAN_OK || d.in.length != len) return -1;
    (void)x86_single_access(&d);
    out->in = d.in;
    out->flops = d.flops;
    out->rep = d.rep;
    out->nuop = d.nuop;
    memcpy(out->uop, d.uop, d.nuop * sizeof *d.uop);
    return 0;
}

static int analyze_binary(analyze_state *st, analyze_input *in, char *buf, size_t have)
{
    bintrace_reader rd;
    int rc;
    if (bintrace_reader_init(&rd) != BINTRACE_OK) {
        cli_err("out of memory");
        return 2;
    }
    rd.decode = analyze_x86_decode;
    for (;;) {
        size_t used = 0;
        long n;
        int warned = rd.warning[0] != 0;
        rc = bintrace_reader_feed(&rd, (const unsigned char *)buf, have, &used, st->ctx);
        if (!warned && rd.warning[0]) opt_ferr(NULL, in->path, 0, "warning: %s", rd.warning);
        if (rc == BINTRACE_ERR) {
            opt_ferr(NULL, in->path, 0, "byte %llu: %s", rd.offset, rd.error);
            bintrace_reader_free(&rd);
            return 2;
        }
        st->insns = rd.count;
        if (rc == BINTRACE_EOF) break;
        memmove(buf, buf + used, have - used);
        have -= used;
        n = analyze_read(in, buf, have, ANALYZE_CHUNK, NULL, 0);
        if (n < 0) { bintrace_reader_free(&rd); return 2; }
        if (n == 0) {
            opt_ferr(NULL, in->path, 0, "truncated binary trace (no end record after %llu instructions)", rd.count);
            bintrace_reader_free(&rd);
            return 2;
        }
        have += (size_t)n;
        cli_progress_update(&st->prog, analyze_consumed(in), st->insns);
    }
    st->x86 = rd.isa == EDAN_ISA_X86_64;
    st->flops = rd.flops;
    st->load = rd.load;
    if (st->x86 && (st->a->cmd.top || st->a->cmd.dot_path)) {     /* the instructions' bytes, to name them */
        uint32_t i, j;
        for (i = 0; i < rd.nblocks; i++)
            for (j = 0; j < rd.blocks[i].n; j++)
                if (cli_code_add(&st->code, rd.blocks[i].s[j].in.pc, rd.blocks[i].s[j].raw,
                                 rd.blocks[i].s[j].in.length)) {
                    cli_err("out of memory");
                    bintrace_reader_free(&rd);
                    return 2;
                }
    }
    if (st->x86) analyze_x86_notes(in->path, rd.mismatches, rd.missing);
    bintrace_reader_free(&rd);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* x86-64 text traces                                                     */
/* ---------------------------------------------------------------------- */
typedef struct analyze_x86 {
    x86_decoded d;          /* the instruction whose line was read last, cracked */
    int open;               /* its accesses may continue on "+" lines */
    int skipping;           /* it does not decode and is skipped */
    edan_access *acc, *scratch;
    size_t n, cap;
    unsigned long long line;    /* its line's number, and its start for a message about it */
    char text[121];
    bintrace_chunk chunk;       /* a rep movs or stos gathering into 8-byte chunks */
    unsigned long long mismatches;  /* lines whose accesses were not their vertices' */
    unsigned long long missing;     /* ... lines of memory instructions without accesses */
} analyze_x86;

/* A vertex of an x86-64 line (bintrace_emit_execution) to the analysis. */
static int analyze_x86_vertex(void *user, const edan_insn *in, const edan_access *acc, size_t n, const char **why)
{
    edan_context *ctx = (edan_context *)user;
    if ((acc ? edan_feed_accesses(ctx, in, acc, n) : edan_feed(ctx, in)) == EDAN_OK) return 0;
    *why = edan_error(ctx);
    return -1;
}

/* The pending instruction, with its accesses, to the analysis: its
   vertices, as bintrace_feed_execution feeds an execution of a binary
   trace or of the tracer. */
static int analyze_x86_flush(analyze_state *st, analyze_x86 *x, const char **why)
{
    int agrees;
    if (!x->open) return 0;
    x->open = 0;
    if (x->skipping) return 0;
    if (x->d.rep && x->n == 0) return 0;        /* no iteration */
    if (!bintrace_agrees(x->d.uop, x->d.nuop, x->acc, x->n, x->d.rep, x->scratch)) {
        /* QEMU 7.2 reports no access of an instruction that crosses a page
           boundary: such a line is analysed without them (said); any other
           line whose accesses are not its instruction's is refused */
        static char msg[200];
        uint32_t k, ld = 0, stb = 0;
        if (!x->n && (x->d.in.pc & 4095) + x->d.in.length > 4096) {
            x->missing++;
        } else {
            for (k = 0; k < x->d.nuop; k++) {
                if (x->d.uop[k].in.mem == EDAN_MEM_LOAD) ld += x->d.uop[k].bytes;
                if (x->d.uop[k].in.mem == EDAN_MEM_STORE) stb += x->d.uop[k].bytes;
            }
            snprintf(msg, sizeof msg, "the accesses are not the instruction's (it loads %u bytes and stores %u, in "
                     "that order%s)", ld, stb, x->d.rep ? ", each iteration" : "");
            *why = msg;
            return -1;
        }
    }
    if (bintrace_emit_execution(x->d.uop, x->d.nuop, x->acc, x->n, x->d.rep, &x->chunk, x->scratch, &agrees,
                                analyze_x86_vertex, st->ctx, why))
        return -1;
    (void)agrees;       /* checked above */
    st->insns++;
    st->flops += x->d.flops;
    return 0;
}

/* The accesses " L8@0x1000 S4@0x2000" at p (to e) join x's. */
static int analyze_x86_accesses(analyze_x86 *x, const char *p, const char *e, const char **why)
{
    edan_access acc;
    int r;
    while ((r = x86_text_next_access(&p, e, &acc, why)) == 1) {
        if (x->n == BINTRACE_MAX_VERTEX_ACCESSES) { *why = "an instruction of more than 1048576 accesses"; return -1; }
        if (x->n == x->cap) {
            size_t nc = x->cap ? 2 * x->cap : 64;
            edan_access *na = (edan_access *)realloc(x->acc, nc * sizeof *na);
            if (!na) { *why = "out of memory"; return -1; }
            x->acc = na;
            na = (edan_access *)realloc(x->scratch, nc * sizeof *na);
            if (!na) { *why = "out of memory"; return -1; }
            x->scratch = na;
            x->cap = nc;
        }
        x->acc[x->n++] = acc;
    }
    return r;
}

/* One line (len bytes, no newline) of an x86-64 text trace. */
static int analyze_x86_line(analyze_state *st, analyze_x86 *x, const char *line, size_t len, const char **why)
{
    const char *p = line, *e = line + len, *bar;
    uint8_t bytes[16];
    unsigned nb = 0;
    uint64_t pc;
    static char whybuf[200];
    if (len && line[len - 1] == '\r') e--;
    if (p == e) return 0;
    if (*p == '+') {
        if (!x->open) { *why = "a continuation line (+) after no instruction"; return -1; }
        return x->skipping ? 0 : analyze_x86_accesses(x, p + 1, e, why);
    }
    if (analyze_x86_flush(st, x, why)) return -2;     /* the pending instruction's fault */
    if (*p == '#') {
        if (len < 10 || memcmp(line, "#edan-", 6)) return 0;
        if (bintrace_chunk_flush(&x->chunk, analyze_x86_vertex, st->ctx, why)) return -1;     /* before it */
        return analyze_directive(st->ctx, line, len, why);
    }
    if (x86_text_parse_start(p, e, &pc, bytes, &nb, &bar, why)) return -1;
    memset(x, 0, offsetof(analyze_x86, acc));
    x->n = 0;
    x->open = 1;
    x->line = st->lines;
    snprintf(x->text, sizeof x->text, "%.*s", (int)(e - line < 120 ? e - line : 120), line);
    if (x86_decode(bytes, nb, pc, &x->d, whybuf, sizeof whybuf) != EDAN_OK || x->d.in.length != nb) {
        if (x->d.in.length != nb && whybuf[0] == 0) snprintf(whybuf, sizeof whybuf, "the bytes are not one instruction");
        if (!st->a->cmd.skip_unknown) { *why = whybuf; return -1; }
        st->skipped++;
        x->skipping = 1;
        return 0;
    }
    if ((st->a->cmd.top || st->a->cmd.dot_path) && cli_code_add(&st->code, pc, bytes, nb)) {
        *why = "out of memory";
        return -1;
    }
    return analyze_x86_accesses(x, bar, e, why);
}

static int analyze_x86_text(analyze_state *st, analyze_input *in, char *buf, size_t have)
{
    analyze_x86 x;
    int rc = 0, eof = 0;
    memset(&x, 0, sizeof x);
    st->x86 = 1;
    for (;;) {
        size_t start = 0;
        char *nl;
        long n;
        while ((nl = (char *)memchr(buf + start, '\n', have - start)) != NULL ||
               (eof && start < have)) {
            size_t len = nl ? (size_t)(nl - (buf + start)) : have - start;
            const char *why = NULL;
            int err = 0;
            st->lines++;
            if (memchr(buf + start, 0, len)) why = "binary data (NUL byte) in a text trace";
            else if (len > ANALYZE_MAX_LINE) why = "line too long";
            if (why || (err = analyze_x86_line(st, &x, buf + start, len, &why)) != 0) {
                if (err == -2) {    /* the instruction of an earlier line, whose accesses ended here */
                    analyze_bad_line(in->path, x.line, why, x.text, strlen(x.text));
                } else {
                    analyze_bad_line(in->path, st->lines, why ? why : "error", buf + start, len);
                }
                rc = 2;
                goto out;
            }
            start += len + (nl != NULL);
        }
        if (eof) break;
        if (have - start > ANALYZE_MAX_LINE) {
            opt_ferr(NULL, in->path, st->lines + 1, "line too long");
            rc = 2;
            goto out;
        }
        memmove(buf, buf + start, have - start);
        have -= start;
        n = analyze_read(in, buf, have, ANALYZE_CHUNK, NULL, 0);
        if (n < 0) { rc = 2; goto out; }
        if (n == 0) eof = 1;
        have += (size_t)n;
        cli_progress_update(&st->prog, analyze_consumed(in), st->insns);
    }
    {
        const char *why = NULL;
        if (analyze_x86_flush(st, &x, &why) || bintrace_chunk_flush(&x.chunk, analyze_x86_vertex, st->ctx, &why)) {
            analyze_bad_line(in->path, x.line, why, x.text, strlen(x.text));
            rc = 2;
        }
    }
    if (!rc) analyze_x86_notes(in->path, x.mismatches, x.missing);
out:
    free(x.acc);
    free(x.scratch);
    return rc;
}

/* The options and the trace: 0, 1 when --help was printed, -1 (a
   message printed) when they are wrong. */
static int analyze_options(cli_analysis *a, int argc, char **argv, const char **path)
{
    opt_def t[ANALYZE_NOPTS + CLI_ANALYSIS_ROOM];
    size_t n = opt_cat(t, sizeof t / sizeof t[0], analyze_opts, ANALYZE_NOPTS, cli_analysis_opts, cli_analysis_nopts);
    const char *val = NULL;
    int i = 1, k, rest = 0;     /* rest: after "--", every argument is a trace */
    cli_analysis_init(a);
    *path = NULL;
    for (;;) {
        if (!rest) k = opt_next("edan analyze", t, n, argc, argv, &i, &val);
        else if (i < argc) k = OPT_OPERAND, val = argv[i++];
        else k = OPT_END;
        if (k == OPT_END) break;
        if (k == OPT_ERROR) return -1;
        if (k == OPT_REST) {
            rest = 1;
        } else if (k == ANALYZE_HELP) {
            opt_help(stdout, t, n);
            return 1;
        } else if (k >= CLI_ANALYSIS_ID) {
            if (cli_analysis_apply(a, k, val)) return -1;
        } else if (*path) {
            return opt_err("edan analyze", "one trace at a time (got %s and %s)", *path, val);
        } else {
            *path = val;
        }
    }
    if (!*path) {
        opt_help(stderr, t, 1);
        return opt_err("edan analyze", "no trace given");
    }
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
    int rc = analyze_options(&a, argc, argv, &path);
    edan_result r;
    if (rc) return rc < 0 ? 2 : 0;
    cli_analysis_pick_profile(&a);
    {   /* no output may destroy an input or share a file with another */
        const files_role out[] = {{"-", "the report"}, {a.cmd.timeline_path, "--timeline"},
                                  {a.cmd.sweep_path, "--sweep"}, {a.cmd.dot_path, "--dot"},
                                  {a.cmd.layers_path, "--layers"}};
        const files_role in[] = {{path, "the trace"}, {a.cmd.profile_path, "the profile"}, {a.cmd.elf_path, "--elf"}};
        char err[600];
        if (files_check_roles(out, sizeof out / sizeof out[0], in, sizeof in / sizeof in[0], err, sizeof err)) {
            opt_err("edan analyze", "%s", err);
            return 2;
        }
    }
    if (cli_analysis_finish(&a)) return 2;
    memset(&st, 0, sizeof st);
    st.a = &a;
    r = edan_create(&st.ctx, &a.opts);
    if (r != EDAN_OK) {
        opt_err("edan analyze", "%s", st.ctx ? edan_error(st.ctx) : edan_result_string(r));
        edan_destroy(st.ctx);
        return 2;
    }
    if (analyze_open(&in, path)) {
        edan_destroy(st.ctx);
        return 2;
    }
    buf = (char *)malloc(ANALYZE_CHUNK + 1);
    if (!buf) {
        cli_err("out of memory");
        analyze_close(&in);
        edan_destroy(st.ctx);
        return 2;
    }
    cli_progress_start(&st.prog, in.total, a.cmd.quiet);
    n = analyze_read(&in, buf, 0, ANALYZE_BATCH_TEXT, NULL, 0);    /* enough to tell the format */
    if (n < 0) rc = 2;
    else if (bintrace_detect((const unsigned char *)buf, (size_t)n)) rc = analyze_binary(&st, &in, buf, (size_t)n);
    else {
        int isa = analyze_text_head(in.path, buf, (size_t)n, &a.run.elf_bias);
        if (isa < 0) rc = 2;
        else if (isa == EDAN_ISA_X86_64 || (isa == ANALYZE_ISA_UNSAID && x86_text_is(buf, (size_t)n)))
            rc = analyze_x86_text(&st, &in, buf, (size_t)n);
        else rc = analyze_text(&st, &in, buf, (size_t)n);
    }
    cli_progress_end(&st.prog);
    analyze_close(&in);
    free(buf);
    if (!rc && st.insns == 0) {
        opt_ferr(NULL, in.path, 0, "no instructions in the trace%s", st.lines ? "" : " (empty file)");
        rc = 2;
    }
    if (!rc) {
        if (st.skipped)
            opt_err("edan analyze", "skipped %llu lines with unknown instructions (--skip-unknown)", st.skipped);
        if (st.load) a.run.elf_bias = st.load;
        if (st.x86) {
            a.run.flops_counted = 1;
            a.run.flops = st.flops;
            a.run.op_name = x86_op_name;
            a.run.isa = EDAN_ISA_X86_64;
            a.run.machine_insns = st.insns;
            a.run.code = &st.code;
        }
        if (cli_report(st.ctx, &a, in.path, stdout)) rc = 2;
    }
    edan_destroy(st.ctx);
    cli_code_free(&st.code);
    return rc;
}
