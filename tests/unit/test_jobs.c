/* Tests of options.jobs (configurations analysed in parallel): a context
   with jobs 2..K, or 2K (each configuration's windowed schedules on a
   thread of its own too), gives every getter the same answer as a context of the
   same configurations alone, for a random trace fed through every feeding
   call (instructions, several accesses, prepared instructions, blocks,
   kills, threads, signals), with 1 to 5 configurations; and the buffer
   that hands the calls over holds at most its size when the caller feeds
   faster than the threads replay (here: while they are held back); the
   schedules' thread with blocks longer than its first room. */
#define _POSIX_C_SOURCE 200809L
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"
#include <pthread.h>
#include <sched.h>

#if EDAN__THREADS

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

/* An instruction of a few registers over a small footprint (so that values
   pass through memory and the caches both hit and miss). */
static edan_insn rnd_insn(void)
{
    edan_insn in;
    uint64_t r = rnd();
    memset(&in, 0, sizeof in);
    in.pc = 0x1000 + 4 * (r % 64);
    in.flags = EDAN_INSN_HAS_PC;
    in.op = (uint32_t)(r >> 8) % 40;
    in.src[in.nsrc++] = (edan_reg)(1 + (r >> 16) % 12);
    if ((r >> 20) & 1) in.src[in.nsrc++] = (edan_reg)(1 + (r >> 24) % 12);
    switch ((r >> 28) % 4) {
    case 0: case 1:
        in.cls = EDAN_CLASS_LOAD;
        in.mem = EDAN_MEM_LOAD;
        in.dst[in.ndst++] = (edan_reg)(1 + (r >> 32) % 12);
        break;
    case 2:
        in.cls = EDAN_CLASS_STORE;
        in.mem = EDAN_MEM_STORE;
        break;
    default:
        in.cls = (r >> 36) & 1 ? EDAN_CLASS_FP_MUL : EDAN_CLASS_INT_ALU;
        in.dst[in.ndst++] = (edan_reg)(1 + (r >> 32) % 12);
        break;
    }
    if (in.mem) {
        in.size = 8;
        in.addr = 0x100000 + 8 * ((r >> 40) % 6000);
    }
    return in;
}

#define NBLK 6
#define BLKN 8

/* The same random trace to ctx, through every kind of feeding call;
   several program threads when `threads`. */
static void feed_trace_t(edan_context *ctx, uint64_t seed, size_t steps, int threads_on)
{
    edan_insn bi[NBLK][BLKN];
    edan_prepared bp[NBLK][BLKN];
    edan_block *blk[NBLK];
    uint32_t threads = 1, t, depth = 0;
    size_t s, i, j;
    rnd_state = seed;
    for (i = 0; i < NBLK; i++) {
        for (j = 0; j < BLKN; j++) {
            bi[i][j] = rnd_insn();
            CHECK(edan_prepare(ctx, &bi[i][j], &bp[i][j]) == EDAN_OK);
        }
        CHECK(edan_block_create(ctx, bp[i], BLKN, &blk[i]) == EDAN_OK);
    }
    for (s = 0; s < steps; s++) {
        uint64_t r = rnd(), addrs[BLKN];
        edan_insn in = rnd_insn(), many[5];
        switch (r % 16) {
        case 0: case 1: case 2: case 3:
            CHECK(edan_feed(ctx, &in) == EDAN_OK);
            break;
        case 4:
            for (i = 0; i < 5; i++) many[i] = rnd_insn();
            CHECK(edan_feed_many(ctx, many, 5, NULL) == EDAN_OK);
            break;
        case 5: {   /* a gather of three elements */
            edan_access acc[3];
            in.cls = EDAN_CLASS_LOAD;
            in.mem = EDAN_MEM_LOAD;
            in.ndst = 1;
            in.dst[0] = 3;
            for (i = 0; i < 3; i++) {
                acc[i].addr = 0x100000 + 8 * (rnd() % 6000);
                acc[i].size = 8;
                acc[i].kind = EDAN_MEM_LOAD;
            }
            CHECK(edan_feed_accesses(ctx, &in, acc, 3) == EDAN_OK);
            break;
        }
        case 6: case 7: case 8: case 9: case 10:     /* a block, whole or in part */
            i = (size_t)(r >> 8) % NBLK;
            for (j = 0; j < BLKN; j++) addrs[j] = 0x100000 + 8 * (rnd() % 6000);
            if ((r >> 16) % 4) CHECK(edan_feed_block(ctx, blk[i], addrs) == EDAN_OK);
            else CHECK(edan_feed_prepared_n(ctx, bp[i] + 2, addrs, BLKN - 2, NULL) == EDAN_OK);
            break;
        case 11:    /* a block made again (its id reused) */
            i = (size_t)(r >> 8) % NBLK;
            edan_block_destroy(blk[i]);
            CHECK(edan_block_create(ctx, bp[i], BLKN, &blk[i]) == EDAN_OK);
            break;
        case 12: {
            edan_reg k[2];
            k[0] = (edan_reg)(1 + (r >> 8) % 12);
            k[1] = (edan_reg)(1 + (r >> 16) % 12);
            CHECK(edan_kill_regs(ctx, k, 2) == EDAN_OK);
            CHECK(edan_kill_mem(ctx, 0x100000 + 8 * ((r >> 24) % 6000), 64) == EDAN_OK);
            break;
        }
        case 13:
            if (!threads_on) {
                CHECK(edan_feed(ctx, &in) == EDAN_OK);
                break;
            }
            if (threads < 4) {
                CHECK(edan_thread_create(ctx, 0, threads) == EDAN_OK);
                threads++;
            }
            t = (uint32_t)((r >> 8) % threads);
            CHECK(edan_thread_switch(ctx, t) == EDAN_OK);
            depth = edan_signal_depth(ctx);
            break;
        case 14:
            if (depth < 3) {
                CHECK(edan_signal_deliver(ctx) == EDAN_OK);
                depth++;
            } else {
                CHECK(edan_signal_return(ctx) == EDAN_OK);
                depth--;
            }
            break;
        default:    /* a refused instruction changes nothing, in either */
            in.op = EDAN_MAX_OP;
            CHECK(edan_feed(ctx, &in) == EDAN_ERR_INVALID_ARG);
            break;
        }
    }
}

