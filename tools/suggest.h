/* tools/suggest.h - "did you mean": the option of a command's --help text
   closest to a mistyped one. Header only (static), for `edan` and `probe`. */
#ifndef EDAN_SUGGEST_H
#define EDAN_SUGGEST_H
#include <stdio.h>
#include <string.h>

/* Levenshtein distance of a[0..la) and b[0..lb), both under 64 bytes. */
static size_t suggest_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t row[65], i, j;
    if (la > 64 || lb > 64) return (size_t)-1;
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

/* The `--option` of help (any word of it that starts with --) closest to
   opt (its part before '='), copied to out; "" when none is within a
   third of its length (at least 2 edits). The help text is the list, so
   the suggestions say what --help says. */
static void suggest_option(const char *opt, const char *help, char *out, size_t n)
{
    size_t lo = strcspn(opt, "="), bestd = (size_t)-1, limit = lo / 3 > 2 ? lo / 3 : 2;
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
#endif
