/* tests/unit/test_x86.c - the x86-64 front-end (tools/front/x86.c) on hand-picked
   instructions (bytes from GNU as): each instruction's vertices as the
   model page cracks it ("x86-64: instructions cracked into loads,
   operations and stores"), written by hand from the page, not from the
   decoder: "L8 rbx rcx > t0 ; O rax t0 > rflags t3 ; S8 rbx rcx t3" is a
   load of 8 bytes whose address comes from rbx and rcx and whose value goes
   to temporary t0, then an operation reading rax and t0 and writing RFLAGS
   and t3, then a store of 8 bytes from t3 (Lk x n: a gather of n elements
   of k bytes). Registers in any order; zmmN is vector register N. Then
   classes and flops, and a decoded sequence fed to the model with the
   addresses of an execution, its metrics worked out by hand. */
#define _POSIX_C_SOURCE 200809L     /* strtok_r */
#define EDAN_IMPLEMENTATION
#include "tools/front/x86.h"
#include "check.h"

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI };
#define G(n) EDAN_X86_GPR(n)
#define V(n) EDAN_X86_VEC(n)
#define F EDAN_X86_RFLAGS

typedef struct x86_case {
    const char *text;
    uint8_t bytes[15];
    uint8_t len;
    const char *want;       /* its vertices, "ROLE[size[xcount]] sources > targets ; ..." */
} x86_case;

