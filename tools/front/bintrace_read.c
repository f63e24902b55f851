/* tools/front/bintrace_read.c - the binary trace reader, push style (the
   caller reads the file in chunks), as `edan analyze` reads `edan trace
   --binary`: the records decoded, checked and handed to a callback or fed
   to an analysis (bintrace_feed.c). The format and these functions:
   bintrace.h. */
#include "bintrace.h"

/* The address of m's access whose zigzag difference to the prediction is
   z; the predictor moves on. */
static uint64_t bintrace__address(bintrace_rmem *m, uint64_t z)
{
    uint64_t a = m->last + m->stride + bintrace_unzigzag(z);
    m->stride = a - m->last;
    m->last = a;
    return a;
}

int bintrace_detect(const unsigned char *head, size_t n)
{
    return n >= 6 && memcmp(head, "EDANBT", 6) == 0;
}

int bintrace_reader_init(bintrace_reader *r)
{
    memset(r, 0, sizeof *r);
    return BINTRACE_OK;
}

void bintrace_reader_free(bintrace_reader *r)
{
    uint32_t i;
    for (i = 0; i < r->nblocks; i++) {
        free(r->blocks[i].s);
        bintrace_prep_free(&r->blocks[i].prep);
        free(r->blocks[i].mem_before);
        free(r->blocks[i].mem);
        free(r->blocks[i].u);
        free(r->blocks[i].ufirst);
    }
    free(r->blocks);
    free(r->vacc);
    free(r->scratch);
    memset(r, 0, sizeof *r);
}

/* Cursor over one record; `short` = the record continues past the buffer. */
typedef struct bintrace__cur { const unsigned char *p, *end; int is_short, bad; } bintrace__cur;

static uint64_t bintrace__v(bintrace__cur *c)
{
    uint64_t v = 0;
    size_t k;
    if (c->is_short || c->bad) return 0;
    k = bintrace_get_varint(c->p, (size_t)(c->end - c->p), &v);
    if (!k) {
        if (c->end - c->p < 10) c->is_short = 1;
        else c->bad = 1;
        return 0;
    }
    c->p += k;
    return v;
}

static uint8_t bintrace__b(bintrace__cur *c)
{
    if (c->is_short || c->bad) return 0;
    if (c->p >= c->end) { c->is_short = 1; return 0; }
    return *c->p++;
}

static int bintrace__err(bintrace_reader *r, unsigned long long at, const char *what)
{
    r->offset = at;
    snprintf(r->error, sizeof r->error, "%s", what);
    return BINTRACE_ERR;
}

static int bintrace__rejected(bintrace_reader *r, unsigned long long at, const bintrace_sinsn *s,
                              const char *why)
{
    char msg[160];
    snprintf(msg, sizeof msg, "instruction at pc 0x%llx rejected: %.100s", (unsigned long long)s->in.pc,
             why && *why ? why : "error");
    return bintrace__err(r, at, msg);
}

/* The fields of a RISC-V instruction with raw bytes are what its bytes
   decode to (the plugin decodes them so); one that does not decode is
   recorded as op 0 without operands. *flags: the decoding's flags (a
   stack-slot access). */
static int bintrace__matches_bytes(const bintrace_sinsn *s, uint8_t *flags)
{
    const edan_insn *in = &s->in;
    edan_insn d;
    *flags = 0;
    if (edan_rv_decode(s->raw, in->length, &d) != EDAN_OK)
        return in->op == 0 && in->cls == EDAN_CLASS_OTHER && in->mem == EDAN_MEM_NONE && !in->nsrc && !in->ndst;
    *flags = (uint8_t)(d.flags & EDAN_INSN_STACK);
    return d.op == in->op && d.cls == in->cls && d.mem == in->mem && d.size == in->size && d.nsrc == in->nsrc &&
           d.ndst == in->ndst && !memcmp(d.src, in->src, in->nsrc * sizeof *in->src) &&
           !memcmp(d.dst, in->dst, in->ndst * sizeof *in->dst);
}

