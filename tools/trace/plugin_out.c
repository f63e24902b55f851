/* tools/trace/plugin_out.c - what the plugin's executions become: messages to
   `edan trace` (its error and notes files), the text and binary trace
   files, the feeding of executed blocks to the analysis, and the end of
   the run (the report, the outputs closed). Part of the plugin
   (tools/trace/plugin.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "plugin.h"

/* ---------------------------------------------------------------------- */
/* Messages to `edan trace`                                               */
/* ---------------------------------------------------------------------- */
/* The file `name` of the directory edan trace reads, written whole
   (tools/common/files.h); on standard error when it cannot be. */
void pl_write_file(const char *name, const char *text)
{
    char path[4096], err[512];
    files_out o;
    if (!st.args.dir) { fprintf(stderr, "edan plugin: %s", text); return; }
    snprintf(path, sizeof path, "%s/%s", st.args.dir, name);
    if (files_out_open(&o, path, err, sizeof err)) { fprintf(stderr, "edan plugin: %s", text); return; }
    fputs(text, o.f);
    if (files_out_close(&o, err, sizeof err)) fprintf(stderr, "edan plugin: %s", text);
}

int pl_fail(const char *fmt, ...)
{
    char msg[8192];
    va_list ap;
    size_t len;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg - 2, fmt, ap);
    va_end(ap);
    len = strlen(msg);
    if (len == 0 || msg[len - 1] != '\n') { msg[len] = '\n'; msg[len + 1] = 0; }
    pl_write_file("error", msg);
    return -1;
}

/* ---------------------------------------------------------------------- */
/* Outputs                                                                */
/* ---------------------------------------------------------------------- */
/* An output of the plugin: `-` is edan trace's standard output (the
   program's goes to standard error then), anything else as files.h says. */
FILE *pl_open_out(files_out *o, const char *path)
{
    char err[512];
    if (!strcmp(path, "-")) {
        memset(o, 0, sizeof *o);
        o->path = "standard output";
        o->f = st.args.stdout_fd >= 0 ? fdopen(st.args.stdout_fd, "wb") : NULL;
        if (!o->f) {
            pl_fail("cannot write the trace to standard output: %s", st.args.stdout_fd >= 0 ? strerror(errno) : "no descriptor");
            return NULL;
        }
    } else if (files_out_open(o, path, err, sizeof err)) {
        pl_fail("cannot write %s", err);
        return NULL;
    }
    setvbuf(o->f, NULL, _IOFBF, 1 << 20);
    return o->f;
}

static char *pl_hex(char *p, uint64_t v)
{
    char tmp[16];
    int n = 0;
    do { tmp[n++] = "0123456789abcdef"[v & 15]; v >>= 4; } while (v);
    *p++ = '0'; *p++ = 'x';
    while (n) *p++ = tmp[--n];
    return p;
}

/* QEMU 7.2 prints "<hex encoding>  <mnemonic>  <operands>  # <comment>";
   the paper's traces have "<mnemonic> <operands>". */
