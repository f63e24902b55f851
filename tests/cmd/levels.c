/* levels: loads whose cache level can be counted by hand, for edan annotate
   with a 1 KiB 2-way L1 and an 8 KiB 4-way L2 of 64-byte lines. The array
   is 2 KiB (32 lines): the first sweep reads each line from RAM once and
   its 7 other doubles from L1; the second sweep finds every line gone from
   L1 (16 lines, each set's 2 ways taken by the lines 16 and 24 further on)
   and in L2: 32 from L2, 224 from L1; the first 8 lines then come from L2
   again (8, and 56 from L1), and at once again from L1 (64).
   Usage: levels */
#include <stdio.h>

static double a[256] __attribute__((aligned(64)));

__attribute__((noinline)) double kernel_levels(const double *p)
{
    double s = 0;
    int i;
    for (i = 0; i < 256; i++) s += p[i];    /* warm: 32 RAM, 224 L1 */
    for (i = 0; i < 256; i++) s += p[i];    /* again: 32 L2, 224 L1 */
    for (i = 0; i < 64; i++) s += p[i];     /* head: 8 L2, 56 L1 */
    for (i = 0; i < 64; i++) s += p[i];     /* head again: 64 L1 */
    return s;
}

int main(void)
{
    int i;
    for (i = 0; i < 256; i++) a[i] = i;
    printf("%g\n", kernel_levels(a));
    return 0;
}
