/* Tests of the eDAG engine against the model's rules: the worked checks of
   the paper, one test per rule, and a randomised differential test against a
   deliberately naive implementation that builds the whole graph. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"

/* ---- instruction builders (ISA-neutral; register ids as RISC-V's) ------ */
enum { ZERO = 0, RA = 1, SP = 2, A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14, A5 = 15 };

static edan_insn alu(edan_reg d, edan_reg s1, edan_reg s2)
{
    edan_insn in;
    memset(&in, 0, sizeof in);
    in.cls = EDAN_CLASS_INT_ALU;
    if (s1) in.src[in.nsrc++] = s1;
    if (s2) in.src[in.nsrc++] = s2;
    if (d) in.dst[in.ndst++] = d;
    return in;
}
static edan_insn load(edan_reg d, edan_reg base, uint64_t addr, uint16_t size)
{
    edan_insn in = alu(d, base, 0);
    in.cls = EDAN_CLASS_LOAD;
    in.mem = EDAN_MEM_LOAD;
    in.addr = addr;
    in.size = size;
    return in;
}
static edan_insn store(edan_reg val, edan_reg base, uint64_t addr, uint16_t size)
{
    edan_insn in = alu(0, val, base);
    in.cls = EDAN_CLASS_STORE;
    in.mem = EDAN_MEM_STORE;
    in.addr = addr;
    in.size = size;
    return in;
}
static edan_insn amo(edan_reg d, edan_reg base, edan_reg val, uint64_t addr, uint16_t size)
{
    edan_insn in = alu(d, base, val);
    in.cls = EDAN_CLASS_AMO;
    in.mem = EDAN_MEM_AMO;
    in.addr = addr;
    in.size = size;
    return in;
}

static edan_context *make(const edan_config *cfgs, uint32_t n)
{
    edan_options o;
    edan_context *ctx = NULL;
    memset(&o, 0, sizeof o);
    o.num_configs = n;
    o.configs = cfgs;
    o.hotspots = 1;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    return ctx;
}
static void feed(edan_context *ctx, const edan_insn *v, size_t n)
{
    size_t fed = 0;
    CHECK(edan_feed_many(ctx, v, n, &fed) == EDAN_OK && fed == n);
}
static edan_metrics metrics(edan_context *ctx, uint32_t k)
{
    edan_metrics m;
    CHECK(edan_get_metrics(ctx, k, &m) == EDAN_OK);
    return m;
}
/* W_i of configuration k */
static uint64_t layer(edan_context *ctx, uint32_t k, uint64_t i)
{
    uint64_t w = ~(uint64_t)0;
    CHECK(edan_get_layers(ctx, k, i, &w, 1) == EDAN_OK);
    return w;
}
static edan_bounds bounds(edan_context *ctx, uint32_t k, uint32_t m)
{
    edan_bounds b;
    CHECK(edan_get_bounds(ctx, k, m, &b) == EDAN_OK);
    return b;
}
static edan_config cache_cfg(uint64_t size, uint32_t assoc, uint32_t line, edan_write_policy wp)
{
    edan_config c;
    memset(&c, 0, sizeof c);
    c.num_levels = 1;
    c.level[0].size = size;
    c.level[0].assoc = assoc;
    c.level[0].line = line;
    c.write_policy = wp;
    return c;
}

/* ---- paper Fig. 4/5/7: the summation kernel, n = 4 --------------------- */
static void test_summation(void)
{
    edan_insn v[2 + 4 * 4];
    size_t n = 0;
    int i;
    edan_config c;
    edan_context *ctx;
    edan_metrics m;
    memset(&c, 0, sizeof c);
    c.alpha = 1;
    v[n++] = alu(A3, A0, A1);       /* add a3,a0,a1 */
    v[n++] = alu(A0, ZERO, 0);      /* mv a0,zero */
    for (i = 0; i < 4; i++) {
        v[n++] = load(A4, A5, 0x40080290 + 4 * (uint64_t)i, 4);  /* lw a4,0(a5) */
        v[n++] = alu(A5, A5, 0);                                  /* addi a5,a5,4 */
        v[n++] = alu(A0, A0, A4);                                 /* addw a0,a0,a4 */
        v[n++] = alu(0, A3, A5);                                  /* bne a3,a5,... */
        v[n - 1].cls = EDAN_CLASS_BRANCH;
    }
    ctx = make(&c, 1);
    feed(ctx, v, n);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.N, 18);
    CHECK_EQ_U(m.W, 4);
    CHECK_EQ_U(m.D, 1);
    CHECK_EQ_U(layer(ctx, 0, 1), 4);
    CHECK_EQ_U(m.C, 14);            /* unit costs: the 14 other vertices */
    CHECK_EQ_U(m.T1, 18);           /* alpha = 1 */
    /* edges: add->bne x4; mv->addw0; lw_i->addw_i; addw chain x3; addi chain x3;
       addi_i->lw_{i+1} x3; addi_i->bne_i x4 */
    CHECK_EQ_U(m.E, 4 + 1 + 4 + 3 + 3 + 3 + 4);
    /* critical path: addi chain 4 long, then lw of iteration... a5 chain gives
       lw4 at depth 4 (3 addi + lw), addw4 at 5 */
    CHECK_EQ_U(m.Tinf, 5);
    {
        const uint64_t *cnt = NULL;
        size_t nops = 0;
        CHECK(edan_get_op_counts(ctx, &cnt, &nops) == EDAN_OK);
        CHECK(nops >= 1);
        CHECK_EQ_U(cnt[0], 18);     /* the builders leave op = 0 */
    }
    edan_destroy(ctx);
}

/* ---- paper Fig. 8 ------------------------------------------------------- */
static void test_fig8(void)
{
    edan_insn chain[3], indep[3];
    edan_context *ctx;
    edan_metrics m;
    edan_bounds b;
    uint32_t mm;
    chain[0] = load(A1, A0, 0x1000, 8);
    chain[1] = load(A2, A1, 0x2000, 8);
    chain[2] = load(A3, A2, 0x3000, 8);
    ctx = make(NULL, 0);
    feed(ctx, chain, 3);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 3);
    CHECK_EQ_U(m.D, 3);
    CHECK_EQ_U(m.chained, 2);
    for (mm = 1; mm <= 16; mm++) {
        b = bounds(ctx, 0, mm);
        CHECK_NEAR(b.lambda, 3.0, 1e-12);
    }
    edan_destroy(ctx);

    indep[0] = load(A1, A0, 0x1000, 8);
    indep[1] = load(A2, A0, 0x2000, 8);
    indep[2] = load(A3, A0, 0x3000, 8);
    ctx = make(NULL, 0);
    feed(ctx, indep, 3);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 3);
    CHECK_EQ_U(m.D, 1);
    for (mm = 1; mm <= 16; mm++) {
        b = bounds(ctx, 0, mm);
        CHECK_NEAR(b.lambda, 2.0 / mm + 1.0, 1e-12);
        CHECK_NEAR(b.M_layered, (double)((3 + mm - 1) / mm) * 200.0, 1e-9);
        if (mm >= 3) CHECK_NEAR(b.M_layered, 200.0, 1e-9);
    }
    CHECK_NEAR(bounds(ctx, 0, 1).lambda, 3.0, 1e-12);
    edan_destroy(ctx);
}

/* ---- x0 is a constant --------------------------------------------------- */
static void test_x0(void)
{
    edan_insn v[3];
    edan_context *ctx = make(NULL, 0);
    edan_metrics m;
    v[0] = alu(ZERO, A0, 0);        /* write to x0: dropped */
    v[0].dst[0] = 0; v[0].ndst = 1;
    v[1] = alu(A1, ZERO, 0);        /* read of x0: no edge */
    v[1].src[0] = 0; v[1].nsrc = 1;
    v[2] = alu(A2, A1, 0);
    feed(ctx, v, 3);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.E, 1);             /* only v1 -> v2 */
    CHECK_EQ_U(m.Tinf, 2);
    edan_destroy(ctx);
}

/* ---- instructions that write two registers (x86: a result and RFLAGS) --------
   A reader of both makes one edge, whether their writer ran in its block or
   before it (two live-ins with one writer), compiled or fed one by one.
   Block A: a0 r3, r4 <- r1; a1 r5 <- r4 (from a0: its second target);
            a2 r7 <- r3, r4 (one edge, from a0).
   Block B: b0 r6 <- r3, r4 (live-ins, one writer a0: one edge);
            b1 r1 <- r5, r6 (a1 and b0: two edges).
   A B A B: A's first a0 reads r1 unwritten, the second r1 from b1: E = (0 + 1
   + 1) + (1 + 2) + (1 + 1 + 1) + (1 + 2) = 11 over N = 10; the longest path
   a0 a1 b1 a0 a1 b1 has six vertices: Tinf = 6 with unit costs. */
static void test_two_targets(void)
{
    edan_insn A[3], B[2];
    edan_prepared pa[3], pb[2];
    int way;
    A[0] = alu(3, 1, 0);
    A[0].dst[A[0].ndst++] = 4;
    A[1] = alu(5, 4, 0);
    A[2] = alu(7, 3, 4);
    B[0] = alu(6, 3, 4);
    B[1] = alu(1, 5, 6);
    for (way = 0; way < 3; way++) {     /* edan_feed; blocks; blocks with hotspots (the general copy) */
        edan_options o;
        edan_context *ctx;
        edan_block *ba = NULL, *bb = NULL;
        edan_metrics m;
        int rep;
        memset(&o, 0, sizeof o);
        o.hotspots = way == 2;
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        if (way) {
            CHECK(edan_prepare(ctx, &A[0], &pa[0]) == EDAN_OK && edan_prepare(ctx, &A[1], &pa[1]) == EDAN_OK &&
                  edan_prepare(ctx, &A[2], &pa[2]) == EDAN_OK);
            CHECK(edan_prepare(ctx, &B[0], &pb[0]) == EDAN_OK && edan_prepare(ctx, &B[1], &pb[1]) == EDAN_OK);
            CHECK(edan_block_create(ctx, pa, 3, &ba) == EDAN_OK && edan_block_create(ctx, pb, 2, &bb) == EDAN_OK);
        }
        for (rep = 0; rep < 2; rep++) {
            if (way) {
                CHECK(edan_feed_block(ctx, ba, NULL) == EDAN_OK);
                CHECK(edan_feed_block(ctx, bb, NULL) == EDAN_OK);
            } else {
                feed(ctx, A, 3);
                feed(ctx, B, 2);
            }
        }
        m = metrics(ctx, 0);
        CHECK_EQ_U(m.N, 10);
        CHECK_EQ_U(m.E, 11);
        CHECK_EQ_U(m.Tinf, 6);
        edan_block_destroy(ba);
        edan_block_destroy(bb);
        edan_destroy(ctx);
    }
}

/* ---- a load fed by several stores; partial overlap ------------------------ */
static void test_byte_overlap(void)
{
    edan_insn v[8];
    edan_context *ctx;
    edan_metrics m;
    edan_config c;
    memset(&c, 0, sizeof c);
    c.alpha = 10;
    ctx = make(&c, 1);
    v[0] = alu(A1, 0, 0);                       /* 1 */
    v[1] = alu(A2, 0, 0);                       /* 1 */
    v[2] = store(A1, SP, 0x100, 4);             /* bytes 100..103, F = 1 + 10 */
    v[3] = store(A2, SP, 0x104, 2);             /* bytes 104..105 */
    v[4] = load(A3, SP, 0x102, 4);              /* 102..105: depends on both stores */
    v[5] = load(A4, SP, 0x106, 2);              /* 106..107: never written: no memory edge */
    v[6] = store(A4, SP, 0x103, 1);             /* overwrites byte 103 only */
    v[7] = load(A5, SP, 0x100, 8);              /* 100..107: v2 (100-102), v6 (103), v3 (104-105) */
    feed(ctx, v, 8);
    m = metrics(ctx, 0);
    /* edges: v0->v2, v1->v3, v2->v4, v3->v4, v4? no; v5->v6, v2->v7, v6->v7, v3->v7 */
    CHECK_EQ_U(m.E, 8);
    CHECK_EQ_U(m.W, 6);
    /* depth: v4 depends on stores (md 1) -> md 2; v7 depends on v6 which
       depends on v5 (load, md 1) -> v6 md 2 -> v7 md 3 */
    CHECK_EQ_U(m.D, 3);
    CHECK_EQ_U(layer(ctx, 0, 1), 3);    /* v2, v3, v5 */
    CHECK_EQ_U(layer(ctx, 0, 2), 2);    /* v4, v6 */
    CHECK_EQ_U(layer(ctx, 0, 3), 1);    /* v7 */
    CHECK_EQ_U(layer(ctx, 0, 4), 0);    /* past D */
    CHECK_EQ_U(m.Tinf, 30);         /* v5 -> v6 -> v7: 10 + 10 + 10 (v0 -> v2 -> v4 is 21) */
    edan_destroy(ctx);
}

/* ---- straddling lines ---------------------------------------------------- */
static void test_straddle(void)
{
    edan_config c = cache_cfg(1024, 2, 64, EDAN_WRITE_BACK);
    edan_context *ctx = make(&c, 1);
    edan_insn v[3];
    edan_metrics m;
    v[0] = load(A1, A0, 60, 8);     /* lines 0 and 1: both miss */
    v[1] = load(A2, A0, 64, 8);     /* line 1: hit */
    v[2] = load(A3, A0, 120, 16);   /* lines 1 (hit) and 2 (miss) */
    feed(ctx, v, 3);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 2);
    CHECK_EQ_U(m.ram_lines, 3);
    CHECK_EQ_U(m.bytes, 3 * 64);
    CHECK_EQ_U(m.level_hits[0], 2);
    edan_destroy(ctx);
}

/* The page's example of an access across lines: a vector sum of 8,192
   doubles offset by one double, 16 bytes a load, 32K cache of 64-byte
   lines. Every fourth load straddles two lines: it hits the line the
   straddler before it is bringing from RAM and misses the next. Its RAM
   request does not wait for that fill, so each straddler lies at depth 1:
   D = 1 (with the fill joined at its start, as before the rule, each line
   waited for the one before: D = 1,024, the number of lines). W = 1,024:
   each line comes from RAM once. */
