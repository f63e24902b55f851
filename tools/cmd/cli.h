/* tools/cmd/cli.h - what the `edan` subcommands share: the analysis options
   (one set for `edan analyze` and `edan trace`: tools/cmd/options.c), the
   error printer, the progress line and reading files back (tools/cmd/util.c),
   the code bytes and names by pc (tools/report/hotspots.c) and the report
   (cli_report: tools/report/report.c, its parts declared in tools/report/report.h).
   It includes what the subcommands take from the other stages, declared
   beside their code: the program's ELF and DWARF (tools/front/syms.h) and
   MPI jobs (tools/trace/job.h). */
#ifndef EDAN_CLI_H
#define EDAN_CLI_H
#include <stdio.h>
#include <stdlib.h>
#include "edan.h"
#include "../common/opt.h"
#include "../front/syms.h"
#include "../trace/job.h"

/* A sum of the sources that edan and its QEMU plugin are built from (the
   Makefile's ENGINE_SUM): edan trace hands its own to the plugin, which
   refuses to run for an edan built from other sources, whose numbers it
   would not give (0: built without the Makefile, not checked). */
#ifndef EDAN_ENGINE_SUM
#define EDAN_ENGINE_SUM 0u
#endif

/* Room for element n of a growing array (esz-byte elements, *cap of them
   allocated; the capacity doubles from `first`): the array, moved or not,
   or NULL when out of memory (the old one still valid). */
static inline void *cli_grow(void *items, size_t *cap, size_t n, size_t esz, size_t first)
{
    size_t nc;
    void *p;
    if (n < *cap) return items;
    nc = *cap ? 2 * *cap : first;
    if (!(p = realloc(items, nc * esz))) return NULL;
    *cap = nc;
    return p;
}

/* A result's application name (edan rank's column, edan plot's legend):
   its "source" (path when it has none) without directories and a trace's
   or result's extension, then " rank R" for a rank of a job of several. */
void cli_result_name(const edan_json *root, const char *path, char *out, size_t n);

/* What edan trace met in the program that the numbers depend on, for the
   report to say (tools/trace/plugin_out.c fills it; NULL for edan analyze). */
typedef struct cli_tracer {
    int aslr;                   /* the program ran with the system's address randomisation (--aslr) */
    uint64_t signals;           /* signal handlers that ran (each analysed as code of the program) ... */
    uint64_t signals_cut;       /* ... at a fault, which cut its block short */
    uint64_t sigreturns_unseen; /* sigreturns whose handler's start was not seen: the registers lost their writers */
    uint64_t signals_left;      /* handlers left by a non-local exit (siglongjmp) */
    uint64_t nonlocal;          /* non-local exits followed (longjmp, a C++ exception): frames left */
    uint64_t unplaced;          /* transfers of control no frame explains (coroutines, hand-made stacks) ... */
    uint64_t unplaced_in_scope; /* ... while a --region or --exclude scope ran: its end may be wrong there */
    uint64_t unplaced_from, unplaced_to;    /* the first of those in scope (else the first) */
    const struct cli_scoped *scoped;    /* what the scope's names found */
    size_t nscoped;
    /* --func alone: what its functions called outside the scope, run but not analysed */
    int func_scope;             /* the scope is --func's alone (the rest is counted) */
    uint64_t called_out;        /* instructions run outside the scope between a call from it and the return */
    struct cli_callee {
        char function[256];     /* the function they ran in (demangled), "" when unknown */
        char object[256];       /* its file */
        int shared;             /* a shared object's, not the program's */
        uint64_t insns;
    } callees[3];               /* the functions of the most of them, the most first */
    size_t ncallees;
} cli_tracer;

/* A sampled run (edan trace --sample PERIOD:LENGTH, --skip N): LENGTH
   instructions of the scope analysed out of every PERIOD, the rest run
   without analysis callbacks. Each window starts with every register and
   byte's writer forgotten (what ran between windows is unknown), so no
   chain crosses windows. tools/trace/plugin.c fills it; the report lists the
   first CLI_SAMPLE_LISTED windows and estimates the whole run from all
   of them (running sums). */
