/* tests/unit/test_trace_format.c - the binary trace format (tools/front/bintrace.h):
   random blocks and executions (full and partial, strided, random and
   backwards addresses) are written, then read back in random-sized chunks
   (so records are cut at every possible place) and compared field by field
   with what was written. Also: truncation and corruption are reported as
   errors, never as a silently shorter trace. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "tools/front/bintrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng_state;
static unsigned long long rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

typedef struct check {
    const edan_insn *want;
    size_t n, next;
    int failed;
    int quiet;              /* corrupted input: mismatches are expected */
} check;

/* Ends the trace w writes to the temporary file f and reads it into
   data[0 .. cap): its size, 0 when it does not fit or cannot be read. */
static size_t close_into(bintrace_writer *w, FILE *f, unsigned char *data, size_t cap)
{
    size_t size;
    bintrace_writer_close(w);
    size = (size_t)ftell(f);
    rewind(f);
    if (size > cap || fread(data, 1, size, f) != size) size = 0;
    fclose(f);
    return size;
}

static int same(const edan_insn *a, const edan_insn *b)
{
    int k;
    if (a->pc != b->pc || a->op != b->op || a->cls != b->cls || a->mem != b->mem || a->nsrc != b->nsrc ||
        a->ndst != b->ndst || a->length != b->length || !(b->flags & EDAN_INSN_HAS_PC))
        return 0;
    if (a->mem != EDAN_MEM_NONE && (a->addr != b->addr || a->size != b->size)) return 0;
    for (k = 0; k < a->nsrc; k++) if (a->src[k] != b->src[k]) return 0;
    for (k = 0; k < a->ndst; k++) if (a->dst[k] != b->dst[k]) return 0;
    return 1;
}

static int on_insn(void *user, const edan_insn *in, const char **msg)
{
    check *c = (check *)user;
    if (c->next >= c->n) { *msg = "more instructions than written"; c->failed = 1; return 1; }
    if (!same(&c->want[c->next], in)) {
        if (!c->quiet)
            fprintf(stderr, "instruction %zu differs: pc 0x%llx/0x%llx addr 0x%llx/0x%llx op %u/%u\n", c->next,
                (unsigned long long)c->want[c->next].pc, (unsigned long long)in->pc,
                (unsigned long long)c->want[c->next].addr, (unsigned long long)in->addr, c->want[c->next].op,
                in->op);
        c->failed = 1;
        *msg = "mismatch";
        return 1;
    }
    c->next++;
    return 0;
}

/* What a reader handed over, in order: 'i' an instruction, 'k' a kill. */
typedef struct kill_log {
    char events[16];
    size_t nev;
    edan_reg regs[8];
    uint32_t nregs, nranges;
    uint64_t ranges[4][2];
} kill_log;
static int log_insn(void *user, const edan_insn *in, const char **msg)
{
    kill_log *k = (kill_log *)user;
    (void)in; (void)msg;
    if (k->nev < sizeof k->events - 1) k->events[k->nev++] = 'i';
    return 0;
}
static int log_kill(void *user, const edan_reg *regs, uint32_t nregs, const uint64_t (*ranges)[2], uint32_t nranges,
                    const char **msg)
{
    kill_log *k = (kill_log *)user;
    uint32_t i;
    (void)msg;
    if (k->nev < sizeof k->events - 1) k->events[k->nev++] = 'k';
    k->nregs = nregs;
    for (i = 0; i < nregs && i < 8; i++) k->regs[i] = regs[i];
    k->nranges = nranges;
    for (i = 0; i < nranges && i < 4; i++) {
        k->ranges[i][0] = ranges[i][0];
        k->ranges[i][1] = ranges[i][1];
    }
    return 0;
}

/* Reads data[0..n) in chunks of 1..maxchunk bytes the way `edan analyze`
   does (keep the unconsumed tail, append). Returns the final status. */
static int read_back(const unsigned char *data, size_t n, size_t maxchunk, check *c, bintrace_reader *r)
{
    unsigned char *buf = (unsigned char *)malloc(n + 1);
    size_t have = 0, off = 0, used;
    int rc = BINTRACE_OK;
    bintrace_reader_init(r);
    for (;;) {
        size_t chunk = 1 + (size_t)(rnd() % maxchunk);
        if (chunk > n - off) chunk = n - off;
        memcpy(buf + have, data + off, chunk);
        have += chunk;
        off += chunk;
        rc = bintrace_reader_decode(r, buf, have, &used, on_insn, c);
        if (rc != BINTRACE_OK) break;
        memmove(buf, buf + used, have - used);
        have -= used;
        if (off == n) break;
    }
    free(buf);
    return rc;
}

/* The analysis of data (fed by bintrace_reader_feed, in chunks of up to
   maxchunk bytes, one block execution at a time) against edan_feed of the
   instructions written, want[0..n): the same metrics in every
   configuration. Two contexts: one configuration without a cache (the
   engine's lean path) and three with caches and hotspots (its general path). */