char *pl_normalise_disas(const char *d)
{
    const char *p = d, *q;
    char *out = (char *)malloc(strlen(d) + 1), *o = out;
    if (!out) return NULL;
    while (*p == ' ' || *p == '\t') p++;
    for (q = p; (*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'); q++) {}
    if (q - p >= 4 && (*q == ' ' || *q == '\t')) p = q;    /* encoding prefix */
    while (*p == ' ' || *p == '\t') p++;
    while (*p && *p != ' ' && *p != '\t') *o++ = *p++;     /* mnemonic */
    while (*p == ' ' || *p == '\t') p++;
    if (*p && *p != '#') {
        *o++ = ' ';
        while (*p && *p != '#') {
            if (*p != ' ' && *p != '\t') *o++ = *p;
            p++;
        }
    }
    *o = 0;
    return out;
}

/* About once a second on a terminal: how far the run is. */

void pl_progress(void)
{
    pl_stash_flush();
    st.out.next_check = st.run.fed + (1u << 22);
    if (st.args.max_insns && st.out.next_check > st.args.max_insns) st.out.next_check = st.args.max_insns;
    if (pl_samp.on) {
        if (st.run.fed >= pl_samp.on_until) pl_samp_end_window();
        else if (st.out.next_check > pl_samp.on_until) st.out.next_check = pl_samp.on_until;
    }
    cli_progress_update(&st.out.progress, 0, st.run.fed);
}

/* Where pc is, for a message: "kernel in PROGRAM", or the shared library
   mapped there (QEMU's guest addresses are this process's in user mode). */
/* The mapping of this process that holds addr, from /proc/self/maps: its
   range, its file offset and its file (path "" when it has none). 1, or 0
   when no mapping holds addr. */
int pl_mapping_of(uint64_t addr, uint64_t *lo, uint64_t *hi, uint64_t *off, char *path, size_t n)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char buf[4600];
    int found = 0;
    while (maps && !found && fgets(buf, sizeof buf, maps)) {
        unsigned long long l, h, o;
        int at = 0;
        if (sscanf(buf, "%llx-%llx %*s %llx %*s %*s %n", &l, &h, &o, &at) < 3 || addr < l || addr >= h) continue;
        *lo = l;
        *hi = h;
        *off = o;
        snprintf(path, n, "%s", at > 0 ? buf + at : "");
        path[strcspn(path, "\n")] = 0;
        found = 1;
    }
    if (maps) fclose(maps);
    return found;
}

void pl_where(uint64_t pc, char *out, size_t n)
{
    cli_syms sy;
    const char *why = NULL, *fn = NULL, *file = NULL;
    int line = 0;
    uint64_t lo, hi, off;
    char path[4096];
    snprintf(out, n, "in no file of the program");
    if (st.syms.started && cli_syms_open(&sy, st.args.program, st.args.a.run.elf_bias, &why) == 0) {
        cli_syms_at(&sy, pc, &fn, &file, &line);
        if (fn && file) snprintf(out, n, "in %s (%s, %.200s:%d)", fn, st.args.program, file, line);
        else if (fn) snprintf(out, n, "in %s (%s)", fn, st.args.program);
        cli_syms_close(&sy);
        if (fn) return;
    }
    if (pl_mapping_of(pc, &lo, &hi, &off, path, sizeof path) && path[0])
        snprintf(out, n, "in %.300s (file offset 0x%llx)", path, (unsigned long long)(off + (pc - lo)));
}

/* The bytes of s, "0f 0b". */
static void pl_bytes(const bintrace_sinsn *s, char *out, size_t n)
{
    uint32_t k, len = s->in.length < sizeof s->raw ? s->in.length : (uint32_t)sizeof s->raw;
    size_t o = 0;
    out[0] = 0;
    for (k = 0; k < len && o + 4 < n; k++) o += (size_t)snprintf(out + o, n - o, k ? " %02x" : "%02x", s->raw[k]);
}

/* Stops the trace: the message to `edan trace` (exit 2), the outputs not
   written. */
void pl_stop(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (st.out.text_f) { files_out_discard(&st.out.text_o); st.out.text_f = NULL; }
    if (st.out.bin_f) { files_out_discard(&st.out.bin_o); st.out.bin_f = NULL; }
    pl_fail("%s", msg);
    fflush(NULL);
    _exit(2);
}

/* The instruction at s was executed and does not decode: the trace stops
   there, or (--skip-unknown) it is counted and left out. */
static void pl_unknown(const bintrace_sinsn *s)
{
    char where[600], bytes[64], why[160] = "not an RV64GC instruction";
    pl_bytes(s, bytes, sizeof bytes);
    pl_where(s->in.pc, where, sizeof where);
    if (st.is_x86) {
        x86_decoded d;
        (void)x86_decode(s->raw, s->in.length, s->in.pc, &d, why, sizeof why);
    }
    if (!st.args.a.cmd.skip_unknown)
        pl_stop("pc 0x%llx %s: bytes %s: the instruction cannot be decoded: %s; --skip-unknown leaves such "
                "instructions out and counts them", (unsigned long long)s->in.pc, where, bytes, why);
    if (!st.run.skipped++)
        snprintf(st.run.skipped_what, sizeof st.run.skipped_what, "pc 0x%llx %s, bytes %s: %s", (unsigned long long)s->in.pc,
                 where, bytes, why);
}

/* The analysis refused the instruction at s (edan_feed's result r): the
   trace stops there. */
void pl_refused(const bintrace_sinsn *s, edan_result r)
{
    char where[600], bytes[64];
    pl_bytes(s, bytes, sizeof bytes);
    pl_where(s->in.pc, where, sizeof where);
    pl_stop("pc 0x%llx %s: bytes %s: the analysis cannot place the instruction in the model: %s: %s",
            (unsigned long long)s->in.pc, where, bytes, edan_result_string(r), edan_error(st.out.ctx));
}

/* ---------------------------------------------------------------------- */
/* The trace files                                                        */
/* ---------------------------------------------------------------------- */
/* Block b's instructions first .. first+count-1 ran with the addresses in
   b->addrs: an EXEC record (the block defined at its first). */
static void pl_bin_exec(pl_block *b, uint32_t first, uint32_t count)
{
    uint32_t i;
    for (i = first; i < first + count; i++) b->s[i].in.addr = b->addrs[i];     /* the writer's field */
    if (!b->bin_id) b->bin_id = bintrace_write_define(&st.out.bw, b->s, b->n) + 1;
    bintrace_write_exec(&st.out.bw, b->bin_id - 1, b->s, b->n, first, count);
}

/* x86-64: instruction i of b ran with the accesses a[0 .. n): its line. */
static void pl_out_line(pl_block *b, uint32_t i, const edan_access *a, size_t n)
{
    fputs(b->text[i] ? b->text[i] : "?", st.out.text_f);
    x86_text_write_accesses(st.out.text_f, a, n);
}

static void pl_kills_reg(pl_kills *k, edan_reg r)
{
    uint8_t bit = (uint8_t)(1u << (r & 7));
    if (!r || (k->seen[r >> 3] & bit)) return;     /* register 0 is a constant */
    k->seen[r >> 3] |= bit;
    k->regs[k->nregs++] = r;
    k->pending = 1;
}
void pl_kill_reg(edan_reg r) { pl_kills_reg(&st.kill, r); }

/* Bytes [a, a + size): merged with the last range when they touch it (a
   loop of stores, a push sequence), else a new range. */
static void pl_kills_mem(pl_kills *k, uint64_t a, uint64_t size)
{
    if (!size || a + size - 1 < a) return;      /* QEMU cannot hand over such an access */
    if (k->nranges) {
        uint64_t *last = k->ranges[k->nranges - 1], lo = last[0], end = last[0] + last[1];
        if (a <= end && a + size >= lo) {
            if (a < lo) lo = a;
            if (a + size > end) end = a + size;
            last[0] = lo;
            last[1] = end - lo;
            return;
        }
    }
    if (k->nranges == PL_KILL_RANGES) {
        if (k == &st.kill) pl_kill_flush();
        else pl_region_kill_flush();
    }
    k->ranges[k->nranges][0] = a;
    k->ranges[k->nranges][1] = size;
    k->nranges++;
    k->pending = 1;
}
void pl_kill_mem(uint64_t a, uint64_t size) { pl_kills_mem(&st.kill, a, size); }

/* What instruction s, executed outside the scope at address addr, wrote. */
void pl_kills_insn(pl_kills *kl, const bintrace_sinsn *s, uint64_t addr)
{
    uint32_t i;
    for (i = 0; i < s->in.ndst; i++) pl_kills_reg(kl, s->in.dst[i]);
    if (s->in.mem == EDAN_MEM_STORE || s->in.mem == EDAN_MEM_AMO) pl_kills_mem(kl, addr, s->in.size);
}
static void pl_kill_insn(const bintrace_sinsn *s, uint64_t addr) { pl_kills_insn(&st.kill, s, addr); }

/* x86-64: the same from instruction i of b, whose execution made x's
   accesses: the registers its vertices write, the bytes it stored. */
void pl_kills_x86(pl_kills *kl, const pl_block *b, uint32_t i, const x86_exec *x)
{
    uint32_t k, j;
    for (k = b->ufirst[i]; k < b->ufirst[i + 1]; k++)
        for (j = 0; j < b->u[k].in.ndst; j++)
            if (!x86_reg_is_temp(b->u[k].in.dst[j])) pl_kills_reg(kl, b->u[k].in.dst[j]);
    for (k = 0; k < x->n; k++)
        if (x->a[k].kind == EDAN_MEM_STORE) pl_kills_mem(kl, x->a[k].addr, x->a[k].size);
}
static void pl_kill_x86(pl_block *b, uint32_t i, x86_exec *x)
{
    x86_exec_fixup(x, &b->s[i].in, &st.x86);
    pl_kills_x86(&st.kill, b, i, x);
    x->n = 0;
}

/* x86-64: a rep movs or stos gathering into a chunk goes to the analysis
   before anything else does (bintrace_chunk). */
static void pl_chunk_to(bintrace_chunk *c, edan_context *ctx)
{
    edan_result r;
    if (!c->nu || !ctx) return;
    if ((r = bintrace_chunk_feed(c, ctx)) != EDAN_OK)
        pl_stop("after instruction %llu: the analysis refused a rep string instruction's chunk: %s: %s",
                (unsigned long long)st.run.fed, edan_result_string(r), edan_error(ctx));
}
void pl_chunk_flush(void)
{
    pl_stash_flush();
    pl_chunk_to(&st.x86.chunk, st.out.ctx);
    if (st.reg.chunk.nu) pl_chunk_to(&st.reg.chunk, st.reg.r[st.reg.open].ctx);    /* the open region's */
}

/* x86-64: the analysis of instructions b[first .. first+count): runs of
   executions whose accesses are exactly their vertices' go as ranges of
   the block's vertices (compiled blocks); any other one vertex by vertex. */
static void pl_feed_x86(pl_block *b, uint32_t first, uint32_t count, edan_context *ctx, bintrace_prep *prep,
                        bintrace_chunk *chunk)
{
    uint32_t i = first, end = first + count, j, at;
    edan_result r;
    while (i < end) {
        for (j = i; j < end; j++) {
            const x86_exec *x = &b->xacc[j];
            size_t used;
            if (x->rep && (x->n == 0 || x->np == 0xff)) break;
            if (!bintrace_match_exact(b->u + b->ufirst[j], b->ufirst[j + 1] - b->ufirst[j], x->a, x->n,
                                      b->uaddrs + b->ufirst[j], &used, 0))
                break;
        }
        if (j > i) {
            pl_chunk_flush();
            r = bintrace_feed_block(ctx, prep, &b->u[0].in, sizeof *b->u, b->nu, b->ufirst[i],
                                    b->ufirst[j] - b->ufirst[i], b->uaddrs + b->ufirst[i], &at);
            if (r != EDAN_OK) pl_refused(&b->s[bintrace_insn_of(b->ufirst, i, j, at)], r);
        }
        if (j == end) return;
        if (!(b->xacc[j].rep && b->xacc[j].n == 0)) {
            x86_exec *x = &b->xacc[j];
            int agrees;
            if (x->n > st.x86.scratch_cap) {
                size_t nc = x->n * 2;
                edan_access *na = (edan_access *)realloc(st.x86.scratch, nc * sizeof *na);
                if (!na) pl_stop("out of memory for the accesses of an instruction (pc 0x%llx)",
                                 (unsigned long long)b->s[j].in.pc);
                st.x86.scratch = na;
                st.x86.scratch_cap = nc;
            }
            r = bintrace_feed_execution(ctx, prep, b->u, b->nu, b->ufirst[j], b->ufirst[j + 1] - b->ufirst[j],
                                        x->a, x->n, x->rep, chunk, st.x86.scratch, &agrees, &at);
            if (r != EDAN_OK) pl_refused(&b->s[j], r);
            if (!agrees && ctx == st.out.ctx) x86_exec_mismatch(&st.x86, &b->s[j].in, x);
        }
        i = j + 1;
    }
}

/* x86-64: the binary trace of instructions b[first .. first+count): EXEC
   records of runs of instructions whose address they carry, VERTEX records
   of the others (a rep's execution without an iteration: none). */
static void pl_bin_x86(pl_block *b, uint32_t first, uint32_t count)
{
    uint32_t i = first, end = first + count, j;
    if (!b->bin_id) b->bin_id = bintrace_write_define(&st.out.bw, b->s, b->n) + 1;
    while (i < end) {
        for (j = i; j < end && x86_exec_execable(&b->s[j], &b->xacc[j]); j++)
            b->s[j].in.addr = b->xacc[j].n ? b->xacc[j].a[0].addr : 0;
        if (j > i) bintrace_write_exec(&st.out.bw, b->bin_id - 1, b->s, b->n, i, j - i);
        if (j == end) return;
        if (!(b->xacc[j].rep && b->xacc[j].n == 0))
            bintrace_write_vertex(&st.out.bw, b->bin_id - 1, j, b->xacc[j].a, b->xacc[j].n, 0);
        i = j + 1;
    }
}

/* x86-64: the text and binary traces of instructions b[first .. first+count). */
static void pl_out_x86(pl_block *b, uint32_t first, uint32_t count)
{
    uint32_t i;
    if (st.out.bin_f) pl_bin_x86(b, first, count);
    if (st.out.text_f)
        for (i = first; i < first + count; i++)
            if (!(b->xacc[i].rep && b->xacc[i].n == 0)) pl_out_line(b, i, b->xacc[i].a, b->xacc[i].n);
}

/* x86-64: instructions b[first .. first+count) were executed; returns the
   number that ran (a rep's execution without an iteration ran none). Runs
   of exact executions go to the analysis as ranges of the block's vertices
   (the whole block: its compiled form), any other execution vertex by
   vertex after QEMU's quirks are undone (x86_exec_fixup). */
static uint32_t pl_emit_x86(pl_block *b, uint32_t first, uint32_t count)
{
    uint32_t i = first, end = first + count, j, ran = 0, at;
    int outputs = st.out.text_f || st.out.bin_f;
    pl_region *R = pl_region_fed();
    while (i < end) {
        uint64_t flops = 0;
        j = pl_x86_exact_run(b, i, end, &flops);
        if (j > i) {
            if (st.out.ctx) {
                edan_result r;
                pl_chunk_flush();
                r = bintrace_feed_block(st.out.ctx, &b->uprep, &b->u[0].in, sizeof *b->u, b->nu, b->ufirst[i],
                                        b->ufirst[j] - b->ufirst[i], b->uaddrs + b->ufirst[i], &at);
                if (r != EDAN_OK) pl_refused(&b->s[bintrace_insn_of(b->ufirst, i, j, at)], r);
            }
            if (R) {
                pl_region_feed(b, b->ufirst[i], b->ufirst[j] - b->ufirst[i], b->uaddrs + b->ufirst[i]);
                R->flops += flops;
            }
            if (outputs) pl_out_x86(b, i, j - i);
            for (at = i; at < j; at++) b->xacc[at].n = 0;
            st.x86.flops += flops;
            ran += j - i;
        }
        if (j == end) break;
        x86_exec_fixup(&b->xacc[j], &b->s[j].in, &st.x86);
        if (st.out.ctx) pl_feed_x86(b, j, 1, st.out.ctx, &b->uprep, &st.x86.chunk);
        if (R) pl_feed_x86(b, j, 1, R->ctx, pl_region_prep(b), &st.reg.chunk);
        if (outputs) pl_out_x86(b, j, 1);
        if (!(b->xacc[j].rep && b->xacc[j].n == 0)) {
            st.x86.flops += b->flops[j];
            if (R) R->flops += b->flops[j];
            ran++;
        }
        b->xacc[j].n = 0;
        i = j + 1;
    }
    return ran;
}

static void pl_emit_known(pl_block *b, uint32_t first, uint32_t count);

/* Instructions b[first .. first+count) were executed: one that does not
   decode stops the trace, or is left out (--skip-unknown). */
static void pl_emit(pl_block *b, uint32_t first, uint32_t count)
{
    uint32_t i, from = first;
    if (!b->has_unknown) { pl_emit_known(b, first, count); return; }
    for (i = first; i < first + count; i++) {
        if (!(b->flags[i] & PL_UNKNOWN)) continue;
        pl_unknown(&b->s[i]);
        if (i > from) pl_emit_known(b, from, i - from);
        if (b->xacc) b->xacc[i].n = 0;
        from = i + 1;
    }
    if (first + count > from) pl_emit_known(b, from, first + count - from);
}

static void pl_emit_known(pl_block *b, uint32_t first, uint32_t count)
{
    uint32_t i;
    pl_region *R = pl_region_fed();
    if (st.kill.pending) pl_kill_flush();
    if (st.reg.made) pl_region_record(b, first, count);
    if (st.is_x86) {
        uint32_t ran = pl_emit_x86(b, first, count);
        st.run.fed += ran;
        if (R) R->insns += ran;
        if (st.run.fed >= st.out.next_check) pl_progress();
        return;
    }
    if (st.out.ctx) {
        uint32_t at;
        edan_result r = bintrace_feed_block(st.out.ctx, &b->prep, &b->s[0].in, sizeof *b->s, b->n, first, count,
                                            b->addrs + first, &at);
        if (r != EDAN_OK) pl_refused(&b->s[at], r);
    }
    if (R) {
        pl_region_feed(b, first, count, b->addrs + first);
        R->insns += count;
    }
    if (st.out.text_f) {
        char line[512];
        for (i = first; i < first + count; i++) {
            size_t len = b->text[i] ? strlen(b->text[i]) : 0;
            char *p = line;
            if (len > sizeof line - 64) len = sizeof line - 64;
            if (st.args.text_pc) {   /* the EDAN authors' "cpu;pc;insn;addr" variant */
                *p++ = '0'; *p++ = ';';
                p = pl_hex(p, b->s[i].in.pc);
                *p++ = ';';
            }
            memcpy(p, b->text[i], len);
            p += len;
            if (b->s[i].in.mem != EDAN_MEM_NONE) { *p++ = ';'; p = pl_hex(p, b->addrs[i]); }
            *p++ = '\n';
            fwrite(line, 1, (size_t)(p - line), st.out.text_f);
        }
    }
    if (st.out.bin_f) pl_bin_exec(b, first, count);
    st.run.fed += count;
    if (st.run.fed >= st.out.next_check) pl_progress();
}

/* Replay the scoping decisions over the first n instructions of an
   executed block (all of them, but for one a fault cut short). The
   region and exclusion change at a function's entry here and where
   control lands (pl_flow_block). */
void pl_flush_n(pl_block *b, uint32_t n)
{
    uint32_t i, run = 0;
    int in_run = 0;
    pl_thr *T = st.thr.cur;
    flow_thread *F = &T->flow;
    pl_stash_flush();
    if (b->all_static && T->selected) { if (n) pl_emit(b, 0, n); return; }
    for (i = 0; i < n; i++) {
        uint16_t f = b->flags[i];
        int active;
        if (f & (PL_BEGIN | PL_END | PL_NAME)) {
            /* the run before the marker goes to the region that was open */
            if (in_run) { pl_emit(b, run, i - run); in_run = 0; }
            if ((f & (PL_BEGIN | PL_END)) && !st.args.markers_off && st.syms.have_markers) pl_marker(&b->s[i], f);
            active = 0;     /* markers are not part of the analysed program */
        } else {
            if (f & PL_REGION_ENTRY) flow_scope_enter(F, FLOW_REGION);
            if (f & PL_EXCL_ENTRY) flow_scope_enter(F, FLOW_EXCLUDE);
            active = (!st.scope.any || (f & PL_INFUNC) || F->on[FLOW_REGION] || st.scope.marker_on) &&
                     !F->on[FLOW_EXCLUDE] && T->selected;
        }
        if (active && !in_run) { run = i; in_run = 1; }
        else if (!active && in_run) { pl_emit(b, run, i - run); in_run = 0; }
        if (!active) {
            if (st.is_x86) pl_kill_x86(b, i, &b->xacc[i]);
            else pl_kill_insn(&b->s[i], b->addrs[i]);
        }
    }
    if (in_run) pl_emit(b, run, n - run);
}

void pl_flush(pl_block *b) { pl_flush_n(b, b->n); }

/* Closes an output; `why`: the errno of a write that failed before (0: none). */
static void pl_finish_file(files_out *o, int why)
{
    char err[512];
    if (why) {
        files_out_discard(o);
        st.out.failed = 1;
        pl_fail("cannot write %s: %s", o->path, strerror(why));
    } else if (files_out_close(o, err, sizeof err)) {
        st.out.failed = 1;
        pl_fail("cannot write %s", err);
    }
}

/* Appends to the notes for `edan trace`. */
void pl_note(char *notes, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(notes);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes + len, cap - len, fmt, ap);
    va_end(ap);
}

