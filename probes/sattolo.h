/* probes/sattolo.h - the pointer-chase permutation, dependency-free (the
   tests include it directly; probe builds its chases with
   probe_cycle_order, below). Sattolo's algorithm draws a uniformly random
   cyclic permutation: a single cycle through all n elements, so a chase
   started anywhere visits every element exactly once per lap and the
   hardware prefetchers see no pattern. */
#ifndef PROBE_SATTOLO_H
#define PROBE_SATTOLO_H
#include <stddef.h>
#include <stdint.h>

/* xorshift64*: fast, good enough to shuffle, reproducible from a seed. */
static inline uint64_t probe_rand_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* next[i] = the element after i in one random cycle over 0..n-1. */
static inline void probe_sattolo(size_t *next, size_t n, uint64_t seed)
{
    size_t i;
    uint64_t s = seed ? seed : 0x9E3779B97F4A7C15ULL;
    size_t *perm = next;    /* build the cycle order in place, then link it */
    if (n == 0) return;
    for (i = 0; i < n; i++) perm[i] = i;
    /* Sattolo: swap with j < i (never i itself), which yields one cycle. */
    for (i = n - 1; i > 0; i--) {
        size_t j = (size_t)(probe_rand_next(&s) % i);
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* perm as a permutation is one n-cycle: i -> perm[i]. */
}

/* The same distribution, with every element's place on the cycle known:
   order[] is a uniformly random arrangement of 0..n-1 (Fisher-Yates) and
   the cycle visits order[0], order[1], ..., order[n-1], order[0]. Each of
   the (n-1)! single cycles comes from n arrangements (its n rotations), so
   all are equally likely, as with Sattolo's algorithm; finding evenly
   spaced points of the cycle needs no walk along it (a dependent miss per
   element). */
static inline void probe_cycle_order(size_t *order, size_t n, uint64_t seed)
{
    size_t i;
    uint64_t s = seed ? seed : 0x9E3779B97F4A7C15ULL;
    if (n == 0) return;
    for (i = 0; i < n; i++) order[i] = i;
    for (i = n - 1; i > 0; i--) {
        size_t j = (size_t)(probe_rand_next(&s) % (i + 1));
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}
#endif
