/* tools/front/bintrace.h - the EDAN binary trace format: writer and reader.

   Shared by the QEMU plugin (writer) and `edan analyze` (reader). This
   header declares them; the code is in bintrace_write.c (the writer),
   bintrace_read.c (the reader) and bintrace_feed.c (what both the reader
   and the plugin's online analysis feed the engine: prepared blocks, an
   x86-64 instruction's vertices, rep chunks, thread records), compiled
   into every program that uses them. Only the integer coding of the format
   (zigzag, varints) is static inline here, for the writer's and the
   reader's inner loops. Needs edan.h (for edan_insn) included first or
   here.

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
#define BINTRACE_CHECK_EVERY 65536    /* bytes between CHECK records (bintrace_writer.check_every) */
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
/* Micro-operations, fed to the analysis (bintrace_feed.c)                */
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
int bintrace_match_exact(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n,
                         uint64_t *addrs, size_t *used, int prefix);

/* Accesses a[0 .. n) to the memory uops of u[0 .. nu), whatever they are:
   loads in order to the load uops, each taking until it has its bytes (the
   last one all that remain), stores likewise; the accesses of a kind no
   uop makes go to the last memory uop (or to uop 0 when none is). out[] (n)
   gets them uop by uop, uop k's at out[first[k] .. first[k] + count[k]).
   1 when they are what the uops make (each its bytes, at most them for
   at_most; none left over), else 0. */
int bintrace_assign(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n,
                    edan_access *out, uint32_t *first, uint32_t *count);

/* A block's instructions prepared for one analysis context. */
typedef struct bintrace_prep {
    edan_prepared *p;       /* n, allocated on first use; one edan_prepare refused is zeroed */
    const edan_context *owner;
    uint32_t bad;           /* the first instruction edan_prepare refused, or n */
    edan_block *blk;        /* for whole executions, when none was refused */
} bintrace_prep;

/* Frees bp, before its context is destroyed (the context owns bp->blk). A
   bintrace_prep serves one context. */
void bintrace_prep_free(bintrace_prep *bp);

/* Feeds executed instructions (vertices) s[first .. first+count) of a
   block of n to ctx, with the addresses of its memory instructions in
   addrs[0 .. count) (addrs[i] for s[first + i]); s[i] is the edan_insn at
   (char *)s0 + i * stride (the `in` of an array of bintrace_sinsn or
   bintrace_uop). The block is prepared on its first execution. A refused
   instruction stops the execution that reaches it, as edan_feed would, and
   no other. On an error *at is the index in s of the instruction at fault
   (the first when the block's preparation failed). */
edan_result bintrace_feed_block(edan_context *ctx, bintrace_prep *bp, const edan_insn *s0, size_t stride,
                                uint32_t n, uint32_t first, uint32_t count, const uint64_t *addrs,
                                uint32_t *at);

/* x86-64: the instruction among first .. end-1 whose vertices hold vertex
   v (instruction i's are ufirst[i] .. ufirst[i + 1] - 1; the last when v
   lies beyond them): the one an error about vertex v names. */
static inline uint32_t bintrace_insn_of(const uint32_t *ufirst, uint32_t first, uint32_t end, uint32_t v)
{
    uint32_t i = first;
    while (i + 1 < end && ufirst[i + 1] <= v) i++;
    return i;
}

/* A vertex of an execution that bintrace_emit_execution hands over: in,
   with acc NULL (a memory uop that matched exactly has its address in
   in.addr), or with the accesses acc[0 .. n) assigned to it (none: in.mem
   cleared). 0, or nonzero to stop (*why: a message). */
typedef int (*bintrace_vertex_fn)(void *user, const edan_insn *in, const edan_access *acc, size_t n, const char **why);

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
int bintrace_chunked(const bintrace_uop *u, uint32_t nu, int rep);

/* The gathered chunk, if any, to fn: the instruction's vertices, its load
   and store with the chunk's bytes. 0, or fn's nonzero. */
int bintrace_chunk_flush(bintrace_chunk *c, bintrace_vertex_fn fn, void *user, const char **why);

/* bintrace_chunk_flush to the analysis ctx: its result. */
edan_result bintrace_chunk_feed(bintrace_chunk *c, edan_context *ctx);

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
edan_result bintrace_feed_execution(edan_context *ctx, bintrace_prep *bp, const bintrace_uop *ub,
                                    uint32_t nb, uint32_t first, uint32_t nu, const edan_access *a,
                                    size_t n, int rep, bintrace_chunk *ch, edan_access *scratch,
                                    int *agrees, uint32_t *at);

/* A thread record applied to the analysis, the one way a thread id or a
   signal reaches the engine from a trace (binary or text) or from the
   tracer: verb 0 creates thread b from thread a, 1 switches to a, 2 ends
   a; BINTRACE_SIGNAL, _SIGRETURN, _SIGDROP: the running thread's signal
   handler starts, returns, is left. */
edan_result bintrace_thread_apply(edan_context *ctx, unsigned verb, uint32_t a, uint32_t b);

/* 1 when accesses a[0 .. n) are what the uops u[0 .. nu) make (rep: as
   many iterations' of them), as bintrace_feed_execution would match them;
   scratch has room for n accesses. */
int bintrace_agrees(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n, int rep,
                    edan_access *scratch);

