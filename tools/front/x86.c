/* tools/front/x86.c - the x86-64 front-end (tools/front/x86.h): Zydis decodes, this
   maps its operands onto the model's values and accesses and cracks the
   instruction into its load, operation and store vertices; the text trace;
   the accesses of an execution as the QEMU plugin sees them. */
#include "x86.h"
#include <Zydis/Zydis.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The status flags: RFLAGS is read by an instruction that tests one of
   them and written by one that changes one (not DF, IF, ...: control). */
#define X86_STATUS_FLAGS (ZYDIS_CPUFLAG_CF | ZYDIS_CPUFLAG_PF | ZYDIS_CPUFLAG_AF | ZYDIS_CPUFLAG_ZF | \
                          ZYDIS_CPUFLAG_SF | ZYDIS_CPUFLAG_OF)

#define X86_TEMP_STORE EDAN_X86_TEMP(3)     /* the operation's value that its stores write */

/* The model's value of a Zydis register (0: a constant); *narrow: a write
   of it keeps the rest of its value (a merge). */
static edan_reg x86_value(ZydisRegister r, int *narrow)
{
    ZydisRegisterClass c = ZydisRegisterGetClass(r);
    *narrow = 0;
    switch (c) {
    case ZYDIS_REGCLASS_GPR8:
    case ZYDIS_REGCLASS_GPR16:
        *narrow = 1; /* fall through */
    case ZYDIS_REGCLASS_GPR32:
    case ZYDIS_REGCLASS_GPR64:
        return EDAN_X86_GPR(ZydisRegisterGetId(ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r)));
    case ZYDIS_REGCLASS_XMM:
    case ZYDIS_REGCLASS_YMM:
    case ZYDIS_REGCLASS_ZMM:
        return EDAN_X86_VEC(ZydisRegisterGetId(r));
    case ZYDIS_REGCLASS_MASK:
        return EDAN_X86_MASK(ZydisRegisterGetId(r));
    case ZYDIS_REGCLASS_X87:
    case ZYDIS_REGCLASS_MMX:
        *narrow = 1;
        return EDAN_X86_X87;
    default:
        if (r == ZYDIS_REGISTER_X87CONTROL || r == ZYDIS_REGISTER_X87STATUS || r == ZYDIS_REGISTER_X87TAG) {
            *narrow = 1;
            return EDAN_X86_X87;
        }
        return 0;       /* rip, segments, flags (from cpu_flags), MXCSR, system registers: constants */
    }
}

/* How ins (at pc) moves control: a call, jump, conditional branch,
   return or system call, direct (a relative target) or indirect. */
static void x86_transfer(const ZydisDecodedInstruction *ins, const ZydisDecodedOperand *op, uint64_t pc, flow_xfer *x)
{
    ZyanU64 target;
    memset(x, 0, sizeof *x);
    x->pc = pc;
    x->next = pc + ins->length;
    switch (ins->meta.category) {
    case ZYDIS_CATEGORY_CALL: x->kind = FLOW_CALL; break;
    case ZYDIS_CATEGORY_UNCOND_BR: x->kind = FLOW_JUMP; break;
    case ZYDIS_CATEGORY_COND_BR: x->kind = FLOW_BRANCH; break;
    case ZYDIS_CATEGORY_RET: x->kind = FLOW_RET; x->indirect = 1; return;
    case ZYDIS_CATEGORY_SYSCALL: x->kind = FLOW_SYSCALL; return;
    default: return;
    }
    if (ins->operand_count_visible > 0 && op[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op[0].imm.is_relative &&
        ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(ins, &op[0], pc, &target)))
        x->target = target;
    else
        x->indirect = 1;
}

/* A small set of register ids. */
#define X86_SET_MAX 24
typedef struct x86_set { edan_reg r[X86_SET_MAX]; uint32_t n; } x86_set;

static int x86_has_reg(const x86_set *s, edan_reg r)
{
    uint32_t i;
    for (i = 0; i < s->n; i++)
        if (s->r[i] == r) return 1;
    return 0;
}

static void x86_put(x86_set *s, edan_reg r)
{
    if (r && !x86_has_reg(s, r) && s->n < X86_SET_MAX) s->r[s->n++] = r;
}

/* a minus b, and a and b */
static x86_set x86_minus(const x86_set *a, const x86_set *b)
{
    x86_set o;
    uint32_t i;
    o.n = 0;
    for (i = 0; i < a->n; i++)
        if (!x86_has_reg(b, a->r[i])) o.r[o.n++] = a->r[i];
    return o;
}

static x86_set x86_and(const x86_set *a, const x86_set *b)
{
    x86_set o;
    uint32_t i;
    o.n = 0;
    for (i = 0; i < a->n; i++)
        if (x86_has_reg(b, a->r[i])) o.r[o.n++] = a->r[i];
    return o;
}

static int x86_has(const char *s, const char *part) { return strstr(s, part) != NULL; }

static int x86_in(const char *m, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(m, *list)) return 1;
    return 0;
}

/* Pure moves (edan-model: a plain load writes its register from the load
   vertex, a plain store takes the register's writer). movsd here is also
   the SSE move: the string one has no explicit operand and is told by its
   category. */
static const char *const x86_moves[] = {
    "mov", "movzx", "movsx", "movsxd", "movss", "movsd", "movaps", "movapd", "movups", "movupd", "movdqa", "movdqu",
    "movd", "movq", "lddqu", "movntdqa", "movnti", "movntps", "movntpd", "movntdq", "movntq", "movddup", "movhps",
    "movhpd", "movlps", "movlpd", "vmovss", "vmovsd", "vmovaps", "vmovapd", "vmovups", "vmovupd", "vmovdqa",
    "vmovdqa32", "vmovdqa64", "vmovdqu", "vmovdqu8", "vmovdqu16", "vmovdqu32", "vmovdqu64", "vmovd", "vmovq",
    "vmovntdqa", "vmovntps", "vmovntpd", "vmovntdq", "vlddqu", "vmovddup", "vmovhps", "vmovhpd", "vmovlps",
    "vmovlpd", "vextractf128", "vextracti128", "vextractf32x4", "vextractf64x2", "vextractf32x8", "vextractf64x4",
    "vextracti32x4", "vextracti64x2", "vextracti32x8", "vextracti64x4", NULL};

