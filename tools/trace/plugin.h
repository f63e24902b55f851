/* tools/trace/plugin.h - what the files of the QEMU plugin behind `edan trace`
   share: its state, the types it is made of, and the functions one file
   calls in another. tools/trace/plugin.c: the entry (arguments, translation,
   sampled windows); tools/trace/plugin_scope.c: symbols, scope, kills, named
   regions; tools/trace/plugin_out.c: messages, trace files, feeding the
   analysis, the end of the run; tools/trace/plugin_signals.c: threads, signals,
   forks, QEMU's execution callbacks, ending early. Private to the plugin. */
#ifndef EDAN_PLUGIN_H
#define EDAN_PLUGIN_H

#include "edan.h"
#include "../cmd/cli.h"
#include "../front/bintrace.h"
#include "edan_trace.h"
#include "../common/files.h"
#include "../front/x86.h"
#include "flow.h"
#include "../common/opt.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <sys/mman.h>
#include <dlfcn.h>
#include <signal.h>
#include <qemu-plugin.h>

/* What follows is the plugin's own: hidden, not exported from it (its
   globals and calls from file to file as direct as within one file). */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PL_NOINLINE __attribute__((noinline))      /* a rare path kept out of a hot one */
#else
#define PL_NOINLINE
#endif

/* Per-instruction flags, fixed at translation time. */
enum {
    PL_INFUNC = 1,          /* inside a --func function */
    PL_BEGIN = 2,           /* EDAN_TRACE_BEGIN marker */
    PL_END = 4,             /* EDAN_TRACE_END marker */
    PL_NAME = 8,            /* the name after a marker (edan_trace.h): not analysed */
    PL_REGION_ENTRY = 32,   /* entry of a --region function */
    PL_EXCL_ENTRY = 64,     /* entry of an --exclude function */
    PL_RESTORES = 128,      /* x86-64: restores the register state (xrstor, fxrstor) */
    PL_UNKNOWN = 256        /* does not decode: stops the trace, or skipped (--skip-unknown) */
};
/* A marker's named region (pl_regions), in its flags' bits 9..14: 0 none. */
#define PL_REGION_SHIFT 9
#define PL_REGION_OF(f) (((uint32_t)(f) >> PL_REGION_SHIFT) & 63u)
#define PL_MAX_REGIONS 32

/* A translation's place in the code index (pl_code_*): the blocks made
   at one PC, whatever their kind. */
typedef struct pl_code_node {
    struct pl_code_node *next;      /* in its bucket */
    struct pl_code_node *prev_alloc, *next_alloc;   /* all translations of its kind */
    uint64_t pc;
    int untraced;                   /* a pl_ublock's, else a pl_block's */
} pl_code_node;

typedef struct pl_block {
    pl_code_node node;      /* first: the code index's and the list of all blocks */
    uint32_t n;
    uint32_t bin_id;        /* binary trace block id + 1; 0 = not yet defined */
    int all_static;         /* no dynamic scoping and every insn selected */
    uint32_t nscope;        /* its instructions in the static scope (--func's, or all) */
    int whole;              /* fed whole through its compiled form (pl_flush_pending; x86-64: an exact execution) */
    bintrace_sinsn *s;      /* n static instructions */
    uint64_t *addrs;        /* n: an execution's addresses, set by the memory callbacks */
    bintrace_prep prep;     /* s prepared for the analysis */
    uint16_t *flags;        /* n flags */
    int has_unknown;        /* an instruction has PL_UNKNOWN */
    char **text;            /* n disassembly strings (text output only) */
    x86_exec *xacc;         /* x86-64: n instructions' accesses of an execution, as QEMU reports them */
    uint32_t *flops;        /* x86-64: n instructions' flops */
    uint64_t flops_all;     /* ... their sum */
    uint32_t *xw, nxw;      /* x86-64: the instructions whose executions are checked (a memory callback, or
                               pieces to match): the others' are exact, without accesses */
    bintrace_uop *u;        /* x86-64: the instructions' vertices, s[i]'s at u[ufirst[i] .. ufirst[i + 1]) */
    uint32_t nu, *ufirst;
    uint64_t *uaddrs;       /* x86-64: an execution's addresses, per vertex */
    bintrace_prep uprep;    /* x86-64: u prepared for the analysis */
    flow_xfer end;          /* how its last instruction moves control */
    bintrace_prep *rprep;   /* PL_MAX_REGIONS + 1: s (x86-64: u) prepared for each named region's analysis */
    uint32_t *memi, nmemi;  /* its compiled form's memory instructions (s, x86-64: u), for the stash */
} pl_block;

