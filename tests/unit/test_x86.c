/* tests/unit/test_x86.c - the x86-64 front-end (tools/x86.c) on hand-picked
   instructions (bytes from GNU as): registers read and written, RFLAGS,
   merges, the memory accesses in order, class and flops, each expectation
   worked out from the model page's rules for x86-64, not from the decoder. */
#define EDAN_IMPLEMENTATION
#include "x86.h"
#include "check.h"

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI };
#define G(n) EDAN_X86_GPR(n)
#define V(n) EDAN_X86_VEC(n)
#define K(n) EDAN_X86_MASK(n)
#define F EDAN_X86_RFLAGS
#define X87 EDAN_X86_X87
#define L(size) {EDAN_MEM_LOAD, size, 1, 0, 0}
#define S(size) {EDAN_MEM_STORE, size, 1, 0, 0}

typedef struct x86_case {
    const char *text;
    uint8_t bytes[15];
    uint8_t len;
    edan_reg src[EDAN_MAX_SRC + 1], dst[EDAN_MAX_DST + 1];      /* 0-terminated */
    x86_access acc[X86_MAX_ACCESSES];
    uint32_t nacc;
    uint8_t cls;
    uint32_t flops;
} x86_case;

static const x86_case cases[] = {
    {"add rax, rbx", {0x48, 0x01, 0xd8}, 3, {G(RAX), G(RBX)}, {G(RAX), F}, {{0}}, 0, EDAN_CLASS_INT_ALU, 0},
    {"mov al, [rdi] (merges into rax)", {0x8a, 0x07}, 2, {G(RDI), G(RAX)}, {G(RAX)}, {L(1)}, 1, EDAN_CLASS_LOAD, 0},
    {"mov eax, [rdi] (zero-extends)", {0x8b, 0x07}, 2, {G(RDI)}, {G(RAX)}, {L(4)}, 1, EDAN_CLASS_LOAD, 0},
    {"add [rbx+rcx*8], rax", {0x48, 0x01, 0x04, 0xcb}, 4, {G(RBX), G(RCX), G(RAX)}, {F}, {L(8), S(8)}, 2,
     EDAN_CLASS_AMO, 0},
    {"push rbp", {0x55}, 1, {G(RSP), G(RBP)}, {G(RSP)}, {S(8)}, 1, EDAN_CLASS_STORE, 0},
    {"pop rbp", {0x5d}, 1, {G(RSP)}, {G(RSP), G(RBP)}, {L(8)}, 1, EDAN_CLASS_LOAD, 0},
    {"adc rax, rbx", {0x48, 0x11, 0xd8}, 3, {G(RAX), G(RBX), F}, {G(RAX), F}, {{0}}, 0, EDAN_CLASS_INT_ALU, 0},
    {"addsd xmm0, xmm1 (SSE merges)", {0xf2, 0x0f, 0x58, 0xc1}, 4, {V(0), V(1)}, {V(0)}, {{0}}, 0,
     EDAN_CLASS_FP_ADD, 1},
    {"vaddsd xmm0, xmm1, xmm2 (VEX zeroes)", {0xc5, 0xf3, 0x58, 0xc2}, 4, {V(1), V(2)}, {V(0)}, {{0}}, 0,
     EDAN_CLASS_FP_ADD, 1},
    {"vfmadd231pd ymm0, ymm1, [rax]", {0xc4, 0xe2, 0xf5, 0xb8, 0x00}, 5, {V(0), V(1), G(RAX)}, {V(0)}, {L(32)}, 1,
     EDAN_CLASS_LOAD, 8},
    {"rep movsb (one iteration)", {0xf3, 0xa4}, 2, {G(RSI), G(RDI), G(RCX)}, {G(RSI), G(RDI), G(RCX)}, {L(1), S(1)},
     2, EDAN_CLASS_AMO, 0},
    {"call rel32", {0xe8, 0, 0, 0, 0}, 5, {G(RSP)}, {G(RSP)}, {S(8)}, 1, EDAN_CLASS_STORE, 0},
    {"ret", {0xc3}, 1, {G(RSP)}, {G(RSP)}, {L(8)}, 1, EDAN_CLASS_LOAD, 0},
    {"vgatherdpd zmm0{k1}, [rax+ymm1*8]", {0x62, 0xf2, 0xfd, 0x49, 0x92, 0x04, 0xc8}, 7,
     {G(RAX), V(1), K(1), V(0)}, {V(0), K(1)}, {{EDAN_MEM_LOAD, 8, 8, 1, 0}}, 1, EDAN_CLASS_LOAD, 0},
    {"cpuid", {0x0f, 0xa2}, 2, {G(RAX), G(RCX)}, {G(RAX), G(RBX), G(RCX), G(RDX)}, {{0}}, 0, EDAN_CLASS_INT_ALU, 0},
    {"div rcx", {0x48, 0xf7, 0xf1}, 3, {G(RAX), G(RDX), G(RCX)}, {G(RAX), G(RDX), F}, {{0}}, 0, EDAN_CLASS_INT_DIV, 0},
    {"xor eax, eax (a read, as any other)", {0x31, 0xc0}, 2, {G(RAX)}, {G(RAX), F}, {{0}}, 0, EDAN_CLASS_INT_ALU, 0},
    {"lea rax, [rbx+rcx*2] (no access)", {0x48, 0x8d, 0x04, 0x4b}, 4, {G(RBX), G(RCX)}, {G(RAX)}, {{0}}, 0,
     EDAN_CLASS_INT_ALU, 0},
    {"mov rax, [rip+0x10] (rip a constant)", {0x48, 0x8b, 0x05, 0x10, 0, 0, 0}, 7, {0}, {G(RAX)}, {L(8)}, 1,
     EDAN_CLASS_LOAD, 0},
    {"fld qword [rax] (the x87 stack merges)", {0xdd, 0x00}, 2, {G(RAX), X87}, {X87}, {L(8)}, 1, EDAN_CLASS_LOAD, 0},
    {"mov ah, bl", {0x88, 0xdc}, 2, {G(RBX), G(RAX)}, {G(RAX)}, {{0}}, 0, EDAN_CLASS_INT_ALU, 0},
    {"cmpxchg [rdi], rcx", {0x48, 0x0f, 0xb1, 0x0f}, 4, {G(RDI), G(RAX), G(RCX)}, {G(RAX), F}, {L(8), S(8)}, 2,
     EDAN_CLASS_AMO, 0},
    {"vaddpd zmm0{k2}, zmm1, zmm2 (merge-masking)", {0x62, 0xf1, 0xf5, 0x4a, 0x58, 0xc2}, 6,
     {V(1), V(2), K(2), V(0)}, {V(0)}, {{0}}, 0, EDAN_CLASS_FP_ADD, 8},
    {"vaddpd zmm0{k2}{z}, zmm1, zmm2 (zero-masking)", {0x62, 0xf1, 0xf5, 0xca, 0x58, 0xc2}, 6, {V(1), V(2), K(2)},
     {V(0)}, {{0}}, 0, EDAN_CLASS_FP_ADD, 8},
    {"vaddpd zmm3, zmm1, zmm2 (k0: no mask)", {0x62, 0xf1, 0xf5, 0x48, 0x58, 0xda}, 6, {V(1), V(2)}, {V(3)}, {{0}},
     0, EDAN_CLASS_FP_ADD, 8},
    {"je", {0x74, 0x00}, 2, {F}, {0}, {{0}}, 0, EDAN_CLASS_BRANCH, 0},
    {"nop word [rax+rax] (a long nop: nothing)", {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}, 6, {0}, {0}, {{0}}, 0,
     EDAN_CLASS_OTHER, 0},
    {"prefetcht0 [rax] (an address, no data)", {0x0f, 0x18, 0x08}, 3, {G(RAX)}, {0}, {{0}}, 0, EDAN_CLASS_INT_ALU, 0},
    {"lock xadd [rsi], eax", {0xf0, 0x0f, 0xc1, 0x06}, 4, {G(RSI), G(RAX)}, {G(RAX), F}, {L(4), S(4)}, 2,
     EDAN_CLASS_AMO, 0},
};