#define CLI_SAMPLE_LISTED 4096
typedef struct cli_window {
    uint64_t start;             /* the scope's instructions run before it */
    uint64_t insns, W, D, bytes, T1;
    int D_lower;                /* D is a lower bound (more vertices than the layers looked at) */
} cli_window;
enum { CLI_WIN_INSNS, CLI_WIN_W, CLI_WIN_BYTES, CLI_WIN_D, CLI_WIN_VARS };
typedef struct cli_sampled {
    uint64_t period, length, skip;
    uint64_t windows;           /* windows analysed (the last may be cut short by the end) */
    uint64_t insns;             /* the scope's instructions the whole run made (counted between windows too) */
    uint64_t D_max;             /* the deepest window's D: the run's D is at least this */
    int D_lower;                /* a window's D is a lower bound */
    double sum[CLI_WIN_VARS], prod[CLI_WIN_VARS][CLI_WIN_VARS];    /* over the windows: sums, sums of products */
    cli_window listed[CLI_SAMPLE_LISTED];
} cli_sampled;

/* A named region of a traced program (EDAN_TRACE_BEGIN("name"),
   tools/trace/edan_trace.h): its own analysis, as if it alone had been traced.
   tools/trace/plugin_out.c fills it; the report gives each one a section. */
typedef struct cli_region {
    const char *name;
    edan_context *ctx;
    uint64_t entries;           /* the BEGINs that opened it */
    uint64_t machine_insns;     /* the instructions analysed in it (x86-64: N counts their vertices) */
    uint64_t flops;             /* x86-64: their flops (else its op histogram's) */
    int open_at_end;            /* the run ended while it was open */
} cli_region;

/* What the command line sets: the analysis options of `edan analyze` /
   `edan trace` (their configurations are in cli_analysis). */
typedef struct cli_analysis_cmd {
    int json;                   /* --json */
    const char *timeline_path;  /* --timeline FILE.csv */
    const char *dot_path;       /* --dot FILE */
    const char *layers_path;    /* --layers FILE: every W_i (FILE.csv: text; else binary) */
    uint32_t top;               /* --top N */
    uint32_t chain;             /* --chain[=VERTICES]: the critical chain (1: streamed, at any size; else
                                   found in the eDAG recorded up to this many vertices) */
    int skip_unknown;           /* --skip-unknown */
    int quiet;                  /* --quiet: no progress line */
    int online;                 /* the QEMU plugin's: the thread that feeds the analysis runs the program */
    uint32_t jobs;              /* --jobs N: threads for the configurations (0: not given, the cores) */
    double alpha_add_ns;        /* --alpha-add NS: what-if at a farther memory */
    const char *sweep_path;     /* --sweep FILE.csv: bounds over added latency */
    const char *profile_path;   /* --profile FILE: caches, alpha, m, clock of a probed machine (or this
                                   machine's own: cli_analysis_profile's own) */
    int no_profile;             /* --no-profile: not even this machine's own */
    int remote_node;            /* --remote NODE: what-if at that NUMA node's latency; -1 = none */
    unsigned explicit_set[EDAN_MAX_CONFIGS];    /* CLI_SET_* given on the command line */
    int window_all_m;           /* --window-all-m: the windowed schedule at every m, not the verdict's alone */
    int paper;                  /* --paper: the paper's model, no windowed schedule */
    const char *elf_path;       /* --elf PROG: --top names functions and source lines from it */
} cli_analysis_cmd;

/* What the profile (cmd.profile_path) gives, and where each configuration's
   values came from: the command line, the profile or the defaults. */
typedef struct cli_analysis_profile {
    int own;                    /* cmd.profile_path is this machine's own, found without --profile */
    char provenance[EDAN_MAX_CONFIGS][384];     /* where each value came from, for the report */
    uint32_t m;                 /* the profile's measured m, 0 = none */
    edan_config caches;         /* the profile's cache hierarchy (no levels without a profile) */
    char cache_note[512];       /* the profile's caches taken at another size than the system reports, and why */
    int window;                 /* the profile measured the window (its "window" section) */
    unsigned long crc;          /* the zlib CRC-32 of the profile's bytes: which profile, for charts */
} cli_analysis_profile;

/* What the run found: the program, its instruction set, how it ended, what
   the tracer met, for the report. */
