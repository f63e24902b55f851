/* tools/common/opt.h - the one way every command reads its command line (the edan
   subcommands and probe): a table of options that --help prints, that
   "did you mean" searches and that says which options need a value; the
   number parsers; the error printer. Header only (static inline), so that
   probe uses it without linking the edan tools. */
#ifndef EDAN_OPT_H
#define EDAN_OPT_H
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "suggest.h"

/* ---- the error printer ---------------------------------------------------- */

/* "WHO: MESSAGE" on standard error, with "FILE: " or "FILE:LINE: " before
   the message when file is given (line 0: none); returns -1. Every command's
   messages go through it (cli_err is its "edan" form). */
static inline int opt_verr(const char *who, const char *file, unsigned long line, const char *fmt, va_list ap)
{
    if (who) fprintf(stderr, "%s: ", who);
    if (file && line) fprintf(stderr, "%s:%lu: ", file, line);
    else if (file) fprintf(stderr, "%s: ", file);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    return -1;
}
#if defined(__GNUC__)
static inline int opt_err(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int opt_ferr(const char *who, const char *file, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#endif
static inline int opt_err(const char *who, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    opt_verr(who, NULL, 0, fmt, ap);
    va_end(ap);
    return -1;
}
static inline int opt_ferr(const char *who, const char *file, unsigned long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    opt_verr(who, file, line, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- numbers ----------------------------------------------------------------- */

/* A decimal integer in [lo, hi]: 0, or -1 (nothing written) when s is not
   one: empty, a sign, trailing text, out of range. */
static inline int opt_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}
static inline int opt_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    uint64_t v;
    if (opt_u64(s, lo, hi, &v)) return -1;
    *out = (uint32_t)v;
    return 0;
}

/* A size with an optional K/M/G/T suffix (KiB ... TiB; "KiB", "KB" and "K"
   alike), at most max: no wrap-around, 17179869185G is too large, not 1G. */
static inline int opt_size(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;
    unsigned shift = 0;
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno) return -1;
    if (*end == 'K' || *end == 'k') shift = 10;
    else if (*end == 'M' || *end == 'm') shift = 20;
    else if (*end == 'G' || *end == 'g') shift = 30;
    else if (*end == 'T' || *end == 't') shift = 40;
    if (shift) end++;
    if (*end == 'i' && end[1] == 'B') end += 2;
    else if (*end == 'B') end++;
    if (*end || v > (max >> shift)) return -1;
    *out = v << shift;
    return 0;
}

/* A finite number in [lo, hi] (lo_open: in (lo, hi]) at the start of s,
   *end past it: no inf, no nan; -1 (nothing written) when there is none
   or it is out of range. For a number followed by more of a value
   ("AI:GFLOPS"); opt_double for a value that is one number. */
static inline int opt_double_at(const char *s, const char **end, double lo, int lo_open, double hi, double *out)
{
    char *e;
    double v;
    if (!s || !*s || *s == ' ' || *s == '\t' || *s == '\n') return -1;
    errno = 0;
    v = strtod(s, &e);
    if (errno || e == s || !isfinite(v) || v > hi || v < lo || (lo_open && v == lo)) return -1;
    *end = e;
    *out = v;
    return 0;
}

/* A finite number in [lo, hi] (lo_open: in (lo, hi]): no inf, no nan, no
   trailing text. */
static inline int opt_double(const char *s, double lo, int lo_open, double hi, double *out)
{
    const char *end;
    double v;
    if (opt_double_at(s, &end, lo, lo_open, hi, &v) || *end) return -1;
    *out = v;
    return 0;
}

/* A list of decimal integers in [lo, hi] separated by commas ("1,4,8";
   a comma may end it), into out: their number (0 for ""), -1 when s is
   not such a list, -2 when it has more than cap. */
static inline int opt_u32_list(const char *s, uint32_t lo, uint32_t hi, uint32_t *out, size_t cap)
{
    size_t n = 0;
    while (*s) {
        char v[24];
        size_t len = strcspn(s, ",");
        uint32_t x;
        if (len >= sizeof v) return -1;
        memcpy(v, s, len);
        v[len] = 0;
        if (opt_u32(v, lo, hi, &x)) return -1;
        if (n == cap) return -2;
        out[n++] = x;
        s += len + (s[len] == ',');
    }
    return (int)n;
}

/* ---- options ------------------------------------------------------------------ */

/* One row of a command's options. name NULL: a line of the help text
   (a heading, a blank line), printed as it is. */
typedef struct opt_def {
    const char *name;   /* "--cache", or "-h|--help" for two spellings */
    const char *arg;    /* the value's name: "SIZE"; "[=NAME]": an optional
                           value given with '='; NULL: a flag */
    int id;             /* what opt_next returns for it (> 0) */
    const char *help;   /* its description, lines split by '\n' */
} opt_def;

enum {
    OPT_OPERAND = 0,    /* not an option: *val is the argument */
    OPT_END = -1,       /* no more arguments */
    OPT_ERROR = -2,     /* the message is printed */
    OPT_REST = -3       /* "--": what follows are operands (the traced program) */
};

/* The column descriptions start at, and the widest name-and-value that
   shares a line with its description. */
#define OPT_HELP_COLUMN 22

/* Whether spelling s (its first len bytes) is one of def->name's spellings. */
static inline int opt__is(const opt_def *d, const char *s, size_t len)
{
    const char *p = d->name;
    while (p && *p) {
        size_t l = strcspn(p, "|");
        if (l == len && !memcmp(p, s, len)) return 1;
        p += l;
        if (*p == '|') p++;
    }
    return 0;
}

/* The table's options as --help prints them: "  NAME ARG" and the
   description from OPT_HELP_COLUMN, on the next line when the name is
   wider. */
static inline void opt_help(FILE *out, const opt_def *t, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++) {
        const char *h = t[k].help ? t[k].help : "";
        int w;
        if (!t[k].name) {
            fprintf(out, "%s\n", h);
            continue;
        }
        w = fprintf(out, "  %s%s%s", t[k].name, t[k].arg && t[k].arg[0] != '[' ? " " : "", t[k].arg ? t[k].arg : "");
        if (!*h) {
            fputc('\n', out);
            continue;
        }
        if (w > OPT_HELP_COLUMN - 1) fprintf(out, "\n%*s", OPT_HELP_COLUMN, "");
        else fprintf(out, "%*s", OPT_HELP_COLUMN - w, "");
        while (*h) {
            size_t l = strcspn(h, "\n");
            fprintf(out, "%.*s\n", (int)l, h);
            h += l;
            if (*h == '\n' && *++h) fprintf(out, "%*s", OPT_HELP_COLUMN, "");
        }
    }
}