static int analysis_agrees(const unsigned char *data, size_t size, size_t maxchunk, const edan_insn *want, size_t n)
{
    edan_config cfg[3];
    edan_options o[2];
    int v, fail = 0;
    memset(cfg, 0, sizeof cfg);
    cfg[1].num_levels = 1;
    cfg[1].level[0].size = 4096;
    cfg[1].level[0].assoc = 4;
    cfg[1].level[0].line = 64;
    cfg[2] = cfg[1];
    cfg[2].level[0].assoc = 1;
    memset(o, 0, sizeof o);
    o[1].num_configs = 3;
    o[1].configs = cfg;
    o[1].hotspots = 1;
    for (v = 0; v < 2; v++) {
        edan_context *a, *b;
        bintrace_reader r;
        unsigned char *buf = (unsigned char *)malloc(size + 1);
        size_t have = 0, off = 0, used, i;
        int rc = BINTRACE_OK;
        uint32_t k;
        if (edan_create(&a, &o[v]) != EDAN_OK || edan_create(&b, &o[v]) != EDAN_OK) return 1;
        bintrace_reader_init(&r);
        while (rc == BINTRACE_OK) {
            size_t chunk = 1 + (size_t)(rnd() % maxchunk);
            if (chunk > size - off) chunk = size - off;
            memcpy(buf + have, data + off, chunk);
            have += chunk;
            off += chunk;
            rc = bintrace_reader_feed(&r, buf, have, &used, a);
            memmove(buf, buf + used, have - used);
            have -= used;
            if (off == size && rc == BINTRACE_OK) break;
        }
        if (rc != BINTRACE_EOF) { fprintf(stderr, "analysis %d: status %d: %s\n", v, rc, r.error); fail = 1; }
        for (i = 0; i < n; i++)
            if (edan_feed(b, &want[i]) != EDAN_OK) { fprintf(stderr, "edan_feed: %s\n", edan_error(b)); fail = 1; break; }
        for (k = 0; k < edan_num_configs(a); k++) {
            edan_metrics ma, mb;
            edan_get_metrics(a, k, &ma);
            edan_get_metrics(b, k, &mb);
            if (ma.N != mb.N || ma.E != mb.E || ma.W != mb.W || ma.D != mb.D || ma.T1 != mb.T1 ||
                ma.Tinf != mb.Tinf || ma.bytes != mb.bytes || ma.N != n) {
                fprintf(stderr, "analysis %d config %u: N %llu/%llu E %llu/%llu W %llu/%llu D %llu/%llu Tinf %llu/%llu\n",
                        v, k, (unsigned long long)ma.N, (unsigned long long)mb.N, (unsigned long long)ma.E,
                        (unsigned long long)mb.E, (unsigned long long)ma.W, (unsigned long long)mb.W,
                        (unsigned long long)ma.D, (unsigned long long)mb.D, (unsigned long long)ma.Tinf,
                        (unsigned long long)mb.Tinf);
                fail = 1;
            }
        }
        bintrace_reader_free(&r);
        edan_destroy(a);
        edan_destroy(b);
        free(buf);
    }
    return fail;
}

/* analyse: addresses in 16 MiB (a shadow page per written page stays
   cheap) and the trace analysed too */