static void feed_trace(edan_context *ctx, uint64_t seed, size_t steps)
{
    feed_trace_t(ctx, seed, steps, 1);
}

static edan_config cfg_of(uint32_t k)
{
    edan_config c;
    memset(&c, 0, sizeof c);
    c.tau = 50;
    c.alpha = 100 + 50 * k;
    if (k % 3 == 1) {
        c.num_levels = 1;
        c.level[0].size = 4096u << k;
        c.level[0].assoc = 4;
        c.level[0].line = 64;
    } else if (k % 3 == 2) {
        c.num_levels = 2;
        c.level[0].size = 2048;
        c.level[0].assoc = 2;
        c.level[0].line = 64;
        c.level[1].size = 32768;
        c.level[1].assoc = 8;
        c.level[1].line = 64;
        c.level[1].latency = 10;
        c.write_policy = k % 2 ? EDAN_WRITE_THROUGH : EDAN_WRITE_BACK;
    }
    if (k == 3) c.window = 64;
    return c;
}

/* K configurations with hotspots, in `jobs` threads, a buffer of `buffer` bytes. */
static edan_context *make(const edan_config *cfg, uint32_t K, uint32_t jobs, uint32_t buffer)
{
    static const edan_options defaults;
    edan_options o = defaults;
    edan_context *ctx = NULL;
    o.hotspots = 1;
    o.num_configs = K, o.configs = cfg;
    o.jobs = jobs, o.jobs_buffer = buffer;
    if (edan_create(&ctx, &o) != EDAN_OK) CHECK(!"edan_create");
    return ctx;
}

/* Two contexts of options o: both as o says, or (b_threaded) a on the
   caller's thread alone and b with jobs 2 and the least buffer (o left
   so); 0 when either is missing. */
static int make_pair(edan_options *o, int b_threaded, edan_context **a, edan_context **b)
{
    *a = *b = NULL;
    if (b_threaded) o->jobs = 0, o->jobs_buffer = 0;
    CHECK(edan_create(a, o) == EDAN_OK);
    if (b_threaded) o->jobs = 2, o->jobs_buffer = 1;
    CHECK(edan_create(b, o) == EDAN_OK);
    return *a && *b;
}

/* Every result of a and b, configuration by configuration, the same. */
static void same_results(edan_context *a, edan_context *b, uint32_t K, const char *what)
{
    uint32_t k, m, t;
    int before = check_failures;
    CHECK_EQ_U(edan_num_configs(b), K);
    CHECK_EQ_U(edan_num_threads(a), edan_num_threads(b));
    {
        const uint64_t *ca = NULL, *cb = NULL;
        size_t na = 0, nb = 1;
        CHECK(edan_get_op_counts(a, &ca, &na) == EDAN_OK && edan_get_op_counts(b, &cb, &nb) == EDAN_OK);
        CHECK(na == nb && !memcmp(ca, cb, na * sizeof *ca));
    }
    for (k = 0; k < K; k++) {
        edan_metrics ma, mb;
        edan_layer_bin la[64], lb[64];
        size_t nla = 0, nlb = 1, tla = 0, tlb = 1;
        uint64_t wa = 0, wb = 1, layers_a[256], layers_b[256];
        const uint64_t *ta, *tb;
        edan_hotspot ha[16], hb[16];
        edan_window wia, wib;
        edan_result ra, rb;
        const edan_config *cfa = edan_get_config(a, k), *cfb = edan_get_config(b, k);
        /* (padding compared too: zeroed first) */
        memset(&ma, 0, sizeof ma); memset(&mb, 0, sizeof mb);
        memset(ha, 0, sizeof ha); memset(hb, 0, sizeof hb);
        CHECK(edan_get_metrics(a, k, &ma) == EDAN_OK && edan_get_metrics(b, k, &mb) == EDAN_OK);
        CHECK(!memcmp(&ma, &mb, sizeof ma));
        CHECK(edan_get_layers(a, k, 1, layers_a, 256) == EDAN_OK && edan_get_layers(b, k, 1, layers_b, 256) == EDAN_OK);
        CHECK(!memcmp(layers_a, layers_b, sizeof layers_a));
        CHECK(edan_get_layer_summary(a, k, la, 64, &nla, &wa) == EDAN_OK);
        CHECK(edan_get_layer_summary(b, k, lb, 64, &nlb, &wb) == EDAN_OK);
        CHECK(nla == nlb && wa == wb && !memcmp(la, lb, (nla < 64 ? nla : 64) * sizeof *la));
        for (m = 1; m <= 8; m *= 2) {
            edan_bounds ba, bb;
            memset(&ba, 0, sizeof ba); memset(&bb, 0, sizeof bb);
            memset(&wia, 0, sizeof wia); memset(&wib, 0, sizeof wib);
            CHECK(edan_get_bounds(a, k, m, &ba) == EDAN_OK && edan_get_bounds(b, k, m, &bb) == EDAN_OK);
            CHECK(!memcmp(&ba, &bb, sizeof ba));
            CHECK(edan_get_bounds_at(a, k, m, 777.5, &ba) == EDAN_OK && edan_get_bounds_at(b, k, m, 777.5, &bb) == EDAN_OK);
            CHECK(!memcmp(&ba, &bb, sizeof ba));
            ra = edan_get_window(a, k, m, &wia);
            rb = edan_get_window(b, k, m, &wib);
            CHECK(ra == rb && (ra != EDAN_OK || !memcmp(&wia, &wib, sizeof wia)));
            CHECK(!strcmp(edan_error(a), edan_error(b)));
        }
        ra = edan_get_timeline(a, k, &ta, &tla);      /* (refused alike without a tau) */
        rb = edan_get_timeline(b, k, &tb, &tlb);
        CHECK(ra == rb && (ra != EDAN_OK || (tla == tlb && !memcmp(ta, tb, tla * sizeof *ta))));
        ra = edan_get_hotspots(a, k, ha, 16, &nla);    /* (refused alike without options.hotspots) */
        rb = edan_get_hotspots(b, k, hb, 16, &nlb);
        CHECK(ra == rb && (ra != EDAN_OK || (nla == nlb && !memcmp(ha, hb, nla * sizeof *ha))));
        CHECK(cfa && cfb && cfa->alpha == cfb->alpha && cfa->tau == cfb->tau && cfa->num_levels == cfb->num_levels &&
              cfa->window == cfb->window && cfa->level[0].size == cfb->level[0].size);
        for (t = 0; t < edan_num_threads(a); t++) {
            edan_thread_metrics xa, xb;
            memset(&xa, 0, sizeof xa); memset(&xb, 0, sizeof xb);
            CHECK(edan_get_thread_metrics(a, k, t, &xa) == EDAN_OK && edan_get_thread_metrics(b, k, t, &xb) == EDAN_OK);
            CHECK(!memcmp(&xa, &xb, sizeof xa));
        }
    }
    CHECK(edan_get_metrics(b, K, NULL) == EDAN_ERR_INVALID_ARG);
    if (check_failures != before) fprintf(stderr, "  (%s)\n", what);
}

