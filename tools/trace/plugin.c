/* tools/trace/plugin.c - the QEMU TCG plugin behind `edan trace`.

   Loaded into qemu-riscv64 or qemu-x86_64 (QEMU 7.2) by `edan trace`, which
   passes one plugin argument, args=FILE: a file of NUL-terminated arguments
   (plugin arguments cannot contain commas). It decodes every translated
   instruction once, from its bytes (RISC-V: edan.h's decoder; x86-64:
   tools/front/x86.c), and at execution feeds the pre-decoded records, completed by
   the memory callbacks' addresses, to the analysis (default), to a text
   trace or to a binary trace. An x86-64 instruction is cracked into its
   load, operation and store vertices (tools/front/x86.c) and takes the accesses
   QEMU reports for its execution, in order: a run of executions whose
   accesses are what their vertices make goes to the analysis as the
   block's vertices with their addresses (compiled blocks), any other
   execution vertex by vertex (bintrace_feed_execution). A rep string
   instruction, which QEMU executes one iteration at a time, is cracked per
   iteration.

   Execution is observed per translation block: the block's callback flushes
   the previous block (whose memory callbacks have filled in the addresses)
   and makes itself pending; the last block is flushed at exit. This costs
   one callback per block plus one per memory access, instead of one per
   instruction.

   A scoped trace (--func, --region, --exclude, markers) still watches the
   code outside the scope for what it writes: the registers an untraced
   instruction writes (known at translation) and the bytes its stores write
   (a memory callback on untraced stores only) lose their writers before
   the next traced instruction (edan_kill_regs / edan_kill_mem, a KILL
   record, a #edan-kill line). A block entirely outside --func scoping costs
   one callback per execution and one per store; nothing per load.

   Files written to the directory given by --dir:
     report  the analysis report (as `edan analyze` prints it)
     error   a message, when the arguments or the program's symbols are wrong
     notes   warnings for the user (undecodable instructions, threads)

   This file is the plugin's entry: its arguments, the translation of
   blocks and the sampled windows; tools/trace/plugin.h, which the plugin's
   other files share, says what each of them holds.
*/
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE         /* mincore */
#define EDAN_IMPLEMENTATION
#include "plugin.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

pl_state st;
pl_sampling pl_samp;
pl_thr pl_thrs[PL_MAX_VCPUS];

/* ---------------------------------------------------------------------- */
/* Arguments                                                              */
/* ---------------------------------------------------------------------- */
/* The plugin's arguments, which edan trace writes (tools/trace/trace.c), and
   the analysis options after them. */
enum { PA_ANALYZE = 1, PA_ASLR, PA_TEXT_PC, PA_STDOUT_FD, PA_JOB, PA_DIR, PA_PROGRAM, PA_SOURCE, PA_TEXT, PA_BINARY,
       PA_SAMPLE, PA_SKIP, PA_ENGINE };
/* The scope and run options (--func, --region, --exclude, --threads,
   --no-markers, --max-insns, --max-seconds) are rows of cli_scope_opts
   (tools/cmd/options.c), as edan trace passes them. */
static const opt_def pl_opts[] = {
    {"--analyze", NULL, PA_ANALYZE, "analyse online (also with a trace written)"},
    CLI_SCOPE_ROW(CLI_SCOPE_NO_MARKERS),
    {"--aslr", NULL, PA_ASLR, "the program runs with address randomisation (for the report)"},
    {"--text-pc", NULL, PA_TEXT_PC, "the text trace has PCs"},
    {"--stdout-fd", "FD", PA_STDOUT_FD, "edan trace's standard output"},
    {"--job", "RANK SIZE HOST VARIABLE COMMAND", PA_JOB, "a rank of an MPI job (five values)"},
    CLI_SCOPE_ROW(CLI_SCOPE_MAX_INSNS),
    CLI_SCOPE_ROW(CLI_SCOPE_MAX_SECONDS),
    CLI_SCOPE_ROW(CLI_SCOPE_THREADS),
    {"--dir", "DIR", PA_DIR, "edan trace's directory for the plugin's files"},
    {"--program", "PATH", PA_PROGRAM, "the program"},
    {"--source", "NAME", PA_SOURCE, "the program as the report names it"},
    {"--text", "FILE", PA_TEXT, "write a text trace"},
    {"--binary", "FILE", PA_BINARY, "write a binary trace"},
    CLI_SCOPE_ROW(CLI_SCOPE_FUNC),
    CLI_SCOPE_ROW(CLI_SCOPE_REGION),
    CLI_SCOPE_ROW(CLI_SCOPE_EXCLUDE),
    {"--sample", "PERIOD:LENGTH", PA_SAMPLE, "analyse LENGTH instructions of every PERIOD"},
    {"--skip", "N", PA_SKIP, "start the analysis after N instructions"},
    {"--engine", "SUM", PA_ENGINE, "the sum of the sources edan trace was built from (EDAN_ENGINE_SUM)"},
};
#define PL_NOPTS (sizeof pl_opts / sizeof pl_opts[0])

/* One parsed argument (pl_read_args): its id and value; *k past --job's
   four more values. 0, or -1 with the error set. */
static int pl_arg(int id, const char *v, int argc, int *k)
{
    uint32_t fd;
    uint64_t rank, size;
    double d;
    const char *why;
    switch (id) {
    case PA_ANALYZE: st.args.analyze = 1; return 0;
    case CLI_SCOPE_NO_MARKERS: st.args.markers_off = 1; return 0;
    case PA_ASLR: st.args.aslr = 1; return 0;
    case PA_TEXT_PC: st.args.text_pc = 1; return 0;
    case PA_STDOUT_FD:
        if (opt_u32(v, 0, INT_MAX, &fd)) return pl_fail("--stdout-fd %s: a descriptor number", v);
        st.args.stdout_fd = (int)fd;
        return 0;
    case PA_JOB:        /* RANK, then SIZE HOST VARIABLE COMMAND */
        if (*k + 4 > argc) return pl_fail("--job needs a rank, a size, a host, a variable and a command");
        if (opt_u64(v, 0, LONG_MAX, &rank) || opt_u64(st.args.argv[*k], 0, LONG_MAX, &size))
            return pl_fail("--job %s %s: a rank and a size", v, st.args.argv[*k]);
        st.args.job.rank = (long)rank;
        st.args.job.size = (long)size;
        snprintf(st.args.job.host, sizeof st.args.job.host, "%s", st.args.argv[*k + 1]);
        st.args.job.var = st.args.argv[*k + 2];
        st.args.job.command = st.args.argv[*k + 3];
        *k += 4;
        return 0;
    case CLI_SCOPE_MAX_INSNS: case CLI_SCOPE_MAX_SECONDS:
        if (opt_double(v, 0, 1, 1e18, &d))
            return pl_fail("%s %s: a positive number", cli_scope_name(id), v);
        if (id == CLI_SCOPE_MAX_INSNS) st.args.max_insns = (uint64_t)d;
        else st.args.max_seconds = d;
        return 0;
    case CLI_SCOPE_THREADS:
        if ((st.args.nonly = cli_parse_threads(v, st.args.only, 32, &why)) < 0) return pl_fail("--threads: %s", why);
        return 0;
    case PA_SAMPLE: case PA_SKIP:
        if (id == PA_SKIP ? cli_parse_count(v, &pl_samp.out.skip) : cli_parse_sample(v, &pl_samp.out.period,
                                                                                           &pl_samp.out.length, &why))
            return pl_fail("%s %s: %s", id == PA_SKIP ? "--skip" : "--sample", v,
                           id == PA_SKIP ? "a positive whole number of instructions" : why);
        pl_samp.active = 1;
        return 0;
    case PA_ENGINE:
        if (opt_u32(v, 0, UINT32_MAX, &st.args.engine)) return pl_fail("--engine %s: a number", v);
        return 0;
    case PA_DIR: st.args.dir = v; return 0;
    case PA_PROGRAM: st.args.program = v; return 0;
    case PA_SOURCE: st.args.source = v; return 0;
    case PA_TEXT: st.args.text_path = v; return 0;
    case PA_BINARY: st.args.bin_path = v; return 0;
    case CLI_SCOPE_FUNC: case CLI_SCOPE_REGION: case CLI_SCOPE_EXCLUDE: {
        pl_name *nm = &st.args.names[st.args.nnames];
        char *at = strrchr((char *)v, '@');
        if (st.args.nnames == 64) return pl_fail("too many --func/--region/--exclude names (at most 64)");
        nm->name = v;
        nm->kind = id == CLI_SCOPE_FUNC ? 0 : id == CLI_SCOPE_REGION ? 1 : 2;
        if (at && at > v && at[1]) {    /* NAME@OBJECT (the argument file is the plugin's own) */
            *at = 0;
            nm->object = at + 1;
        }
        st.args.nnames++;
        return 0;
    }
    case OPT_OPERAND: return pl_fail("unexpected plugin argument %s", v);
    case OPT_ERROR: case OPT_REST: return pl_fail("bad plugin arguments (see the message above)");
    default:
        if (id >= CLI_ANALYSIS_ID && cli_analysis_apply(&st.args.a, id, v) == 0) return 0;
        return pl_fail("bad analysis option (see the message above)");
    }
}

