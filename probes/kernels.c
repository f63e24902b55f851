/* probes/kernels.c - the measured loops: compute (FMA/ADD/MUL with
   independent accumulators), memory (load, store, non-temporal store,
   in-place load:store mixes) and the CARM validation mixes. Each ISA gets
   its own copy compiled for it (target attributes) and is only called
   when the CPU supports it (__builtin_cpu_supports). */
#include "probe.h"
#include <immintrin.h>
#include <string.h>

const char *const probe_isa_name[PROBE_ISA_COUNT] = {"scalar", "sse", "avx2", "avx512"};
const char *const probe_fop_name[PROBE_FOP_COUNT] = {"fma", "add", "mul"};
const char *const probe_memop_name[PROBE_MEMOP_COUNT] = {"load", "store", "store_nt", "2:1", "1:1",
                                                          "load_last_first"};

int probe_isa_supported(int isa)
{
    __builtin_cpu_init();
    switch (isa) {
    case PROBE_ISA_SCALAR: return 1;
    case PROBE_ISA_SSE: return __builtin_cpu_supports("sse2");
    case PROBE_ISA_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case PROBE_ISA_AVX512: return __builtin_cpu_supports("avx512f");
    }
    return 0;
}

int probe_isa_best(void)
{
    int i;
    for (i = PROBE_ISA_COUNT - 1; i > 0; i--)
        if (probe_isa_supported(i)) return i;
    return 0;
}

int probe_isa_lanes(int isa)
{
    static const int lanes[PROBE_ISA_COUNT] = {1, 2, 4, 8};
    return lanes[isa];
}

/* Run-time constants the compiler cannot fold (x*1.0 would vanish). */
static volatile double probe_one = 1.0, probe_tiny = 1e-300;

#define PROBE_ACCS 12
int probe_compute_accumulators(void) { return PROBE_ACCS; }

/* 12 independent accumulators: enough to cover latency 4-6 x 2 pipes. */
#define COMPUTE_KERNEL(NAME, TGT, V, SET1, FMA, ADD, MUL, STORE, W)                              \
    __attribute__((target(TGT))) static double NAME(int op, long iters, double seed)              \
    {                                                                                             \
        V a0 = SET1(seed), a1 = SET1(seed + 1), a2 = SET1(seed + 2), a3 = SET1(seed + 3);         \
        V a4 = SET1(seed + 4), a5 = SET1(seed + 5), a6 = SET1(seed + 6), a7 = SET1(seed + 7);     \
        V a8 = SET1(seed + 8), a9 = SET1(seed + 9), a10 = SET1(seed + 10), a11 = SET1(seed + 11); \
        V x = SET1(probe_one), y = SET1(probe_tiny);                                              \
        double out[8], s = 0;                                                                     \
        long i;                                                                                   \
        int k;                                                                                    \
        if (op == PROBE_OP_FMA)                                                                   \
            for (i = 0; i < iters; i++) {                                                         \
                a0 = FMA(a0, x, y); a1 = FMA(a1, x, y); a2 = FMA(a2, x, y); a3 = FMA(a3, x, y);   \
                a4 = FMA(a4, x, y); a5 = FMA(a5, x, y); a6 = FMA(a6, x, y); a7 = FMA(a7, x, y);   \
                a8 = FMA(a8, x, y); a9 = FMA(a9, x, y); a10 = FMA(a10, x, y); a11 = FMA(a11, x, y); \
            }                                                                                     \
        else if (op == PROBE_OP_ADD)                                                              \
            for (i = 0; i < iters; i++) {                                                         \
                a0 = ADD(a0, y); a1 = ADD(a1, y); a2 = ADD(a2, y); a3 = ADD(a3, y);               \
                a4 = ADD(a4, y); a5 = ADD(a5, y); a6 = ADD(a6, y); a7 = ADD(a7, y);               \
                a8 = ADD(a8, y); a9 = ADD(a9, y); a10 = ADD(a10, y); a11 = ADD(a11, y);           \
            }                                                                                     \
        else                                                                                      \
            for (i = 0; i < iters; i++) {                                                         \
                a0 = MUL(a0, x); a1 = MUL(a1, x); a2 = MUL(a2, x); a3 = MUL(a3, x);               \
                a4 = MUL(a4, x); a5 = MUL(a5, x); a6 = MUL(a6, x); a7 = MUL(a7, x);               \
                a8 = MUL(a8, x); a9 = MUL(a9, x); a10 = MUL(a10, x); a11 = MUL(a11, x);           \
            }                                                                                     \
        a0 = ADD(a0, a1); a2 = ADD(a2, a3); a4 = ADD(a4, a5); a6 = ADD(a6, a7);                   \
        a8 = ADD(a8, a9); a10 = ADD(a10, a11);                                                    \
        a0 = ADD(ADD(a0, a2), ADD(a4, a6)); a0 = ADD(a0, ADD(a8, a10));                            \
        STORE(out, a0);                                                                           \
        for (k = 0; k < W; k++) s += out[k];                                                      \
        return s;                                                                                 \
    }

