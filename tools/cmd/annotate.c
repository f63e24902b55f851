/* tools/cmd/annotate.c - `edan annotate`: the analysis per source line, beside
   the source, as perf annotate and cg_annotate show theirs: each line's
   memory vertices, chained ones, largest memory depth, and its part of the
   critical chain (the D RAM accesses in a row that make the memory depth).

   It runs `edan trace` (a program) or `edan analyze --elf` (a trace) for a
   JSON report with every memory instruction (--top) and the critical chain
   (--chain), or reads such a report, and names its addresses' functions and
   lines from the program's symbols and DWARF line table (tools/front/syms.c). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "../common/files.h"

enum { ANN_HELP = 1, ANN_TOP, ANN_NO_SOURCE, ANN_ELF, ANN_OUTPUT, ANN_QEMU, ANN_PLUGIN, ANN_SYSROOT, ANN_ASM };
/* --func and the options of edan trace it passes on for a program
   (--region, ..., --max-seconds) are rows of cli_scope_opts
   (tools/cmd/options.c), named here by id; --func with a help of its own. */
static const opt_def annotate_opts[] = {
    {NULL, NULL, 0,
     "usage: edan annotate [options] [--] PROGRAM [ARGS...]\n"
     "       edan annotate [options] --elf PROGRAM TRACE\n"
     "       edan annotate [options] REPORT.json\n"
     "\n"
     "The analysis per source line, printed beside the source (as perf annotate\n"
     "and cg_annotate do): for each line of the program's functions, its memory\n"
     "access vertices (\"mem\"; with a cache, the accesses each level served,\n"
     "\"L1\", \"L2\"..., then those that reached RAM, \"RAM\": a forwarded load is\n"
     "in none), those chained (waiting for an earlier RAM access), the largest\n"
     "memory depth md among them, and the line's part of the critical chain: of\n"
     "the D RAM accesses in a row that make the memory depth, how many are the\n"
     "line's (\"chain\", and its share of D). A summary of the lines with the\n"
     "most of the chain comes first, then each function's source. Code inlined\n"
     "at a line (a call of an inlined function, std::map::find in a C++ program)\n"
     "counts at its own lines and at each call site around it (marked +: the\n"
     "user's w.find line and the library's find line), so such lines add up to\n"
     "more than the function's total.\n"
     "\n"
     "PROGRAM runs under edan trace (its options below apply); a TRACE with PCs\n"
     "(edan trace --binary or --text, --text-pc for RISC-V) is analysed as edan\n"
     "analyze does, with --elf naming the program it came from; a REPORT.json of\n"
     "edan trace or edan analyze made with --json --top N --chain is read as it\n"
     "is. Functions and lines come from the program's symbols and DWARF line\n"
     "table (build it with -g); its source files are read where the DWARF says\n"
     "they were compiled, else from the current directory. Addresses are the\n"
     "program file's, as objdump -d lists them. One configuration is annotated.\n"
     "The exit status is 0, 1 when the program failed or the run was stopped\n"
     "(what ran is annotated), 2 for a usage error or input that cannot be read.\n"
     "\n"
     "Options:"},
    {NULL, NULL, CLI_SCOPE_FUNC,
     "annotate function NAME only (repeatable); a program runs\n"
     "traced in it alone (edan trace --func). C++ names as\n"
     "written: geo::dot<double>, a signature, the symbol, or\n"
     "short when that is one function (Grid::sum, wsum)"},
    {"--top", "N", ANN_TOP, "the summary's N lines (default 10; 0: no summary)"},
    {"--no-source", NULL, ANN_NO_SOURCE, "the summary alone"},
    {"--asm", NULL, ANN_ASM,
     "under each source line, its memory instructions (the\n"
     "program file's address; x86-64 in Intel syntax, RISC-V\n"
     "by its operation), each with its own counts"},
    {"--elf", "PROG", ANN_ELF, "the program a TRACE came from (REPORT.json: its own)"},
    {"-o|--output", "FILE", ANN_OUTPUT, "write the annotation to FILE instead of standard output"},
    {"-h|--help", NULL, ANN_HELP, "this text"},
    {"--chain", "[=VERTICES]", CLI_OPT_CHAIN,
     "the chain is streamed, at any size (the default);\n"
     "=VERTICES finds it in the recorded eDAG instead (at most\n"
     "VERTICES, about 120 bytes each), as a check: edan trace\n"
     "--chain"},
    {NULL, NULL, 0,
     "Options of edan trace for a PROGRAM (edan trace -h says what each does; the\n"
     "program's standard output goes to standard error):"},
    CLI_SCOPE_ROW(CLI_SCOPE_REGION),
    CLI_SCOPE_ROW(CLI_SCOPE_EXCLUDE),
    CLI_SCOPE_ROW(CLI_SCOPE_THREADS),
    CLI_SCOPE_ROW(CLI_SCOPE_NO_MARKERS),
    CLI_SCOPE_ROW(CLI_SCOPE_MAX_INSNS),
    CLI_SCOPE_ROW(CLI_SCOPE_MAX_SECONDS),
    {"--qemu", "PATH", ANN_QEMU, "the qemu to run the program"},
    {"--plugin", "PATH", ANN_PLUGIN, "the EDAN plugin"},
    {"--sysroot", "DIR", ANN_SYSROOT, "the library root of a RISC-V program"},
    {NULL, NULL, 0, ""},
};
#define ANN_NOPTS (sizeof annotate_opts / sizeof annotate_opts[0])

/* ---- the arguments --------------------------------------------------------- */
typedef struct ann_args {
    const char **fwd;           /* options for edan trace or edan analyze */
    int nfwd;
    const char *funcs[64];
    int nfuncs;
    long top;
    int no_source;
    int asm_;                   /* --asm */
    const char *elf, *output;
    int chain_given;            /* --chain=VERTICES */
    const char *tracing_opt;    /* an option only edan trace takes, when one was given */
} ann_args;

/* ---- the annotation ------------------------------------------------------- */
typedef struct ann_file {
    char *name;                 /* as the DWARF line table has it */
    char *path;                 /* where its text was found, NULL: not (yet) */
    char *text;                 /* the file, NUL-terminated */
    char **line;                /* line[i]: the start of line i + 1 in text */
    size_t nlines;
    int tried;
} ann_file;

