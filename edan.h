/* edan.h - execution-DAG memory-latency analysis in one header.

   WHAT IT DOES
   Feed it a program's dynamic instruction trace, one instruction at a time,
   in program order. It builds the program's execution DAG (eDAG) implicitly,
   in one streaming pass, and computes the memory-latency metrics of the EDAN
   model: memory work W, memory depth D, the layer histogram W_i, C, T1,
   Tinf, parallelism, lambda(m), Lambda, the lower/layered/upper memory-cost
   and time bounds, bandwidth utilisation B and data movement over time,
   optionally through a multi-level set-associative LRU cache model.
   The graph is never stored: memory is bounded by the registers, the distinct
   memory bytes the program touches, the number of layers and timeline bins,
   never by the trace length. Several analysis configurations (cache
   hierarchies, costs) share one pass.

   It also contains a RISC-V (RV64GC) front-end: a parser for the textual
   traces of QEMU-based tracers and a decoder of raw instruction bytes, and a
   loader for the hardware profiles written by `probe`.

   EXAMPLE
       #define EDAN_IMPLEMENTATION
       #include "edan.h"
       edan_options opt = {0};                  // zero = the paper's defaults
       edan_context *ctx;
       if (edan_create(&ctx, &opt) != EDAN_OK) return 1;
       edan_rv_parser rv = {0};
       edan_insn in;
       while (fgets(line, sizeof line, f))
           if (edan_rv_parse_line(&rv, line, strlen(line), &in) == EDAN_OK)
               edan_feed(ctx, &in);
       edan_metrics mt; edan_get_metrics(ctx, 0, &mt);
       printf("W=%llu D=%llu\n", (unsigned long long)mt.W, (unsigned long long)mt.D);
       edan_destroy(ctx);

   BUILD
   In exactly one C or C++ file, before the include:
       #define EDAN_IMPLEMENTATION
   Optional, before that include:
       #define EDAN_MALLOC(sz,user) / EDAN_REALLOC(p,sz,user) / EDAN_FREE(p,user)
       to change the default allocator (per-context hooks in edan_options win),
       #define EDAN_ASSERT(x) to change assert().
   C99; no global state; no exit(); warning-free with -Wall -Wextra -pedantic.

   MODEL
   The exact semantics are those of the eDAG model: true (read-after-write)
   dependencies only, through registers and memory bytes; a vertex is a
   memory access vertex when it reaches RAM (every load/store/AMO without a
   cache; a miss in every level with one). See README.md.

   LICENSE: MIT.
*/
#ifndef EDAN_H
#define EDAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EDAN_VERSION_MAJOR 0
#define EDAN_VERSION_MINOR 1

/* ------------------------------------------------------------------------ */
/* Results                                                                  */
/* ------------------------------------------------------------------------ */
typedef enum edan_result {
    EDAN_OK = 0,
    EDAN_SKIP,              /* input line carries no instruction (blank, comment) */
    EDAN_ERR_NOMEM,
    EDAN_ERR_INVALID_ARG,
    EDAN_ERR_PARSE,         /* malformed input */
    EDAN_ERR_UNKNOWN_OP,    /* mnemonic / encoding not known */
    EDAN_ERR_LIMIT,         /* a configured size limit was exceeded */
    EDAN_ERR_IO,
    EDAN_ERR_VERSION        /* file of an unsupported version */
} edan_result;

const char *edan_result_string(edan_result r);

/* ------------------------------------------------------------------------ */
/* Instructions (ISA-neutral)                                               */
/* ------------------------------------------------------------------------ */

/* Instruction classes: the keys of the cost table. */
typedef enum edan_class {
    EDAN_CLASS_OTHER = 0,   /* nop, fence, ecall, ... */
    EDAN_CLASS_INT_ALU,
    EDAN_CLASS_INT_MUL,
    EDAN_CLASS_INT_DIV,
    EDAN_CLASS_FP_ADD,      /* add, sub, min/max, compare, sign injection */
    EDAN_CLASS_FP_MUL,
    EDAN_CLASS_FP_FMA,
    EDAN_CLASS_FP_DIV,      /* div and sqrt */
    EDAN_CLASS_FP_CVT,      /* conversions and moves between register files */
    EDAN_CLASS_BRANCH,
    EDAN_CLASS_JUMP,
    EDAN_CLASS_LOAD,
    EDAN_CLASS_STORE,
    EDAN_CLASS_AMO,         /* atomics, LR, SC */
    EDAN_CLASS_CSR,
    EDAN_CLASS_COUNT
} edan_class;

const char *edan_class_name(edan_class c);

typedef enum edan_mem_kind {
    EDAN_MEM_NONE = 0,
    EDAN_MEM_LOAD,
    EDAN_MEM_STORE,
    EDAN_MEM_AMO            /* a load and a store of the same bytes, one vertex */
} edan_mem_kind;

#define EDAN_MAX_SRC 4
#define EDAN_MAX_DST 2
#define EDAN_MAX_ACCESS 64  /* largest access size in bytes */

/* Register id 0 is the hard-wired zero: reading it makes no edge, writing it
   is dropped. Other ids are < edan_options.num_regs. */
typedef uint16_t edan_reg;

enum { EDAN_INSN_HAS_PC = 1 };

/* One executed instruction. Front-ends fill it; edan_feed consumes it. */
typedef struct edan_insn {
    uint64_t pc;            /* valid when flags & EDAN_INSN_HAS_PC */
    uint64_t addr;          /* first byte accessed, when mem != EDAN_MEM_NONE */
    uint32_t op;            /* front-end opcode id (names come from the front-end) */
    uint16_t size;          /* bytes accessed, 1..EDAN_MAX_ACCESS */
    uint8_t mem;            /* edan_mem_kind */
    uint8_t cls;            /* edan_class */
    uint8_t nsrc, ndst;
    uint8_t flags;
    uint8_t length;         /* encoded length in bytes (decoder), 0 if unknown */
    edan_reg src[EDAN_MAX_SRC];
    edan_reg dst[EDAN_MAX_DST];
} edan_insn;

/* ------------------------------------------------------------------------ */
/* Options: a zero-initialised struct means the paper's defaults.           */
/* ------------------------------------------------------------------------ */
typedef struct edan_allocator {
    void *(*alloc)(size_t size, void *user);
    void *(*realloc)(void *ptr, size_t size, void *user);
    void (*free)(void *ptr, void *user);
    void *user;
} edan_allocator;

#define EDAN_MAX_LEVELS 4
#define EDAN_MAX_CONFIGS 16
#define EDAN_MAX_M 16

typedef struct edan_cache_level {
    uint64_t size;          /* bytes; size = assoc * sets * line, sets a power of two */
    uint32_t assoc;         /* ways */
    uint32_t line;          /* bytes, a power of two */
    uint32_t latency;       /* hit latency in cycles; 0 = 1 */
} edan_cache_level;

typedef enum edan_write_policy {
    EDAN_WRITE_BACK = 0,    /* write-back, write-allocate (default) */
    EDAN_WRITE_THROUGH      /* write-through, no-write-allocate */
} edan_write_policy;

