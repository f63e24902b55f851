/* Each rule of the model, through every feeding path: the same small
   programs fed by edan_feed (its lean copy), with hotspots (the general
   feed), with two configurations, by edan_feed_accesses (each access in
   two halves: the several-accesses path), and as compiled blocks (lean,
   with hotspots, with two configurations). Every path must give the
   numbers worked out by hand from the model page, so a rule changed in one
   path alone fails here, not only in the random differential test. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"
#include <math.h>

enum { A0 = 10, A1, A2, A3, A4, A5, A6 };

static edan_insn op(int cls, edan_reg d, edan_reg s1, edan_reg s2)
{
    edan_insn in;
    memset(&in, 0, sizeof in);
    in.cls = (uint8_t)cls;
    if (s1) in.src[in.nsrc++] = s1;
    if (s2) in.src[in.nsrc++] = s2;
    if (d) in.dst[in.ndst++] = d;
    return in;
}
static edan_insn mem(int kind, edan_reg reg, edan_reg base, uint64_t addr)
{
    edan_insn in = kind == EDAN_MEM_LOAD ? op(EDAN_CLASS_LOAD, reg, base, 0) : op(EDAN_CLASS_STORE, 0, reg, base);
    in.mem = (uint8_t)kind;
    in.addr = addr;
    in.size = 8;
    return in;
}

typedef enum { P_FEED, P_FEED_HOT, P_FEED_K2, P_ACCESSES, P_BLOCK, P_BLOCK_HOT, P_BLOCK_K2, P_COUNT } path;
static const char *const path_name[P_COUNT] = {"edan_feed",  "edan_feed with hotspots", "edan_feed, K = 2",
                                               "edan_feed_accesses", "block", "block with hotspots",
                                               "block, K = 2"};

/* options.forward of the contexts make() makes (0: the default store buffer). */
static uint32_t forward;
/* The windowed schedule in the block paths too (fed one by one: a block is
   compiled only without one), at options.window_m = window_m; when 0, the
   block paths run without it, compiled. */
static int window_on;
static uint32_t window_m;

/* A context for path p with configuration c (twice for K = 2). */
static edan_context *make(path p, const edan_config *c)
{
    edan_options o;
    edan_config two[2];
    edan_context *ctx = NULL;
    memset(&o, 0, sizeof o);
    two[0] = two[1] = *c;
    o.configs = two;
    o.num_configs = p == P_FEED_K2 || p == P_BLOCK_K2 ? 2 : 1;
    o.hotspots = p == P_FEED_HOT || p == P_BLOCK_HOT;
    o.forward = forward;
    o.window_m = window_m;
    if (p >= P_BLOCK && !window_on) two[0].window = two[1].window = EDAN_WINDOW_OFF;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    return ctx;
}

/* v[0 .. n) fed the way p says; as blocks, v[0 .. cut) and v[cut .. n)
   (cut 0: one block), so that the second reads what the first wrote. A
   block must run compiled: the test is of the block path, not of its
   fallback. */
static void feed_part(path p, edan_context *ctx, const edan_insn *v, size_t n);
static void feed(path p, edan_context *ctx, const edan_insn *v, size_t n, size_t cut)
{
    if (p >= P_BLOCK && cut && cut < n) {
        feed_part(p, ctx, v, cut);
        feed_part(p, ctx, v + cut, n - cut);
    } else {
        feed_part(p, ctx, v, n);
    }
}
static void feed_part(path p, edan_context *ctx, const edan_insn *v, size_t n)
{
    size_t i;
    if (p >= P_BLOCK) {
        edan_prepared pr[16];
        uint64_t addrs[16];
        edan_block *b = NULL;
        CHECK(n <= 16);
        for (i = 0; i < n; i++) {
            CHECK(edan_prepare(ctx, &v[i], &pr[i]) == EDAN_OK);
            addrs[i] = v[i].addr;
        }
        CHECK(edan_block_create(ctx, pr, n, &b) == EDAN_OK);
        CHECK(edan_feed_block(ctx, b, addrs) == EDAN_OK);
        /* with the window a block with hotspots is fed one by one */
        CHECK(b && (window_on && p == P_BLOCK_HOT ? !b->compiled : b->compiled && b->runs == 1));
        return;
    }
    for (i = 0; i < n; i++) {
        if (p == P_ACCESSES && v[i].mem != EDAN_MEM_NONE) {
            edan_access half[2];
            half[0].kind = half[1].kind = v[i].mem;
            half[0].size = half[1].size = v[i].size / 2;
            half[0].addr = v[i].addr;
            half[1].addr = v[i].addr + v[i].size / 2;
            CHECK(edan_feed_accesses(ctx, &v[i], half, 2) == EDAN_OK);
        } else {
            CHECK(edan_feed(ctx, &v[i]) == EDAN_OK);
        }
    }
}