/* Parses a DEFINE body into a new block. 1 = done, 0 = short, -1 = error. */
static int bintrace__define(bintrace_reader *r, bintrace__cur *c, const char **why)
{
    uint64_t n = bintrace__v(c), v, expect = 0;
    uint32_t i, k, mem = 0, nu = 0;
    bintrace_sinsn *s;
    uint32_t *mb, *uf = NULL;
    bintrace_rmem *mi;
    bintrace_uop *u = NULL;
    int x86 = r->isa == EDAN_ISA_X86_64;
    if (c->is_short) return 0;
    if (c->bad) { *why = "malformed varint"; return -1; }
    if (n < 1 || n > BINTRACE_MAX_BLOCK) { *why = "bad block size"; return -1; }
    s = (bintrace_sinsn *)calloc((size_t)n, sizeof *s);
    mb = (uint32_t *)malloc(((size_t)n + 1) * sizeof *mb);
    mi = (bintrace_rmem *)calloc((size_t)n, sizeof *mi);
    if (x86) {
        u = (bintrace_uop *)malloc((size_t)n * BINTRACE_MAX_UOPS * sizeof *u);
        uf = (uint32_t *)malloc(((size_t)n + 1) * sizeof *uf);
    }
#define BINTRACE__DEFINE_FREE() do { free(s); free(mb); free(mi); free(u); free(uf); } while (0)
    if (!s || !mb || !mi || (x86 && (!u || !uf))) { BINTRACE__DEFINE_FREE(); *why = "out of memory"; return -1; }
    *why = NULL;
    for (i = 0; i < n && !c->is_short && !c->bad && !*why; i++) {
        edan_insn *in = &s[i].in;
        uint8_t len, b;
        in->pc = expect + bintrace_unzigzag(bintrace__v(c));
        in->flags = EDAN_INSN_HAS_PC;
        len = bintrace__b(c);
        if (x86) {
            bintrace_decoded d;
            if (!c->is_short && (len < 1 || len > 15)) { *why = "bad instruction length"; break; }
            expect = in->pc + len;
            for (k = 0; k < len; k++) s[i].raw[k] = bintrace__b(c);
            if (c->is_short || c->bad) break;
            memset(&d, 0, sizeof d);
            if (r->decode(s[i].raw, len, in->pc, &d) != 0 || d.nuop < 1 || d.nuop > BINTRACE_MAX_UOPS) {
                /* an error when executed: one vertex without operands until then */
                memset(&d, 0, sizeof d);
                d.in.cls = EDAN_CLASS_OTHER;
                d.nuop = 1;
                d.uop[0].in.cls = EDAN_CLASS_OTHER;
                s[i].unknown = 1;
            }
            *in = d.in;
            s[i].flops = d.flops;
            s[i].rep = (uint8_t)(d.rep != 0);
            in->pc = expect - len;
            in->flags |= EDAN_INSN_HAS_PC;
            in->length = len;
            in->addr = 0;
            mb[i] = mem;
            uf[i] = nu;
            for (k = 0; k < d.nuop; k++) {
                u[nu + k] = d.uop[k];
                u[nu + k].in.pc = in->pc;
                u[nu + k].in.flags |= EDAN_INSN_HAS_PC;
                if (in->mem != EDAN_MEM_NONE && d.uop[k].in.mem == in->mem) mi[mem].idx = nu + k;
            }
            {   /* memory uops without an EXEC address: the instruction's accesses are VERTEX records */
                uint32_t nm = 0;
                for (k = 0; k < d.nuop; k++) nm += d.uop[k].in.mem != EDAN_MEM_NONE;
                s[i].vertex_only = (uint8_t)(d.rep || nm != (in->mem != EDAN_MEM_NONE));
            }
            nu += d.nuop;
            if (in->mem != EDAN_MEM_NONE) mem++;
            continue;
        }
        if (len > 4) { *why = "bad instruction length"; break; }
        in->length = len;
        expect = in->pc + len;
        for (k = 0; k < len; k++) s[i].raw[k] = bintrace__b(c);
        v = bintrace__v(c);
        if (v > UINT32_MAX) { *why = "bad op id"; break; }
        in->op = (uint32_t)v;
        b = bintrace__b(c);
        if (b >= EDAN_CLASS_COUNT) { *why = "bad instruction class"; break; }
        in->cls = b;
        b = bintrace__b(c);
        if (b > EDAN_MEM_AMO) { *why = "bad memory kind"; break; }
        in->mem = b;
        v = bintrace__v(c);
        if (!c->is_short && (v > EDAN_MAX_ACCESS || (in->mem != EDAN_MEM_NONE && v == 0))) {
            *why = "bad access size";
            break;
        }
        in->size = (uint16_t)v;
        in->nsrc = bintrace__b(c);
        in->ndst = bintrace__b(c);
        if (in->nsrc > EDAN_MAX_SRC || in->ndst > EDAN_MAX_DST) { *why = "bad register count"; break; }
        for (k = 0; k < (uint32_t)in->nsrc + in->ndst; k++) {
            v = bintrace__v(c);
            if (v > 0xffff) { *why = "bad register id"; break; }
            if (k < in->nsrc) in->src[k] = (edan_reg)v;
            else in->dst[k - in->nsrc] = (edan_reg)v;
        }
        if (!c->is_short && !c->bad && !*why && len) {
            uint8_t fl;
            if (!bintrace__matches_bytes(&s[i], &fl)) *why = "an instruction's fields do not match its bytes";
            in->flags |= fl;    /* a stack slot is known from the bytes (its base register); none without */
        }
        mb[i] = mem;
        if (in->mem != EDAN_MEM_NONE) mi[mem++].idx = i;
    }
    mb[n] = mem;
    if (x86) uf[n] = nu;
    if (c->bad && !*why) *why = "malformed varint";
    if (*why || c->is_short) { BINTRACE__DEFINE_FREE(); return *why ? -1 : 0; }
    if (r->nblocks == r->cap_blocks) {
        uint32_t nc = r->cap_blocks ? 2 * r->cap_blocks : 256;
        bintrace_block *nb = (bintrace_block *)realloc(r->blocks, nc * sizeof *nb);
        if (!nb) { BINTRACE__DEFINE_FREE(); *why = "out of memory"; return -1; }
        r->blocks = nb;
        r->cap_blocks = nc;
    }
#undef BINTRACE__DEFINE_FREE
    if (x86) {
        bintrace_uop *shrunk = (bintrace_uop *)realloc(u, (size_t)nu * sizeof *u);
        if (shrunk) u = shrunk;
    }
    memset(&r->blocks[r->nblocks], 0, sizeof r->blocks[r->nblocks]);
    r->blocks[r->nblocks].s = s;
    r->blocks[r->nblocks].n = (uint32_t)n;
    r->blocks[r->nblocks].mem_before = mb;
    r->blocks[r->nblocks].mem = mi;
    r->blocks[r->nblocks].u = u;
    r->blocks[r->nblocks].nu = nu;
    r->blocks[r->nblocks].ufirst = uf;
    for (i = 0; i < n; i++) {
        r->blocks[r->nblocks].has_unknown |= s[i].unknown | s[i].vertex_only;
        r->blocks[r->nblocks].flops += s[i].flops;
    }
    r->nblocks++;
    return 1;
}

