/* walk: a list walk and an array sum, the list relinked between two walks:
   what scoped traces are about. Traced with
   `--func list_walk --func array_sum`, the code in main between the calls is
   not analysed, but what it writes (the head pointer in a0, the new links)
   must not tie the calls together: the second walk is a chain of n loads of
   its own (D = n, not 2n), and the sum's loads wait for no walk.
   Usage: walk [N] */
#include "common.h"

/* The nodes' values in list order, each node's visited once: a chain. */
EX_NOINLINE long list_walk(const struct ex_node *p)
{
    long sum = 0;
    for (; p; p = p->next) sum += p->val;
    return sum;
}

EX_NOINLINE long array_sum(const long *a, int n)
{
    long sum = 0;
    int i;
    for (i = 0; i < n; i++) sum += a[i];
    return sum;
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 64, 1 << 24), i;
    struct ex_node *nodes = ex_alloc((size_t)n * sizeof *nodes);
    int *order = ex_alloc((size_t)n * sizeof *order);
    long *a = ex_alloc((size_t)n * sizeof *a), s;
    s = list_walk(ex_link_nodes(nodes, order, n, 88172645463325252ull));
    for (i = 0; i < n; i++) a[i] = i;
    s += array_sum(a, n);
    s += list_walk(ex_link_nodes(nodes, order, n, 2463534242ull));
    printf("walk %ld\n", s);
    return 0;
}