/* The same registers, in any order. */
static int same_set(const edan_reg *got, uint32_t n, const edan_reg *want)
{
    uint32_t i, j, nw = 0;
    while (want[nw]) nw++;
    if (n != nw) return 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < nw && want[j] != got[i]; j++) {}
        if (j == nw) return 0;
    }
    return 1;
}

static void print_regs(const char *what, const edan_reg *r, uint32_t n)
{
    uint32_t i;
    fprintf(stderr, " %s", what);
    for (i = 0; i < n; i++) fprintf(stderr, " %s", x86_reg_name(r[i]) ? x86_reg_name(r[i]) : "?");
}

/* Decoded instructions fed to the model with the addresses an execution
   would give (rdi = 0x1000, rsi = 0x2000, rbx = 0x3000, rsp = 0x8000; the
   rep movsb iteration with rsi = 0x3000, rdi = 0x4000): every number
   below worked out by hand from the model page.
     1 mov rax, [rdi]        load                       md 1
     2 mov al, [rsi]         load; merges rax: <- 1      md 2
     3 add [rbx], rax        load+store; <- 2 (rax)      md 3
     4 mov rcx, [rbx]        load; <- 3 (memory)         md 4
     5 adc rdx, rcx          <- 4 (rcx), <- 3 (RFLAGS)   md 4, not memory
     6 push rdx              store; <- 5 (rdx)           md 5
     7 pop r8                load; <- 6 (rsp and bytes: one edge)  md 6
     8 movsd xmm0, [rdi+8]   load; SSE merge, xmm0 unwritten: no edge  md 1
     9 addsd xmm0, xmm1      <- 8                        not memory
    10 vmovsd xmm0, [rdi+16] load; VEX: a plain write, no edge  md 1
    11 vaddsd xmm2, xmm0, xmm1  <- 10                    not memory
    12 rep movsb (1 iteration)  rcx <- 4, load 0x3000 <- 3, store 0x4000  md 5
    13 mov r9b, [rdi]        rdi <- 12, bytes 0x4000 <- 12: one edge  md 6
   W = 10, D = 6, E = 12, C = 3, Tinf = 6 x 200 + 1 (the chains 1..7 and
   1..4, 12, 13 both). */