typedef struct ann_func {
    char *name;                 /* demangled */
    uint64_t lo, hi;            /* its addresses in the program file */
} ann_func;

/* The counts of memory instructions: the accesses each cache level served
   (L1 first), those that reached RAM (the memory access vertices), how
   many of these were chained, their largest md and their part of the
   critical chain. */
typedef struct ann_counts {
    uint64_t served[EDAN_MAX_LEVELS];
    uint64_t mem, chained, max_md, chain;
} ann_counts;

/* One source line of a function (line 0: addresses without a line): its
   own instructions' counts, and those of the code inlined at the line (a
   call of an inlined function: that code's instructions count at their own
   lines too). */
typedef struct ann_line {
    size_t func, file;          /* indexes; file (size_t)-1: no line table entry */
    int line;
    ann_counts own, inl;
    uint64_t first_addr;
} ann_line;

/* One memory instruction, for --asm: its address, text and counts, and
   the line it is at. */
typedef struct ann_insn {
    size_t func, file;
    int line;
    uint64_t addr;
    char text[96];
    ann_counts c;
} ann_insn;

typedef struct ann {
    cli_syms sy;
    ann_func *f; size_t nf, capf;
    ann_file *files; size_t nfiles, capfiles;
    ann_line *l; size_t nl, capl;
    ann_insn *in; size_t nin;   /* the memory instructions by line and address (--asm) */
    uint32_t nlev;              /* the cache levels whose accesses the report counts */
    uint64_t D, W, chained;
    int have_chain;             /* the report has the critical chain */
    const char *no_chain;       /* why not */
    uint64_t chain_total;       /* chain vertices at the lines shown */
    uint64_t unplaced;          /* memory vertices of addresses without a function */
} ann;

static int ann_oom(void) { return cli_err("annotate: out of memory"); }

static size_t ann_file_id(ann *A, const char *name)
{
    size_t i;
    ann_file *nf;
    for (i = 0; i < A->nfiles; i++)
        if (!strcmp(A->files[i].name, name)) return i;
    if (!(nf = (ann_file *)cli_grow(A->files, &A->capfiles, A->nfiles, sizeof *nf, 16))) return (size_t)-2;
    A->files = nf;
    memset(&nf[A->nfiles], 0, sizeof *nf);
    if (!(nf[A->nfiles].name = strdup(name))) return (size_t)-2;
    return A->nfiles++;
}

/* The function of addr: the last one placed when addr lies in it (the
   addresses come in order), else a new entry. (size_t)-1: none. */
static size_t ann_func_at(ann *A, uint64_t addr)
{
    const char *name, *fn, *src;
    ann_func *nf;
    uint64_t lo, hi;
    int line;
    if (A->nf && addr >= A->f[A->nf - 1].lo && addr < A->f[A->nf - 1].hi) return A->nf - 1;
    if (!(name = cli_syms_func_at(&A->sy, addr, &lo, &hi))) return (size_t)-1;
    cli_syms_at(&A->sy, addr, &fn, &src, &line);        /* the name demangled */
    if (!(nf = (ann_func *)cli_grow(A->f, &A->capf, A->nf, sizeof *nf, 16))) return (size_t)-2;
    A->f = nf;
    nf[A->nf].lo = lo;
    nf[A->nf].hi = hi;
    if (!(nf[A->nf].name = strdup(fn ? fn : name))) return (size_t)-2;
    return A->nf++;
}

/* The function and source line of address `addr` of the program file. */
static int ann_place(ann *A, uint64_t addr, size_t *func, size_t *file, int *line)
{
    const char *src, *name;
    *file = (size_t)-1;
    *line = 0;
    if ((*func = ann_func_at(A, addr)) == (size_t)-2) return -1;
    if (*func == (size_t)-1) return 0;
    cli_syms_at(&A->sy, addr, &name, &src, line);
    if (!src) {
        *line = 0;
        return 0;
    }
    *file = ann_file_id(A, src);
    return *file == (size_t)-2 ? -1 : 0;
}


/* Reads a source file: as named, under the compilation directory, or from
   the current directory. */