static int pl_read_args(const char *path)
{
    char err[512];
    opt_def own[PL_NOPTS], t[CLI_ANALYSIS_ROOM + 32];
    size_t len = 0, n = 0, i, nt;
    int argc = 0, k, id;
    const char *v;
    /* a command line's worth: far below the limit */
    st.args.buf = files_read_all(path, (size_t)1 << 30, &len, err, sizeof err);
    if (!st.args.buf) return pl_fail("cannot read plugin arguments %s", err);
    for (i = 0; i < len; i++) n += st.args.buf[i] == 0;
    st.args.argv = (char **)calloc(n + 2, sizeof(char *));
    if (!st.args.argv) return pl_fail("out of memory");
    st.args.argv[argc++] = (char *)"trace";
    for (i = 0; i < len; i += strlen(st.args.buf + i) + 1) st.args.argv[argc++] = st.args.buf + i;

    cli_analysis_init(&st.args.a);
    st.args.a.cmd.online = 1;
    nt = cli_scope_rows(own, PL_NOPTS, pl_opts, PL_NOPTS, 0);
    if (!(nt = opt_cat(t, sizeof t / sizeof t[0], own, nt, cli_analysis_opts, cli_analysis_nopts)))
        return pl_fail("too many plugin options");
    for (k = 1; (id = opt_next("edan plugin", t, nt, argc, st.args.argv, &k, &v)) != OPT_END;)
        if (pl_arg(id, v, argc, &k)) return -1;
    if (!st.args.dir || !st.args.program) return pl_fail("plugin arguments lack --dir or --program");
    if (st.args.engine && EDAN_ENGINE_SUM && st.args.engine != EDAN_ENGINE_SUM)
        return pl_fail("the QEMU plugin (sum %u) was built from other sources than the edan that runs it (sum %u), "
                       "so its numbers would not be this edan's: run make, or set EDAN_PLUGIN to the plugin built "
                       "with this edan", (unsigned)EDAN_ENGINE_SUM, (unsigned)st.args.engine);
    if (!st.args.source) st.args.source = st.args.program;
    if (cli_analysis_finish(&st.args.a) < 0) return pl_fail("bad analysis options");
    if (!st.args.text_path && !st.args.bin_path) st.args.analyze = 1;
    return 0;
}

static int pl_in_funcs(uint64_t pc)
{
    int i;
    for (i = 0; i < st.scope.nfuncs; i++)
        if (pc >= st.scope.funcs[i].lo && pc < st.scope.funcs[i].hi) return 1;
    return 0;
}

static int pl_in_list(const uint64_t *a, int n, uint64_t pc)
{
    int i;
    for (i = 0; i < n; i++) if (a[i] == pc) return 1;
    return 0;
}

/* start_code and friends crash inside qemu_plugin_install in QEMU 7.2, so
   the load offset is applied at the first translation. */
static void pl_first_translation(void)
{
    uint64_t off = qemu_plugin_start_code() - st.syms.min_exec_vaddr;
    int i;
    for (i = 0; i < st.scope.nfuncs; i++) { st.scope.funcs[i].lo += off; st.scope.funcs[i].hi += off; }
    for (i = 0; i < st.scope.nregion; i++) st.scope.region_entry[i] += off;
    for (i = 0; i < st.scope.nexcl; i++) st.scope.excl_entry[i] += off;
    for (i = 0; i < st.syms.nifunc; i++)
        if (!st.syms.ifunc[i].placed) pl_ifunc_place(&st.syms.ifunc[i], off);     /* the program's own */
    st.args.a.cmd.elf_path = st.args.program;     /* --top names functions and source lines */
    st.args.a.run.elf_bias = off;
    st.syms.started = 1;
    /* a trace says where a position-independent program was loaded, for
       the readers that name its lines (edan analyze --elf, annotate) */
    if (st.out.text_f && off) fprintf(st.out.text_f, "#edan-load 0x%llx\n", (unsigned long long)off);
    if (st.out.bin_f && off) bintrace_writer_set_load(&st.out.bw, off);     /* nothing written after the header yet */
}

/* Are the program's addresses this process's (QEMU's guest base 0)? The
   bytes of its first translated instruction, read at its address from
   this process's memory, say. */
static void pl_check_guest_base(struct qemu_plugin_tb *tb)
{
    struct qemu_plugin_insn *qi = qemu_plugin_tb_get_insn(tb, 0);
    const uint8_t *data = (const uint8_t *)qemu_plugin_insn_data(qi);
    size_t len = qemu_plugin_insn_size(qi);
    uint64_t vaddr = qemu_plugin_insn_vaddr(qi);
    uint8_t here[16];
    /* user mode: the program's memory is this process's, at its address
       plus QEMU's guest base (where its first instruction's bytes are) */
    st.run.guest_base = (uint64_t)(uintptr_t)qemu_plugin_insn_haddr(qi) - vaddr;
    st.run.mem_fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
    if (st.run.mem_fd < 0) return;
    if (len && len <= sizeof here && pread(st.run.mem_fd, here, len, (off_t)vaddr) == (ssize_t)len)
        st.run.guest_is_host = !memcmp(here, data, len);
}

/* The object whose code is at pc, -1 if none is known yet. */
long pl_object_find(uint64_t pc)
{
    size_t i;
    for (i = st.syms.nobjs; i-- > 0;)
        if (pc >= st.syms.objs[i].lo && pc < st.syms.objs[i].hi) return (long)i;
    return -1;
}

/* The code at pc (host address haddr) is of an object not seen before:
   its mapping from /proc/self/maps, and, for a shared object, the names
   still pending among its functions. -1 when the scope is full. */
