/* tools/front/bintrace.h - the EDAN binary trace format: writer and reader.

   Shared by the QEMU plugin (writer) and `edan analyze` (reader); all
   functions are static inline. Needs edan.h (for edan_insn) included first
   or here.

   FORMAT (version 3; all integers little-endian; "varint" = unsigned LEB128,
   at most 10 bytes; "zz" = zigzag-coded signed varint)
     Header, 16 bytes:
       0  "EDANBT"       magic
       6  u16 version    3 (version 2, whose checksums cover each stretch
                         alone, and version 1, without KILL and CHECK
                         records, are still read, with a warning)
       8  u16 isa        1 = RISC-V RV64, 2 = x86-64
      10  u16 hdr_size   24 (16 before the load offset; a reader skips bytes
                         up to hdr_size)
      12  u32 flags      0 (anything else is refused)
      16  u64 load       where a position-independent program was loaded: a
                         pc minus it is an address of the program file, as
                         objdump -d lists them (0: as linked; absent when
                         hdr_size is 16)
     Then records, each starting with a varint tag T; T & 3 is the kind:
       2 DEFINE: a block (straight-line run of static instructions) with id
         T >> 2, which must equal the number of blocks defined before.
           varint n (1..BINTRACE_MAX_BLOCK), then n instructions:
             zz    pc - (previous pc + previous length) (first: pc - 0)
             RISC-V:
             u8    length (0..4), then `length` raw instruction bytes
             varint op; u8 class; u8 mem kind; varint access size
             u8 nsrc; u8 ndst; nsrc varint source regs; ndst varint dest regs
             x86-64:
             u8    length (1..15), then `length` raw instruction bytes, which
                   the reader decodes (tools/front/x86.c): a memory instruction is
                   one that makes a single access of up to 8 bytes
                   (x86_single_access); any other's accesses come in VERTEX
                   records
       0 EXEC: block T >> 2 was executed, all its instructions in order.
       1 EXEC-PART: block T >> 2, then varint first, varint count: only
         instructions first .. first+count-1 were executed.
           Both EXEC kinds are followed by one zz per executed memory
           instruction (mem kind != 0): its address minus a prediction,
           last + stride, kept per static instruction of the block
           (initially 0, 0; after each access: stride = addr - last,
           last = addr). Strided accesses cost one byte.
       3 END (T >> 2 == 0): varint total instructions executed. The last
         record; a file without it is truncated.
       3 KILL (T >> 2 == 1, version 2): what code outside the traced scope
         wrote since the previous record (a scoped trace: it loses its
         writers, edan_kill_regs / edan_kill_mem):
           varint nregs (0..BINTRACE_MAX_KILL_REGS), nregs varint register ids;
           varint nranges (0..BINTRACE_MAX_KILL_RANGES), per range
           zz lo - (previous range's end; 0 for the first), varint size >= 1.
       3 VERTEX (T >> 2 == 3, x86-64 only): one execution of an instruction
         with its accesses, in order (a read-modify-write, push, a gather,
         a rep string instruction's iterations: edan_feed_accesses):
           varint block id; varint index in the block;
           varint (k << 1 | more), k accesses (0..BINTRACE_MAX_VERTEX):
             u8 kind (1 load, 2 store); varint size (1..EDAN_MAX_ACCESS);
             zz address - the previous access's (of any VERTEX; first: 0).
           more = 1: the next record is a VERTEX of the same instruction
           whose accesses follow these (a long rep); the instruction counts
           once, with the last.
       3 THREAD (T >> 2 == 4): a program of several threads (edan_thread_*)
         and the signals of the thread running (edan_signal_*):
           varint verb: 0 create, then varint creator, varint child;
           1 switch, then varint thread (its instructions follow);
           2 exit, then varint thread;
           3 a signal handler starts (its instructions follow), 4 it
           returns (sigreturn: the thread's registers as they were at its
           start), 5 it is left by a non-local exit: nothing follows these
           three (a reader before them refuses the record).
       3 CHECK (T >> 2 == 2, versions 2 and 3): u32 zlib crc32 of every
         byte of the file from its start up to this record's tag (version
         2: from the end of the previous CHECK). The writer puts one after
         at most BINTRACE_CHECK_EVERY bytes and one right before END, which
         a reader requires: a changed byte anywhere, and (version 3)
         stretches moved, repeated or spliced in from another trace, are an
         error, never a different result.
   A block's instructions carry everything edan_feed needs (decoded once at
   translation time), so a reader needs no instruction decoder; it checks
   each RISC-V instruction with raw bytes against them all the same (one
   that does not decode must be recorded as op 0 without operands) and
   takes from them whether it accesses a stack slot (base sp: store-to-load
   forwarding; an instruction without bytes does not).
*/
#ifndef EDAN_BINTRACE_H
#define EDAN_BINTRACE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <zlib.h>
#include "edan.h"

#define BINTRACE_VERSION 3
#ifndef BINTRACE_CHECK_EVERY       /* bytes between CHECK records (a test may write shorter stretches) */
#define BINTRACE_CHECK_EVERY 65536
#endif
#define BINTRACE_MAX_KILL_REGS 8192
#define BINTRACE_MAX_KILL_RANGES 1024
#define BINTRACE_MAX_VERTEX 4096
/* An instruction's accesses in all, over its VERTEX records (and a text
   trace's lines): the tracer splits a longer rep string instruction into
   vertices of at most this many, so that memory stays bounded. */
#define BINTRACE_MAX_VERTEX_ACCESSES (1u << 20)
#define BINTRACE_HEADER_SIZE 16       /* the least a reader takes */
#define BINTRACE_HEADER_LOAD 24       /* with the load offset, as written */
#define BINTRACE_MAX_BLOCK 1024
/* Largest encoded record: a DEFINE of BINTRACE_MAX_BLOCK instructions. */
#define BINTRACE_MAX_RECORD (BINTRACE_MAX_BLOCK * 64 + 64)

enum { BINTRACE_OK = 0, BINTRACE_EOF = 1, BINTRACE_ERR = -1 };

/* One static instruction of a block, with its address predictor. */
typedef struct bintrace_sinsn {
    edan_insn in;           /* pc set; addr filled per execution */
    uint64_t last, stride;  /* address predictor (the writer's; the reader keeps its own) */
    uint8_t raw[16];        /* the instruction's bytes (x86-64: up to 15) */
    uint32_t flops;         /* x86-64: floating-point operations of an execution */
    uint8_t unknown;        /* x86-64: does not decode (an error when executed) */
    uint8_t rep;            /* x86-64: a rep string instruction (an execution is an iteration) */
    uint8_t vertex_only;    /* x86-64: its accesses come in VERTEX records only (not one access of at
                               most 8 bytes, or a rep) */
} bintrace_sinsn;

/* ---------------------------------------------------------------------- */
/* Micro-operations                                                       */
/* ---------------------------------------------------------------------- */
/* An instruction of an ISA with memory operands (x86-64) is cracked into
   the vertices a load/store machine executes (edan-model, "x86-64:
   instructions cracked into loads, operations and stores"): its loads, an
   operation, its stores, each a bintrace_uop, fed in that order. An
   execution's accesses, in the order the tracer saw them, are matched to
   the memory uops (bintrace_match_exact, else bintrace_assign). */
#define BINTRACE_MAX_UOPS 6
typedef struct bintrace_uop {
    edan_insn in;           /* the vertex; a memory uop: mem its kind, size the bytes of one access */
    uint32_t bytes;         /* a memory uop: the bytes of all its accesses */
    uint8_t exact;          /* a memory uop of one access of `bytes` bytes (the tracer may hand it over
                               in contiguous pieces: QEMU's are of at most 8 bytes) */
    uint8_t at_most;        /* a memory uop of at most `bytes` bytes (a gather or scatter under a mask) */
} bintrace_uop;

/* Accesses a[0 .. n) of one execution of the instruction cracked into
   u[0 .. nu): 1 when each memory uop is exact and its accesses come, in
   order, as one contiguous run of its kind and bytes (or pieces of it);
   then addrs[k] is uop k's first byte (0 for another uop) and *used the
   accesses taken: all of them, or (prefix) the first of a longer list (a
   rep string instruction's iterations). Else 0. */
static inline int bintrace_match_exact(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n,
                                       uint64_t *addrs, size_t *used, int prefix)
{
    size_t j = 0;
    uint32_t k;
    for (k = 0; k < nu; k++) {
        uint64_t at, got = 0;
        addrs[k] = 0;
        if (u[k].in.mem == EDAN_MEM_NONE) continue;
        if (!u[k].exact || j == n || a[j].kind != u[k].in.mem) return 0;
        at = a[j].addr;
        while (got < u[k].bytes && j < n && a[j].kind == u[k].in.mem && a[j].addr == at + got) got += a[j++].size;
        if (got != u[k].bytes) return 0;
        addrs[k] = at;
    }
    if (j != n && !prefix) return 0;
    *used = j;
    return 1;
}

/* Accesses a[0 .. n) to the memory uops of u[0 .. nu), whatever they are:
   loads in order to the load uops, each taking until it has its bytes (the
   last one all that remain), stores likewise; the accesses of a kind no
   uop makes go to the last memory uop (or to uop 0 when none is). out[] (n)
   gets them uop by uop, uop k's at out[first[k] .. first[k] + count[k]).
   1 when they are what the uops make (each its bytes, at most them for
   at_most; none left over), else 0. */
static inline int bintrace_assign(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n,
                                  edan_access *out, uint32_t *first, uint32_t *count)
{
    size_t w = 0, cur[3] = {0, 0, 0};
    uint32_t k, last[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX}, stray;
    int agrees = 1;
    for (k = 0; k < nu; k++)
        if (u[k].in.mem == EDAN_MEM_LOAD || u[k].in.mem == EDAN_MEM_STORE) last[u[k].in.mem] = k;
    stray = last[EDAN_MEM_STORE] != UINT32_MAX ? last[EDAN_MEM_STORE]
            : last[EDAN_MEM_LOAD] != UINT32_MAX ? last[EDAN_MEM_LOAD] : 0;
    for (k = 0; k < nu; k++) {
        unsigned kind = u[k].in.mem, other;
        first[k] = (uint32_t)w;
        if (kind == EDAN_MEM_LOAD || kind == EDAN_MEM_STORE) {
            uint64_t got = 0;
            size_t *c = &cur[kind];
            for (; *c < n; ++*c) {
                if (a[*c].kind != kind) continue;
                if (k != last[kind] && got >= u[k].bytes) break;
                got += a[*c].size;
                out[w++] = a[*c];
            }
            if (u[k].at_most ? got > u[k].bytes : got != u[k].bytes) agrees = 0;
        }
        for (other = EDAN_MEM_LOAD; other <= EDAN_MEM_STORE; other++)
            if (last[other] == UINT32_MAX && k == stray)
                for (; cur[other] < n; cur[other]++)
                    if (a[cur[other]].kind == other) {
                        out[w++] = a[cur[other]];
                        agrees = 0;
                    }
        count[k] = (uint32_t)(w - first[k]);
    }
    return agrees;
}