static void test_feed_decoded(void)
{
    static const uint8_t code[] = {0x48, 0x8b, 0x07, 0x8a, 0x06, 0x48, 0x01, 0x03, 0x48, 0x8b, 0x0b, 0x48, 0x11, 0xca,
                                   0x52, 0x41, 0x58, 0xf2, 0x0f, 0x10, 0x47, 0x08, 0xf2, 0x0f, 0x58, 0xc1, 0xc5, 0xfb,
                                   0x10, 0x47, 0x10, 0xc5, 0xfb, 0x58, 0xd1, 0xf3, 0xa4, 0x44, 0x8a, 0x4f, 0x00};
    /* the addresses of each instruction's accesses, in the decoder's order (loads first) */
    static const uint64_t addr[13][2] = {{0x1000}, {0x2000}, {0x3000, 0x3000}, {0x3000}, {0}, {0x7ff8}, {0x7ff8},
                                         {0x1008}, {0}, {0x1010}, {0}, {0x3000, 0x4000}, {0x4000}};
    edan_options o;
    edan_context *ctx;
    edan_metrics m;
    size_t at = 0, i = 0;
    char why[200];
    memset(&o, 0, sizeof o);
    o.num_regs = EDAN_X86_NUM_REGS;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    while (at < sizeof code && i < 13) {
        x86_decoded d;
        edan_access acc[X86_MAX_ACCESSES];
        uint32_t k;
        CHECK(x86_decode(code + at, sizeof code - at, at, &d, why, sizeof why) == EDAN_OK);
        for (k = 0; k < d.nacc; k++) {
            acc[k].addr = addr[i][k];
            acc[k].size = d.acc[k].size;
            acc[k].kind = d.acc[k].kind;
        }
        CHECK(edan_feed_accesses(ctx, &d.in, acc, d.nacc) == EDAN_OK);
        at += d.in.length ? d.in.length : 1;
        i++;
    }
    CHECK(i == 13 && at == sizeof code);
    CHECK(edan_get_metrics(ctx, 0, &m) == EDAN_OK);
    CHECK_EQ_U(m.N, 13);
    CHECK_EQ_U(m.W, 10);
    CHECK_EQ_U(m.D, 6);
    CHECK_EQ_U(m.E, 12);
    CHECK_EQ_U(m.C, 3);
    CHECK_EQ_U(m.Tinf, 6 * 200 + 1);
    {   /* the layers: md 1 (1, 8, 10), 2, 3, 4, 5 (6, 12), 6 (7, 13) */
        static const uint64_t want[6] = {3, 1, 1, 1, 2, 2};
        uint32_t l;
        for (l = 0; l < 6 && m.D == 6; l++) CHECK_EQ_U(m.layers[l], want[l]);
    }
    CHECK_EQ_U(m.loads, 7);
    CHECK_EQ_U(m.stores, 1);
    CHECK_EQ_U(m.amos, 2);
    edan_destroy(ctx);
}