/* What the page says of a program. */
typedef struct expect { uint64_t W, D, chained, Tinf, T1, C, E, fill_edges, bytes, forwarded; } expect;

static void check_metrics(edan_context *ctx, path p, const char *rule, const expect *x)
{
    uint32_t k, K = p == P_FEED_K2 || p == P_BLOCK_K2 ? 2 : 1;
    for (k = 0; k < K; k++) {
        edan_metrics m;
        CHECK(edan_get_metrics(ctx, k, &m) == EDAN_OK);
        if (m.W == x->W && m.D == x->D && m.chained == x->chained && m.Tinf == x->Tinf && m.T1 == x->T1 &&
            m.C == x->C && m.E == x->E && m.fill_edges == x->fill_edges && m.bytes == x->bytes &&
            m.forwarded == x->forwarded) {
            CHECK(1);
            continue;
        }
        CHECK(!"a rule differs in one path");
        fprintf(stderr, "  %s through %s (configuration %u): W %llu D %llu chained %llu Tinf %llu T1 %llu C %llu "
                "E %llu fill %llu bytes %llu forwarded %llu; expected %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
                rule, path_name[p], k, (unsigned long long)m.W, (unsigned long long)m.D,
                (unsigned long long)m.chained, (unsigned long long)m.Tinf, (unsigned long long)m.T1,
                (unsigned long long)m.C, (unsigned long long)m.E, (unsigned long long)m.fill_edges,
                (unsigned long long)m.bytes, (unsigned long long)m.forwarded, (unsigned long long)x->W,
                (unsigned long long)x->D, (unsigned long long)x->chained, (unsigned long long)x->Tinf,
                (unsigned long long)x->T1, (unsigned long long)x->C, (unsigned long long)x->E,
                (unsigned long long)x->fill_edges, (unsigned long long)x->bytes, (unsigned long long)x->forwarded);
    }
}

/* The paths up to `last`; edan_feed_accesses expecting xa (its loads of
   two accesses are never forwarded). */
static void paths_to(const char *rule, const edan_config *c, const edan_insn *v, size_t n, size_t cut,
                     const expect *x, const expect *xa, int last)
{
    int p;
    for (p = 0; p <= last; p++) {
        edan_context *ctx = make((path)p, c);
        if (!ctx) continue;
        feed((path)p, ctx, v, n, cut);
        check_metrics(ctx, (path)p, rule, p == P_ACCESSES ? xa : x);
        edan_destroy(ctx);
    }
}
static void every_path(const char *rule, const edan_config *c, const edan_insn *v, size_t n, size_t cut,
                       const expect *x)
{
    paths_to(rule, c, v, n, cut, x, x, P_COUNT - 1);
}

static edan_config no_cache(void)
{
    edan_config c;
    memset(&c, 0, sizeof c);
    c.alpha = 200;
    return c;
}

/* Memory depth and chained: each load of a pointer chase waits for the
   one before; md = 1, 2, 3, two of them chained (md >= 2); each costs
   alpha; F = 200, 400, 600. */
static void test_depth(void)
{
    edan_config c = no_cache();
    const edan_insn v[] = {mem(EDAN_MEM_LOAD, A0, A0, 0x1000), mem(EDAN_MEM_LOAD, A0, A0, 0x2000),
                           mem(EDAN_MEM_LOAD, A0, A0, 0x3000)};
    const expect x = {3, 3, 2, 600, 600, 0, 2, 0, 24, 0};
    every_path("memory depth", &c, v, 3, 0, &x);
    every_path("memory depth across blocks", &c, v, 3, 2, &x);
}

/* Sources through memory, without forwarding (the paper's model): a load
   depends on the store that last wrote its bytes (F 1 -> 201 -> 401 ->
   402; md 1 -> 2); an operation costs its class's cycle. With the store
   buffer (the default) the load is forwarded: an operation of one cycle
   from the store's start (1 -> 2 -> 3), at the store's depth less its
   own access (0); W 1, the store's F 201 is Tinf. Through
   edan_feed_accesses (halves: several accesses) it is not. */
static void test_through_memory(void)
{
    edan_config c = no_cache();
    const edan_insn v[] = {op(EDAN_CLASS_INT_ALU, A1, 0, 0), mem(EDAN_MEM_STORE, A1, A2, 0x1000),
                           mem(EDAN_MEM_LOAD, A3, A4, 0x1000), op(EDAN_CLASS_INT_ALU, A5, A3, 0)};
    const expect x = {2, 2, 1, 402, 402, 2, 3, 0, 16, 0}, xf = {1, 1, 0, 201, 203, 3, 3, 0, 8, 1};
    forward = EDAN_FORWARD_OFF;
    every_path("a store's reader", &c, v, 4, 0, &x);
    every_path("a store's reader across blocks", &c, v, 4, 2, &x);
    forward = 0;
    paths_to("store-to-load forwarding", &c, v, 4, 0, &xf, &x, P_COUNT - 1);
    paths_to("store-to-load forwarding across blocks", &c, v, 4, 2, &xf, &x, P_COUNT - 1);
}

