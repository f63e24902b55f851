/* tools/trace/plugin_scope.c - the plugin's scope: the symbols the names of
   --func, --region and --exclude find (tools/front/syms.c), with IFUNCs placed
   at translation; what untraced code writes (kills); the named regions
   that markers open and close, each with its own analysis. Part of the
   plugin (tools/trace/plugin.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "plugin.h"

/* ---------------------------------------------------------------------- */
/* Symbols (tools/front/syms.c) and the scope                                   */
/* ---------------------------------------------------------------------- */
static int pl_has_close_match(const cli_funcs *fs, const char *name)
{
    char close[1024];
    cli_funcs_close_matches(fs, name, close, sizeof close);
    return close[0] != 0;
}

/* Function f (at bias from where its file has it) into the scope of name
   nm: --func's ranges, --region's and --exclude's entries. 0, or -1 when
   there are more than the scope holds. */
static int pl_scope_add(const pl_name *nm, const cli_func *f, uint64_t bias)
{
    if (nm->kind == 0) {
        if (f->size == 0) return 0;
        if (st.scope.nfuncs == (int)(sizeof st.scope.funcs / sizeof st.scope.funcs[0]))
            return pl_fail("--func %s: too many matching functions", nm->name);
        st.scope.funcs[st.scope.nfuncs].lo = f->value + bias;
        st.scope.funcs[st.scope.nfuncs].hi = f->value + f->size + bias;
        st.scope.nfuncs++;
        return 0;
    }
    if ((nm->kind == 1 ? st.scope.nregion : st.scope.nexcl) == 64)
        return pl_fail("%s %s: too many matching functions", pl_kind_opt(nm->kind), nm->name);
    if (nm->kind == 1) st.scope.region_entry[st.scope.nregion++] = f->value + bias;
    else st.scope.excl_entry[st.scope.nexcl++] = f->value + bias;
    return 0;
}

const char *pl_base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* Whether the object at path is one nm names (NAME@OBJECT: its file name
   or the start of it up to a dot, "libm" or "libm.so" for libm.so.6). */
static int pl_name_in(const pl_name *nm, const char *path)
{
    const char *b = pl_base(path);
    size_t n;
    if (!nm->object) return 1;
    n = strlen(nm->object);
    return !strncmp(b, nm->object, n) && (b[n] == 0 || b[n] == '.');
}

/* What name k found: function fname of the object at path. Its index. */
static int pl_found_add(int k, const char *fname, const char *path, int ifunc)
{
    cli_scoped *f;
    if (st.syms.nfound == (int)(sizeof st.syms.found / sizeof st.syms.found[0])) return -1;
    f = &st.syms.found[st.syms.nfound];
    f->option = pl_kind_opt(st.args.names[k].kind);
    f->name = st.args.names[k].name;
    snprintf(f->function, sizeof f->function, "%s", fname);
    f->short_of[0] = 0;
    snprintf(f->object, sizeof f->object, "%s", pl_base(path));
    f->shared = path != st.args.program;
    f->ifunc = ifunc;
    return st.syms.nfound++;
}

/* The slots of the object at path (at bias) that hold IFUNC c's
   implementation once relocated: by its name, and in its own object by
   its resolver too. */
void pl_ifunc_slots(pl_ifunc *c, const char *path, uint64_t bias, int own)
{
    uint64_t got[PL_IFUNC_SLOTS];
    size_t n = cli_elf_got_slots(path, st.args.names[c->name].name, own ? c->resolver : 0, got,
                                 PL_IFUNC_SLOTS - c->nslots), k;
    for (k = 0; k < n; k++) c->slots[c->nslots++] = got[k] + bias;
}

/* IFUNC c's object is at bias: its slots there and in every object seen. */
void pl_ifunc_place(pl_ifunc *c, uint64_t bias)
{
    size_t i;
    c->bias = bias;
    c->placed = 1;
    pl_ifunc_slots(c, c->path, bias, 1);
    for (i = 0; i < st.syms.nobjs; i++)
        if (st.syms.objs[i].path && strcmp(st.syms.objs[i].path, c->path))
            pl_ifunc_slots(c, st.syms.objs[i].path, st.syms.objs[i].bias, 0);
}