typedef struct pl_range { uint64_t lo, hi; } pl_range;

/* A block outside the scope: the registers its instructions write. */
typedef struct pl_ublock {
    pl_code_node node;      /* first: the code index's and the list of all of them (node.pc: its first
                               instruction's) */
    flow_xfer end;          /* how its last instruction moves control */
    uint32_t ninsns;        /* its instructions */
    uint64_t out_insns;     /* ... run while called from the --func scope (a call out of it, not back yet) */
    uint32_t nregs;
    uint32_t nbytes;        /* its instructions' bytes, after the registers: for the code index */
    edan_reg regs[];
} pl_ublock;

#define PL_KILL_REGS EDAN_RV_NUM_REGS
#define PL_KILL_RANGES BINTRACE_MAX_KILL_RANGES

/* The option that names a scope of pl_name's kind: --func, --region, --exclude. */
#define pl_kind_opt(kind) cli_scope_name(CLI_SCOPE_FUNC + (kind))

typedef struct pl_name {
    const char *name;
    const char *object;     /* NAME@OBJECT: only that object's (its file name, or the start of it); else NULL */
    int kind;               /* 0 func, 1 region, 2 exclude */
    int found;
    int pending;            /* not in the program: looked for in each shared object as its code first runs */
} pl_name;

/* An IFUNC a scope's name found (memcpy, strlen in the C library): its
   symbol is the resolver, which the dynamic loader (a static program's
   start) calls to pick the implementation for this processor and writes
   into the global offset tables. The implementation is in the scope once
   a slot that the program reads it from holds it (pl_ifunc_check). */
#define PL_IFUNC_SLOTS 32
typedef struct pl_ifunc {
    int name;               /* its st.args.names index */
    int found;              /* its st.syms.found entry */
    char *path;             /* the object that defines it */
    uint64_t resolver;      /* its resolver: an address of that file */
    uint64_t bias;          /* the object's load bias ... */
    int placed;             /* ... known: the slots listed */
    uint64_t slots[PL_IFUNC_SLOTS];     /* where the program reads it, as addresses now */
    size_t nslots;
    uint64_t impl;          /* the implementation; 0 until a slot holds it */
} pl_ifunc;

/* The plugin's arguments (edan trace's, from the file args=FILE). */
typedef struct pl_args {
    const char *dir, *program, *source, *text_path, *bin_path;
    uint32_t engine;        /* edan trace's EDAN_ENGINE_SUM (--engine; 0: not given) */
    int analyze, markers_off, text_pc, aslr;
    pl_name names[64];      /* --func, --region, --exclude */
    int nnames;
    uint32_t only[32][2];   /* --threads: these ranges only */
    int nonly;              /* 0: every thread */
    uint64_t max_insns;     /* --max-insns: analyse at most about this many (0: no limit) */
    double max_seconds;     /* --max-seconds */
    int stdout_fd;          /* "-": edan trace's standard output, handed over as this descriptor */
    cli_job job;            /* a rank of an MPI job (job.size 0: none) */
    cli_analysis a;         /* the analysis options, and what the report needs */
    char *buf;              /* the file, and its arguments in it */
    char **argv;
} pl_args;

/* The program's symbols, and the objects whose code ran (the program,
   shared objects, the vDSO), each found in /proc/self/maps at its first
   translation. */
typedef struct pl_syms {
    uint64_t min_exec_vaddr;
    int have_markers;       /* the binary contains EDAN_TRACE_BEGIN */
    int started;            /* first translation seen: the load offset applied */
    cli_object *objs;
    size_t nobjs, objs_cap;
    int npending;           /* names not found yet */
    int track_objects;      /* names pending, --top to name library functions, frames to follow */
    cli_fnmap **fnmaps;     /* objs[i]'s functions, opened when first asked (pl_place) */
    size_t fnmaps_cap;
    cli_scoped found[64];   /* what the scope's names found, for the report */
    int nfound;
    pl_ifunc ifunc[16];     /* the IFUNCs among them */
    int nifunc, unresolved;
    char loader[4096];      /* the dynamic loader's file (its real path), whose own copies of memcpy and
                               the like are not the program's */
} pl_syms;

/* The program's signal handlers, from its rt_sigaction calls, and what
   the run did with them (pl_signal_*). */
