/* tools/x86.c - the x86-64 front-end (tools/x86.h): Zydis decodes, this
   maps its operands onto the model's values and accesses. */
#include "x86.h"
#include <Zydis/Zydis.h>
#include <stdio.h>
#include <string.h>

/* The status flags: RFLAGS is read by an instruction that tests one of
   them and written by one that changes one (not DF, IF, ...: control). */
#define X86_STATUS_FLAGS (ZYDIS_CPUFLAG_CF | ZYDIS_CPUFLAG_PF | ZYDIS_CPUFLAG_AF | ZYDIS_CPUFLAG_ZF | \
                          ZYDIS_CPUFLAG_SF | ZYDIS_CPUFLAG_OF)

/* The model's value of a Zydis register (0: a constant); *narrow: a write
   of it keeps the rest of its value (a merge). */
static edan_reg x86_value(ZydisRegister r, int legacy_vector_write, int *narrow)
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
        *narrow = legacy_vector_write;
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

static int x86_add(edan_reg *list, uint8_t *n, int max, edan_reg r)
{
    int i;
    if (!r) return 1;
    for (i = 0; i < *n; i++)
        if (list[i] == r) return 1;
    if (*n >= max) return 0;
    list[(*n)++] = r;
    return 1;
}

static int x86_has(const char *s, const char *part) { return strstr(s, part) != NULL; }

/* The class of an instruction without memory access, and the flops of one
   execution with `elems` floating-point elements per operation. */
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