/* The end of the run: the named regions for the report, and what the
   notes say of them. */
static void pl_region_finish(char *notes)
{
    uint32_t id;
    pl_chunk_flush();
    for (id = 1; id <= st.reg.n; id++) {
        pl_region *R = &st.reg.r[id];
        cli_region *o = &st.reg.out[st.args.a.run.nregions];
        if (id == st.reg.open)
            pl_note(notes, sizeof st.out.notes, "warning: region \"%s\" was still open when the analysis ended "
                    "(%llu EDAN_TRACE_BEGIN(\"%s\") without their END)\n", R->name,
                    (unsigned long long)st.reg.depth, R->name);
        if (!R->ctx) continue;
        o->name = R->name;
        o->ctx = R->ctx;
        o->entries = R->entries;
        o->machine_insns = R->insns;
        o->flops = R->flops;
        o->open_at_end = id == st.reg.open;
        st.args.a.run.nregions++;
    }
    st.args.a.run.regions = st.reg.out;
    if (!st.out.ctx && !st.run.child)
        pl_note(notes, sizeof st.out.notes, "note: the program has named regions (EDAN_TRACE_BEGIN(\"name\")): a "
                "trace file holds what all the markers scope, and only the analysis (--analyze) reports each "
                "region\n");
}

/* After the report: the regions' analyses go. */
static void pl_region_free(void)
{
    uint32_t id;
    for (id = 1; id <= st.reg.n; id++) {
        if (st.reg.r[id].ctx) edan_destroy(st.reg.r[id].ctx);
        st.reg.r[id].ctx = NULL;
    }
    st.args.a.run.nregions = 0;
    free(st.reg.log);
    st.reg.log = NULL;
}

