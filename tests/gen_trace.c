/* tests/gen_trace.c - writes a synthetic RISC-V text trace for benchmarks
   and format tests, over a footprint of a given number of bytes, in one of
   the accepted line formats. Two programs:
     triad  a triad-like loop (two FP loads, an FMA, a store, pointer
            increments, a branch) with a linked-list step every 16
            iterations: few distinct lines, the parser's best case;
     mix    the full RV64GC mnemonic mix: 2048 static instructions drawn
            from every instruction family (integer, M, A with lr/sc and
            ordering suffixes, F, D, CSR, branches, jumps, pseudo-
            instructions) with varied registers and immediates, run as
            loops of 16..256 instructions over one to four arrays each;
            byte, half, word and double accesses, one in eight memory
            instructions of two or more bytes misaligned.
   The mix is deterministic (a fixed-seed generator).
   usage: gen_trace LINES FOOTPRINT_BYTES [paper|authors|pc] [triad|mix] > trace.txt */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char out[1 << 20];
static size_t used;

static void emit(const char *s, size_t n)
{
    if (used + n > sizeof out) {
        fwrite(out, 1, used, stdout);
        used = 0;
    }
    memcpy(out + used, s, n);
    used += n;
}

static size_t hex(char *p, unsigned long long v)
{
    char tmp[20];
    size_t n = 0, i;
    do { tmp[n++] = "0123456789abcdef"[v & 15]; v >>= 4; } while (v);
    p[0] = '0';
    p[1] = 'x';
    for (i = 0; i < n; i++) p[2 + i] = tmp[n - 1 - i];
    return n + 2;
}

enum { FMT_PAPER, FMT_AUTHORS, FMT_PC };

static void line(int fmt, unsigned long long pc, const char *insn, int has_addr, unsigned long long addr)
{
    char buf[160];
    size_t n = 0, l = strlen(insn);
    if (fmt == FMT_AUTHORS || fmt == FMT_PC) {
        buf[n++] = '0';
        buf[n++] = ';';
    }
    if (fmt == FMT_PC) {
        n += hex(buf + n, pc);
        buf[n++] = ';';
    }
    memcpy(buf + n, insn, l);
    n += l;
    if (has_addr) {
        buf[n++] = ';';
        n += hex(buf + n, addr);
    }
    buf[n++] = '\n';
    emit(buf, n);
}

static void triad(int fmt, unsigned long long lines, unsigned long long foot)
{
    unsigned long long i = 0, iter = 0, n_elems, base = 0x4000800000ull;
    /* three arrays of doubles and a 64-node list share the footprint */
    n_elems = (foot - 64 * 64) / 24;
    if (foot < 64 * 64 + 24) n_elems = 1;
    while (i < lines) {
        unsigned long long k = iter % n_elems;
        unsigned long long a = base + 8 * k, b = base + 8 * (n_elems + k), c = base + 8 * (2 * n_elems + k);
        line(fmt, 0x10400, "fld fa5,0(a1)", 1, b);
        line(fmt, 0x10404, "fld fa4,0(a2)", 1, c);
        line(fmt, 0x10408, "fmadd.d fa5,fa5,fa3,fa4", 0, 0);
        line(fmt, 0x1040c, "fsd fa5,0(a0)", 1, a);
        line(fmt, 0x10410, "addi a1,a1,8", 0, 0);
        line(fmt, 0x10414, "addi a2,a2,8", 0, 0);
        line(fmt, 0x10418, "addi a0,a0,8", 0, 0);
        line(fmt, 0x1041c, "bne a0,a3,-28 # 0x10400", 0, 0);
        i += 8;
        if (iter % 16 == 15) {
            unsigned long long node = base + 24 * n_elems + 64 * ((iter / 16 * 37) % 64);
            line(fmt, 0x10420, "ld a5,0(a5)", 1, node);
            line(fmt, 0x10424, "addw a4,a4,a5", 0, 0);
            i += 2;
        }
        iter++;
    }
}