/* Zeroing idioms: of a register with itself, no sources (pcmpeq: all ones). */
static int x86_zero_idiom(const char *m)
{
    static const char *const exact[] = {"xor", "sub", "xorps", "xorpd", "vxorps", "vxorpd", NULL};
    static const char *const prefix[] = {"pxor", "vpxor", "psub", "vpsub", "pcmpgt", "vpcmpgt", "pcmpeq", "vpcmpeq",
                                         NULL};
    const char *const *p;
    if (x86_in(m, exact)) return 1;
    for (p = prefix; *p; p++)
        if (!strncmp(m, *p, strlen(*p))) return 1;
    return 0;
}
static uint8_t x86_class(const ZydisDecodedInstruction *ins, const char *m, int fp, uint32_t elems, uint32_t *flops)
{
    *flops = 0;
    switch (ins->meta.category) {
    case ZYDIS_CATEGORY_COND_BR: return EDAN_CLASS_BRANCH;
    case ZYDIS_CATEGORY_UNCOND_BR:
    case ZYDIS_CATEGORY_CALL:
    case ZYDIS_CATEGORY_RET: return EDAN_CLASS_JUMP;
    case ZYDIS_CATEGORY_NOP: return EDAN_CLASS_OTHER;
    default: break;
    }
    if (fp) {
        if (x86_has(m, "fmadd") || x86_has(m, "fmsub") || x86_has(m, "fnmadd") || x86_has(m, "fnmsub")) {
            *flops = 2 * elems;
            return EDAN_CLASS_FP_FMA;
        }
        if (x86_has(m, "div") || x86_has(m, "sqrt")) { *flops = elems; return EDAN_CLASS_FP_DIV; }
        if (x86_has(m, "mul")) { *flops = elems; return EDAN_CLASS_FP_MUL; }
        if (x86_has(m, "add") || x86_has(m, "sub") || x86_has(m, "min") || x86_has(m, "max")) {
            *flops = elems;
            return EDAN_CLASS_FP_ADD;
        }
        if (x86_has(m, "cmp") || x86_has(m, "comi")) return EDAN_CLASS_FP_ADD;
        if (x86_has(m, "cvt")) return EDAN_CLASS_FP_CVT;
        return EDAN_CLASS_INT_ALU;      /* moves, shuffles, blends, logic of FP data */
    }
    if (!strcmp(m, "mul") || !strcmp(m, "imul") || !strcmp(m, "mulx")) return EDAN_CLASS_INT_MUL;
    if (!strcmp(m, "div") || !strcmp(m, "idiv")) return EDAN_CLASS_INT_DIV;
    return EDAN_CLASS_INT_ALU;
}

/* A memory operand: its address registers and the accesses it makes. */
typedef struct x86_memop {
    x86_set addr;
    int load, store;
    uint16_t size, count;
    uint8_t masked;
    uint8_t flags;      /* its vertices' EDAN_INSN_STACK (a stack slot), EDAN_INSN_LOCKED (a locked load) */
} x86_memop;

/* An instruction being decoded, stage by stage: Zydis's view of it, then
   the registers it reads and writes and its memory operands
   (x86_operands, x86_implicit), its accesses (x86_accesses), its
   vertices (x86_crack). */
typedef struct x86_parse {
    ZydisDecodedInstruction ins;
    ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
    const char *m;                  /* the mnemonic, for messages and families (fmadd...) */
    x86_set reads, writes, ptr;     /* registers read and written; the pointers (string, stack) among them */
    x86_memop mem[X86_MAX_ACCESSES];
    uint32_t nmem, nload, nstore, elems;
    int fp, hint, string, call, branch, masked;
    uint8_t cls;
    char *why;
    size_t whylen;
} x86_parse;

static void x86_why(char *why, size_t whylen, const char *fmt, const char *m)
{
    if (why && whylen) snprintf(why, whylen, fmt, m);
}

/* A vertex of the instruction being cracked (P): role, class, registers.
   0, or -1 when they do not fit (P->why set). */
static int x86_vertex(x86_decoded *out, int role, uint8_t cls, const x86_set *src, const x86_set *dst,
                      const x86_parse *P)
{
    bintrace_uop *u;
    uint32_t k;
    if (out->nuop >= X86_MAX_UOPS) {
        x86_why(P->why, P->whylen, "%s: more vertices than an instruction is cracked into", P->m);
        return -1;
    }
    if (src->n > EDAN_MAX_SRC || dst->n > EDAN_MAX_DST) {
        if (P->why && P->whylen)
            snprintf(P->why, P->whylen, "%s: more registers than a vertex holds (%d read, %d written)", P->m,
                     EDAN_MAX_SRC, EDAN_MAX_DST);
        return -1;
    }
    u = &out->uop[out->nuop++];
    memset(u, 0, sizeof *u);
    u->in.pc = out->in.pc;
    u->in.flags = EDAN_INSN_HAS_PC;
    u->in.length = out->in.length;
    u->in.op = out->in.op + (uint32_t)role * X86_OP_ROLE;
    u->in.cls = cls;
    for (k = 0; k < src->n; k++) u->in.src[u->in.nsrc++] = src->r[k];
    for (k = 0; k < dst->n; k++) u->in.dst[u->in.ndst++] = dst->r[k];
    return 0;
}

/* A load or store vertex of memory operand mo. */
static int x86_mem_vertex(x86_decoded *out, const x86_memop *mo, int kind, const x86_set *src, const x86_set *dst,
                          const x86_parse *P)
{
    bintrace_uop *u;
    if (x86_vertex(out, kind == EDAN_MEM_LOAD ? X86_UOP_LOAD : X86_UOP_STORE,
                   kind == EDAN_MEM_LOAD ? EDAN_CLASS_LOAD : EDAN_CLASS_STORE, src, dst, P))
        return -1;
    u = &out->uop[out->nuop - 1];
    u->in.mem = (uint8_t)kind;
    u->in.flags |= (uint8_t)(mo->flags & (kind == EDAN_MEM_LOAD ? EDAN_INSN_STACK | EDAN_INSN_LOCKED : EDAN_INSN_STACK));
    u->bytes = (uint32_t)mo->size * mo->count;
    u->exact = mo->count == 1 && !mo->masked && mo->size <= EDAN_MAX_ACCESS;
    u->at_most = mo->masked;
    if (out->state) {       /* a state save's size depends on the state enabled: whatever it makes */
        u->bytes = UINT32_MAX;
        u->exact = 0;
        u->at_most = 1;
    }
    u->in.size = (uint16_t)(mo->size <= EDAN_MAX_ACCESS ? mo->size : EDAN_MAX_ACCESS);
    return 0;
}

