/* The summation kernel inside main, delimited by EDAN_TRACE_BEGIN/END:
   `edan trace` analyses only the marked loop, without a function to name.
   Usage: markers [N] */
#include "common.h"
#include "edan_trace.h"

int main(int argc, char **argv)
{
    int n = ex_size(argc, argv, 4, 1 << 26), i;
    int *arr = (int *)ex_alloc((size_t)n * sizeof *arr);
    volatile int result;
    int sum = 0;
    for (i = 0; i < n; i++) arr[i] = i + 1;
    EDAN_TRACE_BEGIN();
    for (i = 0; i < n; ++i)
        sum += arr[i];
    EDAN_TRACE_END();
    result = sum;
    printf("sum %d\n", result);
    free(arr);
    return 0;
}