/* The forms of the mix, by family. Placeholders: X an integer register, F
   an FP register, I an immediate, S a shift amount, O a memory offset, B a
   branch offset and its "# 0x..." target. size: the bytes a memory form
   accesses (0 none); an address column follows it. */
struct form { const char *text; int size; };
static const struct form loads[] = {  /* loads: every width, integer and FP */
    { "lb X,O(X)", 1 }, { "lbu X,O(X)", 1 }, { "lh X,O(X)", 2 }, { "lhu X,O(X)", 2 },
    { "lw X,O(X)", 4 }, { "lwu X,O(X)", 4 }, { "ld X,O(X)", 8 }, { "ld X,O(X)", 8 }, { "lw X,O(X)", 4 },
    { "flw F,O(X)", 4 }, { "fld F,O(X)", 8 }, { "fld F,O(X)", 8 },
};
static const struct form stores[] = {  /* stores */
    { "sb X,O(X)", 1 }, { "sh X,O(X)", 2 }, { "sw X,O(X)", 4 }, { "sd X,O(X)", 8 }, { "sd X,O(X)", 8 },
    { "fsw F,O(X)", 4 }, { "fsd F,O(X)", 8 },
};
static const struct form atomics[] = {  /* A: AMOs with and without ordering, lr/sc */
    { "amoadd.w X,X,(X)", 4 }, { "amoadd.d.aqrl X,X,(X)", 8 }, { "amoswap.w.aq X,X,(X)", 4 },
    { "amoswap.d X,X,(X)", 8 }, { "amoand.w X,X,(X)", 4 }, { "amoor.d.rl X,X,(X)", 8 },
    { "amoxor.w X,X,(X)", 4 }, { "amomax.d X,X,(X)", 8 }, { "amominu.w.aqrl X,X,(X)", 4 },
    { "lr.w X,(X)", 4 }, { "lr.d.aq X,(X)", 8 }, { "sc.w X,X,(X)", 4 }, { "sc.d.rl X,X,(X)", 8 },
};
static const struct form integer[] = {  /* I: register-register, immediates, shifts, upper immediates */
    { "add X,X,X", 0 }, { "sub X,X,X", 0 }, { "sll X,X,X", 0 }, { "slt X,X,X", 0 }, { "sltu X,X,X", 0 },
    { "xor X,X,X", 0 }, { "srl X,X,X", 0 }, { "sra X,X,X", 0 }, { "or X,X,X", 0 }, { "and X,X,X", 0 },
    { "addw X,X,X", 0 }, { "subw X,X,X", 0 }, { "sllw X,X,X", 0 }, { "srlw X,X,X", 0 }, { "sraw X,X,X", 0 },
    { "addi X,X,I", 0 }, { "addi X,X,I", 0 }, { "addi X,X,I", 0 }, { "slti X,X,I", 0 }, { "sltiu X,X,I", 0 },
    { "xori X,X,I", 0 }, { "ori X,X,I", 0 }, { "andi X,X,I", 0 }, { "addiw X,X,I", 0 }, { "addiw X,X,I", 0 },
    { "slli X,X,S", 0 }, { "srli X,X,S", 0 }, { "srai X,X,S", 0 }, { "slliw X,X,S", 0 }, { "srliw X,X,S", 0 },
    { "sraiw X,X,S", 0 }, { "lui X,I", 0 }, { "auipc X,I", 0 },
};
static const struct form muldiv[] = {  /* M */
    { "mul X,X,X", 0 }, { "mulh X,X,X", 0 }, { "mulhsu X,X,X", 0 }, { "mulhu X,X,X", 0 }, { "div X,X,X", 0 },
    { "divu X,X,X", 0 }, { "rem X,X,X", 0 }, { "remu X,X,X", 0 }, { "mulw X,X,X", 0 }, { "divw X,X,X", 0 },
    { "divuw X,X,X", 0 }, { "remw X,X,X", 0 }, { "remuw X,X,X", 0 },
};
static const struct form pseudo[] = {  /* pseudo-instructions */
    { "mv X,X", 0 }, { "mv X,X", 0 }, { "li X,I", 0 }, { "li X,I", 0 }, { "not X,X", 0 }, { "neg X,X", 0 },
    { "negw X,X", 0 }, { "sext.w X,X", 0 }, { "seqz X,X", 0 }, { "snez X,X", 0 }, { "sltz X,X", 0 },
    { "sgtz X,X", 0 }, { "nop", 0 },
};
static const struct form branches[] = {  /* branches and jumps */
    { "beq X,X,B", 0 }, { "bne X,X,B", 0 }, { "bne X,X,B", 0 }, { "blt X,X,B", 0 }, { "bge X,X,B", 0 },
    { "bltu X,X,B", 0 }, { "bgeu X,X,B", 0 }, { "beqz X,B", 0 }, { "bnez X,B", 0 }, { "blez X,B", 0 },
    { "bgez X,B", 0 }, { "bltz X,B", 0 }, { "bgtz X,B", 0 }, { "j B", 0 }, { "jal ra,B", 0 }, { "jalr X", 0 },
    { "jr X", 0 }, { "ret", 0 },
};
static const struct form fp[] = {  /* F and D */
    { "fadd.s F,F,F", 0 }, { "fadd.d F,F,F", 0 }, { "fsub.d F,F,F", 0 }, { "fmul.s F,F,F", 0 },
    { "fmul.d F,F,F", 0 }, { "fdiv.d F,F,F", 0 }, { "fdiv.s F,F,F", 0 }, { "fsqrt.d F,F", 0 },
    { "fmin.d F,F,F", 0 }, { "fmax.s F,F,F", 0 }, { "fmadd.d F,F,F,F", 0 }, { "fmadd.d F,F,F,F", 0 },
    { "fmsub.d F,F,F,F", 0 }, { "fnmadd.s F,F,F,F", 0 }, { "fnmsub.d F,F,F,F", 0 }, { "fsgnj.d F,F,F", 0 },
    { "fsgnjn.s F,F,F", 0 }, { "fsgnjx.d F,F,F", 0 }, { "fmv.d F,F", 0 }, { "fneg.d F,F", 0 },
    { "fabs.s F,F", 0 }, { "fcvt.w.d X,F,rtz", 0 }, { "fcvt.d.w F,X", 0 }, { "fcvt.l.d X,F,rtz", 0 },
    { "fcvt.d.l F,X", 0 }, { "fcvt.s.d F,F", 0 }, { "fcvt.d.s F,F", 0 }, { "fcvt.wu.s X,F,rtz", 0 },
    { "fmv.x.d X,F", 0 }, { "fmv.d.x F,X", 0 }, { "fmv.x.w X,F", 0 }, { "fmv.w.x F,X", 0 },
    { "feq.d X,F,F", 0 }, { "flt.d X,F,F", 0 }, { "fle.s X,F,F", 0 }, { "fclass.d X,F", 0 },
};
static const struct form sys[] = {  /* CSRs, fences, system */
    { "frflags X", 0 }, { "fsflags X", 0 }, { "frrm X", 0 }, { "frcsr X", 0 }, { "csrr X,fcsr", 0 },
    { "fence rw,rw", 0 }, { "fence.i", 0 }, { "ecall", 0 },
};