/* Name k found IFUNC f in the object at path (bias, when placed). */
static int pl_ifunc_add(int k, const cli_func *f, const char *path, uint64_t bias, int placed)
{
    pl_ifunc *c;
    if (st.syms.nifunc == (int)(sizeof st.syms.ifunc / sizeof st.syms.ifunc[0]))
        return pl_fail("%s: too many IFUNCs in the scope", st.args.names[k].name);
    c = &st.syms.ifunc[st.syms.nifunc];
    memset(c, 0, sizeof *c);
    c->name = k;
    c->found = pl_found_add(k, "", path, 1);      /* the implementation named when known */
    c->resolver = f->value;
    if (!(c->path = strdup(path))) return pl_fail("out of memory");
    st.syms.nifunc++;
    st.syms.unresolved++;
    if (placed) pl_ifunc_place(c, bias);
    return 0;
}

/* Name k's functions among fs, of the object at path (at bias from where
   the file has them; placed: the bias is known), into the scope; name k
   found when there are any. A C++ name given short names a function of
   this object only when the name found none before (in the program, or
   an object that ran code before). An IFUNC's implementation comes in
   when it is known. -1 when the scope is full or a short name is
   ambiguous (the message written). */
int pl_scope_name(int k, const cli_funcs *fs, const char *path, uint64_t bias, int placed)
{
    pl_name *nm = &st.args.names[k];
    size_t j;
    char real[4096], msg[2048];
    unsigned char *sel;
    int loader = st.syms.loader[0] && realpath(path, real) && !strcmp(real, st.syms.loader), rc = 0, i;
    if (!pl_name_in(nm, path)) return 0;
    if (!(sel = (unsigned char *)calloc(fs->n ? fs->n : 1, 1))) return pl_fail("out of memory");
    if (cli_funcs_select(fs, pl_kind_opt(nm->kind), nm->name, path, nm->found, sel, msg, sizeof msg) < 0) {
        free(sel);
        return pl_fail("%s", msg);
    }
    for (j = 0; j < fs->n && !rc; j++) {
        if (!sel[j]) continue;
        if (loader && fs->f[j].local && !nm->object) continue;     /* its private memcpy: NAME@ld-linux... for it */
        if (nm->pending && !nm->found) st.syms.npending--;
        nm->found = 1;
        if (fs->f[j].ifunc) {
            rc = pl_ifunc_add(k, &fs->f[j], path, bias, placed);
            continue;
        }
        if ((i = pl_found_add(k, fs->f[j].name, path, 0)) >= 0 && cli_func_match(&fs->f[j], nm->name) == CLI_NAME_SHORT)
            snprintf(st.syms.found[i].short_of, sizeof st.syms.found[i].short_of, "%s", fs->f[j].base);
        rc = pl_scope_add(nm, &fs->f[j], bias);
    }
    free(sel);
    return rc;
}

/* At a translation, while an IFUNC's implementation is not known: a slot
   that now holds a function of its object other than the resolver (not
   the lazy binding's PLT entry) holds it; it comes into the scope. */
void pl_ifunc_check(void)
{
    int i;
    for (i = 0; i < st.syms.nifunc; i++) {
        pl_ifunc *c = &st.syms.ifunc[i];
        cli_fnmap *m;
        size_t k;
        if (c->impl || !c->placed) continue;
        for (k = 0; k < c->nslots && !c->impl; k++) {
            uint64_t v, fn, lo, hi;
            int entry, plt;
            if (pl_guest_read(c->slots[k], &v, sizeof v) || v < c->bias || v == c->resolver + c->bias) continue;
            if (!(m = cli_fnmap_open(c->path))) continue;
            cli_fnmap_place(m, v - c->bias, &fn, &entry, &plt);
            if (fn && entry && !plt && cli_fnmap_range(m, v - c->bias, &lo, &hi) == 0) {
                cli_funcs fs;
                const char *why;
                cli_func impl;
                size_t j;
                memset(&impl, 0, sizeof impl);
                impl.value = v;
                impl.size = hi - lo;
                c->impl = v;
                st.syms.unresolved--;
                pl_scope_add(&st.args.names[c->name], &impl, 0);
                if (c->found >= 0) snprintf(st.syms.found[c->found].function, sizeof st.syms.found[c->found].function, "0x%llx",
                         (unsigned long long)(v - c->bias));
                if (c->found >= 0 && cli_funcs_load(&fs, c->path, &why) == 0) {     /* its name, when the symbols have it */
                    for (j = 0; j < fs.n; j++)
                        if (fs.f[j].value == v - c->bias && !fs.f[j].ifunc) {
                            snprintf(st.syms.found[c->found].function, sizeof st.syms.found[c->found].function, "%s",
                                     fs.f[j].name);
                            break;
                        }
                    cli_funcs_free(&fs);
                }
            }
            cli_fnmap_close(m);
        }
    }
}

