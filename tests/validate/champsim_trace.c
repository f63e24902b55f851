/* tests/validate/champsim_trace.c - a RISC-V text trace with PCs (edan
   trace --text FILE --text-pc) to the trace records of the ChampSim
   cycle-level simulator (its input_instr: ip, branch and taken bytes, two
   destination and four source register bytes, two store and four load
   addresses), for the validation of tests/validate/champsim.sh.
   Registers: sp is the simulator's stack pointer (6), x1..x31 are 32+n,
   f0..f31 64+n, every CSR 127 (none is one of its special 6, 25, 26).
   Branches take the simulator's spelling: a conditional branch reads the
   instruction pointer (26) and its registers and writes the pointer, a
   jump writes it, a call (jal/jalr with a link) reads and writes the
   pointer and sp, a return (jalr x0, 0(ra)) reads sp and writes both.
   Taken: the next line's pc is neither pc + 2 nor pc + 4.
   Usage: champsim_trace < TRACE > OUT (exit 2 on a bad line). */
#define EDAN_IMPLEMENTATION
#define EDAN_NO_PROFILE
#include "../../edan.h"
#include <stdio.h>
#include <string.h>

enum { REG_SP = 6, REG_IP = 26 };

typedef struct cs_instr {       /* the simulator's input_instr, 64 bytes */
    uint64_t ip;
    uint8_t is_branch, taken;
    uint8_t dst[2], src[4];
    uint64_t dst_mem[2], src_mem[4];
} cs_instr;

static uint8_t cs_reg(edan_reg r)
{
    if (r == 2) return REG_SP;
    if (r < 32) return (uint8_t)(32 + r);
    if (r < 64) return (uint8_t)(64 + (r - 32));
    return 127;
}

static void cs_add(uint8_t *set, int n, uint8_t r)
{
    int i;
    for (i = 0; i < n; i++) {
        if (set[i] == r) return;
        if (!set[i]) {
            set[i] = r;
            return;
        }
    }
}

static int cs_write(const cs_instr *c, FILE *out)
{
    unsigned char rec[64];
    memcpy(rec, &c->ip, 8);
    rec[8] = c->is_branch;
    rec[9] = c->taken;
    memcpy(rec + 10, c->dst, 2);
    memcpy(rec + 12, c->src, 4);
    memcpy(rec + 16, c->dst_mem, 16);
    memcpy(rec + 32, c->src_mem, 32);
    return fwrite(rec, sizeof rec, 1, out) == 1;
}

int main(void)
{
    static char line[EDAN_RV_MAX_LINE + 2];
    edan_rv_parser *rv = NULL;
    cs_instr prev;
    int have = 0;
    unsigned long lineno = 0, n = 0;
    if (edan_rv_parser_create(&rv, NULL) != EDAN_OK) return 2;
    while (fgets(line, sizeof line, stdin)) {
        edan_insn in;
        cs_instr c;
        edan_result r;
        unsigned i;
        lineno++;
        r = edan_rv_parse_line(rv, line, strlen(line), &in);
        if (r == EDAN_SKIP) continue;
        if (r != EDAN_OK || !(in.flags & EDAN_INSN_HAS_PC)) {
            fprintf(stderr, "<stdin>:%lu: %s\n", lineno, r != EDAN_OK ? edan_rv_error(rv) : "no pc (trace with --text-pc)");
            return 2;
        }
        if (have) {
            prev.taken = prev.is_branch && in.pc != prev.ip + 2 && in.pc != prev.ip + 4;
            if (!cs_write(&prev, stdout)) return 2;
            n++;
        }
        memset(&c, 0, sizeof c);
        c.ip = in.pc;
        if (in.op == EDAN_RV_OP_JAL || in.op == EDAN_RV_OP_JALR) {
            int link = in.ndst > 0, ret = !link && in.op == EDAN_RV_OP_JALR && in.nsrc == 1 && in.src[0] == 1;
            c.is_branch = 1;
            cs_add(c.dst, 2, REG_IP);
            if (link || ret) cs_add(c.dst, 2, REG_SP);
            if (link) cs_add(c.src, 4, REG_IP);
            if (link || ret) cs_add(c.src, 4, REG_SP);
            if (in.op == EDAN_RV_OP_JALR && !ret)
                for (i = 0; i < in.nsrc; i++) cs_add(c.src, 4, cs_reg(in.src[i]));
        } else if (in.cls == EDAN_CLASS_BRANCH) {
            c.is_branch = 1;
            cs_add(c.dst, 2, REG_IP);
            cs_add(c.src, 4, REG_IP);
            for (i = 0; i < in.nsrc; i++) cs_add(c.src, 4, cs_reg(in.src[i]));
        } else {
            for (i = 0; i < in.nsrc; i++) cs_add(c.src, 4, cs_reg(in.src[i]));
            for (i = 0; i < in.ndst; i++) cs_add(c.dst, 2, cs_reg(in.dst[i]));
        }
        if (in.mem == EDAN_MEM_LOAD || in.mem == EDAN_MEM_AMO) c.src_mem[0] = in.addr;
        if (in.mem == EDAN_MEM_STORE || in.mem == EDAN_MEM_AMO) c.dst_mem[0] = in.addr;
        prev = c;
        have = 1;
    }
    if (have && !cs_write(&prev, stdout)) return 2;
    fprintf(stderr, "champsim_trace: %lu instructions\n", n + have);
    edan_rv_parser_destroy(rv);
    return 0;
}
