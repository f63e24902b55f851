/* tests/cmd/x86_check.c - reads `objdump -d -w` of an x86-64 ELF on standard
   input and decodes every instruction it lists with tools/front/x86.c: each must
   decode, to objdump's length, with its registers within an edan_insn's
   and its memory operands within the front-end's. Prints the counts and
   every kind of failure once (with its first address); exit 1 if any. */
#define EDAN_IMPLEMENTATION
#include "tools/front/x86.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char line[4096], why[256], seen[64][256];
    unsigned long n = 0, ok = 0, bad = 0, accesses = 0, multi = 0;
    int nseen = 0, i;
    const char *name = argc > 1 ? argv[1] : "input";
    while (fgets(line, sizeof line, stdin)) {
        char *p = line, *end;
        unsigned long long addr;
        uint8_t bytes[16];
        size_t nb = 0;
        x86_decoded d;
        edan_result r;
        while (*p == ' ') p++;
        addr = strtoull(p, &end, 16);
        if (end == p || *end != ':' || end[1] != '\t') continue;     /* not an instruction line */
        p = end + 2;
        while (nb < 16 && isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) && (p[2] == ' ' || p[2] == '\t')) {
            bytes[nb++] = (uint8_t)strtoul((char[3]){p[0], p[1], 0}, NULL, 16);
            p += 3;
        }
        if (!nb || strstr(p, "(bad)")) continue;        /* data objdump did not decode either */
        n++;
        r = x86_decode(bytes, nb, addr, &d, why, sizeof why);
        if (r == EDAN_OK && bytes[0] == 0x9b && d.in.length == 1 && nb > 1) {
            /* objdump shows fwait and the x87 instruction after it as one
               (fstcw for fwait fnstcw); they are two, for the CPU too */
            r = x86_decode(bytes + 1, nb - 1, addr + 1, &d, why, sizeof why);
            if (r == EDAN_OK) d.in.length = (uint8_t)(d.in.length + 1);
        }
        if (r == EDAN_OK && d.in.length == nb) {
            ok++;
            accesses += d.nacc != 0;
            multi += d.nacc > 1;
            continue;
        }
        bad++;
        if (r == EDAN_OK) snprintf(why, sizeof why, "length %u, objdump %zu", (unsigned)d.in.length, nb);
        for (i = 0; i < nseen && strcmp(seen[i], why); i++) {}
        if (i == nseen && nseen < 64) {
            snprintf(seen[nseen++], sizeof seen[0], "%s", why);
            fprintf(stderr, "%s: %llx: %s (%s", name, addr, why, "bytes");
            for (i = 0; i < (int)nb; i++) fprintf(stderr, " %02x", bytes[i]);
            fprintf(stderr, ")\n");
        }
    }
    printf("%s: %lu instructions, %lu decoded (%lu with memory accesses, %lu with several), %lu failed\n", name, n, ok,
           accesses, multi, bad);
    return bad || !n ? 1 : 0;
}
