/* The RISC-V text trace parser: every accepted line variant, every
   pseudo-instruction QEMU 7.2 and objdump print, implicit operands, the
   register-file trap of QEMU 7.2's fmv.d, access sizes, and each kind of bad
   input. Expected registers are written from the ISA manual here, not taken
   from the code under test. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

#define CHECK_MSG(cond, ...) do { check_count++; if (!(cond)) { check_failures++; \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
    fputc('\n', stderr); } } while (0)

static edan_rv_parser *P;    /* made by main */

static int live_allocs;
static void *counting_alloc(size_t n, void *user) { (void)user; live_allocs++; return malloc(n); }
static void counting_free(void *p, void *user) { (void)user; live_allocs--; free(p); }

static edan_result parse(const char *line, edan_insn *in)
{
    memset(in, 0xa5, sizeof *in);   /* every field must be written */
    return edan_rv_parse_line(P, line, strlen(line), in);
}

#define F(n) (32 + (n))
#define CSR(n) (64 + (n))
#define L(...) { __VA_ARGS__, -1 }

typedef struct expectation {
    const char *line;
    uint32_t op;
    int cls, mem, size;
    int src[6], dst[4];     /* -1 terminated */
} expectation;

static void check_expect(const expectation *x)
{
    edan_insn in;
    edan_result r = parse(x->line, &in);
    int i, ns = 0, nd = 0;
    while (x->src[ns] >= 0) ns++;
    while (x->dst[nd] >= 0) nd++;
    if (r != EDAN_OK) { CHECK_MSG(0, "'%s': result %d (%s)", x->line, (int)r, edan_rv_error(P)); return; }
    CHECK_MSG(in.op == x->op, "'%s': op %s, expected %s", x->line, edan_rv_op_name(in.op), edan_rv_op_name(x->op));
    CHECK_MSG(in.cls == x->cls, "'%s': class %d, expected %d", x->line, in.cls, x->cls);
    CHECK_MSG(in.mem == x->mem, "'%s': mem %d, expected %d", x->line, in.mem, x->mem);
    CHECK_MSG(in.size == x->size, "'%s': size %d, expected %d", x->line, in.size, x->size);
    CHECK_MSG(in.length == 0, "'%s': length %d", x->line, in.length);
    CHECK_MSG(in.nsrc == ns && in.ndst == nd, "'%s': %d sources %d destinations, expected %d %d",
              x->line, in.nsrc, in.ndst, ns, nd);
    for (i = 0; i < ns && i < in.nsrc; i++)
        CHECK_MSG(in.src[i] == x->src[i], "'%s': src[%d] = %d, expected %d", x->line, i, in.src[i], x->src[i]);
    for (i = 0; i < nd && i < in.ndst; i++)
        CHECK_MSG(in.dst[i] == x->dst[i], "'%s': dst[%d] = %d, expected %d", x->line, i, in.dst[i], x->dst[i]);
}

enum { A0 = 10, A1, A2, A3, A4, A5, A6, A7, RA = 1, SP = 2, T0 = 5, T1, T2, S0 = 8, S1 = 9, S2 = 18 };
#define OP(x) EDAN_RV_OP_##x
#define C(x) EDAN_CLASS_##x
#define M(x) EDAN_MEM_##x

