/* Tests of tools/trace/flow.c, the tracer's following of a thread's control
   flow: RISC-V transfers decoded from their bytes (the encodings are the
   GNU assembler's), frames pushed by calls and popped by returns, scopes
   that end with their frame by a return, a longjmp-like return elsewhere
   or an exception-like jump to a landing pad, signal handlers recognised
   at their start, their sigreturn, a handler left by siglongjmp, a
   recursion deeper than the frames kept. */
#include "tools/trace/flow.c"
#include "check.h"

/* ---- RISC-V transfers -------------------------------------------------- */
static void rv(uint32_t word, size_t len, uint64_t pc, int kind, int indirect, uint64_t target)
{
    uint8_t b[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24)};
    flow_xfer x;
    flow_rv_decode(b, len, pc, &x);
    CHECK_EQ_U(x.kind, kind);
    CHECK_EQ_U(x.indirect, indirect);
    if (!indirect && kind != FLOW_NEXT && kind != FLOW_SYSCALL) CHECK_EQ_U(x.target, target);
    CHECK_EQ_U(x.next, pc + len);
    CHECK_EQ_U(x.pc, pc);
}

static void test_rv_decode(void)
{
    /* riscv64-linux-gnu-as -march=rv64gc, at address 0x1000 + the offset objdump shows */
    rv(0x03a000ef, 4, 0x1000, FLOW_CALL, 0, 0x103a);       /* jal 3a */
    rv(0xffdff06f, 4, 0x1004, FLOW_JUMP, 0, 0x1000);       /* j 0 */
    rv(0x000780e7, 4, 0x1008, FLOW_CALL, 1, 0);            /* jalr a5 */
    rv(0x00008067, 4, 0x100c, FLOW_RET, 1, 0);             /* ret */
    rv(0x00830067, 4, 0x1010, FLOW_JUMP, 1, 0);            /* jr 8(t1) */
    rv(0x02b50363, 4, 0x1014, FLOW_BRANCH, 0, 0x103a);     /* beq a0,a1,3a */
    rv(0xfeb514e3, 4, 0x1018, FLOW_BRANCH, 0, 0x1000);     /* bne a0,a1,0 */
    rv(0x01e002ef, 4, 0x101c, FLOW_CALL, 0, 0x103a);       /* jal t0,3a: millicode's call */
    rv(0x00028067, 4, 0x1020, FLOW_RET, 1, 0);             /* jr t0: its return */
    rv(0x00000073, 4, 0x1024, FLOW_SYSCALL, 0, 0);         /* ecall */
    rv(0x00150513, 4, 0x1028, FLOW_NEXT, 0, 0);            /* addi a0,a0,1 */
    rv(0xbfd1, 2, 0x102c, FLOW_JUMP, 0, 0x1000);           /* c.j 0 */
    rv(0xd969, 2, 0x102e, FLOW_BRANCH, 0, 0x1000);         /* c.beqz a0,0 */
    rv(0xe789, 2, 0x1030, FLOW_BRANCH, 0, 0x103a);         /* c.bnez a5,3a */
    rv(0x8082, 2, 0x1032, FLOW_RET, 1, 0);                 /* c.jr ra */
    rv(0x8782, 2, 0x1034, FLOW_JUMP, 1, 0);                /* c.jr a5 */
    rv(0x9782, 2, 0x1036, FLOW_CALL, 1, 0);                /* c.jalr a5 */
    rv(0x952e, 2, 0x1038, FLOW_NEXT, 0, 0);                /* c.add a0,a0,a1 */
}

/* ---- a program of functions -------------------------------------------- */
/* Functions at 0x1000 * k (k = 1 .. 8), each 0x1000 long; main's .cold part
   at 0x9000 belongs to main (0x1000); 0xa000.. a PLT; past 0xb000 nothing
   known. */
static void where(void *user, uint64_t pc, flow_place *out)
{
    (void)user;
    memset(out, 0, sizeof *out);
    if (pc >= 0xa000 && pc < 0xb000) { out->plt = 1; out->fn = 0xa000; return; }
    if (pc < 0x1000 || pc >= 0xb000) return;
    out->fn = pc >= 0x9000 ? 0x1000 : pc & ~(uint64_t)0xfff;
    out->entry = (pc & 0xfff) == 0;
}

static flow_xfer X(int kind, int indirect, uint64_t pc, uint64_t target)
{
    flow_xfer x;
    memset(&x, 0, sizeof x);
    x.kind = (uint8_t)kind;
    x.indirect = (uint8_t)indirect;
    x.pc = pc;
    x.target = target;
    x.next = pc + 4;
    return x;
}

