/* The windowed schedule's times are packed into one word while they fit,
   and widened to pairs for good before they might not. Here the bound is
   lowered (EDAN_WINDOW_PACK_LIMIT), so that the schedules widen early in
   each run, between blocks or vertices, with threads and several
   configurations, and the model's differential tests compare every getter
   with the naive reference again. test_core runs them with packed times
   that never widen; test_jobs_wide.c widens on the schedules' thread. */
#define EDAN_WINDOW_PACK_LIMIT 3000
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"
#include "naive.h"

/* n rounds of a chain of dependent RAM loads and operations (alpha 200,
   an operation 1: 201 cycles a round, one RAM latency). */
static void feed_chain(edan_context *ctx, uint64_t n, uint64_t base)
{
    uint64_t i;
    for (i = 0; i < n; i++) {
        edan_insn ld, op;
        memset(&ld, 0, sizeof ld);
        ld.cls = EDAN_CLASS_LOAD;
        ld.mem = EDAN_MEM_LOAD;
        ld.addr = base + 64 * i;
        ld.size = 8;
        ld.src[ld.nsrc++] = 10;
        ld.dst[ld.ndst++] = 11;
        memset(&op, 0, sizeof op);
        op.cls = EDAN_CLASS_INT_ALU;
        op.src[op.nsrc++] = 11;
        op.dst[op.ndst++] = 10;
        CHECK(edan_feed(ctx, &ld) == EDAN_OK);
        CHECK(edan_feed(ctx, &op) == EDAN_OK);
    }
}

/* Packed at the start, widened once the latest retirement nears 3000
   cycles; T and lambda those of the chain. Then the same with a thread
   that exited before the widening (its last retirement kept apart, fin):
   the window's T is still the latest of the two threads'. */
static void test_widened_once(void)
{
    static const edan_options defaults;
    edan_options o = defaults;
    edan_context *ctx = NULL;
    edan_window w;
    o.window_m = 4;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    CHECK(ctx->wpk == 1);
    feed_chain(ctx, 6, 0x10000);
    CHECK(ctx->wpk == 1);       /* 6 x 201 cycles: still packed */
    feed_chain(ctx, 34, 0x20000);
    CHECK(ctx->wpk == 0);
    CHECK(edan_get_window(ctx, 0, 4, &w) == EDAN_OK);
    CHECK(w.lambda == 40 && w.T == 40 * 201 && w.c == 40);
    edan_destroy(ctx);

    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK);
    CHECK(edan_thread_switch(ctx, 1) == EDAN_OK);
    feed_chain(ctx, 8, 0x30000);
    CHECK(edan_thread_exit(ctx, 1) == EDAN_OK);
    CHECK(edan_thread_switch(ctx, 0) == EDAN_OK);
    CHECK(ctx->wpk == 1);
    CHECK(edan_get_window(ctx, 0, 4, &w) == EDAN_OK);
    CHECK(w.lambda == 8 && w.T == 8 * 201);     /* thread 1's, packed */
    feed_chain(ctx, 14, 0x40000);
    CHECK(ctx->wpk == 0);
    CHECK(edan_get_window(ctx, 0, 4, &w) == EDAN_OK);
    CHECK(w.lambda == 14 && w.T == 14 * 201);
    edan_destroy(ctx);
}

int main(void)
{
    test_widened_once();
    test_differential(200, 0x71de);
    test_multi(100, 0x3a12);
    test_threads_differential(150, 0x7eae);
    test_blocks(150, 0xb10d);
    test_long_blocks(10, 0x1025);
    test_page_shapes(24, 0x9a9f);
    return check_summary("test_window_wide");
}