/* A spill: a chased pointer saved to a stack slot, another store, the slot
   reloaded and chased. A store buffer of one store (forward = 1) has lost
   the slot's store, but stack slots forward at any distance: the reload
   starts at the store's start (200), F 201, md 1, and the next load is at
   md 2 (W 4, C 1). Without the stack flags (or with forwarding off) the
   reload waits for the store: md 1, 2, 3, 4, F 800. */
static void test_spill(void)
{
    edan_config c = no_cache();
    edan_insn v[] = {mem(EDAN_MEM_LOAD, A0, A0, 0x1000), mem(EDAN_MEM_STORE, A0, A4, 0x7f00),
                     mem(EDAN_MEM_STORE, A1, A2, 0x3000), mem(EDAN_MEM_LOAD, A2, A4, 0x7f00),
                     mem(EDAN_MEM_LOAD, A3, A2, 0x5000)};
    const expect xs = {4, 2, 2, 401, 801, 1, 3, 0, 32, 1}, x = {5, 4, 3, 800, 1000, 0, 3, 0, 40, 0};
    forward = 1;
    every_path("a spill, not stack slots", &c, v, 5, 0, &x);
    v[1].flags |= EDAN_INSN_STACK;
    v[3].flags |= EDAN_INSN_STACK;
    paths_to("a spill to a stack slot", &c, v, 5, 0, &xs, &x, P_COUNT - 1);
    paths_to("a spill to a stack slot across blocks", &c, v, 5, 3, &xs, &x, P_COUNT - 1);
    forward = EDAN_FORWARD_OFF;
    every_path("a spill to a stack slot, no forwarding", &c, v, 5, 0, &x);
    forward = 0;
}

/* An access across two lines that the cache serves in part: a 16-byte
   load that hits the line a chased load (md 2, F 400) is bringing from RAM
   and misses the next. Its RAM request does not wait for that fill: it
   ends at max(0 + 200, the filler's 400) at depth max(0 + 1, 2) (before
   the rule: F 600, md 3). One fill edge; three lines moved. Blocks compile
   no access across words: the feeding paths only. */
static void test_across_lines(void)
{
    edan_config c = no_cache();
    edan_insn v[] = {mem(EDAN_MEM_LOAD, A0, A5, 0x1000), mem(EDAN_MEM_LOAD, A3, A0, 0x2000),
                     mem(EDAN_MEM_LOAD, A1, A6, 0x2038), op(EDAN_CLASS_INT_ALU, A2, A1, 0)};
    const expect x = {3, 2, 2, 401, 601, 1, 3, 1, 192, 0};
    v[2].size = 16;
    c.num_levels = 1;
    c.level[0].size = 1024;
    c.level[0].assoc = 2;
    c.level[0].line = 64;
    c.level[0].latency = 1;
    paths_to("an access across lines", &c, v, 4, 0, &x, &x, P_ACCESSES);
}

/* Fill edges: the second load hits the line the first one's miss brought,
   so it starts when that miss finishes (200) and lies at its depth (1)
   without being a memory access vertex itself; one fill edge, one line
   of 64 bytes moved. */
static void test_fill_edge(void)
{
    edan_config c = no_cache();
    const edan_insn v[] = {mem(EDAN_MEM_LOAD, A0, A5, 0x1000), mem(EDAN_MEM_LOAD, A1, A6, 0x1008),
                           op(EDAN_CLASS_INT_ALU, A2, A1, 0), mem(EDAN_MEM_LOAD, A3, A2, 0x9000)};
    const expect x = {2, 2, 1, 402, 402, 2, 3, 1, 128, 0};
    c.num_levels = 1;
    c.level[0].size = 1024;
    c.level[0].assoc = 2;
    c.level[0].line = 64;
    c.level[0].latency = 1;
    every_path("fill edge", &c, v, 4, 0, &x);
    every_path("fill edge across blocks", &c, v, 4, 3, &x);
}

/* Costs per class: a multiply of 3 cycles, then an add of 1. */
static void test_costs(void)
{
    edan_config c = no_cache();
    const edan_insn v[] = {op(EDAN_CLASS_INT_MUL, A0, A1, A2), op(EDAN_CLASS_INT_ALU, A3, A0, 0)};
    const expect x = {0, 0, 0, 4, 4, 4, 1, 0, 0, 0};
    c.cost[EDAN_CLASS_INT_MUL] = 3;
    every_path("costs", &c, v, 2, 0, &x);
}

