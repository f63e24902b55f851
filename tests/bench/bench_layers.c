/* tests/bench/bench_layers.c - the engine alone on a synthetic feed whose
   memory depth D is as long as asked, through compiled blocks of loads of
   addresses never written (no shadow memory, no cache: what grows is the
   layer histogram):
     chain  a pointer chase, one load a layer (D = LOADS);
     mixed  1 to 3 loads a layer, in no order (D about LOADS / 2);
     wide   8 layers of LOADS / 8 loads (every count in the big table).
   Prints N, W, D, the layered bound at m = 4 (read twice, the second time
   from the kept sums), the engine's peak allocation (through the allocator
   hooks) and the process's peak RSS (VmHWM, where /proc has it);
   bench_layers.sh measures the time. usage: bench_layers chain|mixed|wide LOADS */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_alloc.h"

/* the process's peak RSS in KiB, 0 where /proc does not say */
static long vm_hwm(void)
{
    char line[256];
    long kb = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb;
}

static edan_insn ld(edan_reg d, edan_reg a)
{
    edan_insn in;
    memset(&in, 0, sizeof in);
    in.cls = EDAN_CLASS_LOAD;
    in.mem = EDAN_MEM_LOAD;
    in.size = 8;
    in.src[in.nsrc++] = a;
    in.dst[in.ndst++] = d;
    return in;
}

/* a block of n instructions v[0 .. n) */
static edan_block *block(edan_context *ctx, const edan_insn *v, size_t n)
{
    edan_prepared p[8];
    edan_block *b = NULL;
    size_t i;
    for (i = 0; i < n; i++)
        if (edan_prepare(ctx, &v[i], &p[i]) != EDAN_OK) return NULL;
    return edan_block_create(ctx, p, n, &b) == EDAN_OK ? b : NULL;
}

int main(int argc, char **argv)
{
    edan_context *ctx = NULL;
    edan_options o;
    edan_block *b[8];
    edan_insn v[8];
    edan_metrics m;
    edan_bounds bd, again;
    uint64_t loads, done = 0, addr = 0x40000000, addrs[8], s = 88172645463325252ull;
    int shape, i;
    if (argc != 3 || (shape = !strcmp(argv[1], "chain") ? 0 : !strcmp(argv[1], "mixed") ? 1
                              : !strcmp(argv[1], "wide") ? 2 : -1) < 0) {
        fprintf(stderr, "usage: bench_layers chain|mixed|wide LOADS\n");
        return 2;
    }
    loads = strtoull(argv[2], NULL, 10);
    memset(&o, 0, sizeof o);
    bench_alloc_hooks(&o.allocator);
    if (edan_create(&ctx, &o) != EDAN_OK) return 1;
    if (shape == 0) {           /* eight chase steps */
        for (i = 0; i < 8; i++) v[i] = ld(9, 9);
        b[0] = block(ctx, v, 8);
    } else if (shape == 1) {    /* a chase step and 0, 1 or 2 loads at its depth (x8 keeps it) */
        for (i = 0; i < 3; i++) {
            memset(&v[0], 0, sizeof v[0]);
            v[0].cls = EDAN_CLASS_INT_ALU;
            v[0].src[v[0].nsrc++] = 9;
            v[0].dst[v[0].ndst++] = 8;
            v[1] = ld(9, 9);
            v[2] = ld(10, 8);
            v[3] = ld(11, 8);
            b[i] = block(ctx, v, 2 + (size_t)i);
        }
    } else {                    /* anchors x1..x8 at depths 0..7, a block of a load from each */
        for (i = 1; i <= 8; i++) {
            int k;
            for (k = 0; k < i - 1; k++) {
                edan_insn c = ld((edan_reg)i, (edan_reg)i);
                c.addr = addr;
                addr += 8;
                if (edan_feed(ctx, &c) != EDAN_OK) return 1;
                done++;
            }
        }
        for (i = 0; i < 8; i++) v[i] = ld((edan_reg)(16 + i), (edan_reg)(1 + i));
        b[0] = block(ctx, v, 8);
    }
    for (i = 0; i < (shape == 1 ? 3 : 1); i++)
        if (!b[i]) {
            fprintf(stderr, "bench_layers: %s\n", edan_error(ctx));
            return 1;
        }
    while (done < loads) {
        int k = 0, n = 8;
        if (shape == 1) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            k = (int)(s % 3);
            n = 2 + k;
        }
        for (i = 0; i < n; i++, addr += 8) addrs[i] = addr;
        if (edan_feed_block(ctx, b[k], addrs) != EDAN_OK) {
            fprintf(stderr, "bench_layers: %s\n", edan_error(ctx));
            return 1;
        }
        done += shape == 1 ? (uint64_t)n - 1 : 8;
    }
    if (edan_get_metrics(ctx, 0, &m) != EDAN_OK || edan_get_bounds(ctx, 0, 4, &bd) != EDAN_OK ||
        edan_get_bounds(ctx, 0, 4, &again) != EDAN_OK || bd.M_layered != again.M_layered)
        return 1;
    printf("%s: N %llu W %llu D %llu layered(m=4) %.0f alpha, engine peak %zu bytes, VmHWM %ld KiB\n", argv[1],
           (unsigned long long)m.N, (unsigned long long)m.W, (unsigned long long)m.D, bd.M_layered / 200.0, bench_alloc_peak,
           vm_hwm());
    for (i = 0; i < (shape == 1 ? 3 : 1); i++) edan_block_destroy(b[i]);
    edan_destroy(ctx);
    return 0;
}
