/* tools/front/bintrace_feed.c - a binary trace's instructions to the
   analysis, the same way from the reader (bintrace_read.c), from the plugin
   as the program runs, and from edan analyze's x86-64 text traces: blocks
   prepared once and fed at once, an x86-64 instruction's accesses matched
   to its vertices (uops), rep movs and stos of small elements in 8-byte
   chunks, thread and signal records (declared in bintrace.h). */
#include "bintrace.h"

int bintrace_match_exact(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n,
                         uint64_t *addrs, size_t *used, int prefix)
{
    size_t j = 0;
    uint32_t k;
    for (k = 0; k < nu; k++) {
        uint64_t at, got = 0;
        addrs[k] = 0;
        if (u[k].in.mem == EDAN_MEM_NONE) continue;
        if (!u[k].exact || j == n || a[j].kind != u[k].in.mem) return 0;
        at = a[j].addr;
        while (got < u[k].bytes && j < n && a[j].kind == u[k].in.mem && a[j].addr == at + got) got += a[j++].size;
        if (got != u[k].bytes) return 0;
        addrs[k] = at;
    }
    if (j != n && !prefix) return 0;
    *used = j;
    return 1;
}

int bintrace_assign(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n,
                    edan_access *out, uint32_t *first, uint32_t *count)
{
    size_t w = 0, cur[3] = {0, 0, 0};
    uint32_t k, last[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX}, stray;
    int agrees = 1;
    for (k = 0; k < nu; k++)
        if (u[k].in.mem == EDAN_MEM_LOAD || u[k].in.mem == EDAN_MEM_STORE) last[u[k].in.mem] = k;
    stray = last[EDAN_MEM_STORE] != UINT32_MAX ? last[EDAN_MEM_STORE]
            : last[EDAN_MEM_LOAD] != UINT32_MAX ? last[EDAN_MEM_LOAD] : 0;
    for (k = 0; k < nu; k++) {
        unsigned kind = u[k].in.mem, other;
        first[k] = (uint32_t)w;
        if (kind == EDAN_MEM_LOAD || kind == EDAN_MEM_STORE) {
            uint64_t got = 0;
            size_t *c = &cur[kind];
            for (; *c < n; ++*c) {
                if (a[*c].kind != kind) continue;
                if (k != last[kind] && got >= u[k].bytes) break;
                got += a[*c].size;
                out[w++] = a[*c];
            }
            if (u[k].at_most ? got > u[k].bytes : got != u[k].bytes) agrees = 0;
        }
        for (other = EDAN_MEM_LOAD; other <= EDAN_MEM_STORE; other++)
            if (last[other] == UINT32_MAX && k == stray)
                for (; cur[other] < n; cur[other]++)
                    if (a[cur[other]].kind == other) {
                        out[w++] = a[cur[other]];
                        agrees = 0;
                    }
        count[k] = (uint32_t)(w - first[k]);
    }
    return agrees;
}

void bintrace_prep_free(bintrace_prep *bp)
{
    edan_block_destroy(bp->blk);
    free(bp->p);
    memset(bp, 0, sizeof *bp);
}

#define BINTRACE_AT(s0, stride, i) ((const edan_insn *)(const void *)((const char *)(s0) + (size_t)(i) * (stride)))