typedef struct pl_signals {
    uint64_t handler[65];   /* each signal's handler, 0: none (the default action, or ignored) */
    uint64_t at[65];        /* the distinct handlers, nat of them */
    uint32_t nat;
    int sync;               /* a handler of a signal an instruction raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                               SIGTRAP, SIGSYS): a block may be cut short by one */
    uint64_t delivered;     /* handlers started by a signal */
    uint64_t cut;           /* ... of them in the middle of a block (a fault) */
    uint64_t unseen;        /* sigreturns whose delivery was not seen: the registers lost their writers */
    uint64_t left;          /* handlers left by a non-local exit (siglongjmp) */
    uint64_t strays;        /* accesses QEMU reported outside the program's instructions (x86-64) */
    uint64_t stray[16][2];  /* ... the bytes they wrote since the last block was fed: {lo, size} */
    uint32_t nstray;
    cli_tracer report;      /* the report's account of all this, made at the end */
} pl_signals;

/* The scope (--func, --region, --exclude, markers): link-time addresses
   until the load offset is known. Markers count for the whole program (a
   BEGIN in any thread opens the scope for all); --region and --exclude
   follow each thread's calls (pl_thr). */
typedef struct pl_scope {
    pl_range funcs[256];
    int nfuncs;
    uint64_t region_entry[64], excl_entry[64];
    int nregion, nexcl;
    int func, dyn, any;     /* --func scoping; scoping decided at execution; any scoping */
    int marker_on;
} pl_scope;

/* What untraced code wrote since the last traced instruction. */
typedef struct pl_kills {
    int pending;
    uint8_t seen[PL_KILL_REGS / 8];
    edan_reg regs[PL_KILL_REGS];
    uint32_t nregs, nranges;
    uint64_t ranges[PL_KILL_RANGES][2];         /* {lo, size} */
    uint64_t total_regs, total_bytes;           /* totals, for the notes */
} pl_kills;

/* Named regions (EDAN_TRACE_BEGIN("name")): each one's analysis in a
   context of its own, fed what the main one is fed while the region is
   open. For a region everything else is code outside its scope: what
   untraced code writes goes to every context (pl_kill_flush), what code
   analysed while another region (or none) is open writes goes to the
   other regions' contexts as kills (kill, gathered while kill_in is open
   and sent when the open region changes). Regions do not nest. */
typedef struct pl_region {
    char name[128];
    edan_context *ctx;      /* made at its first BEGIN (when the run is analysed) */
    uint64_t entries;       /* BEGINs that opened it */
    uint64_t insns;         /* instructions analysed in it */
    uint64_t flops;         /* x86-64: their flops */
} pl_region;
typedef struct pl_regions {
    pl_region r[PL_MAX_REGIONS + 1];    /* by id, 1 .. n */
    uint32_t n;
    uint32_t open;          /* the open region (0: none) */
    uint64_t depth;         /* its BEGINs not yet ended */
    uint32_t made;          /* regions with a context */
    pl_kills kill;          /* what code analysed while kill_in was open wrote */
    uint32_t kill_in;
    bintrace_chunk chunk;   /* x86-64: the open region's rep chunk (as st.x86.chunk is the main one's) */
    uint32_t (*log)[3];     /* thread creations and exits ({verb, a, b}), for a context made later */
    size_t nlog, log_cap;
    cli_region out[PL_MAX_REGIONS];     /* for the report */
} pl_regions;

/* The threads (pl_thr): the one holding the analysis, the engine's ids. */
typedef struct pl_threads {
    struct pl_thr *cur;
    uint32_t cur_tid, next_tid;
    unsigned vcpus;                 /* threads QEMU made (vCPUs) */
    uint64_t unanalysed_blocks;     /* blocks run while the program forked or exited */
    uint64_t handoffs;              /* the analysis passed from one thread to another */
    uint64_t late_threads;          /* threads made at their first block, not at their clone */
} pl_threads;

/* The analysis and the outputs. */
typedef struct pl_outputs {
    edan_context *ctx;
    FILE *text_f, *bin_f;
    files_out text_o, bin_o;    /* their targets (tools/common/files.h) */
    bintrace_writer bw;
    int failed;
    int cwd_fd;             /* the start directory: the program may chdir */
    cli_progress progress;  /* the progress line on a terminal; its t_start is the run's start */
    uint64_t next_check;
    char notes[2048];       /* what the notes file says */
    cli_code code;          /* x86-64: the instructions' bytes, for the report */
} pl_outputs;

/* The run: its blocks, what it fed, how it ends (a stop request of edan
   trace (the file stop_path), a limit, a signal that kills the program). */