/* Pseudo-instructions, in QEMU 7.2's spelling and objdump's. */
static const expectation pseudo[] = {
    { "nop", OP(NOP), C(OTHER), 0, 0, L(-1), L(-1) },
    { "mv a0,a1", OP(ADDI), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "mv a3,zero", OP(ADDI), C(INT_ALU), 0, 0, L(-1), L(A3) },
    { "li a5,1", OP(ADDI), C(INT_ALU), 0, 0, L(-1), L(A5) },
    { "li a5,-2048", OP(ADDI), C(INT_ALU), 0, 0, L(-1), L(A5) },
    { "neg a0,a1", OP(SUB), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "negw a0,a1", OP(SUBW), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "not a0,a1", OP(XORI), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "sext.w a4,a5", OP(ADDIW), C(INT_ALU), 0, 0, L(A5), L(A4) },
    { "seqz a0,a1", OP(SLTIU), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "snez a0,a1", OP(SLTU), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "sltz a0,a1", OP(SLT), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "sgtz a0,a1", OP(SLT), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "zext.b a0,a1", OP(ANDI), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "j 34 # 0x105d6", OP(JAL), C(JUMP), 0, 0, L(-1), L(-1) },
    { "j 105d6 <main+0x10>", OP(JAL), C(JUMP), 0, 0, L(-1), L(-1) },
    { "jal 105d6 <foo>", OP(JAL), C(JUMP), 0, 0, L(-1), L(RA) },
    { "jal ra,34                   # 0x105d6", OP(JAL), C(JUMP), 0, 0, L(-1), L(RA) },
    { "jal t0,-8", OP(JAL), C(JUMP), 0, 0, L(-1), L(T0) },
    { "call 105d6 <foo>", OP(JAL), C(JUMP), 0, 0, L(-1), L(RA) },
    { "tail 105d6 <foo>", OP(JAL), C(JUMP), 0, 0, L(-1), L(-1) },
    { "ret", OP(JALR), C(JUMP), 0, 0, L(RA), L(-1) },
    { "ret                     ", OP(JALR), C(JUMP), 0, 0, L(RA), L(-1) },
    { "jr a5", OP(JALR), C(JUMP), 0, 0, L(A5), L(-1) },
    { "jr 8(a5)", OP(JALR), C(JUMP), 0, 0, L(A5), L(-1) },
    { "jalr a5", OP(JALR), C(JUMP), 0, 0, L(A5), L(RA) },
    { "jalr ra,a5,0", OP(JALR), C(JUMP), 0, 0, L(A5), L(RA) },
    { "jalr t0,8(a5)", OP(JALR), C(JUMP), 0, 0, L(A5), L(T0) },
    { "jalr -16(a4)", OP(JALR), C(JUMP), 0, 0, L(A4), L(RA) },
    { "beqz a0,26 # 0x104ca", OP(BEQ), C(BRANCH), 0, 0, L(A0), L(-1) },
    { "bnez a0,1062e <x>", OP(BNE), C(BRANCH), 0, 0, L(A0), L(-1) },
    { "blez a1,26 # 0x104ca", OP(BGE), C(BRANCH), 0, 0, L(A1), L(-1) },
    { "bgez a1,-6", OP(BGE), C(BRANCH), 0, 0, L(A1), L(-1) },
    { "bltz a1,8", OP(BLT), C(BRANCH), 0, 0, L(A1), L(-1) },
    { "bgtz a1,8", OP(BLT), C(BRANCH), 0, 0, L(A1), L(-1) },
    /* bgt a,b = blt b,a: rs1 is the second operand */
    { "bgt a0,a1,8", OP(BLT), C(BRANCH), 0, 0, L(A1, A0), L(-1) },
    { "ble a0,a1,8", OP(BGE), C(BRANCH), 0, 0, L(A1, A0), L(-1) },
    { "bgtu a0,a1,8", OP(BLTU), C(BRANCH), 0, 0, L(A1, A0), L(-1) },
    { "bleu a0,a1,8", OP(BGEU), C(BRANCH), 0, 0, L(A1, A0), L(-1) },
    { "fmv.s fa0,fa1", OP(FSGNJ_S), C(FP_ADD), 0, 0, L(F(11)), L(F(10)) },
    { "fneg.s fa0,fa1", OP(FSGNJN_S), C(FP_ADD), 0, 0, L(F(11)), L(F(10)) },
    { "fabs.s fa0,fa1", OP(FSGNJX_S), C(FP_ADD), 0, 0, L(F(11)), L(F(10)) },
    { "fmv.d fa2,fa0", OP(FSGNJ_D), C(FP_ADD), 0, 0, L(F(10)), L(F(12)) },
    { "fneg.d fa2,fa0", OP(FSGNJN_D), C(FP_ADD), 0, 0, L(F(10)), L(F(12)) },
    { "fabs.d fa2,fa0", OP(FSGNJX_D), C(FP_ADD), 0, 0, L(F(10)), L(F(12)) },
    /* QEMU 7.2 prints integer names for these: the mnemonic decides */
    { "fmv.d a2,a0", OP(FSGNJ_D), C(FP_ADD), 0, 0, L(F(10)), L(F(12)) },
    { "fneg.d a2,a0", OP(FSGNJN_D), C(FP_ADD), 0, 0, L(F(10)), L(F(12)) },
    { "fabs.d s0,t2", OP(FSGNJX_D), C(FP_ADD), 0, 0, L(F(7)), L(F(8)) },
    { "fmv.s zero,ra", OP(FSGNJ_S), C(FP_ADD), 0, 0, L(F(1)), L(F(0)) },
    { "fmv.x.s a0,fa0", OP(FMV_X_W), C(FP_CVT), 0, 0, L(F(10)), L(A0) },
    { "fmv.s.x fa0,a0", OP(FMV_W_X), C(FP_CVT), 0, 0, L(A0), L(F(10)) },
    { "csrr a0,fcsr", OP(CSRRS), C(CSR), 0, 0, L(CSR(3)), L(A0) },
    { "csrw frm,a1", OP(CSRRW), C(CSR), 0, 0, L(A1), L(CSR(2)) },
    { "csrs fflags,a1", OP(CSRRS), C(CSR), 0, 0, L(A1, CSR(1)), L(CSR(1)) },
    { "csrc fflags,a1", OP(CSRRC), C(CSR), 0, 0, L(A1, CSR(1)), L(CSR(1)) },
    { "csrwi frm,3", OP(CSRRWI), C(CSR), 0, 0, L(-1), L(CSR(2)) },
    { "csrsi fflags,16", OP(CSRRSI), C(CSR), 0, 0, L(CSR(1)), L(CSR(1)) },
    { "csrci fflags,0", OP(CSRRCI), C(CSR), 0, 0, L(CSR(1)), L(-1) },
    { "csrs fflags,16", OP(CSRRSI), C(CSR), 0, 0, L(CSR(1)), L(CSR(1)) },
    { "frflags a0", OP(CSRRS), C(CSR), 0, 0, L(CSR(1)), L(A0) },
    { "frrm a0", OP(CSRRS), C(CSR), 0, 0, L(CSR(2)), L(A0) },
    { "frcsr a0", OP(CSRRS), C(CSR), 0, 0, L(CSR(3)), L(A0) },
    { "fsflags a1", OP(CSRRW), C(CSR), 0, 0, L(A1), L(CSR(1)) },
    { "fsflags a0,a1", OP(CSRRW), C(CSR), 0, 0, L(A1, CSR(1)), L(A0, CSR(1)) },
    { "fsflags zero,a5", OP(CSRRW), C(CSR), 0, 0, L(A5), L(CSR(1)) },
    { "fsrm a1", OP(CSRRW), C(CSR), 0, 0, L(A1), L(CSR(2)) },
    { "fsrm a0,a1", OP(CSRRW), C(CSR), 0, 0, L(A1, CSR(2)), L(A0, CSR(2)) },
    { "fscsr a1", OP(CSRRW), C(CSR), 0, 0, L(A1), L(CSR(3)) },
    { "fsrmi zero,2", OP(CSRRWI), C(CSR), 0, 0, L(-1), L(CSR(2)) },
    { "fsrmi 2", OP(CSRRWI), C(CSR), 0, 0, L(-1), L(CSR(2)) },
    { "fsflagsi a0,0", OP(CSRRWI), C(CSR), 0, 0, L(CSR(1)), L(A0, CSR(1)) },
    { "rdcycle a0", OP(CSRRS), C(CSR), 0, 0, L(CSR(0xc00)), L(A0) },
    { "rdtime a0", OP(CSRRS), C(CSR), 0, 0, L(CSR(0xc01)), L(A0) },
    { "rdinstret a0", OP(CSRRS), C(CSR), 0, 0, L(CSR(0xc02)), L(A0) },
    { "unimp", OP(UNIMP), C(OTHER), 0, 0, L(-1), L(-1) },
    { "illegal", OP(UNIMP), C(OTHER), 0, 0, L(-1), L(-1) },
    { "fence", OP(FENCE), C(OTHER), 0, 0, L(-1), L(-1) },
    { "fence rw,rw", OP(FENCE), C(OTHER), 0, 0, L(-1), L(-1) },
    { "fence.tso", OP(FENCE), C(OTHER), 0, 0, L(-1), L(-1) },
    /* objdump 2.40 spells the immediate forms with the register names */
    { "add sp,sp,-192", OP(ADDI), C(INT_ALU), 0, 0, L(SP), L(SP) },
    { "addw a2,a2,-1 # 7fff <x>", OP(ADDIW), C(INT_ALU), 0, 0, L(A2), L(A2) },
    { "sll a4,a4,0x3", OP(SLLI), C(INT_ALU), 0, 0, L(A4), L(A4) },
    { "and a5,a5,255", OP(ANDI), C(INT_ALU), 0, 0, L(A5), L(A5) },
    { "csrrw a0,fcsr,5", OP(CSRRWI), C(CSR), 0, 0, L(CSR(3)), L(A0, CSR(3)) },
    /* compressed names */
    { "c.ldsp a0,8(sp);0x1000", OP(LD), C(LOAD), M(LOAD), 8, L(SP), L(A0) },
    { "c.sdsp ra,8(sp);0x1000", OP(SD), C(STORE), M(STORE), 8, L(SP, RA), L(-1) },
    { "c.addi a0,-3", OP(ADDI), C(INT_ALU), 0, 0, L(A0), L(A0) },
    { "c.add a0,a1", OP(ADD), C(INT_ALU), 0, 0, L(A0, A1), L(A0) },
    { "c.mv a0,a1", OP(ADDI), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "c.li a0,5", OP(ADDI), C(INT_ALU), 0, 0, L(-1), L(A0) },
    { "c.jr ra", OP(JALR), C(JUMP), 0, 0, L(RA), L(-1) },
    { "c.jalr a5", OP(JALR), C(JUMP), 0, 0, L(A5), L(RA) },
    { "c.beqz a0,8", OP(BEQ), C(BRANCH), 0, 0, L(A0), L(-1) },
    { "c.j -4", OP(JAL), C(JUMP), 0, 0, L(-1), L(-1) },
    { "c.nop", OP(NOP), C(OTHER), 0, 0, L(-1), L(-1) },
};

