/* tools/front/x86.h - the x86-64 front-end: raw instruction bytes, decoded with
   Zydis, cracked into the vertices of the model (edan-model, "x86-64:
   instructions cracked into loads, operations and stores"):
     - a load vertex per memory operand read: its sources are the registers
       that form the address (and a gather's index vector and mask), its
       target the loaded value (a temporary, EDAN_X86_TEMP(k));
     - an operation vertex when the instruction computes: its sources are
       the registers it reads as data and its loads' values, its targets
       the registers and RFLAGS it writes (and, for its stores, a
       temporary); a pure move has none: a plain load writes its register
       from the load vertex, a plain store takes the register's writer; the
       stack pointer of push, pop, call and ret, the pointers of a string
       instruction are updated by an operation that does not wait for the
       memory;
     - a store vertex per memory operand written: its sources are the
       address registers and the vertex that produced the value.
   Order: loads, the operation, stores (leave, which is mov rsp, rbp; pop
   rbp, updates rsp from the old rbp first).

   Registers: a write of a 32- or 64-bit general register is a plain write
   (the upper half is zeroed), of 8 or 16 bits a merge (a read too); a
   conditional write (cmov, merge-masking) is a merge; RFLAGS is read by an
   instruction that tests a status flag and written by one that changes
   one; a vector write that replaces bits 127:0 (any packed or 128-bit
   write, every VEX or EVEX write) is a plain write, a legacy SSE write of
   fewer bits (sqrtsd xmm, xmm; cvtsi2sd; movss xmm, xmm; movlpd) merges;
   the zeroing idioms (xor eax, eax; pxor xmm0, xmm0; vpcmpeqd: all ones,
   ...) read nothing; vzeroupper writes nothing, vzeroall every vector
   register (four operation vertices of four registers each); k0 as a
   write mask is no mask; the x87 stack, its control, status and tag words
   and the MMX registers are one value, every write to it a merge. rip
   (a branch target too), segment registers, MXCSR and other system
   registers are constants.
   Memory: a string instruction's accesses are one iteration's (QEMU
   executes a rep prefix one iteration at a time: each iteration is an
   instruction); a gather or scatter (VSIB) is one load or store vertex of
   up to `count` element accesses, as its mask allows. */
#ifndef EDAN_X86_H
#define EDAN_X86_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "edan.h"
#include "bintrace.h"
#include "../trace/flow.h"

#define X86_MAX_ACCESSES 4      /* memory operands of one instruction, in order */
#define X86_MAX_UOPS BINTRACE_MAX_UOPS

/* The role of a vertex an instruction is cracked into, kept in its op id:
   op = mnemonic + role * X86_OP_ROLE (x86_op_name strips it). */
enum { X86_UOP_OP = 0, X86_UOP_LOAD = 1, X86_UOP_STORE = 2 };
#define X86_OP_ROLE 4096u

typedef struct x86_access {
    uint8_t kind;               /* EDAN_MEM_LOAD or EDAN_MEM_STORE */
    uint16_t size;              /* bytes of one access */
    uint16_t count;             /* accesses of that size: 1, or a gather's/scatter's elements */
    uint8_t masked;             /* count is at most (the mask decides) */
    uint8_t split;              /* more than EDAN_MAX_ACCESS bytes (fxsave's 512): they arrive as
                                   several smaller accesses */
} x86_access;

typedef struct x86_decoded {
    edan_insn in;               /* the instruction as a whole: op (the Zydis mnemonic), class, pc,
                                   length; mem and size set by x86_single_access */
    uint32_t nacc;
    x86_access acc[X86_MAX_ACCESSES];   /* its memory operands, loads first */
    uint32_t nuop;
    bintrace_uop uop[X86_MAX_UOPS];     /* its vertices, in order */
    uint32_t flops;             /* floating-point operations (an FMA is 2) of one execution */
    int state;                  /* saves or restores the register state (fxsave, xsave, xrstor ...):
                                   its vertices carry its accesses and none of the registers */
    int rep;                    /* a string instruction with a rep prefix: each execution is one
                                   iteration (or none, at QEMU's last look at rcx) */
    flow_xfer xfer;             /* how it moves control (a call, jump, branch, return, syscall) */
} x86_decoded;