typedef struct pl_run {
    pl_block *pending;
    /* executions of one block fed whole one after another (a loop's),
       handed to the analysis PL_STASH at a time (pl_stash_flush) */
    pl_block *stash;
    uint32_t nstash;
    uint64_t *stash_addrs;      /* their addresses, execution after execution (those of its memory
                                   instructions, the block's memi: the analysis reads no other) */
    size_t stash_cap;
    pl_code_node *blocks;       /* every pl_block alive, by node.next_alloc */
    pl_code_node *ublocks;      /* every pl_ublock alive */
    pl_code_node **index;       /* the code index: buckets of the translations by PC */
    size_t index_size, index_count;
    pl_code_node *retired;      /* blocks whose code was rewritten, freed once no longer pending */
    uint64_t rewritten;         /* blocks freed because the program wrote over their code */
    uint64_t fed;
    uint64_t skipped;           /* executions of undecodable instructions left out (--skip-unknown) */
    char skipped_what[900];     /* the first one */
    unsigned forks;             /* the program forked this many times */
    int child;                  /* this is a forked child's copy, or the analysis ended at an exec:
                                   nothing more is analysed or written */
    int execed;                 /* the program called exec */
    int guest_is_host;          /* the program's addresses are this process's (QEMU's guest base 0) */
    uint64_t guest_base;        /* where the program's memory is in this process: its address plus this */
    int mem_fd;                 /* /proc/self/mem, to read the program's memory (-1: cannot) */
    char stop_path[4200];
    int partial;                /* the run ended early: 1 stopped, 2 a limit reached, 3 the program crashed */
    char partial_why[300];
} pl_run;

typedef struct pl_state {
    int is_x86;             /* the program is x86-64 (else RISC-V) */
    pl_args args;
    pl_syms syms;
    pl_scope scope;
    pl_kills kill;
    pl_regions reg;
    pl_threads thr;
    pl_outputs out;
    pl_run run;
    pl_signals sig;
    x86_run x86;            /* x86-64: counts and scratch space (tools/front/x86.h) */
} pl_state;

extern pl_state st;

/* Sampled windows (--sample PERIOD:LENGTH, --skip N): the run alternates
   between a window, analysed as any run is, and a stretch that runs
   without analysis callbacks (QEMU retranslates the code with none but a
   count of the scope's instructions a block). QEMU's plugin reset (which
   flushes its translations) switches between them. */
typedef struct pl_sampling {
    int active;                 /* --sample or --skip given */
    int on;                     /* a window is analysed now */
    int requested;              /* a switch is asked of QEMU (atomic) */
    qemu_plugin_id_t id;
    uint64_t off_count;         /* the scope's instructions run between windows (atomic) */
    uint64_t off_until;         /* ... where the next window starts */
    uint64_t on_until;          /* st.run.fed where the window ends */
    uint64_t fed0;              /* st.run.fed at the window's start */
    edan_metrics m0;            /* the counts then */
    uint32_t *snap;             /* the layers 1..nsnap then, for the window's D (saturated at 2^32 - 1) */
    size_t nsnap, snap_cap;
    cli_sampled out;            /* for the report */
} pl_sampling;
extern pl_sampling pl_samp;

/* A guest thread (a QEMU vCPU, by its index; QEMU gives an ended thread's
   index to a later one). */
#define PL_MAX_VCPUS 4096
typedef struct pl_thr {
    uint32_t tid;           /* the engine's thread id (edan_thread_*) */
    int selected;           /* analysed (--threads) */
    flow_thread flow;       /* its frames, the region and exclusion it is in, its signal handlers */
    int missed;             /* ran blocks that were not analysed: its registers lose their writers */
    int late;               /* made while its creator could not hold the analysis: made at its first block */
    uint32_t creator;       /* ... by this thread */
    int out;                /* --func alone: the scope called out (or tail-called), not returned yet ... */
    uint64_t out_depth;     /* ... and the calls made since, not returned yet */
} pl_thr;
extern pl_thr pl_thrs[PL_MAX_VCPUS];

/* Where a pc is (tools/trace/flow.h), remembered by pc (pl_place); forgotten
   when an object appears where another was. */
#define PL_PLACES 1024
typedef struct pl_placed { uint64_t pc; flow_place p; } pl_placed;

/* The open region, when it has a context to feed; else NULL. */
static inline pl_region *pl_region_fed(void)
{
    return st.reg.open && st.reg.r[st.reg.open].ctx ? &st.reg.r[st.reg.open] : NULL;
}

/* x86-64: the end of the run of b's instructions from i on (before end)
   whose execution's accesses are exactly their vertices' (x86_exec_exact:
   their addresses into b->uaddrs); their flops added to *flops. */