/* One analysis configuration: a machine the trace is evaluated on. */
typedef struct edan_config {
    const char *name;       /* label for reports; NULL = "config<i>" */
    uint32_t num_levels;    /* 0 = no cache model */
    edan_cache_level level[EDAN_MAX_LEVELS];    /* L1 first */
    edan_write_policy write_policy;
    uint32_t alpha;         /* RAM access cost in cycles; 0 = 200 */
    double alpha0;          /* baseline latency for Lambda; 0 = alpha */
    uint32_t cost[EDAN_CLASS_COUNT];    /* per-class cost in cycles; 0 = 1 */
    double freq_ghz;        /* for B in GB/s; 0 = 1 GHz */
    uint64_t tau;           /* timeline bin width in cycles; 0 = no timeline */
} edan_config;

typedef struct edan_options {
    edan_allocator allocator;   /* zero = malloc/realloc/free */
    uint32_t num_configs;       /* 0 = one default config (no cache) */
    const edan_config *configs;
    uint32_t num_m;             /* 0 = {1, 2, 4, 8, 16} */
    uint32_t m[EDAN_MAX_M];     /* memory issue slots to evaluate */
    uint32_t num_regs;          /* register ids 0..num_regs-1; 0 = EDAN_RV_NUM_REGS */
    uint32_t hotspots;          /* nonzero: per-PC (or per-op) memory-vertex statistics */
    uint32_t dot_max_vertices;  /* nonzero: record the graph for edan_write_dot, up to this */
} edan_options;

/* ------------------------------------------------------------------------ */
/* The analysis context                                                     */
/* ------------------------------------------------------------------------ */
typedef struct edan_context edan_context;

edan_result edan_create(edan_context **out, const edan_options *opts);
void edan_destroy(edan_context *ctx);
/* Text of the last error on this context ("" if none). */
const char *edan_error(const edan_context *ctx);

/* Feed one instruction (trace order). */
edan_result edan_feed(edan_context *ctx, const edan_insn *in);
edan_result edan_feed_many(edan_context *ctx, const edan_insn *in, size_t n);

uint32_t edan_num_configs(const edan_context *ctx);
/* The effective configuration (defaults filled in). */
const edan_config *edan_get_config(const edan_context *ctx, uint32_t config);

typedef struct edan_metrics {
    uint64_t N;             /* vertices (instructions) */
    uint64_t E;             /* distinct edges */
    uint64_t W;             /* memory access vertices */
    uint64_t D;             /* memory depth (layers) */
    uint64_t C;             /* cost of non-memory-access vertices, cycles */
    uint64_t T1;            /* total cost, cycles */
    uint64_t Tinf;          /* critical path, cycles */
    double parallelism;     /* T1 / Tinf */
    uint64_t bytes;         /* sum of w(v): bytes between last level and RAM */
    double B_bytes_per_cycle;
    double B_GBps;          /* at the config's frequency */
    uint64_t loads, stores, amos;       /* memory instructions seen */
    uint64_t chained;       /* memory access vertices with md >= 2 */
    const uint64_t *layers; /* W_1..W_D at layers[0..D-1]; valid until the next feed */
    uint64_t level_hits[EDAN_MAX_LEVELS];   /* accesses served by each level */
    uint64_t ram_lines;     /* lines filled from RAM */
    uint64_t writebacks;    /* dirty lines written back from the last level */
} edan_metrics;

edan_result edan_get_metrics(edan_context *ctx, uint32_t config, edan_metrics *out);

typedef struct edan_bounds {
    uint32_t m;
    double lambda;          /* (W - D)/m + D, 0 when W = 0 */
    double Lambda;          /* lambda / (lambda * alpha0 + C) */
    double M_lower, M_layered, M_upper;     /* memory cost, cycles */
    double T_lower, T_layered, T_upper;     /* the same + C */
} edan_bounds;

/* Bounds for m slots; m need not be in opts.m, but layered needs the layers. */
edan_result edan_get_bounds(edan_context *ctx, uint32_t config, uint32_t m, edan_bounds *out);

/* Data movement over time: bins[i] = U_i for i = 0..ceil(Tinf/tau).
   The array is owned by the context and valid until the next feed. */
edan_result edan_get_timeline(edan_context *ctx, uint32_t config, const uint64_t **bins, size_t *count);

/* Where the latency sensitivity comes from: per PC (per op when the trace
   has no PC), the memory access vertices and how many are chained. */
typedef struct edan_hotspot {
    uint64_t key;           /* pc, or op id when has_pc == 0 */
    int has_pc;
    uint32_t op;            /* op of the last instruction seen at this key */
    uint64_t executed;      /* instructions executed at this key */
    uint64_t mem_vertices;
    uint64_t chained;
    uint64_t max_md;
} edan_hotspot;

/* How often each op id was executed: counts[op] for op < *n (the instruction
   mix; a front-end turns it into flops, e.g. with edan_rv_op_flops). */
edan_result edan_get_op_counts(edan_context *ctx, const uint64_t **counts, size_t *n);

/* Fills out[0..*count) with the top `max` keys by chained, then mem_vertices. */
edan_result edan_get_hotspots(edan_context *ctx, uint32_t config, edan_hotspot *out, size_t max, size_t *count);

/* Graphviz DOT of the recorded graph (opts.dot_max_vertices): memory access
   vertices red, a critical path bold. The name callback labels a vertex. */
typedef void (*edan_write_fn)(void *user, const char *data, size_t len);
typedef const char *(*edan_label_fn)(void *user, const edan_insn *in, char *buf, size_t buflen);
edan_result edan_write_dot(edan_context *ctx, uint32_t config, edan_write_fn write, void *wuser,
                           edan_label_fn label, void *luser);

/* ------------------------------------------------------------------------ */
/* RISC-V front-end                                                         */
/* ------------------------------------------------------------------------ */
/* Register ids: x1..x31 -> 1..31, f0..f31 -> 32..63, CSR n -> 64 + n. */
#define EDAN_RV_FREG(n) ((edan_reg)(32 + (n)))
#define EDAN_RV_CSR(n) ((edan_reg)(64 + (n)))
#define EDAN_RV_NUM_REGS (64 + 4096)

/* @@RV-API-BEGIN (RISC-V parser/decoder declarations) */
/* @@RV-API-END */

/* ------------------------------------------------------------------------ */
/* Hardware profiles                                                        */
/* ------------------------------------------------------------------------ */
/* @@JSON-API-BEGIN (small JSON DOM, used by the profile loader) */
/* @@JSON-API-END */

/* @@PROFILE-API-BEGIN (hardware profile declarations) */
/* @@PROFILE-API-END */

/* @@HYBRID-API-BEGIN (LARM / hybrid fast-slow memory model) */
/* @@HYBRID-API-END */

#ifdef __cplusplus
}
#endif
#endif /* EDAN_H */

/* ======================================================================== */
/* Implementation                                                           */
/* ======================================================================== */
#ifdef EDAN_IMPLEMENTATION
#ifndef EDAN_IMPLEMENTATION_DONE
#define EDAN_IMPLEMENTATION_DONE

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>

#ifndef EDAN_ASSERT
#include <assert.h>
#define EDAN_ASSERT(x) assert(x)
#endif
#ifndef EDAN_MALLOC
#define EDAN_MALLOC(sz, user) ((void)(user), malloc(sz))
#define EDAN_REALLOC(p, sz, user) ((void)(user), realloc((p), (sz)))
#define EDAN_FREE(p, user) ((void)(user), free(p))
#endif

