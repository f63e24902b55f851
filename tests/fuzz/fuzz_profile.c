/* libFuzzer harness for the JSON reader and the hardware-profile loader:
   any input is parsed (edan_json_parse with an allocator that counts,
   edan_profile_parse); a parsed document holds only finite numbers and
   distinct keys; an accepted profile becomes an analysis configuration
   (edan_profile_to_config), which the engine must accept or refuse with a
   message, in bounded time and memory, its hybrid model and roofs are
   read, and its numa lists' clusters are integers the readers may convert.
   A rejected one must say where (FILE:LINE:). A crash, a hang, a sanitizer
   report or a broken rule aborts. Mutations add numbers beyond a double,
   subnormals and duplicate keys (json_mutate.h). Run by
   tests/fuzz/test_fuzz_profile.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "json_mutate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* an allocator that counts, so that a leak in the JSON DOM shows */
static long live_blocks;
static void *count_alloc(size_t n, void *u) { (void)u; live_blocks++; return malloc(n); }
static void *count_realloc(void *p, size_t n, void *u) { (void)u; if (!p) live_blocks++; return realloc(p, n); }
static void count_free(void *p, void *u) { (void)u; if (p) live_blocks--; free(p); }

static void broken(const char *rule)
{
    fprintf(stderr, "fuzz_profile: %s\n", rule);
    abort();
}

/* What the reader promises of every document it returns: finite numbers,
   and keys that are distinct in their object (each found where it is;
   objects of up to 256 members, pairwise). */
static void check_document(const edan_json *v, int depth)
{
    size_t i, n = edan_json_len(v);
    if (edan_json_kind(v) == EDAN_JSON_NUMBER && edan_json_number(v, 0) - edan_json_number(v, 0) != 0)
        broken("a number that is not finite");
    if (depth > EDAN_JSON_MAX_DEPTH) broken("nesting beyond the bound");
    for (i = 0; i < n; i++) {
        if (edan_json_kind(v) == EDAN_JSON_OBJECT && n <= 256 &&
            edan_json_get(v, edan_json_key_at(v, i)) != edan_json_value_at(v, i))
            broken("a key twice in an object");
        check_document(edan_json_at(v, i), depth + 1);
    }
}

/* What the loader promises of an accepted profile's numa lists: a cluster,
   when there is one, is an integer from 0 to 2^20 (edan roofline makes it
   an int). */
static void check_numa(const edan_json *root)
{
    static const char *const lists[4] = {"clusters", "roofs", "latency", "hybrid"};
    size_t i;
    int k;
    for (k = 0; k < 4; k++) {
        const edan_json *l = edan_json_get(edan_json_get(root, "numa"), lists[k]);
        for (i = 0; i < edan_json_len(l); i++) {
            const edan_json *c = edan_json_get(edan_json_at(l, i), "cluster");
            double x = edan_json_number(c, 0);
            if (c && !(x >= 0 && x <= 1048576 && x == (double)(long)x)) broken("a numa cluster out of range");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edan_profile *p = NULL;
    edan_json *root = NULL;
    char err[512];
    edan_allocator al = {count_alloc, count_realloc, count_free, NULL};
    edan_result r;
    /* the JSON reader: a tree or "line N: ...", and everything freed */
    if (edan_json_parse((const char *)data, size, &al, &root, err, sizeof err) == EDAN_OK) {
        check_document(root, 0);
        edan_json_free(root);
    } else if (root != NULL || strncmp(err, "line ", 5) != 0) {
        abort();
    }
    if (live_blocks != 0) abort();
    r = edan_profile_parse((const char *)data, size, "f.json", NULL, &p, err, sizeof err);
    if (r != EDAN_OK) {
        if (p || strncmp(err, "f.json:", 7)) {
            fprintf(stderr, "fuzz_profile: a rejection without its place: '%s'\n", err);
            abort();
        }
        return 0;
    }
    {
        edan_config cfg;
        edan_options o;
        edan_context *ctx = NULL;
        uint32_t i;
        memset(&cfg, 0, sizeof cfg);
        if (edan_profile_to_config(p, &cfg) != EDAN_OK) abort();
        for (i = 0; i < cfg.num_levels; i++)    /* what the conversion promises the engine */
            if (!cfg.level[i].size || !cfg.level[i].assoc || cfg.level[i].size % ((uint64_t)cfg.level[i].assoc * cfg.level[i].line))
                abort();
        memset(&o, 0, sizeof o);
        o.num_configs = 1;
        o.configs = &cfg;
        r = edan_create(&ctx, &o);
        if (r != EDAN_OK && (!ctx || !edan_error(ctx)[0])) abort();
        edan_destroy(ctx);
        check_numa(edan_profile_json(p));
        (void)edan_profile_roof(p, "DRAM", 1);
        (void)edan_profile_bandwidth_of(p, "L1", "load", 1);
        {
            edan_hybrid_model m;
            char herr[256];
            (void)edan_hybrid_from_profile(p, 0, &m, herr, sizeof herr);
        }
    }
    edan_profile_free(p);
    return 0;
}