static inline uint32_t pl_x86_exact_run(pl_block *b, uint32_t i, uint32_t end, uint64_t *flops)
{
    for (; i < end && x86_exec_exact(b->uaddrs, &b->xacc[i]); i++) *flops += b->flops[i];
    return i;
}

/* The same over the whole of b, for its fast path: 1 when every execution
   is exact, their accesses then cleared. Only b->xw's instructions are
   looked at: the others make no access, so theirs are exact. */
static inline int pl_x86_exact_whole(pl_block *b, uint64_t *uaddrs)
{
    uint32_t j;
    for (j = 0; j < b->nxw; j++)
        if (!x86_exec_exact(uaddrs, &b->xacc[b->xw[j]])) return 0;
    for (j = 0; j < b->nxw; j++) b->xacc[b->xw[j]].n = 0;
    return 1;
}

/* Shared among the plugin's files. */
/* tools/trace/plugin.c */
long pl_object_find(uint64_t pc);
int pl_pending_names(void);
void pl_block_free(pl_block *b);
void pl_code_sweep(void);
void pl_samp_close(void);
void pl_samp_end_window(void);
/* tools/trace/plugin_scope.c */
const char *pl_base(const char *path);
void pl_ifunc_slots(pl_ifunc *c, const char *path, uint64_t bias, int own);
void pl_ifunc_place(pl_ifunc *c, uint64_t bias);
int pl_scope_name(int k, const cli_funcs *fs, const char *path, uint64_t bias, int placed);
void pl_ifunc_check(void);
int pl_load_symbols(void);
void pl_region_kill_flush(void);
void pl_kill_flush(void);
void pl_kill_all_regs(void);
bintrace_prep *pl_region_prep(pl_block *b);
void pl_region_feed(pl_block *b, uint32_t first, uint32_t count, const uint64_t *addrs);
void pl_region_record(pl_block *b, uint32_t first, uint32_t count);
void pl_marker(const bintrace_sinsn *s, uint16_t f);
/* tools/trace/plugin_out.c */
void pl_write_file(const char *name, const char *text);
int pl_fail(const char *fmt, ...);
FILE *pl_open_out(files_out *o, const char *path);
char *pl_normalise_disas(const char *d);
void pl_progress(void);
int pl_mapping_of(uint64_t addr, uint64_t *lo, uint64_t *hi, uint64_t *off, char *path, size_t n);
void pl_where(uint64_t pc, char *out, size_t n);
void pl_stop(const char *fmt, ...);
void pl_refused(const bintrace_sinsn *s, edan_result r);
void pl_kill_reg(edan_reg r);
void pl_kill_mem(uint64_t a, uint64_t size);
void pl_kills_insn(pl_kills *kl, const bintrace_sinsn *s, uint64_t addr);
void pl_kills_x86(pl_kills *kl, const pl_block *b, uint32_t i, const x86_exec *x);
void pl_chunk_flush(void);
/* The executions of the stash (pl_run) to the analysis: before anything
   else reaches it or is read from it. */
void pl_stash_flush(void);
void pl_stash_free(void);       /* its room, once empty */
void pl_flush_n(pl_block *b, uint32_t n);
void pl_flush(pl_block *b);
void pl_note(char *notes, size_t cap, const char *fmt, ...);
void pl_finish(void);
/* tools/trace/plugin_signals.c */
extern pthread_mutex_t pl_mu;
extern pthread_cond_t pl_cv;
extern int pl_owner;
extern uint64_t pl_stalled;
extern unsigned pl_gen;
void pl_drain_holder(void);
extern volatile int pl_ending;
void pl_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu);
int pl_guest_read(uint64_t addr, void *buf, size_t n);
int pl_rv_watched(const pl_block *b, uint32_t i);
extern pthread_mutex_t pl_objs_mu;
extern pl_placed pl_places[PL_PLACES];
void pl_place(void *user, uint64_t pc, flow_place *out);
void pl_forked_parent(void);
void pl_forked_child(void);
void pl_vcpu_tb_exec(unsigned int vcpu, void *udata);
void pl_vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void pl_vcpu_mem_x86(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void pl_vcpu_mem_untraced_x86(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void pl_vcpu_tb_untraced(unsigned int vcpu, void *udata);
void pl_vcpu_mem_untraced(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void *pl_watch(void *arg);
void pl_on_fatal_signal(int sig);
void pl_vcpu_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
void pl_vcpu_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, int64_t ret);
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif
