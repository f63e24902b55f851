/* tools/trace/plugin_signals.c - the program's threads, signals and forks: the
   one thread at a time that holds the analysis, signal handlers and
   non-local exits (tools/trace/flow.h), QEMU's execution callbacks, the system
   calls that make, end or copy threads, and the run's early end (a stop
   request, a fatal signal, --max-insns). Part of the plugin
   (tools/trace/plugin.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "plugin.h"

/* ---------------------------------------------------------------------- */
/* Threads                                                                */
/* ---------------------------------------------------------------------- */
/* QEMU runs a program's threads at once, one host thread per vCPU, while
   the analysis and a block's execution buffers (b->addrs, b->xacc) are one.
   So one thread at a time runs guest code: a vCPU takes the analysis at
   the start of a block (its tb_exec callback) and keeps it, block after
   block, until it makes a system call, or until it has run PL_QUANTUM
   blocks while another waits; it gives it up between two of its blocks,
   with everything it ran fed. Blocks are therefore fed in the order they
   ran, one thread's stretch after another's: an interleaving the program
   did execute, so every load sees the writer it saw. A thread waiting for
   another (a futex, a join) sleeps in its system call without the
   analysis; one spinning on a flag gives it up at the end of its quantum.

   While a thread forks (QEMU stops every other thread to copy itself) and
   from exit_group on, a thread that would wait does not (QEMU's stop
   would wait for it): blocks it runs then are not analysed (counted; a
   thread that missed some loses its registers' writers). The holder keeps
   the analysis. */
#define PL_QUANTUM 4096
pthread_mutex_t pl_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t pl_cv = PTHREAD_COND_INITIALIZER;
int pl_owner = -1;           /* the vCPU holding the analysis (set under pl_mu; callbacks compare
                                       their vCPU with it: equal only in the holder's own thread) */
static int pl_yielder = -1;         /* gave it up at its quantum: waits until another took it */
static unsigned pl_waiting;         /* vCPUs waiting (read without pl_mu for the quantum test) */
static unsigned pl_draining;        /* forks under way, +1 from exit_group on */
static int pl_exiting;              /* exit_group was called: what runs now does not matter */
static volatile uint64_t pl_ticks;  /* the holder's blocks, for a waiter to see it move */
uint64_t pl_stalled;         /* blocks run unanalysed: the holder stood still (atomic) */
static uint32_t pl_quantum;         /* the holder's blocks since it took the analysis */
static __thread unsigned pl_held;   /* this host thread's vCPU holds the analysis: pl_gen + 1 (not in the hot
                                       paths: thread-local variables of a loaded library cost a call) */
unsigned pl_gen;             /* taken from its holder between two windows (--sample): that thread's
                                       pl_held is then out of date */
#define PL_HOLDS() (pl_held == pl_gen + 1)

/* The engine and the outputs now follow thread tid. */
static void pl_thread_record(int verb, uint32_t a, uint32_t b)
{
    static const char *const verbs[] = {"create", "switch", "exit", "deliver", "return", "drop"};
    edan_result r = EDAN_OK;
    pl_chunk_flush();
    if (st.out.ctx) {
        uint32_t id;
        r = bintrace_thread_apply(st.out.ctx, (unsigned)verb, a, b);
        for (id = 1; r == EDAN_OK && id <= st.reg.n; id++) {     /* the named regions' analyses follow */
            edan_context *rc = st.reg.r[id].ctx;
            if (rc && (verb < BINTRACE_SIGRETURN || edan_signal_depth(rc) > 0))
                if ((r = bintrace_thread_apply(rc, (unsigned)verb, a, b)) != EDAN_OK)
                    pl_stop("the analysis of region \"%s\" refused a %s's %s: %s", st.reg.r[id].name,
                            verb >= BINTRACE_SIGNAL ? "signal" : "thread", verbs[verb], edan_error(rc));
        }
        if (r != EDAN_OK)
            pl_stop("the analysis refused a %s's %s: %s", verb >= BINTRACE_SIGNAL ? "signal" : "thread", verbs[verb],
                    edan_error(st.out.ctx));
        if (verb == 0 || verb == 2) {    /* for a region's context made later */
            uint32_t (*nl)[3] = (uint32_t (*)[3])cli_grow(st.reg.log, &st.reg.log_cap, st.reg.nlog, sizeof *nl, 16);
            if (!nl) pl_stop("out of memory for the threads");
            st.reg.log = nl;
            st.reg.log[st.reg.nlog][0] = (uint32_t)verb;
            st.reg.log[st.reg.nlog][1] = a;
            st.reg.log[st.reg.nlog][2] = b;
            st.reg.nlog++;
        }
    }
    if (st.out.text_f) {
        if (verb == 0) fprintf(st.out.text_f, "#edan-thread create %u %u\n", a, b);
        else if (verb >= BINTRACE_SIGNAL) fprintf(st.out.text_f, "#edan-signal %s\n", verbs[verb]);
        else fprintf(st.out.text_f, "#edan-thread %s %u\n", verbs[verb], a);
    }
    if (st.out.bin_f) bintrace_write_thread(&st.out.bw, (unsigned)verb, a, b);
}

/* Everything the holder ran is fed (its pending block, a rep instruction,
   what its untraced code wrote). */
static void pl_strays_flush(void);
void pl_drain_holder(void)
{
    if (st.run.pending) { pl_flush(st.run.pending); st.run.pending = NULL; }
    pl_stash_flush();
    pl_strays_flush();
    if (st.kill.pending) pl_kill_flush();
}

static void pl_release(void)
{
    if (!PL_HOLDS()) return;
    pl_drain_holder();
    pthread_mutex_lock(&pl_mu);
    pl_owner = -1;
    pthread_cond_broadcast(&pl_cv);
    pthread_mutex_unlock(&pl_mu);
    pl_held = 0;
}

volatile int pl_ending;     /* the run ends now (a fatal signal in a thread): the others let go;
                                      2: a window ends (--sample), until QEMU switches (no thread waits
                                      for the analysis inside a callback then: QEMU's switch waits for
                                      every thread to leave its blocks) */

/* vCPU takes the analysis (waiting for it); 0 when it may not (a fork or
   the exit is under way, the run or a window ends, or its holder stands
   still): then it runs its block unanalysed. */
