/* Control that leaves a function by no return (tests/cmd/test_trace_real.sh):
     nonlocal longjmp N M   kernel sums N elements, then deep(3) longjmps
                            back to main, which runs M more loads (after)
     nonlocal fault N M     kernel_fault chases N nodes, then loads from a
                            page it may not read: the SIGSEGV handler
                            siglongjmps back to main, which runs M more
     nonlocal return N M    kernel sums N elements and returns, then M more
   A --region of the kernel must end where control comes back to main, by
   whatever path: its W is the same for every M. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static jmp_buf jb;
static sigjmp_buf sjb;
static long data[100000];

__attribute__((noinline)) void deep(int k)
{
    if (k == 0) longjmp(jb, 1);
    deep(k - 1);
    data[k] += k;
}

__attribute__((noinline)) long kernel(int n, int jump)
{
    long s = 0;
    int i;
    for (i = 0; i < n; i++) s += data[i];
    if (jump) deep(3);
    return s;
}

struct node { struct node *next; long val; };

__attribute__((noinline)) long kernel_fault(const struct node *p, const volatile long *bad)
{
    long s = 0;
    while (p) {
        s += p->val;
        p = p->next;
    }
    return s + *bad;        /* SIGSEGV */
}

__attribute__((noinline)) long after(int m)
{
    long s = 0;
    int i;
    for (i = 0; i < m; i++) s += data[i] * 3;
    return s;
}

static void on_segv(int sig)
{
    (void)sig;
    siglongjmp(sjb, 1);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "longjmp";
    int n = argc > 2 ? atoi(argv[2]) : 1000, m = argc > 3 ? atoi(argv[3]) : 1000, i;
    long r = 0;
    if (n < 1 || n > 100000 || m < 0 || m > 100000) return 2;
    if (!strcmp(mode, "fault")) {
        struct node *a = calloc((size_t)n, sizeof *a);
        long page = sysconf(_SC_PAGESIZE);
        long *bad = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        struct sigaction sa;
        if (!a || bad == MAP_FAILED) return 2;
        for (i = 0; i < n; i++) a[i].next = i + 1 < n ? &a[i + 1] : NULL;     /* each load's address the one before's */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_segv;
        sigaction(SIGSEGV, &sa, NULL);
        if (sigsetjmp(sjb, 1) == 0) r = kernel_fault(a, bad);
        else r = after(m);
    } else if (setjmp(jb) == 0) {
        r = kernel(n, strcmp(mode, "return") != 0);
        if (!strcmp(mode, "return")) r += after(m);
    } else {
        r = after(m);
    }
    printf("%ld\n", r);
    return 0;
}