static int pl_object_add(uint64_t pc, uint64_t haddr)
{
    char path[4096];
    uint64_t lo, hi, off;
    cli_object o;
    int i;
    memset(&o, 0, sizeof o);
    if (!pl_mapping_of(haddr, &lo, &hi, &off, path, sizeof path)) {
        /* not mapped as we look: a page of its own, looked up again next time */
        lo = haddr & ~(uint64_t)4095;
        hi = lo + 4096;
        off = 0;
        path[0] = 0;
    }
    o.lo = lo - (haddr - pc);
    o.hi = hi - (haddr - pc);
    if (path[0] == '/') {
        uint64_t vaddr;
        o.path = strdup(path);
        if (!o.path) return pl_fail("out of memory");
        if (cli_elf_vaddr(path, haddr - lo + off, &vaddr) == 0) o.bias = pc - vaddr;
    }
    {
        cli_object *no = (cli_object *)cli_grow(st.syms.objs, &st.syms.objs_cap, st.syms.nobjs, sizeof *no, 16);
        cli_fnmap **nf;
        if (!no) { free(o.path); return pl_fail("out of memory"); }
        st.syms.objs = no;
        nf = (cli_fnmap **)cli_grow(st.syms.fnmaps, &st.syms.fnmaps_cap, st.syms.nobjs, sizeof *nf, 16);
        if (!nf) { free(o.path); return pl_fail("out of memory"); }
        st.syms.fnmaps = nf;
        nf[st.syms.nobjs] = NULL;
        memset(pl_places, 0, sizeof pl_places);     /* an object at an address where another was */
    }
    if (o.path) {
        char real_prog[4096], real_obj[4096];
        o.is_program = realpath(st.args.program, real_prog) && realpath(o.path, real_obj) && !strcmp(real_prog, real_obj);
    }
    st.syms.objs[st.syms.nobjs++] = o;
    if (!o.path || o.is_program) return 0;
    for (i = 0; i < st.syms.nifunc; i++)     /* where it reads the IFUNCs found so far */
        if (st.syms.ifunc[i].placed && !st.syms.ifunc[i].impl) pl_ifunc_slots(&st.syms.ifunc[i], o.path, o.bias, 0);
    if (!st.args.nnames) return 0;
    {   /* the scope's names among this object's functions (every function of a name, in every object) */
        cli_funcs fs;
        const char *why;
        if (cli_funcs_load(&fs, o.path, &why)) return 0;     /* not an ELF we can read: no names of its own */
        for (i = 0; i < st.args.nnames; i++)
            if (pl_scope_name(i, &fs, o.path, o.bias, 1)) {
                cli_funcs_free(&fs);
                return -1;
            }
        cli_funcs_free(&fs);
    }
    return 0;
}

/* At the end of the run: a name still pending is in no object that ran
   code. -1 with the message. */
int pl_pending_names(void)
{
    char objs[2048] = "";
    size_t i, len = 0;
    int k;
    for (i = 0; i < st.syms.nobjs; i++) {
        const char *b;
        if (!st.syms.objs[i].path || st.syms.objs[i].is_program) continue;
        b = strrchr(st.syms.objs[i].path, '/');
        if (len < sizeof objs)
            len += (size_t)snprintf(objs + len, sizeof objs - len, "%s%s", len ? ", " : "", b ? b + 1 : st.syms.objs[i].path);
    }
    for (k = 0; k < st.args.nnames; k++) {
            const pl_name *nm = &st.args.names[k];
        if (!nm->pending || nm->found) continue;
        if (nm->object)
            return pl_fail("%s %s@%s: no function of that name in a shared object named %s whose code ran (those that "
                           "ran: %s): check the names (nm -D LIBRARY lists a library's)", pl_kind_opt(nm->kind), nm->name,
                           nm->object, nm->object, objs[0] ? objs : "none");
        return pl_fail("%s %s: no function of that name in %s nor in the shared objects whose code ran (%s): check "
                       "the name (nm -D LIBRARY lists a library's), or that the program calls it",
                       pl_kind_opt(nm->kind), nm->name, st.args.program, objs[0] ? objs : "none");
    }
    return 0;
}

/* A block and all it owns (its disassembly strings when it has them). */
void pl_block_free(pl_block *b)
{
    uint32_t i;
    if (b->text)
        for (i = 0; i < b->n; i++) free(b->text[i]);
    free(b->s);
    free(b->addrs);
    bintrace_prep_free(&b->prep);
    free(b->flags);
    free(b->text);
    if (b->xacc)
        for (i = 0; i < b->n; i++)
            if (b->xacc[i].a != b->xacc[i].inline_a) free(b->xacc[i].a);
    free(b->xacc);
    free(b->flops);
    free(b->xw);
    free(b->u);
    free(b->ufirst);
    free(b->uaddrs);
    bintrace_prep_free(&b->uprep);
    if (b->rprep)
        for (i = 0; i <= PL_MAX_REGIONS; i++) bintrace_prep_free(&b->rprep[i]);
    free(b->rprep);
    free(b->memi);
    free(b);
}

/* ---------------------------------------------------------------------- */
/* The code index: translations by PC                                     */
/* ---------------------------------------------------------------------- */
/* QEMU translates code again when it runs it again after its cache was
   flushed, and when the program rewrites it (a JIT). A translation whose
   bytes, scope and kind are a block's made before at its PC shares that
   block; one whose bytes differ from an earlier block's at its PC (their
   common start) means the program wrote over that code: QEMU threw its
   translations away, so that block never runs again and is freed (a
   program of one thread: with several, another may still be inside it,
   and it is kept). Memory follows the live code, not the run's history. */
static pl_code_node **pl_code_bucket(uint64_t pc)
{
    return &st.run.index[((pc >> 1) * 0x9E3779B97F4A7C15ull) >> 32 & (st.run.index_size - 1)];
}

static void pl_code_link(pl_code_node *n, uint64_t pc, int untraced)
{
    pl_code_node **list = untraced ? &st.run.ublocks : &st.run.blocks, **head;
    n->pc = pc;
    n->untraced = untraced;
    n->prev_alloc = NULL;
    n->next_alloc = *list;
    if (*list) (*list)->prev_alloc = n;
    *list = n;
    if (st.run.index_count >= st.run.index_size) {     /* twice the buckets, at most one node a bucket on average */
        size_t size = st.run.index_size ? st.run.index_size * 2 : 4096, i;
        pl_code_node **old = st.run.index, **index = (pl_code_node **)calloc(size, sizeof *index);
        if (index) {
            size_t old_size = st.run.index_size;
            st.run.index = index;
            st.run.index_size = size;
            for (i = 0; i < old_size; i++)
                while (old[i]) {
                    pl_code_node *m = old[i];
                    old[i] = m->next;
                    head = pl_code_bucket(m->pc);
                    m->next = *head;
                    *head = m;
                }
            free(old);
        }
    }
    n->next = NULL;
    if (!st.run.index_size) return;     /* out of memory: kept, not indexed */
    head = pl_code_bucket(pc);
    n->next = *head;
    *head = n;
    st.run.index_count++;
}

static void pl_code_unlink(pl_code_node *n)
{
    pl_code_node **list = n->untraced ? &st.run.ublocks : &st.run.blocks, **at;
    if (n->prev_alloc) n->prev_alloc->next_alloc = n->next_alloc;
    else *list = n->next_alloc;
    if (n->next_alloc) n->next_alloc->prev_alloc = n->prev_alloc;
    for (at = st.run.index_size ? pl_code_bucket(n->pc) : NULL; at && *at; at = &(*at)->next)
        if (*at == n) {
            *at = n->next;
            st.run.index_count--;
            break;
        }
}

/* The instructions' bytes of a translation, one after the other. */
static size_t pl_block_bytes(const pl_block *b, uint8_t *out, size_t cap)
{
    size_t len = 0;
    uint32_t i;
    for (i = 0; i < b->n && len + b->s[i].in.length <= cap; i++) {
        memcpy(out + len, b->s[i].raw, b->s[i].in.length);
        len += b->s[i].in.length;
    }
    return len;
}