/* The steps of v[0 .. n) compiled as one block (what the compiler keeps
   of them; n <= 16). */
static uint32_t block_steps(const edan_config *c, const edan_insn *v, size_t n)
{
    edan_context *ctx = make(P_BLOCK, c);
    edan_prepared pr[16];
    edan_block *b = NULL;
    uint32_t steps = 0;
    size_t i;
    if (!ctx) return 0;
    for (i = 0; i < n; i++) CHECK(edan_prepare(ctx, &v[i], &pr[i]) == EDAN_OK);
    CHECK(edan_block_create(ctx, pr, n, &b) == EDAN_OK && b && b->compiled);
    if (b) steps = b->nstep;
    edan_destroy(ctx);
    return steps;
}

/* A branch on a compare whose flags are written again before the block
   ends (an x86-64 loop's cmp and jne, unrolled): the branch finishes last,
   load 200 + compare 3 + branch 5 = 208, though the compiled block keeps
   no step for the compare (the branch only reads it; its terms, with the
   branch's cost, stand for it in Tinf). T1 200 + 3 + 5 + 3, E 2. */
static void test_branch_compare(void)
{
    edan_config c = no_cache();
    const edan_insn v[] = {mem(EDAN_MEM_LOAD, A0, A1, 0x1000), op(EDAN_CLASS_INT_ALU, A5, A0, A2),
                           op(EDAN_CLASS_BRANCH, 0, A5, 0), op(EDAN_CLASS_INT_ALU, A5, A3, 0)};
    const expect x = {1, 1, 0, 208, 211, 11, 2, 0, 8, 0};
    c.cost[EDAN_CLASS_INT_ALU] = 3;
    c.cost[EDAN_CLASS_BRANCH] = 5;
    every_path("a branch's compare", &c, v, 4, 0, &x);
    every_path("a branch's compare across blocks", &c, v, 4, 2, &x);
    CHECK_EQ_U(block_steps(&c, v, 4), 1);     /* the block's steps: the load alone */
}

/* A multiply feeding another, then an add: the first multiply's step is
   folded into the second's (its one reader), which keeps the same F:
   load 200 + 3 + 3 + 1 = 207; T1 207, C 7, E 3. The block's steps: the
   load, the second multiply, the add. */
static void test_fold(void)
{
    edan_config c = no_cache();
    const edan_insn v[] = {mem(EDAN_MEM_LOAD, A1, A0, 0x1000), op(EDAN_CLASS_INT_MUL, A5, A1, A2),
                           op(EDAN_CLASS_INT_MUL, A6, A5, A3), op(EDAN_CLASS_INT_ALU, A5, A6, A4)};
    const expect x = {1, 1, 0, 207, 207, 7, 3, 0, 8, 0};
    c.cost[EDAN_CLASS_INT_MUL] = 3;
    every_path("a step folded into its reader", &c, v, 4, 0, &x);
    every_path("a step folded into its reader, across blocks", &c, v, 4, 2, &x);
    CHECK_EQ_U(block_steps(&c, v, 4), 3);
}

/* A step of four terms: a multiply of a load (3) folded into the fused
   multiply-add that reads it (4), whose fourth term, its third source,
   is the latest: a second load and an add of 10 after it, 210. The fma
   finishes at 214, the store after it at 414 (md 2, chained). T1 200 *
   3 + 3 + 10 + 4 = 617, C 17; the edges: the multiply's, the add's, the
   fma's two, the store's (the live-ins have no writers): 5. The block's
   steps: the two loads, the fma (the multiply folded into it), the store. */
static void test_fold_four_terms(void)
{
    edan_config c = no_cache();
    edan_insn fma = op(EDAN_CLASS_FP_FMA, A5, A5, A3);     /* the multiply's value read once: folded */
    const expect x = {3, 2, 1, 414, 617, 17, 5, 0, 24, 0};
    fma.src[fma.nsrc++] = A4;
    c.cost[EDAN_CLASS_INT_MUL] = 3;
    c.cost[EDAN_CLASS_INT_ALU] = 10;
    c.cost[EDAN_CLASS_FP_FMA] = 4;
    {
        const edan_insn v[] = {mem(EDAN_MEM_LOAD, A1, A0, 0x1000), op(EDAN_CLASS_INT_MUL, A5, A1, A2),
                               mem(EDAN_MEM_LOAD, A4, A0, 0x2000), op(EDAN_CLASS_INT_ALU, A4, A4, 0), fma,
                               mem(EDAN_MEM_STORE, A5, A0, 0x3000)};
        every_path("a step of four terms", &c, v, 6, 0, &x);
        every_path("a step of four terms across blocks", &c, v, 6, 2, &x);
        CHECK_EQ_U(block_steps(&c, v, 6), 4);
    }
}

