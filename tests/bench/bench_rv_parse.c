/* Benchmark of the RISC-V front-end: edan_rv_parse_line on an in-memory
   trace of typical lines (parse cost only, no I/O), in the authors' format
   with a PC and in the paper's format; and edan_rv_decode on the encodings
   of a typical loop. Prints the median of 5 runs. With --file TRACE: that
   file, read as edan analyze reads it. Run by bench_rv_parse.sh. */
#define _POSIX_C_SOURCE 199309L
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The instruction mix of a compiled loop nest (matmul / stencil-like):
   memory, integer, branch and FP lines. */
static const char *const mix[] = {
    "lw a4,0(a5);", "addi a5,a5,4", "addw a0,a0,a4", "bne a3,a5,-6 # 0x104be", "fld fa5,0(a4);",
    "fmadd.d dyn,fa0,fa5,fa4,fa0", "addi a4,a4,8", "sd a4,-48(s0);", "ld a5,8(a5);", "mulw a3,a3,a1",
    "mv a2,t1", "add a2,a2,a6", "sw a5,0(a0);", "slli a1,a1,2", "fsd fa0,8(a3);", "blt a5,a4,-20 # 0x10554",
};

/* A trace file parsed as `edan analyze` reads it (256 KiB reads, lines
   split with memchr), parse only: median of 5 runs, lines per second. */
static int parse_file(const char *path, edan_rv_parser *p)
{
    static char buf[1 << 18];
    double t[5];
    unsigned long lines = 0, ok = 0;
    int rep;
    for (rep = 0; rep < 5; rep++) {
        FILE *f = fopen(path, "rb");
        size_t have = 0, n;
        double t0 = now();
        edan_insn in;
        if (!f) { perror(path); return 2; }
        lines = ok = 0;
        do {
            const char *s = buf, *e, *nl;
            n = fread(buf + have, 1, sizeof buf - have, f);
            have += n;
            e = buf + have;
            while (s < e && (nl = (const char *)memchr(s, '\n', (size_t)(e - s))) != NULL) {
                lines++;
                ok += edan_rv_parse_line(p, s, (size_t)(nl - s) + 1, &in) == EDAN_OK;
                s = nl + 1;
            }
            have = (size_t)(e - s);
            memmove(buf, s, have);
        } while (n);
        fclose(f);
        t[rep] = now() - t0;
    }
    qsort(t, 5, sizeof t[0], cmp);
    printf("parse %s: %lu lines, median %.3f s, %.1f M lines/s (min %.3f max %.3f)%s\n", path, lines, t[2],
           lines / t[2] / 1e6, t[0], t[4], ok == lines ? "" : " PARSE ERRORS");
    return ok == lines ? 0 : 1;
}