static const uint8_t *pl_ublock_bytes(const pl_ublock *u) { return (const uint8_t *)(u->regs + u->nregs); }

enum { PL_CODE_SAME, PL_CODE_REWRITTEN, PL_CODE_OTHER };
/* What translation b (its bytes: bytes, len) is to the earlier one n at
   its PC: the same code, code written over, or another run of the same
   code (a block of another length: both may run). */
static int pl_code_compare(const pl_block *b, const uint8_t *bytes, size_t len, const pl_code_node *n, int untraced)
{
    uint8_t mine[BINTRACE_MAX_BLOCK * 16];
    const uint8_t *theirs;
    size_t their_len, common;
    if (n->untraced) {
        const pl_ublock *u = (const pl_ublock *)(const void *)n;
        theirs = pl_ublock_bytes(u);
        their_len = u->nbytes;
    } else {
        their_len = pl_block_bytes((const pl_block *)(const void *)n, mine, sizeof mine);
        theirs = mine;
    }
    common = len < their_len ? len : their_len;
    if (memcmp(bytes, theirs, common)) return PL_CODE_REWRITTEN;
    if (len != their_len || n->untraced != untraced) return PL_CODE_OTHER;
    if (!untraced) {
        const pl_block *o = (const pl_block *)(const void *)n;
        uint32_t i;
        for (i = 0; i < b->n; i++)
            if (b->flags[i] != o->flags[i]) return PL_CODE_OTHER;     /* the scope changed (an IFUNC's names) */
    }
    return PL_CODE_SAME;
}

static void pl_code_free(pl_code_node *n)
{
    if (n->untraced) {
        free(n);
        return;
    }
    if (st.is_x86 && (st.args.a.cmd.top || st.args.a.cmd.dot_path)) {    /* its bytes, for the report to name them */
        const pl_block *b = (const pl_block *)(const void *)n;
        uint32_t i;
        for (i = 0; i < b->n; i++)
            if (cli_code_add(&st.out.code, b->s[i].in.pc, b->s[i].raw, b->s[i].in.length)) break;
    }
    pl_block_free((pl_block *)(void *)n);
}

/* The blocks retired while an execution of theirs was pending, freed now
   that it is not. */
void pl_code_sweep(void)
{
    pl_code_node **at = &st.run.retired;
    while (*at) {
        pl_code_node *n = *at;
        if (!n->untraced && (pl_block *)(void *)n == st.run.pending) {
            at = &n->next;
            continue;
        }
        if ((pl_block *)(void *)n == st.run.stash) pl_stash_flush();
        *at = n->next;
        pl_code_free(n);
    }
}

/* The earlier translation at b's PC that b shares (NULL: none); those
   written over are freed. */
static pl_code_node *pl_code_lookup(const pl_block *b, int untraced)
{
    uint8_t bytes[BINTRACE_MAX_BLOCK * 16];
    size_t len = pl_block_bytes(b, bytes, sizeof bytes);
    uint64_t pc = b->s[0].in.pc;
    pl_code_node *n, *next, *same = NULL;
    if (!st.run.index_size) return NULL;
    for (n = *pl_code_bucket(pc); n; n = next) {
        int how;
        next = n->next;
        if (n->pc != pc) continue;
        how = pl_code_compare(b, bytes, len, n, untraced);
        if (how == PL_CODE_SAME && !same) {
            same = n;
        } else if (how == PL_CODE_REWRITTEN && st.thr.vcpus <= 1) {
            pthread_mutex_lock(&pl_mu);     /* not while the run ends (pl_finish reads the lists) */
            if (!pl_ending) {
                pl_code_unlink(n);
                n->next = st.run.retired;
                st.run.retired = n;
                st.run.rewritten++;
            }
            pthread_mutex_unlock(&pl_mu);
        }
    }
    if (st.run.retired) pl_code_sweep();
    return same;
}

/* x86-64: instruction i of block b from its bytes (tools/front/x86.c): its
   vertices (appended to b->u), flops and room for the accesses an
   execution makes (QEMU hands a 16-byte access over as two of 8: room for
   pieces of 8, twice). An instruction Zydis cannot decode is flagged
   (PL_UNKNOWN) and makes one vertex without operands; one that saves or
   restores the register state (whose registers are not listed) is counted
   for the notes and analysed with the accesses it makes. -1 when out of
   memory. */
static int pl_translate_x86(pl_block *b, uint32_t i, const uint8_t *data, size_t len, uint64_t pc)
{
    x86_decoded d;
    char why[128];
    edan_insn *in = &b->s[i].in;
    uint32_t cap = 0, k;
    edan_result r = x86_decode(data, len, pc, &d, why, sizeof why);
    if (r != EDAN_OK && len < 15 && (pc & 4095) > 4096 - 15) {
        /* QEMU 7.2 hands over only the first page's bytes of an instruction
           that crosses into the next page. In user mode the program's
           memory is this process's, at the same address when QEMU's guest
           base is 0: checked (both pages mapped, the bytes handed over
           there), the whole instruction is read from it. */
        unsigned char vec[2];
        const uint8_t *mem = (const uint8_t *)(uintptr_t)pc;
        void *page = (void *)(uintptr_t)(pc & ~(uint64_t)4095);
        if (mincore(page, 8192, vec) == 0 && !memcmp(mem, data, len)) {
            uint8_t whole[15];
            memcpy(whole, mem, sizeof whole);
            r = x86_decode(whole, sizeof whole, pc, &d, why, sizeof why);
            if (r == EDAN_OK) {
                len = d.in.length;
                memcpy(b->s[i].raw, whole, len);
                b->xacc[i].crosses = 1;
            }
        }
    }
    b->ufirst[i] = b->nu;
    b->xacc[i].crosses |= (pc & 4095) + len > 4096;
    if (r != EDAN_OK) {
        memset(&d, 0, sizeof d);
        d.xfer.pc = pc;
        d.xfer.next = pc + len;
        d.in.cls = EDAN_CLASS_OTHER;
        d.nuop = 1;
        d.uop[0].in.cls = EDAN_CLASS_OTHER;
        cap = 16;
        b->xacc[i].np = 0xff;       /* no execution of it is exact */
        b->flags[i] |= PL_UNKNOWN;
        b->has_unknown = 1;
    } else {
        b->flops[i] = d.flops;
        cap = x86_exec_prepare(&b->xacc[i], &d, b->nu);
        if (d.state) {
            const char *mn = x86_op_name(d.in.op);
            st.x86.state_insns++;
            if (mn && strstr(mn, "rstor")) b->flags[i] |= PL_RESTORES;
        }
        {   /* its accesses come in VERTEX records, unless it makes one of up to 8 bytes */
            uint32_t nm = 0;
            for (k = 0; k < d.nuop; k++) nm += d.uop[k].in.mem != EDAN_MEM_NONE;
            (void)x86_single_access(&d);
            b->s[i].vertex_only = (uint8_t)(d.rep || nm != (d.in.mem != EDAN_MEM_NONE));
        }
    }
    *in = d.in;
    in->pc = pc;
    in->flags |= EDAN_INSN_HAS_PC;
    in->length = (uint8_t)len;
    b->end = d.xfer;        /* the block's last instruction's, in the end */
    for (k = 0; k < d.nuop; k++) {
        b->u[b->nu] = d.uop[k];
        b->u[b->nu].in.pc = pc;
        b->u[b->nu].in.flags |= EDAN_INSN_HAS_PC;
        b->nu++;
    }
    b->xacc[i].cap = cap;
    b->xacc[i].owner = b;
    if (cap <= X86_EXEC_INLINE) b->xacc[i].a = b->xacc[i].inline_a;
    else if (!(b->xacc[i].a = (edan_access *)calloc(cap, sizeof(edan_access)))) return -1;
    return 0;
}