/* @@CORE-IMPL-BEGIN */
/* ---- allocation, errors ------------------------------------------------ */
static void *edan__alloc(const edan_allocator *a, size_t n)
{
    if (a->alloc) return a->alloc(n, a->user);
    return EDAN_MALLOC(n, a->user);
}
static void *edan__realloc(const edan_allocator *a, void *p, size_t n)
{
    if (a->realloc) return a->realloc(p, n, a->user);
    return EDAN_REALLOC(p, n, a->user);
}
static void edan__free(const edan_allocator *a, void *p)
{
    if (!p) return;
    if (a->free) a->free(p, a->user);
    else EDAN_FREE(p, a->user);
}
static void *edan__calloc(const edan_allocator *a, size_t n)
{
    void *p = edan__alloc(a, n ? n : 1);
    if (p) memset(p, 0, n ? n : 1);
    return p;
}
/* Grow *pp (elements of size esz) to hold at least `need`, zero-filling. */
static int edan__grow(const edan_allocator *a, void **pp, size_t *cap, size_t need, size_t esz)
{
    size_t nc;
    void *np;
    if (need <= *cap) return 1;
    nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    np = edan__realloc(a, *pp, nc * esz);
    if (!np) return 0;
    memset((char *)np + *cap * esz, 0, (nc - *cap) * esz);
    *pp = np;
    *cap = nc;
    return 1;
}

const char *edan_result_string(edan_result r)
{
    switch (r) {
    case EDAN_OK: return "ok";
    case EDAN_SKIP: return "no instruction";
    case EDAN_ERR_NOMEM: return "out of memory";
    case EDAN_ERR_INVALID_ARG: return "invalid argument";
    case EDAN_ERR_PARSE: return "parse error";
    case EDAN_ERR_UNKNOWN_OP: return "unknown instruction";
    case EDAN_ERR_LIMIT: return "size limit exceeded";
    case EDAN_ERR_IO: return "i/o error";
    case EDAN_ERR_VERSION: return "unsupported version";
    }
    return "unknown result";
}

const char *edan_class_name(edan_class c)
{
    static const char *const names[EDAN_CLASS_COUNT] = {
        "other", "int_alu", "int_mul", "int_div", "fp_add", "fp_mul", "fp_fma", "fp_div",
        "fp_cvt", "branch", "jump", "load", "store", "amo", "csr"};
    return (unsigned)c < EDAN_CLASS_COUNT ? names[c] : "?";
}

/* ---- the engine's state ------------------------------------------------ */
/* Memory values are tracked per byte: a shadow chunk maps 2^EDAN__CHUNK_BITS
   bytes to the index of the store record that last wrote each byte. A store
   record holds the writer's vertex id and, per configuration, its finish time
   F and memory depth md; it is freed when no byte refers to it any more, so
   the state is bounded by the bytes written, not by the trace length. */
#define EDAN__CHUNK_BITS 8
#define EDAN__CHUNK (1u << EDAN__CHUNK_BITS)
#define EDAN__NEAR 16

typedef struct edan__level {
    uint64_t *tags;         /* sets * assoc, MRU first; line number + 1, 0 = empty */
    uint8_t *dirty;
    uint32_t sets, assoc, line_shift, latency;
} edan__level;

typedef struct edan__hot {
    uint64_t key;           /* key + 1; 0 = empty slot */
    uint32_t op, has_pc;
    uint64_t executed, mem, chained, max_md;
} edan__hot;

typedef struct edan__dotv {
    edan_insn in;
    uint64_t best_pred;     /* per config: predecessor with the largest F (0 = none) */
} edan__dotv;

typedef struct edan__cfg {
    edan_config c;          /* defaults filled in */
    edan__level lv[EDAN_MAX_LEVELS];
    uint32_t line_shift_last;
    uint64_t W, C, T1, Tinf, bytes, chained, ram_lines, writebacks;
    uint64_t level_hits[EDAN_MAX_LEVELS];
    uint64_t *layers; size_t layers_cap, num_layers;
    int64_t *tl_diff; size_t tl_cap;    /* difference array of U_i */
    uint64_t *tl_bins; size_t tl_bins_cap;
    edan__hot *hot; size_t hot_cap, hot_used;
    /* dot recording, per config */
    uint8_t *dot_mem; uint64_t *dot_best; uint64_t *dot_F;
} edan__cfg;

struct edan_context {
    edan_allocator a;
    char error[256];
    uint32_t K;             /* configurations */
    edan__cfg *cfg;
    uint32_t num_m, m[EDAN_MAX_M];
    uint32_t num_regs;
    uint64_t N, E, loads, stores, amos;
    /* registers: last writer, and its F / md per configuration */
    uint64_t *reg_vid;
    uint64_t *reg_F;        /* num_regs * K */
    uint32_t *reg_md;
    /* store records */
    uint64_t *rec_vid; uint32_t *rec_ref; uint64_t *rec_F; uint32_t *rec_md;
    size_t rec_cap, rec_used;
    uint32_t *rec_free; size_t rec_free_n, rec_free_cap;
    /* shadow memory: open-addressing hash of chunk number -> uint32[EDAN__CHUNK] */
    uint64_t *ch_keys; uint32_t **ch_vals; size_t ch_cap, ch_used;
    uint64_t near_key[EDAN__NEAR]; uint32_t *near_chunk[EDAN__NEAR];    /* recently used chunks */
    uint64_t *op_count; size_t op_cap;
    /* per-instruction scratch */
    uint64_t *tmp_F; uint32_t *tmp_md;
    uint32_t hotspots;
    /* dot */
    uint32_t dot_max; int dot_overflow;
    edan__dotv *dot_v; size_t dot_v_cap;
    uint64_t (*dot_e)[2]; size_t dot_e_n, dot_e_cap;
};

static edan_result edan__fail(edan_context *ctx, edan_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
    return r;
}

const char *edan_error(const edan_context *ctx) { return ctx ? ctx->error : "no context"; }
uint32_t edan_num_configs(const edan_context *ctx) { return ctx->K; }
const edan_config *edan_get_config(const edan_context *ctx, uint32_t config)
{
    return config < ctx->K ? &ctx->cfg[config].c : NULL;
}

static int edan__is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
static uint32_t edan__log2(uint64_t x) { uint32_t s = 0; while ((1ull << s) < x) s++; return s; }