/* The common record, when feeding an analysis: an EXEC of a whole block
   that has its compiled form (bintrace_prep.blk), complete in buf, with a
   tag of one or two bytes; and the EXECs of the same block right after it
   (a loop's), at most BINTRACE__RUN, which the analysis then takes at once
   (edan_feed_block_n). Their addresses, then the executions; 1 when done
   (*pos moved on), BINTRACE_ERR when the analysis refused one (reported at
   its record and instruction, the executions before it counted, as the
   general decoder does), 0 for anything else. A malformed address
   varint is read as the general decoder reads it: 0 from there on, *pos
   left at it, where the next record then fails (the run ends with it). */
#define BINTRACE__RUN 32
static int bintrace__exec_whole(bintrace_reader *r, const unsigned char *buf, size_t n, size_t *pos)
{
    const unsigned char *p = buf + *pos, *end = buf + n, *tag = p;
    const size_t room = sizeof r->addrs / sizeof r->addrs[0];
    bintrace_block *b;
    uint64_t t, *addrs;
    uint32_t m, nmem, stride, count = 0, taglen, at[BINTRACE__RUN];
    size_t fed = 0;
    int bad = 0;
    if (p[0] < 0x80) {
        t = p[0];
        taglen = 1;
    } else if (end - p >= 2 && p[1] < 0x80) {
        t = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
        taglen = 2;
    } else {
        return 0;
    }
    p += taglen;
    if ((t & 3) != 0 || (t >> 2) >= r->nblocks) return 0;
    b = &r->blocks[t >> 2];
    nmem = b->mem_before[b->n];
    stride = r->isa == EDAN_ISA_X86_64 ? b->nu : b->n;      /* the compiled form's instructions */
    if (!b->prep.blk || b->prep.owner != r->ctx || (size_t)(end - p) < 10 * (size_t)nmem || r->vopen ||
        b->has_unknown)
        return 0;
    for (;;) {
        at[count] = (uint32_t)(p - taglen - tag);     /* this record's tag, from the first's */
        addrs = r->addrs + (size_t)count * stride;
        for (m = 0; m < nmem; m++) {
            uint64_t z = 0;
            if (!bad && *p < 0x80) {
                z = *p++;
            } else if (!bad) {
                size_t k = bintrace_get_varint(p, (size_t)(end - p), &z);
                bad = !k;
                p += k;
            }
            addrs[b->mem[m].idx] = bintrace__address(&b->mem[m], z);
        }
        count++;
        /* the next record: the same tag, its addresses complete in buf */
        if (bad || count == BINTRACE__RUN || (size_t)(count + 1) * stride > room || r->chunk.nu ||
            (size_t)(end - p) < taglen + 10 * (size_t)nmem || memcmp(p, tag, taglen))
            break;
        p += taglen;
    }
    if (edan_feed_block_n(r->ctx, b->prep.blk, r->addrs, count, &fed) != EDAN_OK) {
        const uint32_t done = (uint32_t)(fed / stride), k = (uint32_t)(fed % stride);
        const uint32_t i = b->u ? bintrace_insn_of(b->ufirst, 0, b->n, k) : k;
        r->count += (unsigned long long)b->n * done;
        r->flops += (uint64_t)b->flops * done;
        return bintrace__rejected(r, r->consumed + *pos + at[done < count ? done : count - 1], &b->s[i],
                                  edan_error(r->ctx));
    }
    r->count += (unsigned long long)b->n * count;
    r->flops += (uint64_t)b->flops * count;
    *pos = (size_t)(p - buf);
    return 1;
}