/* A block of n instructions, its arrays allocated (x86-64: room for its
   vertices); NULL when out of memory. */
static pl_block *pl_block_new(size_t n)
{
    pl_block *b = (pl_block *)calloc(1, sizeof *b);
    if (!b) return NULL;
    b->n = (uint32_t)n;
    b->s = (bintrace_sinsn *)calloc(n, sizeof *b->s);
    b->addrs = (uint64_t *)malloc(n * sizeof *b->addrs);
    if (b->addrs) memset(b->addrs, 0xff, n * sizeof *b->addrs);    /* PL_NOT_RUN: no access made yet */
    b->flags = (uint16_t *)calloc(n, sizeof *b->flags);
    if (st.out.text_f) b->text = (char **)calloc(n, sizeof(char *));
    if (st.is_x86) {
        b->xacc = (x86_exec *)calloc(n, sizeof *b->xacc);
        b->flops = (uint32_t *)calloc(n, sizeof *b->flops);
        b->xw = (uint32_t *)malloc(n * sizeof *b->xw);
        b->u = (bintrace_uop *)malloc(n * X86_MAX_UOPS * sizeof *b->u);
        b->ufirst = (uint32_t *)malloc((n + 1) * sizeof *b->ufirst);
    }
    if (!b->s || !b->addrs || !b->flags || (st.out.text_f && !b->text) ||
        (st.is_x86 && (!b->xacc || !b->flops || !b->xw || !b->u || !b->ufirst))) {
        pl_block_free(b);
        return NULL;
    }
    return b;
}

/* RISC-V: instruction s from its bytes (an undecodable one flagged
   PL_UNKNOWN); its flags: the markers. */
static uint16_t pl_translate_rv(pl_block *b, bintrace_sinsn *s, const uint8_t *data, size_t len, uint64_t pc)
{
    edan_insn *in = &s->in;
    uint16_t f = 0;
    uint32_t word = 0;
    size_t k;
    for (k = 0; k < len && k < 4; k++) word |= (uint32_t)data[k] << (8 * k);
    if (edan_rv_decode(data, len, in) != EDAN_OK) {
        memset(in, 0, sizeof *in);
        in->cls = EDAN_CLASS_OTHER;
        f |= PL_UNKNOWN;
        b->has_unknown = 1;
    }
    in->pc = pc;
    in->flags |= EDAN_INSN_HAS_PC;
    in->length = (uint8_t)len;
    if (len == 4 && word == EDAN_TRACE_BEGIN_INSN) f |= PL_BEGIN;
    if (len == 4 && word == EDAN_TRACE_END_INSN) f |= PL_END;
    flow_rv_decode(data, len, pc, &b->end);     /* the block's last instruction's, in the end */
    return f;
}

/* The name after the marker at pc, of len bytes (edan_trace.h): its
   address, or 0 when none follows (an unnamed marker). */
static uint64_t pl_marker_name_at(uint64_t pc, size_t len)
{
    uint8_t c[8];
    if (pl_guest_read(pc + len, c, sizeof c)) return 0;
    if (st.is_x86) {
        uint32_t rel = (uint32_t)c[4] | (uint32_t)c[5] << 8 | (uint32_t)c[6] << 16 | (uint32_t)c[7] << 24;
        if (memcmp(c, EDAN_TRACE_X86_NAME, 4)) return 0;
        return pc + len + (uint64_t)(int64_t)(int32_t)rel;
    } else {
        uint32_t hi = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
        uint32_t lo = (uint32_t)c[4] | (uint32_t)c[5] << 8 | (uint32_t)c[6] << 16 | (uint32_t)c[7] << 24;
        if ((hi & 0xfff) != 0x017 || (lo & 0xfffff) != 0x02013) return 0;    /* auipc zero; slti zero, zero */
        return pc + len + (uint64_t)(int64_t)(int32_t)(hi & 0xfffff000u) + (uint64_t)(int64_t)((int32_t)lo >> 20);
    }
}

/* The named region of the marker at pc (0: unnamed), made at its first
   translation; the trace stops on a name it cannot read or one too many. */
static uint32_t pl_marker_region(uint64_t pc, size_t len)
{
    uint64_t at = pl_marker_name_at(pc, len);
    char name[sizeof st.reg.r[0].name];
    size_t k;
    uint32_t id;
    if (!at) return 0;
    for (k = 0; k < sizeof name; k++)
        if (pl_guest_read(at + k, &name[k], 1) || !name[k]) break;
    if (k == sizeof name || (k < sizeof name && name[k]))
        pl_stop("pc 0x%llx: the region name of an EDAN_TRACE marker %s at 0x%llx", (unsigned long long)pc,
                k == sizeof name ? "is longer than 127 bytes" : "cannot be read", (unsigned long long)at);
    if (!k) return 0;
    for (id = 1; id <= st.reg.n; id++)
        if (!strcmp(st.reg.r[id].name, name)) return id;
    if (st.reg.n == PL_MAX_REGIONS)
        pl_stop("pc 0x%llx: region \"%s\": a program has at most %d named regions", (unsigned long long)pc, name,
                PL_MAX_REGIONS);
    memcpy(st.reg.r[st.reg.n + 1].name, name, k + 1);
    return ++st.reg.n;
}

/* Is the instruction at pc (its bytes data[0 .. len)) part of the name
   after a marker? */
static int pl_marker_name_part(const uint8_t *data, size_t len, uint64_t pc)
{
    uint8_t m[8];
    uint32_t w;
    if (st.is_x86)
        return len == EDAN_TRACE_X86_NAME_LEN && !memcmp(data, EDAN_TRACE_X86_NAME, 4) &&
               !pl_guest_read(pc - EDAN_TRACE_X86_LEN, m, EDAN_TRACE_X86_LEN) &&
               (!memcmp(m, EDAN_TRACE_X86_BEGIN, EDAN_TRACE_X86_LEN) || !memcmp(m, EDAN_TRACE_X86_END, EDAN_TRACE_X86_LEN));
    if (len != 4) return 0;
    w = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
    if ((w & 0xfff) == 0x017) pc -= 4;                          /* the auipc: the marker before it */
    else if ((w & 0xfffff) == 0x02013) pc -= 8;                 /* the slti: the marker before the auipc */
    else return 0;
    if (pl_guest_read(pc, m, 4)) return 0;
    w = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
    return (w == EDAN_TRACE_BEGIN_INSN || w == EDAN_TRACE_END_INSN) && pl_marker_name_at(pc, 4) != 0;
}

/* Instruction i of b, QEMU's qi: decoded, its flags (the scope's too) and
   its text; *any when it is in --func's scope, else *all cleared. -1 when
   out of memory. */