static edan_result edan__setup_config(edan_context *ctx, uint32_t k, const edan_config *in)
{
    edan__cfg *g = &ctx->cfg[k];
    uint32_t i;
    g->c = *in;
    if (!g->c.alpha) g->c.alpha = 200;
    if (g->c.alpha0 <= 0) g->c.alpha0 = g->c.alpha;
    if (g->c.freq_ghz <= 0) g->c.freq_ghz = 1.0;
    for (i = 0; i < EDAN_CLASS_COUNT; i++)
        if (!g->c.cost[i]) g->c.cost[i] = 1;
    if (g->c.num_levels > EDAN_MAX_LEVELS)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "config %u: %u cache levels, at most %d", k,
                          g->c.num_levels, EDAN_MAX_LEVELS);
    if (g->c.write_policy != EDAN_WRITE_BACK && g->c.write_policy != EDAN_WRITE_THROUGH)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "config %u: unknown write policy", k);
    for (i = 0; i < g->c.num_levels; i++) {
        edan_cache_level *L = &g->c.level[i];
        edan__level *l = &g->lv[i];
        uint64_t sets;
        if (!L->latency) L->latency = 1;
        if (!edan__is_pow2(L->line) || L->line > 4096)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG,
                              "config %u: L%u line size %u is not a power of two <= 4096", k, i + 1, L->line);
        if (!L->assoc || !L->size || L->size % ((uint64_t)L->assoc * L->line))
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG,
                              "config %u: L%u size %llu is not a multiple of associativity %u x line %u", k,
                              i + 1, (unsigned long long)L->size, L->assoc, L->line);
        sets = L->size / ((uint64_t)L->assoc * L->line);
        if (!edan__is_pow2(sets))
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG,
                              "config %u: L%u has %llu sets, not a power of two", k, i + 1,
                              (unsigned long long)sets);
        if (i > 0 && L->line != g->c.level[0].line)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG,
                              "config %u: all levels must have the same line size", k);
        if (sets * L->assoc > ((uint64_t)1 << 28))
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "config %u: L%u is too large", k, i + 1);
        l->sets = (uint32_t)sets;
        l->assoc = L->assoc;
        l->line_shift = edan__log2(L->line);
        l->latency = L->latency;
        l->tags = (uint64_t *)edan__calloc(&ctx->a, sets * L->assoc * sizeof(uint64_t));
        l->dirty = (uint8_t *)edan__calloc(&ctx->a, sets * L->assoc);
        if (!l->tags || !l->dirty) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the cache model");
    }
    if (!g->c.name) g->c.name = g->c.num_levels ? "cache" : "no cache";
    return EDAN_OK;
}

edan_result edan_create(edan_context **out, const edan_options *opts)
{
    edan_options zero_opts;
    edan_config zero_cfg;
    edan_allocator a;
    edan_context *ctx;
    uint32_t k, K;
    edan_result r;
    if (!out) return EDAN_ERR_INVALID_ARG;
    *out = NULL;
    memset(&zero_opts, 0, sizeof zero_opts);
    memset(&zero_cfg, 0, sizeof zero_cfg);
    if (!opts) opts = &zero_opts;
    memset(&a, 0, sizeof a);
    a = opts->allocator;
    if ((a.alloc != NULL) != (a.free != NULL) || (a.realloc && !a.alloc)) return EDAN_ERR_INVALID_ARG;
    if (a.alloc && !a.realloc) return EDAN_ERR_INVALID_ARG;
    K = opts->num_configs ? opts->num_configs : 1;
    if (K > EDAN_MAX_CONFIGS || (opts->num_configs && !opts->configs) || opts->num_m > EDAN_MAX_M)
        return EDAN_ERR_INVALID_ARG;
    ctx = (edan_context *)edan__calloc(&a, sizeof *ctx);
    if (!ctx) return EDAN_ERR_NOMEM;
    ctx->a = a;
    ctx->K = K;
    ctx->num_regs = opts->num_regs ? opts->num_regs : EDAN_RV_NUM_REGS;
    if (ctx->num_regs > 65536) ctx->num_regs = 65536;
    if (opts->num_m) {
        ctx->num_m = opts->num_m;
        for (k = 0; k < opts->num_m; k++) {
            if (!opts->m[k]) { edan__free(&a, ctx); return EDAN_ERR_INVALID_ARG; }
            ctx->m[k] = opts->m[k];
        }
    } else {
        static const uint32_t dm[] = {1, 2, 4, 8, 16};
        ctx->num_m = 5;
        memcpy(ctx->m, dm, sizeof dm);
    }
    ctx->hotspots = opts->hotspots;
    ctx->dot_max = opts->dot_max_vertices;
    ctx->cfg = (edan__cfg *)edan__calloc(&a, K * sizeof(edan__cfg));
    ctx->reg_vid = (uint64_t *)edan__calloc(&a, ctx->num_regs * sizeof(uint64_t));
    ctx->reg_F = (uint64_t *)edan__calloc(&a, (size_t)ctx->num_regs * K * sizeof(uint64_t));
    ctx->reg_md = (uint32_t *)edan__calloc(&a, (size_t)ctx->num_regs * K * sizeof(uint32_t));
    ctx->tmp_F = (uint64_t *)edan__calloc(&a, K * sizeof(uint64_t));
    ctx->tmp_md = (uint32_t *)edan__calloc(&a, K * sizeof(uint32_t));
    if (!ctx->cfg || !ctx->reg_vid || !ctx->reg_F || !ctx->reg_md || !ctx->tmp_F || !ctx->tmp_md) {
        edan_destroy(ctx);
        return EDAN_ERR_NOMEM;
    }
    for (k = 0; k < K; k++) {
        r = edan__setup_config(ctx, k, opts->num_configs ? &opts->configs[k] : &zero_cfg);
        if (r != EDAN_OK) {
            /* keep the message: hand back the context so the caller can read it */
            *out = ctx;
            return r;
        }
    }
    *out = ctx;
    return EDAN_OK;
}

void edan_destroy(edan_context *ctx)
{
    edan_allocator a;
    uint32_t k, i;
    size_t j;
    if (!ctx) return;
    a = ctx->a;
    if (ctx->cfg) {
        for (k = 0; k < ctx->K; k++) {
            edan__cfg *g = &ctx->cfg[k];
            for (i = 0; i < EDAN_MAX_LEVELS; i++) {
                edan__free(&a, g->lv[i].tags);
                edan__free(&a, g->lv[i].dirty);
            }
            edan__free(&a, g->layers);
            edan__free(&a, g->tl_diff);
            edan__free(&a, g->tl_bins);
            edan__free(&a, g->hot);
            edan__free(&a, g->dot_mem);
            edan__free(&a, g->dot_best);
            edan__free(&a, g->dot_F);
        }
    }
    for (j = 0; j < ctx->ch_cap; j++)
        if (ctx->ch_keys[j]) edan__free(&a, ctx->ch_vals[j]);
    edan__free(&a, ctx->ch_keys);
    edan__free(&a, ctx->ch_vals);
    edan__free(&a, ctx->cfg);
    edan__free(&a, ctx->reg_vid);
    edan__free(&a, ctx->reg_F);
    edan__free(&a, ctx->reg_md);
    edan__free(&a, ctx->tmp_F);
    edan__free(&a, ctx->tmp_md);
    edan__free(&a, ctx->rec_vid);
    edan__free(&a, ctx->rec_ref);
    edan__free(&a, ctx->rec_F);
    edan__free(&a, ctx->rec_md);
    edan__free(&a, ctx->rec_free);
    edan__free(&a, ctx->dot_v);
    edan__free(&a, ctx->op_count);
    edan__free(&a, ctx->dot_e);
    edan__free(&a, ctx);
}

/* ---- shadow memory ----------------------------------------------------- */
static size_t edan__hash64(uint64_t k, size_t mask)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & mask;
}

