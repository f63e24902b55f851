/* Linked into a program (tests/cmd/test_trace_real.sh links it into
   examples/chase.c), it interrupts the program with a timer's signal every
   200 us (SIGALRM, ITIMER_REAL) from before main until exit; the handler
   counts the ticks, which go to standard error at exit. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile long ticks;

static void on_alarm(int sig)
{
    (void)sig;
    ticks++;
}

static void report_ticks(void)
{
    struct itimerval off;
    memset(&off, 0, sizeof off);
    setitimer(ITIMER_REAL, &off, NULL);
    fprintf(stderr, "ticks %ld\n", ticks);
}

__attribute__((constructor)) static void start_timer(void)
{
    struct sigaction sa;
    struct itimerval it;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    it.it_interval.tv_sec = it.it_value.tv_sec = 0;
    it.it_interval.tv_usec = it.it_value.tv_usec = 200;
    setitimer(ITIMER_REAL, &it, NULL);
    atexit(report_ticks);
}