/* 1 to 5 configurations, jobs 2 to 5 (more than K: K), 2K and 2K + 1,
   against jobs 1. */
static void test_same_results(void)
{
    edan_config cfg[5];
    uint32_t K, J, k, g;
    char what[64];
    for (k = 0; k < 5; k++) cfg[k] = cfg_of(k);
    for (K = 1; K <= 5; K++)
        for (J = 2; J <= 7; J++) {
            const uint32_t jobs = J == 6 ? 2 * K : J == 7 ? 2 * K + 1 : J;
            const int standin = jobs >= 2 * K + 1;
            edan_context *a = make(cfg, K, 1, 0), *b = make(cfg, K, jobs, 0);
            if (!a || !b) return;
            /* K > 1: groups of their own; 2K + 1: a stand-in in the caller's, a group each */
            CHECK((b->jobs != NULL) == (K > 1 || standin));
            if (b->jobs) CHECK_EQ_U(b->jobs->base, standin);
            if (standin) CHECK(b->K == 1 && b->cfg[0].c.num_levels == 0 && !b->cfg[0].win && !b->hotspots);
            /* one configuration, or 2K jobs: each context's windowed schedules on a thread, to come */
            CHECK((b->wq_cap != 0) == (!standin && (K == 1 || jobs >= 2 * K)));
            if (b->jobs) CHECK_EQ_U(b->jobs->nw + 1, standin ? K + 1 : jobs < K ? jobs : K);
            for (g = 0; b->jobs && g < b->jobs->nw; g++) CHECK((b->jobs->w[g].ctx->wq_cap != 0) == (jobs >= 2 * K));
            feed_trace(a, 12345 + K, 8000);
            feed_trace(b, 12345 + K, 8000);
            snprintf(what, sizeof what, "%u configurations, jobs %u", K, jobs);
            same_results(a, b, K, what);
            edan_destroy(a);
            edan_destroy(b);
        }
}

/* One configuration: its windowed schedules played on a thread of their
   own, block by block, through the smallest ring (64 KiB, wrapped many
   times), with one program thread (all the blocks handed over) and with
   several (from the first switch on, played on the caller's), and with
   every m of the list. */
static void test_window_thread(void)
{
    edan_config cfg = cfg_of(2);
    int threads_on, all_m;
    char what[64];
    for (threads_on = 0; threads_on <= 1; threads_on++)
        for (all_m = 0; all_m <= 1; all_m++) {
            static const edan_options defaults;
            edan_options o = defaults;
            edan_context *a = NULL, *b = NULL;
            o.num_configs = 1, o.configs = &cfg;     /* no hotspots: blocks compiled */
            o.window_m = all_m ? 0 : 4;
            if (!make_pair(&o, 1, &a, &b)) return;
            CHECK(b->wq == NULL && b->wq_cap == 64 << 10);  /* started by the first block */
            feed_trace_t(a, 777 + (uint64_t)threads_on, 60000, threads_on);
            feed_trace_t(b, 777 + (uint64_t)threads_on, 60000, threads_on);
            CHECK(b->wq && b->wq->cap == 64 << 10);
            if (b->wq && !threads_on) CHECK(b->wq->head > 4 * b->wq->cap);     /* handed over, round the ring */
#ifdef EDAN_WINDOW_PACK_LIMIT
            CHECK(!a->wpk && !b->wpk);      /* widened on the way (test_jobs_wide.c) */
#endif
            snprintf(what, sizeof what, "the schedules' thread, threads %d, every m %d", threads_on, all_m);
            same_results(a, b, 1, what);
            edan_destroy(a);
            edan_destroy(b);
        }
}

/* Blocks of 100, 300 and 700 instructions, some of which write two
   registers, between instructions fed one by one and kills (registers
   written other than by a block handed over). */
#define LONGN 700
static void feed_long_blocks(edan_context *ctx, uint64_t seed, size_t steps)
{
    static const size_t len[3] = {100, 300, LONGN};
    static edan_insn bi[3][LONGN];
    static edan_prepared bp[3][LONGN];
    edan_block *blk[3];
    uint64_t addrs[LONGN];
    size_t s, i, j;
    rnd_state = seed;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < len[i]; j++) {
            edan_insn *in = &bi[i][j];
            *in = rnd_insn();
            if (!in->mem && (rnd() & 1)) {
                const edan_reg d = (edan_reg)(1 + rnd() % 12);
                if (d != in->dst[0]) in->dst[in->ndst++] = d;
            }
            CHECK(edan_prepare(ctx, in, &bp[i][j]) == EDAN_OK);
        }
        CHECK(edan_block_create(ctx, bp[i], len[i], &blk[i]) == EDAN_OK);
    }
    for (s = 0; s < steps; s++) {
        const uint64_t r = rnd();
        edan_insn in = rnd_insn();
        if (r % 4 == 0) {
            CHECK(edan_feed(ctx, &in) == EDAN_OK);
        } else if (r % 16 == 1) {
            edan_reg k = (edan_reg)(1 + (r >> 8) % 12);
            CHECK(edan_kill_regs(ctx, &k, 1) == EDAN_OK);
        } else {
            i = (size_t)(r >> 8) % 3;
            for (j = 0; j < len[i]; j++) addrs[j] = 0x100000 + 8 * (rnd() % 6000);
            CHECK(edan_feed_block(ctx, blk[i], addrs) == EDAN_OK);
        }
    }
}