/* A register operand into the reads and writes. */
static void x86_reg_operand(x86_parse *P, const ZydisDecodedOperand *o)
{
    int narrow = 0;
    edan_reg r;
    if (ZydisRegisterGetClass(o->reg.value) == ZYDIS_REGCLASS_FLAGS) return;     /* cpu_flags says */
    if (o->reg.value == ZYDIS_REGISTER_K0 && o->encoding == ZYDIS_OPERAND_ENCODING_MASK)
        return;         /* k0 as a write mask: no mask */
    if (!(r = x86_value(o->reg.value, &narrow))) return;
    /* a call's target goes to rip: nothing waits for it */
    if (P->call && o->visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT) return;
    if (o->actions & ZYDIS_OPERAND_ACTION_MASK_READ) x86_put(&P->reads, r);
    if (o->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) {
        /* a write that keeps part of the value merges: 8 and 16 bits of a general
           register, a conditional write (cmov, merge-masking), a legacy SSE write of
           fewer than 128 bits (sqrtsd xmm, xmm; cvtsi2sd; movlpd), the x87 stack */
        int partial = P->ins.encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY &&
                      ZydisRegisterGetClass(o->reg.value) == ZYDIS_REGCLASS_XMM && o->size < 128;
        x86_put(&P->writes, r);
        if (narrow || partial || (o->actions & ZYDIS_OPERAND_ACTION_CONDWRITE)) x86_put(&P->reads, r);
    }
}

/* A gather's or scatter's memory operand (VSIB): one element per index
   (dword or qword indices), as many as the data vector holds; the mask (a
   k register, or AVX2's vector operand) decides which. */
static void x86_vsib(x86_parse *P, uint32_t i, x86_memop *mo)
{
    const ZydisDecodedOperand *o = &P->op[i];
    int narrow = 0;
    unsigned ib = (unsigned)ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, o->mem.index);
    unsigned ie = x86_has(P->m, "gatherd") || x86_has(P->m, "scatterd") ? 32 : 64, data = 0, j;
    for (j = 0; j < P->ins.operand_count; j++) {
        const ZydisDecodedOperand *v = &P->op[j];
        if (v->type == ZYDIS_OPERAND_TYPE_REGISTER && v->visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT &&
            ZydisRegisterGetClass(v->reg.value) >= ZYDIS_REGCLASS_XMM &&
            ZydisRegisterGetClass(v->reg.value) <= ZYDIS_REGCLASS_ZMM && o->element_size) {
            if (j > i && P->ins.encoding == ZYDIS_INSTRUCTION_ENCODING_VEX)
                x86_put(&mo->addr, x86_value(v->reg.value, &narrow));      /* AVX2's mask */
            else if (!data)
                data = (unsigned)ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, v->reg.value) / o->element_size;
        }
    }
    if (P->masked) x86_put(&mo->addr, x86_value(P->ins.avx.mask.reg, &narrow));
    mo->count = (uint16_t)(ib / ie);
    if (data && data < mo->count) mo->count = (uint16_t)data;
    mo->masked = 1;
}

/* Operand i, a memory operand: an address (lea, a hint) or a memory
   operand of its own. 0, or -1 with *why. */
static int x86_mem_operand(x86_parse *P, uint32_t i)
{
    const ZydisDecodedOperand *o = &P->op[i];
    int narrow = 0;
    edan_reg b = x86_value(o->mem.base, &narrow), x = x86_value(o->mem.index, &narrow);
    x86_memop *mo;
    if (P->hint || (o->mem.type != ZYDIS_MEMOP_TYPE_MEM && o->mem.type != ZYDIS_MEMOP_TYPE_VSIB)) {
        x86_put(&P->reads, b);      /* lea: the address is the data */
        x86_put(&P->reads, x);
        return 0;
    }
    if (P->nmem == X86_MAX_ACCESSES) {
        if (P->why && P->whylen) snprintf(P->why, P->whylen, "%s: more than %d memory operands", P->m, X86_MAX_ACCESSES);
        return -1;
    }
    mo = &P->mem[P->nmem++];
    memset(mo, 0, sizeof *mo);
    x86_put(&mo->addr, b);
    x86_put(&mo->addr, x);
    mo->load = (o->actions & ZYDIS_OPERAND_ACTION_MASK_READ) != 0;
    mo->store = (o->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) != 0;
    mo->size = (uint16_t)(o->mem.type == ZYDIS_MEMOP_TYPE_VSIB ? o->element_size / 8 : o->size / 8);
    mo->count = 1;
    mo->masked = (uint8_t)P->masked;
    /* a stack slot: rsp plus a constant (push, pop, call and ret too); a locked
       read-modify-write (lock, xchg with memory): store-to-load forwarding */
    if (o->mem.base == ZYDIS_REGISTER_RSP && o->mem.index == ZYDIS_REGISTER_NONE && o->mem.type == ZYDIS_MEMOP_TYPE_MEM)
        mo->flags |= EDAN_INSN_STACK;
    if ((P->ins.attributes & ZYDIS_ATTRIB_HAS_LOCK) || P->ins.mnemonic == ZYDIS_MNEMONIC_XCHG)
        mo->flags |= EDAN_INSN_LOCKED;
    if (o->mem.type == ZYDIS_MEMOP_TYPE_VSIB) x86_vsib(P, i, mo);
    if (mo->size == 0) {
        x86_why(P->why, P->whylen, "%s: a memory operand of no bytes", P->m);
        return -1;
    }
    return 0;
}