/* --func alone: the instructions its functions' calls out of the scope
   ran (t->called_out), and the functions that ran the most of them (PLT
   stubs not named), named from their objects' symbols. */
static void pl_called_out(cli_tracer *t)
{
    struct { uint64_t fn, insns; } top[3], *v = NULL;
    size_t nv = 0, cap = 0, k, j;
    pl_code_node *n;
    t->func_scope = st.scope.func && !st.scope.dyn;
    for (n = st.run.ublocks; n && t->func_scope; n = n->next_alloc) {
        const pl_ublock *u = (const pl_ublock *)(void *)n;
        flow_place p;
        if (!u->out_insns) continue;
        t->called_out += u->out_insns;
        pl_place(NULL, n->pc, &p);
        if (!p.fn || p.plt) continue;
        for (k = 0; k < nv && v[k].fn != p.fn; k++) {}
        if (k == nv) {
            void *nw = cli_grow(v, &cap, nv, sizeof *v, 64);
            if (!nw) break;
            v = nw;
            v[nv].fn = p.fn;
            v[nv++].insns = 0;
        }
        v[k].insns += u->out_insns;
    }
    memset(top, 0, sizeof top);
    for (k = 0; k < nv; k++)        /* the three largest, the largest first */
        for (j = 0; j < 3; j++)
            if (v[k].insns > top[j].insns) {
                memmove(&top[j + 1], &top[j], (2 - j) * sizeof top[0]);
                top[j].fn = v[k].fn;
                top[j].insns = v[k].insns;
                break;
            }
    free(v);
    for (j = 0; j < 3 && top[j].insns; j++) {
        struct cli_callee *c = &t->callees[t->ncallees++];
        long i = pl_object_find(top[j].fn);
        cli_syms sy;
        const char *why, *name = NULL, *file;
        int line;
        c->insns = top[j].insns;
        if (i < 0 || !st.syms.objs[i].path) continue;
        snprintf(c->object, sizeof c->object, "%s", pl_base(st.syms.objs[i].path));
        c->shared = !st.syms.objs[i].is_program;
        if (cli_syms_open(&sy, st.syms.objs[i].path, st.syms.objs[i].bias, &why)) continue;
        cli_syms_at(&sy, top[j].fn, &name, &file, &line);
        if (name) snprintf(c->function, sizeof c->function, "%s", name);
        cli_syms_close(&sy);
    }
}