/* A loop-carried chain through a vertex that writes two registers, which
   the next block reads: block A loads r1 from [r4] and writes r2 and r3
   from it; block B2 writes r4 from r2, block B3 from r3 (one of the two
   targets is the vertex's place, the other a copy). */
static void feed_two_targets(edan_context *ctx, size_t steps)
{
    edan_insn in[4];
    edan_prepared p[4];
    edan_block *ba = NULL, *bb[2] = {NULL, NULL};
    uint64_t addrs[2] = {0x100000, 0};
    size_t s, i;
    memset(in, 0, sizeof in);
    for (i = 0; i < 4; i++) {
        in[i].pc = 0x1000 + 4 * i, in[i].flags = EDAN_INSN_HAS_PC, in[i].op = 2, in[i].cls = EDAN_CLASS_INT_ALU;
    }
    in[0].cls = EDAN_CLASS_LOAD, in[0].mem = EDAN_MEM_LOAD, in[0].size = 8, in[0].addr = 0x100000;
    in[0].src[in[0].nsrc++] = 4, in[0].dst[in[0].ndst++] = 1;
    in[1].src[in[1].nsrc++] = 1, in[1].dst[in[1].ndst++] = 2, in[1].dst[in[1].ndst++] = 3;
    in[2].src[in[2].nsrc++] = 2, in[2].dst[in[2].ndst++] = 4;
    in[3].src[in[3].nsrc++] = 3, in[3].dst[in[3].ndst++] = 4;
    for (i = 0; i < 4; i++) CHECK(edan_prepare(ctx, &in[i], &p[i]) == EDAN_OK);
    CHECK(edan_block_create(ctx, p, 2, &ba) == EDAN_OK);
    CHECK(edan_block_create(ctx, p + 2, 1, &bb[0]) == EDAN_OK && edan_block_create(ctx, p + 3, 1, &bb[1]) == EDAN_OK);
    for (s = 0; s < steps; s++) {
        CHECK(edan_feed_block(ctx, ba, addrs) == EDAN_OK);
        CHECK(edan_feed_block(ctx, bb[s % 2], addrs) == EDAN_OK);
    }
}

/* Runs of executions of one block (count of them, 1 to 40: past three
   copies' worth, so that the entries found ahead go round their three
   rows) between other calls: one edan_feed_block each (grouped 0), or one
   edan_feed_block_n for them all (the unrolled copies). Blocks of 1, 3, 8,
   20 and 40 instructions (copies of 8, 8, 8 and 3 executions; none for
   40); now and then a load across two words (that execution fed one by
   one), a block made again (its copy with it), or a kill of memory that
   frees the shadow pages of its range between two runs. */
#define RUNB 5
#define RUNMAX 40
static void feed_block_runs(edan_context *ctx, uint64_t seed, size_t steps, int grouped, int *unrolled)
{
    static const size_t len[RUNB] = {1, 3, 8, 20, 40};
    static edan_insn bi[RUNB][40];
    static edan_prepared bp[RUNB][40];
    static uint64_t addrs[RUNMAX * 40];
    edan_block *blk[RUNB];
    size_t s, i, j, n;
    rnd_state = seed;
    for (i = 0; i < RUNB; i++) {
        for (j = 0; j < len[i]; j++) {
            bi[i][j] = rnd_insn();
            CHECK(edan_prepare(ctx, &bi[i][j], &bp[i][j]) == EDAN_OK);
        }
        CHECK(edan_block_create(ctx, bp[i], len[i], &blk[i]) == EDAN_OK);
    }
    for (s = 0; s < steps; s++) {
        const uint64_t r = rnd();
        edan_insn in = rnd_insn();
        i = (size_t)(r >> 8) % RUNB;
        if (r % 8 == 0) {
            CHECK(edan_feed(ctx, &in) == EDAN_OK);
        } else if (r % 8 == 1) {
            edan_reg k = (edan_reg)(1 + (r >> 16) % 12);
            CHECK(edan_kill_regs(ctx, &k, 1) == EDAN_OK);
        } else if (r % 64 == 2) {
            edan_block_destroy(blk[i]);
            CHECK(edan_block_create(ctx, bp[i], len[i], &blk[i]) == EDAN_OK);
        } else if (r % 64 == 3) {
            CHECK(edan_kill_mem(ctx, 0x100000 + 4096 * ((r >> 16) % 12), 8192) == EDAN_OK);
        } else {
            const size_t count = 1 + (size_t)(r >> 16) % RUNMAX;
            for (n = 0; n < count * len[i]; n++)
                addrs[n] = 0x100000 + 8 * (rnd() % 6000) + (rnd() % 200 == 0 ? 4 : 0);
            if (grouped) {
                size_t fed = 0;
                CHECK(edan_feed_block_n(ctx, blk[i], addrs, count, &fed) == EDAN_OK);
                CHECK_EQ_U(fed, count * len[i]);
                if (blk[i]->unroll) *unrolled |= 1 << i;
            } else {
                for (n = 0; n < count; n++) CHECK(edan_feed_block(ctx, blk[i], addrs + n * len[i]) == EDAN_OK);
            }
        }
    }
}

/* An instruction of a block heavy in operations: one to three sources
   (register 13 a flags-like one, written and read often), compares that
   write it alone and branches that write nothing and often read it
   alone, loads and stores now and then. */
