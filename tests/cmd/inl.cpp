// inl: code inlined into the function that calls it, for edan annotate:
// a std::map lookup (std::map::find inlined into lookups) and a helper of
// two loads forced inline into get_pairs.
// Usage: inl [N]
#include <cstdio>
#include <cstdlib>
#include <map>

static inline __attribute__((always_inline)) long pair_sum(const long *p, long i)
{
    return p[i] + p[i + 1];
}

__attribute__((noinline)) long get_pairs(const long *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) s += pair_sum(p, 2 * i);
    return s;
}

__attribute__((noinline)) long lookups(const std::map<long, long> &w, const long *keys, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        auto it = w.find(keys[i]);
        if (it != w.end()) s += it->second;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 100;
    std::map<long, long> w;
    long *p = new long[2 * n], *keys = new long[n];
    for (int i = 0; i < n; i++) {
        w[3 * i] = i;
        keys[i] = (7 * i) % (3 * n);
        p[2 * i] = i;
        p[2 * i + 1] = -i;
    }
    std::printf("%ld %ld\n", get_pairs(p, n), lookups(w, keys, n));
    delete[] p;
    delete[] keys;
    return 0;
}
