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