/* scalar: the _sd forms operate on one double (no packing by the compiler) */
#define SD_SET1(v) _mm_set_sd(v)
#define SD_STORE(p, v) _mm_store_sd(p, v)
COMPUTE_KERNEL(compute_scalar_fma, "fma", __m128d, SD_SET1, _mm_fmadd_sd, _mm_add_sd, _mm_mul_sd, SD_STORE, 1)
COMPUTE_KERNEL(compute_sse_fma, "fma", __m128d, _mm_set1_pd, _mm_fmadd_pd, _mm_add_pd, _mm_mul_pd, _mm_storeu_pd, 2)
COMPUTE_KERNEL(compute_avx2, "avx2,fma", __m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, _mm256_mul_pd,
               _mm256_storeu_pd, 4)
COMPUTE_KERNEL(compute_avx512, "avx512f", __m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd,
               _mm512_mul_pd, _mm512_storeu_pd, 8)

/* Without FMA hardware, "fma" is a dependent mul+add pair per accumulator
   (counted as 2 flops), which is what such a CPU can do. */
#define NOFMA_SD(a, x, y) _mm_add_sd(_mm_mul_sd(a, x), y)
#define NOFMA_PD(a, x, y) _mm_add_pd(_mm_mul_pd(a, x), y)
COMPUTE_KERNEL(compute_scalar_nofma, "sse2", __m128d, SD_SET1, NOFMA_SD, _mm_add_sd, _mm_mul_sd, SD_STORE, 1)
COMPUTE_KERNEL(compute_sse_nofma, "sse2", __m128d, _mm_set1_pd, NOFMA_PD, _mm_add_pd, _mm_mul_pd, _mm_storeu_pd, 2)

double probe_compute_run(int isa, int op, long iters, double seed)
{
    int fma = __builtin_cpu_supports("fma");
    switch (isa) {
    case PROBE_ISA_SCALAR: return fma ? compute_scalar_fma(op, iters, seed) : compute_scalar_nofma(op, iters, seed);
    case PROBE_ISA_SSE: return fma ? compute_sse_fma(op, iters, seed) : compute_sse_nofma(op, iters, seed);
    case PROBE_ISA_AVX2: return compute_avx2(op, iters, seed);
    case PROBE_ISA_AVX512: return compute_avx512(op, iters, seed);
    }
    return 0;
}

/* ---- memory ------------------------------------------------------------ */
/* 8 vectors per step. Loads go to registers an empty asm statement says
   it reads (KEEP), so that the compiler keeps them and the loop is only
   loads and its counter, as likwid-bench's load kernels: an OR into 8
   accumulators kept them alive too, but GCC 12 copies every AVX-512
   accumulator once per step (8 more instructions per 8 loads). */
#define KEEP(x) __asm__ volatile("" : : "x"(x))
/* The second order (PROBE_LOAD_LAST_FIRST) loads each step's last vector
   first: a request one step ahead of the others. On the development VM it
   gains 9-13% from L3 and DRAM and loses a fifth in L2, so a load roof
   measures both orders and keeps the better. KEEP8 keeps all 8 registers
   live to the end of the step (distinct registers); ORDER stops the
   compiler from moving the loads across each other. */
#define KEEP8(a, b, c, d, e, f, g, h) \
    __asm__ volatile("" : : "x"(a), "x"(b), "x"(c), "x"(d), "x"(e), "x"(f), "x"(g), "x"(h))
#define ORDER() __asm__ volatile("" : : : "memory")
/* Eight vectors of c stored from q on, with ST (a store or a streaming store). */
#define STORE8(ST, q, W, c)                                                                      \
    do {                                                                                          \
        ST((q), c); ST((q) + (W), c); ST((q) + 2 * (W), c); ST((q) + 3 * (W), c);                 \
        ST((q) + 4 * (W), c); ST((q) + 5 * (W), c); ST((q) + 6 * (W), c); ST((q) + 7 * (W), c);   \
    } while (0)