static void test_straddle_row(void)
{
    edan_config c = cache_cfg(32768, 8, 64, EDAN_WRITE_BACK);
    edan_context *ctx = make(&c, 1);
    const uint64_t base = 0x100000;
    edan_metrics m;
    uint32_t i;
    for (i = 0; i < 4095; i++) {
        edan_insn v[2];
        v[0] = load(A1, A0, base + 8 + 16 * (uint64_t)i, 16);
        v[1] = alu(A2, A2, A1);
        feed(ctx, v, 2);
    }
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 1024);
    CHECK_EQ_U(m.ram_lines, 1024);
    CHECK(m.D <= 2);
    CHECK_EQ_U(m.D, 1);
    edan_destroy(ctx);
}

/* ---- write-back vs write-through ---------------------------------------- */
static void test_write_policy(void)
{
    edan_config c[2];
    edan_context *ctx;
    edan_insn v[64];
    edan_metrics wb, wt;
    size_t n = 0;
    int i;
    c[0] = cache_cfg(128, 1, 64, EDAN_WRITE_BACK);     /* 2 sets, direct mapped */
    c[1] = cache_cfg(128, 1, 64, EDAN_WRITE_THROUGH);
    ctx = make(c, 2);
    v[n++] = store(A1, A0, 0, 8);       /* wb: miss (RFO), fill, dirty; wt: memory vertex, no fill */
    v[n++] = store(A1, A0, 8, 8);       /* wb: hit; wt: memory vertex */
    v[n++] = load(A2, A0, 16, 8);       /* wb: hit; wt: miss, fill */
    v[n++] = load(A2, A0, 128, 8);      /* set 0 conflict: evicts line 0 (dirty in wb: write-back) */
    for (i = 0; i < 4; i++) v[n++] = load(A3, A0, 64 + 8 * (uint64_t)i, 8);   /* set 1 */
    feed(ctx, v, n);
    wb = metrics(ctx, 0);
    wt = metrics(ctx, 1);
    CHECK_EQ_U(wb.W, 3);                /* store miss, load 128 miss, load 64 miss */
    CHECK_EQ_U(wb.writebacks, 1);
    CHECK_EQ_U(wb.bytes, 3 * 64 + 64);  /* three fills + one dirty eviction */
    CHECK_EQ_U(wt.W, 5);                /* two stores + loads 16, 128, 64 */
    CHECK_EQ_U(wt.writebacks, 0);
    CHECK_EQ_U(wt.bytes, 8 + 8 + 3 * 64);
    edan_destroy(ctx);
}

/* ---- AMO: a load and a store of the same bytes, one vertex --------------- */
static void test_amo(void)
{
    edan_context *ctx = make(NULL, 0);
    edan_insn v[4];
    edan_metrics m;
    v[0] = store(A1, A0, 0x40, 4);
    v[1] = amo(A2, A0, A3, 0x40, 4);    /* reads the store's bytes, writes them */
    v[2] = load(A4, A0, 0x40, 4);       /* depends on the AMO */
    v[3] = alu(A5, A2, 0);              /* depends on the AMO's register result */
    feed(ctx, v, 4);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 3);
    CHECK_EQ_U(m.D, 3);
    CHECK_EQ_U(m.E, 3);
    CHECK_EQ_U(m.amos, 1);
    CHECK_EQ_U(m.load_bytes, 4 + 4);    /* the AMO and the load */
    CHECK_EQ_U(m.store_bytes, 4 + 4);   /* the store and the AMO */
    edan_destroy(ctx);
}

/* Instructions with several accesses, worked by hand: a chain of
   read-modify-writes of one word (x86 `add [m], r`) is a chain of memory
   vertices; an instruction that loads bytes it stored itself (a push then
   a pop of the same slot, in one) has no edge for them; with a cache, a
   later read-modify-write of the line depends on the one that brought it. */
static void test_several_accesses(void)
{
    edan_context *ctx = make(NULL, 0);
    edan_insn x = alu(A1, A1, A2);
    edan_access rmw[2], own[2];
    edan_metrics m;
    edan_config c;
    rmw[0].addr = rmw[1].addr = 0x1000;
    rmw[0].size = rmw[1].size = 8;
    rmw[0].kind = EDAN_MEM_LOAD;
    rmw[1].kind = EDAN_MEM_STORE;
    own[0] = rmw[1];
    own[1] = rmw[0];
    own[0].addr = own[1].addr = 0x2000;         /* a store, then a load of the same bytes */
    x.ndst = 0;                                 /* only memory is written: a chain through memory alone */
    x.nsrc = 1;
    x.src[0] = A2;
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_OK);
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_OK);
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_OK);
    CHECK(edan_feed_accesses(ctx, &x, own, 2) == EDAN_OK);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.N, 4);
    CHECK_EQ_U(m.W, 4);
    CHECK_EQ_U(m.D, 3);                         /* 1 -> 2 -> 3; the fourth has md 1 */
    CHECK_EQ_U(m.E, 2);
    CHECK_EQ_U(m.amos, 4);                      /* each loads and stores */
    CHECK_EQ_U(m.load_bytes, 32);
    CHECK_EQ_U(m.store_bytes, 32);
    CHECK_EQ_U(m.bytes, 4 * 16);                /* no cache: every access's size */
    edan_destroy(ctx);

    /* L1 of 1 KiB, 64-byte lines: the first one's load misses (its store
       then hits the line it filled itself: no edge), the next two hit the
       line the first filled: the second's memory and fill edge are one edge
       (to the first), the third has a memory edge to the second and a fill
       edge to the first */
    memset(&c, 0, sizeof c);
    c.num_levels = 1;
    c.level[0].size = 1024;
    c.level[0].assoc = 2;
    c.level[0].line = 64;
    c.level[0].latency = 4;
    ctx = make(&c, 1);
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_OK);
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_OK);
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_OK);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 1);
    CHECK_EQ_U(m.D, 1);
    CHECK_EQ_U(m.E, 3);
    CHECK_EQ_U(m.fill_edges, 1);
    CHECK_EQ_U(m.Tinf, 200 + 4 + 4);
    CHECK_EQ_U(m.level_hits[0], 5);             /* the first's store, both accesses of the others */
    edan_destroy(ctx);

    /* bad lists: no list, an access of no bytes, of a kind that is neither */
    ctx = make(NULL, 0);
    CHECK(edan_feed_accesses(ctx, &x, NULL, 2) == EDAN_ERR_INVALID_ARG);
    rmw[1].size = 0;
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_ERR_INVALID_ARG && strstr(edan_error(ctx), "access 1"));
    rmw[1].size = 8;
    rmw[1].kind = EDAN_MEM_AMO;
    CHECK(edan_feed_accesses(ctx, &x, rmw, 2) == EDAN_ERR_INVALID_ARG);
    edan_destroy(ctx);
}

/* ---- costs, hit latency, timeline, hotspots -------------------------------- */
static void test_costs_and_timeline(void)
{
    edan_config c;
    edan_context *ctx;
    edan_insn v[4];
    edan_metrics m;
    const uint64_t *bins;
    size_t nb, i;
    memset(&c, 0, sizeof c);
    c.alpha = 100;
    c.cost[EDAN_CLASS_FP_FMA] = 4;
    c.tau = 50;
    ctx = make(&c, 1);
    v[0] = load(A1, A0, 0, 8);          /* S 0, F 100, w 8 */
    v[1] = alu(A2, A1, 0);
    v[1].cls = EDAN_CLASS_FP_FMA;       /* S 100, F 104 */
    v[2] = store(A2, A0, 8, 8);         /* S 104, F 204, w 8 */
    v[3] = load(A3, A0, 16, 8);         /* S 0, F 100, w 8 */
    feed(ctx, v, 4);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.Tinf, 204);
    CHECK_EQ_U(m.C, 4);
    CHECK_EQ_U(m.T1, 304);
    CHECK_EQ_U(m.bytes, 24);
    CHECK(edan_get_timeline(ctx, 0, &bins, &nb) == EDAN_OK);
    CHECK_EQ_U(nb, 6);                  /* ceil(204/50) + 1 */
    {
        /* U_i = sum w over S <= 50 i <= F */
        uint64_t want[6] = {16, 16, 16, 8, 8, 0};
        for (i = 0; i < nb; i++) CHECK_EQ_U(bins[i], want[i]);
    }
    edan_destroy(ctx);

    /* hit latency: the slowest level serving a straddling access */
    memset(&c, 0, sizeof c);
    c.num_levels = 2;
    c.level[0].size = 128; c.level[0].assoc = 1; c.level[0].line = 64; c.level[0].latency = 4;
    c.level[1].size = 1024; c.level[1].assoc = 4; c.level[1].line = 64; c.level[1].latency = 12;
    ctx = make(&c, 1);
    v[0] = load(A1, A0, 0, 8);          /* miss: L1, L2 filled */
    v[1] = load(A1, A0, 64, 8);         /* miss */
    v[2] = load(A1, A0, 128, 8);        /* miss, evicts line 0 from L1 (set 0) */
    v[3] = load(A2, A0, 60, 8);         /* line 0 from L2 (12), line 1 from L1 (4) */
    feed(ctx, v, 4);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 3);
    CHECK_EQ_U(m.C, 12);
    CHECK_EQ_U(m.level_hits[0], 1);
    CHECK_EQ_U(m.level_hits[1], 1);
    edan_destroy(ctx);
}

static void test_hotspots(void)
{
    edan_context *ctx = make(NULL, 0);
    edan_insn v;
    edan_hotspot h[4];
    size_t n, i;
    /* pointer chase at pc 0x100, independent loads at pc 0x200 */
    for (i = 0; i < 10; i++) {
        v = load(A1, A1, 0x1000 + 64 * i, 8);
        v.pc = 0x100; v.flags = EDAN_INSN_HAS_PC;
        feed(ctx, &v, 1);
        v = load(A2, A0, 0x9000 + 64 * i, 8);
        v.pc = 0x200; v.flags = EDAN_INSN_HAS_PC;
        feed(ctx, &v, 1);
    }
    CHECK(edan_get_hotspots(ctx, 0, h, 4, &n) == EDAN_OK);
    CHECK_EQ_U(n, 2);
    CHECK_EQ_U(h[0].key, 0x100);
    CHECK_EQ_U(h[0].chained, 9);
    CHECK_EQ_U(h[0].max_md, 10);
    CHECK_EQ_U(h[1].key, 0x200);
    CHECK_EQ_U(h[1].chained, 0);
    CHECK_EQ_U(h[1].mem_vertices, 10);
    edan_destroy(ctx);
}

/* Many keys, many ties: every top list, short or longer than the keys,
   is the reference order (chained, then mem_vertices, the most first,
   then the smallest key) computed here. */
static int hot_cmp(const void *x, const void *y)
{
    const edan_hotspot *a = (const edan_hotspot *)x, *b = (const edan_hotspot *)y;
    if (a->chained != b->chained) return a->chained > b->chained ? -1 : 1;
    if (a->mem_vertices != b->mem_vertices) return a->mem_vertices > b->mem_vertices ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}
static void test_many_hotspots(void)
{
    enum { KEYS = 20000 };
    static edan_hotspot ref[KEYS], got[KEYS + 5];
    static const size_t tops[] = {1, 2, 3, 100, 777, KEYS - 1, KEYS, KEYS + 5};
    edan_context *ctx = make(NULL, 0);
    edan_insn v;
    uint64_t s = 12345;
    size_t i, t, n;
    /* key 0: the load that gives A1 its writer: every later load based on A1 is chained */
    v = load(A1, A0, 0x200000, 8);
    v.flags = EDAN_INSN_HAS_PC;
    feed(ctx, &v, 1);
    memset(ref, 0, sizeof ref);
    ref[0].mem_vertices = 1;
    for (i = 1; i < KEYS; i++) {
        /* PCs in a scattered order, 1..4 loads each, some chained: few
           distinct counts, many ties */
        uint64_t pc = 4 * (1 + (i * 7919) % (KEYS - 1));
        uint32_t execs, e;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        execs = 1 + (uint32_t)(s >> 62);
        ref[i].key = pc;
        ref[i].mem_vertices = execs;
        for (e = 0; e < execs; e++) {
            int chain = (s >> (33 + e)) & 1;
            v = load(chain ? A1 : A2, chain ? A1 : A0, 0x100000 + 8 * (i % 512), 8);
            v.pc = pc;
            v.flags = EDAN_INSN_HAS_PC;
            feed(ctx, &v, 1);
            ref[i].chained += (uint64_t)chain;
        }
    }
    qsort(ref, KEYS, sizeof ref[0], hot_cmp);
    for (t = 0; t < sizeof tops / sizeof tops[0]; t++) {
        size_t want = tops[t] < (size_t)KEYS ? tops[t] : (size_t)KEYS;
        CHECK(edan_get_hotspots(ctx, 0, got, tops[t], &n) == EDAN_OK);
        CHECK_EQ_U(n, want);
        for (i = 0; i < want && i < n; i++)
            if (got[i].key != ref[i].key || got[i].chained != ref[i].chained ||
                got[i].mem_vertices != ref[i].mem_vertices) {
                fprintf(stderr, "top %zu, place %zu:\n", tops[t], i);
                CHECK_EQ_U(got[i].key, ref[i].key);
                CHECK_EQ_U(got[i].chained, ref[i].chained);
                CHECK_EQ_U(got[i].mem_vertices, ref[i].mem_vertices);
                break;
            }
    }
    CHECK(edan_get_hotspots(ctx, 0, NULL, 0, &n) == EDAN_OK);     /* max 0: how many keys there are */
    CHECK_EQ_U(n, KEYS);
    edan_destroy(ctx);
}

/* ---- bad input to the engine ---------------------------------------------- */
/* A free hook given without its alloc and realloc. */
static void free_alone(void *p, void *user)
{
    (void)user;
    free(p);
}