typedef struct cli_analysis_run {
    uint64_t elf_bias;          /* the program's load offset: a pc minus it is an address of the file */
    /* the front-end's instruction set: RISC-V unless a tracer says otherwise */
    int isa;                    /* EDAN_ISA_X86_64, or 0 / EDAN_ISA_RISCV64 */
    uint64_t machine_insns;     /* x86-64: the instructions executed, whose vertices N counts */
    const struct cli_code *code;    /* x86-64: the instructions' bytes by pc, to name them (--top, --dot) */
    const struct cli_object *objects;   /* the shared objects whose code ran (edan trace), for --top */
    size_t nobjects;
    const char *(*op_name)(uint32_t op);    /* names of op ids; NULL: edan_rv_op_name */
    const char *partial;        /* the run ended early, and why: the report says it covers part */
    const cli_job *job;         /* a rank of an MPI job: the report says which */
    const cli_tracer *tracer;   /* edan trace: what the tracer met (signals, non-local exits, the scope) */
    const cli_sampled *sampled; /* edan trace --sample: the windows (NULL: the whole run) */
    int flops_counted;          /* the tracer counted the flops (x86: they depend on vector widths) ... */
    uint64_t flops;             /* ... these; else the op histogram times edan_rv_op_flops */
    const cli_region *regions;  /* edan trace: the program's named regions, a report section each */
    size_t nregions;
} cli_analysis_run;

/* An analysis of `edan analyze` / `edan trace`: its configurations and the
   engine's options, made (cli_analysis_finish) from what the command line
   set and what the profile gives; then what the run found. */
typedef struct cli_analysis {
    edan_options opts;
    edan_config configs[EDAN_MAX_CONFIGS];
    uint32_t num_configs;       /* configurations started so far */
    cli_analysis_cmd cmd;
    cli_analysis_profile prof;
    cli_analysis_run run;
} cli_analysis;

enum {
    CLI_SET_ALPHA = 1, CLI_SET_FREQ = 2, CLI_SET_CACHE = 4,
    CLI_SET_WINDOW = 8, CLI_SET_LQ = 16, CLI_SET_SQ = 32, CLI_SET_WIDTH = 64,     /* --window, --lq, --sq, --width */
    CLI_SET_WINDOW_ANY = CLI_SET_WINDOW | CLI_SET_LQ | CLI_SET_SQ | CLI_SET_WIDTH
};

/* Where configuration k's windowed schedule came from: "option" (--window,
   --lq, --sq or --width; the others from the profile, else the page's
   defaults), "profile" (its "window" section), "default" (the model
   page's), or "off" (--window 0, --paper). */
const char *cli_window_source(const cli_analysis *a, uint32_t k);
/* The m the verdict speaks of (and the windowed schedule runs at unless
   --window-all-m): the profile's measured m when it is in the list, else
   4 (the paper's) when it is, else the largest. */
uint32_t cli_verdict_m(const cli_analysis *a);

/* The largest eDAG --dot writes, in vertices. */
#define CLI_DOT_LIMIT 2000
#define CLI_LAYER_BINS 4096     /* the report's layer summary: bins at most */
#define CLI_CHAIN_STREAM 1u     /* --chain: the chain streamed (--chain=VERTICES: the recorded eDAG's, 2 at least) */
#define CLI_CHAIN_MAX 1000000000u

void cli_analysis_init(cli_analysis *a);
/* The cores this process may run on (tools/cmd/cores.c): --jobs's default. */
unsigned cli_cores(void);
/* The analysis options (tools/common/opt.h), which a command joins to its own
   (opt_cat): their ids are CLI_ANALYSIS_ID and above, a command's own
   below. */
#define CLI_ANALYSIS_ID 100
#define CLI_ANALYSIS_ROOM 64      /* more than cli_analysis_nopts: room to join them */
enum {
    CLI_OPT_CACHE = CLI_ANALYSIS_ID, CLI_OPT_PROFILE, CLI_OPT_NO_PROFILE, CLI_OPT_NO_CACHE, CLI_OPT_CONFIG,
    CLI_OPT_ALPHA, CLI_OPT_ALPHA0, CLI_OPT_COST, CLI_OPT_FREQ, CLI_OPT_TAU, CLI_OPT_M, CLI_OPT_TIMELINE, CLI_OPT_JSON,
    CLI_OPT_DOT, CLI_OPT_TOP, CLI_OPT_CHAIN, CLI_OPT_ELF, CLI_OPT_ALPHA_ADD, CLI_OPT_SWEEP, CLI_OPT_REMOTE,
    CLI_OPT_PAPER_CACHE, CLI_OPT_PAPER, CLI_OPT_FORWARD, CLI_OPT_LAYERS, CLI_OPT_SKIP_UNKNOWN, CLI_OPT_QUIET,
    CLI_OPT_WINDOW, CLI_OPT_LQ, CLI_OPT_SQ, CLI_OPT_WIDTH, CLI_OPT_WINDOW_ALL_M, CLI_OPT_JOBS
};
extern const opt_def cli_analysis_opts[];
extern const size_t cli_analysis_nopts;
/* The scope and run options of a traced program, declared once (name,
   value, help) in cli_scope_opts: edan trace takes them and passes each to
   the plugin as it is (the same name and value), edan annotate passes them
   on to edan trace, the plugin reads them. Their ids are CLI_SCOPE_ID and
   above, below CLI_ANALYSIS_ID; the ids of --func, --region and --exclude
   follow each other. A command's table names one by its id alone
   (CLI_SCOPE_ROW), which cli_scope_rows fills in. */
