/* tests/cmd/stopme.c - a program for test_trace_signals.sh, built for both
   ISAs. Usage: stopme MODE [READY_FILE]
     spin    runs work() for ever, signals at their default action
     ignore  the same, ignoring SIGINT and SIGTERM
     sleep   ignores SIGTERM and waits in sleep() for ever
     crash   work(1000), then a fault (SIGSEGV)
     exec    work(100), an execv of a program that does not exist (it
             fails), work(1000): exit 0
     chase   chase(): a chain of dependent loads for ever (D grows by one
             a load), signals at their default action
   READY_FILE is created once the signals are set up. work(n) loads and
   stores a volatile n times: each load but the first is forwarded from the
   store before it, n + 1 memory accesses (2n with --forward 0). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile long sink;

__attribute__((noinline)) void work(long n)
{
    long i;
    for (i = 0; i < n; i++) sink += i;
}

struct link { struct link *next; };
static struct link ring[64];

__attribute__((noinline)) void chase(void)
{
    struct link *volatile *p = (struct link *volatile *)&ring[0].next;
    for (;;) p = (struct link *volatile *)&(*p)->next;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "spin";
    if (!strcmp(mode, "ignore")) {
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
    }
    if (!strcmp(mode, "sleep")) signal(SIGTERM, SIG_IGN);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "w");
        if (f) fclose(f);
    }
    if (!strcmp(mode, "crash")) {
        work(1000);
        *(volatile int *)(long)argc = 1;    /* address 2 or 3: a fault */
        return 0;
    }
    if (!strcmp(mode, "exec")) {
        char *args[] = {"/nonexistent/program", NULL};
        work(100);
        execv(args[0], args);
        work(1000);
        return 0;
    }
    if (!strcmp(mode, "chase")) {
        int i;
        for (i = 0; i < 64; i++) ring[i].next = &ring[(i * 29 + 17) % 64];
        chase();
    }
    if (!strcmp(mode, "sleep")) {
        work(100);
        for (;;) sleep(1000);
    }
    for (;;) work(1000);
}
