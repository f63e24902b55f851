/* tools/trace/flow.c - a traced thread's control flow (tools/trace/flow.h). */
#include "flow.h"
#include <stdlib.h>
#include <string.h>

/* ---- RISC-V transfers --------------------------------------------------- */
static int64_t flow_sext(uint64_t v, unsigned bits)
{
    uint64_t m = (uint64_t)1 << (bits - 1);
    return (int64_t)((v ^ m) - m);
}

static int flow_rv_link(unsigned r) { return r == 1 || r == 5; }     /* ra, t0 */

void flow_rv_decode(const uint8_t *b, size_t len, uint64_t pc, flow_xfer *x)
{
    memset(x, 0, sizeof *x);
    x->pc = pc;
    x->next = pc + (len ? len : 4);
    if (len == 2) {
        uint32_t h = (uint32_t)b[0] | (uint32_t)b[1] << 8, f3 = h >> 13, q = h & 3;
        unsigned rs1 = (h >> 7) & 31, rs2 = (h >> 2) & 31;
        if (q == 1 && f3 == 5) {            /* c.j */
            uint64_t imm = ((h >> 12) & 1) << 11 | ((h >> 11) & 1) << 4 | ((h >> 9) & 3) << 8 | ((h >> 8) & 1) << 10 |
                           ((h >> 7) & 1) << 6 | ((h >> 6) & 1) << 7 | ((h >> 3) & 7) << 1 | ((h >> 2) & 1) << 5;
            x->kind = FLOW_JUMP;
            x->target = pc + (uint64_t)flow_sext(imm, 12);
        } else if (q == 1 && (f3 == 6 || f3 == 7)) {     /* c.beqz, c.bnez */
            uint64_t imm = ((h >> 12) & 1) << 8 | ((h >> 10) & 3) << 3 | ((h >> 5) & 3) << 6 | ((h >> 3) & 3) << 1 |
                           ((h >> 2) & 1) << 5;
            x->kind = FLOW_BRANCH;
            x->target = pc + (uint64_t)flow_sext(imm, 9);
        } else if (q == 2 && f3 == 4 && rs1 && !rs2) {   /* c.jr, c.jalr */
            x->indirect = 1;
            x->kind = (h >> 12) & 1 ? FLOW_CALL : flow_rv_link(rs1) ? FLOW_RET : FLOW_JUMP;
        }
        return;
    }
    if (len == 4) {
        uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        unsigned op = w & 0x7f, rd = (w >> 7) & 31, rs1 = (w >> 15) & 31;
        if (op == 0x6f) {                   /* jal */
            uint64_t imm = (uint64_t)((w >> 31) & 1) << 20 | (uint64_t)((w >> 21) & 0x3ff) << 1 |
                           (uint64_t)((w >> 20) & 1) << 11 | (uint64_t)((w >> 12) & 0xff) << 12;
            x->kind = flow_rv_link(rd) ? FLOW_CALL : FLOW_JUMP;
            x->target = pc + (uint64_t)flow_sext(imm, 21);
        } else if (op == 0x67 && ((w >> 12) & 7) == 0) {   /* jalr */
            x->indirect = 1;
            x->kind = flow_rv_link(rd) ? FLOW_CALL : rd == 0 && flow_rv_link(rs1) ? FLOW_RET : FLOW_JUMP;
        } else if (op == 0x63) {            /* beq .. bgeu */
            uint64_t imm = (uint64_t)((w >> 31) & 1) << 12 | (uint64_t)((w >> 25) & 0x3f) << 5 |
                           (uint64_t)((w >> 8) & 0xf) << 1 | (uint64_t)((w >> 7) & 1) << 11;
            x->kind = FLOW_BRANCH;
            x->target = pc + (uint64_t)flow_sext(imm, 13);
        } else if (w == 0x00000073) {       /* ecall */
            x->kind = FLOW_SYSCALL;
        }
    }
}