/* bintrace_feed_execution's way without an analysis: the same vertices,
   in the same order (the chunk ch too), each to fn. 0, or fn's nonzero. */
int bintrace_emit_execution(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n, int rep,
                            bintrace_chunk *ch, edan_access *scratch, int *agrees, bintrace_vertex_fn fn,
                            void *user, const char **why);

/* ---------------------------------------------------------------------- */
/* Encoding helpers                                                       */
/* ---------------------------------------------------------------------- */
static inline uint64_t bintrace_zigzag(uint64_t v) { return (v << 1) ^ (0 - (v >> 63)); }
static inline uint64_t bintrace_unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

/* A memory instruction of a block being read: its index in the block and
   its address predictor (kept apart from the block's instructions, so that
   an execution's predictors share cache lines). */
typedef struct bintrace_rmem { uint64_t last, stride; uint32_t idx; } bintrace_rmem;

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

/* ---------------------------------------------------------------------- */
/* Writer (bintrace_write.c)                                              */
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
    size_t check_every;     /* bytes between CHECK records: BINTRACE_CHECK_EVERY from the open (a test
                               may set fewer, to write shorter stretches) */
} bintrace_writer;

/* Starts a trace of instructions of an ISA (edan_isa: EDAN_ISA_*) on f, of a
   format version (BINTRACE_VERSION; 2 writes what earlier versions wrote,
   for tests of old files). */
int bintrace_writer_open_version(bintrace_writer *w, FILE *f, unsigned isa, unsigned version);

/* The header's load offset (BINTRACE_HEADER_LOAD): before any record is
   written. BINTRACE_ERR when too late or the header has none. */
int bintrace_writer_set_load(bintrace_writer *w, uint64_t load);

/* Starts a trace of the current version. */
int bintrace_writer_open_isa(bintrace_writer *w, FILE *f, unsigned isa);

int bintrace_writer_open(bintrace_writer *w, FILE *f);

/* Define a block of n (1..BINTRACE_MAX_BLOCK) static instructions; returns its id. */
uint32_t bintrace_write_define(bintrace_writer *w, const bintrace_sinsn *s, uint32_t n);

/* Block `id` executed instructions first..first+count-1, with the addresses
   in s[i].in.addr. Updates the predictors in s. */
void bintrace_write_exec(bintrace_writer *w, uint32_t id, bintrace_sinsn *s,
                         uint32_t n, uint32_t first, uint32_t count);

/* x86-64: instruction idx of block id executed with the accesses a[0 ..
   n), in order: VERTEX records of up to BINTRACE_MAX_VERTEX accesses;
   more = 1 when the next call continues the same execution. */
void bintrace_write_vertex(bintrace_writer *w, uint32_t id, uint32_t idx, const edan_access *a,
                           size_t n, int more);

/* A KILL record: registers regs[0 .. nregs) and the byte ranges
   ranges[i] = {lo, size} (i < nranges) lost their writers. */
void bintrace_write_kill(bintrace_writer *w, const edan_reg *regs, uint32_t nregs,
                         const uint64_t (*ranges)[2], uint32_t nranges);

/* A THREAD record: verb 0 (thread a creates thread b), 1 (switch to a), 2
   (a exits), or the running thread's signals (a and b unused):
   BINTRACE_SIGNAL (a handler starts), BINTRACE_SIGRETURN (it returns),
   BINTRACE_SIGDROP (it is left). */
enum { BINTRACE_SIGNAL = 3, BINTRACE_SIGRETURN = 4, BINTRACE_SIGDROP = 5 };
void bintrace_write_thread(bintrace_writer *w, unsigned verb, uint32_t a, uint32_t b);

/* Writes the END record and flushes; frees the buffer. The caller closes f. */
int bintrace_writer_close(bintrace_writer *w);

/* ---------------------------------------------------------------------- */
/* Reader (bintrace_read.c; push style: the caller reads the file in     */
/* chunks)                                                                */
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

/* 1 when head (n bytes of a file's start) is a binary trace. */
int bintrace_detect(const unsigned char *head, size_t n);

int bintrace_reader_init(bintrace_reader *r);

void bintrace_reader_free(bintrace_reader *r);

/* Called for every decoded instruction; returns 0, or nonzero to stop with
   an error (then *msg may point to a message). */
typedef int (*bintrace_insn_fn)(void *user, const edan_insn *in, const char **msg);

/* Decodes the complete records in buf[0..n), calling fn for every
   instruction in trace order, and sets *used to the bytes consumed; the
   caller keeps buf[*used..n) and appends more input. Returns BINTRACE_OK
   (more input needed), BINTRACE_EOF (end record reached and checked) or
   BINTRACE_ERR (r->offset: input byte, r->error: what is wrong). */
int bintrace_reader_decode(bintrace_reader *r, const unsigned char *buf, size_t n,
                           size_t *used, bintrace_insn_fn fn, void *user);

/* bintrace_reader_decode feeding every instruction to the analysis ctx
   (each block prepared once, each execution fed at once: bintrace_feed_block). */
int bintrace_reader_feed(bintrace_reader *r, const unsigned char *buf, size_t n,
                         size_t *used, edan_context *ctx);

#endif /* EDAN_BINTRACE_H */
