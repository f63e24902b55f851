/* A thread walks a list of n nodes (a chain of n + 2 accesses, as
   examples/threads.c's kernel_walk) while the main thread forks three
   times, each child walking a list of its own, and runs a command with
   system() (posix_spawn: a vfork). Only the parent is analysed; the
   walk's W and D are exact whatever the forks did meanwhile.
   Usage: fork_threads N */
#include "common.h"
#include <pthread.h>
#include <unistd.h>
#include <sys/wait.h>

EX_NOINLINE void kernel_walk(struct ex_node **at, long steps)
{
    struct ex_node *p = *at;
    while (steps-- > 0) p = p->next;
    *at = p;
}

static struct ex_node *head;
static long n;

static void *walker(void *arg)
{
    (void)arg;
    kernel_walk(&head, n);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t;
    int k;
    struct ex_node *nodes;
    int *order;
    n = ex_size(argc, argv, 1000, 1 << 22);
    nodes = (struct ex_node *)ex_alloc((size_t)(n + 1) * sizeof *nodes);
    order = (int *)ex_alloc((size_t)(n + 1) * sizeof *order);
    head = ex_link_nodes(nodes, order, (int)n + 1, 5);
    if (pthread_create(&t, NULL, walker, NULL)) return 2;
    for (k = 0; k < 3; k++) {
        pid_t c = fork();
        if (c == 0) {
            struct ex_node *mine = ex_link_nodes(nodes, order, 100, 6);
            kernel_walk(&mine, 99);
            _exit(0);
        }
        if (c < 0 || waitpid(c, NULL, 0) != c) return 2;
    }
    if (system("true") != 0) return 2;
    pthread_join(t, NULL);
    printf("fork_threads %ld\n", head->val);
    return 0;
}
