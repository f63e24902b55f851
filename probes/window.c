/* probes/window.c - the core's window: reorder buffer, load and store
   queues, dispatch width. The classic test: two independent pointer chases
   over DRAM, each load followed by N filler instructions. While a load's
   miss and the next chase's load both fit in the window the two misses
   overlap (about one DRAM latency an iteration); once the fillers between
   them fill a structure the second cannot enter until the first retires,
   and the time jumps to about two latencies. The fillers pick the
   structure: nops fill the reorder buffer, L1-hitting loads the load
   queue, stores the store queue. The loop is generated at run time (x86-64
   machine code) because N is a parameter of the code, not of its data. */
#include "probe.h"
#include "../tools/common/jsonw.h"
#include <math.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__x86_64__)

#define WIN_CODE_MAX (16 + 2 * PROBE_WINDOW_MAX_FILL * 5 + 32)

/* One filler of `kind`, x86-64 bytes: nop; mov eax, [rsp-64]; mov [rsp-64], eax
   (the red zone of a leaf function: the loop calls nothing). */
static size_t win_filler(unsigned char *c, int kind)
{
    static const unsigned char nop[] = {0x90}, ld[] = {0x8b, 0x44, 0x24, 0xc0}, st[] = {0x89, 0x44, 0x24, 0xc0};
    const unsigned char *f = kind == PROBE_WINDOW_ROB ? nop : kind == PROBE_WINDOW_LQ ? ld : st;
    size_t n = kind == PROBE_WINDOW_ROB ? sizeof nop : 4;
    memcpy(c, f, n);
    return n;
}

/* char *loop(char *p, char *q, long iters, char **q_out):
       top: mov rdi, [rdi]; N fillers; mov rsi, [rsi]; N fillers;
            dec rdx; jnz top
       mov [rcx], rsi; mov rax, rdi; ret */
static size_t win_emit(unsigned char *c, int kind, int n)
{
    size_t at = 0;
    int i;
    int32_t rel;
    c[at++] = 0x48; c[at++] = 0x8b; c[at++] = 0x3f;            /* mov rdi, [rdi] */
    for (i = 0; i < n; i++) at += win_filler(c + at, kind);
    c[at++] = 0x48; c[at++] = 0x8b; c[at++] = 0x36;            /* mov rsi, [rsi] */
    for (i = 0; i < n; i++) at += win_filler(c + at, kind);
    c[at++] = 0x48; c[at++] = 0xff; c[at++] = 0xca;            /* dec rdx */
    c[at++] = 0x0f; c[at++] = 0x85;                            /* jnz top */
    rel = -(int32_t)(at + 4);
    memcpy(c + at, &rel, 4);
    at += 4;
    c[at++] = 0x48; c[at++] = 0x89; c[at++] = 0x31;            /* mov [rcx], rsi */
    c[at++] = 0x48; c[at++] = 0x89; c[at++] = 0xf8;            /* mov rax, rdi */
    c[at++] = 0xc3;                                            /* ret */
    return at;
}

/* A block of `n` nops and a counted loop around it: the dispatch width. */
static size_t win_emit_nops(unsigned char *c, int n)
{
    size_t at = 0;
    int i;
    int32_t rel;
    for (i = 0; i < n; i++) c[at++] = 0x90;
    c[at++] = 0x48; c[at++] = 0xff; c[at++] = 0xca;            /* dec rdx */
    c[at++] = 0x0f; c[at++] = 0x85;
    rel = -(int32_t)(at + 4);
    memcpy(c + at, &rel, 4);
    at += 4;
    c[at++] = 0x48; c[at++] = 0x89; c[at++] = 0xf8;            /* mov rax, rdi */
    c[at++] = 0xc3;
    return at;
}

typedef char *(*win_loop_fn)(char *p, char *q, long iters, char **q_out);
/* The generated code as a function (POSIX guarantees the conversion;
   ISO C has none, hence the union). */
static win_loop_fn win_fn(void *code)
{
    union { void *p; win_loop_fn f; } u;
    u.p = code;
    return u.f;
}

/* The code buffer, written and then made executable (never both at once). */
static unsigned char *win_code;