/* Implicit operands, files and sizes of real instructions. */
static const expectation insns[] = {
    { "lui a5,16", OP(LUI), C(INT_ALU), 0, 0, L(-1), L(A5) },
    { "lui a5,0x10", OP(LUI), C(INT_ALU), 0, 0, L(-1), L(A5) },
    { "auipc gp,421888               # 0x775d6", OP(AUIPC), C(INT_ALU), 0, 0, L(-1), L(3) },
    { "add a0,a1,a1", OP(ADD), C(INT_ALU), 0, 0, L(A1), L(A0) },        /* one source */
    { "add zero,a1,a2", OP(ADD), C(INT_ALU), 0, 0, L(A1, A2), L(-1) },  /* write to x0 dropped */
    { "add a0,zero,x0", OP(ADD), C(INT_ALU), 0, 0, L(-1), L(A0) },      /* x0 is no source */
    { "addi x10,x11,1", OP(ADDI), C(INT_ALU), 0, 0, L(A1), L(A0) },
    { "add s2,fp,t6", OP(ADD), C(INT_ALU), 0, 0, L(S0, 31), L(S2) },
    { "mulw a3,a3,a1", OP(MULW), C(INT_MUL), 0, 0, L(A3, A1), L(A3) },
    { "divuw a3,a3,a1", OP(DIVUW), C(INT_DIV), 0, 0, L(A3, A1), L(A3) },
    { "rem a3,a3,a1", OP(REM), C(INT_DIV), 0, 0, L(A3, A1), L(A3) },
    { "bne a3,a5,-6 # 0x104be", OP(BNE), C(BRANCH), 0, 0, L(A3, A5), L(-1) },
    { "lb a0,-1(a1);0x10", OP(LB), C(LOAD), M(LOAD), 1, L(A1), L(A0) },
    { "lbu a0,0(a1);0x10", OP(LBU), C(LOAD), M(LOAD), 1, L(A1), L(A0) },
    { "lh a0,0(a1);0x10", OP(LH), C(LOAD), M(LOAD), 2, L(A1), L(A0) },
    { "lhu a0,0(a1);0x10", OP(LHU), C(LOAD), M(LOAD), 2, L(A1), L(A0) },
    { "lwu a0,0(a1);0x10", OP(LWU), C(LOAD), M(LOAD), 4, L(A1), L(A0) },
    { "ld a0,0(a1);0x10", OP(LD), C(LOAD), M(LOAD), 8, L(A1), L(A0) },
    { "sb zero,0(a1);0x10", OP(SB), C(STORE), M(STORE), 1, L(A1), L(-1) },
    { "sh a0,0(a1);0x10", OP(SH), C(STORE), M(STORE), 2, L(A1, A0), L(-1) },
    { "sw a5,0(a0);0x40008001e0", OP(SW), C(STORE), M(STORE), 4, L(A0, A5), L(-1) },
    { "flw fa0,4(a0);0x10", OP(FLW), C(LOAD), M(LOAD), 4, L(A0), L(F(10)) },
    { "fld ft0,8(sp);0x10", OP(FLD), C(LOAD), M(LOAD), 8, L(SP), L(F(0)) },
    { "fsd fs11,16(a1);0x10", OP(FSD), C(STORE), M(STORE), 8, L(A1, F(27)), L(-1) },
    { "fsw ft11,0(a1);0x10", OP(FSW), C(STORE), M(STORE), 4, L(A1, F(31)), L(-1) },
    { "lr.w a0,(a1);0x10", OP(LR_W), C(AMO), M(LOAD), 4, L(A1), L(A0) },
    { "lr.d.aq a0,(a1);0x10", OP(LR_D), C(AMO), M(LOAD), 8, L(A1), L(A0) },
    { "sc.w a0,a2,(a1);0x10", OP(SC_W), C(AMO), M(STORE), 4, L(A1, A2), L(A0) },
    { "sc.d.rl a0,a2,(a1);0x10", OP(SC_D), C(AMO), M(STORE), 8, L(A1, A2), L(A0) },
    /* a failed SC has no address in QEMU traces: no memory access */
    { "sc.w.aq a0,a2,(a1)", OP(SC_W), C(AMO), 0, 0, L(A1, A2), L(A0) },
    { "amoadd.w a0,a1,(a2);0x10", OP(AMOADD_W), C(AMO), M(AMO), 4, L(A2, A1), L(A0) },
    { "amoswap.d.aqrl a0,a1,(a2);0x10", OP(AMOSWAP_D), C(AMO), M(AMO), 8, L(A2, A1), L(A0) },
    { "amomaxu.d.aq.rl a0,a1,(a2);0x10", OP(AMOMAXU_D), C(AMO), M(AMO), 8, L(A2, A1), L(A0) },
    { "amoor.w.rl zero,a1,(a2);0x10;0x10", OP(AMOOR_W), C(AMO), M(AMO), 4, L(A2, A1), L(-1) },
    { "fmadd.d dyn,fa5,fa5,fa3,fa4", OP(FMADD_D), C(FP_FMA), 0, 0, L(F(15), F(13), F(14)), L(F(15)) },
    { "fmadd.d fa5,fa5,fa3,fa4", OP(FMADD_D), C(FP_FMA), 0, 0, L(F(15), F(13), F(14)), L(F(15)) },
    { "fmadd.d fa5,fa5,fa3,fa4,rne", OP(FMADD_D), C(FP_FMA), 0, 0, L(F(15), F(13), F(14)), L(F(15)) },
    { "fnmsub.s rdn,ft0,ft1,ft2,ft3", OP(FNMSUB_S), C(FP_FMA), 0, 0, L(F(1), F(2), F(3)), L(F(0)) },
    { "fadd.d dyn,fa0,fa1,fa2", OP(FADD_D), C(FP_ADD), 0, 0, L(F(11), F(12)), L(F(10)) },
    { "fmul.s ft8,ft9,ft10", OP(FMUL_S), C(FP_MUL), 0, 0, L(F(29), F(30)), L(F(28)) },
    { "fdiv.d fa0,fa1,fa2", OP(FDIV_D), C(FP_DIV), 0, 0, L(F(11), F(12)), L(F(10)) },
    { "fsqrt.d rup,fa0,fa1", OP(FSQRT_D), C(FP_DIV), 0, 0, L(F(11)), L(F(10)) },
    { "fmin.d fs0,fs1,fs2", OP(FMIN_D), C(FP_ADD), 0, 0, L(F(9), F(18)), L(F(8)) },
    { "fcvt.w.d a0,fa5,rtz", OP(FCVT_W_D), C(FP_CVT), 0, 0, L(F(15)), L(A0) },
    { "fcvt.w.d rtz,a0,fa5", OP(FCVT_W_D), C(FP_CVT), 0, 0, L(F(15)), L(A0) },
    { "fcvt.d.w fa5,a0", OP(FCVT_D_W), C(FP_CVT), 0, 0, L(A0), L(F(15)) },
    { "fcvt.d.s fa5,fa0", OP(FCVT_D_S), C(FP_CVT), 0, 0, L(F(10)), L(F(15)) },
    { "fmv.x.d a0,fa0", OP(FMV_X_D), C(FP_CVT), 0, 0, L(F(10)), L(A0) },
    { "fmv.d.x fa0,a0", OP(FMV_D_X), C(FP_CVT), 0, 0, L(A0), L(F(10)) },
    { "flt.d a0,fa0,fa1", OP(FLT_D), C(FP_ADD), 0, 0, L(F(10), F(11)), L(A0) },
    { "fclass.d a0,f31", OP(FCLASS_D), C(FP_CVT), 0, 0, L(F(31)), L(A0) },
    { "csrrs a0,fflags,zero", OP(CSRRS), C(CSR), 0, 0, L(CSR(1)), L(A0) },
    { "csrrw zero,frm,a1", OP(CSRRW), C(CSR), 0, 0, L(A1), L(CSR(2)) },
    { "csrrs a0,0x7c0,zero", OP(CSRRS), C(CSR), 0, 0, L(CSR(0x7c0)), L(A0) },
    { "csrrs a0,hpmcounter4,zero", OP(CSRRS), C(CSR), 0, 0, L(CSR(0xc04)), L(A0) },
    { "csrrs a0,hpmcounter4h,zero", OP(CSRRS), C(CSR), 0, 0, L(CSR(0xc84)), L(A0) },
    { "ecall", OP(ECALL), C(OTHER), 0, 0, L(-1), L(-1) },
    { "ebreak", OP(EBREAK), C(OTHER), 0, 0, L(-1), L(-1) },
    { "fence.i", OP(FENCE_I), C(OTHER), 0, 0, L(-1), L(-1) },
};