/* A step of three terms folded into its one reader: a fused multiply-add
   of a load (200 + 4) whose value only an add of 10 reads, 214; T1 214,
   C 14, E 2. The block's steps: the load and the add, which takes the
   fma's three terms and its own live-in (steps of more than two terms were
   kept: three steps). */
static void test_fold_three_terms(void)
{
    edan_config c = no_cache();
    edan_insn fma = op(EDAN_CLASS_FP_FMA, A5, A1, A2);
    const expect x = {1, 1, 0, 214, 214, 14, 2, 0, 8, 0};
    fma.src[fma.nsrc++] = A3;
    c.cost[EDAN_CLASS_INT_ALU] = 10;
    c.cost[EDAN_CLASS_FP_FMA] = 4;
    {
        const edan_insn v[] = {mem(EDAN_MEM_LOAD, A1, A0, 0x1000), fma, op(EDAN_CLASS_INT_ALU, A5, A5, A4)};
        every_path("a step of three terms folded", &c, v, 3, 0, &x);
        every_path("a step of three terms folded, across blocks", &c, v, 3, 1, &x);
        CHECK_EQ_U(block_steps(&c, v, 3), 2);
    }
}

/* Start: a vertex starts when the last of its predecessors finishes, here
   the third source of a fused multiply-add (the load: 200), and lies as
   deep as the deepest (md 1); the store after it is chained (md 2). */
static void test_start(void)
{
    edan_config c = no_cache();
    edan_insn fma = op(EDAN_CLASS_FP_FMA, A5, A1, A2);
    const expect x = {2, 2, 1, 401, 403, 3, 5, 0, 16, 0};
    fma.src[fma.nsrc++] = A3;
    {
        const edan_insn v[] = {op(EDAN_CLASS_INT_ALU, A1, 0, 0), op(EDAN_CLASS_INT_ALU, A2, A1, 0),
                               mem(EDAN_MEM_LOAD, A3, A4, 0x1000), fma, mem(EDAN_MEM_STORE, A5, A6, 0x2000)};
        every_path("start", &c, v, 5, 0, &x);
        every_path("start across blocks", &c, v, 5, 3, &x);
    }
}

/* Threads: every reader of a register its creator wrote is an edge across
   threads, one per reader (the header's "edges into its vertices from
   another thread's"): thread 1 reads a0 twice and, from one instruction
   that wrote two registers (multi_dst), a5 and a6 in one instruction (one
   edge) and a5 again: 4. (Compiled blocks counted each such writer once
   per execution, 2 here, while the other paths counted 4.) */
static void test_thread_live_ins(void)
{
    edan_config c = no_cache();
    edan_insn t0[2], t1[4];
    int p;
    t0[0] = op(EDAN_CLASS_INT_ALU, A0, 0, 0);
    t0[1] = op(EDAN_CLASS_INT_ALU, A5, 0, 0);
    t0[1].dst[t0[1].ndst++] = A6;
    t1[0] = op(EDAN_CLASS_INT_ALU, A1, A0, 0);
    t1[1] = op(EDAN_CLASS_INT_ALU, A2, A0, A1);
    t1[2] = op(EDAN_CLASS_INT_ALU, A3, A5, A6);
    t1[3] = op(EDAN_CLASS_INT_ALU, A4, A5, 0);
    for (p = 0; p < P_COUNT; p++) {
        edan_context *ctx = make((path)p, &c);
        edan_thread_metrics m0, m1;
        edan_metrics m;
        if (!ctx) continue;
        feed((path)p, ctx, t0, 2, 0);
        CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK && edan_thread_switch(ctx, 1) == EDAN_OK);
        feed((path)p, ctx, t1, 4, 0);
        CHECK(edan_get_metrics(ctx, 0, &m) == EDAN_OK);
        CHECK(edan_get_thread_metrics(ctx, 0, 0, &m0) == EDAN_OK && edan_get_thread_metrics(ctx, 0, 1, &m1) == EDAN_OK);
        if (!(m.E == 5 && m0.cross_edges == 0 && m1.cross_edges == 4)) {
            CHECK(!"edges across threads differ in one path");
            fprintf(stderr, "  live-ins across threads through %s: E %llu, cross %llu %llu; expected 5, 0 4\n",
                    path_name[p], (unsigned long long)m.E, (unsigned long long)m0.cross_edges,
                    (unsigned long long)m1.cross_edges);
        }
        edan_destroy(ctx);
    }
}

/* Threads: thread 1 reads a register its creator wrote (a cross edge into
   thread 1) and stores; thread 0 then loads what thread 1 stored (a cross
   edge into thread 0). The chain crosses both: md 1, 2, 3. */