static void test_errors(void)
{
    edan_context *ctx = make(NULL, 0), *other;
    edan_insn v = load(A1, A0, 0, 0);
    edan_prepared p;
    edan_config c;
    edan_options o;
    const uint64_t a64 = 64;
    CHECK(edan_feed(ctx, &v) == EDAN_ERR_INVALID_ARG);
    CHECK(strstr(edan_error(ctx), "bad memory access") != NULL);
    v = load(A1, A0, UINT64_MAX - 2, 8);
    CHECK(edan_feed(ctx, &v) == EDAN_ERR_INVALID_ARG);
    {   /* a run: the count fed says which one was at fault */
        edan_insn run[3];
        size_t fed = 99;
        run[0] = alu(A1, A0, 0);
        run[1] = load(A2, A1, 64, 8);
        run[2] = load(A1, A0, UINT64_MAX - 2, 8);
        CHECK(edan_feed_many(ctx, run, 3, &fed) == EDAN_ERR_INVALID_ARG && fed == 2);
        CHECK(edan_feed_many(ctx, run, 2, NULL) == EDAN_OK);
    }
    v = alu(A1, 4000, 0);
    CHECK(edan_feed(ctx, &v) == EDAN_OK);       /* 4000 < EDAN_RV_NUM_REGS */
    v = alu(A1, 60000, 0);
    CHECK(edan_feed(ctx, &v) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_prepare(ctx, &v, &p) == EDAN_ERR_INVALID_ARG);
    CHECK(strstr(edan_error(ctx), "register id 60000") != NULL);
    /* a prepared instruction: the address is still checked per execution,
       and it belongs to the context that prepared it */
    v = load(A1, A0, 0, 8);
    CHECK(edan_prepare(ctx, &v, &p) == EDAN_OK);
    {
        uint64_t wraps = UINT64_MAX - 2;
        CHECK(edan_feed_prepared_n(ctx, &p, &wraps, 1, NULL) == EDAN_ERR_INVALID_ARG);
    }
    CHECK(strstr(edan_error(ctx), "wraps around") != NULL);
    CHECK(edan_feed_prepared_n(ctx, &p, &a64, 1, NULL) == EDAN_OK);
    other = make(NULL, 0);
    CHECK(edan_feed_prepared_n(other, &p, &a64, 1, NULL) == EDAN_ERR_INVALID_ARG);
    CHECK(strstr(edan_error(other), "another context") != NULL);
    {   /* a run of prepared instructions: the same checks, those before the one at fault fed */
        edan_prepared run[2];
        uint64_t addrs[2] = {64, UINT64_MAX - 2};
        edan_metrics m0, m1;
        size_t fed = 99;
        run[0] = p;
        CHECK(edan_prepare(other, &v, &run[1]) == EDAN_OK);
        edan_get_metrics(ctx, 0, &m0);
        CHECK(edan_feed_prepared_n(ctx, run, addrs, 2, &fed) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(edan_error(ctx), "another context") != NULL);
        CHECK_EQ_U(fed, 1);     /* the index of the one at fault */
        CHECK(edan_feed_prepared_n(ctx, run, NULL, 1, NULL) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(edan_error(ctx), "without an address") != NULL);
        edan_get_metrics(ctx, 0, &m1);
        CHECK_EQ_U(m1.N, m0.N + 1);         /* run[0] of the first call */
        run[1] = p;
        CHECK(edan_feed_prepared_n(ctx, run, addrs, 2, &fed) == EDAN_ERR_INVALID_ARG);   /* the second wraps */
        CHECK(strstr(edan_error(ctx), "wraps around") != NULL);
        CHECK_EQ_U(fed, 1);
        edan_get_metrics(ctx, 0, &m1);
        CHECK_EQ_U(m1.N, m0.N + 2);
        addrs[1] = 128;
        CHECK(edan_feed_prepared_n(ctx, run, addrs, 2, &fed) == EDAN_OK);
        CHECK_EQ_U(fed, 2);
    }
    {   /* a block: made of this context's instructions, fed to it only; an
           execution the compiled form does not take (an address that wraps)
           fails as edan_feed_prepared_n does, the instructions before fed */
        edan_prepared run[2];
        edan_block *b = NULL;
        uint64_t addrs[2] = {64, UINT64_MAX - 2};
        edan_metrics m0, m1;
        run[0] = p;
        CHECK(edan_prepare(other, &v, &run[1]) == EDAN_OK);
        CHECK(edan_block_create(ctx, run, 2, &b) == EDAN_ERR_INVALID_ARG && !b);
        CHECK(strstr(edan_error(ctx), "another context") != NULL);
        run[1] = p;
        CHECK(edan_block_create(ctx, run, 2, &b) == EDAN_OK && b);
        CHECK(edan_feed_block(other, b, addrs) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(edan_error(other), "another context") != NULL);
        CHECK(edan_feed_block(ctx, b, NULL) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(edan_error(ctx), "without an address") != NULL);
        edan_get_metrics(ctx, 0, &m0);
        CHECK(edan_feed_block(ctx, b, addrs) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(edan_error(ctx), "wraps around") != NULL);
        edan_get_metrics(ctx, 0, &m1);
        CHECK_EQ_U(m1.N, m0.N + 1);
        addrs[1] = 128;
        CHECK(edan_feed_block(ctx, b, addrs) == EDAN_OK);
        edan_get_metrics(ctx, 0, &m1);
        CHECK_EQ_U(m1.N, m0.N + 3);
        CHECK_EQ_U(m1.loads, m0.loads + 3);
        {   /* runs of executions (edan_feed_block_n): the same refusals; one
               that wraps in the third stops there, the two before fed
               (test_jobs: the same through an unrolled copy) */
            uint64_t run_addrs[8] = {64, 128, 64, 128, 64, UINT64_MAX - 2, 64, 128};
            size_t fed = 99;
            CHECK(edan_feed_block_n(other, b, run_addrs, 4, &fed) == EDAN_ERR_INVALID_ARG);
            CHECK_EQ_U(fed, 0);
            CHECK(strstr(edan_error(other), "another context") != NULL);
            CHECK(edan_feed_block_n(ctx, NULL, run_addrs, 4, NULL) == EDAN_ERR_INVALID_ARG);
            CHECK(edan_feed_block_n(ctx, b, NULL, 4, NULL) == EDAN_ERR_INVALID_ARG);
            CHECK(edan_feed_block_n(ctx, b, run_addrs, 0, NULL) == EDAN_OK);
            edan_get_metrics(ctx, 0, &m0);
            CHECK(edan_feed_block_n(ctx, b, run_addrs, 4, &fed) == EDAN_ERR_INVALID_ARG);
            CHECK(strstr(edan_error(ctx), "wraps around") != NULL);
            CHECK_EQ_U(fed, 5);     /* execution 5 / 2, its instruction 5 % 2 */
            edan_get_metrics(ctx, 0, &m1);
            CHECK_EQ_U(m1.N, m0.N + 5);
            CHECK(edan_feed_block_n(ctx, b, run_addrs + 6, 1, &fed) == EDAN_OK);
            CHECK_EQ_U(fed, 2);
        }
    }
    edan_destroy(other);
    edan_destroy(ctx);
    c = cache_cfg(1000, 2, 64, EDAN_WRITE_BACK);
    memset(&o, 0, sizeof o);
    o.num_configs = 1;
    o.configs = &c;
    ctx = NULL;
    CHECK(edan_create(&ctx, &o) == EDAN_ERR_INVALID_ARG);
    CHECK(ctx && strstr(edan_error(ctx), "not a multiple") != NULL);
    edan_destroy(ctx);
    /* every option it cannot take: a context that says which (it leaked
       or said nothing for these before); an allocator given in part: NULL */
    memset(&o, 0, sizeof o);
    o.num_configs = 2;
    CHECK(edan_create(&ctx, &o) == EDAN_ERR_INVALID_ARG);
    CHECK(ctx && strstr(edan_error(ctx), "configs is NULL") != NULL);
    edan_destroy(ctx);
    memset(&o, 0, sizeof o);
    o.num_configs = EDAN_MAX_CONFIGS + 1;
    o.configs = &c;
    CHECK(edan_create(&ctx, &o) == EDAN_ERR_INVALID_ARG);
    CHECK(ctx && strstr(edan_error(ctx), "at most") != NULL);
    edan_destroy(ctx);
    memset(&o, 0, sizeof o);
    o.num_m = 2;
    o.m[0] = 4;
    CHECK(edan_create(&ctx, &o) == EDAN_ERR_INVALID_ARG);
    CHECK(ctx && strstr(edan_error(ctx), "m[1] is 0") != NULL);
    edan_destroy(ctx);
    memset(&o, 0, sizeof o);
    o.num_m = EDAN_MAX_M + 1;
    CHECK(edan_create(&ctx, &o) == EDAN_ERR_INVALID_ARG);
    CHECK(ctx && strstr(edan_error(ctx), "num_m") != NULL);
    edan_destroy(ctx);
    memset(&o, 0, sizeof o);
    o.allocator.free = free_alone;
    ctx = (edan_context *)&o;
    CHECK(edan_create(&ctx, &o) == EDAN_ERR_INVALID_ARG && ctx == NULL);
}

/* ---- memory is bounded by the footprint, not the trace length ------------- */
typedef struct { size_t live, peak; } counting;
static void *c_alloc(size_t n, void *u)
{
    counting *c = (counting *)u;
    size_t *p = (size_t *)malloc(n + 16);
    if (!p) return NULL;
    p[0] = n;
    c->live += n;
    if (c->live > c->peak) c->peak = c->live;
    return (char *)p + 16;
}
static void c_free(void *q, void *u)
{
    counting *c = (counting *)u;
    size_t *p;
    if (!q) return;
    p = (size_t *)((char *)q - 16);
    c->live -= p[0];
    free(p);
}
static void *c_realloc(void *q, size_t n, void *u)
{
    void *r = c_alloc(n, u);
    if (r && q) {
        size_t old = ((size_t *)((char *)q - 16))[0];
        memcpy(r, q, old < n ? old : n);
        c_free(q, u);
    }
    return r;
}
/* A zeroed o with the counting allocator on c. */
static void counted(edan_options *o, counting *c)
{
    memset(o, 0, sizeof *o);
    o->allocator.alloc = c_alloc;
    o->allocator.realloc = c_realloc;
    o->allocator.free = c_free;
    o->allocator.user = c;
}
/* ---- threads: registers per thread, memory shared ------------------------ */
static edan_thread_metrics thread_of(edan_context *ctx, uint32_t t)
{
    edan_thread_metrics m;
    memset(&m, 0, sizeof m);
    CHECK(edan_get_thread_metrics(ctx, 0, t, &m) == EDAN_OK);
    return m;
}

/* The whole program's W, D and E. */
static void check_wde(edan_context *ctx, uint64_t W, uint64_t D, uint64_t E)
{
    edan_metrics m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, W);
    CHECK_EQ_U(m.D, D);
    CHECK_EQ_U(m.E, E);
}