static int run(unsigned long long seed, int analyse, int *failures)
{
    enum { NB = 60, EXECS = 4000 };
    bintrace_sinsn *blk[NB];
    uint32_t nb[NB], id[NB], b, i;
    edan_insn *want = NULL;
    size_t nwant = 0, capwant = 0, size;
    bintrace_writer w;
    FILE *f = tmpfile();
    unsigned char *data;
    uint64_t pc = 0x10000 + (rnd() % 4096) * 2;
    check c;
    bintrace_reader r;
    int rc, e, fail = 0, strided = 0;
    rng_state = seed;
    if (!f || bintrace_writer_open(&w, f) != BINTRACE_OK) { fprintf(stderr, "setup failed\n"); return 1; }
    for (b = 0; b < NB; b++) {
        nb[b] = b == 0 ? BINTRACE_MAX_BLOCK : 1 + (uint32_t)(rnd() % 40);
        blk[b] = (bintrace_sinsn *)calloc(nb[b], sizeof *blk[b]);
        id[b] = UINT32_MAX;
        if (rnd() % 4 == 0) pc += rnd() % 100000 * 2;
        for (i = 0; i < nb[b]; i++) {
            edan_insn *in = &blk[b][i].in;
            int k;
            if (rnd() % 2) {
                /* an instruction as the plugin records it: its bytes, and
                   their decoding (op 0 without operands if they do not decode) */
                uint8_t len = rnd() % 2 ? 4 : 2;
                for (k = 0; k < len; k++) blk[b][i].raw[k] = (uint8_t)rnd();
                if (len == 4) blk[b][i].raw[0] |= 3;    /* a 32-bit encoding's low bits */
                else if ((blk[b][i].raw[0] & 3) == 3) blk[b][i].raw[0] ^= 1;
                if (edan_rv_decode(blk[b][i].raw, len, in) != EDAN_OK) memset(in, 0, sizeof *in);
                in->length = len;
            } else {
                /* fields of every range, without bytes (not checked against them) */
                memset(in, 0, sizeof *in);
                in->op = (uint32_t)(rnd() % 2000);
                in->cls = (uint8_t)(rnd() % EDAN_CLASS_COUNT);
                in->mem = (uint8_t)(rnd() % 4);
                in->size = in->mem ? (uint16_t)(1 + rnd() % EDAN_MAX_ACCESS) : 0;
                in->nsrc = (uint8_t)(rnd() % (EDAN_MAX_SRC + 1));
                in->ndst = (uint8_t)(rnd() % (EDAN_MAX_DST + 1));
                for (k = 0; k < in->nsrc; k++) in->src[k] = (edan_reg)(rnd() % EDAN_RV_NUM_REGS);
                for (k = 0; k < in->ndst; k++) in->dst[k] = (edan_reg)(rnd() % EDAN_RV_NUM_REGS);
            }
            in->pc = pc;
            pc += in->length ? in->length : 2;
            in->flags = (uint8_t)(EDAN_INSN_HAS_PC | (in->flags & EDAN_INSN_STACK));     /* the reader's, from the bytes */
            blk[b][i].stride = (rnd() % 9) * 8 - 32;  /* the test's own stride, also backwards */
            blk[b][i].last = analyse ? rnd() & 0xffffff : rnd();
        }
    }
    /* The writer keeps its predictors in the block; the test keeps its own
       address generator in a copy. */
    {
        uint64_t *gen_last[NB], *gen_stride[NB];
        for (b = 0; b < NB; b++) {
            gen_last[b] = (uint64_t *)malloc(nb[b] * sizeof(uint64_t));
            gen_stride[b] = (uint64_t *)malloc(nb[b] * sizeof(uint64_t));
            for (i = 0; i < nb[b]; i++) {
                gen_last[b][i] = blk[b][i].last;
                gen_stride[b][i] = blk[b][i].stride;
                blk[b][i].last = blk[b][i].stride = 0;
            }
        }
        for (e = 0; e < EXECS; e++) {
            uint32_t first = 0, count;
            b = (uint32_t)(rnd() % NB);
            count = nb[b];
            if (rnd() % 3 == 0) {
                first = (uint32_t)(rnd() % nb[b]);
                count = 1 + (uint32_t)(rnd() % (nb[b] - first));
            }
            for (i = first; i < first + count; i++) {
                edan_insn *in = &blk[b][i].in;
                if (in->mem) {
                    unsigned r = (unsigned)(rnd() % 10);
                    if (r < 7) { gen_last[b][i] += gen_stride[b][i]; strided++; }
                    else if (r < 9) gen_last[b][i] = analyse ? rnd() & 0xffffff : rnd();
                    else gen_last[b][i] -= rnd() % 65536;
                    in->addr = gen_last[b][i];
                }
                if (nwant == capwant) {
                    capwant = capwant ? 2 * capwant : 4096;
                    want = (edan_insn *)realloc(want, capwant * sizeof *want);
                }
                want[nwant++] = *in;
            }
            if (id[b] == UINT32_MAX) id[b] = bintrace_write_define(&w, blk[b], nb[b]);
            bintrace_write_exec(&w, id[b], blk[b], nb[b], first, count);
        }
        for (b = 0; b < NB; b++) { free(gen_last[b]); free(gen_stride[b]); }
    }
    if (bintrace_writer_close(&w) != BINTRACE_OK) { fprintf(stderr, "write failed\n"); return 1; }
    size = (size_t)ftell(f);
    data = (unsigned char *)malloc(size);
    rewind(f);
    if (fread(data, 1, size, f) != size) { fprintf(stderr, "read failed\n"); return 1; }
    fclose(f);

    /* whole, in chunks of every size range */
    {
        static const size_t chunks[] = {1, 7, 300, 1u << 20};
        size_t k;
        for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
            memset(&c, 0, sizeof c);
            c.want = want;
            c.n = nwant;
            rc = read_back(data, size, chunks[k], &c, &r);
            if (rc != BINTRACE_EOF || c.next != nwant || c.failed || r.count != nwant) {
                fprintf(stderr, "seed %llu chunks <= %zu: status %d, %zu of %zu instructions%s%s\n", seed,
                        chunks[k], rc, c.next, nwant, rc == BINTRACE_ERR ? ": " : "", rc == BINTRACE_ERR ? r.error : "");
                fail = 1;
            }
            bintrace_reader_free(&r);
        }
    }
    /* analysed as read: the metrics of edan_feed over what was written */
    if (analyse && analysis_agrees(data, size, 1u << 16, want, nwant)) fail = 1;
    /* truncated anywhere: never a clean end */
    for (e = 0; e < 30; e++) {
        size_t cut = (size_t)(rnd() % size);
        memset(&c, 0, sizeof c);
        c.want = want;
        c.n = nwant;
        rc = read_back(data, cut, 4096, &c, &r);
        if (rc == BINTRACE_EOF) { fprintf(stderr, "seed %llu: a trace cut at %zu of %zu bytes ended cleanly\n", seed, cut, size); fail = 1; }
        bintrace_reader_free(&r);
    }
    /* corrupted bytes: an error, a mismatch or (rarely) a different valid
       value, never a crash; a flipped end record is always caught */
    for (e = 0; e < 200; e++) {
        unsigned char *bad = (unsigned char *)malloc(size);
        memcpy(bad, data, size);
        bad[rnd() % size] ^= (unsigned char)(1 + rnd() % 255);
        memset(&c, 0, sizeof c);
        c.want = want;
        c.n = nwant;
        c.quiet = 1;
        (void)read_back(bad, size, 4096, &c, &r);
        bintrace_reader_free(&r);
        if (analyse && e < 50) {    /* and analysed: an error or metrics, never a crash */
            edan_context *ctx;
            size_t used;
            edan_create(&ctx, NULL);
            bintrace_reader_init(&r);
            (void)bintrace_reader_feed(&r, bad, size, &used, ctx);
            bintrace_reader_free(&r);
            edan_destroy(ctx);
        }
        free(bad);
    }
    printf("seed %llu: %zu instructions (%d strided accesses), %zu bytes = %.2f bytes/instruction: %s\n", seed,
           nwant, strided, size, (double)size / (double)nwant, fail ? "FAIL" : "ok");
    for (b = 0; b < NB; b++) free(blk[b]);
    free(want);
    free(data);
    *failures += fail;
    return fail;
}