static const x86_case cases[] = {
    {"add rax, rbx", {0x48, 0x01, 0xd8}, 3, "O rax rbx > rax rflags"},
    {"mov al, [rdi]", {0x8a, 0x07}, 2, "L1 rdi > t0 ; O rax t0 > rax"},
    {"mov eax, [rdi]", {0x8b, 0x07}, 2, "L4 rdi > rax"},
    {"add [rbx+rcx*8], rax", {0x48, 0x01, 0x04, 0xcb}, 4, "L8 rbx rcx > t0 ; O rax t0 > rflags t3 ; S8 rbx rcx t3"},
    {"push rbp", {0x55}, 1, "O rsp > rsp ; S8s rsp rbp >"},
    {"pop rbp", {0x5d}, 1, "L8s rsp > rbp ; O rsp > rsp"},
    {"adc rax, rbx", {0x48, 0x11, 0xd8}, 3, "O rax rbx rflags > rax rflags"},
    {"addsd xmm0, xmm1", {0xf2, 0x0f, 0x58, 0xc1}, 4, "O zmm0 zmm1 > zmm0"},
    {"vaddsd xmm0, xmm1, xmm2", {0xc5, 0xf3, 0x58, 0xc2}, 4, "O zmm1 zmm2 > zmm0"},
    {"vfmadd231pd ymm0, ymm1, [rax]", {0xc4, 0xe2, 0xf5, 0xb8, 0x00}, 5, "L32 rax > t0 ; O zmm0 zmm1 t0 > zmm0"},
    {"rep movsb", {0xf3, 0xa4}, 2, "L1 rsi > t0 ; O rsi rdi rcx > rsi rdi rcx ; S1 rdi t0 >"},
    {"call .+5", {0xe8, 0x00, 0x00, 0x00, 0x00}, 5, "O rsp > rsp ; S8s rsp >"},
    {"ret", {0xc3}, 1, "L8s rsp > ; O rsp > rsp"},
    {"vgatherdpd zmm0{k1}, [rax+ymm1*8]", {0x62, 0xf2, 0xfd, 0x49, 0x92, 0x04, 0xc8}, 7, "L8x8 rax zmm1 k1 > t0 ; O zmm0 k1 t0 > zmm0 k1"},
    {"cpuid", {0x0f, 0xa2}, 2, "O rax rcx > rax rbx rcx rdx"},
    {"div rcx", {0x48, 0xf7, 0xf1}, 3, "O rax rdx rcx > rax rdx rflags"},
    {"xor eax, eax", {0x31, 0xc0}, 2, "O > rax rflags"},
    {"lea rax, [rbx+rcx*2]", {0x48, 0x8d, 0x04, 0x4b}, 4, "O rbx rcx > rax"},
    {"mov rax, [rip+0x10]", {0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00}, 7, "L8 > rax"},
    {"fld qword ptr [rax]", {0xdd, 0x00}, 2, "L8 rax > t0 ; O x87 t0 > x87"},
    {"mov ah, bl", {0x88, 0xdc}, 2, "O rbx rax > rax"},
    {"cmpxchg [rdi], rcx", {0x48, 0x0f, 0xb1, 0x0f}, 4, "L8 rdi > t0 ; O rax rcx t0 > rax rflags t3 ; S8 rdi t3 >"},
    {"vaddpd zmm0{k2}, zmm1, zmm2", {0x62, 0xf1, 0xf5, 0x4a, 0x58, 0xc2}, 6, "O zmm0 zmm1 zmm2 k2 > zmm0"},
    {"vaddpd zmm0{k2}{z}, zmm1, zmm2", {0x62, 0xf1, 0xf5, 0xca, 0x58, 0xc2}, 6, "O zmm1 zmm2 k2 > zmm0"},
    {"vaddpd zmm3, zmm1, zmm2", {0x62, 0xf1, 0xf5, 0x48, 0x58, 0xda}, 6, "O zmm1 zmm2 > zmm3"},
    {"je .+2", {0x74, 0x00}, 2, "O rflags >"},
    {"nop word ptr [rax+rax]", {0x66, 0x0f, 0x1f, 0x04, 0x00}, 5, "O >"},
    {"prefetcht0 [rax]", {0x0f, 0x18, 0x08}, 3, "O rax >"},
    {"lock xadd [rsi], eax", {0xf0, 0x0f, 0xc1, 0x06}, 4, "L4k rsi > t0 ; O rax t0 > rax rflags t3 ; S4 rsi t3 >"},
    {"movupd xmm0, [rax]", {0x66, 0x0f, 0x10, 0x00}, 4, "L16 rax > zmm0"},
    {"sqrtsd xmm0, xmm1", {0xf2, 0x0f, 0x51, 0xc1}, 4, "O zmm0 zmm1 > zmm0"},
    {"cvtsi2sd xmm0, rax", {0xf2, 0x48, 0x0f, 0x2a, 0xc0}, 5, "O zmm0 rax > zmm0"},
    {"movss xmm0, xmm1", {0xf3, 0x0f, 0x10, 0xc1}, 4, "O zmm0 zmm1 > zmm0"},
    {"movsd xmm0, qword ptr [rax]", {0xf2, 0x0f, 0x10, 0x00}, 4, "L8 rax > zmm0"},
    {"movlpd xmm0, [rax]", {0x66, 0x0f, 0x12, 0x00}, 4, "L8 rax > t0 ; O zmm0 t0 > zmm0"},
    {"pxor xmm0, xmm0", {0x66, 0x0f, 0xef, 0xc0}, 4, "O > zmm0"},
    {"vpxor xmm0, xmm1, xmm1", {0xc5, 0xf1, 0xef, 0xc1}, 4, "O > zmm0"},
    {"vpcmpeqd ymm2, ymm2, ymm2", {0xc5, 0xed, 0x76, 0xd2}, 4, "O > zmm2"},
    {"vzeroupper", {0xc5, 0xf8, 0x77}, 3, "O >"},
    {"vzeroall", {0xc5, 0xfc, 0x77}, 3, "O > zmm0 zmm1 zmm2 zmm3 ; O > zmm4 zmm5 zmm6 zmm7 ; O > zmm8 zmm9 zmm10 zmm11 ; O > zmm12 zmm13 zmm14 zmm15"},
    {"xor al, al", {0x30, 0xc0}, 2, "O rax > rax rflags"},
    {"call rax", {0xff, 0xd0}, 2, "O rsp > rsp ; S8s rsp >"},
    {"call qword ptr [rax]", {0xff, 0x10}, 2, "L8 rax > ; O rsp > rsp ; S8s rsp >"},
    {"jmp qword ptr [rax]", {0xff, 0x20}, 2, "L8 rax >"},
    {"leave", {0xc9}, 1, "O rbp > rsp ; L8s rbp > rbp"},
    {"cmovz rax, [rdi]", {0x48, 0x0f, 0x44, 0x07}, 4, "L8 rdi > t0 ; O rax rflags t0 > rax"},
    {"xchg [rdi], rax", {0x48, 0x87, 0x07}, 3, "L8k rdi > t0 ; O rax t0 > rax t3 ; S8 rdi t3 >"},
    {"push qword ptr [rax]", {0xff, 0x30}, 2, "L8 rax > t0 ; O rsp > rsp ; S8s rsp t0 >"},
    {"cmpsb", {0xa6}, 1, "L1 rsi > t0 ; L1 rdi > t1 ; O t0 t1 > rflags ; O rsi rdi > rsi rdi"},
    {"stosq", {0x48, 0xab}, 2, "O rdi > rdi ; S8 rdi rax >"},
    {"mov qword ptr [rax], 5", {0x48, 0xc7, 0x00, 0x05, 0x00, 0x00, 0x00}, 7, "S8 rax >"},
    {"vgatherdpd ymm0, [rax+xmm1*8], ymm2", {0xc4, 0xe2, 0xed, 0x92, 0x04, 0xc8}, 6, "L8x4 rax zmm1 zmm2 > t0 ; O zmm0 zmm2 t0 > zmm0 zmm2"},
    {"setz byte ptr [rdi]", {0x0f, 0x94, 0x07}, 3, "O rflags > t3 ; S1 rdi t3 >"},
    {"mov [rdi], rax", {0x48, 0x89, 0x07}, 3, "S8 rdi rax >"},
    {"vpxord zmm0{k1}, zmm1, zmm1", {0x62, 0xf1, 0x75, 0x49, 0xef, 0xc1}, 6, "O zmm0 zmm1 k1 > zmm0"},
    {"popfq", {0x9d}, 1, "L8s rsp > rflags ; O rsp > rsp"},
    {"pushfq", {0x9c}, 1, "O rsp > rsp ; S8s rsp rflags >"},
    {"movzx eax, word ptr [rdi]", {0x0f, 0xb7, 0x07}, 3, "L2 rdi > rax"},
    {"mov ax, [rdi]", {0x66, 0x8b, 0x07}, 3, "L2 rdi > t0 ; O rax t0 > rax"},
    {"vbroadcastsd ymm0, qword ptr [rdi]", {0xc4, 0xe2, 0x7d, 0x19, 0x07}, 5, "L8 rdi > zmm0"},
    {"vmovupd [rdi+32], ymm1", {0xc5, 0xfd, 0x11, 0x4f, 0x20}, 5, "S32 rdi zmm1 >"},
    {"cmp qword ptr [rdi], 0", {0x48, 0x83, 0x3f, 0x00}, 4, "L8 rdi > t0 ; O t0 > rflags"},
    {"mulsd xmm0, qword ptr [rdi+rcx*8]", {0xf2, 0x0f, 0x59, 0x04, 0xcf}, 5, "L8 rdi rcx > t0 ; O zmm0 t0 > zmm0"},
    /* stack slots (rsp plus a constant: s) and locked loads (k), for store-to-load forwarding */
    {"mov rax, [rsp+8]", {0x48, 0x8b, 0x44, 0x24, 0x08}, 5, "L8s rsp > rax"},
    {"mov [rsp+rcx*8], rax", {0x48, 0x89, 0x04, 0xcc}, 4, "S8 rsp rcx rax >"},
    {"cmpxchg [rdi], rcx (no lock)", {0x48, 0x0f, 0xb1, 0x0f}, 4, "L8 rdi > t0 ; O rax rcx t0 > rax rflags t3 ; S8 rdi t3 >"},
    {"lock cmpxchg [rdi], rcx", {0xf0, 0x48, 0x0f, 0xb1, 0x0f}, 5,
     "L8k rdi > t0 ; O rax rcx t0 > rax rflags t3 ; S8 rdi t3 >"},
    /* string instructions: the pointers' update reads only the pointers and rcx; the
       compare (cmps, scas) or lods' write of rax from the load is an operation of its own;
       repe/repne's test of ZF is control, no source */
    {"repe cmpsb", {0xf3, 0xa6}, 2, "L1 rsi > t0 ; L1 rdi > t1 ; O t0 t1 > rflags ; O rsi rdi rcx > rsi rdi rcx"},
    {"repne scasb", {0xf2, 0xae}, 2, "L1 rdi > t0 ; O rax t0 > rflags ; O rdi rcx > rdi rcx"},
    {"lodsb", {0xac}, 1, "L1 rsi > t0 ; O rax t0 > rax ; O rsi > rsi"},
    {"lodsq", {0x48, 0xad}, 2, "L8 rsi > t0 ; O t0 > rax ; O rsi > rsi"},
    {"rep stosb", {0xf3, 0xaa}, 2, "O rdi rcx > rdi rcx ; S1 rdi rax >"},
};

