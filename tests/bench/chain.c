/* tests/bench/chain.c - a chain of N dependent loads around a ring of 64
   links (in the first cache level: QEMU alone runs it at close to the
   host's speed, the hardest case for the analysis to keep up with).
   walk() makes the loads: D = N under --func walk. Usage: chain [N] */
#include <stdio.h>
#include <stdlib.h>
struct link { struct link *next; };
static struct link ring[64];
__attribute__((noinline)) struct link *walk(struct link *p, long n)
{
    while (n--) p = p->next;
    return p;
}
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000, i;
    for (i = 0; i < 64; i++) ring[i].next = &ring[(i + 1) % 64];
    printf("%ld\n", (long)(walk(&ring[0], n) - ring));
    return 0;
}