static edan_insn rnd_op_insn(void)
{
    edan_insn in;
    const uint64_t r = rnd();
    uint32_t j;
    memset(&in, 0, sizeof in);
    in.pc = 0x2000 + 4 * (r % 64);
    in.flags = EDAN_INSN_HAS_PC;
    in.op = (uint32_t)(r >> 8) % 40;
    for (j = 0; j < 1 + (r >> 16) % 3; j++) in.src[in.nsrc++] = (edan_reg)(1 + (r >> (20 + 4 * j)) % 13);
    switch ((r >> 34) % 10) {
    case 0: case 1:
        in.cls = EDAN_CLASS_LOAD;
        in.mem = EDAN_MEM_LOAD;
        in.nsrc = 1;
        in.dst[in.ndst++] = (edan_reg)(1 + (r >> 40) % 12);
        break;
    case 2:
        in.cls = EDAN_CLASS_STORE;
        in.mem = EDAN_MEM_STORE;
        in.nsrc = 2;
        break;
    case 3: case 4:
        in.cls = EDAN_CLASS_BRANCH;
        if ((r >> 44) & 1) in.nsrc = 1, in.src[0] = 13;     /* on the flags */
        break;
    case 5:     /* a compare: the flags alone */
        in.cls = EDAN_CLASS_INT_ALU;
        in.nsrc = 2;
        in.dst[in.ndst++] = 13;
        break;
    default:
        in.cls = (r >> 44) & 1 ? EDAN_CLASS_FP_MUL : EDAN_CLASS_INT_ALU;
        in.dst[in.ndst++] = (edan_reg)(1 + (r >> 40) % 13);
        if ((r >> 48) % 3 == 0) in.dst[in.ndst++] = 13;
        if (in.ndst == 2 && in.dst[0] == 13) in.ndst = 1;
        break;
    }
    if (in.mem) {
        in.size = 8;
        in.addr = 0x100000 + 8 * ((r >> 50) % 3000);
    }
    return in;
}

/* Compiled blocks of operations against the same instructions fed one by
   one: every result the same, without a cache (the plain copy) and with
   two levels, with and without the windowed schedule, each execution and
   runs of them (edan_feed_block_n). The blocks' steps are fewer than
   their instructions (what is left out is in the results all the same). */
static void test_block_ops(void)
{
    int c;
    for (c = 0; c < 4; c++) {
        static const edan_options defaults;
        static edan_insn bi[6][24];
        static edan_prepared bp[6][24];
        static uint64_t addrs[8 * 24];
        edan_options o = defaults;
        edan_config cfg = c % 2 ? cfg_of(2) : cfg_of(0);
        edan_context *a = NULL, *b = NULL;
        edan_block *blk[6];
        size_t i, j, n, s, steps = 0, insns = 0, tinf_differ = 0;
        char what[64];
        cfg.tau = c % 2 ? 50 : 0;
        cfg.cost[EDAN_CLASS_INT_ALU] = 2;
        cfg.cost[EDAN_CLASS_FP_MUL] = 5;
        cfg.cost[EDAN_CLASS_BRANCH] = 3;
        o.num_configs = 1, o.configs = &cfg;
        if (c >= 2) cfg.window = EDAN_WINDOW_OFF;
        if (!make_pair(&o, 0, &a, &b)) return;
        rnd_state = 4242 + (uint64_t)c;
        for (i = 0; i < 6; i++) {
            const size_t len = 2 + 4 * i;
            for (j = 0; j < len; j++) {
                bi[i][j] = rnd_op_insn();
                CHECK(edan_prepare(b, &bi[i][j], &bp[i][j]) == EDAN_OK);
            }
            CHECK(edan_block_create(b, bp[i], len, &blk[i]) == EDAN_OK && blk[i]);
            if (blk[i] && blk[i]->compiled) steps += blk[i]->nstep, insns += len;
        }
        CHECK(insns > 0 && steps < insns);
        for (s = 0; s < 2000; s++) {
            const uint64_t r = rnd();
            const size_t len = 2 + 4 * (i = (size_t)(r % 6)), count = 1 + (size_t)(r >> 8) % 8;
            for (n = 0; n < count; n++)
                for (j = 0; j < len; j++) {
                    edan_insn in = bi[i][j];
                    if (in.mem) in.addr = addrs[n * len + j] = 0x100000 + 8 * (rnd() % 3000);
                    CHECK(edan_feed(a, &in) == EDAN_OK);
                }
            if (r & 1 << 12) {
                CHECK(edan_feed_block_n(b, blk[i], addrs, count, NULL) == EDAN_OK);
            } else {
                for (n = 0; n < count; n++) CHECK(edan_feed_block(b, blk[i], addrs + n * len) == EDAN_OK);
            }
            {   /* Tinf after each: a block's last vertex (a branch) often sets it */
                edan_metrics ma, mb;
                CHECK(edan_get_metrics(a, 0, &ma) == EDAN_OK && edan_get_metrics(b, 0, &mb) == EDAN_OK);
                if (ma.Tinf != mb.Tinf) tinf_differ++;
            }
        }
        CHECK_EQ_U(tinf_differ, 0);
        snprintf(what, sizeof what, "blocks of operations, %s, window %s", c % 2 ? "L1+L2" : "no cache",
                 c >= 2 ? "off" : "on");
        same_results(a, b, 1, what);
        for (i = 0; i < 6; i++) edan_block_destroy(blk[i]);
        edan_destroy(a);
        edan_destroy(b);
    }
}

/* edan_feed_block_n against its executions one call each: every result
   the same, without a cache, with two levels, three configurations, in
   two threads; copies were made for the short blocks, and none for the
   longest. */
