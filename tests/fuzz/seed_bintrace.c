/* tests/fuzz/seed_bintrace.c - seeds for fuzz_bintrace with many CHECK
   stretches (a CHECK record every 200 bytes, where `edan trace` writes one
   every 64 KiB, beyond the fuzzer's input sizes): a RISC-V trace and an
   x86-64 one of fuzz_bintrace's stand-in instructions, so that the harness
   can move, repeat and replace their stretches. Usage: seed_bintrace
   RV.bin X86.bin */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "tools/front/bintrace.h"

static unsigned long long rng = 0x5eed;
static unsigned rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng >> 33);
}

static int write_trace(const char *path, unsigned isa)
{
    enum { NB = 6, EXECS = 300 };
    bintrace_sinsn blk[NB][4];
    uint32_t nb[NB], id[NB], b, i;
    bintrace_writer w;
    FILE *f = fopen(path, "wb");
    int e;
    if (!f || bintrace_writer_open_isa(&w, f, isa) != BINTRACE_OK) return 1;
    w.check_every = 200;
    memset(blk, 0, sizeof blk);
    for (b = 0; b < NB; b++) {
        nb[b] = 1 + rnd() % 4;
        id[b] = UINT32_MAX;
        for (i = 0; i < nb[b]; i++) {
            bintrace_sinsn *x = &blk[b][i];
            if (isa == EDAN_ISA_RISCV64) {
                do {
                    uint32_t word = rnd() | 3;
                    memcpy(x->raw, &word, 4);
                } while (edan_rv_decode(x->raw, 4, &x->in) != EDAN_OK);
                x->in.length = 4;
            } else {
                /* fuzz_bintrace's rule: byte 1's low bits 1 a load, 2 a store (one access each) */
                x->raw[0] = (uint8_t)rnd();
                x->raw[1] = (uint8_t)(rnd() % 3);
                x->raw[2] = (uint8_t)rnd();
                x->in.length = 3;
                x->in.mem = x->raw[1];
                x->in.size = (uint16_t)(1u << ((x->raw[1] >> 2) & 3));
            }
            x->in.pc = 0x10000 + 64 * b + 4 * i;
            x->in.flags = EDAN_INSN_HAS_PC;
        }
    }
    for (e = 0; e < EXECS; e++) {
        b = rnd() % NB;
        for (i = 0; i < nb[b]; i++) blk[b][i].in.addr = 0x8000 + 8 * (rnd() % 64);
        if (id[b] == UINT32_MAX) id[b] = bintrace_write_define(&w, blk[b], nb[b]);
        bintrace_write_exec(&w, id[b], blk[b], nb[b], 0, nb[b]);
    }
    return bintrace_writer_close(&w) != BINTRACE_OK || fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: seed_bintrace RV.bin X86.bin\n");
        return 2;
    }
    return write_trace(argv[1], EDAN_ISA_RISCV64) || write_trace(argv[2], EDAN_ISA_X86_64);
}