static int same_but_pc(const edan_insn *a, const edan_insn *b)
{
    return a->addr == b->addr && a->op == b->op && a->size == b->size && a->mem == b->mem &&
           a->cls == b->cls && a->nsrc == b->nsrc && a->ndst == b->ndst && a->length == b->length &&
           memcmp(a->src, b->src, sizeof a->src) == 0 && memcmp(a->dst, b->dst, sizeof a->dst) == 0;
}

static void variants(void)
{
    /* each group: the same executed instruction in every trace format */
    static const char *const groups[][10] = {
        { "lw a4,0(a5);0x4000800210", "0;lw a4,0(a5);0x4000800210",
          "0;0x104be;lw a4,0(a5);0x4000800210", "0;0x104be;lw a4,0(a5);0x4000800210\n",
          "0;0x104be;lw a4,0(a5);0x4000800210\r\n", "4398              lw              a4,0(a5);0x4000800210",
          "0;0x104be;4398              lw              a4,0(a5);0x4000800210",
          "0x00000000000104be:  4398          lw      a4,0(a5);0x4000800210",
          "   lw\ta4, 0(a5) ; 0x4000800210  ", NULL },
        { "bne a3,a5,-6 # 0x104be", "0;0x104c4;bne a3,a5,-6 # 0x104be",
          "0;bne a3,a5,-6 # 0x104be",
          "fef69de3          bne                     a3,a5,-6                # 0x104be",
          "0x00000000000104c4:  fef69de3          bne                     a3,a5,-6                # 0x104be",
          "bne a3,a5,104be <sum+0xe>", NULL },
        { "fmadd.d dyn,fa5,fa5,fa3,fa4", "0;0x10500;fmadd.d dyn,fa5,fa5,fa3,fa4",
          "72d7f7c3          fmadd.d                 dyn,fa5,fa5,fa3,fa4", "fmadd.d fa5,fa5,fa3,fa4", NULL },
        { "amoadd.w.aq a0,a1,(a2);0x10", "3;0x1;amoadd.w.aq a0,a1,(a2);0x10;0x10",
          "04b6252f          amoadd.w.aq             a0,a1,(a2);0x10", NULL },
        { "ret", "0;0x104c8;ret ", "8082              ret                     ", "0;ret", NULL },
    };
    size_t g, i;
    for (g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        edan_insn ref, in;
        CHECK_MSG(parse(groups[g][0], &ref) == EDAN_OK, "'%s': %s", groups[g][0], edan_rv_error(P));
        for (i = 1; groups[g][i]; i++) {
            edan_result r = parse(groups[g][i], &in);
            CHECK_MSG(r == EDAN_OK, "'%s': %s", groups[g][i], edan_rv_error(P));
            if (r == EDAN_OK) CHECK_MSG(same_but_pc(&ref, &in), "'%s' differs from '%s'", groups[g][i], groups[g][0]);
        }
    }
    {
        edan_insn in;
        CHECK(parse("lw a4,0(a5);0x40080290", &in) == EDAN_OK);
        CHECK(in.addr == 0x40080290 && !(in.flags & EDAN_INSN_HAS_PC));
        CHECK(parse("0;0x104be;lw a4,0(a5);0x4000800210", &in) == EDAN_OK);
        CHECK(in.addr == 0x4000800210ull && (in.flags & EDAN_INSN_HAS_PC) && in.pc == 0x104be);
        CHECK(parse("0x00000000000105b4:  022000ef          jal                     ra,34                   # 0x105d6", &in) == EDAN_OK);
        CHECK((in.flags & EDAN_INSN_HAS_PC) && in.pc == 0x105b4 && in.op == EDAN_RV_OP_JAL);
        CHECK(parse("0x1000;addi a0,a0,1", &in) == EDAN_OK && in.pc == 0x1000);
        CHECK(parse("lw a4,0(a5);0xffffffffffffffff", &in) == EDAN_OK && in.addr == UINT64_MAX);
    }
}