edan_result bintrace_feed_block(edan_context *ctx, bintrace_prep *bp, const edan_insn *s0, size_t stride,
                                uint32_t n, uint32_t first, uint32_t count, const uint64_t *addrs,
                                uint32_t *at)
{
    edan_result r;
    size_t fed = 0;
    *at = first;
    if (bp->owner != ctx) {
        uint32_t i;
        if (bp->owner) return EDAN_ERR_INVALID_ARG;     /* prepared for another context */
        if (!(bp->p = (edan_prepared *)calloc(n, sizeof *bp->p))) return EDAN_ERR_NOMEM;
        bp->bad = n;
        for (i = 0; i < n; i++)
            if (edan_prepare(ctx, BINTRACE_AT(s0, stride, i), &bp->p[i]) != EDAN_OK) {
                memset(&bp->p[i], 0, sizeof bp->p[i]);
                if (bp->bad == n) bp->bad = i;
            }
        if (bp->bad == n && (r = edan_block_create(ctx, bp->p, n, &bp->blk)) != EDAN_OK) return r;
        bp->owner = ctx;
    }
    if (bp->blk && first == 0 && count == n) {
        r = edan_feed_block_n(ctx, bp->blk, addrs, 1, &fed);
        *at = first + (uint32_t)fed;
        return r;
    }
    if (bp->bad < first + count) {
        /* the first refused instruction in the range, if any (none comes
           before bad): those before it, then its error again */
        uint32_t k = bp->bad > first ? bp->bad : first;
        edan_prepared again;
        while (k < first + count && edan_prepare(ctx, BINTRACE_AT(s0, stride, k), &again) == EDAN_OK) k++;
        if (k < first + count) {
            r = edan_feed_prepared_n(ctx, bp->p + first, addrs, k - first, &fed);
            *at = first + (uint32_t)fed;
            if (r != EDAN_OK) return r;
            return edan_prepare(ctx, BINTRACE_AT(s0, stride, k), &again);
        }
    }
    r = edan_feed_prepared_n(ctx, bp->p + first, addrs, count, &fed);
    *at = first + (uint32_t)fed;
    return r;
}

/* The bintrace_vertex_fn of an analysis: user a bintrace_to, which keeps
   the result of the last feed. */
typedef struct bintrace_to { edan_context *ctx; edan_result r; } bintrace_to;
static int bintrace_vertex_to(void *user, const edan_insn *in, const edan_access *acc, size_t n, const char **why)
{
    bintrace_to *t = (bintrace_to *)user;
    t->r = acc ? edan_feed_accesses(t->ctx, in, acc, n) : edan_feed(t->ctx, in);
    if (t->r == EDAN_OK) return 0;
    *why = edan_error(t->ctx);
    return -1;
}

int bintrace_chunked(const bintrace_uop *u, uint32_t nu, int rep)
{
    uint32_t k, nl = 0, ns = 0, e = 0;
    if (!rep) return 0;
    for (k = 0; k < nu; k++) {
        if (u[k].in.mem == EDAN_MEM_NONE) continue;
        if (!u[k].exact || (e && u[k].bytes != e)) return 0;
        e = u[k].bytes;
        if (u[k].in.mem == EDAN_MEM_LOAD) nl++;
        else if (u[k].in.mem == EDAN_MEM_STORE) ns++;
        else return 0;
    }
    return ns == 1 && nl <= 1 && (e == 1 || e == 2 || e == 4);
}

int bintrace_chunk_flush(bintrace_chunk *c, bintrace_vertex_fn fn, void *user, const char **why)
{
    uint32_t k, nu = c->nu;
    int rc;
    c->nu = 0;
    for (k = 0; k < nu; k++) {
        const edan_insn *in = &c->u[k].in;
        const edan_access *a = in->mem == EDAN_MEM_LOAD ? &c->ld : in->mem == EDAN_MEM_STORE ? &c->st : NULL;
        if ((rc = fn(user, in, a, a != NULL, why)) != 0) return rc;
    }
    return 0;
}

/* An execution of the rep movs or stos u[0 .. nu) (bintrace_chunked) with
   accesses a[0 .. n): its iterations into chunks (a chunk that is full or
   that an iteration does not continue to fn). 1 when taken, 0 when the
   accesses are not whole iterations (the chunk, flushed, is left for the
   caller's usual way), or fn's nonzero. */