#define CLI_SCOPE_ID 80
enum {
    CLI_SCOPE_FUNC = CLI_SCOPE_ID, CLI_SCOPE_REGION, CLI_SCOPE_EXCLUDE, CLI_SCOPE_THREADS, CLI_SCOPE_NO_MARKERS,
    CLI_SCOPE_MAX_INSNS, CLI_SCOPE_MAX_SECONDS
};
typedef struct cli_scope_opt {
    opt_def o;              /* name, value, id and the help of edan trace --help */
    const char *brief;      /* the help of a command that passes it on to edan trace (edan annotate) */
} cli_scope_opt;
extern const cli_scope_opt cli_scope_opts[];
extern const size_t cli_scope_nopts;
#define CLI_SCOPE_ROW(id) {NULL, NULL, id, NULL}
/* The rows t[0 .. n) into out (room for cap), each row of a scope option
   given its name, value and help (brief: the short one) from
   cli_scope_opts; a row's own help, when it has one, stays (what the
   option does in that command). n, or 0 when they do not fit. */
size_t cli_scope_rows(opt_def *out, size_t cap, const opt_def *t, size_t n, int brief);
/* A scope option's name ("--func"), "" for another id. */
const char *cli_scope_name(int id);
/* Applies analysis option `id` (its value val, NULL for a flag or an
   optional value not given): 0, or -1 with a message printed. */
int cli_analysis_apply(cli_analysis *a, int id, const char *val);
/* opt_next for a command whose options end at the program it runs (edan
   trace, edan annotate): OPT_END at "--" or at the first operand, whose
   index goes to *prog; *start: the index of the argument read. */
int cli_next_before_program(const char *cmd, const opt_def *t, size_t n, int argc, char **argv, int *i, int *start,
                            const char **val, int *prog);
/* After the options: validate and fill a->opts. Prints a message and
   returns -1 when something does not fit. */
int cli_analysis_finish(cli_analysis *a);
/* Without --profile or --no-profile: this machine's own profile, when probe
   wrote one (see --profile's help); cli_analysis_finish calls it. */
void cli_analysis_pick_profile(cli_analysis *a);
/* Fails (a message printed) when `path` cannot be written; before long
   work, so that a bad target is found first (tools/common/files.h). */
int cli_output_check(const char *path);

/* A list of thread ids, "0,2-5" (edan trace --threads): its ranges into
   lohi[k][0..1], at most cap; the number, or -1 with *why set. */
int cli_parse_threads(const char *s, uint32_t (*lohi)[2], int cap, const char **why);
/* A count of instructions: digits, optionally k, M, G or T (10^3 .. 10^12). 0, or -1. */
int cli_parse_count(const char *s, uint64_t *out);
/* --sample PERIOD:LENGTH, LENGTH < PERIOD: 0, or -1 and *why. */
int cli_parse_sample(const char *s, uint64_t *period, uint64_t *length, const char **why);

/* "edan: " and the message on standard error; returns -1. */
int cli_err(const char *fmt, ...);

/* A shared object whose code the traced program ran: its file, the
   addresses of its executable mapping [lo, hi) where the program saw it,
   and its load bias (a pc minus bias is an address of the file, as
   objdump -d of it shows). */
typedef struct cli_object { char *path; uint64_t lo, hi, bias; int is_program; } cli_object;

/* A function a scope's name found (edan trace's --func, --region,
   --exclude), for the report. */