/* The chunk holding chunk number `key`, or NULL (create = 0) when none. */
static uint32_t *edan__chunk(edan_context *ctx, uint64_t key, int create)
{
    size_t mask, i;
    uint32_t slot = (uint32_t)(key & (EDAN__NEAR - 1));
    if (ctx->near_chunk[slot] && ctx->near_key[slot] == key) return ctx->near_chunk[slot];
    if (ctx->ch_cap) {
        mask = ctx->ch_cap - 1;
        for (i = edan__hash64(key, mask); ctx->ch_keys[i]; i = (i + 1) & mask)
            if (ctx->ch_keys[i] == key + 1) {
                ctx->near_key[slot] = key;
                return ctx->near_chunk[slot] = ctx->ch_vals[i];
            }
    }
    if (!create) return NULL;
    if ((ctx->ch_used + 1) * 4 > ctx->ch_cap * 3) {   /* keep the load under 3/4 */
        size_t nc = ctx->ch_cap ? ctx->ch_cap * 2 : 1024, j;
        uint64_t *nk = (uint64_t *)edan__calloc(&ctx->a, nc * sizeof(uint64_t));
        uint32_t **nv = (uint32_t **)edan__calloc(&ctx->a, nc * sizeof(uint32_t *));
        if (!nk || !nv) {
            edan__free(&ctx->a, nk);
            edan__free(&ctx->a, nv);
            return NULL;
        }
        for (j = 0; j < ctx->ch_cap; j++) {
            if (!ctx->ch_keys[j]) continue;
            for (i = edan__hash64(ctx->ch_keys[j] - 1, nc - 1); nk[i]; i = (i + 1) & (nc - 1)) {}
            nk[i] = ctx->ch_keys[j];
            nv[i] = ctx->ch_vals[j];
        }
        edan__free(&ctx->a, ctx->ch_keys);
        edan__free(&ctx->a, ctx->ch_vals);
        ctx->ch_keys = nk;
        ctx->ch_vals = nv;
        ctx->ch_cap = nc;
    }
    mask = ctx->ch_cap - 1;
    for (i = edan__hash64(key, mask); ctx->ch_keys[i]; i = (i + 1) & mask) {}
    ctx->ch_vals[i] = (uint32_t *)edan__calloc(&ctx->a, EDAN__CHUNK * sizeof(uint32_t));
    if (!ctx->ch_vals[i]) return NULL;
    ctx->ch_keys[i] = key + 1;
    ctx->ch_used++;
    ctx->near_key[slot] = key;
    return ctx->near_chunk[slot] = ctx->ch_vals[i];
}

/* A new store record (index >= 1); 0 when out of memory. */
static uint32_t edan__rec_new(edan_context *ctx)
{
    if (ctx->rec_free_n) return ctx->rec_free[--ctx->rec_free_n];
    if (ctx->rec_used == 0) ctx->rec_used = 1;      /* index 0 means "no writer" */
    if (ctx->rec_used >= ctx->rec_cap) {
        size_t nc = ctx->rec_cap ? ctx->rec_cap * 2 : 4096, K = ctx->K;
        uint64_t *vid, *F;
        uint32_t *ref, *md;
        if (nc > 0xffffffffu) return 0;
        vid = (uint64_t *)edan__realloc(&ctx->a, ctx->rec_vid, nc * sizeof *vid);
        if (vid) ctx->rec_vid = vid;
        ref = (uint32_t *)edan__realloc(&ctx->a, ctx->rec_ref, nc * sizeof *ref);
        if (ref) ctx->rec_ref = ref;
        F = (uint64_t *)edan__realloc(&ctx->a, ctx->rec_F, nc * K * sizeof *F);
        if (F) ctx->rec_F = F;
        md = (uint32_t *)edan__realloc(&ctx->a, ctx->rec_md, nc * K * sizeof *md);
        if (md) ctx->rec_md = md;
        if (!vid || !ref || !F || !md) return 0;
        ctx->rec_cap = nc;
    }
    return (uint32_t)ctx->rec_used++;
}

static int edan__rec_release(edan_context *ctx, uint32_t r)
{
    if (--ctx->rec_ref[r]) return 1;
    if (!edan__grow(&ctx->a, (void **)&ctx->rec_free, &ctx->rec_free_cap, ctx->rec_free_n + 1, sizeof(uint32_t)))
        return 0;
    ctx->rec_free[ctx->rec_free_n++] = r;
    return 1;
}

/* ---- cache model ------------------------------------------------------- */
/* Look `line` up in level l: on a hit move it to MRU and return its way
   index (0 after the move), else -1. */
static int edan__lookup(edan__level *l, uint64_t line)
{
    uint32_t set = (uint32_t)(line & (l->sets - 1)), w;
    uint64_t *t = l->tags + (size_t)set * l->assoc, tag = line + 1;
    uint8_t *d = l->dirty + (size_t)set * l->assoc;
    for (w = 0; w < l->assoc; w++) {
        if (t[w] == tag) {
            uint8_t dw = d[w];
            if (w) {
                memmove(t + 1, t, w * sizeof *t);
                memmove(d + 1, d, w);
                t[0] = tag;
                d[0] = dw;
            }
            return 0;
        }
    }
    return -1;
}
/* Present without touching LRU (for marking dirty). */
static uint8_t *edan__probe_dirty(edan__level *l, uint64_t line)
{
    uint32_t set = (uint32_t)(line & (l->sets - 1)), w;
    uint64_t *t = l->tags + (size_t)set * l->assoc, tag = line + 1;
    for (w = 0; w < l->assoc; w++)
        if (t[w] == tag) return l->dirty + (size_t)set * l->assoc + w;
    return NULL;
}
/* Insert as MRU; returns 1 when a dirty line was evicted. */
static int edan__fill(edan__level *l, uint64_t line, uint8_t dirty)
{
    uint32_t set = (uint32_t)(line & (l->sets - 1));
    uint64_t *t = l->tags + (size_t)set * l->assoc;
    uint8_t *d = l->dirty + (size_t)set * l->assoc;
    int evicted_dirty = t[l->assoc - 1] && d[l->assoc - 1];
    memmove(t + 1, t, (l->assoc - 1) * sizeof *t);
    memmove(d + 1, d, l->assoc - 1);
    t[0] = line + 1;
    d[0] = dirty;
    return evicted_dirty;
}

/* Run one access through configuration g's hierarchy. Sets *is_mem, *t, *w. */
static void edan__cache_access(edan__cfg *g, const edan_insn *in, int *is_mem, uint64_t *t, uint64_t *w)
{
    uint32_t nl = g->c.num_levels, shift = g->lv[0].line_shift, i;
    uint64_t first = in->addr >> shift, last = (in->addr + in->size - 1) >> shift, line;
    uint64_t lat = 0, bytes = 0, line_bytes = (uint64_t)1 << shift;
    int mem = 0;
    int wt = g->c.write_policy == EDAN_WRITE_THROUGH;
    int reads = in->mem != EDAN_MEM_STORE || !wt;      /* looks up and fills */
    int writes = in->mem != EDAN_MEM_LOAD;
    for (line = first; line <= last; line++) {
        if (reads) {
            uint32_t hit = nl;
            for (i = 0; i < nl; i++)
                if (edan__lookup(&g->lv[i], line) >= 0) { hit = i; break; }
            if (hit < nl) {
                g->level_hits[hit]++;
                if (g->lv[hit].latency > lat) lat = g->lv[hit].latency;
            } else {
                mem = 1;
                g->ram_lines++;
                bytes += line_bytes;
            }
            /* fill every level that missed; only the last level's dirty victims reach RAM */
            for (i = 0; i < hit && i < nl; i++) {
                if (edan__fill(&g->lv[i], line, 0) && i == nl - 1) {
                    g->writebacks++;
                    bytes += line_bytes;
                }
            }
            if (writes && !wt) {
                for (i = 0; i < nl; i++) {
                    uint8_t *d = edan__probe_dirty(&g->lv[i], line);
                    if (d) *d = 1;
                }
            }
        } else {
            /* write-through store: no fill, no eviction; a hit refreshes LRU */
            for (i = 0; i < nl; i++)
                if (edan__lookup(&g->lv[i], line) >= 0) break;
        }
    }
    if (writes && wt) {
        mem = 1;
        bytes += in->size;
    }
    *is_mem = mem;
    *t = mem ? g->c.alpha : (lat ? lat : 1);
    *w = bytes;
}

