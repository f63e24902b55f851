/* tools/common/suggest.h - "did you mean": the word of a list closest to a
   mistyped one (a command; an option, for tools/common/opt.h; a function, for
   the plugin's "no function named") and the edit distance behind it.
   Header only (static inline). */
#ifndef EDAN_SUGGEST_H
#define EDAN_SUGGEST_H
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

#endif