/* The explicit and implicit operands Zydis lists: registers, memory
   operands, floating-point elements. 0, or -1 with *why. */
static int x86_operands(x86_parse *P)
{
    uint32_t i;
    const ZydisInstructionCategory cat = P->ins.meta.category;
    /* a prefetch or cache-line flush computes an address and moves no data */
    P->hint = cat == ZYDIS_CATEGORY_PREFETCH || cat == ZYDIS_CATEGORY_PREFETCHWT1 ||
              cat == ZYDIS_CATEGORY_CLFLUSHOPT || cat == ZYDIS_CATEGORY_CLWB || cat == ZYDIS_CATEGORY_CLDEMOTE ||
              P->ins.mnemonic == ZYDIS_MNEMONIC_CLFLUSH;
    P->string = cat == ZYDIS_CATEGORY_STRINGOP;
    P->call = cat == ZYDIS_CATEGORY_CALL;
    P->branch = P->call || cat == ZYDIS_CATEGORY_RET || cat == ZYDIS_CATEGORY_UNCOND_BR;
    P->masked = P->ins.avx.mask.reg != ZYDIS_REGISTER_NONE && P->ins.avx.mask.reg != ZYDIS_REGISTER_K0;
    P->elems = 1;
    for (i = 0; i < P->ins.operand_count; i++) {
        const ZydisDecodedOperand *o = &P->op[i];
        if (o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT16 || o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT32 ||
            o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT64 || o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT80) {
            P->fp = 1;
            if (o->element_count > P->elems) P->elems = o->element_count;
        }
        if (o->type == ZYDIS_OPERAND_TYPE_REGISTER) x86_reg_operand(P, o);
        else if (o->type == ZYDIS_OPERAND_TYPE_MEMORY && x86_mem_operand(P, i)) return -1;
    }
    return 0;
}

/* xor eax, eax; pxor xmm0, xmm0: a register with itself (32 or 64 bits
   of a general one), no memory, reads nothing. */
static int x86_zeroing(const x86_parse *P)
{
    const ZydisDecodedOperand *e[4];
    uint32_t ne = 0, i;
    if (P->nmem || !x86_zero_idiom(P->m) || (P->masked && P->ins.avx.mask.mode == ZYDIS_MASK_MODE_MERGING)) return 0;
    for (i = 0; i < P->ins.operand_count && ne < 4; i++)
        if (P->op[i].visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT && P->op[i].type != ZYDIS_OPERAND_TYPE_IMMEDIATE &&
            P->op[i].encoding != ZYDIS_OPERAND_ENCODING_MASK)
            e[ne++] = &P->op[i];
    if (ne != 2 && ne != 3) return 0;
    return e[ne - 2]->type == ZYDIS_OPERAND_TYPE_REGISTER && e[ne - 1]->type == ZYDIS_OPERAND_TYPE_REGISTER &&
           e[ne - 2]->reg.value == e[ne - 1]->reg.value &&
           ZydisRegisterGetClass(e[ne - 2]->reg.value) != ZYDIS_REGCLASS_GPR8 &&
           ZydisRegisterGetClass(e[ne - 2]->reg.value) != ZYDIS_REGCLASS_GPR16;
}

/* What Zydis leaves out or marks otherwise: the status flags, a string
   instruction's pointers (and rcx under rep), the stack pointer, the
   zeroing idioms, a scalar operation's one element. */
static void x86_implicit(x86_parse *P, x86_decoded *out)
{
    const ZydisInstructionCategory cat = P->ins.meta.category;
    const ZydisMnemonic mn = P->ins.mnemonic;
    uint32_t i;
    size_t ml = strlen(P->m);
    if (P->ins.cpu_flags) {
        if (P->ins.cpu_flags->tested & X86_STATUS_FLAGS) x86_put(&P->reads, EDAN_X86_RFLAGS);
        if ((P->ins.cpu_flags->modified | P->ins.cpu_flags->set_0 | P->ins.cpu_flags->set_1 |
             P->ins.cpu_flags->undefined) & X86_STATUS_FLAGS)
            x86_put(&P->writes, EDAN_X86_RFLAGS);
    }
    if (P->string)          /* it reads and updates its pointers */
        for (i = 0; i < P->nmem; i++) {
            edan_reg p = P->mem[i].addr.n ? P->mem[i].addr.r[0] : 0;
            x86_put(&P->reads, p);
            x86_put(&P->writes, p);
            x86_put(&P->ptr, p);
        }
    if (P->string && (P->ins.attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE | ZYDIS_ATTRIB_HAS_REPNE))) {
        x86_set noflags;
        out->rep = 1;
        x86_put(&P->reads, EDAN_X86_GPR(1));
        x86_put(&P->writes, EDAN_X86_GPR(1));
        x86_put(&P->ptr, EDAN_X86_GPR(1));
        /* repe/repne test ZF to go on: a control dependence, none in the model */
        memset(&noflags, 0, sizeof noflags);
        x86_put(&noflags, EDAN_X86_RFLAGS);
        P->reads = x86_minus(&P->reads, &noflags);
    }
    /* the stack pointer of push, pop, call, ret, enter and leave */
    if (cat == ZYDIS_CATEGORY_PUSH || cat == ZYDIS_CATEGORY_POP || P->call || cat == ZYDIS_CATEGORY_RET ||
        mn == ZYDIS_MNEMONIC_ENTER || mn == ZYDIS_MNEMONIC_LEAVE)
        x86_put(&P->ptr, EDAN_X86_GPR(4));
    if (x86_zeroing(P)) P->reads.n = 0;
    /* a scalar operation (addsd, vfmadd231ss) computes one element whatever its registers hold */
    if (ml > 2 && (!strcmp(P->m + ml - 2, "ss") || !strcmp(P->m + ml - 2, "sd") || !strcmp(P->m + ml - 2, "sh")))
        P->elems = 1;
}

/* The memory operands' accesses in the order an instruction makes them:
   loads, then stores. 0, or -1 with *why. */
