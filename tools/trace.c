/* tools/trace.c - `edan trace [options] -- PROGRAM ARGS`: runs a RISC-V
   program under qemu-riscv64, or an x86-64 one under qemu-x86_64, with the
   EDAN plugin and prints the report of `edan analyze`, or (RISC-V) writes a
   text or binary trace.

   The plugin's options travel in a file of NUL-terminated arguments (QEMU
   plugin arguments cannot contain commas); the plugin answers through files
   in the same private temporary directory: `report`, `error`, `notes`. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <time.h>
#include "cli.h"
#include "files.h"
#include "suggest.h"

static const char trace_usage[] =
    "usage: edan trace [options] [--] PROGRAM [ARGS...]\n"
    "\n"
    "Runs a RISC-V (RV64GC Linux) program under qemu-riscv64, or an x86-64 Linux\n"
    "program (this machine's own binaries, static or dynamically linked with its\n"
    "libraries) under qemu-x86_64, with the EDAN plugin, builds its execution DAG\n"
    "while it runs and prints the same report as `edan analyze`. x86-64 programs\n"
    "run with LD_BIND_NOW=1 and need the instructions QEMU 7.2 runs (up to AVX2;\n"
    "no AVX-512); each x86-64 instruction is cracked into the vertices a\n"
    "load/store machine executes (a load per memory operand read, an operation,\n"
    "a store per memory operand written; a rep string instruction per\n"
    "iteration), so the report's N counts vertices (micro-operations) and names\n"
    "the instructions. An executed instruction that does not decode stops the trace\n"
    "(exit 2) naming its pc, bytes and function; --skip-unknown leaves such\n"
    "instructions out and counts them. A program's threads (pthreads, OpenMP) go\n"
    "into one eDAG, taking turns under the analysis; the report adds a Threads\n"
    "table. A forked child is not traced; at an exec the analysis ends.\n"
    "When the report or a trace goes to standard output, the program's standard\n"
    "output goes to standard error (so that the report can be piped); otherwise\n"
    "the program's output is left alone and the report follows.\n"
    "The exit status is the program's (128+N when it dies of signal N, 2 when\n"
    "edan itself fails). A signal to edan (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT, ...)\n"
    "goes to the program too and ends the run: the report of what was analysed\n"
    "is written, marked PARTIAL (\"partial\": true), as are the traces, and the\n"
    "exit status is 1; so too when the program dies of such a signal, and a\n"
    "program that crashes (SIGSEGV, ...) reports what ran before it (exit 128+N).\n"
    "A program that runs on 5 s after the signal is killed, without a report;\n"
    "a second signal kills it at once.\n"
    "\n";
static const char trace_options[] =
    "Scope (default: every instruction, from the dynamic loader to exit):\n"
    "  --func NAME        only instructions inside function NAME (repeatable;\n"
    "                     NAME also matches NAME.constprop.0, NAME.isra.0, ...,\n"
    "                     and the Fortran procedures NAME_ and __MODULE_MOD_NAME;\n"
    "                     a function of the program or of a shared library it\n"
    "                     maps, dlopen included: looked up as its code first runs)\n"
    "  --region NAME      everything from the entry of NAME until it returns,\n"
    "                     callees included (repeatable)\n"
    "  --exclude NAME     drop NAME and everything it calls (repeatable)\n"
    "  --ranks LIST       under an MPI launcher (mpirun, mpiexec, srun): only these\n"
    "                     ranks are traced (e.g. 0,3-5); the others run plain\n"
    "  --threads LIST     only these threads (0 the main thread, then 1, 2, ... in\n"
    "                     the order they were created; e.g. 1-4,7); the others'\n"
    "                     writes still end chains, as untraced code's do. By\n"
    "                     default every thread; scoping applies to each\n"
    "  --no-markers       ignore EDAN_TRACE_BEGIN()/EDAN_TRACE_END() markers; by\n"
    "                     default a program containing them is analysed only\n"
    "                     between a BEGIN and the following END (edan_trace.h)\n"
    "Output:\n"
    "  --text FILE        write a text trace instead of analysing; - is standard\n"
    "                     output. RISC-V: \"insn;0xaddr\" lines, the paper's format;\n"
    "                     x86-64: \"0xPC BYTES | Intel syntax | L8@0xADDR ...\"\n"
    "                     lines (README.md)\n"
    "  --text-pc          with --text: lines \"0;0xPC;insn;0xaddr\" (the EDAN authors'\n"
    "                     tool's format with PCs: per-PC --top from the text trace)\n"
    "  --binary FILE      write a binary trace (README.md) instead of analysing;\n"
    "                     `edan analyze FILE` reads it; - is standard output\n"
    "  --analyze          analyse as well when --text or --binary is given\n"
    "  -o, --output FILE  write the report to FILE instead of standard output (-)\n"
    "                     Under an MPI launcher every output path needs %r (the\n"
    "                     rank; %h: the host): results/rank%r.json; rank 0 alone\n"
    "                     prints to the terminal, unless --all-ranks; `edan job`\n"
    "                     reports the whole job from the ranks' --json results\n"
    "  --max-insns N      end the run, with a partial report, once about N\n"
    "                     instructions were analysed (at the end of a block)\n"
    "  --max-seconds S    end the run, with a partial report, after S seconds\n"
    "                     (exit status 0 for either limit)\n"
    "Environment:\n"
    "  --qemu PATH        qemu-riscv64 or qemu-x86_64 to use (default: $EDAN_QEMU,\n"
    "                     else the one on PATH for the program's machine)\n"
    "  --plugin PATH      the plugin (default: $EDAN_PLUGIN, else the one built\n"
    "                     next to this edan)\n"
    "  --sysroot DIR      library root for dynamically linked RISC-V programs\n"
    "                     (default /usr/riscv64-linux-gnu)\n"
    "\n";

typedef struct trace_args {
    char **plugin_args;         /* forwarded to the plugin */
    int nplugin;
    const char *text_path, *bin_path, *output, *qemu, *plugin, *sysroot;
    int analyze;
    const char *ranks;          /* --ranks LIST: only these ranks of a job are traced */
    int all_ranks;              /* --all-ranks: every rank prints to the terminal */
} trace_args;