static void test_block_runs(void)
{
    int c;
    for (c = 0; c < 4; c++) {
        static const edan_options defaults;
        edan_options o = defaults;
        edan_config cfg[3];
        edan_context *a = NULL, *b = NULL;
        int unrolled = 0, none = 0;
        const uint32_t K = c == 2 ? 3 : 1;
        char what[64];
        cfg[0] = cfg_of(c == 1 ? 2 : 0), cfg[1] = cfg_of(1), cfg[2] = cfg_of(2);
        o.num_configs = K, o.configs = cfg;
        o.window_m = 4;
        o.jobs = c == 3 ? 2 : 0;
        if (!make_pair(&o, 0, &a, &b)) return;
        feed_block_runs(a, 777 + (uint64_t)c, 3000, 0, &none);
        feed_block_runs(b, 777 + (uint64_t)c, 3000, 1, &unrolled);
        snprintf(what, sizeof what, "runs of a block, %s", c == 0 ? "no cache" : c == 1 ? "L1+L2" : c == 2 ? "3 configurations" : "jobs 2");
        same_results(a, b, K, what);
        CHECK_EQ_U(unrolled, 0xf);
        edan_destroy(a);
        edan_destroy(b);
    }
    {   /* an execution the unrolled copy does not take (an address that
           wraps, in the third of ten: the first eight are the copy's) fails
           as edan_feed_block does, the instructions before it fed */
        static const edan_options defaults;
        edan_context *ctx = NULL;
        edan_insn v[2];
        edan_prepared p[2];
        edan_block *blk = NULL;
        edan_metrics m0, m1;
        uint64_t addrs[20];
        size_t fed = 99;
        uint32_t j;
        CHECK(edan_create(&ctx, &defaults) == EDAN_OK);
        if (!ctx) return;
        for (j = 0; j < 2; j++) {
            memset(&v[j], 0, sizeof v[j]);
            v[j].op = 3, v[j].cls = EDAN_CLASS_LOAD, v[j].mem = EDAN_MEM_LOAD, v[j].size = 8, v[j].addr = 64;
            v[j].src[v[j].nsrc++] = 10, v[j].dst[v[j].ndst++] = (edan_reg)(11 + j);
            CHECK(edan_prepare(ctx, &v[j], &p[j]) == EDAN_OK);
        }
        CHECK(edan_block_create(ctx, p, 2, &blk) == EDAN_OK && blk);
        for (j = 0; j < 20; j++) addrs[j] = j % 2 ? 128 : 64;
        addrs[5] = UINT64_MAX - 2;
        CHECK(edan_get_metrics(ctx, 0, &m0) == EDAN_OK);
        CHECK(edan_feed_block_n(ctx, blk, addrs, 10, &fed) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(edan_error(ctx), "wraps around") != NULL);
        CHECK(blk->unroll && blk->unroll_k == 8);
        CHECK_EQ_U(fed, 5);     /* inside the unrolled copy's first group */
        CHECK(edan_get_metrics(ctx, 0, &m1) == EDAN_OK);
        CHECK_EQ_U(m1.N, m0.N + 5);
        addrs[5] = 128;
        CHECK(edan_feed_block_n(ctx, blk, addrs, 10, &fed) == EDAN_OK);
        CHECK_EQ_U(fed, 20);
        CHECK(edan_get_metrics(ctx, 0, &m0) == EDAN_OK);
        CHECK_EQ_U(m0.N, m1.N + 20);
        CHECK_EQ_U(m0.loads, m1.loads + 20);
        edan_destroy(ctx);
    }
}

/* The schedules' thread keeps its registers' finishes, with room for a
   block's vertices after them that grows with the longest block handed
   over (256 at first), and copies a vertex's second target's: against
   the schedules on the caller's thread, without a cache and with two
   levels. */
static void test_window_long_blocks(void)
{
    int c;
    for (c = 0; c < 2; c++) {
        static const edan_options defaults;
        edan_options o = defaults;
        edan_config cfg = cfg_of(c ? 2 : 0);
        edan_context *a = NULL, *b = NULL;
        o.num_configs = 1, o.configs = &cfg;
        o.window_m = 4;
        if (!make_pair(&o, 1, &a, &b)) return;
        feed_long_blocks(a, 4242 + (uint64_t)c, 1500);
        feed_long_blocks(b, 4242 + (uint64_t)c, 1500);
        CHECK(b->wq && b->wq->wplaces >= LONGN);
        same_results(a, b, 1, c ? "long blocks, L1+L2" : "long blocks, no cache");
        edan_destroy(a);
        edan_destroy(b);
        if (!make_pair(&o, 1, &a, &b)) return;
        feed_two_targets(a, 2000);
        feed_two_targets(b, 2000);
        CHECK(b->wq != NULL);
        same_results(a, b, 1, c ? "two targets, L1+L2" : "two targets, no cache");
        edan_destroy(a);
        edan_destroy(b);
    }
}

/* alpha near 2^32, a block of a RAM load and an operation on r4 in a
   chain, executed 70000 times: the schedules' thread widens its packed
   times before they pass 2^16 RAM latencies (edan__wq_blocks1's check);
   T and lambda exact, as on the caller's thread. */
static void test_window_long_latencies(void)
{
    static const edan_options defaults;
    edan_options o = defaults;
    edan_config cfg;
    edan_context *a = NULL, *b = NULL, *c[2];
    edan_insn in[2];
    edan_prepared p[2];
    const uint64_t alpha = 0xffffffffu, n = 70000;
    int j;
    memset(&cfg, 0, sizeof cfg);
    cfg.alpha = (uint32_t)alpha;
    o.num_configs = 1, o.configs = &cfg;
    o.window_m = 4;
    if (!make_pair(&o, 1, &a, &b)) return;
    c[0] = a, c[1] = b;
    memset(in, 0, sizeof in);
    in[0].pc = 0x1000, in[0].flags = EDAN_INSN_HAS_PC, in[0].op = 1, in[0].cls = EDAN_CLASS_LOAD;
    in[0].mem = EDAN_MEM_LOAD, in[0].size = 8, in[0].addr = 0x100000;
    in[0].src[in[0].nsrc++] = 4, in[0].dst[in[0].ndst++] = 1;
    in[1].pc = 0x1004, in[1].flags = EDAN_INSN_HAS_PC, in[1].op = 2, in[1].cls = EDAN_CLASS_INT_ALU;
    in[1].src[in[1].nsrc++] = 1, in[1].dst[in[1].ndst++] = 4;
    for (j = 0; j < 2; j++) {
        edan_block *blk = NULL;
        edan_window w;
        uint64_t i, addrs[2] = {0, 0};
        CHECK(edan_prepare(c[j], &in[0], &p[0]) == EDAN_OK && edan_prepare(c[j], &in[1], &p[1]) == EDAN_OK);
        CHECK(edan_block_create(c[j], p, 2, &blk) == EDAN_OK && blk);
        for (i = 0; i < n; i++) {
            addrs[0] = 0x100000 + 64 * (i % 4096);
            CHECK(edan_feed_block(c[j], blk, addrs) == EDAN_OK);
        }
        CHECK(edan_get_window(c[j], 0, 4, &w) == EDAN_OK);
        CHECK(w.lambda == n && w.T == n * (alpha + 1) && w.c == n);
        CHECK(!c[j]->wpk);
    }
    CHECK(b->wq != NULL);
    edan_destroy(a);
    edan_destroy(b);
}

