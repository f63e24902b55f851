/* chase: walk a linked list of n nodes laid out in a random order, the
   pointer-chasing pattern: every load's address comes from the previous
   load, so the memory depth D equals the chain length n.
   Usage: chase [N] */
#include "common.h"

EX_NOINLINE long kernel_chase(const struct ex_node *p)
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
    int n = ex_size(argc, argv, 64, 1 << 24);
    struct ex_node *nodes = ex_alloc((size_t)n * sizeof *nodes);
    int *order = ex_alloc((size_t)n * sizeof *order);
    printf("chase %ld\n", kernel_chase(ex_link_nodes(nodes, order, n, 88172645463325252ull)));
    return 0;
}