/* The register id of a name ("rax", "zmm3", "t0"), 0 when none. */
static edan_reg reg_of(const char *name)
{
    edan_reg r;
    for (r = 1; r < EDAN_X86_NUM_REGS; r++)
        if (x86_reg_name(r) && !strcmp(x86_reg_name(r), name)) return r;
    return 0;
}

/* The same registers, in any order: want is a list of names. */
static int same_set(const edan_reg *got, uint32_t n, edan_reg *want, uint32_t nw)
{
    uint32_t i, j;
    if (n != nw) return 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < nw && want[j] != got[i]; j++) {}
        if (j == nw) return 0;
    }
    return 1;
}

/* d's vertices against the expectation; 1 when they are the same. */
static int same_vertices(const x86_decoded *d, const char *want)
{
    char buf[400], *save = NULL, *v;
    uint32_t k = 0;
    snprintf(buf, sizeof buf, "%s", want);
    for (v = strtok_r(buf, ";", &save); v; v = strtok_r(NULL, ";", &save), k++) {
        char *tok, *save2 = NULL;
        edan_reg src[16], dst[16];
        uint32_t ns = 0, nd = 0, size = 0, count = 1, flags = 0;
        int role, targets = 0;
        const bintrace_uop *u = &d->uop[k];
        if (k >= d->nuop) return 0;
        tok = strtok_r(v, " ", &save2);
        role = tok[0] == 'L' ? X86_UOP_LOAD : tok[0] == 'S' ? X86_UOP_STORE : X86_UOP_OP;
        if (tok[0] != 'O') {
            size = (uint32_t)strtoul(tok + 1, &tok, 10);
            if (*tok == 'x') count = (uint32_t)strtoul(tok + 1, &tok, 10);
            for (; *tok; tok++) flags |= *tok == 's' ? EDAN_INSN_STACK : *tok == 'k' ? EDAN_INSN_LOCKED : 0x80;
        }
        while ((tok = strtok_r(NULL, " ", &save2))) {
            if (!strcmp(tok, ">")) { targets = 1; continue; }
            if (targets) dst[nd++] = reg_of(tok);
            else src[ns++] = reg_of(tok);
        }
        if (u->in.op / X86_OP_ROLE != (uint32_t)role) return 0;
        if (role == X86_UOP_OP && u->in.mem != EDAN_MEM_NONE) return 0;
        if (role != X86_UOP_OP &&
            (u->in.mem != (role == X86_UOP_LOAD ? EDAN_MEM_LOAD : EDAN_MEM_STORE) || u->in.size != size ||
             u->bytes != size * count || u->exact != (count == 1) ||
             (u->in.flags & (EDAN_INSN_STACK | EDAN_INSN_LOCKED)) != flags))
            return 0;
        if (!same_set(u->in.src, u->in.nsrc, src, ns) || !same_set(u->in.dst, u->in.ndst, dst, nd)) return 0;
    }
    return k == d->nuop;
}