static int x86_accesses(x86_parse *P, x86_decoded *out)
{
    x86_access sorted[X86_MAX_ACCESSES];
    uint32_t i, n = 0, k;
    for (i = 0; i < P->nmem; i++) {
        int kind;
        for (kind = 0; kind < 2; kind++) {
            x86_access *a;
            if (!(kind == 0 ? P->mem[i].load : P->mem[i].store)) continue;
            if (out->nacc == X86_MAX_ACCESSES) {
                if (P->why && P->whylen)
                    snprintf(P->why, P->whylen, "%s: more than %d memory accesses", P->m, X86_MAX_ACCESSES);
                return -1;
            }
            a = &out->acc[out->nacc++];
            a->kind = (uint8_t)(kind == 0 ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
            a->size = P->mem[i].size;
            a->count = P->mem[i].count;
            a->masked = P->mem[i].masked;
            a->split = P->mem[i].size > EDAN_MAX_ACCESS;
            if (kind == 0) P->nload++;
            else P->nstore++;
        }
    }
    if (P->nload > 3) {
        x86_why(P->why, P->whylen, "%s: more than 3 memory operands read", P->m);
        return -1;
    }
    for (k = 0; k < out->nacc; k++) if (out->acc[k].kind == EDAN_MEM_LOAD) sorted[n++] = out->acc[k];
    for (k = 0; k < out->nacc; k++) if (out->acc[k].kind == EDAN_MEM_STORE) sorted[n++] = out->acc[k];
    memcpy(out->acc, sorted, n * sizeof *sorted);
    return 0;
}

/* leave: mov rsp, rbp; pop rbp: rsp from the old rbp, then the load into rbp. */
static int x86_crack_leave(x86_parse *P, x86_decoded *out)
{
    x86_set s, d, none;
    s.n = d.n = none.n = 0;
    x86_put(&s, EDAN_X86_GPR(5));
    x86_put(&d, EDAN_X86_GPR(4));
    if (x86_vertex(out, X86_UOP_OP, EDAN_CLASS_INT_ALU, &s, &d, P)) return -1;
    d.n = 0;
    x86_put(&d, EDAN_X86_GPR(5));
    P->mem[0].flags |= EDAN_INSN_STACK;     /* the pop of the rbp that push rbp saved */
    return x86_mem_vertex(out, &P->mem[0], EDAN_MEM_LOAD, &P->mem[0].addr, &d, P);
}

/* An instruction with memory operands cracked: its loads (a plain load
   writes its register itself; a branch's target goes to rip), the
   operation on what they loaded, its stores of the operation's value, of
   a loaded one (push [m], movs), of a register or of a constant. */
static int x86_crack_mem(x86_parse *P, x86_decoded *out)
{
    const char *m = P->m;
    x86_set data_r = x86_minus(&P->reads, &P->ptr), data_w = x86_minus(&P->writes, &P->ptr);
    x86_set ptr_r = x86_and(&P->reads, &P->ptr), ptr_w = x86_and(&P->writes, &P->ptr), ld[X86_MAX_ACCESSES], opsrc,
            opdst, stval, none;
    uint32_t i, k, nl = 0;
    const ZydisInstructionCategory cat = P->ins.meta.category;
    int move = P->string ? (!strncmp(m, "movs", 4) || !strncmp(m, "stos", 4) || !strncmp(m, "lods", 4))
                         : cat == ZYDIS_CATEGORY_PUSH || cat == ZYDIS_CATEGORY_POP || x86_in(m, x86_moves) ||
                               !strncmp(m, "vbroadcast", 10) || !strncmp(m, "vpbroadcast", 11);
    /* cmps, scas, lods: the compare (RFLAGS) or lods' write of rax from the load in one
       operation, the pointers' (and rcx's) update in another that reads only them */
    int str_split = P->string && P->nload && !P->nstore;
    int pure_load = !str_split && move && P->nload == 1 && !P->nstore && !data_r.n && data_w.n;
    int pure_store = move && P->nstore == 1 && !data_w.n && P->nload <= 1;
    if (P->ins.mnemonic == ZYDIS_MNEMONIC_LEAVE) return x86_crack_leave(P, out);
    memset(ld, 0, sizeof ld);
    opsrc = data_r;
    opdst = data_w;
    stval.n = none.n = 0;
    for (i = 0; i < P->nmem; i++) {
        x86_set d;
        if (!P->mem[i].load) continue;
        d.n = 0;
        if (pure_load) d = data_w;
        else if (!P->branch) x86_put(&d, EDAN_X86_TEMP(nl));
        if (x86_mem_vertex(out, &P->mem[i], EDAN_MEM_LOAD, &P->mem[i].addr, &d, P)) return -1;
        ld[nl++] = d;
    }
    if (str_split) {
        for (k = 0; k < nl; k++) x86_put(&opsrc, ld[k].r[0]);
        if (opdst.n && x86_vertex(out, X86_UOP_OP, P->cls, &opsrc, &opdst, P)) return -1;
        opsrc = ptr_r;
        opdst = ptr_w;
    } else if (pure_load) {
        opsrc = ptr_r;
        opdst = ptr_w;
    } else if (pure_store || P->call) {
        /* the stored value: the loaded one (push [m], movs), the register's writer, or a
           constant (an immediate, a call's return address) */
        if (P->nload && !P->call) stval = ld[0];
        else if (!P->call) stval = data_r;
        opsrc = ptr_r;
        opdst = ptr_w;
    } else {
        for (k = 0; k < nl; k++)
            if (ld[k].n) x86_put(&opsrc, ld[k].r[0]);
        for (k = 0; k < ptr_r.n; k++) x86_put(&opsrc, ptr_r.r[k]);
        for (k = 0; k < ptr_w.n; k++) x86_put(&opdst, ptr_w.r[k]);
        if (P->nstore) {
            x86_put(&opdst, X86_TEMP_STORE);
            x86_put(&stval, X86_TEMP_STORE);
        }
    }
    if (opdst.n && x86_vertex(out, X86_UOP_OP, P->cls, &opsrc, &opdst, P)) return -1;
    for (i = 0; i < P->nmem; i++) {
        x86_set s = P->mem[i].addr;
        if (!P->mem[i].store) continue;
        for (k = 0; k < stval.n; k++) x86_put(&s, stval.r[k]);
        if (x86_mem_vertex(out, &P->mem[i], EDAN_MEM_STORE, &s, &none, P)) return -1;
    }
    return 0;
}

/* The instruction's vertices: vzeroupper and vzeroall, a state save or
   restore (its loads, then its stores), an operation alone, or the
   memory operands' crack. 0, or -1 with *why. */
static int x86_crack(x86_parse *P, x86_decoded *out)
{
    x86_set none;
    uint32_t i;
    none.n = 0;
    if (P->ins.mnemonic == ZYDIS_MNEMONIC_VZEROUPPER)
        return x86_vertex(out, X86_UOP_OP, EDAN_CLASS_OTHER, &none, &none, P);
    if (P->ins.mnemonic == ZYDIS_MNEMONIC_VZEROALL) {   /* every vector register, four to a vertex */
        for (i = 0; i < 16; i += 4) {
            x86_set d;
            uint32_t k;
            d.n = 0;
            for (k = i; k < i + 4; k++) x86_put(&d, EDAN_X86_VEC(k));
            if (x86_vertex(out, X86_UOP_OP, EDAN_CLASS_OTHER, &none, &d, P)) return -1;
        }
        return 0;
    }
    if (out->state) {       /* its registers are not listed: its loads, then its stores, each one vertex */
        int k;
        for (k = 0; k < 2; k++)
            for (i = 0; i < P->nmem; i++)
                if ((k == 0 ? P->mem[i].load : P->mem[i].store) &&
                    x86_mem_vertex(out, &P->mem[i], k == 0 ? EDAN_MEM_LOAD : EDAN_MEM_STORE, &P->mem[i].addr, &none, P))
                    return -1;
        return out->nuop ? 0 : x86_vertex(out, X86_UOP_OP, P->cls, &none, &none, P);
    }
    if (!P->nmem) return x86_vertex(out, X86_UOP_OP, P->cls, &P->reads, &P->writes, P);
    return x86_crack_mem(P, out);
}

edan_result x86_decode(const uint8_t *bytes, size_t avail, uint64_t pc, x86_decoded *out, char *why, size_t whylen)
{
    static x86_parse zero;
    x86_parse P = zero;
    ZydisDecoder dec;
    edan_insn *in = &out->in;
    uint32_t flops = 0;
    memset(out, 0, sizeof *out);
    P.why = why;
    P.whylen = whylen;
    if (why && whylen) why[0] = 0;
    if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
        ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, bytes, avail, &P.ins, P.op))) {
        x86_why(why, whylen, "%s", "not a valid x86-64 instruction");
        return EDAN_ERR_UNKNOWN_OP;
    }
    P.m = ZydisMnemonicGetString(P.ins.mnemonic);
    x86_transfer(&P.ins, P.op, pc, &out->xfer);
    out->state = x86_has(P.m, "xsave") || x86_has(P.m, "xrstor") || x86_has(P.m, "fxsave") || x86_has(P.m, "fxrstor");
    in->op = (uint32_t)P.ins.mnemonic;
    in->pc = pc;
    in->flags = EDAN_INSN_HAS_PC;
    in->length = P.ins.length;
    /* a nop of any length (nop word ptr [rax+rax]) reads and writes nothing */
    if (P.ins.meta.category == ZYDIS_CATEGORY_NOP || P.ins.meta.category == ZYDIS_CATEGORY_WIDENOP) {
        in->cls = EDAN_CLASS_OTHER;
        return x86_vertex(out, X86_UOP_OP, EDAN_CLASS_OTHER, &P.reads, &P.writes, &P)
                   ? EDAN_ERR_UNKNOWN_OP : EDAN_OK;
    }
    if (x86_operands(&P)) return EDAN_ERR_UNKNOWN_OP;
    x86_implicit(&P, out);
    P.cls = x86_class(&P.ins, P.m, P.fp, P.elems, &flops);
    out->flops = flops;
    if (x86_accesses(&P, out)) return EDAN_ERR_UNKNOWN_OP;
    in->cls = P.nload && P.nstore ? EDAN_CLASS_AMO : P.nload ? EDAN_CLASS_LOAD : P.nstore ? EDAN_CLASS_STORE : P.cls;
    return x86_crack(&P, out) ? EDAN_ERR_UNKNOWN_OP : EDAN_OK;
}

