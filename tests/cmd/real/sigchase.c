/* A pointer chase of N nodes interrupted by a timer's signal every 200 us
   (SIGALRM, ITIMER_REAL), whose handler counts the ticks; with 0 as the
   second argument no timer runs. The chase's memory depth is N with or
   without the handlers (tests/cmd/test_trace_real.sh).
   Usage: sigchase N [TIMER] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

struct node { struct node *next; long val; };
static volatile long ticks;

static void on_alarm(int sig)
{
    (void)sig;
    ticks++;
}

__attribute__((noinline)) long kernel_chase(const struct node *p)
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
    long n = argc > 1 ? atol(argv[1]) : 100000, i;
    int timer = argc > 2 ? atoi(argv[2]) : 1;
    struct node *a = malloc((size_t)n * sizeof *a);
    long *order = malloc((size_t)n * sizeof *order);
    unsigned long long x = 88172645463325252ull;
    if (!a || !order || n < 1) return 2;
    for (i = 0; i < n; i++) order[i] = i;
    for (i = n - 1; i > 0; i--) {     /* a random cycle: every load misses any cache */
        long j, t;
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        j = (long)(x % (unsigned long long)(i + 1));
        t = order[i]; order[i] = order[j]; order[j] = t;
    }
    for (i = 0; i < n; i++) {
        a[order[i]].next = i + 1 < n ? &a[order[i + 1]] : NULL;
        a[order[i]].val = i;
    }
    if (timer) {
        struct sigaction sa;
        struct itimerval it = {{0, 200}, {0, 200}};
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_alarm;
        sa.sa_flags = SA_RESTART;
        sigaction(SIGALRM, &sa, NULL);
        setitimer(ITIMER_REAL, &it, NULL);
    }
    printf("%ld\n", kernel_chase(&a[order[0]]));
    if (timer) {
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_REAL, &off, NULL);
        fprintf(stderr, "ticks %ld\n", ticks);
    }
    return 0;
}