/* The option of t closest to a mistyped spelling (its first len bytes),
   or NULL; the first spelling of a row is the one suggested. */
static inline const char *opt__near(const opt_def *t, size_t n, const char *s, size_t len, size_t *nlen)
{
    size_t k, bestd = (size_t)-1, limit = suggest_limit(len);
    const char *best = NULL;
    for (k = 0; k < n; k++) {
        const char *p = t[k].name;
        while (p && *p) {
            size_t l = strcspn(p, "|"), d = suggest_distance(s, len, p, l);
            if (l > 2 && d < bestd && d <= limit) {
                bestd = d;
                best = p;
                *nlen = l;
            }
            p += l;
            if (*p == '|') p++;
        }
    }
    return best;
}

/* Rows a[0..na) then b[0..nb) into out (room for cap): a command's own
   options and a shared set (the analysis options); an option of b that a
   defines again (the same id) is a's alone, listed once. The number of
   rows, or 0 when they do not fit. */
static inline size_t opt_cat(opt_def *out, size_t cap, const opt_def *a, size_t na, const opt_def *b, size_t nb)
{
    size_t n = 0, i, j;
    if (na + nb > cap) return 0;
    if (na) memcpy(out, a, na * sizeof *a);
    n = na;
    for (i = 0; i < nb; i++) {
        for (j = 0; b[i].name && j < na && !(a[j].name && a[j].id == b[i].id); j++) {}
        if (!b[i].name || j == na) out[n++] = b[i];
    }
    return n;
}

/* The next argument, argv[*i], which it moves past (with its value):
   - an option of t: its id, its value in *val (NULL for a flag and for an
     optional value not given); "--opt=value" and "--opt value" alike;
   - OPT_OPERAND: an argument that is not an option, in *val ("-" is one);
   - OPT_REST: "--"; OPT_END: none left;
   - OPT_ERROR: "CMD: unknown option X; did you mean Y? (see CMD --help)",
     "CMD: X needs a value" or "CMD: X takes no value" printed. A required
     value that is itself an option of t ("--dot --json") is a forgotten
     value, not a file named "--json". */
static inline int opt_next(const char *cmd, const opt_def *t, size_t n, int argc, char **argv, int *i,
                           const char **val)
{
    const char *a, *eq;
    size_t len, k;
    *val = NULL;
    if (*i >= argc) return OPT_END;
    a = argv[(*i)++];
    if (!strcmp(a, "--")) return OPT_REST;
    if (a[0] != '-' || !a[1]) {
        *val = a;
        return OPT_OPERAND;
    }
    eq = strchr(a, '=');
    len = eq ? (size_t)(eq - a) : strlen(a);
    for (k = 0; k < n; k++) {
        if (!t[k].name || !opt__is(&t[k], a, len)) continue;
        if (!t[k].arg) {
            if (eq) return opt_err(cmd, "%.*s takes no value (see %s --help)", (int)len, a, cmd), OPT_ERROR;
        } else if (eq) {
            *val = eq + 1;
        } else if (t[k].arg[0] != '[') {
            size_t j, vlen;
            int is_opt = 0;
            if (*i >= argc) return opt_err(cmd, "%s needs a value (see %s --help)", a, cmd), OPT_ERROR;
            vlen = strcspn(argv[*i], "=");
            for (j = 0; j < n && argv[*i][0] == '-' && argv[*i][1] == '-'; j++)
                if (t[j].name && opt__is(&t[j], argv[*i], vlen)) is_opt = 1;
            if (is_opt) return opt_err(cmd, "%s needs a value, not the option '%s'", a, argv[*i]), OPT_ERROR;
            *val = argv[(*i)++];
        }
        return t[k].id;
    }
    {
        size_t nl = 0;
        const char *near = opt__near(t, n, a, len, &nl);
        if (near) opt_err(cmd, "unknown option %s; did you mean %.*s? (see %s --help)", a, (int)nl, near, cmd);
        else opt_err(cmd, "unknown option %s (see %s --help)", a, cmd);
    }
    return OPT_ERROR;
}
#endif
