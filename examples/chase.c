/* chase: walk a linked list of n nodes laid out in a random order, the
   pointer-chasing pattern: every load's address comes from the previous
   load, so the memory depth D equals the chain length n.
   Usage: chase [N] */
#include "common.h"

struct node { struct node *next; long val; };

EX_NOINLINE long kernel_chase(const struct node *p)
{
    long sum = 0;
    while (p) {
        sum += p->val;
        p = p->next;
    }
    return sum;
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 64, 1 << 24), i;
    struct node *nodes = ex_alloc((size_t)n * sizeof *nodes);
    int *order = ex_alloc((size_t)n * sizeof *order);
    unsigned long long rng = 88172645463325252ull;
    for (i = 0; i < n; i++) order[i] = i;
    for (i = n - 1; i > 0; i--) {   /* Fisher-Yates with xorshift */
        int j, t;
        rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
        j = (int)(rng % (unsigned long long)(i + 1));
        t = order[i]; order[i] = order[j]; order[j] = t;
    }
    for (i = 0; i < n; i++) {
        nodes[order[i]].val = i;
        nodes[order[i]].next = i + 1 < n ? &nodes[order[i + 1]] : NULL;
    }
    printf("chase %ld\n", kernel_chase(&nodes[order[0]]));
    return 0;
}