static void print_vertices(const x86_decoded *d)
{
    uint32_t k, i;
    for (k = 0; k < d->nuop; k++) {
        const bintrace_uop *u = &d->uop[k];
        const char *role = x86_op_role(u->in.op);
        fprintf(stderr, "%s%s", k ? " ; " : "", *role == 'l' ? "L" : *role == 's' ? "S" : "O");
        if (u->in.mem)
            fprintf(stderr, "%u%s%s%s", (unsigned)u->in.size, u->exact ? "" : "x",
                    u->in.flags & EDAN_INSN_STACK ? "s" : "", u->in.flags & EDAN_INSN_LOCKED ? "k" : "");
        for (i = 0; i < u->in.nsrc; i++) fprintf(stderr, " %s", x86_reg_name(u->in.src[i]));
        fprintf(stderr, " >");
        for (i = 0; i < u->in.ndst; i++) fprintf(stderr, " %s", x86_reg_name(u->in.dst[i]));
    }
    fprintf(stderr, "\n");
}

/* A sequence decoded and fed to the model with the addresses an execution
   would give (rdi = 0x1000, rsi = 0x2000, rbx = 0x3000, rsp = 0x8000; the
   rep movsb iteration with rsi = 0x3000, rdi = 0x4000), each instruction
   as its vertices, every number worked out by hand from the model page.
   Without store-to-load forwarding (forward off, the paper's model):
     1 mov rax, [rdi]        L1 -> rax                              md 1
     2 mov al, [rsi]         L2; O2 merges rax <- L1, L2            md 1
     3 add [rbx], rax        L3; O3 <- O2, L3; S3 <- O3             md 2
     4 mov rcx, [rbx]        L4 <- S3 (bytes)                       md 3
     5 adc rdx, rcx          O5 <- L4 (rcx), O3 (RFLAGS)            md 3
     6 push rdx              O6 rsp; S6 <- O6, O5                   md 4
     7 pop r8                L7 <- O6 (rsp), S6 (bytes) (md 5); O7 <- O6
     8 movsd xmm0, [rdi+8]   L8 -> xmm0 (a plain write)             md 1
     9 addsd xmm0, xmm1      O9 <- L8
    10 vmovsd xmm0, [rdi+16] L10 -> xmm0                            md 1
    11 vaddsd xmm2, xmm0, xmm1  O11 <- L10
    12 rep movsb (1 iteration)  L12 <- S3 (bytes 0x3000) (md 3); O12 <- L4
                             (rcx); S12 <- O12 (rdi), L12          md 4
    13 mov r9b, [rdi]        L13 <- O12 (rdi), S12 (bytes) (md 5); O13 <- L13
   N = 21, W = 12 (9 loads, 3 stores), D = 5, E = 22, C = 9, layers 5 1 2 2
   2, Tinf = 1004 (L1, O2, O3, S3, L4, O5, S6, L7: 5 x 200 + 4; the same
   to L4, then O12, S12, L13, O13).
   With it (the default): L4, L7, L12 and L13 read bytes that one of the
   last stores wrote: operations of one cycle from the store's start, at
   its depth less its own access. S3 starts at 202 (md 1 there): L4 202 ->
   203 (md 1), O5 -> 204, S6 204 -> 404 (md 2), L7 from S6's start 204 ->
   205 (md 1); L12 from S3's start 202 -> 203, O12 (rcx from L4) 203 ->
   204, S12 204 -> 404 (md 2), L13 -> 205. W = 8 (L1 L2 L3 L8 L10, S3 S6
   S12), D = 2, C = 13, layers 5 3, Tinf = 404, E = 22 (the store's edge
   stays), 4 forwarded. */