/* A block's instructions prepared for one analysis context. */
typedef struct bintrace_prep {
    edan_prepared *p;       /* n, allocated on first use; one edan_prepare refused is zeroed */
    const edan_context *owner;
    uint32_t bad;           /* the first instruction edan_prepare refused, or n */
    edan_block *blk;        /* for whole executions, when none was refused */
} bintrace_prep;

/* Frees bp, before its context is destroyed (the context owns bp->blk). A
   bintrace_prep serves one context. */
static inline void bintrace_prep_free(bintrace_prep *bp)
{
    edan_block_destroy(bp->blk);
    free(bp->p);
    memset(bp, 0, sizeof *bp);
}

/* Feeds executed instructions (vertices) s[first .. first+count) of a
   block of n to ctx, with the addresses of its memory instructions in
   addrs[0 .. count) (addrs[i] for s[first + i]); s[i] is the edan_insn at
   (char *)s0 + i * stride (the `in` of an array of bintrace_sinsn or
   bintrace_uop). The block is prepared on its first execution. A refused
   instruction stops the execution that reaches it, as edan_feed would, and
   no other. On an error *at is the index in s of the instruction at fault,
   or of the first one when the analysis does not say which. */
#define BINTRACE_AT(s0, stride, i) ((const edan_insn *)(const void *)((const char *)(s0) + (size_t)(i) * (stride)))
static inline edan_result bintrace_feed_block(edan_context *ctx, bintrace_prep *bp, const edan_insn *s0, size_t stride,
                                              uint32_t n, uint32_t first, uint32_t count, const uint64_t *addrs,
                                              uint32_t *at)
{
    edan_result r;
    *at = first;
    if (bp->owner != ctx) {
        uint32_t i;
        if (bp->owner) return EDAN_ERR_INVALID_ARG;     /* prepared for another context */
        if (!(bp->p = (edan_prepared *)calloc(n, sizeof *bp->p))) return EDAN_ERR_NOMEM;
        bp->bad = n;
        for (i = 0; i < n; i++)
            if (edan_prepare(ctx, BINTRACE_AT(s0, stride, i), &bp->p[i]) != EDAN_OK) {
                memset(&bp->p[i], 0, sizeof bp->p[i]);
                if (bp->bad == n) bp->bad = i;
            }
        if (bp->bad == n && (r = edan_block_create(ctx, bp->p, n, &bp->blk)) != EDAN_OK) return r;
        bp->owner = ctx;
    }
    if (bp->blk && first == 0 && count == n) return edan_feed_block(ctx, bp->blk, addrs);
    if (bp->bad < first + count) {
        /* the first refused instruction in the range, if any (none comes
           before bad): those before it, then its error again */
        uint32_t k = bp->bad > first ? bp->bad : first;
        edan_prepared again;
        while (k < first + count && edan_prepare(ctx, BINTRACE_AT(s0, stride, k), &again) == EDAN_OK) k++;
        if (k < first + count) {
            r = edan_feed_prepared_n(ctx, bp->p + first, addrs, k - first);
            if (r != EDAN_OK) return r;
            *at = k;
            return edan_prepare(ctx, BINTRACE_AT(s0, stride, k), &again);
        }
    }
    return edan_feed_prepared_n(ctx, bp->p + first, addrs, count);
}

/* A vertex of an execution that bintrace_emit_execution hands over: in,
   with acc NULL (a memory uop that matched exactly has its address in
   in.addr), or with the accesses acc[0 .. n) assigned to it (none: in.mem
   cleared). 0, or nonzero to stop (*why: a message). */
typedef int (*bintrace_vertex_fn)(void *user, const edan_insn *in, const edan_access *acc, size_t n, const char **why);

/* The bintrace_vertex_fn of an analysis: user a bintrace_to, which keeps
   the result of the last feed. */
typedef struct bintrace_to { edan_context *ctx; edan_result r; } bintrace_to;
static inline int bintrace_vertex_to(void *user, const edan_insn *in, const edan_access *acc, size_t n, const char **why)
{
    bintrace_to *t = (bintrace_to *)user;
    t->r = acc ? edan_feed_accesses(t->ctx, in, acc, n) : edan_feed(t->ctx, in);
    if (t->r == EDAN_OK) return 0;
    *why = edan_error(t->ctx);
    return -1;
}

/* rep movs and rep stos of 1-, 2- or 4-byte elements go in chunks of 8
   bytes (edan-model, x86-64), as the 8-byte loop a load/store machine
   runs: the tracer hands such an instruction over an iteration at a time
   (QEMU runs it so), and consecutive iterations of one instruction gather
   here until they make 8 bytes in the direction of the copy; a chunk then
   goes as the instruction's vertices with one load (movs) and one store
   of it. Anything else that reaches the analysis first (another
   instruction, what untraced code wrote, a thread's or a signal's turn,
   the end) sends the chunk as it is, shorter: bintrace_chunk_flush. */
typedef struct bintrace_chunk {
    bintrace_uop u[BINTRACE_MAX_UOPS];  /* the instruction's vertices (copied: its block may go) */
    uint32_t nu;                        /* 0: no chunk gathers */
    int dir;                            /* +1 the copy goes up, -1 down, 0 not known (one element) */
    edan_access ld, st;                 /* the chunk so far: what its load (movs) and store cover */
} bintrace_chunk;

/* 1 when u[0 .. nu) is a rep movs or rep stos of 1-, 2- or 4-byte
   elements: one store vertex of such an element, and for movs one load. */
static inline int bintrace_chunked(const bintrace_uop *u, uint32_t nu, int rep)
{
    uint32_t k, nl = 0, ns = 0, e = 0;
    if (!rep) return 0;
    for (k = 0; k < nu; k++) {
        if (u[k].in.mem == EDAN_MEM_NONE) continue;
        if (!u[k].exact || (e && u[k].bytes != e)) return 0;
        e = u[k].bytes;
        if (u[k].in.mem == EDAN_MEM_LOAD) nl++;
        else if (u[k].in.mem == EDAN_MEM_STORE) ns++;
        else return 0;
    }
    return ns == 1 && nl <= 1 && (e == 1 || e == 2 || e == 4);
}

/* The gathered chunk, if any, to fn: the instruction's vertices, its load
   and store with the chunk's bytes. 0, or fn's nonzero. */
static inline int bintrace_chunk_flush(bintrace_chunk *c, bintrace_vertex_fn fn, void *user, const char **why)
{
    uint32_t k, nu = c->nu;
    int rc;
    c->nu = 0;
    for (k = 0; k < nu; k++) {
        const edan_insn *in = &c->u[k].in;
        const edan_access *a = in->mem == EDAN_MEM_LOAD ? &c->ld : in->mem == EDAN_MEM_STORE ? &c->st : NULL;
        if ((rc = fn(user, in, a, a != NULL, why)) != 0) return rc;
    }
    return 0;
}

/* An execution of the rep movs or stos u[0 .. nu) (bintrace_chunked) with
   accesses a[0 .. n): its iterations into chunks (a chunk that is full or
   that an iteration does not continue to fn). 1 when taken, 0 when the
   accesses are not whole iterations (the chunk, flushed, is left for the
   caller's usual way), or fn's nonzero. */
static inline int bintrace_chunk_add(bintrace_chunk *c, const bintrace_uop *u, uint32_t nu, const edan_access *a,
                                     size_t n, bintrace_vertex_fn fn, void *user, const char **why)
{
    uint32_t k, e = 0, movs = 0;
    size_t i, step;
    int rc;
    for (k = 0; k < nu; k++)
        if (u[k].in.mem != EDAN_MEM_NONE) {
            e = u[k].bytes;
            movs += u[k].in.mem == EDAN_MEM_LOAD;
        }
    step = movs ? 2 : 1;
    if (!n) return (rc = bintrace_chunk_flush(c, fn, user, why)) != 0 ? rc : 1;   /* the run ended (rcx 0) */
    for (i = 0; i < n; i++)     /* whole iterations only: (load,) store, each of one element */
        if (a[i].size != e || a[i].kind != (movs && i % 2 == 0 ? EDAN_MEM_LOAD : EDAN_MEM_STORE) || n % step)
            return (rc = bintrace_chunk_flush(c, fn, user, why)) != 0 ? rc : 0;
    if (c->nu && (c->nu != nu || c->u[0].in.pc != u[0].in.pc)) {
        if ((rc = bintrace_chunk_flush(c, fn, user, why)) != 0) return rc;
    }
    for (i = 0; i < n; i += step) {
        const edan_access *l = movs ? &a[i] : NULL, *s = &a[i + step - 1];
        if (c->nu) {
            int up = s->addr == c->st.addr + c->st.size && (!l || l->addr == c->ld.addr + c->ld.size);
            int down = s->addr + e == c->st.addr && (!l || l->addr + e == c->ld.addr);
            if ((up && c->dir >= 0) || (down && c->dir <= 0)) {
                c->dir = up && c->dir >= 0 ? 1 : -1;
                if (c->dir < 0) {
                    c->st.addr = s->addr;
                    if (l) c->ld.addr = l->addr;
                }
                c->st.size += e;
                c->ld.size += l ? e : 0;
                if (c->st.size == 8 && (rc = bintrace_chunk_flush(c, fn, user, why)) != 0) return rc;
                continue;
            }
            if ((rc = bintrace_chunk_flush(c, fn, user, why)) != 0) return rc;
        }
        memcpy(c->u, u, nu * sizeof *u);
        c->nu = nu;
        c->dir = 0;
        c->st = *s;
        if (l) c->ld = *l;
    }
    return 1;
}

