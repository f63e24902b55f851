/* One function name in two shared objects (tests/cmd/test_trace_real.sh):
   built as liba.so (STRIDE 1: n loads) and libb.so (STRIDE 2: n/2). */
long dupfn(const long *a, int n)
{
    long s = 0;
    int i;
    for (i = 0; i < n; i += STRIDE) s += a[i];
    return s;
}