static void test_threads(void)
{
    edan_context *ctx;
    edan_metrics m;
    edan_thread_metrics t0, t1, t2, t3;
    edan_insn v;
    int i;
    /* Two threads chasing their own lists through the same register r1,
       interleaved: 5 and 3 loads, each chained to its own thread's last.
       One register file would chain all 8. W 8, D 5, E 4 + 2. */
    ctx = make(NULL, 0);
    CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK);
    for (i = 0; i < 8; i++) {
        uint32_t t = i < 6 ? (uint32_t)(i % 2) : 0;
        CHECK(edan_thread_switch(ctx, t) == EDAN_OK);
        v = load(1, 1, 0x1000 + 0x100 * t + 8 * (uint64_t)i, 8);
        feed(ctx, &v, 1);
    }
    check_wde(ctx, 8, 5, 6);
    t0 = thread_of(ctx, 0);
    t1 = thread_of(ctx, 1);
    CHECK_EQ_U(t0.N, 5); CHECK_EQ_U(t0.W, 5); CHECK_EQ_U(t0.D, 5); CHECK_EQ_U(t0.chained, 4);
    CHECK_EQ_U(t1.N, 3); CHECK_EQ_U(t1.W, 3); CHECK_EQ_U(t1.D, 3); CHECK_EQ_U(t1.chained, 2);
    CHECK_EQ_U(t0.cross_edges + t1.cross_edges, 0);     /* no value passes between them */
    CHECK_EQ_U(edan_num_threads(ctx), 2);
    edan_destroy(ctx);

    /* A hand-off through memory: thread 0 chases 4 nodes and stores its
       pointer (md 5); thread 1 loads it (md 6) and chases 3 more: D = 9,
       the sum. Thread 1's D counts the chain through thread 0. */
    ctx = make(NULL, 0);
    CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK);
    for (i = 0; i < 4; i++) { v = load(1, 1, 0x2000 + 8 * (uint64_t)i, 8); feed(ctx, &v, 1); }
    v = store(1, 0, 0x3000, 8);
    feed(ctx, &v, 1);
    CHECK(edan_thread_exit(ctx, 0) == EDAN_OK);
    CHECK(edan_thread_switch(ctx, 1) == EDAN_OK);
    v = load(2, 0, 0x3000, 8);
    feed(ctx, &v, 1);
    for (i = 0; i < 3; i++) { v = load(2, 2, 0x4000 + 8 * (uint64_t)i, 8); feed(ctx, &v, 1); }
    check_wde(ctx, 9, 9, 8);
    t0 = thread_of(ctx, 0);
    t1 = thread_of(ctx, 1);
    CHECK_EQ_U(t0.W, 5); CHECK_EQ_U(t0.D, 5); CHECK(!t0.live);
    CHECK_EQ_U(t1.W, 4); CHECK_EQ_U(t1.D, 9); CHECK(t1.live);
    CHECK_EQ_U(t0.cross_edges, 0); CHECK_EQ_U(t1.cross_edges, 1);     /* the pointer's load from the store */
    edan_destroy(ctx);

    /* A parallel for: thread 0 starts threads 1..3, thread t chases t + 1
       nodes of its own chunk, round robin. W = 2 + 3 + 4, D = 4 (the
       largest chunk's); thread 0 ran nothing. */
    ctx = make(NULL, 0);
    for (i = 1; i <= 3; i++) CHECK(edan_thread_create(ctx, 0, (uint32_t)i) == EDAN_OK);
    for (i = 0; i < 4; i++) {
        uint32_t t;
        for (t = 1; t <= 3; t++) {
            if ((uint32_t)i > t) continue;
            CHECK(edan_thread_switch(ctx, t) == EDAN_OK);
            v = load(1, 1, 0x10000 * t + 8 * (uint64_t)i, 8);
            feed(ctx, &v, 1);
        }
    }
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.W, 9);
    CHECK_EQ_U(m.D, 4);
    t0 = thread_of(ctx, 0);
    t1 = thread_of(ctx, 1);
    t2 = thread_of(ctx, 2);
    t3 = thread_of(ctx, 3);
    CHECK_EQ_U(t0.N, 0);
    CHECK_EQ_U(t1.D, 2); CHECK_EQ_U(t2.D, 3); CHECK_EQ_U(t3.D, 4);
    CHECK_EQ_U(t1.W + t2.W + t3.W, 9);
    edan_destroy(ctx);

    /* A new thread starts from its creator's register writers at its
       creation: thread 1 reads r5, which thread 0 loaded before creating
       it and overwrote after: an edge from the load, md 2. */
    ctx = make(NULL, 0);
    v = load(5, 0, 0x5000, 8);
    feed(ctx, &v, 1);
    CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK);
    v = alu(5, 0, 0);
    feed(ctx, &v, 1);
    CHECK(edan_thread_switch(ctx, 1) == EDAN_OK);
    v = load(6, 5, 0x6000, 8);
    feed(ctx, &v, 1);
    CHECK(edan_thread_switch(ctx, 0) == EDAN_OK);
    v = load(7, 5, 0x7000, 8);      /* thread 0's r5: the alu, no memory vertex */
    feed(ctx, &v, 1);
    m = metrics(ctx, 0);
    CHECK_EQ_U(m.D, 2);
    CHECK_EQ_U(m.E, 2);
    CHECK_EQ_U(thread_of(ctx, 1).D, 2);
    CHECK_EQ_U(thread_of(ctx, 0).D, 1);
    CHECK_EQ_U(thread_of(ctx, 1).cross_edges, 1);   /* r5 from thread 0's load */
    CHECK_EQ_U(thread_of(ctx, 0).cross_edges, 0);
    /* thread 1, not running now, starts thread 2: its writers, saved */
    CHECK(edan_thread_create(ctx, 1, 2) == EDAN_OK);
    CHECK(edan_thread_switch(ctx, 2) == EDAN_OK);
    v = load(8, 6, 0x8000, 8);      /* thread 1's r6: its load, md 2 */
    feed(ctx, &v, 1);
    CHECK_EQ_U(thread_of(ctx, 2).D, 3);
    CHECK_EQ_U(thread_of(ctx, 2).cross_edges, 1);
    CHECK(edan_thread_switch(ctx, 0) == EDAN_OK);

    /* cross-thread edges on the compiled and the several-access ways:
       thread 0 writes r4 (v1) and stores it at 0x9000 (v2); thread 1,
       started after, runs a block twice: a load of 0x9000 (an edge from
       v2) and an add of r4 (inherited: from v1) and the load, 2 cross
       edges an execution; then one instruction loading 0x9000 and 0xa000
       (edan_feed_accesses): 1 more. E = 1 + 2 * 3 + 1 */
    {
        edan_context *c3 = make(NULL, 0);
        edan_insn bi[2], x;
        edan_prepared bp[2];
        edan_block *blk = NULL;
        edan_access acc[2] = {{0x9000, 8, EDAN_MEM_LOAD}, {0xa000, 8, EDAN_MEM_LOAD}};
        const uint64_t addrs[2] = {0x9000, 0};
        v = alu(4, 0, 0);
        feed(c3, &v, 1);
        v = store(4, 0, 0x9000, 8);
        feed(c3, &v, 1);
        CHECK(edan_thread_create(c3, 0, 1) == EDAN_OK);
        CHECK(edan_thread_switch(c3, 1) == EDAN_OK);
        bi[0] = load(5, 0, 0x9000, 8);
        bi[1] = alu(6, 4, 5);
        CHECK(edan_prepare(c3, &bi[0], &bp[0]) == EDAN_OK && edan_prepare(c3, &bi[1], &bp[1]) == EDAN_OK);
        CHECK(edan_block_create(c3, bp, 2, &blk) == EDAN_OK);
        CHECK(edan_feed_block(c3, blk, addrs) == EDAN_OK);
        CHECK(edan_feed_block(c3, blk, addrs) == EDAN_OK);
        CHECK_EQ_U(thread_of(c3, 1).cross_edges, 4);
        x = load(7, 0, 0x9000, 8);
        CHECK(edan_feed_accesses(c3, &x, acc, 2) == EDAN_OK);
        CHECK_EQ_U(thread_of(c3, 1).cross_edges, 5);
        CHECK_EQ_U(thread_of(c3, 0).cross_edges, 0);
        CHECK_EQ_U(metrics(c3, 0).E, 8);
        edan_block_destroy(blk);
        edan_destroy(c3);
    }

    /* a compiled block run by two threads: its live-in r1 has a writer in
       thread 0 and none in thread 1 (started before it was written), so
       the block's edges from its live-ins differ: E = (1 + 1) + (0 + 1) */
    {
        edan_context *c2 = make(NULL, 0);
        edan_insn bi[2];
        edan_prepared bp[2];
        edan_block *blk = NULL;
        CHECK(edan_thread_create(c2, 0, 1) == EDAN_OK);
        v = alu(1, 0, 0);
        feed(c2, &v, 1);
        bi[0] = alu(2, 1, 0);
        bi[1] = alu(3, 2, 0);
        CHECK(edan_prepare(c2, &bi[0], &bp[0]) == EDAN_OK && edan_prepare(c2, &bi[1], &bp[1]) == EDAN_OK);
        CHECK(edan_block_create(c2, bp, 2, &blk) == EDAN_OK);
        CHECK(edan_feed_block(c2, blk, NULL) == EDAN_OK);
        CHECK(edan_thread_switch(c2, 1) == EDAN_OK);
        CHECK(edan_feed_block(c2, blk, NULL) == EDAN_OK);
        CHECK_EQ_U(metrics(c2, 0).E, 3);
        edan_block_destroy(blk);
        edan_destroy(c2);
    }

    /* bad calls: named, refused, nothing changed */
    CHECK(edan_thread_switch(ctx, 7) == EDAN_ERR_INVALID_ARG && strstr(edan_error(ctx), "thread 7"));
    CHECK(edan_thread_create(ctx, 0, 1) == EDAN_ERR_INVALID_ARG && strstr(edan_error(ctx), "used once"));
    CHECK(edan_thread_create(ctx, 9, 10) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_thread_create(ctx, 0, EDAN_MAX_THREADS) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_thread_exit(ctx, 1) == EDAN_OK);
    CHECK(edan_thread_switch(ctx, 1) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_get_thread_metrics(ctx, 0, 5, &t0) == EDAN_ERR_INVALID_ARG);
    edan_destroy(ctx);
}

/* 1000 short-lived threads (each started, run, ended) keep no registers:
   memory after them is what 10 left plus their counts. */
/* The windowed schedule with alpha near 2^32: its times, packed into one
   word while every k is below 2^16 and every v below 2^48, are widened to
   pairs before a chain of RAM loads passes those bounds; T and lambda
   stay exact past them (packed on, both would be wrong). */
static void test_window_long_latencies(void)
{
    static const edan_options defaults;
    edan_options o = defaults;
    edan_config c;
    edan_context *ctx = NULL;
    edan_window w;
    const uint64_t alpha = 0xffffffffu, n = 70000;
    uint64_t i;
    memset(&c, 0, sizeof c);
    c.alpha = (uint32_t)alpha;
    c.cost[EDAN_CLASS_INT_ALU] = 3;
    o.num_configs = 1;
    o.configs = &c;
    o.window_m = 4;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    for (i = 0; i < n; i++) {
        edan_insn ld = load(A1, A0, 0x100000 + 64 * (i % 4096), 8), op = alu(A0, A1, 0);
        CHECK(edan_feed(ctx, &ld) == EDAN_OK);
        CHECK(edan_feed(ctx, &op) == EDAN_OK);
    }
    CHECK(edan_get_window(ctx, 0, 4, &w) == EDAN_OK);
    CHECK(w.lambda == n);
    CHECK(w.T == n * (alpha + 3));
    CHECK(w.c == 3 * n);
    edan_destroy(ctx);
}

static void test_thread_churn(void)
{
    counting cnt = {0, 0};
    edan_options o;
    edan_context *ctx;
    size_t after10 = 0;
    uint32_t t;
    counted(&o, &cnt);
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    for (t = 1; t <= 1000; t++) {
        edan_insn v = load(1, 1, 0x1000 + 8 * (uint64_t)(t % 64), 8);
        CHECK(edan_thread_create(ctx, 0, t) == EDAN_OK);
        CHECK(edan_thread_switch(ctx, t) == EDAN_OK);
        CHECK(edan_feed(ctx, &v) == EDAN_OK);
        CHECK(edan_thread_switch(ctx, 0) == EDAN_OK);
        CHECK(edan_thread_exit(ctx, t) == EDAN_OK);
        if (t == 10) after10 = cnt.live;
    }
    /* per ended thread: its entry and counts (well under 256 bytes), its
       windowed schedules' last retirements (16 bytes at each of the 5 m's,
       a head and its place in a table under 64) and those at the ends of
       the two stretches it makes (its own, thread 0's after it), its
       registers and its windows freed; the tables double */
    CHECK(cnt.live < after10 + 1000 * (256 + 64 + 5 * 16 + 2 * 5 * 16));
    CHECK_EQ_U(edan_num_threads(ctx), 1001);
    CHECK_EQ_U(thread_of(ctx, 500).N, 1);
    edan_destroy(ctx);
    CHECK_EQ_U(cnt.live, 0);
}

/* ---- signals: a handler runs on the interrupted thread's registers ------ */
/* A chase of n loads (a0 = a0->next) interrupted every `every` loads by a
   handler that loads a counter into a0 and a1, adds and stores it, after
   the kernel set a0 and a1 for it (killed): with the handler's return the
   chase's a0 is its last load again, so D = n (the handler's loads are
   independent of the chase; each but the first takes the counter from the
   store buffer, the previous handler's store being the thread's last:
   W = n + 1 + a store per handler). Fed through edan_feed or compiled
   blocks (the restored a0 is a block's live-in). */
static void test_signals(void)
{
    static const edan_reg set_by_kernel[] = {A0, A1, SP};
    edan_insn chase = load(A0, A0, 0, 8), h[3];
    edan_prepared p, hp[3];
    edan_block *b = NULL, *hb = NULL;
    edan_context *ctx;
    uint32_t round, i, nsig = 0;
    const uint32_t n = 1000, every = 37;
    h[0] = load(A0, ZERO, 0x9000, 8);
    h[1] = alu(A1, A0, A0);
    h[2] = store(A1, ZERO, 0x9000, 8);
    for (round = 0; round < 3; round++) {     /* 0: edan_feed; 1: blocks; 2: the handler dropped, not returned from */
        ctx = make(NULL, 0);
        CHECK(edan_prepare(ctx, &chase, &p) == EDAN_OK);
        for (i = 0; i < 3; i++) CHECK(edan_prepare(ctx, &h[i], &hp[i]) == EDAN_OK);
        CHECK(edan_block_create(ctx, &p, 1, &b) == EDAN_OK && edan_block_create(ctx, hp, 3, &hb) == EDAN_OK);
        nsig = 0;
        for (i = 0; i < n; i++) {
            uint64_t a = 0x100000 + 64 * (uint64_t)i, ha[3] = {0x9000, 0, 0x9000};
            chase.addr = a;
            if (round == 1) CHECK(edan_feed_block(ctx, b, &a) == EDAN_OK);
            else CHECK(edan_feed(ctx, &chase) == EDAN_OK);
            if (i % every != 5) continue;
            CHECK(edan_signal_deliver(ctx) == EDAN_OK);
            CHECK_EQ_U(edan_signal_depth(ctx), 1);
            CHECK(edan_kill_regs(ctx, set_by_kernel, 3) == EDAN_OK);
            if (round == 1) CHECK(edan_feed_block(ctx, hb, ha) == EDAN_OK);
            else CHECK(edan_feed_many(ctx, h, 3, NULL) == EDAN_OK);
            CHECK((round == 2 ? edan_signal_drop(ctx) : edan_signal_return(ctx)) == EDAN_OK);
            CHECK_EQ_U(edan_signal_depth(ctx), 0);
            nsig++;
        }
        CHECK(nsig > 20);
        CHECK_EQ_U(metrics(ctx, 0).W, n + 1 + nsig);
        CHECK_EQ_U(metrics(ctx, 0).forwarded, nsig - 1);
        /* dropped: the chase's a0 is the handler's load after each one, whose md is 1 +
           the counter's last store's: the chains restart, D far below n */
        if (round == 2) CHECK(metrics(ctx, 0).D < n / 2);
        else CHECK_EQ_U(metrics(ctx, 0).D, n);
        edan_destroy(ctx);
    }

    /* nested handlers each get their own registers back; a return or drop
       with none running is refused and changes nothing; beyond
       EDAN_MAX_SIGNAL_DEPTH the oldest is forgotten */
    ctx = make(NULL, 0);
    CHECK(edan_signal_return(ctx) == EDAN_ERR_INVALID_ARG && strstr(edan_error(ctx), "no signal handler"));
    CHECK(edan_signal_drop(ctx) == EDAN_ERR_INVALID_ARG);
    chase.addr = 0x100000;
    CHECK(edan_feed(ctx, &chase) == EDAN_OK);           /* a0: md 1 */
    CHECK(edan_signal_deliver(ctx) == EDAN_OK);
    chase.addr = 0x100040;
    CHECK(edan_feed(ctx, &chase) == EDAN_OK);           /* a0: md 2, in the first handler */
    CHECK(edan_signal_deliver(ctx) == EDAN_OK);
    CHECK(edan_kill_regs(ctx, set_by_kernel, 1) == EDAN_OK);
    CHECK(edan_signal_return(ctx) == EDAN_OK);          /* a0: md 2 again */
    chase.addr = 0x100080;
    CHECK(edan_feed(ctx, &chase) == EDAN_OK);           /* md 3 */
    CHECK(edan_signal_return(ctx) == EDAN_OK);          /* a0: md 1 */
    chase.addr = 0x1000c0;
    CHECK(edan_feed(ctx, &chase) == EDAN_OK);           /* md 2 */
    CHECK_EQ_U(metrics(ctx, 0).D, 3);
    CHECK_EQ_U(layer(ctx, 0, 2), 2);
    for (i = 0; i < EDAN_MAX_SIGNAL_DEPTH + 5; i++) CHECK(edan_signal_deliver(ctx) == EDAN_OK);
    CHECK_EQ_U(edan_signal_depth(ctx), EDAN_MAX_SIGNAL_DEPTH);
    for (i = 0; i < EDAN_MAX_SIGNAL_DEPTH; i++) CHECK(edan_signal_return(ctx) == EDAN_OK);
    CHECK(edan_signal_return(ctx) == EDAN_ERR_INVALID_ARG);
    edan_destroy(ctx);

    /* a compiled block's live-in written in the handler and not before: no
       writer after the return (E counts the handler's edge alone) */
    ctx = make(NULL, 0);
    CHECK(edan_prepare(ctx, &chase, &p) == EDAN_OK && edan_block_create(ctx, &p, 1, &b) == EDAN_OK);
    CHECK(edan_signal_deliver(ctx) == EDAN_OK);
    h[1] = alu(A0, 0, 0);
    CHECK(edan_feed(ctx, &h[1]) == EDAN_OK);
    {
        uint64_t a = 0x100000;
        CHECK(edan_feed_block(ctx, b, &a) == EDAN_OK);      /* a0 from the alu: an edge */
        CHECK(edan_signal_return(ctx) == EDAN_OK);
        a = 0x200000;
        CHECK(edan_feed_block(ctx, b, &a) == EDAN_OK);      /* a0 has no writer again: none */
    }
    CHECK_EQ_U(metrics(ctx, 0).E, 1);
    CHECK_EQ_U(metrics(ctx, 0).D, 1);
    edan_destroy(ctx);

    /* per thread: thread 1's handler does not touch thread 0's saved state;
       a thread that exits with handlers running frees them */
    ctx = make(NULL, 0);
    CHECK(edan_signal_deliver(ctx) == EDAN_OK);
    CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK && edan_thread_switch(ctx, 1) == EDAN_OK);
    CHECK_EQ_U(edan_signal_depth(ctx), 0);
    CHECK(edan_signal_return(ctx) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_signal_deliver(ctx) == EDAN_OK && edan_signal_deliver(ctx) == EDAN_OK);
    CHECK(edan_thread_exit(ctx, 1) == EDAN_OK);
    CHECK(edan_signal_deliver(ctx) == EDAN_ERR_INVALID_ARG && strstr(edan_error(ctx), "no thread is running"));
    CHECK(edan_thread_switch(ctx, 0) == EDAN_OK);
    CHECK_EQ_U(edan_signal_depth(ctx), 1);
    CHECK(edan_signal_return(ctx) == EDAN_OK);
    edan_destroy(ctx);
}