static int pl_acquire(unsigned vcpu)
{
    pl_thr *t = &pl_thrs[vcpu];
    int got, still = 0;
    if (PL_HOLDS()) return 1;
    pthread_mutex_lock(&pl_mu);
    pl_waiting++;
    /* A holder that runs no block for 2 s while holding the analysis is
       stopped inside QEMU (an exclusive section: a full code cache, an
       atomic QEMU runs alone), which waits for this thread to leave its
       callback: it runs this block unanalysed rather than wait for ever. */
    while (!pl_ending && (pl_owner >= 0 ? !pl_draining : pl_yielder == (int)vcpu && pl_waiting > 1 && !pl_draining)) {
        struct timespec ts;
        uint64_t before = pl_ticks;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200000000L;
        if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
        if (pthread_cond_timedwait(&pl_cv, &pl_mu, &ts) == ETIMEDOUT && pl_owner >= 0 && pl_ticks == before) {
            if (++still == 10) break;
        } else {
            still = 0;
        }
    }
    pl_waiting--;
    got = pl_owner < 0;     /* else a fork or the exit is under way, or the holder stands still */
    if (got) {
        pl_owner = (int)vcpu;
        if (pl_yielder != (int)vcpu) pl_yielder = -1;
    }
    pthread_mutex_unlock(&pl_mu);
    if (!got) {
        t->missed = 1;
        if (still == 10) __atomic_fetch_add(&pl_stalled, 1, __ATOMIC_RELAXED);
        else if (!pl_exiting && !pl_ending) __atomic_fetch_add(&st.thr.unanalysed_blocks, 1, __ATOMIC_RELAXED);
        return 0;
    }
    pl_ticks++;
    pl_held = pl_gen + 1;
    pl_quantum = 0;
    st.thr.cur = t;
    if (t->late) {      /* from its creator's registers as they are now, not at the clone */
        pl_thread_record(0, t->creator, t->tid);
        t->late = 0;
        st.thr.late_threads++;
    }
    if (st.thr.cur_tid != t->tid) {
        pl_thread_record(1, t->tid, 0);
        st.thr.cur_tid = t->tid;
        st.thr.handoffs++;
    }
    if (t->missed) {    /* blocks of it ran unanalysed: what they wrote is unknown */
        pl_kill_all_regs();
        t->missed = 0;
    }
    return 1;
}

/* At the start of a block of vCPU: 1 when it is to be analysed (the
   caller holds the analysis). */
static PL_NOINLINE int pl_enter_far(unsigned vcpu);
/* Inline, its common case: the vCPU that holds the analysis goes on. */
static inline int pl_enter(unsigned vcpu)
{
    if (!pl_ending && pl_owner == (int)vcpu) {
        pl_ticks++;
        if (++pl_quantum < PL_QUANTUM || !pl_waiting) return 1;
    }
    return pl_enter_far(vcpu);
}
static int pl_enter_far(unsigned vcpu)
{
    if (pl_ending) {        /* another thread ends the run: this one lets go of the analysis */
        if (pl_owner == (int)vcpu) pl_release();
        return 0;
    }
    if (pl_owner == (int)vcpu) {       /* its quantum is over and another waits */
        pl_release();
        pthread_mutex_lock(&pl_mu);
        pl_yielder = (int)vcpu;
        pthread_mutex_unlock(&pl_mu);
    }
    return pl_acquire(vcpu);
}

static int pl_in_tids(uint32_t tid)
{
    int k;
    if (!st.args.nonly) return 1;
    for (k = 0; k < st.args.nonly; k++) if (tid >= st.args.only[k][0] && tid <= st.args.only[k][1]) return 1;
    return 0;
}

static __thread int pl_cloning;     /* this host thread's vCPU is in a clone call, holding the analysis */
static __thread int pl_clone_caller = -1;   /* ... that vCPU, holding it or not */
static __thread int pl_forking;     /* ... in a fork call */

/* A new vCPU: the first is thread 0; a later one is made by the clone call
   of the vCPU on this host thread (QEMU makes it within the call, on the
   caller's host thread, and runs it only after the call), which holds the
   analysis through the call: the new thread starts from its creator's
   registers as they are at the call. */
void pl_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
    pl_thr *t;
    (void)id;
    if (st.run.child) return;
    if (vcpu >= PL_MAX_VCPUS) pl_stop("the program runs more than %d threads at once", PL_MAX_VCPUS);
    t = &pl_thrs[vcpu];
    flow_free(&t->flow);        /* an ended thread's, whose index QEMU gives this one */
    memset(t, 0, sizeof *t);
    flow_init(&t->flow, st.scope.dyn);
    if (st.thr.vcpus++ == 0) t->tid = 0;
    else if (pl_cloning && PL_HOLDS()) {
        t->tid = __atomic_add_fetch(&st.thr.next_tid, 1, __ATOMIC_RELAXED);
        pl_thread_record(0, st.thr.cur_tid, t->tid);
    } else if (pl_clone_caller >= 0) {     /* another thread forked then and a third held the analysis */
        t->tid = __atomic_add_fetch(&st.thr.next_tid, 1, __ATOMIC_RELAXED);
        t->late = 1;
        t->creator = pl_thrs[pl_clone_caller].tid;
    } else {
        pl_stop("a thread was made outside a clone call; the analysis cannot tell its creator");
    }
    t->selected = pl_in_tids(t->tid);
}

/* ---------------------------------------------------------------------- */
/* Signals and control flow (tools/trace/flow.h)                                */
/* ---------------------------------------------------------------------- */
/* A program's signal handler runs on the thread it interrupts: QEMU sets
   the registers and writes the signal frame in its own code, and the next
   block the thread runs is the handler's first, which no instruction of
   the thread sent control to. The tracer knows the handlers from the
   program's rt_sigaction calls; it recognises such a start (flow_block),
   saves the thread's register writers (edan_signal_deliver: a SIGNAL
   record), kills the registers the kernel set and analyses the handler as
   code the program ran (in the scope or not, like any code). At the
   handler's rt_sigreturn the interrupted code gets its register writers
   back (a SIGRETURN record). A fault's signal (SIGSEGV, ...) cuts its block
   short: the instructions before the faulting one ran (those that made
   their accesses; x86-64 always knows, RISC-V once such a handler is
   registered). */