/* nblocks blocks of 1 to 8 real RV64 instructions (loads, stores, ALU
   operations), not yet defined (id UINT32_MAX). */
static void random_blocks(bintrace_sinsn (*blk)[8], uint32_t *nb, uint32_t *id, uint32_t nblocks)
{
    uint32_t b, i;
    memset(blk, 0, nblocks * sizeof *blk);
    for (b = 0; b < nblocks; b++) {
        nb[b] = 1 + (uint32_t)(rnd() % 8);
        id[b] = UINT32_MAX;
        for (i = 0; i < nb[b]; i++) {
            bintrace_sinsn *x = &blk[b][i];
            do {
                uint32_t word = (uint32_t)rnd() | 3;
                memcpy(x->raw, &word, 4);
            } while (edan_rv_decode(x->raw, 4, &x->in) != EDAN_OK);
            x->in.length = 4;
            x->in.pc = 0x10000 + 64 * b + 4 * i;
            x->in.flags = EDAN_INSN_HAS_PC;
        }
    }
}

/* Every byte of a trace changed in turn (xor a random nonzero value): each
   read either fails or gives the metrics of the original, never others
   (the checksums, the check of instructions against their bytes). */
static int flips(void)
{
    enum { NB = 12, EXECS = 300 };
    bintrace_sinsn blk[NB][8];
    uint32_t nb[NB], b, i, id[NB];
    bintrace_writer w;
    FILE *f = tmpfile();
    unsigned char *data, *bad;
    size_t size, p, errors = 0, same = 0, used;
    edan_metrics ref;
    int e, fail = 0;
    memset(&ref, 0, sizeof ref);
    rng_state = 0xf11b5;
    if (!f || bintrace_writer_open(&w, f) != BINTRACE_OK) return 1;
    random_blocks(blk, nb, id, NB);
    for (e = 0; e < EXECS; e++) {
        b = (uint32_t)(rnd() % NB);
        for (i = 0; i < nb[b]; i++) blk[b][i].in.addr = 0x8000 + 8 * (rnd() % 512);
        if (id[b] == UINT32_MAX) id[b] = bintrace_write_define(&w, blk[b], nb[b]);
        bintrace_write_exec(&w, id[b], blk[b], nb[b], 0, nb[b]);
        if (e % 50 == 49) {
            static const edan_reg regs[2] = {10, 11};
            static const uint64_t ranges[1][2] = {{0x8100, 16}};
            bintrace_write_kill(&w, regs, 2, ranges, 1);
        }
    }
    bintrace_writer_close(&w);
    size = (size_t)ftell(f);
    rewind(f);
    data = (unsigned char *)malloc(size);
    bad = (unsigned char *)malloc(size);
    if (!data || !bad || fread(data, 1, size, f) != size) return 1;
    fclose(f);
    for (p = 0; p <= size; p++) {       /* first the original (p == 0 unchanged), then byte p - 1 changed */
        edan_context *ctx;
        bintrace_reader r;
        edan_metrics m;
        int rc;
        memcpy(bad, data, size);
        if (p) bad[p - 1] ^= (unsigned char)(1 + rnd() % 255);
        if (edan_create(&ctx, NULL) != EDAN_OK) return 1;
        bintrace_reader_init(&r);
        rc = bintrace_reader_feed(&r, bad, size, &used, ctx);
        edan_get_metrics(ctx, 0, &m);
        if (!p) {
            if (rc != BINTRACE_EOF) { fprintf(stderr, "flips: the original does not read: %s\n", r.error); fail = 1; }
            ref = m;
        } else if (rc == BINTRACE_ERR || rc == BINTRACE_OK) {      /* OK: wants more, a cut-off file to a reader */
            errors++;
        } else if (rc == BINTRACE_EOF && m.N == ref.N && m.E == ref.E && m.W == ref.W && m.D == ref.D &&
                   m.Tinf == ref.Tinf && m.T1 == ref.T1 && m.bytes == ref.bytes) {
            same++;
        } else {
            fprintf(stderr, "flips: byte %zu of %zu changed, status %d, N %llu/%llu W %llu/%llu D %llu/%llu\n", p - 1,
                    size, rc, (unsigned long long)m.N, (unsigned long long)ref.N, (unsigned long long)m.W,
                    (unsigned long long)ref.W, (unsigned long long)m.D, (unsigned long long)ref.D);
            fail = 1;
        }
        bintrace_reader_free(&r);
        edan_destroy(ctx);
    }
    printf("flips: %zu bytes each changed once: %zu errors, %zu the same numbers, %s\n", size, errors, same,
           fail ? "FAIL" : "ok");
    free(data);
    free(bad);
    return fail;
}

/* CHECK records' offsets, as the reader verifies them. */
typedef struct checks { unsigned long long end[64]; int n; } checks;
static void on_check(void *user, unsigned long long tag, unsigned long long end)
{
    checks *c = (checks *)user;
    (void)tag;
    if (c->n < 64) c->end[c->n++] = end;
}

/* A trace of several CHECK stretches written in a format version: its
   bytes (malloc'd) in *data, *size. */