/* Every op in its own spelling, operands generated from its syntax. */
static void every_op(void)
{
    uint32_t op;
    for (op = 0; op < EDAN_RV_OP_COUNT; op++) {
        char line[128];
        edan_insn in;
        const char *name = edan_rv_op_name(op);
        int k = snprintf(line, sizeof line, "%s ", name);
        /* the syntax string is not public; try the operand shapes by kind */
        static const char *const shapes[] = { "", "a1,a2,a3", "fa1,fa2,fa3", "a1,fa2,fa3", "fa1,a2",
            "a1,fa2", "fa1,fa2", "a1,a2", "a1,12", "a1,a2,12", "a1,8(a2)", "fa1,8(a2)", "a1,a2,(a3)",
            "a1,(a3)", "a1,a2,16", "fa1,fa2,fa3,fa4", "a1,fflags,a2", "a1,fflags,3", "rw,rw", "a1,8(a2)" };
        size_t i;
        int ok = 0;
        for (i = 0; i < sizeof shapes / sizeof shapes[0] && !ok; i++) {
            snprintf(line + k, sizeof line - (size_t)k, "%s", shapes[i]);
            if (parse(line, &in) == EDAN_OK && in.op == op) ok = 1;
            else {
                strcat(line, ";0x100");
                if (parse(line, &in) == EDAN_OK && in.op == op) ok = 1;
            }
        }
        CHECK_MSG(ok, "op %s: no operand shape parses to it", name);
        CHECK(edan_rv_op_name(op) != NULL);
    }
    CHECK(edan_rv_op_name(EDAN_RV_OP_COUNT) == NULL);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_FMADD_D) == 2);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_FNMSUB_S) == 2);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_FADD_S) == 1);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_FSQRT_D) == 1);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_FDIV_D) == 1);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_FSGNJ_D) == 0);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_FLD) == 0);
    CHECK(edan_rv_op_flops(EDAN_RV_OP_ADD) == 0);
    CHECK(edan_rv_op_flops(9999) == 0);
}

