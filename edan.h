/* edan.h - v0.2 - execution-DAG memory-latency analysis in one header.
   MIT license at the end of this file.

   WHAT IT DOES
   Feed it a program's dynamic instruction trace, one instruction at a time,
   in program order. It builds the program's execution DAG (eDAG) implicitly,
   in one streaming pass, and computes the memory-latency metrics of the EDAN
   model: memory work W, memory depth D, the layer histogram W_i, C, T1,
   Tinf, parallelism, lambda(m), Lambda, the lower/layered/upper memory-cost
   and time bounds (also at any other RAM latency: the what-if), bandwidth
   utilisation B and data movement over time, optionally through a
   multi-level set-associative LRU cache model. The graph is never stored:
   memory is bounded by the registers, the distinct memory bytes the program
   writes and the timeline's bins (at most timeline_max_bins), with about
   a byte per layer of memory depth (less when layers repeat, as a chase's
   do), never by the trace length. The bytes' last writers (the shadow
   memory: about 8 + 12 K bytes per 8-byte word written with K
   configurations, tens of bytes for a page with one word written;
   README.md's "Memory:") stay within edan_options.shadow_limit, 8 GiB by
   default: a feed that needs more fails with EDAN_ERR_LIMIT. Several
   analysis configurations (cache hierarchies, latencies, costs) share
   one pass.

   It also contains, each of which may be left out (BUILD), a RISC-V
   (RV64GC) front-end (a parser for the text traces of QEMU-based tracers
   and a decoder of raw instruction bytes), the loader of the hardware
   profiles written by `probe` (with its small JSON reader, edan_json_*), and
   the hybrid fast/slow memory bandwidth model. The x86-64 front-end lives
   apart, in the project's tools/front/x86.c: decoding x86-64 takes a library
   (Zydis), and this header needs nothing but the C library and libm;
   RISC-V's fixed encodings decode in a table here. These stay in this one
   header, each in its own section, because they parameterise the analysis:
   a profile gives the engine its alpha, m and caches (edan_profile_to_config)
   and the hybrid model turns the same profile's bandwidths into time; a
   second header would need the same allocator hooks, result codes and JSON
   reader, and every tool that embeds the engine would include both. The
   JSON reader is API too: a small read-only JSON DOM (edan_json_*), as
   the profile is read with it; edan_profile types the sections the
   analysis takes, edan_profile_json gives the document for the rest.

   EXAMPLE
   A complete program (C99 or C++): a RISC-V text trace on standard input,
   W, D and lambda at m = 4 out.
       #define EDAN_IMPLEMENTATION
       #include "edan.h"
       #include <stdio.h>
       #include <string.h>

       int main(void)
       {
           edan_options opt;
           edan_context *ctx = NULL;
           edan_rv_parser *rv = NULL;
           edan_insn in;
           edan_metrics m;
           edan_bounds b;
           char line[4096];
           int rc = 0;
           memset(&opt, 0, sizeof opt);                 // zero = the model's defaults
           if (edan_rv_parser_create(&rv, NULL) != EDAN_OK || edan_create(&ctx, &opt) != EDAN_OK) {
               fprintf(stderr, "%s\n", ctx ? edan_error(ctx) : "out of memory");
               rc = 1;
           }
           while (!rc && fgets(line, sizeof line, stdin)) {
               edan_result r = edan_rv_parse_line(rv, line, strlen(line), &in);
               if (r == EDAN_SKIP) continue;             // a blank or comment line
               if (r != EDAN_OK || edan_feed(ctx, &in) != EDAN_OK) {
                   fprintf(stderr, "%s\n", r != EDAN_OK ? edan_rv_error(rv) : edan_error(ctx));
                   rc = 2;
               }
           }
           if (!rc) {
               edan_get_metrics(ctx, 0, &m);            // W, D, C, Tinf, ...
               edan_get_bounds(ctx, 0, 4, &b);          // lambda, Lambda, bounds at m = 4
               printf("W=%llu D=%llu lambda=%.2f\n", (unsigned long long)m.W, (unsigned long long)m.D, b.lambda);
           }
           edan_destroy(ctx);                           // a failed one too: NULL or its message
           edan_rv_parser_destroy(rv);
           return rc;
       }
   examples/embed.c does the same with two configurations in one pass. A
   front-end that meets the same static instruction many times (decoded
   basic blocks, a binary trace) checks it once with edan_prepare and feeds
   its executions with edan_feed_prepared_n(ctx, prepared, addresses, n, NULL),
   one or a run of them: the same metrics, less work; a basic block made
   once with edan_block_create is fed whole by
   edan_feed_block at a fraction of the cost (its register dataflow
   compiled), and a loop's executions of it one after another by
   edan_feed_block_n at a smaller one again.

   BUILD
   In exactly one C or C++ file, before the include:
       #define EDAN_IMPLEMENTATION
   and link with -lm. Optional, before that include:
       #define EDAN_MALLOC(sz,user) / EDAN_REALLOC(p,sz,user) / EDAN_FREE(p,user)
       all three (one alone is an #error) to change the default allocator
       (per-context hooks in edan_options win), and EDAN_CALLOC(sz,user) for
       zeroed blocks (default calloc, whose pages the system maps as they
       are touched; with your three macros and no EDAN_CALLOC, EDAN_MALLOC
       and memset).
       #define EDAN_WINDOW_PACK_LIMIT n   for tests: the windowed schedule
       keeps its times packed, one word each, only while they are below n
       cycles (by default up to 200 * 2^28, 5.4 * 10^10, at alpha 200),
       then as pairs; the results are the same, the pairs slower.
   To leave parts out (defined before every include of the header):
       #define EDAN_NO_RISCV     no RISC-V front-end (edan_rv_*): a tool
                                 with a front-end of its own
       #define EDAN_NO_PROFILE   no hardware profiles (edan_profile_*), no
                                 hybrid model (edan_hybrid_*), no JSON reader
                                 (edan_json_*, edan_read_stream)
   With both, the engine alone remains (about 70% of the header's lines:
   they leave out some 3,300); it needs no -lm.
   C99; no global state; no exit(); warning-free with -Wall -Wextra -pedantic.
   Every function the implementation defines is edan_ (the API) or static:
   no other symbol leaves the file that defines EDAN_IMPLEMENTATION.

   ERRORS
   Functions return an edan_result; on failure the context's text says what
   is wrong (edan_error), the RISC-V parser's likewise (edan_rv_error). The
   profile loaders (edan_profile_load/_parse, edan_profile_check_*) have
   no object to hold it yet, nor have the JSON reader (edan_json_parse)
   and the pure hybrid model (edan_hybrid_from_profile/_json): they write
   it into the caller's err buffer.
   A feeding call (edan_feed*, edan_kill_*, edan_thread_*, edan_signal_*)
   that refuses its input (EDAN_ERR_INVALID_ARG: a bad instruction, no such
   thread, no handler to return from) changes nothing: the context goes on.
   One that runs out of memory or past a limit (EDAN_ERR_NOMEM,
   EDAN_ERR_LIMIT) may have counted part of its instruction; the context is
   then failed: every later feeding call returns that error and changes
   nothing, and the results read as they were at the failure.

   THREADS
   A context, its prepared instructions and its blocks belong to one thread
   at a time: nothing inside takes a lock, and even the getters write (they
   add in the counts that compiled blocks defer), so two threads that share
   a context serialise every call themselves. Separate contexts share
   nothing and may run on separate threads at once. The RISC-V parser is
   one thread's like a context; edan_rv_decode, edan_rv_make,
   edan_rv_op_name, edan_result_string, the JSON reader, the profile
   loaders, edan_profile_* and the hybrid model keep no state of their own
   and may be called from any thread (a loaded edan_profile and a parsed
   edan_json are read-only for them: share them freely).
   The program's own threads are another matter: a trace of several threads
   is one context fed in trace order (edan_thread_*).
   options.jobs > 1 with several configurations, or with one that has a
   windowed schedule, makes a context that runs threads of its own (POSIX
   threads: when the file that defines
   EDAN_IMPLEMENTATION asks for POSIX, _POSIX_C_SOURCE >= 200112L, and
   does not define EDAN_NO_THREADS; without them jobs is 1): the caller
   still uses it from one thread at a time, as any context; the engine's
   threads block every signal, and end with edan_destroy. They allocate
   too: an allocator (options.allocator, EDAN_MALLOC) is then called from
   several threads at once. A forked child must not use a context that has
   threads (it has none of them).

   VERSIONS
   EDAN_VERSION_MAJOR.EDAN_VERSION_MINOR moves with the API: the minor for
   additions, the major for a change that breaks a caller.
   1.0  edan_feed_prepared_n takes size_t *fed (how many went in: the
        index of the one at fault on an error; NULL: not wanted), which
        breaks its callers; edan_feed_block_n, runs of a block's
        executions, with the same *fed.
   0.3  edan_options.jobs and jobs_buffer (configurations analysed in
        parallel, one configuration's windowed schedules on a thread of
        their own, THREADS), EDAN_JOBS_BUFFER_DEFAULT, EDAN_NO_THREADS;
        the JSON reader (edan_json_*, edan_read_stream), edan_profile_json,
        edan_profile_roof, edan_profile_check_version/_numa,
        edan_hybrid_from_json and edan_rv_make, which were internal
        (edan__*, EDAN_INTERNAL).
   0.2  the windowed schedule: edan_config.window, lq, sq, width
        (EDAN_WINDOW_OFF, EDAN_WINDOW_MAX), edan_options.window_m,
        edan_window and edan_get_window; edan_get_layer_summary (the
        layer histogram in bins whose size does not grow with D);
        EDAN_NO_RISCV, EDAN_NO_PROFILE; a context failed by EDAN_ERR_NOMEM
        or EDAN_ERR_LIMIT stays failed (ERRORS); EDAN_MAX_OP names the
        op-id bound; EDAN_JSON_MAX_DEPTH (was EDAN__JSON_MAX_DEPTH).
   0.1  the first API.

   MODEL
   Vertices are executed instructions; an edge u -> v exists iff u is the most
   recent writer of a register or memory byte that v reads (true dependencies
   only; x0 is a constant). A memory access vertex is a load/store/AMO that
   reaches RAM: every one without a cache; with one, a load (or write-back
   store, read-for-ownership) that missed in every level, or any
   write-through store. An access the cache serves also depends on the
   memory access vertex that brought each line it touches from RAM (fill
   dependencies; options.paper_cache keeps the EDAN paper's rule without
   them); a memory access vertex served in part waits for those fills at its
   end, not its start (an access across lines). A load of bytes that one
   store of its thread wrote, among its last options.forward stores (32) or
   both stack-slot accesses (EDAN_INSN_STACK), is forwarded: no memory
   access vertex, one cycle from the store's start (metrics.forwarded;
   EDAN_FORWARD_OFF: the paper's model). In a scoped trace, what
   unanalysed code wrote loses its writer (edan_kill_regs, edan_kill_mem).
   A signal handler's return gives the thread the register writers it had
   at the handler's start (edan_signal_*). md(v) = [v is a memory access vertex] +
   max md over its predecessors; D = max md; W_i = memory vertices with md = i;
   lambda(m) = (W - D)/m + D; Lambda = lambda / (lambda alpha0 + C);
   max(D, W/m) alpha <= sum ceil(W_i/m) alpha <= lambda alpha.
   S(v) = max F(pred), F(v) = S(v) + t(v); t = alpha for a memory access
   vertex, the serving level's hit latency for a cache hit, the class cost
   otherwise. The windowed schedule (on by default; edan_config.window)
   plays the same graph through each thread's window of a core (R vertices,
   LQ loads, SQ stores in flight, K dispatched a cycle, m memory slots):
   its time T_window and lambda_window, the RAM latencies on its critical
   path (the exact slope of T_window against alpha), are what a core's run
   time follows; lambda assumes any two independent accesses overlap,
   however far apart. A block stays compiled with it for one configuration
   without hotspots (its vertices played after its steps); with several or
   with hotspots it is fed one by one. README.md has the whole picture.

   API (by area; each declaration below carries its own comment)
   engine        edan_create, edan_destroy, edan_error, edan_result_string,
                 edan_class_name
   feeding       edan_feed, edan_feed_many, edan_feed_accesses; edan_prepare,
                 edan_feed_prepared_n; edan_block_create, edan_feed_block,
                 edan_feed_block_n, edan_block_destroy; edan_kill_regs, edan_kill_mem (scopes)
   threads       edan_thread_create, edan_thread_switch, edan_thread_exit,
                 edan_num_threads, edan_get_thread_metrics
   signals       edan_signal_deliver, edan_signal_return, edan_signal_drop,
                 edan_signal_depth
   results       edan_num_configs, edan_get_config, edan_get_metrics,
                 edan_get_layers, edan_get_layer_summary, edan_get_bounds,
                 edan_get_bounds_at, edan_get_window, edan_get_timeline,
                 edan_get_op_counts,
                 edan_get_hotspots, edan_get_critical_chain, edan_write_dot
   RISC-V        edan_rv_parse_line (text traces), edan_rv_decode (bytes),
                 edan_rv_make (register fields), edan_rv_parser_create,
                 edan_rv_parser_destroy, edan_rv_error, edan_rv_op_name,
                 edan_rv_op_flops
   JSON          edan_json_parse, edan_json_free, edan_json_kind,
                 edan_json_get, edan_json_at, edan_json_len,
                 edan_json_key_at, edan_json_value_at, edan_json_number,
                 edan_json_string, edan_json_bool, edan_json_line;
                 edan_read_stream
   profiles      edan_profile_load, edan_profile_parse, edan_profile_free,
                 edan_profile_to_config, edan_profile_bandwidth_of,
                 edan_profile_roof, edan_profile_json,
                 edan_profile_check_version, edan_profile_check_numa
   hybrid model  edan_hybrid_from_profile, edan_hybrid_from_json,
                 edan_hybrid_times_of, edan_hybrid_bandwidth,
                 edan_hybrid_error, edan_hybrid_fit

   DOES NOT
   open files other than hardware profiles (edan_read_stream reads the
   stream it is given), run or trace programs (the edan CLI and its QEMU
   plugin do), decode x86-64 (it names x86-64's registers, EDAN_X86_*, for
   a front-end that does: the project's tools/front/x86.c, with Zydis),
   keep state between contexts, print, or exit.

   CONTENTS (search for the banner's words)
   API           Results; Instructions (ISA-neutral); Options; The analysis
                 context; RISC-V front-end; Hardware profiles; JSON reader,
                 hardware profiles, hybrid fast/slow memory model:
                 declarations
   Implementation  engine: allocation, the engine's state, shadow memory,
                 cache model, per-PC statistics, the windowed schedule,
                 feeding, the layer
                 histogram, instructions with several accesses, threads,
                 blocks, results; RISC-V front-end: building an
                 instruction, decoder, text parser; JSON reader; hardware
                 profiles; hybrid model

   LICENSE: MIT (at the end of this file).
*/
#ifndef EDAN_H
#define EDAN_H

#include <stddef.h>
#include <stdint.h>
#ifndef EDAN_NO_PROFILE
#include <stdio.h>      /* FILE: edan_read_stream */
#endif /* EDAN_NO_PROFILE */

#ifdef __cplusplus
extern "C" {
#endif

#define EDAN_VERSION_MAJOR 1
#define EDAN_VERSION_MINOR 0

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

#define EDAN_MAX_SRC 6      /* x86: cmpxchg16b reads rax, rdx, rbx, rcx and a base and an index */
/* Op ids run below this (edan_insn.op): the per-op counts are a table
   indexed by them. */
#define EDAN_MAX_OP (1u << 20)
#define EDAN_MAX_DST 4      /* x86: cpuid writes four registers; div rax, rdx, RFLAGS */
#define EDAN_MAX_ACCESS 64  /* largest access size in bytes */

/* Register id 0 is the hard-wired zero: reading it makes no edge, writing it
   is dropped. Other ids are < edan_options.num_regs. */
typedef uint16_t edan_reg;

/* The instruction sets of front-ends (the binary trace of tools/front/bintrace.h
   stores these values, the reports name them), and their register ids. RISC-V: the
   EDAN_RV_* ids below. x86-64 (decoded outside this header): one id per
   value of the model, the 16 general registers in encoding order (rax rcx
   rdx rbx rsp rbp rsi rdi r8 .. r15), RFLAGS, the 32 vector registers
   (x/y/zmm n), the mask registers k0 .. k7, the x87/MMX stack, and four
   temporaries that carry values between the vertices one instruction is
   cracked into (its loads, its operation, its stores): written and read
   within the instruction, never across two. */
typedef enum edan_isa { EDAN_ISA_RISCV64 = 1, EDAN_ISA_X86_64 = 2 } edan_isa;
#define EDAN_X86_GPR(n) ((edan_reg)(1 + (n)))
#define EDAN_X86_RFLAGS ((edan_reg)17)
#define EDAN_X86_VEC(n) ((edan_reg)(18 + (n)))
#define EDAN_X86_MASK(n) ((edan_reg)(50 + (n)))
#define EDAN_X86_X87 ((edan_reg)58)
#define EDAN_X86_TEMP(n) ((edan_reg)(59 + (n)))     /* n = 0 .. 3 */
#define EDAN_X86_NUM_REGS 63

/* edan_insn.flags. EDAN_INSN_STACK: a stack-slot access, its address the
   stack pointer plus a constant (RISC-V: base sp; x86-64: base rsp, no
   index; push, pop, call, ret): a load of what a stack-slot store of the
   thread wrote is forwarded at any distance (store-to-load forwarding,
   edan_options.forward). EDAN_INSN_LOCKED: a load of a locked
   read-modify-write (x86-64: lock, xchg with memory), never forwarded. */
enum { EDAN_INSN_HAS_PC = 1, EDAN_INSN_STACK = 2, EDAN_INSN_LOCKED = 4 };

/* One executed instruction. Front-ends fill it; edan_feed consumes it. */
typedef struct edan_insn {
    uint64_t pc;            /* valid when flags & EDAN_INSN_HAS_PC */
    uint64_t addr;          /* first byte accessed, when mem != EDAN_MEM_NONE */
    uint32_t op;            /* front-end opcode id, < EDAN_MAX_OP (names come from the front-end) */
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
/* Options: a zero-initialised struct means the model's defaults.           */
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
    uint64_t size;          /* bytes; size = assoc * sets * line (a line maps to set line mod sets) */
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
    /* The windowed schedule (edan_get_window): a core's window of `window`
       vertices in flight (its reorder buffer; 0 = EDAN_WINDOW_DEFAULT,
       EDAN_WINDOW_OFF: no schedule), `lq` loads and `sq` stores in flight
       (0 = EDAN_QUEUE_DEFAULT each) and `width` vertices dispatched a cycle
       (0 = EDAN_WIDTH_DEFAULT); its memory slots are the m's. */
    uint32_t window, lq, sq, width;
} edan_config;

#define EDAN_WINDOW_DEFAULT 192
#define EDAN_QUEUE_DEFAULT 32
#define EDAN_WIDTH_DEFAULT 8
#define EDAN_WINDOW_OFF 0xffffffffu
#define EDAN_WINDOW_MAX 65536       /* window, lq, sq, width and a scheduled m: at most this */

/* The default of edan_options.num_regs: room for the register ids of every
   front-end of this header (RISC-V's, with its 4096 CSRs, and x86-64's). */
#define EDAN_DEFAULT_NUM_REGS (EDAN_RV_NUM_REGS > EDAN_X86_NUM_REGS ? EDAN_RV_NUM_REGS : EDAN_X86_NUM_REGS)

typedef struct edan_options {
    edan_allocator allocator;   /* zero = malloc/realloc/free */
    uint32_t num_configs;       /* 0 = one default config (no cache) */
    const edan_config *configs;
    uint32_t num_m;             /* 0 = EDAN_DEFAULT_M */
    uint32_t m[EDAN_MAX_M];     /* memory issue slots to evaluate */
    uint32_t num_regs;          /* register ids 0..num_regs-1; 0 = EDAN_DEFAULT_NUM_REGS */
    uint32_t hotspots;          /* nonzero: per-PC (or per-op) memory-vertex statistics */
    uint32_t dot_max_vertices;  /* nonzero: record the graph for edan_write_dot, up to this */
    uint32_t chain;             /* nonzero: record what edan_get_critical_chain needs, at any trace
                                   length: each memory access vertex's step back along the chain
                                   (an entry of 24 + 24 x configurations bytes, in a table kept from
                                   1/4 to 3/4 full) and, for the values
                                   still live (registers, the bytes' last writers), where the chain
                                   through them goes on */
    int paper_cache;            /* nonzero: the paper's cache rule, for reproducing its tables: a
                                   hit depends only on its registers and bytes (no fill edges), and
                                   with a cache w(v) is a memory access vertex's access size */
    uint32_t timeline_max_bins; /* 0 = 2^20: a timeline that would need more bins doubles its tau
                                   (the timeline at 2 tau is every other bin of the one at tau);
                                   edan_get_config says the tau used */
    uint64_t shadow_limit;      /* bytes of shadow memory (the last writers of the bytes written) at
                                   most; 0 = EDAN_SHADOW_LIMIT_DEFAULT. A feed that needs more fails
                                   with EDAN_ERR_LIMIT */
    uint32_t forward;           /* store-to-load forwarding: a load of bytes that one store vertex of its
                                   thread wrote is no memory access vertex when that store is among the
                                   thread's last `forward` stores (the store buffer), or when both are
                                   stack-slot accesses (EDAN_INSN_STACK). 0 = EDAN_FORWARD_DEFAULT
                                   stores; EDAN_FORWARD_OFF: no forwarding (the paper's model) */
    uint32_t window_m;          /* the m's of the windowed schedule: 0 = every m of the list (m[]),
                                   else this one alone (it need not be in m[]); each m scheduled costs
                                   about as much as the rest of the analysis of a vertex */
    uint32_t jobs;              /* threads that analyse the configurations, at most one per configuration:
                                   0 or 1 = the caller's alone. J > 1 splits the configurations into J
                                   groups: the caller's thread analyses the first as it feeds, and hands
                                   every feeding call over (a copy, in a buffer of jobs_buffer bytes) to a
                                   thread of the engine's for each other group, each with a context of
                                   its own; a getter of a configuration of another group waits until its
                                   thread has caught up. The results are the same, every byte; each group's
                                   context holds the state that all configurations share (its own shadow
                                   memory, with shadow_limit each). With one configuration and a
                                   windowed schedule, J > 1 runs its schedules on a second thread: the
                                   caller's runs the rest and hands each vertex's part over (a compiled
                                   block's execution at a time; the same buffer's size), the other
                                   plays it through the schedules, while the program has one thread
                                   (from its second on, the caller's runs everything). With J >= 2K
                                   (K > 1 configurations), each configuration is a group, whose
                                   schedules a thread of their own plays so: 2K threads. With
                                   J >= 2K + 1 (K = 1 too) the caller's context holds a stand-in
                                   alone, which counts and checks the calls (their refusals found as
                                   they are made) and analyses little, and hands every configuration
                                   over, each a group with its schedules' thread: 2K + 1 threads.
                                   Needs POSIX threads (the header's THREADS); otherwise 1 */
    uint32_t jobs_buffer;       /* bytes of that buffer: 0 = EDAN_JOBS_BUFFER_DEFAULT; rounded up to a power
                                   of 2, at least 64 KiB (and twice the largest single call: an
                                   edan_feed_block of a block of n instructions takes 8n + 24 bytes). The
                                   caller waits only when it is full */
} edan_options;

#define EDAN_JOBS_BUFFER_DEFAULT ((uint32_t)4 << 20)

#define EDAN_FORWARD_DEFAULT 32
#define EDAN_FORWARD_MAX 4096
#define EDAN_FORWARD_OFF 0xffffffffu

/* The m's of a zeroed edan_options (an initializer for uint32_t[]). */
#define EDAN_DEFAULT_M {1, 2, 4, 8, 16}

/* 8 GiB: the last writers of about 2.8 GB written densely with one
   configuration (24 bytes per 8-byte word), or of 100 million pages with a
   word written in each. */
#define EDAN_SHADOW_LIMIT_DEFAULT ((uint64_t)8 << 30)

/* ------------------------------------------------------------------------ */
/* The analysis context                                                     */
/* ------------------------------------------------------------------------ */
typedef struct edan_context edan_context;

/* A context for opts (NULL: the defaults). EDAN_OK: *out is ready. On a
   failure *out is either NULL (out NULL, an allocator given in part,
   out of memory: edan_result_string says why) or a context that holds
   the message, for options it cannot take (edan_error says which); it can
   only be read and destroyed. Either way edan_destroy(*out) is right
   (edan_destroy(NULL) does nothing), so no failure leaks. */
edan_result edan_create(edan_context **out, const edan_options *opts);
void edan_destroy(edan_context *ctx);
/* Text of the last error on this context ("" if none). */
const char *edan_error(const edan_context *ctx);

/* Feed one instruction (trace order). */
edan_result edan_feed(edan_context *ctx, const edan_insn *in);
/* in[0 .. n) in trace order. *fed (when not NULL): how many were fed, all
   of them on EDAN_OK; on an error, those before the one at fault. */
edan_result edan_feed_many(edan_context *ctx, const edan_insn *in, size_t n, size_t *fed);

/* One memory access of an instruction that makes several. */
typedef struct edan_access {
    uint64_t addr;          /* first byte */
    uint32_t size;          /* bytes, 1..EDAN_MAX_ACCESS */
    uint8_t kind;           /* EDAN_MEM_LOAD or EDAN_MEM_STORE */
} edan_access;

/* Feed one instruction that accesses memory several times, acc[0 .. n) in
   the order it made them (a gather's or scatter's elements; an x86-64
   front-end cracks a read-modify-write, push or string instruction into
   load, operation and store vertices of one access each, and feeds a
   gather as one load vertex with its elements). It is one vertex. Its sources are its registers read and every byte its loads read
   (the bytes' writers before it: a load of a byte it stored itself makes
   no edge); its targets are its registers written and every byte its
   stores write. Each access goes through the cache model in order; it is a
   memory access vertex iff one of its accesses is; w(v) sums over them; a
   vertex the cache served takes the slowest serving level's latency. in's
   mem, addr and size are not read. It counts once among the loads (if it
   only loads), the stores (if it only stores) or the AMOs (if it does
   both), with the bytes of its loads and of its stores. n = 0 feeds a
   vertex without memory access. */
edan_result edan_feed_accesses(edan_context *ctx, const edan_insn *in, const edan_access *acc, size_t n);

/* A prepared instruction: an edan_insn checked once and laid out for the
   engine. A front-end that sees the same static instruction many times (a
   decoded basic block, the instruction table of a binary trace) prepares it
   once and feeds each execution with its address, skipping the per-call
   checks of edan_feed. Valid for the context that prepared it; `in` is
   yours to read, edan__ the engine's. */
typedef struct edan_prepared {
    edan_insn in;                       /* as given; in.addr is not used by edan_feed_prepared_n */
    struct {                            /* the engine's (private: may change) */
        const edan_context *owner;
        uint8_t nsrc, ndst;             /* operands carrying dependences: no register 0, no repeats */
        uint8_t reads_mem, writes_mem;
        edan_reg src[EDAN_MAX_SRC];
        edan_reg dst[EDAN_MAX_DST];
    } edan__;
} edan_prepared;

edan_result edan_prepare(edan_context *ctx, const edan_insn *in, edan_prepared *out);
/* p[0 .. n) in trace order, p[i] with the address addrs[i] (read only when
   p[i] accesses memory; addrs may be NULL when none does): the same metrics
   as edan_feed of each p[i].in with in.addr = addrs[i], without its per-call
   checks. On an error
   (p[i] prepared for another context, without its address, or refused) the
   instructions before the one at fault have been fed. *fed (when not NULL):
   how many were fed, n on EDAN_OK, else the index of the one at fault. */
edan_result edan_feed_prepared_n(edan_context *ctx, const edan_prepared *p, const uint64_t *addrs, size_t n,
                                 size_t *fed);

/* A block: a straight-line run of prepared instructions that executes whole,
   again and again (a basic block of the traced program). The engine
   compiles it once: each vertex's F and md as the largest of a few terms
   over the registers it reads, its memory vertices and the vertices that
   join values of more than one of those. An execution then costs one step
   per memory instruction, per such joining vertex and per register
   written, not one per instruction. The same metrics as feeding its
   instructions one by one. A context without graph recording whose
   configurations share one cost table runs it this way (hotspots
   included); anything else (also an execution the compiled form does not
   cover: an access across words, a store of part of a word, an AMO, ...)
   feeds the instructions one by one. The context owns its blocks:
   edan_destroy frees those left. */
typedef struct edan_block edan_block;
/* p[0 .. n), each prepared for ctx, copied. */
edan_result edan_block_create(edan_context *ctx, const edan_prepared *p, size_t n, edan_block **out);
/* One execution of all of b's instructions, addrs[i] the address of
   instruction i (read only for memory instructions; NULL when none is):
   the same as edan_feed_prepared_n(ctx, p, addrs, n, NULL), errors included. */
edan_result edan_feed_block(edan_context *ctx, edan_block *b, const uint64_t *addrs);
/* count executions of b one after the other, addrs[j * n + i] the address
   of instruction i in execution j (NULL when none is a memory
   instruction): the same as count calls of edan_feed_block, errors
   included (the executions and instructions before the one at fault have
   been fed). *fed (when not NULL): how many of the count * n instructions
   were fed, all of them on EDAN_OK; on an error, those before the one at
   fault (execution *fed / n, instruction *fed % n). A short block's executions run several at a time, through one
   compiled copy of it unrolled (made at the first call with as many, owned
   by b): each execution's fixed costs (the checks, the registers written
   out, the windowed schedule's hand-over) are paid once per group. */
edan_result edan_feed_block_n(edan_context *ctx, edan_block *b, const uint64_t *addrs, size_t count,
                             size_t *fed);
void edan_block_destroy(edan_block *b);

/* Scoped traces: instructions outside the analysed scope (a function, a
   region, between markers) are not fed, but what they write loses its
   writer: a later read of it makes no edge, as program input does. A
   front-end reports, in trace order, the registers (register 0 is ignored)
   and the bytes [addr, addr + size) that unanalysed instructions wrote.
   The cache model is not touched. */
edan_result edan_kill_regs(edan_context *ctx, const edan_reg *regs, size_t n);
edan_result edan_kill_mem(edan_context *ctx, uint64_t addr, uint64_t size);

/* Threads: several threads' instructions in one eDAG. Each thread has its
   own registers; memory (and the caches) are shared. Thread 0 exists from
   the start and is the one fed; edan_thread_create(creator, child) starts
   thread `child` (a new id below EDAN_MAX_THREADS) with `creator`'s register
   writers as they are now; edan_thread_switch makes `thread` the one whose
   instructions are fed next (feed them in an order the program could have
   executed them); edan_thread_exit frees an ended thread's registers (its
   counts stay; its id is not used again): when it is the thread fed, no
   instruction (nor register kill) is taken until a switch to another. The whole program's metrics are
   the context's (edan_get_metrics, edan_get_bounds); a thread's share:
   edan_get_thread_metrics (cross_edges: values passed between threads).
   Telling whose a vertex is costs 16 bytes per switch between threads
   (memory that grows with the switches, not with the footprint). A
   program that never calls these is thread 0 alone. */
#define EDAN_MAX_THREADS (1u << 20)
typedef struct edan_thread_metrics {
    uint64_t N;             /* its instructions */
    uint64_t W;             /* its memory access vertices */
    uint64_t C;             /* the cost of its other vertices */
    uint64_t D;             /* the largest md of its memory vertices (chains through other threads count) */
    uint64_t chained;       /* its memory vertices with md >= 2 */
    uint64_t cross_edges;   /* register and memory edges into its vertices from another thread's */
    int live;               /* created and not exited */
} edan_thread_metrics;
edan_result edan_thread_create(edan_context *ctx, uint32_t creator, uint32_t child);
edan_result edan_thread_switch(edan_context *ctx, uint32_t thread);
edan_result edan_thread_exit(edan_context *ctx, uint32_t thread);
/* 1 + the largest thread id created (1 when there is only thread 0). */
uint32_t edan_num_threads(const edan_context *ctx);
edan_result edan_get_thread_metrics(edan_context *ctx, uint32_t config, uint32_t thread, edan_thread_metrics *out);

/* Signals: a handler runs on the thread it interrupts and, when it returns
   (sigreturn), the interrupted code gets its registers back as they were:
   their writers are the interrupted code's again, whatever the handler
   wrote. edan_signal_deliver saves the current thread's register writers
   (before the front-end kills the registers the kernel sets for the
   handler: edan_kill_regs); edan_signal_return gives the thread back the
   last saved ones and forgets them; edan_signal_drop forgets them without
   restoring (a handler left by a non-local exit, siglongjmp). Memory is
   not saved: what a handler stores stays. Saved states nest, per thread,
   up to EDAN_MAX_SIGNAL_DEPTH: one more forgets the oldest (a handler
   abandoned unseen). Each costs the registers' writers (about 20 bytes a
   register id with one configuration). A return or drop with none saved
   is EDAN_ERR_INVALID_ARG. */
#define EDAN_MAX_SIGNAL_DEPTH 64
edan_result edan_signal_deliver(edan_context *ctx);
edan_result edan_signal_return(edan_context *ctx);
edan_result edan_signal_drop(edan_context *ctx);
/* The current thread's saved states (0 when no handler runs). */
uint32_t edan_signal_depth(const edan_context *ctx);

uint32_t edan_num_configs(const edan_context *ctx);
/* The effective configuration (defaults filled in). */
const edan_config *edan_get_config(const edan_context *ctx, uint32_t config);

typedef struct edan_metrics {
    uint64_t N;             /* vertices (instructions) */
    uint64_t E;             /* distinct edges (fill edges included) */
    uint64_t fill_edges;    /* edges from a line's filler to an access the cache served that
                               are not also register or memory edges (E counts them once) */
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
    uint64_t load_bytes, store_bytes;   /* bytes requested by them (an AMO counts as both) */
    uint64_t chained;       /* memory access vertices with md >= 2 */
    uint64_t forwarded;     /* loads that store-to-load forwarding answered (no memory access vertices) */
    uint64_t level_hits[EDAN_MAX_LEVELS];   /* accesses served by each level */
    uint64_t ram_lines;     /* lines filled from RAM */
    uint64_t writebacks;    /* dirty lines written back from the last level */
} edan_metrics;

/* The getters below take a context that is not const: reading it adds in
   the counts that compiled blocks defer (a block counts its executions, not
   its instructions, while it runs), and the timeline is summed into a
   buffer the context owns. Reading never changes a result. */
edan_result edan_get_metrics(edan_context *ctx, uint32_t config, edan_metrics *out);

/* The layer histogram: W_i, the memory access vertices at memory depth i,
   for i = first .. first + n - 1 into out[0 .. n) (first >= 1; 0 past D).
   The engine keeps it in about a byte per layer, not as D counts (D grows
   with the trace: a pointer chase's is its length), so a caller reads it
   in pieces of its choosing: (ctx, 0, 1, &w, 1) is W_1; every layer goes
   through a buffer. */
edan_result edan_get_layers(edan_context *ctx, uint32_t config, uint64_t first, uint64_t *out, size_t n);

/* The layer histogram in at most max_bins bins of `width` layers each (the
   smallest power of 2 that makes them enough; the last may be shorter):
   bins[j] covers layers first .. first + count - 1, sum and max of their
   W_i. *nbins gets ceil(D / width), *width the width. Its size does not
   grow with D, and it costs a pass over the engine's byte per layer (a page
   of 4,096 layers of one count: one step), not D reads: a report of a run
   of any depth. */
typedef struct edan_layer_bin { uint64_t first, count, sum, max; } edan_layer_bin;
edan_result edan_get_layer_summary(edan_context *ctx, uint32_t config, edan_layer_bin *bins, size_t max_bins,
                                   size_t *nbins, uint64_t *width);

typedef struct edan_bounds {
    uint32_t m;
    double lambda;          /* (W - D)/m + D, 0 when W = 0 */
    double Lambda;          /* lambda / (lambda * alpha0 + C) */
    double M_lower, M_layered, M_upper;     /* memory cost, cycles */
    double T_lower, T_layered, T_upper;     /* the same + C */
} edan_bounds;

/* Bounds for m slots; m need not be in opts.m, but layered needs the layers. */
edan_result edan_get_bounds(edan_context *ctx, uint32_t config, uint32_t m, edan_bounds *out);
/* The same bounds at another RAM latency alpha (cycles, may be fractional):
   W, D, the layers and C do not depend on alpha, so the bounds at a far
   latency are exact without another pass (the what-if of the model:
   T_upper grows by lambda x delta-alpha). */
edan_result edan_get_bounds_at(edan_context *ctx, uint32_t config, uint32_t m, double alpha, edan_bounds *out);

/* The windowed schedule (edan-model, "The windowed schedule"): the trace
   played through each thread's window of the configuration (edan_config's
   window, lq, sq, width) with m memory slots. T is the latest retirement
   over the threads, in cycles at the configuration's alpha; lambda of
   them are RAM latencies on its critical path, so lambda is the exact
   slope of T against alpha there (T = c + lambda * alpha) and
   0 <= lambda <= W. EDAN_ERR_INVALID_ARG (and the context's text) when
   the configuration has no schedule or none at this m (options.window_m). */
typedef struct edan_window {
    uint32_t m, rob, lq, sq, width;
    uint64_t T;             /* T_window, cycles */
    uint64_t lambda;        /* lambda_window: the RAM latencies on its critical path */
    uint64_t c;             /* T - lambda * alpha: the cycles that are not RAM latency */
} edan_window;
edan_result edan_get_window(edan_context *ctx, uint32_t config, uint32_t m, edan_window *out);

/* Data movement over time: bins[i] = U_i for i = 0..ceil(Tinf/tau).
   The array is owned by the context and valid until the next feed. */
edan_result edan_get_timeline(edan_context *ctx, uint32_t config, const uint64_t **bins, size_t *count);

/* Where the latency sensitivity comes from: per PC (per op when the trace
   has no PC), the memory access vertices and how many are chained, and
   the accesses each cache level served (a forwarded load is in none). */
typedef struct edan_hotspot {
    uint64_t key;           /* pc, or op id when has_pc == 0 */
    int has_pc;
    uint32_t op;            /* op of the last instruction seen at this key */
    uint64_t executed;      /* instructions executed at this key */
    uint64_t mem_vertices;
    uint64_t chained;
    uint64_t max_md;
    uint64_t served[EDAN_MAX_LEVELS];   /* its accesses the cache served, by the slowest level that served
                                           them (L1 first; mem_vertices are those that reached RAM) */
} edan_hotspot;

/* How often each op id was executed: counts[op] for op < *n (the instruction
   mix; a front-end turns it into flops, e.g. with edan_rv_op_flops). */
edan_result edan_get_op_counts(edan_context *ctx, const uint64_t **counts, size_t *n);

/* Fills out[0..*count) with the top `max` keys by chained, then mem_vertices
   (both the most first), then key (the smallest first); O(keys log max).
   With max 0, *count is the number of keys. */
edan_result edan_get_hotspots(edan_context *ctx, uint32_t config, edan_hotspot *out, size_t max, size_t *count);

/* Which instructions make D: the D memory access vertices of one longest
   chain, streamed (opts.chain: at any trace length) or else from the
   recorded graph (opts.dot_max_vertices at least the trace's N; a graph cut
   short is EDAN_ERR_LIMIT). fn(user, v, md) for each (v: its pc, op and
   flags), md = D first, 1 last. The chain is the one that ends at the first memory
   vertex to reach D and steps back, from every vertex, to its latest
   predecessor on a longest path to it (md one less before a memory vertex,
   equal before any other): where several chains of D exist, this one. Md
   alone cannot tell the chain in one pass: in a list walk, the load of a
   node's value and the load of its next pointer have the same md, and only
   the next pointer's value leads on. Both ways give the same chain: the
   streamed one takes the walk's step back when each vertex is fed, keeps it
   for every memory access vertex (so its memory grows with W, not N), and
   for other vertices only while a register or a byte names them. */
typedef void (*edan_chain_fn)(void *user, const edan_insn *v, uint32_t md);
edan_result edan_get_critical_chain(edan_context *ctx, uint32_t config, edan_chain_fn fn, void *user);

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

#ifndef EDAN_NO_RISCV   /* the RISC-V front-end */
/* ---- RISC-V front-end: declarations ---- */
/* The RV64GC opcode table, one row per instruction the decoder produces.
   Its rows make the public op ids (EDAN_RV_OP_ADDI ..., EDAN_RV_OP_COUNT of
   them; edan_rv_op_name, edan_rv_op_flops); its columns are the
   implementation's, hence the private name:
   OP(ID, mnemonic, class, rd, rs1, rs2, rs3, mem kind, access bytes, flops,
     flags, operand syntax).
   Register files: N none, X integer, F floating point.
   Flags: R = takes a rounding mode, 0 = none.
   Syntax (how the disassembly prints the operands): d rd, s rs1, t rs2,
   u rs3, D rd that is also rs1, i integer, z 5-bit CSR immediate, B branch
   target, C CSR, F fence set, m memory operand [imm](rs1); ',' separates.
   Pseudo-instructions and other spellings (binutils 2.40 prints addi as
   `add rd,rs,imm`) are in the implementation's alias table and map to
   a row here, so op ids always name the executed base instruction
   (`mv` is addi, `ret` is jalr, a compressed c.ldsp is ld). */
#define EDAN__RV_OPS(OP) \
    OP(UNIMP,     "unimp",     OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(NOP,       "nop",       OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(LUI,       "lui",       INT_ALU, X,N,N,N, NONE,0,0, 0, "d,i") \
    OP(AUIPC,     "auipc",     INT_ALU, X,N,N,N, NONE,0,0, 0, "d,i") \
    OP(JAL,       "jal",       JUMP,    X,N,N,N, NONE,0,0, 0, "d,B") \
    OP(JALR,      "jalr",      JUMP,    X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(BEQ,       "beq",       BRANCH,  N,X,X,N, NONE,0,0, 0, "s,t,B") \
    OP(BNE,       "bne",       BRANCH,  N,X,X,N, NONE,0,0, 0, "s,t,B") \
    OP(BLT,       "blt",       BRANCH,  N,X,X,N, NONE,0,0, 0, "s,t,B") \
    OP(BGE,       "bge",       BRANCH,  N,X,X,N, NONE,0,0, 0, "s,t,B") \
    OP(BLTU,      "bltu",      BRANCH,  N,X,X,N, NONE,0,0, 0, "s,t,B") \
    OP(BGEU,      "bgeu",      BRANCH,  N,X,X,N, NONE,0,0, 0, "s,t,B") \
    OP(LB,        "lb",        LOAD,    X,X,N,N, LOAD,1,0, 0, "d,m") \
    OP(LH,        "lh",        LOAD,    X,X,N,N, LOAD,2,0, 0, "d,m") \
    OP(LW,        "lw",        LOAD,    X,X,N,N, LOAD,4,0, 0, "d,m") \
    OP(LD,        "ld",        LOAD,    X,X,N,N, LOAD,8,0, 0, "d,m") \
    OP(LBU,       "lbu",       LOAD,    X,X,N,N, LOAD,1,0, 0, "d,m") \
    OP(LHU,       "lhu",       LOAD,    X,X,N,N, LOAD,2,0, 0, "d,m") \
    OP(LWU,       "lwu",       LOAD,    X,X,N,N, LOAD,4,0, 0, "d,m") \
    OP(SB,        "sb",        STORE,   N,X,X,N, STORE,1,0, 0, "t,m") \
    OP(SH,        "sh",        STORE,   N,X,X,N, STORE,2,0, 0, "t,m") \
    OP(SW,        "sw",        STORE,   N,X,X,N, STORE,4,0, 0, "t,m") \
    OP(SD,        "sd",        STORE,   N,X,X,N, STORE,8,0, 0, "t,m") \
    OP(ADDI,      "addi",      INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SLTI,      "slti",      INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SLTIU,     "sltiu",     INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(XORI,      "xori",      INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(ORI,       "ori",       INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(ANDI,      "andi",      INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SLLI,      "slli",      INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SRLI,      "srli",      INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SRAI,      "srai",      INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(ADD,       "add",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SUB,       "sub",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SLL,       "sll",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SLT,       "slt",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SLTU,      "sltu",      INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(XOR,       "xor",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SRL,       "srl",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SRA,       "sra",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(OR,        "or",        INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(AND,       "and",       INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(ADDIW,     "addiw",     INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SLLIW,     "slliw",     INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SRLIW,     "srliw",     INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(SRAIW,     "sraiw",     INT_ALU, X,X,N,N, NONE,0,0, 0, "d,s,i") \
    OP(ADDW,      "addw",      INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SUBW,      "subw",      INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SLLW,      "sllw",      INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SRLW,      "srlw",      INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(SRAW,      "sraw",      INT_ALU, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(FENCE,     "fence",     OTHER,   N,N,N,N, NONE,0,0, 0, "F,F") \
    OP(FENCE_I,   "fence.i",   OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(ECALL,     "ecall",     OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(EBREAK,    "ebreak",    OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(SRET,      "sret",      OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(MRET,      "mret",      OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(WFI,       "wfi",       OTHER,   N,N,N,N, NONE,0,0, 0, "") \
    OP(SFENCE_VMA,"sfence.vma",OTHER,   N,X,X,N, NONE,0,0, 0, "s,t") \
    OP(CSRRW,     "csrrw",     CSR,     X,X,N,N, NONE,0,0, 0, "d,C,s") \
    OP(CSRRS,     "csrrs",     CSR,     X,X,N,N, NONE,0,0, 0, "d,C,s") \
    OP(CSRRC,     "csrrc",     CSR,     X,X,N,N, NONE,0,0, 0, "d,C,s") \
    OP(CSRRWI,    "csrrwi",    CSR,     X,N,N,N, NONE,0,0, 0, "d,C,z") \
    OP(CSRRSI,    "csrrsi",    CSR,     X,N,N,N, NONE,0,0, 0, "d,C,z") \
    OP(CSRRCI,    "csrrci",    CSR,     X,N,N,N, NONE,0,0, 0, "d,C,z") \
    OP(MUL,       "mul",       INT_MUL, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(MULH,      "mulh",      INT_MUL, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(MULHSU,    "mulhsu",    INT_MUL, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(MULHU,     "mulhu",     INT_MUL, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(DIV,       "div",       INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(DIVU,      "divu",      INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(REM,       "rem",       INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(REMU,      "remu",      INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(MULW,      "mulw",      INT_MUL, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(DIVW,      "divw",      INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(DIVUW,     "divuw",     INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(REMW,      "remw",      INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(REMUW,     "remuw",     INT_DIV, X,X,X,N, NONE,0,0, 0, "d,s,t") \
    OP(LR_W,      "lr.w",      AMO,     X,X,N,N, LOAD,4,0, 0, "d,m") \
    OP(SC_W,      "sc.w",      AMO,     X,X,X,N, STORE,4,0, 0, "d,t,m") \
    OP(AMOSWAP_W, "amoswap.w", AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOADD_W,  "amoadd.w",  AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOXOR_W,  "amoxor.w",  AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOAND_W,  "amoand.w",  AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOOR_W,   "amoor.w",   AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOMIN_W,  "amomin.w",  AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOMAX_W,  "amomax.w",  AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOMINU_W, "amominu.w", AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(AMOMAXU_W, "amomaxu.w", AMO,     X,X,X,N, AMO,4,0, 0, "d,t,m") \
    OP(LR_D,      "lr.d",      AMO,     X,X,N,N, LOAD,8,0, 0, "d,m") \
    OP(SC_D,      "sc.d",      AMO,     X,X,X,N, STORE,8,0, 0, "d,t,m") \
    OP(AMOSWAP_D, "amoswap.d", AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOADD_D,  "amoadd.d",  AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOXOR_D,  "amoxor.d",  AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOAND_D,  "amoand.d",  AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOOR_D,   "amoor.d",   AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOMIN_D,  "amomin.d",  AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOMAX_D,  "amomax.d",  AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOMINU_D, "amominu.d", AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(AMOMAXU_D, "amomaxu.d", AMO,     X,X,X,N, AMO,8,0, 0, "d,t,m") \
    OP(FLW,       "flw",       LOAD,    F,X,N,N, LOAD,4,0, 0, "d,m") \
    OP(FSW,       "fsw",       STORE,   N,X,F,N, STORE,4,0, 0, "t,m") \
    OP(FMADD_S,   "fmadd.s",   FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FMSUB_S,   "fmsub.s",   FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FNMSUB_S,  "fnmsub.s",  FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FNMADD_S,  "fnmadd.s",  FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FADD_S,    "fadd.s",    FP_ADD,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FSUB_S,    "fsub.s",    FP_ADD,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FMUL_S,    "fmul.s",    FP_MUL,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FDIV_S,    "fdiv.s",    FP_DIV,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FSQRT_S,   "fsqrt.s",   FP_DIV,  F,F,N,N, NONE,0,1, R, "d,s") \
    OP(FSGNJ_S,   "fsgnj.s",   FP_ADD,  F,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FSGNJN_S,  "fsgnjn.s",  FP_ADD,  F,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FSGNJX_S,  "fsgnjx.s",  FP_ADD,  F,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FMIN_S,    "fmin.s",    FP_ADD,  F,F,F,N, NONE,0,1, 0, "d,s,t") \
    OP(FMAX_S,    "fmax.s",    FP_ADD,  F,F,F,N, NONE,0,1, 0, "d,s,t") \
    OP(FCVT_W_S,  "fcvt.w.s",  FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_WU_S, "fcvt.wu.s", FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_L_S,  "fcvt.l.s",  FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_LU_S, "fcvt.lu.s", FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FMV_X_W,   "fmv.x.w",   FP_CVT,  X,F,N,N, NONE,0,0, 0, "d,s") \
    OP(FEQ_S,     "feq.s",     FP_ADD,  X,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FLT_S,     "flt.s",     FP_ADD,  X,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FLE_S,     "fle.s",     FP_ADD,  X,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FCLASS_S,  "fclass.s",  FP_CVT,  X,F,N,N, NONE,0,0, 0, "d,s") \
    OP(FCVT_S_W,  "fcvt.s.w",  FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_S_WU, "fcvt.s.wu", FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_S_L,  "fcvt.s.l",  FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_S_LU, "fcvt.s.lu", FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FMV_W_X,   "fmv.w.x",   FP_CVT,  F,X,N,N, NONE,0,0, 0, "d,s") \
    OP(FLD,       "fld",       LOAD,    F,X,N,N, LOAD,8,0, 0, "d,m") \
    OP(FSD,       "fsd",       STORE,   N,X,F,N, STORE,8,0, 0, "t,m") \
    OP(FMADD_D,   "fmadd.d",   FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FMSUB_D,   "fmsub.d",   FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FNMSUB_D,  "fnmsub.d",  FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FNMADD_D,  "fnmadd.d",  FP_FMA,  F,F,F,F, NONE,0,2, R, "d,s,t,u") \
    OP(FADD_D,    "fadd.d",    FP_ADD,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FSUB_D,    "fsub.d",    FP_ADD,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FMUL_D,    "fmul.d",    FP_MUL,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FDIV_D,    "fdiv.d",    FP_DIV,  F,F,F,N, NONE,0,1, R, "d,s,t") \
    OP(FSQRT_D,   "fsqrt.d",   FP_DIV,  F,F,N,N, NONE,0,1, R, "d,s") \
    OP(FSGNJ_D,   "fsgnj.d",   FP_ADD,  F,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FSGNJN_D,  "fsgnjn.d",  FP_ADD,  F,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FSGNJX_D,  "fsgnjx.d",  FP_ADD,  F,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FMIN_D,    "fmin.d",    FP_ADD,  F,F,F,N, NONE,0,1, 0, "d,s,t") \
    OP(FMAX_D,    "fmax.d",    FP_ADD,  F,F,F,N, NONE,0,1, 0, "d,s,t") \
    OP(FCVT_S_D,  "fcvt.s.d",  FP_CVT,  F,F,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_D_S,  "fcvt.d.s",  FP_CVT,  F,F,N,N, NONE,0,0, R, "d,s") \
    OP(FEQ_D,     "feq.d",     FP_ADD,  X,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FLT_D,     "flt.d",     FP_ADD,  X,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FLE_D,     "fle.d",     FP_ADD,  X,F,F,N, NONE,0,0, 0, "d,s,t") \
    OP(FCLASS_D,  "fclass.d",  FP_CVT,  X,F,N,N, NONE,0,0, 0, "d,s") \
    OP(FCVT_W_D,  "fcvt.w.d",  FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_WU_D, "fcvt.wu.d", FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_L_D,  "fcvt.l.d",  FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_LU_D, "fcvt.lu.d", FP_CVT,  X,F,N,N, NONE,0,0, R, "d,s") \
    OP(FMV_X_D,   "fmv.x.d",   FP_CVT,  X,F,N,N, NONE,0,0, 0, "d,s") \
    OP(FCVT_D_W,  "fcvt.d.w",  FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_D_WU, "fcvt.d.wu", FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_D_L,  "fcvt.d.l",  FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FCVT_D_LU, "fcvt.d.lu", FP_CVT,  F,X,N,N, NONE,0,0, R, "d,s") \
    OP(FMV_D_X,   "fmv.d.x",   FP_CVT,  F,X,N,N, NONE,0,0, 0, "d,s")

#define EDAN__RV_OP_ENUM(id, ...) EDAN_RV_OP_##id,
enum { EDAN__RV_OPS(EDAN__RV_OP_ENUM) EDAN_RV_OP_COUNT };

/* Text trace parser: opaque, about 270 KB (most of it a memo of the
   instruction texts a trace repeats). One per thread. */
typedef struct edan_rv_parser edan_rv_parser;

#define EDAN_RV_MAX_LINE 4096   /* longer lines are rejected */

/* A parser; alloc NULL: the default allocator (see BUILD). EDAN_ERR_NOMEM
   when it cannot be had (*out NULL). */
edan_result edan_rv_parser_create(edan_rv_parser **out, const edan_allocator *alloc);
void edan_rv_parser_destroy(edan_rv_parser *p);
/* Why the last line was rejected ("" if none): what is wrong, without the line. */
const char *edan_rv_error(const edan_rv_parser *p);

/* Parses one trace line (a trailing "\n" or "\r\n" is allowed). Accepted:
     lw a4,0(a5);0x40080290                       (EDAN paper)
     0;lw a4,0(a5);0x4000800210                   (cpu;insn;addr)
     0;0x104be;lw a4,0(a5);0x4000800210           (cpu;pc;insn;addr)
     00052703          lw      a4,0(a0)            (QEMU 7.2 disassembly,
     0x104be:  00052703   lw   a4,0(a0)            hex encoding first;
                                                   `# 0x...` comments ignored)
   and objdump's spelling of the operands. EDAN_OK: *out is filled (pc and
   EDAN_INSN_HAS_PC when the line has one; addr from the address column).
   EDAN_SKIP: blank or '#' comment. EDAN_ERR_PARSE / EDAN_ERR_UNKNOWN_OP:
   edan_rv_error(p) says what is wrong (without the line). length is 0: the text does
   not say whether the instruction was compressed. A failed sc.w/sc.d has no
   address column; it is then an instruction without memory access.
   Semantics (parser and decoder alike): op ids name base instructions
   (mv -> addi, ret -> jalr, frflags -> csrrs); sources are rs1, rs2, rs3,
   then a CSR read, without x0 and duplicates; destinations rd (unless x0),
   then a CSR write, as Zicsr says (csrrw reads the CSR only if rd != x0,
   csrrs/csrrc write it only if rs1 != x0). lr is a load, sc a store (and
   writes rd), AMOs are EDAN_MEM_AMO; all three are EDAN_CLASS_AMO. FP
   arithmetic does not read frm nor write fflags (only CSR instructions
   touch CSRs); ecall and fence have no register operands. */
edan_result edan_rv_parse_line(edan_rv_parser *p, const char *line, size_t len, edan_insn *out);

/* Decodes one RV64GC instruction from little-endian bytes (avail >= 2; 4 for
   a 32-bit instruction): op, registers, class, memory kind, size, length.
   addr, pc and flags are zero (the caller knows them). Compressed encodings
   give their base instruction's op. EDAN_ERR_UNKNOWN_OP for reserved,
   illegal or non-RV64GC encodings, EDAN_ERR_PARSE if avail is too short. */
edan_result edan_rv_decode(const uint8_t *bytes, size_t avail, edan_insn *out);
/* Builds the instruction of `op` from its register fields (0 .. 31), as
   edan_rv_decode and edan_rv_parse_line do: x0 dropped, the CSR `csr`
   (0 .. 4095) read and written as Zicsr says (zimm, 0 .. 31: the
   immediate of csrr*i), EDAN_INSN_STACK on a load or store based on sp;
   the fields the op does not have are ignored. It fills op, registers,
   class, memory kind and size, and zeroes the rest. For a front-end that
   decodes the fields itself. EDAN_ERR_INVALID_ARG for an op or field out
   of range. */
edan_result edan_rv_make(uint32_t op, unsigned rd, unsigned rs1, unsigned rs2, unsigned rs3,
                         unsigned csr, unsigned zimm, edan_insn *out);

const char *edan_rv_op_name(uint32_t op);   /* NULL if op >= EDAN_RV_OP_COUNT */
unsigned edan_rv_op_flops(uint32_t op);     /* fadd/fmul/fdiv/fsqrt/fmin/fmax 1, fma 2, else 0 */

/* ------------------------------------------------------------------------ */
/* Hardware profiles                                                        */
/* ------------------------------------------------------------------------ */
#endif /* EDAN_NO_RISCV */

#ifndef EDAN_NO_PROFILE   /* the JSON reader, hardware profiles and the hybrid model */
/* ---- JSON reader: declarations ---- */
/* A small read-only JSON DOM (RFC 8259), what the profile loader reads a
   profile with: parse a text into a tree, walk it read-only.
   Numbers are finite doubles (one beyond a double's range is an error);
   strings are UTF-8 (\u escapes decoded) and may not hold NUL; an object's
   keys are distinct (a duplicate is an error) and keep the text's order;
   nesting is bounded by EDAN_JSON_MAX_DEPTH (a program may define it
   before the include). Lookups on a value of the wrong kind (or NULL)
   return the empty answer, so chains like
   edan_json_number(edan_json_get(root, "a"), 0) never crash. A value
   belongs to its tree: valid until edan_json_free of its root. */
#ifndef EDAN_JSON_MAX_DEPTH
#define EDAN_JSON_MAX_DEPTH 200
#endif
typedef struct edan_json edan_json;
typedef enum edan_json_type {
    EDAN_JSON_NULL, EDAN_JSON_BOOL, EDAN_JSON_NUMBER, EDAN_JSON_STRING,
    EDAN_JSON_ARRAY, EDAN_JSON_OBJECT
} edan_json_type;

/* Parses text[0..len) (no NUL needed). On error *out is NULL and err holds
   "line N: what is wrong" (EDAN_ERR_PARSE, EDAN_ERR_LIMIT for too deep,
   EDAN_ERR_NOMEM). alloc may be NULL (EDAN_MALLOC/EDAN_FREE). */
edan_result edan_json_parse(const char *text, size_t len, const edan_allocator *alloc,
                            edan_json **out, char *err, size_t errlen);
void edan_json_free(edan_json *root);
edan_json_type edan_json_kind(const edan_json *v);                 /* EDAN_JSON_NULL for NULL */
const edan_json *edan_json_get(const edan_json *obj, const char *key);  /* NULL if absent (keys are unique) */
const edan_json *edan_json_at(const edan_json *arr, size_t i);     /* NULL if out of range */
size_t edan_json_len(const edan_json *v);                          /* array/object size, else 0 */
const char *edan_json_key_at(const edan_json *obj, size_t i);      /* NULL if out of range */
const edan_json *edan_json_value_at(const edan_json *obj, size_t i);    /* i-th member's value */
double edan_json_number(const edan_json *v, double dflt);
const char *edan_json_string(const edan_json *v, const char *dflt);
int edan_json_bool(const edan_json *v, int dflt);
/* The 1-based line of the text where the value starts (0 for NULL). */
unsigned long edan_json_line(const edan_json *v);

/* The rest of stream f, NUL-terminated, in memory from alloc (NULL:
   EDAN_MALLOC, free it with EDAN_FREE); *len without the NUL. At most max
   bytes: EDAN_ERR_LIMIT beyond, EDAN_ERR_IO on a read error (errno says
   why), EDAN_ERR_NOMEM; then *out is NULL. How the profile loader reads
   its file: a text for edan_json_parse. */
edan_result edan_read_stream(FILE *f, size_t max, const edan_allocator *alloc, char **out, size_t *len);

/* ---- hardware profiles: declarations ---- */
/* Hardware profiles written by `probe` (schema "edan-hwprofile", see
   hwprofiles/README.md). edan_profile_load reads and checks one; the
   analyzer's inputs are one call away: edan_profile_to_config fills an
   edan_config (cache levels, alpha = DRAM latency in core cycles, clock),
   and mlp_m is the m of the model; the bandwidths, latencies, compute
   peaks and CARM roofs are typed below, and edan_hybrid_from_profile reads
   the hybrid memory model. What else the file holds (topology, the NUMA
   roofs) is read with the JSON reader: edan_profile_json. */
#define EDAN_PROFILE_VERSION 1      /* the newest profile version this header reads */
#define EDAN_PROFILE_SCHEMA "edan-hwprofile"    /* a profile's "schema" */

typedef struct edan_profile_cache {
    char level[8];              /* "L1", "L2", "L3" */
    uint64_t size;              /* bytes of one instance, as reported (hwloc) */
    uint64_t effective_size;    /* bytes the probe found usable (latency sweep); = size when plausible */
    uint32_t assoc;             /* ways; 0 = fully associative or unknown */
    uint32_t line;              /* bytes */
    uint32_t sharing;           /* cores sharing one instance (effective) */
    double latency_ns, latency_cycles;     /* load-to-use, pointer chase; core cycles */
} edan_profile_cache;

typedef struct edan_profile_bandwidth {
    char level[8];              /* "L1", "L2", "L3", "DRAM" */
    char op[16];                /* "load", "store", "store_nt", "2:1", "1:1" (loads:stores) */
    uint32_t threads;
    uint64_t bytes;             /* working set per thread */
    double median, min, max;    /* GB/s, all threads together */
} edan_profile_bandwidth;

typedef struct edan_profile_latency {
    char level[8];
    uint64_t bytes;
    double ns, cycles;          /* cycles of the measured core clock */
} edan_profile_latency;

typedef struct edan_profile_compute {
    char isa[16];               /* "scalar", "sse", "avx2", "avx512" */
    char op[8];                 /* "fma", "add", "mul" */
    uint32_t threads;
    double median, min, max;    /* GFLOP/s (an FMA is 2 flops) */
} edan_profile_compute;

typedef struct edan_profile_carm {
    char level[8];
    double roof_GBps, peak_GFLOPs;
    double rms_error_pct;       /* the validation points against the roof */
} edan_profile_carm;

typedef struct edan_profile {
    int version;
    char host[64];
    double core_ghz;            /* measured core clock (median) */
    double tsc_ghz;
    uint32_t num_caches;
    edan_profile_cache cache[EDAN_MAX_LEVELS];      /* L1 first */
    double dram_latency_ns;
    double dram_latency_cycles; /* alpha */
    uint32_t mlp_m;             /* m: smallest k of interleaved chases within 90% of the best */
    uint32_t window_rob, window_lq, window_sq, window_width;   /* the core's window ("window"; 0: not measured) */
    int write_allocate_counted; /* 0: store bandwidths count only the stored bytes */
    int counters_available;
    double peak_GFLOPs_1core, peak_GFLOPs_all;      /* best compute medians (0 if absent) */
    uint32_t cores;
    uint32_t num_checks;        /* probe's checks against the machine's limits ("checks"; 0: none) */
    uint32_t checks_failed;     /* of them, those that still failed after their re-measurements */
    uint32_t unstable_figures;  /* figures that stayed unstable ("stability") */
    size_t num_bandwidth, num_latency, num_compute, num_carm;
    edan_profile_bandwidth *bandwidth;
    edan_profile_latency *latency;
    edan_profile_compute *compute;
    edan_profile_carm *carm;
    edan_json *json;            /* the parsed document (edan_profile_json) */
    edan_allocator alloc;
} edan_profile;

/* Reads and checks `path`. On error *out is NULL and err holds
   "path:line: what is wrong": EDAN_ERR_IO (unreadable), EDAN_ERR_PARSE
   (malformed, truncated, a field missing or of the wrong kind, an
   inconsistent value), EDAN_ERR_VERSION (another "schema" or a "version"
   newer than EDAN_PROFILE_VERSION). alloc may be NULL. */
edan_result edan_profile_load(const char *path, const edan_allocator *alloc, edan_profile **out,
                              char *err, size_t errlen);
/* The same from memory; `name` stands for the path in messages. */
edan_result edan_profile_parse(const char *text, size_t len, const char *name, const edan_allocator *alloc,
                               edan_profile **out, char *err, size_t errlen);
void edan_profile_free(edan_profile *p);
/* Fills cfg->num_levels/level[] (size rounded down to assoc x 2^k sets x
   line, from the effective size), cfg->alpha (DRAM latency in core cycles,
   rounded), cfg->freq_ghz and, when the profile measured the window, its
   window, lq, sq and width (0: the default); leaves every other field as
   it was. */
edan_result edan_profile_to_config(const edan_profile *p, edan_config *cfg);
/* Median GB/s of (level, op, threads); 0 if the profile has no such entry. */
double edan_profile_bandwidth_of(const edan_profile *p, const char *level, const char *op, uint32_t threads);
/* The level's roof: its best median GB/s over its ops at `threads`; 0 if
   none. */
double edan_profile_roof(const edan_profile *p, const char *level, uint32_t threads);
/* The parsed document of a loaded profile (NULL for NULL), read with
   edan_json_*: the sections edan_profile does not type (topology, the NUMA
   roofs, probe's checks). It lives as long as p. */
const edan_json *edan_profile_json(const edan_profile *p);
/* Two of the checks edan_profile_parse makes, on a parsed document: for the
   files it refuses, the reference profiles (roofs transcribed from a
   paper). _version: "schema" and "version" (an integer from 1 to
   EDAN_PROFILE_VERSION, stored in *version when not NULL); EDAN_OK or
   EDAN_ERR_VERSION. _numa: the "numa" section; EDAN_OK or EDAN_ERR_PARSE.
   On error err holds "NAME:LINE: what is wrong" (name NULL: "profile"). */
edan_result edan_profile_check_version(const edan_json *profile, const char *name, int *version,
                                       char *err, size_t errlen);
edan_result edan_profile_check_numa(const edan_json *profile, const char *name, char *err, size_t errlen);

/* ---- hybrid fast/slow memory model: declarations ---- */
/* The hybrid bandwidth model of Denoyelle et al. (TPDS 2019, section 6.4):
   a kernel loads and stores given quantities in a fast and a slow memory;
   each transfer alone takes t = q / b. The time lies between t_min (Eq. 3,
   all transfers overlap) and t_max (Eq. 4, none does); the fitted time
   (Eq. 5) is the dominating transfer's time plus the non-overlapped share
   theta of every other one. Pure functions: no allocation, no state. */
typedef enum edan_hybrid_transfer {
    EDAN_HYBRID_LF = 0,     /* loads from the fast memory */
    EDAN_HYBRID_LS,         /* loads from the slow memory */
    EDAN_HYBRID_SF,         /* stores to the fast memory */
    EDAN_HYBRID_SS,         /* stores to the slow memory */
    EDAN_HYBRID_COUNT
} edan_hybrid_transfer;

typedef struct edan_hybrid_model {
    /* b_lf, b_ls, b_sf, b_ss in one unit of your choice (GB/s in profiles);
       a bandwidth may be 0 (unknown) when its quantity is always 0 */
    double bw[EDAN_HYBRID_COUNT];
    /* theta[d][x]: the share of transfer x that is not overlapped when
       transfer d dominates (the paper's theta_d^x); the diagonal is unused */
    double theta[EDAN_HYBRID_COUNT][EDAN_HYBRID_COUNT];
} edan_hybrid_model;

typedef struct edan_hybrid_times {
    double t[EDAN_HYBRID_COUNT];    /* q / b of each transfer (0 when q = 0) */
    double t_min;                   /* Eq. (3): the largest t */
    double t_max;                   /* Eq. (4): the sum of the t */
    double t_fit;                   /* Eq. (5) */
    edan_hybrid_transfer dominant;  /* the largest t; on ties the first of lf, ls, sf, ss */
} edan_hybrid_times;

typedef struct edan_hybrid_roof {
    double bytes;           /* q_lf + q_ls + q_sf + q_ss */
    double bw_fit;          /* bytes / t_fit: the hybrid roof */
    double bw_upper;        /* bytes / t_min: every transfer overlapped */
    double bw_lower;        /* bytes / t_max: transfers one after another */
} edan_hybrid_roof;

/* q[EDAN_HYBRID_*]: quantities (bytes, or GB with bandwidths in GB/s), each
   >= 0, not all 0. EDAN_ERR_INVALID_ARG for a negative or non-finite
   quantity, a transfer with q > 0 and no positive bandwidth, or a
   non-finite theta that the evaluation needs. */
edan_result edan_hybrid_times_of(const edan_hybrid_model *m, const double q[EDAN_HYBRID_COUNT],
                                 edan_hybrid_times *out);
/* The hybrid roof bandwidth (in the unit of q per unit of time of bw).
   EDAN_ERR_INVALID_ARG also when t_fit <= 0, which negative theta allow. */
edan_result edan_hybrid_bandwidth(const edan_hybrid_model *m, const double q[EDAN_HYBRID_COUNT],
                                  edan_hybrid_roof *out);
/* The model error of the paper's footnote 10 over n measurements:
   100/n * sqrt(sum(((y_i - yhat_i) / yhat_i)^2)) percent, y_i the measured
   bandwidth of quantities q[i], yhat_i the model's. */
edan_result edan_hybrid_error(const edan_hybrid_model *m, size_t n, const double (*q)[EDAN_HYBRID_COUNT],
                              const double *measured_bw, double *error_pct);
/* Fits the twelve theta of m (m->bw given) to n measurements by linear
   least squares on the time, Eq. (5): each measurement belongs to its
   dominating transfer d, and t_measured - t_d = sum theta[d][x] * t_x.
   A theta whose transfer pair never occurs in the measurements (or cannot
   be separated from another) is set to NaN: undetermined. */
edan_result edan_hybrid_fit(edan_hybrid_model *m, size_t n, const double (*q)[EDAN_HYBRID_COUNT],
                            const double *measured_bw);
/* Fills *out from a loaded profile: the entry of numa.hybrid whose
   "cluster" is `cluster` (-1: the first entry), with bandwidth_GBps
   {lf, ls, sf, ss} (GB/s; null = unknown, stored as 0) and theta
   {d: {x: ...}} (null = undetermined, stored as NaN). On error err holds
   "line N: what is wrong": EDAN_ERR_INVALID_ARG when the profile has no
   such model, EDAN_ERR_PARSE when a field has the wrong form. */
edan_result edan_hybrid_from_profile(const edan_profile *p, int cluster, edan_hybrid_model *out,
                                     char *err, size_t errlen);
/* The same of a parsed document: also the reference profiles, which
   edan_profile_load refuses. */
edan_result edan_hybrid_from_json(const edan_json *profile, int cluster, edan_hybrid_model *out,
                                  char *err, size_t errlen);

#endif /* EDAN_NO_PROFILE */

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

/* options.jobs: POSIX threads, when the file that defines
   EDAN_IMPLEMENTATION asks for POSIX (_POSIX_C_SOURCE) and does not
   define EDAN_NO_THREADS. */
#if !defined(EDAN_NO_THREADS) && defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200112L && \
    (defined(__GNUC__) || defined(__clang__))
#define EDAN__THREADS 1
#include <pthread.h>
#include <signal.h>
#else
#define EDAN__THREADS 0
#endif

/* The allocator: the three macros together or none (half of them would
   free with one allocator what another allocated), as stb_ds asks. */
#if defined(EDAN_MALLOC) && defined(EDAN_REALLOC) && defined(EDAN_FREE)
#elif !defined(EDAN_MALLOC) && !defined(EDAN_REALLOC) && !defined(EDAN_FREE)
#define EDAN_MALLOC(sz, user) ((void)(user), malloc(sz))
#define EDAN_REALLOC(p, sz, user) ((void)(user), realloc((p), (sz)))
#define EDAN_FREE(p, user) ((void)(user), free(p))
#ifndef EDAN_CALLOC
/* zeroed memory the system maps as it is touched: a cache model of
   gigabytes costs the sets a program uses */
#define EDAN_CALLOC(sz, user) ((void)(user), calloc(1, (sz)))
#endif
#else
#error "edan.h: define EDAN_MALLOC, EDAN_REALLOC and EDAN_FREE together, or none of them"
#endif

/* ---- engine: implementation ---- */
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
    void *p;
#ifdef EDAN_CALLOC
    if (!a->alloc) return EDAN_CALLOC(n ? n : 1, a->user);
#endif
    p = edan__alloc(a, n ? n : 1);
    if (p) memset(p, 0, n ? n : 1);
    return p;
}
/* Zeroed memory in cache lines of its own (64 bytes kept free on either
   side): what an engine thread (options.jobs) reads or writes at every
   step, so that the caller's thread, writing its neighbours, does not
   take the line from it each time. Freed by edan__free_apart. */
static void *edan__calloc_apart(const edan_allocator *a, size_t n)
{
    unsigned char *p = (unsigned char *)edan__calloc(a, n + 128);
    return p ? p + 64 : NULL;
}
static void edan__free_apart(const edan_allocator *a, void *p)
{
    if (p) edan__free(a, (unsigned char *)p - 64);
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
/* Memory values are tracked per byte, stored per 8-byte word: each page
   (2^EDAN__CHUNK_BITS bytes) written holds an entry per word written, in a
   small table while few are (a sparse page) and in a chunk of one entry per
   word of the page once many are (a dense page; see "shadow memory"). A
   word that one store wrote whole keeps that writer in its entry: vertex id,
   and per configuration the finish time F and memory depth md. A word that
   stores wrote in parts is "split": its entry names 8 store records, one per
   byte (EDAN__WSPLIT and the split's index in place of the vertex id). Words
   are 8 bytes because most accesses are aligned doubles and pointers: a load
   of one reads one entry, a store of one writes it, with nothing shared to
   count. A store record (one per store that wrote part of a word) holds the
   writer as an entry does; its reference count is the split bytes naming it,
   and it is freed at zero, so the state is bounded by the bytes written, not
   by the trace length. */
#if defined(__GNUC__) || defined(__clang__)
#define EDAN__INLINE inline __attribute__((always_inline))
#define EDAN__NOINLINE __attribute__((noinline))
#define EDAN__LIKELY(x) __builtin_expect(!!(x), 1)
#define EDAN__PREFETCH(p) __builtin_prefetch(p)
#else
#define EDAN__INLINE inline
#define EDAN__NOINLINE
#define EDAN__LIKELY(x) (x)
#define EDAN__PREFETCH(p) ((void)(p))
#endif
#define EDAN__NO_THREAD 0xffffffffu        /* no thread is running: the one fed exited */
#define EDAN__CHUNK_BITS 12
#define EDAN__CHUNK (1u << EDAN__CHUNK_BITS)
#define EDAN__CHUNK_WORDS (EDAN__CHUNK >> 3)
#define EDAN__SPLIT 0x80000000u                /* splits: fewer than this; edan__split_new's failure */
#define EDAN__WSPLIT ((uint64_t)1 << 63)       /* a word entry's head: split, not a vertex id */
/* A word entry: uint64 head (0: never written; vertex id; or EDAN__WSPLIT |
   split index), then F[K] (uint64) and md[K] (uint32) of a whole-word writer. */
#define EDAN__WORD_BYTES(K) ((8 + 12 * (size_t)(K) + 7) & ~(size_t)7)
#define EDAN__WORD(ch, w, K) ((uint64_t *)((ch) + (size_t)((w) & (EDAN__CHUNK_WORDS - 1)) * EDAN__WORD_BYTES(K)))
/* Slots of the recently used pages (ctx->near_*, by page number): the
   pages of a 16 MB footprint, so that a kernel walking a matrix's column,
   a page an access, finds each in one look (with 256 slots, gemm 400's
   column of 313 pages took 1.11x the time). */
#define EDAN__NEAR 4096
#define EDAN__CHUNK_BYTES(K) (EDAN__CHUNK_WORDS * EDAN__WORD_BYTES(K))
/* A sparse page: its header, then idx[cap] (each slot's word in the page + 1;
   0: empty) padded to 8 bytes, then cap word entries. */
typedef struct edan__sparse { uint16_t n, cap, lo, hi; } edan__sparse;  /* hi, lo: the words written, at most, at least */
#define EDAN__SP_IDX(sp) ((uint16_t *)((sp) + 1))
#define EDAN__SP_IDX_BYTES(cap) (((size_t)(cap) * 2 + 7) & ~(size_t)7)
#define EDAN__SP_ENT(sp, j, K) \
    ((uint64_t *)((unsigned char *)((sp) + 1) + EDAN__SP_IDX_BYTES((sp)->cap) + (size_t)(j) * EDAN__WORD_BYTES(K)))
#define EDAN__SP_BYTES(cap, K) (sizeof(edan__sparse) + EDAN__SP_IDX_BYTES(cap) + (size_t)(cap) * EDAN__WORD_BYTES(K))
#define EDAN__SP_MAX 256                        /* a sparse page's largest table */
#define EDAN__PG_DENSE ((uint64_t)1 << 63)      /* a page table key's flag: the page is a chunk */

/* A line's filler: the memory access vertex whose miss brought it from RAM
   (vid 0: none), its F and md in the line's configuration. */
typedef struct edan__filler { uint64_t vid, F; uint32_t md; } edan__filler;

typedef struct edan__level {
    uint64_t *tags;         /* sets * assoc; line number + 1, 0 = empty */
    uint64_t *stamp;        /* per way, its last use (clock; 0 = never) x 2 + its dirty bit */
    edan__filler *fill;     /* per way; NULL under the paper's rule */
    uint32_t *mru;          /* per set, the way used last */
    uint64_t clock;
    uint32_t sets, assoc, line_shift, latency;
    int pow2;               /* sets is a power of two: a line's set is its low bits */
} edan__level;

typedef struct edan__hot {
    uint64_t key;           /* key + 1; 0 = empty slot */
    uint32_t op, has_pc;
    uint64_t executed, mem, chained, max_md;
    uint64_t served[EDAN_MAX_LEVELS];
} edan__hot;

typedef struct edan__dotv {
    edan_insn in;
    uint64_t fwd;           /* a forwarded load's store (0: none) */
} edan__dotv;

/* The layer histogram W_1..W_D of a configuration, about a byte per layer
   (the functions, in their own section below, say how). */
#define EDAN__LPAGE_BITS 12
#define EDAN__LPAGE ((size_t)1 << EDAN__LPAGE_BITS)
#define EDAN__LBIG 255u                     /* a layer's byte: 255 = its count is in the big table */
#define EDAN__LRECENT 1024u                 /* counters of big layers' recent vertices (a power of 2) */
#define EDAN__TRACK (EDAN_MAX_M + 8)        /* m's not powers of 2 whose sums are kept: opts.m and 8 asked */
typedef struct edan__lbig { uint32_t layer, lo, hi; } edan__lbig;  /* count lo + 2^32 hi; layer 0: empty */
typedef struct edan__lpage { uint8_t *b; uint8_t fill; } edan__lpage;     /* b NULL: every byte is fill */
typedef struct edan__lrecent { uint64_t n; uint32_t layer; } edan__lrecent;   /* layer 0: none */
typedef struct edan__layers {
    edan__lpage *page; size_t npage, page_cap, uniform;     /* pages made, room for, without bytes */
    uint8_t **spare; size_t nspare, spare_cap;              /* bytes for pages that get theirs back */
    uint32_t D;
    uint64_t n[EDAN__LBIG];                 /* n[c]: layers of c vertices, c = 1..254 (n[0] is not read) */
    edan__lbig *big; size_t big_cap, big_used;
    edan__lrecent recent[EDAN__LRECENT];    /* [i mod EDAN__LRECENT]: big layer i, the vertices its count lacks */
    uint64_t big_by_tz[64];                 /* big_by_tz[t]: big layers' increments from a count with t trailing zeros */
    uint32_t ntracked, nfixed, tracked_next;    /* m's kept: opts.m's first (nfixed), then asked ones */
    uint32_t tracked_m[EDAN__TRACK];
    uint64_t tracked_big[EDAN__TRACK];      /* sum of ceil(W_i / m) over the big layers */
} edan__layers;
static void edan__layers_init(edan__layers *L, const uint32_t *m, uint32_t num_m);
static void edan__layers_free(const edan_allocator *a, edan__layers *L);

typedef struct edan__cfg {
    /* the schedules' thread reads these and c at every block: nothing
       the caller's thread writes as it runs shares their cache lines */
    uint32_t win;           /* its windowed schedules: ctx->wnm from wfirst on (0: none) */
    uint32_t wfirst;
    edan_config c;          /* defaults filled in */
    edan__level lv[EDAN_MAX_LEVELS];
    uint32_t line_shift_last;
    uint64_t W, C, T1, Tinf, bytes, chained, ram_lines, writebacks;
    uint64_t fill_edges;    /* fill edges that are not also register or memory edges */
    uint64_t level_hits[EDAN_MAX_LEVELS];
    uint32_t served;        /* the last access vertex: 1 + the slowest level that served it, 0 none */
    /* the current thread's share since it was switched to: the counts
       then, and the largest md of its memory vertices since */
    uint64_t thr_W0, thr_C0, thr_ch0;
    uint32_t thr_md;
    int64_t *tl_diff; size_t tl_cap;    /* difference array of U_i */
    uint64_t *tl_bins; size_t tl_bins_cap;
    edan__hot *hot; size_t hot_cap, hot_used;
    /* dot recording, per config (fill edges differ between caches) */
    uint8_t *dot_mem; uint64_t *dot_best; uint64_t *dot_F; uint32_t *dot_md;
    uint64_t (*dot_fe)[2]; size_t dot_fe_n, dot_fe_cap;
    /* the streamed chain (ctx->chn): the fill edges of the vertex being fed
       (filler id, its md), and the first memory vertex of the largest md */
    uint64_t (*chn_f)[2]; size_t chn_nf, chn_fcap;
    uint64_t chn_end; uint32_t chn_endmd;
    edan__layers lay;       /* last: its 19 KB would part the fields every vertex reads */
} edan__cfg;

/* The windowed schedule (edan-model, "The windowed schedule"). A time is
   v cycles at the configuration's alpha of which k are RAM latencies
   (v = c + k alpha): a maximum takes the larger v and on a tie the larger
   k, so the k of the last retirement is the exact slope of T_window
   against alpha. Packed (ctx->wpk, from the start), the field v holds
   v << wkb | k and the field k is not kept: one integer, whose order is
   that order so long as every k is below 2^wkb and every v below
   2^(64 - wkb). The context checks before each block or vertex that it
   stays so (edan__win_room) and otherwise widens every time to the pair
   for good (edan__win_widen). The two give the same schedule. */
typedef struct edan__wt { uint64_t v, k; } edan__wt;
/* A vertex in the window: its finish as its successors see it (a store's:
   its start + 1), its start (what a load it forwards to takes), its
   retirement. */
typedef struct edan__went { edan__wt F, S, ret; } edan__went;
/* One schedule: a thread's window in one configuration at one m. */
typedef struct edan__win {
    edan__went *ring;       /* [i mod R]: vertex i, for its last R vertices */
    edan__wt *disp;         /* [i mod width]: vertex i's dispatch */
    edan__wt *lq, *sq;      /* [j mod LQ]: load j's retirement; [j mod SQ]: store j's drain */
    edan__wt *slot;         /* the m memory slots' free times, ascending, at slot[sh ..]: they slide
                               up a buffer of EDAN__WSLOTS(m), so that taking the first slot for a
                               time later than all is no move (a throughput-bound kernel's case) */
    edan__wt last;          /* ... of its last vertex */
    uint64_t alpha, one;    /* alpha and a cycle as its times hold them: shifted left tsh (the packed
                               times' wkb, else 0), as is cost */
    uint32_t tsh;
    uint32_t R, LQ, SQ, m;
    uint32_t width;         /* vertices dispatched a cycle */
    uint32_t ri, li, si;    /* the next vertex's, load's, store's places: n mod R, ... */
    uint32_t sh;            /* the slots' place in slot[] */
    uint32_t di;            /* n mod width (not beside ri: a pass keeps both in registers, not paired
                               in one vector register to store them together) */
    uint64_t cost[EDAN_CLASS_COUNT];    /* its configuration's (a copy in the schedules' own lines) */
} edan__win;
/* A thread's schedules, one per configuration with a window and m. Only
   its last R vertices are kept: an older one retired before the thread
   dispatched its next, so its finish can no longer delay the thread (and
   bounds what another thread reads from it: edan__win_at). */
/* What a compiled block's memory step found for the schedule (with a
   cache): its cost t when the cache served it (a hit latency: 1 at
   least), 0 when it is a memory access vertex; the filler of the one line
   it touched (0: none), in two halves, so that a step's find takes 12
   bytes of the record handed to the schedules' thread, not 24. */
typedef struct edan__wcap { uint32_t t, fill[2]; } edan__wcap;
static EDAN__INLINE uint64_t edan__wcap_fill(const edan__wcap *c)
{
    return (uint64_t)c->fill[0] | (uint64_t)c->fill[1] << 32;
}
static EDAN__INLINE void edan__wcap_set(edan__wcap *c, int is_mem, uint64_t t, uint64_t fill)
{
    c->t = is_mem ? 0 : (uint32_t)t;    /* a hit latency */
    c->fill[0] = (uint32_t)fill;
    c->fill[1] = (uint32_t)(fill >> 32);
}
/* A load's entry of an execution's wmem: the store that forwards to it,
   with this bit, else its word's writer (0: none). */
#define EDAN__WMEM_FW ((uint64_t)1 << 63)
typedef struct edan__wthr {
    uint64_t n;             /* its vertices */
    edan__win *s;           /* ctx->wn schedules */
    int gone;               /* exited: only fin is kept, each of its vertices has left */
    edan__wt *fin;          /* exited: each schedule's last retirement */
} edan__wthr;

/* Store-to-load forwarding's state of a thread (edan-model, "Store-to-load
   forwarding"): its last S store vertices (a ring, the newest before
   head) and its stack-slot stores (an open-addressing table of cap slots
   by vertex id, 0 empty; the stores that no byte names as its writer any
   more go when it would grow: it is bounded by the stack). An entry: the
   store's vertex id, its first byte and size (addr * 128 + size), and per
   configuration its start S and the memory depth there (its own access
   not counted, nor fillers that join at its end), what a load it forwards
   to takes. */
typedef struct edan__fwd {
    unsigned char *ring;
    uint64_t lo;            /* the ring's oldest store's vertex id (n > 0) */
    uint32_t head, n;
    unsigned char *stack;
    uint32_t cap, used;
} edan__fwd;
#define EDAN__FW_BYTES(K) ((16 + 12 * (size_t)(K) + 7) & ~(size_t)7)
#define EDAN__FW_VID(e) (((uint64_t *)(e))[0])
#define EDAN__FW_AT(e) (((uint64_t *)(e))[1])
#define EDAN__FW_S(e) ((uint64_t *)(e) + 2)
#define EDAN__FW_MD(e, K) ((uint32_t *)((uint64_t *)(e) + 2 + (K)))

/* A thread (edan_thread_*): its registers while another runs, and its
   share of the counts. */
typedef struct edan__thread {
    int state;              /* 0: id unused; 1: live; 2: exited */
    uint64_t *regs;         /* saved registers: vid[R], F[R * K], then md[R * K] (uint32) */
    uint64_t **sig;         /* its register writers at each signal delivered and not yet returned from
                               (edan_signal_*), oldest first; sig[nsig ..] kept for the next ones */
    uint32_t nsig, sig_alloc;
    edan__fwd fw;           /* its forwarding state while another runs (the running one's: ctx->fw) */
    uint64_t N, cross;
    uint64_t first;         /* N + 1 at its creation: its own vertices' ids are at least this */
    uint64_t *cnt;          /* per configuration: W, C, chained, D */
} edan__thread;

/* Every thread's state in one place (edan_thread_*): t[i] for each id
   used; the current one's registers are the context's, the others' saved
   in theirs. The feeding paths read seg_start and first only. */
typedef struct edan__threads {
    edan__thread *t; uint32_t n, cap, cur;     /* cur EDAN__NO_THREAD: the one fed exited */
    uint64_t N0;            /* N when the current thread was switched to */
    /* cross-thread edges: the vertex ids each thread's stretch began at,
       seg[i] = {first id, thread, the thread's vertices before it (its
       schedules' n: a stretch's ids are consecutive, so that a vertex's
       place among its thread's is a sum)}; a predecessor before seg_start
       (0: one thread so far) may be another thread's. cross: such edges,
       cross0 at the current thread's switch */
    uint64_t (*seg)[3]; size_t nseg, seg_cap, seg_hit;
    uint64_t seg_start, cross, cross0;
    uint64_t first;         /* the current thread's first vertex id, at least: a register writer
                               before it is its creator's (inherited), a cross-thread edge */
} edan__threads;

/* The shadow memory's allocations (pages, splits, records, their tables:
   edan__sh_take and the functions after it) counted against its limit. */
typedef struct edan__shadow_alloc {
    uint64_t bytes, limit;
    edan_result err;        /* why the last one failed (the text in the context's error) */
} edan__shadow_alloc;

/* A table of the streamed chain (edan_context's chn_m, chn_l). */
typedef struct edan__chtab { uint64_t *t; size_t cap, used; } edan__chtab;

struct edan_context {
    edan_result failed;         /* a feeding call's NOMEM or LIMIT: every later one returns it */
    edan_allocator a;
    char error[256];
    uint32_t K;             /* configurations */
    edan__cfg *cfg;
    uint32_t num_m, m[EDAN_MAX_M];
    uint32_t num_regs;
    uint64_t N, E;
    /* options.jobs >= 2K + 1's stand-in (edan__j_create): nothing reads its
       results, so a compiled block's execution is only counted
       (edan__standin_block) */
    int standin;
    /* instructions and bytes requested per edan_mem_kind (an AMO loads and stores) */
    uint64_t mem_count[4], mem_bytes[4];
    /* an instruction with two register targets was seen: two registers may
       then share a last writer (otherwise their writers are distinct) */
    int multi_dst;
    /* an instruction that writes memory and a register was seen: a register's
       writer may then have written a word too */
    int store_dst;
    /* registers: last writer, and its F / md per configuration */
    uint64_t *reg_vid;
    uint64_t *reg_F;        /* num_regs * K, then blocks' locals (K each) */
    uint32_t *reg_md;
    size_t reg_slots;       /* registers and blocks' locals in reg_F / reg_md, K entries each */
    /* store records */
    unsigned char *rec;     /* record r at rec + r * EDAN__REC_BYTES(K): edan__rec_head, F[K], md[K] */
    size_t rec_cap, rec_used;
    uint32_t *rec_free; size_t rec_free_n, rec_free_cap;
    /* shadow memory: open-addressing hash of page number + 1 (| EDAN__PG_DENSE)
       -> its chunk or its edan__sparse */
    uint64_t *ch_keys; unsigned char **ch_vals; size_t ch_cap, ch_used;
    uint32_t *split; size_t split_used, split_cap;      /* 8 record indices per split word */
    uint32_t *split_free; size_t split_free_n, split_free_cap;
    /* recently used pages: near_key[key % EDAN__NEAR] = key, with its chunk
       or its sparse table (neither: the page has no word written) */
    uint64_t near_key[EDAN__NEAR]; unsigned char *near_chunk[EDAN__NEAR]; edan__sparse *near_sparse[EDAN__NEAR];
    edan__shadow_alloc shadow;  /* the bytes of the shadow memory and the records, against its limit */
    uint64_t *op_count; size_t op_cap;
    uint32_t hotspots;
    int paper_cache;        /* the paper's cache rule: no fillers, w(v) = access size */
    size_t tl_max;          /* timeline bins per configuration, at most */
    uint64_t kill_epoch;    /* registers lost their writers this many times (blocks' live-in cache) */
    /* the critical chain, streamed (opts.chain): entries of EDAN__CHN_WORDS(K)
       words (vertex id + 1, pc, op | flags << 32, then per configuration
       cm, cp, memory vertex or not) in open-addressing tables, one of the
       memory access vertices (kept), one of the others (while live) */
    int chn;
    edan__chtab chn_m, chn_l;
    /* dot */
    uint32_t dot_max; int dot_overflow;
    edan__dotv *dot_v; size_t dot_v_cap;
    uint64_t (*dot_e)[2]; size_t dot_e_n, dot_e_cap;
    edan_block *blocks;     /* the blocks made for this context (their counts to add up) */
    /* instructions with several accesses (edan_feed_accesses): their
       predecessors and fillers, as many as their bytes need */
    struct edan__pred *multi_pred; uint64_t *multi_pv; size_t multi_pred_cap, multi_pv_cap;
    edan__filler *multi_fill; size_t multi_fill_cap;
    uint64_t *multi_fv; size_t multi_fv_cap;       /* their ids (the windowed schedule) */
    /* The schedules' thread (wq) reads th and the schedules' fields below
       at every block; the caller's thread writes neither as it runs
       blocks, and what it writes there (the forwarding's state) is
       a cache line apart from them (line_apart): else each block moves
       the line from one core to the other and back. */
    edan__threads th;       /* threads: whose registers, whose vertices */
    unsigned char line_apart0[64];
    /* store-to-load forwarding: the running thread's state, the store
       buffer's size (0: off), the loads forwarded */
    edan__fwd fw;
    uint32_t fw_S;
    uint64_t forwarded;
    unsigned char line_apart1[64];
    /* the windowed schedules: wn per thread, wnm per configuration with a
       window (at the m's wm), the largest window wR; each thread's (by
       id; wt[0] before threads), the running one's wcur (NULL: none) */
    uint32_t wn, wnm, wR, wm[EDAN_MAX_M];
    edan__wthr **wt; size_t wt_cap;
    edan__wthr *wcur;
    /* per stretch of th.seg that ended, each schedule's last retirement
       then (wseg[stretch * wn + j]; wseg_n stretches) */
    edan__wt *wseg; size_t wseg_cap, wseg_n;
    /* packed times (edan__wt): their k bits; the latest retirement in
       cycles of any thread so far; every v stays below wlim, and a vertex
       adds at most wgrow to the latest time (its largest cost) */
    int wpk;
    uint32_t wkb;
    uint64_t wtop, wlim, wgrow;
    unsigned char line_apart2[64];
    /* options.jobs: the other groups' contexts and threads, and the buffer
       that hands them the feeding calls (NULL: this context alone) */
    struct edan__jobs *jobs;
    /* options.jobs with one configuration: the thread its windowed
       schedules run on, a compiled block's execution at a time (NULL:
       they run on the caller's) */
    struct edan__wq *wq;
    uint64_t wq_cap;        /* ... its ring's bytes, made at the first block handed over (0: none) */
    /* ... the registers whose writer changed other than by a block handed
       over since the last one was (the thread keeps the registers'
       writers: these go to it before the next, edan__wq_regs); wreg_all:
       more than the list holds */
    edan_reg wreg_dirty[64]; uint32_t wreg_n; int wreg_all;
};

#if defined(__GNUC__) || defined(__clang__)
static edan_result edan__fail(edan_context *ctx, edan_result r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#endif
static edan_result edan__fail(edan_context *ctx, edan_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
    return r;
}

/* options.jobs (parallel configurations, below) */
static edan_context *edan__j_sub(const edan_context *ctx, uint32_t *config);
static uint32_t edan__j_num_configs(const edan_context *ctx);
static void edan__j_prep(edan_context *ctx, const edan_insn *in);
static void edan__j_stop(edan_context *ctx);
static edan_result edan__j_result(edan_context *ctx, const edan_context *sub, edan_result r);
#if EDAN__THREADS
#define EDAN__J_MIN_BUFFER ((uint64_t)64 << 10)     /* the least ring of options.jobs */
/* The bytes of a ring of at least `want` (0: dflt): a power of 2, 64 KiB at least. */
static uint64_t edan__ring_bytes(uint64_t want, uint64_t dflt)
{
    uint64_t cap = EDAN__J_MIN_BUFFER;
    while (cap < (want ? want : dflt)) cap *= 2;
    return cap;
}
/* An engine's thread: it takes no signal (the program's handlers, a
   tracer's, run elsewhere). 0 when it could not be made. */
static int edan__thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    int ok;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    ok = pthread_create(th, NULL, fn, arg) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}
/* A thread that has caught up with its ring polls it a while before it
   sleeps: the next hand-over is most often microseconds away, and waking a
   sleeper costs the handing thread a system call each time (when the
   reader keeps up, at every part handed over). The value at `at` once it
   is no longer v, or v after EDAN__SPIN polls. */
#define EDAN__SPIN 4096
static EDAN__INLINE uint64_t edan__spin_while(const uint64_t *at, uint64_t v)
{
    uint64_t x = v;
    uint32_t i;
    for (i = 0; i < EDAN__SPIN && x == v; i++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        x = __atomic_load_n(at, __ATOMIC_ACQUIRE);
    }
    return x;
}
static edan_result edan__j_create(edan_context **out, const edan_options *opts);
static void edan__wq_idle(edan_context *ctx);
static int edan__wq_count(edan_context *ctx);
static int edan__wq_vertex(edan_context *ctx, uint32_t k, uint64_t vid, int kind, int is_mem, uint64_t t,
                           const uint64_t *pv, uint32_t np, uint32_t nreg, uint64_t fwd, const uint64_t *fill,
                           uint32_t nfill, int fill_end);
static void edan__wq_stop(edan_context *ctx);
static void edan__wq_start(edan_context *ctx);
/* Before anything reads or changes the windowed schedules on the caller's
   thread: the blocks handed to their thread are done. */
#define EDAN__WQ_IDLE(ctx)                      \
    do {                                        \
        if ((ctx)->wq) edan__wq_idle(ctx);      \
    } while (0)
#else
#define EDAN__WQ_IDLE(ctx) ((void)0)
#endif

const char *edan_error(const edan_context *ctx) { return ctx ? ctx->error : "no context"; }
uint32_t edan_num_configs(const edan_context *ctx) { return edan__j_num_configs(ctx); }
const edan_config *edan_get_config(const edan_context *ctx, uint32_t config)
{
    const edan_context *sub = edan__j_sub(ctx, &config);
    if (sub) return edan_get_config(sub, config);
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
        if (i > 0 && L->line != g->c.level[0].line)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG,
                              "config %u: all levels must have the same line size", k);
        if (sets * L->assoc > ((uint64_t)1 << 28))
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "config %u: L%u is too large", k, i + 1);
        l->sets = (uint32_t)sets;
        l->pow2 = edan__is_pow2(sets);
        l->assoc = L->assoc;
        l->line_shift = edan__log2(L->line);
        l->latency = L->latency;
        l->tags = (uint64_t *)edan__calloc(&ctx->a, sets * L->assoc * sizeof(uint64_t));
        l->stamp = (uint64_t *)edan__calloc(&ctx->a, sets * L->assoc * sizeof(uint64_t));
        l->mru = (uint32_t *)edan__calloc(&ctx->a, sets * sizeof(uint32_t));
        if (!l->tags || !l->stamp || !l->mru)
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the cache model");
        if (!ctx->paper_cache) {
            l->fill = (edan__filler *)edan__calloc(&ctx->a, sets * L->assoc * sizeof(edan__filler));
            if (!l->fill)
                return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the cache model");
        }
    }
    if (!g->c.name) g->c.name = g->c.num_levels ? "cache" : "no cache";
    if (g->c.window != EDAN_WINDOW_OFF) {
        const char *bad = NULL;
        if (!g->c.window) g->c.window = EDAN_WINDOW_DEFAULT;
        if (!g->c.lq) g->c.lq = EDAN_QUEUE_DEFAULT;
        if (!g->c.sq) g->c.sq = EDAN_QUEUE_DEFAULT;
        if (!g->c.width) g->c.width = EDAN_WIDTH_DEFAULT;
        if (g->c.window > EDAN_WINDOW_MAX) bad = "window";
        else if (g->c.lq > EDAN_WINDOW_MAX) bad = "lq";
        else if (g->c.sq > EDAN_WINDOW_MAX) bad = "sq";
        else if (g->c.width > EDAN_WINDOW_MAX) bad = "width";
        if (bad)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "config %u: %s is more than %u (EDAN_WINDOW_OFF: no schedule)",
                              k, bad, (unsigned)EDAN_WINDOW_MAX);
        g->win = 1;
    }
    return EDAN_OK;
}

/* ---- the windowed schedule: its state ---------------------------------- */
/* Packed times (edan__wt) from the start: the k bits that keep them exact
   the longest (k is at most v / alpha: a RAM latency adds alpha to v and
   1 to k), the bound on v that keeps them so, and the most a vertex adds
   to the latest time (its largest cost). EDAN_WINDOW_PACK_LIMIT, for
   tests, lowers that bound, so that they are widened early. */
static void edan__win_pack(edan_context *ctx)
{
    uint64_t alpha = UINT64_MAX, grow = 1, lim, a, b;
    uint32_t k, c, l, kb;
    for (k = 0; k < ctx->K; k++) {
        const edan__cfg *g = &ctx->cfg[k];
        if (!g->win) continue;
        if (g->c.alpha < alpha) alpha = g->c.alpha;
        if (g->c.alpha > grow) grow = g->c.alpha;
        for (c = 0; c < EDAN_CLASS_COUNT; c++)
            if (g->c.cost[c] > grow) grow = g->c.cost[c];
        for (l = 0; l < EDAN_MAX_LEVELS; l++)
            if (g->lv[l].latency > grow) grow = g->lv[l].latency;
    }
    ctx->wlim = 0;
    for (kb = 1; kb < 63; kb++) {       /* v < 2^(64 - kb), k <= v / alpha < 2^kb */
        a = (uint64_t)1 << (64 - kb);
        b = alpha >> (64 - kb) ? UINT64_MAX : alpha << kb;
        lim = a < b ? a : b;
        if (lim > ctx->wlim) {
            ctx->wlim = lim;
            ctx->wkb = kb;
        }
    }
#ifdef EDAN_WINDOW_PACK_LIMIT
    if (ctx->wlim > (uint64_t)(EDAN_WINDOW_PACK_LIMIT)) ctx->wlim = (uint64_t)(EDAN_WINDOW_PACK_LIMIT);
#endif
    ctx->wgrow = grow;
    ctx->wtop = 0;
    ctx->wpk = 1;
}

/* Schedule s's constants as its times hold them (packed or not). */
static void edan__win_consts(const edan_context *ctx, const edan__cfg *g, edan__win *s)
{
    uint32_t c;
    s->tsh = ctx->wpk ? ctx->wkb : 0;
    s->alpha = (uint64_t)g->c.alpha << s->tsh;
    s->one = (uint64_t)1 << s->tsh;
    for (c = 0; c < EDAN_CLASS_COUNT; c++) s->cost[c] = (uint64_t)g->c.cost[c] << s->tsh;
}

/* A thread's schedules in one block: the edan__win's, then each
   schedule's rings and slots. NULL when out of memory. */
#define EDAN__WSLOTS(m) (4 * (size_t)(m))
static edan__wthr *edan__wthr_new(edan_context *ctx)
{
    size_t bytes = sizeof(edan__wthr) + ctx->wn * sizeof(edan__win), off;
    uint32_t k, j, n = 0;
    unsigned char *b;
    edan__wthr *w;
    for (k = 0; k < ctx->K; k++) {
        const edan__cfg *g = &ctx->cfg[k];
        if (!g->win) continue;
        for (j = 0; j < ctx->wnm; j++)
            bytes += g->c.window * sizeof(edan__went) +
                     ((size_t)g->c.width + g->c.lq + g->c.sq + EDAN__WSLOTS(ctx->wm[j])) * sizeof(edan__wt);
    }
    if (!(b = (unsigned char *)edan__calloc_apart(&ctx->a, bytes))) return NULL;
    w = (edan__wthr *)b;
    w->s = (edan__win *)(b + sizeof(edan__wthr));
    off = sizeof(edan__wthr) + ctx->wn * sizeof(edan__win);
    for (k = 0; k < ctx->K; k++) {
        const edan__cfg *g = &ctx->cfg[k];
        if (!g->win) continue;
        for (j = 0; j < ctx->wnm; j++, n++) {
            edan__win *s = &w->s[n];
            s->R = g->c.window;
            s->LQ = g->c.lq;
            s->SQ = g->c.sq;
            s->width = g->c.width;
            s->m = ctx->wm[j];
            edan__win_consts(ctx, g, s);
            s->ring = (edan__went *)(b + off);
            off += s->R * sizeof(edan__went);
            s->disp = (edan__wt *)(b + off);
            s->lq = s->disp + s->width;
            s->sq = s->lq + s->LQ;
            s->slot = s->sq + s->SQ;
            off += ((size_t)s->width + s->LQ + s->SQ + EDAN__WSLOTS(s->m)) * sizeof(edan__wt);
        }
    }
    return w;
}

/* Thread id's schedules, new (0 when out of memory). */
static int edan__wthr_add(edan_context *ctx, uint32_t id)
{
    if (!ctx->wn) return 1;
    EDAN__WQ_IDLE(ctx);
    if (id >= ctx->wt_cap) {
        size_t nc = ctx->wt_cap ? ctx->wt_cap : 16;
        edan__wthr **nw;
        while (nc <= id) nc *= 2;
        if (!(nw = (edan__wthr **)edan__realloc(&ctx->a, ctx->wt, nc * sizeof *nw))) return 0;
        memset(nw + ctx->wt_cap, 0, (nc - ctx->wt_cap) * sizeof *nw);
        ctx->wt = nw;
        ctx->wt_cap = nc;
    }
    return (ctx->wt[id] = edan__wthr_new(ctx)) != NULL;
}

/* An exited thread's schedules: only their last retirements stay (fin),
   in a block of their own; every vertex of it has left its window (0 when
   out of memory). */
static int edan__wthr_gone(edan_context *ctx, uint32_t id)
{
    edan__wthr *w, *z;
    uint32_t j;
    if (!ctx->wn || id >= ctx->wt_cap || !(w = ctx->wt[id]) || w->gone) return 1;
    EDAN__WQ_IDLE(ctx);
    z = (edan__wthr *)edan__calloc_apart(&ctx->a, sizeof(edan__wthr) + ctx->wn * sizeof(edan__wt));
    if (!z) return 0;
    z->fin = (edan__wt *)(z + 1);
    for (j = 0; j < ctx->wn; j++) z->fin[j] = w->s[j].last;
    z->gone = 1;
    if (ctx->wcur == w) ctx->wcur = NULL;
    edan__free_apart(&ctx->a, w);
    ctx->wt[id] = z;
    return 1;
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
#if EDAN__THREADS
    if (opts->num_configs && opts->num_configs <= EDAN_MAX_CONFIGS && opts->configs &&
        ((opts->jobs > 1 && opts->num_configs > 1) || opts->jobs >= 2 * opts->num_configs + 1))
        return edan__j_create(out, opts);
#endif
    memset(&a, 0, sizeof a);
    a = opts->allocator;
    if ((a.alloc != NULL) != (a.free != NULL) || (a.realloc && !a.alloc)) return EDAN_ERR_INVALID_ARG;
    if (a.alloc && !a.realloc) return EDAN_ERR_INVALID_ARG;
    K = opts->num_configs ? opts->num_configs : 1;
    ctx = (edan_context *)edan__calloc(&a, sizeof *ctx);
    if (!ctx) return EDAN_ERR_NOMEM;
    ctx->a = a;
    *out = ctx;     /* from here a failure hands back the context with its message */
    if (K > EDAN_MAX_CONFIGS)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "%u configurations: at most %u", (unsigned)K,
                          (unsigned)EDAN_MAX_CONFIGS);
    if (opts->num_configs && !opts->configs)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "num_configs is %u but configs is NULL", (unsigned)K);
    if (opts->num_m > EDAN_MAX_M)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "num_m is %u: at most %u", (unsigned)opts->num_m,
                          (unsigned)EDAN_MAX_M);
    ctx->K = K;
    ctx->num_regs = opts->num_regs ? opts->num_regs : EDAN_DEFAULT_NUM_REGS;
    if (ctx->num_regs > 65536) ctx->num_regs = 65536;
    if (opts->num_m) {
        ctx->num_m = opts->num_m;
        for (k = 0; k < opts->num_m; k++) {
            if (!opts->m[k]) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "m[%u] is 0: every m is 1 or more", (unsigned)k);
            ctx->m[k] = opts->m[k];
        }
    } else {
        static const uint32_t dm[] = EDAN_DEFAULT_M;
        ctx->num_m = (uint32_t)(sizeof dm / sizeof dm[0]);
        memcpy(ctx->m, dm, sizeof dm);
    }
    ctx->hotspots = opts->hotspots;
    ctx->paper_cache = opts->paper_cache != 0;
    if (opts->forward != EDAN_FORWARD_OFF && opts->forward > EDAN_FORWARD_MAX)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "forward is %u: at most %u stores (EDAN_FORWARD_OFF: none)",
                          (unsigned)opts->forward, (unsigned)EDAN_FORWARD_MAX);
    ctx->fw_S = opts->forward == EDAN_FORWARD_OFF ? 0 : opts->forward ? opts->forward : EDAN_FORWARD_DEFAULT;
    ctx->tl_max = opts->timeline_max_bins ? (opts->timeline_max_bins < 4 ? 4 : opts->timeline_max_bins) : (size_t)1 << 20;
    ctx->dot_max = opts->dot_max_vertices;
    ctx->chn = opts->chain != 0;
    ctx->shadow.limit = opts->shadow_limit ? opts->shadow_limit : EDAN_SHADOW_LIMIT_DEFAULT;
    ctx->cfg = (edan__cfg *)edan__calloc_apart(&a, K * sizeof(edan__cfg));     /* the schedules' thread reads it */
    ctx->reg_vid = (uint64_t *)edan__calloc(&a, ctx->num_regs * sizeof(uint64_t));
    ctx->reg_F = (uint64_t *)edan__calloc(&a, (size_t)ctx->num_regs * K * sizeof(uint64_t));
    ctx->reg_md = (uint32_t *)edan__calloc(&a, (size_t)ctx->num_regs * K * sizeof(uint32_t));
    ctx->reg_slots = ctx->num_regs;
    if (!ctx->cfg || !ctx->reg_vid || !ctx->reg_F || !ctx->reg_md) {
        *out = NULL;
        edan_destroy(ctx);
        return EDAN_ERR_NOMEM;
    }
    for (k = 0; k < K; k++) {
        edan__layers_init(&ctx->cfg[k].lay, ctx->m, ctx->num_m);
        r = edan__setup_config(ctx, k, opts->num_configs ? &opts->configs[k] : &zero_cfg);
        if (r != EDAN_OK) return r;     /* the message in the context handed back */
    }
    /* the windowed schedules: at window_m, or every m of the list */
    ctx->wnm = opts->window_m ? 1 : ctx->num_m;
    if (opts->window_m) ctx->wm[0] = opts->window_m;
    else memcpy(ctx->wm, ctx->m, ctx->num_m * sizeof ctx->m[0]);
    for (k = 0; k < K; k++) {
        edan__cfg *g = &ctx->cfg[k];
        uint32_t j;
        if (!g->win) continue;
        for (j = 0; j < ctx->wnm; j++)
            if (ctx->wm[j] > EDAN_WINDOW_MAX)
                return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "%s %u: the windowed schedule takes m up to %u "
                                  "(window_m picks one, EDAN_WINDOW_OFF turns it off)",
                                  opts->window_m ? "window_m" : "m", (unsigned)ctx->wm[j], (unsigned)EDAN_WINDOW_MAX);
        g->wfirst = ctx->wn;
        ctx->wn += ctx->wnm;
        if (g->c.window > ctx->wR) ctx->wR = g->c.window;
    }
    if (ctx->wn) {
        edan__win_pack(ctx);
        if (!edan__wthr_add(ctx, 0)) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the windowed schedule");
        ctx->wcur = ctx->wt[0];
#if EDAN__THREADS
        if (opts->jobs > 1 && K == 1)       /* the schedules' thread, started when a block needs it. A
                                               ring of 4 MiB by default, as the jobs': one of 256 KiB, which
                                               stays in the cores' own caches, took 1.2x the time with L1+L2
                                               (README, "Performance") */
            ctx->wq_cap = edan__ring_bytes(opts->jobs_buffer, EDAN_JOBS_BUFFER_DEFAULT);
#endif
    }
    return EDAN_OK;
}

static void edan__fw_free(const edan_allocator *a, edan__fwd *f)
{
    edan__free(a, f->ring);
    edan__free(a, f->stack);
    memset(f, 0, sizeof *f);
}

void edan_destroy(edan_context *ctx)
{
    edan_allocator a;
    uint32_t k, i;
    size_t j;
    if (!ctx) return;
    edan__j_stop(ctx);
#if EDAN__THREADS
    edan__wq_stop(ctx);
#endif
    a = ctx->a;
    while (ctx->blocks) edan_block_destroy(ctx->blocks);
    edan__fw_free(&a, &ctx->fw);
    for (j = 0; j < ctx->th.n; j++) {
        edan__thread *T = &ctx->th.t[j];
        edan__fw_free(&a, &T->fw);
        for (i = 0; i < T->sig_alloc; i++) edan__free(&a, T->sig[i]);
        edan__free(&a, T->sig);
        edan__free(&a, T->regs);
        edan__free(&a, T->cnt);
    }
    edan__free(&a, ctx->th.t);
    edan__free(&a, ctx->th.seg);
    for (j = 0; j < ctx->wt_cap; j++) edan__free_apart(&a, ctx->wt[j]);
    edan__free(&a, ctx->wt);
    edan__free(&a, ctx->wseg);
    edan__free(&a, ctx->multi_pred);
    edan__free(&a, ctx->multi_pv);
    edan__free(&a, ctx->multi_fill);
    edan__free(&a, ctx->multi_fv);
    if (ctx->cfg) {
        for (k = 0; k < ctx->K; k++) {
            edan__cfg *g = &ctx->cfg[k];
            for (i = 0; i < EDAN_MAX_LEVELS; i++) {
                edan__free(&a, g->lv[i].tags);
                edan__free(&a, g->lv[i].stamp);
                edan__free(&a, g->lv[i].mru);
                edan__free(&a, g->lv[i].fill);
            }
            edan__layers_free(&a, &g->lay);
            edan__free(&a, g->tl_diff);
            edan__free(&a, g->tl_bins);
            edan__free(&a, g->hot);
            edan__free(&a, g->dot_mem);
            edan__free(&a, g->dot_best);
            edan__free(&a, g->dot_F);
            edan__free(&a, g->dot_md);
            edan__free(&a, g->dot_fe);
            edan__free(&a, g->chn_f);
        }
    }
    for (j = 0; j < ctx->ch_cap; j++)
        if (ctx->ch_keys[j]) edan__free(&a, ctx->ch_vals[j]);
    edan__free(&a, ctx->ch_keys);
    edan__free(&a, ctx->ch_vals);
    edan__free(&a, ctx->split);
    edan__free(&a, ctx->split_free);
    edan__free_apart(&a, ctx->cfg);
    edan__free(&a, ctx->reg_vid);
    edan__free(&a, ctx->reg_F);
    edan__free(&a, ctx->reg_md);
    edan__free(&a, ctx->rec);
    edan__free(&a, ctx->rec_free);
    edan__free(&a, ctx->dot_v);
    edan__free(&a, ctx->op_count);
    edan__free(&a, ctx->dot_e);
    edan__free(&a, ctx->chn_m.t);
    edan__free(&a, ctx->chn_l.t);
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

/* Every allocation of shadow memory is counted against its limit: n more
   bytes, or 0 and the error (EDAN_ERR_LIMIT) in the context. */
static int edan__sh_take(edan_context *ctx, size_t n)
{
    if (n > ctx->shadow.limit - ctx->shadow.bytes) {
        ctx->shadow.err = edan__fail(ctx, EDAN_ERR_LIMIT,
                                     "instruction %llu: shadow memory (the last writers of the bytes written) would "
                                     "exceed its limit of %llu bytes; raise edan_options.shadow_limit (0: %llu bytes)",
                                     (unsigned long long)ctx->N, (unsigned long long)ctx->shadow.limit,
                                     (unsigned long long)EDAN_SHADOW_LIMIT_DEFAULT);
        return 0;
    }
    ctx->shadow.bytes += n;
    return 1;
}

/* p (old bytes; NULL: a new block, zeroed when `zero`) resized to n bytes,
   counted; NULL and the error in the context when the limit or the memory
   is not there (p is then unchanged). */
static void *edan__sh_realloc(edan_context *ctx, void *p, size_t old, size_t n, int zero, const char *what)
{
    void *q;
    if (n > old && !edan__sh_take(ctx, n - old)) return NULL;
    q = p ? edan__realloc(&ctx->a, p, n) : zero ? edan__calloc(&ctx->a, n) : edan__alloc(&ctx->a, n);
    if (!q) {
        if (n > old) ctx->shadow.bytes -= n - old;
        ctx->shadow.err = edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for %s", what);
        return NULL;
    }
    if (n < old) ctx->shadow.bytes -= old - n;
    return q;
}

static void edan__sh_free(edan_context *ctx, void *p, size_t n)
{
    ctx->shadow.bytes -= n;
    edan__free(&ctx->a, p);
}

/* edan__grow for shadow memory's tables: counted, the error in the context. */
static int edan__sh_grow(edan_context *ctx, void **pp, size_t *cap, size_t need, size_t esz, const char *what)
{
    size_t nc;
    void *np;
    if (need <= *cap) return 1;
    nc = *cap ? *cap : 16;
    while (nc < need) nc *= 2;
    np = edan__sh_realloc(ctx, *pp, *cap * esz, nc * esz, 0, what);
    if (!np) return 0;
    memset((char *)np + *cap * esz, 0, (nc - *cap) * esz);
    *pp = np;
    *cap = nc;
    return 1;
}

/* Pages. A page is made sparse at its first word written: a table of the
   words written, 1 slot, then 2, 4, ... EDAN__SP_MAX (an open-addressing
   hash, at most 3/4 full past 4 slots). It becomes dense, a chunk of an
   entry for every word of the page, when it would outgrow EDAN__SP_MAX
   slots (a sparse page is then as large as half a chunk) or when 12 or
   more words fill a quarter of the span between the first and the last
   (an array written word by word, or one word in four: lookups in a chunk
   are the fast ones, and it costs at most 4 times the entries of the span
   written). So a page with one word written costs tens of bytes, and one
   written densely a chunk. A page grown moves its entries: a pointer to
   one is good until the next entry is made. */
static EDAN__INLINE uint32_t edan__sp_home(uint32_t wi, uint32_t cap)
{
    return ((wi * 2654435769u) >> 23) & (cap - 1);
}

/* The entry of word wi (in the page) in sp, or NULL. */
static EDAN__INLINE uint64_t *edan__sp_find(edan__sparse *sp, uint32_t wi, uint32_t K)
{
    const uint16_t *idx = EDAN__SP_IDX(sp);
    const uint32_t m = sp->cap - 1u;
    uint32_t i = edan__sp_home(wi, sp->cap), t;
    for (t = 0; t <= m && idx[i]; t++, i = (i + 1) & m)
        if (idx[i] == wi + 1) return EDAN__SP_ENT(sp, i, K);
    return NULL;
}

static int edan__sp_room(const edan__sparse *sp)
{
    return sp->n < (sp->cap <= 4 ? sp->cap : sp->cap - sp->cap / 4);
}

/* Word wi, absent from sp that has room: its slot's entry (its bytes as they were). */
static uint64_t *edan__sp_put(edan__sparse *sp, uint32_t wi, uint32_t K)
{
    uint16_t *idx = EDAN__SP_IDX(sp);
    const uint32_t m = sp->cap - 1u;
    uint32_t i = edan__sp_home(wi, sp->cap);
    while (idx[i]) i = (i + 1) & m;
    idx[i] = (uint16_t)(wi + 1);
    if (!sp->n || wi < sp->lo) sp->lo = (uint16_t)wi;
    if (!sp->n || wi > sp->hi) sp->hi = (uint16_t)wi;
    sp->n++;
    return EDAN__SP_ENT(sp, i, K);
}

/* The same, the entry made "never written". */
static uint64_t *edan__sp_add(edan__sparse *sp, uint32_t wi, uint32_t K)
{
    uint64_t *e = edan__sp_put(sp, wi, K);
    memset(e, 0, EDAN__WORD_BYTES(K));
    return e;
}

static edan__sparse *edan__sp_new(edan_context *ctx, uint32_t cap)
{
    edan__sparse *sp = (edan__sparse *)edan__sh_realloc(ctx, NULL, 0, EDAN__SP_BYTES(cap, ctx->K), 0, "shadow memory");
    if (!sp) return NULL;
    sp->n = sp->lo = sp->hi = 0;
    sp->cap = (uint16_t)cap;
    memset(EDAN__SP_IDX(sp), 0, EDAN__SP_IDX_BYTES(cap));
    return sp;
}

/* The slot of page `key` in the page table; ch_cap when it has none. */
static EDAN__INLINE size_t edan__page_slot(const edan_context *ctx, uint64_t key)
{
    size_t mask, i;
    if (!ctx->ch_cap) return 0;
    mask = ctx->ch_cap - 1;
    for (i = edan__hash64(key, mask); ctx->ch_keys[i]; i = (i + 1) & mask)
        if ((ctx->ch_keys[i] & ~EDAN__PG_DENSE) == key + 1) return i;
    return ctx->ch_cap;
}

/* Page key's near slot filled from the page table (its chunk, its sparse
   table, or neither). The near slots start zeroed: "page 0 has no word
   written", true then; every change of a page updates its near slot. */
static EDAN__INLINE void edan__near_fill(edan_context *ctx, uint64_t key)
{
    const uint32_t slot = (uint32_t)(key & (EDAN__NEAR - 1));
    size_t i;
    if (ctx->near_key[slot] == key) return;
    i = edan__page_slot(ctx, key);
    ctx->near_key[slot] = key;
    ctx->near_chunk[slot] = NULL;
    ctx->near_sparse[slot] = NULL;
    if (i == ctx->ch_cap) return;
    if (ctx->ch_keys[i] & EDAN__PG_DENSE) ctx->near_chunk[slot] = ctx->ch_vals[i];
    else ctx->near_sparse[slot] = (edan__sparse *)ctx->ch_vals[i];
}

/* Word w of page key, which has no entry for it and no room (or no page
   at all): the page made, grown or made dense, and the word's new entry;
   NULL when the memory or the limit says no (the error in the context). */
static EDAN__NOINLINE uint64_t *edan__page_grow(edan_context *ctx, uint64_t key, uint64_t w, uint32_t K)
{
    const uint32_t slot = (uint32_t)(key & (EDAN__NEAR - 1)), wi = (uint32_t)(w & (EDAN__CHUNK_WORDS - 1));
    const size_t eb = EDAN__WORD_BYTES(K);
    edan__sparse *sp = ctx->near_sparse[slot], *ns;
    size_t i;
    uint32_t j;
    if (!sp) {
        if ((ctx->ch_used + 1) * 4 > ctx->ch_cap * 3) {     /* keep the page table's load under 3/4 */
            size_t nc = ctx->ch_cap ? ctx->ch_cap * 2 : 1024, m = nc - 1;
            uint64_t *nk = (uint64_t *)edan__sh_realloc(ctx, NULL, 0, nc * sizeof(uint64_t), 1, "shadow memory");
            unsigned char **nv =
                nk ? (unsigned char **)edan__sh_realloc(ctx, NULL, 0, nc * sizeof(unsigned char *), 1, "shadow memory")
                   : NULL;
            if (!nv) {
                if (nk) edan__sh_free(ctx, nk, nc * sizeof(uint64_t));
                return NULL;
            }
            for (i = 0; i < ctx->ch_cap; i++) {
                size_t h;
                if (!ctx->ch_keys[i]) continue;
                for (h = edan__hash64((ctx->ch_keys[i] & ~EDAN__PG_DENSE) - 1, m); nk[h]; h = (h + 1) & m) {}
                nk[h] = ctx->ch_keys[i];
                nv[h] = ctx->ch_vals[i];
            }
            edan__sh_free(ctx, ctx->ch_keys, ctx->ch_cap * sizeof(uint64_t));
            edan__sh_free(ctx, ctx->ch_vals, ctx->ch_cap * sizeof(unsigned char *));
            ctx->ch_keys = nk;
            ctx->ch_vals = nv;
            ctx->ch_cap = nc;
        }
        if (!(ns = edan__sp_new(ctx, 1))) return NULL;
        for (i = edan__hash64(key, ctx->ch_cap - 1); ctx->ch_keys[i]; i = (i + 1) & (ctx->ch_cap - 1)) {}
        ctx->ch_keys[i] = key + 1;
        ctx->ch_vals[i] = (unsigned char *)ns;
        ctx->ch_used++;
        ctx->near_sparse[slot] = ns;
        return edan__sp_add(ns, wi, K);
    }
    i = edan__page_slot(ctx, key);
    if (sp->cap >= EDAN__SP_MAX || (sp->n >= 12 && sp->hi - sp->lo < 4 * sp->n)) {
        unsigned char *ch = (unsigned char *)edan__sh_realloc(ctx, NULL, 0, EDAN__CHUNK_BYTES(K), 1, "shadow memory");
        if (!ch) return NULL;
        for (j = 0; j < sp->cap; j++)
            if (EDAN__SP_IDX(sp)[j]) memcpy(ch + (EDAN__SP_IDX(sp)[j] - 1u) * eb, EDAN__SP_ENT(sp, j, K), eb);
        edan__sh_free(ctx, sp, EDAN__SP_BYTES(sp->cap, K));
        ctx->ch_keys[i] |= EDAN__PG_DENSE;
        ctx->ch_vals[i] = ch;
        ctx->near_sparse[slot] = NULL;
        ctx->near_chunk[slot] = ch;
        return EDAN__WORD(ch, w, K);
    }
    if (!(ns = edan__sp_new(ctx, sp->cap * 2u))) return NULL;
    for (j = 0; j < sp->cap; j++)
        if (EDAN__SP_IDX(sp)[j]) memcpy(edan__sp_put(ns, EDAN__SP_IDX(sp)[j] - 1u, K), EDAN__SP_ENT(sp, j, K), eb);
    edan__sh_free(ctx, sp, EDAN__SP_BYTES(sp->cap, K));
    ctx->ch_vals[i] = (unsigned char *)ns;
    ctx->near_sparse[slot] = ns;
    return edan__sp_add(ns, wi, K);
}

/* A new entry for word w, which has none (its page's near slot filled). */
static EDAN__NOINLINE uint64_t *edan__word_new(edan_context *ctx, uint64_t w, uint32_t K)
{
    const uint64_t key = w >> (EDAN__CHUNK_BITS - 3);
    edan__sparse *sp = ctx->near_sparse[key & (EDAN__NEAR - 1)];
    if (sp && edan__sp_room(sp)) return edan__sp_add(sp, (uint32_t)(w & (EDAN__CHUNK_WORDS - 1)), K);
    return edan__page_grow(ctx, key, w, K);
}

static EDAN__NOINLINE uint64_t *edan__word_slow(edan_context *ctx, uint64_t w, uint32_t K, int create)
{
    const uint64_t key = w >> (EDAN__CHUNK_BITS - 3);
    const uint32_t slot = (uint32_t)(key & (EDAN__NEAR - 1));
    uint64_t *e;
    edan__near_fill(ctx, key);
    if (ctx->near_chunk[slot]) return EDAN__WORD(ctx->near_chunk[slot], w, K);
    if (ctx->near_sparse[slot] &&
        (e = edan__sp_find(ctx->near_sparse[slot], (uint32_t)(w & (EDAN__CHUNK_WORDS - 1)), K)) != NULL)
        return e;
    return create ? edan__word_new(ctx, w, K) : NULL;
}

/* 1 when the table of recently used pages holds word w's page, at *slot
   (the slot it would take else). */
static EDAN__INLINE int edan__near_has(const edan_context *ctx, uint64_t w, uint32_t *slot)
{
    const uint64_t key = w >> (EDAN__CHUNK_BITS - 3);
    *slot = (uint32_t)(key & (EDAN__NEAR - 1));
    return ctx->near_key[*slot] == key;
}

/* The entry of word w (address w * 8), or NULL when it was never written;
   create: made when missing (NULL then means the memory or the limit said
   no: the error in the context, ctx->shadow.err). Making one may move the
   other entries of its page. */
static EDAN__INLINE uint64_t *edan__word(edan_context *ctx, uint64_t w, uint32_t K, int create)
{
    uint32_t slot;
    if (edan__near_has(ctx, w, &slot)) {
        if (ctx->near_chunk[slot]) return EDAN__WORD(ctx->near_chunk[slot], w, K);
        if (ctx->near_sparse[slot]) {       /* a page of few words: a chain's ring, a stack's frames */
            uint64_t *e = edan__sp_find(ctx->near_sparse[slot], (uint32_t)(w & (EDAN__CHUNK_WORDS - 1)), K);
            return e || !create ? e : edan__word_new(ctx, w, K);
        }
        /* remember the absence too: loads of data never written are common */
        if (!create) return NULL;
    }
    return edan__word_slow(ctx, w, K, create);
}

/* Store records, one block each (vertex id, reference count, then F and md
   per configuration) so that a load reads one cache line, not one per array. */
typedef struct edan__rec_head { uint64_t vid; uint32_t ref, unused; } edan__rec_head;
#define EDAN__REC_BYTES(K) ((sizeof(edan__rec_head) + 12 * (size_t)(K) + 7) & ~(size_t)7)
#define EDAN__REC_HEAD(ctx, r, K) ((edan__rec_head *)((ctx)->rec + (size_t)(r) * EDAN__REC_BYTES(K)))
#define EDAN__REC_F(ctx, r, K) ((uint64_t *)(EDAN__REC_HEAD(ctx, r, K) + 1))
#define EDAN__REC_MD(ctx, r, K) ((uint32_t *)(EDAN__REC_F(ctx, r, K) + (K)))
#define EDAN__REF(ctx, r) (EDAN__REC_HEAD(ctx, r, (ctx)->K)->ref)

/* A new store record (index >= 1); 0 when out of memory (the error in the context). */
static uint32_t edan__rec_new(edan_context *ctx)
{
    if (ctx->rec_free_n) return ctx->rec_free[--ctx->rec_free_n];
    if (ctx->rec_used == 0) ctx->rec_used = 1;      /* index 0 means "no writer" */
    if (ctx->rec_used >= ctx->rec_cap) {
        size_t nc = ctx->rec_cap ? ctx->rec_cap * 2 : 4096;
        unsigned char *r;
        if (nc > 0xffffffffu) {
            ctx->shadow.err = edan__fail(ctx, EDAN_ERR_LIMIT, "more than 2^32 store records");
            return 0;
        }
        r = (unsigned char *)edan__sh_realloc(ctx, ctx->rec, ctx->rec_cap * EDAN__REC_BYTES(ctx->K),
                                              nc * EDAN__REC_BYTES(ctx->K), 0, "store records");
        if (!r) return 0;
        ctx->rec = r;
        ctx->rec_cap = nc;
    }
    return (uint32_t)ctx->rec_used++;
}

static int edan__rec_release(edan_context *ctx, uint32_t r)
{
    if (--EDAN__REF(ctx, r)) return 1;
    if (!edan__sh_grow(ctx, (void **)&ctx->rec_free, &ctx->rec_free_cap, ctx->rec_free_n + 1, sizeof(uint32_t),
                       "store records"))
        return 0;
    ctx->rec_free[ctx->rec_free_n++] = r;
    return 1;
}

/* The writer's F[K] then md[K], laid out alike in a word entry (after its
   head) and in a store record (after edan__rec_head): into dst, from this
   instruction's F and md. */
static EDAN__INLINE void edan__put_writer(uint64_t *dst, const uint64_t *F, const uint32_t *md, uint32_t K)
{
    uint32_t k;
    for (k = 0; k < K; k++) {
        dst[k] = F[k];
        ((uint32_t *)(dst + K))[k] = md[k];
    }
}

/* A new split (8 entries, uninitialised); its index, or EDAN__SPLIT when out
   of memory (the error in the context). */
static uint32_t edan__split_new(edan_context *ctx)
{
    if (ctx->split_free_n) return ctx->split_free[--ctx->split_free_n];
    if (ctx->split_used >= EDAN__SPLIT) {
        ctx->shadow.err = edan__fail(ctx, EDAN_ERR_LIMIT, "more than 2^31 words written in parts");
        return EDAN__SPLIT;
    }
    if (!edan__sh_grow(ctx, (void **)&ctx->split, &ctx->split_cap, (ctx->split_used + 1) * 8, sizeof(uint32_t),
                       "store records"))
        return EDAN__SPLIT;
    return (uint32_t)ctx->split_used++;
}

/* The split word entry e loses its split: its 8 records released. 0 when
   out of memory (here and below: the error in the context, ctx->shadow.err). */
static int edan__split_release(edan_context *ctx, uint64_t *e)
{
    uint32_t idx = (uint32_t)(e[0] & ~EDAN__WSPLIT), j;
    for (j = 0; j < 8; j++) {
        uint32_t r = ctx->split[(size_t)idx * 8 + j];
        if (r && !edan__rec_release(ctx, r)) return 0;
    }
    if (!edan__sh_grow(ctx, (void **)&ctx->split_free, &ctx->split_free_cap, ctx->split_free_n + 1,
                       sizeof(uint32_t), "store records"))
        return 0;
    ctx->split_free[ctx->split_free_n++] = idx;
    e[0] = 0;
    return 1;
}

/* The word entry e, not split, is split: its whole-word writer (if any)
   moved to a record that all 8 bytes name. 0 when out of memory. */
static int edan__split_word(edan_context *ctx, uint64_t *e)
{
    uint32_t idx, j, old = 0, K = ctx->K;
    if (e[0]) {                             /* the whole-word writer becomes a record */
        old = edan__rec_new(ctx);
        if (!old) return 0;
        EDAN__REC_HEAD(ctx, old, K)->vid = e[0];
        EDAN__REC_HEAD(ctx, old, K)->ref = 8;
        memcpy(EDAN__REC_F(ctx, old, K), e + 1, 12 * (size_t)K);   /* F[K] and md[K], one layout */
    }
    idx = edan__split_new(ctx);
    if (idx == EDAN__SPLIT) return 0;
    for (j = 0; j < 8; j++) ctx->split[(size_t)idx * 8 + j] = old;
    e[0] = EDAN__WSPLIT | idx;
    return 1;
}

/* Record rec now holds bytes lo..hi (0..7, not all) of the word whose
   entry is e; a whole-word entry is split first, its writer moved to a
   record for the other bytes. 0 when out of memory. */
static int edan__store_part(edan_context *ctx, uint64_t *e, unsigned lo, unsigned hi, uint32_t rec)
{
    uint32_t *b, j;
    if (!(e[0] & EDAN__WSPLIT) && !edan__split_word(ctx, e)) return 0;
    b = ctx->split + (size_t)(e[0] & ~EDAN__WSPLIT) * 8;
    for (j = lo; j <= hi; j++) {
        if (b[j] && !edan__rec_release(ctx, b[j])) return 0;
        b[j] = rec;
        EDAN__REF(ctx, rec)++;
    }
    return 1;
}

/* ---- the model's rules, once ------------------------------------------- */
/* Each rule of the model that more than one feeding path applies (the
   general feed, its lean copy, several accesses, compiled blocks) is
   written here once; the paths differ only in how they find a vertex's
   predecessors. */

/* Start and depth: a vertex starts when its last predecessor finishes,
   and lies as deep as its deepest one. A predecessor finishing at F with
   memory depth m joins the vertex's start *S and depth *md. */
static EDAN__INLINE void edan__join(uint64_t *S, uint32_t *md, uint64_t F, uint32_t m)
{
    if (F > *S) *S = F;
    if (m > *md) *md = m;
}

/* edan__join that also names the critical predecessor (the graph's): the
   first with the largest F. */
static EDAN__INLINE void edan__join_best(uint64_t *S, uint32_t *md, uint64_t *best, uint64_t F, uint32_t m,
                                         uint64_t id)
{
    if (!*best || F > *S) {
        *S = F;
        *best = id;
    }
    if (m > *md) *md = m;
}

/* A word's last writer (its entry e in the shadow memory: the vertex id,
   then F[K], then md[K]) joins configuration k's start and depth. */
static EDAN__INLINE void edan__join_word(const uint64_t *e, uint32_t K, uint32_t k, uint64_t *S, uint32_t *md)
{
    edan__join(S, md, e[1 + k], ((const uint32_t *)(e + 1 + K))[k]);
}

/* Vertex vid, finishing at Fv[k] with depth mdv[k], is the last writer
   of a whole word (its entry e) / of register r. */
static EDAN__INLINE void edan__set_word_writer(uint64_t *e, uint64_t vid, const uint64_t *Fv, const uint32_t *mdv,
                                               uint32_t K)
{
    e[0] = vid;
    edan__put_writer(e + 1, Fv, mdv, K);
}
static EDAN__INLINE void edan__set_reg_writer(uint64_t *reg_vid, uint64_t *reg_F, uint32_t *reg_md, edan_reg r,
                                              uint64_t vid, const uint64_t *Fv, const uint32_t *mdv, uint32_t K)
{
    uint32_t k;
    reg_vid[r] = vid;
    for (k = 0; k < K; k++) {
        reg_F[(size_t)r * K + k] = Fv[k];
        reg_md[(size_t)r * K + k] = mdv[k];
    }
}

/* Register r's writer changed other than by a block handed to the
   schedules' thread, which keeps the registers' writers: r goes to it
   before the next block (edan__wq_regs). */
static EDAN__INLINE void edan__wreg_touch(edan_context *ctx, edan_reg r)
{
    if (!ctx->wq) return;
    if (ctx->wreg_n < sizeof ctx->wreg_dirty / sizeof ctx->wreg_dirty[0]) ctx->wreg_dirty[ctx->wreg_n++] = r;
    else ctx->wreg_all = 1;
}

/* Costs: an operation takes its class's cycles; a RAM access alpha; an
   access served by the caches its slowest level's latency (1 at least). */
static EDAN__INLINE uint64_t edan__op_time(const edan__cfg *g, const edan_insn *in)
{
    return g->c.cost[in->cls];
}
static EDAN__INLINE uint64_t edan__access_time(const edan__cfg *g, int is_mem, uint64_t hit_latency)
{
    return is_mem ? g->c.alpha : hit_latency ? hit_latency : 1;
}

/* Memory depth: a memory access vertex (one that reaches RAM) is one
   deeper than its predecessors, and is chained when another RAM access
   precedes it on a path. */
static EDAN__INLINE uint32_t edan__depth(uint32_t md, int is_mem)
{
    return md + (uint32_t)(is_mem != 0);
}
static EDAN__INLINE int edan__chained(uint32_t md)
{
    return md >= 2;
}

/* Threads: a register writer from before the current thread's first
   vertex is its creator's, so the edge from it crosses threads. */
static EDAN__INLINE int edan__cross_reg(const edan_context *ctx, uint64_t writer)
{
    return writer && writer < ctx->th.first;
}

/* ---- cache model ------------------------------------------------------- */
/* LRU by time stamps: a way's stamp is its last use (0: never), a set's
   least recently used way the one with the smallest; nothing moves on a
   hit, so a line's filler stays in place. The dirty bit is the stamp's
   lowest (stamps differ, so it never decides an order). mru[set] is the
   way used last (a hit there needs no update at all). */
/* The set of `line` in level l: line mod sets (its low bits when sets is
   a power of two, as caches' sets mostly are; a 20-way 30 MiB L3 has
   24,576). */
static EDAN__INLINE size_t edan__set(const edan__level *l, uint64_t line)
{
    return l->pow2 ? (size_t)(line & (l->sets - 1)) : (size_t)(line % l->sets);
}

/* The index a fill would take in the set of level l that starts at index
   at, which does not hold the line: its first empty way, else the least
   recently used. */
static EDAN__INLINE size_t edan__victim(const edan__level *l, size_t at)
{
    const uint64_t *s = l->stamp + at;
    uint32_t w, v = 0;
    uint64_t least = s[0];
    /* the least stamp kept in a register: comparing with s[v] would make
       each step's load wait for the step before */
    for (w = 1; w < l->assoc; w++)
        if (s[w] < least) least = s[w], v = w;
    return at + v;
}

/* Look `line` up in level l: on a hit stamp it and return its index in the
   level's arrays; else -1, *victim the index a fill would take
   (edan__victim). */
static EDAN__INLINE long edan__lookup(edan__level *l, uint64_t line, size_t *victim)
{
    const size_t set = edan__set(l, line), at = set * l->assoc;
    const uint64_t *t = l->tags + at, tag = line + 1;
    uint32_t w;
    if (t[l->mru[set]] == tag) return (long)(at + l->mru[set]);
    for (w = 0; w < l->assoc; w++) {
        if (t[w] == tag) {
            l->stamp[at + w] = (++l->clock << 1) | (l->stamp[at + w] & 1);
            l->mru[set] = w;
            return (long)(at + w);
        }
    }
    *victim = edan__victim(l, at);
    return -1;
}
/* The index holding `line` in level l without touching LRU, or -1. */
static long edan__find(const edan__level *l, uint64_t line)
{
    const size_t at = edan__set(l, line) * l->assoc;
    uint32_t w;
    for (w = 0; w < l->assoc; w++)
        if (l->tags[at + w] == line + 1) return (long)(at + w);
    return -1;
}
/* `line` into index `at` (edan__lookup's victim) as the most recent, with
   its filler; returns 1 when a dirty line was evicted. */
static EDAN__INLINE int edan__fill(edan__level *l, uint64_t line, size_t at, uint8_t dirty, const edan__filler *f)
{
    int evicted_dirty = l->tags[at] && (l->stamp[at] & 1);
    const size_t set = edan__set(l, line);      /* not at / assoc: a division a miss */
    l->tags[at] = line + 1;
    l->stamp[at] = (++l->clock << 1) | dirty;
    l->mru[set] = (uint32_t)(at - set * l->assoc);
    if (l->fill) l->fill[at] = *f;
    return evicted_dirty;
}

/* [addr, addr + size) lies in one line that level l holds: its index (the
   line is then the set's most recent), else -1 (nothing changed). */
static EDAN__INLINE long edan__l1_hit(edan__level *l, uint64_t addr, uint32_t size)
{
    const uint64_t line = addr >> l->line_shift, tag = line + 1;
    const size_t set = edan__set(l, line), at = set * l->assoc;
    uint32_t w;
    if (line != (addr + size - 1) >> l->line_shift) return -1;
    if (l->tags[at + l->mru[set]] == tag) return (long)(at + l->mru[set]);
    for (w = 0; w < l->assoc; w++)
        if (l->tags[at + w] == tag) {
            l->stamp[at + w] = (++l->clock << 1) | (l->stamp[at + w] & 1);
            l->mru[set] = w;
            return (long)(at + w);
        }
    return -1;
}

/* The fillers of the lines an access found in the cache (distinct, not
   the accessing vertex itself): its fill dependences. */
#define EDAN__MAX_LINES EDAN_MAX_ACCESS
typedef struct edan__fillers {
    uint32_t n;
    int filled;             /* a line came from RAM: its filler's F and md wait for the vertex's */
    int one_line;           /* the access touched one line: the levels' entries it filled are at[] */
    size_t at[EDAN_MAX_LEVELS];
    edan__filler f[EDAN__MAX_LINES];
} edan__fillers;

static EDAN__INLINE void edan__filler_add(edan__fillers *fl, const edan__filler *f, uint64_t vid)
{
    uint32_t i;
    if (!f->vid || f->vid == vid) return;
    for (i = 0; i < fl->n && fl->f[i].vid != f->vid; i++) {}
    if (i == fl->n) fl->f[fl->n++] = *f;
}

/* Run one access of vertex vid through configuration g's hierarchy. Sets
   *is_mem, *t, *w, and (unless under the paper's rule) the fillers in *fl.
   one: the access lies in one line, and is a load that edan__l1_hit did
   not find (EDAN_MEM_LOAD: L1's victim taken, L1 not searched again) or
   a store (EDAN_MEM_STORE), known to the compiler (edan__cache_one's
   copies, without the other cases' branches); 0: any access, every level
   searched. */
static EDAN__INLINE void edan__cache_run(edan__cfg *g, const edan_insn *in, uint64_t addr, uint64_t vid, int *is_mem,
                                         uint64_t *t, uint64_t *w, edan__fillers *fl, const int one)
{
    uint32_t nl = g->c.num_levels, shift = g->lv[0].line_shift, i;
    const uint64_t first = addr >> shift, last = one ? first : (addr + in->size - 1) >> shift;
    uint64_t lat = 0, bytes = 0, line_bytes = (uint64_t)1 << shift, line;
    int mem = 0;
    uint32_t served = 0;
    const int kind = one ? one : (int)in->mem;
    const int wt = g->c.write_policy == EDAN_WRITE_THROUGH, fills = g->lv[0].fill != NULL;
    const int reads = kind != EDAN_MEM_STORE || !wt;    /* looks up and fills */
    const int writes = kind != EDAN_MEM_LOAD;
    const int dirties = writes && !wt;
    const uint32_t l1_known = one == EDAN_MEM_LOAD;
    for (line = first; line <= last; line++) {
        if (reads) {
            uint32_t hit = nl;
            size_t victim[EDAN_MAX_LEVELS];
            long at = -1;
            edan__filler f;
            if (l1_known) victim[0] = edan__victim(&g->lv[0], edan__set(&g->lv[0], line) * g->lv[0].assoc);
            for (i = l1_known; i < nl; i++)
                if ((at = edan__lookup(&g->lv[i], line, &victim[i])) >= 0) { hit = i; break; }
            f.vid = vid;        /* from RAM: this vertex (F and md set when known) */
            f.F = 0;
            f.md = 0;
            if (hit < nl) {
                g->level_hits[hit]++;
                if (hit + 1 > served) served = hit + 1;
                if (g->lv[hit].latency > lat) lat = g->lv[hit].latency;
                if (fills) {
                    /* the serving level's filler: a dependence, and what the levels above copy */
                    f = g->lv[hit].fill[at];
                    edan__filler_add(fl, &f, vid);
                }
            } else {
                mem = 1;
                g->ram_lines++;
                bytes += line_bytes;
                fl->filled = fills;     /* this vertex is the filler: F and md set when known */
                if (first == last) memcpy(fl->at, victim, sizeof victim);
                fl->one_line = first == last;
            }
            /* fill every level that missed (a write-back store's line dirty
               there); only the last level's dirty victims reach RAM */
            for (i = 0; i < hit; i++) {
                if (edan__fill(&g->lv[i], line, victim[i], (uint8_t)dirties, &f) && i == nl - 1) {
                    g->writebacks++;
                    bytes += line_bytes;
                }
            }
            /* the line dirty in every level that holds it. A level that
               served it dirty: the levels below that hold it are dirty too
               (a level fills the line only when every level above missed
               it, so none of them has filled it since it was marked) */
            if (dirties && hit < nl && !(g->lv[hit].stamp[at] & 1)) {
                g->lv[hit].stamp[at] |= 1;
                for (i = hit + 1; i < nl; i++) {
                    long k = edan__find(&g->lv[i], line);
                    if (k >= 0) g->lv[i].stamp[k] |= 1;
                }
            }
        } else {
            /* write-through store: no fill, no eviction; a hit refreshes LRU */
            size_t victim;
            for (i = 0; i < nl; i++)
                if (edan__lookup(&g->lv[i], line, &victim) >= 0) break;
        }
    }
    g->served = served;
    if (writes && wt) {
        mem = 1;
        bytes += in->size;
    }
    *is_mem = mem;
    *t = edan__access_time(g, mem, lat);
    /* the paper's rule counts bytes as the EDAN authors' tool: a memory
       access vertex's access size */
    *w = fills ? bytes : mem ? in->size : 0;
}
static EDAN__NOINLINE void edan__cache_access(edan__cfg *g, const edan_insn *in, uint64_t addr, uint64_t vid,
                                              int *is_mem, uint64_t *t, uint64_t *w, edan__fillers *fl)
{
    edan__cache_run(g, in, addr, vid, is_mem, t, w, fl, 0);
}
/* The copies for an access within one line: a load that edan__l1_hit did
   not find (most of a kernel's misses: a column's walk misses L1 at every
   access), a store. */
static EDAN__NOINLINE void edan__cache_load1(edan__cfg *g, const edan_insn *in, uint64_t addr, uint64_t vid,
                                             int *is_mem, uint64_t *t, uint64_t *w, edan__fillers *fl)
{
    edan__cache_run(g, in, addr, vid, is_mem, t, w, fl, EDAN_MEM_LOAD);
}
static EDAN__NOINLINE void edan__cache_store1(edan__cfg *g, const edan_insn *in, uint64_t addr, uint64_t vid,
                                              int *is_mem, uint64_t *t, uint64_t *w, edan__fillers *fl)
{
    edan__cache_run(g, in, addr, vid, is_mem, t, w, fl, EDAN_MEM_STORE);
}
/* edan__vertex's memory access (a load: L1 looked up and missed): a copy
   when it lies in one line, else edan__cache_access (across lines: no
   level holds all of it; an AMO). */
static EDAN__INLINE void edan__cache_one(edan__cfg *g, const edan_insn *in, uint64_t addr, uint64_t vid, int *is_mem,
                                         uint64_t *t, uint64_t *w, edan__fillers *fl)
{
    const uint32_t shift = g->lv[0].line_shift;
    if (in->mem != EDAN_MEM_NONE && in->mem != EDAN_MEM_AMO && addr >> shift == (addr + in->size - 1) >> shift) {
        if (in->mem == EDAN_MEM_LOAD) edan__cache_load1(g, in, addr, vid, is_mem, t, w, fl);
        else edan__cache_store1(g, in, addr, vid, is_mem, t, w, fl);
    } else {
        edan__cache_access(g, in, addr, vid, is_mem, t, w, fl);
    }
}

/* Vertex vid filled lines from RAM: their filler entries get its F and md. */
static EDAN__NOINLINE void edan__fillers_done(edan__cfg *g, const edan__fillers *fl, const edan_insn *in,
                                              uint64_t addr, uint64_t vid, uint64_t F, uint32_t md)
{
    uint32_t shift = g->lv[0].line_shift, i;
    uint64_t line, last = (addr + in->size - 1) >> shift;
    if (fl->one_line) {         /* filled where the lookups left their victims, nothing moved since */
        for (i = 0; i < g->c.num_levels; i++) {
            g->lv[i].fill[fl->at[i]].F = F;
            g->lv[i].fill[fl->at[i]].md = md;
        }
        return;
    }
    for (line = addr >> shift; line <= last; line++)
        for (i = 0; i < g->c.num_levels; i++) {
            long at = edan__find(&g->lv[i], line);
            if (at >= 0 && g->lv[i].fill[at].vid == vid) {
                g->lv[i].fill[at].F = F;
                g->lv[i].fill[at].md = md;
            }
        }
}

/* ---- per-PC statistics ------------------------------------------------- */
/* Room in g's table for `more` new keys (its load kept under 3/4); 0 when out of memory. */
static int edan__hot_room(edan_context *ctx, edan__cfg *g, size_t more)
{
    while ((g->hot_used + more) * 4 > g->hot_cap * 3) {
        size_t nc = g->hot_cap ? g->hot_cap * 2 : 256, i, j;
        edan__hot *nh = (edan__hot *)edan__calloc(&ctx->a, nc * sizeof(edan__hot));
        if (!nh) return 0;
        for (j = 0; j < g->hot_cap; j++) {
            if (!g->hot[j].key) continue;
            for (i = edan__hash64(g->hot[j].key, nc - 1); nh[i].key; i = (i + 1) & (nc - 1)) {}
            nh[i] = g->hot[j];
        }
        edan__free(&ctx->a, g->hot);
        g->hot = nh;
        g->hot_cap = nc;
    }
    return 1;
}

static edan__hot *edan__hot_slot(edan_context *ctx, edan__cfg *g, uint64_t key)
{
    size_t mask, i;
    if (!edan__hot_room(ctx, g, 1)) return NULL;
    mask = g->hot_cap - 1;
    for (i = edan__hash64(key + 1, mask); g->hot[i].key; i = (i + 1) & mask)
        if (g->hot[i].key == key + 1) return &g->hot[i];
    g->hot[i].key = key + 1;
    g->hot_used++;
    return &g->hot[i];
}

/* A memory instruction executed: its PC's (its op's) statistics; served:
   1 + the slowest cache level that served it (0: none); 0 when out of memory. */
static EDAN__INLINE int edan__hot_count(edan_context *ctx, edan__cfg *g, const edan_insn *in, int is_mem, uint32_t md,
                                        uint32_t served)
{
    int has_pc = (in->flags & EDAN_INSN_HAS_PC) != 0;
    edan__hot *h = edan__hot_slot(ctx, g, has_pc ? in->pc : in->op);
    if (!h) return 0;
    h->has_pc = (uint32_t)has_pc;
    h->op = in->op;
    h->executed++;
    if (is_mem) {
        h->mem++;
        if (edan__chained(md)) h->chained++;
        if (md > h->max_md) h->max_md = md;
    } else if (served) {
        h->served[served - 1]++;
    }
    return 1;
}

/* ---- feeding ----------------------------------------------------------- */
typedef struct edan__pred {
    const uint64_t *F;      /* K finish times */
    const uint32_t *md;     /* K memory depths */
} edan__pred;

#define EDAN__MAX_PREDS (EDAN_MAX_SRC + EDAN_MAX_ACCESS)

/* A vertex's predecessors as they are found: their ids vid[0 .. n), each
   once (the edge count, the fill dependences' check), with their F and md
   in every configuration (pred[0 .. n)) or, in the lean copy (one
   configuration), only the largest F and md among them (S_max, md_max: the
   vertex's start and depth). The arrays are the caller's, with room for
   every predecessor added. */
typedef struct edan__pred_set {
    edan__pred *pred;
    uint64_t *vid;
    uint32_t n;
    uint32_t md_max;
    uint64_t S_max;
} edan__pred_set;

/* Adds a predecessor (its id, its F and md) to ps once. `lean`: keep only
   the id and the maxima; a repeated predecessor changes no maximum, so they
   need no check. */
static EDAN__INLINE void edan__add_pred(edan__pred_set *ps, uint64_t vid, const uint64_t *F, const uint32_t *md,
                                        int lean)
{
    uint32_t i;
    if (lean) edan__join(&ps->S_max, &ps->md_max, *F, *md);
    for (i = 0; i < ps->n; i++)
        if (ps->vid[i] == vid) return;
    ps->vid[ps->n] = vid;
    if (!lean) {
        ps->pred[ps->n].F = F;
        ps->pred[ps->n].md = md;
    }
    ps->n++;
}

/* pv is not const: GCC reads a const pointer to a partly filled array as a use */
static edan_result edan__dot_record(edan_context *ctx, uint64_t vid, const edan_insn *in, uint64_t *pv, uint32_t np)
{
    uint32_t i;
    if (ctx->dot_overflow) return EDAN_OK;
    if (vid > ctx->dot_max) {
        ctx->dot_overflow = 1;
        return EDAN_OK;
    }
    if (!edan__grow(&ctx->a, (void **)&ctx->dot_v, &ctx->dot_v_cap, vid + 1, sizeof(edan__dotv)))
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the graph");
    ctx->dot_v[vid].in = *in;
    ctx->dot_v[vid].fwd = 0;
    for (i = 0; i < np; i++) {
        if (!edan__grow(&ctx->a, (void **)&ctx->dot_e, &ctx->dot_e_cap, ctx->dot_e_n + 1, sizeof *ctx->dot_e))
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the graph");
        ctx->dot_e[ctx->dot_e_n][0] = pv[i];
        ctx->dot_e[ctx->dot_e_n][1] = vid;
        ctx->dot_e_n++;
    }
    for (i = 0; i < ctx->K; i++) {
        edan__cfg *g = &ctx->cfg[i];
        if (!g->dot_mem) {
            g->dot_mem = (uint8_t *)edan__calloc(&ctx->a, (size_t)ctx->dot_max + 1);
            g->dot_best = (uint64_t *)edan__calloc(&ctx->a, ((size_t)ctx->dot_max + 1) * sizeof(uint64_t));
            g->dot_F = (uint64_t *)edan__calloc(&ctx->a, ((size_t)ctx->dot_max + 1) * sizeof(uint64_t));
            g->dot_md = (uint32_t *)edan__calloc(&ctx->a, ((size_t)ctx->dot_max + 1) * sizeof(uint32_t));
            if (!g->dot_mem || !g->dot_best || !g->dot_F || !g->dot_md)
                return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the graph");
        }
    }
    return EDAN_OK;
}

/* ---- the critical chain, streamed (opts.chain) ------------------------- */
/* edan_get_critical_chain walks back from the first memory vertex of md D
   to its latest predecessor of the depth that made its md, and so on. Each
   step depends only on a vertex's predecessors, so it is taken when the
   vertex is fed: per configuration, cm(v) is the first memory vertex that
   the walk from v names (v itself for a memory vertex, unless a filler of
   its own md joined at its end: then the filler's), and cp(v), for a memory
   vertex, the next one it names after v. The table keeps every memory
   vertex (their cp links are the chains) and a vertex of no memory access
   only while it is a value's last writer (a register's or a byte's): when
   it fills up, the others go (edan__chtab_room). */
#define EDAN__CHN_WORDS(K) (3 + 3 * (size_t)(K))

static uint64_t *edan__chtab_find(const edan__chtab *T, size_t W, uint64_t vid)
{
    size_t mask = T->cap - 1, i;
    if (!T->cap) return NULL;
    for (i = edan__hash64(vid + 1, mask); T->t[i * W]; i = (i + 1) & mask)
        if (T->t[i * W] == vid + 1) return T->t + i * W;
    return NULL;
}

static uint64_t *edan__chn_find(const edan_context *ctx, uint64_t vid)
{
    const size_t W = EDAN__CHN_WORDS(ctx->K);
    uint64_t *e = edan__chtab_find(&ctx->chn_m, W, vid);
    return e ? e : edan__chtab_find(&ctx->chn_l, W, vid);
}

/* Table T again at cap entries (a power of 2), with the entries whose id
   keep() accepts (NULL: all): 0 when out of memory. */
static int edan__chtab_move(edan_context *ctx, edan__chtab *T, size_t cap, const uint64_t *keep, size_t nkeep);

static int edan__u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int edan__chn_push(edan_context *ctx, uint64_t **v, size_t *n, size_t *cap, uint64_t vid)
{
    if (!vid || (vid & EDAN__WSPLIT)) return 1;
    if (!edan__grow(&ctx->a, (void **)v, cap, *n + 1, sizeof **v)) return 0;
    (*v)[(*n)++] = vid;
    return 1;
}

/* The ids of the values' last writers (registers of every thread, saved
   ones too, and the bytes' writers), sorted, each once; NULL when out of
   memory (an empty list is not NULL). */
static uint64_t *edan__chn_roots(edan_context *ctx, size_t *n, size_t *scanned)
{
    const uint32_t K = ctx->K, R = ctx->num_regs;
    uint64_t *v = NULL;
    size_t cap = 0, j, w, u, r;
    uint32_t t, q;
    int ok = edan__grow(&ctx->a, (void **)&v, &cap, 1024, sizeof *v);
    *n = 0;
    for (r = 0; ok && r < R; r++) ok = edan__chn_push(ctx, &v, n, &cap, ctx->reg_vid[r]);
    for (t = 0; ok && t < ctx->th.n; t++) {
        const edan__thread *T = &ctx->th.t[t];
        if (T->state != 1) continue;
        for (r = 0; ok && T->regs && t != ctx->th.cur && r < R; r++) ok = edan__chn_push(ctx, &v, n, &cap, T->regs[r]);
        for (q = 0; ok && q < T->nsig; q++)
            for (r = 0; ok && r < R; r++) ok = edan__chn_push(ctx, &v, n, &cap, T->sig[q][r]);
    }
    for (j = 0; ok && j < ctx->ch_cap; j++) {
        if (!ctx->ch_keys[j]) continue;
        if (ctx->ch_keys[j] & EDAN__PG_DENSE) {
            for (w = 0; ok && w < EDAN__CHUNK_WORDS; w++)
                ok = edan__chn_push(ctx, &v, n, &cap, EDAN__WORD(ctx->ch_vals[j], w, K)[0]);
        } else {
            edan__sparse *sp = (edan__sparse *)ctx->ch_vals[j];
            for (u = 0; ok && u < sp->cap; u++)
                if (EDAN__SP_IDX(sp)[u]) ok = edan__chn_push(ctx, &v, n, &cap, EDAN__SP_ENT(sp, u, K)[0]);
        }
    }
    for (r = 1; ok && r < ctx->rec_used; r++)
        if (EDAN__REC_HEAD(ctx, r, K)->ref) ok = edan__chn_push(ctx, &v, n, &cap, EDAN__REC_HEAD(ctx, r, K)->vid);
    if (!ok) {
        edan__free(&ctx->a, v);
        return NULL;
    }
    *scanned = *n + R;
    qsort(v, *n, sizeof *v, edan__u64_cmp);
    for (j = 0, w = 0; j < *n; j++)
        if (!w || v[w - 1] != v[j]) v[w++] = v[j];
    *n = w;
    return v;
}

static int edan__chtab_move(edan_context *ctx, edan__chtab *T, size_t cap, const uint64_t *keep, size_t nkeep)
{
    const size_t W = EDAN__CHN_WORDS(ctx->K), mask = cap - 1;
    uint64_t *nt = (uint64_t *)edan__calloc(&ctx->a, cap * W * sizeof *nt);
    size_t i, j, n = 0;
    if (!nt) return 0;
    for (i = 0; i < T->cap; i++) {
        const uint64_t *e = T->t + i * W;
        uint64_t id;
        if (!e[0]) continue;
        id = e[0] - 1;
        if (keep && !bsearch(&id, keep, nkeep, sizeof *keep, edan__u64_cmp)) continue;
        for (j = edan__hash64(e[0], mask); nt[j * W]; j = (j + 1) & mask) {}
        memcpy(nt + j * W, e, W * sizeof *e);
        n++;
    }
    edan__free(&ctx->a, T->t);
    T->t = nt;
    T->cap = cap;
    T->used = n;
    return 1;
}

/* Room for one more entry in table T: the memory vertices' doubles; the
   others' keeps only the vertices that a value still names, at a size
   that leaves as many insertions before the next time as the roots and
   the entries kept cost to scan. 0 when out of memory. */
static int edan__chtab_room(edan_context *ctx, edan__chtab *T)
{
    size_t nroots = 0, scanned, cap = 1024;
    uint64_t *roots;
    int ok;
    if (4 * (T->used + 1) <= 3 * T->cap) return 1;
    if (T == &ctx->chn_m || !T->cap) return edan__chtab_move(ctx, T, T->cap ? 2 * T->cap : cap, NULL, 0);
    if (!(roots = edan__chn_roots(ctx, &nroots, &scanned))) return 0;
    ok = edan__chtab_move(ctx, T, T->cap, roots, nroots);
    while (ok && cap < 2 * T->used + scanned / 4 + 1024) cap *= 2;
    if (ok && cap != T->cap) ok = edan__chtab_move(ctx, T, cap, NULL, 0);
    edan__free(&ctx->a, roots);
    return ok;
}

/* Configuration k's cm of vertex u (0: none), and where the walk goes on
   from u's start (a forwarded load's store): cp for a memory vertex, else cm. */
static uint64_t edan__chn_cm(const edan_context *ctx, uint64_t u, uint32_t k, int at_start)
{
    const uint64_t *e = edan__chn_find(ctx, u);
    if (!e) return 0;
    e += 3 + 3 * (size_t)k;
    return at_start && e[2] ? e[1] : e[0];
}

/* Configuration k's cm and cp of vertex vid (md, is_mem; its predecessors
   pv[0 .. np) with their depths preds[i].md[k], fwd a forwarded load's
   store, g->chn_f its fill edges), as edan_get_critical_chain's walk
   would step from it. */
static void edan__chn_part(const edan_context *ctx, const edan__cfg *g, uint32_t k, uint64_t vid, int is_mem,
                           uint32_t md, const uint64_t *pv, const edan__pred *preds, uint32_t np, uint64_t fwd,
                           uint64_t *out)
{
    uint64_t best = 0;
    uint32_t i, want = md - (uint32_t)(is_mem != 0);
    size_t f;
    out[0] = out[1] = 0;
    out[2] = (uint64_t)(is_mem != 0);
    if (!md) return;
    for (i = 0; want && i < np; i++)       /* the latest register or byte writer of depth `want` */
        if (pv[i] != fwd && preds[i].md[k] == want && pv[i] > best) best = pv[i];
    if (is_mem) {
        out[1] = best ? edan__chn_cm(ctx, best, k, 0) : 0;
        for (f = 0, best = 0; f < g->chn_nf; f++)      /* a filler of its own md, joined at its end */
            if (g->chn_f[f][1] == md && g->chn_f[f][0] > best) best = g->chn_f[f][0];
        out[0] = best ? edan__chn_cm(ctx, best, k, 0) : vid;
        return;
    }
    for (f = 0; f < g->chn_nf; f++)
        if (g->chn_f[f][1] == md && g->chn_f[f][0] > best) best = g->chn_f[f][0];
    if (best) out[0] = edan__chn_cm(ctx, best, k, 0);
    else if (fwd) out[0] = edan__chn_cm(ctx, fwd, k, 1);
}

/* Vertex vid (instruction in) fed: its entry with each configuration's
   parts (part[3 k ..]), kept when it has a depth somewhere or is a memory
   vertex; each configuration's first memory vertex of the largest md. */
static edan_result edan__chn_put(edan_context *ctx, uint64_t vid, const edan_insn *in, const uint64_t *part)
{
    const uint32_t K = ctx->K;
    const size_t W = EDAN__CHN_WORDS(K);
    size_t mask, i;
    uint32_t k;
    int need = 0, mem = 0;
    uint64_t *e;
    edan__chtab *T;
    for (k = 0; k < K; k++) {
        edan__cfg *g = &ctx->cfg[k];
        need |= part[3 * k] != 0;
        mem |= part[3 * k + 2] != 0;
        g->chn_nf = 0;
    }
    if (!need && !mem) return EDAN_OK;
    T = mem ? &ctx->chn_m : &ctx->chn_l;
    if (!edan__chtab_room(ctx, T)) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the critical chain");
    mask = T->cap - 1;
    for (i = edan__hash64(vid + 1, mask); T->t[i * W]; i = (i + 1) & mask) {}
    e = T->t + i * W;
    e[0] = vid + 1;
    e[1] = in->pc;
    e[2] = in->op | (uint64_t)in->flags << 32;
    memcpy(e + 3, part, 3 * K * sizeof *part);
    T->used++;
    return EDAN_OK;
}

/* After configuration k's part of memory vertex vid of depth md: the first of the largest md. */
static EDAN__INLINE void edan__chn_end(edan__cfg *g, uint64_t vid, int is_mem, uint32_t md)
{
    if (is_mem && md > g->chn_endmd) {
        g->chn_end = vid;
        g->chn_endmd = md;
    }
}

/* The checks of an instruction (edan_prepare); grows the op histogram for
   a new op id, so that feeding needs no check. */
static edan_result edan__check(edan_context *ctx, const edan_insn *in)
{
    uint32_t i;
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
    if (in->mem != EDAN_MEM_NONE && (in->mem > EDAN_MEM_AMO || in->size == 0 || in->size > EDAN_MAX_ACCESS))
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: bad memory access (kind %u, size %u)",
                          (unsigned long long)ctx->N + 1, in->mem, in->size);
    if (in->cls >= EDAN_CLASS_COUNT)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: unknown class %u",
                          (unsigned long long)ctx->N + 1, in->cls);
    if (in->op >= ctx->op_cap) {
        if (in->op >= EDAN_MAX_OP)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: op id %u out of range",
                              (unsigned long long)ctx->N + 1, in->op);
        if (!edan__grow(&ctx->a, (void **)&ctx->op_count, &ctx->op_cap, (size_t)in->op + 1, sizeof(uint64_t)))
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory");
    }
    return EDAN_OK;
}

/* The operand fields of a prepared instruction (all but `in` and `owner`). */
static EDAN__INLINE void edan__operands(const edan_insn *in, edan_prepared *out)
{
    uint32_t i, j;
    out->edan__.reads_mem = in->mem == EDAN_MEM_LOAD || in->mem == EDAN_MEM_AMO;
    out->edan__.writes_mem = in->mem == EDAN_MEM_STORE || in->mem == EDAN_MEM_AMO;
    out->edan__.nsrc = out->edan__.ndst = 0;
    for (i = 0; i < in->nsrc; i++) {
        if (!in->src[i]) continue;                  /* register 0: a constant */
        for (j = 0; j < out->edan__.nsrc && out->edan__.src[j] != in->src[i]; j++) {}
        if (j == out->edan__.nsrc) out->edan__.src[out->edan__.nsrc++] = in->src[i];
    }
    for (i = 0; i < in->ndst; i++)
        if (in->dst[i]) out->edan__.dst[out->edan__.ndst++] = in->dst[i];
}

edan_result edan_prepare(edan_context *ctx, const edan_insn *in, edan_prepared *out)
{
    edan_result r;
    if (ctx && in) edan__j_prep(ctx, in);
    if ((r = edan__check(ctx, in)) != EDAN_OK) return r;
    memset(out, 0, sizeof *out);
    out->in = *in;
    out->edan__.owner = ctx;
    edan__operands(in, out);
    if (out->edan__.ndst > 1) ctx->multi_dst = 1;
    if (out->edan__.writes_mem && out->edan__.ndst) ctx->store_dst = 1;
    return EDAN_OK;
}

/* ---- the layer histogram ----------------------------------------------- */
/* W_i, the memory vertices at memory depth i, for i = 1..D, in about a byte
   per layer: D grows with the trace (a pointer chase's is its length), the
   rest of the state with the footprint. Layer i's byte, at (i - 1) mod
   EDAN__LPAGE of page (i - 1) / EDAN__LPAGE, is its count up to 254; 255
   says the layer is big: its count is in the big table (layer -> count,
   open addressing, 12 bytes an entry, at most 3/4 full), which has at most
   one layer for every 255 memory vertices, plus the vertices counted in
   its counter of recent ones, if it holds one. Counter i mod
   EDAN__LRECENT is big layer i's while i's vertices keep coming, until a
   layer EDAN__LRECENT away takes it: a vertex of a big layer costs a
   counter's increment (a streaming kernel's few layers of millions of
   vertices each), not a look-up in the table. A page whose bytes are all
   one count (a chase's layers all hold the same few vertices) keeps that
   count alone once D is a page past it, and gets bytes back when one of
   its layers grows; a compiled block, which cannot stop half-way, takes
   them from the spares its room made.
   The layered sum, sum_i ceil(W_i / m), is kept as the layers grow, so that
   reading it never passes over the layers: for the small ones, the number
   of layers of each count (n[c]) gives it at any m. A big layer's
   ceil(c / m) grows by one when a vertex comes at a count c that m
   divides: for m = 2^k, when c has k trailing zeros or more, so that
   counting the increments by their trailing zeros (tz) gives every power
   of 2; another m is kept for itself, opts.m's from the start and the last
   8 others asked (an m asked for the first time passes over the big table
   once). A counter's vertices go into these when another layer takes it
   and before a reading (which passes over the EDAN__LRECENT counters). */
static void edan__layers_init(edan__layers *L, const uint32_t *m, uint32_t num_m)
{
    uint32_t j;
    for (j = 0; j < num_m; j++)
        if (m[j] & (m[j] - 1)) L->tracked_m[L->ntracked++] = m[j];
    L->nfixed = L->ntracked;
}

static void edan__layers_free(const edan_allocator *a, edan__layers *L)
{
    size_t i;
    for (i = 0; i < L->npage; i++) edan__free(a, L->page[i].b);
    for (i = 0; i < L->nspare; i++) edan__free(a, L->spare[i]);
    edan__free(a, L->page);
    edan__free(a, L->spare);
    edan__free(a, L->big);
}

/* Layer `layer`'s slot in the big table, or the empty one it would take. */
static edan__lbig *edan__lbig_slot(const edan__layers *L, uint32_t layer)
{
    size_t mask = L->big_cap - 1, h = (size_t)(((uint64_t)layer * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    while (L->big[h].layer && L->big[h].layer != layer) h = (h + 1) & mask;
    return &L->big[h];
}

/* Room in the big table for `more` layers. */
static int edan__lbig_room(const edan_allocator *a, edan__layers *L, size_t more)
{
    edan__lbig *old = L->big;
    size_t oc = L->big_cap, nc = oc ? oc : 64, i;
    if ((L->big_used + more) * 4 <= oc * 3) return 1;
    while ((L->big_used + more) * 4 > nc * 3) nc *= 2;
    L->big = (edan__lbig *)edan__calloc(a, nc * sizeof *L->big);
    if (!L->big) {
        L->big = old;
        return 0;
    }
    L->big_cap = nc;
    for (i = 0; i < oc; i++)
        if (old[i].layer) *edan__lbig_slot(L, old[i].layer) = old[i];
    edan__free(a, old);
    return 1;
}

/* Bytes for a page, a spare's or new (NULL when out of memory). */
static uint8_t *edan__layers_bytes(const edan_allocator *a, edan__layers *L)
{
    return L->nspare ? L->spare[--L->nspare] : (uint8_t *)edan__alloc(a, EDAN__LPAGE);
}

/* Page q without its bytes when they are all one value. */
static void edan__layers_squeeze(const edan_allocator *a, edan__layers *L, size_t q)
{
    uint8_t *b = L->page[q].b;
    if (!b || memcmp(b, b + 1, EDAN__LPAGE - 1)) return;
    L->page[q].fill = b[0];
    L->page[q].b = NULL;
    L->uniform++;
    if (L->nspare < 2 && edan__grow(a, (void **)&L->spare, &L->spare_cap, L->nspare + 1, sizeof *L->spare))
        L->spare[L->nspare++] = b;      /* for the next page: a chase's pages go round without malloc */
    else
        edan__free(a, b);
}

/* The pages of the layers up to d (zero counts); each new page squeezes
   the one two before it. */
static EDAN__NOINLINE int edan__layers_pages(const edan_allocator *a, edan__layers *L, uint64_t d)
{
    while (L->npage <= (d - 1) >> EDAN__LPAGE_BITS) {
        uint8_t *b;
        if (!edan__grow(a, (void **)&L->page, &L->page_cap, L->npage + 1, sizeof *L->page) ||
            !(b = edan__layers_bytes(a, L)))
            return 0;
        memset(b, 0, EDAN__LPAGE);
        L->page[L->npage].b = b;
        L->page[L->npage].fill = 0;
        if (++L->npage >= 3) edan__layers_squeeze(a, L, L->npage - 3);
    }
    return 1;
}

static EDAN__INLINE uint32_t edan__ctz64(uint64_t c)     /* c > 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(c);
#else
    uint32_t t = 0;
    while (!(c & 1)) c >>= 1, t++;
    return t;
#endif
}

/* k more vertices in big layer e: the increments' trailing zeros and, for
   each m kept, the multiples of m among the counts they come at. */
static void edan__lbig_more(edan__layers *L, edan__lbig *e, uint64_t k)
{
    const uint64_t c = (uint64_t)e->hi << 32 | e->lo, last = c + k - 1;
    uint64_t at = k, next;      /* the counts in c .. last that 2^t divides, then 2^(t+1) */
    uint32_t t, j;
    for (t = 0; at; t++, at = next) {
        next = t < 63 ? (last >> (t + 1)) - ((c - 1) >> (t + 1)) : 0;
        L->big_by_tz[t] += at - next;
    }
    for (j = 0; j < L->ntracked; j++) L->tracked_big[j] += last / L->tracked_m[j] - (c - 1) / L->tracked_m[j];
    e->lo = (uint32_t)(c + k);
    e->hi = (uint32_t)((c + k) >> 32);
}

/* The vertices counted in recent[r], into the big table and the sums. */
static void edan__layers_flush1(edan__layers *L, uint32_t r)
{
    edan__lrecent *t = &L->recent[r];
    if (t->n) edan__lbig_more(L, edan__lbig_slot(L, t->layer), t->n);
    t->n = 0;
}

/* One more vertex in layer x + 1 whose page has no bytes, whose count
   becomes 255 (big), or a big one without its counter of recent vertices:
   0 when out of memory (not after a compiled block's room). */
static EDAN__NOINLINE int edan__layer_add_slow(const edan_allocator *a, edan__layers *L, size_t x)
{
    edan__lpage *pg = &L->page[x >> EDAN__LPAGE_BITS];
    const uint32_t r = (uint32_t)((x + 1) & (EDAN__LRECENT - 1));
    uint8_t *b = pg->b, c;
    edan__lbig *e;
    uint32_t j;
    if (!b) {
        if (!(b = edan__layers_bytes(a, L))) return 0;
        memset(b, pg->fill, EDAN__LPAGE);
        pg->b = b;
        L->uniform--;
    }
    b += x & (EDAN__LPAGE - 1);
    c = *b;
    if (c < EDAN__LBIG - 1) {
        *b = (uint8_t)(c + 1);
        L->n[c]--;
        L->n[c + 1]++;
    } else if (c == EDAN__LBIG) {       /* its counter, taken from the layer that had it */
        edan__layers_flush1(L, r);
        L->recent[r].layer = (uint32_t)(x + 1);
        L->recent[r].n = 1;
    } else {        /* its 255th vertex: into the big table */
        if (!edan__lbig_room(a, L, 1)) return 0;
        e = edan__lbig_slot(L, (uint32_t)(x + 1));
        e->layer = (uint32_t)(x + 1);
        e->lo = EDAN__LBIG;
        L->big_used++;
        *b = EDAN__LBIG;
        L->n[c]--;
        for (j = 0; j < L->ntracked; j++) L->tracked_big[j] += ((uint64_t)EDAN__LBIG + L->tracked_m[j] - 1) / L->tracked_m[j];
    }
    return 1;
}

/* One more memory vertex at depth d (at most D + 1): 0 when out of memory. */
static EDAN__INLINE int edan__layer_add(const edan_allocator *a, edan__layers *L, uint32_t d)
{
    size_t x;
    uint8_t *b;
    /* a big layer that holds its counter, as a streaming kernel's few
       layers of millions of vertices do: the branch laid out straight */
    if (EDAN__LIKELY(L->recent[d & (EDAN__LRECENT - 1)].layer == d)) {
        L->recent[d & (EDAN__LRECENT - 1)].n++;
        return 1;
    }
    x = (size_t)d - 1;
    if (d > L->D) {
        if (x >> EDAN__LPAGE_BITS >= L->npage && !edan__layers_pages(a, L, d)) return 0;
        L->D = d;
    }
    b = L->page[x >> EDAN__LPAGE_BITS].b;
    if (b) {
        const uint32_t c = b[x & (EDAN__LPAGE - 1)];
        if (c < EDAN__LBIG - 1) {
            b[x & (EDAN__LPAGE - 1)] = (uint8_t)(c + 1);
            L->n[c]--;
            L->n[c + 1]++;
            return 1;
        }
    }
    return edan__layer_add_slow(a, L, x);
}

/* Room for n more memory vertices (a compiled block's) that allocates
   nothing: their pages, the bytes of as many pages without, n big layers. */
static EDAN__NOINLINE int edan__layers_room_slow(const edan_allocator *a, edan__layers *L, uint32_t n)
{
    size_t want;
    if (!edan__layers_pages(a, L, (uint64_t)L->D + n)) return 0;
    want = n < L->uniform ? n : L->uniform;
    if (!edan__grow(a, (void **)&L->spare, &L->spare_cap, want, sizeof *L->spare)) return 0;
    while (L->nspare < want) {
        uint8_t *b = (uint8_t *)edan__alloc(a, EDAN__LPAGE);
        if (!b) return 0;
        L->spare[L->nspare++] = b;
    }
    return edan__lbig_room(a, L, n);
}
static EDAN__INLINE int edan__layers_room(const edan_allocator *a, edan__layers *L, uint32_t n)
{
    if (!n || ((((uint64_t)L->D + n - 1) >> EDAN__LPAGE_BITS) < L->npage &&
               L->nspare >= (n < L->uniform ? n : L->uniform) && (L->big_used + n) * 4 <= L->big_cap * 3))
        return 1;
    return edan__layers_room_slow(a, L, n);
}

/* W_i, for a layer i in 1..D. */
static uint64_t edan__layer_count(const edan__layers *L, uint64_t i)
{
    const edan__lpage *pg = &L->page[(i - 1) >> EDAN__LPAGE_BITS];
    uint8_t c = pg->b ? pg->b[(i - 1) & (EDAN__LPAGE - 1)] : pg->fill;
    const uint32_t r = (uint32_t)(i & (EDAN__LRECENT - 1));
    const edan__lbig *e;
    if (c < EDAN__LBIG) return c;
    e = edan__lbig_slot(L, (uint32_t)i);
    return ((uint64_t)e->hi << 32 | e->lo) + (L->recent[r].layer == i ? L->recent[r].n : 0);
}

/* sum_i ceil(W_i / m): the small layers by their counts' numbers, the big
   ones as kept for m, kept from now on when m is not yet. */
static uint64_t edan__layered_sum(edan__layers *L, uint32_t m)
{
    uint64_t s = 0;
    uint32_t c, j;
    size_t i;
    for (c = 1; c < EDAN__LBIG; c++) s += L->n[c] * (((uint64_t)c + m - 1) / m);
    if (!L->big_used) return s;
    for (j = 0; j < EDAN__LRECENT; j++) edan__layers_flush1(L, j);
    if (!(m & (m - 1))) {   /* each big layer's ceil(255 / m), and the increments at multiples of m */
        s += L->big_used * (((uint64_t)EDAN__LBIG + m - 1) / m);
        for (c = edan__ctz64(m); c < 64; c++) s += L->big_by_tz[c];
        return s;
    }
    for (j = 0; j < L->ntracked && L->tracked_m[j] != m; j++) {}
    if (j == L->ntracked) {
        j = L->ntracked < EDAN__TRACK ? L->ntracked++ : L->nfixed + L->tracked_next++ % (EDAN__TRACK - L->nfixed);
        L->tracked_m[j] = m;
        L->tracked_big[j] = 0;
        for (i = 0; i < L->big_cap; i++)
            if (L->big[i].layer) L->tracked_big[j] += (((uint64_t)L->big[i].hi << 32 | L->big[i].lo) + m - 1) / m;
    }
    return s + L->tracked_big[j];
}

/* ---- a vertex into the totals ------------------------------------------ */
/* Room in g's timeline for a vertex finishing at F (its bins up to F/tau
   + 1): while that would take more than ctx->tl_max bins, tau doubles and
   every other bin is kept (U'_j = U_2j: a vertex is under way at 2 tau j
   iff it is at tau (2j)), the differences rebuilt in place. 0 when out of
   memory. */
static int edan__tl_room(edan_context *ctx, edan__cfg *g, uint64_t F)
{
    uint64_t need = F / g->c.tau + 2;
    while (need > ctx->tl_max) {
        size_t i, n = g->tl_cap;
        int64_t run = 0, prev = 0;
        for (i = 0; i < n; i++) {       /* index i / 2 <= i: read before it is written */
            run += g->tl_diff[i];
            if (!(i & 1)) {
                g->tl_diff[i / 2] = run - prev;
                prev = run;
            }
        }
        for (i = (n + 1) / 2; i < n; i++) g->tl_diff[i] = 0;
        g->c.tau *= 2;
        need = F / g->c.tau + 2;
    }
    return edan__grow(&ctx->a, (void **)&g->tl_diff, &g->tl_cap, (size_t)need, sizeof(int64_t));
}

/* The fill dependences of vertex vid in configuration g: each filler
   raises *S (then *best names it) and *md; one that is not among the
   other predecessors pv[0 .. npv) is a fill edge (recorded for the graph). */
static EDAN__NOINLINE edan_result edan__fill_deps(edan_context *ctx, edan__cfg *g, const edan__fillers *fl, uint64_t vid,
                                                  const uint64_t *pv, uint32_t npv, uint64_t *S, uint32_t *md,
                                                  uint64_t *best)
{
    uint32_t i, j;
    for (i = 0; i < fl->n; i++) {
        const edan__filler *f = &fl->f[i];
        if (best && f->F > *S) *best = f->vid;
        edan__join(S, md, f->F, f->md);
        for (j = 0; j < npv && pv[j] != f->vid; j++) {}
        if (j < npv) continue;
        g->fill_edges++;
        if (ctx->chn) {
            if (!edan__grow(&ctx->a, (void **)&g->chn_f, &g->chn_fcap, g->chn_nf + 1, sizeof *g->chn_f))
                return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the critical chain");
            g->chn_f[g->chn_nf][0] = f->vid;
            g->chn_f[g->chn_nf++][1] = f->md;
        }
        if (ctx->dot_max && !ctx->dot_overflow && vid <= ctx->dot_max) {
            if (!edan__grow(&ctx->a, (void **)&g->dot_fe, &g->dot_fe_cap, g->dot_fe_n + 1, sizeof *g->dot_fe))
                return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory recording the graph");
            g->dot_fe[g->dot_fe_n][0] = f->vid;
            g->dot_fe[g->dot_fe_n][1] = vid;
            g->dot_fe_n++;
        }
    }
    return EDAN_OK;
}

/* edan__fill_dep without a graph recorded */
static EDAN__INLINE void edan__fill_join(edan__cfg *g, const edan__filler *f, const uint64_t *pv, uint32_t npv,
                                         uint64_t *S, uint32_t *md)
{
    uint32_t j;
    edan__join(S, md, f->F, f->md);
    for (j = 0; j < npv && pv[j] != f->vid; j++) {}
    g->fill_edges += j == npv;
}
/* One filler f of vertex vid (not vid itself): edan__fill_deps of one,
   inline (best matters only for a recorded graph, which takes that way). */
static EDAN__INLINE edan_result edan__fill_dep(edan_context *ctx, edan__cfg *g, const edan__filler *f, uint64_t vid,
                                               const uint64_t *pv, uint32_t npv, uint64_t *S, uint32_t *md,
                                               uint64_t *best)
{
    if (ctx->dot_max || ctx->chn) {
        edan__fillers one;
        one.n = 1;
        one.f[0] = *f;
        return edan__fill_deps(ctx, g, &one, vid, pv, npv, S, md, best);
    }
    edan__fill_join(g, f, pv, npv, S, md);
    return EDAN_OK;
}

/* A memory access vertex of configuration g at depth md: its layer, and
   whether it is chained; the current thread's deepest. 0 when out of
   memory for the layer (never when room was made: edan__layers_room). */
static EDAN__INLINE int edan__mem_depth(edan_context *ctx, edan__cfg *g, uint32_t md)
{
    if (!edan__layer_add(&ctx->a, &g->lay, md)) return 0;
    if (edan__chained(md)) g->chained++;
    if (md > g->thr_md) g->thr_md = md;
    return 1;
}

/* ---- the windowed schedule: a vertex ------------------------------------ */
/* pk: the times are packed (ctx->wpk; a constant where a pass is
   compiled for each): k is 0 and never stored, so that a pass keeps and
   moves one word a time. */
static EDAN__INLINE edan__wt edan__wt_max(edan__wt a, edan__wt b, int pk)
{
    if (pk) {
        a.v = a.v > b.v ? a.v : b.v;
        a.k = 0;
        return a;
    }
    return a.v > b.v || (a.v == b.v && a.k > b.k) ? a : b;
}
static EDAN__INLINE int edan__wt_lt(edan__wt a, edan__wt b, int pk)
{
    if (pk) return a.v < b.v;
    return a.v < b.v || (a.v == b.v && a.k < b.k);
}
/* a + c cycles as the schedule holds them (shifted: edan__win's) of which
   n are RAM latencies */
static EDAN__INLINE edan__wt edan__wt_add(edan__wt a, uint64_t c, uint64_t n, int pk)
{
    a.v += c + (pk ? n : 0);
    a.k = pk ? 0 : a.k + n;
    return a;
}
static EDAN__INLINE void edan__wt_put(edan__wt *at, edan__wt x, int pk)
{
    at->v = x.v;
    if (!pk) at->k = x.k;
}
static EDAN__INLINE edan__wt edan__wt_get(const edan__wt *at, int pk)
{
    edan__wt r = *at;
    if (pk) r.k = 0;
    return r;
}
/* A packed time as the pair. */
static EDAN__INLINE edan__wt edan__wt_unpack(edan__wt x, uint32_t kb)
{
    edan__wt r;
    r.v = x.v >> kb;
    r.k = x.v & (((uint64_t)1 << kb) - 1);
    return r;
}

/* The thread whose stretch holds vertex id u (the last one found, else
   by binary search), as seg's index. */
static size_t edan__seg_of(edan_context *ctx, uint64_t u)
{
    size_t lo = ctx->th.seg_hit, hi = ctx->th.nseg;
    if (!(lo < hi && ctx->th.seg[lo][0] <= u && (lo + 1 == hi || u < ctx->th.seg[lo + 1][0]))) {
        lo = 0;
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            if (ctx->th.seg[mid][0] <= u) lo = mid;
            else hi = mid;
        }
        ctx->th.seg_hit = lo;
    }
    return lo;
}

/* Where predecessor u of the current vertex vid is: its thread's
   schedules *w, how many of that thread's vertices came after it (*d, 1
   for the vertex before the current one) and, for another thread's, its
   stretch *sg; 0 when it is not among that thread's last ctx->wR (it has
   left every window; *w NULL: a vertex no schedule saw). */
static int edan__win_where(edan_context *ctx, uint64_t u, uint64_t vid, edan__wthr **w, uint64_t *d, size_t *sg)
{
    edan__wthr *o;
    uint64_t n, t, at;
    *sg = 0;
    if (u >= ctx->th.seg_start) {   /* the running thread's stretch (all of it with one thread) */
        *w = ctx->wcur;
        *d = vid - u;
        return *d <= ctx->wR;
    }
    *sg = edan__seg_of(ctx, u);
    t = ctx->th.nseg ? ctx->th.seg[*sg][1] : 0;
    *w = o = t < ctx->wt_cap ? ctx->wt[t] : NULL;
    if (!o || o->gone) return 0;
    n = o->n - (o == ctx->wcur);       /* the current vertex is counted already */
    at = ctx->th.seg[*sg][2] + (u - ctx->th.seg[*sg][0]);      /* u's place among its thread's vertices */
    if (o->n > ctx->wR && at < o->n - ctx->wR) return 0;
    *d = n - at;
    return 1;
}

/* Predecessor u's time in schedule j: its finish as its successors see
   it (its start: a forwarding store's). Once it has left its window: the
   running thread's own finished before the current vertex's dispatch (it
   retired before the vertex R earlier did), so it counts with nothing;
   another thread's counts with that thread's retirement when the stretch
   that holds it ended (it was switched away from), a bound on its finish
   that the windows do not keep (edan-model: the note on threads). */
/* Schedule s's vertex d back from its next one (1 <= d <= s->R): its finish
   as its successors see it, or its start. */
static EDAN__INLINE const edan__went *edan__ring_back(const edan__went *ring, uint32_t R, uint32_t ri, uint64_t d)
{
    return &ring[ri >= d ? ri - (uint32_t)d : ri + R - (uint32_t)d];
}
static EDAN__INLINE edan__wt edan__win_back(const edan__win *s, uint64_t d, int start)
{
    const edan__went *e = edan__ring_back(s->ring, s->R, s->ri, d);
    return start ? e->S : e->F;
}

static EDAN__NOINLINE edan__wt edan__win_at_far(edan_context *ctx, uint64_t u, uint64_t vid, uint32_t j, int start)
{
    edan__wthr *w;
    uint64_t d = 0;
    size_t sg;
    edan__wt z = {0, 0};
    int in = edan__win_where(ctx, u, vid, &w, &d, &sg);
    const edan__win *s;
    if (!w) return z;
    if (w->gone || !in || d > w->s[j].R) {
        if (w == ctx->wcur) return z;
        return sg < ctx->wseg_n ? ctx->wseg[sg * ctx->wn + j] : z;
    }
    s = &w->s[j];
    return edan__win_back(s, d, start);
}

/* edan__win_at_far with the common case inline: a predecessor of the
   running thread's current stretch (all of them with one thread). */
static EDAN__INLINE edan__wt edan__win_at(edan_context *ctx, uint64_t u, uint64_t vid, uint32_t j, int start)
{
    if (u >= ctx->th.seg_start) {
        const edan__win *s = &ctx->wcur->s[j];
        const uint64_t d = vid - u;
        edan__wt z = {0, 0};
        if (d > s->R) return z;         /* it finished before the current vertex's dispatch */
        return edan__win_back(s, d, start);
    }
    return edan__win_at_far(ctx, u, vid, j, start);
}

/* The running thread's stretch ends (a switch, its exit): each schedule's
   last retirement is its vertices' bound once they leave its window
   (edan__win_at). 0 when out of memory. */
static int edan__win_stretch_end(edan_context *ctx)
{
    size_t sg = ctx->th.nseg ? ctx->th.nseg - 1 : 0;
    uint32_t j;
    if (!ctx->wn || !ctx->wcur || !ctx->th.nseg) return 1;
    EDAN__WQ_IDLE(ctx);
    if (!edan__grow(&ctx->a, (void **)&ctx->wseg, &ctx->wseg_cap, (sg + 1) * ctx->wn, sizeof(edan__wt))) return 0;
    for (j = 0; j < ctx->wn; j++) ctx->wseg[sg * ctx->wn + j] = ctx->wcur->s[j].last;
    if (ctx->wseg_n < sg + 1) ctx->wseg_n = sg + 1;
    return 1;
}

/* The next vertex of schedule s's thread, its predecessors finished by S
   (and, for fillers that join at its end, by Fend): dispatched `width` a
   cycle, after the vertex R earlier retired, the load LQ loads earlier
   retired, the store SQ stores earlier drained; a memory access vertex
   (is_mem) holds a slot for alpha, anything else takes t; a store retires
   into the store buffer a cycle after its start; retired in order. kind:
   EDAN_MEM_*, an AMO a load and a store. The rings start zeroed, so that
   the first vertices' constraints cost nothing: disp[] holds the earliest
   dispatch of the vertex `width` later (a dispatch + 1). Returns its
   finish as its successors see it (the caller keeps it in registers: read
   back from the ring, the two halves just stored cannot be forwarded to
   one wide load, a stall of a dozen cycles a vertex). The ring's and the
   dispatch's places and the last retirement at *ri, *di, *last (a pass's
   locals, kept in registers), or s's own (edan__win_step). */
static EDAN__INLINE edan__wt edan__win_step_at(edan__win *s, uint32_t *ri, uint32_t *di, edan__wt *last, int kind,
                                              int is_mem, uint64_t t, edan__wt S, edan__wt Fend, int pk)
{
    edan__wt d = edan__wt_max(s->disp[*di], s->ring[*ri].ret, pk), st, F, seen, ret;
    if (kind != EDAN_MEM_NONE) {
        if (kind != EDAN_MEM_STORE) d = edan__wt_max(d, s->lq[s->li], pk);
        if (kind != EDAN_MEM_LOAD) d = edan__wt_max(d, s->sq[s->si], pk);
    }
    edan__wt_put(&s->disp[*di], edan__wt_add(d, s->one, 0, pk), pk);
    if (++*di == s->width) *di = 0;
    st = edan__wt_max(d, S, pk);
    if (is_mem) {
        /* a slot free at its ready time, the one freed last (a slot freed
           earlier stays for a later vertex ready sooner: this one's start
           is the same), else the first to be free; held until its finish.
           slot[] ascends: the one taken moves up to its new free time's
           place */
        const uint32_t m = s->m;
        edan__wt *slot = s->slot + s->sh;
        uint32_t at = 0;
        if (edan__wt_lt(st, slot[0], pk)) {     /* every slot busy (a throughput-bound kernel's) */
            st = edan__wt_get(&slot[0], pk);
        } else {
            at = m - 1;
            while (edan__wt_lt(st, slot[at], pk)) at--;     /* stops at 0 */
        }
        F = edan__wt_add(st, s->alpha, 1, pk);
        if (edan__wt_lt(F, slot[m - 1], pk)) {      /* freed before another: its place among them */
            while (at + 1 < m && edan__wt_lt(slot[at + 1], F, pk)) {
                edan__wt_put(&slot[at], slot[at + 1], pk);
                at++;
            }
        } else if (at == 0) {       /* the first taken, the last to be free: the slots slide up one */
            if (s->sh + m == EDAN__WSLOTS(m)) {
                memmove(s->slot, slot + 1, (m - 1) * sizeof *slot);
                s->sh = 0;
            } else {
                s->sh++;
            }
            slot = s->slot + s->sh;
            at = m - 1;
        } else {
            for (; at + 1 < m; at++) edan__wt_put(&slot[at], slot[at + 1], pk);
        }
        edan__wt_put(&slot[at], F, pk);
    } else {
        F = edan__wt_add(st, t, 0, pk);
    }
    F = edan__wt_max(F, Fend, pk);
    seen = kind == EDAN_MEM_STORE ? edan__wt_add(st, s->one, 0, pk) : F;     /* a store retires into the store buffer */
    ret = edan__wt_max(*last, seen, pk);
    if (kind != EDAN_MEM_NONE) {
        if (kind != EDAN_MEM_LOAD) {
            edan__wt_put(&s->sq[s->si], edan__wt_max(ret, F, pk), pk);
            if (++s->si == s->SQ) s->si = 0;
        }
        if (kind != EDAN_MEM_STORE) {
            edan__wt_put(&s->lq[s->li], ret, pk);
            if (++s->li == s->LQ) s->li = 0;
        }
    }
    edan__wt_put(&s->ring[*ri].F, seen, pk);
    edan__wt_put(&s->ring[*ri].S, st, pk);
    edan__wt_put(&s->ring[*ri].ret, ret, pk);
    if (++*ri == s->R) *ri = 0;
    *last = ret;
    return seen;
}
static EDAN__INLINE edan__wt edan__win_step(edan__win *s, int kind, int is_mem, uint64_t t, edan__wt S, edan__wt Fend,
                                           int pk)
{
    return edan__win_step_at(s, &s->ri, &s->di, &s->last, kind, is_mem, t, S, Fend, pk);
}

/* Packed times: n more vertices might pass their bound (every time held
   is at most the latest retirement so far, wtop, and a vertex adds at most
   wgrow; wtop < wlim). */
static EDAN__INLINE int edan__win_tight(const edan_context *ctx, uint64_t n)
{
    return (n + 2) * ctx->wgrow >= ctx->wlim - ctx->wtop;
}
/* Room for n more vertices, else every time widened first. Before a block
   or a vertex; edan__win_fold after, with a schedule's last retirement
   (held shifted left tsh). */
static void edan__win_widen(edan_context *ctx);
static EDAN__INLINE void edan__win_room(edan_context *ctx, uint64_t n)
{
    if (ctx->wpk && edan__win_tight(ctx, n)) edan__win_widen(ctx);
}
static EDAN__INLINE void edan__win_fold(edan_context *ctx, edan__wt last, uint32_t tsh)
{
    const uint64_t v = last.v >> tsh;
    if (v > ctx->wtop) ctx->wtop = v;
}

/* The current vertex vid of the running thread in configuration g's
   schedules: kind its access (EDAN_MEM_*; an AMO is a load and a store),
   is_mem whether it is a memory access vertex (cost alpha), else its cost
   t; its predecessors pv[0 .. np) (0: none), fwd a forwarded load's store
   (after the first nreg, its start counts); fillers fill[0 .. nfill) that
   join at its start, or at its end when fill_end. */
static EDAN__NOINLINE void edan__win_vertex_run(edan_context *ctx, edan__cfg *g, uint64_t vid, int kind,
                                                int is_mem, uint64_t t, const uint64_t *pv, uint32_t np,
                                                uint32_t nreg, uint64_t fwd, const uint64_t *fill, uint32_t nfill,
                                                int fill_end)
{
    edan__wthr *const c = ctx->wcur;
    uint32_t j, q;
    int pk;
    edan__win_room(ctx, 1);
    pk = ctx->wpk;
    for (j = g->wfirst; j < g->wfirst + ctx->wnm; j++) {
        edan__wt S = {0, 0}, Fend = {0, 0};
        for (q = 0; q < np; q++)
            if (pv[q]) S = edan__wt_max(S, edan__win_at(ctx, pv[q], vid, j, pv[q] == fwd && q >= nreg), pk);
        for (q = 0; q < nfill; q++) {
            const edan__wt f = edan__win_at(ctx, fill[q], vid, j, 0);
            if (fill_end) Fend = edan__wt_max(Fend, f, pk);
            else S = edan__wt_max(S, f, pk);
        }
        edan__win_step(&c->s[j], kind, is_mem, t << c->s[j].tsh, S, Fend, pk);
        if (pk) edan__win_fold(ctx, c->s[j].last, c->s[j].tsh);
    }
}

/* edan__win_vertex_run, or the vertex handed to the schedules' thread. */
static void edan__win_vertex(edan_context *ctx, edan__cfg *g, uint64_t vid, int kind, int is_mem, uint64_t t,
                             const uint64_t *pv, uint32_t np, uint32_t nreg, uint64_t fwd, const uint64_t *fill,
                             uint32_t nfill, int fill_end)
{
#if EDAN__THREADS
    if (ctx->wq) {
        if (!ctx->th.nseg && edan__wq_vertex(ctx, (uint32_t)(g - ctx->cfg), vid, kind, is_mem, t, pv, np, nreg, fwd,
                                             fill, nfill, fill_end))
            return;
        edan__wq_idle(ctx);
    }
#endif
    edan__win_vertex_run(ctx, g, vid, kind, is_mem, t, pv, np, nreg, fwd, fill, nfill, fill_end);
}

/* A vertex of configuration g, starting at S and finishing at F after t
   cycles, moving w bytes, a memory vertex at depth md or not: into g's
   totals (T1, Tinf, W, the layers, C, the bytes and the timeline). */
static EDAN__INLINE edan_result edan__vertex_sums(edan_context *ctx, edan__cfg *g, uint64_t S, uint64_t F, uint64_t t,
                                                  uint64_t w, int is_mem, uint32_t md)
{
    g->T1 += t;
    if (F > g->Tinf) g->Tinf = F;
    if (is_mem) {
        if (!edan__mem_depth(ctx, g, md))
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the layer histogram");
        g->W++;
    } else {
        g->C += t;
    }
    if (w) {
        g->bytes += w;
        if (g->c.tau) {
            uint64_t lo, hi;
            if (!edan__tl_room(ctx, g, F)) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the timeline");
            lo = (S + g->c.tau - 1) / g->c.tau;
            hi = F / g->c.tau + 1;
            if (lo < hi) {
                g->tl_diff[lo] += (int64_t)w;
                g->tl_diff[hi] -= (int64_t)w;
            }
        }
    }
    return EDAN_OK;
}

/* A load of one line that L1 holds (its way `hit`, edan__l1_hit): served
   there; the line's filler when it is a dependence (not vid itself), else
   NULL. A compiled block's step joins it inline (no graph recorded: a
   block is compiled only then) and counts its hits after its loop;
   edan__vertex's first case through edan__l1_filler, which counts it, and
   edan__l1_served, which joins it into *S and *md, its id in *fill (0:
   none). */
static EDAN__INLINE const edan__filler *edan__l1_filler_of(edan__cfg *g, long hit, uint64_t vid)
{
    const edan__level *l1 = &g->lv[0];
    const edan__filler *f = l1->fill ? &l1->fill[hit] : NULL;
    g->served = 1;
    return f && f->vid && f->vid != vid ? f : NULL;
}
static EDAN__INLINE const edan__filler *edan__l1_filler(edan__cfg *g, long hit, uint64_t vid)
{
    g->level_hits[0]++;
    return edan__l1_filler_of(g, hit, vid);
}
static EDAN__INLINE edan_result edan__l1_served(edan_context *ctx, edan__cfg *g, long hit, uint64_t vid,
                                                const uint64_t *pv, uint32_t npv, uint64_t *S, uint32_t *md,
                                                uint64_t *best, uint64_t *fill)
{
    const edan__filler *f = edan__l1_filler(g, hit, vid);
    *fill = f ? f->vid : 0;
    return f ? edan__fill_dep(ctx, g, f, vid, pv, npv, S, md, best) : EDAN_OK;
}

/* Configuration g's part of vertex vid, whose predecessors pv[0 .. npv)
   finish by S and have memory depth *md at most: its fill dependences (a
   cache-served access depends on the lines' fillers), its time, its start
   *Sv, its finish *F, its memory depth *md and whether it is a memory
   vertex (*is_mem), added to g's totals. *best (NULL: not wanted) names
   the first predecessor with the largest F; a filler finishing later
   replaces it. A memory vertex that the cache also served for some lines
   (an access across lines) waits for their fillers at its end, not its
   start: its RAM request goes out with the others' (edan-model, "An
   access that touches several lines"). With the windowed schedule, a
   compiled block's step leaves what the schedule reads of it in *wcap
   (the block plays its vertices after its steps); wcap NULL: the vertex
   goes to the schedule now. l1_missed: a load its caller found L1 not to
   hold (edan__l1_hit), not looked up again here. */
static EDAN__INLINE edan_result edan__vertex(edan_context *ctx, edan__cfg *g, const edan_insn *in, uint64_t addr,
                                             uint64_t vid, const uint64_t *pv, uint32_t npv, uint64_t S,
                                             uint32_t *md, uint64_t *best, uint64_t *Sv, uint32_t *mdS, uint64_t *F,
                                             int *is_mem, edan__wcap *wcap, int l1_missed)
{
    uint64_t t, w = 0;
    uint32_t md0 = UINT32_MAX;     /* the depth at its start, when its fills join at its end */
    long hit;
    uint64_t wf[EDAN__MAX_LINES];  /* its fillers, for the windowed schedule */
    uint32_t nwf = 0;
    int wend = 0;
    if (in->mem == EDAN_MEM_NONE) {
        *is_mem = 0;
        t = edan__op_time(g, in);
        *F = S + t;
    } else if (!g->c.num_levels) {
        *is_mem = 1;
        t = edan__access_time(g, 1, 0);
        w = in->size;
        *F = S + t;
        *md = edan__depth(*md, 1);
    } else if (in->mem == EDAN_MEM_LOAD && !l1_missed && (hit = edan__l1_hit(&g->lv[0], addr, in->size)) >= 0) {
        /* the most common access, inline (a miss in L1 goes the general
           way, which takes L1's victim without searching it again) */
        edan_result r = edan__l1_served(ctx, g, hit, vid, pv, npv, &S, md, best, &wf[0]);
        if (r != EDAN_OK) return r;
        nwf = wf[0] != 0;
        *is_mem = 0;
        t = g->lv[0].latency;
        *F = S + t;
    } else {
        edan__fillers fl;
        edan_result r = EDAN_OK;
        fl.n = 0;
        fl.filled = 0;
        edan__cache_one(g, in, addr, vid, is_mem, &t, &w, &fl);     /* a load: L1 looked up */
        if (g->win) {
            uint32_t q;
            for (q = 0; q < fl.n; q++) wf[nwf++] = fl.f[q].vid;
            wend = *is_mem && fl.n;
        }
        if (*is_mem && fl.n) {      /* across lines, some from RAM, some served: the fills join at its end */
            uint64_t Fend = 0, fbest = 0;
            uint32_t mdend = 0;
            if ((r = edan__fill_deps(ctx, g, &fl, vid, pv, npv, &Fend, &mdend, best ? &fbest : NULL)) != EDAN_OK)
                return r;
            *F = S + t;
            md0 = *md;
            *md = edan__depth(*md, 1);
            if (Fend > *F) {
                *F = Fend;
                if (best) *best = fbest;
            }
            if (mdend > *md) *md = mdend;
        } else {
            if (fl.n == 1) r = edan__fill_dep(ctx, g, &fl.f[0], vid, pv, npv, &S, md, best);
            else if (fl.n) r = edan__fill_deps(ctx, g, &fl, vid, pv, npv, &S, md, best);
            if (r != EDAN_OK) return r;
            *F = S + t;
            *md = edan__depth(*md, *is_mem);
        }
        if (fl.filled) edan__fillers_done(g, &fl, in, addr, vid, *F, *md);
    }
    *Sv = S;
    *mdS = md0 != UINT32_MAX ? md0 : *md - (uint32_t)(*is_mem != 0);
    if (g->win) {
        if (wcap) {    /* a compiled block's step (one word: one line, no fill at its end) */
            edan__wcap_set(wcap, *is_mem, t, nwf ? wf[0] : 0);
        } else {
            edan__win_vertex(ctx, g, vid, in->mem, *is_mem, t, pv, npv, npv, 0, wf, nwf, wend);
        }
    }
    return edan__vertex_sums(ctx, g, S, *F, t, w, *is_mem, *md);
}

/* Configuration g's part of load vid that store-to-load forwarding
   answers: no memory access vertex, no cache lookup, one cycle from S
   (its address's writers and the store's start), at depth *md. */
static EDAN__INLINE edan_result edan__vertex_forwarded(edan_context *ctx, edan__cfg *g, uint64_t S, uint32_t md,
                                                       uint64_t *F)
{
    *F = S + 1;
    g->served = 0;
    return edan__vertex_sums(ctx, g, S, *F, 1, 0, 0, md);
}

/* Memory predecessor u (a vertex id before seg_start) of the current
   thread's vertex: counted when another thread's (its stretch: the last
   one found, else by binary search). */
static void edan__cross_mem(edan_context *ctx, uint64_t u)
{
    size_t lo = edan__seg_of(ctx, u);
    ctx->th.cross += ctx->th.nseg && ctx->th.seg[lo][1] != ctx->th.cur;
}

/* The predecessors pv[0 .. n) of the current vertex, the first nreg its
   registers' writers (a thread's registers hold its own writers or, from
   before its first vertex, its creator's), the others bytes' writers. */
static EDAN__INLINE void edan__cross_preds(edan_context *ctx, const uint64_t *pv, uint32_t nreg, uint32_t n)
{
    uint32_t j;
    for (j = 0; j < nreg; j++) ctx->th.cross += (uint64_t)edan__cross_reg(ctx, pv[j]);
    for (; j < n; j++)
        if (pv[j] < ctx->th.seg_start) edan__cross_mem(ctx, pv[j]);
}

/* The lean copy's register sources (edan__lean1): their writers' largest
   F and md into *S and *md (kept if larger), the writers' ids in v[0..nsrc)
   (0: never written); returns the edges. Distinct registers (no repeats)
   with one target per instruction have distinct writers; a register never
   written has F = md = 0 and makes no edge. Unrolled: most instructions
   read 1 or 2. */
static EDAN__INLINE uint32_t edan__lean_sources(const edan_context *ctx, const edan_prepared *p, uint64_t *S,
                                                uint32_t *md, uint64_t *v)
{
    uint32_t np = 0;
#define EDAN__LEAN_SRC(j)                                              \
    do {                                                               \
        edan_reg r_ = p->edan__.src[j];                                       \
        v[j] = ctx->reg_vid[r_];                                       \
        edan__join(S, md, ctx->reg_F[r_], ctx->reg_md[r_]);            \
        np += v[j] != 0;                                               \
    } while (0)
    switch (p->edan__.nsrc) {
    case 0: break;
    default: {          /* more than four: x86 */
        uint32_t j_;
        for (j_ = 4; j_ < p->edan__.nsrc; j_++) EDAN__LEAN_SRC(j_);
    } /* fall through */
    case 4: EDAN__LEAN_SRC(3); /* fall through */
    case 3: EDAN__LEAN_SRC(2); /* fall through */
    case 2: EDAN__LEAN_SRC(1); /* fall through */
    case 1: EDAN__LEAN_SRC(0); break;
    }
#undef EDAN__LEAN_SRC
    return np;
}

/* A vertex of the running thread, counted in its schedules. */
static EDAN__INLINE void edan__win_count(edan_context *ctx)
{
    ctx->wcur->n++;
}

/* A vertex counted: N, its op, its access kind (EDAN_MEM_NONE: none) and
   that many bytes of it; its id. */
static EDAN__INLINE uint64_t edan__count_vertex(edan_context *ctx, uint32_t op, int mem, uint32_t bytes)
{
    ctx->op_count[op]++;
    if (mem != EDAN_MEM_NONE) {
        ctx->mem_count[mem]++;
        ctx->mem_bytes[mem] += bytes;
    }
    if (ctx->wcur) {    /* the windowed schedules: the thread's vertex ids (by their thread, if they have one) */
        int handed = 0;
#if EDAN__THREADS
        if (ctx->wq) {
            handed = !ctx->th.nseg && edan__wq_count(ctx);
            if (!handed) edan__wq_idle(ctx);
        }
#endif
        if (!handed) edan__win_count(ctx);
    }
    return ++ctx->N;
}

/* An instruction counted (edan__count_vertex); its vertex id. */
static EDAN__INLINE uint64_t edan__count(edan_context *ctx, const edan_insn *in)
{
    return edan__count_vertex(ctx, in->op, in->mem, in->size);
}

/* The lean copy's register targets: vertex vid, finishing at F with
   memory depth md, is their last writer now. */
static EDAN__INLINE void edan__lean_target(edan_context *ctx, const edan_prepared *p, uint64_t vid, uint64_t F,
                                           uint32_t md)
{
    uint32_t j;
    for (j = 0; j < p->edan__.ndst; j++) {
        edan__set_reg_writer(ctx->reg_vid, ctx->reg_F, ctx->reg_md, p->edan__.dst[j], vid, &F, &md, 1);
        edan__wreg_touch(ctx, p->edan__.dst[j]);
    }
}

/* The distinct predecessors among registers' writers v[0 .. n) (0: none):
   once an instruction wrote two registers (multi_dst), two registers may
   share a writer, one edge. */
static EDAN__INLINE uint32_t edan__distinct_writers(const uint64_t *v, uint32_t n)
{
    uint32_t i, j, np = 0;
    for (i = 0; i < n; i++) {
        if (!v[i]) continue;
        for (j = 0; j < i && v[j] != v[i]; j++) {}
        np += j == i;
    }
    return np;
}

/* ---- store-to-load forwarding ---------------------------------------- */
/* The ring's entry of store vertex vid, or NULL: newest first (a spill's
   reload and a value stored and read again are near), none older than
   the ring's oldest. */
static EDAN__INLINE const unsigned char *edan__fw_ring_find(const edan_context *ctx, uint64_t vid)
{
    const edan__fwd *f = &ctx->fw;
    const size_t esz = EDAN__FW_BYTES(ctx->K);
    uint32_t lo = 1, hi = f->n;     /* ages: 0 the newest; their vids fall with age */
    const unsigned char *e;
    if (!f->n || vid < f->lo) return NULL;
    e = f->ring + (size_t)(f->head ? f->head - 1 : ctx->fw_S - 1) * esz;
    if (EDAN__FW_VID(e) <= vid) return EDAN__FW_VID(e) == vid ? e : NULL;
    while (lo < hi) {       /* a search, not a walk: a chain's loads of old stores look 32 deep */
        const uint32_t a = lo + (hi - lo) / 2;
        e = f->ring + (size_t)(f->head > a ? f->head - 1 - a : f->head + ctx->fw_S - 1 - a) * esz;
        if (EDAN__FW_VID(e) == vid) return e;
        if (EDAN__FW_VID(e) < vid) hi = a;
        else lo = a + 1;
    }
    return NULL;
}

/* The stack table's slot of store vertex vid (its entry, or the empty slot it would take). */
static EDAN__INLINE unsigned char *edan__fw_stack_slot(const edan__fwd *f, size_t esz, uint64_t vid)
{
    const size_t m = f->cap - 1;
    size_t i = edan__hash64(vid, m);
    while (EDAN__FW_VID(f->stack + i * esz) && EDAN__FW_VID(f->stack + i * esz) != vid) i = (i + 1) & m;
    return f->stack + i * esz;
}

/* The entry of store vertex vid, the last writer of every byte that load
   `in` reads, when the model forwards it (edan__fw_find's end, for the
   paths that know the word's writer). */
static EDAN__INLINE const unsigned char *edan__fw_find_vid(edan_context *ctx, const edan_insn *in, uint64_t vid)
{
    const unsigned char *e;
    if (in->flags & EDAN_INSN_LOCKED) return NULL;
    if ((e = edan__fw_ring_find(ctx, vid)) != NULL) return e;
    if (!(in->flags & EDAN_INSN_STACK) || !ctx->fw.cap) return NULL;
    e = edan__fw_stack_slot(&ctx->fw, EDAN__FW_BYTES(ctx->K), vid);
    return EDAN__FW_VID(e) ? e : NULL;
}

/* The store vertex whose value a load of [addr, addr + size) takes from
   the store buffer or a stack slot, when the model forwards it: every
   byte last written by one store vertex s of this thread (a word's or a
   split byte's writer), s among the thread's last fw_S stores, or s and
   the load both stack-slot accesses. Its entry, or NULL (an AMO, a
   locked read-modify-write, bytes of several stores, of none or of
   another thread). */
static EDAN__NOINLINE const unsigned char *edan__fw_find(edan_context *ctx, const edan_insn *in, uint64_t addr)
{
    const uint32_t K = ctx->K;
    uint64_t last = addr + in->size - 1, w, wl = last >> 3, vid = 0;
    if (in->mem != EDAN_MEM_LOAD || (in->flags & EDAN_INSN_LOCKED)) return NULL;
    for (w = addr >> 3; w <= wl; w++) {
        const uint64_t *x = edan__word(ctx, w, K, 0);
        if (!x || !x[0]) return NULL;
        if (!(x[0] & EDAN__WSPLIT)) {
            if (vid && x[0] != vid) return NULL;
            vid = x[0];
        } else {
            const uint32_t *b = ctx->split + (size_t)(x[0] & ~EDAN__WSPLIT) * 8;
            unsigned lo = w == addr >> 3 ? (unsigned)(addr & 7) : 0, hi = w == wl ? (unsigned)(last & 7) : 7, j;
            for (j = lo; j <= hi; j++) {
                if (!b[j] || (vid && EDAN__REC_HEAD(ctx, b[j], K)->vid != vid)) return NULL;
                vid = EDAN__REC_HEAD(ctx, b[j], K)->vid;
            }
        }
    }
    return edan__fw_find_vid(ctx, in, vid);
}

/* A load may forward: its word's writer v (a whole-word entry's) is the
   ring's, or it reads a stack slot. For the paths that take the common
   case inline and give the others to edan__feed. */
static EDAN__INLINE int edan__fw_may_at(const edan_context *ctx, int stack, uint64_t v)
{
    return ctx->fw_S && v && (stack || (ctx->fw.n && v >= ctx->fw.lo));
}
/* The same test's bound for a block's loop to keep in a register: a
   writer at or above it is the ring's (none: UINT64_MAX). */
static EDAN__INLINE uint64_t edan__fw_lo(const edan_context *ctx)
{
    return ctx->fw_S && ctx->fw.n ? ctx->fw.lo : UINT64_MAX;
}
static EDAN__INLINE int edan__fw_may(const edan_context *ctx, const edan_insn *in, uint64_t v)
{
    return edan__fw_may_at(ctx, (in->flags & EDAN_INSN_STACK) != 0, v);
}

/* Whether store vertex vid is still the last writer of a byte of [addr,
   addr + size): a stack-slot store that none names has nothing to forward. */
static int edan__fw_live(edan_context *ctx, uint64_t vid, uint64_t addr, uint32_t size)
{
    const uint32_t K = ctx->K;
    uint64_t last = addr + size - 1, w, wl = last >> 3;
    for (w = addr >> 3; w <= wl; w++) {
        const uint64_t *x = edan__word(ctx, w, K, 0);
        if (!x) continue;
        if (!(x[0] & EDAN__WSPLIT)) {
            if (x[0] == vid) return 1;
        } else {
            const uint32_t *b = ctx->split + (size_t)(x[0] & ~EDAN__WSPLIT) * 8;
            unsigned lo = w == addr >> 3 ? (unsigned)(addr & 7) : 0, hi = w == wl ? (unsigned)(last & 7) : 7, j;
            for (j = lo; j <= hi; j++)
                if (b[j] && EDAN__REC_HEAD(ctx, b[j], K)->vid == vid) return 1;
        }
    }
    return 0;
}

/* Room for a store in the running thread's ring and for `stack` more in
   its stack table, made (the table rebuilt with the stores still live,
   at most 3/4 full). 0 when out of memory (the error in the context). */
static EDAN__NOINLINE int edan__fw_room(edan_context *ctx, uint32_t stack)
{
    edan__fwd *f = &ctx->fw;
    const size_t esz = EDAN__FW_BYTES(ctx->K);
    if (!f->ring && !(f->ring = (unsigned char *)edan__alloc(&ctx->a, ctx->fw_S * esz))) goto nomem;
    if (stack && 4 * ((size_t)f->used + stack) > 3 * (size_t)f->cap) {
        edan__fwd old = *f;
        size_t live = 0;
        uint32_t i;
        for (i = 0; i < old.cap; i++) {
            unsigned char *e = old.stack + (size_t)i * esz;
            if (EDAN__FW_VID(e) && edan__fw_live(ctx, EDAN__FW_VID(e), EDAN__FW_AT(e) >> 7, (uint32_t)(EDAN__FW_AT(e) & 127)))
                live++;
            else
                EDAN__FW_VID(e) = 0;
        }
        f->cap = 64;
        while (4 * (live + stack) > 3 * (size_t)f->cap || (old.cap > f->cap && 2 * (live + stack) > (size_t)f->cap))
            f->cap *= 2;
        f->used = 0;
        if (!(f->stack = (unsigned char *)edan__calloc(&ctx->a, f->cap * esz))) {
            *f = old;
            goto nomem;
        }
        for (i = 0; i < old.cap; i++)
            if (EDAN__FW_VID(old.stack + (size_t)i * esz)) {
                memcpy(edan__fw_stack_slot(f, esz, EDAN__FW_VID(old.stack + (size_t)i * esz)), old.stack + (size_t)i * esz, esz);
                f->used++;
            }
        edan__free(&ctx->a, old.stack);
    }
    return 1;
nomem:
    edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the store buffer");
    return 0;
}

/* The running thread's ring takes store vertex vid (of one access of size
   bytes at addr): its entry, the ring moved on (the oldest is the next to
   go once it is full); edan__fw_room made room. */
static EDAN__INLINE unsigned char *edan__fw_next(edan_context *ctx, uint64_t vid, uint64_t addr, uint32_t size)
{
    edan__fwd *f = &ctx->fw;
    const size_t esz = EDAN__FW_BYTES(ctx->K);
    unsigned char *e = f->ring + (size_t)f->head * esz;
    f->head = f->head + 1 == ctx->fw_S ? 0 : f->head + 1;
    if (f->n < ctx->fw_S) f->n++;
    EDAN__FW_VID(e) = vid;
    EDAN__FW_AT(e) = addr << 7 | size;
    f->lo = f->n == ctx->fw_S ? EDAN__FW_VID(f->ring + (size_t)f->head * esz) : f->n == 1 ? vid : f->lo;
    return e;
}

/* Entry e, whole, into the stack table too (a stack slot's store). */
static EDAN__INLINE void edan__fw_stack_put(edan_context *ctx, const unsigned char *e)
{
    memcpy(edan__fw_stack_slot(&ctx->fw, EDAN__FW_BYTES(ctx->K), EDAN__FW_VID(e)), e, EDAN__FW_BYTES(ctx->K));
    ctx->fw.used++;
}

/* Store vertex vid (of one access of size bytes at addr; stack: a stack
   slot), started at Sv[k] at memory depth mdS[k] (its predecessors', less
   the fillers that join at its end) in configuration k, into the running
   thread's ring and, for a stack slot, its stack table, for which
   edan__fw_room made room. */
static EDAN__INLINE void edan__fw_put(edan_context *ctx, uint64_t vid, uint64_t addr, uint32_t size, int stack,
                                      const uint64_t *Sv, const uint32_t *mdS)
{
    const uint32_t K = ctx->K;
    unsigned char *e = edan__fw_next(ctx, vid, addr, size);
    uint32_t k;
    for (k = 0; k < K; k++) {
        EDAN__FW_S(e)[k] = Sv[k];
        EDAN__FW_MD(e, K)[k] = mdS[k];
    }
    if (stack) edan__fw_stack_put(ctx, e);
}

/* edan__fw_put of one configuration, out of the line (a compiled block's
   loop keeps its registers). */
static EDAN__NOINLINE void edan__fw_put1(edan_context *ctx, uint64_t vid, uint64_t addr, uint32_t size, int stack,
                                         uint64_t S, uint32_t d)
{
    unsigned char *e = edan__fw_next(ctx, vid, addr, size);
    EDAN__FW_S(e)[0] = S;
    EDAN__FW_MD(e, 1)[0] = d;
    if (stack) edan__fw_stack_put(ctx, e);
}

/* Room for a store and `stack` more stack slots, made when missing
   (edan__fw_room); 0 when out of memory. */
static EDAN__INLINE int edan__fw_ready(edan_context *ctx, uint32_t stack)
{
    return (ctx->fw.ring && 4 * ((size_t)ctx->fw.used + stack) <= 3 * (size_t)ctx->fw.cap) || edan__fw_room(ctx, stack);
}

/* edan__fw_ready and edan__fw_put: 0 when out of memory. */
static EDAN__INLINE int edan__fw_store(edan_context *ctx, uint64_t vid, uint64_t addr, uint32_t size, int stack,
                                       const uint64_t *Sv, const uint32_t *mdS)
{
    if (!edan__fw_ready(ctx, (uint32_t)stack)) return 0;
    edan__fw_put(ctx, vid, addr, size, stack, Sv, mdS);
    return 1;
}

/* The last writers of bytes [addr, addr + size) (the access wraps
   nowhere: checked) added to the predecessors ps (edan__add_pred); room for
   `size` more in its arrays. */
static EDAN__INLINE void edan__read_bytes(edan_context *ctx, uint64_t addr, uint32_t size, uint32_t K, int lean,
                                          edan__pred_set *ps)
{
    uint64_t last = addr + size - 1, w, wl = last >> 3, last_vid = 0;
    for (w = addr >> 3; w <= wl; w++) {
        const uint64_t *e = edan__word(ctx, w, K, 0);
        if (!e) continue;
        if (!(e[0] & EDAN__WSPLIT)) {
            if (e[0] && e[0] != last_vid) {
                last_vid = e[0];
                edan__add_pred(ps, e[0], e + 1, (const uint32_t *)(e + 1 + K), lean);
            }
        } else {
            const uint32_t *b = ctx->split + (size_t)(e[0] & ~EDAN__WSPLIT) * 8;
            unsigned lo = w == addr >> 3 ? (unsigned)(addr & 7) : 0, hi = w == wl ? (unsigned)(last & 7) : 7, j;
            for (j = lo; j <= hi; j++) {
                uint32_t rec = b[j];
                if (rec && EDAN__REC_HEAD(ctx, rec, K)->vid != last_vid) {
                    last_vid = EDAN__REC_HEAD(ctx, rec, K)->vid;
                    edan__add_pred(ps, last_vid, EDAN__REC_F(ctx, rec, K), EDAN__REC_MD(ctx, rec, K), lean);
                }
            }
        }
    }
}

/* Vertex vid (Fv[k], mdv[k] in configuration k) is the last writer of p's
   register targets now. */
static EDAN__INLINE void edan__write_regs(edan_context *ctx, const edan_prepared *p, uint64_t vid, const uint64_t *Fv,
                                          const uint32_t *mdv, uint32_t K)
{
    uint32_t i;
    for (i = 0; i < p->edan__.ndst; i++) {
        edan__set_reg_writer(ctx->reg_vid, ctx->reg_F, ctx->reg_md, p->edan__.dst[i], vid, Fv, mdv, K);
        edan__wreg_touch(ctx, p->edan__.dst[i]);
    }
}

/* Vertex vid (finishing at Fv[k] with memory depth mdv[k] in
   configuration k) is the last writer of bytes [addr, addr + size) now. */
static EDAN__INLINE edan_result edan__write_bytes(edan_context *ctx, uint64_t addr, uint32_t size, uint64_t vid,
                                                  const uint64_t *Fv, const uint32_t *mdv, uint32_t K)
{
    uint64_t last = addr + size - 1, w, w0 = addr >> 3, wl = last >> 3;
    uint32_t rec = 0;       /* this store's record, made for the first word it writes in part */
    for (w = w0; w <= wl; w++) {
        unsigned lo = w == w0 ? (unsigned)(addr & 7) : 0, hi = w == wl ? (unsigned)(last & 7) : 7;
        uint64_t *e = edan__word(ctx, w, K, 1);
        if (!e) return ctx->shadow.err;
        if (lo == 0 && hi == 7) {           /* the whole word: the writer in the entry */
            if ((e[0] & EDAN__WSPLIT) && !edan__split_release(ctx, e)) return ctx->shadow.err;
            edan__set_word_writer(e, vid, Fv, mdv, K);
            continue;
        }
        if (!rec && wl == w0 && (e[0] & EDAN__WSPLIT)) {
            /* a store to the same bytes as one earlier store that nothing
               else refers to: that record is reused in place */
            const uint32_t *b = ctx->split + (size_t)(e[0] & ~EDAN__WSPLIT) * 8;
            uint32_t j;
            if (b[lo] && EDAN__REC_HEAD(ctx, b[lo], K)->ref == size) {
                for (j = lo + 1; j <= hi && b[j] == b[lo]; j++) {}
                if (j > hi) {
                    rec = b[lo];
                    EDAN__REC_HEAD(ctx, rec, K)->vid = vid;
                    edan__put_writer(EDAN__REC_F(ctx, rec, K), Fv, mdv, K);
                    continue;
                }
            }
        }
        if (!rec) {
            rec = edan__rec_new(ctx);
            if (!rec) return ctx->shadow.err;
            EDAN__REC_HEAD(ctx, rec, K)->vid = vid;
            EDAN__REC_HEAD(ctx, rec, K)->ref = 0;
            edan__put_writer(EDAN__REC_F(ctx, rec, K), Fv, mdv, K);
        }
        if (!edan__store_part(ctx, e, lo, hi, rec)) return ctx->shadow.err;
    }
    return EDAN_OK;
}

/* The registers' writers of an instruction (its operand fields p) added
   to its predecessors ps (edan__add_pred, not lean). */
static EDAN__INLINE void edan__reg_preds(edan_context *ctx, const edan_prepared *p, uint32_t K, edan__pred_set *ps)
{
    uint32_t i;
    for (i = 0; i < p->edan__.nsrc; i++) {
        edan_reg r = p->edan__.src[i];
        uint64_t v = ctx->reg_vid[r];
        if (v) edan__add_pred(ps, v, ctx->reg_F + (size_t)r * K, ctx->reg_md + (size_t)r * K, 0);
    }
}

/* Configuration k's start *S and depth *md of a vertex from its
   predecessors ps, and its critical one *best. */
static EDAN__INLINE void edan__preds_join(const edan__pred_set *ps, uint32_t k, uint64_t *S, uint32_t *md,
                                          uint64_t *best)
{
    uint32_t i;
    for (i = 0; i < ps->n; i++) edan__join_best(S, md, best, ps->pred[i].F[k], ps->pred[i].md[k], ps->vid[i]);
}

/* What a vertex leaves beside the totals in configuration g: its PC's
   statistics (a memory instruction `at`, with hotspots) and, for a
   recorded graph, its kind, critical predecessor, F and md. */
static EDAN__INLINE edan_result edan__vertex_record(edan_context *ctx, edan__cfg *g, const edan_insn *at, uint64_t vid,
                                                    int is_mem, uint64_t best, uint64_t F, uint32_t md)
{
    if (ctx->hotspots && at->mem != EDAN_MEM_NONE && !edan__hot_count(ctx, g, at, is_mem, md, g->served))
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the hotspot table");
    if (ctx->dot_max && !ctx->dot_overflow && vid <= ctx->dot_max) {
        g->dot_mem[vid] = (uint8_t)is_mem;
        g->dot_best[vid] = best;
        g->dot_F[vid] = F;
        g->dot_md[vid] = md;
    }
    return EDAN_OK;
}

/* The body of the feed: one instruction `in` with its operand fields p. K
   and `lean` (no graph recording, no hotspots, one target per instruction:
   edan__lean1) are parameters so that the common cases compile to their own
   specialised copies without the branches they do not need. In the lean
   copy edan__feed_lean1_fast serves most instructions, this the rest. */
static EDAN__INLINE edan_result edan__feed(edan_context *ctx, const edan_insn *in, const edan_prepared *p,
                                           uint64_t addr, uint32_t K, int lean)
{
    edan__pred preds[EDAN__MAX_PREDS];
    uint64_t pv[EDAN__MAX_PREDS];      /* the predecessors' ids */
    uint64_t Fv[EDAN_MAX_CONFIGS];     /* this vertex's F and md, per configuration */
    uint32_t mdv[EDAN_MAX_CONFIGS];
    uint64_t Sv[EDAN_MAX_CONFIGS];     /* ... its start and the depth there: a store's, for the loads it */
    uint32_t mdSv[EDAN_MAX_CONFIGS];   /* may forward to */
    uint64_t chp[3 * EDAN_MAX_CONFIGS]; /* the streamed chain's parts (ctx->chn) */
    edan__pred_set ps;
    uint32_t i, k, nreg;
    uint64_t vid;
    const int reads_mem = p->edan__.reads_mem, writes_mem = p->edan__.writes_mem;
    const unsigned char *fw = NULL;    /* a forwarded load's store */
    if (in->mem != EDAN_MEM_NONE && addr + in->size - 1 < addr)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: access wraps around the address space",
                          (unsigned long long)ctx->N + 1);
    if (in->mem == EDAN_MEM_LOAD && ctx->fw_S) fw = edan__fw_find(ctx, in, addr);
    vid = edan__count(ctx, in);

    /* predecessors: the last writers of the registers and bytes read */
    ps.pred = preds;
    ps.vid = pv;
    ps.n = 0;
    ps.S_max = 0;
    ps.md_max = 0;
    if (lean) {
        uint64_t v[EDAN_MAX_SRC];
        edan__lean_sources(ctx, p, &ps.S_max, &ps.md_max, v);
        for (i = 0; i < p->edan__.nsrc; i++)
            if (v[i]) {
                uint32_t j = ctx->multi_dst ? 0 : ps.n;
                while (j < ps.n && pv[j] != v[i]) j++;    /* multi_dst: a writer of two registers */
                if (j == ps.n) pv[ps.n++] = v[i];
            }
    } else {
        edan__reg_preds(ctx, p, K, &ps);
    }
    nreg = ps.n;
    if (fw)     /* forwarded: the store counts with its start and its depth less its own access */
        edan__add_pred(&ps, EDAN__FW_VID(fw), EDAN__FW_S(fw), EDAN__FW_MD(fw, K), lean);
    else if (reads_mem)
        edan__read_bytes(ctx, addr, in->size, K, lean, &ps);
    ctx->E += ps.n;
    ctx->forwarded += fw != NULL;
    if (ctx->th.seg_start) edan__cross_preds(ctx, pv, nreg, ps.n);
    if (!lean && ctx->dot_max) {
        edan_insn at = *in;
        edan_result r;
        at.addr = addr;
        r = edan__dot_record(ctx, vid, &at, pv, ps.n);
        if (r != EDAN_OK) return r;
        if (fw && !ctx->dot_overflow) ctx->dot_v[vid].fwd = EDAN__FW_VID(fw);
    }

    for (k = 0; k < K; k++) {
        edan__cfg *g = &ctx->cfg[k];
        uint64_t S = 0, F, best = 0;
        uint32_t md = 0;
        int is_mem;
        edan_result r;
        if (lean) {
            S = ps.S_max;
            md = ps.md_max;
        } else {
            edan__preds_join(&ps, k, &S, &md, &best);
        }
        if (fw) {
            is_mem = 0;
            r = edan__vertex_forwarded(ctx, g, S, md, &F);
            if (g->win)
                edan__win_vertex(ctx, g, vid, EDAN_MEM_LOAD, 0, 1, pv, ps.n, nreg, EDAN__FW_VID(fw), NULL, 0, 0);
        } else {
            r = edan__vertex(ctx, g, in, addr, vid, pv, ps.n, S, &md, &best, &Sv[k], &mdSv[k], &F, &is_mem, NULL, 0);
        }
        if (r != EDAN_OK) return r;
        if (!lean && (r = edan__vertex_record(ctx, g, in, vid, is_mem, best, F, md)) != EDAN_OK) return r;
        if (!lean && ctx->chn) {
            edan__chn_part(ctx, g, k, vid, is_mem, md, pv, preds, ps.n, fw ? EDAN__FW_VID(fw) : 0, chp + 3 * k);
            edan__chn_end(g, vid, is_mem, md);
        }
        Fv[k] = F;
        mdv[k] = md;
    }
    if (!lean && ctx->chn) {
        edan_result r = edan__chn_put(ctx, vid, in, chp);
        if (r != EDAN_OK) return r;
    }

    /* targets: this vertex is now the last writer */
    if (lean) {
        edan__lean_target(ctx, p, vid, Fv[0], mdv[0]);
    } else {
        edan__write_regs(ctx, p, vid, Fv, mdv, K);
    }
    if (writes_mem) {
        edan_result r = edan__write_bytes(ctx, addr, in->size, vid, Fv, mdv, K);
        if (r != EDAN_OK) return r;
        if (in->mem == EDAN_MEM_STORE && ctx->fw_S &&
            !edan__fw_store(ctx, vid, addr, in->size, (in->flags & EDAN_INSN_STACK) != 0, Sv, mdSv))
            return EDAN_ERR_NOMEM;
    }
    return EDAN_OK;
}

/* The lean copy's common cases written out: an instruction without a
   memory access, a load from one word that one store wrote whole (or none
   did), a store of one whole word. Returns 0, before anything is counted, for
   anything else (edan__feed serves it); 1 when done, its result in *r. */
static EDAN__INLINE int edan__feed_lean1_fast(edan_context *ctx, const edan_insn *in, const edan_prepared *p,
                                              uint64_t addr, edan_result *r)
{
    uint64_t S = 0, Sv, F, vid, v[EDAN_MAX_SRC + 1], *e = NULL;     /* v: the predecessors' ids (0: none) */
    uint32_t md = 0, mdS, np = 0, i, nv;
    int is_mem;
    if (in->mem != EDAN_MEM_NONE) {
        /* one word (an access that wraps around is not: edan__feed says so) */
        if (in->mem == EDAN_MEM_AMO || addr >> 3 != (addr + in->size - 1) >> 3 ||
            (in->mem == EDAN_MEM_STORE && in->size != 8))
            return 0;
        e = edan__word(ctx, addr >> 3, 1, in->mem == EDAN_MEM_STORE);
        if (e ? (e[0] & EDAN__WSPLIT) != 0 : in->mem == EDAN_MEM_STORE) return 0;
        if (in->mem == EDAN_MEM_LOAD && e && edan__fw_may(ctx, in, e[0])) return 0;    /* edan__feed forwards */
    }
    np = edan__lean_sources(ctx, p, &S, &md, v);
    nv = p->edan__.nsrc;
    if (ctx->th.seg_start) {   /* a predecessor that may be another thread's: edan__feed counts it */
        for (i = 0; i < nv && !edan__cross_reg(ctx, v[i]); i++) {}
        if (i < nv || (in->mem == EDAN_MEM_LOAD && e && e[0] && e[0] < ctx->th.seg_start)) return 0;
    }
    if (ctx->multi_dst && nv > 1) np = edan__distinct_writers(v, nv);
    if (in->mem == EDAN_MEM_LOAD && e && e[0]) {
        /* the word's writer: an edge unless it also wrote a register read */
        edan__join_word(e, 1, 0, &S, &md);
        for (i = 0; i < p->edan__.nsrc && v[i] != e[0]; i++) {}
        np += i == p->edan__.nsrc;
        v[nv++] = e[0];
    }
    vid = edan__count(ctx, in);
    ctx->E += np;
    *r = edan__vertex(ctx, ctx->cfg, in, addr, vid, v, nv, S, &md, NULL, &Sv, &mdS, &F, &is_mem, NULL, 0);
    if (*r != EDAN_OK) return 1;
    edan__lean_target(ctx, p, vid, F, md);
    if (in->mem == EDAN_MEM_STORE) {
        edan__set_word_writer(e, vid, &F, &md, 1);
        if (ctx->fw_S && !edan__fw_store(ctx, vid, addr, in->size, (in->flags & EDAN_INSN_STACK) != 0, &Sv, &mdS))
            *r = EDAN_ERR_NOMEM;
    }
    return 1;
}

/* One configuration, no graph, no hotspots: the engine's lean copy serves. */
static EDAN__INLINE int edan__lean1(const edan_context *ctx)
{
    return ctx->K == 1 && !ctx->dot_max && !ctx->hotspots && !ctx->chn;
}

static EDAN__NOINLINE edan_result edan__feed_lean1(edan_context *ctx, const edan_insn *in, const edan_prepared *p,
                                                   uint64_t addr)
{
    edan_result r;
    if (edan__feed_lean1_fast(ctx, in, p, addr, &r)) return r;
    return edan__feed(ctx, in, p, addr, 1, 1);
}

static EDAN__NOINLINE edan_result edan__feed_general(edan_context *ctx, const edan_insn *in,
                                                     const edan_prepared *p, uint64_t addr)
{
    if (ctx->K == 1) return edan__feed(ctx, in, p, addr, 1, 0);
    return edan__feed(ctx, in, p, addr, ctx->K, 0);
}

/* An instruction or a register kill while no thread runs (the one fed
   exited, and no switch since): whose registers would it use? */
static EDAN__NOINLINE edan_result edan__no_thread(edan_context *ctx)
{
    return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: no thread is running (the thread fed last exited; "
                      "switch to a running thread first)", (unsigned long long)ctx->N + 1);
}

static edan_result edan__feed_run(edan_context *ctx, const edan_insn *in)
{
    edan_prepared ops;          /* only its operand fields are used */
    uint32_t i, n = 0;
    if (ctx->th.cur == EDAN__NO_THREAD) return edan__no_thread(ctx);
    /* the checks of edan__check, in the order that costs least; anything
       unusual goes to edan__check for the exact message */
    if (in->nsrc > EDAN_MAX_SRC || in->ndst > EDAN_MAX_DST || in->cls >= EDAN_CLASS_COUNT || in->op >= ctx->op_cap ||
        (in->mem != EDAN_MEM_NONE && (in->mem > EDAN_MEM_AMO || in->size == 0 || in->size > EDAN_MAX_ACCESS)))
        goto check;
    for (i = 0; i < in->nsrc; i++) {
        edan_reg r = in->src[i];
        uint32_t j;
        if (r >= ctx->num_regs) goto check;
        for (j = 0; j < n && ops.edan__.src[j] != r; j++) {}
        if (r && j == n) ops.edan__.src[n++] = r;
    }
    ops.edan__.nsrc = (uint8_t)n;
    for (i = n = 0; i < in->ndst; i++) {
        edan_reg r = in->dst[i];
        if (r >= ctx->num_regs) goto check;
        if (r) ops.edan__.dst[n++] = r;
    }
    ops.edan__.ndst = (uint8_t)n;
    if (n > 1) ctx->multi_dst = 1;
    ops.edan__.reads_mem = in->mem == EDAN_MEM_LOAD || in->mem == EDAN_MEM_AMO;
    ops.edan__.writes_mem = in->mem == EDAN_MEM_STORE || in->mem == EDAN_MEM_AMO;
    goto feed;
check:
    {
        edan_result r = edan__check(ctx, in);
        if (r != EDAN_OK) return r;
        edan__operands(in, &ops);
        if (ops.edan__.ndst > 1) ctx->multi_dst = 1;
    }
feed:
    if (ops.edan__.writes_mem && ops.edan__.ndst) ctx->store_dst = 1;
    if (edan__lean1(ctx)) return edan__feed_lean1(ctx, in, &ops, in->addr);
    return edan__feed_general(ctx, in, &ops, in->addr);
}

/* ---- instructions with several accesses ------------------------------ */
/* Room for `more` predecessors in ps, whose arrays are the context's
   (moved when they grow); 0 when out of memory. */
static int edan__multi_room(edan_context *ctx, edan__pred_set *ps, size_t more)
{
    if (!edan__grow(&ctx->a, (void **)&ctx->multi_pred, &ctx->multi_pred_cap, ps->n + more, sizeof(edan__pred)) ||
        !edan__grow(&ctx->a, (void **)&ctx->multi_pv, &ctx->multi_pv_cap, ps->n + more, sizeof(uint64_t)))
        return 0;
    ps->pred = ctx->multi_pred;
    ps->vid = ctx->multi_pv;
    return 1;
}

/* The accesses of `kind` from acc[*j] on that continue one another's bytes
   (others between them skipped), up to 64 KiB: their length; *j moves past
   the last one taken, or to the next access of that kind that does not
   continue them. */
static uint64_t edan__multi_run(const edan_access *acc, size_t n, size_t *j, int kind)
{
    uint64_t end = acc[*j].addr + acc[*j].size, a0 = acc[*j].addr;
    size_t i;
    for (i = *j + 1; i < n; i++) {
        if (acc[i].kind != kind) continue;
        if (acc[i].addr != end || !end || end - a0 + acc[i].size > (1u << 16)) break;
        end += acc[i].size;
    }
    *j = i;
    return end - a0;
}

/* in (its operand fields p) with the accesses acc[0 .. n), n >= 2, each
   checked: the model's rules for several accesses (edan_feed_accesses),
   every configuration, graph and hotspots included. */
static EDAN__NOINLINE edan_result edan__feed_multi(edan_context *ctx, const edan_insn *in, const edan_prepared *p,
                                                   const edan_access *acc, size_t n)
{
    uint64_t Fv[EDAN_MAX_CONFIGS];
    uint32_t mdv[EDAN_MAX_CONFIGS];
    uint64_t chp[3 * EDAN_MAX_CONFIGS];     /* the streamed chain's parts (ctx->chn) */
    const uint32_t K = ctx->K;
    edan__pred_set ps;
    uint32_t np, i, k, nreg;
    uint64_t vid, loads = 0, stores = 0, all = 0;
    size_t j;
    edan_insn at = *in;         /* the instruction as the graph and the hotspots see it */
    edan_result r;
    for (j = 0; j < n; j++) {
        all += acc[j].size;
        if (acc[j].kind == EDAN_MEM_LOAD) loads += acc[j].size;
        else stores += acc[j].size;
    }
    at.mem = (uint8_t)(loads && stores ? EDAN_MEM_AMO : loads ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
    at.addr = acc[0].addr;
    at.size = (uint16_t)acc[0].size;
    vid = edan__count_vertex(ctx, in->op, at.mem, 0);     /* the bytes by kind: */
    ctx->mem_bytes[EDAN_MEM_LOAD] += loads;
    ctx->mem_bytes[EDAN_MEM_STORE] += stores;

    /* predecessors: the registers' writers, then every loaded byte's (all
       read before any of this instruction's stores lands) */
    ps.n = 0;
    ps.S_max = 0;
    ps.md_max = 0;
    if (!edan__multi_room(ctx, &ps, EDAN_MAX_SRC)) goto nomem;
    edan__reg_preds(ctx, p, K, &ps);
    nreg = ps.n;
    for (j = 0; j < n;) {   /* contiguous loads as one range (a rep string instruction's bytes) */
        uint64_t a0, len;
        if (acc[j].kind != EDAN_MEM_LOAD) { j++; continue; }
        a0 = acc[j].addr;
        len = edan__multi_run(acc, n, &j, EDAN_MEM_LOAD);
        if (!edan__multi_room(ctx, &ps, (size_t)len)) goto nomem;
        edan__read_bytes(ctx, a0, (uint32_t)len, K, 0, &ps);
    }
    np = ps.n;
    ctx->E += np;
    if (ctx->th.seg_start) edan__cross_preds(ctx, ps.vid, nreg, np);
    if (ctx->dot_max && (r = edan__dot_record(ctx, vid, &at, ps.vid, np)) != EDAN_OK) return r;

    for (k = 0; k < K; k++) {
        edan__cfg *g = &ctx->cfg[k];
        const edan__pred *preds = ps.pred;
        const uint64_t *pv = ps.vid;
        uint64_t S = 0, F, best = 0, t, w = 0, lat = 0, Fend = 0;
        uint32_t md = 0, mdend = 0, nf = 0, served = 0;
        int is_mem = 0, filled = 0;
        edan__preds_join(&ps, k, &S, &md, &best);
        if (!g->c.num_levels) {
            is_mem = 1;
            w = all;
        } else {
            /* every access through the hierarchy in order; the fillers of
               the lines served, each once, are dependences */
            uint32_t q;
            for (j = 0; j < n; j++) {
                edan__fillers fl;
                edan_insn one = *in;
                uint64_t tj, wj;
                int mj;
                one.mem = acc[j].kind;
                one.size = (uint16_t)acc[j].size;
                fl.n = 0;
                fl.filled = 0;
                edan__cache_access(g, &one, acc[j].addr, vid, &mj, &tj, &wj, &fl);
                if (g->served > served) served = g->served;
                is_mem |= mj;
                if (!mj && tj > lat) lat = tj;
                w += wj;
                filled |= fl.filled;
                if (!edan__grow(&ctx->a, (void **)&ctx->multi_fill, &ctx->multi_fill_cap, nf + fl.n, sizeof(edan__filler)))
                    goto nomem;
                for (i = 0; i < fl.n; i++) {
                    for (q = 0; q < nf && ctx->multi_fill[q].vid != fl.f[i].vid; q++) {}
                    if (q == nf) ctx->multi_fill[nf++] = fl.f[i];
                }
            }
            if (is_mem) {   /* some lines from RAM: the others' fills join at its end (edan__vertex) */
                uint64_t fbest = 0;
                for (q = 0; q < nf; q++)
                    if ((r = edan__fill_dep(ctx, g, &ctx->multi_fill[q], vid, pv, np, &Fend, &mdend, &fbest)) != EDAN_OK)
                        return r;
                if (Fend > S + edan__access_time(g, 1, 0)) best = fbest;
            } else {
                for (q = 0; q < nf; q++)
                    if ((r = edan__fill_dep(ctx, g, &ctx->multi_fill[q], vid, pv, np, &S, &md, &best)) != EDAN_OK)
                        return r;
            }
            if (ctx->paper_cache) w = is_mem ? all : 0;     /* the authors' count: every access's size */
        }
        t = edan__access_time(g, is_mem, lat);
        if (g->win) {
            uint32_t q;
            if (!edan__grow(&ctx->a, (void **)&ctx->multi_fv, &ctx->multi_fv_cap, nf + 1, sizeof(uint64_t))) goto nomem;
            for (q = 0; q < nf; q++) ctx->multi_fv[q] = ctx->multi_fill[q].vid;
            edan__win_vertex(ctx, g, vid, at.mem, is_mem, t, pv, np, np, 0, ctx->multi_fv, nf, is_mem);
        }
        F = S + t;
        md = edan__depth(md, is_mem);
        if (Fend > F) F = Fend;
        if (mdend > md) md = mdend;
        if (filled) {
            /* the lines this vertex brought from RAM: their filler's F and md */
            edan__fillers none;
            none.one_line = 0;
            for (j = 0; j < n; j++) {
                edan_insn one = *in;
                one.size = (uint16_t)acc[j].size;
                edan__fillers_done(g, &none, &one, acc[j].addr, vid, F, md);
            }
        }
        if ((r = edan__vertex_sums(ctx, g, S, F, t, w, is_mem, md)) != EDAN_OK) return r;
        g->served = served;
        if ((r = edan__vertex_record(ctx, g, &at, vid, is_mem, best, F, md)) != EDAN_OK) return r;
        if (ctx->chn) {
            edan__chn_part(ctx, g, k, vid, is_mem, md, pv, preds, np, 0, chp + 3 * k);
            edan__chn_end(g, vid, is_mem, md);
        }
        Fv[k] = F;
        mdv[k] = md;
    }
    if (ctx->chn && (r = edan__chn_put(ctx, vid, in, chp)) != EDAN_OK) return r;

    /* targets: registers, then every stored byte */
    edan__write_regs(ctx, p, vid, Fv, mdv, K);
    for (j = 0; j < n;) {   /* contiguous stores as one range: whole words stay whole */
        uint64_t a0, len;
        if (acc[j].kind != EDAN_MEM_STORE) { j++; continue; }
        a0 = acc[j].addr;
        len = edan__multi_run(acc, n, &j, EDAN_MEM_STORE);
        if ((r = edan__write_bytes(ctx, a0, (uint32_t)len, vid, Fv, mdv, K)) != EDAN_OK) return r;
    }
    return EDAN_OK;
nomem:
    return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for an instruction's %lu accesses", (unsigned long)n);
}

static edan_result edan__feed_accesses_run(edan_context *ctx, const edan_insn *in, const edan_access *acc, size_t n)
{
    edan_insn one = *in;
    edan_prepared ops;
    edan_result r;
    size_t j;
    one.mem = EDAN_MEM_NONE;
    if (n == 0) return edan_feed(ctx, &one);
    if (!acc) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: %lu accesses and no list",
                                (unsigned long long)ctx->N + 1, (unsigned long)n);
    for (j = 0; j < n; j++) {
        if ((acc[j].kind != EDAN_MEM_LOAD && acc[j].kind != EDAN_MEM_STORE) || acc[j].size == 0 ||
            acc[j].size > EDAN_MAX_ACCESS)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG,
                              "instruction %llu: access %lu has kind %u and size %u (a load or a store of 1 to %d bytes)",
                              (unsigned long long)ctx->N + 1, (unsigned long)j, (unsigned)acc[j].kind,
                              (unsigned)acc[j].size, EDAN_MAX_ACCESS);
        if (acc[j].addr + acc[j].size - 1 < acc[j].addr)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: access %lu wraps around the address space",
                              (unsigned long long)ctx->N + 1, (unsigned long)j);
    }
    if (n == 1) {       /* one access: an ordinary instruction */
        one.mem = acc[0].kind;
        one.addr = acc[0].addr;
        one.size = (uint16_t)acc[0].size;
        return edan_feed(ctx, &one);
    }
    if (ctx->th.cur == EDAN__NO_THREAD) return edan__no_thread(ctx);
    if ((r = edan__check(ctx, &one)) != EDAN_OK) return r;
    memset(&ops, 0, sizeof ops);
    edan__operands(&one, &ops);
    if (ops.edan__.ndst > 1) ctx->multi_dst = 1;
    for (j = 0; j < n; j++)
        if (acc[j].kind == EDAN_MEM_STORE && ops.edan__.ndst) ctx->store_dst = 1;
    return edan__feed_multi(ctx, &one, &ops, acc, n);
}

/* A batch of prepared instructions: its instruction i, checked; EDAN_OK when
   it is fit to feed, its address in *addr. */
static EDAN__INLINE edan_result edan__batch_check(edan_context *ctx, const edan_prepared *p, const uint64_t *addrs,
                                                  size_t i, uint64_t *addr)
{
    if (p[i].edan__.owner != ctx)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: prepared for another context",
                          (unsigned long long)ctx->N + 1);
    *addr = 0;
    if (p[i].in.mem != EDAN_MEM_NONE) {
        if (!addrs)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: a memory access without an address",
                              (unsigned long long)ctx->N + 1);
        *addr = addrs[i];
    }
    return EDAN_OK;
}

/* A batch through the copy for K and lean (see edan__feed). */
static EDAN__INLINE edan_result edan__feed_batch(edan_context *ctx, const edan_prepared *p, const uint64_t *addrs,
                                                 size_t n, uint32_t K, int lean)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t addr;
        edan_result r = edan__batch_check(ctx, p, addrs, i, &addr);
        if (r == EDAN_OK && !(lean && edan__feed_lean1_fast(ctx, &p[i].in, &p[i], addr, &r)))
            r = edan__feed(ctx, &p[i].in, &p[i], addr, K, lean);
        if (r != EDAN_OK) return r;
    }
    return EDAN_OK;
}

static EDAN__NOINLINE edan_result edan__feed_lean1_n(edan_context *ctx, const edan_prepared *p,
                                                     const uint64_t *addrs, size_t n)
{
    return edan__feed_batch(ctx, p, addrs, n, 1, 1);
}

static EDAN__NOINLINE edan_result edan__feed_general_n(edan_context *ctx, const edan_prepared *p,
                                                       const uint64_t *addrs, size_t n)
{
    if (ctx->K == 1) return edan__feed_batch(ctx, p, addrs, n, 1, 0);
    return edan__feed_batch(ctx, p, addrs, n, ctx->K, 0);
}

static edan_result edan__feed_prepared_n_run(edan_context *ctx, const edan_prepared *p, const uint64_t *addrs, size_t n)
{
    if (ctx->th.cur == EDAN__NO_THREAD && n) return edan__no_thread(ctx);
    if (edan__lean1(ctx)) return edan__feed_lean1_n(ctx, p, addrs, n);
    return edan__feed_general_n(ctx, p, addrs, n);
}


static edan_result edan__kill_regs_run(edan_context *ctx, const edan_reg *regs, size_t n)
{
    size_t i;
    uint32_t k;
    if (!ctx) return EDAN_ERR_INVALID_ARG;
    if (n && !regs) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "no registers");
    if (n && ctx->th.cur == EDAN__NO_THREAD) return edan__no_thread(ctx);
    for (i = 0; i < n; i++)
        if (regs[i] >= ctx->num_regs)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "after instruction %llu: register id %u out of range",
                              (unsigned long long)ctx->N, regs[i]);
    for (i = 0; i < n; i++) {
        const size_t r = regs[i];
        if (!ctx->reg_vid[r]) continue;     /* register 0 has none */
        ctx->reg_vid[r] = 0;
        edan__wreg_touch(ctx, (edan_reg)r);
        for (k = 0; k < ctx->K; k++) {
            ctx->reg_F[r * ctx->K + k] = 0;
            ctx->reg_md[r * ctx->K + k] = 0;
        }
        ctx->kill_epoch++;                  /* blocks: a live-in may have lost its writer */
    }
    return EDAN_OK;
}

/* The bytes of word entry e (word w) in [addr, last] lose their writers; 0 when out of memory. */
static int edan__kill_word(edan_context *ctx, uint64_t *e, uint64_t w, uint64_t addr, uint64_t last)
{
    unsigned lo = w == addr >> 3 ? (unsigned)(addr & 7) : 0, hi = w == last >> 3 ? (unsigned)(last & 7) : 7, j;
    uint32_t *b;
    if (!e[0]) return 1;
    if (lo == 0 && hi == 7) {
        if ((e[0] & EDAN__WSPLIT) && !edan__split_release(ctx, e)) return 0;
        e[0] = 0;
        return 1;
    }
    if (!(e[0] & EDAN__WSPLIT) && !edan__split_word(ctx, e)) return 0;
    b = ctx->split + (size_t)(e[0] & ~EDAN__WSPLIT) * 8;
    for (j = lo; j <= hi; j++) {
        if (b[j] && !edan__rec_release(ctx, b[j])) return 0;
        b[j] = 0;
    }
    return 1;
}

/* The bytes [addr, last] of page key (its chunk ch, or its sparse table
   sp) lose their writers; 0 when out of memory. */
static int edan__kill_page(edan_context *ctx, uint64_t key, unsigned char *ch, edan__sparse *sp, uint64_t addr,
                           uint64_t last)
{
    const uint32_t K = ctx->K;
    uint64_t w = key * EDAN__CHUNK_WORDS, wl = w + EDAN__CHUNK_WORDS - 1;
    uint32_t j;
    if (addr >> 3 > w) w = addr >> 3;
    if (last >> 3 < wl) wl = last >> 3;
    if (ch || wl - w < sp->cap) {
        for (; w <= wl; w++) {
            uint64_t *e = ch ? EDAN__WORD(ch, w, K) : edan__sp_find(sp, (uint32_t)(w & (EDAN__CHUNK_WORDS - 1)), K);
            if (e && !edan__kill_word(ctx, e, w, addr, last)) return 0;
        }
        return 1;
    }
    for (j = 0; j < sp->cap; j++) {      /* fewer words written than in the range: visit those */
        const uint64_t x = key * EDAN__CHUNK_WORDS + EDAN__SP_IDX(sp)[j] - 1;
        if (EDAN__SP_IDX(sp)[j] && x >= w && x <= wl && !edan__kill_word(ctx, EDAN__SP_ENT(sp, j, K), x, addr, last))
            return 0;
    }
    return 1;
}

static edan_result edan__kill_mem_run(edan_context *ctx, uint64_t addr, uint64_t size)
{
    uint64_t last, k0, k1, key;
    size_t j;
    if (!ctx) return EDAN_ERR_INVALID_ARG;
    if (!size) return EDAN_OK;
    last = addr + size - 1;
    if (last < addr)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "after instruction %llu: bytes wrap around the address space",
                          (unsigned long long)ctx->N);
    k0 = addr >> EDAN__CHUNK_BITS;
    k1 = last >> EDAN__CHUNK_BITS;
    if (k1 - k0 < 2 * (uint64_t)ctx->ch_used + 16) {
        for (key = k0;; key++) {
            const uint32_t slot = (uint32_t)(key & (EDAN__NEAR - 1));
            edan__near_fill(ctx, key);
            if ((ctx->near_chunk[slot] || ctx->near_sparse[slot]) &&
                !edan__kill_page(ctx, key, ctx->near_chunk[slot], ctx->near_sparse[slot], addr, last))
                return ctx->shadow.err;
            if (key == k1) break;
        }
    } else {        /* a range wider than the pages there are: visit those */
        for (j = 0; j < ctx->ch_cap; j++) {
            const int dense = (ctx->ch_keys[j] & EDAN__PG_DENSE) != 0;
            if (!ctx->ch_keys[j]) continue;
            key = (ctx->ch_keys[j] & ~EDAN__PG_DENSE) - 1;
            if (key >= k0 && key <= k1 &&
                !edan__kill_page(ctx, key, dense ? ctx->ch_vals[j] : NULL,
                                 dense ? NULL : (edan__sparse *)ctx->ch_vals[j], addr, last))
                return ctx->shadow.err;
        }
    }
    return EDAN_OK;
}

/* ---- threads ----------------------------------------------------------- */
static void edan__blocks_flush(edan_context *ctx);

/* Thread 0, made at the first call: it owns everything fed before. */
static edan_result edan__thr_init(edan_context *ctx)
{
    if (ctx->th.t) return EDAN_OK;
    ctx->th.t = (edan__thread *)edan__calloc(&ctx->a, 16 * sizeof *ctx->th.t);
    if (!ctx->th.t || !(ctx->th.t[0].cnt = (uint64_t *)edan__calloc(&ctx->a, 4 * (size_t)ctx->K * sizeof(uint64_t)))) {
        edan__free(&ctx->a, ctx->th.t);
        ctx->th.t = NULL;
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for threads");
    }
    ctx->th.cap = 16;
    ctx->th.n = 1;
    ctx->th.t[0].state = 1;
    ctx->th.cur = 0;
    return EDAN_OK;
}

/* The current thread's stretch starts with the next vertex. */
static edan_result edan__thr_segment(edan_context *ctx)
{
    if (ctx->th.nseg == ctx->th.seg_cap) {
        size_t nc = ctx->th.seg_cap ? 2 * ctx->th.seg_cap : 64;
        uint64_t (*ns)[3] = (uint64_t (*)[3])edan__realloc(&ctx->a, ctx->th.seg, nc * sizeof *ns);
        if (!ns) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the threads' stretches");
        ctx->th.seg = ns;
        ctx->th.seg_cap = nc;
    }
    if (ctx->th.nseg && ctx->th.seg[ctx->th.nseg - 1][0] == ctx->N + 1) ctx->th.nseg--;     /* an empty stretch */
    ctx->th.seg[ctx->th.nseg][0] = ctx->N + 1;
    ctx->th.seg[ctx->th.nseg][1] = ctx->th.cur;
    ctx->th.seg[ctx->th.nseg][2] = ctx->wcur ? ctx->wcur->n : 0;     /* wcur: the running thread's (switched to) */
    ctx->th.nseg++;
    ctx->th.seg_start = ctx->N + 1;
    return EDAN_OK;
}

static size_t edan__thr_regs_words(const edan_context *ctx)
{
    size_t R = ctx->num_regs, RK = R * ctx->K;
    return R + RK + (RK + 1) / 2;
}

/* The context's registers into or out of saved registers r. */
static void edan__thr_regs(edan_context *ctx, uint64_t *r, int save)
{
    size_t R = ctx->num_regs, RK = R * ctx->K;
    uint32_t *md = (uint32_t *)(r + R + RK);
    if (save) {
        memcpy(r, ctx->reg_vid, R * sizeof *r);
        memcpy(r + R, ctx->reg_F, RK * sizeof *r);
        memcpy(md, ctx->reg_md, RK * sizeof *md);
    } else {
        memcpy(ctx->reg_vid, r, R * sizeof *r);
        memcpy(ctx->reg_F, r + R, RK * sizeof *r);
        memcpy(ctx->reg_md, md, RK * sizeof *md);
        if (ctx->wq) ctx->wreg_all = 1;         /* every register's writer to the schedules' thread */
    }
}

/* The current thread's share since it was switched to, into its counts;
   the baselines move on. */
static void edan__thr_account(edan_context *ctx)
{
    uint32_t k;
    edan__thread *T = ctx->th.cur == EDAN__NO_THREAD ? NULL : &ctx->th.t[ctx->th.cur];
    edan__blocks_flush(ctx);
    if (T) {
        T->N += ctx->N - ctx->th.N0;
        T->cross += ctx->th.cross - ctx->th.cross0;
    }
    ctx->th.N0 = ctx->N;
    ctx->th.cross0 = ctx->th.cross;
    for (k = 0; k < ctx->K; k++) {
        edan__cfg *g = &ctx->cfg[k];
        if (T) {
            T->cnt[4 * k] += g->W - g->thr_W0;
            T->cnt[4 * k + 1] += g->C - g->thr_C0;
            T->cnt[4 * k + 2] += g->chained - g->thr_ch0;
            if (g->thr_md > T->cnt[4 * k + 3]) T->cnt[4 * k + 3] = g->thr_md;
        }
        g->thr_W0 = g->W;
        g->thr_C0 = g->C;
        g->thr_ch0 = g->chained;
        g->thr_md = 0;
    }
}

static edan_result edan__thread_create_run(edan_context *ctx, uint32_t creator, uint32_t child)
{
    edan_result r;
    edan__thread *T;
    if (!ctx) return EDAN_ERR_INVALID_ARG;
    if ((r = edan__thr_init(ctx)) != EDAN_OK) return r;
    if (creator >= ctx->th.n || ctx->th.t[creator].state != 1)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "thread %u creates thread %u: thread %u is not running", creator,
                          child, creator);
    if (child >= EDAN_MAX_THREADS || (child < ctx->th.n && ctx->th.t[child].state))
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "thread %u: %s", child,
                          child >= EDAN_MAX_THREADS ? "id too large" : "created before (an id is used once)");
    if (child >= ctx->th.cap) {
        uint32_t nc = ctx->th.cap;
        edan__thread *nt;
        while (nc <= child) nc *= 2;
        nt = (edan__thread *)edan__realloc(&ctx->a, ctx->th.t, nc * sizeof *nt);
        if (!nt) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for threads");
        memset(nt + ctx->th.cap, 0, (nc - ctx->th.cap) * sizeof *nt);
        ctx->th.t = nt;
        ctx->th.cap = nc;
    }
    if (child >= ctx->th.n) ctx->th.n = child + 1;
    T = &ctx->th.t[child];
    T->regs = (uint64_t *)edan__calloc(&ctx->a, edan__thr_regs_words(ctx) * sizeof(uint64_t));
    T->cnt = (uint64_t *)edan__calloc(&ctx->a, 4 * (size_t)ctx->K * sizeof(uint64_t));
    if (!T->regs || !T->cnt) {
        edan__free(&ctx->a, T->regs);
        edan__free(&ctx->a, T->cnt);
        memset(T, 0, sizeof *T);
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for thread %u", child);
    }
    if (!ctx->th.nseg) {       /* thread 0's stretch, from the start */
        if ((r = edan__thr_segment(ctx)) != EDAN_OK) return r;
        ctx->th.seg[0][0] = ctx->th.seg_start = ctx->th.first = 1;
        ctx->th.seg[0][2] = 0;
    }
    if (!edan__wthr_add(ctx, child)) {
        edan__free(&ctx->a, T->regs);
        edan__free(&ctx->a, T->cnt);
        memset(T, 0, sizeof *T);
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for thread %u's windowed schedule", child);
    }
    T->first = ctx->N + 1;
    if (creator == ctx->th.cur) edan__thr_regs(ctx, T->regs, 1);      /* its creator's writers, now */
    else memcpy(T->regs, ctx->th.t[creator].regs, edan__thr_regs_words(ctx) * sizeof(uint64_t));
    T->state = 1;
    return EDAN_OK;
}

/* The threads made (edan__thr_init) and `thread` running; else the error,
   "WHAT: it is not running" (what: a format of the thread's id). */
static edan_result edan__thr_running(edan_context *ctx, uint32_t thread, const char *what)
{
    edan_result r;
    char lead[64];
    if (!ctx) return EDAN_ERR_INVALID_ARG;
    if ((r = edan__thr_init(ctx)) != EDAN_OK) return r;
    if (thread < ctx->th.n && ctx->th.t[thread].state == 1) return EDAN_OK;
    snprintf(lead, sizeof lead, what, thread);
    return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "%s: it is not running", lead);
}

static edan_result edan__thread_switch_run(edan_context *ctx, uint32_t thread)
{
    edan_result r;
    edan__thread *T;
    if ((r = edan__thr_running(ctx, thread, "switch to thread %u")) != EDAN_OK) return r;
    if (thread == ctx->th.cur) return EDAN_OK;
    if (!edan__win_stretch_end(ctx)) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the threads' stretches");
    edan__thr_account(ctx);
    if (ctx->th.cur != EDAN__NO_THREAD) {
        T = &ctx->th.t[ctx->th.cur];
        if (!T->regs && !(T->regs = (uint64_t *)edan__calloc(&ctx->a, edan__thr_regs_words(ctx) * sizeof(uint64_t))))
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for thread %u", ctx->th.cur);
        edan__thr_regs(ctx, T->regs, 1);
        T->fw = ctx->fw;
    } else {
        edan__fw_free(&ctx->a, &ctx->fw);       /* the exited thread's */
    }
    edan__thr_regs(ctx, ctx->th.t[thread].regs, 0);
    ctx->fw = ctx->th.t[thread].fw;             /* its stores (another thread's never forward) */
    memset(&ctx->th.t[thread].fw, 0, sizeof ctx->th.t[thread].fw);
    ctx->th.cur = thread;
    ctx->th.first = ctx->th.t[thread].first;
    if (ctx->wn) ctx->wcur = ctx->wt[thread];
    ctx->kill_epoch++;      /* blocks: every live-in may have another writer */
    return edan__thr_segment(ctx);
}

static edan_result edan__thread_exit_run(edan_context *ctx, uint32_t thread)
{
    edan_result r;
    edan__thread *T;
    if ((r = edan__thr_running(ctx, thread, "thread %u exits")) != EDAN_OK) return r;
    T = &ctx->th.t[thread];
    if ((thread == ctx->th.cur && !edan__win_stretch_end(ctx)) || !edan__wthr_gone(ctx, thread))
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for thread %u's windowed schedule", thread);
    if (thread == ctx->th.cur) {   /* its share, then no thread until a switch */
        edan__thr_account(ctx);
        ctx->th.cur = EDAN__NO_THREAD;
        edan__fw_free(&ctx->a, &ctx->fw);
    }
    edan__fw_free(&ctx->a, &T->fw);
    edan__free(&ctx->a, T->regs);
    T->regs = NULL;
    while (T->sig_alloc) edan__free(&ctx->a, T->sig[--T->sig_alloc]);
    edan__free(&ctx->a, T->sig);
    T->sig = NULL;
    T->nsig = 0;
    T->state = 2;
    return EDAN_OK;
}

uint32_t edan_num_threads(const edan_context *ctx) { return ctx && ctx->th.t ? ctx->th.n : 1; }

/* ---- signals ------------------------------------------------------------ */
/* The running thread, for a signal's verb (what: "a signal ..."); NULL
   with the error set. */
static edan__thread *edan__sig_thread(edan_context *ctx, const char *what)
{
    if (edan__thr_init(ctx) != EDAN_OK) return NULL;
    if (ctx->th.cur == EDAN__NO_THREAD) {
        edan__fail(ctx, EDAN_ERR_INVALID_ARG, "after instruction %llu: %s: no thread is running",
                   (unsigned long long)ctx->N, what);
        return NULL;
    }
    return &ctx->th.t[ctx->th.cur];
}

static edan_result edan__signal_deliver_run(edan_context *ctx)
{
    edan__thread *T;
    size_t words;
    if (!ctx) return EDAN_ERR_INVALID_ARG;
    if (!(T = edan__sig_thread(ctx, "a signal delivered"))) return EDAN_ERR_INVALID_ARG;
    words = edan__thr_regs_words(ctx);
    if (T->nsig == EDAN_MAX_SIGNAL_DEPTH) {     /* the oldest goes: its buffer, at the top, takes this one */
        uint64_t *oldest = T->sig[0];
        memmove(T->sig, T->sig + 1, (EDAN_MAX_SIGNAL_DEPTH - 1) * sizeof *T->sig);
        T->sig[--T->nsig] = oldest;
    }
    if (T->nsig == T->sig_alloc) {
        uint64_t **ns = (uint64_t **)edan__realloc(&ctx->a, T->sig, (T->sig_alloc + 1) * sizeof *ns);
        if (!ns) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for a signal's registers");
        T->sig = ns;
        if (!(T->sig[T->sig_alloc] = (uint64_t *)edan__alloc(&ctx->a, words * sizeof(uint64_t))))
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for a signal's registers");
        T->sig_alloc++;
    }
    edan__thr_regs(ctx, T->sig[T->nsig++], 1);
    return EDAN_OK;
}

/* The last saved state of the running thread leaves its stack, restored
   into the registers when `restore`. */
static edan_result edan__signal_leave(edan_context *ctx, int restore)
{
    edan__thread *T;
    if (!ctx) return EDAN_ERR_INVALID_ARG;
    if (!(T = edan__sig_thread(ctx, restore ? "a signal handler returns" : "a signal handler is left")))
        return EDAN_ERR_INVALID_ARG;
    if (!T->nsig)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "after instruction %llu: thread %u %s no signal handler: none "
                          "was delivered", (unsigned long long)ctx->N, ctx->th.cur, restore ? "returns from" : "leaves");
    T->nsig--;
    if (restore) {
        edan__thr_regs(ctx, T->sig[T->nsig], 0);
        ctx->kill_epoch++;      /* blocks: every live-in may have another writer */
    }
    return EDAN_OK;
}

static edan_result edan__signal_return_run(edan_context *ctx) { return edan__signal_leave(ctx, 1); }
static edan_result edan__signal_drop_run(edan_context *ctx) { return edan__signal_leave(ctx, 0); }

uint32_t edan_signal_depth(const edan_context *ctx)
{
    return ctx && ctx->th.t && ctx->th.cur != EDAN__NO_THREAD ? ctx->th.t[ctx->th.cur].nsig : 0;
}

edan_result edan_get_thread_metrics(edan_context *ctx, uint32_t config, uint32_t thread, edan_thread_metrics *out)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    edan_result r;
    const edan__thread *T;
    if (sub) return edan__j_result(ctx, sub, edan_get_thread_metrics(sub, config, thread, out));
    if (!ctx || !out || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    if ((r = edan__thr_init(ctx)) != EDAN_OK) return r;
    if (thread >= ctx->th.n || !ctx->th.t[thread].state)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "thread %u was never created", thread);
    if (thread == ctx->th.cur) edan__thr_account(ctx);
    T = &ctx->th.t[thread];
    out->N = T->N;
    out->W = T->cnt[4 * config];
    out->C = T->cnt[4 * config + 1];
    out->chained = T->cnt[4 * config + 2];
    out->D = T->cnt[4 * config + 3];
    out->cross_edges = T->cross;
    out->live = T->state == 1;
    return EDAN_OK;
}

static edan_result edan__feed_many_run(edan_context *ctx, const edan_insn *in, size_t n, size_t *fed)
{
    size_t i;
    edan_result r = EDAN_OK;
    for (i = 0; i < n && (r = edan_feed(ctx, &in[i])) == EDAN_OK; i++) {}
    if (fed) *fed = i;
    return r;
}

/* ---- blocks ------------------------------------------------------------ */
/* A block's compiled form (see edan_block). Values live in slots: slot r <
   num_regs is register r as the block found it (its live-in; register 0
   the constant: F = md = 0), slot num_regs + k the block's local k, in the
   context's reg_F / reg_md past the registers (outputs are written back
   only at the end, so the registers still hold the live-ins while the
   block runs). A value is F[s] + c and md[s] for a term (s, c): a chain of
   vertices without a memory access adds their costs to c and keeps md
   (edan__vertex's rule). A vertex with sources of more than one slot is a
   step, its own local: F = max F[s] + c over its terms, md = max md[s]; so
   is a memory vertex, its S from its terms. A step that nothing reads is
   left out; its terms then only count for Tinf. */
typedef struct edan__block_term { uint32_t slot, c; } edan__block_term;
typedef struct edan__block_step {
    uint32_t dst;                   /* the local it writes */
    uint32_t t0, nt;                /* its terms: terms[t0 .. t0+nt) */
    uint32_t kind;                  /* EDAN_MEM_NONE, or EDAN_MEM_LOAD / _STORE: a memory vertex */
    uint32_t idx;                   /* its instruction (a memory vertex's id and address) */
    uint32_t mem;                   /* a memory vertex: its index among them */
    uint32_t stack;                 /* ... of a stack slot (EDAN_INSN_STACK: forwarded at any distance) */
    uint32_t size;                  /* ... its bytes, b->mem's copied here for the loop's L1 lookup */
    uint32_t nlive;                 /* a load: the registers it reads as live-ins; its word's */
    edan_reg live[EDAN_MAX_SRC];    /* writer is an edge unless it wrote one of them */
    uint32_t nwr;                   /* a memory vertex: the writers of the registers it reads that may */
    uint32_t wr[EDAN_MAX_SRC];      /* be memory vertices (a filler already a predecessor makes no fill
                                       edge): a live-in register, or EDAN__BW_IN | a block instruction */
} edan__block_step;
#define EDAN__BW_IN 0x80000000u
typedef struct edan__block_access { uint32_t idx, size, kind; } edan__block_access;
typedef struct edan__block_out {
    edan_reg reg;                   /* a register the block writes: F[slot] + c, md[slot] */
    uint32_t slot, c;
    uint32_t writer;                /* its last writer */
    uint32_t tinf;                  /* its F counts for Tinf (standing in for vertices not written out) */
} edan__block_out;
typedef struct edan__block_opcount { uint32_t op, count; } edan__block_opcount;

/* An instruction as the windowed schedule reads it: its access
   (EDAN_MEM_*), cost class and register sources' writers, src[s]: a
   live-in's place j in live_reg, or nlive + j for the block's instruction
   j (edan__block_window1's index into wF). */
typedef struct edan__wins {
    uint8_t nsrc, kind, cls, rnsrc;
    uint32_t src[EDAN_MAX_SRC];
    /* the same in the schedules' thread's finishes (edan__wq_blocks1: the
       registers', a 0, then the block's vertices'): where it writes its
       own, where its sources are (rnsrc of them, at least one: the 0 when
       it has none) */
    uint32_t rdst, rsrc[EDAN_MAX_SRC];
} edan__wins;

struct edan_block {
    edan_context *ctx;
    uint32_t jid;                   /* options.jobs: its id in the other groups' contexts */
    edan_block *prev, *next;        /* the context's blocks */
    edan_prepared *p;
    uint32_t n;
    int compiled;                   /* 0: always fed one by one */
    uint32_t nstore, nstack;        /* its stores, those of stack slots (room in the forwarding's ring and
                                       stack table) */
    int plain;                      /* no cache, no timeline: see edan__block_exec */
    uint32_t nlive, nmem, nstep, nout, ntinf, nops;
    edan_reg *live_reg;             /* the registers it reads before writing them ... */
    uint32_t *live_edges;           /* ... and the edges from each one's writer */
    int live_written;               /* every live-in had a writer at an execution (they keep one ... */
    uint64_t live_epoch;            /* ... unless a kill came since: ctx->kill_epoch then) */
    uint64_t live_E;                /* the edges from the live-ins' writers then */
    edan_reg *live_sets;            /* instructions reading several live-ins: k, then the k registers, ... */
    uint32_t live_sets_len;         /* (their writers may be one: multi_dst) */
    edan__block_access *mem;        /* its memory instructions */
    edan__block_step *step;
    edan__block_out *out;
    edan__block_term *terms, *tinf; /* the steps' terms; the Tinf terms no step or output covers */
    edan__block_opcount *ops;
    uint64_t cost_bound;            /* the cost of all its vertices, memory vertices at their largest */
    uint64_t **ent;                 /* per memory instruction, per execution: its word's entry (an
                                       unrolled copy: three rows, edan_feed_block_n's groups in turn) */
    uint32_t ent_at;                /* the row the next execution reads: where in ent it starts */
    int ent_ahead;                  /* its row holds what edan__block_prefetch found (NULL: not found) */
    /* the windowed schedule: per instruction what it reads (edan__wins,
       apart: the schedules' thread reads nothing else of the block); per
       memory instruction, per execution (when played on the caller's
       thread; else in the record handed over): a load's word writer before
       the block ran it, or the store that forwards to it (wmem; with
       EDAN__WMEM_FW), and per configuration, with a cache, what its step
       found */
    edan__wins *wins;
    uint64_t *wmem;
    edan__wcap *wcap;
    edan__wt *wF;                   /* edan__block_window1's: each live-in's writer's finish at the block's
                                       start, then each vertex's as successors see it (wins' src index it;
                                       edan__calloc_apart: the schedules' thread writes it) */
    size_t wrec_bytes;              /* its record for the schedules' thread (edan__wrec_bytes) */
    uint32_t nwcopy, (*wcopy)[2];   /* the targets' finishes that edan__wq_blocks1 copies after the block
                                       (to, from: one vertex's second target; apart) */
    /* edan_feed_block_n: b's instructions unroll_k times over, compiled
       (unroll_k 0: not tried yet; 1: none); the block a copy unrolls */
    edan_block *unroll, *unroll_of;
    uint32_t unroll_k;
    /* the same in every execution: added to the context `runs` times when it
       is read (W, T1's memory part and bytes only when plain) */
    uint64_t C, E, W, T1mem, bytes, mem_count[4], mem_bytes[4];
    /* the caller's thread counts every execution: a cache line apart from
       what the schedules' thread reads of the block */
    unsigned char line_apart[64];
    uint64_t runs;
};

/* ---- parallel configurations (options.jobs) ---------------------------- */
/* The caller's context analyses the first group of configurations; each
   other group has a context of its own (the same options, its
   configurations) on a thread of its own. Every feeding call on the
   caller's context is copied, as it comes, into a ring of records that
   each thread reads in order and replays on its context: the same calls in
   the same order, so the same state and the same results, as if one
   context held them all (the engine treats configurations apart: what
   they share, each context computes for itself). The caller waits only
   when the ring is full, or when it reads a configuration whose thread has
   not caught up. A record is a header (type, bytes, two arguments) and
   its data, 8-byte aligned; one that would cross the ring's end starts
   again at its beginning (a WRAP record says so). */
#if EDAN__THREADS
enum {
    EDAN__J_STOP = 1, EDAN__J_WRAP, EDAN__J_FEED, EDAN__J_ACC, EDAN__J_PREP, EDAN__J_FEEDP, EDAN__J_BPART,
    EDAN__J_BNEW, EDAN__J_BDEL, EDAN__J_BFEED, EDAN__J_KREGS, EDAN__J_KMEM, EDAN__J_TCREATE, EDAN__J_TSWITCH,
    EDAN__J_TEXIT, EDAN__J_SDELIVER, EDAN__J_SRETURN, EDAN__J_SDROP
};
#define EDAN__J_CONT 0x100u     /* the rest of the call of the record before: not replayed if that failed */

typedef struct edan__jrec { uint32_t type, bytes; uint64_t a, b; } edan__jrec;

typedef struct edan__jworker {
    struct edan__jobs *J;
    edan_context *ctx;
    uint32_t first;                 /* its first configuration, in the caller's numbering */
    uint64_t tail;                  /* the ring's bytes it has replayed (atomic) */
    pthread_t th;
    int started;
    edan_block **blk; size_t blk_cap;       /* its blocks, by jid */
    edan_prepared *p; size_t p_n, p_cap;    /* prepared instructions made its own: a call's, a block's parts */
} edan__jworker;

/* The threads read the first part at every handing over; the caller
   writes the last at every call: a cache line apart (line_apart), else
   each record moves that line from one core to another and back. */
typedef struct edan__jobs {
    edan_allocator a;               /* the caller's context's */
    uint32_t K;                     /* every configuration, base's included */
    uint32_t base;                  /* 1: the caller's context holds a stand-in alone, configuration k
                                       is the caller's k + 1 (edan__j_create); else 0 */
    uint32_t nw;                    /* the other groups */
    edan__jworker *w;
    unsigned char *ring;
    uint64_t cap;                   /* its bytes, a power of 2 */
    uint64_t pub;                   /* bytes handed over (atomic) */
    int sleepers, waiting, paused;  /* threads waiting for records; the caller waiting for room; held back */
    pthread_mutex_t mu;
    pthread_cond_t data, space;
    int err;                        /* a thread's context failed (atomic): its text in msg */
    char msg[256];
    unsigned char line_apart[64];
    uint64_t head;                  /* bytes written (the caller's) */
    uint64_t room;                  /* the slowest tail, as last read: head - room bytes are held */
    uint64_t waits, high;           /* times the caller waited for room; the most bytes held at once */
    uint32_t *free_ids; size_t nfree, free_cap;
    uint32_t next_id;
    int inside;                     /* a call is being recorded: the calls it makes itself are not */
    uint32_t routed;                /* the first configuration of the group a getter was last sent to */
} edan__jobs;

static void edan__j_wake(edan__jobs *J, pthread_cond_t *c)
{
    pthread_mutex_lock(&J->mu);
    pthread_cond_broadcast(c);
    pthread_mutex_unlock(&J->mu);
}

/* Hands over every record written. */
static void edan__j_publish(edan__jobs *J)
{
    __atomic_store_n(&J->pub, J->head, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&J->sleepers, __ATOMIC_SEQ_CST)) edan__j_wake(J, &J->data);
}

/* The least tail of w (NULL: of every thread). */
static uint64_t edan__j_tail(edan__jobs *J, const edan__jworker *w)
{
    uint64_t t = UINT64_MAX, x;
    uint32_t g;
    for (g = 0; g < J->nw; g++) {
        if (w && w != &J->w[g]) continue;
        x = __atomic_load_n(&J->w[g].tail, __ATOMIC_SEQ_CST);
        if (x < t) t = x;
    }
    return t;
}

/* Waits until w (NULL: every thread) has replayed `upto` bytes. */
static void edan__j_wait(edan__jobs *J, uint64_t upto, const edan__jworker *w)
{
    edan__j_publish(J);
    if (edan__j_tail(J, w) >= upto) return;
    pthread_mutex_lock(&J->mu);
    __atomic_store_n(&J->waiting, 1, __ATOMIC_SEQ_CST);
    while (edan__j_tail(J, w) < upto) pthread_cond_wait(&J->space, &J->mu);
    __atomic_store_n(&J->waiting, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&J->mu);
}

/* Room for a record of `payload` bytes of data: its data, to fill in
   before edan__j_done. NULL when a ring that holds it cannot be had (out
   of memory). */
static unsigned char *edan__j_put(edan__jobs *J, uint32_t type, uint64_t a, uint64_t b, size_t payload)
{
    uint64_t bytes = (sizeof(edan__jrec) + (uint64_t)payload + 7) & ~(uint64_t)7, off, need;
    edan__jrec *h;
    if (bytes > J->cap / 2) {       /* a call larger than half the ring: a larger ring, once this one is empty */
        uint64_t cap = J->cap;
        unsigned char *ring;
        while (cap / 2 < bytes) cap *= 2;
        edan__j_wait(J, J->head, NULL);
        if (!(ring = (unsigned char *)edan__alloc(&J->a, (size_t)cap))) return NULL;
        edan__free(&J->a, J->ring);
        __atomic_store_n(&J->ring, ring, __ATOMIC_SEQ_CST);
        __atomic_store_n(&J->cap, cap, __ATOMIC_SEQ_CST);
    }
    off = J->head & (J->cap - 1);
    need = off + bytes > J->cap ? J->cap - off + bytes : bytes;
    if (J->head + need - J->room > J->cap) {
        J->room = edan__j_tail(J, NULL);
        if (J->head + need - J->room > J->cap) {
            __atomic_add_fetch(&J->waits, 1, __ATOMIC_SEQ_CST);
            edan__j_wait(J, J->head + need - J->cap, NULL);
            J->room = edan__j_tail(J, NULL);
        }
    }
    if (J->head + need - J->room > J->high) J->high = J->head + need - J->room;
    if (off + bytes > J->cap) {
        h = (edan__jrec *)(void *)(J->ring + off);   /* at least 8 bytes: type and bytes */
        h->type = EDAN__J_WRAP;
        h->bytes = (uint32_t)(J->cap - off);
        J->head += J->cap - off;
        off = 0;
    }
    h = (edan__jrec *)(void *)(J->ring + off);
    h->type = type;
    h->bytes = (uint32_t)bytes;
    h->a = a;
    h->b = b;
    return (unsigned char *)(h + 1);
}

/* The record just put is written: handed over with every 1/16 of the ring. */
static void edan__j_done(edan__jobs *J)
{
    const edan__jrec *h = (const edan__jrec *)(const void *)(J->ring + (J->head & (J->cap - 1)));
    J->head += h->bytes;
    if (J->head - J->pub >= J->cap / 16) edan__j_publish(J);
}

/* A record of one call, its data given in up to two pieces. */
static int edan__j_rec(edan__jobs *J, uint32_t type, uint64_t a, uint64_t b, const void *d1, size_t n1,
                       const void *d2, size_t n2)
{
    unsigned char *p = edan__j_put(J, type, a, b, n1 + n2);
    if (!p) return 0;
    if (n1) memcpy(p, d1, n1);
    if (n2) memcpy(p + n1, d2, n2);
    edan__j_done(J);
    return 1;
}

/* Prepared instructions p[0 .. n) in records of at most 1/8 of the ring
   (the later ones EDAN__J_CONT), with their addresses when given (FEEDP),
   or into a block's parts (BPART). A prepared instruction's owner says
   whether it was this context's: another context's stays another's. */
static int edan__j_prepared(edan_context *ctx, uint32_t type, const edan_prepared *p, const uint64_t *addrs, size_t n)
{
    edan__jobs *J = ctx->jobs;
    size_t per = (size_t)(J->cap / 8) / (sizeof *p + sizeof *addrs), at = 0, i, k;
    if (per < 1) per = 1;
    do {
        unsigned char *d;
        k = n - at < per ? n - at : per;
        if (!(d = edan__j_put(J, type | (at ? EDAN__J_CONT : 0u), k, addrs != NULL,
                              k * sizeof *p + (addrs ? k * sizeof *addrs : 0))))
            return 0;
        memcpy(d, p + at, k * sizeof *p);
        for (i = 0; i < k; i++) {
            edan_prepared *q = (edan_prepared *)(void *)(d + i * sizeof *p);
            q->edan__.owner = p[at + i].edan__.owner == ctx ? (const edan_context *)(const void *)J : NULL;
        }
        if (addrs) memcpy(d + k * sizeof *p, addrs + at, k * sizeof *addrs);
        edan__j_done(J);
        at += k;
    } while (at < n);
    return 1;
}

/* The recorders of the feeding calls (EDAN__FEED_CALL): 0 when the ring
   cannot take the call. */
static int edan__j_feed(edan_context *ctx, const edan_insn *in)
{
    return !in || edan__j_rec(ctx->jobs, EDAN__J_FEED, 0, 0, in, sizeof *in, NULL, 0);
}
static int edan__j_feed_many(edan_context *ctx, const edan_insn *in, size_t n)
{
    edan__jobs *J = ctx->jobs;
    size_t per = (size_t)(J->cap / 8) / sizeof *in, at = 0, k;
    if (!in) return 1;      /* refused, nothing changed: nothing to replay */
    do {
        k = n - at < per ? n - at : per;
        if (!edan__j_rec(J, EDAN__J_FEED | (at ? EDAN__J_CONT : 0u), 1, k, in + at, k * sizeof *in, NULL, 0)) return 0;
        at += k;
    } while (at < n);
    return 1;
}
static int edan__j_acc(edan_context *ctx, const edan_insn *in, const edan_access *acc, size_t n)
{
    if (!in || (n && !acc)) return 1;
    return edan__j_rec(ctx->jobs, EDAN__J_ACC, n, 0, in, sizeof *in, acc, n * sizeof *acc);
}
static int edan__j_feedp(edan_context *ctx, const edan_prepared *p, const uint64_t *addrs, size_t n)
{
    if (!p && n) return 1;
    return edan__j_prepared(ctx, EDAN__J_FEEDP, p, addrs, n);
}
static int edan__j_bfeed(edan_context *ctx, const edan_block *b, const uint64_t *addrs)
{
    if (!b || b->ctx != ctx) return 1;
    return edan__j_rec(ctx->jobs, EDAN__J_BFEED, b->jid, addrs != NULL, addrs, addrs ? b->n * sizeof *addrs : 0, NULL, 0);
}
static int edan__j_kregs(edan_context *ctx, const edan_reg *regs, size_t n)
{
    if (!regs && n) return 1;
    return edan__j_rec(ctx->jobs, EDAN__J_KREGS, n, 0, regs, n * sizeof *regs, NULL, 0);
}
static int edan__j_call(edan_context *ctx, uint32_t type, uint64_t a, uint64_t b)
{
    return edan__j_rec(ctx->jobs, type, a, b, NULL, 0, NULL, 0);
}

/* edan_prepare changes the context (what it has seen): the others too. */
static void edan__j_prep(edan_context *ctx, const edan_insn *in)
{
    if (ctx->jobs && !ctx->jobs->inside) (void)edan__j_rec(ctx->jobs, EDAN__J_PREP, 0, 0, in, sizeof *in, NULL, 0);
}

/* A block made (its instructions, then its id) or destroyed. */
static edan_result edan__j_block_new(edan_context *ctx, edan_block *b)
{
    edan__jobs *J = ctx->jobs;
    if (J->nfree) b->jid = J->free_ids[--J->nfree];
    else b->jid = J->next_id++;
    if (b->n && !edan__j_prepared(ctx, EDAN__J_BPART, b->p, NULL, b->n)) return EDAN_ERR_NOMEM;
    return edan__j_rec(J, EDAN__J_BNEW | (b->n ? EDAN__J_CONT : 0u), b->jid, 0, NULL, 0, NULL, 0) ? EDAN_OK : EDAN_ERR_NOMEM;
}
static void edan__j_block_gone(edan_block *b)
{
    edan__jobs *J = b->ctx->jobs;
    if (!J) return;
    if (!edan__j_rec(J, EDAN__J_BDEL, b->jid, 0, NULL, 0, NULL, 0)) return;
    if (J->nfree < J->free_cap || edan__grow(&b->ctx->a, (void **)&J->free_ids, &J->free_cap, J->nfree + 1, sizeof(uint32_t)))
        J->free_ids[J->nfree++] = b->jid;
}

/* A thread's context failed: the caller's fails with it, at its next call. */
static void edan__j_fail(edan__jworker *w, const char *msg)
{
    edan__jobs *J = w->J;
    pthread_mutex_lock(&J->mu);
    if (!__atomic_load_n(&J->err, __ATOMIC_RELAXED)) {
        snprintf(J->msg, sizeof J->msg, "%s", msg);
        __atomic_store_n(&J->err, w->ctx->failed != EDAN_OK ? (int)w->ctx->failed : (int)EDAN_ERR_NOMEM,
                         __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&J->mu);
}

/* Prepared instructions of the ring made w's (their owner: J for the
   caller's, which are w's, else none), appended to w->p. */
static int edan__j_own(edan__jworker *w, const unsigned char *d, size_t n)
{
    size_t i;
    if (w->p_n + n > w->p_cap &&
        !edan__grow(&w->ctx->a, (void **)&w->p, &w->p_cap, w->p_n + n, sizeof *w->p))
        return 0;
    memcpy(w->p + w->p_n, d, n * sizeof *w->p);
    for (i = 0; i < n; i++) {
        edan_prepared *q = &w->p[w->p_n + i];
        q->edan__.owner = q->edan__.owner ? w->ctx : NULL;
    }
    w->p_n += n;
    return 1;
}

/* One record replayed on w's context, after a call part that gave last. */
static edan_result edan__j_apply(edan__jworker *w, const edan__jrec *h, edan_result last)
{
    edan_context *c = w->ctx;
    const unsigned char *d = (const unsigned char *)(h + 1);
    uint32_t type = h->type & 0xffu;
    if ((h->type & EDAN__J_CONT) && last != EDAN_OK) {
        if (type == EDAN__J_BNEW) w->p_n = 0;       /* a block that was not made */
        return last;
    }
    switch (type) {
    case EDAN__J_FEED:
        if (h->a) return edan_feed_many(c, (const edan_insn *)(const void *)d, (size_t)h->b, NULL);
        return edan_feed(c, (const edan_insn *)(const void *)d);
    case EDAN__J_ACC:
        return edan_feed_accesses(c, (const edan_insn *)(const void *)d,
                                  (const edan_access *)(const void *)(d + sizeof(edan_insn)), (size_t)h->a);
    case EDAN__J_PREP: {
        edan_prepared tmp;
        return edan_prepare(c, (const edan_insn *)(const void *)d, &tmp);
    }
    case EDAN__J_FEEDP: {
        edan_result r;
        w->p_n = 0;
        if (!edan__j_own(w, d, (size_t)h->a)) return EDAN_ERR_NOMEM;
        r = edan_feed_prepared_n(c, w->p, h->b ? (const uint64_t *)(const void *)(d + h->a * sizeof(edan_prepared)) : NULL,
                                 (size_t)h->a, NULL);
        w->p_n = 0;
        return r;
    }
    case EDAN__J_BPART:
        if (!(h->type & EDAN__J_CONT)) w->p_n = 0;
        return edan__j_own(w, d, (size_t)h->a) ? EDAN_OK : EDAN_ERR_NOMEM;
    case EDAN__J_BNEW: {
        edan_block *b = NULL;
        edan_result r;
        if (h->a >= w->blk_cap && !edan__grow(&c->a, (void **)&w->blk, &w->blk_cap, (size_t)h->a + 1, sizeof *w->blk))
            return EDAN_ERR_NOMEM;
        r = edan_block_create(c, w->p, w->p_n, &b);
        w->p_n = 0;
        w->blk[h->a] = b;
        return r;
    }
    case EDAN__J_BDEL:
        if (h->a < w->blk_cap) {
            edan_block_destroy(w->blk[h->a]);
            w->blk[h->a] = NULL;
        }
        return EDAN_OK;
    case EDAN__J_BFEED:
        return edan_feed_block(c, h->a < w->blk_cap ? w->blk[h->a] : NULL, h->b ? (const uint64_t *)(const void *)d : NULL);
    case EDAN__J_KREGS:
        return edan_kill_regs(c, (const edan_reg *)(const void *)d, (size_t)h->a);
    case EDAN__J_KMEM: return edan_kill_mem(c, h->a, h->b);
    case EDAN__J_TCREATE: return edan_thread_create(c, (uint32_t)h->a, (uint32_t)h->b);
    case EDAN__J_TSWITCH: return edan_thread_switch(c, (uint32_t)h->a);
    case EDAN__J_TEXIT: return edan_thread_exit(c, (uint32_t)h->a);
    case EDAN__J_SDELIVER: return edan_signal_deliver(c);
    case EDAN__J_SRETURN: return edan_signal_return(c);
    case EDAN__J_SDROP: return edan_signal_drop(c);
    default: return EDAN_OK;
    }
}

/* A group's thread: replays the ring on its context until STOP. */
static void *edan__j_main(void *arg)
{
    edan__jworker *w = (edan__jworker *)arg;
    edan__jobs *J = w->J;
    uint64_t tail = w->tail, told = tail, cap;
    unsigned char *ring;
    edan_result last = EDAN_OK;
    for (;;) {
        uint64_t h = __atomic_load_n(&J->pub, __ATOMIC_ACQUIRE);
        if (h == tail && !__atomic_load_n(&J->paused, __ATOMIC_ACQUIRE)) h = edan__spin_while(&J->pub, tail);
        if (h == tail || __atomic_load_n(&J->paused, __ATOMIC_ACQUIRE)) {
            pthread_mutex_lock(&J->mu);
            __atomic_add_fetch(&J->sleepers, 1, __ATOMIC_SEQ_CST);
            while ((h = __atomic_load_n(&J->pub, __ATOMIC_SEQ_CST)) == tail || __atomic_load_n(&J->paused, __ATOMIC_SEQ_CST))
                pthread_cond_wait(&J->data, &J->mu);
            __atomic_sub_fetch(&J->sleepers, 1, __ATOMIC_SEQ_CST);
            pthread_mutex_unlock(&J->mu);
        }
        /* the ring is replaced only when every thread has caught up,
           before the records that follow are handed over: read with them */
        ring = __atomic_load_n(&J->ring, __ATOMIC_ACQUIRE);
        cap = __atomic_load_n(&J->cap, __ATOMIC_ACQUIRE);
        while (tail < h) {
            const edan__jrec *r = (const edan__jrec *)(const void *)(ring + (tail & (cap - 1)));
            uint32_t type = r->type;
            if (type == EDAN__J_STOP) {
                __atomic_store_n(&w->tail, tail + r->bytes, __ATOMIC_SEQ_CST);
                if (__atomic_load_n(&J->waiting, __ATOMIC_SEQ_CST)) edan__j_wake(J, &J->space);
                return NULL;
            }
            if (type != EDAN__J_WRAP) {
                int was_ok = w->ctx->failed == EDAN_OK;
                last = edan__j_apply(w, r, last);
                if (was_ok && (w->ctx->failed != EDAN_OK || last == EDAN_ERR_NOMEM))
                    edan__j_fail(w, w->ctx->failed != EDAN_OK ? w->ctx->error : "out of memory");
            }
            tail += r->bytes;
            if (tail - told >= cap / 16 || tail == h) {
                __atomic_store_n(&w->tail, tail, __ATOMIC_SEQ_CST);
                told = tail;
                if (__atomic_load_n(&J->waiting, __ATOMIC_SEQ_CST)) edan__j_wake(J, &J->space);
            }
        }
    }
}

/* Stops the threads and frees what options.jobs made (ctx alone then). */
static void edan__j_stop(edan_context *ctx)
{
    edan__jobs *J = ctx ? ctx->jobs : NULL;
    uint32_t g;
    if (!J) return;
    __atomic_store_n(&J->paused, 0, __ATOMIC_SEQ_CST);
    if (J->ring && edan__j_put(J, EDAN__J_STOP, 0, 0, 0)) {
        edan__j_done(J);
        edan__j_publish(J);
    }
    for (g = 0; g < J->nw; g++) {
        edan__jworker *w = &J->w[g];
        size_t i;
        if (w->started) pthread_join(w->th, NULL);
        for (i = 0; i < w->blk_cap; i++) edan_block_destroy(w->blk[i]);
        edan__free(&ctx->a, w->blk);
        edan__free(&ctx->a, w->p);
        edan_destroy(w->ctx);
    }
    pthread_cond_destroy(&J->data);
    pthread_cond_destroy(&J->space);
    pthread_mutex_destroy(&J->mu);
    edan__free(&ctx->a, J->ring);
    edan__free(&ctx->a, J->free_ids);
    edan__free(&ctx->a, J->w);
    edan__free_apart(&ctx->a, J);
    ctx->jobs = NULL;
}

/* edan_create with options.jobs > 1 and several configurations, or
   jobs >= 2K + 1: the caller's context for the first group, the others'
   and their threads. With jobs >= 2K, each group is one configuration
   whose context plays its windowed schedules on a thread of its own too
   (options.jobs), as one configuration alone does. With jobs >= 2K + 1,
   the caller's context holds a stand-in alone (no cache, no schedule, no
   hotspots, no chain, no graph; its compiled blocks' executions counted
   alone: edan__standin_block), which finds the refusals where the calls
   are made, and every configuration is a group of its own: the thread
   that feeds, which also runs the program (QEMU), no longer carries a
   configuration's analysis. A failure makes them all again as one
   context, whose message it is. */
static edan_result edan__j_create(edan_context **out, const edan_options *opts)
{
    edan_options o = *opts;
    const uint32_t K = opts->num_configs, base = opts->jobs >= 2 * K + 1;
    uint32_t G = base ? K + 1 : opts->jobs < K ? opts->jobs : K, g, first;
    edan_context *ctx = NULL;
    edan__jobs *J = NULL;
    edan_config standin;
    uint64_t cap;
    int ok = 1;
    o.jobs = opts->jobs >= 2 * K ? 2 : 0;
    o.num_configs = K / G + (K % G > 0);
    if (base) {
        edan_options s = *opts;
        memset(&standin, 0, sizeof standin);
        standin.window = EDAN_WINDOW_OFF;
        s.num_configs = 1;
        s.configs = &standin;
        s.jobs = 0;
        s.hotspots = 0;
        s.chain = 0;
        s.dot_max_vertices = 0;
        if (edan_create(&ctx, &s) != EDAN_OK) ok = 0;
        else ctx->standin = 1;
        o.num_configs = 1;
    } else if (edan_create(&ctx, &o) != EDAN_OK) {
        ok = 0;
    }
    if (ok && !(J = (edan__jobs *)edan__calloc_apart(&ctx->a, sizeof *J))) ok = 0;
    if (ok && !(J->w = (edan__jworker *)edan__calloc(&ctx->a, (G - 1) * sizeof *J->w))) ok = 0;
    cap = edan__ring_bytes(opts->jobs_buffer, EDAN_JOBS_BUFFER_DEFAULT);
    if (ok && (pthread_mutex_init(&J->mu, NULL) || pthread_cond_init(&J->data, NULL) || pthread_cond_init(&J->space, NULL)))
        ok = 0;     /* (they cannot fail on Linux) */
    if (ok && !(J->ring = (unsigned char *)edan__alloc(&ctx->a, (size_t)cap))) ok = 0;
    if (ok) {
        J->a = ctx->a;
        J->K = K + base;
        J->base = base;
        J->cap = cap;
        ctx->jobs = J;
    }
    for (g = 1, first = o.num_configs; ok && g < G; g++) {
        edan__jworker *w = &J->w[g - 1];
        o.num_configs = base ? 1 : K / G + (K % G > g);
        o.configs = opts->configs + first - base;
        w->J = J;
        w->first = first;
        J->nw = g;
        if (edan_create(&w->ctx, &o) != EDAN_OK) ok = 0;
        first += o.num_configs;
    }
    for (g = 0; ok && g < J->nw; g++)
        if (edan__thread_start(&J->w[g].th, edan__j_main, &J->w[g])) J->w[g].started = 1;
        else ok = 0;
    if (ok) {
        *out = ctx;
        return EDAN_OK;
    }
    if (ctx && ctx->jobs) edan__j_stop(ctx);
    else if (J) {
        edan__free(&ctx->a, J->w);
        edan__free_apart(&ctx->a, J);
    }
    edan_destroy(ctx);
    o = *opts;
    o.jobs = 0;
    return edan_create(out, &o);
}

/* Before a feeding call: 0 when a thread's context failed (the caller's
   fails with its error and text). */
static int edan__j_ok(edan_context *ctx)
{
    int e = __atomic_load_n(&ctx->jobs->err, __ATOMIC_ACQUIRE);
    if (!e) return 1;
    snprintf(ctx->error, sizeof ctx->error, "%s", ctx->jobs->msg);
    ctx->failed = (edan_result)e;
    return 0;
}

/* The context that holds configuration *config of ctx, caught up, with
   *config its number there; NULL when it is ctx's own (or none's). */
static edan_context *edan__j_sub(const edan_context *ctx, uint32_t *config)
{
    edan__jobs *J = ctx ? ctx->jobs : NULL;
    uint64_t c;
    uint32_t g;
    if (!J) return NULL;
    c = (uint64_t)*config + J->base;    /* in the caller's numbering */
    if (c < ctx->K || c >= J->K) return NULL;
    for (g = J->nw - 1; g > 0 && c < J->w[g].first; g--) {}
    edan__j_wait(J, J->head, &J->w[g]);
    J->routed = J->w[g].first - J->base;
    *config = (uint32_t)(c - J->w[g].first);
    return J->w[g].ctx;
}
static uint32_t edan__j_num_configs(const edan_context *ctx)
{
    return ctx->jobs ? ctx->jobs->K - ctx->jobs->base : ctx->K;
}
#else
static edan_context *edan__j_sub(const edan_context *ctx, uint32_t *config) { (void)ctx; (void)config; return NULL; }
static uint32_t edan__j_num_configs(const edan_context *ctx) { return ctx->K; }
static void edan__j_prep(edan_context *ctx, const edan_insn *in) { (void)ctx; (void)in; }
static edan_result edan__j_block_new(edan_context *ctx, edan_block *b) { (void)ctx; (void)b; return EDAN_OK; }
static void edan__j_block_gone(edan_block *b) { (void)b; }
static void edan__j_stop(edan_context *ctx) { (void)ctx; }
#endif

/* A getter's result from the context sub that holds the configuration: its
   text, if any, is ctx's (a configuration named by its number in ctx). */
static edan_result edan__j_result(edan_context *ctx, const edan_context *sub, edan_result r)
{
    unsigned k;
    int at = 0;
    if (r == EDAN_OK) return r;
#if EDAN__THREADS
    if (sscanf(sub->error, "config %u%n", &k, &at) == 1 && at > 0) {
        snprintf(ctx->error, sizeof ctx->error, "config %u%s", k + ctx->jobs->routed, sub->error + at);
        return r;
    }
#else
    (void)k; (void)at;
#endif
    snprintf(ctx->error, sizeof ctx->error, "%s", sub->error);
    return r;
}

/* The counts of b's executions since the last flush, into its context. */
static void edan__block_flush(edan_block *b)
{
    edan_context *ctx = b->ctx;
    const uint64_t r = b->runs;
    uint32_t i;
    if (!r) return;
    for (i = 0; i < b->nops; i++) ctx->op_count[b->ops[i].op] += r * b->ops[i].count;
    for (i = 0; i < 4; i++) {
        ctx->mem_count[i] += r * b->mem_count[i];
        ctx->mem_bytes[i] += r * b->mem_bytes[i];
    }
    ctx->E += r * b->E;
    for (i = 0; i < ctx->K; i++) {     /* the configurations share the cost table */
        ctx->cfg[i].C += r * b->C;
        ctx->cfg[i].T1 += r * (b->C + b->T1mem);
        ctx->cfg[i].W += r * b->W;
        ctx->cfg[i].bytes += r * b->bytes;
    }
    b->runs = 0;
}

static void edan__blocks_flush(edan_context *ctx)
{
    edan_block *b;
    for (b = ctx->blocks; b; b = b->next) edan__block_flush(b);
}

/* The compiler's view of a register: its value (a term) and whether it
   still holds its live-in; a small hash. */
typedef struct edan__block_reg {
    uint32_t reg;                   /* register + 1; 0: an empty entry */
    uint32_t slot, c;               /* its value */
    uint32_t live;                  /* it holds its live-in (index + 1) */
    uint32_t writer;                /* its last writer + 1; 0: not written */
    uint32_t tinf;                  /* as a slot: the largest c + 1 of the Tinf candidates on it */
} edan__block_reg;

static edan__block_reg *edan__blkc_reg(edan__block_reg *regs, uint32_t mask, edan_reg r)
{
    uint32_t i = ((uint32_t)r * 0x9e3779b1u >> 7) & mask;
    while (regs[i].reg && regs[i].reg != (uint32_t)r + 1) i = (i + 1) & mask;
    if (!regs[i].reg) {
        regs[i].reg = (uint32_t)r + 1;
        regs[i].slot = r;           /* the live-in */
    }
    return &regs[i];
}

/* Term (s, c) into t[0 .. *n): one per slot, the largest c. */
static void edan__blkc_term(edan__block_term *t, uint32_t *n, uint32_t s, uint64_t c, int *unfit)
{
    uint32_t i;
    if (c >= 0xffffffffu) *unfit = 1;
    for (i = 0; i < *n && t[i].slot != s; i++) {}
    if (i == *n) {
        t[(*n)++].slot = s;
        t[i].c = 0;
    }
    if ((uint32_t)c > t[i].c) t[i].c = (uint32_t)c;
}

/* Compiles b (one configuration, or several sharing a cost table): 1 done,
   0 the block does not fit (fed one by one), -1 out of memory. */
/* A block's compiler's state (edan__block_compile). */
typedef struct edan__blkc_state {
    edan_context *ctx;
    edan_block *b;
    const edan__cfg *g;     /* the first configuration: the costs every one shares */
    uint32_t R;             /* registers: slots below R are registers, from R on locals */
    uint32_t mask;          /* regs[]'s hash mask */
    uint32_t nloc, nterms;  /* locals and terms made */
    uint32_t mem_t;         /* a memory vertex's largest cost in any configuration */
    uint32_t *uses;         /* readers of each local */
    uint32_t *tloc;         /* a local's largest Tinf candidate c + 1 (0: none) */
    edan__block_reg *regs;  /* the registers the block reads or writes */
    int unfit;
} edan__blkc_state;

/* The largest c + 1 of the Tinf candidates on slot s (0: none): a
   register's in its entry (a slot that is a register was read), a local's
   in tloc. */
static uint32_t *edan__blkc_tbest(edan__blkc_state *bc, uint32_t s)
{
    return s < bc->R ? &edan__blkc_reg(bc->regs, bc->mask, (edan_reg)s)->tinf : &bc->tloc[s - bc->R];
}

/* Whether b can be compiled: the configurations share one cost table (the
   terms' costs are theirs), and every instruction is one of the lean
   copy's common cases (edan__feed_lean1_fast: a store of anything but a
   whole word would send every execution one by one). Sets mem_t. */
static int edan__blkc_fits(edan__blkc_state *bc)
{
    const edan_context *ctx = bc->ctx;
    uint32_t i, k;
    for (k = 0; k < ctx->K; k++) {
        const edan__cfg *gk = &ctx->cfg[k];
        if (memcmp(gk->c.cost, bc->g->c.cost, sizeof bc->g->c.cost)) return 0;
        if (gk->c.alpha > bc->mem_t) bc->mem_t = gk->c.alpha;
        for (i = 0; i < gk->c.num_levels; i++)
            if (gk->lv[i].latency > bc->mem_t) bc->mem_t = gk->lv[i].latency;
    }
    for (i = 0; i < bc->b->n; i++) {
        const edan_prepared *p = &bc->b->p[i];
        if (p->in.mem == EDAN_MEM_AMO || (p->edan__.writes_mem && p->edan__.ndst) ||
            (p->in.mem == EDAN_MEM_STORE && p->in.size != 8) || (p->in.mem != EDAN_MEM_NONE && p->in.size > 8))
            return 0;
    }
    return 1;
}

/* The compiler's tables and the block's compiled form, at their largest:
   at most one local per instruction and one per register written out
   (EDAN_MAX_DST per instruction); at most EDAN_MAX_SRC + 1 terms per step,
   one per output. 0 when out of memory. */
static int edan__blkc_alloc(edan__blkc_state *bc)
{
    const edan_allocator *a = &bc->ctx->a;
    edan_block *b = bc->b;
    const size_t n = b->n;
    bc->mask = 1;
    while (bc->mask < 2 * (EDAN_MAX_SRC + EDAN_MAX_DST) * n) bc->mask *= 2;
    bc->regs = (edan__block_reg *)edan__calloc(a, bc->mask * sizeof *bc->regs);
    bc->mask--;
    bc->uses = (uint32_t *)edan__calloc(a, (1 + EDAN_MAX_DST) * n * sizeof(uint32_t));
    bc->tloc = (uint32_t *)edan__calloc(a, (1 + EDAN_MAX_DST) * n * sizeof(uint32_t));
    b->live_reg = (edan_reg *)edan__calloc(a, EDAN_MAX_SRC * n * sizeof(edan_reg));
    b->live_edges = (uint32_t *)edan__calloc(a, EDAN_MAX_SRC * n * sizeof(uint32_t));
    b->live_sets = (edan_reg *)edan__calloc(a, (EDAN_MAX_SRC + 1) * n * sizeof(edan_reg));
    b->mem = (edan__block_access *)edan__calloc(a, n * sizeof(edan__block_access));
    b->step = (edan__block_step *)edan__calloc(a, (1 + EDAN_MAX_DST) * n * sizeof(edan__block_step));
    b->terms = (edan__block_term *)edan__calloc(a, (EDAN_MAX_SRC + 1 + EDAN_MAX_DST) * n * sizeof(edan__block_term));
    b->out = (edan__block_out *)edan__calloc(a, EDAN_MAX_DST * n * sizeof(edan__block_out));
    b->ops = (edan__block_opcount *)edan__calloc(a, n * sizeof(edan__block_opcount));
    b->ent = (uint64_t **)edan__calloc(a, n * sizeof(uint64_t *));
    return bc->regs && bc->uses && bc->tloc && b->live_reg && b->live_edges && b->live_sets && b->mem && b->step &&
           b->terms && b->out && b->ops && b->ent;
}

/* Instruction i's source j: a live-in (its writer before the block) or a
   value of the block (one edge per writer), a term of its step t. */
static void edan__blkc_source(edan__blkc_state *bc, uint32_t i, uint32_t j, edan__block_step *st,
                              edan__block_term *t, uint32_t *nt, uint64_t cost, uint32_t *wseen, uint32_t *nseen)
{
    edan_block *b = bc->b;
    const edan_prepared *p = &b->p[i];
    const edan_insn *in = &p->in;
    edan__block_reg *r = edan__blkc_reg(bc->regs, bc->mask, p->edan__.src[j]);
    uint32_t q;
    if (!r->writer && !r->live) {
        b->live_reg[b->nlive] = p->edan__.src[j];
        r->live = ++b->nlive;
    }
    if (r->live) {
        b->live_edges[r->live - 1]++;
        b->live_sets[b->live_sets_len++] = p->edan__.src[j];
        if (in->mem == EDAN_MEM_LOAD) st->live[st->nlive++] = p->edan__.src[j];
        if (in->mem != EDAN_MEM_NONE) st->wr[st->nwr++] = p->edan__.src[j];
    } else {
        /* two registers one instruction of the block wrote: one edge */
        for (q = 0; q < *nseen && wseen[q] != r->writer; q++) {}
        if (q == *nseen) {
            wseen[(*nseen)++] = r->writer;
            b->E++;
        }
        if (in->mem != EDAN_MEM_NONE && b->p[r->writer - 1].in.mem != EDAN_MEM_NONE)
            st->wr[st->nwr++] = EDAN__BW_IN | (r->writer - 1);
    }
    if (r->slot >= bc->R) bc->uses[r->slot - bc->R]++;
    edan__blkc_term(t, nt, r->slot, (uint64_t)r->c + cost, &bc->unfit);
}

/* Instruction i of the block compiled: its terms, its step when it needs
   one (a memory access, or more than one term), its counts, the registers
   it writes. 0 when it does not fit. */
static int edan__blkc_insn(edan__blkc_state *bc, uint32_t i)
{
    edan_block *b = bc->b;
    const edan_prepared *p = &b->p[i];
    const edan_insn *in = &p->in;
    edan__block_step *st = &b->step[b->nstep];
    edan__block_term t[EDAN_MAX_SRC + 1];
    uint32_t j, nt = 0, vslot, vc, wseen[EDAN_MAX_SRC], nseen = 0, set = b->live_sets_len;
    uint64_t cost = in->mem == EDAN_MEM_NONE ? edan__op_time(bc->g, in) : 0;
    memset(st, 0, sizeof *st);
    b->live_sets[b->live_sets_len++] = 0;
    for (j = 0; j < p->edan__.nsrc; j++) edan__blkc_source(bc, i, j, st, t, &nt, cost, wseen, &nseen);
    if (b->live_sets_len - set - 1 < 2) b->live_sets_len = set;     /* one live-in: one writer */
    else b->live_sets[set] = (edan_reg)(b->live_sets_len - set - 1);
    if (!nt) edan__blkc_term(t, &nt, 0, cost, &bc->unfit);    /* from the constant */
    for (j = 0; j < b->nops && b->ops[j].op != in->op; j++) {}
    if (j == b->nops) b->ops[b->nops++].op = in->op;
    b->ops[j].count++;
    if (in->mem != EDAN_MEM_NONE) {
        b->mem[b->nmem].idx = i;
        b->mem[b->nmem].size = in->size;
        b->mem[b->nmem].kind = in->mem;
        b->mem_count[in->mem]++;
        b->mem_bytes[in->mem] += in->size;
        b->cost_bound += bc->mem_t;
        st->kind = in->mem;
        st->mem = b->nmem++;
        st->stack = (in->flags & EDAN_INSN_STACK) != 0;
        st->size = in->size;
    } else {
        b->C += cost;
        b->cost_bound += cost;
    }
    if (in->mem != EDAN_MEM_NONE || nt > 1) {   /* a step: its own local */
        st->dst = bc->R + bc->nloc++;
        st->idx = i;
        st->t0 = bc->nterms;
        st->nt = nt;
        memcpy(b->terms + bc->nterms, t, nt * sizeof *t);
        bc->nterms += nt;
        b->nstep++;
        vslot = st->dst;
        vc = 0;
    } else {
        vslot = t[0].slot;
        vc = t[0].c;
        /* writing nothing (a branch), it is a Tinf candidate alone: not a
           reader that keeps a step of its source (an x86-64 loop's
           compare, but the last of an unrolled copy, whose flags go out).
           One term: each of its sources read that local, one use each */
        if (!p->edan__.ndst && in->mem == EDAN_MEM_NONE && vslot >= bc->R) bc->uses[vslot - bc->R] -= p->edan__.nsrc;
    }
    /* a Tinf candidate: its F (a step's: below, once its readers are known) */
    if (in->mem == EDAN_MEM_NONE && nt == 1 && vc + 1 > *edan__blkc_tbest(bc, vslot)) *edan__blkc_tbest(bc, vslot) = vc + 1;
    for (j = 0; j < p->edan__.ndst; j++) {      /* every register it writes holds its value */
        edan__block_reg *r = edan__blkc_reg(bc->regs, bc->mask, p->edan__.dst[j]);
        r->slot = vslot;
        r->c = vc;
        r->live = 0;
        r->writer = i + 1;
    }
    return !bc->unfit && bc->nterms <= (EDAN_MAX_SRC + 1) * (size_t)b->n;
}

/* The registers written out; one whose value is another written
   register's live-in is read into a local first (the outputs are written
   one after the other). */
static void edan__blkc_outputs(edan__blkc_state *bc)
{
    edan_block *b = bc->b;
    uint32_t i;
    for (i = 0; i <= bc->mask; i++) {
        edan__block_reg *r = &bc->regs[i];
        edan__block_out *o;
        if (!r->writer) continue;
        if (r->slot < bc->R && r->slot != r->reg - 1 && r->slot) {
            edan__block_reg *src = edan__blkc_reg(bc->regs, bc->mask, (edan_reg)r->slot);
            if (src->writer) {
                edan__block_step *st = &b->step[b->nstep++];
                memset(st, 0, sizeof *st);
                st->dst = bc->R + bc->nloc++;
                st->t0 = bc->nterms;
                st->nt = 1;
                b->terms[bc->nterms].slot = r->slot;
                b->terms[bc->nterms++].c = r->c;
                r->slot = st->dst;
                r->c = 0;
            }
        }
        o = &b->out[b->nout++];
        o->reg = (edan_reg)(r->reg - 1);
        o->slot = r->slot;
        o->c = r->c;
        o->writer = r->writer - 1;
        if (r->slot >= bc->R) bc->uses[r->slot - bc->R]++;
    }
}

/* An operation's step with one reader, a later step, and at most
   EDAN__FOLD_TERMS terms is folded into it: the reader takes its terms,
   each with the reader's c for it added (max-plus: the same F and md), and
   the step goes (an x86-64 or RISC-V loop's multiply feeding another, a
   sum feeding the next iteration's in an unrolled copy). Not one with a
   Tinf candidate of its own (a branch's read), which stays for it; its own
   candidacy the reader covers (its F is at least as large). A folded step
   keeps no terms and no reader: edan__blkc_tinf leaves it out. The bound:
   a step costs the plain run more than several terms (gemm 160's trace,
   edan__block_run_plain, folding steps of up to 2 terms: 1357.8M
   instructions, 4: 1280.8M, 6: 1265.1M, 13: 1271.8M). */
#define EDAN__FOLD_TERMS 6
static void edan__blkc_fold(edan__blkc_state *bc)
{
    edan_block *b = bc->b;
    const size_t cap = (EDAN_MAX_SRC + 1 + EDAN_MAX_DST) * (size_t)b->n;
    uint32_t i, j, q;
    for (i = 0; i < b->nstep; i++) {
        edan__block_step *x = &b->step[i], *y = NULL;
        edan__block_term t[2 * (EDAN_MAX_SRC + 1)];
        uint32_t nt = 0, at = 0, k;
        int unfit = 0;
        if (x->kind != EDAN_MEM_NONE || !x->nt || x->nt > EDAN__FOLD_TERMS || bc->uses[x->dst - bc->R] != 1 || bc->tloc[x->dst - bc->R])
            continue;
        for (j = i + 1; j < b->nstep && !y; j++)
            for (q = 0; q < b->step[j].nt; q++)
                if (b->terms[b->step[j].t0 + q].slot == x->dst) {
                    y = &b->step[j];
                    at = q;
                    break;
                }
        if (!y || y->nt + x->nt - 1 > sizeof t / sizeof t[0] || bc->nterms + y->nt + x->nt > cap) continue;
        for (q = 0; q < y->nt; q++) {
            const edan__block_term *u = &b->terms[y->t0 + q];
            if (q != at) {
                edan__blkc_term(t, &nt, u->slot, u->c, &unfit);
                continue;
            }
            for (k = 0; k < x->nt; k++)
                edan__blkc_term(t, &nt, b->terms[x->t0 + k].slot, (uint64_t)b->terms[x->t0 + k].c + u->c, &unfit);
        }
        if (unfit) continue;
        memcpy(b->terms + bc->nterms, t, nt * sizeof *t);
        y->t0 = bc->nterms;
        y->nt = nt;
        bc->nterms += nt;
        x->nt = 0;
        bc->uses[x->dst - bc->R] = 0;
    }
}

/* The Tinf candidates: steps without a memory access that nothing reads
   are left out, their terms candidates, and those kept are candidates
   themselves; a candidate covered by a step's term (whose F is at least
   as large and counts itself: a memory vertex's in edan__vertex, a step's
   as a candidate) or by a register written out (which then counts) is
   dropped; the rest into b->tinf. 0 when out of memory. */
static int edan__blkc_tinf(edan__blkc_state *bc)
{
    edan_block *b = bc->b;
    uint32_t i, j, k;
    for (i = k = 0; i < b->nstep; i++) {
        edan__block_step *st = &b->step[i];
        if (st->kind == EDAN_MEM_NONE && !bc->uses[st->dst - bc->R]) {
            uint32_t *own = edan__blkc_tbest(bc, st->dst);
            const uint32_t after = *own ? *own : 1;     /* a branch's candidate on it: its F + cost */
            *own = 0;
            for (j = 0; j < st->nt; j++) {
                const edan__block_term *t = &b->terms[st->t0 + j];
                if (t->c + after > *edan__blkc_tbest(bc, t->slot)) *edan__blkc_tbest(bc, t->slot) = t->c + after;
            }
            continue;
        }
        if (st->kind == EDAN_MEM_NONE && !*edan__blkc_tbest(bc, st->dst)) *edan__blkc_tbest(bc, st->dst) = 1;
        b->step[k++] = *st;
    }
    b->nstep = k;
    for (i = 0; i < b->nstep; i++)
        for (j = 0; j < b->step[i].nt; j++) {
            const edan__block_term *t = &b->terms[b->step[i].t0 + j];
            if (*edan__blkc_tbest(bc, t->slot) && t->c + 1 >= *edan__blkc_tbest(bc, t->slot)) *edan__blkc_tbest(bc, t->slot) = 0;
        }
    for (i = 0; i < b->nout; i++) {
        edan__block_out *o = &b->out[i];
        if (*edan__blkc_tbest(bc, o->slot) && o->c + 1 >= *edan__blkc_tbest(bc, o->slot)) {
            *edan__blkc_tbest(bc, o->slot) = 0;
            o->tinf = 1;
        }
    }
    for (i = 0; i <= bc->mask; i++) b->ntinf += bc->regs[i].tinf != 0;
    for (i = 0; i < bc->nloc; i++) b->ntinf += bc->tloc[i] != 0;
    b->tinf = (edan__block_term *)edan__calloc(&bc->ctx->a, (b->ntinf + 1) * sizeof(edan__block_term));
    if (!b->tinf) return 0;
    for (i = k = 0; i <= bc->mask; i++)
        if (bc->regs[i].tinf) {
            b->tinf[k].slot = bc->regs[i].reg - 1;
            b->tinf[k++].c = bc->regs[i].tinf - 1;
        }
    for (i = 0; i < bc->nloc; i++)
        if (bc->tloc[i]) {
            b->tinf[k].slot = bc->R + i;
            b->tinf[k++].c = bc->tloc[i] - 1;
        }
    return 1;
}

#if EDAN__THREADS
static size_t edan__wrec_bytes(const edan_context *ctx, const edan_block *b);
#endif
/* b's view for the windowed schedule (edan_block's wins, wmem, wcap):
   each instruction's access, class and register sources' writers, the
   block's own or live-in. 0 when out of memory. */
static int edan__block_window_form(edan_context *ctx, edan_block *b)
{
    uint32_t i, s, j, d;
    b->wins = (edan__wins *)edan__calloc_apart(&ctx->a, (size_t)b->n * sizeof(edan__wins));
    b->wmem = (uint64_t *)edan__calloc(&ctx->a, (size_t)b->nmem * sizeof(uint64_t));
    b->wcap = (edan__wcap *)edan__calloc(&ctx->a, (size_t)b->nmem * ctx->K * sizeof(edan__wcap));
    b->wF = (edan__wt *)edan__calloc_apart(&ctx->a, ((size_t)b->nlive + b->n) * sizeof(edan__wt));
    if (!b->wins || !b->wmem || !b->wcap || !b->wF) return 0;
#if EDAN__THREADS
    b->wrec_bytes = edan__wrec_bytes(ctx, b);
#endif
    /* the schedules' thread's places (rdst, rsrc): a vertex's finish goes
       to its first target register's, else to its own after the registers
       and the 0 (num_regs + 1 + its index); a live-in is read at its register's, which
       the block's last writer of it overwrites only after every read of it */
    for (i = 0; i < b->n; i++) b->wins[i].rdst = ctx->num_regs + 1 + i;
    b->nwcopy = 0;
    for (i = 0; i < b->nout; i++) {
        const edan__block_out *o = &b->out[i];
        if (b->wins[o->writer].rdst > ctx->num_regs) b->wins[o->writer].rdst = o->reg;
        else b->nwcopy++;
    }
    if (b->nwcopy) {        /* a vertex's other targets: copied from its first's */
        uint32_t c = 0;
        if (!(b->wcopy = (uint32_t(*)[2])edan__calloc_apart(&ctx->a, b->nwcopy * sizeof *b->wcopy))) return 0;
        for (i = 0; i < b->nout; i++)
            if (b->wins[b->out[i].writer].rdst != b->out[i].reg) {
                b->wcopy[c][0] = b->out[i].reg;
                b->wcopy[c++][1] = b->wins[b->out[i].writer].rdst;
            }
    }
    for (i = 0; i < b->n; i++) {
        b->wins[i].nsrc = b->p[i].edan__.nsrc;
        b->wins[i].rnsrc = b->wins[i].nsrc ? b->wins[i].nsrc : 1;
        b->wins[i].rsrc[0] = ctx->num_regs;     /* the 0 */
        b->wins[i].kind = (uint8_t)b->p[i].in.mem;
        b->wins[i].cls = (uint8_t)b->p[i].in.cls;
        for (s = 0; s < b->p[i].edan__.nsrc; s++) {
            const edan_reg r = b->p[i].edan__.src[s];
            uint32_t x = UINT32_MAX;
            for (j = i; j-- > 0 && x == UINT32_MAX;)
                for (d = 0; d < b->p[j].edan__.ndst; d++)
                    if (b->p[j].edan__.dst[d] == r) { x = b->nlive + j; break; }
            if (x == UINT32_MAX) {      /* its place among the live-ins */
                for (j = 0; j < b->nlive && b->live_reg[j] != r; j++) {}
                if (j == b->nlive) return 0;
                x = j;
            }
            b->wins[i].src[s] = x;
            b->wins[i].rsrc[s] = x < b->nlive ? b->live_reg[x] : b->wins[x - b->nlive].rdst;
        }
    }
    return 1;
}

/* What the schedules read of one execution of a block: the registers'
   writers (by register: a live-in's is regs[live_reg[j]]), per memory
   instruction a load's word writer or forwarding store (wmem, with
   EDAN__WMEM_FW; a store's is not read), per memory instruction and
   configuration its step's find (wcap, with a cache). The block's own
   (b->wmem, b->wcap), or the record handed to the schedules' thread. */
typedef struct edan__wexec {
    const uint64_t *regs, *wmem;
    const edan__wcap *wcap;
} edan__wexec;
/* The same, where a block's execution writes it (edan__block_wout): rec,
   when not NULL, the record it is in. */
typedef struct edan__wout {
    uint64_t *wmem;
    edan__wcap *wcap;
    void *rec;
} edan__wout;

/* A memory vertex of edan__block_window1 (its schedule sj's places
   written back), whose registers' writers finish by S: the filler of the
   line it touched (with a cache), its word's writer or forwarding store
   (a load), then its step; its finish as its successors see it. Apart
   from the operations' loop, which keeps its registers for them. */
static EDAN__NOINLINE edan__wt edan__block_window1_mem(edan_context *ctx, uint32_t sj, uint32_t k,
                                                       const edan__wexec *ex, const edan__wins *p, uint32_t mi,
                                                       uint64_t vid, edan__wt S)
{
    const edan__wt z = {0, 0};
    const uint64_t u = p->kind == EDAN_MEM_LOAD ? ex->wmem[mi] : 0;
    edan__win *const s = &ctx->wcur->s[sj];
    const int pk = ctx->wpk;
    uint64_t t = s->cost[p->cls];
    int is_mem = 1;
    if (ex->wcap && !(u & EDAN__WMEM_FW)) {     /* with a cache: what the step found; its line's filler */
        const edan__wcap *cp = &ex->wcap[(size_t)mi * ctx->K + k];
        const uint64_t fill = edan__wcap_fill(cp);
        is_mem = cp->t == 0;
        t = (uint64_t)cp->t << s->tsh;
        if (fill) S = edan__wt_max(S, edan__win_at(ctx, fill, vid, sj, 0), pk);
    }
    if (u & EDAN__WMEM_FW) {    /* a load's forwarding store's start, or its word's writer */
        is_mem = 0;
        t = s->one;
        S = edan__wt_max(S, edan__win_at(ctx, u & ~EDAN__WMEM_FW, vid, sj, 1), pk);
    } else if (u) {
        S = edan__wt_max(S, edan__win_at(ctx, u, vid, sj, 0), pk);
    }
    return edan__win_step(s, p->kind, is_mem, t, S, z, pk);
}

/* The places such a pass keeps in registers from one block to the next
   (edan__wq_blocks1): schedule s's ring and dispatch places, its last
   retirement, the thread's vertex count (in s and its thread while
   another function may read them). */
typedef struct edan__w1 {
    uint32_t ri, di;
    edan__wt last;
    uint64_t n;
} edan__w1;
static EDAN__INLINE void edan__w1_get(edan__w1 *at, const edan__win *s, const edan__wthr *w)
{
    at->ri = s->ri;
    at->di = s->di;
    at->last = s->last;
    at->n = w->n;
}
static EDAN__INLINE void edan__w1_put(const edan__w1 *at, edan__win *s, edan__wthr *w)
{
    s->ri = at->ri;
    s->di = at->di;
    s->last = at->last;
    w->n = at->n;
}

/* edan__block_window_k with one schedule (options.window_m, the default of
   the edan commands), the pass most vertices take. Each vertex's
   predecessors straight from b->wF: the live-ins' writers' finishes,
   looked up once at the block's start, then the block's own vertices'; or
   from X (inX, a constant), the schedules' thread's registers' finishes
   and its places for the block's vertices (edan__wq_blocks1; wins' rsrc
   and rdst).
   Neither is checked against the window: a predecessor R or more vertices
   back retired before the reader's dispatch, which its start already
   counts (the maximum is the same); a live-in's writer beyond the window
   at the start counts 0 for the same reason. The ring's places and the
   last retirement in locals (written back before anything that reads
   them: the far predecessors' lookup, a memory access's step); an
   operation's step inline, without the queues and slots, and without the
   start that only a store's forwarding reads; so is a RAM load's without a
   cache and, with one, a load's that a level served. */
static EDAN__INLINE void edan__block_window1_at(edan_context *ctx, edan__wthr *w, edan__win *s, uint32_t sj,
                                                uint32_t k, edan_block *b, uint64_t N0, const edan__wexec *ex,
                                                const int inX, edan__wt *X, edan__w1 *at, const int pk)
{
    edan__went *const ring = s->ring;
    edan__wt *const disp = s->disp, *const A = inX ? X : b->wF, *fb = A + b->nlive;
    const uint32_t R = s->R, width = s->width, nlive = b->nlive;
    const uint64_t seg_start = ctx->th.seg_start, n0 = at->n;
    const edan__wins *const wins = b->wins, *p, *const pend = wins + b->n;     /* fb: p's finish */
    const uint64_t one = s->one;
    uint32_t ri = at->ri, di = at->di, q, mi = 0;
    edan__wt last = at->last;
    const edan__wt z = {0, 0};
    /* the places written back, x the current vertex's place in b */
#define EDAN__W1_SYNC(x) (s->ri = ri, s->di = di, s->last = last, w->n = n0 + (x) + 1)
    /* writer u's finish (0: no writer) as the vertex at place x sees it:
       edan__win_at with the places in locals */
#define EDAN__W1_AT(u, x)                                                                              \
    ((u) >= seg_start ? ((u) && N0 + (x) + 1 - (u) <= R ? edan__ring_back(ring, R, ri, N0 + (x) + 1 - (u))->F : z) \
     : (u) ? (EDAN__W1_SYNC(x), edan__win_at_far(ctx, (u), N0 + (x) + 1, sj, 0)) : z)
    if (!inX)
        for (q = 0; q < nlive; q++) edan__wt_put(&A[q], EDAN__W1_AT(ex->regs[b->live_reg[q]], 0), pk);     /* as its first vertex sees them */
    for (p = wins; p < pend; p++, fb++) {    /* the loop keeps as few variables as it can in registers */
        const uint32_t *src = inX ? p->rsrc : p->src, ns = inX ? p->rnsrc : p->nsrc;
        edan__wt *const F_at = inX ? X + p->rdst : fb;
        edan__wt S = {0, 0};
        if (inX) {      /* rnsrc >= 1, and every finish >= 0; mostly one or two */
            S = edan__wt_get(&A[src[0]], pk);
            if (ns > 1) {
                S = edan__wt_max(S, A[src[1]], pk);
                for (q = 2; q < ns; q++) S = edan__wt_max(S, A[src[q]], pk);
            }
        } else {
            for (q = 0; q < ns; q++) S = edan__wt_max(S, A[src[q]], pk);
        }
        if (p->kind == EDAN_MEM_NONE) {    /* an operation of its cost */
            edan__wt d = edan__wt_max(disp[di], ring[ri].ret, pk), F;
            edan__wt_put(&disp[di], edan__wt_add(d, one, 0, pk), pk);
            if (++di == width) di = 0;
            F = edan__wt_add(edan__wt_max(d, S, pk), s->cost[p->cls], 0, pk);
            last = edan__wt_max(last, F, pk);
            edan__wt_put(&ring[ri].F, F, pk);
            edan__wt_put(&ring[ri].ret, last, pk);
            if (++ri == R) ri = 0;
            edan__wt_put(F_at, F, pk);
        } else if (p->kind == EDAN_MEM_LOAD && !ex->wcap && !(ex->wmem[mi] & EDAN__WMEM_FW)) {    /* a RAM load, its word's writer */
            const uint64_t x = (uint64_t)(p - wins), u = ex->wmem[mi++];
            S = edan__wt_max(S, EDAN__W1_AT(u, x), pk);
            edan__wt_put(F_at, edan__win_step_at(s, &ri, &di, &last, EDAN_MEM_LOAD, 1, 0, S, z, pk), pk);
        } else if (p->kind == EDAN_MEM_LOAD && ex->wcap && !(ex->wmem[mi] & EDAN__WMEM_FW) &&
                   ex->wcap[(size_t)mi * ctx->K + k].t) {   /* a load a cache level served: after its line's filler */
            const edan__wcap *const cp = &ex->wcap[(size_t)mi * ctx->K + k];
            const uint64_t x = (uint64_t)(p - wins), u = ex->wmem[mi++], fill = edan__wcap_fill(cp);
            S = edan__wt_max(S, EDAN__W1_AT(fill, x), pk);
            S = edan__wt_max(S, EDAN__W1_AT(u, x), pk);
            edan__wt_put(F_at, edan__win_step_at(s, &ri, &di, &last, EDAN_MEM_LOAD, 0, (uint64_t)cp->t << s->tsh, S, z, pk),
                         pk);
        } else {
            const uint64_t x = (uint64_t)(p - wins);
            edan__wt Fs;
            EDAN__W1_SYNC(x);
            Fs = edan__block_window1_mem(ctx, sj, k, ex, p, mi++, N0 + x + 1, S);
            edan__wt_put(F_at, Fs, pk);
            last = edan__wt_max(last, Fs, pk);  /* the step's retirement (s->last), not read back */
            ri = s->ri;
            di = s->di;
        }
    }
    at->ri = ri;
    at->di = di;
    at->last = last;
    at->n = n0 + b->n;
#undef EDAN__W1_AT
#undef EDAN__W1_SYNC
}
/* One block through it, its places read from the schedule and written back. */
static EDAN__NOINLINE void edan__block_window1(edan_context *ctx, edan_block *b, uint64_t N0, uint32_t k,
                                               const edan__wexec *ex)
{
    edan__wthr *const w = ctx->wcur;
    const uint32_t sj = ctx->cfg[k].wfirst;
    edan__win *const s = &w->s[sj];
    edan__w1 at;
    edan__w1_get(&at, s, w);
    if (ctx->wpk) edan__block_window1_at(ctx, w, s, sj, k, b, N0, ex, 0, NULL, &at, 1);
    else edan__block_window1_at(ctx, w, s, sj, k, b, N0, ex, 0, NULL, &at, 0);
    edan__w1_put(&at, s, w);
}

/* One execution of block b (its vertices N0 + 1 ..) in configuration k,
   through the windowed schedule, after its steps: each vertex's
   predecessors are its register sources' writers (the block's, or the
   live-ins', whose writers the registers still hold), a load's word writer
   or forwarding store and, with a cache, the filler of the line an access
   touched, as the steps found them (edan__feed's, vertex by vertex).
   Several schedules (options.window_m); one: edan__block_window1. */
static EDAN__NOINLINE void edan__block_window_k(edan_context *ctx, edan_block *b, uint64_t N0, uint32_t k,
                                                const edan__wexec *ex)
{
    edan__cfg *g = &ctx->cfg[k];
    const uint32_t *cost = g->c.cost;
    uint32_t i, s, mi;
    for (i = 0, mi = 0; i < b->n; i++) {
        const edan__wins *p = &b->wins[i];
        const uint32_t *src = p->src;
        uint64_t pv[EDAN_MAX_SRC + 1], vid = N0 + i + 1, fwd = 0;
        uint32_t np = 0, nreg;
        const int kind = p->kind;
        int is_mem = kind != EDAN_MEM_NONE;
        for (s = 0; s < p->nsrc; s++)
            pv[np++] = src[s] < b->nlive ? ex->regs[b->live_reg[src[s]]] : N0 + (src[s] - b->nlive) + 1;
        nreg = np;
        if (kind == EDAN_MEM_LOAD) {
            if (ex->wmem[mi] & EDAN__WMEM_FW) {  /* forwarded: an operation of one cycle from the store's start */
                fwd = pv[np++] = ex->wmem[mi] & ~EDAN__WMEM_FW;
                is_mem = 0;
            } else if (ex->wmem[mi]) {
                pv[np++] = ex->wmem[mi];
            }
        }
        edan__win_count(ctx);
        if (is_mem && ex->wcap && !fwd) {       /* with a cache: what the step found; its line's filler */
            const edan__wcap *cp = &ex->wcap[(size_t)mi * ctx->K + k];
            const uint64_t fill = edan__wcap_fill(cp);
            edan__win_vertex_run(ctx, g, vid, kind, cp->t == 0, cp->t, pv, np, nreg, fwd, &fill, fill != 0, 0);
        } else {
            edan__win_vertex_run(ctx, g, vid, kind, is_mem, fwd ? 1 : cost[p->cls], pv, np, nreg, fwd, NULL, 0, 0);
        }
        mi += kind != EDAN_MEM_NONE;
    }
}

/* One configuration, one schedule: edan__block_window1 alone. */
static EDAN__INLINE int edan__window_one(const edan_context *ctx)
{
    return ctx->K == 1 && ctx->wnm == 1 && ctx->cfg[0].win;
}

/* Every configuration's schedules: the thread's vertices are counted
   again in each pass (the same count), so that each pass sees the thread
   as edan_feed would, vertex by vertex. Inline, for its common case: one
   configuration, one schedule. */
static EDAN__INLINE void edan__block_window_run(edan_context *ctx, edan_block *b, uint64_t N0, const edan__wexec *ex)
{
    edan__wthr *w = ctx->wcur;
    uint64_t n0;
    uint32_t k;
    edan__win_room(ctx, b->n);
    if (edan__window_one(ctx)) {
        edan__block_window1(ctx, b, N0, 0, ex);
        if (ctx->wpk) edan__win_fold(ctx, w->s[ctx->cfg[0].wfirst].last, w->s[ctx->cfg[0].wfirst].tsh);
        return;
    }
    n0 = w->n;
    for (k = 0; k < ctx->K; k++) {
        if (!ctx->cfg[k].win) continue;
        w->n = n0;
        if (ctx->wnm == 1) edan__block_window1(ctx, b, N0, k, ex);
        else edan__block_window_k(ctx, b, N0, k, ex);
    }
    if (ctx->wpk)
        for (k = 0; k < ctx->wn; k++) edan__win_fold(ctx, w->s[k].last, w->s[k].tsh);
}

#if EDAN__THREADS
/* ---- the windowed schedules on a thread of their own -------------------- */
/* With options.jobs and one configuration, the caller's thread runs the
   steps of a compiled block and hands what the schedules read of that
   execution (the live-ins' writers, each load's word writer and
   forwarding store, each memory step's find) to a thread that plays the
   block through them; the caller waits only when the ring is full. Every
   other use of the schedules (a vertex fed one by one, a thread's switch,
   a getter, a block's end) first waits until that thread has played every
   block handed to it (EDAN__WQ_IDLE), so that the schedules see the same
   calls in the same order: the same results. One program thread only:
   with several, a predecessor may be another's, whose place only the
   caller's thread knows (th.seg), and every block runs on the caller's. A
   record: an edan__wrec, then wmem[nmem] and, with a cache,
   wcap[nmem * K] (edan__wexec's; the block's run writes them there itself:
   edan__block_wout); 8-byte aligned, never across the ring's end (bytes
   0: the rest of the ring is empty, go on at its start). The thread keeps
   the registers' writers (wreg): a block's live-ins' are read there, its
   targets' written there after it; a register whose writer changed other
   than by a block handed over goes to it first (EDAN__WQ_REGS: pairs of
   register and writer), so that the caller does not copy the live-ins'
   at every block. A vertex fed one by one is handed over too (its count,
   its place in the schedules), so that only what reads the schedules
   waits. */
enum { EDAN__WQ_BLOCK = 1, EDAN__WQ_COUNT, EDAN__WQ_VERTEX, EDAN__WQ_REGS };
typedef struct edan__wrec { uint32_t bytes, type; edan_block *b; uint64_t N0; } edan__wrec;
/* A vertex fed one by one (EDAN__WQ_VERTEX, after its edan__wrec):
   edan__win_vertex's arguments, then pv[np] and fill[nfill]; a count
   (EDAN__WQ_COUNT) is a header alone, N0 the vertex id. */
typedef struct edan__wvert {
    uint64_t vid, t, fwd;
    uint32_t k, kind, is_mem, np, nreg, nfill, fill_end, pad;
} edan__wvert;
typedef struct edan__wq {
    /* the caller's */
    edan_context *ctx;
    unsigned char *ring;
    uint64_t *wreg;                 /* the thread's: the registers' writers (num_regs) */
    edan__wt *wregF;                /* the thread's: their finishes in the one schedule (edan__wq_blocks1),
                                       a 0, then the places of a block's vertices' (wplaces; apart) */
    uint32_t wplaces;
    uint32_t *wnew, nnew;           /* the thread's: registers whose wregF is to be looked up (from wreg) */
    unsigned char *wnew_at;         /* the thread's: a register is among them */
    int wnew_all;                   /* every register's is (set by the caller while the thread waits) */
    uint64_t cap;                   /* its bytes, a power of 2 */
    uint64_t head;                  /* bytes written */
    uint64_t seen;                  /* the tail as last read: head - seen bytes may be held */
    uint64_t lim;                   /* a record may be written up to it without a check (the ring's end,
                                       seen + cap) */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t data, space;
    /* each thread writes a cache line of its own (atomic): the caller the
       bytes handed over, the tail it waits for; the thread the bytes it
       played (16 KiB at a time, or all it was handed: the caller reads it
       only when the ring seems full) */
    unsigned char gap0[64];
    uint64_t pub;
    int stop;
    unsigned char gap1[64];
    uint64_t want;
    int waiting;                    /* the caller waits for room, or for the thread to be idle */
    unsigned char gap2[64];
    uint64_t tail;
    int sleeping;                   /* the thread waits for records */
    unsigned char gap3[64];
} edan__wq;

static size_t edan__wrec_bytes(const edan_context *ctx, const edan_block *b)
{
    size_t n = sizeof(edan__wrec) + (size_t)b->nmem * sizeof(uint64_t);
    if (!b->plain) n += (size_t)b->nmem * ctx->K * sizeof(edan__wcap);
    return (n + 7) & ~(size_t)7;
}
/* o: the parts of block b's record r (their one place: the caller writes
   them, the thread reads them) */
static EDAN__INLINE void edan__wout_rec(const edan_block *b, edan__wout *o, edan__wrec *r)
{
    o->rec = r;
    o->wmem = (uint64_t *)(r + 1);
    o->wcap = b->plain ? NULL : (edan__wcap *)(o->wmem + b->nmem);
}

/* Block record r as the schedules read it, the live-ins' writers from the
   thread's registers' writers wreg. */
static void edan__wrec_exec(const edan__wrec *r, const uint64_t *wreg, edan__wexec *ex)
{
    edan__wout o;
    edan__wout_rec(r->b, &o, (edan__wrec *)r);     /* read only here */
    ex->regs = wreg;
    ex->wmem = o.wmem;
    ex->wcap = o.wcap;
}

/* After block record r is played: its targets' writers into wreg. */
static EDAN__INLINE void edan__wrec_targets(const edan__wrec *r, uint64_t *wreg)
{
    const edan__block_out *o = r->b->out, *const oe = o + r->b->nout;
    const uint64_t vid = r->N0 + 1;
    for (; o < oe; o++) wreg[o->reg] = vid + o->writer;
}

/* The thread's run of block records from tail on, with one configuration
   and one schedule (edan__block_window_run's first case): the schedule's
   places stay in registers from one block to the next, and the
   registers' writers' finishes in q->wregF, where a block's vertices
   write their own (wins' rdst: its targets' finishes are written by then)
   and read their sources' (rsrc): a block's live-ins are not looked up in
   the ring, and wreg is not kept (nothing else reads it with one
   schedule). A finish kept after its writer left the window
   counts as the 0 that the ring would give: the reader's dispatch is
   after that writer's retirement (edan__block_window1_at). A register
   whose writer came other than from a block (q->wnew, EDAN__WQ_REGS; all
   of them after edan__wreg_copy) is looked up at the next run's start.
   Stops before a record of another type or the ring's end, at pub, or
   past a 16 KiB mark from told (where the caller is told the tail, as
   after any record), or before a block that packed times (pk) would not
   hold, once they are widened (the next run plays it); returns the tail. */
static EDAN__INLINE uint64_t edan__wq_blocks1_at(edan__wq *q, const unsigned char *ring, uint64_t mask,
                                                 uint64_t tail, uint64_t pub, uint64_t told, const int pk)
{
    edan_context *const ctx = q->ctx;
    edan__wthr *const w = ctx->wcur;
    const uint32_t sj = ctx->cfg[0].wfirst;
    edan__win *const s = &w->s[sj];
    const uint64_t *const wreg = q->wreg;
    edan__wt *const wregF = q->wregF;
    edan__w1 at;
    if (q->wnew_all | q->nnew) {
        const uint64_t vid = ((const edan__wrec *)(ring + (tail & mask)))->N0 + 1;
        const edan__wt z = {0, 0};
        uint32_t i, n = q->wnew_all ? ctx->num_regs : q->nnew, x;
        for (i = 0; i < n; i++) {
            x = q->wnew_all ? i : q->wnew[i];
            wregF[x] = wreg[x] ? edan__win_at(ctx, wreg[x], vid, sj, 0) : z;
            q->wnew_at[x] = 0;
        }
        q->wnew_all = 0;
        q->nnew = 0;
    }
    edan__w1_get(&at, s, w);
    do {
        const edan__wrec *const r = (const edan__wrec *)(ring + (tail & mask));
        edan__wexec ex;
        const edan_block *b;
        uint32_t i;
        if (!r->bytes || r->type != EDAN__WQ_BLOCK) break;
        b = r->b;
        if (pk && edan__win_tight(ctx, b->n)) {      /* edan__win_room, with the places written back first */
            edan__w1_put(&at, s, w);
            edan__win_widen(ctx);
            return tail;
        }
        edan__wrec_exec(r, NULL, &ex);      /* the live-ins' finishes from wregF */
        edan__block_window1_at(ctx, w, s, sj, 0, r->b, r->N0, &ex, 1, wregF, &at, pk);
        for (i = 0; i < b->nwcopy; i++) wregF[b->wcopy[i][0]] = wregF[b->wcopy[i][1]];
        if (pk) edan__win_fold(ctx, at.last, s->tsh);
        tail += r->bytes;
    } while (tail != pub && !((tail ^ told) >> 14));
    edan__w1_put(&at, s, w);
    return tail;
}
static EDAN__NOINLINE uint64_t edan__wq_blocks1(edan__wq *q, const unsigned char *ring, uint64_t mask,
                                                uint64_t tail, uint64_t pub, uint64_t told)
{
    if (q->ctx->wpk) return edan__wq_blocks1_at(q, ring, mask, tail, pub, told, 1);
    return edan__wq_blocks1_at(q, ring, mask, tail, pub, told, 0);
}

static void *edan__wq_main(void *arg)
{
    edan__wq *q = (edan__wq *)arg;
    /* the caller's line of q is read here once: it writes head there */
    edan_context *const ctx = q->ctx;
    const unsigned char *const ring = q->ring;
    uint64_t *const wreg = q->wreg;
    const uint64_t mask = q->cap - 1;
    uint64_t tail = 0, told = 0, pub = 0;
    for (;;) {
        const edan__wrec *r;
        edan__wexec ex;
        if (pub == tail) pub = __atomic_load_n(&q->pub, __ATOMIC_ACQUIRE);
        if (pub == tail) pub = edan__spin_while(&q->pub, tail);
        if (pub == tail) {
            pthread_mutex_lock(&q->mu);
            __atomic_store_n(&q->sleeping, 1, __ATOMIC_SEQ_CST);
            while (__atomic_load_n(&q->pub, __ATOMIC_SEQ_CST) == tail && !__atomic_load_n(&q->stop, __ATOMIC_SEQ_CST))
                pthread_cond_wait(&q->data, &q->mu);
            __atomic_store_n(&q->sleeping, 0, __ATOMIC_SEQ_CST);
            pthread_mutex_unlock(&q->mu);
            if ((pub = __atomic_load_n(&q->pub, __ATOMIC_ACQUIRE)) == tail) return NULL;     /* stopped, all played */
        }
        r = (const edan__wrec *)(ring + (tail & mask));
        if (!r->bytes) {
            tail = (tail | mask) + 1;
        } else if (r->type == EDAN__WQ_BLOCK && edan__window_one(ctx)) {
            tail = edan__wq_blocks1(q, ring, mask, tail, pub, told);
            goto played;
        } else if (r->type == EDAN__WQ_BLOCK) {
            edan__wrec_exec(r, wreg, &ex);
            edan__block_window_run(ctx, r->b, r->N0, &ex);
            edan__wrec_targets(r, wreg);
        } else if (r->type == EDAN__WQ_REGS) {
            const uint64_t *x = (const uint64_t *)(r + 1), *xe = (const uint64_t *)((const unsigned char *)r + r->bytes);
            for (; x < xe; x += 2) {
                wreg[x[0]] = x[1];
                if (!q->wnew_at[x[0]]) q->wnew[q->nnew++] = (uint32_t)x[0];
                q->wnew_at[x[0]] = 1;
            }
        } else if (r->type == EDAN__WQ_COUNT) {
            edan__win_count(ctx);
        } else {
            const edan__wvert *v = (const edan__wvert *)(r + 1);
            const uint64_t *pv = (const uint64_t *)(v + 1);
            edan__win_vertex_run(ctx, &ctx->cfg[v->k], v->vid, (int)v->kind, (int)v->is_mem, v->t, pv, v->np,
                                 v->nreg, v->fwd, pv + v->np, v->nfill, (int)v->fill_end);
        }
        if (r->bytes) tail += r->bytes;
    played:
        if (!((tail ^ told) >> 14) && tail != pub) continue;
        told = tail;
        __atomic_store_n(&q->tail, tail, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&q->waiting, __ATOMIC_SEQ_CST) && tail >= __atomic_load_n(&q->want, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&q->mu);
            pthread_cond_broadcast(&q->space);
            pthread_mutex_unlock(&q->mu);
        }
    }
}

/* What was written handed over, the thread woken when it sleeps. */
static EDAN__NOINLINE void edan__wq_publish(edan__wq *q)
{
    __atomic_store_n(&q->pub, q->head, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&q->sleeping, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&q->mu);
        pthread_cond_broadcast(&q->data);
        pthread_mutex_unlock(&q->mu);
    }
}

/* Hands over what was written; waits until the thread has played up to
   `upto` bytes. */
static void edan__wq_wait(edan__wq *q, uint64_t upto)
{
    edan__wq_publish(q);
    if (__atomic_load_n(&q->tail, __ATOMIC_SEQ_CST) >= upto) return;
    pthread_mutex_lock(&q->mu);
    __atomic_store_n(&q->want, upto, __ATOMIC_SEQ_CST);
    __atomic_store_n(&q->waiting, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&q->tail, __ATOMIC_SEQ_CST) < upto) {
        if (__atomic_load_n(&q->sleeping, __ATOMIC_SEQ_CST)) pthread_cond_broadcast(&q->data);
        pthread_cond_wait(&q->space, &q->mu);
    }
    __atomic_store_n(&q->waiting, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&q->mu);
}

static void edan__wq_idle(edan_context *ctx)
{
    edan__wq *q = ctx->wq;
    if (__atomic_load_n(&q->tail, __ATOMIC_SEQ_CST) != q->head) edan__wq_wait(q, q->head);
}

/* Room for `bytes` more at the head: when the ring seems full, the tail
   read again; when it is, room for a quarter of it waited for at once. */
static void edan__wq_space(edan__wq *q, uint64_t bytes)
{
    if (q->head + bytes - q->seen <= q->cap) return;
    q->seen = __atomic_load_n(&q->tail, __ATOMIC_SEQ_CST);
    if (q->head + bytes - q->seen <= q->cap) return;
    edan__wq_wait(q, q->head + bytes - q->cap + q->cap / 4);
    q->seen = __atomic_load_n(&q->tail, __ATOMIC_SEQ_CST);
}

/* The record at pos of the ring, its size and type filled in (the rest the caller's). */
static EDAN__INLINE edan__wrec *edan__wq_at(edan__wq *q, uint64_t pos, size_t bytes, uint32_t type)
{
    edan__wrec *r = (edan__wrec *)(q->ring + pos);
    r->bytes = (uint32_t)bytes;
    r->type = type;
    return r;
}

/* edan__wq_room's record at the ring's end or past the room seen: the
   ring wrapped, the tail read again, waited for. */
static EDAN__NOINLINE edan__wrec *edan__wq_room_far(edan__wq *q, size_t bytes, uint32_t type)
{
    uint64_t pos = q->head & (q->cap - 1);
    if (bytes > q->cap / 4) return NULL;
    if (pos + bytes > q->cap) {     /* the rest of the ring is empty: on at its start */
        edan__wq_space(q, (q->cap - pos) + bytes);
        ((edan__wrec *)(q->ring + pos))->bytes = 0;
        q->head += q->cap - pos;
        pos = 0;
    }
    edan__wq_space(q, bytes);
    q->lim = (q->head | (q->cap - 1)) + 1;
    if (q->seen + q->cap < q->lim) q->lim = q->seen + q->cap;
    return edan__wq_at(q, pos, bytes, type);
}

/* Room for a record of `bytes` (a multiple of 8) at the ring's head, its
   size and type filled in: NULL when it does not fit before lim and is
   too large to wait for (more than a quarter of the ring: played here,
   after the others). The caller fills in the rest, then edan__wq_commit.
   Inline: a block's record is written at every execution. */
static EDAN__INLINE edan__wrec *edan__wq_room(edan__wq *q, size_t bytes, uint32_t type)
{
    if (!EDAN__LIKELY(q->head + bytes <= q->lim)) return edan__wq_room_far(q, bytes, type);
    return edan__wq_at(q, q->head & (q->cap - 1), bytes, type);
}

static EDAN__INLINE void edan__wq_commit(edan__wq *q, size_t bytes)
{
    q->head += bytes;
    if (((q->head - bytes) ^ q->head) >> 14) edan__wq_publish(q);     /* handed over 16 KiB at a time */
}

/* A vertex counted (edan__count_vertex), for the thread. */
static int edan__wq_count(edan_context *ctx)
{
    edan__wrec *r = edan__wq_room(ctx->wq, sizeof *r, EDAN__WQ_COUNT);
    if (!r) return 0;
    edan__wq_commit(ctx->wq, sizeof *r);
    return 1;
}

/* A vertex fed one by one through configuration k's schedules
   (edan__win_vertex's arguments), for the thread: 0 when it does not fit. */
static int edan__wq_vertex(edan_context *ctx, uint32_t k, uint64_t vid, int kind, int is_mem, uint64_t t,
                           const uint64_t *pv, uint32_t np, uint32_t nreg, uint64_t fwd, const uint64_t *fill,
                           uint32_t nfill, int fill_end)
{
    const size_t bytes = sizeof(edan__wrec) + sizeof(edan__wvert) + ((size_t)np + nfill) * sizeof(uint64_t);
    edan__wrec *r = edan__wq_room(ctx->wq, bytes, EDAN__WQ_VERTEX);
    edan__wvert *v;
    if (!r) return 0;
    v = (edan__wvert *)(r + 1);
    v->vid = vid, v->t = t, v->fwd = fwd;
    v->k = k, v->kind = (uint32_t)kind, v->is_mem = (uint32_t)is_mem;
    v->np = np, v->nreg = nreg, v->nfill = nfill, v->fill_end = (uint32_t)fill_end, v->pad = 0;
    if (np) memcpy(v + 1, pv, np * sizeof *pv);
    if (nfill) memcpy((uint64_t *)(v + 1) + np, fill, nfill * sizeof *fill);
    edan__wq_commit(ctx->wq, bytes);
    return 1;
}

/* Every register's writer into q's copy, none left to send (q's thread
   not started, or waiting for a record). */
static void edan__wreg_copy(edan_context *ctx, edan__wq *q)
{
    memcpy(q->wreg, ctx->reg_vid, ctx->num_regs * sizeof(uint64_t));
    q->wnew_all = 1;
    ctx->wreg_n = 0;
    ctx->wreg_all = 0;
}

/* q and what it holds (any of it NULL), its thread's mutex and conditions
   apart */
static void edan__wq_free(const edan_allocator *a, edan__wq *q)
{
    edan__free(a, q->ring);
    edan__free(a, q->wreg);
    edan__free_apart(a, q->wregF);
    edan__free(a, q->wnew);
    edan__free(a, q->wnew_at);
    edan__free(a, q);
}

/* The schedules' thread, once (when it cannot be had, they run on the
   caller's). */
static void edan__wq_start(edan_context *ctx)
{
    edan__wq *q = (edan__wq *)edan__calloc(&ctx->a, sizeof *q);
    const uint64_t cap = ctx->wq_cap;
    ctx->wq_cap = 0;
    if (!q) return;
    q->ctx = ctx;
    q->cap = cap;
    q->ring = (unsigned char *)edan__alloc(&ctx->a, (size_t)cap);
    q->wreg = (uint64_t *)edan__alloc(&ctx->a, ctx->num_regs * sizeof(uint64_t));
    q->wplaces = 256;
    q->wregF = (edan__wt *)edan__calloc_apart(&ctx->a, ((size_t)ctx->num_regs + 1 + q->wplaces) * sizeof(edan__wt));
    q->wnew = (uint32_t *)edan__alloc(&ctx->a, ctx->num_regs * sizeof(uint32_t));
    q->wnew_at = (unsigned char *)edan__calloc(&ctx->a, ctx->num_regs);
    if (!q->ring || !q->wreg || !q->wregF || !q->wnew || !q->wnew_at) {
        edan__wq_free(&ctx->a, q);
        return;
    }
    edan__wreg_copy(ctx, q);        /* the thread's from now on */
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->data, NULL);
    pthread_cond_init(&q->space, NULL);
    if (edan__thread_start(&q->th, edan__wq_main, q)) {
        ctx->wq = q;
        return;
    }
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->data);
    pthread_cond_destroy(&q->space);
    edan__wq_free(&ctx->a, q);
}

static void edan__wq_stop(edan_context *ctx)
{
    edan__wq *q = ctx->wq;
    if (!q) return;
    edan__wq_idle(ctx);
    pthread_mutex_lock(&q->mu);
    __atomic_store_n(&q->stop, 1, __ATOMIC_SEQ_CST);
    pthread_cond_broadcast(&q->data);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->th, NULL);
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->data);
    pthread_cond_destroy(&q->space);
    edan__wq_free(&ctx->a, q);
    ctx->wq = NULL;
}

/* The registers whose writer changed other than by a block handed over
   (ctx->wreg_dirty), to the schedules' thread before the next block: their
   writers as a record; all of them (or when the record does not fit),
   copied into its own once it has played everything handed to it. */
static EDAN__NOINLINE void edan__wq_regs(edan_context *ctx)
{
    edan__wq *q = ctx->wq;
    uint32_t i;
    if (!ctx->wreg_all) {
        const size_t bytes = sizeof(edan__wrec) + (size_t)ctx->wreg_n * 2 * sizeof(uint64_t);
        edan__wrec *r = edan__wq_room(q, bytes, EDAN__WQ_REGS);
        if (r) {
            uint64_t *x = (uint64_t *)(r + 1);
            for (i = 0; i < ctx->wreg_n; i++) {
                x[2 * i] = ctx->wreg_dirty[i];
                x[2 * i + 1] = ctx->reg_vid[ctx->wreg_dirty[i]];
            }
            edan__wq_commit(q, bytes);
            ctx->wreg_n = 0;
            return;
        }
    }
    edan__wq_idle(ctx);     /* the thread waits for a record: its copy is the caller's to write */
    edan__wreg_copy(ctx, q);
}
#endif

#if EDAN__THREADS
/* Room in q->wregF for a block of n vertices after the registers, made
   while the schedules' thread waits: 0 when out of memory. */
static EDAN__NOINLINE int edan__wq_places_grow(edan_context *ctx, edan__wq *q, uint32_t n)
{
    edan__wt *x;
    edan__wq_idle(ctx);
    x = (edan__wt *)edan__calloc_apart(&ctx->a, ((size_t)ctx->num_regs + 1 + 2 * (size_t)n) * sizeof(edan__wt));
    if (!x) return 0;
    memcpy(x, q->wregF, ctx->num_regs * sizeof(edan__wt));     /* x[num_regs]: the 0 */
    edan__free_apart(&ctx->a, q->wregF);
    q->wregF = x;
    q->wplaces = 2 * n;
    return 1;
}
static EDAN__INLINE int edan__wq_places(edan_context *ctx, edan__wq *q, uint32_t n)
{
    return n <= q->wplaces || edan__wq_places_grow(ctx, q, n);
}
#endif

/* Packed times would no longer hold (edan__win_room): every time the
   schedules keep, as the pair from now on, between two vertices (nothing
   in a pass's registers), on the thread that plays the schedules. */
static EDAN__NOINLINE void edan__win_widen(edan_context *ctx)
{
    const uint32_t kb = ctx->wkb;
    size_t t, i, n;
    uint32_t j, k, x;
    if (!ctx->wpk) return;
    for (t = 0; t < ctx->wt_cap; t++) {
        edan__wthr *w = ctx->wt[t];
        if (!w) continue;
        if (w->gone) {
            for (j = 0; j < ctx->wn; j++) w->fin[j] = edan__wt_unpack(w->fin[j], kb);
            continue;
        }
        for (j = 0; j < ctx->wn; j++) {
            edan__win *s = &w->s[j];
            for (i = 0; i < s->R; i++) {
                s->ring[i].F = edan__wt_unpack(s->ring[i].F, kb);
                s->ring[i].S = edan__wt_unpack(s->ring[i].S, kb);
                s->ring[i].ret = edan__wt_unpack(s->ring[i].ret, kb);
            }
            n = (size_t)s->width + s->LQ + s->SQ + EDAN__WSLOTS(s->m);     /* disp, lq, sq, slot: one run */
            for (i = 0; i < n; i++) s->disp[i] = edan__wt_unpack(s->disp[i], kb);
            s->last = edan__wt_unpack(s->last, kb);
        }
    }
    for (i = 0; i < ctx->wseg_n * ctx->wn; i++) ctx->wseg[i] = edan__wt_unpack(ctx->wseg[i], kb);
#if EDAN__THREADS
    if (ctx->wq)
        for (i = 0; i < (size_t)ctx->num_regs + 1 + ctx->wq->wplaces; i++)
            ctx->wq->wregF[i] = edan__wt_unpack(ctx->wq->wregF[i], kb);
#endif
    ctx->wpk = 0;
    for (t = 0; t < ctx->wt_cap; t++) {
        edan__wthr *w = ctx->wt[t];
        if (!w || w->gone) continue;
        for (k = 0, x = 0; k < ctx->K; k++)
            if (ctx->cfg[k].win)
                for (j = 0; j < ctx->wnm; j++) edan__win_consts(ctx, &ctx->cfg[k], &w->s[x++]);
    }
}

/* Where an execution of block b writes what the schedules read of it:
   with the schedules' thread, straight into a record's room in its ring
   (nothing copied; handed over by edan__block_window), else b's own.
   Inline: at every execution of a block (the common case's checks: the
   room's bound, the block's places). */
static EDAN__INLINE void edan__block_wout(edan_context *ctx, edan_block *b, edan__wout *o)
{
#if EDAN__THREADS
    if (ctx->wq_cap && !ctx->th.nseg) edan__wq_start(ctx);
    if (ctx->wq && !ctx->th.nseg) {
        edan__wrec *r;
        if (ctx->wreg_n | ctx->wreg_all) edan__wq_regs(ctx);
        if (edan__wq_places(ctx, ctx->wq, b->n) && (r = edan__wq_room(ctx->wq, b->wrec_bytes, EDAN__WQ_BLOCK)) != NULL) {
            edan__wout_rec(b, o, r);
            return;
        }
    }
#endif
    o->wmem = b->wmem;
    o->wcap = b->plain ? NULL : b->wcap;
    o->rec = NULL;
    (void)ctx;
}

/* The execution of b written into o (its vertices from N0 + 1 on) through
   the windowed schedules: handed over, or played here. */
static EDAN__NOINLINE void edan__block_window_here(edan_context *ctx, edan_block *b, uint64_t N0, const edan__wout *o)
{
    edan__wexec ex;
#if EDAN__THREADS
    if (ctx->wq) {
        uint32_t i;
        edan__wq_idle(ctx);
        for (i = 0; i < b->nout; i++) edan__wreg_touch(ctx, b->out[i].reg);  /* written after this, not handed over */
    }
#endif
    ex.regs = ctx->reg_vid;
    ex.wmem = o->wmem;
    ex.wcap = o->wcap;
    edan__block_window_run(ctx, b, N0, &ex);
}

static EDAN__INLINE void edan__block_window(edan_context *ctx, edan_block *b, uint64_t N0, const edan__wout *o)
{
#if EDAN__THREADS
    if (o->rec) {       /* handed over: inline, as at every execution of a block */
        edan__wrec *r = (edan__wrec *)o->rec;
        r->b = b;
        r->N0 = N0;
        edan__wq_commit(ctx->wq, r->bytes);
        return;
    }
#endif
    edan__block_window_here(ctx, b, N0, o);
}

/* The locals past the registers in reg_F / reg_md (K each); 0 when out of
   memory. */
static int edan__blkc_locals(edan__blkc_state *bc)
{
    edan_context *ctx = bc->ctx;
    const edan_allocator *a = &ctx->a;
    const size_t slots = (size_t)bc->R + bc->nloc;
    uint64_t *nF;
    uint32_t *nmd;
    if (slots <= ctx->reg_slots) return 1;
    if (!(nF = (uint64_t *)edan__realloc(a, ctx->reg_F, slots * ctx->K * sizeof(uint64_t)))) return 0;
    ctx->reg_F = nF;
    if (!(nmd = (uint32_t *)edan__realloc(a, ctx->reg_md, slots * ctx->K * sizeof(uint32_t)))) return 0;
    ctx->reg_md = nmd;
    ctx->reg_slots = slots;
    return 1;
}

static int edan__block_compile(edan_context *ctx, edan_block *b)
{
    edan__blkc_state bc;
    uint32_t i;
    int ret = -1;
    memset(&bc, 0, sizeof bc);
    bc.ctx = ctx;
    bc.b = b;
    bc.g = &ctx->cfg[0];
    bc.R = ctx->num_regs;
    if (!edan__blkc_fits(&bc)) return 0;
    if (!edan__blkc_alloc(&bc)) goto done;
    for (i = 0; i < b->n; i++)
        if (!edan__blkc_insn(&bc, i)) {
            ret = 0;
            goto done;
        }
    edan__blkc_outputs(&bc);
    edan__blkc_fold(&bc);
    if (!edan__blkc_tinf(&bc) || !edan__blkc_locals(&bc)) goto done;
    for (i = 0; i < b->nlive; i++) b->live_E += b->live_edges[i];
    b->plain = ctx->K == 1 && !bc.g->c.num_levels && !bc.g->c.tau;
    if (ctx->wn) {      /* the windowed schedule: each vertex played after the steps (not with hotspots) */
        if (ctx->hotspots) {
            ret = 0;
            goto done;
        }
        if (!edan__block_window_form(ctx, b)) goto done;
    }
    if (b->plain) {
        b->W = b->nmem;
        b->T1mem = (uint64_t)b->nmem * bc.g->c.alpha;
        for (i = 0; i < EDAN_MEM_AMO; i++) b->bytes += b->mem_bytes[i];
    }
    ret = 1;
done:
    edan__free(&ctx->a, bc.regs);
    edan__free(&ctx->a, bc.uses);
    edan__free(&ctx->a, bc.tloc);
    return ret;
}

static void edan__block_free_form(edan_block *b)
{
    const edan_allocator *a = &b->ctx->a;
    edan__free_apart(a, b->wins);
    edan__free(a, b->wmem);
    edan__free(a, b->wcap);
    edan__free_apart(a, b->wF);
    edan__free_apart(a, b->wcopy);
    edan__free(a, b->live_reg);
    edan__free(a, b->live_edges);
    edan__free(a, b->live_sets);
    edan__free(a, b->mem);
    edan__free(a, b->step);
    edan__free(a, b->out);
    edan__free(a, b->terms);
    edan__free(a, b->tinf);
    edan__free(a, b->ops);
    edan__free(a, b->ent);
}

edan_result edan_block_create(edan_context *ctx, const edan_prepared *p, size_t n, edan_block **out)
{
    edan_block *b;
    size_t i;
    int c;
    if (!ctx || !out || (n && !p)) return ctx ? edan__fail(ctx, EDAN_ERR_INVALID_ARG, "no block") : EDAN_ERR_INVALID_ARG;
    *out = NULL;
    for (i = 0; i < n; i++)
        if (p[i].edan__.owner != ctx)
            return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "block instruction %llu: prepared for another context",
                              (unsigned long long)i);
    if (n > 0xffffffffu) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "block of %llu instructions: too long",
                                           (unsigned long long)n);
    b = (edan_block *)edan__calloc(&ctx->a, sizeof *b);
    if (!b || !(b->p = (edan_prepared *)edan__calloc(&ctx->a, n * sizeof *p))) {
        edan__free(&ctx->a, b);
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for a block");
    }
    if (n) memcpy(b->p, p, n * sizeof *p);
    b->ctx = ctx;
    b->n = (uint32_t)n;
    /* compiled without graph recording (multi_dst may change); with a
       windowed schedule only for one configuration (edan__block_window) */
    c = n && n <= 65536 && !ctx->dot_max && !ctx->chn ? edan__block_compile(ctx, b) : 0;
    if (c <= 0) {       /* fed one by one: no compiled form, no counts of its own */
        edan_block plain;
        edan__block_free_form(b);
        memset(&plain, 0, sizeof plain);
        plain.ctx = ctx;
        plain.p = b->p;
        plain.n = b->n;
        *b = plain;
        if (c < 0) {
            edan__free(&ctx->a, b->p);
            edan__free(&ctx->a, b);
            return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for a block");
        }
    }
    b->compiled = c;
    for (i = 0; i < n; i++) {
        b->nstore += p[i].in.mem == EDAN_MEM_STORE;
        b->nstack += p[i].in.mem == EDAN_MEM_STORE && (p[i].in.flags & EDAN_INSN_STACK);
    }
    b->next = ctx->blocks;
    if (ctx->blocks) ctx->blocks->prev = b;
    ctx->blocks = b;
    if (ctx->jobs && edan__j_block_new(ctx, b) != EDAN_OK) {
        edan_block_destroy(b);
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for a block");
    }
    *out = b;
    return EDAN_OK;
}

void edan_block_destroy(edan_block *b)
{
    edan_context *ctx;
    if (!b) return;
    ctx = b->ctx;
    if (b->unroll) edan_block_destroy(b->unroll);
    if (b->unroll_of) {         /* edan_destroy may free it first */
        b->unroll_of->unroll = NULL;
        b->unroll_of->unroll_k = 1;
    }
    EDAN__WQ_IDLE(ctx);     /* its runs handed to the schedules' thread are done */
    edan__j_block_gone(b);
    edan__block_flush(b);
    if (b->prev) b->prev->next = b->next;
    else ctx->blocks = b->next;
    if (b->next) b->next->prev = b->prev;
    edan__block_free_form(b);
    edan__free(&ctx->a, b->p);
    edan__free(&ctx->a, b);
}

/* A load's word writer w is not the writer of any register it reads (its
   first, live[0], known not to be). */
static EDAN__NOINLINE int edan__block_distinct(const edan_context *ctx, const edan__block_step *st, uint64_t w)
{
    uint32_t j;
    for (j = 1; j < st->nlive; j++)
        if (ctx->reg_vid[st->live[j]] == w) return 0;
    return 1;
}

/* The edges (0 or 1) from load st's word writer w (nonzero): none when w
   also wrote a register the load reads as a live-in (its other sources'
   writers are in the block and store nothing). live[] is padded with
   register 0, which has no writer; a register's writer is a word's only
   if it stored (store_dst). */
static EDAN__INLINE uint64_t edan__block_word_edge(edan_context *ctx, const edan__block_step *st, uint64_t w,
                                                   int store_dst, uint64_t seg_start)
{
    int edge = ctx->reg_vid[st->live[0]] != w && (st->nlive < 2 || !store_dst || edan__block_distinct(ctx, st, w));
    if (edge && w < seg_start) edan__cross_mem(ctx, w);
    return (uint64_t)edge;
}

/* edan__block_ready when a store's word has no entry yet: the stores'
   entries made first (making one may move others of its page), then every
   access's looked up. */
static EDAN__NOINLINE int edan__block_ready_new(edan_context *ctx, edan_block *b, const uint64_t *addrs, uint32_t K)
{
    uint32_t i;
    for (i = 0; i < b->nmem; i++) {
        const edan__block_access *m = &b->mem[i];
        const uint64_t a = addrs[m->idx];
        if ((a & 7) + m->size > 8 || (m->kind == EDAN_MEM_STORE && !edan__word(ctx, a >> 3, K, 1))) return 0;
    }
    for (i = 0; i < b->nmem; i++) {
        uint64_t *e = edan__word(ctx, addrs[b->mem[i].idx] >> 3, K, 0);
        b->ent[b->ent_at + i] = e;
        if (e ? (e[0] & EDAN__WSPLIT) != 0 : b->mem[i].kind == EDAN_MEM_STORE) return 0;
    }
    return 1;
}

/* Before an execution of b: every access within one word (a store of 8
   bytes: a whole one), no split word; 0 when not. Each one's word entry
   into b's row of ent (NULL: a load of a word never written), the stores'
   made; those found ahead (b->ent_ahead) only checked. */
static EDAN__INLINE int edan__block_ready(edan_context *ctx, edan_block *b, const uint64_t *addrs, uint32_t K)
{
    uint64_t **const ent = b->ent + b->ent_at;
    const int ahead = b->ent_ahead;
    uint32_t i;
    for (i = 0; i < b->nmem; i++) {
        const edan__block_access *m = &b->mem[i];
        uint64_t a, *e;
        if (ahead && (e = ent[i]) != NULL) {
            if (e[0] & EDAN__WSPLIT) return 0;
            continue;
        }
        a = addrs[m->idx];
        if ((a & 7) + m->size > 8) return 0;
        ent[i] = e = edan__word(ctx, a >> 3, K, 0);
        if (!e && m->kind == EDAN_MEM_STORE) return edan__block_ready_new(ctx, b, addrs, K);
        if (e && (e[0] & EDAN__WSPLIT)) return 0;
    }
    return 1;
}

/* What an execution of b may grow in g, grown (0 when out of memory): the
   layers (a memory vertex is at most one deeper than any before it), the
   timeline (no vertex finishes later than Tinf plus the block's cost), the
   hotspot table. */
static EDAN__INLINE int edan__block_room(edan_context *ctx, edan__cfg *g, const edan_block *b, int plain, int hot)
{
    if (!edan__layers_room(&ctx->a, &g->lay, b->nmem)) return 0;
    if (!plain && g->c.tau &&     /* grown, not coarsened: tau depends on the F reached alone */
        !edan__grow(&ctx->a, (void **)&g->tl_diff, &g->tl_cap, (size_t)((g->Tinf + b->cost_bound) / g->c.tau + 2),
                    sizeof(int64_t)))
        return 0;
    return !hot || edan__hot_room(ctx, g, b->nmem);
}

/* The live-in edges that instructions reading several live-ins do not
   make: once an instruction wrote two registers (multi_dst), two live-ins
   may have one writer, one edge. cross: only those of writers from before
   this thread's first vertex (edan__cross_reg). */
static EDAN__NOINLINE uint64_t edan__block_shared_writers(const edan_context *ctx, const edan_block *b, int cross)
{
    uint64_t dup = 0, w[EDAN_MAX_SRC];
    uint32_t i = 0, j;
    while (i < b->live_sets_len) {
        const edan_reg *set = b->live_sets + i + 1;
        uint32_t k = b->live_sets[i], written = 0;     /* k <= EDAN_MAX_SRC: one instruction's sources */
        if (k == 2 && !cross) {     /* the common case: a register and the flags, two registers */
            const uint64_t u = ctx->reg_vid[set[0]];
            dup += u && u == ctx->reg_vid[set[1]];
            i += 3;
            continue;
        }
        for (j = 0; j < k; j++) {
            w[j] = ctx->reg_vid[set[j]];
            if (cross && !edan__cross_reg(ctx, w[j])) w[j] = 0;
            written += w[j] != 0;
        }
        dup += written - edan__distinct_writers(w, k);
        i += k + 1;
    }
    return dup;
}

/* The edges from b's live-ins' writers: a register without one makes none.
   Those from writers before this thread's first vertex (its creator's)
   cross threads: one for each reader, as edan__feed counts them. */
static EDAN__INLINE uint64_t edan__block_live_edges(edan_context *ctx, edan_block *b)
{
    uint64_t E = 0;
    uint32_t i;
    int all = 1;
    if (ctx->th.seg_start) {
        uint64_t x = 0;
        for (i = 0; i < b->nlive; i++)
            if (edan__cross_reg(ctx, ctx->reg_vid[b->live_reg[i]])) x += b->live_edges[i];
        if (x && ctx->multi_dst && b->live_sets_len) x -= edan__block_shared_writers(ctx, b, 1);
        ctx->th.cross += x;
    }
    if (b->live_written && b->live_epoch == ctx->kill_epoch)
        return ctx->multi_dst && b->live_sets_len ? b->live_E - edan__block_shared_writers(ctx, b, 0) : b->live_E;
    for (i = 0; i < b->nlive; i++) {
        if (ctx->reg_vid[b->live_reg[i]]) E += b->live_edges[i];
        else all = 0;
    }
    b->live_written = all;      /* a register once written stays so, until a kill */
    b->live_epoch = ctx->kill_epoch;
    return ctx->multi_dst && b->live_sets_len ? E - edan__block_shared_writers(ctx, b, 0) : E;
}

/* The id of memory step st's j-th register writer: a vertex of the block
   (N0: the vertex id before it) or the register's writer before it. */
static EDAN__INLINE uint64_t edan__block_wr(const edan_context *ctx, const edan__block_step *st, uint64_t N0,
                                            uint32_t j)
{
    return st->wr[j] & EDAN__BW_IN ? N0 + (st->wr[j] & ~EDAN__BW_IN) + 1 : ctx->reg_vid[st->wr[j]];
}
/* The ids of memory step st's predecessors that may be memory vertices
   (its registers' writers, a load's word writer e[0]) into pv, for the
   fill dependences; their number. */
static EDAN__INLINE uint32_t edan__block_preds(const edan_context *ctx, const edan__block_step *st, uint64_t N0,
                                               const uint64_t *e, uint64_t *pv)
{
    uint32_t j, n = 0;
    for (j = 0; j < st->nwr; j++) pv[n++] = edan__block_wr(ctx, st, N0, j);
    if (st->kind == EDAN_MEM_LOAD && e && e[0]) pv[n++] = e[0];
    return n;
}
/* Whether vertex u is in step st's list of predecessors (edan__block_preds), without making it. */
static EDAN__INLINE int edan__block_is_pred(const edan_context *ctx, const edan__block_step *st, uint64_t N0,
                                           const uint64_t *e, uint64_t u)
{
    uint32_t j;
    if (st->kind == EDAN_MEM_LOAD && e && e[0] == u) return 1;
    for (j = 0; j < st->nwr; j++)
        if (edan__block_wr(ctx, st, N0, j) == u) return 1;
    return 0;
}

/* A compiled block's load step st that store-to-load forwarding answers
   from the store entry fw, starting at S at depth d from its address:
   an operation of one cycle from the store's start, its start and depth
   in *Sf, *df; in a plain block, whose constants counted it as a RAM
   access, those counts are taken back. Returns Tinf with it. (Values in,
   not pointers: the block's loop keeps its own in registers.) */
static EDAN__NOINLINE uint64_t edan__block_forwarded(edan_context *ctx, edan__cfg *g, const edan_block *b,
                                                     const edan__block_step *st, const unsigned char *fw, int plain,
                                                     int hot, uint64_t S, uint32_t d, uint64_t Tinf, uint64_t *Sf,
                                                     uint32_t *df)
{
    const edan_insn *in = &b->p[st->idx].in;
    uint64_t Fm;
    edan__join(&S, &d, EDAN__FW_S(fw)[0], EDAN__FW_MD(fw, 1)[0]);
    ctx->forwarded++;
    if (plain) {
        g->W--;
        g->T1 -= edan__access_time(g, 1, 0) - 1;
        g->C++;
        g->bytes -= in->size;
        if (S + 1 > Tinf) Tinf = S + 1;
    } else {
        g->Tinf = Tinf;
        (void)edan__vertex_forwarded(ctx, g, S, d, &Fm);
        Tinf = g->Tinf;
    }
    if (hot) (void)edan__hot_count(ctx, g, in, 0, d, 0);
    *Sf = S;
    *df = d;
    return Tinf;
}

/* One execution of a compiled block, one configuration; 0, before
   anything is counted, when an instruction needs more than the lean copy's
   common cases (edan__feed_lean1_fast) or an allocation fails: the caller
   then feeds the instructions one by one. `plain`: no cache, no timeline
   (b->plain), so that a memory vertex's time, W and bytes are the block's
   constants; `hot`: hotspots (ctx->hotspots). Compile-time flags: each
   combination used is its own copy, without the others' branches. */
static EDAN__INLINE int edan__block_exec(edan_context *ctx, edan_block *b, const uint64_t *addrs, int plain, int hot)
{
    edan__cfg *g = ctx->cfg;
    uint64_t *F = ctx->reg_F, **ent = b->ent + b->ent_at, N0 = ctx->N, E, Tinf;
    uint32_t *md = ctx->reg_md, i;
    const edan__block_term *t, *te;
    /* the block's counts and the window's switch in locals: a step's
       stores (md, uint32_t) may alias them, so that the fields would be
       read again after each */
    const int wn = ctx->wn != 0;
    const uint32_t nstep = b->nstep, nout = b->nout;
    /* and b's steps and terms: the calls on a memory step's rarer paths
       would have them read again at every step (6% of the plain run's
       instructions, gemm 160) */
    const edan__block_step *const steps = b->step;
    const edan__block_term *const terms = b->terms;
    /* so are a load's tests (forwarding, its word's edge): fw_lo read
       again after a store puts one into the ring */
    const int fw_on = ctx->fw_S != 0, store_dst = ctx->store_dst != 0;
    const uint64_t seg_start = ctx->th.seg_start;
    uint64_t fw_lo = edan__fw_lo(ctx);
    /* L1's hits: their latency, counted into T1, C and L1's hits after the loop */
    const int levels = g->c.num_levels != 0;
    const uint32_t l1_lat = levels ? g->lv[0].latency : 0;
    uint64_t l1_hits = 0;
    edan__wout wo;
    if (!edan__block_ready(ctx, b, addrs, 1) || !edan__block_room(ctx, g, b, plain, hot) ||
        (ctx->fw_S && b->nstore && !edan__fw_ready(ctx, b->nstack)))
        return 0;
    if (wn) edan__block_wout(ctx, b, &wo);
    else wo.wmem = NULL, wo.wcap = NULL, wo.rec = NULL;    /* not read (said for the compilers) */
    E = edan__block_live_edges(ctx, b);
    Tinf = g->Tinf;
    for (i = 0; i < nstep; i++) {
        const edan__block_step *st = &steps[i];
        uint64_t S, Fm = 0, *e, w0;      /* Fm: set by edan__vertex, which cannot fail here */
        uint32_t d;
        int is_mem;
        long hit;
        t = terms + st->t0;
        S = F[t->slot] + t->c;      /* a step has a term at least */
        d = md[t->slot];
        if (st->nt > 1) {
            edan__join(&S, &d, F[t[1].slot] + t[1].c, md[t[1].slot]);
            if (st->nt > 2) {       /* a folded step's third (a loop's multiply of two loads), no loop */
                edan__join(&S, &d, F[t[2].slot] + t[2].c, md[t[2].slot]);
                for (te = t + st->nt, t += 3; t < te; t++) edan__join(&S, &d, F[t->slot] + t->c, md[t->slot]);
            }
        }
        if (st->kind == EDAN_MEM_NONE) {
            F[st->dst] = S;
            md[st->dst] = d;
            continue;
        }
        e = ent[st->mem];
        w0 = e ? e[0] : 0;      /* the word's writer, in a local: the store below may alias e */
        if (wn) wo.wmem[st->mem] = w0;      /* the windowed schedule's, for later */
        if (st->kind == EDAN_MEM_LOAD && w0) {
            const unsigned char *fw =
                w0 >= fw_lo || (st->stack && fw_on) ? edan__fw_find_vid(ctx, &b->p[st->idx].in, w0) : NULL;
            E += edan__block_word_edge(ctx, st, w0, store_dst, seg_start);
            if (fw) {       /* forwarded: an operation of one cycle from the store's start */
                uint64_t Sf;
                uint32_t df;
                if (wn) wo.wmem[st->mem] = EDAN__FW_VID(fw) | EDAN__WMEM_FW;
                Tinf = edan__block_forwarded(ctx, g, b, st, fw, plain, hot, S, d, Tinf, &Sf, &df);
                F[st->dst] = Sf + 1;
                md[st->dst] = df;
                continue;
            }
            edan__join_word(e, 1, 0, &S, &d);
        }
        if (plain && st->kind == EDAN_MEM_STORE && ctx->fw_S)    /* its start and depth there; room made before */
            edan__fw_put1(ctx, N0 + st->idx + 1, addrs[st->idx], st->size, (int)st->stack, S, d);
        if (plain) {        /* edan__vertex without a cache: W, T1 and bytes are the block's */
            Fm = S + edan__access_time(g, 1, 0);
            d = edan__depth(d, 1);
            if (Fm > Tinf) Tinf = Fm;
            (void)edan__mem_depth(ctx, g, d);       /* room made above */
            is_mem = 1;
        } else if (st->kind == EDAN_MEM_LOAD && levels &&
                   (hit = edan__l1_hit(&g->lv[0], addrs[st->idx], st->size)) >= 0) {
            /* edan__vertex's first case with the loop's locals (its call keeps a dozen values
               on the stack): served by L1, an operation of its latency, counted after the loop */
            const edan__filler *f = edan__l1_filler_of(g, hit, N0 + st->idx + 1);
            uint64_t fill = 0;
            if (f) {    /* edan__fill_join without the predecessors' list (no graph: a block is compiled only then) */
                fill = f->vid;
                edan__join(&S, &d, f->F, f->md);
                g->fill_edges += !edan__block_is_pred(ctx, st, N0, e, fill);
            }
            Fm = S + l1_lat;
            l1_hits++;
            if (Fm > Tinf) Tinf = Fm;
            is_mem = 0;
            if (wn) edan__wcap_set(&wo.wcap[st->mem], 0, l1_lat, fill);
        } else {
            uint64_t pv[EDAN_MAX_SRC + 1], Sm = 0, Fv = 0;
            uint32_t npv = edan__block_preds(ctx, st, N0, e, pv), dS = 0, dv = d;
            int mv = 0;
            g->Tinf = Tinf;
            /* grown above; no graph recorded; the schedule's part into the record, for edan__block_window.
               Its results through copies: the loop's own locals, whose addresses it never takes, stay
               in registers */
            (void)edan__vertex(ctx, g, &b->p[st->idx].in, addrs[st->idx], N0 + st->idx + 1, pv, npv, S, &dv, NULL,
                               &Sm, &dS, &Fv, &mv, wn ? &wo.wcap[st->mem] : NULL,
                               st->kind == EDAN_MEM_LOAD && g->c.num_levels);     /* looked up above */
            d = dv;
            Fm = Fv;
            is_mem = mv;
            Tinf = g->Tinf;
            if (st->kind == EDAN_MEM_STORE && ctx->fw_S)
                edan__fw_put(ctx, N0 + st->idx + 1, addrs[st->idx], st->size, (int)st->stack, &Sm, &dS);
        }
        if (hot) (void)edan__hot_count(ctx, g, &b->p[st->idx].in, is_mem, d, g->served);     /* room made above */
        if (st->kind == EDAN_MEM_STORE) {
            edan__set_word_writer(e, N0 + st->idx + 1, &Fm, &d, 1);
            fw_lo = edan__fw_lo(ctx);
        }
        F[st->dst] = Fm;
        md[st->dst] = d;
    }
    /* Tinf's own terms, then the registers written out (which may overwrite
       the live-ins those terms read, as the windowed schedule does) */
    for (t = b->tinf, te = t + b->ntinf; t < te; t++)
        if (F[t->slot] + t->c > Tinf) Tinf = F[t->slot] + t->c;
    if (wn) edan__block_window(ctx, b, N0, &wo);
    for (i = 0; i < nout; i++) {
        const edan__block_out *o = &b->out[i];
        uint64_t Fo = F[o->slot] + o->c;
        edan__set_reg_writer(ctx->reg_vid, F, md, o->reg, N0 + o->writer + 1, &Fo, &md[o->slot], 1);
        if (o->tinf && Fo > Tinf) Tinf = Fo;
    }
    g->Tinf = Tinf;
    if (l1_hits) {
        g->T1 += l1_hits * l1_lat;
        g->C += l1_hits * l1_lat;
        g->level_hits[0] += l1_hits;
    }
    ctx->E += E;
    ctx->N = N0 + b->n;
    b->runs++;
    return 1;
}

/* edan__block_exec for several configurations (K > 1, one cost table):
   every slot has K values (reg_F[slot * K + k]), a memory vertex goes
   through edan__vertex per configuration. */
static EDAN__NOINLINE int edan__block_run_k(edan_context *ctx, edan_block *b, const uint64_t *addrs)
{
    const uint32_t K = ctx->K;
    const int hot = ctx->hotspots != 0;
    uint64_t *F = ctx->reg_F, **ent = b->ent + b->ent_at, N0 = ctx->N, E, Tinf[EDAN_MAX_CONFIGS];
    uint32_t *md = ctx->reg_md, i, k;
    const edan__block_term *t, *te;
    const int wn = ctx->wn != 0;
    edan__wout wo;
    if (!edan__block_ready(ctx, b, addrs, K) || (ctx->fw_S && b->nstore && !edan__fw_ready(ctx, b->nstack))) return 0;
    for (k = 0; k < K; k++)
        if (!edan__block_room(ctx, &ctx->cfg[k], b, 0, hot)) return 0;
    if (wn) edan__block_wout(ctx, b, &wo);
    else wo.wmem = NULL, wo.wcap = NULL, wo.rec = NULL;    /* not read (said for the compilers) */
    E = edan__block_live_edges(ctx, b);
    for (k = 0; k < K; k++) Tinf[k] = ctx->cfg[k].Tinf;
    for (i = 0; i < b->nstep; i++) {
        const edan__block_step *st = &b->step[i];
        uint64_t S[EDAN_MAX_CONFIGS], Sm[EDAN_MAX_CONFIGS], Fm[EDAN_MAX_CONFIGS], *e, pv[EDAN_MAX_SRC + 1];
        uint32_t d[EDAN_MAX_CONFIGS], dS[EDAN_MAX_CONFIGS], npv;
        int memk[EDAN_MAX_CONFIGS];
        const unsigned char *fw = NULL;
        for (k = 0; k < K; k++) {
            S[k] = 0;
            d[k] = 0;
            for (t = b->terms + st->t0, te = t + st->nt; t < te; t++)
                edan__join(&S[k], &d[k], F[(size_t)t->slot * K + k] + t->c, md[(size_t)t->slot * K + k]);
        }
        if (st->kind == EDAN_MEM_NONE) {
            for (k = 0; k < K; k++) {
                F[(size_t)st->dst * K + k] = S[k];
                md[(size_t)st->dst * K + k] = d[k];
            }
            continue;
        }
        e = ent[st->mem];
        if (wn) wo.wmem[st->mem] = e ? e[0] : 0;     /* the windowed schedule's, for later */
        if (st->kind == EDAN_MEM_LOAD && e && e[0]) {
            const edan_insn *in = &b->p[st->idx].in;
            if (edan__fw_may(ctx, in, e[0])) fw = edan__fw_find_vid(ctx, in, e[0]);     /* e: its one word's */
            if (fw && wn) wo.wmem[st->mem] = EDAN__FW_VID(fw) | EDAN__WMEM_FW;
            for (k = 0; k < K; k++)     /* forwarded: the store's start and depth less its access */
                if (fw) edan__join(&S[k], &d[k], EDAN__FW_S(fw)[k], EDAN__FW_MD(fw, K)[k]);
                else edan__join_word(e, K, k, &S[k], &d[k]);
            E += edan__block_word_edge(ctx, st, e[0], ctx->store_dst, ctx->th.seg_start);
            ctx->forwarded += fw != NULL;
        }
        npv = edan__block_preds(ctx, st, N0, e, pv);
        for (k = 0; k < K; k++) {
            edan__cfg *g = &ctx->cfg[k];
            g->Tinf = Tinf[k];
            if (fw) {
                memk[k] = 0;
                (void)edan__vertex_forwarded(ctx, g, S[k], d[k], &Fm[k]);
            } else {
                (void)edan__vertex(ctx, g, &b->p[st->idx].in, addrs[st->idx], N0 + st->idx + 1, pv, npv, S[k], &d[k],
                                   NULL, &Sm[k], &dS[k], &Fm[k], &memk[k],
                                   wn ? &wo.wcap[(size_t)st->mem * K + k] : NULL, 0);     /* edan__block_window's */
            }
            Tinf[k] = g->Tinf;
            if (hot) (void)edan__hot_count(ctx, g, &b->p[st->idx].in, memk[k], d[k], g->served);
            F[(size_t)st->dst * K + k] = Fm[k];
            md[(size_t)st->dst * K + k] = d[k];
        }
        if (st->kind == EDAN_MEM_STORE) {
            edan__set_word_writer(e, N0 + st->idx + 1, Fm, d, K);
            if (ctx->fw_S)      /* room made before */
                edan__fw_put(ctx, N0 + st->idx + 1, addrs[st->idx], b->p[st->idx].in.size,
                             (b->p[st->idx].in.flags & EDAN_INSN_STACK) != 0, Sm, dS);
        }
    }
    for (t = b->tinf, te = t + b->ntinf; t < te; t++)
        for (k = 0; k < K; k++)
            if (F[(size_t)t->slot * K + k] + t->c > Tinf[k]) Tinf[k] = F[(size_t)t->slot * K + k] + t->c;
    if (wn) edan__block_window(ctx, b, N0, &wo);   /* before the registers are written out */
    for (i = 0; i < b->nout; i++) {
        const edan__block_out *o = &b->out[i];
        uint64_t Fo[EDAN_MAX_CONFIGS];
        for (k = 0; k < K; k++) {
            Fo[k] = F[(size_t)o->slot * K + k] + o->c;
            if (o->tinf && Fo[k] > Tinf[k]) Tinf[k] = Fo[k];
        }
        edan__set_reg_writer(ctx->reg_vid, F, md, o->reg, N0 + o->writer + 1, Fo, md + (size_t)o->slot * K, K);
    }
    for (k = 0; k < K; k++) ctx->cfg[k].Tinf = Tinf[k];
    ctx->E += E;
    ctx->N = N0 + b->n;
    b->runs++;
    return 1;
}

static EDAN__NOINLINE int edan__block_run_plain(edan_context *ctx, edan_block *b, const uint64_t *addrs)
{
    return edan__block_exec(ctx, b, addrs, 1, 0);
}

static EDAN__NOINLINE int edan__block_run(edan_context *ctx, edan_block *b, const uint64_t *addrs)
{
    return edan__block_exec(ctx, b, addrs, 0, 0);
}

static EDAN__NOINLINE int edan__block_run_hot(edan_context *ctx, edan_block *b, const uint64_t *addrs)
{
    if (b->plain) return edan__block_exec(ctx, b, addrs, 1, 1);
    return edan__block_exec(ctx, b, addrs, 0, 1);
}

/* A compiled block's execution in a stand-in (ctx->standin): its
   vertices counted (the refusals' texts number them) and its ops with its
   runs (edan__block_flush), nothing analysed; 0 when an access wraps
   around the address space: fed one by one then, which refuses it. */
static EDAN__INLINE int edan__standin_block(edan_context *ctx, edan_block *b, const uint64_t *addrs)
{
    const edan__block_access *m = b->mem, *const me = m + b->nmem;
    for (; m < me; m++)
        if (addrs[m->idx] + m->size - 1 < addrs[m->idx]) return 0;
    ctx->N += b->n;
    b->runs++;
    return 1;
}

static EDAN__INLINE edan_result edan__feed_block_run(edan_context *ctx, edan_block *b, const uint64_t *addrs)
{
    if (!ctx || !b) return ctx ? edan__fail(ctx, EDAN_ERR_INVALID_ARG, "no block") : EDAN_ERR_INVALID_ARG;
    if (b->ctx != ctx)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "instruction %llu: a block made for another context",
                          (unsigned long long)ctx->N + 1);
    if (ctx->th.cur == EDAN__NO_THREAD) return edan__no_thread(ctx);
    if (b->compiled && (addrs || !b->nmem) &&
        (ctx->standin ? edan__standin_block(ctx, b, addrs)
         : ctx->K > 1 ? edan__block_run_k(ctx, b, addrs)
         : ctx->hotspots ? edan__block_run_hot(ctx, b, addrs)
         : b->plain ? edan__block_run_plain(ctx, b, addrs) : edan__block_run(ctx, b, addrs)))
        return EDAN_OK;
    return edan_feed_prepared_n(ctx, b->p, addrs, b->n, NULL);
}

/* ---- the feeding API: a failed context stays failed ------------------- */
/* A feeding call that runs out of memory or past a limit may have changed
   part of the state: the context is failed, every later feeding call
   returns that error and changes nothing (the header's ERRORS). A refusal
   (EDAN_ERR_INVALID_ARG: checked before anything changes) leaves it as it
   was. */
/* With options.jobs, rec copies the call for the other groups' threads
   first (not the calls that one makes itself: inside). */
#if EDAN__THREADS
#define EDAN__JOBS_ON(ctx) ((ctx)->jobs && !(ctx)->jobs->inside)
#define EDAN__JOBS_ENTER(ctx, rec)                                                  \
    do {                                                                            \
        if (!edan__j_ok(ctx)) return (ctx)->failed;                                 \
        if (!(rec)) return edan__fail((ctx), (ctx)->failed = EDAN_ERR_NOMEM,        \
                                      "out of memory for the threads' buffer");     \
        (ctx)->jobs->inside = 1;                                                    \
    } while (0)
#define EDAN__JOBS_LEAVE(ctx) ((ctx)->jobs->inside = 0)
#else
#define EDAN__JOBS_ON(ctx) 0
#define EDAN__JOBS_ENTER(ctx, rec) ((void)0)
#define EDAN__JOBS_LEAVE(ctx) ((void)0)
#endif
#define EDAN__FEED_CALL(ctx, rec, call)                                             \
    do {                                                                            \
        edan_result edan__r;                                                        \
        if (!(ctx)) return EDAN_ERR_INVALID_ARG;                                    \
        if ((ctx)->failed != EDAN_OK) return (ctx)->failed;                         \
        if (EDAN__JOBS_ON(ctx)) {                                                   \
            EDAN__JOBS_ENTER(ctx, rec);                                             \
            edan__r = (call);                                                       \
            EDAN__JOBS_LEAVE(ctx);                                                  \
        } else {                                                                    \
            edan__r = (call);                                                       \
        }                                                                           \
        if (edan__r == EDAN_ERR_NOMEM || edan__r == EDAN_ERR_LIMIT) (ctx)->failed = edan__r; \
        return edan__r;                                                             \
    } while (0)

edan_result edan_feed(edan_context *ctx, const edan_insn *in)
{
    EDAN__FEED_CALL(ctx, edan__j_feed(ctx, in), edan__feed_run(ctx, in));
}
edan_result edan_feed_many(edan_context *ctx, const edan_insn *in, size_t n, size_t *fed)
{
    EDAN__FEED_CALL(ctx, edan__j_feed_many(ctx, in, n), edan__feed_many_run(ctx, in, n, fed));
}
edan_result edan_feed_accesses(edan_context *ctx, const edan_insn *in, const edan_access *acc, size_t n)
{
    EDAN__FEED_CALL(ctx, edan__j_acc(ctx, in, acc, n), edan__feed_accesses_run(ctx, in, acc, n));
}
static edan_result edan__feed_prepared_n_call(edan_context *ctx, const edan_prepared *p, const uint64_t *addrs,
                                              size_t n)
{
    EDAN__FEED_CALL(ctx, edan__j_feedp(ctx, p, addrs, n), edan__feed_prepared_n_run(ctx, p, addrs, n));
}
edan_result edan_feed_prepared_n(edan_context *ctx, const edan_prepared *p, const uint64_t *addrs, size_t n,
                                 size_t *fed)
{
    const uint64_t N0 = ctx ? ctx->N : 0;     /* every instruction fed counts one vertex; a refused one none */
    const edan_result r = edan__feed_prepared_n_call(ctx, p, addrs, n);
    if (fed) *fed = ctx ? (size_t)(ctx->N - N0) : 0;
    return r;
}
edan_result edan_feed_block(edan_context *ctx, edan_block *b, const uint64_t *addrs)
{
    EDAN__FEED_CALL(ctx, edan__j_bfeed(ctx, b, addrs), edan__feed_block_run(ctx, b, addrs));
}
/* The shadow words that b's execution with addresses addrs will read,
   asked of the host's cache ahead of it: those of pages in the table of
   recently used ones (a column's walk reads a word a new host line each).
   Each one's entry into b's row `row` of ent, for edan__block_ready (NULL:
   to look up then, as when it crosses a word): a whole page's entries stay
   where they are until a kill, which comes between feeding calls only. */
static EDAN__INLINE void edan__block_prefetch(const edan_context *ctx, edan_block *b, const uint64_t *addrs,
                                              uint32_t row)
{
    uint64_t **ent = b->ent + (size_t)row * b->nmem;
    const size_t eb = EDAN__WORD_BYTES(ctx->K);
    const edan__block_access *m = b->mem, *const me = m + b->nmem;
    for (; m < me; m++, ent++) {
        const uint64_t a = addrs[m->idx], w = a >> 3;
        uint32_t slot;
        unsigned char *ch = edan__near_has(ctx, w, &slot) ? ctx->near_chunk[slot] : NULL;
        uint64_t *e = NULL;
        if (ch && (a & 7) + m->size <= 8) {
            e = (uint64_t *)(ch + (size_t)(w & (EDAN__CHUNK_WORDS - 1)) * eb);
            EDAN__PREFETCH(e);      /* and its last byte's line: an entry of 24 bytes may straddle two */
            EDAN__PREFETCH((const unsigned char *)e + eb - 1);
        }
        *ent = e;
    }
}

/* The unrolled copy of b for edan_feed_block_n: as many executions as
   make EDAN__UNROLL_INSNS instructions, at most EDAN__UNROLL_MAX (a longer
   block's fixed costs are already small against its steps); none when b
   is not compiled or the copy is not. Made when a run of that many comes
   (a block that never repeats so often costs no copy). */
#define EDAN__UNROLL_INSNS 64
#define EDAN__UNROLL_MAX 8
static uint32_t edan__unroll_k(const edan_block *b)
{
    const uint32_t k = b->n ? EDAN__UNROLL_INSNS / b->n : 0;
    return k > EDAN__UNROLL_MAX ? EDAN__UNROLL_MAX : k;
}
static edan_result edan__block_unroll(edan_context *ctx, edan_block *b)
{
    const uint32_t k = edan__unroll_k(b);
    uint32_t j;
    edan_prepared *p;
    edan_block *u = NULL;
    uint64_t **rows;
    edan_result r;
    b->unroll_k = 1;
    if (k < 2 || !b->compiled || b->unroll_of) return EDAN_OK;
    if (!(p = (edan_prepared *)edan__alloc(&ctx->a, (size_t)k * b->n * sizeof *p)))
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for a block");
    for (j = 0; j < k; j++) memcpy(p + (size_t)j * b->n, b->p, b->n * sizeof *p);
    r = edan_block_create(ctx, p, (size_t)k * b->n, &u);
    edan__free(&ctx->a, p);
    if (r != EDAN_OK) return r;
    if (!u->compiled) {
        edan_block_destroy(u);
        return EDAN_OK;
    }
    if (!(rows = (uint64_t **)edan__realloc(&ctx->a, u->ent, 3 * (size_t)(u->nmem ? u->nmem : 1) * sizeof *rows))) {
        edan_block_destroy(u);
        return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for a block");
    }
    u->ent = rows;      /* three rows: edan_feed_block_n's */
    u->unroll_of = b;
    u->unroll_k = 1;
    b->unroll = u;
    b->unroll_k = k;
    return EDAN_OK;
}

edan_result edan_feed_block_n(edan_context *ctx, edan_block *b, const uint64_t *addrs, size_t count,
                             size_t *fed)
{
    edan_result r = EDAN_OK;
    uint64_t N0;
    uint32_t row = 0;       /* the next group's row of the unrolled copy's ent */
    int ahead;              /* every group's entries found ahead, in its row */
    if (fed) *fed = 0;
    if (!ctx) return EDAN_ERR_INVALID_ARG;
    if (ctx->failed != EDAN_OK) return ctx->failed;
    if (!b || b->ctx != ctx) return edan_feed_block(ctx, b, addrs);     /* its refusal */
    if (count > 1 && !b->unroll_k && count >= edan__unroll_k(b) && (r = edan__block_unroll(ctx, b)) != EDAN_OK) {
        if (r == EDAN_ERR_NOMEM || r == EDAN_ERR_LIMIT) ctx->failed = r;     /* as a feeding call's (EDAN__FEED_CALL) */
        return r;
    }
    N0 = ctx->N;     /* every instruction fed counts one vertex; a refused one none */
    /* the shadow words asked for two groups ahead (one group's run is too
       short to hide a word's fetch from the host's L3), group g's entries
       into row g % 3: the first two groups' here, group g + 2's while
       three are left, so that every group the loop runs has its row (one
       group alone has none) */
    ahead = addrs && b->unroll && count >= 2 * b->unroll_k && !ctx->standin;
    if (ahead) {
        edan__block_prefetch(ctx, b->unroll, addrs, 0);
        edan__block_prefetch(ctx, b->unroll, addrs + (size_t)b->unroll_k * b->n, 1);
    }
    for (; r == EDAN_OK && count >= b->unroll_k && b->unroll; count -= b->unroll_k, row = row == 2 ? 0 : row + 1) {
        edan_block *u = b->unroll;
        if (ahead && count >= 3 * b->unroll_k)
            edan__block_prefetch(ctx, u, addrs + (size_t)2 * b->unroll_k * b->n, row ? row - 1 : 2);  /* (row + 2) % 3 */
        u->ent_at = row * u->nmem;
        u->ent_ahead = ahead;
        r = edan_feed_block(ctx, u, addrs);
        if (addrs) addrs += (size_t)b->unroll_k * b->n;
    }
    if (b->unroll) b->unroll->ent_at = 0, b->unroll->ent_ahead = 0;     /* no row for any other execution */
    for (; r == EDAN_OK && count; count--) {
        r = edan_feed_block(ctx, b, addrs);
        if (addrs) addrs += b->n;
    }
    if (fed) *fed = (size_t)(ctx->N - N0);
    return r;
}
edan_result edan_kill_regs(edan_context *ctx, const edan_reg *regs, size_t n)
{
    EDAN__FEED_CALL(ctx, edan__j_kregs(ctx, regs, n), edan__kill_regs_run(ctx, regs, n));
}
edan_result edan_kill_mem(edan_context *ctx, uint64_t addr, uint64_t size)
{
    EDAN__FEED_CALL(ctx, edan__j_call(ctx, EDAN__J_KMEM, addr, size), edan__kill_mem_run(ctx, addr, size));
}
edan_result edan_thread_create(edan_context *ctx, uint32_t creator, uint32_t child)
{
    EDAN__FEED_CALL(ctx, edan__j_call(ctx, EDAN__J_TCREATE, creator, child), edan__thread_create_run(ctx, creator, child));
}
edan_result edan_thread_switch(edan_context *ctx, uint32_t thread)
{
    EDAN__FEED_CALL(ctx, edan__j_call(ctx, EDAN__J_TSWITCH, thread, 0), edan__thread_switch_run(ctx, thread));
}
edan_result edan_thread_exit(edan_context *ctx, uint32_t thread)
{
    EDAN__FEED_CALL(ctx, edan__j_call(ctx, EDAN__J_TEXIT, thread, 0), edan__thread_exit_run(ctx, thread));
}
edan_result edan_signal_deliver(edan_context *ctx)
{
    EDAN__FEED_CALL(ctx, edan__j_call(ctx, EDAN__J_SDELIVER, 0, 0), edan__signal_deliver_run(ctx));
}
edan_result edan_signal_return(edan_context *ctx)
{
    EDAN__FEED_CALL(ctx, edan__j_call(ctx, EDAN__J_SRETURN, 0, 0), edan__signal_return_run(ctx));
}
edan_result edan_signal_drop(edan_context *ctx)
{
    EDAN__FEED_CALL(ctx, edan__j_call(ctx, EDAN__J_SDROP, 0, 0), edan__signal_drop_run(ctx));
}
#undef EDAN__FEED_CALL

/* ---- results ----------------------------------------------------------- */
edan_result edan_get_metrics(edan_context *ctx, uint32_t config, edan_metrics *out)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    edan__cfg *g;
    uint32_t i;
    if (sub) return edan__j_result(ctx, sub, edan_get_metrics(sub, config, out));
    if (!ctx || !out || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    edan__blocks_flush(ctx);
    g = &ctx->cfg[config];
    memset(out, 0, sizeof *out);
    out->N = ctx->N;
    out->E = ctx->E + g->fill_edges;
    out->fill_edges = g->fill_edges;
    out->W = g->W;
    out->D = g->lay.D;
    out->C = g->C;
    out->T1 = g->T1;
    out->Tinf = g->Tinf;
    out->parallelism = g->Tinf ? (double)g->T1 / (double)g->Tinf : 0.0;
    out->bytes = g->bytes;
    out->B_bytes_per_cycle = g->Tinf ? (double)g->bytes / (double)g->Tinf : 0.0;
    out->B_GBps = out->B_bytes_per_cycle * g->c.freq_ghz;
    out->forwarded = ctx->forwarded;
    out->loads = ctx->mem_count[EDAN_MEM_LOAD];
    out->stores = ctx->mem_count[EDAN_MEM_STORE];
    out->amos = ctx->mem_count[EDAN_MEM_AMO];
    out->load_bytes = ctx->mem_bytes[EDAN_MEM_LOAD] + ctx->mem_bytes[EDAN_MEM_AMO];
    out->store_bytes = ctx->mem_bytes[EDAN_MEM_STORE] + ctx->mem_bytes[EDAN_MEM_AMO];
    out->chained = g->chained;
    for (i = 0; i < EDAN_MAX_LEVELS; i++) out->level_hits[i] = g->level_hits[i];
    out->ram_lines = g->ram_lines;
    out->writebacks = g->writebacks;
    return EDAN_OK;
}

edan_result edan_get_layers(edan_context *ctx, uint32_t config, uint64_t first, uint64_t *out, size_t n)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    const edan__layers *L;
    size_t i;
    if (sub) return edan__j_result(ctx, sub, edan_get_layers(sub, config, first, out, n));
    if (!ctx || config >= ctx->K || !first || (n && !out)) return EDAN_ERR_INVALID_ARG;
    L = &ctx->cfg[config].lay;
    for (i = 0; i < n; i++) out[i] = first <= L->D && i <= L->D - first ? edan__layer_count(L, first + i) : 0;
    return EDAN_OK;
}

/* Layers [lo, hi] (1-based, one page's run) of W = c each into bins of width w. */
static void edan__bins_add_run(edan_layer_bin *bins, uint64_t w, uint64_t lo, uint64_t hi, uint64_t c)
{
    while (lo <= hi) {
        edan_layer_bin *b = &bins[(lo - 1) / w];
        uint64_t end = ((lo - 1) / w + 1) * w, n = (end < hi ? end : hi) - lo + 1;
        b->count += n;
        b->sum += n * c;
        if (c > b->max) b->max = c;
        lo += n;
    }
}

edan_result edan_get_layer_summary(edan_context *ctx, uint32_t config, edan_layer_bin *bins, size_t max_bins,
                                   size_t *nbins, uint64_t *width)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    const edan__layers *L;
    uint64_t w = 1, i, nb;
    size_t p;
    if (sub) return edan__j_result(ctx, sub, edan_get_layer_summary(sub, config, bins, max_bins, nbins, width));
    if (!ctx || config >= ctx->K || !bins || !max_bins || !nbins || !width) return EDAN_ERR_INVALID_ARG;
    L = &ctx->cfg[config].lay;
    while ((L->D + w - 1) / w > max_bins) w *= 2;
    nb = (L->D + w - 1) / w;
    for (i = 0; i < nb; i++) {
        bins[i].first = i * w + 1;
        bins[i].count = bins[i].sum = bins[i].max = 0;
    }
    for (p = 0; (uint64_t)p << EDAN__LPAGE_BITS < L->D; p++) {
        const edan__lpage *pg = &L->page[p];
        uint64_t lo = ((uint64_t)p << EDAN__LPAGE_BITS) + 1, hi = lo + EDAN__LPAGE - 1;
        if (hi > L->D) hi = L->D;
        if (!pg->b && pg->fill < EDAN__LBIG) {      /* a page of one count */
            edan__bins_add_run(bins, w, lo, hi, pg->fill);
            continue;
        }
        for (i = lo; i <= hi; i++) edan__bins_add_run(bins, w, i, i, edan__layer_count(L, i));
    }
    *nbins = (size_t)nb;
    *width = w;
    return EDAN_OK;
}

edan_result edan_get_bounds(edan_context *ctx, uint32_t config, uint32_t m, edan_bounds *out)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    if (sub) return edan__j_result(ctx, sub, edan_get_bounds(sub, config, m, out));
    if (!ctx || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    return edan_get_bounds_at(ctx, config, m, (double)ctx->cfg[config].c.alpha, out);
}

edan_result edan_get_bounds_at(edan_context *ctx, uint32_t config, uint32_t m, double alpha, edan_bounds *out)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    edan__cfg *g;
    double W, D, C;
    if (sub) return edan__j_result(ctx, sub, edan_get_bounds_at(sub, config, m, alpha, out));
    if (!ctx || !out || config >= ctx->K || !m || !(alpha >= 0)) return EDAN_ERR_INVALID_ARG;
    edan__blocks_flush(ctx);
    g = &ctx->cfg[config];
    W = (double)g->W;
    D = (double)g->lay.D;
    C = (double)g->C;
    memset(out, 0, sizeof *out);
    out->m = m;
    out->lambda = g->W ? (W - D) / m + D : 0.0;
    out->Lambda = out->lambda > 0 ? out->lambda / (out->lambda * g->c.alpha0 + C) : 0.0;
    out->M_lower = (D > W / m ? D : W / m) * alpha;
    out->M_layered = (double)edan__layered_sum(&g->lay, m) * alpha;
    out->M_upper = out->lambda * alpha;
    out->T_lower = out->M_lower + C;
    out->T_layered = out->M_layered + C;
    out->T_upper = out->M_upper + C;
    return EDAN_OK;
}

edan_result edan_get_window(edan_context *ctx, uint32_t config, uint32_t m, edan_window *out)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    const edan__cfg *g;
    edan__wt T = {0, 0};
    uint32_t j;
    size_t t;
    if (sub) return edan__j_result(ctx, sub, edan_get_window(sub, config, m, out));
    if (!ctx || !out || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    g = &ctx->cfg[config];
    if (!g->win) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "config %u has no windowed schedule", config);
    for (j = 0; j < ctx->wnm && ctx->wm[j] != m; j++) {}
    if (j == ctx->wnm)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "no windowed schedule at m = %u (options.window_m is %u)", m,
                          ctx->wnm == 1 ? ctx->wm[0] : 0);
    EDAN__WQ_IDLE(ctx);
    for (t = 0; t < ctx->wt_cap; t++)       /* the latest retirement over the threads */
        if (ctx->wt[t]) {
            edan__wt L = ctx->wt[t]->gone ? ctx->wt[t]->fin[g->wfirst + j] : ctx->wt[t]->s[g->wfirst + j].last;
            if (ctx->wpk) L = edan__wt_unpack(L, ctx->wkb);
            T = edan__wt_max(T, L, 0);
        }
    memset(out, 0, sizeof *out);
    out->m = m;
    out->rob = g->c.window;
    out->lq = g->c.lq;
    out->sq = g->c.sq;
    out->width = g->c.width;
    out->T = T.v;
    out->lambda = T.k;
    out->c = T.v - T.k * g->c.alpha;
    return EDAN_OK;
}

edan_result edan_get_timeline(edan_context *ctx, uint32_t config, const uint64_t **bins, size_t *count)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    edan__cfg *g;
    size_t n, i;
    int64_t run = 0;
    if (sub) return edan__j_result(ctx, sub, edan_get_timeline(sub, config, bins, count));
    if (!ctx || !bins || !count || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    g = &ctx->cfg[config];
    *bins = NULL;
    *count = 0;
    if (!g->c.tau) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "no timeline: tau is 0");
    edan__blocks_flush(ctx);
    if (!edan__tl_room(ctx, g, g->Tinf)) return edan__fail(ctx, EDAN_ERR_NOMEM, "out of memory for the timeline");
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
    edan__blocks_flush(ctx);
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

/* h[0 .. n) is a heap whose every parent comes after its children in the
   order (edan__hot_before): its root is the last of the kept. Moves h[i]
   down to its place. */
static void edan__hot_sift_down(edan_hotspot *h, size_t n, size_t i)
{
    for (;;) {
        size_t c = 2 * i + 1, w = i;
        edan_hotspot t;
        if (c < n && edan__hot_before(&h[w], &h[c])) w = c;
        if (c + 1 < n && edan__hot_before(&h[w], &h[c + 1])) w = c + 1;
        if (w == i) return;
        t = h[i];
        h[i] = h[w];
        h[w] = t;
        i = w;
    }
}

edan_result edan_get_hotspots(edan_context *ctx, uint32_t config, edan_hotspot *out, size_t max, size_t *count)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    edan__cfg *g;
    size_t j, n = 0, p, i;
    if (sub) return edan__j_result(ctx, sub, edan_get_hotspots(sub, config, out, max, count));
    if (!ctx || !count || config >= ctx->K || (max && !out)) return EDAN_ERR_INVALID_ARG;
    g = &ctx->cfg[config];
    *count = 0;
    if (!ctx->hotspots) return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "hotspots were not enabled in the options");
    if (!max) {
        *count = g->hot_used;
        return EDAN_OK;
    }
    /* the top `max` in a heap in out[] whose root is the last of them, then
       sorted in place: O(keys log max) (the order is total: keys differ) */
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
        memcpy(h.served, s->served, sizeof h.served);
        if (n < max) {
            for (i = n++; i > 0 && edan__hot_before(&out[(i - 1) / 2], &h); i = p) {
                p = (i - 1) / 2;
                out[i] = out[p];
            }
            out[i] = h;
        } else if (edan__hot_before(&h, &out[0])) {
            out[0] = h;
            edan__hot_sift_down(out, n, 0);
        }
    }
    for (j = n; j > 1; j--) {       /* the last of the heap to its end, in turn */
        edan_hotspot t = out[0];
        out[0] = out[j - 1];
        out[j - 1] = t;
        edan__hot_sift_down(out, j - 1, 0);
    }
    *count = n;
    return EDAN_OK;
}

/* The first recorded edge into vertex w of e[0 .. n) (sorted by target: recorded in vertex order). */
static size_t edan__edges_into(uint64_t (*e)[2], size_t n, uint64_t w)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid][1] < w) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The chain of configuration k from the streamed record (opts.chain):
   from the first memory vertex of md D, each memory vertex's cp. */
static edan_result edan__chn_walk(edan_context *ctx, uint32_t k, edan_chain_fn fn, void *user)
{
    const edan__cfg *g = &ctx->cfg[k];
    uint32_t md = g->lay.D;
    uint64_t v;
    if (!md) return EDAN_OK;
    if (g->chn_endmd != md)
        return edan__fail(ctx, EDAN_ERR_LIMIT, "the chain's record does not reach D = %u (it reaches %u)", md,
                          g->chn_endmd);
    for (v = edan__chn_cm(ctx, g->chn_end, k, 0); v && md; md--) {
        const uint64_t *e = edan__chn_find(ctx, v);
        edan_insn in;
        if (!e) return edan__fail(ctx, EDAN_ERR_LIMIT, "the chain's record lost vertex %llu", (unsigned long long)v);
        memset(&in, 0, sizeof in);
        in.pc = e[1];
        in.op = (uint32_t)e[2];
        in.flags = (uint8_t)(e[2] >> 32);
        fn(user, &in, md);
        v = e[3 + 3 * (size_t)k + 1];
    }
    return EDAN_OK;
}

edan_result edan_get_critical_chain(edan_context *ctx, uint32_t config, edan_chain_fn fn, void *user)
{
    edan_context *sub = edan__j_sub(ctx, &config);
    edan__cfg *g;
    uint64_t v, w = 0;
    uint32_t D, want;
    int skip = 0;
    if (sub) return edan__j_result(ctx, sub, edan_get_critical_chain(sub, config, fn, user));
    if (!ctx || !fn || config >= ctx->K) return EDAN_ERR_INVALID_ARG;
    if (ctx->chn) return edan__chn_walk(ctx, config, fn, user);
    if (!ctx->dot_max)
        return edan__fail(ctx, EDAN_ERR_INVALID_ARG, "neither the chain (options.chain) nor the graph was recorded");
    if (ctx->dot_overflow || ctx->N > ctx->dot_max)
        return edan__fail(ctx, EDAN_ERR_LIMIT, "the eDAG has more than the %u vertices recorded", ctx->dot_max);
    g = &ctx->cfg[config];
    D = g->lay.D;
    for (v = 1; v <= ctx->N && D && !w; v++)
        if (g->dot_mem[v] && g->dot_md[v] == D) w = v;
    /* From w at depth `want`, back through a predecessor that gave it: a
       register's or byte's writer of that depth; a filler, of that depth
       when w waited for it at its start, of w's own when w is a memory
       vertex that waited for it at its end (an access across lines: the
       chain goes on through the filler, not w); a forwarded load's store,
       by the depth at its start (`at_start`: the store's access is no part
       of the chain, its predecessors are). */
    want = D;
    while (w) {
        const int at_start = skip;
        uint64_t best = 0, u;
        size_t e;
        skip = 0;
        if (!at_start && g->dot_mem[w]) {
            for (e = edan__edges_into(g->dot_fe, g->dot_fe_n, w); e < g->dot_fe_n && g->dot_fe[e][1] == w; e++)
                if (g->dot_md[g->dot_fe[e][0]] == g->dot_md[w] && g->dot_fe[e][0] > best) best = g->dot_fe[e][0];
            if (best) {
                w = best;
                continue;
            }
            fn(user, &ctx->dot_v[w].in, g->dot_md[w]);
            want = g->dot_md[w] - 1;
        } else if (!at_start) {
            want = g->dot_md[w];
        }
        if (!want) break;
        for (e = edan__edges_into(ctx->dot_e, ctx->dot_e_n, w); e < ctx->dot_e_n && ctx->dot_e[e][1] == w; e++)
            if ((u = ctx->dot_e[e][0]) != ctx->dot_v[w].fwd && g->dot_md[u] == want && u > best) best = u;
        if (!g->dot_mem[w])     /* a memory vertex's fillers all join at its end */
            for (e = edan__edges_into(g->dot_fe, g->dot_fe_n, w); e < g->dot_fe_n && g->dot_fe[e][1] == w; e++)
                if (g->dot_md[g->dot_fe[e][0]] == want && g->dot_fe[e][0] > best) best = g->dot_fe[e][0];
        if (!best && ctx->dot_v[w].fwd) {
            best = ctx->dot_v[w].fwd;
            skip = 1;
        }
        w = best;       /* md(w) > 0 came from a predecessor of that depth: never 0 here */
    }
    return EDAN_OK;
}

#if defined(__GNUC__) || defined(__clang__)
static void edan__dot_printf(edan_write_fn write, void *user, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#endif
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
    edan_context *sub = edan__j_sub(ctx, &config);
    edan__cfg *g;
    uint64_t v, n, end = 0, endF = 0;
    uint8_t *crit;
    size_t e;
    if (sub) return edan__j_result(ctx, sub, edan_write_dot(sub, config, write, wuser, label, luser));
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
    for (e = 0; e < ctx->dot_e_n + g->dot_fe_n; e++) {
        int fill = e >= ctx->dot_e_n;   /* a fill edge: dashed */
        const uint64_t *uw = fill ? g->dot_fe[e - ctx->dot_e_n] : ctx->dot_e[e];
        uint64_t u = uw[0], w = uw[1];
        int on = crit[u] && crit[w] && g->dot_best[w] == u;
        edan__dot_printf(write, wuser, "  v%llu -> v%llu%s%s%s;\n", (unsigned long long)u, (unsigned long long)w,
                         on || fill ? " [" : "", on ? "penwidth=3, color=\"#d00000\"" : "",
                         fill ? (on ? ", style=dashed]" : "style=dashed]") : on ? "]" : "");
    }
    edan__dot_printf(write, wuser, "}\n");
    edan__free(&ctx->a, crit);
    return EDAN_OK;
}

#ifndef EDAN_NO_RISCV   /* the RISC-V front-end */
/* ---- RISC-V front-end: implementation ---- */
/* FP arithmetic neither reads frm nor writes fflags here: a dynamic rounding
   mode would otherwise make every FP op depend on the last fsrm, and fflags
   accrues (or) rather than overwrites. Only explicit CSR instructions
   read and write CSR registers. ecall/fence have no register operands (the
   model says so). */
#define EDAN__RV_FILE_N 0
#define EDAN__RV_FILE_X 1
#define EDAN__RV_FILE_F 2
#define EDAN__RV_FLAG_0 0
#define EDAN__RV_FLAG_R 1       /* takes a rounding mode */
#define EDAN__RV_AF_0 0
#define EDAN__RV_AF_TL 3        /* rs2 = rs1, either register file */
#define EDAN__RV_TIE 1
#define EDAN__RV_ANYFILE 2

typedef struct edan__rv_opinfo {
    const char *name;
    const char *syntax;
    uint8_t cls, fd, f1, f2, f3, mem, size, flops, flags;
} edan__rv_opinfo;

#define EDAN__RV_OP_ROW(id, nm, cl, d, r1, r2, r3, mk, sz, fl, fg, sy) \
    { nm, sy, EDAN_CLASS_##cl, EDAN__RV_FILE_##d, EDAN__RV_FILE_##r1, EDAN__RV_FILE_##r2, \
      EDAN__RV_FILE_##r3, EDAN_MEM_##mk, sz, fl, EDAN__RV_FLAG_##fg },
static const edan__rv_opinfo edan__rv_ops[EDAN_RV_OP_COUNT] = { EDAN__RV_OPS(EDAN__RV_OP_ROW) };

/* Parse forms: every op's own spelling, then the aliases. */
typedef struct edan__rv_form {
    const char *name;
    const char *syntax;
    uint16_t op;
    int16_t rd, rs1, rs2, csr;
    uint8_t flags;
} edan__rv_form;

#define EDAN__RV_OP_FORM(id, nm, cl, d, r1, r2, r3, mk, sz, fl, fg, sy) \
    { nm, sy, EDAN_RV_OP_##id, -1, -1, -1, -1, 0 },
#define EDAN__RV_ALIAS_FORM(nm, id, sy, d, r1, r2, c, fg) \
    { nm, sy, EDAN_RV_OP_##id, d, r1, r2, c, EDAN__RV_AF_##fg },
/* Other spellings: A(mnemonic, OP, syntax, rd, rs1, rs2, csr, flags).
   rd/rs1/rs2/csr: -1 = from the syntax (or unused), else the implied value.
   Flags: TL = rs2 is rs1 (fmv.d is fsgnj.d rd,rs,rs) and register names of
   either file are accepted, because QEMU 7.2 prints integer names for
   fmv/fabs/fneg operands (`fmv.d a2,a0` means fa2,fa0); 0 = none. */
#define EDAN__RV_ALIASES(A) \
    A("illegal",   UNIMP,   "",      -1,-1,-1,-1, 0) \
    A("c.unimp",   UNIMP,   "",      -1,-1,-1,-1, 0) \
    A("fence",     FENCE,   "",      -1,-1,-1,-1, 0) \
    A("fence.tso", FENCE,   "",      -1,-1,-1,-1, 0) \
    A("pause",     FENCE,   "",      -1,-1,-1,-1, 0) \
    A("scall",     ECALL,   "",      -1,-1,-1,-1, 0) \
    A("sbreak",    EBREAK,  "",      -1,-1,-1,-1, 0) \
    A("sfence.vma",SFENCE_VMA, "",   -1, 0, 0,-1, 0) \
    A("sfence.vma",SFENCE_VMA, "s",  -1,-1, 0,-1, 0) \
    A("mv",        ADDI,    "d,s",   -1,-1,-1,-1, 0) \
    A("li",        ADDI,    "d,i",   -1, 0,-1,-1, 0) \
    A("not",       XORI,    "d,s",   -1,-1,-1,-1, 0) \
    A("neg",       SUB,     "d,t",   -1, 0,-1,-1, 0) \
    A("negw",      SUBW,    "d,t",   -1, 0,-1,-1, 0) \
    A("sext.w",    ADDIW,   "d,s",   -1,-1,-1,-1, 0) \
    A("seqz",      SLTIU,   "d,s",   -1,-1,-1,-1, 0) \
    A("snez",      SLTU,    "d,t",   -1, 0,-1,-1, 0) \
    A("sltz",      SLT,     "d,s",   -1,-1, 0,-1, 0) \
    A("sgtz",      SLT,     "d,t",   -1, 0,-1,-1, 0) \
    A("zext.b",    ANDI,    "d,s",   -1,-1,-1,-1, 0) \
    A("add",       ADDI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("and",       ANDI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("or",        ORI,     "d,s,i", -1,-1,-1,-1, 0) \
    A("xor",       XORI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("slt",       SLTI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("sltu",      SLTIU,   "d,s,i", -1,-1,-1,-1, 0) \
    A("sll",       SLLI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("srl",       SRLI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("sra",       SRAI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("addw",      ADDIW,   "d,s,i", -1,-1,-1,-1, 0) \
    A("sllw",      SLLIW,   "d,s,i", -1,-1,-1,-1, 0) \
    A("srlw",      SRLIW,   "d,s,i", -1,-1,-1,-1, 0) \
    A("sraw",      SRAIW,   "d,s,i", -1,-1,-1,-1, 0) \
    A("beqz",      BEQ,     "s,B",   -1,-1, 0,-1, 0) \
    A("bnez",      BNE,     "s,B",   -1,-1, 0,-1, 0) \
    A("blez",      BGE,     "t,B",   -1, 0,-1,-1, 0) \
    A("bgez",      BGE,     "s,B",   -1,-1, 0,-1, 0) \
    A("bltz",      BLT,     "s,B",   -1,-1, 0,-1, 0) \
    A("bgtz",      BLT,     "t,B",   -1, 0,-1,-1, 0) \
    A("bgt",       BLT,     "t,s,B", -1,-1,-1,-1, 0) \
    A("ble",       BGE,     "t,s,B", -1,-1,-1,-1, 0) \
    A("bgtu",      BLTU,    "t,s,B", -1,-1,-1,-1, 0) \
    A("bleu",      BGEU,    "t,s,B", -1,-1,-1,-1, 0) \
    A("j",         JAL,     "B",      0,-1,-1,-1, 0) \
    A("jal",       JAL,     "B",      1,-1,-1,-1, 0) \
    A("call",      JAL,     "B",      1,-1,-1,-1, 0) \
    A("call",      JAL,     "d,B",   -1,-1,-1,-1, 0) \
    A("tail",      JAL,     "B",      0,-1,-1,-1, 0) \
    A("jr",        JALR,    "s",      0,-1,-1,-1, 0) \
    A("jr",        JALR,    "m",      0,-1,-1,-1, 0) \
    A("jr",        JALR,    "s,i",    0,-1,-1,-1, 0) \
    A("jalr",      JALR,    "s",      1,-1,-1,-1, 0) \
    A("jalr",      JALR,    "m",      1,-1,-1,-1, 0) \
    A("jalr",      JALR,    "d,m",   -1,-1,-1,-1, 0) \
    A("jalr",      JALR,    "d,s",   -1,-1,-1,-1, 0) \
    A("ret",       JALR,    "",       0, 1,-1,-1, 0) \
    A("fmv.s",     FSGNJ_S, "d,s",   -1,-1,-1,-1, TL) \
    A("fneg.s",    FSGNJN_S,"d,s",   -1,-1,-1,-1, TL) \
    A("fabs.s",    FSGNJX_S,"d,s",   -1,-1,-1,-1, TL) \
    A("fmv.d",     FSGNJ_D, "d,s",   -1,-1,-1,-1, TL) \
    A("fneg.d",    FSGNJN_D,"d,s",   -1,-1,-1,-1, TL) \
    A("fabs.d",    FSGNJX_D,"d,s",   -1,-1,-1,-1, TL) \
    A("fmv.x.s",   FMV_X_W, "d,s",   -1,-1,-1,-1, 0) \
    A("fmv.s.x",   FMV_W_X, "d,s",   -1,-1,-1,-1, 0) \
    A("csrr",      CSRRS,   "d,C",   -1, 0,-1,-1, 0) \
    A("csrw",      CSRRW,   "C,s",    0,-1,-1,-1, 0) \
    A("csrs",      CSRRS,   "C,s",    0,-1,-1,-1, 0) \
    A("csrc",      CSRRC,   "C,s",    0,-1,-1,-1, 0) \
    A("csrwi",     CSRRWI,  "C,z",    0,-1,-1,-1, 0) \
    A("csrsi",     CSRRSI,  "C,z",    0,-1,-1,-1, 0) \
    A("csrci",     CSRRCI,  "C,z",    0,-1,-1,-1, 0) \
    A("csrrw",     CSRRWI,  "d,C,z", -1,-1,-1,-1, 0) \
    A("csrrs",     CSRRSI,  "d,C,z", -1,-1,-1,-1, 0) \
    A("csrrc",     CSRRCI,  "d,C,z", -1,-1,-1,-1, 0) \
    A("csrw",      CSRRWI,  "C,z",    0,-1,-1,-1, 0) \
    A("csrs",      CSRRSI,  "C,z",    0,-1,-1,-1, 0) \
    A("csrc",      CSRRCI,  "C,z",    0,-1,-1,-1, 0) \
    A("frflags",   CSRRS,   "d",     -1, 0,-1, 1, 0) \
    A("frrm",      CSRRS,   "d",     -1, 0,-1, 2, 0) \
    A("frcsr",     CSRRS,   "d",     -1, 0,-1, 3, 0) \
    A("frsr",      CSRRS,   "d",     -1, 0,-1, 3, 0) \
    A("fsflags",   CSRRW,   "d,s",   -1,-1,-1, 1, 0) \
    A("fsflags",   CSRRW,   "s",      0,-1,-1, 1, 0) \
    A("fsrm",      CSRRW,   "d,s",   -1,-1,-1, 2, 0) \
    A("fsrm",      CSRRW,   "s",      0,-1,-1, 2, 0) \
    A("fscsr",     CSRRW,   "d,s",   -1,-1,-1, 3, 0) \
    A("fscsr",     CSRRW,   "s",      0,-1,-1, 3, 0) \
    A("fssr",      CSRRW,   "d,s",   -1,-1,-1, 3, 0) \
    A("fssr",      CSRRW,   "s",      0,-1,-1, 3, 0) \
    A("fsflagsi",  CSRRWI,  "d,z",   -1,-1,-1, 1, 0) \
    A("fsflagsi",  CSRRWI,  "z",      0,-1,-1, 1, 0) \
    A("fsrmi",     CSRRWI,  "d,z",   -1,-1,-1, 2, 0) \
    A("fsrmi",     CSRRWI,  "z",      0,-1,-1, 2, 0) \
    A("rdcycle",   CSRRS,   "d",     -1, 0,-1, 0xc00, 0) \
    A("rdtime",    CSRRS,   "d",     -1, 0,-1, 0xc01, 0) \
    A("rdinstret", CSRRS,   "d",     -1, 0,-1, 0xc02, 0) \
    A("rdcycleh",  CSRRS,   "d",     -1, 0,-1, 0xc80, 0) \
    A("rdtimeh",   CSRRS,   "d",     -1, 0,-1, 0xc81, 0) \
    A("rdinstreth",CSRRS,   "d",     -1, 0,-1, 0xc82, 0) \
    A("c.nop",     NOP,     "",      -1,-1,-1,-1, 0) \
    A("c.nop",     ADDI,    "i",      0, 0,-1,-1, 0) \
    A("c.slli64",  SLLI,    "D",     -1,-1,-1,-1, 0) \
    A("c.srli64",  SRLI,    "D",     -1,-1,-1,-1, 0) \
    A("c.srai64",  SRAI,    "D",     -1,-1,-1,-1, 0) \
    A("c.ebreak",  EBREAK,  "",      -1,-1,-1,-1, 0) \
    A("c.addi",    ADDI,    "D,i",   -1,-1,-1,-1, 0) \
    A("c.addiw",   ADDIW,   "D,i",   -1,-1,-1,-1, 0) \
    A("c.addi16sp",ADDI,    "D,i",   -1,-1,-1,-1, 0) \
    A("c.addi4spn",ADDI,    "d,s,i", -1,-1,-1,-1, 0) \
    A("c.li",      ADDI,    "d,i",   -1, 0,-1,-1, 0) \
    A("c.lui",     LUI,     "d,i",   -1,-1,-1,-1, 0) \
    A("c.mv",      ADDI,    "d,s",   -1,-1,-1,-1, 0) \
    A("c.slli",    SLLI,    "D,i",   -1,-1,-1,-1, 0) \
    A("c.srli",    SRLI,    "D,i",   -1,-1,-1,-1, 0) \
    A("c.srai",    SRAI,    "D,i",   -1,-1,-1,-1, 0) \
    A("c.andi",    ANDI,    "D,i",   -1,-1,-1,-1, 0) \
    A("c.add",     ADD,     "D,t",   -1,-1,-1,-1, 0) \
    A("c.sub",     SUB,     "D,t",   -1,-1,-1,-1, 0) \
    A("c.xor",     XOR,     "D,t",   -1,-1,-1,-1, 0) \
    A("c.or",      OR,      "D,t",   -1,-1,-1,-1, 0) \
    A("c.and",     AND,     "D,t",   -1,-1,-1,-1, 0) \
    A("c.subw",    SUBW,    "D,t",   -1,-1,-1,-1, 0) \
    A("c.addw",    ADDW,    "D,t",   -1,-1,-1,-1, 0) \
    A("c.j",       JAL,     "B",      0,-1,-1,-1, 0) \
    A("c.jal",     JAL,     "B",      1,-1,-1,-1, 0) \
    A("c.jr",      JALR,    "s",      0,-1,-1,-1, 0) \
    A("c.jalr",    JALR,    "s",      1,-1,-1,-1, 0) \
    A("c.beqz",    BEQ,     "s,B",   -1,-1, 0,-1, 0) \
    A("c.bnez",    BNE,     "s,B",   -1,-1, 0,-1, 0) \
    A("c.lw",      LW,      "d,m",   -1,-1,-1,-1, 0) \
    A("c.ld",      LD,      "d,m",   -1,-1,-1,-1, 0) \
    A("c.flw",     FLW,     "d,m",   -1,-1,-1,-1, 0) \
    A("c.fld",     FLD,     "d,m",   -1,-1,-1,-1, 0) \
    A("c.sw",      SW,      "t,m",   -1,-1,-1,-1, 0) \
    A("c.sd",      SD,      "t,m",   -1,-1,-1,-1, 0) \
    A("c.fsw",     FSW,     "t,m",   -1,-1,-1,-1, 0) \
    A("c.fsd",     FSD,     "t,m",   -1,-1,-1,-1, 0) \
    A("c.lwsp",    LW,      "d,m",   -1,-1,-1,-1, 0) \
    A("c.ldsp",    LD,      "d,m",   -1,-1,-1,-1, 0) \
    A("c.flwsp",   FLW,     "d,m",   -1,-1,-1,-1, 0) \
    A("c.fldsp",   FLD,     "d,m",   -1,-1,-1,-1, 0) \
    A("c.swsp",    SW,      "t,m",   -1,-1,-1,-1, 0) \
    A("c.sdsp",    SD,      "t,m",   -1,-1,-1,-1, 0) \
    A("c.fswsp",   FSW,     "t,m",   -1,-1,-1,-1, 0) \
    A("c.fsdsp",   FSD,     "t,m",   -1,-1,-1,-1, 0)

#define EDAN__RV_ALIAS_ENUM(...) +1
enum { EDAN__RV_NUM_FORMS = EDAN_RV_OP_COUNT EDAN__RV_ALIASES(EDAN__RV_ALIAS_ENUM) };
#define EDAN__RV_HASH_BITS 10

/* Traces repeat a program's static instructions: results are memoised by
   instruction text (up to EDAN__RV_MEMO_TEXT bytes; longer texts, like
   QEMU's padded disassembly with a branch target, are parsed each time).
   2048 entries of two cache lines (a short text is in the first): the hot
   code of a program, a few thousand instructions, hits (98% of the lines
   of the mix of tests/gen_trace.c). */
#define EDAN__RV_MEMO_BITS 10
#define EDAN__RV_MEMO_TEXT 104  /* a multiple of 8: compared a word at a time */
typedef struct edan__rv_memo {
    uint32_t op;            /* the fields of edan_insn that the text decides */
    uint16_t size;
    uint8_t mem, cls, nsrc, ndst;
    uint8_t len;            /* of text; 0 = empty */
    uint8_t flags;          /* EDAN_INSN_STACK: a stack slot (base sp) */
    edan_reg src[EDAN_MAX_SRC];
    edan_reg dst[EDAN_MAX_DST];
    char text[EDAN__RV_MEMO_TEXT];
} edan__rv_memo;

/* The parser: its mnemonic index (built by create) and its memo. */
struct edan_rv_parser {
    char error[256];        /* why the last line was rejected */
    edan_allocator a;
    uint16_t slot[1u << EDAN__RV_HASH_BITS];        /* form index + 1 */
    uint16_t next[EDAN__RV_NUM_FORMS];              /* same-name forms, index + 1 */
    uint64_t key[EDAN__RV_NUM_FORMS][2];
    edan__rv_memo memo[2u << EDAN__RV_MEMO_BITS];   /* 2-way: text -> result */
};

static const edan__rv_form edan__rv_forms[EDAN__RV_NUM_FORMS] = {
    EDAN__RV_OPS(EDAN__RV_OP_FORM) EDAN__RV_ALIASES(EDAN__RV_ALIAS_FORM)
};

const char *edan_rv_op_name(uint32_t op)
{
    return op < EDAN_RV_OP_COUNT ? edan__rv_ops[op].name : NULL;
}

unsigned edan_rv_op_flops(uint32_t op)
{
    return op < EDAN_RV_OP_COUNT ? edan__rv_ops[op].flops : 0;
}


/* ---- building an instruction from register fields (parser and decoder) - */
/* An instruction's register fields as the decoder and the parser find
   them: rd, rs1, rs2, rs3, and a CSR instruction's CSR number and zimm. */
typedef struct edan__rv_fields {
    unsigned rd, rs1, rs2, rs3, csr, zimm;
} edan__rv_fields;

static void edan__rv_add_src(edan_insn *in, edan_reg r)
{
    unsigned i;
    if (r == 0) return;
    for (i = 0; i < in->nsrc; i++)
        if (in->src[i] == r) return;
    in->src[in->nsrc++] = r;
}

static edan_reg edan__rv_reg_id(unsigned file, unsigned n)
{
    return file == EDAN__RV_FILE_F ? EDAN_RV_FREG(n) : (edan_reg)n;
}

static void edan__rv_fill(uint32_t op, const edan__rv_fields *f, edan_insn *in)
{
    const edan__rv_opinfo *o = &edan__rv_ops[op];
    in->op = op;
    in->cls = o->cls;
    in->mem = o->mem;
    in->size = o->size;
    in->nsrc = in->ndst = 0;
    memset(in->src, 0, sizeof in->src);
    memset(in->dst, 0, sizeof in->dst);
    if (o->f1) edan__rv_add_src(in, edan__rv_reg_id(o->f1, f->rs1));
    if (o->f2) edan__rv_add_src(in, edan__rv_reg_id(o->f2, f->rs2));
    if (o->f3) edan__rv_add_src(in, edan__rv_reg_id(o->f3, f->rs3));
    /* a load or store based on sp: a stack slot (store-to-load forwarding) */
    in->flags = (uint8_t)(in->flags & ~EDAN_INSN_STACK);
    if ((o->mem == EDAN_MEM_LOAD || o->mem == EDAN_MEM_STORE) && o->f1 == EDAN__RV_FILE_X && f->rs1 == 2)
        in->flags |= EDAN_INSN_STACK;
    if (o->fd) {
        edan_reg d = edan__rv_reg_id(o->fd, f->rd);
        if (d != 0) in->dst[in->ndst++] = d;
    }
    if (o->cls == EDAN_CLASS_CSR) {
        /* csrrw(i) reads the CSR only when rd != x0; csrrs/c(i) write it
           only when rs1/zimm != 0 (the Zicsr rules). */
        edan_reg c = EDAN_RV_CSR(f->csr);
        int reads = 1, writes = 1;
        switch (op) {
        case EDAN_RV_OP_CSRRW: case EDAN_RV_OP_CSRRWI: reads = f->rd != 0; break;
        case EDAN_RV_OP_CSRRS: case EDAN_RV_OP_CSRRC: writes = f->rs1 != 0; break;
        default: writes = f->zimm != 0; break;
        }
        if (reads) edan__rv_add_src(in, c);
        if (writes) in->dst[in->ndst++] = c;
    }
}

edan_result edan_rv_make(uint32_t op, unsigned rd, unsigned rs1, unsigned rs2, unsigned rs3,
                         unsigned csr, unsigned zimm, edan_insn *out)
{
    const edan__rv_fields f = {rd, rs1, rs2, rs3, csr, zimm};
    if (!out || op >= EDAN_RV_OP_COUNT || rd > 31 || rs1 > 31 || rs2 > 31 || rs3 > 31 ||
        csr > 4095 || zimm > 31)
        return EDAN_ERR_INVALID_ARG;
    memset(out, 0, sizeof *out);
    edan__rv_fill(op, &f, out);
    return EDAN_OK;
}

/* ---- decoder --------------------------------------------------------- */
static edan_result edan__rv_decode16(uint32_t w, edan_insn *out)
{
    unsigned f3 = (w >> 13) & 7, rd = (w >> 7) & 31, rs2 = (w >> 2) & 31;
    unsigned rdp = 8 + ((w >> 2) & 7), rs1p = 8 + ((w >> 7) & 7), b12 = (w >> 12) & 1;
    uint32_t op;
    unsigned d = 0, s1 = 0, s2 = 0;
    switch (w & 3) {
    case 0:
        switch (f3) {
        case 0: if (((w >> 5) & 0xff) == 0) return EDAN_ERR_UNKNOWN_OP;  /* also c.unimp */
                op = EDAN_RV_OP_ADDI; d = rdp; s1 = 2; break;               /* c.addi4spn */
        case 1: op = EDAN_RV_OP_FLD; d = rdp; s1 = rs1p; break;
        case 2: op = EDAN_RV_OP_LW; d = rdp; s1 = rs1p; break;
        case 3: op = EDAN_RV_OP_LD; d = rdp; s1 = rs1p; break;
        case 5: op = EDAN_RV_OP_FSD; s2 = rdp; s1 = rs1p; break;
        case 6: op = EDAN_RV_OP_SW; s2 = rdp; s1 = rs1p; break;
        case 7: op = EDAN_RV_OP_SD; s2 = rdp; s1 = rs1p; break;
        default: return EDAN_ERR_UNKNOWN_OP;
        }
        break;
    case 1:
        switch (f3) {
        case 0:                                         /* c.addi, c.nop */
            if (rd == 0 && (w & 0x107c) == 0) op = EDAN_RV_OP_NOP;
            else { op = EDAN_RV_OP_ADDI; d = s1 = rd; }
            break;
        case 1: if (rd == 0) return EDAN_ERR_UNKNOWN_OP;
                op = EDAN_RV_OP_ADDIW; d = s1 = rd; break;
        case 2: op = EDAN_RV_OP_ADDI; d = rd; break;    /* c.li */
        case 3:
            if ((w & 0x107c) == 0) return EDAN_ERR_UNKNOWN_OP;
            if (rd == 2) { op = EDAN_RV_OP_ADDI; d = s1 = 2; }   /* c.addi16sp */
            else { op = EDAN_RV_OP_LUI; d = rd; }
            break;
        case 4:
            d = s1 = rs1p;
            switch ((w >> 10) & 3) {
            case 0: op = EDAN_RV_OP_SRLI; break;
            case 1: op = EDAN_RV_OP_SRAI; break;
            case 2: op = EDAN_RV_OP_ANDI; break;
            default: {
                static const uint16_t ops[8] = {
                    EDAN_RV_OP_SUB, EDAN_RV_OP_XOR, EDAN_RV_OP_OR, EDAN_RV_OP_AND,
                    EDAN_RV_OP_SUBW, EDAN_RV_OP_ADDW, 0, 0 };
                op = ops[b12 * 4 + ((w >> 5) & 3)];
                if (op == 0) return EDAN_ERR_UNKNOWN_OP;
                s2 = rdp;
            }
            }
            break;
        case 5: op = EDAN_RV_OP_JAL; break;             /* c.j */
        case 6: op = EDAN_RV_OP_BEQ; s1 = rs1p; break;
        default: op = EDAN_RV_OP_BNE; s1 = rs1p; break;
        }
        break;
    default:    /* quadrant 2 (3 is not compressed) */
        switch (f3) {
        case 0: op = EDAN_RV_OP_SLLI; d = s1 = rd; break;
        case 1: op = EDAN_RV_OP_FLD; d = rd; s1 = 2; break;
        case 2: if (rd == 0) return EDAN_ERR_UNKNOWN_OP;
                op = EDAN_RV_OP_LW; d = rd; s1 = 2; break;
        case 3: if (rd == 0) return EDAN_ERR_UNKNOWN_OP;
                op = EDAN_RV_OP_LD; d = rd; s1 = 2; break;
        case 4:
            if (!b12) {
                if (rs2 == 0) {                         /* c.jr */
                    if (rd == 0) return EDAN_ERR_UNKNOWN_OP;
                    op = EDAN_RV_OP_JALR; s1 = rd;
                } else { op = EDAN_RV_OP_ADDI; d = rd; s1 = rs2; }  /* c.mv */
            } else if (rs2 == 0) {
                if (rd == 0) op = EDAN_RV_OP_EBREAK;
                else { op = EDAN_RV_OP_JALR; d = 1; s1 = rd; }      /* c.jalr */
            } else { op = EDAN_RV_OP_ADD; d = s1 = rd; s2 = rs2; }   /* c.add */
            break;
        case 5: op = EDAN_RV_OP_FSD; s1 = 2; s2 = rs2; break;
        case 6: op = EDAN_RV_OP_SW; s1 = 2; s2 = rs2; break;
        default: op = EDAN_RV_OP_SD; s1 = 2; s2 = rs2; break;
        }
        break;
    }
    {
        const edan__rv_fields f = {d, s1, s2, 0, 0, 0};
        edan__rv_fill(op, &f, out);
    }
    out->length = 2;
    return EDAN_OK;
}

static edan_result edan__rv_decode32(uint32_t w, edan_insn *out)
{
    unsigned rd = (w >> 7) & 31, f3 = (w >> 12) & 7, rs1 = (w >> 15) & 31;
    unsigned rs2 = (w >> 20) & 31, f7 = w >> 25, csr = 0, zimm = 0;
    int rm_ok = 1;      /* rounding modes 5 and 6 are reserved */
    uint32_t op = EDAN_RV_OP_UNIMP;
#define EDAN__RV_PICK(tab) do { op = (tab)[f3]; if (op == EDAN_RV_OP_UNIMP) return EDAN_ERR_UNKNOWN_OP; } while (0)
    switch (w & 0x7f) {
    case 0x37: op = EDAN_RV_OP_LUI; break;
    case 0x17: op = EDAN_RV_OP_AUIPC; break;
    case 0x6f: op = EDAN_RV_OP_JAL; break;
    case 0x67: if (f3) return EDAN_ERR_UNKNOWN_OP;
               op = EDAN_RV_OP_JALR; break;
    case 0x63: {
        static const uint16_t t[8] = { EDAN_RV_OP_BEQ, EDAN_RV_OP_BNE, 0, 0,
            EDAN_RV_OP_BLT, EDAN_RV_OP_BGE, EDAN_RV_OP_BLTU, EDAN_RV_OP_BGEU };
        EDAN__RV_PICK(t); break;
    }
    case 0x03: {
        static const uint16_t t[8] = { EDAN_RV_OP_LB, EDAN_RV_OP_LH, EDAN_RV_OP_LW, EDAN_RV_OP_LD,
            EDAN_RV_OP_LBU, EDAN_RV_OP_LHU, EDAN_RV_OP_LWU, 0 };
        EDAN__RV_PICK(t); break;
    }
    case 0x23: {
        static const uint16_t t[8] = { EDAN_RV_OP_SB, EDAN_RV_OP_SH, EDAN_RV_OP_SW, EDAN_RV_OP_SD,
            0, 0, 0, 0 };
        EDAN__RV_PICK(t); break;
    }
    case 0x13:
        switch (f3) {
        case 0: op = (w >> 7) == 0 ? EDAN_RV_OP_NOP : EDAN_RV_OP_ADDI; break;
        case 1: if (w >> 26) return EDAN_ERR_UNKNOWN_OP;
                op = EDAN_RV_OP_SLLI; break;
        case 2: op = EDAN_RV_OP_SLTI; break;
        case 3: op = EDAN_RV_OP_SLTIU; break;
        case 4: op = EDAN_RV_OP_XORI; break;
        case 5: if ((w >> 26) == 0) op = EDAN_RV_OP_SRLI;
                else if ((w >> 26) == 0x10) op = EDAN_RV_OP_SRAI;
                else return EDAN_ERR_UNKNOWN_OP;
                break;
        case 6: op = EDAN_RV_OP_ORI; break;
        default: op = EDAN_RV_OP_ANDI; break;
        }
        break;
    case 0x1b:
        if (f3 == 0) op = EDAN_RV_OP_ADDIW;
        else if (f3 == 1 && f7 == 0) op = EDAN_RV_OP_SLLIW;
        else if (f3 == 5 && f7 == 0) op = EDAN_RV_OP_SRLIW;
        else if (f3 == 5 && f7 == 0x20) op = EDAN_RV_OP_SRAIW;
        else return EDAN_ERR_UNKNOWN_OP;
        break;
    case 0x33: {
        static const uint16_t t0[8] = { EDAN_RV_OP_ADD, EDAN_RV_OP_SLL, EDAN_RV_OP_SLT,
            EDAN_RV_OP_SLTU, EDAN_RV_OP_XOR, EDAN_RV_OP_SRL, EDAN_RV_OP_OR, EDAN_RV_OP_AND };
        static const uint16_t t1[8] = { EDAN_RV_OP_MUL, EDAN_RV_OP_MULH, EDAN_RV_OP_MULHSU,
            EDAN_RV_OP_MULHU, EDAN_RV_OP_DIV, EDAN_RV_OP_DIVU, EDAN_RV_OP_REM, EDAN_RV_OP_REMU };
        static const uint16_t t20[8] = { EDAN_RV_OP_SUB, 0, 0, 0, 0, EDAN_RV_OP_SRA, 0, 0 };
        if (f7 == 0) EDAN__RV_PICK(t0);
        else if (f7 == 1) EDAN__RV_PICK(t1);
        else if (f7 == 0x20) EDAN__RV_PICK(t20);
        else return EDAN_ERR_UNKNOWN_OP;
        break;
    }
    case 0x3b: {
        static const uint16_t t0[8] = { EDAN_RV_OP_ADDW, EDAN_RV_OP_SLLW, 0, 0, 0,
            EDAN_RV_OP_SRLW, 0, 0 };
        static const uint16_t t1[8] = { EDAN_RV_OP_MULW, 0, 0, 0, EDAN_RV_OP_DIVW,
            EDAN_RV_OP_DIVUW, EDAN_RV_OP_REMW, EDAN_RV_OP_REMUW };
        static const uint16_t t20[8] = { EDAN_RV_OP_SUBW, 0, 0, 0, 0, EDAN_RV_OP_SRAW, 0, 0 };
        if (f7 == 0) EDAN__RV_PICK(t0);
        else if (f7 == 1) EDAN__RV_PICK(t1);
        else if (f7 == 0x20) EDAN__RV_PICK(t20);
        else return EDAN_ERR_UNKNOWN_OP;
        break;
    }
    case 0x0f:
        if (f3 == 0) op = EDAN_RV_OP_FENCE;
        else if (f3 == 1) op = EDAN_RV_OP_FENCE_I;
        else return EDAN_ERR_UNKNOWN_OP;
        rd = rs1 = rs2 = 0;
        break;
    case 0x73:
        if (f3 == 0) {
            switch (w) {
            case 0x00000073u: op = EDAN_RV_OP_ECALL; break;
            case 0x00100073u: op = EDAN_RV_OP_EBREAK; break;
            case 0x10200073u: op = EDAN_RV_OP_SRET; break;
            case 0x30200073u: op = EDAN_RV_OP_MRET; break;
            case 0x10500073u: op = EDAN_RV_OP_WFI; break;
            default:
                if (f7 != 0x09 || rd != 0) return EDAN_ERR_UNKNOWN_OP;
                op = EDAN_RV_OP_SFENCE_VMA;
            }
        } else {
            static const uint16_t t[8] = { 0, EDAN_RV_OP_CSRRW, EDAN_RV_OP_CSRRS, EDAN_RV_OP_CSRRC,
                0, EDAN_RV_OP_CSRRWI, EDAN_RV_OP_CSRRSI, EDAN_RV_OP_CSRRCI };
            EDAN__RV_PICK(t);
            csr = w >> 20;
            if (f3 >= 5) { zimm = rs1; rs1 = 0; }
        }
        break;
    case 0x2f: {
        /* by funct5; the .d ops follow the .w ops in the same order */
        static const uint16_t t[32] = {
            EDAN_RV_OP_AMOADD_W, EDAN_RV_OP_AMOSWAP_W, EDAN_RV_OP_LR_W, EDAN_RV_OP_SC_W,
            EDAN_RV_OP_AMOXOR_W, 0, 0, 0, EDAN_RV_OP_AMOOR_W, 0, 0, 0, EDAN_RV_OP_AMOAND_W,
            0, 0, 0, EDAN_RV_OP_AMOMIN_W, 0, 0, 0, EDAN_RV_OP_AMOMAX_W, 0, 0, 0,
            EDAN_RV_OP_AMOMINU_W, 0, 0, 0, EDAN_RV_OP_AMOMAXU_W, 0, 0, 0 };
        op = t[w >> 27];
        if (op == 0 || (f3 != 2 && f3 != 3)) return EDAN_ERR_UNKNOWN_OP;
        if (op == EDAN_RV_OP_LR_W && rs2 != 0) return EDAN_ERR_UNKNOWN_OP;
        if (f3 == 3) op += EDAN_RV_OP_LR_D - EDAN_RV_OP_LR_W;
        break;
    }
    case 0x07:
        if (f3 == 2) op = EDAN_RV_OP_FLW;
        else if (f3 == 3) op = EDAN_RV_OP_FLD;
        else return EDAN_ERR_UNKNOWN_OP;
        break;
    case 0x27:
        if (f3 == 2) op = EDAN_RV_OP_FSW;
        else if (f3 == 3) op = EDAN_RV_OP_FSD;
        else return EDAN_ERR_UNKNOWN_OP;
        break;
    case 0x43: case 0x47: case 0x4b: case 0x4f: {
        static const uint16_t ts[4] = { EDAN_RV_OP_FMADD_S, EDAN_RV_OP_FMSUB_S,
            EDAN_RV_OP_FNMSUB_S, EDAN_RV_OP_FNMADD_S };
        static const uint16_t td[4] = { EDAN_RV_OP_FMADD_D, EDAN_RV_OP_FMSUB_D,
            EDAN_RV_OP_FNMSUB_D, EDAN_RV_OP_FNMADD_D };
        unsigned fmt = f7 & 3, k = ((w & 0x7f) - 0x43) >> 2;
        if (fmt > 1) return EDAN_ERR_UNKNOWN_OP;
        op = fmt ? td[k] : ts[k];
        rm_ok = f3 != 5 && f3 != 6;
        break;
    }
    case 0x53: {
        int dbl = f7 & 1;
        switch (f7 >> 2) {
        case 0x00: op = dbl ? EDAN_RV_OP_FADD_D : EDAN_RV_OP_FADD_S; break;
        case 0x01: op = dbl ? EDAN_RV_OP_FSUB_D : EDAN_RV_OP_FSUB_S; break;
        case 0x02: op = dbl ? EDAN_RV_OP_FMUL_D : EDAN_RV_OP_FMUL_S; break;
        case 0x03: op = dbl ? EDAN_RV_OP_FDIV_D : EDAN_RV_OP_FDIV_S; break;
        case 0x0b: if (rs2) return EDAN_ERR_UNKNOWN_OP;
                   op = dbl ? EDAN_RV_OP_FSQRT_D : EDAN_RV_OP_FSQRT_S; break;
        case 0x04: if (f3 > 2) return EDAN_ERR_UNKNOWN_OP;
                   op = (dbl ? EDAN_RV_OP_FSGNJ_D : EDAN_RV_OP_FSGNJ_S) + f3; f3 = 0; break;
        case 0x05: if (f3 > 1) return EDAN_ERR_UNKNOWN_OP;
                   op = (dbl ? EDAN_RV_OP_FMIN_D : EDAN_RV_OP_FMIN_S) + f3; f3 = 0; break;
        case 0x08:
            if (f7 == 0x20 && rs2 == 1) op = EDAN_RV_OP_FCVT_S_D;
            else if (f7 == 0x21 && rs2 == 0) op = EDAN_RV_OP_FCVT_D_S;
            else return EDAN_ERR_UNKNOWN_OP;
            break;
        case 0x14: {
            static const uint16_t ts[3] = { EDAN_RV_OP_FLE_S, EDAN_RV_OP_FLT_S, EDAN_RV_OP_FEQ_S };
            static const uint16_t td[3] = { EDAN_RV_OP_FLE_D, EDAN_RV_OP_FLT_D, EDAN_RV_OP_FEQ_D };
            if (f3 > 2) return EDAN_ERR_UNKNOWN_OP;
            op = dbl ? td[f3] : ts[f3]; f3 = 0; break;
        }
        case 0x18: if (rs2 > 3) return EDAN_ERR_UNKNOWN_OP;
                   op = (dbl ? EDAN_RV_OP_FCVT_W_D : EDAN_RV_OP_FCVT_W_S) + rs2; break;
        case 0x1a: if (rs2 > 3) return EDAN_ERR_UNKNOWN_OP;
                   op = (dbl ? EDAN_RV_OP_FCVT_D_W : EDAN_RV_OP_FCVT_S_W) + rs2; break;
        case 0x1c:
            if (rs2 != 0 || f3 > 1) return EDAN_ERR_UNKNOWN_OP;
            op = f3 ? (dbl ? EDAN_RV_OP_FCLASS_D : EDAN_RV_OP_FCLASS_S)
                    : (dbl ? EDAN_RV_OP_FMV_X_D : EDAN_RV_OP_FMV_X_W);
            f3 = 0; break;
        case 0x1e:
            if (rs2 != 0 || f3 != 0) return EDAN_ERR_UNKNOWN_OP;
            op = dbl ? EDAN_RV_OP_FMV_D_X : EDAN_RV_OP_FMV_W_X; break;
        default: return EDAN_ERR_UNKNOWN_OP;
        }
        if ((f7 & 2) != 0) return EDAN_ERR_UNKNOWN_OP;     /* fmt H/Q */
        rm_ok = f3 != 5 && f3 != 6;
        break;
    }
    default: return EDAN_ERR_UNKNOWN_OP;
    }
#undef EDAN__RV_PICK
    if (!rm_ok) return EDAN_ERR_UNKNOWN_OP;
    {
        const edan__rv_fields f = {rd, rs1, rs2, w >> 27, csr, zimm};
        edan__rv_fill(op, &f, out);
    }
    out->length = 4;
    return EDAN_OK;
}

edan_result edan_rv_decode(const uint8_t *bytes, size_t avail, edan_insn *out)
{
    uint32_t w;
    if (!bytes || !out) return EDAN_ERR_INVALID_ARG;
    memset(out, 0, sizeof *out);
    if (avail < 2) return EDAN_ERR_PARSE;
    w = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8;
    if ((w & 3) != 3) return edan__rv_decode16(w, out);
    if ((w & 0x1c) == 0x1c) return EDAN_ERR_UNKNOWN_OP;    /* 48 bits and longer */
    if (avail < 4) return EDAN_ERR_PARSE;
    w |= (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    return edan__rv_decode32(w, out);
}

/* ---- text parser ----------------------------------------------------- */
static uint32_t edan__rv_hash(uint64_t w0, uint64_t w1)
{
    return (uint32_t)((w0 * 0x9E3779B97F4A7C15ull + w1 * 0xC2B2AE3D27D4EB4Full)
                      >> (64 - EDAN__RV_HASH_BITS));
}

/* Builds the mnemonic index: open addressing over packed names; forms with
   the same name are chained in table order. */
static void edan__rv_index(edan_rv_parser *p)
{
    uint32_t i, mask = (1u << EDAN__RV_HASH_BITS) - 1;
    memset(p->slot, 0, sizeof p->slot);
    memset(p->next, 0, sizeof p->next);
    for (i = 0; i < EDAN__RV_NUM_FORMS; i++) {
        const char *n = edan__rv_forms[i].name;
        uint64_t w[2] = { 0, 0 };
        uint32_t h, k;
        for (k = 0; n[k] && k < 16; k++) w[k >> 3] |= (uint64_t)(unsigned char)n[k] << ((k & 7) * 8);
        p->key[i][0] = w[0];
        p->key[i][1] = w[1];
        for (h = edan__rv_hash(w[0], w[1]);; h = (h + 1) & mask) {
            uint32_t s = p->slot[h];
            if (s == 0) { p->slot[h] = (uint16_t)(i + 1); break; }
            if (p->key[s - 1][0] == w[0] && p->key[s - 1][1] == w[1]) {
                while (p->next[s - 1]) s = p->next[s - 1];
                p->next[s - 1] = (uint16_t)(i + 1);
                break;
            }
        }
    }
}

edan_result edan_rv_parser_create(edan_rv_parser **out, const edan_allocator *alloc)
{
    edan_allocator a;
    edan_rv_parser *p;
    if (!out) return EDAN_ERR_INVALID_ARG;
    *out = NULL;
    memset(&a, 0, sizeof a);
    if (alloc) a = *alloc;
    p = (edan_rv_parser *)edan__calloc(&a, sizeof *p);
    if (!p) return EDAN_ERR_NOMEM;
    p->a = a;
    edan__rv_index(p);
    *out = p;
    return EDAN_OK;
}

void edan_rv_parser_destroy(edan_rv_parser *p)
{
    if (p) {
        edan_allocator a = p->a;
        edan__free(&a, p);
    }
}

const char *edan_rv_error(const edan_rv_parser *p) { return p ? p->error : "no parser"; }

/* First form (index + 1) named by the packed key, 0 if none. */
static uint32_t edan__rv_lookup(const edan_rv_parser *p, uint64_t w0, uint64_t w1)
{
    uint32_t h, mask = (1u << EDAN__RV_HASH_BITS) - 1;
    for (h = edan__rv_hash(w0, w1);; h = (h + 1) & mask) {
        uint32_t s = p->slot[h];
        if (s == 0 || (p->key[s - 1][0] == w0 && p->key[s - 1][1] == w1)) return s;
    }
}

#define EDAN__RV_NO16 -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
static const signed char edan__rv_hexval[256] = {
    EDAN__RV_NO16, EDAN__RV_NO16, EDAN__RV_NO16,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, EDAN__RV_NO16,
    -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, EDAN__RV_NO16,
    EDAN__RV_NO16, EDAN__RV_NO16, EDAN__RV_NO16, EDAN__RV_NO16,
    EDAN__RV_NO16, EDAN__RV_NO16, EDAN__RV_NO16, EDAN__RV_NO16
};
#undef EDAN__RV_NO16

static int edan__rv_hexdig(unsigned c)
{
    return edan__rv_hexval[c & 0xff];
}

/* The first r (1..7) bytes in memory of the 8 loaded into w. */
static EDAN__INLINE uint64_t edan__rv_first_bytes(uint64_t w, size_t r)
{
    const uint16_t one = 1;
    unsigned char little;
    memcpy(&little, &one, 1);
    return little ? w & ((1ull << (8 * r)) - 1) : w & ~(~0ull >> (8 * r));
}

/* A memo key: the text s[0..n) (n <= EDAN__RV_MEMO_TEXT) as words, zero
   after the text; the bytes up to end may be read. Returns its hash. */
static EDAN__INLINE uint32_t edan__rv_memo_key(const char *s, size_t n, const char *end, uint64_t *w)
{
    uint64_t h = n, x;
    size_t i, k = 0;
    for (i = 0; i + 8 <= n; i += 8) {
        memcpy(&x, s + i, 8);
        w[k++] = x;
        h = (h ^ x) * 0x9E3779B97F4A7C15ull;
    }
    if (i < n) {
        x = 0;
        if (end - (s + i) >= 8) {       /* one load, most lines: the text ends before the line */
            memcpy(&x, s + i, 8);
            x = edan__rv_first_bytes(x, n - i);
        } else {
            memcpy(&x, s + i, n - i);
        }
        w[k] = x;
        h = (h ^ x) * 0x9E3779B97F4A7C15ull;
    }
    return (uint32_t)(h >> (64 - EDAN__RV_MEMO_BITS));
}

/* Whether memo entry m holds the text of key w, n bytes. */
static EDAN__INLINE int edan__rv_memo_is(const edan__rv_memo *m, const uint64_t *w, size_t n)
{
    uint64_t b;
    size_t i;
    if (m->len != n) return 0;
    for (i = 0; i < n; i += 8) {
        memcpy(&b, m->text + i, 8);
        if (b != w[i / 8]) return 0;
    }
    return 1;
}

static EDAN__INLINE void edan__rv_memo_get(const edan__rv_memo *m, edan_insn *out)
{
    out->op = m->op;
    out->size = m->size;
    out->mem = m->mem;
    out->cls = m->cls;
    out->nsrc = m->nsrc;
    out->ndst = m->ndst;
    out->flags = m->flags;
    memcpy(out->src, m->src, sizeof out->src);
    memcpy(out->dst, m->dst, sizeof out->dst);
}

static void edan__rv_memo_put(edan__rv_memo *m, const edan_insn *in, const char *text, size_t n)
{
    m->op = in->op;
    m->size = in->size;
    m->mem = in->mem;
    m->cls = in->cls;
    m->nsrc = in->nsrc;
    m->ndst = in->ndst;
    m->flags = (uint8_t)(in->flags & EDAN_INSN_STACK);
    memcpy(m->src, in->src, sizeof m->src);
    memcpy(m->dst, in->dst, sizeof m->dst);
    m->len = (uint8_t)n;
    memcpy(m->text, text, n);
    memset(m->text + n, 0, ((n + 7) & ~(size_t)7) - n);    /* zero to the word's end, as in a key */
}

static int edan__rv_isword(unsigned c)
{
    return c - 'a' < 26u || c - '0' < 10u || c == '.' || c == '_' || c - 'A' < 26u;
}

/* Hex number with optional 0x, at most 16 digits. NULL if none. */
static const char *edan__rv_hex(const char *s, const char *e, uint64_t *v)
{
    const char *b;
    uint64_t x = 0;
    int d;
    if (e - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') s += 2;
    for (b = s; s < e && (d = edan__rv_hexdig((unsigned char)*s)) >= 0; s++) x = x << 4 | (unsigned)d;
    if (s == b || s - b > 16) return NULL;
    *v = x;
    return s;
}

/* Integer immediate: [+-](0x hex | decimal). */
static const char *edan__rv_int(const char *s, const char *e, int64_t *v)
{
    int neg = 0;
    uint64_t x = 0;
    const char *b;
    if (s < e && (*s == '-' || *s == '+')) neg = *s++ == '-';
    if (e - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
        s = edan__rv_hex(s, e, &x);
        if (!s) return NULL;
    } else {
        for (b = s; s < e && (unsigned)(*s - '0') < 10u; s++) {
            if (s - b >= 19) return NULL;
            x = x * 10 + (unsigned)(*s - '0');
        }
        if (s == b) return NULL;
    }
    if (s < e && edan__rv_isword((unsigned char)*s)) return NULL;
    if (x > (uint64_t)INT64_MAX) return NULL;      /* no immediate is that large */
    *v = neg ? -(int64_t)x : (int64_t)x;
    return s;
}

static const char *edan__rv_num2(const char *s, const char *e, unsigned *n)
{
    unsigned v;
    if (s >= e || (unsigned)(*s - '0') > 9u) return NULL;
    v = (unsigned)(*s++ - '0');
    if (s < e && (unsigned)(*s - '0') <= 9u) {
        if (v == 0) return NULL;
        v = v * 10 + (unsigned)(*s++ - '0');
    }
    *n = v;
    return s;
}

/* Register name (ABI or x/f numbers). *isf = 1 for an FP register. */
static const char *edan__rv_reg(const char *s, const char *e, unsigned *num, int *isf)
{
    unsigned n = 99;
    const char *q = NULL;
    *isf = 0;
    if (e - s < 2) return NULL;
    switch (s[0]) {
    case 'x': q = edan__rv_num2(s + 1, e, &n); break;
    case 'a': q = edan__rv_num2(s + 1, e, &n); if (q && n > 7) return NULL; n += 10; break;
    case 't':
        if (s[1] == 'p') { n = 4; q = s + 2; break; }
        q = edan__rv_num2(s + 1, e, &n);
        if (q && n > 6) return NULL;
        n += n < 3 ? 5 : 25;
        break;
    case 's':
        if (s[1] == 'p') { n = 2; q = s + 2; break; }
        q = edan__rv_num2(s + 1, e, &n);
        if (q && n > 11) return NULL;
        n += n < 2 ? 8 : 16;
        break;
    case 'r': if (s[1] == 'a') { n = 1; q = s + 2; } break;
    case 'g': if (s[1] == 'p') { n = 3; q = s + 2; } break;
    case 'z': if (e - s >= 4 && s[1] == 'e' && s[2] == 'r' && s[3] == 'o') { n = 0; q = s + 4; } break;
    case 'f':
        *isf = 1;
        switch (s[1]) {
        case 'p': *isf = 0; n = 8; q = s + 2; break;
        case 't': q = edan__rv_num2(s + 2, e, &n); if (q && n > 11) return NULL;
                  n += n < 8 ? 0 : 20; break;
        case 's': q = edan__rv_num2(s + 2, e, &n); if (q && n > 11) return NULL;
                  n += n < 2 ? 8 : 16; break;
        case 'a': q = edan__rv_num2(s + 2, e, &n); if (q && n > 7) return NULL;
                  n += 10; break;
        default: q = edan__rv_num2(s + 1, e, &n); break;
        }
        break;
    default: return NULL;
    }
    if (!q || n > 31 || (q < e && edan__rv_isword((unsigned char)*q))) return NULL;
    *num = n;
    return q;
}

typedef struct edan__rv_csrname { const char *name; uint16_t num; } edan__rv_csrname;
static const edan__rv_csrname edan__rv_csrnames[] = {
    {"fflags", 0x001}, {"frm", 0x002}, {"fcsr", 0x003}, {"vstart", 0x008}, {"vxsat", 0x009},
    {"vxrm", 0x00a}, {"vcsr", 0x00f}, {"seed", 0x015}, {"ustatus", 0x000}, {"uie", 0x004},
    {"utvec", 0x005}, {"uscratch", 0x040}, {"uepc", 0x041}, {"ucause", 0x042}, {"utval", 0x043},
    {"uip", 0x044}, {"cycle", 0xc00}, {"time", 0xc01}, {"instret", 0xc02}, {"vl", 0xc20},
    {"vtype", 0xc21}, {"vlenb", 0xc22}, {"cycleh", 0xc80}, {"timeh", 0xc81}, {"instreth", 0xc82},
    {"sstatus", 0x100}, {"sedeleg", 0x102}, {"sideleg", 0x103}, {"sie", 0x104}, {"stvec", 0x105},
    {"scounteren", 0x106}, {"senvcfg", 0x10a}, {"sscratch", 0x140}, {"sepc", 0x141},
    {"scause", 0x142}, {"stval", 0x143}, {"sbadaddr", 0x143}, {"sip", 0x144}, {"satp", 0x180},
    {"sptbr", 0x180}, {"vsstatus", 0x200}, {"vsie", 0x204}, {"vstvec", 0x205},
    {"vsscratch", 0x240}, {"vsepc", 0x241}, {"vscause", 0x242}, {"vstval", 0x243},
    {"vsip", 0x244}, {"vsatp", 0x280}, {"mstatus", 0x300}, {"misa", 0x301}, {"medeleg", 0x302},
    {"mideleg", 0x303}, {"mie", 0x304}, {"mtvec", 0x305}, {"mcounteren", 0x306},
    {"menvcfg", 0x30a}, {"mstatush", 0x310}, {"mcountinhibit", 0x320}, {"mscratch", 0x340},
    {"mepc", 0x341}, {"mcause", 0x342}, {"mtval", 0x343}, {"mbadaddr", 0x343}, {"mip", 0x344},
    {"mtinst", 0x34a}, {"mtval2", 0x34b}, {"hstatus", 0x600}, {"hedeleg", 0x602},
    {"hideleg", 0x603}, {"hie", 0x604}, {"hcounteren", 0x606}, {"hgeie", 0x607},
    {"htval", 0x643}, {"hip", 0x644}, {"hvip", 0x645}, {"htinst", 0x64a}, {"hgatp", 0x680},
    {"tselect", 0x7a0}, {"tdata1", 0x7a1}, {"tdata2", 0x7a2}, {"tdata3", 0x7a3},
    {"dcsr", 0x7b0}, {"dpc", 0x7b1}, {"dscratch", 0x7b2}, {"dscratch0", 0x7b2},
    {"dscratch1", 0x7b3}, {"mcycle", 0xb00}, {"minstret", 0xb02}, {"mcycleh", 0xb80},
    {"minstreth", 0xb82}, {"mvendorid", 0xf11}, {"marchid", 0xf12}, {"mimpid", 0xf13},
    {"mhartid", 0xf14}, {"mconfigptr", 0xf15}
};
/* Names follow the current privileged spec. QEMU 7.2 prints a few
   supervisor/machine CSRs under pre-1.10 names or numbers (hstatus for
   0x200, pmpcfg3 for 0x3a0); user-mode traces never contain them. */
/* Numbered families: prefix, first number, last number, CSR of number 0. */
typedef struct edan__rv_csrfamily { const char *prefix; unsigned lo, hi, base; int hsuffix; } edan__rv_csrfamily;
static const edan__rv_csrfamily edan__rv_csrfamilies[] = {
    {"hpmcounter", 3, 31, 0xc00, 0}, {"hpmcounter", 3, 31, 0xc80, 1},
    {"mhpmcounter", 3, 31, 0xb00, 0}, {"mhpmcounter", 3, 31, 0xb80, 1},
    {"mhpmevent", 3, 31, 0x320, 0}, {"pmpcfg", 0, 15, 0x3a0, 0}, {"pmpaddr", 0, 63, 0x3b0, 0}
};

/* CSR operand: a name or a number. Returns NULL if unknown. */
static const char *edan__rv_csr(const char *s, const char *e, unsigned *csr)
{
    const char *q = s;
    size_t n, i;
    if (s < e && (unsigned)(*s - '0') < 10u) {
        int64_t v;
        q = edan__rv_int(s, e, &v);
        if (!q || v < 0 || v > 4095) return NULL;
        *csr = (unsigned)v;
        return q;
    }
    while (q < e && edan__rv_isword((unsigned char)*q)) q++;
    n = (size_t)(q - s);
    for (i = 0; i < sizeof edan__rv_csrnames / sizeof edan__rv_csrnames[0]; i++)
        if (strlen(edan__rv_csrnames[i].name) == n && memcmp(edan__rv_csrnames[i].name, s, n) == 0) {
            *csr = edan__rv_csrnames[i].num;
            return q;
        }
    for (i = 0; i < sizeof edan__rv_csrfamilies / sizeof edan__rv_csrfamilies[0]; i++) {
        const edan__rv_csrfamily *f = &edan__rv_csrfamilies[i];
        size_t pl = strlen(f->prefix);
        const char *d;
        unsigned v;
        if (n <= pl || memcmp(f->prefix, s, pl) != 0) continue;
        d = edan__rv_num2(s + pl, q, &v);
        if (!d || v < f->lo || v > f->hi) continue;
        if (f->hsuffix ? !(d + 1 == q && *d == 'h') : d != q) continue;
        *csr = f->base + v;
        return q;
    }
    return NULL;
}

/* Why a form did not match: operand number, what was expected, where. */
typedef struct edan__rv_fail {
    int operand;            /* 1-based; 0 = before the first */
    char expected;          /* syntax letter, or ',' / '$' (end) / 'r' (rounding mode) */
    const char *at;
} edan__rv_fail;


static int edan__rv_is_rm(const char *s, const char *e)
{
    static const char rms[6][4] = { "rne", "rtz", "rdn", "rup", "rmm", "dyn" };
    int i;
    if (e - s < 3 || (e - s > 3 && edan__rv_isword((unsigned char)s[3]))) return 0;
    for (i = 0; i < 6; i++)
        if (s[0] == rms[i][0] && s[1] == rms[i][1] && s[2] == rms[i][2]) return 1;
    return 0;
}

static int edan__rv_opend(const char *s, const char *e)
{
    return s == e || *s == ';' || *s == '#';
}

#define EDAN__RV_SKIPWS(s, e) while ((s) < (e) && (*(s) == ' ' || *(s) == '\t')) (s)++

/* Matches the operand text at *ps against one form. 0 on success (and *ps
   moves past the operands), else 1 with *fail filled. */
static int edan__rv_operands(const edan__rv_form *f, const char **ps, const char *e,
                             edan__rv_fields *fl, edan__rv_fail *fail)
{
    const edan__rv_opinfo *o = &edan__rv_ops[f->op];
    const char *s = *ps, *sy = f->syntax;
    int opn = 1, takes_rm = o->flags & EDAN__RV_FLAG_R;
    fl->rd = fl->rs1 = fl->rs2 = fl->rs3 = fl->csr = fl->zimm = 0;
    if (takes_rm && edan__rv_is_rm(s, e)) {     /* QEMU prints the mode first */
        const char *q = s + 3;
        EDAN__RV_SKIPWS(q, e);
        if (q < e && *q == ',') { s = q + 1; EDAN__RV_SKIPWS(s, e); }
    }
    for (; *sy; sy++) {
        char c = *sy;
        const char *q = NULL;
        unsigned n = 0;
        int isf = 0;
        fail->operand = opn;
        fail->expected = c;
        fail->at = s;
        switch (c) {
        case ',':
            EDAN__RV_SKIPWS(s, e);
            fail->at = s;
            if (s >= e || *s != ',') return 1;
            s++;
            EDAN__RV_SKIPWS(s, e);
            opn++;
            continue;
        case 'd': case 's': case 't': case 'u': case 'D': {
            unsigned file = c == 's' ? o->f1 : c == 't' ? o->f2 : c == 'u' ? o->f3 : o->fd;
            q = edan__rv_reg(s, e, &n, &isf);
            if (!q) return 1;
            if (!(f->flags & EDAN__RV_ANYFILE) && isf != (file == EDAN__RV_FILE_F)) return 1;
            if (c == 'd') fl->rd = n;
            else if (c == 's') fl->rs1 = n;
            else if (c == 't') fl->rs2 = n;
            else if (c == 'u') fl->rs3 = n;
            else fl->rd = fl->rs1 = n;
            break;
        }
        case 'i': {
            int64_t v;
            q = edan__rv_int(s, e, &v);
            if (!q) return 1;
            break;
        }
        case 'z': {
            int64_t v;
            q = edan__rv_int(s, e, &v);
            if (!q || v < 0 || v > 31) return 1;
            fl->zimm = (unsigned)v;
            break;
        }
        case 'B':   /* QEMU: decimal offset; objdump: hex target <symbol> */
            q = s;
            if (q < e && (*q == '-' || *q == '+')) q++;
            while (q < e && (edan__rv_hexdig((unsigned char)*q) >= 0 || *q == 'x')) q++;
            if (q == s || q[-1] == '-' || q[-1] == '+' || (q < e && edan__rv_isword((unsigned char)*q)))
                return 1;
            {
                const char *r = q;
                EDAN__RV_SKIPWS(r, e);
                if (r < e && *r == '<') {
                    while (r < e && *r != '>') r++;
                    if (r == e) return 1;
                    q = r + 1;
                }
            }
            break;
        case 'C':
            q = edan__rv_csr(s, e, &fl->csr);
            if (!q) return 1;
            break;
        case 'F':
            for (q = s; q < e && (*q == 'i' || *q == 'o' || *q == 'r' || *q == 'w'); q++) {}
            break;
        case 'm': {
            int64_t v;
            q = s;
            if (q < e && *q != '(') {
                q = edan__rv_int(q, e, &v);
                if (!q) return 1;
            }
            if (q >= e || *q != '(') { fail->at = q; return 1; }
            q = edan__rv_reg(q + 1, e, &n, &isf);
            if (!q || isf) return 1;
            if (q >= e || *q != ')') { fail->at = q; return 1; }
            q++;
            fl->rs1 = n;
            break;
        }
        default:
            return 1;
        }
        s = q;
    }
    EDAN__RV_SKIPWS(s, e);
    if (takes_rm && s < e && *s == ',') {       /* objdump prints it last */
        const char *q = s + 1;
        EDAN__RV_SKIPWS(q, e);
        fail->operand = opn + 1;
        fail->expected = 'r';
        fail->at = q;
        if (!edan__rv_is_rm(q, e)) return 1;
        s = q + 3;
        EDAN__RV_SKIPWS(s, e);
    }
    fail->operand = opn;
    fail->expected = '$';
    fail->at = s;
    if (!edan__rv_opend(s, e)) return 1;
    if (f->rd >= 0) fl->rd = (unsigned)f->rd;
    if (f->rs1 >= 0) fl->rs1 = (unsigned)f->rs1;
    if (f->rs2 >= 0) fl->rs2 = (unsigned)f->rs2;
    if (f->csr >= 0) fl->csr = (unsigned)f->csr;
    if (f->flags & EDAN__RV_TIE) fl->rs2 = fl->rs1;
    *ps = s;
    return 0;
}

/* Copies up to 40 characters of s..e (to the next delimiter when token) into
   buf, escaping what is not printable. */
static const char *edan__rv_quote(char *buf, size_t cap, const char *s, const char *e, int token)
{
    size_t n = 0;
    while (s < e && n + 5 < cap && n < 40) {
        unsigned char c = (unsigned char)*s++;
        if (token && (c == ',' || c == ' ' || c == '\t' || c == ';' || c == '#')) break;
        if (c >= 0x20 && c < 0x7f) buf[n++] = (char)c;
        else { snprintf(buf + n, cap - n, "\\x%02x", c); n += 4; }
    }
    if (s < e && n + 4 < cap && !token) { memcpy(buf + n, "...", 3); n += 3; }
    buf[n] = 0;
    return buf;
}

static edan_result edan__rv_error(edan_rv_parser *p, edan_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->error, sizeof p->error, fmt, ap);
    va_end(ap);
    return r;
}

static edan_result edan__rv_operand_error(edan_rv_parser *p, const edan__rv_form *f,
                                          const edan__rv_fail *fl, const char *e)
{
    char tok[64];
    const char *what;
    const edan__rv_opinfo *o = &edan__rv_ops[f->op];
    switch (fl->expected) {
    case 'd': case 'D': what = o->fd == EDAN__RV_FILE_F ? "an FP register" : "an integer register"; break;
    case 's': what = o->f1 == EDAN__RV_FILE_F ? "an FP register" : "an integer register"; break;
    case 't': what = o->f2 == EDAN__RV_FILE_F ? "an FP register" : "an integer register"; break;
    case 'u': what = "an FP register"; break;
    case 'i': case 'z': what = "an integer"; break;
    case 'B': what = "a branch target"; break;
    case 'C': what = "a CSR name or number"; break;
    case 'F': what = "a fence set"; break;
    case 'm': what = "a memory operand offset(register)"; break;
    case 'r': what = "a rounding mode"; break;
    case ',':
        if (edan__rv_opend(fl->at, e))
            return edan__rv_error(p, EDAN_ERR_PARSE, "'%s' needs more operands (%s)",
                                  f->name, *f->syntax ? f->syntax : "none");
        what = "','";
        break;
    default:
        return edan__rv_error(p, EDAN_ERR_PARSE, "too many operands for '%s' at '%s'", f->name,
                              edan__rv_quote(tok, sizeof tok, fl->at, e, 0));
    }
    if (edan__rv_opend(fl->at, e))
        return edan__rv_error(p, EDAN_ERR_PARSE, "'%s' operand %d: missing, expected %s",
                              f->name, fl->operand, what);
    return edan__rv_error(p, EDAN_ERR_PARSE, "'%s' operand %d: expected %s, got '%s'", f->name,
                          fl->operand, what, edan__rv_quote(tok, sizeof tok, fl->at, e, 1));
}

/* The prefix of a line that starts with a digit: "cpu;", "cpu;pc;", "pc;"
   or "pc:". *ps moves past it and the blanks after it. */
static EDAN__INLINE edan_result edan__rv_prefix(edan_rv_parser *p, const char **ps, const char *e, uint64_t *pc,
                                                int *has_pc)
{
    const char *s = *ps, *q = s;
    char tok[64];
    int hex = e - s > 2 && s[1] == 'x';
    if (hex) q = edan__rv_hex(s, e, pc);
    else while (q < e && (unsigned)(*q - '0') < 10u) q++;
    if (q && q < e && *q == ';') {
        s = q + 1;
        *has_pc = hex;
        if (!hex && e - s > 2 && s[0] == '0' && s[1] == 'x') {
            q = edan__rv_hex(s, e, pc);
            if (!q || q >= e || *q != ';')
                return edan__rv_error(p, EDAN_ERR_PARSE, "malformed PC field '%s'",
                                      edan__rv_quote(tok, sizeof tok, s, e, 1));
            *has_pc = 1;
            s = q + 1;
        }
    } else if (q && hex && q < e && *q == ':') {
        *has_pc = 1;
        s = q + 1;
    }
    EDAN__RV_SKIPWS(s, e);
    *ps = s;
    return EDAN_OK;
}

/* The first AMO form (index + 1) named by m..me less its ordering suffix
   (.aq / .rl / .aqrl / .aq.rl), 0 if none. */
static uint32_t edan__rv_lookup_amo(const edan_rv_parser *p, const char *m, const char *me)
{
    static const char *const sfx[4] = { ".aq.rl", ".aqrl", ".aq", ".rl" };
    size_t n = (size_t)(me - m), sl, i, k;
    uint32_t fi = 0;
    for (i = 0; i < 4 && !fi; i++) {
        sl = strlen(sfx[i]);
        if (n > sl && n - sl <= 16 && memcmp(me - sl, sfx[i], sl) == 0) {
            uint64_t v[2] = { 0, 0 };
            for (k = 0; k < n - sl; k++) v[k >> 3] |= (uint64_t)(unsigned char)m[k] << ((k & 7) * 8);
            fi = edan__rv_lookup(p, v[0], v[1]);
            if (fi && edan__rv_ops[edan__rv_forms[fi - 1].op].cls != EDAN_CLASS_AMO) fi = 0;
        }
    }
    return fi;
}

/* The mnemonic at *ps, possibly after QEMU's hex encoding: its first form
   (index + 1) in *pfi; *ps moves past it and the blanks after it. */
static EDAN__INLINE edan_result edan__rv_mnemonic(edan_rv_parser *p, const char **ps, const char *e, uint32_t *pfi)
{
    const char *s = *ps, *m, *me;
    uint64_t w0, w1;
    uint32_t fi;
    unsigned k;
    char tok[64];
    for (k = 0;; k++) {
        w0 = w1 = 0;
        for (m = s; s < e; s++) {
            unsigned c = (unsigned char)*s;
            size_t i = (size_t)(s - m);
            if (!(c - 'a' < 26u || c - '0' < 10u || c == '.')) break;
            if (i < 8) w0 |= (uint64_t)c << (i * 8);
            else if (i < 16) w1 |= (uint64_t)c << ((i - 8) * 8);
        }
        me = s;
        if (me - m <= 16 && (fi = edan__rv_lookup(p, w0, w1)) != 0) break;
        if (k == 0 && (me - m == 4 || me - m == 8) && me < e && (*me == ' ' || *me == '\t')) {
            const char *q = m;
            while (q < me && edan__rv_hexdig((unsigned char)*q) >= 0) q++;
            if (q == me) { EDAN__RV_SKIPWS(s, e); continue; }
        }
        fi = 0;
        break;
    }
    if (me == m || (me < e && *me != ' ' && *me != '\t' && *me != ';' && *me != '#'))
        return edan__rv_error(p, EDAN_ERR_PARSE, "malformed instruction '%s'",
                              edan__rv_quote(tok, sizeof tok, m, e, 1));
    if (!fi) {
        fi = edan__rv_lookup_amo(p, m, me);
        if (!fi)
            return edan__rv_error(p, EDAN_ERR_UNKNOWN_OP, "unknown mnemonic '%s'",
                                  edan__rv_quote(tok, sizeof tok, m, me, 0));
    }
    EDAN__RV_SKIPWS(s, e);
    *ps = s;
    *pfi = fi;
    return EDAN_OK;
}

/* The instruction text at *ps (mnemonic, operands, QEMU's target comment)
   into out: the first form of the mnemonic whose operands match; if none
   does, the error of the one that got furthest. *ps moves past the text. */
static EDAN__INLINE edan_result edan__rv_insn_text(edan_rv_parser *p, const char **ps, const char *e, edan_insn *out)
{
    const char *s = *ps;
    uint32_t fi = 0;
    edan__rv_fields fl;
    edan__rv_fail best, cur;
    const edan__rv_form *form, *bestform;
    edan_result rc = edan__rv_mnemonic(p, &s, e, &fi);
    if (rc != EDAN_OK) return rc;
    form = &edan__rv_forms[fi - 1];
    bestform = form;
    best.operand = -1;
    best.expected = '$';
    best.at = s;
    for (;;) {
        const char *q = s;
        if (edan__rv_operands(form, &q, e, &fl, &cur) == 0) { s = q; break; }
        if (cur.operand > best.operand || (cur.operand == best.operand && cur.at > best.at)) {
            best = cur;
            bestform = form;
        }
        fi = p->next[fi - 1];
        if (!fi) return edan__rv_operand_error(p, bestform, &best, e);
        form = &edan__rv_forms[fi - 1];
    }
    if (s < e && *s == '#') {                   /* QEMU's "# 0x..." target comment */
        while (s < e && *s != ';') s++;
    }
    edan__rv_fill(form->op, &fl, out);
    *ps = s;
    return EDAN_OK;
}

/* The address column at *ps, if any: ";addr", or ";addr;addr" for an AMO
   as QEMU 7.2 reports it (a load and a store of one address). */
static EDAN__INLINE edan_result edan__rv_address(edan_rv_parser *p, const char **ps, const char *e,
                                                 const edan_insn *out, uint64_t *addr, int *has_addr)
{
    const char *s = *ps, *q;
    char tok[64];
    if (!(s < e && *s == ';')) return EDAN_OK;
    s++;
    EDAN__RV_SKIPWS(s, e);
    q = edan__rv_hex(s, e, addr);
    if (!q || (q < e && *q != ';' && *q != ' ' && *q != '\t'))
        return edan__rv_error(p, EDAN_ERR_PARSE, "malformed address '%s'",
                              edan__rv_quote(tok, sizeof tok, s, e, 1));
    *has_addr = 1;
    s = q;
    EDAN__RV_SKIPWS(s, e);
    if (s < e && *s == ';') {
        uint64_t a2;
        s++;
        EDAN__RV_SKIPWS(s, e);
        q = edan__rv_hex(s, e, &a2);
        if (!q || a2 != *addr || out->cls != EDAN_CLASS_AMO)
            return edan__rv_error(p, EDAN_ERR_PARSE, "unexpected second address '%s'",
                                  edan__rv_quote(tok, sizeof tok, s, e, 1));
        s = q;
        EDAN__RV_SKIPWS(s, e);
    }
    *ps = s;
    return EDAN_OK;
}

/* An instruction that accesses memory has an address, one that does not has
   none; a failed SC (no address) becomes one that does not. */
static EDAN__INLINE edan_result edan__rv_check_access(edan_rv_parser *p, edan_insn *out, int has_addr)
{
    if (out->mem != EDAN_MEM_NONE && !has_addr) {
        if (out->op == EDAN_RV_OP_SC_W || out->op == EDAN_RV_OP_SC_D) {
            out->mem = EDAN_MEM_NONE;   /* a failed SC does not access memory */
            out->size = 0;
        } else {
            return edan__rv_error(p, EDAN_ERR_PARSE, "%s without address ('%s')",
                                  out->mem == EDAN_MEM_LOAD ? "load" :
                                  out->mem == EDAN_MEM_STORE ? "store" : "atomic",
                                  edan__rv_ops[out->op].name);
        }
    } else if (out->mem == EDAN_MEM_NONE && has_addr) {
        return edan__rv_error(p, EDAN_ERR_PARSE, "address on '%s', which does not access memory",
                              edan__rv_ops[out->op].name);
    }
    return EDAN_OK;
}

edan_result edan_rv_parse_line(edan_rv_parser *p, const char *line, size_t len, edan_insn *out)
{
    const char *s = line, *e, *te;
    uint64_t addr = 0, pc = 0;
    size_t tl;
    edan__rv_memo *memo = NULL;
    const edan__rv_memo *hit = NULL;
    const char *t0;
    int has_pc = 0, has_addr = 0;
    edan_result rc;
    char tok[64];

    if (!p || !out || (!line && len)) return EDAN_ERR_INVALID_ARG;
    if (len > EDAN_RV_MAX_LINE)
        return edan__rv_error(p, EDAN_ERR_PARSE, "line too long (%lu bytes, at most %d)",
                              (unsigned long)len, EDAN_RV_MAX_LINE);
    e = line + len;
    if (e > s && e[-1] == '\n') e--;
    if (e > s && e[-1] == '\r') e--;
    EDAN__RV_SKIPWS(s, e);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
    if (s == e || *s == '#') return EDAN_SKIP;
    if ((unsigned)(*s - '0') < 10u) {
        rc = edan__rv_prefix(p, &s, e, &pc, &has_pc);
        if (rc != EDAN_OK) return rc;
    }

    /* the instruction text ends at the address column */
    t0 = s;
    te = (const char *)memchr(s, ';', (size_t)(e - s));
    if (!te) te = e;
    tl = (size_t)(te - s);
    while (tl && (s[tl - 1] == ' ' || s[tl - 1] == '\t')) tl--;
    if (tl - 1 < EDAN__RV_MEMO_TEXT) {
        uint64_t key[EDAN__RV_MEMO_TEXT / 8];
        memo = &p->memo[2 * edan__rv_memo_key(s, tl, line + len, key)];
        hit = edan__rv_memo_is(memo, key, tl) ? memo : edan__rv_memo_is(memo + 1, key, tl) ? memo + 1 : NULL;
    }
    if (hit) {
        edan__rv_memo_get(hit, out);
        s = te;
    } else {
        rc = edan__rv_insn_text(p, &s, e, out);
        if (rc != EDAN_OK) return rc;
        if (memo && s == te) {
            memo[1] = memo[0];                  /* the older entry becomes way 1 */
            edan__rv_memo_put(memo, out, t0, tl);
        }
    }

    rc = edan__rv_address(p, &s, e, out, &addr, &has_addr);
    if (rc != EDAN_OK) return rc;
    if (s != e)
        return edan__rv_error(p, EDAN_ERR_PARSE, "unexpected text '%s'",
                              edan__rv_quote(tok, sizeof tok, s, e, 0));

    out->pc = pc;
    out->flags = (uint8_t)((out->flags & EDAN_INSN_STACK) | (has_pc ? EDAN_INSN_HAS_PC : 0));
    out->length = 0;
    out->addr = addr;
    return edan__rv_check_access(p, out, has_addr);
}

#endif /* EDAN_NO_RISCV */

#ifndef EDAN_NO_PROFILE   /* the JSON reader, hardware profiles and the hybrid model */
/* ---- JSON reader: implementation ---- */
struct edan_json {
    edan_json_type type;
    unsigned long line;
    double num;             /* NUMBER; BOOL as 0/1 */
    char *str;              /* STRING */
    size_t n, cap;          /* ARRAY/OBJECT members */
    edan_json **items;
    char **keys;            /* OBJECT only */
    edan_allocator a;
};

typedef struct edan__jp {
    const char *s, *end;
    unsigned long line;
    edan_allocator a;
    char *err;
    size_t errlen;
    edan_result rc;
} edan__jp;

static edan_result edan__jp_vfail(edan__jp *p, unsigned long line, edan_result rc, const char *fmt, va_list ap)
{
    char msg[160];
    if (p->rc != EDAN_OK) return p->rc;     /* keep the first error */
    p->rc = rc;
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (p->err && p->errlen) snprintf(p->err, p->errlen, "line %lu: %s", line, msg);
    return rc;
}

/* An error at the line being read. */
static edan_result edan__jp_fail(edan__jp *p, edan_result rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc = edan__jp_vfail(p, p->line, rc, fmt, ap);
    va_end(ap);
    return rc;
}

/* An error at an earlier line (a member found wrong when its object closes). */
static edan_result edan__jp_fail_at(edan__jp *p, unsigned long line, edan_result rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc = edan__jp_vfail(p, line, rc, fmt, ap);
    va_end(ap);
    return rc;
}

static void edan__json_free_node(edan_json *v)
{
    size_t i;
    edan_allocator a;
    if (!v) return;
    a = v->a;
    for (i = 0; i < v->n; i++) {
        edan__json_free_node(v->items[i]);
        if (v->keys) edan__free(&a, v->keys[i]);
    }
    edan__free(&a, v->items);
    edan__free(&a, v->keys);
    edan__free(&a, v->str);
    edan__free(&a, v);
}

static void edan__jp_ws(edan__jp *p)
{
    while (p->s < p->end) {
        char c = *p->s;
        if (c == '\n') p->line++;
        else if (c != ' ' && c != '\t' && c != '\r') break;
        p->s++;
    }
}

/* Appends the UTF-8 encoding of code point cp to buf[*n..]. */
static void edan__jp_utf8(char *buf, size_t *n, unsigned long cp)
{
    if (cp < 0x80) buf[(*n)++] = (char)cp;
    else if (cp < 0x800) {
        buf[(*n)++] = (char)(0xC0 | (cp >> 6));
        buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        buf[(*n)++] = (char)(0xE0 | (cp >> 12));
        buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        buf[(*n)++] = (char)(0xF0 | (cp >> 18));
        buf[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static int edan__jp_hex4(const char *s, const char *end, unsigned long *out)
{
    int i;
    unsigned long v = 0;
    if (end - s < 4) return 0;
    for (i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned long)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned long)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned long)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

/* At the opening quote; returns a NUL-terminated allocated string. The
   decoded text is never longer than the escaped one, so one allocation of
   the raw length suffices. */
static char *edan__jp_string(edan__jp *p)
{
    const char *q = p->s + 1, *start;
    char *buf;
    size_t n = 0;
    while (q < p->end && *q != '"') {
        if (*q == '\\' && q + 1 < p->end) q++;
        q++;
    }
    if (q >= p->end) {
        edan__jp_fail(p, EDAN_ERR_PARSE, "unterminated string");
        return NULL;
    }
    buf = (char *)edan__alloc(&p->a, (size_t)(q - p->s));
    if (!buf) { edan__jp_fail(p, EDAN_ERR_NOMEM, "out of memory"); return NULL; }
    start = p->s + 1;
    for (q = start; *q != '"'; ) {
        unsigned char c = (unsigned char)*q;
        if (c < 0x20) {
            edan__jp_fail(p, EDAN_ERR_PARSE, c == '\n' ? "unterminated string (newline inside)"
                                                        : "control character 0x%02x in a string", c);
            goto fail;
        }
        if (c != '\\') { buf[n++] = (char)c; q++; continue; }
        q++;
        switch (*q) {
        case '"': buf[n++] = '"'; q++; break;
        case '\\': buf[n++] = '\\'; q++; break;
        case '/': buf[n++] = '/'; q++; break;
        case 'b': buf[n++] = '\b'; q++; break;
        case 'f': buf[n++] = '\f'; q++; break;
        case 'n': buf[n++] = '\n'; q++; break;
        case 'r': buf[n++] = '\r'; q++; break;
        case 't': buf[n++] = '\t'; q++; break;
        case 'u': {
            unsigned long cp, lo;
            if (!edan__jp_hex4(q + 1, p->end, &cp)) {
                edan__jp_fail(p, EDAN_ERR_PARSE, "bad \\u escape (4 hex digits expected)");
                goto fail;
            }
            q += 5;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (q[0] != '\\' || q + 1 >= p->end || q[1] != 'u' || !edan__jp_hex4(q + 2, p->end, &lo)
                    || lo < 0xDC00 || lo > 0xDFFF) {
                    edan__jp_fail(p, EDAN_ERR_PARSE, "unpaired UTF-16 surrogate in \\u escape");
                    goto fail;
                }
                q += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                edan__jp_fail(p, EDAN_ERR_PARSE, "unpaired UTF-16 surrogate in \\u escape");
                goto fail;
            }
            if (cp == 0) {
                edan__jp_fail(p, EDAN_ERR_PARSE, "\\u0000 in a string is not supported");
                goto fail;
            }
            edan__jp_utf8(buf, &n, cp);     /* at most as long as the escape */
            break;
        }
        default:
            edan__jp_fail(p, EDAN_ERR_PARSE, "bad escape '\\%c' in a string",
                          (*q >= 0x20 && *q < 0x7f) ? *q : '?');
            goto fail;
        }
    }
    buf[n] = 0;
    p->s = q + 1;
    return buf;
fail:
    edan__free(&p->a, buf);
    return NULL;
}

static edan_json *edan__jp_node(edan__jp *p, edan_json_type t)
{
    edan_json *v = (edan_json *)edan__calloc(&p->a, sizeof *v);
    if (!v) { edan__jp_fail(p, EDAN_ERR_NOMEM, "out of memory"); return NULL; }
    v->type = t;
    v->line = p->line;
    v->a = p->a;
    return v;
}

static int edan__jp_digit(const char *s, const char *end)
{
    return s < end && *s >= '0' && *s <= '9';
}

static edan_json *edan__jp_number(edan__jp *p)
{
    const char *q = p->s;
    char small[64], *tmp = small;
    size_t n;
    double x;
    edan_json *v;
    if (q < p->end && *q == '-') q++;
    if (!edan__jp_digit(q, p->end)) {
        edan__jp_fail(p, EDAN_ERR_PARSE, "bad number (digit expected)");
        return NULL;
    }
    if (*q == '0') q++;
    else while (edan__jp_digit(q, p->end)) q++;
    if (q < p->end && *q == '.') {
        q++;
        if (!edan__jp_digit(q, p->end)) {
            edan__jp_fail(p, EDAN_ERR_PARSE, "bad number (digit expected after '.')");
            return NULL;
        }
        while (edan__jp_digit(q, p->end)) q++;
    }
    if (q < p->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < p->end && (*q == '+' || *q == '-')) q++;
        if (!edan__jp_digit(q, p->end)) {
            edan__jp_fail(p, EDAN_ERR_PARSE, "bad number (digit expected in exponent)");
            return NULL;
        }
        while (edan__jp_digit(q, p->end)) q++;
    }
    n = (size_t)(q - p->s);
    if (n >= sizeof small) {
        tmp = (char *)edan__alloc(&p->a, n + 1);
        if (!tmp) { edan__jp_fail(p, EDAN_ERR_NOMEM, "out of memory"); return NULL; }
    }
    memcpy(tmp, p->s, n);
    tmp[n] = 0;
    /* The grammar above is a subset of strtod's ("C" locale assumed for '.'). */
    x = strtod(tmp, NULL);
    /* beyond a double, strtod gives infinity: no reader could check a
       range against it, and no JSON writer can write it back */
    if (x - x != 0) {
        edan__jp_fail(p, EDAN_ERR_PARSE, "number %.40s%s is out of range (beyond a double, about 1.8e308)", tmp,
                      n > 40 ? "..." : "");
        v = NULL;
    } else if ((v = edan__jp_node(p, EDAN_JSON_NUMBER)) != NULL) {
        v->num = x;
    }
    if (tmp != small) edan__free(&p->a, tmp);
    p->s = q;
    return v;
}

static int edan__jp_push(edan__jp *p, edan_json *c, edan_json *item, char *key)
{
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 4;
        edan_json **ni = (edan_json **)edan__realloc(&p->a, c->items, nc * sizeof *ni);
        if (!ni) goto nomem;
        c->items = ni;
        if (c->type == EDAN_JSON_OBJECT) {
            char **nk = (char **)edan__realloc(&p->a, c->keys, nc * sizeof *nk);
            if (!nk) goto nomem;
            c->keys = nk;
        }
        c->cap = nc;
    }
    c->items[c->n] = item;
    if (c->keys) c->keys[c->n] = key;
    c->n++;
    return 1;
nomem:
    edan__jp_fail(p, EDAN_ERR_NOMEM, "out of memory");
    return 0;
}

static int edan__jp_key_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 when the object's keys are distinct; else 0 with the error: a reader
   would see only one of two values, and which one is not in the text. */
static int edan__jp_unique_keys(edan__jp *p, const edan_json *obj)
{
    char **sorted;
    const char *dup = NULL;
    size_t i, first = 0;
    if (obj->n < 2) return 1;
    sorted = (char **)edan__alloc(&p->a, obj->n * sizeof *sorted);
    if (!sorted) {
        edan__jp_fail(p, EDAN_ERR_NOMEM, "out of memory");
        return 0;
    }
    memcpy(sorted, obj->keys, obj->n * sizeof *sorted);
    qsort(sorted, obj->n, sizeof *sorted, edan__jp_key_cmp);
    for (i = 1; i < obj->n && !dup; i++)
        if (!strcmp(sorted[i - 1], sorted[i])) dup = sorted[i];
    edan__free(&p->a, sorted);
    if (!dup) return 1;
    while (strcmp(obj->keys[first], dup)) first++;
    for (i = first + 1; strcmp(obj->keys[i], dup); i++) {}
    edan__jp_fail_at(p, obj->items[i]->line, EDAN_ERR_PARSE, "duplicate key \"%.40s\" (also on line %lu)", dup,
                     obj->items[first]->line);
    return 0;
}

static edan_json *edan__jp_value(edan__jp *p, int depth)
{
    edan_json *v;
    char c;
    edan__jp_ws(p);
    if (p->s >= p->end) {
        edan__jp_fail(p, EDAN_ERR_PARSE, "unexpected end of input (truncated?), a value expected");
        return NULL;
    }
    c = *p->s;
    if (c == '{' || c == '[') {
        int obj = c == '{';
        char close = obj ? '}' : ']';
        if (depth >= EDAN_JSON_MAX_DEPTH) {
            edan__jp_fail(p, EDAN_ERR_LIMIT, "nesting deeper than %d", EDAN_JSON_MAX_DEPTH);
            return NULL;
        }
        v = edan__jp_node(p, obj ? EDAN_JSON_OBJECT : EDAN_JSON_ARRAY);
        if (!v) return NULL;
        p->s++;
        edan__jp_ws(p);
        if (p->s < p->end && *p->s == close) { p->s++; return v; }
        for (;;) {
            char *key = NULL;
            edan_json *item;
            if (obj) {
                edan__jp_ws(p);
                if (p->s >= p->end || *p->s != '"') {
                    edan__jp_fail(p, EDAN_ERR_PARSE, p->s >= p->end
                                  ? "unexpected end of input (truncated?), a member name expected"
                                  : "a member name in double quotes expected");
                    goto fail;
                }
                key = edan__jp_string(p);
                if (!key) goto fail;
                edan__jp_ws(p);
                if (p->s >= p->end || *p->s != ':') {
                    edan__free(&p->a, key);
                    edan__jp_fail(p, EDAN_ERR_PARSE, p->s >= p->end
                                  ? "unexpected end of input (truncated?), ':' expected"
                                  : "':' expected after a member name");
                    goto fail;
                }
                p->s++;
            }
            item = edan__jp_value(p, depth + 1);
            if (!item) { edan__free(&p->a, key); goto fail; }
            if (!edan__jp_push(p, v, item, key)) {
                edan__json_free_node(item);
                edan__free(&p->a, key);
                goto fail;
            }
            edan__jp_ws(p);
            if (p->s < p->end && *p->s == ',') { p->s++; continue; }
            if (p->s < p->end && *p->s == close) {
                p->s++;
                if (obj && !edan__jp_unique_keys(p, v)) goto fail;
                return v;
            }
            edan__jp_fail(p, EDAN_ERR_PARSE, p->s >= p->end
                          ? (obj ? "unexpected end of input (truncated?), ',' or '}' expected"
                                 : "unexpected end of input (truncated?), ',' or ']' expected")
                          : (obj ? "',' or '}' expected in an object" : "',' or ']' expected in an array"));
            goto fail;
        }
fail:
        edan__json_free_node(v);
        return NULL;
    }
    if (c == '"') {
        unsigned long line = p->line;
        char *s = edan__jp_string(p);
        if (!s) return NULL;
        v = edan__jp_node(p, EDAN_JSON_STRING);
        if (!v) { edan__free(&p->a, s); return NULL; }
        v->str = s;
        v->line = line;
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return edan__jp_number(p);
    {
        static const char *const words[3] = {"true", "false", "null"};
        int w;
        for (w = 0; w < 3; w++) {
            size_t k = strlen(words[w]);
            if ((size_t)(p->end - p->s) >= k && !memcmp(p->s, words[w], k)) {
                v = edan__jp_node(p, w == 2 ? EDAN_JSON_NULL : EDAN_JSON_BOOL);
                if (v) v->num = w == 0;
                p->s += k;
                return v;
            }
        }
    }
    if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
        edan__jp_fail(p, EDAN_ERR_PARSE, "unexpected '%c', a value expected", c);
    else
        edan__jp_fail(p, EDAN_ERR_PARSE, "unexpected byte 0x%02x, a value expected", (unsigned)(unsigned char)c);
    return NULL;
}

edan_result edan_json_parse(const char *text, size_t len, const edan_allocator *alloc,
                            edan_json **out, char *err, size_t errlen)
{
    edan__jp p;
    edan_json *v;
    if (err && errlen) err[0] = 0;
    if (!out) return EDAN_ERR_INVALID_ARG;
    *out = NULL;
    if (!text && len) return EDAN_ERR_INVALID_ARG;
    memset(&p, 0, sizeof p);
    p.s = text ? text : "";
    p.end = p.s + len;
    p.line = 1;
    if (alloc) p.a = *alloc;
    p.err = err;
    p.errlen = errlen;
    p.rc = EDAN_OK;
    /* a UTF-8 byte order mark is tolerated */
    if (len >= 3 && !memcmp(p.s, "\xEF\xBB\xBF", 3)) p.s += 3;
    v = edan__jp_value(&p, 0);
    if (!v) return p.rc != EDAN_OK ? p.rc : EDAN_ERR_PARSE;
    edan__jp_ws(&p);
    if (p.s < p.end) {
        edan__json_free_node(v);
        return edan__jp_fail(&p, EDAN_ERR_PARSE, "text after the end of the JSON value");
    }
    *out = v;
    return EDAN_OK;
}

void edan_json_free(edan_json *root) { edan__json_free_node(root); }

edan_json_type edan_json_kind(const edan_json *v) { return v ? v->type : EDAN_JSON_NULL; }

const edan_json *edan_json_get(const edan_json *obj, const char *key)
{
    size_t i;
    if (!obj || obj->type != EDAN_JSON_OBJECT || !key) return NULL;
    for (i = 0; i < obj->n; i++)
        if (!strcmp(obj->keys[i], key)) return obj->items[i];
    return NULL;
}

const edan_json *edan_json_at(const edan_json *arr, size_t i)
{
    if (!arr || (arr->type != EDAN_JSON_ARRAY && arr->type != EDAN_JSON_OBJECT) || i >= arr->n) return NULL;
    return arr->items[i];
}

size_t edan_json_len(const edan_json *v)
{
    return v && (v->type == EDAN_JSON_ARRAY || v->type == EDAN_JSON_OBJECT) ? v->n : 0;
}

const char *edan_json_key_at(const edan_json *obj, size_t i)
{
    if (!obj || obj->type != EDAN_JSON_OBJECT || i >= obj->n) return NULL;
    return obj->keys[i];
}

const edan_json *edan_json_value_at(const edan_json *obj, size_t i)
{
    if (!obj || obj->type != EDAN_JSON_OBJECT || i >= obj->n) return NULL;
    return obj->items[i];
}

double edan_json_number(const edan_json *v, double dflt)
{
    return v && v->type == EDAN_JSON_NUMBER ? v->num : dflt;
}

const char *edan_json_string(const edan_json *v, const char *dflt)
{
    return v && v->type == EDAN_JSON_STRING ? v->str : dflt;
}

int edan_json_bool(const edan_json *v, int dflt)
{
    return v && v->type == EDAN_JSON_BOOL ? v->num != 0 : dflt;
}

unsigned long edan_json_line(const edan_json *v) { return v ? v->line : 0; }

/* ---- hardware profiles: implementation ---- */
/* The profile being read: its name, and where a message about it goes. */
typedef struct edan__prof_file {
    const char *name;
    char *err;
    size_t errlen;
} edan__prof_file;

static edan_result edan__prof_fail(edan__prof_file *c, edan_result rc, const edan_json *at, const char *fmt, ...)
{
    va_list ap;
    char msg[200];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->err && c->errlen) snprintf(c->err, c->errlen, "%s:%lu: %s", c->name, edan_json_line(at), msg);
    return rc;
}

/* A required member of kind `kind` (EDAN_JSON_NULL = any); NULL after an error. */
static const edan_json *edan__prof_need(edan__prof_file *c, const edan_json *obj, const char *key,
                                        edan_json_type kind, const char *where, edan_result *rc)
{
    static const char *const kinds[] = {"null", "true or false", "a number", "a string", "an array", "an object"};
    const edan_json *v = edan_json_get(obj, key);
    if (*rc != EDAN_OK) return NULL;
    if (!v) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, obj, "%s has no \"%s\"", where, key);
        return NULL;
    }
    if (kind != EDAN_JSON_NULL && edan_json_kind(v) != kind) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, v, "\"%s\" in %s must be %s", key, where, kinds[kind]);
        return NULL;
    }
    return v;
}

/* The number v (named key in where) if it lies in [lo, hi] and, for
   `integer`, has no fraction; else 0 and *rc set: every number is checked
   before it becomes an integer or a loop bound. */
static double edan__prof_range(edan__prof_file *c, const edan_json *v, const char *key, const char *where,
                               double lo, double hi, int integer, edan_result *rc)
{
    double x;
    if (edan_json_kind(v) != EDAN_JSON_NUMBER) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, v, "\"%s\" in %s must be a number", key, where);
        return 0;
    }
    x = edan_json_number(v, 0);
    if (!(x >= lo && x <= hi)) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, v, "\"%s\" in %s is %g, out of range (%.15g to %.15g)", key, where, x, lo,
                            hi);
        return 0;
    }
    if (integer && x != (double)(uint64_t)x) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, v, "\"%s\" in %s is %g, must be an integer", key, where, x);
        return 0;
    }
    return x;
}

/* A number that must be there (edan__prof_range). */
static double edan__prof_num(edan__prof_file *c, const edan_json *obj, const char *key, const char *where, double lo,
                           double hi, int integer, edan_result *rc)
{
    const edan_json *v = edan__prof_need(c, obj, key, EDAN_JSON_NUMBER, where, rc);
    return v ? edan__prof_range(c, v, key, where, lo, hi, integer, rc) : 0;
}

/* A number that may be missing (then dflt). */
static double edan__prof_opt(edan__prof_file *c, const edan_json *obj, const char *key, const char *where, double dflt,
                           double lo, double hi, int integer, edan_result *rc)
{
    const edan_json *v = edan_json_get(obj, key);
    return v ? edan__prof_range(c, v, key, where, lo, hi, integer, rc) : dflt;
}

/* Ranges of the profile's numbers: far beyond any machine, small enough
   that no conversion or loop over them can overflow. */
#define EDAN__PROF_MAX_BYTES 17592186044416.0     /* 2^44: a cache or a transfer */
#define EDAN__PROF_MAX_COUNT 1048576.0            /* cores, threads, ways, m */
#define EDAN__PROF_MAX_CYCLES 1e9                 /* a latency in cycles (alpha is 32 bits) */
#define EDAN__PROF_MAX_NS 1e9
#define EDAN__PROF_MAX_RATE 1e9                   /* GB/s, GFLOP/s, GHz, percent */

static void edan__prof_str(edan__prof_file *c, const edan_json *obj, const char *key, const char *where, char *dst,
                         size_t n, edan_result *rc)
{
    const edan_json *v = edan__prof_need(c, obj, key, EDAN_JSON_STRING, where, rc);
    const char *s;
    if (!v) return;
    s = edan_json_string(v, "");
    if (strlen(s) >= n) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, v, "\"%s\" in %s is too long: \"%.20s...\"", key, where, s);
        return;
    }
    strcpy(dst, s);
}

static int edan__prof_level_ok(const char *s)
{
    return !strcmp(s, "L1") || !strcmp(s, "L2") || !strcmp(s, "L3") || !strcmp(s, "L4") || !strcmp(s, "DRAM");
}

/* {"median","min","max"} with min <= median <= max */
static void edan__prof_stats(edan__prof_file *c, const edan_json *obj, const char *key, const char *where,
                           double *med, double *mn, double *mx, edan_result *rc)
{
    const edan_json *s = edan__prof_need(c, obj, key, EDAN_JSON_OBJECT, where, rc);
    if (!s) return;
    *med = edan__prof_num(c, s, "median", where, 0, EDAN__PROF_MAX_RATE, 0, rc);
    *mn = edan__prof_num(c, s, "min", where, 0, EDAN__PROF_MAX_RATE, 0, rc);
    *mx = edan__prof_num(c, s, "max", where, 0, EDAN__PROF_MAX_RATE, 0, rc);
    if (*rc == EDAN_OK && !(*mn <= *med && *med <= *mx))
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, s, "\"%s\" in %s: min %g <= median %g <= max %g does not hold", key,
                            where, *mn, *med, *mx);
}

/* A number that may be missing or (nullable) null, checked as edan__prof_range. */
static void edan__prof_check(edan__prof_file *c, const edan_json *obj, const char *key, const char *where, double lo,
                           double hi, int integer, int nullable, edan_result *rc)
{
    const edan_json *v = edan_json_get(obj, key);
    if (*rc != EDAN_OK || !v || (nullable && edan_json_kind(v) == EDAN_JSON_NULL)) return;
    (void)edan__prof_range(c, v, key, where, lo, hi, integer, rc);
}

/* Statistics that may be partial, as probe --numa and the reference
   profiles write them: missing, null, a number, or {"median", "min", "max"}
   of numbers or nulls, each in [0, hi]. */
static void edan__prof_stats_opt(edan__prof_file *c, const edan_json *obj, const char *key, const char *where,
                                 double hi, edan_result *rc)
{
    static const char *const part[3] = {"median", "min", "max"};
    const edan_json *v = edan_json_get(obj, key);
    char sub[96];
    int k;
    if (*rc != EDAN_OK || !v || edan_json_kind(v) == EDAN_JSON_NULL) return;
    if (edan_json_kind(v) != EDAN_JSON_OBJECT) {
        (void)edan__prof_range(c, v, key, where, 0, hi, 0, rc);
        return;
    }
    snprintf(sub, sizeof sub, "%s.%s", where, key);
    for (k = 0; k < 3; k++) edan__prof_check(c, v, part[k], sub, 0, hi, 0, 1, rc);
}

/* The list `key` of the numa section: missing, or an array of objects. */
static const edan_json *edan__prof_numa_list(edan__prof_file *c, const edan_json *numa, const char *key,
                                             edan_result *rc)
{
    const edan_json *l = edan_json_get(numa, key);
    size_t i;
    if (*rc != EDAN_OK || !l) return NULL;
    if (edan_json_kind(l) != EDAN_JSON_ARRAY) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, l, "\"%s\" in \"numa\" must be an array", key);
        return NULL;
    }
    for (i = 0; i < edan_json_len(l); i++)
        if (edan_json_kind(edan_json_at(l, i)) != EDAN_JSON_OBJECT) {
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, edan_json_at(l, i), "\"numa\".%s[%u] must be an object", key,
                                (unsigned)i);
            return NULL;
        }
    return l;
}

/* A fitted theta (the share of a transfer's time not overlapped) beyond
   this fits no measurement. */
#define EDAN__PROF_MAX_THETA 1e6

/* A number of an entry of a numa list, and what it may be. */
typedef enum edan__prof_kind { EDAN__PROF_INT, EDAN__PROF_INT_OR_NULL, EDAN__PROF_STATS } edan__prof_kind;
typedef struct edan__prof_field {
    const char *key;
    double lo, hi;
    edan__prof_kind kind;
} edan__prof_field;

/* The "numa" section (probe --numa, the reference profiles): the numbers
   its readers take (clusters, nodes and threads become integers; roofs,
   latencies and the hybrid model are drawn and computed with) in range. */
static void edan__prof_numa(edan__prof_file *c, const edan_json *root, edan_result *rc)
{
#define EDAN__PROF_CLUSTER {"cluster", 0, EDAN__PROF_MAX_COUNT, EDAN__PROF_INT}
#define EDAN__PROF_THREADS(key) {key, 1, EDAN__PROF_MAX_COUNT, EDAN__PROF_INT}
#define EDAN__PROF_NODE(key, kind) {key, 0, EDAN__PROF_MAX_COUNT, kind}
#define EDAN__PROF_END {NULL, 0, 0, EDAN__PROF_INT}
    static const edan__prof_field clusters[] = {EDAN__PROF_CLUSTER, EDAN__PROF_THREADS("threads"), EDAN__PROF_END};
    static const edan__prof_field roofs[] = {
        EDAN__PROF_CLUSTER, EDAN__PROF_NODE("node", EDAN__PROF_INT_OR_NULL), EDAN__PROF_THREADS("threads"),
        EDAN__PROF_THREADS("threads_total"), {"GBps", 0, EDAN__PROF_MAX_RATE, EDAN__PROF_STATS}, EDAN__PROF_END};
    static const edan__prof_field latency[] = {
        EDAN__PROF_CLUSTER, EDAN__PROF_NODE("node", EDAN__PROF_INT), {"ns", 0, EDAN__PROF_MAX_NS, EDAN__PROF_STATS},
        {"cycles", 0, EDAN__PROF_MAX_CYCLES, EDAN__PROF_STATS}, EDAN__PROF_END};
    static const edan__prof_field hybrid[] = {
        EDAN__PROF_CLUSTER, EDAN__PROF_NODE("fast_node", EDAN__PROF_INT_OR_NULL),
        EDAN__PROF_NODE("slow_node", EDAN__PROF_INT_OR_NULL), EDAN__PROF_THREADS("threads"), EDAN__PROF_END};
#undef EDAN__PROF_CLUSTER
#undef EDAN__PROF_THREADS
#undef EDAN__PROF_NODE
#undef EDAN__PROF_END
    static const struct { const char *name; const edan__prof_field *fields; } lists[4] = {
        {"clusters", clusters}, {"roofs", roofs}, {"latency", latency}, {"hybrid", hybrid}};
    static const char *const tname[4] = {"lf", "ls", "sf", "ss"};
    const edan_json *numa = edan_json_get(root, "numa"), *l;
    char where[64];
    size_t i;
    int n, d, k;
    if (*rc != EDAN_OK || !numa) return;
    if (edan_json_kind(numa) != EDAN_JSON_OBJECT) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, numa, "\"numa\" must be an object");
        return;
    }
    for (n = 0; n < 4; n++) {
        l = edan__prof_numa_list(c, numa, lists[n].name, rc);
        for (i = 0; *rc == EDAN_OK && i < edan_json_len(l); i++) {
            const edan_json *e = edan_json_at(l, i);
            const edan__prof_field *f;
            snprintf(where, sizeof where, "\"numa\".%s[%u]", lists[n].name, (unsigned)i);
            for (f = lists[n].fields; f->key; f++)
                if (f->kind == EDAN__PROF_STATS) edan__prof_stats_opt(c, e, f->key, where, f->hi, rc);
                else edan__prof_check(c, e, f->key, where, f->lo, f->hi, 1, f->kind == EDAN__PROF_INT_OR_NULL, rc);
        }
    }
    /* the hybrid models: bandwidths and thetas, null where unknown */
    l = edan_json_get(numa, "hybrid");
    for (i = 0; *rc == EDAN_OK && i < edan_json_len(l); i++) {
        const edan_json *e = edan_json_at(l, i), *theta = edan_json_get(e, "theta");
        snprintf(where, sizeof where, "\"numa\".hybrid[%u].bandwidth_GBps", (unsigned)i);
        for (d = 0; d < 4; d++)
            edan__prof_check(c, edan_json_get(e, "bandwidth_GBps"), tname[d], where, 0, EDAN__PROF_MAX_RATE, 0, 1, rc);
        for (d = 0; d < 4; d++) {
            snprintf(where, sizeof where, "\"numa\".hybrid[%u].theta.%s", (unsigned)i, tname[d]);
            for (k = 0; k < 4; k++)
                edan__prof_check(c, edan_json_get(theta, tname[d]), tname[k], where, -EDAN__PROF_MAX_THETA,
                               EDAN__PROF_MAX_THETA, 0, 1, rc);
        }
    }
}

edan_result edan_profile_check_numa(const edan_json *profile, const char *name, char *err, size_t errlen)
{
    edan__prof_file c;
    edan_result rc = EDAN_OK;
    if (err && errlen) err[0] = 0;
    c.name = name ? name : "profile";
    c.err = err;
    c.errlen = errlen;
    edan__prof_numa(&c, profile, &rc);
    return rc;
}

static void *edan__prof_array(const edan_allocator *a, size_t n, size_t esz, edan_result *rc)
{
    void *p;
    if (*rc != EDAN_OK) return NULL;
    p = edan__calloc(a, n * esz);
    if (!p) *rc = EDAN_ERR_NOMEM;
    return p;
}

/* "schema" first, so that a foreign or newer file says so rather than
   "field missing"; then "version" */
static edan_result edan__prof_version(edan__prof_file *c, const edan_json *root, int *version)
{
    const edan_json *v = edan_json_get(root, "schema");
    int n;
    if (!v || strcmp(edan_json_string(v, ""), EDAN_PROFILE_SCHEMA) != 0)
        return v ? edan__prof_fail(c, EDAN_ERR_VERSION, v, "\"schema\" is not \"%s\": not a hardware profile",
                                 EDAN_PROFILE_SCHEMA)
                 : edan__prof_fail(c, EDAN_ERR_VERSION, root, "no \"schema\": \"%s\": not a hardware profile",
                                 EDAN_PROFILE_SCHEMA);
    v = edan_json_get(root, "version");
    if (!v)
        return edan__prof_fail(c, EDAN_ERR_VERSION, root, "no \"version\" (this edan.h reads version 1 to %d)",
                             EDAN_PROFILE_VERSION);
    if (edan_json_kind(v) != EDAN_JSON_NUMBER)
        return edan__prof_fail(c, EDAN_ERR_VERSION, v, "\"version\" must be an integer");
    if (!(edan_json_number(v, 0) >= 1 && edan_json_number(v, 0) <= EDAN_PROFILE_VERSION))
        return edan__prof_fail(c, EDAN_ERR_VERSION, v, "unsupported profile version %g (this edan.h reads version 1 to %d)",
                             edan_json_number(v, 0), EDAN_PROFILE_VERSION);
    n = (int)edan_json_number(v, 0);     /* in range: the conversion is defined */
    if ((double)n != edan_json_number(v, 0))
        return edan__prof_fail(c, EDAN_ERR_VERSION, v, "\"version\" must be an integer");
    if (version) *version = n;
    return EDAN_OK;
}

edan_result edan_profile_check_version(const edan_json *profile, const char *name, int *version,
                                       char *err, size_t errlen)
{
    edan__prof_file c;
    if (err && errlen) err[0] = 0;
    c.name = name ? name : "profile";
    c.err = err;
    c.errlen = errlen;
    return edan__prof_version(&c, profile, version);
}

/* The profile's identity: its schema and version, and that it is not a
   reference profile. */
static edan_result edan__prof_identity(edan__prof_file *c, const edan_json *root, edan_profile *p)
{
    edan_result rc = edan__prof_version(c, root, &p->version);
    if (rc != EDAN_OK) return rc;
    if (edan_json_bool(edan_json_get(root, "reference"), 0))
        return edan__prof_fail(c, EDAN_ERR_PARSE, edan_json_get(root, "reference"),
                             "a reference profile (roofs transcribed from a paper): it has no caches, latencies or clock "
                             "for an analysis; edan roofline draws it");
    return EDAN_OK;
}

/* "frequency" (the core clock must be positive) and "topology". */
static void edan__prof_clock(edan__prof_file *c, const edan_json *root, edan_profile *p, edan_result *rc)
{
    const edan_json *v = edan__prof_need(c, root, "frequency", EDAN_JSON_OBJECT, "the profile", rc);
    if (v) {
        double mn = 0, mx = 0;
        edan__prof_stats(c, v, "core_ghz", "\"frequency\"", &p->core_ghz, &mn, &mx, rc);
        if (*rc == EDAN_OK && !(p->core_ghz > 0))
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, v, "\"core_ghz\" must be positive");
        p->tsc_ghz = edan__prof_opt(c, v, "tsc_ghz", "\"frequency\"", 0, 0, EDAN__PROF_MAX_RATE, 0, rc);
    }
    v = edan_json_get(root, "topology");
    p->cores = (uint32_t)edan__prof_opt(c, v, "cores", "\"topology\"", 1, 1, EDAN__PROF_MAX_COUNT, 1, rc);
}

/* "caches": at most EDAN_MAX_LEVELS, with lines of a power of two. */
static void edan__prof_caches(edan__prof_file *c, const edan_json *root, edan_profile *p, edan_result *rc)
{
    const edan_json *arr = edan__prof_need(c, root, "caches", EDAN_JSON_ARRAY, "the profile", rc);
    char where[64];
    size_t i;
    for (i = 0; *rc == EDAN_OK && i < edan_json_len(arr); i++) {
        edan_profile_cache *k;
        const edan_json *e = edan_json_at(arr, i);
        snprintf(where, sizeof where, "\"caches\"[%u]", (unsigned)i);
        if (edan_json_kind(e) != EDAN_JSON_OBJECT) {
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, e, "%s must be an object", where);
            break;
        }
        if (p->num_caches == EDAN_MAX_LEVELS) {
            *rc = edan__prof_fail(c, EDAN_ERR_LIMIT, e, "more than %d cache levels", EDAN_MAX_LEVELS);
            break;
        }
        k = &p->cache[p->num_caches++];
        edan__prof_str(c, e, "level", where, k->level, sizeof k->level, rc);
        k->size = (uint64_t)edan__prof_num(c, e, "size_bytes", where, 1, EDAN__PROF_MAX_BYTES, 1, rc);
        k->line = (uint32_t)edan__prof_num(c, e, "line_bytes", where, 1, 4096, 1, rc);
        k->assoc = (uint32_t)edan__prof_num(c, e, "assoc", where, 0, EDAN__PROF_MAX_COUNT, 1, rc);
        k->effective_size =
            (uint64_t)edan__prof_opt(c, e, "effective_bytes", where, (double)k->size, 1, EDAN__PROF_MAX_BYTES, 1, rc);
        k->sharing = (uint32_t)edan__prof_opt(c, e, "effective_sharing_cores", where,
                                              edan__prof_opt(c, e, "sharing_cores", where, 1, 1, EDAN__PROF_MAX_COUNT,
                                                             1, rc),
                                              1, EDAN__PROF_MAX_COUNT, 1, rc);
        k->latency_ns = edan__prof_num(c, e, "latency_ns", where, 0, EDAN__PROF_MAX_NS, 0, rc);
        k->latency_cycles = edan__prof_num(c, e, "latency_cycles", where, 0, EDAN__PROF_MAX_CYCLES, 0, rc);
        if (*rc == EDAN_OK && (k->line & (k->line - 1)))
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, edan_json_get(e, "line_bytes"),
                                "%s: line size %u is not a power of two", where, (unsigned)k->line);
    }
}

/* "bandwidth": a level the analyzer knows, an op, a thread count, GB/s. */
static void edan__prof_bandwidths(edan__prof_file *c, const edan_json *root, edan_profile *p, edan_result *rc)
{
    const edan_json *arr = edan__prof_need(c, root, "bandwidth", EDAN_JSON_ARRAY, "the profile", rc);
    char where[64];
    size_t i;
    p->num_bandwidth = edan_json_len(arr);
    p->bandwidth = (edan_profile_bandwidth *)edan__prof_array(&p->alloc, p->num_bandwidth, sizeof *p->bandwidth, rc);
    for (i = 0; *rc == EDAN_OK && i < p->num_bandwidth; i++) {
        edan_profile_bandwidth *b = &p->bandwidth[i];
        const edan_json *e = edan_json_at(arr, i);
        snprintf(where, sizeof where, "\"bandwidth\"[%u]", (unsigned)i);
        if (edan_json_kind(e) != EDAN_JSON_OBJECT) {
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, e, "%s must be an object", where);
            break;
        }
        edan__prof_str(c, e, "level", where, b->level, sizeof b->level, rc);
        if (*rc == EDAN_OK && !edan__prof_level_ok(b->level))
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, edan_json_get(e, "level"), "%s: unknown level \"%s\"", where,
                                b->level);
        edan__prof_str(c, e, "op", where, b->op, sizeof b->op, rc);
        b->threads = (uint32_t)edan__prof_num(c, e, "threads", where, 1, EDAN__PROF_MAX_COUNT, 1, rc);
        b->bytes = (uint64_t)edan__prof_num(c, e, "bytes", where, 0, EDAN__PROF_MAX_BYTES, 1, rc);
        edan__prof_stats(c, e, "GBps", where, &b->median, &b->min, &b->max, rc);
    }
}

/* "latency": DRAM's, which must be there and positive, is alpha. */
static void edan__prof_latencies(edan__prof_file *c, const edan_json *root, edan_profile *p, edan_result *rc)
{
    const edan_json *arr = edan__prof_need(c, root, "latency", EDAN_JSON_ARRAY, "the profile", rc);
    char where[64];
    size_t i;
    p->num_latency = edan_json_len(arr);
    p->latency = (edan_profile_latency *)edan__prof_array(&p->alloc, p->num_latency, sizeof *p->latency, rc);
    for (i = 0; *rc == EDAN_OK && i < p->num_latency; i++) {
        edan_profile_latency *l = &p->latency[i];
        const edan_json *e = edan_json_at(arr, i);
        snprintf(where, sizeof where, "\"latency\"[%u]", (unsigned)i);
        if (edan_json_kind(e) != EDAN_JSON_OBJECT) {
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, e, "%s must be an object", where);
            break;
        }
        edan__prof_str(c, e, "level", where, l->level, sizeof l->level, rc);
        l->ns = edan__prof_num(c, e, "ns", where, 0, EDAN__PROF_MAX_NS, 0, rc);
        l->cycles = edan__prof_num(c, e, "cycles", where, 0, EDAN__PROF_MAX_CYCLES, 0, rc);
        l->bytes = (uint64_t)edan__prof_opt(c, e, "bytes", where, 0, 0, EDAN__PROF_MAX_BYTES, 1, rc);
        if (*rc == EDAN_OK && !strcmp(l->level, "DRAM")) {
            p->dram_latency_ns = l->ns;
            p->dram_latency_cycles = l->cycles;
        }
    }
    if (*rc == EDAN_OK && !(p->dram_latency_cycles > 0))
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, arr, "\"latency\" has no positive DRAM entry (the analyzer's alpha)");
}

/* "compute" (optional): the best single-core and all-core GFLOP/s. */
static void edan__prof_compute(edan__prof_file *c, const edan_json *root, edan_profile *p, edan_result *rc)
{
    const edan_json *arr = edan_json_get(root, "compute");
    char where[64];
    size_t i;
    p->num_compute = edan_json_len(arr);
    p->compute = (edan_profile_compute *)edan__prof_array(&p->alloc, p->num_compute ? p->num_compute : 1,
                                                        sizeof *p->compute, rc);
    for (i = 0; *rc == EDAN_OK && i < p->num_compute; i++) {
        edan_profile_compute *k = &p->compute[i];
        const edan_json *e = edan_json_at(arr, i);
        snprintf(where, sizeof where, "\"compute\"[%u]", (unsigned)i);
        edan__prof_str(c, e, "isa", where, k->isa, sizeof k->isa, rc);
        edan__prof_str(c, e, "op", where, k->op, sizeof k->op, rc);
        k->threads = (uint32_t)edan__prof_num(c, e, "threads", where, 1, EDAN__PROF_MAX_COUNT, 1, rc);
        edan__prof_stats(c, e, "GFLOPs", where, &k->median, &k->min, &k->max, rc);
        if (k->threads == 1 && k->median > p->peak_GFLOPs_1core) p->peak_GFLOPs_1core = k->median;
        if (k->threads == p->cores && k->median > p->peak_GFLOPs_all) p->peak_GFLOPs_all = k->median;
    }
}

/* "checks" (optional: profiles before it have none): an object whose
   "results" are objects each with "passed" true or false; counted. The
   figures that stayed unstable are counted from "stability". */
static void edan__prof_checks(edan__prof_file *c, const edan_json *root, edan_profile *p, edan_result *rc)
{
    const edan_json *v = edan_json_get(root, "checks"), *arr;
    size_t i;
    p->unstable_figures = (uint32_t)edan_json_len(edan_json_get(edan_json_get(root, "stability"), "unstable"));
    if (!v || *rc != EDAN_OK) return;
    if (edan_json_kind(v) != EDAN_JSON_OBJECT) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, v, "\"checks\" must be an object");
        return;
    }
    arr = edan_json_get(v, "results");
    if (arr && edan_json_kind(arr) != EDAN_JSON_ARRAY) {
        *rc = edan__prof_fail(c, EDAN_ERR_PARSE, arr, "\"checks\".\"results\" must be an array");
        return;
    }
    for (i = 0; i < edan_json_len(arr); i++) {
        const edan_json *e = edan_json_at(arr, i), *ok = edan_json_get(e, "passed");
        if (edan_json_kind(ok) != EDAN_JSON_BOOL) {
            *rc = edan__prof_fail(c, EDAN_ERR_PARSE, ok ? ok : e, "\"checks\".\"results\"[%u] needs \"passed\": true or false",
                                (unsigned)i);
            return;
        }
        p->num_checks++;
        p->checks_failed += !edan_json_bool(ok, 0);
    }
}

/* "carm_validation" (optional). */
static void edan__prof_carm(edan__prof_file *c, const edan_json *root, edan_profile *p, edan_result *rc)
{
    const edan_json *arr = edan_json_get(root, "carm_validation");
    char where[64];
    size_t i;
    p->num_carm = edan_json_len(arr);
    p->carm = (edan_profile_carm *)edan__prof_array(&p->alloc, p->num_carm ? p->num_carm : 1, sizeof *p->carm, rc);
    for (i = 0; *rc == EDAN_OK && i < p->num_carm; i++) {
        edan_profile_carm *k = &p->carm[i];
        const edan_json *e = edan_json_at(arr, i);
        snprintf(where, sizeof where, "\"carm_validation\"[%u]", (unsigned)i);
        edan__prof_str(c, e, "level", where, k->level, sizeof k->level, rc);
        k->roof_GBps = edan__prof_num(c, e, "roof_GBps", where, 0, EDAN__PROF_MAX_RATE, 0, rc);
        k->peak_GFLOPs = edan__prof_num(c, e, "peak_GFLOPs", where, 0, EDAN__PROF_MAX_RATE, 0, rc);
        k->rms_error_pct = edan__prof_num(c, e, "rms_error_pct", where, 0, EDAN__PROF_MAX_RATE, 0, rc);
    }
}

edan_result edan_profile_parse(const char *text, size_t len, const char *name, const edan_allocator *alloc,
                               edan_profile **out, char *err, size_t errlen)
{
    edan__prof_file c;
    edan_allocator a;
    edan_profile *p;
    edan_json *root = NULL;
    const edan_json *v;
    edan_result rc;
    char jerr[160];

    if (err && errlen) err[0] = 0;
    if (!out) return EDAN_ERR_INVALID_ARG;
    *out = NULL;
    memset(&a, 0, sizeof a);
    if (alloc) a = *alloc;
    c.name = name ? name : "profile";
    c.err = err;
    c.errlen = errlen;
    rc = edan_json_parse(text, len, &a, &root, jerr, sizeof jerr);
    if (rc != EDAN_OK) {
        if (err && errlen) {
            unsigned long line = 0;
            const char *msg = jerr;
            if (sscanf(jerr, "line %lu: ", &line) == 1 && strchr(jerr, ':')) msg = strchr(jerr, ':') + 2;
            snprintf(err, errlen, "%s:%lu: %s", c.name, line, msg);
        }
        return rc;
    }
    if (edan_json_kind(root) != EDAN_JSON_OBJECT) {
        rc = edan__prof_fail(&c, EDAN_ERR_PARSE, root, "a profile is a JSON object");
        edan_json_free(root);
        return rc;
    }
    p = (edan_profile *)edan__calloc(&a, sizeof *p);
    if (!p) { edan_json_free(root); return EDAN_ERR_NOMEM; }
    p->json = root;
    p->alloc = a;

    rc = edan__prof_identity(&c, root, p);
    if (rc != EDAN_OK) goto fail;
    snprintf(p->host, sizeof p->host, "%s", edan_json_string(edan_json_get(root, "host"), ""));
    edan__prof_clock(&c, root, p, &rc);
    edan__prof_caches(&c, root, p, &rc);
    edan__prof_bandwidths(&c, root, p, &rc);
    edan__prof_latencies(&c, root, p, &rc);
    v = edan__prof_need(&c, root, "mlp", EDAN_JSON_OBJECT, "the profile", &rc);
    if (v) p->mlp_m = (uint32_t)edan__prof_num(&c, v, "m", "\"mlp\"", 1, EDAN__PROF_MAX_COUNT, 1, &rc);
    v = edan_json_get(root, "window");    /* optional: profiles before it have none */
    if (v && rc == EDAN_OK && !edan_json_bool(edan_json_get(v, "skipped"), 0)) {
        p->window_rob = (uint32_t)edan__prof_num(&c, v, "rob", "\"window\"", 1, EDAN_WINDOW_MAX, 1, &rc);
        p->window_lq = (uint32_t)edan__prof_num(&c, v, "lq", "\"window\"", 1, EDAN_WINDOW_MAX, 1, &rc);
        p->window_sq = (uint32_t)edan__prof_num(&c, v, "sq", "\"window\"", 1, EDAN_WINDOW_MAX, 1, &rc);
        p->window_width = (uint32_t)edan__prof_opt(&c, v, "width", "\"window\"", 0, 1, EDAN_WINDOW_MAX, 1, &rc);
    }
    edan__prof_compute(&c, root, p, &rc);
    edan__prof_carm(&c, root, p, &rc);
    edan__prof_checks(&c, root, p, &rc);
    if (rc == EDAN_OK) edan__prof_numa(&c, root, &rc);
    v = edan_json_get(root, "bandwidth_method");
    p->write_allocate_counted = edan_json_bool(edan_json_get(v, "write_allocate_counted"), 0);
    p->counters_available = edan_json_bool(edan_json_get(edan_json_get(root, "counters"), "available"), 0);
    if (rc != EDAN_OK) goto fail;
    *out = p;
    return EDAN_OK;
fail:
    if (rc == EDAN_ERR_NOMEM && err && errlen) snprintf(err, errlen, "%s: out of memory", c.name);
    edan_profile_free(p);
    return rc;
}

edan_result edan_read_stream(FILE *f, size_t max, const edan_allocator *alloc, char **out, size_t *len)
{
    edan_allocator a;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    memset(&a, 0, sizeof a);
    if (alloc) a = *alloc;
    *out = NULL;
    *len = 0;
    for (;;) {
        size_t got;
        if (cap - n < 2) {      /* room for a byte more than max, and the NUL */
            size_t nc = cap ? cap * 2 : 65536;
            char *nb;
            if (cap > max) {
                edan__free(&a, buf);
                return EDAN_ERR_LIMIT;
            }
            if (max < (size_t)-3 && nc > max + 2 && cap < max + 2) nc = max + 2;
            nb = (char *)edan__realloc(&a, buf, nc);
            if (!nb) {
                edan__free(&a, buf);
                return EDAN_ERR_NOMEM;
            }
            buf = nb;
            cap = nc;
        }
        got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f) || n > max) {
        edan__free(&a, buf);
        return ferror(f) ? EDAN_ERR_IO : EDAN_ERR_LIMIT;
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return EDAN_OK;
}

edan_result edan_profile_load(const char *path, const edan_allocator *alloc, edan_profile **out, char *err,
                              size_t errlen)
{
    FILE *f;
    char *buf = NULL;
    size_t n = 0;
    edan_allocator a;
    edan_result rc;
    if (err && errlen) err[0] = 0;
    if (!out || !path) return EDAN_ERR_INVALID_ARG;
    *out = NULL;
    memset(&a, 0, sizeof a);
    if (alloc) a = *alloc;
    f = fopen(path, "rb");
    if (!f) {
        if (err && errlen) snprintf(err, errlen, "%s:0: cannot open the file", path);
        return EDAN_ERR_IO;
    }
    rc = edan_read_stream(f, (size_t)256 << 20, &a, &buf, &n);     /* profiles are kilobytes: refuse runaway input */
    fclose(f);
    if (rc != EDAN_OK) {
        if (err && errlen)
            snprintf(err, errlen, "%s:0: %s", path,
                     rc == EDAN_ERR_LIMIT ? "larger than 256 MiB, not a profile"
                     : rc == EDAN_ERR_NOMEM ? "out of memory" : "read error");
        return rc;
    }
    rc = edan_profile_parse(buf, n, path, &a, out, err, errlen);
    edan__free(&a, buf);
    return rc;
}

void edan_profile_free(edan_profile *p)
{
    edan_allocator a;
    if (!p) return;
    a = p->alloc;
    edan_json_free(p->json);
    edan__free(&a, p->bandwidth);
    edan__free(&a, p->latency);
    edan__free(&a, p->compute);
    edan__free(&a, p->carm);
    edan__free(&a, p);
}

edan_result edan_profile_to_config(const edan_profile *p, edan_config *cfg)
{
    uint32_t i;
    if (!p || !cfg) return EDAN_ERR_INVALID_ARG;
    cfg->num_levels = 0;
    for (i = 0; i < p->num_caches && i < EDAN_MAX_LEVELS; i++) {
        const edan_profile_cache *k = &p->cache[i];
        edan_cache_level *L = &cfg->level[cfg->num_levels];
        uint64_t size = k->effective_size ? k->effective_size : k->size, way, sets = 1;
        uint32_t assoc = k->assoc;
        if (!k->line || size < k->line) continue;
        /* an associativity the machine does not report (0, as VMs often
           say for the last level) is modelled as 16 ways: a fully
           associative LRU of that many lines would cost a scan per access */
        if (!assoc) assoc = 16;
        if ((uint64_t)assoc * k->line > size) assoc = (uint32_t)(size / k->line);
        way = (uint64_t)assoc * k->line;
        while (way * sets * 2 <= size) sets *= 2;       /* 2^k sets, as caches mostly have */
        L->size = way * sets;
        L->assoc = assoc;
        L->line = k->line;
        L->latency = k->latency_cycles >= 1 ? (uint32_t)(k->latency_cycles + 0.5) : 1;
        cfg->num_levels++;
    }
    cfg->alpha = p->dram_latency_cycles >= 1 ? (uint32_t)(p->dram_latency_cycles + 0.5) : 1;
    cfg->freq_ghz = p->core_ghz;
    if (p->window_rob) {        /* measured: its window; a width not measured is the default */
        cfg->window = p->window_rob;
        cfg->lq = p->window_lq;
        cfg->sq = p->window_sq;
        cfg->width = p->window_width;
    }
    return EDAN_OK;
}

double edan_profile_bandwidth_of(const edan_profile *p, const char *level, const char *op, uint32_t threads)
{
    size_t i;
    if (!p || !level || !op) return 0;
    for (i = 0; i < p->num_bandwidth; i++) {
        const edan_profile_bandwidth *b = &p->bandwidth[i];
        if (b->threads == threads && !strcmp(b->level, level) && !strcmp(b->op, op)) return b->median;
    }
    return 0;
}

double edan_profile_roof(const edan_profile *p, const char *level, uint32_t threads)
{
    size_t i;
    double best = 0;
    if (!p || !level) return 0;
    for (i = 0; i < p->num_bandwidth; i++) {
        const edan_profile_bandwidth *b = &p->bandwidth[i];
        if (b->threads == threads && !strcmp(b->level, level) && b->median > best) best = b->median;
    }
    return best;
}

const edan_json *edan_profile_json(const edan_profile *p) { return p ? p->json : NULL; }

/* ---- hybrid fast/slow memory model: implementation ---- */
#include <math.h>
static int edan__hybrid_finite(double x) { return x == x && x - x == 0; }

edan_result edan_hybrid_times_of(const edan_hybrid_model *m, const double q[EDAN_HYBRID_COUNT],
                                 edan_hybrid_times *out)
{
    int k, d = 0;
    double total = 0;
    if (!m || !q || !out) return EDAN_ERR_INVALID_ARG;
    for (k = 0; k < EDAN_HYBRID_COUNT; k++) {
        if (!edan__hybrid_finite(q[k]) || q[k] < 0) return EDAN_ERR_INVALID_ARG;
        if (q[k] > 0 && !(edan__hybrid_finite(m->bw[k]) && m->bw[k] > 0)) return EDAN_ERR_INVALID_ARG;
        out->t[k] = q[k] > 0 ? q[k] / m->bw[k] : 0;
        total += q[k];
    }
    if (!(total > 0)) return EDAN_ERR_INVALID_ARG;
    out->t_max = 0;
    for (k = 0; k < EDAN_HYBRID_COUNT; k++) {
        out->t_max += out->t[k];
        if (out->t[k] > out->t[d]) d = k;   /* strict: ties go to the first */
    }
    out->dominant = (edan_hybrid_transfer)d;
    out->t_min = out->t[d];
    out->t_fit = out->t[d];
    for (k = 0; k < EDAN_HYBRID_COUNT; k++) {
        if (k == d || out->t[k] == 0) continue;
        if (!edan__hybrid_finite(m->theta[d][k])) return EDAN_ERR_INVALID_ARG;
        out->t_fit += m->theta[d][k] * out->t[k];
    }
    return EDAN_OK;
}

edan_result edan_hybrid_bandwidth(const edan_hybrid_model *m, const double q[EDAN_HYBRID_COUNT],
                                  edan_hybrid_roof *out)
{
    edan_hybrid_times t;
    edan_result r;
    if (!out) return EDAN_ERR_INVALID_ARG;
    r = edan_hybrid_times_of(m, q, &t);
    if (r != EDAN_OK) return r;
    /* a negative theta (the paper's Skylake fit has one) may give t_fit
       below t_min; the roof is reported as fitted, not clamped */
    if (!(t.t_fit > 0)) return EDAN_ERR_INVALID_ARG;
    out->bytes = q[0] + q[1] + q[2] + q[3];
    out->bw_fit = out->bytes / t.t_fit;
    out->bw_upper = out->bytes / t.t_min;
    out->bw_lower = out->bytes / t.t_max;
    return EDAN_OK;
}

edan_result edan_hybrid_error(const edan_hybrid_model *m, size_t n, const double (*q)[EDAN_HYBRID_COUNT],
                              const double *measured_bw, double *error_pct)
{
    size_t i;
    double sum = 0;
    if (!m || !q || !measured_bw || !error_pct || n == 0) return EDAN_ERR_INVALID_ARG;
    for (i = 0; i < n; i++) {
        edan_hybrid_roof roof;
        edan_result r = edan_hybrid_bandwidth(m, q[i], &roof);
        double rel;
        if (r != EDAN_OK) return r;
        if (!edan__hybrid_finite(measured_bw[i])) return EDAN_ERR_INVALID_ARG;
        rel = (measured_bw[i] - roof.bw_fit) / roof.bw_fit;
        sum += rel * rel;
    }
    *error_pct = 100.0 / (double)n * sqrt(sum);
    return EDAN_OK;
}

/* Solves the normal equations a x = r of one dominating transfer over the
   columns in use; a singular system drops its weakest column and retries. */
static void edan__hybrid_solve(double a[3][3], const double r[3], double x[3])
{
    int use[3], k;
    double scale = 0;
    for (k = 0; k < 3; k++) {
        use[k] = a[k][k] > 0;
        if (a[k][k] > scale) scale = a[k][k];
        x[k] = NAN;
    }
    for (;;) {
        double g[3][4];
        int idx[3], na = 0, i, j, q, ok = 1;
        for (k = 0; k < 3; k++)
            if (use[k]) idx[na++] = k;
        if (na == 0) return;
        for (i = 0; i < na; i++) {
            for (j = 0; j < na; j++) g[i][j] = a[idx[i]][idx[j]];
            g[i][na] = r[idx[i]];
        }
        for (i = 0; i < na && ok; i++) {   /* Gauss-Jordan, partial pivoting */
            int p = i;
            for (j = i + 1; j < na; j++)
                if (fabs(g[j][i]) > fabs(g[p][i])) p = j;
            if (fabs(g[p][i]) <= 1e-12 * scale) { ok = 0; break; }
            for (q = 0; q <= na; q++) { double t = g[i][q]; g[i][q] = g[p][q]; g[p][q] = t; }
            for (j = 0; j < na; j++) {
                double f;
                if (j == i) continue;
                f = g[j][i] / g[i][i];
                for (q = i; q <= na; q++) g[j][q] -= f * g[i][q];
            }
        }
        if (ok) {
            for (i = 0; i < na; i++) x[idx[i]] = g[i][na] / g[i][i];
            return;
        }
        {
            int worst = idx[0];
            for (i = 1; i < na; i++)
                if (a[idx[i]][idx[i]] < a[worst][worst]) worst = idx[i];
            use[worst] = 0;
        }
    }
}

edan_result edan_hybrid_fit(edan_hybrid_model *m, size_t n, const double (*q)[EDAN_HYBRID_COUNT],
                            const double *measured_bw)
{
    double a[EDAN_HYBRID_COUNT][3][3], r[EDAN_HYBRID_COUNT][3];
    size_t i;
    int d, k;
    if (!m || !q || !measured_bw || n == 0) return EDAN_ERR_INVALID_ARG;
    memset(a, 0, sizeof a);
    memset(r, 0, sizeof r);
    for (i = 0; i < n; i++) {
        edan_hybrid_times t;
        edan_hybrid_model probe = *m;
        double x[3], y, bytes;
        int c = 0, j;
        /* the times do not depend on theta: evaluate with theta = 0 */
        memset(probe.theta, 0, sizeof probe.theta);
        if (edan_hybrid_times_of(&probe, q[i], &t) != EDAN_OK) return EDAN_ERR_INVALID_ARG;
        if (!edan__hybrid_finite(measured_bw[i]) || !(measured_bw[i] > 0)) return EDAN_ERR_INVALID_ARG;
        bytes = q[i][0] + q[i][1] + q[i][2] + q[i][3];
        d = (int)t.dominant;
        for (k = 0; k < EDAN_HYBRID_COUNT; k++)
            if (k != d) x[c++] = t.t[k];
        y = bytes / measured_bw[i] - t.t[d];
        for (k = 0; k < 3; k++) {
            for (j = 0; j < 3; j++) a[d][k][j] += x[k] * x[j];
            r[d][k] += x[k] * y;
        }
    }
    for (d = 0; d < EDAN_HYBRID_COUNT; d++) {
        double th[3];
        int c = 0;
        edan__hybrid_solve(a[d], r[d], th);
        for (k = 0; k < EDAN_HYBRID_COUNT; k++)
            m->theta[d][k] = k == d ? 0 : th[c++];
    }
    return EDAN_OK;
}

static edan_result edan__hybrid_err(char *err, size_t errlen, edan_result r, const edan_json *at,
                                    const char *fmt, const char *a, const char *b)
{
    if (err && errlen) {
        int k = snprintf(err, errlen, "line %lu: ", edan_json_line(at));
        if (k >= 0 && (size_t)k < errlen) snprintf(err + k, errlen - (size_t)k, fmt, a, b);
    }
    return r;
}

/* A number, or null (stored as `missing`); anything else is an error. */
static int edan__hybrid_number(const edan_json *v, double missing, double *out)
{
    if (edan_json_kind(v) == EDAN_JSON_NULL && v) { *out = missing; return 1; }
    if (edan_json_kind(v) != EDAN_JSON_NUMBER) return 0;
    *out = edan_json_number(v, 0);
    return 1;
}

edan_result edan_hybrid_from_profile(const edan_profile *p, int cluster, edan_hybrid_model *out,
                                     char *err, size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!p) return EDAN_ERR_INVALID_ARG;
    return edan_hybrid_from_json(p->json, cluster, out, err, errlen);
}

edan_result edan_hybrid_from_json(const edan_json *profile, int cluster, edan_hybrid_model *out,
                                  char *err, size_t errlen)
{
    static const char *const name[EDAN_HYBRID_COUNT] = {"lf", "ls", "sf", "ss"};
    const edan_json *numa, *list, *entry = NULL, *bw, *theta;
    size_t i;
    int d, k;
    char num[32];
    if (err && errlen) err[0] = 0;
    if (!profile || !out) return EDAN_ERR_INVALID_ARG;
    numa = edan_json_get(profile, "numa");
    list = edan_json_get(numa, "hybrid");
    if (edan_json_kind(list) != EDAN_JSON_ARRAY)
        return edan__hybrid_err(err, errlen, EDAN_ERR_INVALID_ARG, numa ? numa : profile,
                                "the profile has no numa.hybrid list%s%s", "", "");
    for (i = 0; i < edan_json_len(list) && !entry; i++) {
        const edan_json *e = edan_json_at(list, i);
        if (edan_json_bool(edan_json_get(e, "skipped"), 0)) continue;
        if (cluster < 0 || edan_json_number(edan_json_get(e, "cluster"), -1) == (double)cluster) entry = e;
    }
    snprintf(num, sizeof num, "%d", cluster);
    if (!entry)
        return edan__hybrid_err(err, errlen, EDAN_ERR_INVALID_ARG, list,
                                "numa.hybrid has no model for cluster %s%s", cluster < 0 ? "(any)" : num, "");
    bw = edan_json_get(entry, "bandwidth_GBps");
    theta = edan_json_get(entry, "theta");
    if (edan_json_kind(bw) != EDAN_JSON_OBJECT)
        return edan__hybrid_err(err, errlen, EDAN_ERR_PARSE, entry, "hybrid model without a bandwidth_GBps object%s%s", "", "");
    if (edan_json_kind(theta) != EDAN_JSON_OBJECT)
        return edan__hybrid_err(err, errlen, EDAN_ERR_PARSE, entry, "hybrid model without a theta object%s%s", "", "");
    memset(out, 0, sizeof *out);
    for (d = 0; d < EDAN_HYBRID_COUNT; d++) {
        const edan_json *b = edan_json_get(bw, name[d]);
        if (!edan__hybrid_number(b, 0, &out->bw[d]) || !(out->bw[d] >= 0) || !edan__hybrid_finite(out->bw[d]))
            return edan__hybrid_err(err, errlen, EDAN_ERR_PARSE, b ? b : bw,
                                    "bandwidth_GBps.%s must be a number >= 0 or null%s", name[d], "");
    }
    for (d = 0; d < EDAN_HYBRID_COUNT; d++) {
        const edan_json *row = edan_json_get(theta, name[d]);
        if (edan_json_kind(row) != EDAN_JSON_OBJECT)
            return edan__hybrid_err(err, errlen, EDAN_ERR_PARSE, row ? row : theta,
                                    "theta.%s must be an object%s", name[d], "");
        for (k = 0; k < EDAN_HYBRID_COUNT; k++) {
            const edan_json *v;
            if (k == d) continue;
            v = edan_json_get(row, name[k]);
            if (!edan__hybrid_number(v, NAN, &out->theta[d][k]))
                return edan__hybrid_err(err, errlen, EDAN_ERR_PARSE, v ? v : row,
                                        "theta.%s.%s must be a number or null", name[d], name[k]);
        }
    }
    return EDAN_OK;
}

#endif /* EDAN_NO_PROFILE */

#endif /* EDAN_IMPLEMENTATION_DONE */
#endif /* EDAN_IMPLEMENTATION */

/*
   MIT License

   Copyright (c) 2026 the EDAN authors

   Permission is hereby granted, free of charge, to any person obtaining a copy
   of this software and associated documentation files (the "Software"), to deal
   in the Software without restriction, including without limitation the rights
   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
   copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all
   copies or substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
   SOFTWARE.
*/
