/* libFuzzer harness for the JSON reader and the hardware-profile loader:
   any input is parsed (edan__json_parse with an allocator that counts,
   edan_profile_parse); an accepted profile becomes an analysis
   configuration (edan_profile_to_config), which the engine must accept or
   refuse with a message, in bounded time and memory, and its hybrid model
   and roofs are read. A rejected one must say where (FILE:LINE:). A crash,
   a hang, a sanitizer report or a broken rule aborts. Run by
   tests/fuzz/test_fuzz_profile.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define EDAN_IMPLEMENTATION
#include "edan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* an allocator that counts, so that a leak in the JSON DOM shows */
static long live_blocks;
static void *count_alloc(size_t n, void *u) { (void)u; live_blocks++; return malloc(n); }
static void *count_realloc(void *p, size_t n, void *u) { (void)u; if (!p) live_blocks++; return realloc(p, n); }
static void count_free(void *p, void *u) { (void)u; if (p) live_blocks--; free(p); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edan_profile *p = NULL;
    edan__json *root = NULL;
    char err[512];
    edan_allocator al = {count_alloc, count_realloc, count_free, NULL};
    edan_result r;
    /* the JSON reader: a tree or "line N: ...", and everything freed */
    if (edan__json_parse((const char *)data, size, &al, &root, err, sizeof err) == EDAN_OK) {
        size_t i;
        for (i = 0; i < edan__json_len(root); i++) (void)edan__json_key_at(root, i);
        edan__json_free(root);
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
        (void)edan__profile_roof(p, "DRAM", 1);
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