/* Decodes and cracks the instruction at bytes[0 .. avail) (at pc).
   EDAN_OK, or EDAN_ERR_UNKNOWN_OP with the reason in why (an encoding
   Zydis does not know, too many registers for a vertex, ...). */
edan_result x86_decode(const uint8_t *bytes, size_t avail, uint64_t pc, x86_decoded *out, char *why, size_t whylen);
/* 1 when d makes at most one access of at most 8 bytes, is no rep and
   saves no state: then d->in.mem and d->in.size are set to it (a binary
   trace records such an instruction's address in its EXEC records); else
   0. */
int x86_single_access(x86_decoded *d);
/* The instruction at bytes[0 .. avail) in Intel syntax, as Zydis formats
   it ("add qword ptr [rdi], rax"); 0, or -1 when it does not decode. */
int x86_format(const uint8_t *bytes, size_t avail, uint64_t pc, char *buf, size_t n);
/* The mnemonic of an op id ("add", "vfmadd231pd"; the role stripped), or NULL. */
const char *x86_op_name(uint32_t op);
/* The role of a vertex by its op id: "load", "store", or "" for the operation. */
const char *x86_op_role(uint32_t op);
/* The name of a register id ("rax", "rflags", "zmm3", "k1", "x87", "t0"), or NULL. */
const char *x86_reg_name(edan_reg r);

/* The x86-64 text trace (README.md, "x86-64 text traces"), its writer
   (the plugin) and its reader (edan analyze) in one place: a line per
   execution, "0x<pc> <bytes> | <Intel syntax> | <accesses>", an access
   "L<size>@0x<address>" or "S<size>@0x<address>", 64 to a line and the
   rest on continuation lines "+ <accesses>". */
#define X86_TEXT_ACCESSES_PER_LINE 64
/* "0x<pc> <bytes> | <Intel syntax>", the line up to its accesses; malloc'd. */
char *x86_text_start(uint64_t pc, const uint8_t *raw, unsigned len);
/* " | <accesses>", continuation lines included, and the newline. */
void x86_text_write_accesses(FILE *f, const edan_access *a, size_t n);
/* 1 when the first instruction line of head[0 .. n) is one of this format. */
int x86_text_is(const char *head, size_t n);
/* An instruction line [p, e): its pc and bytes (at most 15), *accesses at
   the text after its second "|". 0, or -1 with *why. */
int x86_text_parse_start(const char *p, const char *e, uint64_t *pc, uint8_t *bytes, unsigned *nb,
                         const char **accesses, const char **why);
/* The access at *p (to e), *p moved past it: 1, or 0 at the end of the
   line, or -1 with *why. */
int x86_text_next_access(const char **p, const char *e, edan_access *out, const char **why);

/* An x86-64 program's executions as the QEMU plugin (tools/trace/plugin_out.c) sees
   them, and what it counts of them. */
/* 1 when r is a temporary of one instruction's vertices (never live
   across instructions: nothing to kill). */
static inline int x86_reg_is_temp(edan_reg r) { return r >= EDAN_X86_TEMP(0) && r <= EDAN_X86_TEMP(3); }

/* The memory accesses one execution of an instruction made, in order, as
   QEMU reports them, and the pieces QEMU hands over when the execution
   makes exactly its vertices' accesses (an access of more than 8 bytes in
   pieces of 8): checked piece by piece, an exact execution's addresses go
   straight to its vertices (x86_exec_exact). */
