/* dlopens LIBA and LIBB, each defining dupfn, and calls both on N
   elements (tests/cmd/test_trace_real.sh). Usage: dup_main N LIBA LIBB */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, k;
    long *a = calloc((size_t)(n > 0 ? n : 1), sizeof *a), s = 0;
    if (argc < 4 || n < 1 || !a) return 2;
    for (k = 0; k < 2; k++) {
        void *h = dlopen(argv[2 + k], RTLD_NOW | RTLD_LOCAL);
        long (*f)(const long *, int);
        if (!h) {
            fprintf(stderr, "%s\n", dlerror());
            return 2;
        }
        *(void **)&f = dlsym(h, "dupfn");
        if (!f) return 2;
        s += f(a, n);
    }
    printf("%ld\n", s);
    return 0;
}
