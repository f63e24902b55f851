/* tools/trace/flow.h - a traced thread's control flow as the tracer follows it
   (tools/trace/plugin_signals.c): its calls and returns, the signal handlers that
   interrupt it and the non-local exits (longjmp, a C++ exception) that
   leave frames behind. From this the tracer knows where a --region or
   --exclude scope ends (when control returns below the frame it began in,
   by any path), recognises a signal's delivery (a handler's first block
   that no instruction of the thread could have reached) and gives the
   interrupted code its state back at the handler's sigreturn.

   The tracer sees instructions and memory accesses, not registers, so the
   frames are followed by their return addresses: a call pushes one, a
   return that goes to the top one pops it. Any other arrival (a return
   elsewhere, an indirect jump into the middle of another function) is a
   non-local exit; it lands in the frame whose return address it is, or
   else the newest frame whose caller's function holds the landing address
   (longjmp returns to where setjmp was called, an exception to a landing
   pad of a frame below). Functions come from the caller (flow_where_fn:
   the objects' symbols and unwind tables).

   No QEMU and no analysis here: tests/unit/test_flow.c checks it alone. */
#ifndef EDAN_FLOW_H
#define EDAN_FLOW_H
#include <stddef.h>
#include <stdint.h>

/* How an instruction moves control. */
typedef enum flow_kind {
    FLOW_NEXT = 0,          /* to the next instruction (or not a transfer) */
    FLOW_BRANCH,            /* conditional: to target or the next */
    FLOW_JUMP,
    FLOW_CALL,
    FLOW_RET,
    FLOW_SYSCALL
} flow_kind;

typedef struct flow_xfer {
    uint8_t kind;           /* flow_kind */
    uint8_t indirect;       /* a jump or call through a register or memory (target unknown) */
    uint64_t pc;            /* the instruction's address */
    uint64_t target;        /* a direct branch's, jump's or call's target */
    uint64_t next;          /* the address after it: the fall-through, a call's return address */
} flow_xfer;

/* The transfer of the RISC-V instruction bytes[0 .. len) at pc (a jal or
   jalr that writes ra or t0 is a call; a jalr through ra or t0 that writes
   nothing a return). */
void flow_rv_decode(const uint8_t *bytes, size_t len, uint64_t pc, flow_xfer *out);

/* Where an address is. */
typedef struct flow_place {
    uint64_t fn;            /* its function (an id: the function's address, also for its .cold part), 0: unknown */
    int entry;              /* the address is a function's (or a part's) first instruction */
    int plt;                /* in a procedure linkage table: a jump there is a call's way */
} flow_place;
typedef void (*flow_where_fn)(void *user, uint64_t pc, flow_place *out);

/* Scopes that end with their frame. */
enum { FLOW_REGION = 0, FLOW_EXCLUDE = 1, FLOW_SCOPES = 2 };

#define FLOW_MAX_FRAMES 65536       /* frames followed: a deeper recursion's oldest are forgotten */
#define FLOW_MAX_SIGNALS 64         /* handlers running at once: as EDAN_MAX_SIGNAL_DEPTH */

typedef struct flow_frame {
    uint64_t ret;           /* the return address */
    int handler;            /* a signal handler's: any return pops it */
} flow_frame;

/* A thread's state at a signal's delivery, given back at its sigreturn. */
typedef struct flow_saved {
    uint64_t depth;
    flow_xfer pend;
    int pend_set;
    int on[FLOW_SCOPES];
    uint64_t at[FLOW_SCOPES];
} flow_saved;

typedef struct flow_thread {
    int track;              /* frames followed (a --region or --exclude scope); else only the
                               transfers and the signals */
    flow_frame *f;          /* frame i (lo <= i < depth) at f[i % cap] */
    uint64_t depth, lo;     /* frames on the stack; below lo: forgotten */
    uint32_t cap;
    flow_xfer pend;         /* how control left the last instruction run */
    int pend_set;
    int on[FLOW_SCOPES];    /* the region, the exclusion: running ... */
    uint64_t at[FLOW_SCOPES];   /* ... while depth >= at */
    flow_saved *sig;        /* the handlers running: the state each interrupted, oldest first */
    uint32_t nsig;
    int oom;                /* a frame or a signal could not be kept: out of memory */
} flow_thread;

/* What flow_block found. */
typedef struct flow_event {
    int signal;             /* a signal handler starts here: the thread's state was saved */
    uint32_t dropped;       /* handlers a non-local exit left (their saved states forgotten) */
    int nonlocal;           /* a non-local exit landed here: the frames it left went */
    int unplaced;           /* control came here in a way no frame explains (nothing changed) ... */
    int in_scope;           /* ... while a region or an exclusion ran: where it ends may be wrong */
    uint64_t from;          /* ... from the instruction there */
} flow_event;

void flow_init(flow_thread *t, int track);
void flow_free(flow_thread *t);
/* The instruction the thread ran last moved control as x (NULL: unknown,
   as after an instruction cut short by a fault). */
void flow_end(flow_thread *t, const flow_xfer *x);
/* 1 when the thread's last instruction could have sent control to pc: it
   ran on to it, or branched, jumped or called there directly (a jump or
   call through a pointer is taken to have gone elsewhere). */
int flow_reaches(const flow_thread *t, uint64_t pc);
/* The thread's next block starts at pc; handler: pc is a signal handler's
   first instruction. A handler's start that no instruction of the thread
   could have reached is a signal's delivery: the state is saved (ev->signal)
   and a handler's frame pushed. Otherwise the last transfer lands at pc:
   a call pushes its frame, a return pops one, a non-local exit pops those
   it left. Then every scope whose frame is gone ends. */
void flow_block(flow_thread *t, uint64_t pc, int handler, flow_where_fn where, void *user, flow_event *ev);
/* Scope s starts here, in the current frame (nothing when it runs). */
void flow_scope_enter(flow_thread *t, int s);
/* The running handler's sigreturn: the state its delivery saved is the
   thread's again. 0 when no delivery was seen (the state stays). */
int flow_sigreturn(flow_thread *t);
#endif