/* After a record was applied or handed on: 1, or the error "WHAT record
   rejected: WHY" when something refused it (why not NULL). */
static int bintrace__applied(bintrace_reader *r, unsigned long long at, const char *what, const char *why)
{
    char msg[160];
    if (!why) return 1;
    snprintf(msg, sizeof msg, "%s record rejected: %.100s", what, why);
    return bintrace__err(r, at, msg);
}

/* Parses a KILL body and applies it (r->ctx) or hands it to r->kill. 1 =
   done, 0 = short, -1 = error (reported). */
static int bintrace__kill(bintrace_reader *r, bintrace__cur *c, unsigned long long at)
{
    uint64_t nregs = bintrace__v(c), nranges, v, end = 0;
    uint32_t i;
    const char *why = NULL;
    if (!c->is_short && !c->bad && nregs > BINTRACE_MAX_KILL_REGS) return bintrace__err(r, at, "bad kill register count");
    for (i = 0; i < nregs && !c->is_short && !c->bad; i++) {
        v = bintrace__v(c);
        if (v > 0xffff) return bintrace__err(r, at, "bad register id in a kill record");
        r->kill_regs[i] = (edan_reg)v;
    }
    nranges = bintrace__v(c);
    if (!c->is_short && !c->bad && nranges > BINTRACE_MAX_KILL_RANGES) return bintrace__err(r, at, "bad kill range count");
    for (i = 0; i < nranges && !c->is_short && !c->bad; i++) {
        uint64_t lo = end + bintrace_unzigzag(bintrace__v(c)), size = bintrace__v(c);
        if (!c->is_short && !c->bad && (size == 0 || lo + size - 1 < lo))
            return bintrace__err(r, at, "bad byte range in a kill record");
        r->kill_ranges[i][0] = lo;
        r->kill_ranges[i][1] = size;
        end = lo + size;
    }
    if (c->is_short) return 0;
    if (c->bad) return bintrace__err(r, at, "malformed varint");
    if (r->ctx) {
        edan_result e = edan_kill_regs(r->ctx, r->kill_regs, (size_t)nregs);
        for (i = 0; e == EDAN_OK && i < nranges; i++) e = edan_kill_mem(r->ctx, r->kill_ranges[i][0], r->kill_ranges[i][1]);
        if (e != EDAN_OK) why = edan_error(r->ctx);
    } else if (r->kill && r->kill(r->kill_user, r->kill_regs, (uint32_t)nregs, (const uint64_t (*)[2])r->kill_ranges,
                                  (uint32_t)nranges, &why) != 0) {
        if (!why) why = "error";
    }
    return bintrace__applied(r, at, "kill", why);
}

/* Parses a THREAD body and applies it (r->ctx) or hands it to r->thread.
   1 = done, 0 = short, -1 = error (reported). */
static int bintrace__thread(bintrace_reader *r, bintrace__cur *c, unsigned long long at, void *user)
{
    uint64_t verb = bintrace__v(c), a = verb < BINTRACE_SIGNAL ? bintrace__v(c) : 0, b = verb == 0 ? bintrace__v(c) : 0;
    const char *why = NULL;
    if (c->is_short) return 0;
    if (c->bad) return bintrace__err(r, at, "malformed varint");
    if (verb > BINTRACE_SIGDROP || a > 0xffffffffu || b > 0xffffffffu) return bintrace__err(r, at, "bad thread record");
    if (r->ctx) {
        edan_result e = bintrace_thread_apply(r->ctx, (unsigned)verb, (uint32_t)a, (uint32_t)b);
        if (e != EDAN_OK) why = edan_error(r->ctx);
    } else if (r->thread && r->thread(user, (unsigned)verb, (uint32_t)a, (uint32_t)b, &why) != 0) {
        if (!why) why = "error";
    }
    return bintrace__applied(r, at, "thread", why);
}

/* The reader's bintrace_insn_fn behind a bintrace_vertex_fn: the
   accesses in r->vertex during the call. */