/* A caller faster than the threads: they are held back until the caller
   waits for room, with the buffer full. */
typedef struct feeder { edan_context *ctx; size_t steps; } feeder;
static void *feeder_main(void *arg)
{
    feeder *f = (feeder *)arg;
    feed_trace(f->ctx, 777, f->steps);
    return NULL;
}

static void test_buffer_bound(void)
{
    edan_config cfg[3];
    edan_context *a, *b;
    edan__jobs *J;
    pthread_t th;
    feeder f;
    uint32_t k;
    uint64_t tail, pub;
    int joined;
    for (k = 0; k < 3; k++) cfg[k] = cfg_of(k);
    a = make(cfg, 3, 1, 0);
    b = make(cfg, 3, 3, 1);     /* the smallest buffer: 64 KiB */
    if (!a || !b || !b->jobs) return;
    J = b->jobs;
    CHECK_EQ_U(J->cap, 64 << 10);
    __atomic_store_n(&J->paused, 1, __ATOMIC_SEQ_CST);
    f.ctx = b;
    f.steps = 30000;        /* records of several MiB */
    if (pthread_create(&th, NULL, feeder_main, &f) != 0) {
        CHECK(!"pthread_create");
        return;
    }
    while (!__atomic_load_n(&J->waits, __ATOMIC_SEQ_CST)) sched_yield();     /* the caller found it full */
    tail = __atomic_load_n(&J->w[0].tail, __ATOMIC_SEQ_CST);
    pub = __atomic_load_n(&J->pub, __ATOMIC_SEQ_CST);
    __atomic_store_n(&J->paused, 0, __ATOMIC_SEQ_CST);
    edan__j_wake(J, &J->data);
    joined = pthread_join(th, NULL);        /* (checked after: the feeder checks too) */
    CHECK(joined == 0);
    CHECK(tail == 0);                       /* nothing was replayed while held back ... */
    CHECK(pub > 0 && pub <= J->cap);        /* ... and what had been handed over fitted */
    CHECK(J->waits > 1);
    CHECK(J->high <= J->cap);       /* never more bytes held than the buffer */
    CHECK(J->head > 16 * J->cap);   /* while far more went through it */
    feed_trace(a, 777, f.steps);
    same_results(a, b, 3, "a buffer of 64 KiB, held back");
    edan_destroy(a);
    edan_destroy(b);
}

/* A call larger than the buffer (a long edan_feed_many) goes through it in
   parts; one refused instruction in it stops every group at the same one,
   also when the caller's context holds a stand-in alone (jobs 2K + 1). */
static void test_large_calls(void)
{
    edan_config cfg[2];
    static edan_insn v[40000];
    uint32_t jobs;
    size_t i;
    cfg[0] = cfg_of(1);
    cfg[1] = cfg_of(2);
    rnd_state = 99;
    for (i = 0; i < 40000; i++) v[i] = rnd_insn();
    v[30000].op = EDAN_MAX_OP;
    for (jobs = 2; jobs <= 5; jobs += 3) {
        edan_context *a = make(cfg, 2, 1, 0), *b = make(cfg, 2, jobs, 1);
        size_t fa = 0, fb = 0;
        if (!a || !b) return;
        CHECK(b->jobs && b->jobs->base == (jobs == 5));
        CHECK(edan_feed_many(a, v, 40000, &fa) == EDAN_ERR_INVALID_ARG);
        CHECK(edan_feed_many(b, v, 40000, &fb) == EDAN_ERR_INVALID_ARG);
        CHECK(fa == 30000 && fb == 30000);
        CHECK(!strcmp(edan_error(a), edan_error(b)));
        same_results(a, b, 2, jobs == 5 ? "a call larger than the buffer, a stand-in" : "a call larger than the buffer");
        edan_destroy(a);
        edan_destroy(b);
    }
}

/* A stand-in only counts a compiled block's executions: one whose access
   wraps around the address space is refused as jobs 1 refuses it (the same
   text, the same instructions fed before it), and the counts go on alike. */
static void test_standin_refusal(void)
{
    edan_config cfg = cfg_of(2);
    edan_context *c[2];
    char err[2][256];
    size_t fed[2];
    edan_result r[2];
    int j;
    for (j = 0; j < 2; j++) {
        edan_insn v[2];
        edan_prepared p[2];
        edan_block *blk = NULL;
        uint64_t addrs[20];
        uint32_t q;
        c[j] = make(&cfg, 1, j ? 3 : 1, 0);
        if (!c[j]) return;
        CHECK(!j || (c[j]->jobs && c[j]->standin));
        for (q = 0; q < 2; q++) {
            memset(&v[q], 0, sizeof v[q]);
            v[q].op = 3, v[q].cls = EDAN_CLASS_LOAD, v[q].mem = EDAN_MEM_LOAD, v[q].size = 8, v[q].addr = 64;
            v[q].src[v[q].nsrc++] = 10, v[q].dst[v[q].ndst++] = (edan_reg)(11 + q);
            CHECK(edan_prepare(c[j], &v[q], &p[q]) == EDAN_OK);
        }
        CHECK(edan_block_create(c[j], p, 2, &blk) == EDAN_OK && blk);
        CHECK(!j || (blk && blk->compiled));    /* the stand-in's way, not the engine's */
        for (q = 0; q < 20; q++) addrs[q] = 0x1000 + 8 * q;
        CHECK(edan_feed_block_n(c[j], blk, addrs, 10, NULL) == EDAN_OK);
        addrs[13] = UINT64_MAX - 2;
        fed[j] = 99;
        r[j] = edan_feed_block_n(c[j], blk, addrs, 10, &fed[j]);
        snprintf(err[j], sizeof err[j], "%s", edan_error(c[j]));
        addrs[13] = 0x1000;
        CHECK(edan_feed_block_n(c[j], blk, addrs, 10, NULL) == EDAN_OK);
    }
    CHECK(r[0] == EDAN_ERR_INVALID_ARG && r[1] == r[0]);
    CHECK(fed[0] == 13 && fed[1] == fed[0]);
    CHECK(strstr(err[0], "wraps around") != NULL && !strcmp(err[0], err[1]));
    same_results(c[0], c[1], 1, "a stand-in's refusal of a block's execution");
    edan_destroy(c[0]);
    edan_destroy(c[1]);
}