#define PL_STRAYS 16
enum { PL_SYS_SIGACTION_X86 = 13, PL_SYS_SIGRETURN_X86 = 15, PL_SYS_SIGACTION_RV = 134, PL_SYS_SIGRETURN_RV = 139 };
#define PL_NOT_RUN (~(uint64_t)0)   /* RISC-V: an address no access of this execution set */

/* n bytes of the program's memory at addr; 0, or -1 when they cannot be read. */
int pl_guest_read(uint64_t addr, void *buf, size_t n)
{
    if (st.run.mem_fd < 0) return -1;
    return pread(st.run.mem_fd, buf, n, (off_t)(addr + st.run.guest_base)) == (ssize_t)n ? 0 : -1;
}

static int pl_is_handler(uint64_t pc)
{
    uint32_t k;
    for (k = 0; k < st.sig.nat; k++)
        if (st.sig.at[k] == pc) return 1;
    return 0;
}

static void pl_unrun(pl_block *b, uint32_t from);

/* Signal sig's handler is now h (0 or 1: the default action, ignored). */
static void pl_signal_set(unsigned sig, uint64_t h)
{
    static const unsigned sync_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
    unsigned k, j;
    if (sig == 0 || sig > 64) return;
    st.sig.handler[sig] = h > 1 ? h : 0;
    st.sig.nat = 0;
    for (k = 1; k <= 64; k++) {
        if (!st.sig.handler[k]) continue;
        for (j = 0; j < st.sig.nat && st.sig.at[j] != st.sig.handler[k]; j++) {}
        if (j == st.sig.nat) st.sig.at[st.sig.nat++] = st.sig.handler[k];
    }
    for (k = 0; k < sizeof sync_sigs / sizeof sync_sigs[0] && !st.sig.sync; k++)
        if (st.sig.handler[sync_sigs[k]]) {
            pl_block *b;
            st.sig.sync = 1;        /* RISC-V: from now on every execution says which accesses it made */
            for (b = (pl_block *)(void *)st.run.blocks; b && !st.is_x86; b = (pl_block *)(void *)b->node.next_alloc)
                pl_unrun(b, 0);
        }
}

/* RISC-V: instruction i of b has a memory callback (a load outside --func
   scoping needs none). */
int pl_rv_watched(const pl_block *b, uint32_t i)
{
    edan_mem_kind mk = (edan_mem_kind)b->s[i].in.mem;
    if (mk == EDAN_MEM_NONE) return 0;
    return st.scope.dyn || !st.scope.func || (b->flags[i] & PL_INFUNC) || mk != EDAN_MEM_LOAD;
}

/* The instructions of b's execution that ran: those before the first
   memory instruction that made no access (a fault stopped it). */
static uint32_t pl_ran(const pl_block *b)
{
    uint32_t i;
    for (i = 0; i < b->n; i++) {
        if (st.is_x86) {
            const x86_exec *x = &b->xacc[i];
            if (x->np && x->np <= X86_PIECES && !x->rep && !x->crosses && !x->n) return i;
        } else if (pl_rv_watched(b, i) && b->addrs[i] == PL_NOT_RUN) {
            return i;
        }
    }
    return b->n;
}

/* b's executions from instruction `from` on did not run: their accesses go. */
static void pl_unrun(pl_block *b, uint32_t from)
{
    uint32_t i;
    for (i = from; i < b->n; i++) {
        if (st.is_x86) b->xacc[i].n = 0;
        else b->addrs[i] = PL_NOT_RUN;
    }
}

static void pl_strays_flush(void);

/* x86-64: an access QEMU made outside the program's instructions (it
   writes a signal's frame with helpers that report to the last
   instruction that used one): a write of the kernel's, as untraced code's
   is, after the block being fed (pl_flush_pending). */
static void pl_stray(int store, uint64_t vaddr, uint64_t size)
{
    uint32_t k = st.sig.nstray;
    st.sig.strays++;
    if (!store) return;
    if (k && vaddr <= st.sig.stray[k - 1][0] + st.sig.stray[k - 1][1] && vaddr + size >= st.sig.stray[k - 1][0]) {
        uint64_t lo = st.sig.stray[k - 1][0] < vaddr ? st.sig.stray[k - 1][0] : vaddr;
        uint64_t end = st.sig.stray[k - 1][0] + st.sig.stray[k - 1][1];
        if (vaddr + size > end) end = vaddr + size;
        st.sig.stray[k - 1][0] = lo;
        st.sig.stray[k - 1][1] = end - lo;
        return;
    }
    if (k == PL_STRAYS) {       /* kills now, the order among them is of no matter */
        pl_strays_flush();
        k = 0;
    }
    st.sig.stray[k][0] = vaddr;
    st.sig.stray[k][1] = size;
    st.sig.nstray = k + 1;
}

/* x86-64, a signal delivered after block b ran its first n instructions:
   accesses beyond what an instruction makes are the signal frame's that
   QEMU handed to it (pl_stray). */
static void pl_trim(pl_block *b, uint32_t n)
{
    uint32_t i, k;
    for (i = 0; i < n; i++) {
        x86_exec *x = &b->xacc[i];
        if (!x->np || x->np > X86_PIECES || x->rep || x->n <= x->np) continue;
        for (k = x->np; k < x->n; k++) pl_stray(x->a[k].kind == EDAN_MEM_STORE, x->a[k].addr, x->a[k].size);
        x->n = x->np;
    }
}

/* The writes QEMU made outside the program's instructions since the last
   block: lost writers, as untraced code's. */
static void pl_strays_flush(void)
{
    uint32_t k;
    for (k = 0; k < st.sig.nstray; k++) pl_kill_mem(st.sig.stray[k][0], st.sig.stray[k][1]);
    st.sig.nstray = 0;
}

/* The instructions of the pending block b that ran, when the next block,
   at pc, may be a signal handler's start: all, but for a fault's signal
   (those before the faulting one); x86-64 accesses past what an
   instruction makes go (QEMU's signal frame writes). Out of the hot path. */
