/* tools/common/jsonw.h - the one JSON writer: the analysis report (edan analyze
   and edan trace --json), edan job --json, edan rank --json and the
   hardware profile (probe, its numa section included) write through it.
   It keeps the
   commas and the indentation; each container says how its members are laid
   out, so that a writer of small records keeps them on one line. Header
   only (static inline), so that probe uses it without linking the edan
   tools.

   A zeroed jw (with f set) writes every member on a line of its own,
   indented two spaces per level, and reals as printf's "%.6g". */
#ifndef EDAN_JSONW_H
#define EDAN_JSONW_H
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define JW_MAX_DEPTH 64

/* How a container lays out its members. */
enum jw_layout {
    JW_LINES,   /* each member on a line of its own; an empty container closes at once */
    JW_ROWS,    /* on the current line after ", "; jw_row starts a new line; the close on a line of its own */
    JW_WRAP,    /* as JW_ROWS, but the close stays on the current line: {"a": 1,\n  "b": 2} */
    JW_INLINE   /* all on the current line: {"a": 1, "b": 2} */
};

typedef struct jw {
    FILE *f;
    int depth;                              /* containers open; level 0 holds the root value */
    int first[JW_MAX_DEPTH];                /* no member written yet at this level */
    unsigned char layout[JW_MAX_DEPTH];     /* each level's enum jw_layout */
    int row;                                /* the next member starts a new line (JW_ROWS) */
    int real_digits;                        /* reals' %g precision; 0: 6 */
    double real_max;                        /* reals beyond +-real_max are written null; 0: any finite */
} jw;

/* A writer whose root value begins where the output stands. */
static inline void jw_init(jw *w, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->first[0] = 1;
    w->layout[0] = JW_INLINE;
}

/* The length of the UTF-8 sequence at s (1 to 4), 0 when its bytes are
   none (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF). */
static inline int jw_utf8_len(const unsigned char *s)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xbf;
    int n, i;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) n = 3;
    else if (c >= 0xf0 && c <= 0xf4) n = 4;
    else return 0;
    if (c == 0xe0) lo = 0xa0;
    else if (c == 0xed) hi = 0x9f;
    else if (c == 0xf0) lo = 0x90;
    else if (c == 0xf4) hi = 0x8f;
    for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
        if (s[i] < lo || s[i] > hi) return 0;
    return n;
}

/* s as a JSON string: quotes and backslashes escaped, control characters
   as \u00XX; a byte of no UTF-8 sequence (a file or host name in another
   encoding) as \u00XX too, its value read as Latin-1 (0xe9: "\u00e9"),
   so that the document is UTF-8 that every JSON reader takes */
static inline void jw_quote(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        int n = jw_utf8_len(p);
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || !n) fprintf(f, "\\u%04x", *p);
        else fwrite(p, 1, (size_t)n, f);
        p += n ? n : 1;
    }
    fputc('"', f);
}

/* a new line, indented by the containers up to `level` that are not inline */
static inline void jw_newline(jw *w, int level)
{
    int i;
    fputc('\n', w->f);
    for (i = 1; i <= level; i++)
        if (w->layout[i] != JW_INLINE) fputs("  ", w->f);
}

/* The next member of a JW_ROWS container starts a new line. */
static inline void jw_row(jw *w) { w->row = 1; }

/* The separator and layout before a member, then its key (none in arrays). */
static inline void jw_key(jw *w, const char *key)
{
    int level = w->depth, first = w->first[level], layout = w->layout[level];
    if (!first) fputc(',', w->f);
    w->first[level] = 0;
    if (layout == JW_LINES || ((layout == JW_ROWS || layout == JW_WRAP) && w->row)) jw_newline(w, level);
    else if (!first) fputc(' ', w->f);
    w->row = 0;
    if (key) fprintf(w->f, "\"%s\": ", key);
}

static inline void jw_open(jw *w, const char *key, char c, enum jw_layout layout)
{
    jw_key(w, key);
    fputc(c, w->f);
    w->depth++;
    w->first[w->depth] = 1;
    w->layout[w->depth] = (unsigned char)layout;
}
static inline void jw_obj_as(jw *w, const char *key, enum jw_layout layout) { jw_open(w, key, '{', layout); }
static inline void jw_arr_as(jw *w, const char *key, enum jw_layout layout) { jw_open(w, key, '[', layout); }
static inline void jw_obj(jw *w, const char *key) { jw_open(w, key, '{', JW_LINES); }
static inline void jw_arr(jw *w, const char *key) { jw_open(w, key, '[', JW_LINES); }

static inline void jw_close(jw *w, char c)
{
    int layout = w->layout[w->depth], empty = w->first[w->depth];
    w->depth--;
    if (layout == JW_ROWS || (layout == JW_LINES && !empty)) jw_newline(w, w->depth);
    w->row = 0;
    fputc(c, w->f);
}
static inline void jw_end_obj(jw *w) { jw_close(w, '}'); }
static inline void jw_end_arr(jw *w) { jw_close(w, ']'); }

/* a real; NaN, infinities and those beyond real_max are not JSON numbers: null */
static inline void jw_num(jw *w, const char *key, double v)
{
    double max = w->real_max > 0 ? w->real_max : DBL_MAX;
    jw_key(w, key);
    if (v != v || v > max || v < -max) fputs("null", w->f);
    else fprintf(w->f, "%.*g", w->real_digits ? w->real_digits : 6, v);
}
static inline void jw_int(jw *w, const char *key, long long v)
{
    jw_key(w, key);
    fprintf(w->f, "%lld", v);
}
static inline void jw_uint(jw *w, const char *key, unsigned long long v)
{
    jw_key(w, key);
    fprintf(w->f, "%llu", v);
}
static inline void jw_null(jw *w, const char *key)
{
    jw_key(w, key);
    fputs("null", w->f);
}
static inline void jw_bool(jw *w, const char *key, int v)
{
    jw_key(w, key);
    fputs(v ? "true" : "false", w->f);
}
static inline void jw_str(jw *w, const char *key, const char *s)
{
    jw_key(w, key);
    jw_quote(w->f, s);
}
/* text that is JSON already */
static inline void jw_raw(jw *w, const char *key, const char *text)
{
    jw_key(w, key);
    fputs(text, w->f);
}
/* n reals, each under its name */
static inline void jw_nums(jw *w, const char *const *names, const double *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) jw_num(w, names[i], v[i]);
}
/* n counts, each under its name */
static inline void jw_uints(jw *w, const char *const *names, const uint64_t *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) jw_uint(w, names[i], v[i]);
}

#endif