/* A rank of an MPI job: every output path must name a file of its own
   (%r), then each is expanded (%r, %h) in t, a and the plugin's arguments.
   0, or a message and -1. */
static int trace_job_outputs(const cli_job *job, trace_args *t, cli_analysis *a)
{
    const char **paths[6];
    const char *names[6] = {"-o", "--text", "--binary", "--timeline", "--sweep", "--dot"};
    int k, j;
    paths[0] = &t->output;
    paths[1] = &t->text_path;
    paths[2] = &t->bin_path;
    paths[3] = &a->timeline_path;
    paths[4] = &a->sweep_path;
    paths[5] = &a->dot_path;
    for (k = 0; k < 6; k++) {
        const char *p = *paths[k];
        char *x;
        if (!p) continue;
        if (job->size > 1 && (!strcmp(p, "-") ? k > 0 : !cli_job_per_rank(p))) {
            const char *dot = strrchr(p, '.'), *slash = strrchr(p, '/');
            if (!strcmp(p, "-"))
                fprintf(stderr, "edan trace: rank %ld of a job of %ld ranks (%s=%ld): %s - would mix every rank's "
                        "trace on standard output: give a file with %%r (the rank) in its name\n", job->rank,
                        job->size, job->size_var, job->size, names[k]);
            else
                fprintf(stderr, "edan trace: rank %ld of a job of %ld ranks (%s=%ld): %s %s would be written by "
                        "every rank: put %%r (the rank) in its name, e.g. %.*s.%%r%s\n", job->rank, job->size,
                        job->size_var, job->size, names[k], p, (int)(dot && (!slash || dot > slash) ? dot - p
                                                                     : (long)strlen(p)), p,
                        dot && (!slash || dot > slash) ? dot : "");
            return -1;
        }
        if (!(x = cli_job_expand(job, p))) {
            fprintf(stderr, "edan trace: out of memory\n");
            return -1;
        }
        for (j = 0; j + 1 < t->nplugin; j++)     /* the plugin's copy of an analysis option's path */
            if (k >= 3 && !strcmp(t->plugin_args[j], names[k]) && t->plugin_args[j + 1] == p) t->plugin_args[j + 1] = x;
        *paths[k] = x;      /* freed at exit */
    }
    return 0;
}

/* 1 when rank r is in the list "0,2-5" (NULL: every rank). */
static int trace_rank_listed(const char *list, long r)
{
    uint32_t lohi[64][2];
    const char *why;
    int n = list ? cli_parse_threads(list, lohi, 64, &why) : -1, k;
    if (!list) return 1;
    for (k = 0; k < n; k++)
        if ((uint32_t)r >= lohi[k][0] && (uint32_t)r <= lohi[k][1]) return 1;
    return 0;
}

static int trace_push(trace_args *t, const char *s)
{
    t->plugin_args[t->nplugin++] = (char *)s;
    return 0;
}

/* An executable named `name` on PATH, or NULL. */
static char *trace_which(const char *name)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];
    if (strchr(name, '/')) return access(name, X_OK) == 0 ? strdup(name) : NULL;
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        struct stat sb;
        if (len == 0) snprintf(buf, sizeof buf, "./%s", name);
        else snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, name);
        if (stat(buf, &sb) == 0 && S_ISREG(sb.st_mode) && access(buf, X_OK) == 0) return strdup(buf);
        path = end ? end + 1 : path + len;
    }
    return NULL;
}