static int write_stretches(unsigned version, unsigned char **data, size_t *size)
{
    enum { NB = 12, EXECS = 250000 };
    bintrace_sinsn blk[NB][8];
    uint32_t nb[NB], b, i, id[NB];
    bintrace_writer w;
    FILE *f = tmpfile();
    int e;
    rng_state = 0x5e9;
    if (!f || bintrace_writer_open_version(&w, f, EDAN_ISA_RISCV64, version) != BINTRACE_OK) return 1;
    random_blocks(blk, nb, id, NB);
    for (e = 0; e < EXECS; e++) {
        b = (uint32_t)(rnd() % NB);
        for (i = 0; i < nb[b]; i++) blk[b][i].in.addr = 0x8000 + 8 * (rnd() % 4096);
        if (id[b] == UINT32_MAX) id[b] = bintrace_write_define(&w, blk[b], nb[b]);
        bintrace_write_exec(&w, id[b], blk[b], nb[b], 0, nb[b]);
    }
    bintrace_writer_close(&w);
    *size = (size_t)ftell(f);
    rewind(f);
    *data = (unsigned char *)malloc(*size);
    if (!*data || fread(*data, 1, *size, f) != *size) return 1;
    fclose(f);
    return 0;
}

/* Reads data[0..size): its status, metrics and (c) CHECK offsets. */
static int read_whole(const unsigned char *data, size_t size, edan_metrics *m, checks *c, char *warning, size_t wn)
{
    edan_context *ctx;
    bintrace_reader r;
    size_t used;
    int rc;
    if (edan_create(&ctx, NULL) != EDAN_OK) return BINTRACE_ERR;
    bintrace_reader_init(&r);
    r.on_check = on_check;
    r.check_user = c;
    rc = bintrace_reader_feed(&r, data, size, &used, ctx);
    edan_get_metrics(ctx, 0, m);
    if (warning) snprintf(warning, wn, "%s", r.warning);
    bintrace_reader_free(&r);
    edan_destroy(ctx);
    return rc;
}

/* The stretches between CHECK records moved, repeated and replaced: in a
   version 3 trace (the checksums chained) each is an error; a version 2
   trace (each checksum its own stretch's) still reads, with its warning,
   and reads them as a good file (its weakness, which version 3 removes). */
static int stretches(void)
{
    unsigned version;
    int fail = 0;
    for (version = 2; version <= 3; version++) {
        unsigned char *data, *bad;
        size_t size, a, b0, b1, b2, k;
        checks c;
        edan_metrics ref, m;
        char warning[200];
        int rc, v;
        memset(&c, 0, sizeof c);
        if (write_stretches(version, &data, &size)) return 1;
        rc = read_whole(data, size, &ref, &c, warning, sizeof warning);
        if (rc != BINTRACE_EOF || c.n < 4 || (version == 2) != (strstr(warning, "version 2") != NULL)) {
            fprintf(stderr, "stretches: version %u: status %d, %d CHECK records, warning '%s'\n", version, rc, c.n,
                    warning);
            free(data);
            return 1;
        }
        a = c.end[0];
        b0 = c.end[1];
        b1 = c.end[2];
        b2 = c.end[3];
        bad = (unsigned char *)malloc(size + (b1 - a));
        for (v = 0; v < 3; v++) {
            size_t n = 0;
            checks c2;
            memset(&c2, 0, sizeof c2);
            memcpy(bad, data, a);
            n = a;
            if (v == 0) {           /* stretches 1 and 2 swapped */
                memcpy(bad + n, data + b0, b1 - b0); n += b1 - b0;
                memcpy(bad + n, data + a, b0 - a); n += b0 - a;
                k = b1;
            } else if (v == 1) {    /* stretch 2 replaced by a copy of stretch 1 */
                memcpy(bad + n, data + a, b0 - a); n += b0 - a;
                memcpy(bad + n, data + a, b0 - a); n += b0 - a;
                k = b1;
            } else {                /* stretch 1 repeated */
                memcpy(bad + n, data + a, b0 - a); n += b0 - a;
                memcpy(bad + n, data + a, b2 - a); n += b2 - a;
                k = b2;
            }
            memcpy(bad + n, data + k, size - k);
            n += size - k;
            rc = read_whole(bad, n, &m, &c2, NULL, 0);
            if (version == 3 && rc != BINTRACE_ERR) {
                fprintf(stderr, "stretches: version 3, change %d: status %d, W %llu (of %llu)\n", v, rc,
                        (unsigned long long)m.W, (unsigned long long)ref.W);
                fail = 1;
            }
            if (version == 2 && v == 0 && rc == BINTRACE_ERR) {
                fprintf(stderr, "stretches: version 2, swapped: refused, which version 2 cannot do\n");
                fail = 1;
            }
            if (version == 2 && v == 0)
                printf("stretches: version 2, stretches 1 and 2 swapped: read to the end, W %llu where the file has %llu; "
                       "version 3 refuses it\n", (unsigned long long)m.W, (unsigned long long)ref.W);
        }
        free(bad);
        free(data);
    }
    printf("stretches: %s\n", fail ? "FAIL" : "ok");
    return fail;
}

/* The callback way of reading into an analysis (ctx: user). */
static int feed_insn(void *user, const edan_insn *in, const char **msg)
{
    edan_context *ctx = (edan_context *)user;
    if (edan_feed(ctx, in) == EDAN_OK) return 0;
    *msg = edan_error(ctx);
    return 1;
}

static int thread_fed(void *user, unsigned verb, uint32_t a, uint32_t b, const char **msg)
{
    edan_context *ctx = (edan_context *)user;
    edan_result r = bintrace_thread_apply(ctx, verb, a, b);
    if (r == EDAN_OK) return 0;
    *msg = edan_error(ctx);
    return 1;
}