static int pl_translate_insn(pl_block *b, uint32_t i, struct qemu_plugin_insn *qi, int *any, int *all)
{
    const uint8_t *data = (const uint8_t *)qemu_plugin_insn_data(qi);
    size_t len = qemu_plugin_insn_size(qi), k;
    uint64_t pc = qemu_plugin_insn_vaddr(qi);
    bintrace_sinsn *s = &b->s[i];
    uint16_t f = 0;
    for (k = 0; k < len && k < sizeof s->raw; k++) s->raw[k] = data[k];
    if (st.is_x86) {
        if (pl_translate_x86(b, i, data, len, pc) < 0) return -1;
    } else {
        f = pl_translate_rv(b, s, data, len, pc);
    }
    f |= b->flags[i];       /* what the x86-64 translation set */
    if (st.is_x86) {       /* x86: markers by their bytes */
        if (len == EDAN_TRACE_X86_LEN && !memcmp(data, EDAN_TRACE_X86_BEGIN, len)) f |= PL_BEGIN;
        if (len == EDAN_TRACE_X86_LEN && !memcmp(data, EDAN_TRACE_X86_END, len)) f |= PL_END;
    }
    if (f & (PL_BEGIN | PL_END)) f |= (uint16_t)(pl_marker_region(pc, len) << PL_REGION_SHIFT);
    else if (pl_marker_name_part(data, len, pc)) f |= PL_NAME;
    if (st.scope.nfuncs && pl_in_funcs(pc)) f |= PL_INFUNC;
    if (st.scope.nregion && pl_in_list(st.scope.region_entry, st.scope.nregion, pc)) f |= PL_REGION_ENTRY;
    if (st.scope.nexcl && pl_in_list(st.scope.excl_entry, st.scope.nexcl, pc)) f |= PL_EXCL_ENTRY;
    b->flags[i] = f;
    if (!st.scope.func || (f & PL_INFUNC)) *any = 1;
    else *all = 0;
    if (f & (PL_BEGIN | PL_END | PL_NAME)) *all = 0;
    if (st.out.text_f && st.is_x86) {
        b->text[i] = x86_text_start(s->in.pc, s->raw, s->in.length);
    } else if (st.out.text_f) {
        char *d = qemu_plugin_insn_disas(qi);
        b->text[i] = pl_normalise_disas(d ? d : "unknown");
        free(d);
    }
    return 0;
}

/* With only --func scoping, a block outside the functions is only
   watched for what it writes: the registers (one callback per execution)
   and its stores' bytes. Block b, translated, goes; tb gets the
   callbacks. */
static void pl_watch_untraced(struct qemu_plugin_tb *tb, pl_block *b, pl_ublock *same)
{
    uint32_t n = b->n, i, k;
    uint8_t bytes[BINTRACE_MAX_BLOCK * 16];
    size_t nbytes = pl_block_bytes(b, bytes, sizeof bytes);
    pl_ublock *u = same ? same
                        : (pl_ublock *)malloc(sizeof *u + (EDAN_MAX_DST * n + EDAN_X86_NUM_REGS) * sizeof(edan_reg) +
                                              nbytes);
    if (!u) {
        pl_block_free(b);
        return;
    }
    if (!same) {
        u->nregs = 0;
        u->end = b->end;
        u->ninsns = n;
        u->out_insns = 0;
    }
    for (i = 0; i < n; i++) {
        const edan_insn *in = &b->s[i].in;
        uint32_t v, v0 = st.is_x86 ? b->ufirst[i] : 0, v1 = st.is_x86 ? b->ufirst[i + 1] : 1;
        for (v = v0; v < v1 && !same; v++) {     /* x86-64: each vertex's registers but its temporaries */
            const edan_insn *w = st.is_x86 ? &b->u[v].in : in;
            for (k = 0; k < w->ndst; k++) {
                uint32_t j;
                if (st.is_x86 && x86_reg_is_temp(w->dst[k])) continue;
                for (j = 0; j < u->nregs && u->regs[j] != w->dst[k]; j++) {}
                if (j == u->nregs && w->dst[k]) u->regs[u->nregs++] = w->dst[k];
            }
        }
        if (st.is_x86) {
            if (b->xacc[i].cap)     /* its stores' bytes, from QEMU's sizes */
                qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), pl_vcpu_mem_untraced_x86,
                                                 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
            if ((b->flags[i] & PL_RESTORES) && !same)   /* xrstor and kin: every vector, mask and x87 register */
                for (k = EDAN_X86_VEC(0); k < EDAN_X86_NUM_REGS; k++) {
                    uint32_t j;
                    for (j = 0; j < u->nregs && u->regs[j] != (edan_reg)k; j++) {}
                    if (j == u->nregs) u->regs[u->nregs++] = (edan_reg)k;
                }
        } else if (in->mem == EDAN_MEM_STORE || in->mem == EDAN_MEM_AMO)
            qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), pl_vcpu_mem_untraced,
                                             QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                             (void *)(uintptr_t)in->size);
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, pl_vcpu_tb_untraced, QEMU_PLUGIN_CB_NO_REGS, u);
    if (!same) {    /* its bytes after its registers, for the code index */
        u->nbytes = (uint32_t)nbytes;
        memcpy(u->regs + u->nregs, bytes, nbytes);
        pl_code_link(&u->node, b->s[0].in.pc, 1);
    }
    pl_block_free(b);
}

/* A block in the scope, b, gets its callbacks on tb. Plain memory
   callbacks for both kinds: the access kind and size come from the
   decoder (QEMU 7.2's inline memory counters filtered by read or write
   count the wrong kind). A load outside --func scoping needs none; a store
   there kills its bytes. */
static void pl_watch_traced(struct qemu_plugin_tb *tb, pl_block *b)
{
    uint32_t i;
    for (i = 0; i < b->n; i++) {
        if (st.is_x86) {       /* every access, as QEMU makes them */
            if (b->xacc[i].cap)
                qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), pl_vcpu_mem_x86,
                                                 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, &b->xacc[i]);
            continue;
        }
        if (!pl_rv_watched(b, i)) continue;
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), pl_vcpu_mem,
                                         QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, &b->addrs[i]);
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, pl_vcpu_tb_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

/* What every translation does first, analysed or not: the symbols at the
   first, a shared object's names at its first code, the IFUNCs resolved
   so far. The block's instructions (0: nothing to do). */
static size_t pl_tb_prelude(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    if (!st.syms.started) {
        pl_first_translation();
        if (n) pl_check_guest_base(tb);
    }
    if (n == 0) return 0;
    if (st.syms.track_objects) {     /* a shared object's first code: its names */
        struct qemu_plugin_insn *q0 = qemu_plugin_tb_get_insn(tb, 0);
        uint64_t pc0 = qemu_plugin_insn_vaddr(q0);
        pthread_mutex_lock(&pl_objs_mu);
        if (pl_object_find(pc0) < 0) pl_object_add(pc0, (uint64_t)(uintptr_t)qemu_plugin_insn_haddr(q0));
        pthread_mutex_unlock(&pl_objs_mu);
    }
    if (st.syms.unresolved) pl_ifunc_check();      /* before this block's scope is decided */
    return n;
}

