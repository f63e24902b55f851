/* Two named regions (tests/cmd/test_trace_regions.sh): "walk", a list walk
   run three times with the list relinked (untraced) before each, and
   "sum", an array sum run once. Traced, the walk region is 3 chains of n
   nodes, 2 loads each (W = 6n, D = n, not 3n: what main writes between
   the walks kills their links), the sum n independent loads (W = n,
   D = 1). The markers bracket each kernel's loop, so that `--no-markers
   --func KERNEL` analyses the same code, but for its entry and return.
   `regions N bump`: region "bump" adds 1 to each element of an array
   (a load and a store each), three times, with region "reset" zeroing
   it between: for "bump" alone the reset's stores are code outside it,
   whose writes kill the links from one bump to the next (D = 2, as with
   --func bump), while the whole run chains through them.
   `regions N nest`: "sum" opens inside "walk" (array_sum called between
   main's own BEGIN and END of "walk"), which edan trace refuses.
   Usage: regions N [bump|nest] */
#include <string.h>
#include "common.h"
#include "edan_trace.h"

EX_NOINLINE void bump(long *a, int n)
{
    int i;
    EDAN_TRACE_BEGIN("bump");
    for (i = 0; i < n; i++) a[i] += 1;
    EDAN_TRACE_END("bump");
}

EX_NOINLINE void reset(long *a, int n)
{
    int i;
    EDAN_TRACE_BEGIN("reset");
    for (i = 0; i < n; i++) a[i] = 0;
    EDAN_TRACE_END("reset");
}

EX_NOINLINE long list_walk(const struct ex_node *p)
{
    long sum = 0;
    EDAN_TRACE_BEGIN("walk");
    for (; p; p = p->next) sum += p->val;
    EDAN_TRACE_END("walk");
    return sum;
}

EX_NOINLINE long array_sum(const long *a, int n)
{
    long sum = 0;
    int i;
    EDAN_TRACE_BEGIN("sum");
    for (i = 0; i < n; i++) sum += a[i];
    EDAN_TRACE_END("sum");
    return sum;
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 64, 1 << 24), i, r;
    struct ex_node *nodes = ex_alloc((size_t)n * sizeof *nodes);
    int *order = ex_alloc((size_t)n * sizeof *order);
    long *a = ex_alloc((size_t)n * sizeof *a), s = 0;
    if (argc > 2 && !strcmp(argv[2], "bump")) {
        for (r = 0; r < 3; r++) {
            if (r) reset(a, n);
            bump(a, n);
        }
        printf("regions %ld\n", a[n - 1]);
        return 0;
    }
    if (argc > 2 && !strcmp(argv[2], "nest")) {
        EDAN_TRACE_BEGIN("walk");
        s = array_sum(a, n);
        EDAN_TRACE_END("walk");
    }
    for (r = 0; r < 3; r++) s += list_walk(ex_link_nodes(nodes, order, n, 88172645463325252ull + (unsigned)r));
    for (i = 0; i < n; i++) a[i] = i;
    s += array_sum(a, n);
    printf("regions %ld\n", s);
    return 0;
}