typedef struct bad_line {
    const char *line;
    edan_result r;
    const char *msg;    /* must occur in p->error */
} bad_line;

static void bad_input(void)
{
    static const bad_line bad[] = {
        { "foo a0,a1", EDAN_ERR_UNKNOWN_OP, "unknown mnemonic 'foo'" },
        { "0;0x104be;fadd.q fa0,fa1,fa2", EDAN_ERR_UNKNOWN_OP, "unknown mnemonic 'fadd.q'" },
        { "add.aq a0,a1,a2", EDAN_ERR_UNKNOWN_OP, "unknown mnemonic" },
        { "vle8.v v0,(a0);0x10", EDAN_ERR_UNKNOWN_OP, "vle8.v" },
        { "lw a4,0(a5)", EDAN_ERR_PARSE, "load without address" },
        { "0;0x104be;sd a4,0(a5)", EDAN_ERR_PARSE, "store without address" },
        { "amoadd.w a0,a1,(a2)", EDAN_ERR_PARSE, "atomic without address" },
        { "lr.w a0,(a1)", EDAN_ERR_PARSE, "load without address" },
        { "addi a0,a0,1;0x10", EDAN_ERR_PARSE, "does not access memory" },
        { "lw a4,0(a5);0xzz", EDAN_ERR_PARSE, "malformed address" },
        { "lw a4,0(a5);0x12345678901234567", EDAN_ERR_PARSE, "malformed address" },
        { "lw a4,0(a5);", EDAN_ERR_PARSE, "malformed address" },
        { "lw a4,0(a5);0x10;0x10", EDAN_ERR_PARSE, "second address" },
        { "amoadd.w a0,a1,(a2);0x10;0x20", EDAN_ERR_PARSE, "second address" },
        { "lw a4,0(a5);0x10 junk", EDAN_ERR_PARSE, "unexpected text" },
        { "lw a4,0(a", EDAN_ERR_PARSE, "operand 2" },            /* truncated line */
        { "lw a4,0(a5", EDAN_ERR_PARSE, "operand 2" },
        { "lw a4,(a5", EDAN_ERR_PARSE, "operand 2" },
        { "lw a4", EDAN_ERR_PARSE, "needs more operands" },
        { "lw fa4,0(a5);0x10", EDAN_ERR_PARSE, "expected an integer register, got 'fa4'" },
        { "fld a4,0(a5);0x10", EDAN_ERR_PARSE, "expected an FP register, got 'a4'" },
        { "fadd.d fa0,a1,fa2", EDAN_ERR_PARSE, "operand 2: expected an FP register" },
        { "add a0,a1,x32", EDAN_ERR_PARSE, "operand 3" },
        { "add a0,a1,a8", EDAN_ERR_PARSE, "operand 3" },
        { "add a0,a1,s12", EDAN_ERR_PARSE, "operand 3" },
        { "add a0,a1,t7", EDAN_ERR_PARSE, "operand 3" },
        { "add a0,a1,x05", EDAN_ERR_PARSE, "operand 3" },
        { "add a0,a1", EDAN_ERR_PARSE, "needs more operands" },
        { "add a0,a1,a2,a3", EDAN_ERR_PARSE, "too many operands" },
        { "add a0,,a2", EDAN_ERR_PARSE, "operand 2" },
        { "addi a0,a1,12x", EDAN_ERR_PARSE, "operand 3" },
        { "addi a0,a1,", EDAN_ERR_PARSE, "operand 3: missing" },
        { "beq a0,a1,zz", EDAN_ERR_PARSE, "branch target" },
        { "fadd.d fa0,fa1,fa2,inv", EDAN_ERR_PARSE, "rounding mode" },
        { "fadd.d xyz,fa0,fa1,fa2", EDAN_ERR_PARSE, "operand 1" },
        { "fmv.x.d fa0,fa0", EDAN_ERR_PARSE, "expected an integer register" },
        { "csrrs a0,nosuchcsr,zero", EDAN_ERR_PARSE, "CSR name or number, got 'nosuchcsr'" },
        { "csrrs a0,4096,zero", EDAN_ERR_PARSE, "CSR" },
        { "csrrwi a0,frm,32", EDAN_ERR_PARSE, "operand 3" },
        { "0;0x10zz;addi a0,a0,1", EDAN_ERR_PARSE, "malformed PC" },
        { "lw,a4,0(a5)", EDAN_ERR_PARSE, "malformed instruction" },
        { "\x7f\x45LF\x02\x01\x01", EDAN_ERR_PARSE, "\\x7f" },
        { "ADD a0,a1,a2", EDAN_ERR_PARSE, "malformed instruction" },
    };
    size_t i;
    edan_insn in;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        edan_result r = edan_rv_parse_line(P, bad[i].line, strlen(bad[i].line), &in);
        CHECK_MSG(r == bad[i].r, "'%s': result %d, expected %d (%s)", bad[i].line, (int)r, (int)bad[i].r, edan_rv_error(P));
        CHECK_MSG(strstr(edan_rv_error(P), bad[i].msg) != NULL, "'%s': message '%s' lacks '%s'", bad[i].line, edan_rv_error(P), bad[i].msg);
    }
    {
        /* a NUL byte inside the line */
        static const char nul[] = "lw a4,0(a5)\0;0x10";
        CHECK(edan_rv_parse_line(P, nul, sizeof nul - 1, &in) == EDAN_ERR_PARSE);
        CHECK(strstr(edan_rv_error(P), "\\x00") != NULL);
    }
    {
        /* overlong line: rejected with its length, no scan beyond the limit */
        static char big[EDAN_RV_MAX_LINE + 100];
        memset(big, 'a', sizeof big);
        CHECK(edan_rv_parse_line(P, big, sizeof big, &in) == EDAN_ERR_PARSE);
        CHECK(strstr(edan_rv_error(P), "too long") != NULL);
        /* a long but legal line */
        memset(big, ' ', 3000);
        strcpy(big + 3000, "add a0,a1,a2");
        CHECK(edan_rv_parse_line(P, big, strlen(big), &in) == EDAN_OK);
    }
    /* blank lines and comments are skipped */
    {
        CHECK(parse("", &in) == EDAN_SKIP);
        CHECK(parse("\n", &in) == EDAN_SKIP);
        CHECK(parse("\r\n", &in) == EDAN_SKIP);
        CHECK(parse("   \t ", &in) == EDAN_SKIP);
        CHECK(parse("# a comment", &in) == EDAN_SKIP);
        CHECK(parse("  # indented comment", &in) == EDAN_SKIP);
        CHECK(edan_rv_parse_line(P, NULL, 0, &in) == EDAN_SKIP);
    }
    CHECK(edan_rv_parse_line(NULL, "nop", 3, &in) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_rv_parse_line(P, "nop", 3, NULL) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_rv_parse_line(P, NULL, 3, &in) == EDAN_ERR_INVALID_ARG);
    /* a parser keeps working after errors; a new one says no error yet; its
       memory comes from the allocator given */
    {
        edan_rv_parser *fresh = NULL;
        edan_allocator counted = { counting_alloc, NULL, counting_free, NULL };
        CHECK(edan_rv_parser_create(NULL, NULL) == EDAN_ERR_INVALID_ARG);
        CHECK(edan_rv_parser_create(&fresh, &counted) == EDAN_OK && fresh);
        CHECK(live_allocs == 1 && !strcmp(edan_rv_error(fresh), ""));
        CHECK(edan_rv_parse_line(fresh, "lw a4,0(a5);0x10", 16, &in) == EDAN_OK && in.op == EDAN_RV_OP_LW);
        CHECK(edan_rv_parse_line(fresh, "bogus", 5, &in) == EDAN_ERR_UNKNOWN_OP);
        CHECK(strstr(edan_rv_error(fresh), "bogus") != NULL);
        CHECK(edan_rv_parse_line(fresh, "sd a0,8(sp);0x20", 16, &in) == EDAN_OK && in.op == EDAN_RV_OP_SD);
        edan_rv_parser_destroy(fresh);
        CHECK(live_allocs == 0);
        edan_rv_parser_destroy(NULL);
    }
}

