/* libFuzzer harness for the binary trace reader and the engine behind it.
   The input is read as a binary trace three ways:
     A  as `edan analyze` reads it: each block prepared once, each execution
        fed at once (bintrace_reader_feed), one configuration (the engine's
        lean copy);
     B  the same with a second configuration and hotspots (the general copy);
     C  every instruction through edan_feed, one at a time
        (bintrace_reader_decode with a callback), as a text trace is fed.
   The three must agree: the same outcome, and the same metrics for the
   configuration they share (also after an error: the instructions before
   the one at fault are fed). Then the same as A and C without a cache
   (the compiled blocks' plain copy) and with hotspots, which must agree
   too, hotspots included. These ways skip the checksums (so that
   mutations reach the structure behind them); a last way reads with them:
   it must fail or agree. A crash, a sanitizer report or a disagreement
   aborts. x86-64 traces are read with a stand-in decoder (the reader's
   structure is fuzzed, not Zydis): their instructions' operands come from
   their bytes by a fixed rule. Run by tests/fuzz/test_fuzz_bintrace.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "tools/front/bintrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_bintrace: %s\n", what);
    abort();
}

/* general: two configurations and hotspots; plain: no cache, hotspots */
static edan_context *make(int general, int plain)
{
    edan_config c[2];
    edan_options o;
    edan_context *ctx = NULL;
    memset(c, 0, sizeof c);
    /* a small two-level cache, so that evictions and write-backs happen */
    c[0].num_levels = 2;
    c[0].level[0].size = 512; c[0].level[0].assoc = 2; c[0].level[0].line = 64; c[0].level[0].latency = 3;
    c[0].level[1].size = 4096; c[0].level[1].assoc = 4; c[0].level[1].line = 64; c[0].level[1].latency = 11;
    memset(&o, 0, sizeof o);
    if (plain) c[0].num_levels = 0;
    o.num_configs = general ? 2 : 1;
    o.configs = c;
    o.hotspots = (uint32_t)(general || plain);
    if (edan_create(&ctx, &o) != EDAN_OK) fail("edan_create");
    return ctx;
}

static void same_hotspots(edan_context *a, edan_context *b)
{
    static edan_hotspot x[32], y[32];
    size_t nx = 0, ny = 0, i;
    if (edan_get_hotspots(a, 0, x, 32, &nx) != EDAN_OK || edan_get_hotspots(b, 0, y, 32, &ny) != EDAN_OK)
        fail("edan_get_hotspots");
    if (nx != ny) fail("hotspot counts differ");
    for (i = 0; i < nx; i++)
        if (x[i].key != y[i].key || x[i].has_pc != y[i].has_pc || x[i].op != y[i].op ||
            x[i].executed != y[i].executed || x[i].mem_vertices != y[i].mem_vertices ||
            x[i].chained != y[i].chained || x[i].max_md != y[i].max_md)
            fail("hotspots differ");
}

/* The x86-64 decoder of this harness: an operation that reads a register
   and writes one, from the first and last bytes; the second byte's low
   bits add a load before it (1), a store after it (2) or both, a
   read-modify-write that comes in VERTEX records (3; bit 6 set: a rep
   string instruction, whose executions are iterations); 0x0f alone does
   not decode. */