const char *x86_op_name(uint32_t op)
{
    op %= X86_OP_ROLE;
    return op <= ZYDIS_MNEMONIC_MAX_VALUE ? ZydisMnemonicGetString((ZydisMnemonic)op) : NULL;
}

const char *x86_op_role(uint32_t op)
{
    switch (op / X86_OP_ROLE) {
    case X86_UOP_LOAD: return "load";
    case X86_UOP_STORE: return "store";
    default: return "";
    }
}

const char *x86_reg_name(edan_reg r)
{
    static const char *const gpr[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                        "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    static const char *const vec[32] = {"zmm0",  "zmm1",  "zmm2",  "zmm3",  "zmm4",  "zmm5",  "zmm6",  "zmm7",
                                        "zmm8",  "zmm9",  "zmm10", "zmm11", "zmm12", "zmm13", "zmm14", "zmm15",
                                        "zmm16", "zmm17", "zmm18", "zmm19", "zmm20", "zmm21", "zmm22", "zmm23",
                                        "zmm24", "zmm25", "zmm26", "zmm27", "zmm28", "zmm29", "zmm30", "zmm31"};
    static const char *const mask[8] = {"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"};
    static const char *const temp[4] = {"t0", "t1", "t2", "t3"};
    if (r >= EDAN_X86_GPR(0) && r <= EDAN_X86_GPR(15)) return gpr[r - EDAN_X86_GPR(0)];
    if (r == EDAN_X86_RFLAGS) return "rflags";
    if (r >= EDAN_X86_VEC(0) && r <= EDAN_X86_VEC(31)) return vec[r - EDAN_X86_VEC(0)];
    if (r >= EDAN_X86_MASK(0) && r <= EDAN_X86_MASK(7)) return mask[r - EDAN_X86_MASK(0)];
    if (r == EDAN_X86_X87) return "x87";
    if (r >= EDAN_X86_TEMP(0) && r <= EDAN_X86_TEMP(3)) return temp[r - EDAN_X86_TEMP(0)];
    return NULL;
}