static void test_bounded_memory(void)
{
    counting cnt = {0, 0};
    edan_options o;
    edan_config c[2];
    edan_context *ctx;
    edan_insn v;
    size_t peak1 = 0;
    uint64_t i;
    counted(&o, &cnt);
    c[0] = cache_cfg(0, 0, 0, EDAN_WRITE_BACK);
    c[0].num_levels = 0;
    c[1] = cache_cfg(4096, 4, 64, EDAN_WRITE_BACK);
    o.num_configs = 2;
    o.configs = c;
    o.hotspots = 1;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    for (i = 0; i < 2200000; i++) {
        uint64_t a = (i * 40503u) % 16384;      /* a 16 KiB footprint, visited in a scattered order */
        /* whole words, and parts of words (split words, records shared by bytes) */
        if (i % 3 == 0) v = i % 2 ? store(A1, A0, a & ~7ull, 8) : store(A1, A0, a, (uint16_t)(1 + (i % 11)));
        else if (i % 3 == 1) v = load(A2, A0, a, (uint16_t)(1 + (i % 8)));
        else v = alu(A1, A1, 0);
        v.pc = 0x1000 + 4 * (i % 64);
        v.flags = EDAN_INSN_HAS_PC;
        CHECK(edan_feed(ctx, &v) == EDAN_OK);
        if (i == 200000 - 1) peak1 = cnt.peak;
    }
    CHECK(cnt.peak <= peak1);
    CHECK(cnt.peak < 4u << 20);
    edan_destroy(ctx);
    CHECK_EQ_U(cnt.live, 0);
}

/* Shadow memory grows with the words written, not the pages touched: a
   page with one word written costs tens of bytes, a page written whole no
   more than an entry per word (24 bytes with one configuration). */
static void test_sparse_pages(void)
{
    counting cnt = {0, 0};
    edan_options o;
    edan_context *ctx;
    edan_insn v;
    size_t empty;
    uint64_t i;
    counted(&o, &cnt);
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    v = alu(A1, 0, 0);
    CHECK(edan_feed(ctx, &v) == EDAN_OK);
    empty = cnt.live;
    for (i = 0; i < 20000; i++) {       /* one word in each of 20,000 pages */
        v = store(A1, A0, 0x10000000 + 4096 * i + 8 * (i % 512), 8);
        CHECK(edan_feed(ctx, &v) == EDAN_OK);
    }
    CHECK(cnt.live - empty < 20000 * 100);
    empty = cnt.live;
    for (i = 0; i < 64 * 512; i++) {    /* 64 pages written whole */
        v = store(A1, A0, 0x80000000 + 8 * i, 8);
        CHECK(edan_feed(ctx, &v) == EDAN_OK);
    }
    CHECK(cnt.live - empty <= 64 * 512 * 24 + 2 * 4096);
    v = load(A2, A0, 0x10000000 + 4096 * 77 + 8 * 77, 8);     /* the word written there */
    CHECK(edan_feed(ctx, &v) == EDAN_OK);
    CHECK_EQ_U(metrics(ctx, 0).E, 20000 + 64 * 512 + 1);
    edan_destroy(ctx);
    CHECK_EQ_U(cnt.live, 0);
}

/* Shadow memory's limit (edan_options.shadow_limit): a feed that needs more
   fails with EDAN_ERR_LIMIT and a message that names the option, on every
   way of feeding, whether the words are in many pages, in one array, or
   written in parts (their records). */
static void test_shadow_limit(void)
{
    uint32_t way;
    for (way = 0; way < 8; way++) {
        edan_options o;
        edan_config c[2];
        edan_context *ctx;
        edan_insn v;
        edan_prepared p;
        edan_block *b = NULL;
        edan_result r = EDAN_OK;
        uint64_t i;
        memset(&o, 0, sizeof o);
        memset(c, 0, sizeof c);
        o.shadow_limit = 1u << 20;
        if (way == 1) {         /* the general copy */
            o.num_configs = 2;
            o.configs = c;
        }
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        v = store(A1, A0, 0, 8);
        CHECK(edan_prepare(ctx, &v, &p) == EDAN_OK);
        if (way == 3) CHECK(edan_block_create(ctx, &p, 1, &b) == EDAN_OK);
        for (i = 0; i < 1000000 && r == EDAN_OK; i++) {
            const uint64_t a = way == 5 ? 8 * i : 0x10000000 + 4096 * i;   /* an array, or a page each */
            v.addr = a;
            if (way == 6) {     /* a byte of a word each: a record and a split each */
                v.addr = 8 * i + 3;
                v.size = 1;
            }
            switch (way) {
            case 2: r = edan_feed_prepared_n(ctx, &p, &a, 1, NULL); break;
            case 3: r = edan_feed_block(ctx, b, &a); break;
            case 4: {
                edan_access acc[2];
                acc[0].addr = a;
                acc[0].size = 8;
                acc[0].kind = EDAN_MEM_LOAD;
                acc[1] = acc[0];
                acc[1].kind = EDAN_MEM_STORE;
                r = edan_feed_accesses(ctx, &v, acc, 2);
                break;
            }
            case 7:             /* a second thread's stores */
                if (!i) CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK && edan_thread_switch(ctx, 1) == EDAN_OK);
                /* fall through */
            default: r = edan_feed(ctx, &v); break;
            }
        }
        CHECK_EQ_U(r, EDAN_ERR_LIMIT);
        CHECK(i > (way == 5 ? 30000 : 6000) && i < 100000);    /* tens of bytes a page, 24 an array's word */
        CHECK(strstr(edan_error(ctx), "shadow_limit") != NULL && strstr(edan_error(ctx), "1048576") != NULL);
        if (check_failures) fprintf(stderr, "way %u: %llu fed: %s\n", way, (unsigned long long)i, edan_error(ctx));
        {   /* the context is failed: every later feeding call says so and changes nothing */
            edan_metrics m0, m1;
            edan_insn op = alu(A2, A1, 0);
            const edan_reg kill = A1;
            const uint64_t a = 0x10000000;
            CHECK(edan_get_metrics(ctx, 0, &m0) == EDAN_OK);
            CHECK_EQ_U(edan_feed(ctx, &op), EDAN_ERR_LIMIT);
            CHECK_EQ_U(edan_feed_prepared_n(ctx, &p, &a, 1, NULL), EDAN_ERR_LIMIT);
            CHECK_EQ_U(edan_kill_regs(ctx, &kill, 1), EDAN_ERR_LIMIT);
            CHECK_EQ_U(edan_kill_mem(ctx, a, 8), EDAN_ERR_LIMIT);
            CHECK_EQ_U(edan_thread_create(ctx, 0, 9), EDAN_ERR_LIMIT);
            CHECK_EQ_U(edan_signal_deliver(ctx), EDAN_ERR_LIMIT);
            if (b) CHECK_EQ_U(edan_feed_block(ctx, b, &a), EDAN_ERR_LIMIT);
            CHECK(edan_get_metrics(ctx, 0, &m1) == EDAN_OK);
            CHECK(!memcmp(&m0, &m1, sizeof m0));
            CHECK_EQ_U(m1.N, m0.N);
        }
        edan_destroy(ctx);
    }
}

#include "naive.h"

/* ---- what-if: the bounds at another latency without another pass ---------- */
static void test_what_if(void)
{
    static edan_insn tr[400];
    edan_config c[2];
    edan_context *ctx;
    uint64_t s = 77;
    size_t n = 0;
    uint32_t m;
    int round;
    for (round = 0; round < 20; round++) {
        n = naive_random_trace(tr, 400, &s);
        naive_random_config(&c[0], &s);
        c[0].alpha = 200;
        c[0].alpha0 = 0;                /* Lambda's baseline: alpha, in both */
        c[1] = c[0];
        c[1].alpha = 350;
        c[1].alpha0 = 200;              /* the same baseline for Lambda */
        ctx = make(c, 2);
        CHECK(naive_feed(ctx, tr, n) == EDAN_OK);
        for (m = 1; m <= 8; m++) {
            edan_bounds near, far, direct;
            CHECK(edan_get_bounds(ctx, 0, m, &near) == EDAN_OK);
            CHECK(edan_get_bounds_at(ctx, 0, m, 350.0, &far) == EDAN_OK);
            CHECK(edan_get_bounds(ctx, 1, m, &direct) == EDAN_OK);
            /* the what-if equals a pass at the far latency */
            CHECK_NEAR(far.T_lower, direct.T_lower, 1e-12);
            CHECK_NEAR(far.T_layered, direct.T_layered, 1e-12);
            CHECK_NEAR(far.T_upper, direct.T_upper, 1e-12);
            CHECK_NEAR(far.Lambda, direct.Lambda, 1e-12);
            /* the upper bound grows by lambda x delta-alpha, relatively by Lambda x delta-alpha */
            CHECK_NEAR(far.T_upper - near.T_upper, near.lambda * 150.0, 1e-12);
            if (near.T_upper > 0) CHECK_NEAR(far.T_upper / near.T_upper - 1.0, near.Lambda * 150.0, 1e-9);
            CHECK(far.T_lower >= near.T_lower && far.T_layered >= near.T_layered);
        }
        edan_destroy(ctx);
    }
}

/* ---- fill dependencies and scoped traces ---------------------------------- */
/* A linked-list walk over n nodes of 16 bytes ({next, val}) in a scattered
   order, `stride` bytes apart, after `li a0` (the head pointer): per node
   `ld a1,8(a0)` (val), `add a2,a2,a1`, `ld a0,0(a0)` (next); next_first
   loads next first: `ld a3,0(a0)`, `ld a1,8(a0)`, `add a2,a2,a1`,
   `mv a0,a3`. Returns the count. */
static size_t chase_trace(edan_insn *v, uint32_t n, uint64_t base, uint64_t stride, int next_first)
{
    size_t k = 0;
    uint32_t i;
    v[k++] = alu(A0, 0, 0);
    for (i = 0; i < n; i++) {
        uint64_t node = base + stride * ((i * 7919u) % n);
        if (next_first) {
            v[k++] = load(A3, A0, node, 8);
            v[k++] = load(A1, A0, node + 8, 8);
            v[k++] = alu(A2, A2, A1);
            v[k++] = alu(A0, A3, 0);
        } else {
            v[k++] = load(A1, A0, node + 8, 8);
            v[k++] = alu(A2, A2, A1);
            v[k++] = load(A0, A0, node, 8);
        }
    }
    return k;
}

static edan_metrics run_rule(const edan_insn *v, size_t n, const edan_config *c, int paper)
{
    edan_options o;
    edan_context *ctx;
    edan_metrics m;
    memset(&o, 0, sizeof o);
    o.num_configs = 1;
    o.configs = c;
    o.paper_cache = paper;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    CHECK(naive_feed(ctx, v, n) == EDAN_OK);
    m = metrics(ctx, 0);
    edan_destroy(ctx);
    return m;
}