static void ann_load_file(ann *A, ann_file *F, uint64_t addr)
{
    const char *dir = cli_syms_comp_dir(&A->sy, addr), *base;
    char path[8192], err[256];
    size_t len, i, n = 1;
    const char *cands[3];
    int k, nc = 0;
    if (F->tried) return;
    F->tried = 1;
    if (F->name[0] == '/') cands[nc++] = F->name;
    else {
        if (dir) {
            snprintf(path, sizeof path, "%s/%s", dir, F->name);
            cands[nc++] = path;
        }
        cands[nc++] = F->name;
    }
    base = strrchr(F->name, '/');
    if (base) cands[nc++] = base + 1;
    for (k = 0; k < nc && !F->text; k++) {
        struct stat sb;
        if (stat(cands[k], &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
        F->text = files_read_all(cands[k], (size_t)64 << 20, &len, err, sizeof err);
        if (F->text) F->path = strdup(cands[k]);
    }
    if (!F->text) return;
    for (i = 0; F->text[i]; i++) n += F->text[i] == '\n';
    if (!(F->line = (char **)calloc(n + 1, sizeof *F->line))) {
        free(F->text);
        F->text = NULL;
        return;
    }
    F->line[F->nlines++] = F->text;
    for (i = 0; F->text[i]; i++)
        if (F->text[i] == '\n') {
            F->text[i] = 0;
            if (F->text[i + 1]) F->line[F->nlines++] = F->text + i + 1;
        }
}

static int ann_line_cmp(const void *x, const void *y)
{
    const ann_line *a = (const ann_line *)x, *b = (const ann_line *)y;
    if (a->func != b->func) return a->func < b->func ? -1 : 1;
    if (a->file != b->file) return a->file < b->file ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

static void ann_add(ann_counts *to, const ann_counts *c)
{
    uint32_t l;
    for (l = 0; l < EDAN_MAX_LEVELS; l++) to->served[l] += c->served[l];
    to->mem += c->mem;
    to->chained += c->chained;
    to->chain += c->chain;
    if (c->max_md > to->max_md) to->max_md = c->max_md;
}

/* A line's counts with those of the code inlined at it. */
static ann_counts ann_total(const ann_line *l)
{
    ann_counts t = l->own;
    ann_add(&t, &l->inl);
    return t;
}

static uint64_t ann_accesses(const ann_counts *c)
{
    uint64_t n = c->mem;
    uint32_t l;
    for (l = 0; l < EDAN_MAX_LEVELS; l++) n += c->served[l];
    return n;
}

/* Most of the chain first, then the most chained, the most RAM accesses, the most accesses. */
static int ann_rank(const ann_line *a, const ann_line *b)
{
    ann_counts x = ann_total(a), y = ann_total(b);
    if (x.chain != y.chain) return x.chain > y.chain ? -1 : 1;
    if (x.chained != y.chained) return x.chained > y.chained ? -1 : 1;
    if (x.mem != y.mem) return x.mem > y.mem ? -1 : 1;
    if (ann_accesses(&x) != ann_accesses(&y)) return ann_accesses(&x) > ann_accesses(&y) ? -1 : 1;
    return ann_line_cmp(a, b);
}

static int ann_rank_cmp(const void *x, const void *y) { return ann_rank((const ann_line *)x, (const ann_line *)y); }

/* The share of D as " 99.9%" ("." none, "-" unknown). */
static const char *ann_share(const ann *A, uint64_t chain, char *buf, size_t n)
{
    double p = A->D ? 100.0 * (double)chain / (double)A->D : 0.0;
    if (!A->have_chain) snprintf(buf, n, "-");
    else if (!chain) snprintf(buf, n, ".");
    else if (p < 0.1) snprintf(buf, n, "<0.1%%");
    else snprintf(buf, n, "%.1f%%", p);
    return buf;
}

static const char *ann_count(uint64_t v, char *buf, size_t n)
{
    if (!v) snprintf(buf, n, ".");
    else cli_group(buf, n, v);
    return buf;
}

static const char *ann_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The count columns' heads: the cache levels', RAM's (mem without a cache), chained, max md. */
static void ann_head(const ann *A, FILE *o)
{
    uint32_t l;
    char name[16];
    for (l = 0; l < A->nlev; l++) {
        snprintf(name, sizeof name, "L%u", l + 1);
        fprintf(o, " %11s", name);
    }
    fprintf(o, " %11s %11s %9s", A->nlev ? "RAM" : "mem", "chained", "max md");
}

/* The count columns of c (blank: none). */
static void ann_cols(const ann *A, FILE *o, const ann_counts *c)
{
    uint32_t l;
    char s[32];
    for (l = 0; l < A->nlev; l++) fprintf(o, " %11s", c ? ann_count(c->served[l], s, sizeof s) : "");
    fprintf(o, " %11s", c ? ann_count(c->mem, s, sizeof s) : "");
    fprintf(o, " %11s", c ? ann_count(c->chained, s, sizeof s) : "");
    fprintf(o, " %9s", c ? ann_count(c->max_md, s, sizeof s) : "");
}


#define ANN_WHOLE 60        /* a function of at most this many lines shows whole */
#define ANN_CONTEXT 3       /* else each annotated line with this many around it */

/* The memory instructions of line l (A->in, sorted as the lines are),
   from *q on, each under the line, with its address (--asm). */
static void ann_insns(const ann *A, FILE *o, const ann_line *l, size_t *q)
{
    char s1[32];
    for (; *q < A->nin; ++*q) {
        const ann_insn *in = &A->in[*q];
        int c = in->func != l->func ? (in->func < l->func ? -1 : 1)
                : in->file != l->file ? (in->file < l->file ? -1 : 1)
                : (in->line > l->line) - (in->line < l->line);
        if (c > 0) return;
        if (c < 0) continue;
        fprintf(o, "%7s", ann_share(A, in->c.chain, s1, sizeof s1));
        ann_cols(A, o, &in->c);
        fprintf(o, " %6s  %8llx:  %s\n", "", (unsigned long long)in->addr, in->text);
    }
}

/* One function's lines of one file, beside its source. */
static void ann_section(ann *A, FILE *o, const ann_line *l, size_t n)
{
    const ann_func *fn = &A->f[l[0].func];
    ann_file *F = &A->files[l[0].file];
    int first = 0, last = 0, ln, shown_to = 0, inl = 0;
    size_t q = 0, i, qi = 0;
    ann_counts own;
    char s1[32], s2[32], s3[32];
    unsigned char *show;
    memset(&own, 0, sizeof own);
    ann_load_file(A, F, l[0].first_addr);
    cli_syms_func_lines(&A->sy, fn->lo, fn->hi, F->name, &first, &last);   /* the function's whole source */
    for (i = 0; i < n; i++) {
        ann_add(&own, &l[i].own);
        inl |= ann_accesses(&l[i].inl) != 0;
        if (!first || l[i].line < first) first = l[i].line;
        if (l[i].line > last) last = l[i].line;
    }
    if (F->text && (size_t)last > F->nlines) last = (int)F->nlines;
    fprintf(o, "\n-- %s  %s: ", fn->name, F->name);
    if (own.chain) fprintf(o, "chain %s, ", ann_share(A, own.chain, s1, sizeof s1));
    fprintf(o, "%s %s, %s chained\n", cli_group(s2, sizeof s2, own.mem), A->nlev ? "RAM" : "mem",
            cli_group(s3, sizeof s3, own.chained));
    if (!F->text) fprintf(o, "   (the source %s was not found: the counts alone)\n", F->name);
    if (inl)
        fprintf(o, "   (a line marked + calls code inlined there: its counts include that code's, which count at "
                "its own lines too)\n");
    fprintf(o, "%7s", "chain%");
    ann_head(A, o);
    fprintf(o, " %6s  %s\n", "line", F->text ? "source" : "");
    if (first <= 0 || last < first) return;
    if (!(show = (unsigned char *)calloc((size_t)(last - first) + 1, 1))) return;
    for (ln = first; ln <= last; ln++) show[ln - first] = last - first < ANN_WHOLE || ln == first;
    for (i = 0; i < n; i++)
        for (ln = l[i].line - ANN_CONTEXT; ln <= l[i].line + ANN_CONTEXT; ln++)
            if (ln >= first && ln <= last) show[ln - first] = 1;
    for (ln = first; ln <= last; ln++) {
        const char *text = F->text && (size_t)ln <= F->nlines ? F->line[ln - 1] : "";
        if (!show[ln - first]) continue;
        if (shown_to && ln > shown_to + 1) {
            fprintf(o, "%7s", "");
            ann_cols(A, o, NULL);
            fprintf(o, " %6s\n", "...");
        }
        shown_to = ln;
        while (q < n && l[q].line < ln) q++;
        if (q < n && l[q].line == ln) {
            ann_counts t = ann_total(&l[q]);
            fprintf(o, "%7s", ann_share(A, t.chain, s1, sizeof s1));
            ann_cols(A, o, &t);
            fprintf(o, " %6d%c %s\n", ln, ann_accesses(&l[q].inl) ? '+' : ' ', text);
            ann_insns(A, o, &l[q], &qi);
        } else {
            fprintf(o, "%7s", "");
            ann_cols(A, o, NULL);
            fprintf(o, " %6d  %s\n", ln, text);
        }
    }
    free(show);
}

/* 1 when addr lies in one of the functions --func names (sel: fs's
   flags that ann_check_funcs set). */
static int ann_selected(const cli_funcs *fs, const unsigned char *sel, const ann_args *aa, uint64_t addr)
{
    size_t i;
    if (!aa->nfuncs) return 1;
    for (i = 0; i < fs->n; i++) {
        const cli_func *f = &fs->f[i];
        if (sel[i] && addr >= f->value && addr < f->value + (f->size ? f->size : 1)) return 1;
    }
    return 0;
}

/* Every --func names a function of the program (sel[i] set for each, of
   fs->n flags, when sel is not NULL); else the message of edan trace
   --func (ambiguous, close matches, an import, a shared library's) and -1. */
static int ann_check_funcs(const cli_funcs *fs, const ann_args *aa, const char *elf, unsigned char *sel)
{
    int k, n;
    for (k = 0; k < aa->nfuncs; k++) {
        char msg[2048];
        if ((n = cli_funcs_select(fs, "--func", aa->funcs[k], elf, 0, sel, msg, sizeof msg)) > 0) continue;
        if (n == 0) cli_func_miss(fs, "--func", aa->funcs[k], elf, msg, sizeof msg);
        opt_err("edan annotate", "%s", msg);
        return -1;
    }
    return 0;
}

static uint64_t ann_u64(const edan_json *o, const char *key)
{
    double v = edan_json_number(edan_json_get(o, key), 0);
    return v > 0 ? (uint64_t)v : 0;
}

/* The report's parts that the annotation reads, and the program's symbols. */
typedef struct ann_report {
    char *text;                 /* the report's bytes */
    edan_json *root;
    const edan_json *cfgs, *c, *hs;    /* its configurations, the first, its memory instructions */
    const char *elf;            /* the program */
    cli_funcs fs;               /* its functions, for --func */
    unsigned char *sel;         /* ... those --func names */
    int have_funcs;
} ann_report;

/* Reads report rep_path and opens its program's symbols (A->sy): 0, or
   -1 with a message. */
static int ann_open(ann_report *R, ann *A, const char *rep_path, const char *elf_opt, const ann_args *aa)
{
    const char *why = NULL;
    if (cli_report_read("edan annotate", rep_path, &R->text, &R->root, &R->cfgs)) return -1;
    R->c = edan_json_at(R->cfgs, 0);
    R->hs = edan_json_get(R->c, "hotspots");
    if (edan_json_kind(R->hs) != EDAN_JSON_ARRAY)
        return opt_ferr("edan annotate", rep_path, edan_json_line(R->c), "the report has no memory instructions: it "
                        "was made without --top (edan trace --json --top 1000000 --chain)");
    R->elf = elf_opt ? elf_opt : edan_json_string(edan_json_get(R->root, "elf"), NULL);
    if (!R->elf) return opt_err("edan annotate", "%s does not name its program: give --elf PROG", rep_path);
    if (cli_syms_open(&A->sy, R->elf, 0, &why)) return opt_err("edan annotate", "%s: %s", R->elf, why);
    if (aa->nfuncs) {
        if (cli_funcs_load(&R->fs, R->elf, &why)) return opt_err("edan annotate", "%s: %s", R->elf, why);
        R->have_funcs = 1;
        if (!(R->sel = (unsigned char *)calloc(R->fs.n ? R->fs.n : 1, 1))) return ann_oom();
        if (ann_check_funcs(&R->fs, aa, R->elf, R->sel)) return -1;
    }
    return 0;
}

static int ann_insn_addr_cmp(const void *x, const void *y)
{
    const ann_insn *a = (const ann_insn *)x, *b = (const ann_insn *)y;
    return (a->addr > b->addr) - (a->addr < b->addr);
}

static int ann_insn_line_cmp(const void *x, const void *y)
{
    const ann_insn *a = (const ann_insn *)x, *b = (const ann_insn *)y;
    if (a->func != b->func) return a->func < b->func ? -1 : 1;
    if (a->file != b->file) return a->file < b->file ? -1 : 1;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    return ann_insn_addr_cmp(x, y);
}

static int ann_push(ann *A, const ann_line *L)
{
    ann_line *nl = (ann_line *)cli_grow(A->l, &A->capl, A->nl, sizeof *nl, 256);
    if (!nl) return ann_oom();
    A->l = nl;
    A->l[A->nl++] = *L;
    return 0;
}

/* The report's memory instructions (of the --func functions) into
   in[0 .. *n), sorted by address: 0, or -1 with a message. */
static int ann_read_insns(ann *A, const ann_report *R, const ann_args *aa, const char *rep_path, ann_insn **in,
                          size_t *n)
{
    size_t i, nh = edan_json_len(R->hs), cap = 0;
    *in = NULL;
    *n = 0;
    for (i = 0; i < nh; i++) {
        const edan_json *h = edan_json_at(R->hs, i), *sv = edan_json_get(h, "served");
        const char *as = edan_json_string(edan_json_get(h, "address"), NULL);
        ann_insn I, *ni;
        uint32_t l;
        if (!as)
            return opt_ferr("edan annotate", rep_path, edan_json_line(h), "a memory instruction without an address: "
                            "the trace has no PCs (RISC-V: edan trace --text-pc or --binary)");
        memset(&I, 0, sizeof I);
        I.addr = strtoull(as, NULL, 16);
        if (!ann_selected(&R->fs, R->sel, aa, I.addr)) continue;
        snprintf(I.text, sizeof I.text, "%s", edan_json_string(edan_json_get(h, "instruction"),
                                                               edan_json_string(edan_json_get(h, "op"), "?")));
        I.c.mem = ann_u64(h, "mem_vertices");
        I.c.chained = ann_u64(h, "chained");
        I.c.max_md = ann_u64(h, "max_md");
        I.c.chain = ann_u64(h, "chain");
        if (edan_json_len(sv) > EDAN_MAX_LEVELS)
            return opt_ferr("edan annotate", rep_path, edan_json_line(sv), "\"served\" has %zu levels; at most %d",
                            edan_json_len(sv), EDAN_MAX_LEVELS);
        for (l = 0; l < edan_json_len(sv); l++) {
            double v = edan_json_number(edan_json_at(sv, l), 0);
            I.c.served[l] = v > 0 ? (uint64_t)v : 0;
        }
        if (edan_json_len(sv) > A->nlev) A->nlev = (uint32_t)edan_json_len(sv);
        if (!(ni = (ann_insn *)cli_grow(*in, &cap, *n, sizeof *ni, 256))) return ann_oom();
        *in = ni;
        ni[(*n)++] = I;
    }
    qsort(*in, *n, sizeof **in, ann_insn_addr_cmp);
    return 0;
}

#define ANN_SITES 32        /* the call sites of inlined code, at most, per address */

/* The memory instructions (of the --func functions), placed at their
   functions and lines, one entry per function and line; the code inlined
   at a line (a call of an inlined function) counts there too, at each
   call site around it. *no_line: some address has no line. 0, or -1 with a
   message. */
static int ann_collect(ann *A, const ann_report *R, const ann_args *aa, const char *rep_path, int *no_line)
{
    ann_insn *in;
    size_t i, n, nin, k;
    if (ann_read_insns(A, R, aa, rep_path, &in, &nin)) {
        free(in);
        return -1;
    }
    for (i = 0, k = 0; i < nin; i++) {
        ann_line L;
        const char *sf[ANN_SITES];
        int sl[ANN_SITES], ns, j;
        memset(&L, 0, sizeof L);
        L.first_addr = in[i].addr;
        L.own = in[i].c;
        if (ann_place(A, L.first_addr, &L.func, &L.file, &L.line)) goto oom;
        if (L.func == (size_t)-1) {
            A->unplaced += L.own.mem;
            continue;
        }
        if (L.file == (size_t)-1) *no_line = 1;
        if (ann_push(A, &L)) goto fail;
        in[i].func = L.func;
        in[i].file = L.file;
        in[i].line = L.line;
        in[k++] = in[i];
        ns = L.file == (size_t)-1 ? 0 : cli_syms_call_sites(&A->sy, L.first_addr, sf, sl, ANN_SITES);
        for (j = 0; j < ns; j++) {      /* its call sites: the same function's, each line once */
            ann_line C;
            memset(&C, 0, sizeof C);
            C.func = L.func;
            C.line = sl[j];
            C.first_addr = L.first_addr;
            C.inl = L.own;
            if ((C.file = ann_file_id(A, sf[j])) == (size_t)-2) goto oom;
            if ((C.file != L.file || C.line != L.line) && ann_push(A, &C)) goto fail;
        }
    }
    if (aa->asm_) {
        A->in = in;
        A->nin = k;
        qsort(A->in, A->nin, sizeof *A->in, ann_insn_line_cmp);
    } else free(in);
    qsort(A->l, A->nl, sizeof *A->l, ann_line_cmp);
    for (i = 0, n = 0; i < A->nl; i++) {
        if (n && !ann_line_cmp(&A->l[n - 1], &A->l[i])) {
            ann_line *p = &A->l[n - 1];
            ann_add(&p->own, &A->l[i].own);
            ann_add(&p->inl, &A->l[i].inl);
            if (A->l[i].first_addr < p->first_addr) p->first_addr = A->l[i].first_addr;
        } else A->l[n++] = A->l[i];
    }
    A->nl = n;
    for (i = 0; i < A->nl; i++) A->chain_total += A->l[i].own.chain;
    return 0;
oom:
    ann_oom();
fail:
    free(in);
    return -1;
}

/* The header: what was annotated, W, chained, D and the critical chain,
   and what the lines below leave out. */
static void ann_header(const ann *A, const ann_report *R, const char *rep_path, int no_line, FILE *o)
{
    const edan_json *root = R->root;
    const char *elf = R->elf;
    char s1[32], s2[32], s3[32], s4[32], s5[32];
    fprintf(o, "edan annotate: %s", edan_json_string(edan_json_get(root, "source"), rep_path));
    if (strcmp(elf, edan_json_string(edan_json_get(root, "source"), ""))) fprintf(o, " (program %s)", elf);
    fprintf(o, " [%s]%s\n", edan_json_string(edan_json_get(R->c, "name"), "?"),
            edan_json_len(R->cfgs) > 1 ? " (the report's first configuration)" : "");
    if (edan_json_bool(edan_json_get(root, "partial"), 0))
        fprintf(o, "PARTIAL: %s\n", edan_json_string(edan_json_get(root, "partial_reason"), "the run ended early"));
    fprintf(o, "W = %s memory access vertices, %s chained; D = %s", cli_group(s1, sizeof s1, A->W),
            cli_group(s2, sizeof s2, A->chained), cli_group(s3, sizeof s3, A->D));
    if (!A->W) fprintf(o, "\n");
    else if (A->have_chain && !A->chain_total)
        fprintf(o, ": the critical chain is %s RAM access%s in a row, none of them at the lines below\n",
                cli_group(s4, sizeof s4, A->D), A->D == 1 ? "" : "es");
    else if (A->have_chain)
        fprintf(o, ": the critical chain is %s RAM access%s in a row, %s of them (%s) at the lines below\n",
                cli_group(s4, sizeof s4, A->D), A->D == 1 ? "" : "es", cli_group(s5, sizeof s5, A->chain_total),
                ann_share(A, A->chain_total, s1, sizeof s1));
    else fprintf(o, " (no critical chain: %s)\n", A->no_chain);
    if (!strcmp(edan_json_string(edan_json_get(root, "isa"), ""), "x86-64"))
        fprintf(o, "(x86-64: an instruction's memory operands are vertices of their own: mem counts accesses)\n");
    if (A->unplaced)
        fprintf(o, "(%s memory vertices lie outside the functions of %s: in a shared library, the loader, or code "
                "without a symbol)\n",
                cli_group(s1, sizeof s1, A->unplaced), elf);
    if (no_line && A->nfiles == 0)
        fprintf(o, "(no address has a source line: %s has no DWARF line table; build it with -g)\n", elf);
}

/* The summary: the top lines with the most of the chain. 0, or -1. */
static int ann_summary(const ann *A, long top, FILE *o)
{
    ann_line *r = (ann_line *)malloc(A->nl * sizeof *r);
    size_t i, shown;
    char s1[32], s2[32];
    if (!r) return ann_oom();
    memcpy(r, A->l, A->nl * sizeof *r);
    qsort(r, A->nl, sizeof *r, ann_rank_cmp);
    shown = A->nl < (size_t)top ? A->nl : (size_t)top;
    fprintf(o, "\nLines by their %s (%zu of %zu):\n", A->have_chain ? "part of the critical chain" : "chained accesses",
            shown, A->nl);
    fprintf(o, "%7s %11s", "chain%", "chain");
    ann_head(A, o);
    fprintf(o, "  %s\n", "where");
    for (i = 0; i < shown; i++) {
        const ann_line *l = &r[i];
        const ann_counts t = ann_total(l);
        char where[600];
        if (l->file == (size_t)-1)
            snprintf(where, sizeof where, "%s  0x%llx (no line)", A->f[l->func].name,
                     (unsigned long long)l->first_addr);
        else
            snprintf(where, sizeof where, "%s  %s:%d%s", A->f[l->func].name, ann_base(A->files[l->file].name), l->line,
                     ann_accesses(&l->inl) ? " (with the code inlined there)" : "");
        fprintf(o, "%7s %11s", ann_share(A, t.chain, s1, sizeof s1), A->have_chain ? ann_count(t.chain, s2, sizeof s2) : "-");
        ann_cols(A, o, &t);
        fprintf(o, "  %s\n", where);
    }
    free(r);
    return 0;
}

/* The source of each function, the one with the most of the chain first. 0, or -1. */
static int ann_sources(ann *A, FILE *o)
{
    size_t *start, ns = 0, i, k;
    ann_line *best;
    if (!(start = (size_t *)malloc((A->nl + 1) * sizeof *start)) ||
        !(best = (ann_line *)malloc((A->nl + 1) * sizeof *best))) {
        free(start);
        return ann_oom();
    }
    /* sections: a function's lines of one file (line-less ones left out) */
    for (i = 0; i < A->nl; i++) {
        if (A->l[i].file == (size_t)-1) continue;
        if (ns && A->l[start[ns - 1]].func == A->l[i].func && A->l[start[ns - 1]].file == A->l[i].file) {
            ann_add(&best[ns - 1].own, &A->l[i].own);
            continue;
        }
        best[ns] = A->l[i];
        memset(&best[ns].inl, 0, sizeof best[ns].inl);     /* sections rank by their own instructions */
        best[ns].line = (int)ns;       /* the section's index, to sort the sections */
        start[ns++] = i;
    }
    qsort(best, ns, sizeof *best, ann_rank_cmp);
    for (k = 0; k < ns; k++) {
        size_t s = start[best[k].line], e = s;
        while (e < A->nl && A->l[e].func == A->l[s].func && A->l[e].file == A->l[s].file) e++;
        ann_section(A, o, &A->l[s], e - s);
    }
    free(start);
    free(best);
    return 0;
}

/* The annotation of report `rep` (the JSON text of edan trace or analyze
   with --top and --chain) of program elf. 0, or 2 with a message. */
static int ann_render(const char *rep_path, const char *elf_opt, const ann_args *aa, FILE *o)
{
    ann_report R;
    ann A;
    const edan_json *cc;
    size_t i;
    int rc = 2, no_line = 0;
    memset(&A, 0, sizeof A);
    memset(&R, 0, sizeof R);
    if (ann_open(&R, &A, rep_path, elf_opt, aa)) goto out;
    A.D = ann_u64(R.c, "D");
    A.W = ann_u64(R.c, "W");
    A.chained = ann_u64(R.c, "chained");
    cc = edan_json_get(R.c, "critical_chain");
    A.have_chain = edan_json_bool(edan_json_get(cc, "found"), 0);
    A.no_chain = !cc ? "the report was made without --chain"
                 : edan_json_string(edan_json_get(cc, "why"), "not found");
    if (ann_collect(&A, &R, aa, rep_path, &no_line)) goto out;
    ann_header(&A, &R, rep_path, no_line, o);
    if (!A.nl)
        fprintf(o, "nothing to annotate: no memory access vertices%s%s\n",
                aa->nfuncs ? " in " : A.unplaced ? " in the functions of " : "",
                aa->nfuncs ? aa->funcs[0] : A.unplaced ? R.elf : "");
    else if ((aa->top && ann_summary(&A, aa->top, o)) || (!aa->no_source && ann_sources(&A, o)))
        goto out;
    rc = 0;
out:
    if (R.have_funcs) cli_funcs_free(&R.fs);
    free(R.sel);
    for (i = 0; i < A.nf; i++) free(A.f[i].name);
    for (i = 0; i < A.nfiles; i++) {
        free(A.files[i].name);
        free(A.files[i].path);
        free(A.files[i].text);
        free(A.files[i].line);
    }
    free(A.f);
    free(A.files);
    free(A.l);
    free(A.in);
    if (A.sy.dwfl) cli_syms_close(&A.sy);
    edan_json_free(R.root);
    free(R.text);
    return rc;
}

/* ---- running edan trace or edan analyze ------------------------------------ */
/* What the input is: 1 a program (ELF), 2 a JSON report, 0 a trace; -1
   (a message printed) when it cannot be read. */
static int ann_kind(const char *path)
{
    unsigned char h[64];
    ssize_t n, i;
    int fd;
    if (!strcmp(path, "-")) return 0;
    if ((fd = open(path, O_RDONLY)) < 0) {
        if (errno == ENOENT && !strchr(path, '/')) return 1;   /* a program on PATH: edan trace finds it */
        opt_err("edan annotate", "%s: %s", path, strerror(errno));
        return -1;
    }
    n = read(fd, h, sizeof h);
    close(fd);
    if (n >= 4 && !memcmp(h, "\177ELF", 4)) return 1;
    for (i = 0; i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\t' || h[i] == '\r'); i++) {}
    return i < n && h[i] == '{' ? 2 : 0;
}

/* Runs cmd (edan_cmd_trace or edan_cmd_analyze) on argv with standard
   output going to descriptor fd. */
static int ann_run(int (*cmd)(int, char **), int argc, char **argv, int fd)
{
    int saved, rc;
    fflush(stdout);
    if ((saved = dup(1)) < 0 || dup2(fd, 1) < 0) {
        if (saved >= 0) close(saved);
        opt_err("edan annotate", "%s", strerror(errno));
        return 2;
    }
    rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    return rc;
}

/* One option of annotate's own, or one it passes on (an option of edan
   trace, an analysis option) as it was given, argv[start .. end): 0, or
   -1 with a message. scratch: the analysis options checked now. */
static int ann_option(ann_args *aa, cli_analysis *scratch, int id, const char *val, char **argv, int start, int end)
{
    uint32_t top;
    if (val && !*val && id < CLI_ANALYSIS_ID)
        return opt_err("edan annotate", "%.*s '': an empty value (see edan annotate --help)",
                       (int)strcspn(argv[start], "="), argv[start]);
    if (id == CLI_OPT_JSON)
        return opt_err("edan annotate", "%s: the annotation is text; edan trace --json --top N --chain gives the "
                       "numbers as JSON", argv[start]);
    if (id == CLI_OPT_CONFIG)
        return opt_err("edan annotate", "%s: one configuration is annotated: run edan annotate once per "
                       "configuration", argv[start]);
    if (id == CLI_SCOPE_FUNC) {
        if (aa->nfuncs == 64) return opt_err("edan annotate", "at most 64 --func names");
        aa->funcs[aa->nfuncs++] = val;
    } else if (id == ANN_TOP) {
        if (opt_u32(val, 0, 1000000, &top))
            return opt_err("edan annotate", "--top %s: expected a count of lines, 0 to 1000000", val);
        aa->top = top;
    } else if (id == ANN_NO_SOURCE) {
        aa->no_source = 1;
    } else if (id == ANN_ASM) {
        aa->asm_ = 1;
    } else if (id == ANN_ELF) {
        aa->elf = val;
    } else if (id == ANN_OUTPUT) {
        aa->output = val;
    } else {
        if (id >= CLI_ANALYSIS_ID && cli_analysis_apply(scratch, id, val)) return -1;
        if (id == CLI_OPT_CHAIN) aa->chain_given = 1;
        if (id < CLI_ANALYSIS_ID) aa->tracing_opt = argv[start];
        while (start < end) aa->fwd[aa->nfwd++] = argv[start++];
    }
    return 0;
}

/* The options, up to "--" or the input, whose index goes to *prog: 0; 1
   when --help was printed; -1 (a message printed) when they are wrong. */
static int ann_options(ann_args *aa, int argc, char **argv, int *prog)
{
    opt_def own[ANN_NOPTS], tab[ANN_NOPTS + CLI_ANALYSIS_ROOM];
    size_t n = cli_scope_rows(own, ANN_NOPTS, annotate_opts, ANN_NOPTS, 1);
    n = opt_cat(tab, sizeof tab / sizeof tab[0], own, n, cli_analysis_opts, cli_analysis_nopts);
    cli_analysis scratch;
    const char *val;
    int i = 1, k, start;
    cli_analysis_init(&scratch);
    *prog = -1;
    while ((k = cli_next_before_program("edan annotate", tab, n, argc, argv, &i, &start, &val, prog)) != OPT_END) {
        if (k == OPT_ERROR) return -1;
        if (k == ANN_HELP) {
            opt_help(stdout, tab, n);
            return 1;
        }
        if (ann_option(aa, &scratch, k, val, argv, start, i)) return -1;
    }
    if (*prog < 0 || *prog >= argc)
        return opt_err("edan annotate", "no program, trace or report given (edan annotate [options] -- PROGRAM ARGS; "
                       "see edan annotate --help)");
    return 0;
}

/* What the input argv[prog] is (ann_kind), that the options fit it, and
   that the output can be written; for a trace, that the --func names are
   the program's (a mistyped one is said before a long analysis). 0, or -1
   with a message. */
static int ann_check_input(const ann_args *aa, int argc, char **argv, int prog, int *kind)
{
    const char *input = argv[prog];
    if (!strcmp(argv[prog - 1], "--")) *kind = 1;      /* -- PROGRAM */
    else if ((*kind = ann_kind(input)) < 0) return -1;
    if (*kind != 1 && prog + 1 < argc)
        return opt_err("edan annotate", "one %s at a time (got %s and %s)", *kind == 2 ? "report" : "trace", input,
                       argv[prog + 1]);
    if (*kind == 1 && aa->elf)
        return opt_err("edan annotate", "--elf names the program of a trace; %s is a program, which runs", input);
    if (*kind != 1 && aa->tracing_opt)
        return opt_err("edan annotate", "%s is an option of edan trace, for a program; %s is a %s", aa->tracing_opt,
                       input, *kind == 2 ? "report" : "trace");
    if (*kind == 2 && aa->nfwd)
        return opt_err("edan annotate", "%s: a report is annotated as it was analysed (%s is an analysis option)",
                       input, aa->fwd[0]);
    if (*kind == 0 && !aa->elf)
        return opt_err("edan annotate", "%s is a trace: give --elf PROG, the program it came from", input);
    if (aa->output && strcmp(aa->output, "-")) {
        const files_role outs[] = {{aa->output, "-o"}};
        const files_role ins[] = {{input, *kind == 1 ? "the program" : *kind == 2 ? "the report" : "the trace"},
                                  {aa->elf, "--elf"}};
        char err[600];
        if (files_check_roles(outs, 1, ins, 2, err, sizeof err)) return opt_err("edan annotate", "%s", err);
        if (cli_output_check(aa->output)) return -1;
    }
    if (*kind == 0) {
        cli_funcs fs;
        const char *why;
        int bad;
        if (cli_funcs_load(&fs, aa->elf, &why)) return opt_err("edan annotate", "--elf %s: %s", aa->elf, why);
        bad = ann_check_funcs(&fs, aa, aa->elf, NULL);
        cli_funcs_free(&fs);
        if (bad) return -1;
    }
    return 0;
}

/* Where edan trace or edan analyze writes the report annotate reads. */
typedef struct ann_tmp { char dir[4200], rep[4300]; } ann_tmp;

/* The report of a program (edan trace) or of a trace (edan analyze
   --elf), made in a private directory (tmp->dir; "" until it exists): 0,
   or the exit status (said) when there is none. *run_rc: the status of
   edan trace. */
static int ann_analyse(const ann_args *aa, int argc, char **argv, int prog, int kind, ann_tmp *tmp, int *run_rc)
{
    const char *tmpdir = getenv("TMPDIR");
    char **av;
    int n = 0, k, fd;
    if (!tmpdir || !*tmpdir || strlen(tmpdir) > 4000) tmpdir = "/tmp";
    snprintf(tmp->dir, sizeof tmp->dir, "%s/edan-annotate.XXXXXX", tmpdir);
    if (!mkdtemp(tmp->dir)) {
        tmp->dir[0] = 0;
        return opt_err("edan annotate", "cannot create a temporary directory in %s: %s", tmpdir, strerror(errno)), 2;
    }
    snprintf(tmp->rep, sizeof tmp->rep, "%s/report.json", tmp->dir);
    if (!(av = (char **)calloc((size_t)argc + (size_t)aa->nfwd + 2 * (size_t)aa->nfuncs + 24, sizeof *av)))
        return ann_oom(), 2;
    av[n++] = (char *)(kind == 1 ? "trace" : "analyze");
    for (k = 0; k < aa->nfwd; k++) av[n++] = (char *)aa->fwd[k];
    av[n++] = (char *)"--json";
    av[n++] = (char *)"--top";
    av[n++] = (char *)"1000000";
    if (!aa->chain_given) av[n++] = (char *)"--chain";
    if (kind == 1) {
        for (k = 0; k < aa->nfuncs; k++) {
            av[n++] = (char *)cli_scope_name(CLI_SCOPE_FUNC);
            av[n++] = (char *)aa->funcs[k];
        }
        av[n++] = (char *)"-o";
        av[n++] = tmp->rep;
        av[n++] = (char *)"--";
        for (k = prog; k < argc; k++) av[n++] = argv[k];
        /* the program's output goes to standard error, the annotation to standard output */
        *run_rc = ann_run(edan_cmd_trace, n, av, 2);
    } else {
        av[n++] = (char *)"--elf";
        av[n++] = (char *)aa->elf;
        av[n++] = (char *)"--";
        av[n++] = argv[prog];
        if ((fd = open(tmp->rep, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0) {
            free(av);
            return opt_err("edan annotate", "%s: %s", tmp->rep, strerror(errno)), 2;
        }
        *run_rc = ann_run(edan_cmd_analyze, n, av, fd);
        close(fd);
        if (*run_rc) {
            free(av);
            return 2;
        }
    }
    free(av);
    if (access(tmp->rep, R_OK) != 0) return *run_rc ? *run_rc : 2;     /* edan trace said why */
    return 0;
}

/* The annotation of report (of program elf: NULL, the report's) to -o or
   standard output: 0, or 2 with a message. */
static int ann_write(const ann_args *aa, const char *report, const char *elf)
{
    files_out out;
    char err[600];
    int rc;
    if (files_out_open(&out, aa->output ? aa->output : "-", err, sizeof err))
        return opt_err("edan annotate", "cannot write %s", err), 2;
    rc = ann_render(report, elf, aa, out.f);
    if (rc) files_out_discard(&out);
    else if (files_out_close(&out, err, sizeof err)) rc = (opt_err("edan annotate", "cannot write %s", err), 2);
    return rc;
}

int edan_cmd_annotate(int argc, char **argv)
{
    ann_args aa;
    ann_tmp tmp;
    int prog, kind, rc, run_rc = 0;
    const char *report;
    memset(&aa, 0, sizeof aa);
    aa.top = 10;
    tmp.dir[0] = 0;
    if (!(aa.fwd = (const char **)calloc((size_t)argc * 2 + 16, sizeof *aa.fwd))) return ann_oom(), 2;
    rc = ann_options(&aa, argc, argv, &prog);
    if (rc || ann_check_input(&aa, argc, argv, prog, &kind)) {
        free(aa.fwd);
        return rc > 0 ? 0 : 2;
    }
    if (kind == 2) report = argv[prog];
    else if ((rc = ann_analyse(&aa, argc, argv, prog, kind, &tmp, &run_rc)) != 0) goto out;
    else report = tmp.rep;
    /* a program run: its path as given (the report's is not its bytes when they are not UTF-8) */
    rc = ann_write(&aa, report, kind == 1 && strchr(argv[prog], '/') ? argv[prog] : aa.elf);
    if (!rc && run_rc) {
        /* the program failed, or the run was stopped (edan trace said so): what ran is annotated */
        if (run_rc != 1)
            opt_err("edan annotate", "%s ended with status %d; the annotation covers what ran", argv[prog], run_rc);
        rc = 1;
    }
out:
    if (tmp.dir[0]) {
        unlink(tmp.rep);
        rmdir(tmp.dir);
    }
    free(aa.fwd);
    return rc;
}
