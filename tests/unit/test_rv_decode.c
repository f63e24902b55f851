/* The RISC-V decoder.
   Without arguments: encodings built here from the ISA manual's field
   layouts decode to the expected instruction; reserved encodings are
   rejected; every 16-bit encoding and a million random 32-bit words decode
   without breaking the edan_insn invariants.
   With --objdump FILE... or --qemu FILE...: the differential test run by
   test_rv_decode.sh. Each line of riscv64-linux-gnu-objdump -d output or of a
   qemu-riscv64 -d in_asm log gives an encoding and its disassembly; the
   decoder's reading of the bytes must equal the parser's reading of the text
   (op, class, memory kind, size, registers); QEMU lines must also read the
   same in the authors' cleaned-up form. Prints coverage. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MSG(cond, ...) do { check_count++; if (!(cond)) { check_failures++; \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
    fputc('\n', stderr); } } while (0)
#define check_report() check_summary("test_rv_decode")

/* ---- encoders (ISA manual, chapter "Base Instruction Formats") -------- */
static uint32_t enc_r(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned opc)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t enc_i(int imm, unsigned rs1, unsigned f3, unsigned rd, unsigned opc)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t enc_s(int imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned opc)
{
    uint32_t u = (uint32_t)imm & 0xfff;
    return (u >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | opc;
}
static uint32_t enc_r4(unsigned rs3, unsigned fmt, unsigned rs2, unsigned rs1, unsigned rm, unsigned rd, unsigned opc)
{
    return rs3 << 27 | fmt << 25 | rs2 << 20 | rs1 << 15 | rm << 12 | rd << 7 | opc;
}

static edan_result dec32(uint32_t w, edan_insn *in)
{
    uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
    return edan_rv_decode(b, 4, in);
}
static edan_result dec16(uint32_t w, edan_insn *in)
{
    uint8_t b[2] = { (uint8_t)w, (uint8_t)(w >> 8) };
    return edan_rv_decode(b, 2, in);
}

/* expected: op, class, mem, size, length, sources and destinations (0-terminated) */
static void expect(const char *what, edan_result r, const edan_insn *in, uint32_t op, int cls, int mem,
                   int size, int len, const int *src, const int *dst)
{
    int ns = 0, nd = 0, i;
    while (src[ns]) ns++;
    while (dst[nd]) nd++;
    if (r != EDAN_OK) { CHECK_MSG(0, "%s: decode failed (%d)", what, (int)r); return; }
    CHECK_MSG(in->op == op, "%s: op %s, expected %s", what, edan_rv_op_name(in->op), edan_rv_op_name(op));
    CHECK_MSG(in->cls == cls, "%s: class %d, expected %d", what, in->cls, cls);
    CHECK_MSG(in->mem == mem, "%s: mem %d, expected %d", what, in->mem, mem);
    CHECK_MSG(in->size == size, "%s: size %d, expected %d", what, in->size, size);
    CHECK_MSG(in->length == len, "%s: length %d, expected %d", what, in->length, len);
    CHECK_MSG(in->nsrc == ns, "%s: %d sources, expected %d", what, in->nsrc, ns);
    CHECK_MSG(in->ndst == nd, "%s: %d destinations, expected %d", what, in->ndst, nd);
    for (i = 0; i < ns && i < in->nsrc; i++) CHECK_MSG(in->src[i] == src[i], "%s: src[%d] = %d, expected %d", what, i, in->src[i], src[i]);
    for (i = 0; i < nd && i < in->ndst; i++) CHECK_MSG(in->dst[i] == dst[i], "%s: dst[%d] = %d, expected %d", what, i, in->dst[i], dst[i]);
}

#define S(...) ((const int[]){ __VA_ARGS__, 0 })
#define NONE_ ((const int[]){ 0 })
#define F(n) (32 + (n))
#define CSR(n) (64 + (n))

static void unit_checks(void)
{
    edan_insn in;
    /* RV64I */
    expect("add a0,a1,a2", dec32(enc_r(0, 12, 11, 0, 10, 0x33), &in), &in, EDAN_RV_OP_ADD, EDAN_CLASS_INT_ALU, 0, 0, 4, S(11, 12), S(10));
    expect("sub x0,a1,a1", dec32(enc_r(0x20, 11, 11, 0, 0, 0x33), &in), &in, EDAN_RV_OP_SUB, EDAN_CLASS_INT_ALU, 0, 0, 4, S(11), NONE_);
    expect("sraw t0,t1,t2", dec32(enc_r(0x20, 7, 6, 5, 5, 0x3b), &in), &in, EDAN_RV_OP_SRAW, EDAN_CLASS_INT_ALU, 0, 0, 4, S(6, 7), S(5));
    expect("addi a0,zero,5", dec32(enc_i(5, 0, 0, 10, 0x13), &in), &in, EDAN_RV_OP_ADDI, EDAN_CLASS_INT_ALU, 0, 0, 4, NONE_, S(10));
    expect("nop", dec32(0x00000013, &in), &in, EDAN_RV_OP_NOP, EDAN_CLASS_OTHER, 0, 0, 4, NONE_, NONE_);
    expect("srai a0,a1,63", dec32(enc_i(0x400 | 63, 11, 5, 10, 0x13), &in), &in, EDAN_RV_OP_SRAI, EDAN_CLASS_INT_ALU, 0, 0, 4, S(11), S(10));
    expect("lui s0,1", dec32(0x1000 | 8 << 7 | 0x37, &in), &in, EDAN_RV_OP_LUI, EDAN_CLASS_INT_ALU, 0, 0, 4, NONE_, S(8));
    expect("jal ra,x", dec32(0x008000ef, &in), &in, EDAN_RV_OP_JAL, EDAN_CLASS_JUMP, 0, 0, 4, NONE_, S(1));
    expect("jalr zero,0(ra)", dec32(enc_i(0, 1, 0, 0, 0x67), &in), &in, EDAN_RV_OP_JALR, EDAN_CLASS_JUMP, 0, 0, 4, S(1), NONE_);
    expect("bgeu a0,a1", dec32(enc_s(8, 11, 10, 7, 0x63), &in), &in, EDAN_RV_OP_BGEU, EDAN_CLASS_BRANCH, 0, 0, 4, S(10, 11), NONE_);
    expect("lbu a0,1(sp)", dec32(enc_i(1, 2, 4, 10, 0x03), &in), &in, EDAN_RV_OP_LBU, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 1, 4, S(2), S(10));
    expect("lh a0,-2(a1)", dec32(enc_i(-2, 11, 1, 10, 0x03), &in), &in, EDAN_RV_OP_LH, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 2, 4, S(11), S(10));
    expect("lwu a0,0(a1)", dec32(enc_i(0, 11, 6, 10, 0x03), &in), &in, EDAN_RV_OP_LWU, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 4, 4, S(11), S(10));
    expect("ld x0,0(a1)", dec32(enc_i(0, 11, 3, 0, 0x03), &in), &in, EDAN_RV_OP_LD, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 8, 4, S(11), NONE_);
    expect("sd a1,8(sp)", dec32(enc_s(8, 11, 2, 3, 0x23), &in), &in, EDAN_RV_OP_SD, EDAN_CLASS_STORE, EDAN_MEM_STORE, 8, 4, S(2, 11), NONE_);
    expect("sb zero,0(a0)", dec32(enc_s(0, 0, 10, 0, 0x23), &in), &in, EDAN_RV_OP_SB, EDAN_CLASS_STORE, EDAN_MEM_STORE, 1, 4, S(10), NONE_);
    expect("ecall", dec32(0x73, &in), &in, EDAN_RV_OP_ECALL, EDAN_CLASS_OTHER, 0, 0, 4, NONE_, NONE_);
    expect("fence rw,rw", dec32(0x0330000f, &in), &in, EDAN_RV_OP_FENCE, EDAN_CLASS_OTHER, 0, 0, 4, NONE_, NONE_);
    expect("fence.i", dec32(0x0000100f, &in), &in, EDAN_RV_OP_FENCE_I, EDAN_CLASS_OTHER, 0, 0, 4, NONE_, NONE_);
    /* M */
    expect("mulhsu", dec32(enc_r(1, 12, 11, 2, 10, 0x33), &in), &in, EDAN_RV_OP_MULHSU, EDAN_CLASS_INT_MUL, 0, 0, 4, S(11, 12), S(10));
    expect("remuw", dec32(enc_r(1, 12, 11, 7, 10, 0x3b), &in), &in, EDAN_RV_OP_REMUW, EDAN_CLASS_INT_DIV, 0, 0, 4, S(11, 12), S(10));
    /* Zicsr: frflags a0 = csrrs a0,fflags,zero; fsrm a1 = csrrw zero,frm,a1 */
    expect("frflags a0", dec32(enc_i(1, 0, 2, 10, 0x73), &in), &in, EDAN_RV_OP_CSRRS, EDAN_CLASS_CSR, 0, 0, 4, S(CSR(1)), S(10));
    expect("fsrm a1", dec32(enc_i(2, 11, 1, 0, 0x73), &in), &in, EDAN_RV_OP_CSRRW, EDAN_CLASS_CSR, 0, 0, 4, S(11), S(CSR(2)));
    expect("csrrw a0,fcsr,a1", dec32(enc_i(3, 11, 1, 10, 0x73), &in), &in, EDAN_RV_OP_CSRRW, EDAN_CLASS_CSR, 0, 0, 4, S(11, CSR(3)), S(10, CSR(3)));
    expect("csrrs a0,fflags,a1", dec32(enc_i(1, 11, 2, 10, 0x73), &in), &in, EDAN_RV_OP_CSRRS, EDAN_CLASS_CSR, 0, 0, 4, S(11, CSR(1)), S(10, CSR(1)));
    expect("csrrsi zero,fflags,0", dec32(enc_i(1, 0, 6, 0, 0x73), &in), &in, EDAN_RV_OP_CSRRSI, EDAN_CLASS_CSR, 0, 0, 4, S(CSR(1)), NONE_);
    expect("csrrci a0,0xfff,3", dec32(enc_i(-1, 3, 7, 10, 0x73), &in), &in, EDAN_RV_OP_CSRRCI, EDAN_CLASS_CSR, 0, 0, 4, S(CSR(0xfff)), S(10, CSR(0xfff)));
    expect("csrrwi zero,frm,2", dec32(enc_i(2, 2, 5, 0, 0x73), &in), &in, EDAN_RV_OP_CSRRWI, EDAN_CLASS_CSR, 0, 0, 4, NONE_, S(CSR(2)));
    expect("rdcycle a0", dec32(enc_i(0xc00 - 0x1000, 0, 2, 10, 0x73), &in), &in, EDAN_RV_OP_CSRRS, EDAN_CLASS_CSR, 0, 0, 4, S(CSR(0xc00)), S(10));
    /* A: LR reads memory, SC writes it, AMOs both */
    expect("lr.d.aq a0,(a1)", dec32(enc_r(0x02 << 2 | 2, 0, 11, 3, 10, 0x2f), &in), &in, EDAN_RV_OP_LR_D, EDAN_CLASS_AMO, EDAN_MEM_LOAD, 8, 4, S(11), S(10));
    expect("sc.w a0,a2,(a1)", dec32(enc_r(0x03 << 2, 12, 11, 2, 10, 0x2f), &in), &in, EDAN_RV_OP_SC_W, EDAN_CLASS_AMO, EDAN_MEM_STORE, 4, 4, S(11, 12), S(10));
    expect("amomaxu.d.rl", dec32(enc_r(0x1c << 2 | 1, 12, 11, 3, 10, 0x2f), &in), &in, EDAN_RV_OP_AMOMAXU_D, EDAN_CLASS_AMO, EDAN_MEM_AMO, 8, 4, S(11, 12), S(10));
    expect("amoor.w", dec32(enc_r(0x08 << 2, 12, 11, 2, 10, 0x2f), &in), &in, EDAN_RV_OP_AMOOR_W, EDAN_CLASS_AMO, EDAN_MEM_AMO, 4, 4, S(11, 12), S(10));
    /* F/D: register files come from the instruction */
    expect("flw fa0,4(a0)", dec32(enc_i(4, 10, 2, 10, 0x07), &in), &in, EDAN_RV_OP_FLW, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 4, 4, S(10), S(F(10)));
    expect("fsd fs11,16(a1)", dec32(enc_s(16, 27, 11, 3, 0x27), &in), &in, EDAN_RV_OP_FSD, EDAN_CLASS_STORE, EDAN_MEM_STORE, 8, 4, S(11, F(27)), NONE_);
    expect("fmadd.d", dec32(enc_r4(14, 1, 13, 15, 7, 15, 0x43), &in), &in, EDAN_RV_OP_FMADD_D, EDAN_CLASS_FP_FMA, 0, 0, 4, S(F(15), F(13), F(14)), S(F(15)));
    expect("fnmsub.s", dec32(enc_r4(3, 0, 2, 1, 0, 4, 0x4b), &in), &in, EDAN_RV_OP_FNMSUB_S, EDAN_CLASS_FP_FMA, 0, 0, 4, S(F(1), F(2), F(3)), S(F(4)));
    expect("fdiv.d", dec32(enc_r(0x0d, 2, 1, 7, 0, 0x53), &in), &in, EDAN_RV_OP_FDIV_D, EDAN_CLASS_FP_DIV, 0, 0, 4, S(F(1), F(2)), S(F(0)));
    expect("fsqrt.s", dec32(enc_r(0x2c, 0, 1, 7, 0, 0x53), &in), &in, EDAN_RV_OP_FSQRT_S, EDAN_CLASS_FP_DIV, 0, 0, 4, S(F(1)), S(F(0)));
    expect("fmv.d fa2,fa0", dec32(enc_r(0x11, 10, 10, 0, 12, 0x53), &in), &in, EDAN_RV_OP_FSGNJ_D, EDAN_CLASS_FP_ADD, 0, 0, 4, S(F(10)), S(F(12)));
    expect("fle.d a0,fa0,fa1", dec32(enc_r(0x51, 11, 10, 0, 10, 0x53), &in), &in, EDAN_RV_OP_FLE_D, EDAN_CLASS_FP_ADD, 0, 0, 4, S(F(10), F(11)), S(10));
    expect("fcvt.w.d a0,fa5,rtz", dec32(enc_r(0x61, 0, 15, 1, 10, 0x53), &in), &in, EDAN_RV_OP_FCVT_W_D, EDAN_CLASS_FP_CVT, 0, 0, 4, S(F(15)), S(10));
    expect("fcvt.d.lu fa0,a0", dec32(enc_r(0x69, 3, 10, 7, 10, 0x53), &in), &in, EDAN_RV_OP_FCVT_D_LU, EDAN_CLASS_FP_CVT, 0, 0, 4, S(10), S(F(10)));
    expect("fcvt.s.d", dec32(enc_r(0x20, 1, 11, 7, 10, 0x53), &in), &in, EDAN_RV_OP_FCVT_S_D, EDAN_CLASS_FP_CVT, 0, 0, 4, S(F(11)), S(F(10)));
    expect("fmv.x.d a0,fa0", dec32(enc_r(0x71, 0, 10, 0, 10, 0x53), &in), &in, EDAN_RV_OP_FMV_X_D, EDAN_CLASS_FP_CVT, 0, 0, 4, S(F(10)), S(10));
    expect("fclass.s", dec32(enc_r(0x70, 0, 10, 1, 10, 0x53), &in), &in, EDAN_RV_OP_FCLASS_S, EDAN_CLASS_FP_CVT, 0, 0, 4, S(F(10)), S(10));
    expect("fmv.w.x", dec32(enc_r(0x78, 0, 10, 0, 10, 0x53), &in), &in, EDAN_RV_OP_FMV_W_X, EDAN_CLASS_FP_CVT, 0, 0, 4, S(10), S(F(10)));
    /* compressed (ISA manual, "C" chapter) */
    expect("c.ldsp a0,8(sp)", dec16(0x6522, &in), &in, EDAN_RV_OP_LD, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 8, 2, S(2), S(10));
    expect("c.sdsp ra,8(sp)", dec16(0xe406, &in), &in, EDAN_RV_OP_SD, EDAN_CLASS_STORE, EDAN_MEM_STORE, 8, 2, S(2, 1), NONE_);
    expect("c.lw a4,0(a5)", dec16(0x4398, &in), &in, EDAN_RV_OP_LW, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 4, 2, S(15), S(14));
    expect("c.fld fa0,8(a1)", dec16(0x2588, &in), &in, EDAN_RV_OP_FLD, EDAN_CLASS_LOAD, EDAN_MEM_LOAD, 8, 2, S(11), S(F(10)));
    expect("c.addi sp,-16", dec16(0x1141, &in), &in, EDAN_RV_OP_ADDI, EDAN_CLASS_INT_ALU, 0, 0, 2, S(2), S(2));
    expect("c.li a3,0", dec16(0x4681, &in), &in, EDAN_RV_OP_ADDI, EDAN_CLASS_INT_ALU, 0, 0, 2, NONE_, S(13));
    expect("c.mv a5,a0", dec16(0x87aa, &in), &in, EDAN_RV_OP_ADDI, EDAN_CLASS_INT_ALU, 0, 0, 2, S(10), S(15));
    expect("c.add a4,a2", dec16(0x9732, &in), &in, EDAN_RV_OP_ADD, EDAN_CLASS_INT_ALU, 0, 0, 2, S(14, 12), S(14));
    expect("c.jr ra (ret)", dec16(0x8082, &in), &in, EDAN_RV_OP_JALR, EDAN_CLASS_JUMP, 0, 0, 2, S(1), NONE_);
    expect("c.jalr a5", dec16(0x9782, &in), &in, EDAN_RV_OP_JALR, EDAN_CLASS_JUMP, 0, 0, 2, S(15), S(1));
    expect("c.addw a0,a1", dec16(0x9d2d, &in), &in, EDAN_RV_OP_ADDW, EDAN_CLASS_INT_ALU, 0, 0, 2, S(10, 11), S(10));
    expect("c.beqz a5", dec16(0xc781, &in), &in, EDAN_RV_OP_BEQ, EDAN_CLASS_BRANCH, 0, 0, 2, S(15), NONE_);
    expect("c.j", dec16(0xa001, &in), &in, EDAN_RV_OP_JAL, EDAN_CLASS_JUMP, 0, 0, 2, NONE_, NONE_);
    expect("c.nop", dec16(0x0001, &in), &in, EDAN_RV_OP_NOP, EDAN_CLASS_OTHER, 0, 0, 2, NONE_, NONE_);
    expect("c.ebreak", dec16(0x9002, &in), &in, EDAN_RV_OP_EBREAK, EDAN_CLASS_OTHER, 0, 0, 2, NONE_, NONE_);
    expect("c.addi4spn a2,sp,8", dec16(0x0030, &in), &in, EDAN_RV_OP_ADDI, EDAN_CLASS_INT_ALU, 0, 0, 2, S(2), S(12));

    /* reserved and illegal */
    CHECK(dec16(0x0000, &in) == EDAN_ERR_UNKNOWN_OP);               /* c.unimp */
    CHECK(dec16(0x4002, &in) == EDAN_ERR_UNKNOWN_OP);               /* c.lwsp x0 */
    CHECK(dec16(0x6002, &in) == EDAN_ERR_UNKNOWN_OP);               /* c.ldsp x0 */
    CHECK(dec16(0x6101, &in) == EDAN_ERR_UNKNOWN_OP);               /* c.addi16sp 0 */
    CHECK(dec16(0x8002, &in) == EDAN_ERR_UNKNOWN_OP);               /* c.jr x0 */
    CHECK(dec16(0x8000, &in) == EDAN_ERR_UNKNOWN_OP);               /* quadrant 0 funct3 4 */
    CHECK(dec16(0x9c41, &in) == EDAN_ERR_UNKNOWN_OP);               /* reserved c.subw slot */
    CHECK(dec32(0xffffffff, &in) == EDAN_ERR_UNKNOWN_OP);
    CHECK(dec32(enc_r(0x01, 2, 1, 5, 0, 0x53), &in) == EDAN_ERR_UNKNOWN_OP);    /* rm 5 */
    CHECK(dec32(enc_r(0x01, 2, 1, 6, 0, 0x53), &in) == EDAN_ERR_UNKNOWN_OP);    /* rm 6 */
    CHECK(dec32(enc_r(0x03, 2, 1, 0, 0, 0x53), &in) == EDAN_ERR_UNKNOWN_OP);    /* fadd.q */
    CHECK(dec32(enc_r(0x05 << 2, 12, 11, 2, 10, 0x2f), &in) == EDAN_ERR_UNKNOWN_OP);  /* funct5 5 */
    CHECK(dec32(enc_r(0x02 << 2, 1, 11, 2, 10, 0x2f), &in) == EDAN_ERR_UNKNOWN_OP);   /* lr.w rs2 != 0 */
    CHECK(dec32(enc_r(0x00 << 2, 12, 11, 4, 10, 0x2f), &in) == EDAN_ERR_UNKNOWN_OP);  /* amo width 4 */
    CHECK(dec32(enc_i(0, 1, 3, 1, 0x67), &in) == EDAN_ERR_UNKNOWN_OP);              /* jalr funct3 3 */
    CHECK(dec32(enc_r(2, 2, 1, 0, 1, 0x33), &in) == EDAN_ERR_UNKNOWN_OP);           /* funct7 2 */
    CHECK(dec32(enc_i(0, 1, 7, 1, 0x03), &in) == EDAN_ERR_UNKNOWN_OP);              /* load funct3 7 */
    CHECK(dec32(enc_i(0, 1, 4, 1, 0x73), &in) == EDAN_ERR_UNKNOWN_OP);              /* system funct3 4 */
    CHECK(dec32(0x0000001f, &in) == EDAN_ERR_UNKNOWN_OP);                           /* 48-bit */
    {
        uint8_t b[4] = { 0x13, 0, 0, 0 };
        CHECK(edan_rv_decode(b, 1, &in) == EDAN_ERR_PARSE);
        CHECK(edan_rv_decode(b, 3, &in) == EDAN_ERR_PARSE);     /* 32-bit, 3 bytes */
        CHECK(edan_rv_decode(NULL, 4, &in) == EDAN_ERR_INVALID_ARG);
        CHECK(edan_rv_decode(b, 4, NULL) == EDAN_ERR_INVALID_ARG);
    }
}

/* Invariants any decoded instruction must keep. */
static int sane(const edan_insn *in)
{
    unsigned i, j;
    if (in->op >= EDAN_RV_OP_COUNT || in->nsrc > EDAN_MAX_SRC || in->ndst > EDAN_MAX_DST) return 0;
    if (in->cls >= EDAN_CLASS_COUNT || in->mem > EDAN_MEM_AMO) return 0;
    if ((in->mem != EDAN_MEM_NONE) != (in->size != 0) || in->size > 8) return 0;
    if (in->length != 2 && in->length != 4) return 0;
    for (i = 0; i < in->nsrc; i++) {
        if (in->src[i] == 0 || in->src[i] >= EDAN_RV_NUM_REGS) return 0;
        for (j = 0; j < i; j++) if (in->src[j] == in->src[i]) return 0;
    }
    for (i = 0; i < in->ndst; i++)
        if (in->dst[i] == 0 || in->dst[i] >= EDAN_RV_NUM_REGS) return 0;
    return 1;
}

static void sweep(void)
{
    edan_insn in;
    uint32_t w, x = 12345, ok16 = 0, ok32 = 0, bad = 0, reserved[3][8], q, f;
    /* The reserved 16-bit encodings of RV64C (unprivileged spec, chapter
       "C" Standard Extension, tables of the three quadrants), per quadrant
       and funct3 (bits 15:13); each funct3 holds 2^11 = 2048 encodings:
       q0 000 c.addi4spn with nzuimm = 0 (bits 12:5): 8 (rd' any);
          100 reserved: 2048;
       q1 001 c.addiw with rd = 0: 2^6 = 64 (imm any);
          011 c.addi16sp / c.lui with nzimm = 0 (bits 12, 6:2): 32 (rd any);
          100 c.sub..c.addw's funct6 100111 with funct2 10 and 11: 2 x 8 x 8 = 128;
       q2 010 c.lwsp, 011 c.ldsp with rd = 0: 64 each;
          100 c.jr with rs1 = 0 (bit 12 = 0, rs2 = 0): 1.
       Everything else decodes (HINTs included): 49152 - 2409 = 46743. */
    static const uint32_t want[3][8] = {{8, 0, 0, 0, 2048, 0, 0, 0}, {0, 64, 0, 32, 128, 0, 0, 0},
                                        {0, 0, 64, 64, 1, 0, 0, 0}};
    long i;
    memset(reserved, 0, sizeof reserved);
    for (w = 0; w < 0x10000; w++) {
        if ((w & 3) == 3) continue;
        if (dec16(w, &in) == EDAN_OK) {
            ok16++;
            if (!sane(&in) || in.length != 2) bad++;
        } else {
            reserved[w & 3][(w >> 13) & 7]++;
        }
    }
    for (q = 0; q < 3; q++)
        for (f = 0; f < 8; f++)
            CHECK_MSG(reserved[q][f] == want[q][f], "quadrant %u funct3 %u: %u reserved encodings, the spec says %u", q,
                      f, reserved[q][f], want[q][f]);
    for (i = 0; i < 1000000; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        w = x | 3;
        if (dec32(w, &in) == EDAN_OK) {
            ok32++;
            if (!sane(&in) || in.length != 4) bad++;
        }
    }
    CHECK_MSG(bad == 0, "%u decoded instructions break an invariant", bad);
    CHECK_MSG(ok16 == 46743, "%u valid 16-bit encodings, the spec has 46743", ok16);
    /* which 32-bit words decode: test_rv_decode.sh holds 200000 of them
       against objdump's listing; here, that those which do are sane */
    printf("sweep: %u of 49152 16-bit encodings and %u of 1000000 random 32-bit words decode\n", ok16, ok32);
}

/* ---- differential mode ------------------------------------------------ */
typedef struct diffstats {
    unsigned long lines, compared, agree_reject, mismatches, skipped, known, csrnames;
    int lenient_csr, qemu;
    unsigned long seen[EDAN_RV_OP_COUNT];
} diffstats;

static int same(const edan_insn *a, const edan_insn *b)
{
    return a->op == b->op && a->cls == b->cls && a->mem == b->mem && a->size == b->size &&
           a->nsrc == b->nsrc && a->ndst == b->ndst &&
           memcmp(a->src, b->src, sizeof a->src) == 0 && memcmp(a->dst, b->dst, sizeof a->dst) == 0;
}

static void show(char *buf, size_t cap, edan_result r, const edan_insn *in)
{
    int n, i;
    if (r != EDAN_OK) { snprintf(buf, cap, "rejected (%d)", (int)r); return; }
    n = snprintf(buf, cap, "%s cls=%d mem=%d size=%d src=", edan_rv_op_name(in->op), in->cls, in->mem, in->size);
    for (i = 0; i < in->nsrc && n < (int)cap - 8; i++) n += snprintf(buf + n, cap - (size_t)n, "%d,", in->src[i]);
    n += snprintf(buf + n, cap - (size_t)n, " dst=");
    for (i = 0; i < in->ndst && n < (int)cap - 8; i++) n += snprintf(buf + n, cap - (size_t)n, "%d,", in->dst[i]);
}

/* One line: encoding `hex` (as objdump/QEMU print it: the instruction as a
   little-endian number) and `text` to parse. */
static void diff_one(diffstats *st, edan_rv_parser *p, const char *where, const char *hex, size_t hexlen,
                     const char *text)
{
    uint8_t b[4];
    uint32_t w = 0;
    size_t i;
    edan_insn di, pi;
    edan_result dr, pr;
    char line[4200], a[200], c[200];
    for (i = 0; i < hexlen; i++) w = w << 4 | (uint32_t)(hex[i] <= '9' ? hex[i] - '0' : (hex[i] | 0x20) - 'a' + 10);
    for (i = 0; i < 4; i++) b[i] = (uint8_t)(w >> (8 * i));
    dr = edan_rv_decode(b, hexlen / 2, &di);
    /* the parser needs an address exactly on memory instructions */
    snprintf(line, sizeof line, "%s%s", text, dr == EDAN_OK && di.mem != EDAN_MEM_NONE ? ";0x1000" : "");
    pr = edan_rv_parse_line(p, line, strlen(line), &pi);
    st->lines++;
    if (dr != EDAN_OK && pr != EDAN_OK) { st->agree_reject++; return; }
    /* objdump's name for the encodings that always trap */
    if (dr != EDAN_OK && pi.op == EDAN_RV_OP_UNIMP) { st->agree_reject++; return; }
    if (w == 0xc0001073u && pr == EDAN_OK && pi.op == EDAN_RV_OP_UNIMP) { st->agree_reject++; return; }
    /* Documented differences from objdump, where the decoder follows the ISA
       manual and QEMU: c.addi16sp with imm 0 is reserved (objdump prints
       `add sp,sp,0`); FENCE/FENCE.I ignore their unused fields, and the exact
       conversions fcvt.d.w/wu/s accept any valid rounding mode (objdump
       prints .4byte unless those fields are zero). */
    if ((w == 0x6101u && dr != EDAN_OK) ||
        (dr == EDAN_OK && (di.op == EDAN_RV_OP_FENCE || di.op == EDAN_RV_OP_FENCE_I ||
                           di.op == EDAN_RV_OP_FCVT_D_W || di.op == EDAN_RV_OP_FCVT_D_WU ||
                           di.op == EDAN_RV_OP_FCVT_D_S) &&
         pr != EDAN_OK && strstr(text, ".4byte"))) { st->known++; return; }
    /* random words: objdump knows every CSR name; the parser knows the
       common ones */
    if (st->lenient_csr && dr == EDAN_OK && di.cls == EDAN_CLASS_CSR && pr != EDAN_OK &&
        strstr(edan_rv_error(p), "CSR name")) { st->csrnames++; return; }
    if (dr == EDAN_OK && pr == EDAN_OK && same(&di, &pi)) {
        if (st->qemu) {
            /* the same line as the authors' plugin writes it: encoding
               dropped, runs of spaces collapsed ("jal ra,34 # 0x105d6") */
            char clean[4200];
            const char *q = hex + hexlen;
            size_t n = 0;
            edan_insn ci;
            while (*q == ' ') q++;
            for (; *q && n + 8 < sizeof clean; q++)
                if (!(*q == ' ' && q[1] == ' ')) clean[n++] = *q;
            clean[n] = 0;
            if (di.mem != EDAN_MEM_NONE) strcat(clean, ";0x1000");
            if (edan_rv_parse_line(p, clean, strlen(clean), &ci) != EDAN_OK || !same(&ci, &pi)) {
                if (++st->mismatches <= 25) printf("MISMATCH %s: '%s' reads differently from '%s'\n", where, clean, text);
                return;
            }
        }
        st->compared++;
        st->seen[di.op]++;
        return;
    }
    st->mismatches++;
    if (st->mismatches <= 25) {
        show(a, sizeof a, dr, &di);
        show(c, sizeof c, pr, &pi);
        printf("MISMATCH %s: %.*s '%s'\n  decoder: %s\n  parser:  %s%s%s\n", where, (int)hexlen, hex, text, a, c,
               pr != EDAN_OK ? " -- " : "", pr != EDAN_OK ? edan_rv_error(p) : "");
    }
}

static int ishex(int ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'); }

static void diff_file(diffstats *st, edan_rv_parser *p, const char *path, int qemu)
{
    FILE *f = fopen(path, "r");
    char buf[4096];
    unsigned long ln = 0;
    if (!f) { CHECK_MSG(0, "cannot open %s", path); return; }
    while (fgets(buf, sizeof buf, f)) {
        char *s = buf, *h, *t, where[300];
        size_t n;
        ln++;
        buf[strcspn(buf, "\n")] = 0;
        if (qemu) {
            /* 0x0000000000010734:  00158713          addi   a4,a1,1 */
            if (strncmp(s, "0x", 2) != 0 || !(s = strstr(s, ":  "))) continue;
            h = s + 3;
            t = buf;        /* the whole line is a valid trace line */
        } else {
            /*    10420:\t7131                \tadd\tsp,sp,-192 */
            while (*s == ' ') s++;
            if (!ishex(*s)) continue;
            while (ishex(*s)) s++;
            if (s[0] != ':' || s[1] != '\t') continue;
            h = s + 2;
            t = h;          /* hex encoding first, like QEMU's raw disassembly */
            if (!strchr(h, '\t')) { st->skipped++; continue; }   /* raw data, no mnemonic */
        }
        for (n = 0; ishex(h[n]); n++) {}
        if (n != 4 && n != 8) { st->skipped++; continue; }
        snprintf(where, sizeof where, "%s:%lu", path, ln);
        diff_one(st, p, where, h, n, t);
    }
    fclose(f);
}

/* Raw instruction files for objdump -D -b binary: every 16-bit encoding, or
   n pseudo-random 32-bit words (xorshift, fixed seed). */
static int write_words(const char *path, long n)
{
    FILE *f = fopen(path, "wb");
    uint32_t x = 2463534242u, w;
    long i;
    if (!f) return 1;
    if (n < 0) {
        for (w = 0; w < 0x10000; w++)
            if ((w & 3) != 3) { fputc((int)(w & 0xff), f); fputc((int)(w >> 8), f); }
    } else {
        for (i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            w = x | 3;
            fputc((int)(w & 0xff), f); fputc((int)(w >> 8 & 0xff), f);
            fputc((int)(w >> 16 & 0xff), f); fputc((int)(w >> 24), f);
        }
    }
    return fclose(f) != 0;
}

/* The class of every op from rules written here from the RISC-V ISA manual
   (unprivileged spec, chapters RV32I/RV64I, M, A, F, D, Zicsr, Zifencei)
   and the classes' own definitions in edan.h, not from the opcode table:
   the table's class column is checked against them. */
static edan_class class_by_rule(const char *m)
{
    static const char *const int_alu[] = {"lui", "auipc", "addi", "slti", "sltiu", "xori", "ori", "andi", "slli",
        "srli", "srai", "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and", "addiw", "slliw",
        "srliw", "sraiw", "addw", "subw", "sllw", "srlw", "sraw", NULL};
    static const char *const other[] = {"unimp", "nop", "fence", "fence.i", "ecall", "ebreak", "sret", "mret",
        "wfi", "sfence.vma", NULL};
    size_t i, n = strlen(m);
    for (i = 0; int_alu[i]; i++) if (!strcmp(m, int_alu[i])) return EDAN_CLASS_INT_ALU;
    for (i = 0; other[i]; i++) if (!strcmp(m, other[i])) return EDAN_CLASS_OTHER;
    if (!strncmp(m, "div", 3) || !strncmp(m, "rem", 3)) return EDAN_CLASS_INT_DIV;      /* M: div[u][w], rem[u][w] */
    if (!strncmp(m, "mul", 3)) return EDAN_CLASS_INT_MUL;                               /* M: mul, mulh*, mulw */
    if (!strncmp(m, "amo", 3) || !strncmp(m, "lr.", 3) || !strncmp(m, "sc.", 3)) return EDAN_CLASS_AMO;
    if (!strncmp(m, "csrr", 4)) return EDAN_CLASS_CSR;
    if (m[0] == 'b') return EDAN_CLASS_BRANCH;                                          /* beq .. bgeu */
    if (!strcmp(m, "jal") || !strcmp(m, "jalr")) return EDAN_CLASS_JUMP;
    /* loads and stores, integer and FP: l{b,h,w,d}[u], s{b,h,w,d}, fl{w,d}, fs{w,d} */
    if ((m[0] == 'l' && n <= 3) || !strcmp(m, "flw") || !strcmp(m, "fld")) return EDAN_CLASS_LOAD;
    if ((m[0] == 's' && n == 2) || !strcmp(m, "fsw") || !strcmp(m, "fsd")) return EDAN_CLASS_STORE;
    /* F/D: fused multiply-add; multiply; divide and square root; add,
       subtract, min/max, compares and sign injection (edan.h: FP_ADD);
       conversions, moves between register files and fclass (FP_CVT) */
    if (!strncmp(m, "fmadd.", 6) || !strncmp(m, "fmsub.", 6) || !strncmp(m, "fnmadd.", 7) || !strncmp(m, "fnmsub.", 7))
        return EDAN_CLASS_FP_FMA;
    if (!strncmp(m, "fmul.", 5)) return EDAN_CLASS_FP_MUL;
    if (!strncmp(m, "fdiv.", 5) || !strncmp(m, "fsqrt.", 6)) return EDAN_CLASS_FP_DIV;
    if (!strncmp(m, "fadd.", 5) || !strncmp(m, "fsub.", 5) || !strncmp(m, "fmin.", 5) || !strncmp(m, "fmax.", 5) ||
        !strncmp(m, "feq.", 4) || !strncmp(m, "flt.", 4) || !strncmp(m, "fle.", 4) || !strncmp(m, "fsgnj", 5))
        return EDAN_CLASS_FP_ADD;
    if (!strncmp(m, "fcvt.", 5) || !strncmp(m, "fmv.", 4) || !strncmp(m, "fclass.", 7)) return EDAN_CLASS_FP_CVT;
    return EDAN_CLASS_COUNT;        /* no rule: the test fails */
}

static void class_rules(void)
{
    uint32_t op;
    for (op = 0; op < EDAN_RV_OP_COUNT; op++) {
        const char *m = edan_rv_op_name(op);
        edan_insn in;
        edan_class want = class_by_rule(m);
        CHECK_MSG(edan_rv_make(op, 1, 2, 3, 4, 0x001, 0, &in) == EDAN_OK, "edan_rv_make(%s)", m);
        CHECK_MSG(in.cls == want, "%s: the table says class %s, the rules %s", m, edan_class_name((edan_class)in.cls),
                  edan_class_name(want));
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--gen16") == 0) return write_words(argv[2], -1);
    if (argc == 4 && strcmp(argv[1], "--gen32") == 0) return write_words(argv[3], atol(argv[2]));
    if (argc > 2 && (strcmp(argv[1], "--objdump") == 0 || strcmp(argv[1], "--qemu") == 0)) {
        static diffstats st;
        edan_rv_parser *p = NULL;
        int i, qemu = strcmp(argv[1], "--qemu") == 0, require_all = 0;
        unsigned seen = 0;
        st.qemu = qemu;
        if (edan_rv_parser_create(&p, NULL) != EDAN_OK) return 2;
        for (i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--lenient-csr") == 0) st.lenient_csr = 1;
            else if (strcmp(argv[i], "--require-all") == 0) require_all = 1;
            else diff_file(&st, p, argv[i], qemu);
        }
        for (i = 0; i < EDAN_RV_OP_COUNT; i++) seen += st.seen[i] != 0;
        printf("%s: %lu instructions, %lu agree, %lu rejected by both, %lu documented differences, "
               "%lu unknown CSR names, %lu mismatches, %lu lines skipped\n", argv[1] + 2, st.lines,
               st.compared, st.agree_reject, st.known, st.csrnames, st.mismatches, st.skipped);
        printf("%s coverage: %u of %u ops; not seen:", argv[1] + 2, seen, (unsigned)EDAN_RV_OP_COUNT);
        for (i = 0; i < EDAN_RV_OP_COUNT; i++)
            if (!st.seen[i]) printf(" %s", edan_rv_op_name((uint32_t)i));
        printf("\n");
        CHECK_MSG(st.mismatches == 0, "%lu mismatches between decoder and parser", st.mismatches);
        CHECK_MSG(st.compared > 0, "nothing compared");
        /* unimp is the only op no encoding decodes to */
        if (require_all) CHECK_MSG(seen == EDAN_RV_OP_COUNT - 1, "%u ops never compared", EDAN_RV_OP_COUNT - 1 - seen);
        return check_report();
    }
    if (argc > 1) {
        fprintf(stderr, "usage: %s [--objdump|--qemu [--lenient-csr] [--require-all] FILE...] [--gen16 FILE] [--gen32 N FILE]\n", argv[0]);
        return 2;
    }
    unit_checks();
    class_rules();
    sweep();
    return check_report();
}