/* ---- per-PC statistics ------------------------------------------------- */
static edan__hot *edan__hot_slot(edan_context *ctx, edan__cfg *g, uint64_t key)
{
    size_t mask, i;
    if ((g->hot_used + 1) * 4 > g->hot_cap * 3) {
        size_t nc = g->hot_cap ? g->hot_cap * 2 : 256, j;
        edan__hot *nh = (edan__hot *)edan__calloc(&ctx->a, nc * sizeof(edan__hot));
        if (!nh) return NULL;
        for (j = 0; j < g->hot_cap; j++) {
            if (!g->hot[j].key) continue;
            for (i = edan__hash64(g->hot[j].key, nc - 1); nh[i].key; i = (i + 1) & (nc - 1)) {}
            nh[i] = g->hot[j];
        }
        edan__free(&ctx->a, g->hot);
        g->hot = nh;
        g->hot_cap = nc;
    }
    mask = g->hot_cap - 1;
    for (i = edan__hash64(key + 1, mask); g->hot[i].key; i = (i + 1) & mask)
        if (g->hot[i].key == key + 1) return &g->hot[i];
    g->hot[i].key = key + 1;
    g->hot_used++;
    return &g->hot[i];
}

/* ---- feeding ----------------------------------------------------------- */
typedef struct edan__pred {
    uint64_t vid;
    const uint64_t *F;      /* K finish times */
    const uint32_t *md;     /* K memory depths */
} edan__pred;

#define EDAN__MAX_PREDS (EDAN_MAX_SRC + EDAN_MAX_ACCESS)

static void edan__add_pred(edan__pred *p, uint32_t *n, uint64_t vid, const uint64_t *F, const uint32_t *md)
{
    uint32_t i;
    for (i = 0; i < *n; i++)
        if (p[i].vid == vid) return;
    p[*n].vid = vid;
    p[*n].F = F;
    p[*n].md = md;
    (*n)++;
}

static edan_result edan__dot_record(edan_context *ctx, const edan_insn *in, const edan__pred *p, uint32_t np)
{
    uint32_t i;
    if (ctx->dot_overflow) return EDAN_OK;
    if (ctx->N > ctx->dot_max) {
        ctx->dot_overflow = 1;
        return EDAN_OK;
    }
    if (!edan__grow(&ctx->a, (void **)&ctx->dot_v, &ctx->dot_v_cap, ctx->N + 1, sizeof(edan__dotv)))
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the graph");
    ctx->dot_v[ctx->N].in = *in;
    for (i = 0; i < np; i++) {
        if (!edan__grow(&ctx->a, (void **)&ctx->dot_e, &ctx->dot_e_cap, ctx->dot_e_n + 1, sizeof *ctx->dot_e))
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the graph");
        ctx->dot_e[ctx->dot_e_n][0] = p[i].vid;
        ctx->dot_e[ctx->dot_e_n][1] = ctx->N;
        ctx->dot_e_n++;
    }
    for (i = 0; i < ctx->K; i++) {
        edan__cfg *g = &ctx->cfg[i];
        if (!g->dot_mem) {
            g->dot_mem = (uint8_t *)edan__calloc(&ctx->a, (size_t)ctx->dot_max + 1);
            g->dot_best = (uint64_t *)edan__calloc(&ctx->a, ((size_t)ctx->dot_max + 1) * sizeof(uint64_t));
            g->dot_F = (uint64_t *)edan__calloc(&ctx->a, ((size_t)ctx->dot_max + 1) * sizeof(uint64_t));
            if (!g->dot_mem || !g->dot_best || !g->dot_F)
                return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the graph");
        }
    }
    return EDAN_OK;
}