static PL_NOINLINE uint32_t pl_ran_before(pl_block *b, uint64_t pc)
{
    uint32_t n = b->n;
    if (!pl_is_handler(pc) || flow_reaches(&st.thr.cur->flow, pc)) return n;
    if (st.sig.sync && (n = pl_ran(b)) < b->n) {
        flow_xfer at;       /* its last instruction did not run: the faulting one is where it resumes */
        memset(&at, 0, sizeof at);
        at.pc = at.next = b->s[n].in.pc;
        flow_end(&st.thr.cur->flow, &at);
        st.sig.cut++;
    }
    if (st.is_x86) pl_trim(b, n);
    return n;
}

/* The executions of a loop's block are handed to the analysis several
   at a time: edan_feed_block_n runs them through a copy of the block
   unrolled, whose fixed costs are paid once for them all. The stash holds
   the executions of one block since the last one of any other, at most
   PL_STASH; each of them is older than anything not yet fed, so that it
   is fed first (this, at every other way into the analysis). 128: a
   run's first groups, whose shadow words no earlier group asked for, are
   fewer of them (x86-64 gemm 400 0.93x the time of 32's, RISC-V 0.99x). */
#define PL_STASH 128

/* count executions of b's compiled form blk, the analysis stopped at the
   instruction it refuses (x86-64's blocks run their vertices). */
static void pl_feed_runs(pl_block *b, edan_block *blk, const uint64_t *addrs, size_t count)
{
    size_t fed = 0;
    uint32_t k;
    const edan_result r = edan_feed_block_n(st.out.ctx, blk, addrs, count, &fed);
    if (r == EDAN_OK) return;
    k = (uint32_t)(fed % (st.is_x86 ? b->nu : b->n));
    pl_refused(&b->s[st.is_x86 ? bintrace_insn_of(b->ufirst, 0, b->n, k) : k], r);
}

void pl_stash_flush(void)
{
    pl_block *b = st.run.stash;
    size_t count = st.run.nstash;
    if (!b) return;
    st.run.stash = NULL;
    st.run.nstash = 0;
    pl_feed_runs(b, st.is_x86 ? b->uprep.blk : b->prep.blk, st.run.stash_addrs, count);
}

void pl_stash_free(void)
{
    free(st.run.stash_addrs);
    st.run.stash_addrs = NULL;
    st.run.stash_cap = 0;
}

/* The stash's next row, for an execution of n addresses (not counted
   until pl_stash_count). */
static inline uint64_t *pl_stash_row(uint32_t n) { return st.run.stash_addrs + (size_t)st.run.nstash * n; }
static inline void pl_stash_count(void)
{
    if (++st.run.nstash == PL_STASH) pl_stash_flush();
}

/* An execution of b, its addresses addrs[0 .. n), into the stash. */
static inline void pl_stash_put(const pl_block *b, const uint64_t *addrs, uint32_t n)
{
    uint64_t *to = pl_stash_row(n);
    const uint32_t *memi = b->memi, nm = b->nmemi;
    uint32_t j;
    for (j = 0; j < nm; j++) to[memi[j]] = addrs[memi[j]];
    pl_stash_count();
}

/* An execution of b fed whole, its addresses addrs[0 .. n) (one per
   instruction of its compiled form), into the stash. */
static PL_NOINLINE void pl_stash_new(pl_block *b, edan_block *blk, const uint64_t *addrs, uint32_t n)
{
    uint32_t i;
    pl_stash_flush();
    if (!b->memi && (b->memi = (uint32_t *)malloc((n + 1) * sizeof *b->memi)) != NULL)    /* once a block */
        for (i = 0; i < n; i++)
            if ((st.is_x86 ? b->u[i].in.mem : b->s[i].in.mem) != EDAN_MEM_NONE) b->memi[b->nmemi++] = i;
    if (b->memi && st.run.stash_cap < (size_t)PL_STASH * n) {
        uint64_t *a = (uint64_t *)realloc(st.run.stash_addrs, (size_t)PL_STASH * n * sizeof *a);
        if (a) {
            st.run.stash_addrs = a;
            st.run.stash_cap = (size_t)PL_STASH * n;
        }
    }
    if (!b->memi || st.run.stash_cap < (size_t)PL_STASH * n) {     /* out of memory: fed alone */
        pl_feed_runs(b, blk, addrs, 1);
        return;
    }
    st.run.stash = b;
    pl_stash_put(b, addrs, n);
}
static inline void pl_stash(pl_block *b, edan_block *blk, const uint64_t *addrs, uint32_t n)
{
    if (st.run.stash == b) pl_stash_put(b, addrs, n);
    else pl_stash_new(b, blk, addrs, n);
}

/* RISC-V: an execution of b fed whole through its compiled form. */
static int pl_rv_whole(pl_block *b)
{
    pl_stash(b, b->prep.blk, b->addrs, b->n);
    return 1;
}

/* x86-64: an execution of b whose accesses are exactly its vertices'
   (x86_exec_exact, their addresses into b->uaddrs), fed whole through b's
   compiled form; 0 when one is not (b is then fed as pl_emit_x86 does).
   When the stash holds b's executions and nothing waits before them, the
   addresses go straight into its next row (a row not counted until the
   execution is found exact: one copy of them, not two). */
static int pl_x86_whole(pl_block *b)
{
    const int into_stash = st.run.stash == b && !st.x86.chunk.nu;
    if (!pl_x86_exact_whole(b, into_stash ? pl_stash_row(b->nu) : b->uaddrs)) return 0;
    if (into_stash) {
        pl_stash_count();
    } else {
        if (st.x86.chunk.nu) pl_chunk_flush();      /* the vertices fed one by one before it */
        pl_stash(b, b->uprep.blk, b->uaddrs, b->nu);
    }
    st.x86.flops += b->flops_all;
    return 1;
}

/* The pending block b is fed whole, through its compiled form: every
   instruction in the scope and known, no signal or kill in between, its
   thread selected. */
static inline int pl_feeds_whole(const pl_block *b)
{
    return b->whole && !(st.sig.nat | st.sig.sync | st.kill.pending | st.sig.nstray) && st.thr.cur->selected;
}

/* b's n instructions fed: counted, the progress shown when due. */
static inline void pl_count_fed(const pl_block *b)
{
    st.run.fed += b->n;
    if (st.run.fed >= st.out.next_check) pl_progress();
}

/* The pending block ran (pl_ran_before), then what QEMU wrote outside the
   program's instructions. */
