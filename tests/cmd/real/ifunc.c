/* IFUNCs (tests/cmd/test_trace_real.sh): the C library's memcpy and
   memset, whose symbols are resolvers that pick an implementation for the
   processor, and one of the program's own, kernel_ifunc, resolved to
   kernel_impl_a (kernel_impl_b when built with -DPICK_B: a dynamically
   linked program's resolvers run before its environment is there).
     ifunc libc K SIZE   kernel copies and sets SIZE bytes K times
     ifunc own N K       kernel_ifunc sums N elements, K times */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char src[65536], dst[65536];
static long data[100000];

__attribute__((noinline)) long kernel(int k, size_t size)
{
    long s = 0;
    int i, j;
    for (i = 0; i < 1000; i++) s += data[i];
    for (j = 0; j < k; j++) {
        memcpy(dst, src, size);
        memset(src, j, size);
        s += dst[j];
    }
    return s;
}

typedef long (*kernel_fn)(const long *, int);
__attribute__((noinline)) long kernel_impl_a(const long *a, int n)
{
    long s = 0;
    int i;
    for (i = 0; i < n; i++) s += a[i];
    return s;
}
__attribute__((noinline)) long kernel_impl_b(const long *a, int n)
{
    long s = 0;
    int i;
    for (i = 0; i < n; i += 2) s += a[i];
    return s;
}
#ifdef PICK_B
static kernel_fn resolve_kernel(void) { return kernel_impl_b; }
#else
static kernel_fn resolve_kernel(void) { return kernel_impl_a; }
#endif
long kernel_ifunc(const long *a, int n) __attribute__((ifunc("resolve_kernel")));

int main(int argc, char **argv)
{
    int own = argc > 1 && !strcmp(argv[1], "own");
    long a1 = argc > 2 ? atol(argv[2]) : 1, a2 = argc > 3 ? atol(argv[3]) : 4096, s = 0, j;
    if (own) {
        if (a1 < 1 || a1 > 100000) return 2;
        for (j = 0; j < a2; j++) s += kernel_ifunc(data, (int)a1);
    } else {
        if (a2 < 0 || a2 > 65536) return 2;
        s = kernel((int)a1, (size_t)a2);
    }
    printf("%ld\n", s);
    return 0;
}
