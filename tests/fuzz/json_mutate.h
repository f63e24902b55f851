/* tests/fuzz/json_mutate.h - the libFuzzer custom mutator of the fuzzers
   whose inputs are JSON (fuzz_profile.c, fuzz_results.c; included by each,
   once). Besides libFuzzer's own mutations it puts a number that once
   reached an output in place of a number of the input (beyond a double,
   subnormal, 1e308, -0, just past a range), or repeats a member's key in
   its object: the byte-level mutations seldom write such a number whole,
   and never a key twice. */
#ifndef EDAN_JSON_MUTATE_H
#define EDAN_JSON_MUTATE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static const char *const json_mutate_numbers[] = {
    "1e999", "-1e999", "4.9e-324", "-4.9e-324", "2.2250738585072014e-308", "1e-300", "1e308", "-1e308",
    "1.7976931348623157e308", "-0", "0.5", "1.5", "1e-9", "1e12", "1048577", "4294967296", "18446744073709551616"};
#define JSON_MUTATE_NNUMBERS (sizeof json_mutate_numbers / sizeof json_mutate_numbers[0])

static unsigned json_mutate_next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static int json_mutate_in_number(uint8_t c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

/* Replaces data[a..b) with the text s; the new size, or 0 when it would not fit. */
static size_t json_mutate_splice(uint8_t *data, size_t size, size_t max_size, size_t a, size_t b, const char *s)
{
    size_t n = strlen(s);
    if (size - (b - a) + n > max_size) return 0;
    memmove(data + a + n, data + b, size - b);
    memcpy(data + a, s, n);
    return size - (b - a) + n;
}

/* A number from the list in place of the first number at or after `from`
   (wrapping to the start); 0 when the input has none. */
static size_t json_mutate_number(uint8_t *data, size_t size, size_t max_size, size_t from, const char *s)
{
    size_t k, a, b;
    for (k = 0; k < size; k++) {
        a = (from + k) % size;
        if ((data[a] >= '0' && data[a] <= '9') || (data[a] == '-' && a + 1 < size && data[a + 1] >= '0' &&
                                                   data[a + 1] <= '9')) {
            while (a > 0 && json_mutate_in_number(data[a - 1])) a--;
            for (b = a; b < size && json_mutate_in_number(data[b]); b++) {}
            return json_mutate_splice(data, size, max_size, a, b, s);
        }
    }
    return 0;
}

/* `"KEY": s, ` inserted before the first member `"KEY":` of an object at or
   after `from`: the key twice in its object. 0 when the input has none. */
static size_t json_mutate_duplicate(uint8_t *data, size_t size, size_t max_size, size_t from, const char *s)
{
    char member[160];
    size_t k, a, b, c, p;
    for (k = 0; k < size; k++) {
        a = (from + k) % size;
        if (data[a] != '"') continue;
        for (p = a; p > 0 && (data[p - 1] == ' ' || data[p - 1] == '\n' || data[p - 1] == '\t'); p--) {}
        if (p == 0 || (data[p - 1] != '{' && data[p - 1] != ',')) continue;
        for (b = a + 1; b < size && data[b] != '"' && data[b] != '\\'; b++) {}
        if (b >= size || data[b] != '"' || b - a > 100) continue;
        for (c = b + 1; c < size && data[c] == ' '; c++) {}
        if (c >= size || data[c] != ':') continue;
        snprintf(member, sizeof member, "%.*s: %s, ", (int)(b + 1 - a), (const char *)data + a, s);
        return json_mutate_splice(data, size, max_size, a, a, member);
    }
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    unsigned state = seed, pick = json_mutate_next(&state) % 8, r;
    const char *s = json_mutate_numbers[json_mutate_next(&state) % JSON_MUTATE_NNUMBERS];
    size_t n = 0;
    r = json_mutate_next(&state);
    if (size && pick < 2) n = json_mutate_number(data, size, max_size, r % size, s);
    else if (size && pick == 2) n = json_mutate_duplicate(data, size, max_size, r % size, s);
    return n ? n : LLVMFuzzerMutate(data, size, max_size);
}
#endif