static void pl_vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = pl_tb_prelude(tb), i;
    pl_block *b;
    int any = 0, all = 1;
    (void)id;
    if (n == 0) return;
    if (n > BINTRACE_MAX_BLOCK) n = BINTRACE_MAX_BLOCK;     /* QEMU's limit is 512 */
    if (!(b = pl_block_new(n))) return;
    for (i = 0; i < n; i++)
        if (pl_translate_insn(b, (uint32_t)i, qemu_plugin_tb_get_insn(tb, i), &any, &all) < 0) {
            pl_block_free(b);
            return;
        }
    if (st.is_x86) {
        bintrace_uop *shrunk = (bintrace_uop *)realloc(b->u, b->nu * sizeof *b->u);
        if (shrunk) b->u = shrunk;
        b->ufirst[n] = b->nu;
        for (i = 0; i < n; i++) {
            b->flops_all += b->flops[i];
            if (b->xacc[i].cap || b->xacc[i].np) b->xw[b->nxw++] = (uint32_t)i;
        }
        if (!(b->uaddrs = (uint64_t *)calloc(b->nu, sizeof *b->uaddrs))) {
            pl_block_free(b);
            return;
        }
    }
    b->all_static = !st.scope.dyn && all;
    for (i = 0; i < n; i++) b->nscope += !st.scope.func || (b->flags[i] & PL_INFUNC);
    {
        int untraced = !st.scope.dyn && !any;
        pl_code_node *same = pl_code_lookup(b, untraced);
        if (untraced) {
            pl_watch_untraced(tb, b, (pl_ublock *)(void *)same);
        } else if (same) {
            pl_block_free(b);
            pl_watch_traced(tb, (pl_block *)(void *)same);
        } else {
            pl_code_link(&b->node, b->s[0].in.pc, 0);
            pl_watch_traced(tb, b);
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Sampled windows                                                        */
/* ---------------------------------------------------------------------- */
static void pl_atexit(qemu_plugin_id_t id, void *udata);

/* The callbacks of an analysed run or window (on), or of a stretch
   between windows (--sample, --skip). */
static void pl_tb_trans_off(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
static void pl_samp_register(int on)
{
    qemu_plugin_register_vcpu_init_cb(pl_samp.id, pl_vcpu_init);
    qemu_plugin_register_vcpu_syscall_cb(pl_samp.id, pl_vcpu_syscall);
    qemu_plugin_register_vcpu_syscall_ret_cb(pl_samp.id, pl_vcpu_syscall_ret);
    qemu_plugin_register_vcpu_tb_trans_cb(pl_samp.id, on ? pl_vcpu_tb_trans : pl_tb_trans_off);
    qemu_plugin_register_atexit_cb(pl_samp.id, pl_atexit, NULL);
}

/* The window's D: its vertices are at depths 1.. (every writer was
   forgotten at its start), so D is the deepest layer it added to. */
static uint64_t pl_samp_window_depth(const edan_metrics *m1, int *lower)
{
    uint64_t W = m1->W - pl_samp.m0.W, top = W < pl_samp.nsnap ? W : pl_samp.nsnap, i, d = 0, buf[4096];
    *lower = 0;
    if (m1->D > pl_samp.m0.D) return m1->D;
    for (i = 1; i <= top; i += 4096) {
        size_t n = top - i + 1 < 4096 ? (size_t)(top - i + 1) : 4096, j;
        edan_get_layers(st.out.ctx, 0, i, buf, n);
        for (j = 0; j < n; j++)
            if (buf[j] != pl_samp.snap[i - 1 + j] || pl_samp.snap[i - 1 + j] == UINT32_MAX) d = i + j;
    }
    *lower = W > pl_samp.nsnap && pl_samp.nsnap < pl_samp.m0.D;     /* layers past the snapshot not looked at */
    return d;
}

/* The window ends: its counts, for the report and the estimate. */
void pl_samp_close(void)
{
    cli_sampled *o = &pl_samp.out;
    cli_window w;
    edan_metrics m1;
    double x[CLI_WIN_VARS];
    int j, k;
    pl_stash_flush();
    if (!st.out.ctx || edan_get_metrics(st.out.ctx, 0, &m1) != EDAN_OK) return;
    memset(&w, 0, sizeof w);
    w.start = pl_samp.fed0 + __atomic_load_n(&pl_samp.off_count, __ATOMIC_RELAXED);
    w.insns = st.run.fed - pl_samp.fed0;
    w.W = m1.W - pl_samp.m0.W;
    w.bytes = m1.bytes - pl_samp.m0.bytes;
    w.T1 = m1.T1 - pl_samp.m0.T1;
    w.D = pl_samp_window_depth(&m1, &w.D_lower);
    if (o->windows < CLI_SAMPLE_LISTED) o->listed[o->windows] = w;
    o->windows++;
    if (w.D > o->D_max) o->D_max = w.D;
    o->D_lower |= w.D_lower;
    x[CLI_WIN_INSNS] = (double)w.insns;
    x[CLI_WIN_W] = (double)w.W;
    x[CLI_WIN_BYTES] = (double)w.bytes;
    x[CLI_WIN_D] = (double)w.D;
    for (j = 0; j < CLI_WIN_VARS; j++) {
        o->sum[j] += x[j];
        for (k = 0; k < CLI_WIN_VARS; k++) o->prod[j][k] += x[j] * x[k];
    }
    pl_samp.on = 0;
}

/* A window starts: every register and byte forgets its writer (what ran
   since the last window is unknown), the counts and layers as they are. */
static void pl_samp_open(void)
{
    uint32_t k;
    pl_stash_flush();
    pl_samp.on = 1;
    pl_samp.fed0 = st.run.fed;
    pl_samp.on_until = pl_samp.out.period ? st.run.fed + pl_samp.out.length : UINT64_MAX;
    if (st.out.next_check > pl_samp.on_until) st.out.next_check = pl_samp.on_until;
    if (!st.out.ctx) return;
    for (k = 0; k < PL_MAX_VCPUS; k++) pl_thrs[k].missed = 1;    /* each thread's registers, at its next block */
    if (st.thr.cur) {
        pl_kill_all_regs();
        pl_kill_flush();
        pl_thrs[st.thr.cur - pl_thrs].missed = 0;
        while (edan_signal_depth(st.out.ctx) > 0 && edan_signal_drop(st.out.ctx) == EDAN_OK) {}
    }
    for (k = 0; k < st.thr.vcpus && k < PL_MAX_VCPUS; k++) {    /* no call or handler frame is known */
        flow_free(&pl_thrs[k].flow);
        flow_init(&pl_thrs[k].flow, st.scope.dyn);
    }
    (void)edan_kill_mem(st.out.ctx, 0, UINT64_MAX);
    edan_get_metrics(st.out.ctx, 0, &pl_samp.m0);
    {   /* the layers a window of LENGTH instructions may add to (D <= W), saturated to 32 bits */
        uint64_t want = pl_samp.out.period ? 2 * pl_samp.out.length + 4096 : 0, i, buf[4096];
        if (want > pl_samp.m0.D) want = pl_samp.m0.D;
        if (want > pl_samp.snap_cap) {
            uint32_t *ns = (uint32_t *)realloc(pl_samp.snap, want * sizeof *ns);
            if (ns) {
                pl_samp.snap = ns;
                pl_samp.snap_cap = want;
            }
        }
        pl_samp.nsnap = want < pl_samp.snap_cap ? want : pl_samp.snap_cap;
        for (i = 1; i <= pl_samp.nsnap; i += 4096) {
            size_t n = pl_samp.nsnap - i + 1 < 4096 ? (size_t)(pl_samp.nsnap - i + 1) : 4096, j;
            edan_get_layers(st.out.ctx, 0, i, buf, n);
            for (j = 0; j < n; j++) pl_samp.snap[i - 1 + j] = buf[j] >= UINT32_MAX ? UINT32_MAX : (uint32_t)buf[j];
        }
    }
}

/* QEMU's reset callbacks: every vCPU stopped, the translations flushed, no
   callback registered. */
static void pl_samp_to_off(qemu_plugin_id_t id)
{
    (void)id;
    if (!st.run.child) {
        pl_drain_holder();
        pl_chunk_flush();
        pl_samp_close();
    }
    pthread_mutex_lock(&pl_mu);     /* every vCPU stands outside its blocks: no one holds the analysis between windows */
    pl_owner = -1;
    pl_gen++;
    pthread_cond_broadcast(&pl_cv);
    pthread_mutex_unlock(&pl_mu);
    {
        int two = 2;
        __atomic_compare_exchange_n(&pl_ending, &two, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    }
    pl_samp.off_until = __atomic_load_n(&pl_samp.off_count, __ATOMIC_RELAXED) + pl_samp.out.period - pl_samp.out.length;
    __atomic_store_n(&pl_samp.requested, 0, __ATOMIC_RELEASE);
    pl_samp_register(0);
}

static void pl_samp_to_on(qemu_plugin_id_t id)
{
    (void)id;
    if (!st.run.child) pl_samp_open();
    __atomic_store_n(&pl_samp.requested, 0, __ATOMIC_RELEASE);
    pl_samp_register(1);
}

/* The window has its LENGTH instructions: the stretch without analysis
   starts once QEMU can switch (at the end of a block). */
void pl_samp_end_window(void)
{
    int zero = 0;
    if (!pl_samp.out.period || __atomic_exchange_n(&pl_samp.requested, 1, __ATOMIC_ACQ_REL)) return;
    pl_samp.on_until = UINT64_MAX;
    __atomic_compare_exchange_n(&pl_ending, &zero, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    pthread_mutex_lock(&pl_mu);     /* the threads waiting for the analysis run on */
    pthread_cond_broadcast(&pl_cv);
    pthread_mutex_unlock(&pl_mu);
    qemu_plugin_reset(pl_samp.id, pl_samp_to_off);
}

/* Between windows: a block counts the scope's instructions it runs. */
static void pl_tb_off(unsigned int vcpu, void *udata)
{
    uint64_t c;
    (void)vcpu;
    if (pl_ending) return;
    c = __atomic_add_fetch(&pl_samp.off_count, (uint64_t)(uintptr_t)udata, __ATOMIC_RELAXED);
    if (c >= pl_samp.off_until && !__atomic_exchange_n(&pl_samp.requested, 1, __ATOMIC_ACQ_REL))
        qemu_plugin_reset(pl_samp.id, pl_samp_to_on);
}

static void pl_tb_trans_off(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = pl_tb_prelude(tb), i, in = 0;
    (void)id;
    for (i = 0; i < n; i++)
        in += !st.scope.func || pl_in_funcs(qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i)));
    if (in) qemu_plugin_register_vcpu_tb_exec_cb(tb, pl_tb_off, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)in);
}

static void pl_atexit(qemu_plugin_id_t id, void *udata)
{
    (void)id; (void)udata;
    if (!st.run.child) pl_finish();     /* a forked child writes nothing; after an exec it is written */
}

static int pl_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    const char *args = NULL;
    int i;
    if (!strcmp(info->target_name, "x86_64")) {
        st.is_x86 = 1;
    } else if (strcmp(info->target_name, "riscv64") != 0) {
        fprintf(stderr, "edan plugin: target %s is neither riscv64 nor x86_64\n", info->target_name);
        return -1;
    }
    for (i = 0; i < argc; i++)
        if (!strncmp(argv[i], "args=", 5)) args = argv[i] + 5;
    if (!args) {
        fprintf(stderr, "edan plugin: expects args=FILE (run it through `edan trace`)\n");
        return -1;
    }
    if (pl_read_args(args) < 0) return -1;
    if (st.is_x86) {       /* after the arguments, which start st.args.a afresh */
        st.args.a.run.op_name = x86_op_name;
        st.args.a.run.isa = EDAN_ISA_X86_64;
    }
    if (pl_load_symbols() < 0) return -1;
    {   /* each name scopes, whatever it finds now (a shared object's and an IFUNC's functions come later) */
        int kinds[3] = {0, 0, 0}, markers = st.syms.have_markers && !st.args.markers_off;
        for (i = 0; i < st.args.nnames; i++) kinds[st.args.names[i].kind]++;
        st.scope.func = kinds[0] > 0;
        st.scope.dyn = kinds[1] || kinds[2] || markers;
        st.scope.any = kinds[0] || kinds[1] || markers;
    }
    if (pl_samp.active && st.scope.dyn)
        return pl_fail("--sample and --skip: %s runs EDAN_TRACE markers, which scope by where they run, which the "
                       "stretches without analysis do not watch: add --no-markers, or use --func", st.args.program);
    st.syms.track_objects = st.args.nnames > 0 || st.args.a.cmd.top > 0 || st.scope.dyn;
    if (!st.args.a.cmd.jobs && st.args.job.size > 1) {     /* the ranks share the cores */
        unsigned share = cli_cores() / (unsigned)st.args.job.size;
        if (!share) share = 1;
        if (st.args.a.opts.jobs > share) st.args.a.opts.jobs = share;
    }
    if (st.args.analyze) {
        edan_result r = edan_create(&st.out.ctx, &st.args.a.opts);
        if (r != EDAN_OK) return pl_fail("cannot start the analysis: %s", edan_result_string(r));
    }
    if (st.args.text_path && !(st.out.text_f = pl_open_out(&st.out.text_o, st.args.text_path))) return -1;
    /* the ISA first: a reader then never guesses it past comment lines */
    if (st.out.text_f) fprintf(st.out.text_f, "#edan-trace %s\n", st.is_x86 ? "x86-64" : "riscv64");
    if (st.args.bin_path && !(st.out.bin_f = pl_open_out(&st.out.bin_o, st.args.bin_path))) return -1;
    {   /* the temporary files, for edan trace to remove if the program dies by a signal */
        char list[2 * 4200] = "";
        if (st.out.text_o.tmp) snprintf(list, sizeof list, "%s\n", st.out.text_o.tmp);
        if (st.out.bin_o.tmp) snprintf(list + strlen(list), sizeof list - strlen(list), "%s\n", st.out.bin_o.tmp);
        if (list[0]) pl_write_file("outputs", list);
    }
    pthread_atfork(NULL, pl_forked_parent, pl_forked_child);
    if (st.out.bin_f) {
        if (bintrace_writer_open_isa(&st.out.bw, st.out.bin_f, st.is_x86 ? EDAN_ISA_X86_64 : EDAN_ISA_RISCV64) != BINTRACE_OK)
            return pl_fail("out of memory");
    }
    st.out.cwd_fd = open(".", O_RDONLY);
    cli_progress_start(&st.out.progress, 0, st.args.a.cmd.quiet);
    st.out.next_check = 1u << 22;
    if (st.args.max_insns && st.out.next_check > st.args.max_insns) st.out.next_check = st.args.max_insns;
    snprintf(st.run.stop_path, sizeof st.run.stop_path, "%s/stop", st.args.dir);
    {   /* edan-preload.so, when edan trace loaded it, tells of a fatal signal */
        void *self = dlopen(NULL, RTLD_NOW);
        void (*set)(void (*)(int)) = NULL;
        if (self) *(void **)&set = dlsym(self, "edan_preload_set_kill_hook");
        if (set) set(pl_on_fatal_signal);
    }
    {   /* the watcher, with every signal blocked (QEMU's handlers run on the program's threads) */
        pthread_t w;
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        if (pthread_create(&w, NULL, pl_watch, NULL) == 0) pthread_detach(w);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    /* sampled: a stretch without analysis until the scope's first block runs
       (the first window opens there), or until --skip's instructions */
    pl_samp.id = id;
    pl_samp.off_until = pl_samp.out.skip;
    pl_samp_register(!pl_samp.active);
    return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    st.out.cwd_fd = -1;
    st.args.stdout_fd = -1;
    st.run.mem_fd = -1;
    if (pl_install(id, info, argc, argv) == 0) return 0;
    if (st.out.text_f) files_out_discard(&st.out.text_o);
    if (st.out.bin_f) files_out_discard(&st.out.bin_o);
    /* Under `edan trace`, the message is in the error file: end here rather
       than have QEMU add its own "could not load plugin" line. */
    if (st.args.dir) _exit(2);
    return -1;
}
