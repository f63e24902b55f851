/* Atomics coverage: LR/SC and AMOs of both widths with every ordering
   (amomin/amomax come from allinsn.c: C has no builtin for them). */
#include <stdatomic.h>
#include <stdio.h>

static _Atomic int ai;
static _Atomic long al;
static _Atomic unsigned au;
static _Atomic unsigned long aul;

#define ORDERS(F, ...) \
    F(__VA_ARGS__, memory_order_relaxed) F(__VA_ARGS__, memory_order_acquire) \
    F(__VA_ARGS__, memory_order_release) F(__VA_ARGS__, memory_order_acq_rel) \
    F(__VA_ARGS__, memory_order_seq_cst)
#define OPS(v, o) \
    s += atomic_fetch_add_explicit(&v, 3, o); s += atomic_fetch_sub_explicit(&v, 1, o); \
    s += atomic_fetch_and_explicit(&v, 0x7fff, o); s += atomic_fetch_or_explicit(&v, 0x10, o); \
    s += atomic_fetch_xor_explicit(&v, 0x3, o); s += atomic_exchange_explicit(&v, s & 0xff, o);
#define CAS(v, o) { long e = s; int ei = (int)s; \
    atomic_compare_exchange_strong_explicit(&v, &e, 5, o, memory_order_relaxed); \
    atomic_compare_exchange_weak_explicit(&ai, &ei, 7, o, memory_order_relaxed); s += e + ei; }

__attribute__((noinline)) static long run(long s)
{
    ORDERS(OPS, ai) ORDERS(OPS, al) ORDERS(OPS, au) ORDERS(OPS, aul)
    ORDERS(CAS, al)
    atomic_thread_fence(memory_order_seq_cst);
    atomic_thread_fence(memory_order_acquire);
    atomic_thread_fence(memory_order_release);
    s += atomic_load(&al) + atomic_load_explicit(&ai, memory_order_acquire);
    atomic_store_explicit(&ai, (int)s, memory_order_release);
    return s;
}

int main(void)
{
    long s = 0;
    for (int i = 0; i < 10; i++) s = run(s + i);
    printf("%ld\n", s);
    return 0;
}