/* A family's share of the static instructions, in percent: about the
   proportions of compiled code (three in ten instructions access memory,
   atomics are rare but present). */
#define FAMILY(f, percent) { f, sizeof f / sizeof f[0], percent }
static const struct family { const struct form *forms; unsigned n, percent; } families[] = {
    FAMILY(loads, 20),
    FAMILY(stores, 10),
    FAMILY(atomics, 1),
    FAMILY(integer, 29),
    FAMILY(muldiv, 3),
    FAMILY(pseudo, 10),
    FAMILY(branches, 14),
    FAMILY(fp, 12),
    FAMILY(sys, 1),
};
#define NSTATIC 2048

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)((rng >> 11) % n);
}

static const char *const xregs[] = { "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2",
                                     "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8",
                                     "s9", "s10", "s11", "t3", "t4", "t5", "t6" };
static const char *const fregs[] = { "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
                                     "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
                                     "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11" };

static struct insn {
    char text[64];
    int size;                   /* bytes accessed, 0 none */
    int offset;                 /* the O of its text */
    unsigned misalign;          /* bytes past an aligned address */
} prog[NSTATIC];

/* The text of one instance of form f at pc. */
static void instantiate(struct insn *in, const struct form *f, unsigned long long pc)
{
    const char *t;
    char *o = in->text;
    for (t = f->text; *t; t++) {
        switch (*t) {
        case 'X': o += sprintf(o, "%s", xregs[rnd(31)]); break;
        case 'F': o += sprintf(o, "%s", fregs[rnd(32)]); break;
        case 'I': o += sprintf(o, "%d", (int)rnd(4096) - 2048); break;
        case 'S': o += sprintf(o, "%u", rnd(32)); break;
        case 'O': in->offset = 8 * ((int)rnd(64) - 16); o += sprintf(o, "%d", in->offset); break;
        case 'B': {
            int off = 2 * ((int)rnd(512) - 256);
            o += sprintf(o, "%d # 0x%llx", off, pc + off);
            break;
        }
        default: *o++ = *t;
        }
    }
    *o = 0;
    in->size = f->size;
    /* one in eight accesses of two or more bytes misaligned by 1..size-1 */
    in->misalign = f->size > 1 && rnd(8) == 0 ? 1 + rnd((unsigned)f->size - 1) : 0;
}

