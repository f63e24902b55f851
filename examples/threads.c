/* threads: pthread kernels whose execution DAG is known by hand, for the
   analysis of several threads as one eDAG. Each thread walks a linked list
   (ex_link_nodes) with kernel_walk: a load of its start from memory, one
   load per node, each address from the load before, and a store of where
   it stopped; so a walk of n nodes is a chain of n + 2 memory accesses.
   Usage: threads chases N     two threads walk their own lists, of N and
                               2N nodes, at once: D = 2N + 2
          threads handoff N    thread A walks N nodes and leaves its place
                               in a shared pointer; after joining A, thread B
                               walks N more from there: D = 2N + 4
          threads serial N     the hand-off's two walks, by the main thread:
                               the second's load of the pointer is
                               forwarded from the first's store (the same
                               thread): D = 2N + 2
          threads parfor T N   T threads (1..16) meet at a barrier, then
                               thread k walks a list of (k + 1) N nodes:
                               D = TN + 2, W = the sum of the walks'
          threads many T       T short threads, one after the other, each
                               walking 10 nodes on from where the one
                               before stopped: D = 12 T */
#include "common.h"
#include <pthread.h>

/* Walks `steps` nodes from *at and leaves the node reached in *at. */
EX_NOINLINE void kernel_walk(struct ex_node **at, long steps)
{
    struct ex_node *p = *at;
    while (steps-- > 0) p = p->next;
    *at = p;
}

struct walk { struct ex_node **at; long steps; pthread_barrier_t *barrier; };

static void *walker(void *arg)
{
    struct walk *w = (struct walk *)arg;
    if (w->barrier) pthread_barrier_wait(w->barrier);
    kernel_walk(w->at, w->steps);
    return NULL;
}

/* A list of n nodes, its last node's next pointing to itself (a walk may
   end on it); its head. */
static struct ex_node *list(int n, unsigned long long seed)
{
    struct ex_node *nodes = (struct ex_node *)ex_alloc((size_t)n * sizeof *nodes), *p;
    int *order = (int *)ex_alloc((size_t)n * sizeof *order);
    struct ex_node *head = ex_link_nodes(nodes, order, n, seed);
    for (p = head; p->next; p = p->next) {}
    p->next = p;
    free(order);
    return head;
}

static void start(pthread_t *t, struct walk *w)
{
    if (pthread_create(t, NULL, walker, w)) { fprintf(stderr, "threads: cannot create a thread\n"); exit(2); }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "chases";
    int n = ex_size(argc - 1, argv + 1, 1000, 1 << 22), k;
    if (!strcmp(mode, "chases")) {
        struct ex_node *a = list(n, 1), *b = list(2 * n, 2);
        struct walk wa = {&a, n, NULL}, wb = {&b, 2L * n, NULL};
        pthread_t ta, tb;
        start(&ta, &wa);
        start(&tb, &wb);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        printf("chases %ld %ld\n", a->val, b->val);
    } else if (!strcmp(mode, "handoff") || !strcmp(mode, "serial")) {
        struct ex_node *p = list(2 * n + 1, 3);
        struct walk w = {&p, n, NULL};
        pthread_t t;
        if (mode[0] == 's') { kernel_walk(&p, n); kernel_walk(&p, n); }
        else { start(&t, &w); pthread_join(t, NULL); start(&t, &w); pthread_join(t, NULL); }
        printf("%s %ld\n", mode, p->val);
    } else if (!strcmp(mode, "many")) {
        struct ex_node *p = list(10 * n + 1, 4);
        struct walk w = {&p, 10, NULL};
        pthread_t t;
        for (k = 0; k < n; k++) { start(&t, &w); pthread_join(t, NULL); }
        printf("many %ld\n", p->val);
    } else if (!strcmp(mode, "parfor")) {
        int T = n, len = ex_size(argc - 2, argv + 2, 100, 1 << 20);
        struct ex_node *heads[16];
        struct walk w[16];
        pthread_t t[16];
        pthread_barrier_t bar;
        long sum = 0;
        if (T > 16) { fprintf(stderr, "threads: parfor takes 1..16 threads\n"); return 2; }
        pthread_barrier_init(&bar, NULL, (unsigned)T);
        for (k = 0; k < T; k++) {
            heads[k] = list((k + 1) * len, 10u + (unsigned)k);
            w[k].at = &heads[k];
            w[k].steps = (long)(k + 1) * len;
            w[k].barrier = &bar;
        }
        for (k = 0; k < T; k++) start(&t[k], &w[k]);
        for (k = 0; k < T; k++) pthread_join(t[k], NULL);
        for (k = 0; k < T; k++) sum += heads[k]->val;
        printf("parfor %ld\n", sum);
    } else {
        fprintf(stderr, "usage: threads chases N | handoff N | serial N | parfor T N | many T\n");
        return 2;
    }
    return 0;
}