static PL_NOINLINE void pl_flush_pending(uint64_t pc)
{
    pl_block *b = st.run.pending;
    uint32_t n;
    if (b) {
        st.run.pending = NULL;
        /* the common case, without the layers below: its compiled form fed whole */
        if (pl_feeds_whole(b) && (st.is_x86 ? pl_x86_whole(b) : pl_rv_whole(b))) {
            pl_count_fed(b);
            return;
        }
        n = st.sig.nat ? pl_ran_before(b, pc) : b->n;
        pl_flush_n(b, n);
        if (n < b->n) pl_unrun(b, n);
        else if (st.sig.sync && !st.is_x86) pl_unrun(b, 0);     /* RISC-V: the next execution says what ran */
        /* every instruction in the scope, each one known, no trace written: whole from now on */
        b->whole = b->all_static && !b->has_unknown && !st.out.text_f && !st.out.bin_f && st.out.ctx &&
                   (st.is_x86 ? b->uprep.owner == st.out.ctx && b->uprep.blk : b->prep.owner == st.out.ctx && b->prep.blk);
    }
    if (st.sig.nstray) pl_strays_flush();
}

/* A handler starts: the interrupted code's writers saved (what its
   untraced code wrote first), then the registers the kernel sets for the
   handler lose theirs: x86-64 rdi, rsi, rdx (the signal, siginfo,
   ucontext), rax, rsp, RFLAGS; RISC-V a0, a1, a2, sp, ra. */
static void pl_signal_enter(void)
{
    static const edan_reg x86_set[] = {EDAN_X86_GPR(7), EDAN_X86_GPR(6), EDAN_X86_GPR(2), EDAN_X86_GPR(0),
                                       EDAN_X86_GPR(4), EDAN_X86_RFLAGS};
    static const edan_reg rv_set[] = {10, 11, 12, 2, 1};
    size_t k;
    pl_kill_flush();
    pl_thread_record(BINTRACE_SIGNAL, 0, 0);
    if (st.is_x86)
        for (k = 0; k < sizeof x86_set / sizeof x86_set[0]; k++) pl_kill_reg(x86_set[k]);
    else
        for (k = 0; k < sizeof rv_set / sizeof rv_set[0]; k++) pl_kill_reg(rv_set[k]);
    st.sig.delivered++;
}

/* The thread's rt_sigreturn: its registers as the handler's delivery
   found them; a sigreturn whose delivery was not seen leaves them without
   writers. */
static void pl_signal_return(void)
{
    pl_drain_holder();
    if (flow_sigreturn(&st.thr.cur->flow)) {
        pl_thread_record(BINTRACE_SIGRETURN, 0, 0);
    } else {
        st.sig.unseen++;
        pl_kill_all_regs();
    }
}

/* Where pc is, for telling a non-local exit from a jump: the function of
   its object (symbols, unwind tables: cli_fnmap, opened when first asked),
   remembered by pc. */
pthread_mutex_t pl_objs_mu = PTHREAD_MUTEX_INITIALIZER;     /* the objects, which translation adds */

pl_placed pl_places[PL_PLACES];     /* where pcs are (pl_place), remembered */

void pl_place(void *user, uint64_t pc, flow_place *out)
{
    size_t h = (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 54) % PL_PLACES;
    long i;
    (void)user;
    pthread_mutex_lock(&pl_objs_mu);
    if (pc && pl_places[h].pc == pc) {
        *out = pl_places[h].p;
        pthread_mutex_unlock(&pl_objs_mu);
        return;
    }
    memset(out, 0, sizeof *out);
    if ((i = pl_object_find(pc)) >= 0 && st.syms.objs[i].path) {
        cli_fnmap *m = st.syms.fnmaps[i];
        if (!m) m = st.syms.fnmaps[i] = cli_fnmap_open(st.syms.objs[i].path);
        if (m) {
            uint64_t fn;
            cli_fnmap_place(m, pc - st.syms.objs[i].bias, &fn, &out->entry, &out->plt);
            if (fn) out->fn = fn + st.syms.objs[i].bias;
        }
    }
    pl_places[h].pc = pc;
    pl_places[h].p = *out;
    pthread_mutex_unlock(&pl_objs_mu);
}

/* A block of the thread holding the analysis starts at pc (its last
   instruction moves control as end): control lands there from the last
   (a scope may end, handlers left by a non-local exit are dropped), or a
   signal handler starts. */
static void pl_flow_block(uint64_t pc, const flow_xfer *end)
{
    flow_thread *F = &st.thr.cur->flow;
    flow_event ev;
    if (!F->track && !st.sig.nat) return;      /* no frames to follow, no handler to recognise: nothing to do */
    flow_block(F, pc, st.sig.nat && pl_is_handler(pc), pl_place, NULL, &ev);
    st.sig.report.nonlocal += (uint64_t)ev.nonlocal;
    if (ev.unplaced) {      /* the first one, the first in a scope before it */
        if ((ev.in_scope && !st.sig.report.unplaced_in_scope) || !st.sig.report.unplaced) {
            st.sig.report.unplaced_from = ev.from;
            st.sig.report.unplaced_to = pc;
        }
        st.sig.report.unplaced++;
        st.sig.report.unplaced_in_scope += (uint64_t)ev.in_scope;
    }
    for (; ev.dropped; ev.dropped--) {
        pl_kill_flush();
        pl_thread_record(BINTRACE_SIGDROP, 0, 0);
        st.sig.left++;
    }
    if (ev.signal) pl_signal_enter();
    flow_end(F, end);
}

/* The program asks for signal sig's handler to be the one in the
   sigaction at act (rt_sigaction, on entry; it takes effect when the call
   succeeds: pl_vcpu_syscall_ret). */
static __thread struct { int set; unsigned sig; uint64_t handler; } pl_sigaction;
static void pl_sigaction_call(uint64_t sig, uint64_t act)
{
    uint64_t h = 0;
    pl_sigaction.set = act && sig <= 64 && pl_guest_read(act, &h, sizeof h) == 0;
    pl_sigaction.sig = (unsigned)sig;
    pl_sigaction.handler = h;
}