edan_result x86_decode(const uint8_t *bytes, size_t avail, uint64_t pc, x86_decoded *out, char *why, size_t whylen)
{
    ZydisDecoder dec;
    ZydisDecodedInstruction ins;
    ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
    edan_insn *in = &out->in;
    const char *m;
    uint32_t i, elems = 1, flops = 0;
    int fp = 0, loads = 0, stores = 0, masked, hint;
    memset(out, 0, sizeof *out);
    if (why && whylen) why[0] = 0;
    if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
        ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, bytes, avail, &ins, op))) {
        if (why && whylen) snprintf(why, whylen, "not a valid x86-64 instruction");
        return EDAN_ERR_UNKNOWN_OP;
    }
    m = ZydisMnemonicGetString(ins.mnemonic);
    out->state = x86_has(m, "xsave") || x86_has(m, "xrstor") || x86_has(m, "fxsave") || x86_has(m, "fxrstor");
    in->op = (uint32_t)ins.mnemonic;
    in->pc = pc;
    in->flags = EDAN_INSN_HAS_PC;
    in->length = ins.length;
    /* a nop of any length (nop word ptr [rax+rax]) reads and writes nothing;
       a prefetch or cache-line flush computes an address and moves no data */
    if (ins.meta.category == ZYDIS_CATEGORY_NOP || ins.meta.category == ZYDIS_CATEGORY_WIDENOP) {
        in->cls = EDAN_CLASS_OTHER;
        return EDAN_OK;
    }
    hint = ins.meta.category == ZYDIS_CATEGORY_PREFETCH || ins.meta.category == ZYDIS_CATEGORY_PREFETCHWT1 ||
           ins.meta.category == ZYDIS_CATEGORY_CLFLUSHOPT || ins.meta.category == ZYDIS_CATEGORY_CLWB ||
           ins.meta.category == ZYDIS_CATEGORY_CLDEMOTE || !strcmp(m, "clflush");
    /* merge-masking keeps the unselected elements of the destination: a read */
    masked = ins.avx.mask.mode == ZYDIS_MASK_MODE_MERGING && ins.avx.mask.reg != ZYDIS_REGISTER_K0 &&
             ins.avx.mask.reg != ZYDIS_REGISTER_NONE;
    for (i = 0; i < ins.operand_count; i++) {
        const ZydisDecodedOperand *o = &op[i];
        int narrow = 0, ok = 1;
        if (o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT16 || o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT32 ||
            o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT64 || o->element_type == ZYDIS_ELEMENT_TYPE_FLOAT80) {
            fp = 1;
            if (o->element_count > elems) elems = o->element_count;
        }
        if (o->type == ZYDIS_OPERAND_TYPE_REGISTER) {
            edan_reg r;
            if (ZydisRegisterGetClass(o->reg.value) == ZYDIS_REGCLASS_FLAGS) continue;     /* cpu_flags says */
            if (o->reg.value == ZYDIS_REGISTER_K0 && o->encoding == ZYDIS_OPERAND_ENCODING_MASK)
                continue;       /* k0 as a write mask: no mask */
            r = x86_value(o->reg.value, ins.encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY, &narrow);
            if (o->actions & ZYDIS_OPERAND_ACTION_MASK_READ) ok &= x86_add(in->src, &in->nsrc, EDAN_MAX_SRC, r);
            if (o->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) {
                ok &= x86_add(in->dst, &in->ndst, EDAN_MAX_DST, r);
                if (narrow || (masked && i == 0)) ok &= x86_add(in->src, &in->nsrc, EDAN_MAX_SRC, r);
            }
        } else if (o->type == ZYDIS_OPERAND_TYPE_MEMORY) {
            edan_reg b = x86_value(o->mem.base, 0, &narrow), x = x86_value(o->mem.index, 0, &narrow);
            ok &= x86_add(in->src, &in->nsrc, EDAN_MAX_SRC, b) && x86_add(in->src, &in->nsrc, EDAN_MAX_SRC, x);
            if (!hint && (o->mem.type == ZYDIS_MEMOP_TYPE_MEM || o->mem.type == ZYDIS_MEMOP_TYPE_VSIB)) {
                int vsib = o->mem.type == ZYDIS_MEMOP_TYPE_VSIB;
                uint16_t size = (uint16_t)(vsib ? o->element_size / 8 : o->size / 8);
                uint16_t count = 1;
                if (vsib) {
                    /* one element per index (dword or qword indices), as many as the data vector holds */
                    unsigned ib = (unsigned)ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, o->mem.index);
                    unsigned ie = x86_has(m, "gatherd") || x86_has(m, "scatterd") ? 32 : 64, data = 0, j;
                    for (j = 0; j < ins.operand_count; j++)
                        if (op[j].type == ZYDIS_OPERAND_TYPE_REGISTER && op[j].visibility == ZYDIS_OPERAND_VISIBILITY_EXPLICIT &&
                            ZydisRegisterGetClass(op[j].reg.value) >= ZYDIS_REGCLASS_XMM &&
                            ZydisRegisterGetClass(op[j].reg.value) <= ZYDIS_REGCLASS_ZMM && o->element_size)
                            data = (unsigned)ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, op[j].reg.value) /
                                   o->element_size;
                    count = (uint16_t)(ib / ie);
                    if (data && data < count) count = (uint16_t)data;
                }
                int kinds[2], nk = 0, k;
                if (o->actions & ZYDIS_OPERAND_ACTION_MASK_READ) kinds[nk++] = EDAN_MEM_LOAD;
                if (o->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) kinds[nk++] = EDAN_MEM_STORE;
                for (k = 0; k < nk; k++) {
                    x86_access *a;
                    if (out->nacc >= X86_MAX_ACCESSES) {
                        if (why && whylen) snprintf(why, whylen, "%s: more than %d memory operands", m, X86_MAX_ACCESSES);
                        return EDAN_ERR_UNKNOWN_OP;
                    }
                    if (size == 0) {
                        if (why && whylen) snprintf(why, whylen, "%s: a memory operand of no bytes", m);
                        return EDAN_ERR_UNKNOWN_OP;
                    }
                    a = &out->acc[out->nacc++];
                    a->split = size > EDAN_MAX_ACCESS;
                    a->kind = (uint8_t)kinds[k];
                    a->size = size;
                    a->count = count;
                    a->masked = (uint8_t)(vsib || (ins.avx.mask.reg != ZYDIS_REGISTER_NONE &&
                                                   ins.avx.mask.reg != ZYDIS_REGISTER_K0));
                    if (kinds[k] == EDAN_MEM_LOAD) loads = 1;
                    else stores = 1;
                }
            }
        }
        if (!ok) {
            if (why && whylen)
                snprintf(why, whylen, "%s: more registers than an instruction holds (%d read, %d written)", m,
                         EDAN_MAX_SRC, EDAN_MAX_DST);
            return EDAN_ERR_UNKNOWN_OP;
        }
    }
    {   /* an instruction reads its memory operands before it writes: loads first, in order */
        x86_access sorted[X86_MAX_ACCESSES];
        uint32_t n = 0, k;
        for (k = 0; k < out->nacc; k++) if (out->acc[k].kind == EDAN_MEM_LOAD) sorted[n++] = out->acc[k];
        for (k = 0; k < out->nacc; k++) if (out->acc[k].kind == EDAN_MEM_STORE) sorted[n++] = out->acc[k];
        memcpy(out->acc, sorted, n * sizeof *sorted);
    }
    if (ins.cpu_flags) {
        if ((ins.cpu_flags->tested & X86_STATUS_FLAGS) &&
            !x86_add(in->src, &in->nsrc, EDAN_MAX_SRC, EDAN_X86_RFLAGS)) goto wide;
        if (((ins.cpu_flags->modified | ins.cpu_flags->set_0 | ins.cpu_flags->set_1 | ins.cpu_flags->undefined) &
             X86_STATUS_FLAGS) &&
            !x86_add(in->dst, &in->ndst, EDAN_MAX_DST, EDAN_X86_RFLAGS)) goto wide;
    }
    {   /* a scalar operation (addsd, vfmadd231ss) computes one element whatever its registers hold */
        size_t ml = strlen(m);
        if (ml > 2 && (!strcmp(m + ml - 2, "ss") || !strcmp(m + ml - 2, "sd") || !strcmp(m + ml - 2, "sh"))) elems = 1;
    }
    out->rep = ins.meta.category == ZYDIS_CATEGORY_STRINGOP &&
               (ins.attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE | ZYDIS_ATTRIB_HAS_REPNE)) != 0;
    in->cls = x86_class(&ins, m, fp, elems, &flops);
    out->flops = flops;
    if (loads || stores) in->cls = (uint8_t)(loads && stores ? EDAN_CLASS_AMO : loads ? EDAN_CLASS_LOAD : EDAN_CLASS_STORE);
    return EDAN_OK;
wide:
    if (why && whylen)
        snprintf(why, whylen, "%s: more registers than an instruction holds (%d read, %d written)", m, EDAN_MAX_SRC,
                 EDAN_MAX_DST);
    return EDAN_ERR_UNKNOWN_OP;
}

const char *x86_op_name(uint32_t op)
{
    return op <= ZYDIS_MNEMONIC_MAX_VALUE ? ZydisMnemonicGetString((ZydisMnemonic)op) : NULL;
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
    if (r >= EDAN_X86_GPR(0) && r <= EDAN_X86_GPR(15)) return gpr[r - EDAN_X86_GPR(0)];
    if (r == EDAN_X86_RFLAGS) return "rflags";
    if (r >= EDAN_X86_VEC(0) && r <= EDAN_X86_VEC(31)) return vec[r - EDAN_X86_VEC(0)];
    if (r >= EDAN_X86_MASK(0) && r <= EDAN_X86_MASK(7)) return mask[r - EDAN_X86_MASK(0)];
    if (r == EDAN_X86_X87) return "x87";
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
        ZYAN_FAILED(ZydisFormatterFormatInstruction(&fmt, &ins, op, ins.operand_count_visible, buf, n, pc, ZYAN_NULL)))
        return -1;
    return 0;
}