/* The end of the analysis: at exit, or when the program replaces itself
   with another (exec). Writes the report, the notes and the traces. */
void pl_finish(void)
{
    char *notes = st.out.notes;
    pl_block *b;
    pl_code_node *nb;
    if (st.run.pending) { pl_flush(st.run.pending); st.run.pending = NULL; }
    pl_chunk_flush();
    if (pl_samp.active) {
        if (pl_samp.on) pl_samp_close();
        pl_samp.out.insns = st.run.fed + __atomic_load_n(&pl_samp.off_count, __ATOMIC_RELAXED);
        st.args.a.run.sampled = &pl_samp.out;
    }
    if (st.syms.npending && !st.run.partial) pl_pending_names();    /* the error edan trace reports */
    st.args.a.run.objects = st.syms.objs;     /* --top names a shared object's functions */
    st.args.a.run.nobjects = st.syms.nobjs;
    cli_progress_end(&st.out.progress);
    if (st.out.cwd_fd >= 0 && fchdir(st.out.cwd_fd) != 0) { /* relative output paths may then fail: reported */ }
    if (st.run.skipped)
        pl_note(notes, sizeof st.out.notes, "warning: %llu executions of instructions that cannot be decoded were left "
                "out (--skip-unknown); the first: %s\n", (unsigned long long)st.run.skipped, st.run.skipped_what);
    x86_run_notes(&st.x86, notes, sizeof st.out.notes);
    st.args.a.run.flops_counted = st.is_x86;
    st.args.a.run.flops = st.x86.flops;
    if (st.run.forks)
        pl_note(notes, sizeof st.out.notes, "warning: the program forked %u time%s; only the parent process was analysed\n",
                st.run.forks, st.run.forks == 1 ? "" : "s");
    if (st.run.execed)
        pl_note(notes, sizeof st.out.notes, "note: the program replaced itself with another (exec) after %llu "
                "instructions; the analysis ends there, the new program was not traced\n",
                (unsigned long long)st.run.fed);
    if (st.thr.next_tid)
        pl_note(notes, sizeof st.out.notes, "note: %u threads analysed as one eDAG (thread 0 the main one); the analysis "
                "passed between them %llu times\n", st.thr.next_tid + 1, (unsigned long long)st.thr.handoffs);
    if (st.thr.late_threads)
        pl_note(notes, sizeof st.out.notes, "warning: %llu threads were made while another thread forked: each started "
                "from its creator's registers as they were at its first block, not at its creation\n",
                (unsigned long long)st.thr.late_threads);
    if (st.thr.unanalysed_blocks)
        pl_note(notes, sizeof st.out.notes, "warning: %llu blocks that threads ran while the program forked were not "
                "analysed\n", (unsigned long long)st.thr.unanalysed_blocks);
    if (pl_stalled)
        pl_note(notes, sizeof st.out.notes, "warning: %llu blocks were not analysed: the thread holding the analysis stood "
                "still for 2 s (stopped inside QEMU), so the waiting threads ran on without it\n",
                (unsigned long long)pl_stalled);
    if (st.run.rewritten)
        pl_note(notes, sizeof st.out.notes, "note: the program wrote over %llu blocks of code it had run (a JIT, or code "
                "loaded where other code was): each version was analysed as it ran, and its translation freed once "
                "written over\n", (unsigned long long)st.run.rewritten);
    if (st.run.partial)
        pl_note(notes, sizeof st.out.notes, "note: the run ended early: %s; the report and the traces cover what was "
                "analysed until then\n", st.run.partial_why);
    {   /* the report's account of what the tracer met */
        cli_tracer *t = &st.sig.report;
        t->aslr = st.args.aslr;
        t->signals = st.sig.delivered;
        t->signals_cut = st.sig.cut;
        t->sigreturns_unseen = st.sig.unseen;
        t->signals_left = st.sig.left;
        t->scoped = st.syms.found;
        t->nscoped = (size_t)st.syms.nfound;
        pl_called_out(t);
        st.args.a.run.tracer = t;
        if (t->unplaced_in_scope)
            pl_note(notes, sizeof st.out.notes, "warning: %llu time%s control went somewhere no frame explains while a "
                    "--region or --exclude scope ran (first from 0x%llx to 0x%llx): where the scope ends may be wrong "
                    "there (the report says so; exit status 1)\n", (unsigned long long)t->unplaced_in_scope,
                    t->unplaced_in_scope == 1 ? "" : "s", (unsigned long long)t->unplaced_from,
                    (unsigned long long)t->unplaced_to);
        if (t->sigreturns_unseen)
            pl_note(notes, sizeof st.out.notes, "warning: %llu signal handler%s returned whose start the tracer did not "
                    "see: the registers lost their writers there (the report says so; exit status 1)\n",
                    (unsigned long long)t->sigreturns_unseen, t->sigreturns_unseen == 1 ? "" : "s");
        if (st.sig.strays)
            pl_note(notes, sizeof st.out.notes, "note: %llu memory accesses that QEMU reported outside the program's "
                    "instructions (the signal frames it writes) were taken as the kernel's: the bytes written lost "
                    "their writers\n", (unsigned long long)st.sig.strays);
        if (t->unplaced_in_scope || t->sigreturns_unseen) pl_write_file("unfollowed", "1\n");
    }
    if (st.reg.n) pl_region_finish(notes);
    if (notes[0]) pl_write_file("notes", notes);
    if (st.run.partial) {
        char what[400];
        snprintf(what, sizeof what, "%d\n%s\n", st.run.partial, st.run.partial_why);
        pl_write_file("partial", what);
    }
    if (st.out.text_f) { pl_finish_file(&st.out.text_o, 0); st.out.text_f = NULL; }     /* its close says a failed write */
    if (st.out.bin_f) {
        int why = bintrace_writer_close(&st.out.bw) == BINTRACE_OK ? 0 : st.out.bw.err ? st.out.bw.err : EIO;
        pl_finish_file(&st.out.bin_o, why);
        st.out.bin_f = NULL;
    }
    /* x86-64: the instructions' bytes, for the report to name them */
    if (st.is_x86 && st.out.ctx && (st.args.a.cmd.top || st.args.a.cmd.dot_path)) {
        for (b = (pl_block *)(void *)st.run.blocks; b; b = (pl_block *)(void *)b->node.next_alloc) {
            uint32_t i;
            for (i = 0; i < b->n; i++)
                if (cli_code_add(&st.out.code, b->s[i].in.pc, b->s[i].raw, b->s[i].in.length)) break;
        }
        st.args.a.run.code = &st.out.code;
    }
    st.args.a.run.machine_insns = st.run.fed;
    if (st.run.partial) st.args.a.run.partial = st.run.partial_why;
    if (st.args.job.size) st.args.a.run.job = &st.args.job;
    /* the blocks before the context that owns their compiled forms; at an
       exec QEMU may still run them (an exec that fails): kept */
    st.run.pending = NULL;
    for (; st.run.blocks && !st.run.execed; st.run.blocks = nb) {
        nb = st.run.blocks->next_alloc;
        pl_block_free((pl_block *)(void *)st.run.blocks);
    }
    for (; st.run.ublocks && !st.run.execed; st.run.ublocks = nb) {
        nb = st.run.ublocks->next_alloc;
        free(st.run.ublocks);
    }
    if (!st.run.execed) {
        pl_stash_free();        /* empty: pl_chunk_flush above */
        pl_code_sweep();
        free(st.run.index);
        st.run.index = NULL;
        st.run.index_size = 0;
    }
    if (st.out.ctx) {
        char path[4096], err[512];
        files_out o;
        snprintf(path, sizeof path, "%s/report", st.args.dir);
        if (files_out_open(&o, path, err, sizeof err) == 0) {
            if (cli_report(st.out.ctx, &st.args.a, st.args.source, o.f) == 0) (void)files_out_close(&o, err, sizeof err);
            else files_out_discard(&o);
        }
        edan_destroy(st.out.ctx);
        st.out.ctx = NULL;
    }
    pl_region_free();
    cli_code_free(&st.out.code);
    {
        size_t i;
        for (i = 0; i < st.syms.nobjs && st.syms.fnmaps; i++) cli_fnmap_close(st.syms.fnmaps[i]);
        free(st.syms.fnmaps);
        st.syms.fnmaps = NULL;
    }
    {
        char msg[64];
        snprintf(msg, sizeof msg, "%llu\n", (unsigned long long)st.run.fed);
        pl_write_file("count", msg);
    }
    free(st.args.argv);
    free(st.args.buf);
    if (st.out.cwd_fd >= 0) close(st.out.cwd_fd);
}