/* ---------------------------------------------------------------------- */
/* QEMU callbacks                                                         */
/* ---------------------------------------------------------------------- */
/* A fork of the program is a fork of QEMU, plugin state and all: the child
   must neither analyse nor write (its copies of the outputs' descriptors
   go to /dev/null, its callbacks return at once, its exit writes
   nothing); the parent counts it for the notes. */
void pl_forked_parent(void) { st.run.forks++; }
void pl_forked_child(void)
{
    int null = open("/dev/null", O_WRONLY), k;
    FILE *fs[2];
    fs[0] = st.out.text_f;
    fs[1] = st.out.bin_f;
    for (k = 0; k < 2; k++)
        if (fs[k] && null >= 0) dup2(null, fileno(fs[k]));
    if (null >= 0) close(null);
    st.run.child = 1;
}

/* The start of a block: the previous block of this thread ran. */
static void pl_look(void);

void pl_vcpu_tb_exec(unsigned int vcpu, void *udata)
{
    pl_block *b = (pl_block *)udata;
    if (st.run.child) return;
    if (!pl_enter(vcpu)) {
        if (pl_ending == 2)     /* a window ends (--sample): counted as run between windows */
            __atomic_add_fetch(&pl_samp.off_count, b->nscope, __ATOMIC_RELAXED);
        return;
    }
    if (st.run.pending == st.run.stash && st.run.pending && !st.is_x86 && pl_feeds_whole(st.run.pending)) {
        /* RISC-V, a loop's next execution of the block the stash holds:
           pl_flush_pending's common case inline, without its call */
        pl_block *p = st.run.pending;
        st.run.pending = NULL;
        pl_rv_whole(p);
        pl_count_fed(p);
    } else if (st.run.pending || st.sig.nstray) {
        pl_flush_pending(b->s[0].in.pc);
    }
    if (st.sig.nat || st.thr.cur->flow.track) pl_flow_block(b->s[0].in.pc, &b->end);
    if (st.args.max_insns && st.run.fed >= st.args.max_insns) pl_look();
    st.run.pending = b;
}

/* Memory callbacks come from the thread that holds the analysis but while a
   fork or the exit is under way. */
void pl_vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)info;
    if (pl_owner != (int)vcpu) return;
    *(uint64_t *)udata = vaddr;
}

/* x86-64: one access of an instruction's execution, appended to its list. */
void pl_vcpu_mem_x86(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    x86_exec *x = (x86_exec *)udata;
    edan_access *a;
    x86_seen *seen;
    if (pl_owner != (int)vcpu) return;
    if (x->owner != st.run.pending) {
        pl_stray(qemu_plugin_mem_is_store(info), vaddr, (uint64_t)1 << qemu_plugin_mem_size_shift(info));
        return;
    }
    if (x->n == x->cap) {       /* a signal frame's writes, handed to this instruction, or QEMU's quirk */
        if (st.sig.nat) pl_stray(qemu_plugin_mem_is_store(info), vaddr, (uint64_t)1 << qemu_plugin_mem_size_shift(info));
        else st.x86.xacc_overflow++;
        return;
    }
    a = &x->a[x->n];
    seen = x->n < X86_EXEC_INLINE ? &x->seen[x->n] : NULL;
    x->n++;
    a->addr = vaddr;
    if (seen && seen->size && seen->info == (uint32_t)info) {
        a->size = seen->size;       /* as the last execution's: two calls into QEMU saved */
        a->kind = seen->kind;
        return;
    }
    a->size = 1u << qemu_plugin_mem_size_shift(info);
    a->kind = qemu_plugin_mem_is_store(info) ? EDAN_MEM_STORE : EDAN_MEM_LOAD;
    if (seen && a->size <= 255) {
        seen->info = (uint32_t)info;
        seen->size = (uint8_t)a->size;
        seen->kind = (uint8_t)a->kind;
    }
}

/* x86-64: a store outside the scope (a load there makes no callback's work). */
void pl_vcpu_mem_untraced_x86(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)udata;
    if (pl_owner != (int)vcpu || !qemu_plugin_mem_is_store(info)) return;
    pl_kill_mem(vaddr, (uint64_t)1 << qemu_plugin_mem_size_shift(info));
}

/* Block u outside --func scoping runs, the thread just out of the scope
   (st.run.pending, the scope's block before) or called out of it: counted
   from a call or a jump (a tail call) out of the scope until that call
   returns, callbacks into the scope on the way excepted (the frames made
   since counted in out_depth). */
static PL_NOINLINE void pl_out_count(pl_ublock *u)
{
    pl_thr *t = st.thr.cur;
    if (st.run.pending) {
        int k = st.run.pending->end.kind;
        if (!t->out) {
            t->out = k == FLOW_CALL || k == FLOW_JUMP;
            t->out_depth = 0;
        } else if (k == FLOW_CALL) {        /* a callback called out: a frame more */
            t->out_depth++;
        } else if (k == FLOW_RET) {         /* a callback returned (else: the scope, to its caller) */
            if (t->out_depth) t->out_depth--;
            else t->out = 0;
        }
    }
    if (!t->out) return;
    u->out_insns += u->ninsns;
    if (u->end.kind == FLOW_CALL) t->out_depth++;
    else if (u->end.kind == FLOW_RET && t->out_depth-- == 0) t->out = 0;
}

/* A block outside --func scoping: the previous (traced) block ran before
   it; then the registers it writes lose their writers. */
void pl_vcpu_tb_untraced(unsigned int vcpu, void *udata)
{
    pl_ublock *u = (pl_ublock *)udata;
    uint32_t i;
    if (st.run.child || !pl_enter(vcpu)) return;
    if (st.run.pending || st.thr.cur->out) pl_out_count(u);
    if (st.run.pending || st.sig.nstray) pl_flush_pending(u->node.pc);     /* the hot path checks inline */
    if (st.sig.nat || st.thr.cur->flow.track) pl_flow_block(u->node.pc, &u->end);
    for (i = 0; i < u->nregs; i++) pl_kill_reg(u->regs[i]);
}

/* A store of such a block: udata is its access size. */
void pl_vcpu_mem_untraced(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)info;
    if (pl_owner != (int)vcpu) return;
    pl_kill_mem(vaddr, (uint64_t)(uintptr_t)udata);
}