edan_result edan_feed(edan_context *ctx, const edan_insn *in)
{
    edan__pred preds[EDAN__MAX_PREDS];
    uint32_t np = 0, i, k, K = ctx->K;
    uint64_t vid;
    int reads_mem, writes_mem;
    if (in->nsrc > EDAN_MAX_SRC || in->ndst > EDAN_MAX_DST)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: too many register operands",
                          (unsigned long long)ctx->N + 1);
    for (i = 0; i < in->nsrc; i++)
        if (in->src[i] >= ctx->num_regs)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: register id %u out of range",
                              (unsigned long long)ctx->N + 1, in->src[i]);
    for (i = 0; i < in->ndst; i++)
        if (in->dst[i] >= ctx->num_regs)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: register id %u out of range",
                              (unsigned long long)ctx->N + 1, in->dst[i]);
    if (in->mem != EDAN_MEM_NONE) {
        if (in->mem > EDAN_MEM_AMO || in->size == 0 || in->size > EDAN_MAX_ACCESS)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: bad memory access (kind %u, size %u)",
                              (unsigned long long)ctx->N + 1, in->mem, in->size);
        if (in->addr + in->size - 1 < in->addr)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: access wraps around the address space",
                              (unsigned long long)ctx->N + 1);
    }
    if (in->cls >= EDAN_CLASS_COUNT)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: unknown class %u",
                          (unsigned long long)ctx->N + 1, in->cls);

    if (in->op >= ctx->op_cap) {
        if (in->op >= (1u << 20))
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: op id %u out of range",
                              (unsigned long long)ctx->N + 1, in->op);
        if (!edan__grow(&ctx->a, (void **)&ctx->op_count, &ctx->op_cap, (size_t)in->op + 1, sizeof(uint64_t)))
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory");
    }
    ctx->op_count[in->op]++;
    vid = ++ctx->N;
    reads_mem = in->mem == EDAN_MEM_LOAD || in->mem == EDAN_MEM_AMO;
    writes_mem = in->mem == EDAN_MEM_STORE || in->mem == EDAN_MEM_AMO;
    if (in->mem == EDAN_MEM_LOAD) ctx->loads++;
    else if (in->mem == EDAN_MEM_STORE) ctx->stores++;
    else if (in->mem == EDAN_MEM_AMO) ctx->amos++;

    /* predecessors: the last writers of the registers and bytes read */
    for (i = 0; i < in->nsrc; i++) {
        edan_reg r = in->src[i];
        if (r && ctx->reg_vid[r])
            edan__add_pred(preds, &np, ctx->reg_vid[r], ctx->reg_F + (size_t)r * K, ctx->reg_md + (size_t)r * K);
    }
    if (reads_mem) {
        uint64_t a = in->addr, end = in->addr + in->size;
        uint32_t last_rec = 0;
        while (a < end) {
            uint64_t key = a >> EDAN__CHUNK_BITS;
            uint64_t stop = (key + 1) << EDAN__CHUNK_BITS;
            uint32_t *ch = edan__chunk(ctx, key, 0);
            if (stop > end || stop == 0) stop = end;
            if (ch) {
                for (; a < stop; a++) {
                    uint32_t rec = ch[a & (EDAN__CHUNK - 1)];
                    if (rec && rec != last_rec) {
                        last_rec = rec;
                        edan__add_pred(preds, &np, ctx->rec_vid[rec], ctx->rec_F + (size_t)rec * K,
                                       ctx->rec_md + (size_t)rec * K);
                    }
                }
            }
            a = stop;
        }
    }
    ctx->E += np;
    if (ctx->dot_max) {
        edan_result r = edan__dot_record(ctx, in, preds, np);
        if (r != EDAN_OK) return r;
    }

    for (k = 0; k < K; k++) {
        edan__cfg *g = &ctx->cfg[k];
        uint64_t S = 0, t, w = 0, F, best = 0;
        uint32_t md = 0;
        int is_mem;
        for (i = 0; i < np; i++) {
            if (!best || preds[i].F[k] > S) { S = preds[i].F[k]; best = preds[i].vid; }
            if (preds[i].md[k] > md) md = preds[i].md[k];
        }
        if (in->mem == EDAN_MEM_NONE) {
            is_mem = 0;
            t = g->c.cost[in->cls];
        } else if (!g->c.num_levels) {
            is_mem = 1;
            t = g->c.alpha;
            w = in->size;
        } else {
            edan__cache_access(g, in, &is_mem, &t, &w);
        }
        F = S + t;
        md += (uint32_t)is_mem;
        g->T1 += t;
        if (F > g->Tinf) g->Tinf = F;
        if (is_mem) {
            g->W++;
            if (md >= 2) g->chained++;
            if (md > g->layers_cap &&
                !edan__grow(&ctx->a, (void **)&g->layers, &g->layers_cap, md, sizeof(uint64_t)))
                return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the layer histogram");
            if (md > g->num_layers) g->num_layers = md;
            g->layers[md - 1]++;
        } else {
            g->C += t;
        }
        if (w) {
            g->bytes += w;
            if (g->c.tau) {
                uint64_t lo = (S + g->c.tau - 1) / g->c.tau, hi = F / g->c.tau + 1;
                if (!edan__grow(&ctx->a, (void **)&g->tl_diff, &g->tl_cap, hi + 1, sizeof(int64_t)))
                    return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the timeline");
                if (lo < hi) {
                    g->tl_diff[lo] += (int64_t)w;
                    g->tl_diff[hi] -= (int64_t)w;
                }
            }
        }
        if (ctx->hotspots && in->mem != EDAN_MEM_NONE) {
            int has_pc = (in->flags & EDAN_INSN_HAS_PC) != 0;
            edan__hot *h = edan__hot_slot(ctx, g, has_pc ? in->pc : in->op);
            if (!h) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the hotspot table");
            h->has_pc = (uint32_t)has_pc;
            h->op = in->op;
            h->executed++;
            if (is_mem) {
                h->mem++;
                if (md >= 2) h->chained++;
                if (md > h->max_md) h->max_md = md;
            }
        }
        if (ctx->dot_max && !ctx->dot_overflow && vid <= ctx->dot_max) {
            g->dot_mem[vid] = (uint8_t)is_mem;
            g->dot_best[vid] = best;
            g->dot_F[vid] = F;
        }
        ctx->tmp_F[k] = F;
        ctx->tmp_md[k] = md;
    }

    /* targets: this vertex is now the last writer */
    for (i = 0; i < in->ndst; i++) {
        edan_reg r = in->dst[i];
        if (!r) continue;
        ctx->reg_vid[r] = vid;
        for (k = 0; k < K; k++) {
            ctx->reg_F[(size_t)r * K + k] = ctx->tmp_F[k];
            ctx->reg_md[(size_t)r * K + k] = ctx->tmp_md[k];
        }
    }
    if (writes_mem) {
        uint32_t rec;
        uint64_t a = in->addr, end = in->addr + in->size;
        uint64_t key = a >> EDAN__CHUNK_BITS;
        uint32_t *ch = edan__chunk(ctx, key, 1);
        if (!ch) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for shadow memory");
        /* fast path: the store overwrites exactly the bytes of one earlier
           record (a store to the same place): reuse that record in place */
        rec = ch[a & (EDAN__CHUNK - 1)];
        if (rec && ctx->rec_ref[rec] == in->size && ((end - 1) >> EDAN__CHUNK_BITS) == key) {
            uint64_t b;
            for (b = a + 1; b < end && ch[b & (EDAN__CHUNK - 1)] == rec; b++) {}
            if (b == end) {
                ctx->rec_vid[rec] = vid;
                for (k = 0; k < K; k++) {
                    ctx->rec_F[(size_t)rec * K + k] = ctx->tmp_F[k];
                    ctx->rec_md[(size_t)rec * K + k] = ctx->tmp_md[k];
                }
                return EDAN_OK;
            }
        }
        rec = edan__rec_new(ctx);
        if (!rec) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for store records");
        ctx->rec_vid[rec] = vid;
        ctx->rec_ref[rec] = 0;
        for (k = 0; k < K; k++) {
            ctx->rec_F[(size_t)rec * K + k] = ctx->tmp_F[k];
            ctx->rec_md[(size_t)rec * K + k] = ctx->tmp_md[k];
        }
        while (a < end) {
            uint64_t key = a >> EDAN__CHUNK_BITS;
            uint64_t stop = (key + 1) << EDAN__CHUNK_BITS;
            uint32_t *ch = edan__chunk(ctx, key, 1);
            if (!ch) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for shadow memory");
            if (stop > end || stop == 0) stop = end;
            for (; a < stop; a++) {
                uint32_t *slot = &ch[a & (EDAN__CHUNK - 1)];
                if (*slot && !edan__rec_release(ctx, *slot))
                    return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for store records");
                *slot = rec;
                ctx->rec_ref[rec]++;
            }
        }
    }
    return EDAN_OK;
}

edan_result edan_feed_many(edan_context *ctx, const edan_insn *in, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        edan_result r = edan_feed(ctx, &in[i]);
        if (r != EDAN_OK) return r;
    }
    return EDAN_OK;
}

