/* tools/suggest.h - "did you mean": the option of a command's --help text
   closest to a mistyped one, the command closest to a mistyped command,
   and the edit distance behind them (also for the plugin's "no function
   named"). Header only (static inline). */
#ifndef EDAN_SUGGEST_H
#define EDAN_SUGGEST_H
#include <stdio.h>
#include <string.h>

/* Levenshtein distance of a[0..la) and b[0..lb), b under 128 bytes (the
   largest size_t when longer). */
static inline size_t suggest_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t row[128], i, j;
    if (lb >= sizeof row / sizeof row[0]) return (size_t)-1;
    for (j = 0; j <= lb; j++) row[j] = j;
    for (i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

/* The most edits a suggestion may be from a mistyped word of len bytes: a
   third of it, at least 2; farther, the word is likely another one. */
static inline size_t suggest_limit(size_t len) { return len / 3 > 2 ? len / 3 : 2; }

/* The one of words[0..n) closest to word, or NULL when none is within
   suggest_limit (the first of equally close ones). */
static inline const char *suggest_word(const char *word, const char *const *words, size_t n)
{
    size_t lw = strlen(word), bestd = (size_t)-1, i;
    const char *best = NULL;
    for (i = 0; i < n; i++) {
        size_t d = suggest_distance(word, lw, words[i], strlen(words[i]));
        if (d < bestd && d <= suggest_limit(lw)) {
            bestd = d;
            best = words[i];
        }
    }
    return best;
}

/* The `--option` of help (any word of it that starts with --) closest to
   opt (its part before '='), copied to out; "" when none is within a
   third of its length (at least 2 edits). The help text is the list, so
   the suggestions say what --help says. */
static inline void suggest_option(const char *opt, const char *help, char *out, size_t n)
{
    size_t lo = strcspn(opt, "="), bestd = (size_t)-1, limit = suggest_limit(lo);
    const char *p = help;
    out[0] = 0;
    while ((p = strstr(p, "--")) != NULL) {
        size_t l = 2, d;
        while (p[l] && (p[l] == '-' || (p[l] >= 'a' && p[l] <= 'z') || (p[l] >= '0' && p[l] <= '9'))) l++;
        if (l > 2 && (p == help || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '[' || p[-1] == '(' || p[-1] == '|')) {
            d = suggest_distance(opt, lo, p, l);
            if (d < bestd && d <= limit && l < n) {
                bestd = d;
                memcpy(out, p, l);
                out[l] = 0;
            }
        }
        p += l;
    }
}
/* Says on standard error that opt is not an option of cmd, whose --help
   text is help: "CMD: unknown option OPT; did you mean X? (see CMD --help)",
   or, for an option given without its value, "CMD: OPT needs a value". */
static inline void suggest_unknown(const char *cmd, const char *opt, const char *help)
{
    char near[64];
    size_t lo = strlen(opt);
    const char *p = help;
    int known = 0;      /* help names opt as an option: it came without its value */
    while (lo && !known && (p = strstr(p, opt)) != NULL) {
        known = (p == help || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '[' || p[-1] == '|') &&
                (p[lo] == ' ' || p[lo] == '=' || p[lo] == ']' || p[lo] == '|' || p[lo] == '\n' || !p[lo]);
        p += lo;
    }
    if (known) {
        fprintf(stderr, "%s: %s needs a value (see %s --help)\n", cmd, opt, cmd);
        return;
    }
    suggest_option(opt, help, near, sizeof near);
    fprintf(stderr, "%s: unknown option %s%s%s%s (see %s --help)\n", cmd, opt, near[0] ? "; did you mean " : "", near,
            near[0] ? "?" : "", cmd);
}
#endif
