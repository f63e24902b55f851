/* tools/trace/preload.c - loaded into qemu-riscv64/qemu-x86_64 by `edan trace`
   (LD_PRELOAD; the traced program's own environment does not get it).
   QEMU 7.2 ends a program that a signal kills (a crash, SIGINT, SIGTERM)
   by sending its own process that signal, without telling its plugins:
   this kill() lets the EDAN plugin write the report of what it analysed
   first. QEMU's emulation of the program's kill() is a raw system call,
   not this. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static void (*edan_kill_hook)(int sig);

/* Called by the plugin once it is loaded. */
void edan_preload_set_kill_hook(void (*hook)(int sig));
void edan_preload_set_kill_hook(void (*hook)(int sig)) { edan_kill_hook = hook; }

int kill(pid_t pid, int sig)
{
    void (*hook)(int) = edan_kill_hook;
    if (hook && sig > 0 && pid == getpid()) {
        edan_kill_hook = 0;     /* once: the process ends */
        hook(sig);
    }
    return (int)syscall(SYS_kill, pid, sig);
}