/* ---- frames ------------------------------------------------------------- */
void flow_init(flow_thread *t, int track)
{
    memset(t, 0, sizeof *t);
    t->track = track;
}

void flow_free(flow_thread *t)
{
    free(t->f);
    free(t->sig);
    memset(t, 0, sizeof *t);
}

static flow_frame *flow_at(flow_thread *t, uint64_t i) { return &t->f[i % t->cap]; }

/* Room for one more frame: the ring grows (its frames in order again) up to
   FLOW_MAX_FRAMES, then forgets its oldest. */
static int flow_room(flow_thread *t)
{
    if (t->depth - t->lo < t->cap) return 1;
    if (t->cap < FLOW_MAX_FRAMES) {
        uint32_t nc = t->cap ? 2 * t->cap : 64;
        flow_frame *nf = (flow_frame *)malloc(nc * sizeof *nf);
        uint64_t i;
        if (!nf) { t->oom = 1; return 0; }
        for (i = t->lo; i < t->depth; i++) nf[i % nc] = *flow_at(t, i);
        free(t->f);
        t->f = nf;
        t->cap = nc;
        return 1;
    }
    t->lo++;
    return 1;
}

static void flow_push(flow_thread *t, uint64_t ret, int handler)
{
    if (!flow_room(t)) {        /* out of memory: counted, not followed */
        t->depth++;
        t->lo = t->depth;
        return;
    }
    flow_at(t, t->depth)->ret = ret;
    flow_at(t, t->depth)->handler = handler;
    t->depth++;
}

/* Frames j .. depth-1 are left: the handlers' among them forget their
   saved states (the newest first). */
static void flow_cut(flow_thread *t, uint64_t j, flow_event *ev)
{
    uint64_t i;
    uint32_t handlers = 0;
    for (i = j > t->lo ? j : t->lo; i < t->depth; i++) handlers += flow_at(t, i)->handler != 0;
    if (handlers > t->nsig) handlers = t->nsig;
    t->nsig -= handlers;
    ev->dropped += handlers;
    ev->nonlocal = 1;
    t->depth = j;
    if (t->lo > j) t->lo = j;
}

/* Control arrived at pc from pend other than by a call or a return to the
   top frame: the frames it left go. */
static void flow_nonlocal(flow_thread *t, uint64_t pc, flow_where_fn where, void *user, flow_event *ev)
{
    flow_place at, caller;
    uint64_t j;
    for (j = t->depth; j-- > t->lo;)
        if (!flow_at(t, j)->handler && flow_at(t, j)->ret == pc) { flow_cut(t, j, ev); return; }
    where(user, pc, &at);
    if (at.fn)
        for (j = t->depth; j-- > t->lo;) {
            if (flow_at(t, j)->handler) continue;
            /* the call's own last byte: a call that does not return (__cxa_throw) may end
               its function, its return address the next function's first */
            where(user, flow_at(t, j)->ret - 1, &caller);
            if (caller.fn == at.fn) { flow_cut(t, j, ev); return; }
        }
    ev->unplaced = 1;
    ev->in_scope = t->on[FLOW_REGION] || t->on[FLOW_EXCLUDE];
    ev->from = t->pend.pc;
}

/* The last transfer lands at pc. */
static void flow_land(flow_thread *t, uint64_t pc, flow_where_fn where, void *user, flow_event *ev)
{
    const flow_xfer *x = &t->pend;
    flow_place to, from;
    if (!t->pend_set) return;
    switch (x->kind) {
    case FLOW_CALL:
        flow_push(t, x->next, 0);
        return;
    case FLOW_RET:
        if (t->depth == t->lo) {    /* a frame not followed (forgotten, or older than the thread's first) */
            if (t->depth) t->depth = --t->lo;
            return;
        }
        if (flow_at(t, t->depth - 1)->handler || flow_at(t, t->depth - 1)->ret == pc) { t->depth--; return; }
        flow_nonlocal(t, pc, where, user, ev);
        return;
    case FLOW_JUMP:
        if (!x->indirect) return;
        /* a jump into a PLT, to a function's start (a tail call), within the
           function, or to code the tracer knows nothing of: the thread's
           own frames stay */
        where(user, pc, &to);
        if (!to.fn || to.plt || to.entry) return;
        where(user, x->pc, &from);
        if (from.fn == to.fn) return;
        flow_nonlocal(t, pc, where, user, ev);
        return;
    default:
        return;
    }
}

