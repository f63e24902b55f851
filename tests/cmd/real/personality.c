/* Prints "randomised" or "fixed": whether this process runs with the
   system's address randomisation (tests/cmd/test_trace_real.sh). */
#include <stdio.h>
#include <sys/personality.h>

int main(void)
{
    int p = personality(0xffffffff);
    if (p == -1) return 2;
    printf("%s\n", p & ADDR_NO_RANDOMIZE ? "fixed" : "randomised");
    return 0;
}