static void feed_decoded(uint32_t forward, edan_metrics *m, uint64_t *layers)
{
    static const uint8_t code[] = {0x48, 0x8b, 0x07, 0x8a, 0x06, 0x48, 0x01, 0x03, 0x48, 0x8b, 0x0b, 0x48, 0x11, 0xca,
                                   0x52, 0x41, 0x58, 0xf2, 0x0f, 0x10, 0x47, 0x08, 0xf2, 0x0f, 0x58, 0xc1, 0xc5, 0xfb,
                                   0x10, 0x47, 0x10, 0xc5, 0xfb, 0x58, 0xd1, 0xf3, 0xa4, 0x44, 0x8a, 0x4f, 0x00};
    /* each instruction's accesses, in the order it makes them: loads, then stores */
    static const uint64_t addr[13][2] = {{0x1000}, {0x2000}, {0x3000, 0x3000}, {0x3000}, {0}, {0x7ff8}, {0x7ff8},
                                         {0x1008}, {0}, {0x1010}, {0}, {0x3000, 0x4000}, {0x4000}};
    edan_options o;
    edan_context *ctx;
    size_t at = 0, i = 0;
    char why[200];
    memset(&o, 0, sizeof o);
    o.num_regs = EDAN_X86_NUM_REGS;
    o.forward = forward;
    CHECK(edan_create(&ctx, &o) == EDAN_OK);
    while (at < sizeof code && i < 13) {
        x86_decoded d;
        uint32_t k, a = 0;
        CHECK(x86_decode(code + at, sizeof code - at, at, &d, why, sizeof why) == EDAN_OK);
        for (k = 0; k < d.nuop; k++) {
            edan_insn v = d.uop[k].in;
            if (v.mem != EDAN_MEM_NONE) v.addr = addr[i][a++];
            CHECK(edan_feed(ctx, &v) == EDAN_OK);
        }
        at += d.in.length ? d.in.length : 1;
        i++;
    }
    CHECK(i == 13 && at == sizeof code);
    CHECK(edan_get_metrics(ctx, 0, m) == EDAN_OK);
    CHECK(m->D <= 5 && edan_get_layers(ctx, 0, 1, layers, m->D) == EDAN_OK);
    edan_destroy(ctx);
}