static int bintrace_chunk_add(bintrace_chunk *c, const bintrace_uop *u, uint32_t nu, const edan_access *a,
                              size_t n, bintrace_vertex_fn fn, void *user, const char **why)
{
    uint32_t k, e = 0, movs = 0;
    size_t i, step;
    int rc;
    for (k = 0; k < nu; k++)
        if (u[k].in.mem != EDAN_MEM_NONE) {
            e = u[k].bytes;
            movs += u[k].in.mem == EDAN_MEM_LOAD;
        }
    step = movs ? 2 : 1;
    if (!n) return (rc = bintrace_chunk_flush(c, fn, user, why)) != 0 ? rc : 1;   /* the run ended (rcx 0) */
    for (i = 0; i < n; i++)     /* whole iterations only: (load,) store, each of one element */
        if (a[i].size != e || a[i].kind != (movs && i % 2 == 0 ? EDAN_MEM_LOAD : EDAN_MEM_STORE) || n % step)
            return (rc = bintrace_chunk_flush(c, fn, user, why)) != 0 ? rc : 0;
    if (c->nu && (c->nu != nu || c->u[0].in.pc != u[0].in.pc)) {
        if ((rc = bintrace_chunk_flush(c, fn, user, why)) != 0) return rc;
    }
    for (i = 0; i < n; i += step) {
        const edan_access *l = movs ? &a[i] : NULL, *s = &a[i + step - 1];
        if (c->nu) {
            int up = s->addr == c->st.addr + c->st.size && (!l || l->addr == c->ld.addr + c->ld.size);
            int down = s->addr + e == c->st.addr && (!l || l->addr + e == c->ld.addr);
            if ((up && c->dir >= 0) || (down && c->dir <= 0)) {
                c->dir = up && c->dir >= 0 ? 1 : -1;
                if (c->dir < 0) {
                    c->st.addr = s->addr;
                    if (l) c->ld.addr = l->addr;
                }
                c->st.size += e;
                c->ld.size += l ? e : 0;
                if (c->st.size == 8 && (rc = bintrace_chunk_flush(c, fn, user, why)) != 0) return rc;
                continue;
            }
            if ((rc = bintrace_chunk_flush(c, fn, user, why)) != 0) return rc;
        }
        memcpy(c->u, u, nu * sizeof *u);
        c->nu = nu;
        c->dir = 0;
        c->st = *s;
        if (l) c->ld = *l;
    }
    return 1;
}

edan_result bintrace_chunk_feed(bintrace_chunk *c, edan_context *ctx)
{
    bintrace_to t;
    const char *why = NULL;
    t.ctx = ctx;
    t.r = EDAN_OK;
    if (!c->nu) return EDAN_OK;
    (void)bintrace_chunk_flush(c, bintrace_vertex_to, &t, &why);
    return t.r;
}

/* The chunk c (NULL: none) takes an execution of ub[0 .. nu) with a[0 ..
   n) when the instruction is chunked, and is flushed before any other: 1
   when taken, 0 when the caller's usual way goes on, or fn's nonzero. */
static int bintrace__chunk_step(bintrace_chunk *c, const bintrace_uop *u, uint32_t nu, const edan_access *a,
                                size_t n, int rep, bintrace_vertex_fn fn, void *user, const char **why)
{
    if (!c) return 0;
    if (bintrace_chunked(u, nu, rep)) return bintrace_chunk_add(c, u, nu, a, n, fn, user, why);
    return c->nu ? bintrace_chunk_flush(c, fn, user, why) : 0;
}