/* ---- results ----------------------------------------------------------- */
edan_result edan_get_metrics(edan_context *ctx, uint32_t config, edan_metrics *out)
{
    edan__cfg *g;
    uint32_t i;
    if (!ctx || !out || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    g = &ctx->cfg[config];
    memset(out, 0, sizeof *out);
    out->N = ctx->N;
    out->E = ctx->E;
    out->W = g->W;
    out->D = g->num_layers;
    out->C = g->C;
    out->T1 = g->T1;
    out->Tinf = g->Tinf;
    out->parallelism = g->Tinf ? (double)g->T1 / (double)g->Tinf : 0.0;
    out->bytes = g->bytes;
    out->B_bytes_per_cycle = g->Tinf ? (double)g->bytes / (double)g->Tinf : 0.0;
    out->B_GBps = out->B_bytes_per_cycle * g->c.freq_ghz;
    out->loads = ctx->loads;
    out->stores = ctx->stores;
    out->amos = ctx->amos;
    out->chained = g->chained;
    out->layers = g->layers;
    for (i = 0; i < EDAN_MAX_LEVELS; i++) out->level_hits[i] = g->level_hits[i];
    out->ram_lines = g->ram_lines;
    out->writebacks = g->writebacks;
    return EDAN_OK;
}

edan_result edan_get_bounds(edan_context *ctx, uint32_t config, uint32_t m, edan_bounds *out)
{
    edan__cfg *g;
    double W, D, alpha, C, layered = 0;
    size_t i;
    if (!ctx || !out || config >= ctx->K || !m) return EDAN_ERR_INVALID_ARG;
    g = &ctx->cfg[config];
    W = (double)g->W;
    D = (double)g->num_layers;
    alpha = (double)g->c.alpha;
    C = (double)g->C;
    memset(out, 0, sizeof *out);
    out->m = m;
    out->lambda = g->W ? (W - D) / m + D : 0.0;
    out->Lambda = out->lambda > 0 ? out->lambda / (out->lambda * g->c.alpha0 + C) : 0.0;
    for (i = 0; i < g->num_layers; i++) layered += (double)((g->layers[i] + m - 1) / m);
    out->M_lower = (D > W / m ? D : W / m) * alpha;
    out->M_layered = layered * alpha;
    out->M_upper = out->lambda * alpha;
    out->T_lower = out->M_lower + C;
    out->T_layered = out->M_layered + C;
    out->T_upper = out->M_upper + C;
    return EDAN_OK;
}

edan_result edan_get_timeline(edan_context *ctx, uint32_t config, const uint64_t **bins, size_t *count)
{
    edan__cfg *g;
    size_t n, i;
    int64_t run = 0;
    if (!ctx || !bins || !count || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    g = &ctx->cfg[config];
    *bins = NULL;
    *count = 0;
    if (!g->c.tau) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "no timeline: tau is 0");
    n = (size_t)((g->Tinf + g->c.tau - 1) / g->c.tau) + 1;
    if (!edan__grow(&ctx->a, (void **)&g->tl_bins, &g->tl_bins_cap, n, sizeof(uint64_t)))
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the timeline");
    for (i = 0; i < n; i++) {
        if (i < g->tl_cap) run += g->tl_diff[i];
        g->tl_bins[i] = (uint64_t)run;
    }
    *bins = g->tl_bins;
    *count = n;
    return EDAN_OK;
}

edan_result edan_get_op_counts(edan_context *ctx, const uint64_t **counts, size_t *n)
{
    if (!ctx || !counts || !n) return EDAN_ERR_INVALID_ARG;
    *counts = ctx->op_count;
    *n = ctx->op_cap;
    return EDAN_OK;
}

static int edan__hot_before(const edan_hotspot *a, const edan_hotspot *b)
{
    if (a->chained != b->chained) return a->chained > b->chained;
    if (a->mem_vertices != b->mem_vertices) return a->mem_vertices > b->mem_vertices;
    return a->key < b->key;
}

edan_result edan_get_hotspots(edan_context *ctx, uint32_t config, edan_hotspot *out, size_t max, size_t *count)
{
    edan__cfg *g;
    size_t j, n = 0, p;
    if (!ctx || !count || config >= ctx->K || (max && !out)) return EDAN_ERR_INVALID_ARG;
    g = &ctx->cfg[config];
    *count = 0;
    if (!ctx->hotspots) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "hotspots were not enabled in the options");
    /* a partial insertion sort keeps the top `max` in one pass */
    for (j = 0; j < g->hot_cap; j++) {
        edan_hotspot h;
        const edan__hot *s = &g->hot[j];
        if (!s->key) continue;
        h.key = s->key - 1;
        h.has_pc = (int)s->has_pc;
        h.op = s->op;
        h.executed = s->executed;
        h.mem_vertices = s->mem;
        h.chained = s->chained;
        h.max_md = s->max_md;
        if (n < max) n++;
        else if (!max || !edan__hot_before(&h, &out[n - 1])) continue;
        for (p = n - 1; p > 0 && edan__hot_before(&h, &out[p - 1]); p--) out[p] = out[p - 1];
        out[p] = h;
    }
    *count = n;
    return EDAN_OK;
}

static void edan__dot_printf(edan_write_fn write, void *user, const char *fmt, ...)
{
    char buf[512];
    int n;
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof buf) n = (int)sizeof buf - 1;
    write(user, buf, (size_t)n);
}

edan_result edan_write_dot(edan_context *ctx, uint32_t config, edan_write_fn write, void *wuser,
                           edan_label_fn label, void *luser)
{
    edan__cfg *g;
    uint64_t v, n, end = 0, endF = 0;
    uint8_t *crit;
    size_t e;
    if (!ctx || !write || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    if (!ctx->dot_max) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "the graph was not recorded (dot_max_vertices is 0)");
    if (ctx->dot_overflow || ctx->N > ctx->dot_max)
        return edan__fail(ctx, EDAN_ERR_LIMIT, "the eDAG has more than %u vertices; DOT output is limited to small graphs",
                          ctx->dot_max);
    g = &ctx->cfg[config];
    n = ctx->N;
    crit = (uint8_t *)edan__calloc(&ctx->a, (size_t)n + 1);
    if (!crit) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory");
    for (v = 1; v <= n; v++)
        if (g->dot_F[v] > endF) { endF = g->dot_F[v]; end = v; }
    for (v = end; v; v = g->dot_best[v]) crit[v] = 1;
    edan__dot_printf(write, wuser, "digraph edag {\n  node [shape=circle, style=filled, fillcolor=white, fontsize=10];\n");
    for (v = 1; v <= n; v++) {
        char buf[128];
        const char *text = label ? label(luser, &ctx->dot_v[v].in, buf, sizeof buf) : NULL;
        edan__dot_printf(write, wuser, "  v%llu [label=\"%llu%s%s\"%s%s];\n", (unsigned long long)v,
                         (unsigned long long)v, text ? "\\n" : "", text ? text : "",
                         g->dot_mem[v] ? ", fillcolor=\"#e04040\", fontcolor=white" : "",
                         crit[v] ? ", penwidth=3" : "");
    }
    for (e = 0; e < ctx->dot_e_n; e++) {
        uint64_t u = ctx->dot_e[e][0], w = ctx->dot_e[e][1];
        int on = crit[u] && crit[w] && g->dot_best[w] == u;
        edan__dot_printf(write, wuser, "  v%llu -> v%llu%s;\n", (unsigned long long)u, (unsigned long long)w,
                         on ? " [penwidth=3, color=\"#d00000\"]" : "");
    }
    edan__dot_printf(write, wuser, "}\n");
    edan__free(&ctx->a, crit);
    return EDAN_OK;
}
/* @@CORE-IMPL-END */

/* @@RV-IMPL-BEGIN (RISC-V parser/decoder implementation) */
/* @@RV-IMPL-END */

/* @@JSON-IMPL-BEGIN */
/* @@JSON-IMPL-END */

/* @@PROFILE-IMPL-BEGIN (hardware profile implementation) */
/* @@PROFILE-IMPL-END */

/* @@HYBRID-IMPL-BEGIN */
/* @@HYBRID-IMPL-END */

#endif /* EDAN_IMPLEMENTATION_DONE */
#endif /* EDAN_IMPLEMENTATION */