typedef struct bintrace__fnv { bintrace_reader *r; bintrace_insn_fn fn; void *user; } bintrace__fnv;
static int bintrace__fn_vertex(void *user, const edan_insn *in, const edan_access *acc, size_t n, const char **why)
{
    bintrace__fnv *f = (bintrace__fnv *)user;
    int rc;
    if (!f->fn) return 0;
    f->r->vertex = acc;
    f->r->vertex_n = acc ? n : 0;
    rc = f->fn(f->user, in, why);
    f->r->vertex = NULL;
    f->r->vertex_n = 0;
    return rc;
}

/* Parses a VERTEX body (x86-64); the last of an execution's records feeds
   it (r->ctx: bintrace_feed_execution; else fn, vertex by vertex:
   bintrace__emit_execution). 1 = done, 0 = short, -1 = error (reported). */
static int bintrace__vertex(bintrace_reader *r, bintrace__cur *c, unsigned long long at, bintrace_insn_fn fn,
                            void *user)
{
    uint64_t id = bintrace__v(c), idx = bintrace__v(c), km = bintrace__v(c), k = km >> 1, i, last = r->vlast;
    size_t n0 = r->vn;
    bintrace_sinsn *s;
    if (c->is_short) return 0;
    if (c->bad) return bintrace__err(r, at, "malformed varint");
    if (id >= r->nblocks || idx >= r->blocks[id].n) return bintrace__err(r, at, "VERTEX of an undefined instruction");
    if (k > BINTRACE_MAX_VERTEX) return bintrace__err(r, at, "bad access count in a VERTEX record");
    if (r->vopen && (r->vblock != id || r->vidx != idx))
        return bintrace__err(r, at, "a VERTEX record continues another instruction");
    if (r->vn + k > BINTRACE_MAX_VERTEX_ACCESSES)
        return bintrace__err(r, at, "an instruction of more than 1048576 accesses (BINTRACE_MAX_VERTEX_ACCESSES)");
    s = &r->blocks[id].s[idx];
    if (s->unknown) return bintrace__rejected(r, at, s, "it does not decode");
    if (r->vn + k > r->vcap) {
        size_t nc = (r->vn + k) * 2;
        edan_access *na = (edan_access *)realloc(r->vacc, nc * sizeof *na);
        if (!na) return bintrace__err(r, at, "out of memory");
        r->vacc = na;
        r->vcap = nc;
    }
    for (i = 0; i < k; i++) {
        edan_access *a = &r->vacc[r->vn + i];
        uint64_t size;
        a->kind = bintrace__b(c);
        size = bintrace__v(c);
        last += bintrace_unzigzag(bintrace__v(c));
        a->addr = last;
        if (c->is_short) return 0;
        if (c->bad) return bintrace__err(r, at, "malformed varint");
        if ((a->kind != EDAN_MEM_LOAD && a->kind != EDAN_MEM_STORE) || size < 1 || size > EDAN_MAX_ACCESS)
            return bintrace__err(r, at, "bad access in a VERTEX record");
        a->size = (uint32_t)size;
    }
    /* the record is whole: it counts */
    r->vlast = last;
    r->vn = n0 + (size_t)k;
    r->vopen = (int)(km & 1);
    r->vblock = (uint32_t)id;
    r->vidx = (uint32_t)idx;
    if (r->vopen) return 1;
    if (r->vn > r->scap) {
        size_t nc = r->vn * 2;
        edan_access *na = (edan_access *)realloc(r->scratch, nc * sizeof *na);
        if (!na) return bintrace__err(r, at, "out of memory");
        r->scratch = na;
        r->scap = nc;
    }
    {
        const bintrace_block *b = &r->blocks[id];
        uint32_t first = b->ufirst[idx], nu = b->ufirst[idx + 1] - first, bad;
        int agrees = 1;
        if (r->ctx) {
            if (bintrace_feed_execution(r->ctx, &r->blocks[id].prep, b->u, b->nu, first, nu, r->vacc, r->vn, s->rep,
                                        &r->chunk, r->scratch, &agrees, &bad) != EDAN_OK)
                return bintrace__rejected(r, at, s, edan_error(r->ctx));
        } else {
            const char *why = NULL;
            bintrace__fnv f;
            f.r = r;
            f.fn = fn;
            f.user = user;
            if (bintrace_emit_execution(b->u + first, nu, r->vacc, r->vn, s->rep, &r->chunk, r->scratch, &agrees,
                                        bintrace__fn_vertex, &f, &why) != 0)
                return bintrace__rejected(r, at, s, why);
        }
        if (!agrees) {
            if (r->vn) r->mismatches++;
            else r->missing++;
        }
    }
    r->vn = 0;
    r->count++;
    r->flops += s->flops;
    return 1;
}

/* The file header, once buf has it whole: version, ISA, header size,
   recorded load. BINTRACE_OK with r->have_header set and *pos after the
   header, or unset when more input is needed; BINTRACE_ERR. */