static void test_fill_dependencies(void)
{
    static edan_insn v[4 * 4096];
    edan_config small = cache_cfg(1024, 2, 64, EDAN_WRITE_BACK), none;
    edan_metrics a, b;
    size_t n;
    uint32_t order;
    memset(&none, 0, sizeof none);
    /* a chase through a cache much smaller than its nodes (2048 x 64 B
       against 1 KiB): every node misses once, and each miss waits for the
       previous one, whichever of the node's two loads comes first */
    for (order = 0; order < 2; order++) {
        n = chase_trace(v, 2048, 0x100000, 64, (int)order);
        a = run_rule(v, n, &small, 0);
        CHECK_EQ_U(a.W, 2048);
        CHECK_EQ_U(a.D, 2048);
        CHECK_EQ_U(a.chained, 2047);
        /* one fill edge per node: the hit's filler is the node's miss, which
           is not one of its register predecessors (both read a0's writer) */
        CHECK_EQ_U(a.fill_edges, 2048);
    }
    /* the paper's rule: the answer depends on the order of the two loads
       (the old answers: D = 1 when val's load misses, D = n when next's does) */
    n = chase_trace(v, 2048, 0x100000, 64, 0);
    a = run_rule(v, n, &small, 1);
    n = chase_trace(v, 2048, 0x100000, 64, 1);
    b = run_rule(v, n, &small, 1);
    CHECK_EQ_U(a.W, 2048);
    CHECK_EQ_U(a.D, 1);
    CHECK_EQ_U(a.fill_edges, 0);
    CHECK_EQ_U(b.W, 2048);
    CHECK_EQ_U(b.D, 2048);
    /* and the paper's rule counts bytes as the authors' tool: the access
       size of each memory access vertex, not the lines */
    CHECK_EQ_U(a.bytes, 2048 * 8);
    a = run_rule(v, n, &small, 0);
    CHECK_EQ_U(a.bytes, 2048 * 64);

    /* a streaming sum: one miss per 64-byte line, the other seven loads hit
       with a fill edge to it; no load waits for another: D = 1 */
    {
        uint32_t i;
        n = 0;
        v[n++] = alu(A5, 0, 0);
        for (i = 0; i < 4096; i++) {
            v[n++] = load(A4, A5, 0x200000 + 8 * (uint64_t)i, 8);
            v[n++] = alu(A5, A5, 0);
            v[n++] = alu(A0, A0, A4);
        }
        a = run_rule(v, n, &small, 0);
        CHECK_EQ_U(a.W, 4096 / 8);
        CHECK_EQ_U(a.D, 1);
        CHECK_EQ_U(a.chained, 0);
        CHECK_EQ_U(a.fill_edges, 4096 - 4096 / 8);
    }
    /* a store that missed (read for ownership) filled the line: a later load
       of its bytes depends on it once, as a memory edge and a fill edge */
    {
        edan_insn w[3];
        w[0] = alu(A1, 0, 0);
        w[1] = store(A1, A0, 0x300000, 8);
        w[2] = load(A2, A0, 0x300000, 8);
        a = run_rule(w, 3, &small, 0);
        CHECK_EQ_U(a.E, 2);             /* a1 -> store, store -> load */
        CHECK_EQ_U(a.fill_edges, 0);
        CHECK_EQ_U(a.W, 1);
    }
    /* two levels: a line copied from L2 into L1 keeps its filler */
    {
        edan_config two;
        edan_insn w[4];
        memset(&two, 0, sizeof two);
        two.num_levels = 2;
        two.level[0].size = 128; two.level[0].assoc = 1; two.level[0].line = 64;
        two.level[1].size = 1024; two.level[1].assoc = 4; two.level[1].line = 64;
        w[0] = load(A1, A0, 0, 8);      /* miss: filler of line 0 in L1 and L2, md 1 */
        w[1] = load(A2, A1, 128, 8);    /* miss, chained (md 2): evicts line 0 from L1 */
        w[2] = load(A3, A0, 8, 8);      /* line 0 from L2: depends on w[0] */
        w[3] = load(A4, A3, 1 << 20, 8);/* a miss after it: md 2, through the fill edge */
        a = run_rule(w, 4, &two, 0);
        CHECK_EQ_U(a.W, 3);
        CHECK_EQ_U(a.D, 2);
        CHECK_EQ_U(a.fill_edges, 1);
        CHECK_EQ_U(a.level_hits[1], 1);
    }
}

/* Swapping two independent loads of the same line (the same base register,
   bytes no store writes) changes no W, D, lambda or layer with fill
   dependencies; random programs around them. */
static void test_order_independence(void)
{
    static edan_insn tr[520], sw[520];
    uint64_t s = 0x0dde;
    int round;
    for (round = 0; round < 300; round++) {
        edan_config c;
        edan_options o;
        edan_context *ca, *cb;
        size_t n = naive_random_trace(tr, 400, &s), i;
        naive_random_config(&c, &s);
        if (!c.num_levels) continue;
        /* pairs of loads from a region the random stores never touch */
        for (i = 0; i + 2 < n && n < 500; i++) {
            if (naive_rand(&s) % 20) continue;
            {
                edan_reg base = naive_regs[1 + naive_rand(&s) % 6], d1, d2;
                uint64_t line = 0x900000 + (uint64_t)c.level[0].line * (naive_rand(&s) % 8);
                do d1 = naive_regs[1 + naive_rand(&s) % 9]; while (d1 == base);
                do d2 = naive_regs[1 + naive_rand(&s) % 9]; while (d2 == base || d2 == d1);
                memmove(tr + i + 2, tr + i, (n - i) * sizeof *tr);
                tr[i] = load(d1, base, line, 8);
                tr[i + 1] = load(d2, base, line + 8, 8);
                n += 2;
                i += 2;
            }
        }
        memcpy(sw, tr, n * sizeof *tr);
        for (i = 0; i + 1 < n; i++)
            if (sw[i].mem == EDAN_MEM_LOAD && sw[i].addr >= 0x900000 && sw[i + 1].addr == sw[i].addr + 8) {
                edan_insn t = sw[i];
                sw[i] = sw[i + 1];
                sw[i + 1] = t;
                i++;
            }
        memset(&o, 0, sizeof o);
        o.num_configs = 1;
        o.configs = &c;
        CHECK(edan_create(&ca, &o) == EDAN_OK);
        CHECK(edan_create(&cb, &o) == EDAN_OK);
        CHECK(naive_feed(ca, tr, n) == EDAN_OK);
        CHECK(naive_feed(cb, sw, n) == EDAN_OK);
        {
            edan_metrics ma = metrics(ca, 0), mb = metrics(cb, 0);
            uint64_t l;
            CHECK_EQ_U(ma.W, mb.W);
            CHECK_EQ_U(ma.D, mb.D);
            CHECK_EQ_U(ma.chained, mb.chained);
            for (l = 1; l <= ma.D && l <= mb.D; l++) CHECK_EQ_U(layer(ca, 0, l), layer(cb, 0, l));
            CHECK_NEAR(bounds(ca, 0, 4).lambda, bounds(cb, 0, 4).lambda, 1e-12);
        }
        edan_destroy(ca);
        edan_destroy(cb);
    }
}

/* Scoped traces: what untraced code writes loses its writer. */
static void test_scope_gaps(void)
{
    static edan_insn v[3 * 4096];
    edan_config none;
    edan_options o;
    edan_context *ctx;
    edan_metrics m, alone_chase, alone_sum;
    static const edan_reg all_regs[] = {A0, A1, A2, A3, A4, A5};
    size_t n;
    uint32_t i, round;
    memset(&none, 0, sizeof none);
    memset(&o, 0, sizeof o);

    /* a kernel called twice, its data re-initialised in between by untraced
       code, which also sets the head pointer (the nodes' bytes and the
       registers killed): two independent chains, D of one call; without the
       kills the second call continues the first one's chain */
    for (round = 0; round < 2; round++) {
        ctx = make(&none, 1);
        n = chase_trace(v, 1000, 0x100000, 16, 0);
        feed(ctx, v, n);
        if (round) {
            CHECK(edan_kill_mem(ctx, 0x100000, 16 * 1000) == EDAN_OK);
            CHECK(edan_kill_regs(ctx, all_regs, 6) == EDAN_OK);
        }
        feed(ctx, v + 1, n - 1);        /* without its li a0: untraced code set a0 */
        m = metrics(ctx, 0);
        CHECK_EQ_U(m.W, 2 * 2000);
        CHECK_EQ_U(m.N, 2 * n - 1);
        CHECK_EQ_U(m.D, round ? 1000 : 2000);
        if (round) CHECK_EQ_U(layer(ctx, 0, 1000), 4);      /* each call's last node: two loads */
        edan_destroy(ctx);
    }

    /* two traced functions separated by untraced code (which sets a0 to
       the array): the sum of their separate W and the larger D; no access
       of the sum is chained */
    n = chase_trace(v, 500, 0x100000, 16, 0);
    alone_chase = run_rule(v, n, &none, 0);
    {
        size_t k = 0;
        static edan_insn sum[3 * 4096];
        sum[k++] = alu(A5, A0, 0);
        for (i = 0; i < 3000; i++) {
            sum[k++] = load(A4, A5, 0x400000 + 8 * (uint64_t)i, 8);
            sum[k++] = alu(A5, A5, 0);
            sum[k++] = alu(A3, A3, A4);
        }
        alone_sum = run_rule(sum, k, &none, 0);
        for (round = 0; round < 2; round++) {
            ctx = make(&none, 1);
            feed(ctx, v, n);
            if (round) CHECK(edan_kill_regs(ctx, all_regs, 6) == EDAN_OK);
            feed(ctx, sum, k);
            m = metrics(ctx, 0);
            CHECK_EQ_U(m.W, alone_chase.W + alone_sum.W);
            if (round) {
                CHECK_EQ_U(m.D, alone_chase.D > alone_sum.D ? alone_chase.D : alone_sum.D);
                CHECK_EQ_U(m.chained, alone_chase.chained + alone_sum.chained);
                CHECK_EQ_U(m.E, alone_chase.E + alone_sum.E);
            } else {
                CHECK(m.chained > alone_chase.chained + alone_sum.chained);   /* the false link */
            }
            edan_destroy(ctx);
        }
    }

    /* kills of parts of words: the bytes killed lose their writer, the others keep it */
    {
        edan_insn w[4];
        ctx = make(&none, 1);
        w[0] = alu(A1, 0, 0);
        w[1] = store(A1, A0, 0x5000, 8);
        feed(ctx, w, 2);
        CHECK(edan_kill_mem(ctx, 0x5002, 3) == EDAN_OK);
        w[2] = load(A2, A0, 0x5002, 2);     /* killed bytes only: no memory edge */
        w[3] = load(A3, A0, 0x5004, 4);     /* byte 4 killed, 5..7 the store's */
        feed(ctx, w + 2, 2);
        m = metrics(ctx, 0);
        CHECK_EQ_U(m.E, 2);                 /* a1 -> store, store -> w[3] */
        CHECK_EQ_U(m.D, 2);
        /* a range far wider than the pages written (the chunks there are visited) */
        w[0] = store(A1, A0, 0x7fff0000, 8);
        feed(ctx, w, 1);
        CHECK(edan_kill_mem(ctx, 0, (uint64_t)1 << 40) == EDAN_OK);
        w[2] = load(A2, A0, 0x5005, 2);
        w[3] = load(A3, A0, 0x7fff0000, 8);
        feed(ctx, w + 2, 2);
        CHECK_EQ_U(metrics(ctx, 0).E, 3);   /* the store's register edge only */
        CHECK(edan_kill_mem(ctx, UINT64_MAX - 2, 8) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(edan_error(ctx), "wrap") != NULL);
        CHECK(edan_kill_regs(ctx, all_regs, 0) == EDAN_OK);
        {
            edan_reg bad = 60000;
            CHECK(edan_kill_regs(ctx, &bad, 1) == EDAN_ERR_INVALID_ARG);
        }
        edan_destroy(ctx);
    }
    (void)o;
}

/* The timeline's bins are bounded: tau doubles (every other bin kept) until
   Tinf fits, also when the vertex finishing last moved no data. */
static void test_timeline_cap(void)
{
    edan_config c;
    edan_options o;
    edan_context *ctx;
    edan_insn v[101];
    const uint64_t *bins;
    size_t nb, i;
    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    c.alpha = 10;
    c.tau = 1;
    o.num_configs = 1;
    o.configs = &c;
    o.timeline_max_bins = 8;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    v[0] = load(A1, A0, 0x100, 8);              /* S 0, F 10, 8 bytes */
    for (i = 1; i <= 100; i++) v[i] = alu(A1, A1, 0);   /* a chain to Tinf = 110, no data */
    feed(ctx, v, 101);
    CHECK(edan_get_timeline(ctx, 0, &bins, &nb) == EDAN_OK);
    /* the smallest tau = 2^k with floor(110 / tau) + 2 <= 8: 16 (6 + 2); ceil(110/16) + 1 = 8 bins */
    CHECK_EQ_U(edan_get_config(ctx, 0)->tau, 16);
    CHECK_EQ_U(nb, 8);
    CHECK_EQ_U(bins[0], 8);                     /* the load is under way at 0 only */
    for (i = 1; i < nb; i++) CHECK_EQ_U(bins[i], 0);
    CHECK_EQ_U(metrics(ctx, 0).Tinf, 110);
    edan_destroy(ctx);
}

/* ---- the critical chain (on random traces: naive.h, naive_chain) -------- */
static void chain_none(void *user, const edan_insn *v, uint32_t md)
{
    (void)user; (void)v; (void)md;
}

/* edan_get_critical_chain without the graph, or with one cut short */
static void test_chain_errors(void)
{
    edan_context *ctx;
    edan_options o;
    edan_insn v[3];
    v[0] = load(A1, A0, 0x100, 8);
    v[1] = load(A1, A1, 0x200, 8);
    v[2] = load(A1, A1, 0x300, 8);
    memset(&o, 0, sizeof o);
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    feed(ctx, v, 3);
    CHECK(edan_get_critical_chain(ctx, 0, chain_none, NULL) == EDAN_ERR_INVALID_ARG);
    edan_destroy(ctx);
    o.dot_max_vertices = 2;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    feed(ctx, v, 3);
    CHECK(edan_get_critical_chain(ctx, 0, chain_none, NULL) == EDAN_ERR_LIMIT);
    edan_destroy(ctx);
}

