/* tools/cmd/cores.c - the cores this process may run on, --jobs's default (a
   file of its own: sched_getaffinity is a GNU extension). */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#include "cli.h"

unsigned cli_cores(void)
{
    cpu_set_t set;
    long n;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return (unsigned)CPU_COUNT(&set);
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
