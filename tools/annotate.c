/* tools/annotate.c - `edan annotate`: the analysis per source line, beside
   the source, as perf annotate and cg_annotate show theirs: each line's
   memory vertices, chained ones, largest memory depth, and its part of the
   critical chain (the D RAM accesses in a row that make the memory depth).

   It runs `edan trace` (a program) or `edan analyze --elf` (a trace) for a
   JSON report with every memory instruction (--top) and the critical chain
   (--chain), or reads such a report, and names its addresses' functions and
   lines from the program's symbols and DWARF line table (libdwfl). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include "cli.h"
#include "files.h"
#include "suggest.h"

static const char annotate_usage[] =
    "usage: edan annotate [options] [--] PROGRAM [ARGS...]\n"
    "       edan annotate [options] --elf PROGRAM TRACE\n"
    "       edan annotate [options] REPORT.json\n"
    "\n"
    "The analysis per source line, printed beside the source (as perf annotate\n"
    "and cg_annotate do): for each line of the program's functions, its memory\n"
    "access vertices (\"mem\"), those chained (waiting for an earlier RAM access),\n"
    "the largest memory depth md among them, and the line's part of the critical\n"
    "chain: of the D RAM accesses in a row that make the memory depth, how many\n"
    "are the line's (\"chain\", and its share of D). A summary of the lines with\n"
    "the most of the chain comes first, then each function's source.\n"
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
    "Options:\n"
    "  --func NAME        annotate function NAME only (repeatable); a program runs\n"
    "                     traced in it alone (edan trace --func). C++ names as\n"
    "                     written: geo::dot<double>, a signature, the symbol\n"
    "  --top N            the summary's N lines (default 10; 0: no summary)\n"
    "  --no-source        the summary alone\n"
    "  --elf PROG         the program a TRACE came from (REPORT.json: its own)\n"
    "  -o, --output FILE  write the annotation to FILE instead of standard output\n"
    "  --chain=VERTICES   the largest eDAG whose chain is found (default 4000000,\n"
    "                     about 120 bytes each: edan trace --chain)\n"
    "Options of edan trace for a PROGRAM: --region, --exclude, --threads,\n"
    "--no-markers, --max-insns, --max-seconds, --qemu, --plugin, --sysroot\n"
    "(edan trace -h says what each does). The program's standard output goes to\n"
    "standard error.\n"
    "\n";

/* ---- the arguments --------------------------------------------------------- */
typedef struct ann_args {
    const char **fwd;           /* options for edan trace or edan analyze */
    int nfwd;
    const char *funcs[64];
    int nfuncs;
    long top;
    int no_source;
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

/* One source line of a function (line 0: addresses without a line). */
typedef struct ann_line {
    size_t func, file;          /* indexes; file (size_t)-1: no line table entry */
    int line;
    uint64_t mem, chained, max_md, chain, first_addr;
} ann_line;

typedef struct ann {
    cli_syms sy;
    Dwfl_Module *mod;
    ann_func *f; size_t nf, capf;
    ann_file *files; size_t nfiles, capfiles;
    ann_line *l; size_t nl, capl;
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
    GElf_Sym sym;
    GElf_Off off;
    const char *name, *fn, *src;
    ann_func *nf;
    int line;
    if (A->nf && addr >= A->f[A->nf - 1].lo && addr < A->f[A->nf - 1].hi) return A->nf - 1;
    name = dwfl_module_addrinfo(A->mod, (Dwarf_Addr)addr + A->sy.mbias, &off, &sym, NULL, NULL, NULL);
    if (!name) return (size_t)-1;
    cli_syms_at(&A->sy, addr, &fn, &src, &line);        /* the name demangled */
    if (!(nf = (ann_func *)cli_grow(A->f, &A->capf, A->nf, sizeof *nf, 16))) return (size_t)-2;
    A->f = nf;
    nf[A->nf].lo = addr - off;
    nf[A->nf].hi = addr - off + (sym.st_size ? sym.st_size : 1);
    if (!(nf[A->nf].name = strdup(fn ? fn : name))) return (size_t)-2;
    return A->nf++;
}

/* The function and source line of address `addr` of the program file. */
static int ann_place(ann *A, uint64_t addr, size_t *func, size_t *file, int *line)
{
    Dwfl_Line *dl;
    const char *src = NULL;
    *file = (size_t)-1;
    *line = 0;
    if ((*func = ann_func_at(A, addr)) == (size_t)-2) return -1;
    if (*func == (size_t)-1) return 0;
    if ((dl = dwfl_module_getsrc(A->mod, (Dwarf_Addr)addr + A->sy.mbias)) != NULL)
        src = dwfl_lineinfo(dl, NULL, line, NULL, NULL, NULL);
    if (!src) {
        *line = 0;
        return 0;
    }
    *file = ann_file_id(A, src);
    return *file == (size_t)-2 ? -1 : 0;
}

/* The directory the DWARF says src was compiled in, or NULL. */
static const char *ann_comp_dir(ann *A, uint64_t addr)
{
    Dwfl_Line *dl = dwfl_module_getsrc(A->mod, (Dwarf_Addr)addr + A->sy.mbias);
    return dl ? dwfl_line_comp_dir(dl) : NULL;
}

/* Reads a source file: as named, under the compilation directory, or from
   the current directory. */
static void ann_load_file(ann *A, ann_file *F, uint64_t addr)
{
    const char *dir = ann_comp_dir(A, addr), *base;
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

static int ann_addr_cmp(const void *x, const void *y)
{
    const ann_line *a = (const ann_line *)x, *b = (const ann_line *)y;
    return (a->first_addr > b->first_addr) - (a->first_addr < b->first_addr);
}

static int ann_line_cmp(const void *x, const void *y)
{
    const ann_line *a = (const ann_line *)x, *b = (const ann_line *)y;
    if (a->func != b->func) return a->func < b->func ? -1 : 1;
    if (a->file != b->file) return a->file < b->file ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* Most of the chain first, then the most chained, the most accesses. */
static int ann_rank(const ann_line *a, const ann_line *b)
{
    if (a->chain != b->chain) return a->chain > b->chain ? -1 : 1;
    if (a->chained != b->chained) return a->chained > b->chained ? -1 : 1;
    if (a->mem != b->mem) return a->mem > b->mem ? -1 : 1;
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

/* The lines of the program file's line table within [lo, hi) in file F:
   the first and last, so that a function's whole source shows. */
static void ann_func_extent(ann *A, const ann_func *fn, const ann_file *F, int *first, int *last)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(A->mod, (Dwarf_Addr)fn->lo + A->sy.mbias, &bias);
    size_t n = 0, i;
    Dwarf_Die *scopes = NULL;
    int ns, k;
    if (!cu) return;
    /* the line of its name (DWARF's declaration line) */
    ns = dwarf_getscopes(cu, (Dwarf_Addr)fn->lo + A->sy.mbias - bias, &scopes);
    for (k = ns - 1; k >= 0; k--) {
        const char *df;
        int dl;
        if (dwarf_tag(&scopes[k]) != DW_TAG_subprogram) continue;
        if ((df = dwarf_decl_file(&scopes[k])) && !strcmp(df, F->name) && dwarf_decl_line(&scopes[k], &dl) == 0 &&
            dl > 0)
            *first = dl;
        break;
    }
    free(scopes);
    if (dwfl_getsrclines(cu, &n) != 0) return;
    for (i = 0; i < n; i++) {
        Dwfl_Line *dl = dwfl_onesrcline(cu, i);
        Dwarf_Addr a;
        int ln;
        const char *src = dl ? dwfl_lineinfo(dl, &a, &ln, NULL, NULL, NULL) : NULL;
        if (!src || ln <= 0 || strcmp(src, F->name)) continue;
        a -= A->sy.mbias;
        if (a < fn->lo || a >= fn->hi) continue;
        if (!*first || ln < *first) *first = ln;
        if (ln > *last) *last = ln;
    }
}

#define ANN_WHOLE 60        /* a function of at most this many lines shows whole */
#define ANN_CONTEXT 3       /* else each annotated line with this many around it */

/* One function's lines of one file, beside its source. */
static void ann_section(ann *A, FILE *o, const ann_line *l, size_t n)
{
    const ann_func *fn = &A->f[l[0].func];
    ann_file *F = &A->files[l[0].file];
    int first = 0, last = 0, ln, shown_to = 0;
    size_t q = 0, i;
    uint64_t mem = 0, chained = 0, chain = 0;
    char s1[32], s2[32], s3[32], s4[32];
    unsigned char *show;
    ann_load_file(A, F, l[0].first_addr);
    ann_func_extent(A, fn, F, &first, &last);
    for (i = 0; i < n; i++) {
        mem += l[i].mem;
        chained += l[i].chained;
        chain += l[i].chain;
        if (!first || l[i].line < first) first = l[i].line;
        if (l[i].line > last) last = l[i].line;
    }
    if (F->text && (size_t)last > F->nlines) last = (int)F->nlines;
    fprintf(o, "\n-- %s  %s: ", fn->name, F->name);
    if (chain) fprintf(o, "chain %s, ", ann_share(A, chain, s1, sizeof s1));
    fprintf(o, "%s mem, %s chained\n", cli_group(s2, sizeof s2, mem), cli_group(s3, sizeof s3, chained));
    if (!F->text) fprintf(o, "   (the source %s was not found: the counts alone)\n", F->name);
    fprintf(o, "%7s %11s %11s %9s %6s  %s\n", "chain%", "mem", "chained", "max md", "line", F->text ? "source" : "");
    if (first <= 0 || last < first) return;
    if (!(show = (unsigned char *)calloc((size_t)(last - first) + 1, 1))) return;
    for (ln = first; ln <= last; ln++) show[ln - first] = last - first < ANN_WHOLE || ln == first;
    for (i = 0; i < n; i++)
        for (ln = l[i].line - ANN_CONTEXT; ln <= l[i].line + ANN_CONTEXT; ln++)
            if (ln >= first && ln <= last) show[ln - first] = 1;
    for (ln = first; ln <= last; ln++) {
        const char *text = F->text && (size_t)ln <= F->nlines ? F->line[ln - 1] : "";
        if (!show[ln - first]) continue;
        if (shown_to && ln > shown_to + 1) fprintf(o, "%7s %11s %11s %9s %6s\n", "", "", "", "", "...");
        shown_to = ln;
        while (q < n && l[q].line < ln) q++;
        if (q < n && l[q].line == ln)
            fprintf(o, "%7s %11s %11s %9s %6d  %s\n", ann_share(A, l[q].chain, s1, sizeof s1),
                    ann_count(l[q].mem, s2, sizeof s2), ann_count(l[q].chained, s3, sizeof s3),
                    ann_count(l[q].max_md, s4, sizeof s4), ln, text);
        else
            fprintf(o, "%7s %11s %11s %9s %6d  %s\n", "", "", "", "", ln, text);
    }
    free(show);
}

/* 1 when addr lies in one of the functions --func names. */
static int ann_selected(const cli_funcs *fs, const ann_args *aa, uint64_t addr)
{
    size_t i;
    int k;
    if (!aa->nfuncs) return 1;
    for (i = 0; i < fs->n; i++) {
        const cli_func *f = &fs->f[i];
        if (addr < f->value || addr >= f->value + (f->size ? f->size : 1)) continue;
        for (k = 0; k < aa->nfuncs; k++)
            if (cli_func_matches(f, aa->funcs[k])) return 1;
    }
    return 0;
}

/* Every --func names a function of the program; else the message of edan
   trace --func (close matches, an import, a shared library's) and -1. */
static int ann_check_funcs(const cli_funcs *fs, const ann_args *aa, const char *elf)
{
    int k;
    size_t i;
    for (k = 0; k < aa->nfuncs; k++) {
        char msg[1600];
        for (i = 0; i < fs->n && !cli_func_matches(&fs->f[i], aa->funcs[k]); i++) {}
        if (i < fs->n) continue;
        cli_func_miss(fs, "--func", aa->funcs[k], elf, msg, sizeof msg);
        fprintf(stderr, "edan annotate: %s\n", msg);
        return -1;
    }
    return 0;
}

static uint64_t ann_u64(const edan__json *o, const char *key)
{
    double v = edan__json_number(edan__json_get(o, key), 0);
    return v > 0 ? (uint64_t)v : 0;
}

/* The annotation of report `rep` (the JSON text of edan trace or analyze
   with --top and --chain) of program elf. 0, or 2 with a message. */
static int ann_render(const char *rep_path, const char *elf_opt, const ann_args *aa, FILE *o)
{
    size_t len = 0, i, n, shown;
    char err[512], *text = files_read_all(rep_path, CLI_MAX_REPORT_BYTES, &len, err, sizeof err);
    edan__json *root = NULL;
    const edan__json *cfgs, *c, *hs, *cc;
    const char *elf, *why = NULL;
    cli_funcs fs;
    ann A;
    int rc = 2, have_funcs = 0, no_line = 0;
    char s1[32], s2[32], s3[32], s4[32], s5[32];
    memset(&A, 0, sizeof A);
    memset(&fs, 0, sizeof fs);
    if (!text) {
        fprintf(stderr, "edan annotate: %s\n", err);
        return 2;
    }
    if (edan__json_parse(text, len, NULL, &root, err, sizeof err) != EDAN_OK) {
        fprintf(stderr, "%s:%s\n", rep_path, err + (strncmp(err, "line ", 5) ? 0 : 5));
        goto out;
    }
    cfgs = edan__json_get(root, "configs");
    if (edan__json_kind(cfgs) != EDAN__JSON_ARRAY || !edan__json_len(cfgs)) {
        fprintf(stderr, "edan annotate: %s: not an edan report (no \"configs\" list)\n", rep_path);
        goto out;
    }
    c = edan__json_at(cfgs, 0);
    hs = edan__json_get(c, "hotspots");
    if (edan__json_kind(hs) != EDAN__JSON_ARRAY) {
        fprintf(stderr, "edan annotate: %s:%lu: the report has no memory instructions: it was made without --top "
                "(edan trace --json --top 1000000 --chain)\n", rep_path, edan__json_line(c));
        goto out;
    }
    elf = elf_opt ? elf_opt : edan__json_string(edan__json_get(root, "elf"), NULL);
    if (!elf) {
        fprintf(stderr, "edan annotate: %s does not name its program: give --elf PROG\n", rep_path);
        goto out;
    }
    if (cli_syms_open(&A.sy, elf, 0, &why)) {
        fprintf(stderr, "edan annotate: %s: %s\n", elf, why);
        goto out;
    }
    A.mod = (Dwfl_Module *)A.sy.mod;
    if (aa->nfuncs) {
        if (cli_funcs_load(&fs, elf, &why)) {
            fprintf(stderr, "edan annotate: %s: %s\n", elf, why);
            goto out;
        }
        have_funcs = 1;
        if (ann_check_funcs(&fs, aa, elf)) goto out;
    }
    A.D = ann_u64(c, "D");
    A.W = ann_u64(c, "W");
    A.chained = ann_u64(c, "chained");
    cc = edan__json_get(c, "critical_chain");
    A.have_chain = edan__json_bool(edan__json_get(cc, "found"), 0);
    A.no_chain = !cc ? "the report was made without --chain"
                 : edan__json_string(edan__json_get(cc, "why"), "not found");

    /* the memory instructions, in address order, placed at their functions and lines */
    n = edan__json_len(hs);
    for (i = 0; i < n; i++) {
        const edan__json *h = edan__json_at(hs, i);
        const char *as = edan__json_string(edan__json_get(h, "address"), NULL);
        ann_line L, *nl;
        if (!as) {
            fprintf(stderr, "edan annotate: %s:%lu: a memory instruction without an address: the trace has no PCs "
                    "(RISC-V: edan trace --text-pc or --binary)\n", rep_path, edan__json_line(h));
            goto out;
        }
        memset(&L, 0, sizeof L);
        L.first_addr = strtoull(as, NULL, 16);
        if (!ann_selected(&fs, aa, L.first_addr)) continue;
        L.mem = ann_u64(h, "mem_vertices");
        L.chained = ann_u64(h, "chained");
        L.max_md = ann_u64(h, "max_md");
        L.chain = ann_u64(h, "chain");
        if (!(nl = (ann_line *)cli_grow(A.l, &A.capl, A.nl, sizeof *nl, 256))) { ann_oom(); goto out; }
        A.l = nl;
        A.l[A.nl++] = L;
    }
    qsort(A.l, A.nl, sizeof *A.l, ann_addr_cmp);
    for (i = 0, n = 0; i < A.nl; i++) {
        ann_line L = A.l[i];
        if (ann_place(&A, L.first_addr, &L.func, &L.file, &L.line)) { ann_oom(); goto out; }
        if (L.func == (size_t)-1) {
            A.unplaced += L.mem;
            continue;
        }
        if (L.file == (size_t)-1) no_line = 1;
        A.l[n++] = L;
    }
    A.nl = n;
    /* one entry per function and line */
    qsort(A.l, A.nl, sizeof *A.l, ann_line_cmp);
    for (i = 0, n = 0; i < A.nl; i++) {
        if (n && !ann_line_cmp(&A.l[n - 1], &A.l[i])) {
            ann_line *p = &A.l[n - 1];
            p->mem += A.l[i].mem;
            p->chained += A.l[i].chained;
            p->chain += A.l[i].chain;
            if (A.l[i].max_md > p->max_md) p->max_md = A.l[i].max_md;
            if (A.l[i].first_addr < p->first_addr) p->first_addr = A.l[i].first_addr;
        } else A.l[n++] = A.l[i];
    }
    A.nl = n;
    for (i = 0; i < A.nl; i++) A.chain_total += A.l[i].chain;

    /* the header */
    fprintf(o, "edan annotate: %s", edan__json_string(edan__json_get(root, "source"), rep_path));
    if (strcmp(elf, edan__json_string(edan__json_get(root, "source"), ""))) fprintf(o, " (program %s)", elf);
    fprintf(o, " [%s]%s\n", edan__json_string(edan__json_get(c, "name"), "?"),
            edan__json_len(cfgs) > 1 ? " (the report's first configuration)" : "");
    if (edan__json_bool(edan__json_get(root, "partial"), 0))
        fprintf(o, "PARTIAL: %s\n", edan__json_string(edan__json_get(root, "partial_reason"), "the run ended early"));
    fprintf(o, "W = %s memory access vertices, %s chained; D = %s", cli_group(s1, sizeof s1, A.W),
            cli_group(s2, sizeof s2, A.chained), cli_group(s3, sizeof s3, A.D));
    if (!A.W) fprintf(o, "\n");
    else if (A.have_chain && !A.chain_total)
        fprintf(o, ": the critical chain is %s RAM access%s in a row, none of them at the lines below\n",
                cli_group(s4, sizeof s4, A.D), A.D == 1 ? "" : "es");
    else if (A.have_chain)
        fprintf(o, ": the critical chain is %s RAM access%s in a row, %s of them (%s) at the lines below\n",
                cli_group(s4, sizeof s4, A.D), A.D == 1 ? "" : "es", cli_group(s5, sizeof s5, A.chain_total),
                ann_share(&A, A.chain_total, s1, sizeof s1));
    else fprintf(o, " (no critical chain: %s)\n", A.no_chain);
    if (!strcmp(edan__json_string(edan__json_get(root, "isa"), ""), "x86-64"))
        fprintf(o, "(x86-64: an instruction's memory operands are vertices of their own: mem counts accesses)\n");
    if (A.unplaced)
        fprintf(o, "(%s memory vertices lie outside the functions of %s: in a shared library, the loader, or code "
                "without a symbol)\n",
                cli_group(s1, sizeof s1, A.unplaced), elf);
    if (no_line && A.nfiles == 0)
        fprintf(o, "(no address has a source line: %s has no DWARF line table; build it with -g)\n", elf);
    if (!A.nl) {
        fprintf(o, "nothing to annotate: no memory access vertices%s%s\n",
                aa->nfuncs ? " in " : A.unplaced ? " in the functions of " : "",
                aa->nfuncs ? aa->funcs[0] : A.unplaced ? elf : "");
        rc = 0;
        goto out;
    }

    /* the summary: the lines with the most of the chain */
    if (aa->top) {
        ann_line *r = (ann_line *)malloc(A.nl * sizeof *r);
        if (!r) { ann_oom(); goto out; }
        memcpy(r, A.l, A.nl * sizeof *r);
        qsort(r, A.nl, sizeof *r, ann_rank_cmp);
        shown = A.nl < (size_t)aa->top ? A.nl : (size_t)aa->top;
        fprintf(o, "\nLines by their %s (%zu of %zu):\n", A.have_chain ? "part of the critical chain" : "chained accesses",
                shown, A.nl);
        fprintf(o, "%7s %11s %11s %11s %9s  %s\n", "chain%", "chain", "mem", "chained", "max md", "where");
        for (i = 0; i < shown; i++) {
            const ann_line *l = &r[i];
            char where[600];
            if (l->file == (size_t)-1)
                snprintf(where, sizeof where, "%s  0x%llx (no line)", A.f[l->func].name,
                         (unsigned long long)l->first_addr);
            else
                snprintf(where, sizeof where, "%s  %s:%d", A.f[l->func].name, ann_base(A.files[l->file].name), l->line);
            fprintf(o, "%7s %11s %11s %11s %9s  %s\n", ann_share(&A, l->chain, s1, sizeof s1),
                    A.have_chain ? ann_count(l->chain, s2, sizeof s2) : "-", ann_count(l->mem, s3, sizeof s3),
                    ann_count(l->chained, s4, sizeof s4), ann_count(l->max_md, s5, sizeof s5), where);
        }
        free(r);
    }

    /* the source of each function, the one with the most of the chain first */
    if (!aa->no_source) {
        size_t *start, ns = 0, k;
        ann_line *best;
        if (!(start = (size_t *)malloc((A.nl + 1) * sizeof *start)) ||
            !(best = (ann_line *)malloc((A.nl + 1) * sizeof *best))) {
            free(start);
            ann_oom();
            goto out;
        }
        /* sections: a function's lines of one file (line-less ones left out) */
        for (i = 0; i < A.nl; i++) {
            if (A.l[i].file == (size_t)-1) continue;
            if (ns && A.l[start[ns - 1]].func == A.l[i].func && A.l[start[ns - 1]].file == A.l[i].file) {
                best[ns - 1].chain += A.l[i].chain;
                best[ns - 1].chained += A.l[i].chained;
                best[ns - 1].mem += A.l[i].mem;
                continue;
            }
            best[ns] = A.l[i];
            best[ns].line = (int)ns;       /* the section's index, to sort the sections */
            start[ns++] = i;
        }
        qsort(best, ns, sizeof *best, ann_rank_cmp);
        for (k = 0; k < ns; k++) {
            size_t s = start[best[k].line], e = s;
            while (e < A.nl && A.l[e].func == A.l[s].func && A.l[e].file == A.l[s].file) e++;
            ann_section(&A, o, &A.l[s], e - s);
        }
        free(start);
        free(best);
    }
    rc = 0;
out:
    if (have_funcs) cli_funcs_free(&fs);
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
    if (A.sy.dwfl) cli_syms_close(&A.sy);
    edan__json_free(root);
    free(text);
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
        fprintf(stderr, "edan annotate: %s: %s\n", path, strerror(errno));
        return -1;
    }
    n = read(fd, h, sizeof h);
    close(fd);
    if (n >= 4 && !memcmp(h, "\177ELF", 4)) return 1;
    for (i = 0; i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\t' || h[i] == '\r'); i++) {}
    return i < n && h[i] == '{' ? 2 : 0;
}

/* The options edan trace takes for a program, each with a value but two. */
static int ann_trace_option(const char *s, int *takes)
{
    static const char *const with[] = {"--region", "--exclude", "--threads", "--max-insns", "--max-seconds", "--qemu",
                                       "--plugin", "--sysroot", NULL};
    int k;
    *takes = 0;
    if (!strcmp(s, "--no-markers")) return 1;
    for (k = 0; with[k]; k++)
        if (!strcmp(s, with[k])) return *takes = 1;
    return 0;
}

/* Runs cmd (edan_cmd_trace or edan_cmd_analyze) on argv with standard
   output going to descriptor fd. */
static int ann_run(int (*cmd)(int, char **), int argc, char **argv, int fd)
{
    int saved, rc;
    fflush(stdout);
    if ((saved = dup(1)) < 0 || dup2(fd, 1) < 0) {
        if (saved >= 0) close(saved);
        fprintf(stderr, "edan annotate: %s\n", strerror(errno));
        return 2;
    }
    rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    return rc;
}

int edan_cmd_annotate(int argc, char **argv)
{
    ann_args aa;
    cli_analysis scratch;
    int i = 1, prog = -1, kind, rc = 2, k, n = 0, run_rc = 0;
    char dir[4200], rep[4300], topn[16];
    const char *tmpdir = getenv("TMPDIR"), *input = NULL, *report = NULL;
    char **av = NULL;
    files_out out;
    memset(&aa, 0, sizeof aa);
    aa.top = 10;
    dir[0] = 0;
    if (!(aa.fwd = (const char **)calloc((size_t)argc * 2 + 16, sizeof *aa.fwd))) {
        ann_oom();
        return 2;
    }
    cli_analysis_init(&scratch);
    while (i < argc) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL, *eq = strchr(s, '=');
        size_t nlen = eq ? (size_t)(eq - s) : strlen(s);
        int takes;
        if (!strcmp(s, "--")) { prog = i + 1; break; }
        if (s[0] != '-' || !s[1]) { prog = i; break; }
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            printf("%s%s", annotate_usage, cli_analysis_help);
            free(aa.fwd);
            return 0;
        }
        if (!strcmp(s, "--no-source")) { aa.no_source = 1; i++; continue; }
        if (!strcmp(s, "--func") || !strcmp(s, "--top") || !strcmp(s, "--elf") || !strcmp(s, "-o") ||
            !strcmp(s, "--output")) {
            if (!v || !*v) {
                fprintf(stderr, "edan annotate: %s needs a value\n", s);
                goto out;
            }
            if (!strcmp(s, "--func")) {
                if (aa.nfuncs == 64) {
                    fprintf(stderr, "edan annotate: at most 64 --func names\n");
                    goto out;
                }
                aa.funcs[aa.nfuncs++] = v;
            } else if (!strcmp(s, "--top")) {
                char *end;
                aa.top = strtol(v, &end, 10);
                if (*end || end == v || aa.top < 0 || aa.top > 1000000) {
                    fprintf(stderr, "edan annotate: --top %s: expected a count of lines, 0 to 1000000\n", v);
                    goto out;
                }
            } else if (!strcmp(s, "--elf")) aa.elf = v;
            else aa.output = v;
            i += 2;
            continue;
        }
        if (ann_trace_option(s, &takes)) {
            if (takes && (!v || !*v)) {
                fprintf(stderr, "edan annotate: %s needs a value\n", s);
                goto out;
            }
            aa.tracing_opt = s;
            aa.fwd[aa.nfwd++] = s;
            if (takes) aa.fwd[aa.nfwd++] = v;
            i += 1 + takes;
            continue;
        }
        if ((nlen == 6 && !strncmp(s, "--json", 6)) || (nlen == 8 && !strncmp(s, "--config", 8))) {
            fprintf(stderr, "edan annotate: %s: %s\n", s,
                    s[2] == 'j' ? "the annotation is text; edan trace --json --top N --chain gives the numbers as JSON"
                                : "one configuration is annotated: run edan annotate once per configuration");
            goto out;
        }
        {
            int start = i, got = cli_analysis_option(&scratch, argc, argv, &i);
            if (got < 0) goto out;
            if (got == 0) {
                char help[16384];
                snprintf(help, sizeof help, "%s%s", annotate_usage, cli_analysis_help);
                suggest_unknown("edan annotate", s, help);
                goto out;
            }
            if (nlen == 7 && !strncmp(s, "--chain", 7)) aa.chain_given = 1;
            for (k = start; k < i; k++) aa.fwd[aa.nfwd++] = argv[k];
        }
    }
    if (prog < 0 || prog >= argc) {
        fprintf(stderr, "edan annotate: no program, trace or report given (edan annotate [options] -- PROGRAM ARGS; "
                        "see edan annotate --help)\n");
        goto out;
    }
    input = argv[prog];
    if (!strcmp(argv[prog - 1], "--")) kind = 1;       /* -- PROGRAM */
    else if ((kind = ann_kind(input)) < 0) goto out;
    if (kind != 1 && prog + 1 < argc) {
        fprintf(stderr, "edan annotate: one %s at a time (got %s and %s)\n", kind == 2 ? "report" : "trace", input,
                argv[prog + 1]);
        goto out;
    }
    if (kind == 1 && aa.elf) {
        fprintf(stderr, "edan annotate: --elf names the program of a trace; %s is a program, which runs\n", input);
        goto out;
    }
    if (kind != 1 && aa.tracing_opt) {
        fprintf(stderr, "edan annotate: %s is an option of edan trace, for a program; %s is a %s\n", aa.tracing_opt,
                input, kind == 2 ? "report" : "trace");
        goto out;
    }
    if (kind == 2 && aa.nfwd) {
        fprintf(stderr, "edan annotate: %s: a report is annotated as it was analysed (%s is an analysis option)\n",
                input, aa.fwd[0]);
        goto out;
    }
    if (kind == 0 && !aa.elf) {
        fprintf(stderr, "edan annotate: %s is a trace: give --elf PROG, the program it came from\n", input);
        goto out;
    }
    if (aa.output && strcmp(aa.output, "-")) {
        const files_role outs[] = {{aa.output, "-o"}};
        const files_role ins[] = {{input, kind == 1 ? "the program" : kind == 2 ? "the report" : "the trace"},
                                  {aa.elf, "--elf"}};
        char err[600];
        if (files_check_roles(outs, 1, ins, 2, err, sizeof err)) {
            fprintf(stderr, "edan annotate: %s\n", err);
            goto out;
        }
        if (cli_output_check(aa.output)) goto out;
    }
    if (kind == 0) {        /* the names first: a mistyped one is said before a long analysis */
        cli_funcs fs;
        const char *why;
        if (cli_funcs_load(&fs, aa.elf, &why)) {
            fprintf(stderr, "edan annotate: --elf %s: %s\n", aa.elf, why);
            goto out;
        }
        k = ann_check_funcs(&fs, &aa, aa.elf);
        cli_funcs_free(&fs);
        if (k) goto out;
    }

    if (kind == 2) report = input;
    else {
        int fd;
        if (!tmpdir || !*tmpdir || strlen(tmpdir) > 4000) tmpdir = "/tmp";
        snprintf(dir, sizeof dir, "%s/edan-annotate.XXXXXX", tmpdir);
        if (!mkdtemp(dir)) {
            fprintf(stderr, "edan annotate: cannot create a temporary directory in %s: %s\n", tmpdir, strerror(errno));
            dir[0] = 0;
            goto out;
        }
        snprintf(rep, sizeof rep, "%s/report.json", dir);
        report = rep;
        if (!(av = (char **)calloc((size_t)argc + (size_t)aa.nfwd + 2 * (size_t)aa.nfuncs + 24, sizeof *av))) {
            ann_oom();
            goto out;
        }
        snprintf(topn, sizeof topn, "%u", 1000000u);
        av[n++] = (char *)(kind == 1 ? "trace" : "analyze");
        for (k = 0; k < aa.nfwd; k++) av[n++] = (char *)aa.fwd[k];
        av[n++] = (char *)"--json";
        av[n++] = (char *)"--top";
        av[n++] = topn;
        if (!aa.chain_given) av[n++] = (char *)"--chain";
        if (kind == 1) {
            for (k = 0; k < aa.nfuncs; k++) {
                av[n++] = (char *)"--func";
                av[n++] = (char *)aa.funcs[k];
            }
            av[n++] = (char *)"-o";
            av[n++] = rep;
            av[n++] = (char *)"--";
            for (k = prog; k < argc; k++) av[n++] = argv[k];
            /* the program's output goes to standard error, the annotation to standard output */
            run_rc = ann_run(edan_cmd_trace, n, av, 2);
        } else {
            av[n++] = (char *)"--elf";
            av[n++] = (char *)aa.elf;
            av[n++] = (char *)"--";
            av[n++] = (char *)input;
            if ((fd = open(rep, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0) {
                fprintf(stderr, "edan annotate: %s: %s\n", rep, strerror(errno));
                goto out;
            }
            run_rc = ann_run(edan_cmd_analyze, n, av, fd);
            close(fd);
            if (run_rc) {
                rc = 2;
                goto out;
            }
        }
        if (access(rep, R_OK) != 0) {       /* edan trace said why */
            rc = run_rc ? run_rc : 2;
            goto out;
        }
    }
    {
        char err[600];
        if (files_out_open(&out, aa.output ? aa.output : "-", err, sizeof err)) {
            fprintf(stderr, "edan annotate: cannot write %s\n", err);
            goto out;
        }
        rc = ann_render(report, aa.elf, &aa, out.f);
        if (rc) files_out_discard(&out);
        else if (files_out_close(&out, err, sizeof err)) {
            fprintf(stderr, "edan annotate: cannot write %s\n", err);
            rc = 2;
        }
    }
    if (!rc && run_rc) {
        /* the program failed, or the run was stopped (edan trace said so): what ran is annotated */
        if (run_rc != 1)
            fprintf(stderr, "edan annotate: %s ended with status %d; the annotation covers what ran\n", input, run_rc);
        rc = 1;
    }
out:
    if (dir[0]) {
        if (report == rep) unlink(rep);
        rmdir(dir);
    }
    free(av);
    free(aa.fwd);
    return rc;
}