#define MEM_KERNEL(NAME, TGT, V, VI, W, SET1, LOAD, STORE, STREAM, ADD, STOREU, OR)               \
    __attribute__((target(TGT))) static double NAME(probe_memop op, char *buf, size_t bytes,      \
                                                    double *sink)                                 \
    {                                                                                             \
        double *p = (double *)buf, out[8];                                                        \
        size_t n = bytes / sizeof(double) / (8 * W) * (8 * W), i;                                 \
        V c = SET1(probe_tiny);                                                                   \
        V a0 = c, a1 = c, a2 = c, a3 = c, a4 = c, a5 = c, a6 = c, a7 = c;                         \
        int k;                                                                                    \
        switch (op) {                                                                             \
        case PROBE_LOAD:                                                                          \
            /* the loads alone set the pace */                                                    \
            for (i = 0; i < n; i += 8 * W) {                                                      \
                a0 = LOAD(p + i); KEEP(a0); a1 = LOAD(p + i + W); KEEP(a1);                       \
                a2 = LOAD(p + i + 2 * W); KEEP(a2); a3 = LOAD(p + i + 3 * W); KEEP(a3);           \
                a4 = LOAD(p + i + 4 * W); KEEP(a4); a5 = LOAD(p + i + 5 * W); KEEP(a5);           \
                a6 = LOAD(p + i + 6 * W); KEEP(a6); a7 = LOAD(p + i + 7 * W); KEEP(a7);           \
            }                                                                                     \
            STOREU(out, OR(a0, a7));                                                              \
            for (k = 0; k < W; k++) *sink += out[k];                                              \
            return (double)n * 8;                                                                 \
        case PROBE_LOAD_LAST_FIRST:                                                               \
            for (i = 0; i < n; i += 8 * W) {                                                      \
                a7 = LOAD(p + i + 7 * W); ORDER(); a0 = LOAD(p + i); ORDER();                     \
                a1 = LOAD(p + i + W); ORDER(); a2 = LOAD(p + i + 2 * W); ORDER();                 \
                a3 = LOAD(p + i + 3 * W); ORDER(); a4 = LOAD(p + i + 4 * W); ORDER();             \
                a5 = LOAD(p + i + 5 * W); ORDER(); a6 = LOAD(p + i + 6 * W);                      \
                KEEP8(a0, a1, a2, a3, a4, a5, a6, a7);                                            \
            }                                                                                     \
            STOREU(out, OR(a0, a7));                                                              \
            for (k = 0; k < W; k++) *sink += out[k];                                              \
            return (double)n * 8;                                                                 \
        case PROBE_STORE:                                                                         \
            for (i = 0; i < n; i += 8 * W) STORE8(STORE, p + i, W, c);                            \
            return (double)n * 8;                                                                 \
        case PROBE_STORE_NT:                                                                      \
            for (i = 0; i < n; i += 8 * W) STORE8(STREAM, p + i, W, c);                           \
            _mm_sfence();                                                                         \
            return (double)n * 8;                                                                 \
        case PROBE_MIX_2_1: { /* a[i] += b[i]: two loads, one store, in place */                  \
            double *b = p + n / 2;                                                                \
            size_t h = n / 2 / (4 * W) * (4 * W);                                                 \
            for (i = 0; i < h; i += 4 * W) {                                                      \
                STORE(p + i, ADD(LOAD(p + i), LOAD(b + i)));                                      \
                STORE(p + i + W, ADD(LOAD(p + i + W), LOAD(b + i + W)));                          \
                STORE(p + i + 2 * W, ADD(LOAD(p + i + 2 * W), LOAD(b + i + 2 * W)));              \
                STORE(p + i + 3 * W, ADD(LOAD(p + i + 3 * W), LOAD(b + i + 3 * W)));              \
            }                                                                                     \
            return (double)h * 8 * 3;                                                             \
        }                                                                                         \
        case PROBE_MIX_1_1: /* a[i] += c: one load, one store, in place */                        \
            for (i = 0; i < n; i += 4 * W) {                                                      \
                STORE(p + i, ADD(LOAD(p + i), c));                                                \
                STORE(p + i + W, ADD(LOAD(p + i + W), c));                                        \
                STORE(p + i + 2 * W, ADD(LOAD(p + i + 2 * W), c));                                \
                STORE(p + i + 3 * W, ADD(LOAD(p + i + 3 * W), c));                                \
            }                                                                                     \
            return (double)n * 8 * 2;                                                             \
        default: break;                                                                           \
        }                                                                                         \
        (void)a0;                                                                                 \
        return 0;                                                                                 \
    }