static void test_threads(void)
{
    edan_config c = no_cache();
    const edan_insn t0a[] = {op(EDAN_CLASS_INT_ALU, A0, 0, 0)};
    const edan_insn t1[] = {mem(EDAN_MEM_LOAD, A1, A0, 0x1000), mem(EDAN_MEM_STORE, A1, A2, 0x2000)};
    const edan_insn t0b[] = {mem(EDAN_MEM_LOAD, A3, A4, 0x2000)};
    const expect x = {3, 3, 2, 601, 601, 1, 3, 0, 24, 0};
    int p;
    for (p = 0; p < P_COUNT; p++) {
        edan_context *ctx = make((path)p, &c);
        edan_thread_metrics m0, m1;
        if (!ctx) continue;
        feed((path)p, ctx, t0a, 1, 0);
        CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK && edan_thread_switch(ctx, 1) == EDAN_OK);
        feed((path)p, ctx, t1, 2, 0);
        CHECK(edan_thread_switch(ctx, 0) == EDAN_OK);
        feed((path)p, ctx, t0b, 1, 0);
        check_metrics(ctx, (path)p, "threads", &x);
        CHECK(edan_get_thread_metrics(ctx, 0, 0, &m0) == EDAN_OK && edan_get_thread_metrics(ctx, 0, 1, &m1) == EDAN_OK);
        if (!(m0.cross_edges == 1 && m1.cross_edges == 1 && m0.W == 1 && m1.W == 2 && m0.D == 3 && m1.D == 2 &&
              m0.chained == 1 && m1.chained == 1)) {
            CHECK(!"a thread's counts differ in one path");
            fprintf(stderr, "  threads through %s: cross %llu %llu, W %llu %llu, D %llu %llu, chained %llu %llu; "
                    "expected 1 1, 1 2, 3 2, 1 1\n", path_name[p], (unsigned long long)m0.cross_edges,
                    (unsigned long long)m1.cross_edges, (unsigned long long)m0.W, (unsigned long long)m1.W,
                    (unsigned long long)m0.D, (unsigned long long)m1.D, (unsigned long long)m0.chained,
                    (unsigned long long)m1.chained);
        }
        edan_destroy(ctx);
    }
}

/* The windowed schedule of program v[0 .. n) through path p (fed 8 at a
   time: blocks hold 16 at most) with configuration c at m: lambda_window,
   the same in both configurations of the K = 2 paths; *T its time. */
static uint64_t window_of(path p, const edan_config *c, uint32_t m, const edan_insn *v, size_t n, uint64_t *T)
{
    edan_context *ctx;
    edan_window w[2];
    uint32_t k, K = p == P_FEED_K2 || p == P_BLOCK_K2 ? 2 : 1;
    size_t i;
    window_on = 1;
    window_m = m;
    ctx = make(p, c);
    if (ctx)
        for (i = 0; i < n; i += 8) feed(p, ctx, v + i, n - i < 8 ? n - i : 8, 0);
    window_on = 0;
    window_m = 0;
    if (!ctx) return 0;
    memset(w, 0, sizeof w);
    for (k = 0; k < K; k++) CHECK(edan_get_window(ctx, k, m, &w[k]) == EDAN_OK);
    CHECK(K == 1 || (w[0].lambda == w[1].lambda && w[0].T == w[1].T));
    CHECK(w[0].m == m && w[0].rob == (c->window ? c->window : 192) && w[0].lq == (c->lq ? c->lq : 32) &&
          w[0].sq == (c->sq ? c->sq : 32) && w[0].width == (c->width ? c->width : 8));
    CHECK(w[0].T == w[0].c + w[0].lambda * (c->alpha ? c->alpha : 200));
    edan_destroy(ctx);
    *T = w[0].T;
    return w[0].lambda;
}

/* lambda_window of v through every path is within tol of `want`, and
   the finite difference T(alpha + 1) - T(alpha) equals it (the schedule
   is linear in alpha there). */
static void window_every_path(const char *rule, edan_config c, uint32_t m, const edan_insn *v, size_t n, double want,
                              double tol)
{
    int p;
    for (p = 0; p < P_COUNT; p++) {
        uint64_t T0, T1, lam, lam1;
        c.alpha = 200;
        lam = window_of((path)p, &c, m, v, n, &T0);
        c.alpha = 201;
        lam1 = window_of((path)p, &c, m, v, n, &T1);
        if (fabs((double)lam - want) <= tol && T1 - T0 == lam && lam1 == lam) {
            CHECK(1);
            continue;
        }
        CHECK(!"a windowed schedule differs from the page");
        fprintf(stderr, "  %s through %s at m = %u: lambda_window %llu (at alpha 201: %llu), T(201) - T(200) = %lld; "
                "expected %.2f +- %.0f\n", rule, path_name[p], m, (unsigned long long)lam, (unsigned long long)lam1,
                (long long)(T1 - T0), want, tol);
    }
}

