/* tests/bench/bench_shadow.c - the engine alone (no trace reader) on the
   shapes of memory that its shadow memory keeps apart: an array written
   word by word and read back (the common dense case, first touch
   included), the same loop again and again over 1 MB (the steady state),
   a store to each of many pages, one word in four. Each through edan_feed
   and through a compiled block (edan_feed_block). Built and run by
   tests/bench/bench_shadow.sh against another checkout's edan.h.
   Usage: bench_shadow SHAPE PATH [DIV]   (SHAPE array|loop|pages|stride,
   PATH feed|block; DIV: a DIVth of the work, for slower tools). Prints the
   instructions fed and the peak of the engine's allocations (MiB); the
   script times the whole process. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
/* built against an older edan.h too (EDAN_BASE): before 1.0 the call had no fed */
#if EDAN_VERSION_MAJOR >= 1
#define FEED_PREPARED_N(ctx, p, addrs, n) edan_feed_prepared_n(ctx, p, addrs, n, NULL)
#else
#define FEED_PREPARED_N(ctx, p, addrs, n) edan_feed_prepared_n(ctx, p, addrs, n)
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_alloc.h"

/* The loop body: a load of a[i], of b[i], an add, a store to c[i], the
   index and the branch (a triad); the store and the index alone for the
   shapes that only write. Registers: a1 the index, a2..a4 values, a5 the end. */
static const struct { uint8_t mem, cls, nsrc, ndst; edan_reg src[2], dst; } body_of[6] = {
    {EDAN_MEM_LOAD, EDAN_CLASS_LOAD, 1, 1, {11, 0}, 12},
    {EDAN_MEM_LOAD, EDAN_CLASS_LOAD, 1, 1, {11, 0}, 13},
    {EDAN_MEM_NONE, EDAN_CLASS_FP_ADD, 2, 1, {12, 13}, 14},
    {EDAN_MEM_STORE, EDAN_CLASS_STORE, 2, 0, {14, 11}, 0},
    {EDAN_MEM_NONE, EDAN_CLASS_INT_ALU, 1, 1, {11, 0}, 11},
    {EDAN_MEM_NONE, EDAN_CLASS_BRANCH, 2, 0, {11, 15}, 0},
};

int main(int argc, char **argv)
{
    edan_options o;
    edan_context *ctx;
    edan_prepared p[6];
    edan_block *blk = NULL, *rd = NULL;
    edan_insn body[6];
    uint64_t addrs[6], n = 0, i, reps, words, step, base = 0x10000000;
    uint32_t first, count;
    int block, store_only;
    const char *shape = argc > 2 ? argv[1] : "";
    if (argc < 3 || argc > 4 || (strcmp(argv[2], "feed") && strcmp(argv[2], "block"))) {
        fprintf(stderr, "usage: bench_shadow array|loop|pages|stride feed|block [DIV]\n");
        return 2;
    }
    block = !strcmp(argv[2], "block");
    /* words: the array's 8-byte words; step: words between two visited */
    if (!strcmp(shape, "array")) { words = 8u << 20; step = 1; reps = 1; }         /* 64 MB once */
    else if (!strcmp(shape, "loop")) { words = 1u << 17; step = 1; reps = 64; }    /* 1 MB, 64 times */
    else if (!strcmp(shape, "pages")) { words = 128u << 20; step = 512; reps = 1; } /* a word in each of 256K pages */
    else if (!strcmp(shape, "stride")) { words = 32u << 20; step = 4; reps = 1; }  /* a word in four of 256 MB */
    else {
        fprintf(stderr, "bench_shadow: unknown shape %s\n", shape);
        return 2;
    }
    store_only = step > 1 || !strcmp(shape, "array");
    if (argc == 4 && atoi(argv[3]) > 1) {
        if (reps > 1) reps = (reps + (uint64_t)atoi(argv[3]) - 1) / (uint64_t)atoi(argv[3]);
        else words /= (uint64_t)atoi(argv[3]);
    }
    memset(&o, 0, sizeof o);
    bench_alloc_hooks(&o.allocator);
    if (edan_create(&ctx, &o) != EDAN_OK) return 1;
    for (i = 0; i < 6; i++) {
        memset(&body[i], 0, sizeof body[i]);
        body[i].mem = body_of[i].mem;
        body[i].cls = body_of[i].cls;
        body[i].size = body_of[i].mem ? 8 : 0;
        body[i].nsrc = body_of[i].nsrc;
        body[i].ndst = body_of[i].ndst;
        memcpy(body[i].src, body_of[i].src, sizeof body_of[i].src);
        body[i].dst[0] = body_of[i].dst;
        if (edan_prepare(ctx, &body[i], &p[i]) != EDAN_OK) return 1;
    }
    first = store_only ? 3 : 0;     /* the store and the index only, or the whole triad */
    count = store_only ? 2 : 6;
    if (block && (edan_block_create(ctx, p + first, count, &blk) != EDAN_OK ||
                  edan_block_create(ctx, p, 1, &rd) != EDAN_OK))
        return 1;
    /* the array's words: a store each; then (array) read back, or (loop) a
       triad of three arrays over and over */
    for (; reps; reps--)
        for (i = 0; i < words; i += step) {
            uint64_t a = base + 8 * i;
            edan_result r;
            addrs[0] = a + ((uint64_t)2 << 30);
            addrs[1] = a + ((uint64_t)4 << 30);
            addrs[3] = a;
            r = block ? edan_feed_block(ctx, blk, addrs + first) : FEED_PREPARED_N(ctx, p + first, addrs + first, count);
            n += count;
            if (r != EDAN_OK) {
                fprintf(stderr, "bench_shadow: %s\n", edan_error(ctx));
                return 1;
            }
        }
    if (store_only)         /* read back: a load of every word written */
        for (i = 0; i < words; i += step) {
            addrs[0] = base + 8 * i;
            if ((block ? edan_feed_block(ctx, rd, addrs) : FEED_PREPARED_N(ctx, p, addrs, 1)) != EDAN_OK) return 1;
            n++;
        }
    {
        edan_metrics m;
        edan_get_metrics(ctx, 0, &m);
        if (m.N != n) return 1;
    }
    printf("%llu %.1f\n", (unsigned long long)n, bench_alloc_peak / 1048576.0);
    edan_destroy(ctx);
    return 0;
}