/* The thread ran x, then its next block at pc. */
static flow_event go(flow_thread *t, flow_xfer x, uint64_t pc, int handler)
{
    flow_event ev;
    flow_end(t, &x);
    flow_block(t, pc, handler, where, NULL, &ev);
    return ev;
}
#define CALL(t, from, to) go(t, X(FLOW_CALL, 0, from, to), to, 0)
#define RET(t, from, to) go(t, X(FLOW_RET, 1, from, 0), to, 0)

static void test_frames(void)
{
    flow_thread t;
    flow_event ev;
    uint32_t i;
    flow_init(&t, 1);
    flow_block(&t, 0x1000, 0, where, NULL, &ev);      /* main */
    CALL(&t, 0x1010, 0x2000);                         /* main -> kernel: the region */
    flow_scope_enter(&t, FLOW_REGION);
    CHECK(t.on[FLOW_REGION] && t.depth == 1);
    CALL(&t, 0x2010, 0x3000);                         /* kernel -> helper */
    flow_scope_enter(&t, FLOW_REGION);                /* running: nothing changes */
    CHECK_EQ_U(t.at[FLOW_REGION], 1);
    RET(&t, 0x3020, 0x2014);
    CHECK(t.on[FLOW_REGION] && t.depth == 1);
    go(&t, X(FLOW_JUMP, 1, 0x2018, 0), 0x2100, 0);    /* a switch's jump within kernel */
    go(&t, X(FLOW_JUMP, 1, 0x2100, 0), 0xa010, 0);    /* into a PLT */
    go(&t, X(FLOW_JUMP, 1, 0xa010, 0), 0x4000, 0);    /* ... to a function's start: a tail call */
    ev = go(&t, X(FLOW_JUMP, 1, 0x4010, 0), 0xc000, 0);   /* into code nothing is known of */
    CHECK(t.on[FLOW_REGION] && t.depth == 1 && !ev.unplaced && !ev.nonlocal);
    RET(&t, 0x2020, 0x1014);                          /* kernel returns: the region ends */
    CHECK(!t.on[FLOW_REGION] && t.depth == 0);

    /* longjmp: main -> kernel -> deep -> deeper; deeper "returns" to where
       main called setjmp (not a frame's return address): main's frame */
    CALL(&t, 0x1020, 0x2000);
    flow_scope_enter(&t, FLOW_REGION);
    CALL(&t, 0x2010, 0x3000);
    CALL(&t, 0x3010, 0x3000);
    CALL(&t, 0x3010, 0x4000);
    ev = RET(&t, 0x4040, 0x1008);
    CHECK(!t.on[FLOW_REGION] && t.depth == 0 && ev.nonlocal && !ev.unplaced);
    /* ... or jumps there (x86's __longjmp: jmp rdx, from another function) */
    CALL(&t, 0x1020, 0x2000);
    flow_scope_enter(&t, FLOW_REGION);
    CALL(&t, 0x2010, 0x5000);
    go(&t, X(FLOW_JUMP, 1, 0x5040, 0), 0x1008, 0);
    CHECK(!t.on[FLOW_REGION] && t.depth == 0);
    /* a longjmp within the region (setjmp in kernel): it goes on */
    CALL(&t, 0x1020, 0x2000);
    flow_scope_enter(&t, FLOW_REGION);
    CALL(&t, 0x2010, 0x3000);
    CALL(&t, 0x3010, 0x4000);
    RET(&t, 0x4040, 0x2030);
    CHECK(t.on[FLOW_REGION] && t.depth == 1);
    /* an exception caught in main's .cold landing pad: main's frame */
    CALL(&t, 0x2040, 0x6000);
    CALL(&t, 0x6010, 0x7000);                         /* __cxa_throw ... */
    ev = go(&t, X(FLOW_JUMP, 1, 0x7040, 0), 0x9100, 0);
    CHECK(!t.on[FLOW_REGION] && t.depth == 0 && ev.nonlocal && !ev.unplaced);
    /* a call that does not return ends its function: its return address is
       the next function's first (kernel's call at 0x2ffc, return address
       0x3000, helper's); an exception from below it landing in helper's
       function belongs to no frame of it */
    CALL(&t, 0x1020, 0x2000);
    CALL(&t, 0x2ffc, 0x4000);
    CALL(&t, 0x4010, 0x5000);
    ev = go(&t, X(FLOW_JUMP, 1, 0x5040, 0), 0x3100, 0);
    CHECK(t.depth == 3 && ev.unplaced && !ev.in_scope && ev.from == 0x5040);
    ev = go(&t, X(FLOW_JUMP, 1, 0x5040, 0), 0x1100, 0);
    CHECK(t.depth == 0 && ev.nonlocal && !ev.unplaced);
    /* a return to an older frame's return address (frames skipped) */
    CALL(&t, 0x1020, 0x2000);
    CALL(&t, 0x2010, 0x3000);
    CALL(&t, 0x3010, 0x4000);
    RET(&t, 0x4040, 0x2014);
    CHECK_EQ_U(t.depth, 1);
    /* a jump nowhere a frame explains: said, the frames kept */
    flow_scope_enter(&t, FLOW_REGION);
    ev = go(&t, X(FLOW_JUMP, 1, 0x2040, 0), 0x8100, 0);
    CHECK(ev.unplaced && ev.in_scope && ev.from == 0x2040 && t.depth == 1);
    RET(&t, 0x2050, 0x1024);
    CHECK_EQ_U(t.depth, 0);

    /* --exclude: its own return ends it */
    CALL(&t, 0x1020, 0x3000);
    flow_scope_enter(&t, FLOW_EXCLUDE);
    CALL(&t, 0x3010, 0x4000);
    RET(&t, 0x4010, 0x3014);
    CHECK(t.on[FLOW_EXCLUDE]);
    RET(&t, 0x3020, 0x1024);
    CHECK(!t.on[FLOW_EXCLUDE]);

    /* a tail call into the region (no frame of its own): it ends when the
       frame it was jumped from returns */
    CALL(&t, 0x1020, 0x3000);
    go(&t, X(FLOW_JUMP, 0, 0x3010, 0x2000), 0x2000, 0);
    flow_scope_enter(&t, FLOW_REGION);
    CALL(&t, 0x2010, 0x4000);
    RET(&t, 0x4010, 0x2014);
    CHECK(t.on[FLOW_REGION]);
    RET(&t, 0x2020, 0x1024);
    CHECK(!t.on[FLOW_REGION] && t.depth == 0);

    /* a recursion deeper than the frames kept: its returns still come back
       to the region's frame */
    CALL(&t, 0x1020, 0x2000);
    flow_scope_enter(&t, FLOW_REGION);
    for (i = 0; i < FLOW_MAX_FRAMES + 100; i++) CALL(&t, 0x2010, 0x2000);
    CHECK(t.lo > 0 && t.cap == FLOW_MAX_FRAMES);
    for (i = 0; i < FLOW_MAX_FRAMES + 100; i++) RET(&t, 0x2020, 0x2014);
    CHECK(t.on[FLOW_REGION] && t.depth == 1);
    RET(&t, 0x2020, 0x1024);
    CHECK(!t.on[FLOW_REGION] && t.depth == 0);
    flow_free(&t);
}