void flow_end(flow_thread *t, const flow_xfer *x)
{
    t->pend_set = x != NULL;
    if (x) t->pend = *x;
}

int flow_reaches(const flow_thread *t, uint64_t pc)
{
    const flow_xfer *x = &t->pend;
    if (!t->pend_set) return 1;     /* nothing known: a thread's first block */
    switch (x->kind) {
    case FLOW_NEXT: case FLOW_SYSCALL: return x->next == pc;
    case FLOW_BRANCH: return x->next == pc || x->target == pc;
    /* through a pointer: taken for a signal that came before the target ran
       (a signal handler called through a pointer is rare; a signal right
       after a call through the PLT or a virtual call is not) */
    case FLOW_JUMP: case FLOW_CALL: return !x->indirect && x->target == pc;
    default: return 0;              /* a return never lands on a function's first instruction */
    }
}

/* The handler starts: the interrupted state saved (the oldest forgotten
   beyond FLOW_MAX_SIGNALS, as the analysis does), its frame pushed. */
static void flow_deliver(flow_thread *t, flow_event *ev)
{
    flow_saved *s;
    int k;
    if (t->pend_set && t->pend.kind == FLOW_CALL) {
        /* the call ran: its frame is there, and what is left of it is a jump
           to its target (kept, so that a signal that comes again right at
           this handler's sigreturn is told from the callee's start) */
        if (t->track) flow_push(t, t->pend.next, 0);
        t->pend.kind = FLOW_JUMP;
    }
    if (!t->sig && !(t->sig = (flow_saved *)calloc(FLOW_MAX_SIGNALS, sizeof *t->sig))) {
        t->oom = 1;
        return;
    }
    if (t->nsig == FLOW_MAX_SIGNALS) memmove(t->sig, t->sig + 1, (--t->nsig) * sizeof *t->sig);
    s = &t->sig[t->nsig++];
    s->depth = t->depth;
    s->pend = t->pend;
    s->pend_set = t->pend_set;
    for (k = 0; k < FLOW_SCOPES; k++) {
        s->on[k] = t->on[k];
        s->at[k] = t->at[k];
    }
    if (t->track) flow_push(t, 0, 1);
    t->pend_set = 0;
    ev->signal = 1;
}

void flow_block(flow_thread *t, uint64_t pc, int handler, flow_where_fn where, void *user, flow_event *ev)
{
    int k;
    memset(ev, 0, sizeof *ev);
    if (handler && !flow_reaches(t, pc)) {
        flow_deliver(t, ev);
        return;
    }
    if (t->track) flow_land(t, pc, where, user, ev);
    t->pend_set = 0;
    for (k = 0; k < FLOW_SCOPES; k++)
        if (t->on[k] && t->depth < t->at[k]) t->on[k] = 0;
}

void flow_scope_enter(flow_thread *t, int s)
{
    if (t->on[s]) return;
    t->on[s] = 1;
    t->at[s] = t->depth;
}

int flow_sigreturn(flow_thread *t)
{
    flow_saved *s;
    int k;
    if (!t->nsig) return 0;
    s = &t->sig[--t->nsig];
    t->depth = s->depth;
    if (t->lo > t->depth) t->lo = t->depth;
    t->pend = s->pend;
    t->pend_set = s->pend_set;
    for (k = 0; k < FLOW_SCOPES; k++) {
        t->on[k] = s->on[k];
        t->at[k] = s->at[k];
    }
    return 1;
}
