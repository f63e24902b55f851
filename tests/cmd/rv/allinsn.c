/* Every RV64GC instruction form once, for the decoder differential test.
   all_insns is never called as a function: main copies each of its
   instructions into an executable page, runs it there with every register
   pointing at scratch memory, and recovers from whatever it does (fault,
   trap, jump) with siglongjmp. So qemu-riscv64 -d in_asm disassembles every
   instruction form, and the test compares QEMU's text with the decoder. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define AMO(op) op ".w a0,a1,(a2)\n" op ".w.aq a0,a1,(a2)\n" op ".w.rl a0,a1,(a2)\n" \
    op ".w.aqrl a0,a1,(a2)\n" op ".d a0,a1,(a2)\n" op ".d.aq a0,a1,(a2)\n" op ".d.rl a3,a4,(a5)\n" \
    op ".d.aqrl t0,t1,(t2)\n"
#define FP3(op) op ".s fa0,fa1,fa2\n" op ".d fs0,fs1,ft11\n"
#define FP3RM(op) op ".s fa0,fa1,fa2\n" op ".s fa0,fa1,fa2,rtz\n" op ".d ft0,ft1,ft2\n" \
    op ".d fa5,fa6,fa7,rne\n" op ".d ft8,ft9,ft10,rmm\n"
#define FP4(op) op ".s fa0,fa1,fa2,fa3\n" op ".s fa0,fa1,fa2,fa3,rdn\n" op ".d fs2,fs3,fs4,fs5\n" \
    op ".d fa0,fa1,fa2,fa3,rup\n"

void all_insns(void);
void all_insns(void)
{
    __asm__ volatile(
        ".globl all_insns_start\nall_insns_start:\n"
        ".option push\n.option norvc\n"
        "lui a0,0x12345\n auipc a1,0x1\n jal ra,1f\n jal t0,1f\n jal zero,1f\n"
        "1:\n jalr t0,8(a0)\n jalr ra,0(a1)\n jalr zero,0(ra)\n jalr zero,16(a2)\n jalr a3,-4(a4)\n"
        "beq a0,a1,2f\n bne a0,zero,2f\n blt a2,a3,2f\n bge zero,a4,2f\n bltu a5,a6,2f\n bgeu a7,s0,2f\n"
        "blt zero,a0,2f\n blt a0,zero,2f\n bge a0,zero,2f\n beq a0,zero,2f\n"
        "2:\n lb a0,-1(a1)\n lh a2,2(a3)\n lw a4,4(a5)\n ld a6,8(a7)\n lbu s2,1(s3)\n lhu s4,2(s5)\n lwu s6,4(s7)\n"
        "sb a0,-1(a1)\n sh a2,2(a3)\n sw a4,4(a5)\n sd a6,8(sp)\n"
        "addi a0,a1,-5\n addi a0,zero,7\n addi a0,a1,0\n addi zero,zero,0\n slti a0,a1,3\n sltiu a0,a1,1\n sltiu a0,a1,9\n"
        "xori a0,a1,-1\n xori a0,a1,4\n ori a0,a1,8\n andi a0,a1,255\n andi a0,a1,7\n slli a0,a1,33\n srli a0,a1,63\n srai a0,a1,1\n"
        "add a0,a1,a2\n sub a0,a1,a2\n sub a0,zero,a2\n sll a0,a1,a2\n slt a0,a1,a2\n slt a0,a1,zero\n slt a0,zero,a2\n"
        "sltu a0,a1,a2\n sltu a0,zero,a2\n xor a0,a1,a2\n srl a0,a1,a2\n sra a0,a1,a2\n or a0,a1,a2\n and a0,a1,a2\n"
        "addiw a0,a1,3\n addiw a0,a1,0\n slliw a0,a1,3\n srliw a0,a1,31\n sraiw a0,a1,2\n"
        "addw a0,a1,a2\n subw a0,a1,a2\n subw a0,zero,a2\n sllw a0,a1,a2\n srlw a0,a1,a2\n sraw a0,a1,a2\n"
        "fence\n fence rw,w\n fence r,rw\n fence iorw,iorw\n fence.tso\n fence.i\n ecall\n ebreak\n"
        "csrrw a0,fcsr,a1\n csrrs a0,fflags,a1\n csrrc a0,frm,a2\n csrrwi a0,fcsr,5\n csrrsi a0,fflags,1\n"
        "csrrci a0,frm,0\n csrrci a0,frm,3\n csrrs a0,cycle,zero\n csrrs a0,time,zero\n csrrs a0,instret,zero\n"
        "csrrs a0,fflags,zero\n csrrs a0,frm,zero\n csrrs a0,fcsr,zero\n csrrw zero,fflags,a1\n csrrw zero,frm,a1\n"
        "csrrw zero,fcsr,a1\n csrrw a2,frm,a1\n csrrwi zero,frm,2\n csrrwi zero,fflags,0\n csrrwi a0,frm,1\n"
        "csrrs a0,0x7c0,zero\n csrrw zero,0x7c1,a0\n csrrs zero,0x7c2,a0\n csrrc zero,0x7c2,a0\n csrrsi zero,0x7c2,3\n"
        "csrrs a0,vlenb,zero\n csrrs a0,mhartid,zero\n csrrw zero,mstatus,a0\n csrrs a0,hpmcounter3,zero\n"
        "csrrs a0,hpmcounter31,zero\n csrrs a0,pmpaddr12,zero\n"
        "mul a0,a1,a2\n mulh a0,a1,a2\n mulhsu a0,a1,a2\n mulhu a0,a1,a2\n div a0,a1,a2\n divu a0,a1,a2\n"
        "rem a0,a1,a2\n remu a0,a1,a2\n mulw a0,a1,a2\n divw a0,a1,a2\n divuw a0,a1,a2\n remw a0,a1,a2\n remuw a0,a1,a2\n"
        "lr.w a0,(a1)\n lr.w.aq a0,(a1)\n lr.w.aqrl a0,(a1)\n lr.d a0,(a1)\n lr.d.aq a0,(a1)\n"
        "sc.w a0,a2,(a1)\n sc.w.rl a0,a2,(a1)\n sc.d a0,a2,(a1)\n sc.d.aqrl a0,a2,(a1)\n"
        AMO("amoswap") AMO("amoadd") AMO("amoxor") AMO("amoand") AMO("amoor") AMO("amomin") AMO("amomax")
        AMO("amominu") AMO("amomaxu")
        "flw fa0,4(a0)\n fsw fa1,-4(sp)\n fld ft0,8(a0)\n fsd fs11,16(a1)\n"
        FP4("fmadd") FP4("fmsub") FP4("fnmsub") FP4("fnmadd")
        FP3RM("fadd") FP3RM("fsub") FP3RM("fmul") FP3RM("fdiv")
        "fsqrt.s fa0,fa1\n fsqrt.s fa0,fa1,rtz\n fsqrt.d fa0,fa1\n fsqrt.d fa0,fa1,rup\n"
        FP3("fsgnj") FP3("fsgnjn") FP3("fsgnjx") FP3("fmin") FP3("fmax")
        "fsgnj.s fa0,fa1,fa1\n fsgnjn.s fa0,fa1,fa1\n fsgnjx.s fa0,fa1,fa1\n"
        "fsgnj.d fa2,fa0,fa0\n fsgnjn.d fa2,fa0,fa0\n fsgnjx.d fa2,fa0,fa0\n"
        "fcvt.w.s a0,fa0\n fcvt.w.s a0,fa0,rtz\n fcvt.wu.s a0,fa0\n fcvt.l.s a0,fa0\n fcvt.lu.s a0,fa0,rdn\n"
        "fcvt.s.w fa0,a0\n fcvt.s.wu fa0,a0\n fcvt.s.l fa0,a0,rne\n fcvt.s.lu fa0,a0\n"
        "fcvt.w.d a0,fa0\n fcvt.w.d a0,fa5,rtz\n fcvt.wu.d a0,fa0\n fcvt.l.d a0,fa0\n fcvt.lu.d a0,fa0,rmm\n"
        "fcvt.d.w fa0,a0\n fcvt.d.wu fa0,a0\n fcvt.d.l fa0,a0\n fcvt.d.lu fa0,a0,rtz\n"
        "fcvt.s.d fa0,fa1\n fcvt.s.d fa0,fa1,rtz\n fcvt.d.s fa0,fa1\n"
        "fmv.x.w a0,fa0\n fmv.w.x fa0,a0\n fmv.x.d a0,fa0\n fmv.d.x fa0,a0\n"
        "feq.s a0,fa0,fa1\n flt.s a0,fa0,fa1\n fle.s a0,fa0,fa1\n fclass.s a0,fa0\n"
        "feq.d a0,fa0,fa1\n flt.d a0,fa0,fa1\n fle.d a0,fa0,fa1\n fclass.d a0,fa0\n"
        "sret\n mret\n wfi\n sfence.vma\n sfence.vma a0\n sfence.vma a0,a1\n"
        ".option pop\n"
        /* compressed forms */
        ".option push\n.option rvc\n"
        "c.addi4spn a0,sp,16\n c.fld fa0,8(a1)\n c.lw a2,4(a3)\n c.ld a4,8(a5)\n c.fsd fa0,8(a1)\n"
        "c.sw a2,4(a3)\n c.sd a4,8(a5)\n c.nop\n c.addi a0,-3\n c.addiw a1,5\n c.addiw a1,0\n c.li a2,-7\n c.li a2,0\n"
        "c.addi16sp sp,-64\n c.lui a3,0x1f\n c.srli s0,3\n c.srai s1,63\n c.andi a5,-2\n c.sub a0,a1\n"
        "c.xor a2,a3\n c.or a4,a5\n c.and s0,s1\n c.subw a0,a1\n c.addw a2,a3\n c.j 3f\n c.beqz a0,3f\n"
        "c.bnez a1,3f\n 3:\n c.slli t0,5\n c.fldsp ft0,8(sp)\n c.lwsp t1,4(sp)\n c.ldsp t2,8(sp)\n c.jr t3\n"
        "c.jr ra\n c.mv t4,t5\n c.ebreak\n c.jalr t6\n c.add a0,s2\n c.fsdsp fs0,16(sp)\n c.swsp s3,4(sp)\n"
        "c.sdsp s4,8(sp)\n"
        ".option pop\n"
        ".globl all_insns_end\nall_insns_end:\n"
        ::: "memory");
}