static int bintrace__header(bintrace_reader *r, const unsigned char *buf, size_t n, size_t *pos)
{
    unsigned version, isa, hdr_size;
    if (n < BINTRACE_HEADER_SIZE) return BINTRACE_OK;
    if (!bintrace_detect(buf, n)) return bintrace__err(r, 0, "not an EDAN binary trace (bad magic)");
    version = buf[6] | (unsigned)buf[7] << 8;
    isa = buf[8] | (unsigned)buf[9] << 8;
    hdr_size = buf[10] | (unsigned)buf[11] << 8;
    r->crc = crc32(0L, Z_NULL, 0);
    r->span = 0;
    if (buf[12] | buf[13] | buf[14] | buf[15]) return bintrace__err(r, 12, "unknown flags in the binary trace header");
    if (version < 1 || version > BINTRACE_VERSION) {
        char msg[100];
        snprintf(msg, sizeof msg, "binary trace version %u; this edan reads versions 1 to %d", version,
                 BINTRACE_VERSION);
        return bintrace__err(r, 6, msg);
    }
    r->version = version;
    if (version < 2)
        snprintf(r->warning, sizeof r->warning,
                 "version %u binary trace: it has no checksums, a damaged file cannot be told from a good one",
                 version);
    else if (version < 3)
        snprintf(r->warning, sizeof r->warning,
                 "version %u binary trace: its checksums cover each stretch alone, so stretches moved or "
                 "repeated cannot be told from a good file", version);
    if (isa == EDAN_ISA_X86_64 && !r->decode)
        return bintrace__err(r, 8, "an x86-64 binary trace: this reader has no x86-64 decoder");
    if (isa != EDAN_ISA_RISCV64 && isa != EDAN_ISA_X86_64)
        return bintrace__err(r, 8, "unknown ISA in the binary trace header");
    r->isa = isa;
    if (hdr_size < BINTRACE_HEADER_SIZE || hdr_size > 4096) return bintrace__err(r, 10, "bad header size");
    if (n < hdr_size) return BINTRACE_OK;
    if (hdr_size >= BINTRACE_HEADER_LOAD) {
        int k;
        for (k = 7; k >= 0; k--) r->load = r->load << 8 | buf[16 + k];
    }
    *pos = hdr_size;
    r->have_header = 1;
    return BINTRACE_OK;
}

/* An EXEC record's instructions first..first+count of block b, complete in
   c, fed to the analysis: the memory instructions' addresses (a varint of
   one byte, a predicted stride, without the general decoder), then the
   block at once (x86-64: its instructions' vertices). 1, or -1 (reported)
   when the analysis refuses it. */
static int bintrace__exec_feed(bintrace_reader *r, bintrace__cur *c, unsigned long long at, bintrace_block *b,
                               uint64_t first, uint64_t count)
{
    uint32_t m, m1 = b->mem_before[first + count], bad, i;
    uint32_t base = b->u ? b->ufirst[first] : (uint32_t)first;
    for (m = b->mem_before[first]; m < m1; m++) {
        uint64_t z;
        if (c->p < c->end && *c->p < 0x80) z = *c->p++;
        else z = bintrace__v(c);
        r->addrs[b->mem[m].idx - base] = bintrace__address(&b->mem[m], z);
    }
    if (b->u) {
        if (bintrace_feed_block(r->ctx, &b->prep, &b->u[0].in, sizeof *b->u, b->nu, base,
                                b->ufirst[first + count] - base, r->addrs, &bad) != EDAN_OK) {
            i = bintrace_insn_of(b->ufirst, (uint32_t)first, (uint32_t)(first + count), bad);
            return bintrace__rejected(r, at, &b->s[i], edan_error(r->ctx));
        }
    } else if (bintrace_feed_block(r->ctx, &b->prep, &b->s[0].in, sizeof *b->s, b->n, (uint32_t)first,
                                   (uint32_t)count, r->addrs, &bad) != EDAN_OK) {
        return bintrace__rejected(r, at, &b->s[bad], edan_error(r->ctx));
    }
    return 1;
}

/* The same instructions, each (x86-64: each of its vertices) handed to fn
   with its address. 1, or -1 (reported) when fn refuses one. */
static int bintrace__exec_emit(bintrace_reader *r, bintrace__cur *c, unsigned long long at, bintrace_block *b,
                               uint64_t first, uint64_t count, bintrace_insn_fn fn, void *user)
{
    uint32_t m = b->mem_before[first], k, i;
    for (i = (uint32_t)first; i < first + count; i++) {
        bintrace_sinsn *s = &b->s[i];
        const char *why = NULL;
        if (s->in.mem != EDAN_MEM_NONE) s->in.addr = bintrace__address(&b->mem[m++], bintrace__v(c));
        if (!b->u) {
            if (fn(user, &s->in, &why) != 0) return bintrace__rejected(r, at, s, why);
            continue;
        }
        for (k = b->ufirst[i]; k < b->ufirst[i + 1]; k++) {
            edan_insn v = b->u[k].in;
            v.addr = v.mem != EDAN_MEM_NONE ? s->in.addr : 0;
            if (fn(user, &v, &why) != 0) return bintrace__rejected(r, at, s, why);
        }
    }
    return 1;
}