/* bintrace_chunk_flush to the analysis ctx: its result. */
static inline edan_result bintrace_chunk_feed(bintrace_chunk *c, edan_context *ctx)
{
    bintrace_to t;
    const char *why = NULL;
    t.ctx = ctx;
    t.r = EDAN_OK;
    if (!c->nu) return EDAN_OK;
    (void)bintrace_chunk_flush(c, bintrace_vertex_to, &t, &why);
    return t.r;
}

/* The chunk c (NULL: none) takes an execution of ub[0 .. nu) with a[0 ..
   n) when the instruction is chunked, and is flushed before any other: 1
   when taken, 0 when the caller's usual way goes on, or fn's nonzero. */
static inline int bintrace__chunk_step(bintrace_chunk *c, const bintrace_uop *u, uint32_t nu, const edan_access *a,
                                       size_t n, int rep, bintrace_vertex_fn fn, void *user, const char **why)
{
    if (!c) return 0;
    if (bintrace_chunked(u, nu, rep)) return bintrace_chunk_add(c, u, nu, a, n, fn, user, why);
    return c->nu ? bintrace_chunk_flush(c, fn, user, why) : 0;
}

/* One execution of an instruction cracked into ub[first .. first+nu) (of a
   block of nb uops, bp prepared for them) that made the accesses a[0 ..
   n), in order: fed as its uops with their addresses when they match
   exactly (bintrace_match_exact; a rep string instruction's accesses as
   many iterations as they hold, an execution without any as none), else
   each uop with the accesses bintrace_assign gives it; a rep movs or stos
   of small elements into the chunk ch (NULL: per iteration), which any
   other execution flushes first. scratch has room for n accesses.
   *agrees: 0 when the accesses were not what the uops make. On an error
   *at is the uop at fault (an index in ub). */
static inline edan_result bintrace_feed_execution(edan_context *ctx, bintrace_prep *bp, const bintrace_uop *ub,
                                                  uint32_t nb, uint32_t first, uint32_t nu, const edan_access *a,
                                                  size_t n, int rep, bintrace_chunk *ch, edan_access *scratch,
                                                  int *agrees, uint32_t *at)
{
    uint64_t addrs[BINTRACE_MAX_UOPS];
    uint32_t fi[BINTRACE_MAX_UOPS], ci[BINTRACE_MAX_UOPS], k;
    size_t used;
    edan_result r;
    bintrace_to t;
    const char *why = NULL;
    int rc;
    *agrees = 1;
    *at = first;
    t.ctx = ctx;
    t.r = EDAN_OK;
    if ((rc = bintrace__chunk_step(ch, ub + first, nu, a, n, rep, bintrace_vertex_to, &t, &why)) != 0)
        return rc < 0 ? t.r : EDAN_OK;
    if (rep && n == 0) return EDAN_OK;
    while (n && bintrace_match_exact(ub + first, nu, a, n, addrs, &used, rep) && used) {
        if ((r = bintrace_feed_block(ctx, bp, &ub[0].in, sizeof *ub, nb, first, nu, addrs, at)) != EDAN_OK) return r;
        a += used;
        n -= used;
        if (!rep) return EDAN_OK;
    }
    if (rep && n == 0) return EDAN_OK;
    if (!n && bintrace_match_exact(ub + first, nu, a, n, addrs, &used, 0))     /* no memory uop */
        return bintrace_feed_block(ctx, bp, &ub[0].in, sizeof *ub, nb, first, nu, addrs, at);
    *agrees = bintrace_assign(ub + first, nu, a, n, scratch, fi, ci);
    for (k = 0; k < nu; k++) {
        *at = first + k;
        if ((r = edan_feed_accesses(ctx, &ub[first + k].in, ci[k] ? scratch + fi[k] : NULL, ci[k])) != EDAN_OK) return r;
    }
    return EDAN_OK;
}

/* ---------------------------------------------------------------------- */
/* Encoding helpers                                                       */
/* ---------------------------------------------------------------------- */
static inline uint64_t bintrace_zigzag(uint64_t v) { return (v << 1) ^ (0 - (v >> 63)); }
static inline uint64_t bintrace_unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

/* A memory instruction of a block being read: its index in the block and
   its address predictor (kept apart from the block's instructions, so that
   an execution's predictors share cache lines). */
typedef struct bintrace_rmem { uint64_t last, stride; uint32_t idx; } bintrace_rmem;

/* The address of m's access whose zigzag difference to the prediction is
   z; the predictor moves on. */
static inline uint64_t bintrace__address(bintrace_rmem *m, uint64_t z)
{
    uint64_t a = m->last + m->stride + bintrace_unzigzag(z);
    m->stride = a - m->last;
    m->last = a;
    return a;
}

static inline unsigned char *bintrace_put_varint(unsigned char *p, uint64_t v)
{
    while (v >= 0x80) { *p++ = (unsigned char)(v | 0x80); v >>= 7; }
    *p++ = (unsigned char)v;
    return p;
}

/* Returns the number of bytes read, 0 if truncated or longer than 10 bytes. */
static inline size_t bintrace_get_varint(const unsigned char *p, size_t avail, uint64_t *v)
{
    uint64_t x = 0;
    size_t i;
    for (i = 0; i < avail && i < 10; i++) {
        if (i == 9 && p[i] > 1) return 0;      /* bits past the 64th: malformed */
        x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) { *v = x; return i + 1; }
    }
    return 0;
}

/* 1 when head (n bytes of a file's start) is a binary trace. */
static inline int bintrace_detect(const unsigned char *head, size_t n)
{
    return n >= 6 && memcmp(head, "EDANBT", 6) == 0;
}

/* ---------------------------------------------------------------------- */
/* Writer                                                                 */
/* ---------------------------------------------------------------------- */
typedef struct bintrace_writer {
    FILE *f;
    unsigned char *buf;
    size_t len, cap;
    uint32_t nblocks;
    unsigned isa;           /* edan_isa: EDAN_ISA_* */
    uint64_t count;         /* instructions written */
    uint64_t vlast;         /* the address of the last VERTEX access */
    int failed;             /* a write failed ... */
    int err;                /* ... with this errno */
    unsigned version;       /* BINTRACE_VERSION, or 2 (tests of old files) */
    uLong crc;              /* of the bytes up to buf[crc_from] since the start (version 2: since the
                               last CHECK) */
    size_t crc_from;
    size_t since_check;     /* bytes since the last CHECK */
    int flushed;            /* bytes went to f: the header can no longer change */
} bintrace_writer;

static inline int bintrace_writer_flush(bintrace_writer *w)
{
    w->crc = crc32(w->crc, w->buf + w->crc_from, (uInt)(w->len - w->crc_from));
    w->crc_from = 0;
    if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len && !w->failed) {
        w->failed = 1;
        w->err = errno;
    }
    if (w->len) w->flushed = 1;
    w->len = 0;
    return w->failed ? BINTRACE_ERR : BINTRACE_OK;
}

/* Make room for `need` more bytes. */
static inline unsigned char *bintrace_writer_reserve(bintrace_writer *w, size_t need)
{
    if (w->cap - w->len < need) bintrace_writer_flush(w);
    return w->buf + w->len;
}

/* Starts a trace of instructions of an ISA (edan_isa: EDAN_ISA_*) on f, of a
   format version (BINTRACE_VERSION; 2 writes what earlier versions wrote,
   for tests of old files). */
static inline int bintrace_writer_open_version(bintrace_writer *w, FILE *f, unsigned isa, unsigned version)
{
    unsigned char hdr[BINTRACE_HEADER_LOAD] = {'E', 'D', 'A', 'N', 'B', 'T', BINTRACE_VERSION, 0, 0, 0,
                                               BINTRACE_HEADER_LOAD, 0, 0, 0, 0, 0};
    size_t hlen = version >= 3 ? BINTRACE_HEADER_LOAD : BINTRACE_HEADER_SIZE;
    hdr[6] = (unsigned char)version;
    hdr[8] = (unsigned char)isa;
    hdr[10] = (unsigned char)hlen;
    memset(w, 0, sizeof *w);
    w->f = f;
    w->isa = isa;
    w->version = version;
    w->cap = 1u << 20;
    if (w->cap < 2 * (size_t)BINTRACE_MAX_RECORD) w->cap = 2 * (size_t)BINTRACE_MAX_RECORD;
    w->buf = (unsigned char *)malloc(w->cap);
    if (!w->buf) return BINTRACE_ERR;
    memcpy(w->buf, hdr, hlen);
    w->len = hlen;
    w->crc = crc32(0L, Z_NULL, 0);
    w->since_check = hlen;
    return BINTRACE_OK;
}

/* The header's load offset (BINTRACE_HEADER_LOAD): before any record is
   written. BINTRACE_ERR when too late or the header has none. */
static inline int bintrace_writer_set_load(bintrace_writer *w, uint64_t load)
{
    int k;
    if (w->flushed || w->len != BINTRACE_HEADER_LOAD || w->buf[10] != BINTRACE_HEADER_LOAD) return BINTRACE_ERR;
    for (k = 0; k < 8; k++) w->buf[16 + k] = (unsigned char)(load >> (8 * k));
    return BINTRACE_OK;
}

/* Starts a trace of the current version. */
static inline int bintrace_writer_open_isa(bintrace_writer *w, FILE *f, unsigned isa)
{
    return bintrace_writer_open_version(w, f, isa, BINTRACE_VERSION);
}

static inline int bintrace_writer_open(bintrace_writer *w, FILE *f)
{
    return bintrace_writer_open_isa(w, f, EDAN_ISA_RISCV64);
}

/* A CHECK record: the crc32 of everything before it (version 2: since the
   previous one). The CRC goes on over the record itself, so that the next
   covers it too: chained, a stretch cannot move. */
static inline void bintrace__write_check(bintrace_writer *w)
{
    unsigned char *p;
    size_t tag;
    uLong c;
    p = bintrace_writer_reserve(w, 16);
    tag = w->len;
    c = crc32(w->crc, w->buf + w->crc_from, (uInt)(w->len - w->crc_from));
    p = bintrace_put_varint(p, (2u << 2) | 3);
    p[0] = (unsigned char)c;
    p[1] = (unsigned char)(c >> 8);
    p[2] = (unsigned char)(c >> 16);
    p[3] = (unsigned char)(c >> 24);
    w->len = (size_t)(p + 4 - w->buf);
    if (w->version >= 3) {
        w->crc = c;
        w->crc_from = tag;
    } else {
        w->crc = crc32(0L, Z_NULL, 0);
        w->crc_from = w->len;
    }
    w->since_check = 0;
}