static void test_feed_decoded(void)
{
    static const uint64_t want[5] = {5, 1, 2, 2, 2}, want_fw[2] = {5, 3};
    edan_metrics m;
    uint64_t got[5];
    uint32_t l;
    feed_decoded(EDAN_FORWARD_OFF, &m, got);
    CHECK_EQ_U(m.N, 21);
    CHECK_EQ_U(m.W, 12);
    CHECK_EQ_U(m.D, 5);
    CHECK_EQ_U(m.E, 22);
    CHECK_EQ_U(m.C, 9);
    CHECK_EQ_U(m.Tinf, 5 * 200 + 4);
    CHECK_EQ_U(m.forwarded, 0);
    for (l = 0; l < 5 && m.D == 5; l++) CHECK_EQ_U(got[l], want[l]);
    CHECK_EQ_U(m.loads, 9);
    CHECK_EQ_U(m.stores, 3);
    CHECK_EQ_U(m.amos, 0);
    feed_decoded(0, &m, got);
    CHECK_EQ_U(m.N, 21);
    CHECK_EQ_U(m.W, 8);
    CHECK_EQ_U(m.D, 2);
    CHECK_EQ_U(m.E, 22);
    CHECK_EQ_U(m.C, 13);
    CHECK_EQ_U(m.Tinf, 404);
    CHECK_EQ_U(m.forwarded, 4);
    for (l = 0; l < 2 && m.D == 2; l++) CHECK_EQ_U(got[l], want_fw[l]);
    CHECK_EQ_U(m.loads, 9);
    CHECK_EQ_U(m.stores, 3);
}

/* bintrace_match_exact and bintrace_assign on add [rbx], rax's vertices:
   QEMU's pieces of one access make one; anything else is assigned. */
/* The text trace's writer and reader (x86.c) agree: a line of 130
   accesses (two continuation lines) written and read back. */
static void test_text_round_trip(void)
{
    static const uint8_t add_m[] = {0x48, 0x01, 0x07};      /* add qword ptr [rdi], rax */
    edan_access a[130], got;
    FILE *f = tmpfile();
    char buf[8192], *line;
    size_t len, k = 0;
    uint64_t pc;
    uint8_t bytes[15];
    unsigned nb;
    const char *p, *e, *why = NULL;
    int r;
    for (k = 0; k < 130; k++) {
        a[k].addr = 0x7fff0000 + 8 * k;
        a[k].size = 1 + (uint32_t)(k % 64);
        a[k].kind = k % 3 ? EDAN_MEM_LOAD : EDAN_MEM_STORE;
    }
    CHECK(f != NULL);
    if (!f) return;
    line = x86_text_start(0x401234, add_m, sizeof add_m);
    CHECK(line && !strcmp(line, "0x401234 480107 | add qword ptr [rdi], rax"));
    fputs(line ? line : "", f);
    free(line);
    x86_text_write_accesses(f, a, 130);
    rewind(f);
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    CHECK(x86_text_is(buf, len));
    e = strchr(buf, '\n');
    CHECK(e && x86_text_parse_start(buf, e, &pc, bytes, &nb, &p, &why) == 0 && pc == 0x401234 && nb == 3 &&
          !memcmp(bytes, add_m, 3));
    for (k = 0; e && k < 130;) {
        r = x86_text_next_access(&p, e, &got, &why);
        if (r == 0) {       /* the line's end: a continuation line follows */
            CHECK(e[1] == '+');
            p = e + 2;
            e = strchr(p, '\n');
            continue;
        }
        CHECK(r == 1 && got.addr == a[k].addr && got.size == a[k].size && got.kind == a[k].kind);
        if (r != 1) break;
        k++;
    }
    CHECK(k == 130 && e && x86_text_next_access(&p, e, &got, &why) == 0 && e[1] == 0);
    p = "L65@0x10";
    CHECK(x86_text_next_access(&p, p + strlen(p), &got, &why) == -1 && strstr(why, "1 to 64 bytes"));
}