/* The page's worked checks of the windowed schedule: a chain of n
   dependent RAM loads has lambda_window n; n independent ones, one every 8
   instructions, with R = 192, LQ = 32: about n / 16 with m = 16 (the
   slots), n / 24 with m = 64 (the window holds 24); one every 400
   instructions: n (the window never holds two). Stores, one every 2
   instructions, against the store queue: m = 64 slots, SQ stores in
   flight, each draining after alpha: about n / SQ (32, then 8), and n / m
   once SQ is not the limit. Every path, and both configurations of K = 2. */
static void test_window(void)
{
    static edan_insn v[400 * 100];
    edan_config c = no_cache();
    size_t i, f, n;
    for (i = 0; i < 100; i++) v[i] = mem(EDAN_MEM_LOAD, A0, A0, 0x1000 + 64 * i);
    window_every_path("a chain", c, 16, v, 100, 100, 0);
    for (n = i = 0; i < 1000; i++) {
        v[n++] = mem(EDAN_MEM_LOAD, A1, A2, 0x10000 + 8 * i);
        for (f = 1; f < 8; f++) v[n++] = op(EDAN_CLASS_INT_ALU, (edan_reg)(A3 + f % 4), (edan_reg)(A3 + f % 4), 0);
    }
    window_every_path("a load every 8 instructions, m = 16", c, 16, v, n, 1000.0 / 16, 2);
    window_every_path("a load every 8 instructions, m = 64", c, 64, v, n, 1000.0 / 24, 2);
    for (n = i = 0; i < 100; i++) {
        v[n++] = mem(EDAN_MEM_LOAD, A1, A2, 0x10000 + 8 * i);
        for (f = 1; f < 400; f++) v[n++] = op(EDAN_CLASS_INT_ALU, (edan_reg)(A3 + f % 4), (edan_reg)(A3 + f % 4), 0);
    }
    window_every_path("a load every 400 instructions", c, 16, v, n, 100, 0);
    for (n = i = 0; i < 1000; i++) {
        v[n++] = mem(EDAN_MEM_STORE, A1, A2, 0x10000 + 8 * i);
        v[n++] = op(EDAN_CLASS_INT_ALU, A3, A3, 0);
    }
    window_every_path("a store every 2 instructions, SQ = 32", c, 64, v, n, 1000.0 / 32, 2);
    c.sq = 8;
    window_every_path("a store every 2 instructions, SQ = 8", c, 64, v, n, 1000.0 / 8, 2);
    c.sq = 4096;
    window_every_path("a store every 2 instructions, SQ = 4096", c, 64, v, n, 1000.0 / 64, 2);
}

/* With a cache the compiled block plays its vertices with what each
   memory step found (a hit's latency, its line's filler): every path gives
   edan_feed's lambda_window and T_window. A sum over 512 consecutive words
   (a miss every 8 loads, the hits waiting for their line's filler) and a
   copy (loads and stores), in an L1 of 4 KiB and 32 KiB. */
static void test_window_cache(void)
{
    static edan_insn v[2048];
    edan_config c = no_cache();
    size_t n = 0, i;
    int p, size;
    for (i = 0; i < 512; i++) {
        v[n++] = mem(EDAN_MEM_LOAD, A1, A2, 0x10000 + 8 * i);
        v[n++] = op(EDAN_CLASS_FP_ADD, A3, A3, A1);
        v[n++] = mem(EDAN_MEM_STORE, A1, A4, 0x40000 + 8 * i);
    }
    for (size = 0; size < 2; size++) {
        uint64_t T0 = 0, lam0;
        c.num_levels = 1;
        c.level[0].size = size ? 32768 : 4096;
        c.level[0].assoc = 4;
        c.level[0].line = 64;
        c.level[0].latency = 4;
        lam0 = window_of(P_FEED, &c, 8, v, n, &T0);
        CHECK(lam0 > 0 && lam0 < 1024);
        for (p = 1; p < P_COUNT; p++) {
            uint64_t T, lam = window_of((path)p, &c, 8, v, n, &T);
            if (lam == lam0 && T == T0) {
                CHECK(1);
                continue;
            }
            CHECK(!"a windowed schedule with a cache differs between paths");
            fprintf(stderr, "  L1 %d KiB through %s: lambda_window %llu, T %llu; edan_feed: %llu, %llu\n",
                    size ? 32 : 4, path_name[p], (unsigned long long)lam, (unsigned long long)T,
                    (unsigned long long)lam0, (unsigned long long)T0);
        }
    }
}

/* A context of configuration c alone, its window at m = 4; NULL when it
   could not be made (counted as a failed check). */