typedef struct cli_scoped {
    const char *option;         /* "--func", "--region", "--exclude" */
    const char *name;           /* the name given (without its @OBJECT) */
    char function[256];         /* the function traced: its symbol (an IFUNC's implementation's, or 0x its address) */
    char short_of[256];         /* the name given short: the C++ function it names ("weighted_sum<double>"), else "" */
    char object[256];           /* the file it is in (the program's too) */
    int shared;                 /* object is a shared object's, not the program's */
    int ifunc;                  /* the name is an IFUNC: function is the implementation the program ran ("" when it
                                   never did) */
} cli_scoped;

/* The object of a.objects that holds pc, or NULL. */
const cli_object *cli_object_of(const cli_analysis *a, uint64_t pc);
/* pc as an address of its file, as objdump -d shows it: the program's
   (less a.elf_bias), or its shared object's (less its bias). */
uint64_t cli_file_address(const cli_analysis *a, uint64_t pc);

/* The largest report, profile or sweep file the subcommands read. */
#define CLI_MAX_REPORT_BYTES ((size_t)1 << 30)

/* Name of an op for reports (RISC-V front-end). */
const char *cli_op_name(const cli_analysis *a, uint32_t op);

/* x86-64: the bytes of the instructions a trace executed, by pc, so that a
   report names an instruction in Intel syntax. Bounded by the program's
   code, not by the trace. */
typedef struct cli_code { uint64_t *pc; uint8_t (*bytes)[16]; size_t cap, used; } cli_code;
/* 0, or -1 when out of memory; a pc known already keeps its bytes. */
int cli_code_add(cli_code *c, uint64_t pc, const uint8_t *bytes, unsigned len);
void cli_code_free(cli_code *c);
/* The instruction of vertex `in` for a report: x86-64 "add qword ptr [rdi],
   rax" (its bytes known), else the op's name; for x86-64 a load or store
   vertex of the instruction says so (" (load)"). */
void cli_insn_text(const cli_analysis *a, const edan_insn *in, int role, char *buf, size_t n);

/* The model's m in the tools: the paper's (the default of edan rank, edan
   job and the roofline's application points) and the largest an option takes. */
#define CLI_M_PAPER 4u
#define CLI_MAX_M 1000000u

/* The whole file at path (at most CLI_MAX_REPORT_BYTES), NUL-terminated;
   NULL with "CMD: PATH: why" printed. */
char *cli_file_read(const char *cmd, const char *path, size_t *len);
/* A JSON parser's message "line N: why": why, with N in *line (0 when the
   message names no line). */
const char *cli_json_where(const char *err, unsigned long *line);
/* Reads the JSON document at path: 0, with *text (the bytes, to free) and
   *root (to edan_json_free); or -1 with "CMD: PATH: why" (unreadable) or
   "CMD: PATH:LINE: not valid JSON: why" printed. */
int cli_json_read(const char *cmd, const char *path, char **text, size_t *len, edan_json **root);
/* cli_json_read of a JSON report of edan analyze or edan trace, with its
   "configs" list (not empty): 0; or -1 with the message printed ("not an
   edan report" when it has no such list), *text and *root NULL. */
int cli_report_read(const char *cmd, const char *path, char **text, edan_json **root,
                    const edan_json **configs);

/* Print the report (table or JSON) and write --timeline/--dot files.
   `source` names the input for the report. Returns 0 or -1 (message printed). */
int cli_report(edan_context *ctx, const cli_analysis *a, const char *source, FILE *out);

/* How far a run is: a progress line on stderr about once a second when
   stderr is a terminal, of the input read (total_bytes 0 = unknown) or,
   given no bytes (the tracer), of the instructions alone. */
typedef struct cli_progress {
    int enabled;
    double t_start, t_last;
    unsigned long long total_bytes;
} cli_progress;
void cli_progress_start(cli_progress *p, unsigned long long total_bytes, int quiet);
void cli_progress_update(cli_progress *p, unsigned long long bytes, unsigned long long insns);
void cli_progress_end(cli_progress *p);
double cli_now(void);

/* v with thousands separators ("1,000") in buf, which it returns. */
const char *cli_group(char *buf, size_t n, uint64_t v);

/* Subcommands. */
int edan_cmd_analyze(int argc, char **argv);
int edan_cmd_trace(int argc, char **argv);      /* tools/trace/trace.c */
int edan_cmd_rank(int argc, char **argv);       /* tools/cmd/rank.c */
int edan_cmd_plot(int argc, char **argv);       /* tools/cmd/plot.c */
int edan_cmd_job(int argc, char **argv);        /* tools/trace/job.c */
int edan_cmd_annotate(int argc, char **argv);   /* tools/cmd/annotate.c */
#endif