#define X86_PIECES 8
#define X86_PIECE_CONT 0xffff   /* a piece that goes on the one before */
#define X86_EXEC_INLINE 4       /* accesses kept in the record itself */
typedef struct x86_seen { uint32_t info; uint8_t size, kind; } x86_seen;
typedef struct x86_exec {
    uint32_t n, cap;
    edan_access *a;         /* inline_a, or a buffer of cap */
    uint8_t np;             /* the pieces of an exact execution; more than cap: none is exact */
    uint8_t rep;            /* a rep string instruction: each execution is an iteration (or none) */
    uint8_t check;          /* its vertices say what it loads and stores (not a state save) */
    uint8_t crosses;        /* crosses a page boundary: QEMU 7.2 reports none of its accesses */
    uint32_t want_load, want_store;     /* bytes it loads and stores */
    const void *owner;      /* the tracer's block it belongs to: an access QEMU reports for it while another
                               block runs is none of its own (QEMU 7.2 hands signal frames' writes to the
                               last instruction that made an access through a helper) */
    struct { uint8_t kind, size; uint16_t uop; } piece[X86_PIECES];    /* uop: the block's vertex, or
                                                                          X86_PIECE_CONT */
    edan_access inline_a[X86_EXEC_INLINE];
    /* the plugin's: what QEMU's memory information for the first accesses
       of an execution said last (its size and kind; size 0: nothing yet),
       so that an access like the last one's asks QEMU nothing */
    x86_seen seen[X86_EXEC_INLINE];
} x86_exec;

/* What a run counts, for its notes, and its scratch space. */
typedef struct x86_run {
    uint64_t flops;         /* flops of the analysed instructions */
    uint64_t xacc_overflow; /* executions with more accesses than their instruction can make */
    uint64_t state_insns;   /* translated instructions that save or restore the register state */
    uint64_t acc_mismatch;  /* executions whose accesses were not their decoding's */
    uint64_t cross_missing; /* executions of page-crossing instructions without their accesses */
    uint64_t overread;      /* executions whose loads QEMU widened, clipped to the operand */
    char acc_mismatch_first[200];
    edan_access *scratch;   /* an execution's accesses assigned to its vertices */
    size_t scratch_cap;
    bintrace_chunk chunk;   /* a rep movs or stos gathering into 8-byte chunks */
} x86_run;

/* x of the instruction d (decoded), whose vertices are the block's from
   first_uop on: what it loads and stores and the pieces of an exact
   execution; returns the room its accesses need. */
uint32_t x86_exec_prepare(x86_exec *x, const x86_decoded *d, uint32_t first_uop);
/* 1 when execution x made exactly the pieces of its vertices' accesses;
   their addresses are then in uaddrs. */
static inline int x86_exec_exact(uint64_t *uaddrs, const x86_exec *x)
{
    uint32_t k;
    if (x->n != x->np || x->np > X86_PIECES) return 0;
    for (k = 0; k < x->n; k++) {
        const edan_access *a = &x->a[k];
        if (a->kind != x->piece[k].kind || a->size != x->piece[k].size) return 0;
        if (x->piece[k].uop != X86_PIECE_CONT) uaddrs[x->piece[k].uop] = a->addr;
        else if (a->addr != a[-1].addr + a[-1].size) return 0;
    }
    return 1;
}
/* Execution x of instruction in made what the instruction does (QEMU
   7.2's quirks undone; run counts the clipped loads). */
void x86_exec_fixup(x86_exec *x, const edan_insn *in, x86_run *run);
/* An execution x of instruction in whose accesses were not what its
   vertices make: counted, the first kept for the notes. */
void x86_exec_mismatch(x86_run *run, const edan_insn *in, const x86_exec *x);
/* 1 when execution x of s goes into a binary trace's EXEC record (an
   instruction of at most one access of up to 8 bytes, and that access),
   else 0 (a VERTEX record, with its accesses). */
int x86_exec_execable(const bintrace_sinsn *s, const x86_exec *x);
/* The run's warnings and notes, appended to notes[0 .. cap). */
void x86_run_notes(const x86_run *run, char *notes, size_t cap);
#endif