static void test_match(void)
{
    static const uint8_t add_m[] = {0x48, 0x01, 0x03}, movupd[] = {0x66, 0x0f, 0x10, 0x00};
    x86_decoded d;
    edan_access a[4], out[4];
    uint64_t addrs[X86_MAX_UOPS];
    uint32_t first[X86_MAX_UOPS], count[X86_MAX_UOPS];
    size_t used;
    char why[200];
    CHECK(x86_decode(add_m, sizeof add_m, 0, &d, why, sizeof why) == EDAN_OK && d.nuop == 3);
    a[0].kind = EDAN_MEM_LOAD; a[0].addr = 0x3000; a[0].size = 8;
    a[1].kind = EDAN_MEM_STORE; a[1].addr = 0x3000; a[1].size = 8;
    CHECK(bintrace_match_exact(d.uop, d.nuop, a, 2, addrs, &used, 0) && used == 2 && addrs[0] == 0x3000 &&
          addrs[2] == 0x3000);
    CHECK(!bintrace_match_exact(d.uop, d.nuop, a, 1, addrs, &used, 0));       /* the store missing */
    CHECK(!bintrace_assign(d.uop, d.nuop, a, 1, out, first, count) && count[0] == 1 && count[2] == 0);
    /* movupd xmm0, [rax]: 16 bytes in two pieces of 8, one access; not contiguous: assigned */
    CHECK(x86_decode(movupd, sizeof movupd, 0, &d, why, sizeof why) == EDAN_OK && d.nuop == 1);
    a[0].kind = a[1].kind = EDAN_MEM_LOAD;
    a[0].addr = 0x1000; a[1].addr = 0x1008; a[0].size = a[1].size = 8;
    CHECK(bintrace_match_exact(d.uop, d.nuop, a, 2, addrs, &used, 0) && addrs[0] == 0x1000);
    a[1].addr = 0x2000;
    CHECK(!bintrace_match_exact(d.uop, d.nuop, a, 2, addrs, &used, 0));
    CHECK(bintrace_assign(d.uop, d.nuop, a, 2, out, first, count) && count[0] == 2);
}