static void mix(int fmt, unsigned long long lines, unsigned long long foot)
{
    unsigned long long i = 0, pc0 = 0x10000, base = 0x4000800000ull, span = foot > 8192 ? foot : 8192;
    unsigned k;
    for (k = 0; k < NSTATIC; k++) {
        unsigned pick = rnd(100), f = 0;
        while (pick >= families[f].percent) pick -= families[f++].percent;
        instantiate(&prog[k], &families[f].forms[rnd(families[f].n)], pc0 + 4 * k);
    }
    while (i < lines) {
        /* a loop: a body of 16..256 static instructions run 4..64 times over
           one to four arrays somewhere in the footprint, 32 bytes further
           each iteration (an unrolled loop over doubles); memory instruction
           j of the body works on array j mod arrays at its offset */
        unsigned start = rnd(NSTATIC), len = 16 + rnd(241), iters = 4 + rnd(61), arrays = 1 + rnd(4), it, j;
        unsigned long long at[4];
        if (start + len > NSTATIC) start = NSTATIC - len;
        for (k = 0; k < arrays; k++) at[k] = 512 + 64 * (unsigned long long)rnd((unsigned)((span - 4096) / 64));
        for (it = 0; it < iters && i < lines; it++)
            for (j = start; j < start + len && i < lines; j++, i++) {
                const struct insn *in = &prog[j];
                unsigned long long a = 0;
                if (in->size) {
                    a = (at[j % arrays] + 32ull * it + (unsigned long long)(long long)in->offset) % (span - 64);
                    a = base + a / (unsigned)in->size * (unsigned)in->size + in->misalign;
                }
                line(fmt, pc0 + 4 * j, in->text, in->size != 0, a);
            }
    }
}

int main(int argc, char **argv)
{
    unsigned long long lines, foot;
    int fmt = FMT_PAPER, use_mix = 0;
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: gen_trace LINES FOOTPRINT_BYTES [paper|authors|pc] [triad|mix]\n");
        return 2;
    }
    lines = strtoull(argv[1], NULL, 10);
    foot = strtoull(argv[2], NULL, 10);
    if (argc > 3) fmt = !strcmp(argv[3], "authors") ? FMT_AUTHORS : !strcmp(argv[3], "pc") ? FMT_PC : FMT_PAPER;
    if (argc > 4) use_mix = !strcmp(argv[4], "mix");
    if (use_mix) mix(fmt, lines, foot);
    else triad(fmt, lines, foot);
    fwrite(out, 1, used, stdout);
    return 0;
}