/* The streamed chain (options.chain) through values that stay live while
   the table of the vertices of no memory access is swept many times: a
   chain of RAM loads (each line once) whose value thread 1 keeps in a
   register (its saved registers) and then in memory (a whole word, or a
   half word: a split word's record) while thread 0 runs 3,000 operations
   and cache hits between; the chain through them is the recorded graph's,
   vertex for vertex (each instruction's index as its pc), D long. */
typedef struct chain_pcs { uint64_t pc[64]; size_t n; } chain_pcs;
static void chain_pc(void *user, const edan_insn *v, uint32_t md)
{
    chain_pcs *c = (chain_pcs *)user;
    (void)md;
    if (c->n < 64) c->pc[c->n] = v->pc;
    c->n++;
}

static void chain_both(edan_context **ctx, edan_insn in, uint64_t *pc)
{
    int c;
    in.pc = (*pc)++;
    in.flags |= EDAN_INSN_HAS_PC;
    for (c = 0; c < 2; c++) CHECK(edan_feed(ctx[c], &in) == EDAN_OK);
}

/* Thread 0's stretch between two of thread 1's: operations and loads of one line (hits). */
static void chain_noise(edan_context **ctx, uint64_t *pc)
{
    int c, i;
    for (c = 0; c < 2; c++) CHECK(edan_thread_switch(ctx[c], 0) == EDAN_OK);
    for (i = 0; i < 3000; i++)
        chain_both(ctx, i % 3 ? alu(A3 + (edan_reg)(i % 3), A3, A4) : load(A4, A3, 0x20040 + (uint64_t)(i % 8) * 8, 8),
                   pc);
    for (c = 0; c < 2; c++) CHECK(edan_thread_switch(ctx[c], 1) == EDAN_OK);
}

static void test_chain_streamed_live(void)
{
    edan_config cfg;
    edan_options o;
    edan_context *ctx[2];
    chain_pcs a, b;
    uint64_t pc = 0;
    int c, j;
    memset(&cfg, 0, sizeof cfg);
    cfg.num_levels = 1;             /* 4 sets of 2 ways: the word at 0x20000 (set 0) and thread 0's line */
    cfg.level[0].size = 512;        /* (set 1) stay, the chain's lines go to sets 2 and 3 */
    cfg.level[0].assoc = 2;
    cfg.level[0].line = 64;
    for (c = 0; c < 2; c++) {
        memset(&o, 0, sizeof o);
        o.num_configs = 1;
        o.configs = &cfg;
        if (c) o.dot_max_vertices = 400000;
        else o.chain = 1;
        CHECK(edan_create(&ctx[c], &o) == EDAN_OK);
        CHECK(edan_thread_create(ctx[c], 0, 1) == EDAN_OK);
        CHECK(edan_thread_switch(ctx[c], 1) == EDAN_OK);
    }
    chain_both(ctx, store(A3, ZERO, 0x20000, 8), &pc);        /* the word's line in the cache */
    for (j = 0; j < 30; j++) {
        chain_both(ctx, load(A0, A2, 0x100000 + (uint64_t)(4 * j + 2 + j % 2) * 64, 8), &pc);   /* RAM */
        chain_both(ctx, alu(A1, A0, ZERO), &pc);
        chain_noise(ctx, &pc);          /* A1's writer named by thread 1's saved registers alone */
        chain_both(ctx, j % 2 ? store(A1, ZERO, 0x20000, 8) : store(A1, ZERO, 0x20004, 4), &pc);    /* a hit */
        chain_noise(ctx, &pc);          /* the store named by its word, or its split word's record, alone */
        chain_both(ctx, load(A2, ZERO, 0x20004, 4), &pc);         /* forwarded from the store */
    }
    a.n = b.n = 0;
    CHECK(edan_get_critical_chain(ctx[0], 0, chain_pc, &a) == EDAN_OK);
    CHECK(edan_get_critical_chain(ctx[1], 0, chain_pc, &b) == EDAN_OK);
    CHECK_EQ_U(metrics(ctx[0], 0).D, 30);
    CHECK_EQ_U(a.n, 30);
    CHECK_EQ_U(b.n, 30);
    CHECK(a.n == b.n && a.n <= 64 && !memcmp(a.pc, b.pc, a.n * sizeof *a.pc));
    for (c = 0; c < 2; c++) edan_destroy(ctx[c]);
}

/* ---- the layer histogram: compact, exact, its layered sums kept ---------- */
/* Loads of addresses never written, each through one address register:
   md(destination) = md(address register) + 1, so that the test knows every
   layer without the reference model (whose traces are too short for layers
   of 255 vertices and more). Registers 1..8 are anchors, seldom rewritten,
   whose loads into 10..15 pile up in a few layers (the big table); 9 chases
   alone for long stretches (layers of one vertex: pages without bytes),
   16 keeps one of its depths, which an anchor later takes (a squeezed page
   that gets bytes back, and grows big). */
#define LAY_MAX 150000
static uint64_t lay_want[LAY_MAX + 2], lay_got[LAY_MAX + 2];
static uint32_t lay_md[17];
static uint64_t lay_D, lay_addr;

/* Every layer (and one past D, 0) of ctx's K configurations, and the
   layered bound at each of ms[0 .. nms), against the test's own count. */
static void lay_check(edan_context *ctx, uint32_t K, const uint32_t *ms, size_t nms)
{
    uint32_t k;
    uint64_t i;
    size_t j;
    for (k = 0; k < K; k++) {
        const double alpha = (double)edan_get_config(ctx, k)->alpha;
        CHECK_EQ_U(metrics(ctx, k).D, lay_D);
        CHECK(edan_get_layers(ctx, k, 1, lay_got, lay_D + 1) == EDAN_OK);
        for (i = 0; i <= lay_D && lay_got[i] == lay_want[i + 1]; i++) {}
        if (i <= lay_D) CHECK_EQ_U(lay_got[i], lay_want[i + 1]);
        if (lay_D) CHECK_EQ_U(layer(ctx, k, lay_D), lay_want[lay_D]);
        {   /* the summary of at most 1, 3, 4096, 5000 bins, against the test's counts */
            static const size_t limits[] = {1, 3, 4096, 5000};
            static edan_layer_bin bins[5000];
            size_t l, nb = 0, b;
            uint64_t w = 0;
            for (l = 0; l < sizeof limits / sizeof limits[0]; l++) {
                CHECK(edan_get_layer_summary(ctx, k, bins, limits[l], &nb, &w) == EDAN_OK);
                CHECK(nb <= limits[l] && (w == 1 || (lay_D + w / 2 - 1) / (w / 2) > limits[l]) && !(w & (w - 1)));
                CHECK_EQ_U(nb, (lay_D + w - 1) / w);
                for (b = 0; b < nb; b++) {
                    uint64_t sum = 0, max = 0, n = 0;
                    for (i = b * w + 1; i <= lay_D && i <= (b + 1) * w; i++, n++) {
                        sum += lay_want[i];
                        if (lay_want[i] > max) max = lay_want[i];
                    }
                    if (bins[b].first != b * w + 1 || bins[b].count != n || bins[b].sum != sum || bins[b].max != max) {
                        CHECK_EQ_U(bins[b].first, b * w + 1);
                        CHECK_EQ_U(bins[b].count, n);
                        CHECK_EQ_U(bins[b].sum, sum);
                        CHECK_EQ_U(bins[b].max, max);
                        break;
                    }
                }
            }
            CHECK(edan_get_layer_summary(ctx, k, NULL, 1, &nb, &w) == EDAN_ERR_INVALID_ARG);
            CHECK(edan_get_layer_summary(ctx, k, bins, 0, &nb, &w) == EDAN_ERR_INVALID_ARG);
        }
        for (j = 0; j < nms; j++) {
            uint64_t sum = 0;
            for (i = 1; i <= lay_D; i++) sum += (lay_want[i] + ms[j] - 1) / ms[j];
            CHECK_NEAR(bounds(ctx, k, ms[j]).M_layered, (double)sum * alpha, 0.0);
        }
    }
}

/* A load of register a into d, for the test's count too. */
static edan_insn lay_load(edan_reg d, edan_reg a)
{
    lay_md[d] = lay_md[a] + 1;
    if (lay_md[d] <= LAY_MAX) lay_want[lay_md[d]]++;
    if (lay_md[d] > lay_D) lay_D = lay_md[d];
    return load(d, a, 0x40000000 + 8 * lay_addr++, 8);
}

/* n instructions, as the compiled block b (NULL: one by one). */
static void lay_feed(edan_context *ctx, edan_block *b, const edan_insn *v, uint32_t n)
{
    uint64_t addrs[8];
    uint32_t i;
    if (!b) {
        feed(ctx, v, n);
        return;
    }
    for (i = 0; i < n; i++) addrs[i] = v[i].addr;
    CHECK(edan_feed_block(ctx, b, addrs) == EDAN_OK);
}

static void test_layers(void)
{
    /* kept from the start (opts.m), asked at every check, and every m
       asked at the end of the second stage (which turns those out) */
    static const uint32_t fixed[] = {1, 3, 7, 64, 255, 256}, asked[] = {2, 5, 254, 1000, 100000, 4294967295u};
    uint32_t mode;
    for (mode = 0; mode < 5; mode++) {
        /* one by one or as blocks; the blocks' plain copy, with hotspots,
           and two configurations (one cost table) */
        const int blocks = mode >= 1 && mode <= 3;
        const uint32_t K = mode >= 3 ? 2 : 1;
        edan_config cfgs[2];
        edan_options o;
        edan_context *ctx;
        edan_insn tmpl[12][4], v[4];
        edan_prepared p[12][4];
        edan_block *blk[12];
        uint64_t s = 0x1a7e5 + mode, deep_lo[3], deep_hi[3];
        uint32_t stage, i, j, k;
        memset(lay_want, 0, sizeof lay_want);
        memset(lay_md, 0, sizeof lay_md);
        lay_D = 0;
        memset(cfgs, 0, sizeof cfgs);
        cfgs[1].alpha = 100;
        memset(&o, 0, sizeof o);
        o.num_configs = K;
        o.configs = cfgs;
        o.hotspots = mode == 2;
        o.num_m = 6;
        memcpy(o.m, fixed, sizeof fixed);
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        /* blocks 0..9: four loads from anchors or x0 into the workers, the
           last sometimes a chase step; 10 and 11: two and four chase steps */
        for (i = 0; i < 12; i++)
            for (j = 0; j < 4; j++) {
                edan_reg a = (edan_reg)(naive_rand(&s) % 9), d = (edan_reg)(10 + naive_rand(&s) % 6);
                if (i >= 10 || (j == 3 && i % 3 == 0)) a = d = 9;
                tmpl[i][j] = load(d, a, 0, 8);
                CHECK(edan_prepare(ctx, &tmpl[i][j], &p[i][j]) == EDAN_OK);
            }
        for (i = 0; i < 12; i++) {
            blk[i] = NULL;
            CHECK(edan_block_create(ctx, p[i], i == 10 ? 2 : 4, &blk[i]) == EDAN_OK);
        }
        for (stage = 0; stage < 3; stage++) {
            /* wide: the blocks of anchors, a chase step now and then, an
               anchor moved to the chase's depth, another's, or 16's */
            for (i = 0; i < 12000; i++) {
                uint32_t r = (uint32_t)(naive_rand(&s) % 1000), b = r % 10;
                if (r < 10) {
                    edan_reg a = (edan_reg)(1 + naive_rand(&s) % 8), from = r < 4 ? 9 : r < 7 ? 16 : (edan_reg)(1 + r % 8);
                    v[0] = alu(a, from, 0);
                    lay_md[a] = lay_md[from];
                    feed(ctx, v, 1);
                    continue;
                }
                if (r >= 900) b = r >= 980 ? 11 : 10;
                for (j = 0; j < (b == 10 ? 2u : 4u); j++) v[j] = lay_load(tmpl[b][j].dst[0], tmpl[b][j].src[0]);
                lay_feed(ctx, blocks ? blk[b] : NULL, v, b == 10 ? 2 : 4);
            }
            lay_check(ctx, K, asked, 6);
            lay_check(ctx, K, fixed, 6);
            /* deep: the chase alone, 16 keeping a depth on the way */
            deep_lo[stage] = lay_D + 1;
            for (i = 0; i < 8000; i++) {
                for (j = 0; j < 4; j++) v[j] = lay_load(9, 9);
                lay_feed(ctx, blocks ? blk[11] : NULL, v, 4);
                if (i == 1000 * (stage + 2)) {
                    v[0] = alu(16, 9, 0);
                    lay_md[16] = lay_md[9];
                    feed(ctx, v, 1);
                }
            }
            deep_hi[stage] = lay_D;
            lay_check(ctx, K, asked, 6);
            if (stage == 1) {   /* every m: the kept sums turned out, asked again after more feeding */
                uint32_t all[300];
                for (j = 0; j < 300; j++) all[j] = j + 1;
                lay_check(ctx, K, all, 300);
            }
        }
        CHECK(lay_D <= LAY_MAX);
        {   /* layers of 255 vertices and more seen, some where the chase went alone */
            uint64_t big = 0, big_deep = 0, l;
            for (l = 1; l <= lay_D; l++) big += lay_want[l] >= 255;
            for (stage = 0; stage < 2; stage++)
                for (l = deep_lo[stage]; l <= deep_hi[stage]; l++) big_deep += lay_want[l] >= 255;
            CHECK(big >= 20);
            CHECK(big_deep >= 2);
        }
        for (k = 0; k < K; k++) {   /* bad calls */
            CHECK(edan_get_layers(ctx, k, 0, lay_got, 1) == EDAN_ERR_INVALID_ARG);
            CHECK(edan_get_layers(ctx, k, 1, NULL, 1) == EDAN_ERR_INVALID_ARG);
            CHECK(edan_get_layers(ctx, k, 1, NULL, 0) == EDAN_OK);
            CHECK(edan_get_layers(ctx, k, ~(uint64_t)0, lay_got, 2) == EDAN_OK && lay_got[0] == 0 && lay_got[1] == 0);
        }
        CHECK(edan_get_layers(ctx, K, 1, lay_got, 1) == EDAN_ERR_INVALID_ARG);
        for (i = 0; i < 12; i++) edan_block_destroy(blk[i]);
        edan_destroy(ctx);
    }
}