edan_result bintrace_feed_execution(edan_context *ctx, bintrace_prep *bp, const bintrace_uop *ub,
                                    uint32_t nb, uint32_t first, uint32_t nu, const edan_access *a,
                                    size_t n, int rep, bintrace_chunk *ch, edan_access *scratch,
                                    int *agrees, uint32_t *at)
{
    uint64_t addrs[BINTRACE_MAX_UOPS];
    uint32_t fi[BINTRACE_MAX_UOPS], ci[BINTRACE_MAX_UOPS], k;
    size_t used;
    edan_result r;
    bintrace_to t;
    const char *why = NULL;
    int rc;
    *agrees = 1;
    *at = first;
    t.ctx = ctx;
    t.r = EDAN_OK;
    if ((rc = bintrace__chunk_step(ch, ub + first, nu, a, n, rep, bintrace_vertex_to, &t, &why)) != 0)
        return rc < 0 ? t.r : EDAN_OK;
    if (rep && n == 0) return EDAN_OK;
    while (n && bintrace_match_exact(ub + first, nu, a, n, addrs, &used, rep) && used) {
        if ((r = bintrace_feed_block(ctx, bp, &ub[0].in, sizeof *ub, nb, first, nu, addrs, at)) != EDAN_OK) return r;
        a += used;
        n -= used;
        if (!rep) return EDAN_OK;
    }
    if (rep && n == 0) return EDAN_OK;
    if (!n && bintrace_match_exact(ub + first, nu, a, n, addrs, &used, 0))     /* no memory uop */
        return bintrace_feed_block(ctx, bp, &ub[0].in, sizeof *ub, nb, first, nu, addrs, at);
    *agrees = bintrace_assign(ub + first, nu, a, n, scratch, fi, ci);
    for (k = 0; k < nu; k++) {
        *at = first + k;
        if ((r = edan_feed_accesses(ctx, &ub[first + k].in, ci[k] ? scratch + fi[k] : NULL, ci[k])) != EDAN_OK) return r;
    }
    return EDAN_OK;
}

edan_result bintrace_thread_apply(edan_context *ctx, unsigned verb, uint32_t a, uint32_t b)
{
    switch (verb) {
    case 0: return edan_thread_create(ctx, a, b);
    case 1: return edan_thread_switch(ctx, a);
    case 2: return edan_thread_exit(ctx, a);
    case BINTRACE_SIGNAL: return edan_signal_deliver(ctx);
    case BINTRACE_SIGRETURN: return edan_signal_return(ctx);
    default: return edan_signal_drop(ctx);
    }
}

int bintrace_agrees(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n, int rep,
                    edan_access *scratch)
{
    uint64_t addrs[BINTRACE_MAX_UOPS];
    uint32_t fi[BINTRACE_MAX_UOPS], ci[BINTRACE_MAX_UOPS];
    size_t used;
    if (rep && n == 0) return 1;
    while ((n || !rep) && bintrace_match_exact(u, nu, a, n, addrs, &used, rep) && (used || !n)) {
        a += used;
        n -= used;
        if (!rep || !n) return 1;
    }
    return bintrace_assign(u, nu, a, n, scratch, fi, ci);
}

int bintrace_emit_execution(const bintrace_uop *u, uint32_t nu, const edan_access *a, size_t n, int rep,
                            bintrace_chunk *ch, edan_access *scratch, int *agrees, bintrace_vertex_fn fn,
                            void *user, const char **why)
{
    uint64_t addrs[BINTRACE_MAX_UOPS];
    uint32_t fi[BINTRACE_MAX_UOPS], ci[BINTRACE_MAX_UOPS], k;
    size_t used;
    int rc;
    *agrees = 1;
    if ((rc = bintrace__chunk_step(ch, u, nu, a, n, rep, fn, user, why)) != 0) return rc < 0 ? rc : 0;
    if (rep && n == 0) return 0;
    while ((n || !rep) && bintrace_match_exact(u, nu, a, n, addrs, &used, rep) && (used || !n)) {
        for (k = 0; k < nu; k++) {
            edan_insn v = u[k].in;
            v.addr = addrs[k];
            if ((rc = fn(user, &v, NULL, 0, why)) != 0) return rc;
        }
        if (!used) return 0;        /* an execution without accesses (a is NULL then): done */
        a += used;
        n -= used;
        if (!rep || !n) return 0;
    }
    *agrees = bintrace_assign(u, nu, a, n, scratch, fi, ci);
    for (k = 0; k < nu; k++) {
        edan_insn v = u[k].in;
        if (!ci[k]) v.mem = EDAN_MEM_NONE;
        if ((rc = fn(user, &v, ci[k] ? scratch + fi[k] : NULL, ci[k], why)) != 0) return rc;
    }
    return 0;
}