int main(void)
{
    size_t c;
    char why[200];
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const x86_case *t = &cases[c];
        x86_decoded d;
        int ok = x86_decode(t->bytes, t->len, 0x401000, &d, why, sizeof why) == EDAN_OK && d.in.length == t->len &&
                 d.in.pc == 0x401000 && same_vertices(&d, t->want);
        CHECK(ok);
        if (!ok) {
            fprintf(stderr, "  %s: want %s\n  got  ", t->text, t->want);
            print_vertices(&d);
        }
    }
    {   /* classes and flops: the operation's; loads and stores their own */
        static const uint8_t fma[] = {0xc4, 0xe2, 0xf5, 0xb8, 0x00}, addsd[] = {0xf2, 0x0f, 0x58, 0xc1},
                             div[] = {0x48, 0xf7, 0xf1};
        x86_decoded d;
        CHECK(x86_decode(fma, sizeof fma, 0, &d, why, sizeof why) == EDAN_OK && d.flops == 8 &&
              d.uop[0].in.cls == EDAN_CLASS_LOAD && d.uop[1].in.cls == EDAN_CLASS_FP_FMA);
        CHECK(x86_decode(addsd, sizeof addsd, 0, &d, why, sizeof why) == EDAN_OK && d.flops == 1 &&
              d.uop[0].in.cls == EDAN_CLASS_FP_ADD);
        CHECK(x86_decode(div, sizeof div, 0, &d, why, sizeof why) == EDAN_OK && d.flops == 0 &&
              d.uop[0].in.cls == EDAN_CLASS_INT_DIV);
        CHECK(x86_decode(cases[3].bytes, cases[3].len, 0, &d, why, sizeof why) == EDAN_OK &&
              d.uop[2].in.cls == EDAN_CLASS_STORE && !strcmp(x86_op_role(d.uop[2].in.op), "store") &&
              !strcmp(x86_op_name(d.uop[2].in.op), "add"));
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
           saves is not in the instruction's registers, and its size depends on the state
           enabled: its store vertex takes whatever it stores */
        static const uint8_t fxsave[] = {0x0f, 0xae, 0x44, 0x24, 0x40};
        CHECK(x86_decode(fxsave, sizeof fxsave, 0, &d, why, sizeof why) == EDAN_OK);
        CHECK(d.state && d.nacc == 1 && d.acc[0].kind == EDAN_MEM_STORE && d.acc[0].size == 512 && d.acc[0].split &&
              d.nuop == 1 && d.uop[0].bytes == UINT32_MAX && d.uop[0].at_most && !d.uop[0].exact);
        CHECK(x86_decode(cases[3].bytes, cases[3].len, 0, &d, why, sizeof why) == EDAN_OK && !d.state && !d.acc[0].split);
        CHECK(!strcmp(x86_reg_name(G(RSP)), "rsp") && !strcmp(x86_reg_name(V(31)), "zmm31") &&
              !strcmp(x86_reg_name(F), "rflags") && !strcmp(x86_reg_name(EDAN_X86_TEMP(3)), "t3") &&
              x86_reg_name(EDAN_X86_NUM_REGS) == NULL);
    }
    {   /* transfers (tools/trace/flow.h), at 0x1000: direct targets from the relative operand */
        static const struct { uint8_t b[8]; uint8_t len; int kind, indirect; uint64_t target; } tx[] = {
            {{0xe8, 0x0b, 0x00, 0x00, 0x00}, 5, FLOW_CALL, 0, 0x1010},      /* call 0x1010 */
            {{0xff, 0xd0}, 2, FLOW_CALL, 1, 0},                             /* call rax */
            {{0xff, 0x15, 0x10, 0x00, 0x00, 0x00}, 6, FLOW_CALL, 1, 0},     /* call [rip+0x10] */
            {{0xc3}, 1, FLOW_RET, 1, 0},                                    /* ret */
            {{0xc2, 0x08, 0x00}, 3, FLOW_RET, 1, 0},                        /* ret 8 */
            {{0xeb, 0xfe}, 2, FLOW_JUMP, 0, 0x1000},                        /* jmp $ */
            {{0xe9, 0xfb, 0xef, 0xff, 0xff}, 5, FLOW_JUMP, 0, 0},           /* jmp 0 */
            {{0xff, 0xe2}, 2, FLOW_JUMP, 1, 0},                             /* jmp rdx */
            {{0xff, 0x25, 0x00, 0x00, 0x00, 0x00}, 6, FLOW_JUMP, 1, 0},     /* jmp [rip] */
            {{0x74, 0x05}, 2, FLOW_BRANCH, 0, 0x1007},                      /* je 0x1007 */
            {{0x0f, 0x85, 0xfa, 0xff, 0xff, 0xff}, 6, FLOW_BRANCH, 0, 0x1000},  /* jne 0x1000 */
            {{0x0f, 0x05}, 2, FLOW_SYSCALL, 0, 0},                          /* syscall */
            {{0x48, 0x01, 0xc0}, 3, FLOW_NEXT, 0, 0},                       /* add rax, rax */
        };
        size_t k;
        for (k = 0; k < sizeof tx / sizeof tx[0]; k++) {
            x86_decoded d;
            CHECK(x86_decode(tx[k].b, tx[k].len, 0x1000, &d, why, sizeof why) == EDAN_OK);
            CHECK_EQ_U(d.xfer.kind, tx[k].kind);
            CHECK_EQ_U(d.xfer.indirect, tx[k].indirect);
            CHECK_EQ_U(d.xfer.target, tx[k].target);
            CHECK_EQ_U(d.xfer.next, 0x1000 + tx[k].len);
        }
    }
    test_feed_decoded();
    test_match();
    test_text_round_trip();
    return check_summary("test_x86");
}