/* Results are memoised by instruction text: a line read again, after many
   other texts have evicted or collided with it, reads as a fresh parser
   reads it, with its own address and pc. */
static void memo(void)
{
    edan_rv_parser *fresh = NULL;
    char line[128];
    int i, pass, bad = 0;
    CHECK(edan_rv_parser_create(&fresh, NULL) == EDAN_OK);
    for (pass = 0; pass < 3; pass++) {
        for (i = 0; i < 2000; i++) {
            edan_insn a, b;
            int r = i % 7;
            if (r == 0) snprintf(line, sizeof line, "0;0x%x;lw a%d,%d(s%d);0x%x", 0x1000 + i, i % 8, i, i % 12, 64 * i + pass);
            else if (r == 1) snprintf(line, sizeof line, "add a%d,a%d,t%d", i % 8, (i / 8) % 8, i % 7);
            else if (r == 2) snprintf(line, sizeof line, "fmadd.d dyn,fa%d,fa%d,fa%d,fa%d", i % 8, (i + 1) % 8, (i + 2) % 8, i % 3);
            else if (r == 3) snprintf(line, sizeof line, "sd a%d,%d(sp);0x%x", i % 8, 8 * i, 4096 + pass * 8);
            else if (r == 4) snprintf(line, sizeof line, "bne a%d,a%d,%d # 0x%x", i % 8, (i + 3) % 8, -i, 0x104be + i);
            else if (r == 5) snprintf(line, sizeof line, "lw a%d,0(a5)", i % 8);    /* error: no address */
            else snprintf(line, sizeof line, "amoadd.w a%d,a1,(a2);0x%x;0x%x", i % 8, 16 * i, 16 * i);
            {
                edan_result ra = edan_rv_parse_line(P, line, strlen(line), &a);
                edan_result rb;
                memset(fresh->memo, 0, sizeof fresh->memo);     /* as new */
                rb = edan_rv_parse_line(fresh, line, strlen(line), &b);
                if (ra != rb || (ra == EDAN_OK && (!same_but_pc(&a, &b) || a.pc != b.pc || a.flags != b.flags))) {
                    if (bad++ < 5) fprintf(stderr, "memo: '%s' reads differently the %d. time\n", line, pass + 1);
                }
            }
        }
    }
    CHECK_MSG(bad == 0, "%d lines read differently when memoised", bad);
    edan_rv_parser_destroy(fresh);
    /* texts of every length to past the memo's longest (padding, as in
       QEMU's disassembly), 512 of each length that share their first
       words and differ in their last bytes, so that some share a memo set:
       each read twice must give its own registers */
    bad = 0;
    for (pass = 0; pass < 2; pass++) {
        int pad, x;
        for (pad = 1; pad < 100; pad++)
            for (x = 0; x < 512; x++) {
                int d = x >> 6, s1 = (x >> 3) & 7, s2 = x & 7;
                edan_insn a;
                snprintf(line, sizeof line, "add%*sa%d,a%d,a%d", pad, "", d, s1, s2);
                if (edan_rv_parse_line(P, line, strlen(line), &a) != EDAN_OK || a.ndst != 1 || a.dst[0] != 10 + d ||
                    a.src[0] != 10 + s1 || a.nsrc != (s1 == s2 ? 1 : 2) || (s1 != s2 && a.src[1] != 10 + s2)) {
                    if (bad++ < 5) fprintf(stderr, "memo: '%s' (%zu bytes) reads wrong\n", line, strlen(line));
                }
            }
    }
    CHECK_MSG(bad == 0, "%d padded lines read wrong", bad);
}

