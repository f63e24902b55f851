/* tools/x86.h - the x86-64 front-end: raw instruction bytes, decoded with
   Zydis, as the model's vertex (edan.h's "Instructions with several
   accesses" and its x86-64 register values): an edan_insn with the
   registers it reads and writes (EDAN_X86_* ids) and its class, and the
   memory accesses it makes, in order, for the tracer to match against the
   ones it observes.

   Registers: a write of a 32- or 64-bit general register is a plain write
   (the upper half is zeroed), of 8 or 16 bits a merge (a read too); RFLAGS
   is read by an instruction that tests a status flag and written by one
   that changes one; a legacy SSE write of a vector register merges, a VEX
   or EVEX one zeroes the rest (a plain write) unless it merges under a
   mask; k0 as a write mask is no mask; the x87 stack, its control, status
   and tag words and the MMX registers are one value, every write to it a
   merge. Base and index registers of a memory operand are read. rip,
   segment registers, MXCSR and other system registers are constants.
   Memory: an operand that reads then writes (a read-modify-write, xchg,
   cmpxchg) is a load then a store of its bytes; push, pop, call and ret
   their implicit stack accesses; a string instruction's accesses are one
   iteration's (QEMU executes a rep prefix one iteration at a time); a
   gather or scatter (VSIB) makes up to `count` element accesses, as its
   mask allows. */
#ifndef EDAN_X86_H
#define EDAN_X86_H
#include <stddef.h>
#include <stdint.h>
#include "edan.h"

#define X86_MAX_ACCESSES 4      /* memory operands of one instruction, in order */

typedef struct x86_access {
    uint8_t kind;               /* EDAN_MEM_LOAD or EDAN_MEM_STORE */
    uint16_t size;              /* bytes of one access */
    uint16_t count;             /* accesses of that size: 1, or a gather's/scatter's elements */
    uint8_t masked;             /* count is at most (the mask decides) */
    uint8_t split;              /* more than EDAN_MAX_ACCESS bytes (fxsave's 512): they arrive as
                                   several smaller accesses */
} x86_access;

typedef struct x86_decoded {
    edan_insn in;               /* op: the Zydis mnemonic; mem, addr and size unset */
    uint32_t nacc;
    x86_access acc[X86_MAX_ACCESSES];
    uint32_t flops;             /* floating-point operations (an FMA is 2) of one execution */
    int state;                  /* saves or restores the register state (fxsave, xsave, xrstor ...):
                                   the registers it reads or writes are not in `in` */
    int rep;                    /* a string instruction with a rep prefix: one vertex for all its
                                   iterations (QEMU executes it once per iteration, and once more) */
} x86_decoded;

/* Decodes the instruction at bytes[0 .. avail) (at pc). EDAN_OK, or
   EDAN_ERR_UNKNOWN_OP with the reason in why (an encoding Zydis does not
   know, too many registers for an edan_insn, ...). */
edan_result x86_decode(const uint8_t *bytes, size_t avail, uint64_t pc, x86_decoded *out, char *why, size_t whylen);
/* 1 when d makes at most one access of at most 8 bytes (QEMU hands such
   an access over whole), is no rep and saves no state: then d->in.mem and
   d->in.size are set to it, as a RISC-V instruction's (traces record one
   address per execution of such an instruction); else 0. */
int x86_single_access(x86_decoded *d);
/* The instruction at bytes[0 .. avail) in Intel syntax, as Zydis formats
   it ("add qword ptr [rdi], rax"); 0, or -1 when it does not decode. */
int x86_format(const uint8_t *bytes, size_t avail, uint64_t pc, char *buf, size_t n);
/* The mnemonic of an op id ("add", "vfmadd231pd"), or NULL. */
const char *x86_op_name(uint32_t op);
/* The name of a register id ("rax", "rflags", "zmm3", "k1", "x87"), or NULL. */
const char *x86_reg_name(edan_reg r);
#endif
