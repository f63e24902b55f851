/* The EDAN paper's summation kernel (Fig. 4): the sum of an int array.
   Usage: sum [N]   (default N = 4, as in the paper's Fig. 7) */
#include "common.h"

EX_NOINLINE int kernel(int *arr, int n)
{
    int i, sum = 0;
    for (i = 0; i < n; ++i)
        sum += arr[i];
    return sum;
}

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 4, 1 << 26), i;
    int *arr = (int *)ex_alloc((size_t)n * sizeof *arr);
    for (i = 0; i < n; i++) arr[i] = i + 1;
    printf("sum %d\n", kernel(arr, n));
    free(arr);
    return 0;
}
