// geo: C++ functions to name with edan trace --func: a function template
// (whose demangled signature starts with its return type), two of its
// instantiations, a member function, and a call into libm.
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
    // the float instantiation over half as many elements: its W differs
    std::printf("%g %g %g\n", geo::dot<double>(a.data(), b.data(), n), (double)geo::dot<float>(fa.data(), fb.data(), n / 2),
                v.norm());
    return 0;
}