int main(void)
{
    size_t c;
    char why[200];
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const x86_case *t = &cases[c];
        x86_decoded d;
        uint32_t i;
        int ok;
        CHECK(x86_decode(t->bytes, t->len, 0x401000, &d, why, sizeof why) == EDAN_OK);
        ok = d.in.length == t->len && same_set(d.in.src, d.in.nsrc, t->src) && same_set(d.in.dst, d.in.ndst, t->dst) &&
             d.nacc == t->nacc && d.in.cls == t->cls && d.flops == t->flops && d.in.pc == 0x401000;
        for (i = 0; ok && i < t->nacc; i++)
            ok = d.acc[i].kind == t->acc[i].kind && d.acc[i].size == t->acc[i].size &&
                 d.acc[i].count == t->acc[i].count && d.acc[i].masked == t->acc[i].masked;
        CHECK(ok);
        if (!ok) {
            fprintf(stderr, "  %s (%s): length %u", t->text, x86_op_name(d.in.op), (unsigned)d.in.length);
            print_regs("reads", d.in.src, d.in.nsrc);
            print_regs("writes", d.in.dst, d.in.ndst);
            fprintf(stderr, " class %s flops %u accesses", edan_class_name((edan_class)d.in.cls), (unsigned)d.flops);
            for (i = 0; i < d.nacc; i++)
                fprintf(stderr, " %s%u%s%s", d.acc[i].kind == EDAN_MEM_LOAD ? "L" : "S", (unsigned)d.acc[i].size,
                        d.acc[i].count > 1 ? "x" : "", d.acc[i].masked ? "(masked)" : "");
            fprintf(stderr, "\n");
        }
    }
    /* not an instruction; cut short */
    {
        static const uint8_t bad[] = {0x06}, cut[] = {0x48, 0x8b};     /* push es: not in 64-bit mode */
        x86_decoded d;
        CHECK(x86_decode(bad, sizeof bad, 0, &d, why, sizeof why) == EDAN_ERR_UNKNOWN_OP && why[0]);
        CHECK(x86_decode(cut, sizeof cut, 0, &d, why, sizeof why) == EDAN_ERR_UNKNOWN_OP && why[0]);
    }
    {   /* names: the mnemonic, the registers */
        x86_decoded d;
        CHECK(x86_decode(cases[0].bytes, cases[0].len, 0, &d, why, sizeof why) == EDAN_OK);
        CHECK(x86_op_name(d.in.op) && !strcmp(x86_op_name(d.in.op), "add"));
        /* fxsave [rsp+0x40]: 512 bytes stored in pieces; the register state it
           saves is not in the instruction's registers: it says so */
        static const uint8_t fxsave[] = {0x0f, 0xae, 0x44, 0x24, 0x40};
        CHECK(x86_decode(fxsave, sizeof fxsave, 0, &d, why, sizeof why) == EDAN_OK);
        CHECK(d.state && d.nacc == 1 && d.acc[0].kind == EDAN_MEM_STORE && d.acc[0].size == 512 && d.acc[0].split);
        CHECK(x86_decode(cases[3].bytes, cases[3].len, 0, &d, why, sizeof why) == EDAN_OK && !d.state && !d.acc[0].split);
        CHECK(!strcmp(x86_reg_name(G(RSP)), "rsp") && !strcmp(x86_reg_name(V(31)), "zmm31") &&
              !strcmp(x86_reg_name(F), "rflags") && x86_reg_name(EDAN_X86_NUM_REGS) == NULL);
    }
    test_feed_decoded();
    return check_summary("test_x86");
}