/* ---------------------------------------------------------------------- */
/* Ending early                                                           */
/* ---------------------------------------------------------------------- */
/* The run ends before the program does, in the thread holding the
   analysis: what was analysed is reported, marked partial (why: the
   reason; kind: 1 stopped, 2 a limit, 3 a crash), the traces are written
   as far as they go. */
static void pl_end(int kind, const char *fmt, ...)
{
    va_list ap;
    pl_write_file("ending", "1\n");       /* edan trace waits for the report from now on */
    st.run.partial = kind;
    va_start(ap, fmt);
    vsnprintf(st.run.partial_why, sizeof st.run.partial_why, fmt, ap);
    va_end(ap);
    pl_finish();
    st.run.child = 1;       /* every callback returns at once from now on */
}

/* edan trace asked the run to end (it got a signal): the file stop_path,
   holding the signal's number. */
static int pl_stop_asked(int *sig)
{
    char buf[32] = "";
    int fd = open(st.run.stop_path, O_RDONLY);
    ssize_t n;
    uint32_t num;
    if (fd < 0) return 0;
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = 0;
    buf[strcspn(buf, "\n")] = 0;      /* "15\n" */
    *sig = opt_u32(buf, 0, INT_MAX, &num) ? 0 : (int)num;
    return 1;
}

/* At each block once --max-insns is reached: the run ends there. The
   caller holds the analysis, between two blocks (none pending). */
static void pl_look(void)
{
    if (st.args.max_insns && st.run.fed >= st.args.max_insns) {
        pl_end(2, "stopped after %llu instructions (--max-insns %llu)", (unsigned long long)st.run.fed,
               (unsigned long long)st.args.max_insns);
        _exit(0);
    }
}

/* This thread (not the holder: a thread that got a fatal signal, or the
   watcher) takes the analysis to end the run: every vCPU lets go at its
   next block (pl_enter), the holder after feeding what it ran. 0 when the
   holder does not within 2 s (stopped inside QEMU), or another thread
   ends the run already (pl_ender). */
static int pl_ender;     /* a thread took the analysis to end the run (under pl_mu) */
static int pl_take_for_end(void)
{
    struct timespec ts;
    int waited = 0;
    pthread_mutex_lock(&pl_mu);
    pl_ending = 1;
    if (pl_ender) {
        pthread_mutex_unlock(&pl_mu);
        return 0;
    }
    while (pl_owner >= 0 && waited < 20) {
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100000000L;
        if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
        if (pthread_cond_timedwait(&pl_cv, &pl_mu, &ts) == ETIMEDOUT) waited++;
    }
    if (pl_owner >= 0) {
        pthread_mutex_unlock(&pl_mu);
        return 0;
    }
    pl_owner = PL_MAX_VCPUS;        /* no vCPU's: the memory callbacks write nothing */
    pl_ender = 1;
    pthread_mutex_unlock(&pl_mu);
    pl_held = pl_gen + 1;
    return 1;
}

/* A thread of the plugin's own: every 0.1 s it looks for a stop request
   of edan trace and for --max-seconds, and ends the run, whatever the
   program does (runs, waits in a system call, ignores the signal). Every
   signal is blocked in it: QEMU's handlers run on the program's threads. */
void *pl_watch(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec nap = {0, 100000000L};
        double now;
        int sig, kind = 0;
        nanosleep(&nap, NULL);
        if (st.run.child) return NULL;
        now = cli_now();
        if (pl_stop_asked(&sig)) kind = 1;
        else if (st.args.max_seconds > 0 && now - st.out.progress.t_start >= st.args.max_seconds) kind = 2;
        if (!kind) continue;
        /* the holder stands still (QEMU stopped it, or the host gives it
           no time): asked again at the next look, never given up */
        if (!pl_take_for_end()) {
            if (__atomic_load_n(&pl_ender, __ATOMIC_ACQUIRE)) return NULL;     /* a fatal signal's thread ends it */
            continue;
        }
        if (st.run.child) _exit(0);     /* ended meanwhile (an exec, a fatal signal) */
        if (kind == 1) pl_end(1, "stopped by signal %d (%s) to edan trace", sig, sig > 0 ? strsignal(sig) : "?");
        else pl_end(2, "stopped after %.1f s (--max-seconds %g)", now - st.out.progress.t_start, st.args.max_seconds);
        _exit(0);
    }
}

/* QEMU ends the program at a signal it does not handle (SIGINT, SIGTERM,
   a crash): it sends its process that signal, which edan-preload.so hands
   here first, in the thread that got the signal, between two blocks. The
   report of what was analysed is written; a crash's last block, cut short
   by the fault, is left out. */
void pl_on_fatal_signal(int sig)
{
    int crash = sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP ||
                sig == SIGSYS || sig == SIGABRT;
    if (st.run.child) return;
    if (!PL_HOLDS()) {
        if (!pl_take_for_end()) {
            /* the watcher ends the run (a stop request): QEMU's end of the
               process waits for its report, which ends the process */
            if (__atomic_load_n(&pl_ender, __ATOMIC_ACQUIRE))
                for (;;) pause();
            return;
        }
    } else if (crash) {
        st.run.pending = NULL;      /* its block was cut short by the fault */
    }
    pl_end(crash ? 3 : 1, crash ? "the program crashed: signal %d (%s)" : "the program was killed by signal %d (%s)",
           sig, strsignal(sig));
}

/* System calls that make, end or copy threads, by ISA. */
enum { PL_SYS_OTHER, PL_SYS_EXIT, PL_SYS_EXIT_GROUP, PL_SYS_CLONE, PL_SYS_FORK, PL_SYS_EXEC };
static int pl_syscall_kind(int64_t num, uint64_t a1)
{
    /* CLONE_VM: a thread, not a process; but with CLONE_VFORK (posix_spawn,
       system) QEMU makes a process of it */
    const uint64_t clone_vm = 0x100, clone_vfork = 0x4000;
    if (a1 & clone_vfork) a1 &= ~clone_vm;
    if (st.is_x86) {
        switch (num) {
        case 60: return PL_SYS_EXIT;
        case 231: return PL_SYS_EXIT_GROUP;
        case 56: return a1 & clone_vm ? PL_SYS_CLONE : PL_SYS_FORK;
        case 57: case 58: return PL_SYS_FORK;
        case 59: case 322: return PL_SYS_EXEC;
        }
    } else {
        switch (num) {
        case 93: return PL_SYS_EXIT;
        case 94: return PL_SYS_EXIT_GROUP;
        case 220: return a1 & clone_vm ? PL_SYS_CLONE : PL_SYS_FORK;
        case 221: case 281: return PL_SYS_EXEC;
        }
    }
    /* clone3 passes its flags in memory, out of a plugin's reach: taken
       for a thread (the C library makes threads with it, processes with
       clone). QEMU 7.2 answers ENOSYS and the C library falls back to
       clone. */
    if (num == 435) return PL_SYS_CLONE;
    return PL_SYS_OTHER;
}