static void make_api(void)
{
    edan_insn in;
    CHECK(edan_rv_make(EDAN_RV_OP_ADD, 10, 11, 12, 0, 0, 0, &in) == EDAN_OK);
    CHECK(in.nsrc == 2 && in.src[0] == 11 && in.src[1] == 12 && in.ndst == 1 && in.dst[0] == 10);
    CHECK(edan_rv_make(EDAN_RV_OP_COUNT, 0, 0, 0, 0, 0, 0, &in) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_rv_make(EDAN_RV_OP_ADD, 32, 0, 0, 0, 0, 0, &in) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_rv_make(EDAN_RV_OP_CSRRS, 1, 0, 0, 0, 4096, 0, &in) == EDAN_ERR_INVALID_ARG);
}

/* Stack slots (store-to-load forwarding): a load or store based on sp,
   and nothing else, carries EDAN_INSN_STACK; the memo keeps it (each line
   twice), and bytes decode to the same (c.ldsp, c.sdsp, ld/sd off sp). */
static void stack_slots(void)
{
    static const struct { const char *line; int stack; } lines[] = {
        {"ld ra,8(sp);0x7fff0008", 1}, {"sd s0,16(sp);0x7fff0010", 1}, {"fld fa0,24(sp);0x7fff0018", 1},
        {"lw a0,0(sp);0x7fff0000", 1}, {"ld a0,8(a1);0x20008", 0}, {"sd sp,0(a0);0x20000", 0},
        {"addi sp,sp,-16", 0}, {"amoadd.w a0,a1,(sp);0x7fff0000", 0},
        {"0;0x10000;ld ra,8(sp);0x7fff0008", 1}, {"0;0x10004;ld a1,8(a1);0x20000", 0},
    };
    static const struct { uint8_t bytes[4]; unsigned len; int stack; } enc[] = {
        {{0xa2, 0x60}, 2, 1},               /* c.ldsp ra,8(sp) */
        {{0x22, 0xe8}, 2, 1},               /* c.sdsp s0,16(sp) */
        {{0x83, 0x30, 0x81, 0x00}, 4, 1},   /* ld ra,8(sp) */
        {{0x03, 0xb5, 0x85, 0x00}, 4, 0},   /* ld a0,8(a1) */
    };
    size_t i, k;
    for (k = 0; k < 2; k++)
        for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
            edan_insn in;
            CHECK_MSG(parse(lines[i].line, &in) == EDAN_OK, "'%s': %s", lines[i].line, edan_rv_error(P));
            CHECK_MSG(((in.flags & EDAN_INSN_STACK) != 0) == lines[i].stack, "'%s' (pass %u): stack flag %d, expected %d",
                      lines[i].line, (unsigned)k, (in.flags & EDAN_INSN_STACK) != 0, lines[i].stack);
        }
    for (i = 0; i < sizeof enc / sizeof enc[0]; i++) {
        edan_insn in;
        memset(&in, 0, sizeof in);
        CHECK_MSG(edan_rv_decode(enc[i].bytes, enc[i].len, &in) == EDAN_OK, "encoding %u does not decode", (unsigned)i);
        CHECK_MSG(((in.flags & EDAN_INSN_STACK) != 0) == enc[i].stack, "encoding %u (%s): stack flag %d, expected %d",
                  (unsigned)i, edan_rv_op_name(in.op), (in.flags & EDAN_INSN_STACK) != 0, enc[i].stack);
    }
}

int main(void)
{
    size_t i;
    if (edan_rv_parser_create(&P, NULL) != EDAN_OK) return 1;
    for (i = 0; i < sizeof pseudo / sizeof pseudo[0]; i++) check_expect(&pseudo[i]);
    for (i = 0; i < sizeof insns / sizeof insns[0]; i++) check_expect(&insns[i]);
    variants();
    every_op();
    bad_input();
    memo();
    stack_slots();
    make_api();
    return check_summary("test_rv_parse");
}