static double sd_or(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    x |= y;
    memcpy(&a, &x, sizeof a);
    return a;
}
__attribute__((target("avx512f"))) static __m512d avx512_or(__m512d a, __m512d b)
{
    return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(a), _mm512_castpd_si512(b)));
}
static double sd_load(const double *p) { return *p; }
static void sd_store(double *p, double v) { *p = v; }
static void sd_stream(double *p, double v) { _mm_stream_si64((long long *)p, (long long)v); }
static double sd_add(double a, double b) { return a + b; }
static double sd_set1(double v) { return v; }
static void sd_storeu(double *p, double v) { *p = v; }
static void sse_stream(double *p, __m128d v) { _mm_stream_pd(p, v); }

MEM_KERNEL(mem_scalar, "sse2", double, long long, 1, sd_set1, sd_load, sd_store, sd_stream, sd_add, sd_storeu, sd_or)
MEM_KERNEL(mem_sse, "sse2", __m128d, __m128i, 2, _mm_set1_pd, _mm_load_pd, _mm_store_pd, sse_stream, _mm_add_pd,
           _mm_storeu_pd, _mm_or_pd)
MEM_KERNEL(mem_avx2, "avx2", __m256d, __m256i, 4, _mm256_set1_pd, _mm256_load_pd, _mm256_store_pd, _mm256_stream_pd,
           _mm256_add_pd, _mm256_storeu_pd, _mm256_or_pd)
MEM_KERNEL(mem_avx512, "avx512f", __m512d, __m512i, 8, _mm512_set1_pd, _mm512_load_pd, _mm512_store_pd,
           _mm512_stream_pd, _mm512_add_pd, _mm512_storeu_pd, avx512_or)

double probe_mem_pass(int isa, probe_memop op, char *buf, size_t bytes, double *sink)
{
    switch (isa) {
    case PROBE_ISA_SCALAR: return mem_scalar(op, buf, bytes, sink);
    case PROBE_ISA_SSE: return mem_sse(op, buf, bytes, sink);
    case PROBE_ISA_AVX2: return mem_avx2(op, buf, bytes, sink);
    case PROBE_ISA_AVX512: return mem_avx512(op, buf, bytes, sink);
    }
    return 0;
}

/* ---- CARM validation ---------------------------------------------------- */
/* Per step: NL vector loads and NF FMAs (NF >= 8, one per accumulator
   and round). The first min(NL, 8) FMAs take a loaded vector; loads beyond
   8 are OR-ed into integer accumulators (no flops); FMAs beyond the loads
   work on registers. AI = 2*NF*W / (8*NL*W) = NF / (4*NL) flop/byte. */
static const int carm_nl[PROBE_CARM_VARIANTS] = {32, 16, 8, 4, 2, 1, 1, 1, 1};
static const int carm_nf[PROBE_CARM_VARIANTS] = {8, 8, 8, 8, 8, 8, 16, 32, 64};

double probe_carm_ai(int isa, int v)
{
    (void)isa;
    return (double)carm_nf[v] / (4.0 * carm_nl[v]);
}

#define CARM_SLOT(j, A, NL, FMA, LOAD, W)                                                                         \
    do {                                                                                          \
        if ((j) < NL) A = FMA(LOAD(q + (j) * W), c, A);                                           \
        else A = FMA(A, one, c);                                                                  \
    } while (0)