static int win_map(void)
{
    if (win_code) return 0;
    win_code = (unsigned char *)mmap(NULL, WIN_CODE_MAX, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (win_code == MAP_FAILED) win_code = NULL;
    return win_code ? 0 : -1;
}

static int win_write(int kind, int n)
{
    if (win_map() || mprotect(win_code, WIN_CODE_MAX, PROT_READ | PROT_WRITE)) return -1;
    if (kind == PROBE_WINDOW_WIDTH) win_emit_nops(win_code, n);
    else win_emit(win_code, kind, n);
    return mprotect(win_code, WIN_CODE_MAX, PROT_READ | PROT_EXEC);
}

int probe_window_supported(void) { return 1; }

double probe_window_run(int kind, int n, char **p, char **q, long iters)
{
    double t0, t1;
    win_loop_fn f;
    if (n < 0 || n > PROBE_WINDOW_MAX_FILL || iters < 1 || win_write(kind, n)) return -1;
    f = win_fn(win_code);
    t0 = probe_now();
    *p = f(*p, *q, iters, q);
    t1 = probe_now();
    return t1 - t0;
}

double probe_window_nops(int n, long iters)
{
    double t0, t1;
    char *dummy = NULL;
    win_loop_fn f;
    if (n < 1 || n > 2 * PROBE_WINDOW_MAX_FILL || iters < 1 || win_write(PROBE_WINDOW_WIDTH, n)) return -1;
    f = win_fn(win_code);
    t0 = probe_now();
    (void)f(NULL, NULL, iters, &dummy);
    t1 = probe_now();
    return t1 - t0;
}

#else   /* the generated loops are x86-64 code */

int probe_window_supported(void) { return 0; }
double probe_window_run(int kind, int n, char **p, char **q, long iters)
{
    (void)kind; (void)n; (void)p; (void)q; (void)iters;
    return -1;
}
double probe_window_nops(int n, long iters)
{
    (void)n; (void)iters;
    return -1;
}

#endif

/* ---- the measurement: sweeps of the loops above, their jumps ---------- */
/* The core's window (probes/window.c): per structure, the time of an
   iteration of two DRAM chases with n fillers after each load, over n;
   the structure holds the n where the time jumps most between neighbours
   (the misses stop overlapping), found on a coarse sweep and refined one
   by one. Filled by nops, the reorder buffer: p, n nops and q no longer
   fit, rob = n + 1; by L1 loads, the load queue: lq = n + 1; by stores,
   the store queue: the n stores no longer fit, sq = n - 1. Each is swept
   twice and keeps the larger (win_structure says why). */
typedef struct win_curve { int n[PROBE_WINDOW_MAX_FILL + 2]; double ns[PROBE_WINDOW_MAX_FILL + 2]; int len; } win_curve;

/* ns per iteration at n fillers: the fastest of the repetitions, *st kept. */
static double win_point(const probe_opts *o, int kind, int n, char **p, char **q, double dram_ns, probe_stats *st)
{
    double vals[8];
    long iters = (long)(2e6 / (2 * (dram_ns > 1 ? dram_ns : 1)));      /* about 2 ms */
    int r, nr = o->quick ? 3 : 5;
    if (iters < 200) iters = 200;
    (void)probe_window_run(kind, n, p, q, iters / 4);     /* warm-up: the code, the chases' pages */
    for (r = 0; r < nr; r++) {
        double t = probe_window_run(kind, n, p, q, iters);
        if (t < 0) return -1;
        vals[r] = t * 1e9 / (double)iters;
    }
    probe_stats_of(vals, nr, st);
    return st->min;         /* a busy machine only adds time: the fastest repetition is the loop's */
}

/* Where curve c steps up: the j for which time = a + b n + c [n >= n_j]
   fits best (least squares, c > 0). The fillers take time of their own
   (n of them at the dispatch width), so the level below the jump rises
   with n, as the one above it does. */
static int win_jump(const win_curve *c)
{
    int j, i, best = 1;
    double cost = -1;
    for (j = 1; j < c->len; j++) {
        /* normal equations of y = a + b x + g s, s = [i >= j] */
        double S[3][4] = {{0}}, sol[3], e = 0;
        int r, q, k;
        for (i = 0; i < c->len; i++) {
            const double v[3] = {1.0, (double)c->n[i], i >= j ? 1.0 : 0.0};
            for (r = 0; r < 3; r++) {
                for (q = 0; q < 3; q++) S[r][q] += v[r] * v[q];
                S[r][3] += v[r] * c->ns[i];
            }
        }
        for (r = 0; r < 3; r++) {      /* Gauss-Jordan: 3 unknowns */
            double piv = S[r][r];
            if (fabs(piv) < 1e-12) break;
            for (k = 0; k < 4; k++) S[r][k] /= piv;
            for (q = 0; q < 3; q++)
                if (q != r) {
                    double f = S[q][r];
                    for (k = 0; k < 4; k++) S[q][k] -= f * S[r][k];
                }
        }
        if (r < 3) continue;
        for (r = 0; r < 3; r++) sol[r] = S[r][3];
        if (sol[2] <= 0) continue;
        for (i = 0; i < c->len; i++) {
            double d = c->ns[i] - (sol[0] + sol[1] * c->n[i] + (i >= j ? sol[2] : 0));
            e += d * d;
        }
        if (cost < 0 || e < cost) { cost = e; best = j; }
    }
    return best;
}

/* The point at n fillers measured onto curve c, the largest quartile
   spread so far in *spread; -1 when the loop cannot run. */
static int win_measure(const probe_opts *o, int kind, int n, char **p, char **q, double dram_ns, win_curve *c,
                       double *spread)
{
    probe_stats st;
    c->n[c->len] = n;
    if ((c->ns[c->len] = win_point(o, kind, n, p, q, dram_ns, &st)) < 0) return -1;
    if (st.quartile_spread > *spread) *spread = st.quartile_spread;
    c->len++;
    return 0;
}

/* One sweep of a structure: *value (0: no jump found); its curve and the
   jump into the JSON object of the sweep. */
static void win_sweep(jw *w, const probe_opts *o, int kind, int maxn, char **p, char **q, double dram_ns,
                      int *value)
{
    static win_curve coarse, fine;
    const int step = o->quick ? 16 : 8;
    double lo, hi, spread = 0;
    int j, n, at, fj;
    coarse.len = fine.len = 0;
    for (n = 0; n <= maxn; n += step)
        if (win_measure(o, kind, n, p, q, dram_ns, &coarse, &spread)) return;
    j = win_jump(&coarse);
    /* one by one across the step, between the coarse points on either side
       (which anchor the two levels) */
    for (at = j - 4 < 0 ? 0 : j - 4; at < j; at++) {
        fine.n[fine.len] = coarse.n[at];
        fine.ns[fine.len++] = coarse.ns[at];
    }
    for (n = coarse.n[j - 1] + 1; n < coarse.n[j]; n++)
        if (win_measure(o, kind, n, p, q, dram_ns, &fine, &spread)) return;
    for (at = j; at < j + 4 && at < coarse.len; at++) {
        fine.n[fine.len] = coarse.n[at];
        fine.ns[fine.len++] = coarse.ns[at];
    }
    fj = win_jump(&fine);
    at = fine.n[fj];
    lo = coarse.ns[0];
    hi = coarse.ns[coarse.len - 1];
    jw_obj(w, NULL);
    jw_int(w, "jump_at", at);
    jw_num(w, "ns_below", fine.ns[fj - 1]);
    jw_num(w, "ns_above", fine.ns[fj]);
    jw_num(w, "ns_first", lo);
    jw_num(w, "ns_last", hi);
    jw_num(w, "quartile_spread_max", spread);
    jw_arr(w, "points");
    for (j = 0; j < coarse.len; j++) {
        jw_obj(w, NULL);
        jw_int(w, "n", coarse.n[j]);
        jw_num(w, "ns", coarse.ns[j]);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    /* no jump of a third of a latency: the structure was not found */
    *value = hi - lo > dram_ns / 3 ? (kind == PROBE_WINDOW_SQ ? at - 1 : at + 1) : 0;
    jw_int(w, "value", *value);
    jw_end_obj(w);
    probe_log(o, "    %d (time per iteration %.0f ns below the jump at %d fillers, %.0f above; %.0f..%.0f over the "
              "sweep)", *value, fine.ns[fj - 1], at, fine.ns[fj], lo, hi);
}

/* A structure, swept twice: its size is the larger finding. A core that
   runs two hardware threads splits its reorder buffer and queues between
   them: a sweep while the sibling is busy (another guest, another
   program) finds half, as one while it idles finds the whole. */
static void win_structure(jw *w, const probe_opts *o, int kind, const char *name, int maxn, char **p, char **q,
                          double dram_ns, int *value)
{
    int v[2] = {0, 0}, s;
    probe_log(o, "  %s (fillers: %s)", name, kind == PROBE_WINDOW_ROB ? "nops" : kind == PROBE_WINDOW_LQ ? "L1 loads"
                                                                                                        : "stores");
    jw_obj(w, name);
    jw_str(w, "filler", kind == PROBE_WINDOW_ROB ? "nop" : kind == PROBE_WINDOW_LQ ? "L1 load" : "store");
    jw_arr(w, "sweeps");
    for (s = 0; s < 2; s++) win_sweep(w, o, kind, maxn, p, q, dram_ns, &v[s]);
    jw_end_arr(w);
    *value = v[0] > v[1] ? v[0] : v[1];
    jw_int(w, "value", *value);
    jw_num(w, "sweeps_ratio", v[0] && v[1] ? (double)(v[0] < v[1] ? v[0] : v[1]) / *value : 0);
    jw_end_obj(w);
}

void probe_window_measure(jw *w, probe_opts *o, char *cb, size_t bytes, size_t line, double dram_ns, double ghz)
{
    char *p, *q;
    int rob = 0, lq = 0, sq = 0, width = 0;
    if (!probe_window_supported()) {
        jw_obj(w, "window");
        jw_bool(w, "skipped", 1);
        jw_str(w, "reason", "the window's loops are generated as x86-64 code");
        jw_end_obj(w);
        return;
    }
    probe_log(o, "the core's window: two DRAM chases, n fillers after each load");
    probe_chase_two(cb, bytes, line, &p, &q);
    jw_obj(w, "window_method");
    jw_str(w, "test", "two independent pointer chases over DRAM, each load followed by n fillers; the time per "
                      "iteration jumps from about one DRAM latency to two once the fillers between the two loads fill "
                      "the structure");
    jw_str(w, "derived", "rob = n + 1 (nops), lq = n + 1 (L1 loads), sq = n - 1 (stores), n the jump's");
    win_structure(w, o, PROBE_WINDOW_ROB, "rob", PROBE_WINDOW_MAX_FILL, &p, &q, dram_ns, &rob);
    win_structure(w, o, PROBE_WINDOW_LQ, "lq", PROBE_WINDOW_MAX_FILL / 2, &p, &q, dram_ns, &lq);
    win_structure(w, o, PROBE_WINDOW_SQ, "sq", PROBE_WINDOW_MAX_FILL / 2, &p, &q, dram_ns, &sq);
    {   /* the dispatch width: nops a cycle over a block of 1,000 (the best of 5), the cycle
           the dependent adds' clock measured right before and after (a busy host moves it) */
        double best = 0, g0 = probe_core_ghz(0.02), g1;
        int r;
        for (r = 0; r < 5; r++) {
            double t = probe_window_nops(1000, 20000);
            if (t > 0 && 1000.0 * 20000 / t > best) best = 1000.0 * 20000 / t;
        }
        g1 = probe_core_ghz(0.02);
        ghz = g0 > g1 ? g0 : g1;
        best /= ghz * 1e9;
        width = (int)(best + 0.5);
        jw_num(w, "nops_per_cycle", best);
        jw_num(w, "clock_ghz", ghz);
    }
    jw_end_obj(w);
    jw_obj(w, "window");
    if (rob && lq && sq) {
        jw_int(w, "rob", rob);
        jw_int(w, "lq", lq);
        jw_int(w, "sq", sq);
        if (width >= 1) jw_int(w, "width", width);
    } else {
        jw_bool(w, "skipped", 1);
        jw_str(w, "reason", "a structure's jump was not found (under a third of a DRAM latency): window_method has the "
                            "curves");
    }
    jw_end_obj(w);
    probe_log(o, "  window: rob %d, lq %d, sq %d, width %d", rob, lq, sq, width);
}