static edan_context *window_m4(edan_config *c)
{
    edan_options o;
    edan_context *ctx = NULL;
    memset(&o, 0, sizeof o);
    o.configs = c;
    o.num_configs = 1;
    o.window_m = 4;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    return ctx;
}

/* Threads: each its own window and slots (a core each). Thread 0 chases
   50 loads, thread 1 (created at the start) 80 on another list, fed ten
   at a time in turn: the schedule's time is the longer chase's, 80 RAM
   latencies, not their sum; one thread's 130 loads in one window, 130. */
static void test_window_threads(void)
{
    edan_config c = no_cache();
    edan_context *ctx = window_m4(&c);
    edan_window w;
    int t0 = 0, t1 = 0, turn = 0;
    if (!ctx) return;
    CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK);
    while (t0 < 50 || t1 < 80) {
        int k;
        CHECK(edan_thread_switch(ctx, (uint32_t)(turn & 1)) == EDAN_OK);
        for (k = 0; k < 10; k++) {
            edan_insn v;
            if (turn & 1 ? t1 >= 80 : t0 >= 50) break;
            v = turn & 1 ? mem(EDAN_MEM_LOAD, A1, A1, 0x100000 + 64 * (uint64_t)t1++)
                         : mem(EDAN_MEM_LOAD, A0, A0, 0x200000 + 64 * (uint64_t)t0++);
            CHECK(edan_feed(ctx, &v) == EDAN_OK);
        }
        turn++;
    }
    CHECK(edan_get_window(ctx, 0, 4, &w) == EDAN_OK);
    CHECK_EQ_U(w.lambda, 80);
    CHECK_EQ_U(w.T, 80 * 200);
    edan_destroy(ctx);
    if (!(ctx = window_m4(&c))) return;
    for (t0 = 0; t0 < 130; t0++) {
        edan_insn v = mem(EDAN_MEM_LOAD, A0, A0, 0x200000 + 64 * (uint64_t)t0);
        CHECK(edan_feed(ctx, &v) == EDAN_OK);
    }
    CHECK(edan_get_window(ctx, 0, 4, &w) == EDAN_OK);
    CHECK_EQ_U(w.lambda, 130);
    edan_destroy(ctx);
}

/* A compiled block's load of a word no store wrote, run by a thread
   switched to after another's long chase: the load has no word writer,
   so it waits for nothing of the other thread (its stretch's bound is
   for that thread's vertices only), as when fed one by one. */
static void test_window_threads_unwritten(void)
{
    uint64_t T[2] = {0, 0};
    int blocks, i;
    for (blocks = 0; blocks < 2; blocks++) {
        edan_config c = no_cache();
        edan_context *ctx = window_m4(&c);
        edan_window w;
        if (!ctx) return;
        CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK);
        for (i = 0; i < 300; i++) {
            edan_insn v = mem(EDAN_MEM_LOAD, A0, A0, 0x200000 + 64 * (uint64_t)i);
            CHECK(edan_feed(ctx, &v) == EDAN_OK);
        }
        CHECK(edan_thread_switch(ctx, 1) == EDAN_OK);
        for (i = 0; i < 4; i++) {
            edan_insn v[2];
            v[0] = mem(EDAN_MEM_LOAD, A1, A2, 0x100000 + 64 * (uint64_t)i);
            v[1] = op(EDAN_CLASS_INT_ALU, A3, A3, 0);
            if (blocks) {
                edan_prepared pr[2];
                uint64_t addrs[2] = {v[0].addr, 0};
                edan_block *b = NULL;
                CHECK(edan_prepare(ctx, &v[0], &pr[0]) == EDAN_OK && edan_prepare(ctx, &v[1], &pr[1]) == EDAN_OK);
                CHECK(edan_block_create(ctx, pr, 2, &b) == EDAN_OK);
                CHECK(edan_feed_block(ctx, b, addrs) == EDAN_OK);
                CHECK(b && b->compiled && b->runs == 1);
            } else {
                CHECK(edan_feed(ctx, &v[0]) == EDAN_OK && edan_feed(ctx, &v[1]) == EDAN_OK);
            }
        }
        CHECK(edan_get_window(ctx, 0, 4, &w) == EDAN_OK);
        T[blocks] = w.T;
        edan_destroy(ctx);
    }
    CHECK_EQ_U(T[0], 300 * 200);
    CHECK_EQ_U(T[1], T[0]);
}

int main(void)
{
    test_depth();
    test_through_memory();
    test_spill();
    test_across_lines();
    test_fill_edge();
    test_costs();
    test_branch_compare();
    test_fold();
    test_fold_four_terms();
    test_fold_three_terms();
    test_start();
    test_threads();
    test_thread_live_ins();
    test_window();
    test_window_threads();
    test_window_threads_unwritten();
    test_window_cache();
    return check_summary("test_paths");
}