static int kill_fed(void *user, const edan_reg *regs, uint32_t nregs, const uint64_t (*ranges)[2], uint32_t nranges,
                    const char **msg)
{
    edan_context *ctx = (edan_context *)user;
    edan_result r = edan_kill_regs(ctx, regs, nregs);
    (void)ranges;
    if (r == EDAN_OK && !nranges) return 0;
    *msg = nranges ? "ranges" : edan_error(ctx);
    return 1;
}

int main(void)
{
    int failures = 0;
    unsigned long long seed;
    uint32_t i;
    for (seed = 1; seed <= 6; seed++) run(seed * 0x9e3779b97f4a7c15ull, seed <= 2, &failures);
    failures += stretches();
    /* THREAD records: instructions after the thread fed exits belong to no
       thread and are refused (the engine's rule), both ways of reading;
       after a switch to a running thread they are taken again */
    {
        bintrace_sinsn blk[1];
        int round;
        memset(blk, 0, sizeof blk);
        blk[0].in.pc = 0x1000;
        blk[0].in.cls = EDAN_CLASS_INT_ALU;
        blk[0].in.ndst = 1;
        blk[0].in.dst[0] = 5;
        for (round = 0; round < 2; round++) {
            bintrace_writer w;
            FILE *f = tmpfile();
            unsigned char data[256];
            size_t size, used;
            edan_context *ctx;
            bintrace_reader r;
            int rc, rc2;
            if (!f || bintrace_writer_open(&w, f) != BINTRACE_OK) return 1;
            bintrace_write_define(&w, blk, 1);
            bintrace_write_thread(&w, 0, 0, 1);
            bintrace_write_exec(&w, 0, blk, 1, 0, 1);
            bintrace_write_thread(&w, 2, 0, 0);         /* thread 0, the one fed, exits */
            if (round == 1) bintrace_write_thread(&w, 1, 1, 0);
            bintrace_write_exec(&w, 0, blk, 1, 0, 1);
            if (!(size = close_into(&w, f, data, sizeof data))) return 1;
            edan_create(&ctx, NULL);
            bintrace_reader_init(&r);
            rc = bintrace_reader_feed(&r, data, size, &used, ctx);
            if (round == 0 ? rc != BINTRACE_ERR || !strstr(r.error, "no thread is running") : rc != BINTRACE_EOF) {
                fprintf(stderr, "an instruction after its thread's exit (round %d): status %d, '%s'\n", round, rc,
                        r.error);
                failures++;
            }
            bintrace_reader_free(&r);
            edan_destroy(ctx);
            edan_create(&ctx, NULL);
            bintrace_reader_init(&r);
            r.thread = thread_fed;
            r.thread_user = ctx;
            rc2 = bintrace_reader_decode(&r, data, size, &used, feed_insn, ctx);
            if (rc2 != rc) {
                fprintf(stderr, "an instruction after its thread's exit (round %d): read %d one way, %d the other\n",
                        round, rc, rc2);
                failures++;
            }
            bintrace_reader_free(&r);
            edan_destroy(ctx);
        }
    }
    /* THREAD records' signal verbs: a chase (a0 = *a0) interrupted by a
       handler that writes a0 (killed by the kernel first, then loaded):
       after the sigreturn the chase goes on from its own a0 (D = 6, the
       handler's load one more access); dropped instead, from the
       handler's (D = 4). Both ways of reading agree with the engine fed
       directly; a sigreturn with no handler running is refused. */
    {
        bintrace_sinsn blk[2];
        const edan_reg a0 = 10;          /* x10 */
        unsigned verb;
        memset(blk, 0, sizeof blk);
        blk[0].in.cls = blk[1].in.cls = EDAN_CLASS_LOAD;
        blk[0].in.mem = blk[1].in.mem = EDAN_MEM_LOAD;
        blk[0].in.size = blk[1].in.size = 8;
        blk[0].in.nsrc = blk[0].in.ndst = blk[1].in.ndst = 1;
        blk[0].in.src[0] = blk[0].in.dst[0] = blk[1].in.dst[0] = a0;
        blk[0].in.pc = 0x1000;
        blk[1].in.pc = 0x2000;
        for (verb = BINTRACE_SIGRETURN; verb <= BINTRACE_SIGDROP + 1; verb++) {
            bintrace_writer w;
            FILE *f = tmpfile();
            unsigned char data[512];
            size_t size, used, k;
            edan_context *ctx[3];
            bintrace_reader r;
            edan_metrics m[3];
            int rc[2], way;
            uint64_t want_d = verb == BINTRACE_SIGRETURN ? 6 : 4;
            if (!f || bintrace_writer_open(&w, f) != BINTRACE_OK) return 1;
            bintrace_write_define(&w, blk, 1);
            bintrace_write_define(&w, blk + 1, 1);
            for (k = 0; k < 6; k++) {
                blk[0].in.addr = 0x8000 + 64 * k;
                if (k == 3) {       /* the handler */
                    blk[1].in.addr = 0x9000;
                    if (verb <= BINTRACE_SIGDROP) bintrace_write_thread(&w, BINTRACE_SIGNAL, 0, 0);
                    bintrace_write_kill(&w, &a0, 1, NULL, 0);
                    bintrace_write_exec(&w, 1, blk + 1, 1, 0, 1);
                    bintrace_write_thread(&w, verb <= BINTRACE_SIGDROP ? verb : BINTRACE_SIGRETURN, 0, 0);
                }
                bintrace_write_exec(&w, 0, blk, 1, 0, 1);
            }
            if (!(size = close_into(&w, f, data, sizeof data))) return 1;
            for (way = 0; way < 3; way++) edan_create(&ctx[way], NULL);
            bintrace_reader_init(&r);
            rc[0] = bintrace_reader_feed(&r, data, size, &used, ctx[0]);
            bintrace_reader_free(&r);
            bintrace_reader_init(&r);
            r.thread = thread_fed;
            r.thread_user = ctx[1];
            r.kill = kill_fed;
            r.kill_user = ctx[1];
            rc[1] = bintrace_reader_decode(&r, data, size, &used, feed_insn, ctx[1]);
            if (verb > BINTRACE_SIGDROP) {      /* no handler ran: refused both ways */
                if (rc[0] != BINTRACE_ERR || rc[1] != BINTRACE_ERR || !strstr(r.error, "no signal handler")) {
                    fprintf(stderr, "a sigreturn without a signal: status %d and %d, '%s'\n", rc[0], rc[1], r.error);
                    failures++;
                }
            } else {
                for (k = 0; k < 6; k++) {   /* the engine itself */
                    blk[0].in.addr = 0x8000 + 64 * k;
                    if (k == 3) {
                        blk[1].in.addr = 0x9000;
                        edan_signal_deliver(ctx[2]);
                        edan_kill_regs(ctx[2], &a0, 1);
                        edan_feed(ctx[2], &blk[1].in);
                        if (verb == BINTRACE_SIGRETURN) edan_signal_return(ctx[2]);
                        else edan_signal_drop(ctx[2]);
                    }
                    edan_feed(ctx[2], &blk[0].in);
                }
                for (way = 0; way < 3; way++) edan_get_metrics(ctx[way], 0, &m[way]);
                if (rc[0] != BINTRACE_EOF || rc[1] != BINTRACE_EOF || m[0].W != 7 || m[0].D != want_d ||
                    m[1].D != want_d || m[2].D != want_d || m[1].E != m[0].E || m[2].E != m[0].E) {
                    fprintf(stderr, "signal verb %u: status %d and %d, D %llu, %llu and %llu (want %llu), W %llu\n", verb,
                            rc[0], rc[1], (unsigned long long)m[0].D, (unsigned long long)m[1].D,
                            (unsigned long long)m[2].D, (unsigned long long)want_d, (unsigned long long)m[0].W);
                    failures++;
                }
            }
            bintrace_reader_free(&r);
            for (way = 0; way < 3; way++) edan_destroy(ctx[way]);
        }
    }
    /* header checks */
    {
        static const unsigned char hdr[16] = {'E', 'D', 'A', 'N', 'B', 'T', BINTRACE_VERSION + 1, 0, 1, 0, 16, 0,
                                              0, 0, 0, 0};
        bintrace_reader r;
        size_t used;
        check c;
        memset(&c, 0, sizeof c);
        bintrace_reader_init(&r);
        if (bintrace_reader_decode(&r, hdr, sizeof hdr, &used, on_insn, &c) != BINTRACE_ERR ||
            !strstr(r.error, "version")) {
            fprintf(stderr, "a header of a version after %d was not refused\n", BINTRACE_VERSION);
            failures++;
        }
        bintrace_reader_free(&r);
        if (!bintrace_detect(hdr, sizeof hdr) || bintrace_detect((const unsigned char *)"lw a4,0(a5)", 11)) {
            fprintf(stderr, "bintrace_detect is wrong\n");
            failures++;
        }
    }
    /* the load offset of a position-independent program: set before any
       record, read back; too late once a record is out; a version 2 file
       (16-byte header) has none */
    {
        bintrace_sinsn blk[1];
        int version;
        memset(blk, 0, sizeof blk);
        blk[0].in.pc = 0x4000001000ull;
        blk[0].in.cls = EDAN_CLASS_INT_ALU;
        for (version = 2; version <= BINTRACE_VERSION; version++) {
            bintrace_writer w;
            bintrace_reader r;
            unsigned char data[256];
            size_t size, used;
            int set, late, rc;
            check c;
            FILE *f = tmpfile();
            if (!f || bintrace_writer_open_version(&w, f, EDAN_ISA_RISCV64, (unsigned)version) != BINTRACE_OK) return 1;
            set = bintrace_writer_set_load(&w, 0x4000000000ull);
            bintrace_write_define(&w, blk, 1);
            late = bintrace_writer_set_load(&w, 0x5000000000ull);
            bintrace_write_exec(&w, 0, blk, 1, 0, 1);
            if (!(size = close_into(&w, f, data, sizeof data))) return 1;
            memset(&c, 0, sizeof c);
            c.want = &blk[0].in;
            c.n = 1;
            bintrace_reader_init(&r);
            rc = bintrace_reader_decode(&r, data, size, &used, on_insn, &c);
            if (rc != BINTRACE_EOF || c.next != 1 || c.failed || late != BINTRACE_ERR ||
                (version >= 3 ? set != BINTRACE_OK || r.load != 0x4000000000ull || data[10] != 24
                              : set != BINTRACE_ERR || r.load != 0 || data[10] != 16)) {
                fprintf(stderr, "version %d: load offset set %d, late %d, read 0x%llx (header %u bytes, rc %d)\n",
                        version, set, late, (unsigned long long)r.load, data[10], rc);
                failures++;
            }
            bintrace_reader_free(&r);
        }
    }
    /* an instruction the analysis refuses (a register id out of range) is
       an error when it runs, not before: the instructions before it are fed;
       a part of the block after it runs as usual */
    {
        bintrace_sinsn blk[3];
        bintrace_writer w;
        FILE *f;
        unsigned char data[256];
        size_t size, used;
        int round;
        memset(blk, 0, sizeof blk);
        for (i = 0; i < 3; i++) {
            blk[i].in.pc = 0x1000 + 4 * i;
            blk[i].in.length = 0;      /* no bytes: fields the decoder cannot make */
            blk[i].in.cls = EDAN_CLASS_INT_ALU;
            blk[i].in.ndst = 1;
            blk[i].in.dst[0] = 5;
        }
        blk[1].in.nsrc = 1;
        blk[1].in.src[0] = 60000;
        for (round = 0; round < 3; round++) {
            edan_context *ctx;
            edan_metrics m;
            bintrace_reader r;
            int rc;
            f = tmpfile();
            if (!f || bintrace_writer_open(&w, f) != BINTRACE_OK) return 1;
            bintrace_write_define(&w, blk, 3);
            bintrace_write_exec(&w, 0, blk, 3, 0, 1);       /* runs the first only */
            if (round == 1) bintrace_write_exec(&w, 0, blk, 3, 0, 3);
            if (round == 2) bintrace_write_exec(&w, 0, blk, 3, 2, 1);
            if (!(size = close_into(&w, f, data, sizeof data))) return 1;
            edan_create(&ctx, NULL);
            bintrace_reader_init(&r);
            rc = bintrace_reader_feed(&r, data, size, &used, ctx);
            edan_get_metrics(ctx, 0, &m);
            /* round 2 runs the third instruction after the first */
            if (round != 1 && (rc != BINTRACE_EOF || m.N != (round == 2 ? 2u : 1u))) {
                fprintf(stderr, "a refused instruction that never runs: status %d, N %llu\n", rc, (unsigned long long)m.N);
                failures++;
            }
            if (round == 1 && (rc != BINTRACE_ERR || m.N != 2 || !strstr(r.error, "pc 0x1004"))) {
                fprintf(stderr, "a refused instruction that runs: status %d, N %llu, '%s'\n", rc, (unsigned long long)m.N,
                        r.error);
                failures++;
            }
            bintrace_reader_free(&r);
            edan_destroy(ctx);
        }
    }
    /* KILL records (version 2): handed over in trace order, between the
       executions around them, with their registers and ranges as written;
       applied by bintrace_reader_feed (the second execution's read of
       register 5 then makes no edge); refused in a version-1 file */
    {
        bintrace_sinsn blk[2];
        bintrace_writer w;
        FILE *f;
        unsigned char data[512];
        size_t size, used;
        static const edan_reg regs[3] = {5, 7, 4100};
        static const uint64_t ranges[2][2] = {{0x7000, 16}, {0x1000, 3}};
        kill_log kl;
        edan_context *ctx;
        edan_metrics m;
        bintrace_reader r;
        int rc;
        memset(blk, 0, sizeof blk);
        blk[0].in.pc = 0x1000;
        blk[0].in.length = 0;
        blk[0].in.cls = EDAN_CLASS_INT_ALU;
        blk[0].in.nsrc = 1;
        blk[0].in.src[0] = 5;
        blk[0].in.ndst = 1;
        blk[0].in.dst[0] = 5;
        f = tmpfile();
        if (!f || bintrace_writer_open(&w, f) != BINTRACE_OK) return 1;
        bintrace_write_define(&w, blk, 1);
        bintrace_write_exec(&w, 0, blk, 1, 0, 1);
        bintrace_write_kill(&w, regs, 3, ranges, 2);
        bintrace_write_exec(&w, 0, blk, 1, 0, 1);
        if (!(size = close_into(&w, f, data, sizeof data))) return 1;
        memset(&kl, 0, sizeof kl);
        bintrace_reader_init(&r);
        r.kill = log_kill;
        r.kill_user = &kl;
        rc = bintrace_reader_decode(&r, data, size, &used, log_insn, &kl);
        if (rc != BINTRACE_EOF || strcmp(kl.events, "iki") || kl.nregs != 3 || kl.regs[2] != 4100 ||
            kl.nranges != 2 || kl.ranges[0][0] != 0x7000 || kl.ranges[0][1] != 16 || kl.ranges[1][0] != 0x1000 ||
            kl.ranges[1][1] != 3) {
            fprintf(stderr, "a KILL record read back wrong: status %d, events '%s'\n", rc, kl.events);
            failures++;
        }
        bintrace_reader_free(&r);
        edan_create(&ctx, NULL);
        bintrace_reader_init(&r);
        rc = bintrace_reader_feed(&r, data, size, &used, ctx);
        edan_get_metrics(ctx, 0, &m);
        if (rc != BINTRACE_EOF || m.N != 2 || m.E != 0) {
            fprintf(stderr, "a KILL record not applied: status %d, N %llu, E %llu\n", rc, (unsigned long long)m.N,
                    (unsigned long long)m.E);
            failures++;
        }
        bintrace_reader_free(&r);
        edan_destroy(ctx);
        data[6] = 1;        /* the same file as version 1: no KILL records there */
        bintrace_reader_init(&r);
        memset(&kl, 0, sizeof kl);
        rc = bintrace_reader_decode(&r, data, size, &used, log_insn, &kl);
        if (rc != BINTRACE_ERR || !strstr(r.error, "unknown record kind")) {
            fprintf(stderr, "a KILL record in a version-1 file was not refused: status %d\n", rc);
            failures++;
        }
        bintrace_reader_free(&r);
    }
    failures += flips();
    printf("%s\n", failures ? "FAILED" : "all ok");
    return failures != 0;
}