int x86_single_access(x86_decoded *d)
{
    if (d->rep || d->state || d->nacc > 1 ||
        (d->nacc == 1 && (d->acc[0].count != 1 || d->acc[0].masked || d->acc[0].size > 8)))
        return 0;
    if (d->nacc) {
        d->in.mem = d->acc[0].kind;
        d->in.size = d->acc[0].size;
    }
    return 1;
}

int x86_format(const uint8_t *bytes, size_t avail, uint64_t pc, char *buf, size_t n)
{
    ZydisDecoder dec;
    ZydisFormatter fmt;
    ZydisDecodedInstruction ins;
    ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
    if (n) buf[0] = 0;
    if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
        ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, bytes, avail, &ins, op)) ||
        ZYAN_FAILED(ZydisFormatterInit(&fmt, ZYDIS_FORMATTER_STYLE_INTEL)) ||
        ZYAN_FAILED(ZydisFormatterSetProperty(&fmt, ZYDIS_FORMATTER_PROP_FORCE_SIZE, ZYAN_TRUE)) ||
        ZYAN_FAILED(ZydisFormatterFormatInstruction(&fmt, &ins, op, ins.operand_count_visible, buf, n, pc, ZYAN_NULL)))
        return -1;
    return 0;
}

/* ---- the x86-64 text trace ------------------------------------------------ */
char *x86_text_start(uint64_t pc, const uint8_t *raw, unsigned len)
{
    char intel[256], line[400], *out;
    int n = snprintf(line, sizeof line, "0x%llx ", (unsigned long long)pc);
    unsigned k;
    for (k = 0; k < len && k < 15; k++) n += snprintf(line + n, sizeof line - (size_t)n, "%02x", raw[k]);
    if (x86_format(raw, len, pc, intel, sizeof intel) != 0) snprintf(intel, sizeof intel, "(bad)");
    snprintf(line + n, sizeof line - (size_t)n, " | %s", intel);
    out = (char *)malloc(strlen(line) + 1);
    if (out) memcpy(out, line, strlen(line) + 1);
    return out;
}

void x86_text_write_accesses(FILE *f, const edan_access *a, size_t n)
{
    size_t k;
    fputs(" |", f);
    for (k = 0; k < n; k++) {
        if (k && k % X86_TEXT_ACCESSES_PER_LINE == 0) fputs("\n+", f);
        fprintf(f, " %c%u@0x%llx", a[k].kind == EDAN_MEM_LOAD ? 'L' : 'S', a[k].size, (unsigned long long)a[k].addr);
    }
    fputc('\n', f);
}

int x86_text_is(const char *head, size_t n)
{
    const char *p = head, *e = head + n;
    while (p < e && *p == '#') {        /* comment and #edan- lines */
        while (p < e && *p != '\n') p++;
        p++;
    }
    if (e - p >= 2 && p[0] == '+' && p[1] == ' ') return 1;    /* continues an x86-64 line */
    if (e - p < 4 || p[0] != '0' || p[1] != 'x') return 0;
    for (p += 2; p < e && isxdigit((unsigned char)*p); p++) {}
    if (p == e || *p++ != ' ') return 0;
    if (p == e || !isxdigit((unsigned char)*p)) return 0;
    while (p < e && isxdigit((unsigned char)*p)) p++;
    return e - p >= 2 && p[0] == ' ' && p[1] == '|';
}

int x86_text_parse_start(const char *p, const char *e, uint64_t *pc, uint8_t *bytes, unsigned *nb,
                         const char **accesses, const char **why)
{
    char *end;
    const char *bar;
    *nb = 0;
    errno = 0;
    if (e - p < 3 || p[0] != '0' || p[1] != 'x') { *why = "expected 0x<pc> <bytes> | <instruction> | <accesses>"; return -1; }
    *pc = strtoull(p + 2, &end, 16);
    if (errno || end == p + 2 || end >= e || *end != ' ') { *why = "bad pc (expected 0x<pc> <bytes> | ...)"; return -1; }
    for (p = end + 1; p + 1 < e && isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]); p += 2) {
        char hex[3];
        hex[0] = p[0];
        hex[1] = p[1];
        hex[2] = 0;
        if (*nb == 15) { *why = "more than 15 instruction bytes"; return -1; }
        bytes[(*nb)++] = (uint8_t)strtoul(hex, NULL, 16);
    }
    if (!*nb || p + 2 > e || p[0] != ' ' || p[1] != '|') {
        *why = "bad instruction bytes (expected hex digit pairs, then \" |\")";
        return -1;
    }
    bar = (const char *)memchr(p + 2, '|', (size_t)(e - p - 2));
    if (!bar) { *why = "no \"|\" after the instruction's text"; return -1; }
    *accesses = bar + 1;
    return 0;
}

#if EDAN_MAX_ACCESS != 64
#error "the message for a bad access size names 64 bytes"
#endif
int x86_text_next_access(const char **pp, const char *e, edan_access *out, const char **why)
{
    const char *p = *pp;
    char *end;
    unsigned long size;
    unsigned long long addr;
    int kind;
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    *pp = p;
    if (p == e) return 0;
    if (*p != 'L' && *p != 'S') { *why = "bad access (expected L<size>@0x<address> or S<size>@0x<address>)"; return -1; }
    kind = *p++ == 'L' ? EDAN_MEM_LOAD : EDAN_MEM_STORE;
    errno = 0;
    size = strtoul(p, &end, 10);
    if (errno || end == p || size < 1 || size > EDAN_MAX_ACCESS || end + 3 > e || end[0] != '@' || end[1] != '0' ||
        end[2] != 'x') {
        *why = "bad access (expected L<size>@0x<address>, a size of 1 to 64 bytes)";
        return -1;
    }
    p = end + 3;
    addr = strtoull(p, &end, 16);
    if (errno || end == p || (end < e && *end != ' ' && *end != '\t' && *end != '\r')) {
        *why = "bad access address";
        return -1;
    }
    *pp = end;
    memset(out, 0, sizeof *out);
    out->addr = addr;
    out->size = (uint32_t)size;
    out->kind = (uint8_t)kind;
    return 1;
}