/* An exec that cannot succeed (its program missing or not executable):
   the program goes on, and so does the analysis. The path is read from
   the program's memory (pl_guest_read's); when it cannot be, and for
   paths relative to a directory descriptor, the exec is taken to
   succeed. */
static int pl_exec_can_succeed(int64_t num, uint64_t a1, uint64_t a2)
{
    int at = (st.is_x86 && num == 322) || (!st.is_x86 && num == 281);    /* execveat(dirfd, path, ...) */
    uint64_t addr = at ? a2 : a1;
    char path[4097];
    ssize_t n;
    if (st.run.mem_fd < 0 || (at && (int64_t)a1 != -100 /* AT_FDCWD */)) return 1;
    n = pread(st.run.mem_fd, path, sizeof path - 1, (off_t)(addr + st.run.guest_base));    /* up to a page's end */
    if (n <= 0) return 1;
    path[n] = 0;
    if (strlen(path) == (size_t)n) return 1;    /* no end within a page: cannot tell */
    return access(path, X_OK) == 0;
}

/* A system call: the thread gives up the analysis (it may block in it,
   waiting for another thread) but through a clone, whose new thread
   pl_vcpu_init makes; an exit ends the thread; a fork or exit_group lets
   every waiting thread go. */
void pl_vcpu_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1, uint64_t a2,
                            uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
    int kind = pl_syscall_kind(num, a1);
    (void)id; (void)a3; (void)a4; (void)a5; (void)a6; (void)a7; (void)a8;
    if (st.run.child) return;
    if (num == (st.is_x86 ? PL_SYS_SIGACTION_X86 : PL_SYS_SIGACTION_RV)) pl_sigaction_call(a1, a2);
    if (num == (st.is_x86 ? PL_SYS_SIGRETURN_X86 : PL_SYS_SIGRETURN_RV)) return;    /* at its return (below) */
    if (kind == PL_SYS_EXEC && !pl_exec_can_succeed(num, a1, a2)) kind = PL_SYS_OTHER;    /* it fails: no exec */
    if (kind == PL_SYS_EXEC) {
        /* QEMU replaces itself with the new program (which runs untraced):
           the analysis ends here (an exec that fails all the same is said
           in the notes) */
        if (!pl_acquire(vcpu)) return;
        pl_drain_holder();
        pthread_mutex_lock(&pl_mu);
        pl_draining++;
        pl_exiting = 1;
        pthread_cond_broadcast(&pl_cv);
        pthread_mutex_unlock(&pl_mu);
        st.run.execed = 1;
        pl_finish();
        st.run.child = 1;       /* every callback returns at once from now on */
        pthread_mutex_lock(&pl_mu);
        pl_owner = -1;      /* nor do the memory callbacks of the blocks kept */
        pthread_mutex_unlock(&pl_mu);
        pl_held = 0;
        return;
    }
    pl_clone_caller = kind == PL_SYS_CLONE ? (int)vcpu : -1;
    if (kind != PL_SYS_OTHER && pl_acquire(vcpu)) {
        pl_drain_holder();
        if (kind == PL_SYS_CLONE) {
            pl_cloning = 1;     /* held through the call, for pl_vcpu_init: released at its return */
            return;
        } else if (kind == PL_SYS_EXIT) {
            pl_thread_record(2, st.thr.cur_tid, 0);
            st.thr.cur_tid = UINT32_MAX;
        }
    }
    if (kind == PL_SYS_FORK || kind == PL_SYS_EXIT_GROUP) {
        pl_release();
        pl_forking = kind == PL_SYS_FORK;
        pthread_mutex_lock(&pl_mu);
        pl_draining++;      /* exit_group: for good */
        if (kind == PL_SYS_EXIT_GROUP) pl_exiting = 1;
        pthread_cond_broadcast(&pl_cv);
        pthread_mutex_unlock(&pl_mu);
        return;
    }
    pl_release();
}

void pl_vcpu_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, int64_t ret)
{
    (void)id;
    /* A sigreturn returns here unless a signal came meanwhile: QEMU then
       answers -512 (its ERESTARTSYS), runs that signal's handler and makes
       the sigreturn again. Taken at its entry, the handler's registers
       went back twice, the second time unseen. */
    if (num == (st.is_x86 ? PL_SYS_SIGRETURN_X86 : PL_SYS_SIGRETURN_RV) && !st.run.child && ret != -512) {
        if (pl_samp.active && !pl_samp.on) return;     /* between windows: the handler ran unanalysed */
        if (pl_acquire(vcpu)) pl_signal_return();
        pl_release();
        return;
    }
    if (st.run.execed == 1 && pl_syscall_kind(num, 0) == PL_SYS_EXEC) {
        /* the exec failed after all: the analysis had ended at it */
        st.run.execed = 2;
        pl_note(st.out.notes, sizeof st.out.notes, "warning: the program's exec failed (%lld) after the analysis had ended at "
                "it; what the program ran after it was not analysed\n", (long long)ret);
        pl_write_file("notes", st.out.notes);
    }
    if (st.run.child) return;
    if (pl_sigaction.set) {     /* a handler set (under the analysis, which every block's start reads) */
        pl_sigaction.set = 0;
        if (ret == 0) {
            int held = pl_acquire(vcpu);
            pl_signal_set(pl_sigaction.sig, pl_sigaction.handler);
            if (held) pl_release();
        }
    }
    if (pl_forking) {
        pl_forking = 0;
        pthread_mutex_lock(&pl_mu);
        if (pl_draining) pl_draining--;
        pthread_mutex_unlock(&pl_mu);
    }
    (void)vcpu;
    if (pl_cloning) {
        pl_cloning = 0;
        pl_release();
    }
}
