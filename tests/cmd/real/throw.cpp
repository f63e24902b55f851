// A C++ exception thrown out of the kernel and caught in main, which then
// runs M more loads (tests/cmd/test_trace_real.sh): a --region of the
// kernel ends at the landing pad, whatever runs after it.
// Usage: throw N M
#include <cstdio>
#include <cstdlib>

static long data[100000];
struct failure { int depth; };

__attribute__((noinline)) void deep(int k)
{
    if (k == 0) throw failure{3};
    deep(k - 1);
    data[k] += k;
}

__attribute__((noinline)) long kernel(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) s += data[i];
    deep(3);
    return s;
}

__attribute__((noinline)) long after(int m)
{
    long s = 0;
    for (int i = 0; i < m; i++) s += data[i] * 3;
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 1000, m = argc > 2 ? std::atoi(argv[2]) : 1000;
    long r = 0;
    if (n < 1 || n > 100000 || m < 0 || m > 100000) return 2;
    try {
        r = kernel(n);
    } catch (const failure &f) {
        r = after(m) + f.depth;
    }
    std::printf("%ld\n", r);
    return 0;
}