/* An EXEC record (tag t) of a block, whole or a range of its instructions.
   1 = done, 0 = short, -1 = error (reported). */
static int bintrace__exec(bintrace_reader *r, bintrace__cur *c, unsigned long long at, uint64_t t,
                          bintrace_insn_fn fn, void *user)
{
    uint64_t id = t >> 2, first = 0, count;
    bintrace_block *b;
    uint32_t i, nmem;
    int rc;
    if (id >= r->nblocks) return bintrace__err(r, at, "execution of an undefined block");
    b = &r->blocks[id];
    count = b->n;
    if (t & 1) {
        first = bintrace__v(c);
        count = bintrace__v(c);
        if (c->is_short) return 0;
        if (c->bad) return bintrace__err(r, at, "malformed varint");
        if (count == 0 || first >= b->n || count > b->n - first)
            return bintrace__err(r, at, "bad instruction range in block");
    }
    if (b->has_unknown)
        for (i = (uint32_t)first; i < first + count; i++) {
            if (b->s[i].unknown) return bintrace__rejected(r, at, &b->s[i], "it does not decode");
            if (b->s[i].vertex_only)
                return bintrace__rejected(r, at, &b->s[i], "an EXEC record of an instruction whose accesses "
                                          "come in VERTEX records");
        }
    /* complete? (the address predictors must not move on a partial record) */
    nmem = b->mem_before[first + count] - b->mem_before[first];
    if ((size_t)(c->end - c->p) < 10 * (size_t)nmem) {
        bintrace__cur probe = *c;
        for (i = 0; i < nmem && !probe.is_short && !probe.bad; i++) (void)bintrace__v(&probe);
        if (probe.is_short) return 0;
        if (probe.bad) return bintrace__err(r, at, "malformed varint");
    }
    if (r->ctx) rc = bintrace__exec_feed(r, c, at, b, first, count);
    else rc = bintrace__exec_emit(r, c, at, b, first, count, fn, user);
    if (rc < 0) return rc;
    r->count += count;
    if (r->isa == EDAN_ISA_X86_64) {
        if (first == 0 && count == b->n) r->flops += b->flops;
        else for (i = (uint32_t)first; i < first + count; i++) r->flops += b->s[i].flops;
    }
    return 1;
}

/* A CHECK record at buf[pos]: the CRC of the bytes since the last one
   (version 3: of all before it) must match. *crc_pos and *since move past
   it. 1 = done, 0 = short, -1 = error (reported). */
static int bintrace__check(bintrace_reader *r, bintrace__cur *c, const unsigned char *buf, size_t pos,
                           unsigned long long at, size_t *crc_pos, size_t *since)
{
    uLong want, got;
    if (c->end - c->p < 4) return 0;
    want = (uLong)c->p[0] | (uLong)c->p[1] << 8 | (uLong)c->p[2] << 16 | (uLong)c->p[3] << 24;
    got = crc32(r->crc, buf + *crc_pos, (uInt)(pos - *crc_pos));
    if (want != got && !r->skip_checks) {
        char msg[150];
        if (r->version >= 3)
            snprintf(msg, sizeof msg, "checksum mismatch: the file was changed after byte %llu, or its "
                     "stretches were moved, repeated or spliced", r->consumed + *since - r->span);
        else
            snprintf(msg, sizeof msg, "checksum mismatch: bytes %llu to %llu of the file were changed",
                     r->consumed + *crc_pos - r->span, at);
        return bintrace__err(r, at, msg);
    }
    c->p += 4;
    if (r->version >= 3) {      /* chained: the running CRC goes on, over this record too */
        r->crc = got;
        *crc_pos = pos;
    } else {
        r->crc = crc32(0L, Z_NULL, 0);
        *crc_pos = (size_t)(c->p - buf);
    }
    r->span = 0;
    *since = (size_t)(c->p - buf);
    if (r->on_check) r->on_check(r->check_user, at, r->consumed + *since);
    return 1;
}

/* Before the record at [p, end) (at): a gathering chunk goes to the
   analysis or to fn, unless the record is a VERTEX (which may continue
   it), a DEFINE or a CHECK. 1, 0 when the tag is cut short, -1 on an
   error (reported). */