int main(int argc, char **argv)
{
    long n;
    if (argc > 2 && !strcmp(argv[1], "--file")) {
        edan_rv_parser *fp = NULL;
        return edan_rv_parser_create(&fp, NULL) == EDAN_OK ? parse_file(argv[2], fp) : 1;
    }
    n = argc > 1 ? atol(argv[1]) : 4000000;
    char *buf = malloc((size_t)n * 96), *s;
    size_t len[5];
    char *text[5];
    int fmt, rep;
    edan_rv_parser *p = NULL;
    if (!buf || edan_rv_parser_create(&p, NULL) != EDAN_OK) return 1;
    for (fmt = 0; fmt < 5; fmt++) {
        long i;
        s = buf;
        for (i = 0; i < n; i++) {
            const char *m = mix[i % 16];
            if (fmt == 4) {
                /* every line a new text: the memo never hits */
                s += sprintf(s, "0;0x%lx;", 0x10000 + (i % 4096) * 4);
                switch (i % 4) {
                case 0: s += sprintf(s, "lw a%ld,%ld(a5);0x40008%05lx\n", i % 8, i, (i * 8) & 0xfffff); break;
                case 1: s += sprintf(s, "addi a%ld,a%ld,%ld\n", i % 8, (i / 8) % 8, i); break;
                case 2: s += sprintf(s, "fmadd.d dyn,fa%ld,fa%ld,fa%ld,fa%ld # %ld\n", i % 8, (i + 1) % 8, i % 5, (i / 4) % 8, i); break;
                default: s += sprintf(s, "bne a%ld,a5,%ld # 0x%lx\n", i % 8, -i, 0x10000 + i * 2); break;
                }
                continue;
            }
            if (fmt == 3) {
                /* a loop of 200 distinct instructions */
                long k = i % 200;
                s += sprintf(s, "0;0x%lx;", 0x10000 + k * 4);
                switch (k % 4) {
                case 0: s += sprintf(s, "lw a%ld,%ld(a5);0x40008%05lx\n", k % 8, k * 4, (i * 8) & 0xfffff); break;
                case 1: s += sprintf(s, "addi a%ld,a%ld,%ld\n", k % 8, (k / 8) % 8, k); break;
                case 2: s += sprintf(s, "fmadd.d dyn,fa%ld,fa%ld,fa%ld,fa%ld\n", k % 8, (k + 1) % 8, k % 5, (k / 4) % 8); break;
                default: s += sprintf(s, "bne a%ld,a5,%ld # 0x%lx\n", k % 8, -k, 0x10000 + k * 2); break;
                }
                continue;
            }
            size_t ml = strlen(m);
            if (fmt == 0) s += sprintf(s, "0;0x%lx;", 0x104b0 + (i % 16) * 4);
            if (fmt == 2) {
                /* QEMU's own padded disassembly with the hex encoding */
                const char *sp = strchr(m, ' ');
                s += sprintf(s, "0;0x%lx;%08lx          %-24.*s", 0x104b0 + (i % 16) * 4,
                             0x00052703ul + (unsigned long)(i % 16), (int)(sp - m), m);
                m = sp + 1;
                ml = strlen(m);
            }
            memcpy(s, m, ml);
            s += ml;
            if (m[ml - 1] == ';') s += sprintf(s, "0x40008%05lx", (i * 8) & 0xfffff);
            *s++ = '\n';
        }
        len[fmt] = (size_t)(s - buf);
        text[fmt] = malloc(len[fmt]);
        memcpy(text[fmt], buf, len[fmt]);
    }
    for (fmt = 0; fmt < 5; fmt++) {
        double t[5], mem = 0;
        unsigned long ok = 0;
        for (rep = 0; rep < 5; rep++) {
            const char *q = text[fmt], *e = text[fmt] + len[fmt];
            edan_insn in;
            double t0 = now();
            ok = 0;
            while (q < e) {
                const char *nl = memchr(q, '\n', (size_t)(e - q));
                size_t l = (size_t)(nl - q) + 1;
                if (edan_rv_parse_line(p, q, l, &in) == EDAN_OK) { ok++; mem += in.addr; }
                q += l;
            }
            t[rep] = now() - t0;
        }
        qsort(t, 5, sizeof t[0], cmp);
        printf("parse %-22s %ld lines (%.1f MB): median %.3f s, %.1f M lines/s, %.0f MB/s (min %.3f max %.3f)%s\n",
               fmt == 0 ? "cpu;pc;insn;addr" : fmt == 1 ? "insn;addr (paper)" :
               fmt == 2 ? "QEMU raw disassembly" : fmt == 3 ? "cpu;pc, 200-insn loop" : "cpu;pc, all distinct", n, len[fmt] / 1e6, t[2], n / t[2] / 1e6,
               len[fmt] / t[2] / 1e6, t[0], t[4], ok == (unsigned long)n ? "" : " PARSE ERRORS");
    }
    {
        /* decoder: a loop's encodings (objdump of the summation kernel) */
        static const uint32_t words[] = { 0x00052703, 0x0791, 0x9d39, 0xfed79de3, 0x0007b787, 0x02f57553,
                                          0x7ae7f7c3, 0xfca43823, 0x0087b783, 0x02b686bb, 0x861a, 0x9642 };
        uint8_t code[64];
        size_t off = 0, k;
        double t[5];
        long iters = n * 4;
        for (k = 0; k < 12; k++) {
            int l = (words[k] & 3) == 3 ? 4 : 2;
            memcpy(code + off, &words[k], (size_t)l);      /* little-endian host */
            off += (size_t)l;
        }
        for (rep = 0; rep < 5; rep++) {
            edan_insn in;
            unsigned long sum = 0;
            size_t o = 0;
            long i;
            double t0 = now();
            for (i = 0; i < iters; i++) {
                edan_rv_decode(code + o, off - o, &in);
                sum += in.nsrc;
                o += in.length;
                if (o >= off) o = 0;
            }
            t[rep] = now() - t0;
            if (sum == 0) printf("?");
        }
        qsort(t, 5, sizeof t[0], cmp);
        printf("decode %ld instructions: median %.3f s, %.1f M instructions/s\n", iters, t[2], iters / t[2] / 1e6);
    }
    return 0;
}