static char *trace_find_plugin(void)
{
    char exe[PATH_MAX], buf[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *env = getenv("EDAN_PLUGIN");
    static const char *const rel[] = {"build/edan-plugin.so", "../lib/edan/edan-plugin.so", "edan-plugin.so"};
    size_t k;
    if (env && *env) return strdup(env);
    if (n <= 0) return NULL;
    exe[n] = 0;
    *strrchr(exe, '/') = 0;
    for (k = 0; k < sizeof rel / sizeof rel[0]; k++) {
        snprintf(buf, sizeof buf, "%s/%s", exe, rel[k]);
        if (access(buf, R_OK) == 0) return strdup(buf);
    }
    return NULL;
}

static const char *trace_machine_name(unsigned m)
{
    switch (m) {
    case 3: return "x86 (32-bit)";
    case 40: return "ARM";
    case 62: return "x86-64";
    case 183: return "AArch64";
    case 243: return "RISC-V";
    default: return "another architecture";
    }
}

/* Checks that path is a 64-bit little-endian RISC-V or x86-64 ELF
   executable; sets *x86 for x86-64 and *dynamic when it has an interpreter
   (dynamically linked). */
static int trace_check_elf(const char *path, int *dynamic, int *x86)
{
    unsigned char h[64];
    int fd = open(path, O_RDONLY);
    ssize_t n;
    unsigned machine, phnum, phentsize, k;
    unsigned long long phoff;
    *dynamic = 0;
    *x86 = 0;
    if (fd < 0) {
        fprintf(stderr, "edan trace: %s: %s\n", path, strerror(errno));
        return -1;
    }
    n = read(fd, h, sizeof h);
    if (n < 20 || memcmp(h, "\177ELF", 4) != 0) {
        fprintf(stderr, "edan trace: %s is not an ELF executable (not a compiled RISC-V or x86-64 program)\n", path);
        close(fd);
        return -1;
    }
    machine = h[18] | (unsigned)h[19] << 8;
    if (h[5] != 1) machine = (unsigned)h[18] << 8 | h[19];
    if ((machine != 243 && machine != 62) || h[4] != 2 || h[5] != 1 || n < 64) {
        fprintf(stderr,
                "edan trace: %s is neither a 64-bit RISC-V nor an x86-64 program (ELF machine: %s%s); "
                "compile it for this machine, or cross-compile it with riscv64-linux-gnu-gcc (make rv SRC=...)\n",
                path, trace_machine_name(machine), machine == 243 || machine == 62 ? ", 32-bit" : "");
        close(fd);
        return -1;
    }
    *x86 = machine == 62;
    phoff = 0;
    for (k = 0; k < 8; k++) phoff |= (unsigned long long)h[32 + k] << (8 * k);
    phentsize = h[54] | (unsigned)h[55] << 8;
    phnum = h[56] | (unsigned)h[57] << 8;
    for (k = 0; k < phnum && phentsize >= 4 && phentsize <= 256; k++) {
        unsigned char ph[4];
        if (pread(fd, ph, 4, (off_t)(phoff + (unsigned long long)k * phentsize)) != 4) break;
        if ((ph[0] | ph[1] << 8 | ph[2] << 16 | (unsigned)ph[3] << 24) == 3 /* PT_INTERP */) *dynamic = 1;
    }
    close(fd);
    return 0;
}

/* Writes argv as NUL-terminated strings. */
static int trace_write_args(const char *path, char **args, int n)
{
    FILE *f = fopen(path, "wb");
    int k;
    if (!f) return -1;
    for (k = 0; k < n; k++) fwrite(args[k], 1, strlen(args[k]) + 1, f);
    return fclose(f) == 0 ? 0 : -1;
}

/* Contents of dir/name (NUL-terminated), or NULL. */
static char *trace_slurp(const char *dir, const char *name, size_t *len)
{
    char path[PATH_MAX + 64];
    FILE *f;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (!f) return NULL;
    for (;;) {
        size_t got;
        if (cap - n < 4096) {
            char *nb = (char *)realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

static void trace_cleanup(const char *dir)
{
    static const char *const names[] = {"args", "report", "error", "notes", "count", "outputs", "partial", "stop",
                                        "report.tmp", "error.tmp", "notes.tmp", "count.tmp", "outputs.tmp",
                                        "partial.tmp"};
    char path[PATH_MAX + 64];
    size_t k;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        unlink(path);
    }
    rmdir(dir);
}

/* Writes the report to `output` (NULL or - : standard output), as files.h says. */
static int trace_emit_report(const char *report, size_t len, const char *output)
{
    files_out o;
    char err[512];
    if (files_out_open(&o, output ? output : "-", err, sizeof err)) {
        fprintf(stderr, "edan trace: cannot write %s\n", err);
        return -1;
    }
    if (fwrite(report, 1, len, o.f) != len) {
        int e = errno;
        files_out_discard(&o);
        fprintf(stderr, "edan trace: cannot write %s: %s\n", output ? output : "the report to standard output",
                strerror(e));
        return -1;
    }
    if (files_out_close(&o, err, sizeof err)) {
        fprintf(stderr, "edan trace: cannot write %s\n", err);
        return -1;
    }
    return 0;
}

/* The running qemu, for the signal handler; a signal that came before it
   started, to pass on when it does. */
static volatile pid_t trace_child = 0;
static volatile sig_atomic_t trace_pending_sig = 0;
static volatile sig_atomic_t trace_stop_sig = 0;     /* the signal that asked the run to end */
static volatile sig_atomic_t trace_signals = 0;      /* how many came */
static char trace_stop_path[PATH_MAX + 16];         /* the plugin's stop request, once the directory exists */

/* A signal to edan trace (Ctrl-C, kill, timeout): the run ends with the
   report of what was analysed, marked partial. The program gets the
   signal too (a handler of its own runs; one it dies of ends the run
   through the plugin) unless the terminal sent it to both; the plugin
   also finds the stop request at its next look, so that a program that
   ignores the signal stops as well. A second signal ends qemu at once. */
static void trace_signal(int sig, siginfo_t *info, void *ctx)
{
    int from_tty = info && info->si_code == SI_KERNEL;
    (void)ctx;
    trace_signals++;
    if (trace_signals > 1) {
        if (trace_child > 0) kill(trace_child, SIGKILL);
        return;
    }
    trace_stop_sig = sig;
    if (trace_stop_path[0]) {       /* async-signal-safe: open, write, close */
        char num[8];
        int n = 0, v = sig, fd;
        if (v >= 10) num[n++] = (char)('0' + v / 10);
        num[n++] = (char)('0' + v % 10);
        num[n++] = '\n';
        fd = open(trace_stop_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            if (write(fd, num, (size_t)n) < 0) { /* the plugin then takes no stop request: the grace period ends it */ }
            close(fd);
        }
    }
    if (from_tty && (sig == SIGINT || sig == SIGQUIT)) return;     /* the program got it from the terminal */
    if (trace_child > 0) kill(trace_child, sig);
    else trace_pending_sig = sig;
}

/* The signals that end edan trace's run as above. */
static const int trace_stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
                                         SIGVTALRM, SIGPROF};

int edan_cmd_trace(int argc, char **argv)
{
    cli_analysis a;
    trace_args t;
    int i = 1, prog = -1, dynamic = 0, x86 = 0, text_pc = 0, status = 0, rc = 2, k, analysing, to_stdout, stdout_fd = -1, scoped = 0;
    char *qemu = NULL, *plugin = NULL, *program = NULL;
    char preload[PATH_MAX] = "";
    int killed = 0, partial = 0, quiet_rank = 0;
    cli_job job;
    char *job_command = NULL, job_rank[24], job_size[24];
    char dir[] = "/tmp/edan-trace.XXXXXX", args_path[PATH_MAX + 64], plugin_arg[2 * PATH_MAX + 128];
    char *report, *err, *notes;
    size_t report_len = 0;
    char **qargv = NULL;
    pid_t pid;
    const char *tmpdir = getenv("TMPDIR");
    char dirbuf[PATH_MAX];

    memset(&t, 0, sizeof t);
    t.plugin_args = (char **)calloc((size_t)argc * 2 + 32, sizeof(char *));
    if (!t.plugin_args) { fprintf(stderr, "edan trace: out of memory\n"); return 2; }
    cli_analysis_init(&a);
    while (i < argc) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--")) { prog = i + 1; break; }
        if (s[0] != '-' || !s[1]) { prog = i; break; }
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            printf("%s%s%s", trace_usage, trace_options, cli_analysis_help);
            free(t.plugin_args);
            return 0;
        }
        if (!strcmp(s, "--analyze")) { t.analyze = 1; i++; continue; }
        if (!strcmp(s, "--all-ranks")) { t.all_ranks = 1; i++; continue; }
        if (!strcmp(s, "--no-markers") || !strcmp(s, "--text-pc")) { trace_push(&t, s); i++; continue; }
        if (!strcmp(s, "--func") || !strcmp(s, "--region") || !strcmp(s, "--exclude") || !strcmp(s, "--text") ||
            !strcmp(s, "--binary") || !strcmp(s, "-o") || !strcmp(s, "--output") || !strcmp(s, "--qemu") ||
            !strcmp(s, "--plugin") || !strcmp(s, "--sysroot") || !strcmp(s, "--threads") ||
            !strcmp(s, "--max-insns") || !strcmp(s, "--max-seconds") || !strcmp(s, "--ranks")) {
            uint32_t lohi[32][2];
            const char *why;
            if (!v || !*v) {
                fprintf(stderr, "edan trace: %s needs a value\n", s);
                free(t.plugin_args);
                return 2;
            }
            if ((!strcmp(s, "--threads") || !strcmp(s, "--ranks")) && cli_parse_threads(v, lohi, 32, &why) < 0) {
                fprintf(stderr, "edan trace: %s '%s': %s\n", s, v, why);
                free(t.plugin_args);
                return 2;
            }
            if (!strncmp(s, "--max-", 6)) {
                char *end;
                double d = strtod(v, &end);
                if (*end || !(d > 0) || d > 1e18 || (s[6] == 'i' && d != (double)(unsigned long long)d)) {
                    fprintf(stderr, "edan trace: %s '%s': a positive %s\n", s, v,
                            s[6] == 'i' ? "whole number of instructions" : "number of seconds");
                    free(t.plugin_args);
                    return 2;
                }
            }
            if (!strcmp(s, "--text")) t.text_path = v;
            else if (!strcmp(s, "--binary")) t.bin_path = v;
            else if (!strcmp(s, "-o") || !strcmp(s, "--output")) t.output = v;
            else if (!strcmp(s, "--qemu")) t.qemu = v;
            else if (!strcmp(s, "--plugin")) t.plugin = v;
            else if (!strcmp(s, "--sysroot")) t.sysroot = v;
            else if (!strcmp(s, "--ranks")) t.ranks = v;
            else { trace_push(&t, s); trace_push(&t, v); }
            i += 2;
            continue;
        }
        {
            int start = i, got = cli_analysis_option(&a, argc, argv, &i);
            if (got < 0) { free(t.plugin_args); return 2; }
            if (got == 0) {
                char help[16384];
                snprintf(help, sizeof help, "%s%s%s", trace_usage, trace_options, cli_analysis_help);
                suggest_unknown("edan trace", s, help);
                free(t.plugin_args);
                return 2;
            }
            for (k = start; k < i; k++) trace_push(&t, argv[k]);
        }
    }
    if (prog < 0 || prog >= argc) {
        fprintf(stderr, "edan trace: no program given (edan trace [options] -- PROGRAM ARGS; see edan trace --help)\n");
        free(t.plugin_args);
        return 2;
    }
    {   /* a rank of an MPI job: outputs of its own, the job told to the plugin */
        char jerr[300];
        size_t len = 0;
        if (cli_job_detect(&job, jerr, sizeof jerr)) {
            fprintf(stderr, "edan trace: %s\n", jerr);
            free(t.plugin_args);
            return 2;
        }
        if (trace_job_outputs(&job, &t, &a)) {
            free(t.plugin_args);
            return 2;
        }
        for (k = 1; k < argc; k++) len += strlen(argv[k]) + 1;
        if (job.var && (job_command = (char *)malloc(len + 1))) {
            job_command[0] = 0;
            for (k = 1; k < argc; k++) {
                strcat(job_command, argv[k]);
                if (k + 1 < argc) strcat(job_command, " ");
            }
            snprintf(job_rank, sizeof job_rank, "%ld", job.rank);
            snprintf(job_size, sizeof job_size, "%ld", job.size);
            trace_push(&t, "--job");
            trace_push(&t, job_rank);
            trace_push(&t, job_size);
            trace_push(&t, job.host);
            trace_push(&t, job.var);
            trace_push(&t, job_command);
        }
        quiet_rank = job.size > 1 && job.rank != 0 && !t.all_ranks;
    }
    cli_analysis_pick_profile(&a);
    {   /* no output may destroy an input or share a file (or standard output) with another; the
           plugin's standard output is the program's, so its own outputs need files */
        int analysing_now = t.analyze || (!t.text_path && !t.bin_path);
        const files_role out[] = {{analysing_now ? (t.output ? t.output : "-") : NULL, t.output ? "-o" : "the report"},
                                  {t.text_path, "--text"}, {t.bin_path, "--binary"}, {a.timeline_path, "--timeline"},
                                  {a.sweep_path, "--sweep"}, {a.dot_path, "--dot"}};
        char *found = trace_which(argv[prog]);
        const files_role in[] = {{found ? found : argv[prog], "the program"}, {a.profile_path, "the profile"},
                                 {a.elf_path, "--elf"}};
        const char *std = a.timeline_path && !strcmp(a.timeline_path, "-") ? "--timeline"
                          : a.sweep_path && !strcmp(a.sweep_path, "-") ? "--sweep"
                          : a.dot_path && !strcmp(a.dot_path, "-") ? "--dot" : NULL;
        char err[600];
        if (std) {
            fprintf(stderr, "edan trace: %s -: give a file (standard output carries the report, a trace or the "
                            "program's output)\n", std);
            free(t.plugin_args);
            return 2;
        }
        if (files_check_roles(out, sizeof out / sizeof out[0], in, sizeof in / sizeof in[0], err, sizeof err)) {
            fprintf(stderr, "edan trace: %s\n", err);
            free(found);
            free(t.plugin_args);
            return 2;
        }
        free(found);
    }
    if (cli_analysis_finish(&a)) { free(t.plugin_args); return 2; }
    for (k = 0; k < t.nplugin; k++)
        if (!strcmp(t.plugin_args[k], "--text-pc")) text_pc = 1;
    if (text_pc && !t.text_path) {
        fprintf(stderr, "edan trace: --text-pc changes the lines of --text FILE, which is not given\n");
        free(t.plugin_args);
        return 2;
    }
    analysing = t.analyze || (!t.text_path && !t.bin_path);
    to_stdout = (analysing && (!t.output || !strcmp(t.output, "-"))) + (t.text_path && !strcmp(t.text_path, "-")) +
                (t.bin_path && !strcmp(t.bin_path, "-"));
    /* the outputs can be written, and the analysis takes its options,
       before the program runs */
    if ((t.output && strcmp(t.output, "-") && cli_output_check(t.output)) ||
        (t.text_path && strcmp(t.text_path, "-") && cli_output_check(t.text_path)) ||
        (t.bin_path && strcmp(t.bin_path, "-") && cli_output_check(t.bin_path))) {
        free(t.plugin_args);
        return 2;
    }
    if (analysing) {
        edan_context *probe_ctx = NULL;
        edan_result r = edan_create(&probe_ctx, &a.opts);
        if (r != EDAN_OK) {
            fprintf(stderr, "edan trace: %s\n", probe_ctx ? edan_error(probe_ctx) : edan_result_string(r));
            edan_destroy(probe_ctx);
            free(t.plugin_args);
            return 2;
        }
        edan_destroy(probe_ctx);
    }

    /* the program */
    program = trace_which(argv[prog]);
    if (!program && access(argv[prog], F_OK) == 0) program = strdup(argv[prog]);
    if (!program) {
        fprintf(stderr, "edan trace: %s: no such program%s\n", argv[prog],
                strstr(argv[prog], "build/examples/") ? " (`make examples` builds the example kernels)" : "");
        goto out;
    }
    if (access(program, X_OK) != 0) {
        fprintf(stderr, "edan trace: %s is not executable (chmod +x %s)\n", program, program);
        goto out;
    }
    if (trace_check_elf(program, &dynamic, &x86)) goto out;
    if (x86 && text_pc) {
        fprintf(stderr, "edan trace: --text-pc is a RISC-V text form; %s is an x86-64 program, whose text trace "
                        "lines always begin with the pc\n", program);
        goto out;
    }
    if (x86) dynamic = 0;   /* the host's own libraries: no sysroot */
    if (dynamic && !t.sysroot) t.sysroot = "/usr/riscv64-linux-gnu";
    if (dynamic) {
        char ld[PATH_MAX];
        struct stat sb;
        snprintf(ld, sizeof ld, "%s/lib", t.sysroot);
        if (stat(ld, &sb) != 0) {
            fprintf(stderr,
                    "edan trace: %s is dynamically linked and %s has no RISC-V libraries; install "
                    "Debian's libc6-riscv64-cross, pass --sysroot DIR, or link it with -static\n",
                    program, t.sysroot);
            goto out;
        }
    }

    /* qemu and the plugin */
    if (t.qemu) qemu = trace_which(t.qemu);
    else if (getenv("EDAN_QEMU") && *getenv("EDAN_QEMU")) qemu = trace_which(getenv("EDAN_QEMU"));
    else qemu = trace_which(x86 ? "qemu-x86_64" : "qemu-riscv64");
    if (!qemu) {
        fprintf(stderr,
                "edan trace: %s not found: install Debian's qemu-user package (apt-get install "
                "qemu-user; qemu-user-static has no plugin support), or set EDAN_QEMU\n",
                t.qemu ? t.qemu : getenv("EDAN_QEMU") && *getenv("EDAN_QEMU") ? getenv("EDAN_QEMU")
                : x86 ? "qemu-x86_64" : "qemu-riscv64");
        goto out;
    }
    if (!trace_rank_listed(t.ranks, job.rank)) {
        /* a rank --ranks leaves out: the program runs plain (RISC-V: under qemu, no plugin) */
        char **plain = (char **)calloc((size_t)(argc - prog) + 8, sizeof(char *));
        int n = 0;
        if (!plain) goto out;
        if (!x86) {
            plain[n++] = qemu;
            if (dynamic) { plain[n++] = (char *)"-L"; plain[n++] = (char *)t.sysroot; }
        }
        plain[n++] = program;
        for (i = prog + 1; i < argc; i++) plain[n++] = argv[i];
        plain[n] = NULL;
        fflush(NULL);
        execv(plain[0], plain);
        fprintf(stderr, "edan trace: cannot run %s: %s\n", plain[0], strerror(errno));
        free(plain);
        rc = 127;
        goto out;
    }
    plugin = t.plugin ? strdup(t.plugin) : trace_find_plugin();
    if (!plugin || access(plugin, R_OK) != 0) {
        fprintf(stderr, "edan trace: the EDAN QEMU plugin %s was not found (run make, or set EDAN_PLUGIN)\n",
                plugin ? plugin : "edan-plugin.so");
        goto out;
    }
    if (strchr(plugin, ',')) {
        fprintf(stderr, "edan trace: the plugin path %s contains a comma, which QEMU cannot take\n", plugin);
        goto out;
    }
    {   /* edan-preload.so beside the plugin: a program that a signal kills still gets its report */
        const char *slash = strrchr(plugin, '/');
        snprintf(preload, sizeof preload, "%.*sedan-preload.so", slash ? (int)(slash - plugin + 1) : 0, plugin);
        if (access(preload, R_OK) != 0 || strchr(preload, ':') || strchr(preload, ' ')) preload[0] = 0;
    }

    {
        /* a signal to edan ends the run with a partial report (trace_signal);
           a closed pipe is a write error. Set before the temporary
           directory exists, so that it is removed whatever comes. */
        struct sigaction sa;
        size_t k2;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = trace_signal;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        for (k2 = 0; k2 < sizeof trace_stop_signals / sizeof trace_stop_signals[0]; k2++)
            sigaction(trace_stop_signals[k2], &sa, NULL);
        signal(SIGPIPE, SIG_IGN);
    }

    /* private directory for the plugin's arguments and answers */
    if (tmpdir && *tmpdir && !strchr(tmpdir, ',') && strlen(tmpdir) < sizeof dirbuf - 32) {
        snprintf(dirbuf, sizeof dirbuf, "%s/edan-trace.XXXXXX", tmpdir);
    } else {
        snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    }
    if (!mkdtemp(dirbuf)) {
        fprintf(stderr, "edan trace: cannot create a temporary directory: %s\n", strerror(errno));
        goto out;
    }
    snprintf(trace_stop_path, sizeof trace_stop_path, "%s/stop", dirbuf);
    if (trace_stop_sig) {       /* a signal came before: the run ends as soon as it starts */
        FILE *sf = fopen(trace_stop_path, "w");
        if (sf) { fprintf(sf, "%d\n", (int)trace_stop_sig); fclose(sf); }
    }
    trace_push(&t, "--dir");
    trace_push(&t, dirbuf);
    trace_push(&t, "--program");
    trace_push(&t, program);
    trace_push(&t, "--source");
    trace_push(&t, argv[prog]);
    if (t.text_path) { trace_push(&t, "--text"); trace_push(&t, t.text_path); }
    if (t.bin_path) { trace_push(&t, "--binary"); trace_push(&t, t.bin_path); }
    if (t.analyze) trace_push(&t, "--analyze");
    if ((t.text_path && !strcmp(t.text_path, "-")) || (t.bin_path && !strcmp(t.bin_path, "-"))) {
        /* the trace goes to our standard output, handed to the plugin as a descriptor of its own */
        static char fdbuf[16];
        stdout_fd = fcntl(1, F_DUPFD, 10);
        if (stdout_fd < 0) {
            fprintf(stderr, "edan trace: standard output: %s\n", strerror(errno));
            trace_cleanup(dirbuf);
            goto out;
        }
        snprintf(fdbuf, sizeof fdbuf, "%d", stdout_fd);
        trace_push(&t, "--stdout-fd");
        trace_push(&t, fdbuf);
    }
    for (k = 0; k < t.nplugin; k++)
        if (!strcmp(t.plugin_args[k], "--func") || !strcmp(t.plugin_args[k], "--region")) scoped = 1;
    snprintf(args_path, sizeof args_path, "%s/args", dirbuf);
    if (trace_write_args(args_path, t.plugin_args, t.nplugin)) {
        fprintf(stderr, "edan trace: cannot write %s: %s\n", args_path, strerror(errno));
        trace_cleanup(dirbuf);
        goto out;
    }
    snprintf(plugin_arg, sizeof plugin_arg, "%s,args=%s", plugin, args_path);

    qargv = (char **)calloc((size_t)(argc - prog) + 12, sizeof(char *));
    if (!qargv) { trace_cleanup(dirbuf); goto out; }
    k = 0;
    qargv[k++] = qemu;
    if (dynamic) { qargv[k++] = (char *)"-L"; qargv[k++] = (char *)t.sysroot; }
    /* x86-64: the dynamic loader binds every symbol at start, not lazily
       through its resolver, which saves the register state (xsave) in the
       middle of the analysed code */
    if (x86) { qargv[k++] = (char *)"-E"; qargv[k++] = (char *)"LD_BIND_NOW=1"; }
    if (preload[0]) {       /* the program keeps its own LD_PRELOAD, or none */
        static char keep[PATH_MAX + 16];
        const char *old = getenv("LD_PRELOAD");
        if (old && *old) {
            snprintf(keep, sizeof keep, "LD_PRELOAD=%s", old);
            qargv[k++] = (char *)"-E";
            qargv[k++] = keep;
        } else {
            qargv[k++] = (char *)"-U";
            qargv[k++] = (char *)"LD_PRELOAD";
        }
    }
    qargv[k++] = (char *)"-plugin";
    qargv[k++] = plugin_arg;
    qargv[k++] = program;
    for (i = prog + 1; i < argc; i++) qargv[k++] = argv[i];
    qargv[k] = NULL;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "edan trace: fork: %s\n", strerror(errno));
        trace_cleanup(dirbuf);
        goto out;
    }
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        /* edan killed outright (SIGKILL): qemu goes too, whatever the program ignores */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1) _exit(127);     /* edan went before the line above */
        if (to_stdout && dup2(2, 1) < 0) _exit(127);
        if (preload[0]) {       /* for qemu only: the program's environment is given back by -U or -E */
            const char *old = getenv("LD_PRELOAD");
            static char both[2 * PATH_MAX + 2];
            snprintf(both, sizeof both, "%s%s%s", preload, old && *old ? ":" : "", old && *old ? old : "");
            setenv("LD_PRELOAD", both, 1);
        }
        execv(qemu, qargv);
        fprintf(stderr, "edan trace: cannot run %s: %s\n", qemu, strerror(errno));
        _exit(127);
    }
    trace_child = pid;
    if (trace_pending_sig) kill(pid, trace_pending_sig);
    if (stdout_fd >= 0) close(stdout_fd);
    {   /* after a signal, the run has 5 s to end with its report; then qemu is killed */
        double deadline = 0;
        for (;;) {
            pid_t w = waitpid(pid, &status, trace_signals ? WNOHANG : 0);
            if (w == pid) break;
            if (w < 0 && errno != EINTR) {
                fprintf(stderr, "edan trace: waitpid: %s\n", strerror(errno));
                trace_cleanup(dirbuf);
                goto out;
            }
            if (trace_signals) {
                struct timespec nap = {0, 50000000L};
                if (!deadline) deadline = cli_now() + 5.0;
                if (cli_now() > deadline && !killed) {
                    kill(pid, SIGKILL);
                    killed = 1;
                }
                nanosleep(&nap, NULL);
            }
        }
    }
    trace_child = 0;

    err = trace_slurp(dirbuf, "error", NULL);
    if (err) {
        fprintf(stderr, "edan trace: %s", err);
        free(err);
        trace_cleanup(dirbuf);
        rc = 2;
        goto out;
    }
    notes = trace_slurp(dirbuf, "notes", NULL);
    if (notes && !quiet_rank) fprintf(stderr, "edan trace: %s", notes);
    free(notes);
    report = trace_slurp(dirbuf, "report", &report_len);
    {   /* the run ended early: 1 stopped, 2 a limit, 3 a crash (the plugin's "partial" file) */
        char *p = trace_slurp(dirbuf, "partial", NULL);
        if (p) partial = atoi(p);
        free(p);
    }

    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE && stdout_fd >= 0) {
        /* the trace went to our standard output, and nobody read it */
        fprintf(stderr, "edan trace: cannot write the trace to standard output: %s (the program was stopped)\n",
                strerror(EPIPE));
        trace_cleanup(dirbuf);
        rc = 2;
        goto out;
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        /* the plugin had no chance to finish its files: remove its temporaries */
        char *tmps = trace_slurp(dirbuf, "outputs", NULL), *line, *save = NULL;
        for (line = tmps ? strtok_r(tmps, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
            if (unlink(line) == 0)
                fprintf(stderr, "edan trace: %s was not written: the program did not exit\n",
                        t.text_path && strstr(line, t.text_path) == line ? t.text_path : t.bin_path ? t.bin_path : line);
        free(tmps);
        if (killed)
            fprintf(stderr, "edan trace: %s did not stop within 5 s of signal %d (%s) and was killed; no report\n",
                    argv[prog], (int)trace_stop_sig, strsignal(trace_stop_sig));
        else
            fprintf(stderr, "edan trace: %s %s by signal %d (%s)%s\n", argv[prog],
                    partial == 3 ? "crashed: killed" : "was stopped", sig, strsignal(sig),
                    report || !(t.analyze || (!t.text_path && !t.bin_path)) ? "; the report covers what ran before"
                    : "; no report");
        if (x86 && sig == SIGILL)
            fprintf(stderr, "edan trace: note: QEMU 7.2 runs x86-64 code up to AVX2; a program built for "
                            "AVX-512 (-mavx512f, or -march=native on such a machine) gets this signal at its first "
                            "AVX-512 instruction: build it with -march=x86-64-v3 or older\n");
        rc = partial == 1 ? 1 : 128 + sig;      /* stopped by a signal: 1, as a stop request is */
    } else if (WIFEXITED(status)) {
        rc = WEXITSTATUS(status);
        if (partial == 1) rc = 1;       /* stopped at a signal to edan: the run is not whole */
        if (!report && (t.analyze || (!t.text_path && !t.bin_path)) && rc != 0) {
            fprintf(stderr, "edan trace: %s under %s exited with status %d before the analysis ended\n",
                    argv[prog], qemu, rc);
        }
    }
    if ((t.text_path || t.bin_path) && !quiet_rank) {
        char *count = trace_slurp(dirbuf, "count", NULL);
        if (count) {
#define TRACE_NAME(p) (!strcmp((p), "-") ? "standard output" : (p))
            fprintf(stderr, "edan trace: %llu instructions written to %s%s%s\n", strtoull(count, NULL, 10),
                    TRACE_NAME(t.text_path ? t.text_path : t.bin_path), t.text_path && t.bin_path ? " and " : "",
                    t.text_path && t.bin_path ? TRACE_NAME(t.bin_path) : "");
#undef TRACE_NAME
            free(count);
        }
    }
    if (scoped && WIFEXITED(status)) {
        char *count = trace_slurp(dirbuf, "count", NULL);
        if (count && strtoull(count, NULL, 10) == 0) {
            fprintf(stderr, "edan trace: nothing was analysed: the program never ran the code of "
                            "--func/--region (the report is empty)\n");
            if (rc == 0) rc = 1;
        }
        free(count);
    }
    trace_cleanup(dirbuf);
    if (report) {
        /* rank 0 alone prints to the terminal (--all-ranks: every rank) */
        if (!(quiet_rank && (!t.output || !strcmp(t.output, "-"))) && trace_emit_report(report, report_len, t.output) &&
            rc < 2)
            rc = 2;
        free(report);
    } else if (analysing && rc == 0) {
        fprintf(stderr, "edan trace: the plugin produced no report\n");
        rc = 2;
    }
out:
    free(job_command);
    free(qargv);
    free(qemu);
    free(plugin);
    free(program);
    free(t.plugin_args);
    return rc;
}