/* run_one(code, scratch): all registers but sp, gp, tp point into scratch
   (sp too, into its middle), then jump to code. Never returns: the code
   ends in ebreak, and the signal handler siglongjmps. The first instruction
   at code moves a0 (scratch) into t6, so no register points at the code. */
void run_one(void *code, void *scratch);
__asm__(
    ".text\n.globl run_one\nrun_one:\n"
    "mv t6,a0\n mv t5,a1\n addi sp,a1,2047\n addi sp,sp,2047\n andi sp,sp,-16\n"
    "addi t5,t5,512\n mv ra,t5\n mv t0,t5\n mv t1,t5\n mv t2,t5\n mv s0,t5\n mv s1,t5\n"
    "mv a0,t5\n mv a1,t5\n mv a2,t5\n mv a3,t5\n mv a4,t5\n mv a5,t5\n mv a6,t5\n mv a7,t5\n"
    "mv s2,t5\n mv s3,t5\n mv s4,t5\n mv s5,t5\n mv s6,t5\n mv s7,t5\n mv s8,t5\n mv s9,t5\n"
    "mv s10,t5\n mv s11,t5\n mv t3,t5\n mv t4,t5\n jr t6\n");

extern const unsigned char all_insns_start[], all_insns_end[];
static sigjmp_buf recover;
static void on_signal(int sig)
{
    (void)sig;
    siglongjmp(recover, 1);
}

