/* Integer coverage: every load/store width, signed and unsigned; multiply,
   high multiply, divide and remainder of both widths; shifts; compares;
   indirect calls and jump tables. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int8_t b[64];
static uint8_t ub[64];
static int16_t h[64];
static uint16_t uh[64];
static int32_t w[64];
static uint32_t uw[64];
static int64_t d[64];

__attribute__((noinline)) static int64_t arith(int64_t x, int64_t y, uint64_t ux, uint64_t uy)
{
    int64_t r = x * y + (int32_t)x * (int32_t)y;
    r += (int64_t)(((__int128)x * y) >> 64) + (int64_t)(((unsigned __int128)ux * uy) >> 64);
    r += (int64_t)(((__int128)x * (unsigned __int128)uy) >> 64);
    if (y) r += x / y + x % y + (int32_t)x / (int32_t)y + (int32_t)x % (int32_t)y;
    if (uy) r += (int64_t)(ux / uy + ux % uy) + (uint32_t)ux / (uint32_t)uy + (uint32_t)ux % (uint32_t)uy;
    r += (x << (y & 63)) + (x >> (y & 63)) + (int64_t)(ux >> (uy & 63));
    r += ((int32_t)x << (y & 31)) + ((int32_t)x >> (y & 31)) + (int32_t)((uint32_t)ux >> (uy & 31));
    r += (x < y) + (ux < uy) + (x < 5) + (ux < 7u) + (x == 0) + (x != 0) + (x < 0) + (x > 0);
    r += -x + ~y + (int32_t)-x + (x & 0xff) + (x | 0x100) + (x ^ 0x55);
    return r;
}

__attribute__((noinline)) static int64_t memory(int n)
{
    int64_t s = 0;
    for (int i = 0; i < n; i++) {
        b[i] = (int8_t)(i * 3); ub[i] = (uint8_t)(i * 5); h[i] = (int16_t)(i * 700);
        uh[i] = (uint16_t)(i * 900); w[i] = i * 70000; uw[i] = (uint32_t)i * 90000u; d[i] = (int64_t)i << 40;
    }
    for (int i = 0; i < n; i++) s += b[i] + ub[i] + h[i] + uh[i] + w[i] + uw[i] + d[i];
    return s;
}

typedef int64_t (*fn)(int64_t);
static int64_t f1(int64_t x) { return x + 1; }
static int64_t f2(int64_t x) { return x * 3; }
static int64_t f3(int64_t x) { return x - 7; }

__attribute__((noinline)) static int64_t control(int n, fn *tab)
{
    int64_t s = 0;
    for (int i = 0; i < n; i++) {
        switch (i % 7) {
        case 0: s += 3; break;
        case 1: s ^= 0x77; break;
        case 2: s = tab[i % 3](s); break;
        case 3: s -= i; break;
        case 4: s <<= 1; break;
        case 5: s |= 9; break;
        default: s = tab[(i + 1) % 3](s);
        }
        if ((uint64_t)s > 1000000u) s >>= 3;
    }
    return s;
}

static int64_t rec(int n) { return n <= 1 ? 1 : n * rec(n - 1) % 1000003 + rec(n - 2); }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    fn tab[3] = { f1, f2, f3 };
    int64_t r = arith(n * 12345, n - 3, (uint64_t)n * 999u, 7) + memory(n > 64 ? 64 : n) +
                control(n, tab) + rec(12);
    printf("%lld\n", (long long)r);
    return 0;
}