/* More big layers at once than the engine has counters of recent
   vertices for (1024): 1200 registers at depths 1..1200 of a chain, loaded
   from in turn 320 times (each of their layers big from the 255th round,
   layers 1024 apart taking each other's counter), the layers and the
   layered bounds read between rounds. */
static void test_layers_round_robin(void)
{
    static const uint32_t ms[] = {1, 2, 3, 4, 5, 7, 64, 100, 128, 129, 255, 256, 1000};
    edan_context *ctx = make(NULL, 0);
    edan_insn v;
    uint32_t r, i;
    memset(lay_want, 0, sizeof lay_want);
    memset(lay_md, 0, sizeof lay_md);
    lay_D = 0;
    lay_addr = 0;
    for (i = 0; i < 1200; i++) {    /* x9 chases; register 100 + i keeps depth i + 1 */
        v = lay_load(9, 9);
        feed(ctx, &v, 1);
        v = alu((edan_reg)(100 + i), 9, 0);
        feed(ctx, &v, 1);
    }
    for (r = 0; r < 320; r++) {
        for (i = 0; i < 1200; i++) {
            v = load(10, (edan_reg)(100 + i), 0x40000000 + 8 * lay_addr++, 8);
            lay_want[i + 2]++;
            feed(ctx, &v, 1);
        }
        if (lay_D < 1201) lay_D = 1201;
        if (r % 100 == 99 || (r >= 252 && r <= 255)) lay_check(ctx, 1, ms, sizeof ms / sizeof ms[0]);
    }
    CHECK_EQ_U(layer(ctx, 0, 2), 321);
    edan_destroy(ctx);
}

/* An allocator whose fail_at-th call alone fails (0: none), counting the
   calls. */
static size_t fail_at, fail_calls;
static void *fail_alloc(size_t n, void *u)
{
    (void)u;
    return ++fail_calls == fail_at ? NULL : malloc(n);
}
static void *fail_realloc(void *q, size_t n, void *u)
{
    (void)u;
    return ++fail_calls == fail_at ? NULL : realloc(q, n);
}
static void fail_free(void *q, void *u)
{
    (void)u;
    free(q);
}

/* A context on that allocator (NULL if it failed), the test's count reset,
   and the blocks of loads ld(10 + j, 1 + j) for j < 4 (from anchors 1..4)
   and of x9's chase, 4 steps: 0 when one failed. */
static edan_config lay_cfg;
static int lay_fail_setup(edan_context **ctx, edan_block **wide, edan_block **chase)
{
    edan_options o;
    edan_insn w[4], c[4];
    edan_prepared pw[4], pc[4];
    uint32_t j;
    int ok;
    memset(&o, 0, sizeof o);
    o.allocator.alloc = fail_alloc;
    o.allocator.realloc = fail_realloc;
    o.allocator.free = fail_free;
    fail_calls = 0;
    memset(lay_want, 0, sizeof lay_want);
    memset(lay_md, 0, sizeof lay_md);
    lay_D = 0;
    lay_addr = 0;
    *ctx = NULL;
    *wide = *chase = NULL;
    for (j = 0; j < 4; j++) {
        w[j] = load((edan_reg)(10 + j), (edan_reg)(1 + j), 0, 8);
        c[j] = load(9, 9, 0, 8);
    }
    /* no windowed schedule: blocks are compiled only without one */
    memset(&lay_cfg, 0, sizeof lay_cfg);
    lay_cfg.window = EDAN_WINDOW_OFF;
    o.num_configs = 1;
    o.configs = &lay_cfg;
    ok = edan_create(ctx, &o) == EDAN_OK;
    for (j = 0; ok && j < 4; j++)
        ok = edan_prepare(*ctx, &w[j], &pw[j]) == EDAN_OK && edan_prepare(*ctx, &c[j], &pc[j]) == EDAN_OK;
    return ok && edan_block_create(*ctx, pw, 4, wide) == EDAN_OK && edan_block_create(*ctx, pc, 4, chase) == EDAN_OK;
}

/* A load ld(d, a), single or as block b (of that one load), and a block
   of four (chase: x9's steps, else from the anchors), for the test's count
   too. */
static int lay_one(edan_context *ctx, edan_block *b, edan_reg d, edan_reg a)
{
    edan_insn v = lay_load(d, a);
    return b ? edan_feed_block(ctx, b, &v.addr) == EDAN_OK : edan_feed(ctx, &v) == EDAN_OK;
}
static int lay_four(edan_context *ctx, edan_block *b, int chase)
{
    uint64_t addrs[4];
    uint32_t j;
    for (j = 0; j < 4; j++)
        addrs[j] = lay_load((edan_reg)(chase ? 9 : 10 + j), (edan_reg)(chase ? 9 : 1 + j)).addr;
    return edan_feed_block(ctx, b, addrs) == EDAN_OK;
}
/* Register d takes from's value (and depth). */
static int lay_move(edan_context *ctx, edan_reg d, edan_reg from)
{
    edan_insn v = alu(d, from, 0);
    lay_md[d] = lay_md[from];
    return edan_feed(ctx, &v) == EDAN_OK;
}
/* After a run: every layer when all its feeds succeeded; its context gone. */
static int lay_fail_end(edan_context *ctx, int ok, uint32_t *ok_runs, edan_block *b0, edan_block *b1, edan_block *b2)
{
    static const uint32_t ms[] = {1, 3, 4, 100};
    if (ok) {
        lay_check(ctx, 1, ms, sizeof ms / sizeof ms[0]);
        ++*ok_runs;
    }
    edan_block_destroy(b0);
    edan_block_destroy(b1);
    edan_block_destroy(b2);
    edan_destroy(ctx);
    return ok;
}

/* A compiled block's vertices allocate nothing (its room is made before it
   runs, or it is fed one by one): with each allocation failing in turn,
   every layer is right after a run whose feeds all succeeded. Blocks and
   single loads mixed at random, so that blocks meet what single loads
   leave: a chase over five pages of layers (pages squeezed, their bytes
   kept as spares), anchors moved to depths the chase passed (bytes back)
   or to its end, about 280 loads from each (big layers, the table
   growing). */
static int lay_alloc_mixed(uint32_t *ok_runs)
{
    static const edan_reg keeper[7] = {5, 6, 7, 8, 14, 15, 16};
    edan_context *ctx;
    edan_block *bw, *bc;
    uint64_t s = 0xa110c;
    uint32_t phase, i, j;
    int ok = lay_fail_setup(&ctx, &bw, &bc);
    for (phase = 0; ok && phase < 15; phase++) {
        const uint32_t keep = (uint32_t)(naive_rand(&s) % 600);
        for (i = 0; ok && i < 600; i++) {       /* the chase, a keeper keeping a depth */
            ok = naive_rand(&s) % 2 ? lay_four(ctx, bc, 1) : lay_one(ctx, NULL, 9, 9);
            if (ok && i == keep) ok = lay_move(ctx, keeper[phase % 7], 9);
        }
        for (j = 1; ok && j <= 4; j++) {    /* anchors: a kept depth, the chase's end or 0 */
            const uint32_t r = (uint32_t)(naive_rand(&s) % 10);
            ok = lay_move(ctx, (edan_reg)j, r < 7 ? keeper[r] : r < 9 ? 9 : 0);
        }
        for (i = 0; ok && i < 450; i++) {
            j = (uint32_t)(naive_rand(&s) % 8);
            ok = j < 4 ? lay_four(ctx, bw, 0) : lay_one(ctx, NULL, (edan_reg)(6 + j), (edan_reg)(j - 3));
        }
    }
    return lay_fail_end(ctx, ok, ok_runs, bw, bc, NULL);
}

/* The same, step by step, where a block's room is tight: new big layers
   when the table is nearly full, and a block that gives three pages their
   bytes back with one spare at hand. */
static int lay_alloc_steps(uint32_t *ok_runs)
{
    static const edan_reg keeper[7] = {5, 6, 7, 8, 14, 15, 16};
    edan_context *ctx;
    edan_block *bw, *bc, *b1 = NULL;
    edan_prepared p;
    edan_insn v = load(10, 1, 0, 8);
    uint32_t i, j, k;
    int ok = lay_fail_setup(&ctx, &bw, &bc);
    ok = ok && edan_prepare(ctx, &v, &p) == EDAN_OK && edan_block_create(ctx, &p, 1, &b1) == EDAN_OK;
    /* 100 layers; a block of loads from the chase's end */
    for (i = 0; ok && i < 100; i++) ok = lay_one(ctx, NULL, 9, 9);
    for (j = 1; ok && j <= 4; j++) ok = lay_move(ctx, (edan_reg)j, 9);
    ok = ok && lay_four(ctx, bw, 0);
    /* 46 big layers by single loads (the table's 64 entries take 48), 4 of
       254 vertices, which the block makes big */
    for (k = 0; ok && k < 50; k++) {
        ok = lay_one(ctx, NULL, 9, 9) && lay_move(ctx, (edan_reg)(k < 46 ? 1 : 1 + k - 46), 9);
        for (i = 0; ok && k < 46 && i < 255; i++) ok = lay_one(ctx, NULL, 10, 1);
    }
    for (j = 1; ok && j <= 4; j++)
        while (ok && lay_want[lay_md[j] + 1] < 254) ok = lay_one(ctx, NULL, (edan_reg)(9 + j), (edan_reg)j);
    ok = ok && lay_four(ctx, bw, 0);
    /* a chase over 10 pages, a keeper in each of pages 1..7: 8 pages
       without bytes, a spare */
    for (i = 0; ok && i < 40960; i++) {
        ok = lay_one(ctx, NULL, 9, 9);
        if (ok && i % 4096 == 2000 && i / 4096 >= 1 && i / 4096 <= 7) ok = lay_move(ctx, keeper[i / 4096 - 1], 9);
    }
    /* pages 1..3 get their bytes back by one block (three spares, one
       kept), 4..7 by blocks of one and single loads */
    for (j = 1; ok && j <= 4; j++) ok = lay_move(ctx, (edan_reg)j, keeper[j < 4 ? j - 1 : 2]);
    ok = ok && lay_four(ctx, bw, 0);
    for (k = 3; ok && k < 7; k++) ok = lay_move(ctx, 1, keeper[k]) && lay_one(ctx, k % 2 ? NULL : b1, 10, 1);
    return lay_fail_end(ctx, ok, ok_runs, bw, bc, b1);
}

static void test_layers_alloc_fail(void)
{
    uint32_t ok_runs = 0, run;
    for (run = 0; run < 2; run++) {
        int (*f)(uint32_t *) = run ? lay_alloc_steps : lay_alloc_mixed;
        size_t calls;
        fail_at = 0;
        CHECK(f(&ok_runs));
        calls = fail_calls;
        CHECK(calls >= 20);
        for (fail_at = 1; fail_at <= calls; fail_at++) (void)f(&ok_runs);
    }
    CHECK(ok_runs >= 4);        /* some failures the blocks' fall-back got past */
    fail_at = 0;
}

/* The histogram's memory: a chain of 10^6 layers of one vertex each (a
   chase's) takes a few pages; 10^6 more of 1 to 3 vertices in no order a
   byte each. */
static void test_layers_memory(void)
{
    counting cnt = {0, 0};
    edan_options o;
    edan_context *ctx;
    edan_insn v[3];
    size_t base;
    uint64_t s = 0x3e3, i;
    counted(&o, &cnt);
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    v[0] = load(9, 9, 0x1000, 8);
    feed(ctx, v, 1);
    base = cnt.live;
    for (i = 0; i < 1000000; i++) {
        v[0] = load(9, 9, 0x40000000 + 8 * i, 8);
        CHECK(edan_feed(ctx, &v[0]) == EDAN_OK);
    }
    CHECK_EQ_U(metrics(ctx, 0).D, 1000001);
    CHECK(cnt.peak - base < 64 << 10);
    base = cnt.live;
    for (i = 0; i < 1000000; i++) {
        uint32_t extra = (uint32_t)(naive_rand(&s) % 3), j;
        v[0] = alu(8, 9, 0);        /* 9's depth, for the layer's other loads */
        v[1] = load(9, 9, 0x80000000 + 32 * i, 8);
        feed(ctx, v, 2);
        for (j = 0; j < extra; j++) {
            v[2] = load(10, 8, 0x80000000 + 32 * i + 8 + 8 * j, 8);
            feed(ctx, &v[2], 1);
        }
    }
    CHECK_EQ_U(metrics(ctx, 0).D, 2000001);
    CHECK(cnt.peak - base < 1000000 + (64 << 10));
    edan_destroy(ctx);
    CHECK_EQ_U(cnt.live, 0);
}

int main(void)
{
    test_summation();
    test_fig8();
    test_x0();
    test_two_targets();
    test_byte_overlap();
    test_straddle();
    test_straddle_row();
    test_write_policy();
    test_amo();
    test_several_accesses();
    test_costs_and_timeline();
    test_hotspots();
    test_many_hotspots();
    test_errors();
    test_bounded_memory();
    test_sparse_pages();
    test_shadow_limit();
    test_threads();
    test_thread_churn();
    test_window_long_latencies();
    test_signals();
    test_differential(400, 0x5eed);
    test_multi(400, 0x3a11);
    test_threads_differential(300, 0x7ead);
    test_blocks(300, 0xb10c);
    test_long_blocks(20, 0x1024);
    test_page_shapes(48, 0x9a9e);
    test_what_if();
    test_fill_dependencies();
    test_order_independence();
    test_scope_gaps();
    test_timeline_cap();
    test_chain_errors();
    test_chain_streamed_live();
    test_layers();
    test_layers_round_robin();
    test_layers_alloc_fail();
    test_layers_memory();
    return check_summary("test_core");
}