/* A record of n bytes was written: a CHECK when the span is long enough. */
static inline void bintrace__wrote(bintrace_writer *w, size_t n)
{
    w->since_check += n;
    if (w->since_check >= BINTRACE_CHECK_EVERY) bintrace__write_check(w);
}

/* Define a block of n (1..BINTRACE_MAX_BLOCK) static instructions; returns its id. */
static inline uint32_t bintrace_write_define(bintrace_writer *w, const bintrace_sinsn *s, uint32_t n)
{
    uint32_t id = w->nblocks++, i, k;
    uint64_t expect = 0;
    unsigned char *p = bintrace_writer_reserve(w, BINTRACE_MAX_RECORD), *p0 = p;
    p = bintrace_put_varint(p, ((uint64_t)id << 2) | 2);
    p = bintrace_put_varint(p, n);
    for (i = 0; i < n; i++) {
        const edan_insn *in = &s[i].in;
        uint8_t len = in->length > 4 ? 4 : in->length;
        if (w->isa == EDAN_ISA_X86_64) len = in->length > 15 ? 15 : in->length;
        p = bintrace_put_varint(p, bintrace_zigzag(in->pc - expect));
        expect = in->pc + in->length;
        *p++ = len;
        for (k = 0; k < len; k++) *p++ = s[i].raw[k];
        if (w->isa == EDAN_ISA_X86_64) continue;
        p = bintrace_put_varint(p, in->op);
        *p++ = in->cls;
        *p++ = in->mem;
        p = bintrace_put_varint(p, in->size);
        *p++ = in->nsrc;
        *p++ = in->ndst;
        for (k = 0; k < in->nsrc && k < EDAN_MAX_SRC; k++) p = bintrace_put_varint(p, in->src[k]);
        for (k = 0; k < in->ndst && k < EDAN_MAX_DST; k++) p = bintrace_put_varint(p, in->dst[k]);
    }
    w->len += (size_t)(p - p0);
    bintrace__wrote(w, (size_t)(p - p0));
    return id;
}

/* Block `id` executed instructions first..first+count-1, with the addresses
   in s[i].in.addr. Updates the predictors in s. */
static inline void bintrace_write_exec(bintrace_writer *w, uint32_t id, bintrace_sinsn *s,
                                       uint32_t n, uint32_t first, uint32_t count)
{
    unsigned char *p = bintrace_writer_reserve(w, BINTRACE_MAX_RECORD), *p0 = p;
    uint32_t i;
    if (first == 0 && count == n) {
        p = bintrace_put_varint(p, (uint64_t)id << 2);
    } else {
        p = bintrace_put_varint(p, ((uint64_t)id << 2) | 1);
        p = bintrace_put_varint(p, first);
        p = bintrace_put_varint(p, count);
    }
    for (i = first; i < first + count; i++) {
        if (s[i].in.mem != EDAN_MEM_NONE) {
            uint64_t a = s[i].in.addr;
            p = bintrace_put_varint(p, bintrace_zigzag(a - (s[i].last + s[i].stride)));
            s[i].stride = a - s[i].last;
            s[i].last = a;
        }
    }
    w->len += (size_t)(p - p0);
    w->count += count;
    bintrace__wrote(w, (size_t)(p - p0));
}

/* x86-64: instruction idx of block id executed with the accesses a[0 ..
   n), in order: VERTEX records of up to BINTRACE_MAX_VERTEX accesses;
   more = 1 when the next call continues the same execution. */
static inline void bintrace_write_vertex(bintrace_writer *w, uint32_t id, uint32_t idx, const edan_access *a,
                                         size_t n, int more)
{
    do {
        size_t k = n > BINTRACE_MAX_VERTEX ? BINTRACE_MAX_VERTEX : n, i;
        int cont = more || n > k;
        unsigned char *p = bintrace_writer_reserve(w, 40 + 16 * k), *p0 = p;
        p = bintrace_put_varint(p, (3u << 2) | 3);
        p = bintrace_put_varint(p, id);
        p = bintrace_put_varint(p, idx);
        p = bintrace_put_varint(p, (uint64_t)k << 1 | (unsigned)cont);
        for (i = 0; i < k; i++) {
            *p++ = a[i].kind;
            p = bintrace_put_varint(p, a[i].size);
            p = bintrace_put_varint(p, bintrace_zigzag(a[i].addr - w->vlast));
            w->vlast = a[i].addr;
        }
        if (!cont) w->count++;
        w->len += (size_t)(p - p0);
        bintrace__wrote(w, (size_t)(p - p0));
        a += k;
        n -= k;
    } while (n);
}

/* A KILL record: registers regs[0 .. nregs) and the byte ranges
   ranges[i] = {lo, size} (i < nranges) lost their writers. */
static inline void bintrace_write_kill(bintrace_writer *w, const edan_reg *regs, uint32_t nregs,
                                       const uint64_t (*ranges)[2], uint32_t nranges)
{
    unsigned char *p = bintrace_writer_reserve(w, 32 + 3 * (size_t)nregs + 20 * (size_t)nranges), *p0 = p;
    uint64_t end = 0;
    uint32_t i;
    p = bintrace_put_varint(p, (1u << 2) | 3);
    p = bintrace_put_varint(p, nregs);
    for (i = 0; i < nregs; i++) p = bintrace_put_varint(p, regs[i]);
    p = bintrace_put_varint(p, nranges);
    for (i = 0; i < nranges; i++) {
        p = bintrace_put_varint(p, bintrace_zigzag(ranges[i][0] - end));
        p = bintrace_put_varint(p, ranges[i][1]);
        end = ranges[i][0] + ranges[i][1];
    }
    w->len += (size_t)(p - p0);
    bintrace__wrote(w, (size_t)(p - p0));
}

/* A THREAD record: verb 0 (thread a creates thread b), 1 (switch to a), 2
   (a exits), or the running thread's signals (a and b unused):
   BINTRACE_SIGNAL (a handler starts), BINTRACE_SIGRETURN (it returns),
   BINTRACE_SIGDROP (it is left). */
enum { BINTRACE_SIGNAL = 3, BINTRACE_SIGRETURN = 4, BINTRACE_SIGDROP = 5 };
static inline void bintrace_write_thread(bintrace_writer *w, unsigned verb, uint32_t a, uint32_t b)
{
    unsigned char *p = bintrace_writer_reserve(w, 32), *p0 = p;
    p = bintrace_put_varint(p, (4u << 2) | 3);
    p = bintrace_put_varint(p, verb);
    if (verb < BINTRACE_SIGNAL) p = bintrace_put_varint(p, a);
    if (verb == 0) p = bintrace_put_varint(p, b);
    w->len += (size_t)(p - p0);
    bintrace__wrote(w, (size_t)(p - p0));
}