#define CARM_KERNEL(NAME, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, NL, NF)          \
    __attribute__((target(TGT))) static void NAME(char *buf, size_t bytes, double *flops,        \
                                                  double *bytes_out, double *sink)               \
    {                                                                                             \
        const double *p = (const double *)buf;                                                    \
        size_t step = (size_t)(NL) * W, n = bytes / sizeof(double) / step * step, i;              \
        V c = SET1(probe_tiny), one = SET1(probe_one);                                            \
        V a0 = c, a1 = c, a2 = c, a3 = c, a4 = c, a5 = c, a6 = c, a7 = c;                         \
        VI i0 = LOADI(p), i1 = i0, i2 = i0, i3 = i0;                                              \
        double out[8];                                                                            \
        int k, r;                                                                                 \
        for (i = 0; i < n; i += step) {                                                           \
            const double *q = p + i;                                                              \
            CARM_SLOT(0, a0, NL, FMA, LOAD, W); CARM_SLOT(1, a1, NL, FMA, LOAD, W); CARM_SLOT(2, a2, NL, FMA, LOAD, W); CARM_SLOT(3, a3, NL, FMA, LOAD, W);               \
            CARM_SLOT(4, a4, NL, FMA, LOAD, W); CARM_SLOT(5, a5, NL, FMA, LOAD, W); CARM_SLOT(6, a6, NL, FMA, LOAD, W); CARM_SLOT(7, a7, NL, FMA, LOAD, W);               \
            for (k = 8; k < (NL); k += 4) {                                                       \
                i0 = OR(i0, LOADI(q + k * W)); i1 = OR(i1, LOADI(q + (k + 1) * W));               \
                i2 = OR(i2, LOADI(q + (k + 2) * W)); i3 = OR(i3, LOADI(q + (k + 3) * W));         \
            }                                                                                     \
            for (r = 8; r < (NF); r += 8) {                                                       \
                a0 = FMA(a0, one, c); a1 = FMA(a1, one, c); a2 = FMA(a2, one, c);                 \
                a3 = FMA(a3, one, c); a4 = FMA(a4, one, c); a5 = FMA(a5, one, c);                 \
                a6 = FMA(a6, one, c); a7 = FMA(a7, one, c);                                       \
            }                                                                                     \
        }                                                                                         \
        a0 = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));                   \
        STOREU(out, a0);                                                                          \
        for (k = 0; k < W; k++) *sink += out[k];                                                  \
        i0 = OR(OR(i0, i1), OR(i2, i3));                                                          \
        memcpy(out, &i0, sizeof(double));                                                         \
        *sink += out[0] == 12345.0;                                                               \
        *flops = (double)(n / step) * (NF) * 2.0 * W;                                             \
        *bytes_out = (double)n * sizeof(double);                                                  \
    }

#define AVX512_LOADI(p) _mm512_load_si512((const void *)(p))
#define AVX2_LOADI(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define SSE_LOADI(p) _mm_load_si128((const __m128i *)(const void *)(p))

#define CARM_SET(ISA, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU)                     \
    CARM_KERNEL(carm_##ISA##_0, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 32, 8)    \
    CARM_KERNEL(carm_##ISA##_1, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 16, 8)    \
    CARM_KERNEL(carm_##ISA##_2, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 8, 8)     \
    CARM_KERNEL(carm_##ISA##_3, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 4, 8)     \
    CARM_KERNEL(carm_##ISA##_4, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 2, 8)     \
    CARM_KERNEL(carm_##ISA##_5, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 1, 8)     \
    CARM_KERNEL(carm_##ISA##_6, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 1, 16)    \
    CARM_KERNEL(carm_##ISA##_7, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 1, 32)    \
    CARM_KERNEL(carm_##ISA##_8, TGT, V, VI, W, SET1, LOAD, LOADI, OR, FMA, ADD, STOREU, 1, 64)    \
    typedef void (*carm_fn_##ISA)(char *, size_t, double *, double *, double *);                 \
    static const carm_fn_##ISA carm_##ISA[PROBE_CARM_VARIANTS] = {                               \
        carm_##ISA##_0, carm_##ISA##_1, carm_##ISA##_2, carm_##ISA##_3, carm_##ISA##_4,           \
        carm_##ISA##_5, carm_##ISA##_6, carm_##ISA##_7, carm_##ISA##_8};

CARM_SET(avx512, "avx512f", __m512d, __m512i, 8, _mm512_set1_pd, _mm512_load_pd, AVX512_LOADI, _mm512_or_si512,
         _mm512_fmadd_pd, _mm512_add_pd, _mm512_storeu_pd)
CARM_SET(avx2, "avx2,fma", __m256d, __m256i, 4, _mm256_set1_pd, _mm256_load_pd, AVX2_LOADI, _mm256_or_si256,
         _mm256_fmadd_pd, _mm256_add_pd, _mm256_storeu_pd)
CARM_SET(sse, "fma", __m128d, __m128i, 2, _mm_set1_pd, _mm_load_pd, SSE_LOADI, _mm_or_si128, _mm_fmadd_pd,
         _mm_add_pd, _mm_storeu_pd)

void probe_carm_pass(int isa, int v, char *buf, size_t bytes, double *flops, double *bytes_out, double *sink)
{
    *flops = *bytes_out = 0;
    if (v < 0 || v >= PROBE_CARM_VARIANTS) return;
    if (isa == PROBE_ISA_AVX512) carm_avx512[v](buf, bytes, flops, bytes_out, sink);
    else if (isa == PROBE_ISA_AVX2) carm_avx2[v](buf, bytes, flops, bytes_out, sink);
    else if (__builtin_cpu_supports("fma")) carm_sse[v](buf, bytes, flops, bytes_out, sink);
}