static unsigned char scratch[8192] __attribute__((aligned(64)));
static unsigned char altstack[65536] __attribute__((aligned(16)));

static int run_all(void)
{
    static const int sigs[] = { SIGILL, SIGSEGV, SIGBUS, SIGTRAP, SIGFPE };
    unsigned char *page = mmap(NULL, 3 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *code;
    const unsigned char *volatile p;
    struct sigaction sa;
    stack_t ss;
    size_t i;
    volatile int n = 0;
    if (page == MAP_FAILED) return -1;
    code = page + 4096;     /* guard pages around the code page */
    if (mprotect(code, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return -1;
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, NULL) != 0) return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
    for (p = all_insns_start; p < all_insns_end; p += (p[0] & 3) == 3 ? 4 : 2) {
        size_t len = (p[0] & 3) == 3 ? 4 : 2, k;
        for (k = 0; k < 4096; k += 2) { code[k] = 0x02; code[k + 1] = 0x90; }   /* c.ebreak */
        code[0] = 0xaa; code[1] = 0x8f;                                         /* c.mv t6,a0 */
        memcpy(code + 2, p, len);
        __builtin___clear_cache((char *)code, (char *)code + 4096);
        if (sigsetjmp(recover, 1) == 0) run_one(code, scratch);
        __asm__ volatile("fscsr zero");         /* the instruction may have set a bad frm */
        n++;
    }
    return n;
}

int main(void)
{
    int n = run_all();
    printf("%d instructions run\n", n);
    return n > 0 ? 0 : 1;
}
