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