static int bintrace__chunk_out(bintrace_reader *r, const unsigned char *p, const unsigned char *end,
                               unsigned long long at, bintrace_insn_fn fn, void *user)
{
    bintrace__cur c;
    uint64_t t;
    const char *why = NULL;
    c.p = p;
    c.end = end;
    c.is_short = c.bad = 0;
    t = bintrace__v(&c);
    if (c.is_short) return 0;
    if (c.bad || t == ((3u << 2) | 3) || (t & 3) == 2 || t == ((2u << 2) | 3)) return 1;   /* the record says */
    if (r->ctx) {
        if (bintrace_chunk_feed(&r->chunk, r->ctx) != EDAN_OK) why = edan_error(r->ctx);
    } else {
        bintrace__fnv f;
        f.r = r;
        f.fn = fn;
        f.user = user;
        if (bintrace_chunk_flush(&r->chunk, bintrace__fn_vertex, &f, &why) != 0 && !why) why = "error";
    }
    return bintrace__applied(r, at, "rep chunk", why);
}

int bintrace_reader_decode(bintrace_reader *r, const unsigned char *buf, size_t n,
                           size_t *used, bintrace_insn_fn fn, void *user)
{
    size_t pos = 0, crc_pos = 0;    /* buf[crc_pos .. pos): consumed, not yet in r->crc */
    size_t since = 0;               /* buf[since .. pos): consumed since the last CHECK record */
    *used = 0;
    if (r->done) return n ? bintrace__err(r, r->consumed, "data after the end record") : BINTRACE_EOF;
    if (!r->have_header) {
        int hr = bintrace__header(r, buf, n, &pos);
        if (hr != BINTRACE_OK || !r->have_header) return hr;
    }
    while (pos < n) {
        bintrace__cur c;
        uint64_t t, id, count;
        unsigned long long at = r->consumed + pos;
        int rr;
        if (r->chunk.nu && (rr = bintrace__chunk_out(r, buf + pos, buf + n, at, fn, user)) <= 0) {
            if (rr < 0) return BINTRACE_ERR;
            break;
        }
        if (r->ctx) {
            int w = bintrace__exec_whole(r, buf, n, &pos);
            if (w == BINTRACE_ERR) return w;
            if (w) continue;
        }
        c.p = buf + pos;
        c.end = buf + n;
        c.is_short = c.bad = 0;
        t = bintrace__v(&c);
        if (c.is_short) break;
        if (c.bad) return bintrace__err(r, at, "malformed varint");
        id = t >> 2;
        if (r->vopen && t != ((3u << 2) | 3) && t != ((2u << 2) | 3))
            return bintrace__err(r, at, "an instruction's accesses continue in no VERTEX record");
        if ((t & 3) <= 1) {
            rr = bintrace__exec(r, &c, at, t, fn, user);
        } else if ((t & 3) == 2) {
            const char *why = NULL;
            if (id != r->nblocks) return bintrace__err(r, at, "block defined out of order");
            rr = bintrace__define(r, &c, &why);
            if (rr < 0) return bintrace__err(r, at, why);
        } else if (id == 1 && r->version >= 2) {
            rr = bintrace__kill(r, &c, at);
        } else if (id == 4) {
            rr = bintrace__thread(r, &c, at, r->thread_user);
        } else if (id == 3 && r->isa == EDAN_ISA_X86_64) {
            rr = bintrace__vertex(r, &c, at, fn, user);
        } else if (id == 2 && r->version >= 2) {
            rr = bintrace__check(r, &c, buf, pos, at, &crc_pos, &since);
        } else {
            if (id != 0) return bintrace__err(r, at, "unknown record kind");
            count = bintrace__v(&c);
            if (c.is_short) break;
            if (c.bad) return bintrace__err(r, at, "malformed varint");
            if (r->version >= 2 && !r->skip_checks && r->span + (pos - since) > 0)
                return bintrace__err(r, at, "no checksum right before the end record: the trace was cut or changed");
            if (count != r->count) return bintrace__err(r, at, "instruction count in the end record does not match");
            r->done = 1;
            rr = 1;
        }
        if (rr == 0) break;
        if (rr < 0) return BINTRACE_ERR;
        pos = (size_t)(c.p - buf);
        if (r->done) break;
    }
    *used = pos;
    r->crc = crc32(r->crc, buf + crc_pos, (uInt)(pos - crc_pos));
    r->span += pos - since;
    r->consumed += pos;
    r->offset = r->consumed;
    if (r->done) return pos < n ? bintrace__err(r, r->consumed, "data after the end record") : BINTRACE_EOF;
    return BINTRACE_OK;
}

int bintrace_reader_feed(bintrace_reader *r, const unsigned char *buf, size_t n,
                         size_t *used, edan_context *ctx)
{
    int rc;
    r->ctx = ctx;
    rc = bintrace_reader_decode(r, buf, n, used, NULL, NULL);
    r->ctx = NULL;
    return rc;
}