static void test_signals(void)
{
    flow_thread t;
    flow_event ev;
    int track;
    for (track = 0; track < 2; track++) {
        flow_init(&t, track);
        flow_block(&t, 0x1000, 0, where, NULL, &ev);
        CALL(&t, 0x1010, 0x2000);
        flow_scope_enter(&t, FLOW_REGION);
        /* the handler at 0x8000: reached from a loop's branch elsewhere, a
           signal; its return pops its frame, not the region's */
        ev = go(&t, X(FLOW_BRANCH, 0, 0x2040, 0x2020), 0x8000, 1);
        CHECK(ev.signal && t.nsig == 1);
        CHECK_EQ_U(t.depth, track ? 2 : 0);      /* untracked: no frames at all */
        CALL(&t, 0x8010, 0x3000);
        RET(&t, 0x3010, 0x8014);
        RET(&t, 0x8020, 0xb000);                        /* to the restorer, whatever its address */
        CHECK(t.on[FLOW_REGION]);
        CHECK_EQ_U(t.depth, track);
        CHECK(flow_sigreturn(&t) == 1 && t.nsig == 0 && t.on[FLOW_REGION]);
        /* the interrupted branch lands (the first block after the sigreturn) */
        flow_block(&t, 0x2020, 0, where, NULL, &ev);
        CHECK(!ev.signal && t.depth == (uint64_t)track);
        /* called directly: no signal */
        ev = CALL(&t, 0x2030, 0x8000);
        CHECK(!ev.signal && t.nsig == 0);
        if (track) CHECK_EQ_U(t.depth, 2);
        RET(&t, 0x8020, 0x2034);
        /* after a call through a pointer (the PLT's, a virtual call) the
           handler's start is a signal that came before the callee ran */
        ev = go(&t, X(FLOW_CALL, 1, 0x2040, 0), 0x8000, 1);
        CHECK(ev.signal && t.nsig == 1);
        CHECK_EQ_U(t.depth, track ? 3 : 0);
        RET(&t, 0x8020, 0xb000);
        CHECK(flow_sigreturn(&t));
        flow_block(&t, 0x5000, 0, where, NULL, &ev);
        RET(&t, 0x5010, 0x2044);
        CHECK_EQ_U(t.depth, track);
        /* a signal right after a call, before its callee ran: the call's
           frame is there; after the sigreturn the callee's block runs */
        ev = go(&t, X(FLOW_CALL, 0, 0x2050, 0x4000), 0x8000, 1);
        CHECK(ev.signal);
        CHECK_EQ_U(t.depth, track ? 3 : 0);
        RET(&t, 0x8020, 0xb000);
        CHECK(flow_sigreturn(&t));
        flow_block(&t, 0x4000, 0, where, NULL, &ev);
        CHECK_EQ_U(t.depth, track ? 2 : 0);
        RET(&t, 0x4010, 0x2054);
        /* the same, and a second signal right at the first one's sigreturn
           (pending while the handler ran): the handler's start is still a
           delivery, not the callee's start (it was taken for one, and its
           sigreturn was then a return unseen) */
        ev = go(&t, X(FLOW_CALL, 0, 0x2060, 0x4000), 0x8000, 1);
        CHECK(ev.signal && t.nsig == 1);
        RET(&t, 0x8020, 0xb000);
        CHECK(flow_sigreturn(&t));
        flow_block(&t, 0x8000, 1, where, NULL, &ev);
        CHECK(ev.signal && t.nsig == 1);
        RET(&t, 0x8020, 0xb000);
        CHECK(flow_sigreturn(&t) && t.nsig == 0);
        flow_block(&t, 0x4000, 0, where, NULL, &ev);
        CHECK(!ev.signal);
        CHECK_EQ_U(t.depth, track ? 2 : 0);
        RET(&t, 0x4010, 0x2064);
        /* a sigreturn without a delivery seen */
        CHECK(flow_sigreturn(&t) == 0);
        if (track) {
            /* a handler left by siglongjmp to main: its saved state goes, the region ends */
            ev = go(&t, X(FLOW_NEXT, 0, 0x2060, 0), 0x8000, 1);
            CHECK(ev.signal);
            CALL(&t, 0x8010, 0x5000);
            ev = go(&t, X(FLOW_JUMP, 1, 0x5040, 0), 0x1030, 0);
            CHECK(ev.dropped == 1 && t.nsig == 0 && !t.on[FLOW_REGION] && t.depth == 0);
            /* a signal in a signal handler: each sigreturn gives back its own */
            CALL(&t, 0x1040, 0x2000);
            flow_scope_enter(&t, FLOW_REGION);
            ev = go(&t, X(FLOW_NEXT, 0, 0x2060, 0), 0x8000, 1);
            CALL(&t, 0x8010, 0x3000);
            ev = go(&t, X(FLOW_NEXT, 0, 0x3010, 0), 0x8000, 1);
            CHECK(ev.signal && t.nsig == 2 && t.depth == 4);
            RET(&t, 0x8020, 0xb000);
            CHECK(flow_sigreturn(&t) && t.depth == 3);
            RET(&t, 0x3020, 0x8014);
            RET(&t, 0x8020, 0xb000);
            CHECK(flow_sigreturn(&t) && t.depth == 1 && t.on[FLOW_REGION]);
        }
        flow_free(&t);
    }
    /* more handlers than kept: the oldest forgotten */
    flow_init(&t, 0);
    {
        int i;
        for (i = 0; i < FLOW_MAX_SIGNALS + 3; i++) {
            ev = go(&t, X(FLOW_NEXT, 0, 0x2060, 0), 0x8000, 1);
            CHECK(ev.signal);
        }
        CHECK_EQ_U(t.nsig, FLOW_MAX_SIGNALS);
        for (i = 0; i < FLOW_MAX_SIGNALS; i++) CHECK(flow_sigreturn(&t));
        CHECK(!flow_sigreturn(&t));
    }
    flow_free(&t);
}

int main(void)
{
    test_rv_decode();
    test_frames();
    test_signals();
    return check_summary("test_flow");
}