/* Writes the END record and flushes; frees the buffer. The caller closes f. */
static inline int bintrace_writer_close(bintrace_writer *w)
{
    unsigned char *p, *p0;
    int rc;
    bintrace__write_check(w);       /* END follows a CHECK */
    p = p0 = bintrace_writer_reserve(w, 32);
    p = bintrace_put_varint(p, 3);
    p = bintrace_put_varint(p, w->count);
    w->len += (size_t)(p - p0);
    rc = bintrace_writer_flush(w);
    free(w->buf);
    w->buf = NULL;
    errno = 0;
    if (fflush(w->f) != 0 || ferror(w->f)) {
        if (!w->err) w->err = errno;
        rc = BINTRACE_ERR;
    }
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Reader (push style: the caller reads the file in chunks)               */
/* ---------------------------------------------------------------------- */
typedef struct bintrace_block {
    bintrace_sinsn *s;
    bintrace_prep prep;     /* for bintrace_reader_feed: s prepared (x86-64: u) */
    uint32_t n;
    uint32_t *mem_before;   /* mem_before[i]: memory instructions in s[0..i) */
    bintrace_rmem *mem;     /* the memory instructions, in order (x86-64: idx is the uop in u that
                               takes the address) */
    int has_unknown;        /* x86-64: an instruction does not decode, or cannot be in an EXEC record */
    uint64_t flops;         /* x86-64: of all its instructions */
    bintrace_uop *u;        /* x86-64: the instructions' vertices, nu of them, s[i]'s at u[ufirst[i] ..
                               ufirst[i + 1]) */
    uint32_t nu, *ufirst;
} bintrace_block;

/* x86-64 traces: an instruction decoded and cracked (tools/front/x86.c). */
typedef struct bintrace_decoded {
    edan_insn in;           /* the instruction; mem and size when it makes one access of at most 8 bytes,
                               whose address an EXEC record carries (x86_single_access) */
    uint32_t flops;
    int rep;                /* a rep string instruction: a VERTEX's accesses are iterations */
    uint32_t nuop;          /* 1 .. BINTRACE_MAX_UOPS */
    bintrace_uop uop[BINTRACE_MAX_UOPS];
} bintrace_decoded;

/* Decodes the instruction bytes[0 .. len) at pc; 0, or -1 when it does
   not decode. Kept out of this header, which needs no x86 decoder. */
typedef int (*bintrace_decode_fn)(const uint8_t *bytes, unsigned len, uint64_t pc, bintrace_decoded *out);

/* Called for every KILL record (bintrace_reader_decode; bintrace_reader_feed
   applies them to its context itself); returns 0, or nonzero to stop with
   an error (then *msg may point to a message). */
typedef int (*bintrace_kill_fn)(void *user, const edan_reg *regs, uint32_t nregs, const uint64_t (*ranges)[2],
                                uint32_t nranges, const char **msg);

typedef struct bintrace_reader {
    int have_header, done;
    unsigned version;
    int skip_checks;            /* set: CHECK records are not compared (fuzzing the structure behind them) */
    bintrace_decode_fn decode;  /* set: x86-64 traces are read (else refused) */
    unsigned isa;               /* the header's */
    uint64_t load;              /* the header's load offset (0: none) */
    unsigned long long flops;   /* x86-64: of the instructions read */
    edan_access *vacc;          /* x86-64: the accesses of a VERTEX being read */
    size_t vn, vcap;
    uint32_t vblock, vidx;      /* ... of this instruction, when vopen */
    int vopen;
    uint64_t vlast;
    const edan_access *vertex;  /* bintrace_reader_decode: during the callback for a VERTEX, its */
    size_t vertex_n;            /* accesses (else NULL, 0) */
    char warning[200];          /* after the header: what the caller should tell the user, or "" */
    uLong crc;                  /* of the bytes consumed in earlier calls, since the start (version 2:
                                   since the last CHECK) */
    unsigned long long span;    /* bytes consumed in earlier calls since the last CHECK record */
    /* called for every CHECK record verified, with its tag's offset and the
       offset after it, if set */
    void (*on_check)(void *user, unsigned long long tag, unsigned long long end);
    void *check_user;
    bintrace_kill_fn kill;      /* bintrace_reader_decode's KILL records, if set (else ignored) */
    void *kill_user;
    /* bintrace_reader_decode's THREAD records, if set (else ignored): verb
       and threads as bintrace_write_thread says; 0, or nonzero to stop */
    int (*thread)(void *user, unsigned verb, uint32_t a, uint32_t b, const char **msg);
    void *thread_user;
    bintrace_block *blocks;
    uint32_t nblocks, cap_blocks;
    unsigned long long consumed;    /* input bytes consumed */
    unsigned long long offset;  /* input bytes consumed; on error, where */
    unsigned long long count;   /* instructions decoded */
    char error[160];            /* what is wrong, after BINTRACE_ERR */
    edan_context *ctx;          /* bintrace_reader_feed: the analysis fed */
    uint64_t addrs[BINTRACE_MAX_BLOCK * BINTRACE_MAX_UOPS];    /* one execution's addresses, for ctx */
    edan_access *scratch;       /* x86-64: room for a VERTEX's accesses, assigned to its uops */
    size_t scap;
    bintrace_chunk chunk;       /* x86-64: a rep movs or stos gathering into 8-byte chunks */
    unsigned long long mismatches;  /* x86-64: VERTEX executions whose accesses were not their uops' */
    unsigned long long missing;     /* x86-64: ... VERTEX executions of memory instructions without accesses */
    edan_reg kill_regs[BINTRACE_MAX_KILL_REGS];     /* one KILL record */
    uint64_t kill_ranges[BINTRACE_MAX_KILL_RANGES][2];
} bintrace_reader;

static inline int bintrace_reader_init(bintrace_reader *r)
{
    memset(r, 0, sizeof *r);
    return BINTRACE_OK;
}

static inline void bintrace_reader_free(bintrace_reader *r)
{
    uint32_t i;
    for (i = 0; i < r->nblocks; i++) {
        free(r->blocks[i].s);
        bintrace_prep_free(&r->blocks[i].prep);
        free(r->blocks[i].mem_before);
        free(r->blocks[i].mem);
        free(r->blocks[i].u);
        free(r->blocks[i].ufirst);
    }
    free(r->blocks);
    free(r->vacc);
    free(r->scratch);
    memset(r, 0, sizeof *r);
}

/* Cursor over one record; `short` = the record continues past the buffer. */
typedef struct bintrace__cur { const unsigned char *p, *end; int is_short, bad; } bintrace__cur;

static inline uint64_t bintrace__v(bintrace__cur *c)
{
    uint64_t v = 0;
    size_t k;
    if (c->is_short || c->bad) return 0;
    k = bintrace_get_varint(c->p, (size_t)(c->end - c->p), &v);
    if (!k) {
        if (c->end - c->p < 10) c->is_short = 1;
        else c->bad = 1;
        return 0;
    }
    c->p += k;
    return v;
}

static inline uint8_t bintrace__b(bintrace__cur *c)
{
    if (c->is_short || c->bad) return 0;
    if (c->p >= c->end) { c->is_short = 1; return 0; }
    return *c->p++;
}

static inline int bintrace__err(bintrace_reader *r, unsigned long long at, const char *what)
{
    r->offset = at;
    snprintf(r->error, sizeof r->error, "%s", what);
    return BINTRACE_ERR;
}

static inline int bintrace__rejected(bintrace_reader *r, unsigned long long at, const bintrace_sinsn *s,
                                     const char *why)
{
    char msg[160];
    snprintf(msg, sizeof msg, "instruction at pc 0x%llx rejected: %.100s", (unsigned long long)s->in.pc,
             why && *why ? why : "error");
    return bintrace__err(r, at, msg);
}

/* The fields of a RISC-V instruction with raw bytes are what its bytes
   decode to (the plugin decodes them so); one that does not decode is
   recorded as op 0 without operands. *flags: the decoding's flags (a
   stack-slot access). */
static inline int bintrace__matches_bytes(const bintrace_sinsn *s, uint8_t *flags)
{
    const edan_insn *in = &s->in;
    edan_insn d;
    *flags = 0;
    if (edan_rv_decode(s->raw, in->length, &d) != EDAN_OK)
        return in->op == 0 && in->cls == EDAN_CLASS_OTHER && in->mem == EDAN_MEM_NONE && !in->nsrc && !in->ndst;
    *flags = (uint8_t)(d.flags & EDAN_INSN_STACK);
    return d.op == in->op && d.cls == in->cls && d.mem == in->mem && d.size == in->size && d.nsrc == in->nsrc &&
           d.ndst == in->ndst && !memcmp(d.src, in->src, in->nsrc * sizeof *in->src) &&
           !memcmp(d.dst, in->dst, in->ndst * sizeof *in->dst);
}

/* Parses a DEFINE body into a new block. 1 = done, 0 = short, -1 = error. */
static inline int bintrace__define(bintrace_reader *r, bintrace__cur *c, const char **why)
{
    uint64_t n = bintrace__v(c), v, expect = 0;
    uint32_t i, k, mem = 0, nu = 0;
    bintrace_sinsn *s;
    uint32_t *mb, *uf = NULL;
    bintrace_rmem *mi;
    bintrace_uop *u = NULL;
    int x86 = r->isa == EDAN_ISA_X86_64;
    if (c->is_short) return 0;
    if (c->bad) { *why = "malformed varint"; return -1; }
    if (n < 1 || n > BINTRACE_MAX_BLOCK) { *why = "bad block size"; return -1; }
    s = (bintrace_sinsn *)calloc((size_t)n, sizeof *s);
    mb = (uint32_t *)malloc(((size_t)n + 1) * sizeof *mb);
    mi = (bintrace_rmem *)calloc((size_t)n, sizeof *mi);
    if (x86) {
        u = (bintrace_uop *)malloc((size_t)n * BINTRACE_MAX_UOPS * sizeof *u);
        uf = (uint32_t *)malloc(((size_t)n + 1) * sizeof *uf);
    }
#define BINTRACE__DEFINE_FREE() do { free(s); free(mb); free(mi); free(u); free(uf); } while (0)
    if (!s || !mb || !mi || (x86 && (!u || !uf))) { BINTRACE__DEFINE_FREE(); *why = "out of memory"; return -1; }
    *why = NULL;
    for (i = 0; i < n && !c->is_short && !c->bad && !*why; i++) {
        edan_insn *in = &s[i].in;
        uint8_t len, b;
        in->pc = expect + bintrace_unzigzag(bintrace__v(c));
        in->flags = EDAN_INSN_HAS_PC;
        len = bintrace__b(c);
        if (x86) {
            bintrace_decoded d;
            if (!c->is_short && (len < 1 || len > 15)) { *why = "bad instruction length"; break; }
            expect = in->pc + len;
            for (k = 0; k < len; k++) s[i].raw[k] = bintrace__b(c);
            if (c->is_short || c->bad) break;
            memset(&d, 0, sizeof d);
            if (r->decode(s[i].raw, len, in->pc, &d) != 0 || d.nuop < 1 || d.nuop > BINTRACE_MAX_UOPS) {
                /* an error when executed: one vertex without operands until then */
                memset(&d, 0, sizeof d);
                d.in.cls = EDAN_CLASS_OTHER;
                d.nuop = 1;
                d.uop[0].in.cls = EDAN_CLASS_OTHER;
                s[i].unknown = 1;
            }
            *in = d.in;
            s[i].flops = d.flops;
            s[i].rep = (uint8_t)(d.rep != 0);
            in->pc = expect - len;
            in->flags |= EDAN_INSN_HAS_PC;
            in->length = len;
            in->addr = 0;
            mb[i] = mem;
            uf[i] = nu;
            for (k = 0; k < d.nuop; k++) {
                u[nu + k] = d.uop[k];
                u[nu + k].in.pc = in->pc;
                u[nu + k].in.flags |= EDAN_INSN_HAS_PC;
                if (in->mem != EDAN_MEM_NONE && d.uop[k].in.mem == in->mem) mi[mem].idx = nu + k;
            }
            {   /* memory uops without an EXEC address: the instruction's accesses are VERTEX records */
                uint32_t nm = 0;
                for (k = 0; k < d.nuop; k++) nm += d.uop[k].in.mem != EDAN_MEM_NONE;
                s[i].vertex_only = (uint8_t)(d.rep || nm != (in->mem != EDAN_MEM_NONE));
            }
            nu += d.nuop;
            if (in->mem != EDAN_MEM_NONE) mem++;
            continue;
        }
        if (len > 4) { *why = "bad instruction length"; break; }
        in->length = len;
        expect = in->pc + len;
        for (k = 0; k < len; k++) s[i].raw[k] = bintrace__b(c);
        v = bintrace__v(c);
        if (v > UINT32_MAX) { *why = "bad op id"; break; }
        in->op = (uint32_t)v;
        b = bintrace__b(c);
        if (b >= EDAN_CLASS_COUNT) { *why = "bad instruction class"; break; }
        in->cls = b;
        b = bintrace__b(c);
        if (b > EDAN_MEM_AMO) { *why = "bad memory kind"; break; }
        in->mem = b;
        v = bintrace__v(c);
        if (!c->is_short && (v > EDAN_MAX_ACCESS || (in->mem != EDAN_MEM_NONE && v == 0))) {
            *why = "bad access size";
            break;
        }
        in->size = (uint16_t)v;
        in->nsrc = bintrace__b(c);
        in->ndst = bintrace__b(c);
        if (in->nsrc > EDAN_MAX_SRC || in->ndst > EDAN_MAX_DST) { *why = "bad register count"; break; }
        for (k = 0; k < (uint32_t)in->nsrc + in->ndst; k++) {
            v = bintrace__v(c);
            if (v > 0xffff) { *why = "bad register id"; break; }
            if (k < in->nsrc) in->src[k] = (edan_reg)v;
            else in->dst[k - in->nsrc] = (edan_reg)v;
        }
        if (!c->is_short && !c->bad && !*why && len) {
            uint8_t fl;
            if (!bintrace__matches_bytes(&s[i], &fl)) *why = "an instruction's fields do not match its bytes";
            in->flags |= fl;    /* a stack slot is known from the bytes (its base register); none without */
        }
        mb[i] = mem;
        if (in->mem != EDAN_MEM_NONE) mi[mem++].idx = i;
    }
    mb[n] = mem;
    if (x86) uf[n] = nu;
    if (c->bad && !*why) *why = "malformed varint";
    if (*why || c->is_short) { BINTRACE__DEFINE_FREE(); return *why ? -1 : 0; }
    if (r->nblocks == r->cap_blocks) {
        uint32_t nc = r->cap_blocks ? 2 * r->cap_blocks : 256;
        bintrace_block *nb = (bintrace_block *)realloc(r->blocks, nc * sizeof *nb);
        if (!nb) { BINTRACE__DEFINE_FREE(); *why = "out of memory"; return -1; }
        r->blocks = nb;
        r->cap_blocks = nc;
    }
#undef BINTRACE__DEFINE_FREE
    if (x86) {
        bintrace_uop *shrunk = (bintrace_uop *)realloc(u, (size_t)nu * sizeof *u);
        if (shrunk) u = shrunk;
    }
    memset(&r->blocks[r->nblocks], 0, sizeof r->blocks[r->nblocks]);
    r->blocks[r->nblocks].s = s;
    r->blocks[r->nblocks].n = (uint32_t)n;
    r->blocks[r->nblocks].mem_before = mb;
    r->blocks[r->nblocks].mem = mi;
    r->blocks[r->nblocks].u = u;
    r->blocks[r->nblocks].nu = nu;
    r->blocks[r->nblocks].ufirst = uf;
    for (i = 0; i < n; i++) {
        r->blocks[r->nblocks].has_unknown |= s[i].unknown | s[i].vertex_only;
        r->blocks[r->nblocks].flops += s[i].flops;
    }
    r->nblocks++;
    return 1;
}

/* The common record, when feeding an analysis: an EXEC of a whole block
   that has its compiled form (bintrace_prep.blk), complete in buf, with a
   tag of one or two bytes. Its addresses, then the block at once; 1 when
   done (*pos moved on), BINTRACE_ERR when the analysis refused it, 0 for
   anything else. A malformed address varint is read as the general decoder
   reads it: 0 from there on, *pos left at it, where the next record then
   fails. */
static inline int bintrace__exec_whole(bintrace_reader *r, const unsigned char *buf, size_t n, size_t *pos)
{
    const unsigned char *p = buf + *pos, *end = buf + n;
    bintrace_block *b;
    uint64_t t;
    uint32_t m, nmem;
    int bad;
    if (p[0] < 0x80) {
        t = p[0];
        p++;
    } else if (end - p >= 2 && p[1] < 0x80) {
        t = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
        p += 2;
    } else {
        return 0;
    }
    if ((t & 3) != 0 || (t >> 2) >= r->nblocks) return 0;
    b = &r->blocks[t >> 2];
    nmem = b->mem_before[b->n];
    if (!b->prep.blk || b->prep.owner != r->ctx || (size_t)(end - p) < 10 * (size_t)nmem || r->vopen ||
        b->has_unknown)
        return 0;
    for (m = 0, bad = 0; m < nmem; m++) {
        uint64_t z = 0;
        if (!bad && *p < 0x80) {
            z = *p++;
        } else if (!bad) {
            size_t k = bintrace_get_varint(p, (size_t)(end - p), &z);
            bad = !k;
            p += k;
        }
        r->addrs[b->mem[m].idx] = bintrace__address(&b->mem[m], z);
    }
    if (edan_feed_block(r->ctx, b->prep.blk, r->addrs) != EDAN_OK)
        return bintrace__rejected(r, r->consumed + *pos, &b->s[0], edan_error(r->ctx));
    r->count += b->n;
    r->flops += b->flops;
    *pos = (size_t)(p - buf);
    return 1;
}

/* After a record was applied or handed on: 1, or the error "WHAT record
   rejected: WHY" when something refused it (why not NULL). */
static inline int bintrace__applied(bintrace_reader *r, unsigned long long at, const char *what, const char *why)
{
    char msg[160];
    if (!why) return 1;
    snprintf(msg, sizeof msg, "%s record rejected: %.100s", what, why);
    return bintrace__err(r, at, msg);
}

/* Parses a KILL body and applies it (r->ctx) or hands it to r->kill. 1 =
   done, 0 = short, -1 = error (reported). */
static inline int bintrace__kill(bintrace_reader *r, bintrace__cur *c, unsigned long long at)
{
    uint64_t nregs = bintrace__v(c), nranges, v, end = 0;
    uint32_t i;
    const char *why = NULL;
    if (!c->is_short && !c->bad && nregs > BINTRACE_MAX_KILL_REGS) return bintrace__err(r, at, "bad kill register count");
    for (i = 0; i < nregs && !c->is_short && !c->bad; i++) {
        v = bintrace__v(c);
        if (v > 0xffff) return bintrace__err(r, at, "bad register id in a kill record");
        r->kill_regs[i] = (edan_reg)v;
    }
    nranges = bintrace__v(c);
    if (!c->is_short && !c->bad && nranges > BINTRACE_MAX_KILL_RANGES) return bintrace__err(r, at, "bad kill range count");
    for (i = 0; i < nranges && !c->is_short && !c->bad; i++) {
        uint64_t lo = end + bintrace_unzigzag(bintrace__v(c)), size = bintrace__v(c);
        if (!c->is_short && !c->bad && (size == 0 || lo + size - 1 < lo))
            return bintrace__err(r, at, "bad byte range in a kill record");
        r->kill_ranges[i][0] = lo;
        r->kill_ranges[i][1] = size;
        end = lo + size;
    }
    if (c->is_short) return 0;
    if (c->bad) return bintrace__err(r, at, "malformed varint");
    if (r->ctx) {
        edan_result e = edan_kill_regs(r->ctx, r->kill_regs, (size_t)nregs);
        for (i = 0; e == EDAN_OK && i < nranges; i++) e = edan_kill_mem(r->ctx, r->kill_ranges[i][0], r->kill_ranges[i][1]);
        if (e != EDAN_OK) why = edan_error(r->ctx);
    } else if (r->kill && r->kill(r->kill_user, r->kill_regs, (uint32_t)nregs, (const uint64_t (*)[2])r->kill_ranges,
                                  (uint32_t)nranges, &why) != 0) {
        if (!why) why = "error";
    }
    return bintrace__applied(r, at, "kill", why);
}

/* A thread record applied to the analysis, the one way a thread id or a
   signal reaches the engine from a trace (binary or text) or from the
   tracer: verb 0 creates thread b from thread a, 1 switches to a, 2 ends
   a; BINTRACE_SIGNAL, _SIGRETURN, _SIGDROP: the running thread's signal
   handler starts, returns, is left. */
static inline edan_result bintrace_thread_apply(edan_context *ctx, unsigned verb, uint32_t a, uint32_t b)
{
    switch (verb) {
    case 0: return edan_thread_create(ctx, a, b);
    case 1: return edan_thread_switch(ctx, a);
    case 2: return edan_thread_exit(ctx, a);
    case BINTRACE_SIGNAL: return edan_signal_deliver(ctx);
    case BINTRACE_SIGRETURN: return edan_signal_return(ctx);
    default: return edan_signal_drop(ctx);
    }
}

/* Parses a THREAD body and applies it (r->ctx) or hands it to r->thread.
   1 = done, 0 = short, -1 = error (reported). */
static inline int bintrace__thread(bintrace_reader *r, bintrace__cur *c, unsigned long long at, void *user)
{
    uint64_t verb = bintrace__v(c), a = verb < BINTRACE_SIGNAL ? bintrace__v(c) : 0, b = verb == 0 ? bintrace__v(c) : 0;
    const char *why = NULL;
    if (c->is_short) return 0;
    if (c->bad) return bintrace__err(r, at, "malformed varint");
    if (verb > BINTRACE_SIGDROP || a > 0xffffffffu || b > 0xffffffffu) return bintrace__err(r, at, "bad thread record");
    if (r->ctx) {
        edan_result e = bintrace_thread_apply(r->ctx, (unsigned)verb, (uint32_t)a, (uint32_t)b);
        if (e != EDAN_OK) why = edan_error(r->ctx);
    } else if (r->thread && r->thread(user, (unsigned)verb, (uint32_t)a, (uint32_t)b, &why) != 0) {
        if (!why) why = "error";
    }
    return bintrace__applied(r, at, "thread", why);
}

/* Called for every decoded instruction; returns 0, or nonzero to stop with
   an error (then *msg may point to a message). */
typedef int (*bintrace_insn_fn)(void *user, const edan_insn *in, const char **msg);

/* 1 when accesses a[0 .. n) are what the uops u[0 .. nu) make (rep: as
   many iterations' of them), as bintrace_feed_execution would match them;
   scratch has room for n accesses. */
static inline int bintrace_agrees(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n, int rep,
                                  edan_access *scratch)
{
    uint64_t addrs[BINTRACE_MAX_UOPS];
    uint32_t fi[BINTRACE_MAX_UOPS], ci[BINTRACE_MAX_UOPS];
    size_t used;
    if (rep && n == 0) return 1;
    while ((n || !rep) && bintrace_match_exact(u, nu, a, n, addrs, &used, rep) && (used || !n)) {
        a += used;
        n -= used;
        if (!rep || !n) return 1;
    }
    return bintrace_assign(u, nu, a, n, scratch, fi, ci);
}

/* bintrace_feed_execution's way without an analysis: the same vertices,
   in the same order (the chunk ch too), each to fn. 0, or fn's nonzero. */
static inline int bintrace_emit_execution(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n, int rep,
                                          bintrace_chunk *ch, edan_access *scratch, int *agrees, bintrace_vertex_fn fn,
                                          void *user, const char **why)
{
    uint64_t addrs[BINTRACE_MAX_UOPS];
    uint32_t fi[BINTRACE_MAX_UOPS], ci[BINTRACE_MAX_UOPS], k;
    size_t used;
    int rc;
    *agrees = 1;
    if ((rc = bintrace__chunk_step(ch, u, nu, a, n, rep, fn, user, why)) != 0) return rc < 0 ? rc : 0;
    if (rep && n == 0) return 0;
    while ((n || !rep) && bintrace_match_exact(u, nu, a, n, addrs, &used, rep) && (used || !n)) {
        for (k = 0; k < nu; k++) {
            edan_insn v = u[k].in;
            v.addr = addrs[k];
            if ((rc = fn(user, &v, NULL, 0, why)) != 0) return rc;
        }
        if (!used) return 0;        /* an execution without accesses (a is NULL then): done */
        a += used;
        n -= used;
        if (!rep || !n) return 0;
    }
    *agrees = bintrace_assign(u, nu, a, n, scratch, fi, ci);
    for (k = 0; k < nu; k++) {
        edan_insn v = u[k].in;
        if (!ci[k]) v.mem = EDAN_MEM_NONE;
        if ((rc = fn(user, &v, ci[k] ? scratch + fi[k] : NULL, ci[k], why)) != 0) return rc;
    }
    return 0;
}

/* The reader's bintrace_insn_fn behind a bintrace_vertex_fn: the
   accesses in r->vertex during the call. */
typedef struct bintrace__fnv { bintrace_reader *r; bintrace_insn_fn fn; void *user; } bintrace__fnv;
static inline int bintrace__fn_vertex(void *user, const edan_insn *in, const edan_access *acc, size_t n, const char **why)
{
    bintrace__fnv *f = (bintrace__fnv *)user;
    int rc;
    if (!f->fn) return 0;
    f->r->vertex = acc;
    f->r->vertex_n = acc ? n : 0;
    rc = f->fn(f->user, in, why);
    f->r->vertex = NULL;
    f->r->vertex_n = 0;
    return rc;
}

/* Parses a VERTEX body (x86-64); the last of an execution's records feeds
   it (r->ctx: bintrace_feed_execution; else fn, vertex by vertex:
   bintrace__emit_execution). 1 = done, 0 = short, -1 = error (reported). */
static inline int bintrace__vertex(bintrace_reader *r, bintrace__cur *c, unsigned long long at, bintrace_insn_fn fn,
                                   void *user)
{
    uint64_t id = bintrace__v(c), idx = bintrace__v(c), km = bintrace__v(c), k = km >> 1, i, last = r->vlast;
    size_t n0 = r->vn;
    bintrace_sinsn *s;
    if (c->is_short) return 0;
    if (c->bad) return bintrace__err(r, at, "malformed varint");
    if (id >= r->nblocks || idx >= r->blocks[id].n) return bintrace__err(r, at, "VERTEX of an undefined instruction");
    if (k > BINTRACE_MAX_VERTEX) return bintrace__err(r, at, "bad access count in a VERTEX record");
    if (r->vopen && (r->vblock != id || r->vidx != idx))
        return bintrace__err(r, at, "a VERTEX record continues another instruction");
    if (r->vn + k > BINTRACE_MAX_VERTEX_ACCESSES)
        return bintrace__err(r, at, "an instruction of more than 1048576 accesses (BINTRACE_MAX_VERTEX_ACCESSES)");
    s = &r->blocks[id].s[idx];
    if (s->unknown) return bintrace__rejected(r, at, s, "it does not decode");
    if (r->vn + k > r->vcap) {
        size_t nc = (r->vn + k) * 2;
        edan_access *na = (edan_access *)realloc(r->vacc, nc * sizeof *na);
        if (!na) return bintrace__err(r, at, "out of memory");
        r->vacc = na;
        r->vcap = nc;
    }
    for (i = 0; i < k; i++) {
        edan_access *a = &r->vacc[r->vn + i];
        uint64_t size;
        a->kind = bintrace__b(c);
        size = bintrace__v(c);
        last += bintrace_unzigzag(bintrace__v(c));
        a->addr = last;
        if (c->is_short) return 0;
        if (c->bad) return bintrace__err(r, at, "malformed varint");
        if ((a->kind != EDAN_MEM_LOAD && a->kind != EDAN_MEM_STORE) || size < 1 || size > EDAN_MAX_ACCESS)
            return bintrace__err(r, at, "bad access in a VERTEX record");
        a->size = (uint32_t)size;
    }
    /* the record is whole: it counts */
    r->vlast = last;
    r->vn = n0 + (size_t)k;
    r->vopen = (int)(km & 1);
    r->vblock = (uint32_t)id;
    r->vidx = (uint32_t)idx;
    if (r->vopen) return 1;
    if (r->vn > r->scap) {
        size_t nc = r->vn * 2;
        edan_access *na = (edan_access *)realloc(r->scratch, nc * sizeof *na);
        if (!na) return bintrace__err(r, at, "out of memory");
        r->scratch = na;
        r->scap = nc;
    }
    {
        const bintrace_block *b = &r->blocks[id];
        uint32_t first = b->ufirst[idx], nu = b->ufirst[idx + 1] - first, bad;
        int agrees = 1;
        if (r->ctx) {
            if (bintrace_feed_execution(r->ctx, &r->blocks[id].prep, b->u, b->nu, first, nu, r->vacc, r->vn, s->rep,
                                        &r->chunk, r->scratch, &agrees, &bad) != EDAN_OK)
                return bintrace__rejected(r, at, s, edan_error(r->ctx));
        } else {
            const char *why = NULL;
            bintrace__fnv f;
            f.r = r;
            f.fn = fn;
            f.user = user;
            if (bintrace_emit_execution(b->u + first, nu, r->vacc, r->vn, s->rep, &r->chunk, r->scratch, &agrees,
                                        bintrace__fn_vertex, &f, &why) != 0)
                return bintrace__rejected(r, at, s, why);
        }
        if (!agrees) {
            if (r->vn) r->mismatches++;
            else r->missing++;
        }
    }
    r->vn = 0;
    r->count++;
    r->flops += s->flops;
    return 1;
}

/* The file header, once buf has it whole: version, ISA, header size,
   recorded load. BINTRACE_OK with r->have_header set and *pos after the
   header, or unset when more input is needed; BINTRACE_ERR. */
static inline int bintrace__header(bintrace_reader *r, const unsigned char *buf, size_t n, size_t *pos)
{
    unsigned version, isa, hdr_size;
    if (n < BINTRACE_HEADER_SIZE) return BINTRACE_OK;
    if (!bintrace_detect(buf, n)) return bintrace__err(r, 0, "not an EDAN binary trace (bad magic)");
    version = buf[6] | (unsigned)buf[7] << 8;
    isa = buf[8] | (unsigned)buf[9] << 8;
    hdr_size = buf[10] | (unsigned)buf[11] << 8;
    r->crc = crc32(0L, Z_NULL, 0);
    r->span = 0;
    if (buf[12] | buf[13] | buf[14] | buf[15]) return bintrace__err(r, 12, "unknown flags in the binary trace header");
    if (version < 1 || version > BINTRACE_VERSION) {
        char msg[100];
        snprintf(msg, sizeof msg, "binary trace version %u; this edan reads versions 1 to %d", version,
                 BINTRACE_VERSION);
        return bintrace__err(r, 6, msg);
    }
    r->version = version;
    if (version < 2)
        snprintf(r->warning, sizeof r->warning,
                 "version %u binary trace: it has no checksums, a damaged file cannot be told from a good one",
                 version);
    else if (version < 3)
        snprintf(r->warning, sizeof r->warning,
                 "version %u binary trace: its checksums cover each stretch alone, so stretches moved or "
                 "repeated cannot be told from a good file", version);
    if (isa == EDAN_ISA_X86_64 && !r->decode)
        return bintrace__err(r, 8, "an x86-64 binary trace: this reader has no x86-64 decoder");
    if (isa != EDAN_ISA_RISCV64 && isa != EDAN_ISA_X86_64)
        return bintrace__err(r, 8, "unknown ISA in the binary trace header");
    r->isa = isa;
    if (hdr_size < BINTRACE_HEADER_SIZE || hdr_size > 4096) return bintrace__err(r, 10, "bad header size");
    if (n < hdr_size) return BINTRACE_OK;
    if (hdr_size >= BINTRACE_HEADER_LOAD) {
        int k;
        for (k = 7; k >= 0; k--) r->load = r->load << 8 | buf[16 + k];
    }
    *pos = hdr_size;
    r->have_header = 1;
    return BINTRACE_OK;
}

/* An EXEC record's instructions first..first+count of block b, complete in
   c, fed to the analysis: the memory instructions' addresses (a varint of
   one byte, a predicted stride, without the general decoder), then the
   block at once (x86-64: its instructions' vertices). 1, or -1 (reported)
   when the analysis refuses it. */
static inline int bintrace__exec_feed(bintrace_reader *r, bintrace__cur *c, unsigned long long at, bintrace_block *b,
                                      uint64_t first, uint64_t count)
{
    uint32_t m, m1 = b->mem_before[first + count], bad, i;
    uint32_t base = b->u ? b->ufirst[first] : (uint32_t)first;
    for (m = b->mem_before[first]; m < m1; m++) {
        uint64_t z;
        if (c->p < c->end && *c->p < 0x80) z = *c->p++;
        else z = bintrace__v(c);
        r->addrs[b->mem[m].idx - base] = bintrace__address(&b->mem[m], z);
    }
    if (b->u) {
        if (bintrace_feed_block(r->ctx, &b->prep, &b->u[0].in, sizeof *b->u, b->nu, base,
                                b->ufirst[first + count] - base, r->addrs, &bad) != EDAN_OK) {
            for (i = (uint32_t)first; i + 1 < first + count && b->ufirst[i + 1] <= bad; i++) {}
            return bintrace__rejected(r, at, &b->s[i], edan_error(r->ctx));
        }
    } else if (bintrace_feed_block(r->ctx, &b->prep, &b->s[0].in, sizeof *b->s, b->n, (uint32_t)first,
                                   (uint32_t)count, r->addrs, &bad) != EDAN_OK) {
        return bintrace__rejected(r, at, &b->s[bad], edan_error(r->ctx));
    }
    return 1;
}

/* The same instructions, each (x86-64: each of its vertices) handed to fn
   with its address. 1, or -1 (reported) when fn refuses one. */
static inline int bintrace__exec_emit(bintrace_reader *r, bintrace__cur *c, unsigned long long at, bintrace_block *b,
                                      uint64_t first, uint64_t count, bintrace_insn_fn fn, void *user)
{
    uint32_t m = b->mem_before[first], k, i;
    for (i = (uint32_t)first; i < first + count; i++) {
        bintrace_sinsn *s = &b->s[i];
        const char *why = NULL;
        if (s->in.mem != EDAN_MEM_NONE) s->in.addr = bintrace__address(&b->mem[m++], bintrace__v(c));
        if (!b->u) {
            if (fn(user, &s->in, &why) != 0) return bintrace__rejected(r, at, s, why);
            continue;
        }
        for (k = b->ufirst[i]; k < b->ufirst[i + 1]; k++) {
            edan_insn v = b->u[k].in;
            v.addr = v.mem != EDAN_MEM_NONE ? s->in.addr : 0;
            if (fn(user, &v, &why) != 0) return bintrace__rejected(r, at, s, why);
        }
    }
    return 1;
}

/* An EXEC record (tag t) of a block, whole or a range of its instructions.
   1 = done, 0 = short, -1 = error (reported). */
static inline int bintrace__exec(bintrace_reader *r, bintrace__cur *c, unsigned long long at, uint64_t t,
                                 bintrace_insn_fn fn, void *user)
{
    uint64_t id = t >> 2, first = 0, count;
    bintrace_block *b;
    uint32_t i, nmem;
    int rc;
    if (id >= r->nblocks) return bintrace__err(r, at, "execution of an undefined block");
    b = &r->blocks[id];
    count = b->n;
    if (t & 1) {
        first = bintrace__v(c);
        count = bintrace__v(c);
        if (c->is_short) return 0;
        if (c->bad) return bintrace__err(r, at, "malformed varint");
        if (count == 0 || first >= b->n || count > b->n - first)
            return bintrace__err(r, at, "bad instruction range in block");
    }
    if (b->has_unknown)
        for (i = (uint32_t)first; i < first + count; i++) {
            if (b->s[i].unknown) return bintrace__rejected(r, at, &b->s[i], "it does not decode");
            if (b->s[i].vertex_only)
                return bintrace__rejected(r, at, &b->s[i], "an EXEC record of an instruction whose accesses "
                                          "come in VERTEX records");
        }
    /* complete? (the address predictors must not move on a partial record) */
    nmem = b->mem_before[first + count] - b->mem_before[first];
    if ((size_t)(c->end - c->p) < 10 * (size_t)nmem) {
        bintrace__cur probe = *c;
        for (i = 0; i < nmem && !probe.is_short && !probe.bad; i++) (void)bintrace__v(&probe);
        if (probe.is_short) return 0;
        if (probe.bad) return bintrace__err(r, at, "malformed varint");
    }
    if (r->ctx) rc = bintrace__exec_feed(r, c, at, b, first, count);
    else rc = bintrace__exec_emit(r, c, at, b, first, count, fn, user);
    if (rc < 0) return rc;
    r->count += count;
    if (r->isa == EDAN_ISA_X86_64) {
        if (first == 0 && count == b->n) r->flops += b->flops;
        else for (i = (uint32_t)first; i < first + count; i++) r->flops += b->s[i].flops;
    }
    return 1;
}

/* A CHECK record at buf[pos]: the CRC of the bytes since the last one
   (version 3: of all before it) must match. *crc_pos and *since move past
   it. 1 = done, 0 = short, -1 = error (reported). */
static inline int bintrace__check(bintrace_reader *r, bintrace__cur *c, const unsigned char *buf, size_t pos,
                                  unsigned long long at, size_t *crc_pos, size_t *since)
{
    uLong want, got;
    if (c->end - c->p < 4) return 0;
    want = (uLong)c->p[0] | (uLong)c->p[1] << 8 | (uLong)c->p[2] << 16 | (uLong)c->p[3] << 24;
    got = crc32(r->crc, buf + *crc_pos, (uInt)(pos - *crc_pos));
    if (want != got && !r->skip_checks) {
        char msg[150];
        if (r->version >= 3)
            snprintf(msg, sizeof msg, "checksum mismatch: the file was changed after byte %llu, or its "
                     "stretches were moved, repeated or spliced", r->consumed + *since - r->span);
        else
            snprintf(msg, sizeof msg, "checksum mismatch: bytes %llu to %llu of the file were changed",
                     r->consumed + *crc_pos - r->span, at);
        return bintrace__err(r, at, msg);
    }
    c->p += 4;
    if (r->version >= 3) {      /* chained: the running CRC goes on, over this record too */
        r->crc = got;
        *crc_pos = pos;
    } else {
        r->crc = crc32(0L, Z_NULL, 0);
        *crc_pos = (size_t)(c->p - buf);
    }
    r->span = 0;
    *since = (size_t)(c->p - buf);
    if (r->on_check) r->on_check(r->check_user, at, r->consumed + *since);
    return 1;
}

/* Before the record at [p, end) (at): a gathering chunk goes to the
   analysis or to fn, unless the record is a VERTEX (which may continue
   it), a DEFINE or a CHECK. 1, 0 when the tag is cut short, -1 on an
   error (reported). */
static inline int bintrace__chunk_out(bintrace_reader *r, const unsigned char *p, const unsigned char *end,
                                      unsigned long long at, bintrace_insn_fn fn, void *user)
{
    bintrace__cur c;
    uint64_t t;
    const char *why = NULL;
    c.p = p;
    c.end = end;
    c.is_short = c.bad = 0;
    t = bintrace__v(&c);
    if (c.is_short) return 0;
    if (c.bad || t == ((3u << 2) | 3) || (t & 3) == 2 || t == ((2u << 2) | 3)) return 1;   /* the record says */
    if (r->ctx) {
        if (bintrace_chunk_feed(&r->chunk, r->ctx) != EDAN_OK) why = edan_error(r->ctx);
    } else {
        bintrace__fnv f;
        f.r = r;
        f.fn = fn;
        f.user = user;
        if (bintrace_chunk_flush(&r->chunk, bintrace__fn_vertex, &f, &why) != 0 && !why) why = "error";
    }
    return bintrace__applied(r, at, "rep chunk", why);
}

/* Decodes the complete records in buf[0..n), calling fn for every
   instruction in trace order, and sets *used to the bytes consumed; the
   caller keeps buf[*used..n) and appends more input. Returns BINTRACE_OK
   (more input needed), BINTRACE_EOF (end record reached and checked) or
   BINTRACE_ERR (r->offset: input byte, r->error: what is wrong). */
static inline int bintrace_reader_decode(bintrace_reader *r, const unsigned char *buf, size_t n,
                                         size_t *used, bintrace_insn_fn fn, void *user)
{
    size_t pos = 0, crc_pos = 0;    /* buf[crc_pos .. pos): consumed, not yet in r->crc */
    size_t since = 0;               /* buf[since .. pos): consumed since the last CHECK record */
    *used = 0;
    if (r->done) return n ? bintrace__err(r, r->consumed, "data after the end record") : BINTRACE_EOF;
    if (!r->have_header) {
        int hr = bintrace__header(r, buf, n, &pos);
        if (hr != BINTRACE_OK || !r->have_header) return hr;
    }
    while (pos < n) {
        bintrace__cur c;
        uint64_t t, id, count;
        unsigned long long at = r->consumed + pos;
        int rr;
        if (r->chunk.nu && (rr = bintrace__chunk_out(r, buf + pos, buf + n, at, fn, user)) <= 0) {
            if (rr < 0) return BINTRACE_ERR;
            break;
        }
        if (r->ctx) {
            int w = bintrace__exec_whole(r, buf, n, &pos);
            if (w == BINTRACE_ERR) return w;
            if (w) continue;
        }
        c.p = buf + pos;
        c.end = buf + n;
        c.is_short = c.bad = 0;
        t = bintrace__v(&c);
        if (c.is_short) break;
        if (c.bad) return bintrace__err(r, at, "malformed varint");
        id = t >> 2;
        if (r->vopen && t != ((3u << 2) | 3) && t != ((2u << 2) | 3))
            return bintrace__err(r, at, "an instruction's accesses continue in no VERTEX record");
        if ((t & 3) <= 1) {
            rr = bintrace__exec(r, &c, at, t, fn, user);
        } else if ((t & 3) == 2) {
            const char *why = NULL;
            if (id != r->nblocks) return bintrace__err(r, at, "block defined out of order");
            rr = bintrace__define(r, &c, &why);
            if (rr < 0) return bintrace__err(r, at, why);
        } else if (id == 1 && r->version >= 2) {
            rr = bintrace__kill(r, &c, at);
        } else if (id == 4) {
            rr = bintrace__thread(r, &c, at, r->thread_user);
        } else if (id == 3 && r->isa == EDAN_ISA_X86_64) {
            rr = bintrace__vertex(r, &c, at, fn, user);
        } else if (id == 2 && r->version >= 2) {
            rr = bintrace__check(r, &c, buf, pos, at, &crc_pos, &since);
        } else {
            if (id != 0) return bintrace__err(r, at, "unknown record kind");
            count = bintrace__v(&c);
            if (c.is_short) break;
            if (c.bad) return bintrace__err(r, at, "malformed varint");
            if (r->version >= 2 && !r->skip_checks && r->span + (pos - since) > 0)
                return bintrace__err(r, at, "no checksum right before the end record: the trace was cut or changed");
            if (count != r->count) return bintrace__err(r, at, "instruction count in the end record does not match");
            r->done = 1;
            rr = 1;
        }
        if (rr == 0) break;
        if (rr < 0) return BINTRACE_ERR;
        pos = (size_t)(c.p - buf);
        if (r->done) break;
    }
    *used = pos;
    r->crc = crc32(r->crc, buf + crc_pos, (uInt)(pos - crc_pos));
    r->span += pos - since;
    r->consumed += pos;
    r->offset = r->consumed;
    if (r->done) return pos < n ? bintrace__err(r, r->consumed, "data after the end record") : BINTRACE_EOF;
    return BINTRACE_OK;
}

/* bintrace_reader_decode feeding every instruction to the analysis ctx
   (each block prepared once, each execution fed at once: bintrace_feed_block). */
static inline int bintrace_reader_feed(bintrace_reader *r, const unsigned char *buf, size_t n,
                                       size_t *used, edan_context *ctx)
{
    int rc;
    r->ctx = ctx;
    rc = bintrace_reader_decode(r, buf, n, used, NULL, NULL);
    r->ctx = NULL;
    return rc;
}

#endif /* EDAN_BINTRACE_H */