/* With a stand-in in the caller's context (jobs 2K + 1) a configuration
   keeps its number: a getter's refusal names it as jobs 1's does, and
   one past the last is refused. Two configurations, one without a
   windowed schedule, alike in groups (jobs 2 and 4). */
static void test_standin_numbers(void)
{
    edan_config cfg[2];
    edan_context *a, *b;
    edan_window wa, wb;
    uint32_t jobs;
    cfg[0] = cfg_of(2);
    cfg[1] = cfg_of(1);
    cfg[1].window = EDAN_WINDOW_OFF;
    a = make(cfg, 2, 1, 0);
    b = make(cfg, 2, 5, 0);
    if (!a || !b) return;
    CHECK(b->jobs && b->jobs->base == 1 && b->jobs->nw == 2 && edan_num_configs(b) == 2);
    feed_trace(a, 31, 3000);
    feed_trace(b, 31, 3000);
    CHECK(edan_get_window(a, 1, 4, &wa) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_get_window(b, 1, 4, &wb) == EDAN_ERR_INVALID_ARG);
    CHECK(!strcmp(edan_error(a), "config 1 has no windowed schedule"));
    CHECK(!strcmp(edan_error(a), edan_error(b)));
    CHECK(edan_get_window(b, 0, 4, &wb) == EDAN_OK);
    CHECK(edan_get_config(b, 2) == NULL && edan_get_config(b, 1) && edan_get_config(b, 1)->window == EDAN_WINDOW_OFF);
    CHECK(edan_get_metrics(b, 2, &(edan_metrics){0}) == EDAN_ERR_INVALID_ARG);
    same_results(a, b, 2, "a stand-in, a configuration without a schedule");
    edan_destroy(a);
    edan_destroy(b);
    /* and in groups: one configuration's blocks compiled (no schedule), the
       other's fed one by one (its schedule and hotspots), every count the
       same (the edges across threads differed so once) */
    for (jobs = 2; jobs <= 4; jobs += 2) {
        a = make(cfg, 2, 1, 0);
        b = make(cfg, 2, jobs, 0);
        if (!a || !b) return;
        feed_trace(a, 32, 3000);
        feed_trace(b, 32, 3000);
        same_results(a, b, 2, jobs == 2 ? "groups, a configuration without a schedule" : "groups of one with their schedules' threads, a configuration without a schedule");
        edan_destroy(a);
        edan_destroy(b);
    }
}

/* What an engine thread reads or writes at every step is a cache line
   (64 bytes) away from what the caller's thread writes as it feeds (the
   layout, not a timing: the speed is measured by tests/bench/bench_jobs.sh).
   Fails when a field is moved across its line_apart. */
#define GAP(T, after, before) (offsetof(T, before) - (offsetof(T, after) + sizeof(((T *)0)->after)))
static void test_lines_apart(void)
{
    unsigned char *p;
    /* the context: the threads' th and schedule fields; the caller's forwarding state and registers
       written other than by a block (wreg_dirty) */
    CHECK(GAP(edan_context, th, fw) >= 64);
    CHECK(GAP(edan_context, forwarded, wn) >= 64);
    CHECK(GAP(edan_context, wseg_n, jobs) >= 64);
    CHECK(offsetof(edan_context, fw) < offsetof(edan_context, wn) &&
          offsetof(edan_context, wn) < offsetof(edan_context, wcur) &&
          offsetof(edan_context, wcur) < offsetof(edan_context, wreg_dirty));
    /* a block: what the schedules' thread reads of it, and the count of its runs */
    CHECK(GAP(edan_block, wF, runs) >= 64);
    CHECK(offsetof(edan_block, runs) + sizeof(uint64_t) == sizeof(edan_block));
    /* a configuration: the schedules' fields, and the counts its vertices change */
    CHECK(GAP(edan__cfg, wfirst, lv) >= 64);
    /* the groups' ring: what the threads read, and what the caller writes at every call */
    CHECK(GAP(edan__jobs, msg, head) >= 64);
    CHECK(offsetof(edan__jobs, pub) < offsetof(edan__jobs, head) && offsetof(edan__jobs, ring) < offsetof(edan__jobs, head));
    /* memory apart: 64 bytes before and after, zeroed */
    {
        edan_allocator a;
        memset(&a, 0, sizeof a);
        p = (unsigned char *)edan__calloc_apart(&a, 24);
        CHECK(p != NULL);
        if (p) {
            size_t i;
            int zero = 1;
            for (i = 0; i < 24 + 64; i++) zero &= p[-64 + (long)i] == 0 && p[i] == 0;
            CHECK(zero);
            edan__free_apart(&a, p);
        }
    }
}

int main(void)
{
    test_lines_apart();
    test_same_results();
    test_window_thread();
    test_window_long_blocks();
    test_window_long_latencies();
    test_block_runs();
    test_block_ops();
    test_buffer_bound();
    test_large_calls();
    test_standin_numbers();
    test_standin_refusal();
#ifdef EDAN_WINDOW_PACK_LIMIT
    return check_summary("test_jobs_wide");
#else
    return check_summary("test_jobs");
#endif
}
#else
int main(void)
{
    printf("SKIP test_jobs: edan.h built without POSIX threads\n");
    return 0;
}
#endif
