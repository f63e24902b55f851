/* tests/gen_trace.c - writes a synthetic RISC-V text trace for benchmarks
   and format tests: a triad-like loop (two FP loads, an FMA, a store,
   pointer increments, a branch) with a linked-list step every 16 iterations,
   over a footprint of a given number of bytes, in one of the accepted
   line formats.
   usage: gen_trace LINES FOOTPRINT_BYTES [paper|authors|pc]  > trace.txt */
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

int main(int argc, char **argv)
{
    unsigned long long lines, foot, i = 0, iter = 0, n_elems, base = 0x4000800000ull;
    int fmt = FMT_PAPER;
    if (argc < 3) {
        fprintf(stderr, "usage: gen_trace LINES FOOTPRINT_BYTES [paper|authors|pc]\n");
        return 2;
    }
    lines = strtoull(argv[1], NULL, 10);
    foot = strtoull(argv[2], NULL, 10);
    if (argc > 3) fmt = !strcmp(argv[3], "authors") ? FMT_AUTHORS : !strcmp(argv[3], "pc") ? FMT_PC : FMT_PAPER;
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
    fwrite(out, 1, used, stdout);
    return 0;
}
