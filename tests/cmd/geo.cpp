// geo: C++ functions to name with edan trace --func: a function template
// (whose demangled signature starts with its return type), two of its
// instantiations, a member function, and a call into libm; a template of
// one instantiation outside any namespace (weighted_sum<double>) and a
// member function of a class in a namespace (sim::Grid::sum_every), to
// name short.
// Usage: geo [N]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace geo {
template <typename T>
__attribute__((noinline)) T dot(const T *a, const T *b, int n)
{
    T s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

struct Vec {
    std::vector<double> v;
    __attribute__((noinline)) double norm() const { return std::sqrt(dot<double>(v.data(), v.data(), (int)v.size())); }
};
}  // namespace geo

// the mean of x[0 .. n) weighted by w: two loads per element
template <typename T>
__attribute__((noinline)) T weighted_sum(const T *x, const T *w, int n)
{
    T s = 0, total = 0;
    for (int i = 0; i < n; i++) {
        T wi = w[i];
        s += wi * x[i];
        total += wi;
    }
    return total != 0 ? s / total : s;
}

namespace sim {
struct Grid {
    std::vector<double> cells;
    // every stride-th cell: one load each
    __attribute__((noinline)) double sum_every(int stride) const
    {
        double s = 0;
        const double *c = cells.data();
        int n = (int)cells.size();
        for (int i = 0; i < n; i += stride) s += c[i];
        return s;
    }
};
}  // namespace sim

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 100;
    std::vector<double> a(n), b(n);
    std::vector<float> fa(n), fb(n);
    geo::Vec v;
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 1.0 / (i + 1);
        fa[i] = (float)i;
        fb[i] = 2.0f;
    }
    v.v = a;
    sim::Grid g;
    g.cells = a;
    // the float instantiation over half as many elements: its W differs
    std::printf("%g %g %g\n", geo::dot<double>(a.data(), b.data(), n), (double)geo::dot<float>(fa.data(), fb.data(), n / 2),
                v.norm());
    std::printf("%g %g\n", weighted_sum<double>(a.data(), b.data(), n), g.sum_every(2));
    return 0;
}