int pl_load_symbols(void)
{
    int rc = 0;
    size_t i;
    cli_funcs fs;
    const char *why;
    char err[4400];

    if (cli_elf_exec_segments(st.args.program, st.is_x86, &st.syms.min_exec_vaddr, &st.syms.have_markers, err,
                              sizeof err))
        return pl_fail("%s", err);

    if (cli_funcs_load(&fs, st.args.program, &why)) {
        rc = pl_fail("%s: %s", st.args.program, why);
        goto done;
    }
    {
        char interp[4096];
        if (cli_elf_interp(st.args.program, interp, sizeof interp) || !realpath(interp, st.syms.loader))
            st.syms.loader[0] = 0;
    }
    if (st.args.nnames > 0 && !fs.have_symtab && !fs.n) {
        rc = pl_fail("%s has no symbol table (stripped?): --func, --region and --exclude need "
                     "the function symbols; rebuild without -s, or use EDAN_TRACE_BEGIN()/END() markers",
                     st.args.program);
        goto done;
    }
    for (i = 0; i < (size_t)st.args.nnames; i++) {
        pl_name *nm = &st.args.names[i];
            if (nm->object && !pl_name_in(nm, st.args.program)) {    /* NAME@OBJECT: a shared object's */
            if (!fs.dynamic) {
                rc = pl_fail("%s %s@%s: %s is statically linked: it has no shared object %s", pl_kind_opt(nm->kind), nm->name,
                             nm->object, st.args.program, nm->object);
                goto done;
            }
            nm->pending = 1;
            st.syms.npending++;
            continue;
        }
        if (pl_scope_name((int)i, &fs, st.args.program, 0, 0)) {
            rc = -1;
            goto done;
        }
        if (!nm->found) {
            char msg[1600], callers[512];
            if (cli_func_inlined(st.args.program, nm->name, callers, sizeof callers)) {
                rc = pl_fail("%s %s: the function was inlined%s%s: it has no code of its own to trace; trace its "
                             "caller with --region CALLER, or mark the code with EDAN_TRACE_BEGIN()/EDAN_TRACE_END()",
                             pl_kind_opt(nm->kind), nm->name, callers[0] ? " into " : "", callers);
                goto done;
            }
            if (fs.dynamic && (cli_funcs_import(&fs, nm->name) || !pl_has_close_match(&fs, nm->name))) {
                /* a shared object's, maybe: looked for as each one's code first runs */
                nm->pending = 1;
                st.syms.npending++;
                continue;
            }
            cli_func_miss(&fs, pl_kind_opt(nm->kind), nm->name, st.args.program, msg, sizeof msg);
            rc = pl_fail("%s", msg);
            goto done;
        }
    }
done:
    cli_funcs_free(&fs);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* What untraced code writes                                              */
/* ---------------------------------------------------------------------- */
/* The pending kills go out, in trace order: before the next traced
   instruction (or when the range buffer is full, still before it). */

/* The kills of k go to ctx (the trace stops when it refuses them). */
static void pl_kills_apply(edan_context *ctx, const pl_kills *k)
{
    uint32_t i;
    edan_result r = edan_kill_regs(ctx, k->regs, k->nregs);
    for (i = 0; r == EDAN_OK && i < k->nranges; i++) r = edan_kill_mem(ctx, k->ranges[i][0], k->ranges[i][1]);
    if (r != EDAN_OK)
        pl_stop("after instruction %llu: the analysis refused what code outside the scope wrote: %s: %s",
                (unsigned long long)st.run.fed, edan_result_string(r), edan_error(ctx));
}

static void pl_kills_clear(pl_kills *k)
{
    uint32_t i;
    for (i = 0; i < k->nregs; i++) k->seen[k->regs[i] >> 3] = 0;
    k->nregs = k->nranges = 0;
    k->pending = 0;
}

/* What code analysed while region kill_in (0: none) was open wrote goes
   to the other regions' contexts. */
void pl_region_kill_flush(void)
{
    uint32_t id;
    if (!st.reg.kill.pending) return;
    for (id = 1; id <= st.reg.n; id++)
        if (st.reg.r[id].ctx && id != st.reg.kill_in) pl_kills_apply(st.reg.r[id].ctx, &st.reg.kill);
    pl_kills_clear(&st.reg.kill);
}

void pl_kill_flush(void)
{
    uint32_t i, j;
    if (!st.kill.pending) return;
    pl_chunk_flush();
    if (st.out.ctx) pl_kills_apply(st.out.ctx, &st.kill);
    for (i = 1; i <= st.reg.n; i++)     /* code outside the scope is outside every region */
        if (st.reg.r[i].ctx) pl_kills_apply(st.reg.r[i].ctx, &st.kill);
    if (st.out.text_f) {
        /* lines of at most 32 items, far below `edan analyze`'s line limit */
        for (i = 0; i < st.kill.nregs + st.kill.nranges; i += 32) {
            fputs("#edan-kill", st.out.text_f);
            for (j = i; j < i + 32 && j < st.kill.nregs + st.kill.nranges; j++) {
                if (j < st.kill.nregs) fprintf(st.out.text_f, " r%u", st.kill.regs[j]);
                else fprintf(st.out.text_f, " m0x%llx+%llu", (unsigned long long)st.kill.ranges[j - st.kill.nregs][0],
                             (unsigned long long)st.kill.ranges[j - st.kill.nregs][1]);
            }
            fputc('\n', st.out.text_f);
        }
    }
    if (st.out.bin_f)
        bintrace_write_kill(&st.out.bw, st.kill.regs, st.kill.nregs, (const uint64_t (*)[2])st.kill.ranges,
                            st.kill.nranges);
    st.kill.total_regs += st.kill.nregs;
    for (i = 0; i < st.kill.nranges; i++) st.kill.total_bytes += st.kill.ranges[i][1];
    pl_kills_clear(&st.kill);
}

/* Every register of the thread loses its writer (what set them is not
   known). */
void pl_kill_all_regs(void)
{
    uint32_t k, n = st.is_x86 ? EDAN_X86_NUM_REGS : EDAN_RV_NUM_REGS;
    for (k = 1; k < n; k++)
        if (!st.is_x86 || !x86_reg_is_temp((edan_reg)k)) pl_kill_reg((edan_reg)k);
}

/* ---------------------------------------------------------------------- */
/* Named regions                                                          */
/* ---------------------------------------------------------------------- */

/* b prepared for the open region's analysis. */
bintrace_prep *pl_region_prep(pl_block *b)
{
    if (!b->rprep && !(b->rprep = (bintrace_prep *)calloc(PL_MAX_REGIONS + 1, sizeof *b->rprep)))
        pl_stop("out of memory for region \"%s\"", st.reg.r[st.reg.open].name);
    return &b->rprep[st.reg.open];
}

/* The open region's analysis of b's instructions (x86-64: vertices)
   [first, first + count), which ran with the addresses addrs. */
void pl_region_feed(pl_block *b, uint32_t first, uint32_t count, const uint64_t *addrs)
{
    pl_region *R = &st.reg.r[st.reg.open];
    bintrace_prep *p = pl_region_prep(b);
    uint32_t at;
    edan_result r;
    if (st.is_x86) {
        pl_chunk_flush();
        r = bintrace_feed_block(R->ctx, p, &b->u[0].in, sizeof *b->u, b->nu, first, count, addrs, &at);
        if (r != EDAN_OK) pl_refused(&b->s[bintrace_insn_of(b->ufirst, 0, b->n, at)], r);
    } else {
        r = bintrace_feed_block(R->ctx, p, &b->s[0].in, sizeof *b->s, b->n, first, count, addrs, &at);
        if (r != EDAN_OK) pl_refused(&b->s[at], r);
    }
}

/* What instructions b[first .. first+count), analysed now, write: kills
   for the regions that are not open, when there are any. */
void pl_region_record(pl_block *b, uint32_t first, uint32_t count)
{
    uint32_t i;
    if (st.reg.made <= (pl_region_fed() ? 1u : 0u)) return;
    for (i = first; i < first + count; i++) {
        if (st.is_x86) pl_kills_x86(&st.reg.kill, b, i, &b->xacc[i]);   /* QEMU's accesses: fixup changes no store */
        else pl_kills_insn(&st.reg.kill, &b->s[i], b->addrs[i]);
    }
}

/* Region R's context, at its first BEGIN: the threads made and ended so
   far, the running one, the signal handlers it is in. */
static void pl_region_make(pl_region *R)
{
    size_t k;
    uint32_t d;
    edan_result r;
    pl_stash_flush();
    if (!st.out.ctx || R->ctx) return;
    if ((r = edan_create(&R->ctx, &st.args.a.opts)) != EDAN_OK)
        pl_stop("cannot start the analysis of region \"%s\": %s", R->name, edan_result_string(r));
    st.reg.made++;
    for (k = 0; r == EDAN_OK && k < st.reg.nlog; k++)
        r = bintrace_thread_apply(R->ctx, st.reg.log[k][0], st.reg.log[k][1], st.reg.log[k][2]);
    if (r == EDAN_OK && st.reg.nlog) r = edan_thread_switch(R->ctx, st.thr.cur_tid);
    for (d = edan_signal_depth(st.out.ctx); r == EDAN_OK && d > 0; d--) r = edan_signal_deliver(R->ctx);
    if (r != EDAN_OK) pl_stop("the analysis of region \"%s\" refused the program's threads: %s", R->name, edan_error(R->ctx));
}

/* Region id (0: none) is open from now on. */
static void pl_region_switch(uint32_t id)
{
    pl_chunk_flush();           /* the rep chunk of the region that was open, into it */
    pl_region_kill_flush();     /* what its code wrote, to the others */
    st.reg.open = st.reg.kill_in = id;
    if (!id) return;
    st.reg.depth = 1;
    st.reg.r[id].entries++;
    pl_region_make(&st.reg.r[id]);
}

/* A marker that would nest regions, or end one that is not open: the
   trace stops. */
static PL_NOINLINE void pl_region_refuse(const bintrace_sinsn *s, uint16_t f)
{
    char where[600], what[200], open[200];
    uint32_t id = PL_REGION_OF(f);
    pl_where(s->in.pc, where, sizeof where);
    snprintf(what, sizeof what, "EDAN_TRACE_%s(%s%s%s)", f & PL_BEGIN ? "BEGIN" : "END", id ? "\"" : "",
             id ? st.reg.r[id].name : "", id ? "\"" : "");
    if (st.reg.open) snprintf(open, sizeof open, "region \"%s\"", st.reg.r[st.reg.open].name);
    else snprintf(open, sizeof open, "the scope of EDAN_TRACE_BEGIN()");
    pl_stop("pc 0x%llx %s: %s while %s is open: %s (edan_trace.h)", (unsigned long long)s->in.pc, where, what, open,
            f & PL_BEGIN ? "named regions do not nest, in each other or with unnamed markers"
                         : "a named region ends at its own EDAN_TRACE_END(\"name\"), and only there");
}

/* Marker s (flags f) ran: the markers' scope opens or closes, and a
   named region with it. The open region's BEGIN again (in another
   thread, say) only counts; its END ends it once it balances them. */
void pl_marker(const bintrace_sinsn *s, uint16_t f)
{
    uint32_t id = PL_REGION_OF(f);
    if (st.reg.open && id == st.reg.open) {
        if (f & PL_BEGIN) st.reg.depth++;
        else if (--st.reg.depth == 0) {
            pl_region_switch(0);
            st.scope.marker_on = 0;
        }
        return;
    }
    if (st.reg.open || (id && st.scope.marker_on)) pl_region_refuse(s, f);
    st.scope.marker_on = (f & PL_BEGIN) != 0;
    if (id && (f & PL_BEGIN)) pl_region_switch(id);
}