/* ---- the QEMU plugin's executions ------------------------------------------ */

uint32_t x86_exec_prepare(x86_exec *x, const x86_decoded *d, uint32_t first_uop)
{
    uint32_t cap = 0, np = 0, k;
    int exact = 1;
    x->rep = (uint8_t)d->rep;
    for (k = 0; k < d->nacc; k++) {
        uint32_t bytes = (uint32_t)d->acc[k].count * d->acc[k].size;
        /* QEMU hands a 16-byte access over as two of 8: room for pieces of 8, twice */
        cap += 2u * d->acc[k].count * (d->acc[k].size > 8 ? (d->acc[k].size + 7u) / 8u : 1u);
        if (d->acc[k].kind == EDAN_MEM_LOAD) x->want_load += bytes;
        else x->want_store += bytes;
    }
    x->check = !d->state;
    /* the pieces of an exact execution: each vertex's access, in pieces of 8 beyond 8 bytes */
    for (k = 0; k < d->nuop; k++) {
        const bintrace_uop *u = &d->uop[k];
        uint32_t p, pieces, size;
        if (u->in.mem == EDAN_MEM_NONE) continue;
        pieces = u->bytes <= 8 ? 1 : u->bytes / 8;
        size = u->bytes <= 8 ? u->bytes : 8;
        if (!u->exact || (u->bytes > 8 && u->bytes % 8) || np + pieces > X86_PIECES) {
            exact = 0;
            break;
        }
        for (p = 0; p < pieces; p++, np++) {
            x->piece[np].kind = u->in.mem;
            x->piece[np].size = (uint8_t)size;
            x->piece[np].uop = (uint16_t)(p ? X86_PIECE_CONT : first_uop + k);
        }
    }
    if (np > cap) cap = np;
    /* a rep movs or stos of small elements gathers its iterations into 8-byte chunks
       (bintrace_chunk): never an exact execution of its own vertices */
    if (bintrace_chunked(d->uop, d->nuop, d->rep)) exact = 0;
    x->np = (uint8_t)(exact ? np : 0xff);
    return cap;
}

/* What QEMU 7.2 reports of an execution, made what the instruction does:
   an atomic read-modify-write (lock add, xchg, cmpxchg) reported once, as
   a store, loads its bytes first; a scalar operand that QEMU loads with a
   whole vector register (vfmadd231sd xmm, xmm, m64 loads 16 bytes, in
   pieces from the operand's address on) is clipped to its bytes. */
void x86_exec_fixup(x86_exec *x, const edan_insn *in, x86_run *run)
{
    uint32_t k, ld = 0, stb = 0;
    if (!x->check) return;
    if (x->n == 1 && x->a[0].kind == EDAN_MEM_STORE && x->want_load == x->a[0].size &&
        x->want_store == x->a[0].size && x->cap >= 2) {
        x->a[1] = x->a[0];
        x->a[0].kind = EDAN_MEM_LOAD;
        x->n = 2;
        return;
    }
    if (in->mem != EDAN_MEM_LOAD || x->n < 2) return;
    for (k = 0; k < x->n; k++) {
        if (x->a[k].kind == EDAN_MEM_LOAD) ld += x->a[k].size;
        else stb += x->a[k].size;
    }
    if (stb || ld <= in->size) return;
    for (k = 1; k < x->n && x->a[k].addr == x->a[k - 1].addr + x->a[k - 1].size; k++) {}
    if (k == x->n) {
        x->a[0].size = in->size;
        x->n = 1;
        run->overread++;
    }
}

void x86_exec_mismatch(x86_run *run, const edan_insn *in, const x86_exec *x)
{
    uint32_t k, ld = 0, stb = 0;
    const char *mn;
    if (x->crosses && x->n == 0) {
        run->cross_missing++;
        return;
    }
    if (!x->check || run->acc_mismatch++) return;
    for (k = 0; k < x->n; k++) {
        if (x->a[k].kind == EDAN_MEM_LOAD) ld += x->a[k].size;
        else stb += x->a[k].size;
    }
    mn = x86_op_name(in->op);
    snprintf(run->acc_mismatch_first, sizeof run->acc_mismatch_first,
             "pc 0x%llx %s: decoded %u bytes loaded and %u stored, QEMU reported %u and %u",
             (unsigned long long)in->pc, mn ? mn : "?", x->want_load, x->want_store, ld, stb);
}

int x86_exec_execable(const bintrace_sinsn *s, const x86_exec *x)
{
    if (s->vertex_only) return 0;
    if (s->in.mem == EDAN_MEM_NONE) return x->n == 0;
    return x->n == 1 && x->a[0].kind == s->in.mem && x->a[0].size == s->in.size;
}

void x86_run_notes(const x86_run *run, char *notes, size_t cap)
{
    const struct { uint64_t n; const char *kind, *what; } counted[] = {     /* counts with a fixed text */
        {run->state_insns, "warning", "translated instructions save or restore the register state (xsave, xrstor, "
                                      "...): analysed with their memory accesses, without the registers they read "
                                      "or write"},
        {run->cross_missing, "warning", "executions of instructions that cross a page boundary were analysed "
                                        "without their memory accesses: QEMU 7.2 reports none for them"},
        {run->overread, "note", "executions of scalar instructions for which QEMU 7.2 loads a whole vector register "
                                "(vfmadd231sd xmm, xmm, m64 loads 16 bytes) were analysed with their operand's bytes"},
        {run->xacc_overflow, "warning", "memory accesses were left out: more than their instruction's decoding allows"},
    };
    size_t k, len;
    for (k = 0; k < sizeof counted / sizeof counted[0]; k++)
        if (counted[k].n) {
            len = strlen(notes);
            snprintf(notes + len, cap - len, "%s: %llu %s\n", counted[k].kind, (unsigned long long)counted[k].n,
                     counted[k].what);
        }
    if (run->acc_mismatch) {
        len = strlen(notes);
        snprintf(notes + len, cap - len, "warning: %llu executions made other memory accesses than their decoding "
                 "(first: %s)\n", (unsigned long long)run->acc_mismatch, run->acc_mismatch_first);
    }
}