static int fake_x86(const uint8_t *b, unsigned len, uint64_t pc, bintrace_decoded *d)
{
    unsigned m = len >= 2 ? b[1] & 3 : 0, k = 0;
    uint16_t size = (uint16_t)(len >= 2 ? 1u << ((b[1] >> 2) & 3) : 1);
    bintrace_uop *op;
    memset(d, 0, sizeof *d);
    if (len == 1 && b[0] == 0x0f) return -1;
    d->in.pc = pc;
    d->in.cls = EDAN_CLASS_OTHER;
    if (m & 1) {
        bintrace_uop *u = &d->uop[k++];
        u->in.cls = EDAN_CLASS_LOAD;
        u->in.mem = EDAN_MEM_LOAD;
        u->in.size = size;
        u->bytes = size;
        u->exact = 1;
        u->in.nsrc = 1;
        u->in.src[0] = EDAN_X86_GPR(b[0] % 16);
        u->in.ndst = 1;
        u->in.dst[0] = EDAN_X86_TEMP(0);
    }
    op = &d->uop[k++];
    op->in.cls = EDAN_CLASS_OTHER;
    op->in.src[op->in.nsrc++] = EDAN_X86_GPR(b[0] % 16);
    if (m & 1) op->in.src[op->in.nsrc++] = EDAN_X86_TEMP(0);
    op->in.dst[op->in.ndst++] = EDAN_X86_GPR(b[len - 1] % 16);
    if (m & 2) {
        bintrace_uop *u = &d->uop[k++];
        op->in.dst[op->in.ndst++] = EDAN_X86_TEMP(3);
        u->in.cls = EDAN_CLASS_STORE;
        u->in.mem = EDAN_MEM_STORE;
        u->in.size = size;
        u->bytes = size;
        u->exact = 1;
        u->in.nsrc = 2;
        u->in.src[0] = EDAN_X86_GPR(b[0] % 16);
        u->in.src[1] = EDAN_X86_TEMP(3);
    }
    d->nuop = k;
    if (m == 1 || m == 2) {
        d->in.mem = (uint8_t)(m == 1 ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
        d->in.size = size;
    }
    d->rep = m == 3 && (b[1] & 0x40);
    d->flops = b[0] & 3;
    return 0;
}

/* A callback way's state: the context fed, and the reader (a VERTEX's
   accesses). */
typedef struct way { edan_context *ctx; bintrace_reader *r; } way;

static int feed_one(void *user, const edan_insn *in, const char **msg)
{
    way *w = (way *)user;
    edan_result r = w->r->vertex ? edan_feed_accesses(w->ctx, in, w->r->vertex, w->r->vertex_n) : edan_feed(w->ctx, in);
    if (r == EDAN_OK) return 0;
    *msg = edan_error(w->ctx);
    return 1;
}

static int kill_one(void *user, const edan_reg *regs, uint32_t nregs, const uint64_t (*ranges)[2], uint32_t nranges,
                    const char **msg)
{
    edan_context *ctx = ((way *)user)->ctx;
    uint32_t i;
    edan_result r = edan_kill_regs(ctx, regs, nregs);
    for (i = 0; r == EDAN_OK && i < nranges; i++) r = edan_kill_mem(ctx, ranges[i][0], ranges[i][1]);
    if (r == EDAN_OK) return 0;
    *msg = edan_error(ctx);
    return 1;
}

/* THREAD records, in the callback ways. */
static int thread_one(void *user, unsigned verb, uint32_t a, uint32_t b, const char **msg)
{
    edan_context *ctx = ((way *)user)->ctx;
    edan_result r = bintrace_thread_apply(ctx, verb, a, b);
    if (r == EDAN_OK) return 0;
    *msg = edan_error(ctx);
    return 1;
}

/* Each thread's share (a trace of several threads), configuration 0. */
static void same_threads(edan_context *a, edan_context *b)
{
    uint32_t t;
    if (edan_num_threads(a) != edan_num_threads(b)) fail("thread counts differ");
    for (t = 0; t < edan_num_threads(a); t++) {
        edan_thread_metrics x, y;
        int ga = edan_get_thread_metrics(a, 0, t, &x) == EDAN_OK, gb = edan_get_thread_metrics(b, 0, t, &y) == EDAN_OK;
        if (ga != gb) fail("threads differ");
        if (ga && (x.N != y.N || x.W != y.W || x.C != y.C || x.D != y.D || x.chained != y.chained ||
                   x.cross_edges != y.cross_edges || x.live != y.live))
            fail("thread metrics differ");
    }
}

static void same_metrics(edan_context *a, edan_context *b)
{
    edan_metrics x, y;
    uint64_t i;
    if (edan_get_metrics(a, 0, &x) != EDAN_OK || edan_get_metrics(b, 0, &y) != EDAN_OK) fail("edan_get_metrics");
    if (x.N != y.N || x.E != y.E || x.fill_edges != y.fill_edges || x.W != y.W || x.D != y.D || x.C != y.C || x.T1 != y.T1 || x.Tinf != y.Tinf ||
        x.bytes != y.bytes || x.loads != y.loads || x.stores != y.stores || x.amos != y.amos ||
        x.load_bytes != y.load_bytes || x.store_bytes != y.store_bytes || x.chained != y.chained ||
        x.ram_lines != y.ram_lines || x.writebacks != y.writebacks ||
        memcmp(x.level_hits, y.level_hits, sizeof x.level_hits))
        fail("metrics differ");
    for (i = 1; i <= x.D; i++) {
        uint64_t wx, wy;
        if (edan_get_layers(a, 0, i, &wx, 1) != EDAN_OK || edan_get_layers(b, 0, i, &wy, 1) != EDAN_OK || wx != wy)
            fail("layer histograms differ");
    }
}

/* The ends of the CHECK records a checked reading verified. */
typedef struct stretch_ends { unsigned long long end[8]; int n; } stretch_ends;
static void on_check(void *user, unsigned long long tag, unsigned long long end)
{
    stretch_ends *se = (stretch_ends *)user;
    (void)tag;
    if (se->n < 8) se->end[se->n++] = end;
}

/* data's stretches 1 and 2 (between its first CHECK records) swapped, and
   stretch 1 in place of stretch 2: read with the checksums, each is an
   error, or (version 2, whose checksums are per stretch) reads the numbers
   of ref or others without a sanitizer's complaint. */
static void stretches_moved(const uint8_t *data, size_t size, const stretch_ends *se, edan_context *ref,
                            unsigned version)
{
    size_t a = (size_t)se->end[0], b = (size_t)se->end[1], c = (size_t)se->end[2], v;
    uint8_t *bad = (uint8_t *)malloc(size + (b - a));
    if (!bad || c > size) fail("stretches");
    for (v = 0; v < 2; v++) {
        size_t n = a, used;
        edan_context *cx = make(0, 0);
        bintrace_reader rx;
        int rc;
        memcpy(bad, data, a);
        if (v == 0) {
            memcpy(bad + n, data + b, c - b); n += c - b;
            memcpy(bad + n, data + a, b - a); n += b - a;
        } else {
            memcpy(bad + n, data + a, b - a); n += b - a;
            memcpy(bad + n, data + a, b - a); n += b - a;
        }
        memcpy(bad + n, data + c, size - c);
        n += size - c;
        bintrace_reader_init(&rx);
        rx.decode = fake_x86;
        rc = bintrace_reader_feed(&rx, bad, n, &used, cx);
        /* the same bytes in the same order (stretches alike) read the same */
        if (rc != BINTRACE_ERR && version >= 3 && (n != size || memcmp(bad, data, n))) fail("moved stretches read");
        if (rc == BINTRACE_EOF && n == size && !memcmp(bad, data, n)) same_metrics(ref, cx);
        bintrace_reader_free(&rx);
        edan_destroy(cx);
    }
    free(bad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edan_context *ca = make(0, 0), *cb = make(1, 0), *cc = make(0, 0), *cd = make(0, 1), *ce = make(0, 1);
    bintrace_reader ra, rb, rc, rd, re;
    size_t ua = 0, ub = 0, uc = 0, ud = 0, ue = 0;
    int a, b, c, d, e;
    if (bintrace_reader_init(&ra) != BINTRACE_OK || bintrace_reader_init(&rb) != BINTRACE_OK ||
        bintrace_reader_init(&rc) != BINTRACE_OK || bintrace_reader_init(&rd) != BINTRACE_OK ||
        bintrace_reader_init(&re) != BINTRACE_OK)
        fail("bintrace_reader_init");
    way wc, we;
    ra.skip_checks = rb.skip_checks = rc.skip_checks = rd.skip_checks = re.skip_checks = 1;
    ra.decode = rb.decode = rc.decode = rd.decode = re.decode = fake_x86;
    wc.ctx = cc;
    wc.r = &rc;
    we.ctx = ce;
    we.r = &re;
    rc.kill = re.kill = kill_one;       /* the callback ways apply KILL records themselves */
    rc.kill_user = &wc;
    re.kill_user = &we;
    rc.thread = re.thread = thread_one;
    rc.thread_user = &wc;
    re.thread_user = &we;
    a = bintrace_reader_feed(&ra, data, size, &ua, ca);
    b = bintrace_reader_feed(&rb, data, size, &ub, cb);
    c = bintrace_reader_decode(&rc, data, size, &uc, feed_one, &wc);
    if (a != b || a != c) fail("outcomes differ");
    if (ra.count != rb.count || ra.count != rc.count) fail("instruction counts differ");
    if (ra.flops != rb.flops || ra.flops != rc.flops) fail("flops differ");
    if (a == BINTRACE_ERR && (ra.offset != rb.offset || ra.offset != rc.offset || strcmp(ra.error, rb.error) ||
                              strcmp(ra.error, rc.error)))
        fail("errors differ");
    if (a != BINTRACE_ERR && (ua != ub || ua != uc || ua > size)) fail("consumed bytes differ");
    if (!memchr(ra.error, 0, sizeof ra.error)) fail("message not terminated");
    same_metrics(ca, cb);
    same_metrics(ca, cc);
    same_threads(ca, cc);
    d = bintrace_reader_feed(&rd, data, size, &ud, cd);
    e = bintrace_reader_decode(&re, data, size, &ue, feed_one, &we);
    if (d != a || e != a || rd.count != ra.count || re.count != ra.count || ud != ua || ue != ua)
        fail("outcomes without a cache differ");
    same_metrics(cd, ce);
    same_threads(cd, ce);
    same_hotspots(cd, ce);
    {   /* with the checksums: an error, or what the others read; then its
           stretches between CHECK records swapped, repeated and replaced:
           an error, or (a version 2 file) the same numbers */
        edan_context *cf = make(0, 0);
        bintrace_reader rf;
        size_t uf = 0;
        int f;
        stretch_ends se;
        memset(&se, 0, sizeof se);
        bintrace_reader_init(&rf);
        rf.decode = fake_x86;
        rf.on_check = on_check;
        rf.check_user = &se;
        f = bintrace_reader_feed(&rf, data, size, &uf, cf);
        if (f != BINTRACE_ERR) {
            if (f != a || uf != ua) fail("checked reading succeeded differently");
            same_metrics(ca, cf);
        }
        if (f == BINTRACE_EOF && se.n >= 3) stretches_moved(data, size, &se, cf, rf.version);
        bintrace_reader_free(&rf);
        edan_destroy(cf);
    }
    bintrace_reader_free(&ra);
    bintrace_reader_free(&rb);
    bintrace_reader_free(&rc);
    bintrace_reader_free(&rd);
    bintrace_reader_free(&re);
    edan_destroy(ca);
    edan_destroy(cb);
    edan_destroy(cc);
    edan_destroy(cd);
    edan_destroy(ce);
    return 0;
}
