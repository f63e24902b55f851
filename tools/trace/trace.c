/* tools/trace/trace.c - `edan trace [options] -- PROGRAM ARGS`: runs a RISC-V
   program under qemu-riscv64, or an x86-64 one under qemu-x86_64, with the
   EDAN plugin and prints the report of `edan analyze`, or (RISC-V) writes a
   text or binary trace.

   The plugin's options travel in a file of NUL-terminated arguments (QEMU
   plugin arguments cannot contain commas); the plugin answers through files
   in the same private temporary directory: `report`, `error`, `notes`. */
#define _GNU_SOURCE     /* syscall(SYS_pidfd_open) */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/personality.h>
#include <time.h>
#include "../cmd/cli.h"
#include "../common/files.h"

enum {
    TRACE_HELP = 1, TRACE_RANKS, TRACE_TEXT, TRACE_TEXT_PC, TRACE_BINARY, TRACE_ANALYZE, TRACE_OUTPUT,
    TRACE_ALL_RANKS, TRACE_QEMU, TRACE_PLUGIN, TRACE_SYSROOT, TRACE_ASLR, TRACE_SAMPLE, TRACE_SKIP
};
/* The scope and run options (--func, --region, --exclude, --threads,
   --no-markers, --max-insns, --max-seconds) are rows of cli_scope_opts
   (tools/cmd/options.c), named here by id where --help lists them. */
static const opt_def trace_opts[] = {
    {NULL, NULL, 0,
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
     "table. A forked child is not traced; at an exec the analysis ends. A signal\n"
     "handler the program registered runs as its code (in the scope or not), on the\n"
     "interrupted code's registers, which its sigreturn gives back. The program runs\n"
     "without address randomisation (--aslr keeps it): the same numbers every run.\n"
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
     "\n"},
    {"-h|--help", NULL, TRACE_HELP, "this text"},
    {NULL, NULL, 0, "Scope (default: every instruction, from the dynamic loader to exit):"},
    CLI_SCOPE_ROW(CLI_SCOPE_FUNC),
    CLI_SCOPE_ROW(CLI_SCOPE_REGION),
    CLI_SCOPE_ROW(CLI_SCOPE_EXCLUDE),
    {"--ranks", "LIST", TRACE_RANKS,
     "under an MPI launcher (mpirun, mpiexec, srun): only these\n"
     "ranks are traced (e.g. 0,3-5); the others run plain"},
    CLI_SCOPE_ROW(CLI_SCOPE_THREADS),
    {"--aslr", NULL, TRACE_ASLR,
     "keep the address randomisation of the system: by default\n"
     "the program runs without it (as under setarch -R), so that\n"
     "its memory lands where it did in the last run and a cache\n"
     "model sees the same sets: the same numbers every run"},
    CLI_SCOPE_ROW(CLI_SCOPE_NO_MARKERS),
    {NULL, NULL, 0, "Output:"},
    {"--text", "FILE", TRACE_TEXT,
     "write a text trace instead of analysing; - is standard\n"
     "output. RISC-V: \"insn;0xaddr\" lines, the paper's format;\n"
     "x86-64: \"0xPC BYTES | Intel syntax | L8@0xADDR ...\"\n"
     "lines (README.md)"},
    {"--text-pc", NULL, TRACE_TEXT_PC,
     "with --text: lines \"0;0xPC;insn;0xaddr\" (the EDAN authors'\n"
     "tool's format with PCs: per-PC --top from the text trace)"},
    {"--binary", "FILE", TRACE_BINARY,
     "write a binary trace (README.md) instead of analysing;\n"
     "`edan analyze FILE` reads it; - is standard output"},
    {"--analyze", NULL, TRACE_ANALYZE, "analyse as well when --text or --binary is given"},
    {"-o|--output", "FILE", TRACE_OUTPUT,
     "write the report to FILE instead of standard output (-)\n"
     "Under an MPI launcher every output path needs %r (the\n"
     "rank; %h: the host): results/rank%r.json; rank 0 alone\n"
     "prints to the terminal, unless --all-ranks; `edan job`\n"
     "reports the whole job from the ranks' --json results"},
    {"--all-ranks", NULL, TRACE_ALL_RANKS, "under an MPI launcher: every rank prints to the terminal"},
    CLI_SCOPE_ROW(CLI_SCOPE_MAX_INSNS),
    CLI_SCOPE_ROW(CLI_SCOPE_MAX_SECONDS),
    {"--sample", "PERIOD:LENGTH", TRACE_SAMPLE,
     "analyse LENGTH instructions of the scope out of every\n"
     "PERIOD (10M:1M; k, M, G: 10^3, 10^6, 10^9); the rest runs\n"
     "without analysis callbacks. Each window starts with every\n"
     "writer forgotten; the report gives the windows and the\n"
     "whole run's W, bytes and lambda estimated, with a 95%\n"
     "interval; D is a lower bound (no chain crosses windows)"},
    {"--skip", "N", TRACE_SKIP,
     "start the analysis after N instructions of the scope\n"
     "(run without analysis callbacks until then)"},
    {NULL, NULL, 0, "Environment:"},
    {"--qemu", "PATH", TRACE_QEMU,
     "qemu-riscv64 or qemu-x86_64 to use (default: $EDAN_QEMU,\n"
     "else the one on PATH for the program's machine)"},
    {"--plugin", "PATH", TRACE_PLUGIN,
     "the plugin (default: $EDAN_PLUGIN, else the one built\n"
     "next to this edan); one built from other sources than\n"
     "this edan refuses to run"},
    {"--sysroot", "DIR", TRACE_SYSROOT,
     "library root for dynamically linked RISC-V programs\n"
     "(default /usr/riscv64-linux-gnu)"},
    {NULL, NULL, 0, ""},
};
#define TRACE_NOPTS (sizeof trace_opts / sizeof trace_opts[0])

typedef struct trace_args {
    char **plugin_args;         /* forwarded to the plugin */
    int nplugin;
    const char *text_path, *bin_path, *output, *qemu, *plugin, *sysroot;
    int analyze;
    const char *ranks;          /* --ranks LIST: only these ranks of a job are traced */
    int all_ranks;              /* --all-ranks: every rank prints to the terminal */
    int text_pc;                /* --text-pc */
    int scoped;                 /* --func or --region: nothing analysed is worth saying */
    int aslr;                   /* --aslr: the system's address randomisation kept */
    int dynamic_scope;          /* --region or --exclude: the scope follows calls and returns */
    int sampled;                /* --sample or --skip */
} trace_args;

/* What a run needs beside the options: found before it starts, or made for it. */
typedef struct trace_run {
    int prog;                   /* argv[prog]: the program as given */
    char *program, *qemu, *plugin;      /* found (malloc'd) */
    int dynamic, x86;           /* the program's kind */
    int analysing;              /* a report is made, not only traces */
    int to_stdout;              /* an output goes to standard output: the program's goes to standard error */
    int quiet_rank;             /* a rank of a job that prints nothing on the terminal */
    cli_job job;
    char *job_command, job_rank[24], job_size[24];
    char preload[PATH_MAX];     /* edan-preload.so beside the plugin, "" when there is none */
    char dir[PATH_MAX];         /* the private directory, "" until it exists */
    char args_path[PATH_MAX + 64], plugin_arg[2 * PATH_MAX + 128];
    int stdout_fd;              /* standard output handed to the plugin for a trace, -1: not */
    int status, killed;         /* qemu's wait status; killed at the end of the grace period */
    int aslr;                   /* the program runs with the system's address randomisation */
} trace_run;

/* A rank of an MPI job: every output path must name a file of its own
   (%r), then each is expanded (%r, %h) in t, a and the plugin's arguments.
   0, or a message and -1. */
static int trace_job_outputs(const cli_job *job, trace_args *t, cli_analysis *a)
{
    const char **paths[7];
    const char *names[7] = {"-o", "--text", "--binary", "--timeline", "--sweep", "--dot", "--layers"};
    int k, j;
    paths[0] = &t->output;
    paths[1] = &t->text_path;
    paths[2] = &t->bin_path;
    paths[3] = &a->cmd.timeline_path;
    paths[4] = &a->cmd.sweep_path;
    paths[5] = &a->cmd.dot_path;
    paths[6] = &a->cmd.layers_path;
    for (k = 0; k < 7; k++) {
        const char *p = *paths[k];
        char *x;
        if (!p) continue;
        if (job->size > 1 && (!strcmp(p, "-") ? k > 0 : !cli_job_per_rank(p))) {
            const char *dot = strrchr(p, '.'), *slash = strrchr(p, '/');
            if (!strcmp(p, "-"))
                opt_err("edan trace", "rank %ld of a job of %ld ranks (%s=%ld): %s - would mix every rank's "
                        "trace on standard output: give a file with %%r (the rank) in its name", job->rank,
                        job->size, job->size_var, job->size, names[k]);
            else
                opt_err("edan trace", "rank %ld of a job of %ld ranks (%s=%ld): %s %s would be written by "
                        "every rank: put %%r (the rank) in its name, e.g. %.*s.%%r%s", job->rank, job->size,
                        job->size_var, job->size, names[k], p, (int)(dot && (!slash || dot > slash) ? dot - p
                                                                     : (long)strlen(p)), p,
                        dot && (!slash || dot > slash) ? dot : "");
            return -1;
        }
        if (!(x = cli_job_expand(job, p))) {
            opt_err("edan trace", "out of memory");
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
    case EM_386: return "x86 (32-bit)";
    case EM_ARM: return "ARM";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_RISCV: return "RISC-V";
    default: return "another architecture";
    }
}

/* Checks that path is a 64-bit little-endian RISC-V or x86-64 ELF
   executable (syms.c reads its header); sets *x86 for x86-64 and *dynamic
   when it has an interpreter (dynamically linked). */
static int trace_check_elf(const char *path, int *dynamic, int *x86)
{
    cli_elf_id id;
    int rc = cli_elf_ident(path, &id), ours = id.machine == EM_RISCV || id.machine == EM_X86_64;
    *dynamic = id.dynamic;
    *x86 = id.machine == EM_X86_64;
    if (rc == -1) return opt_err("edan trace", "%s: %s", path, strerror(errno));
    if (rc) return opt_err("edan trace", "%s is not an ELF executable (not a compiled RISC-V or x86-64 program)", path);
    if (!ours || !id.is64 || !id.little)
        return opt_err("edan trace", "%s is neither a 64-bit RISC-V nor an x86-64 program (ELF machine: %s%s); "
                       "compile it for this machine, or cross-compile it with riscv64-linux-gnu-gcc (make rv SRC=...)",
                       path, trace_machine_name(id.machine), ours ? ", 32-bit" : "");
    return 0;
}

/* Writes argv as NUL-terminated strings (files.h's writer); 0, or -1 with
   the reason in err. */
static int trace_write_args(const char *path, char **args, int n, char *err, size_t errlen)
{
    files_out o;
    int k;
    if (files_out_open(&o, path, err, errlen)) return -1;
    for (k = 0; k < n; k++) fwrite(args[k], 1, strlen(args[k]) + 1, o.f);
    return files_out_close(&o, err, errlen);
}

/* dir/name, NUL-terminated (files_read_all), or NULL when the plugin did not write it. */
static char *trace_slurp(const char *dir, const char *name, size_t *len)
{
    char path[PATH_MAX + 64], err[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return files_read_all(path, CLI_MAX_REPORT_BYTES, len, err, sizeof err);
}

/* The number on the first line of a file the plugin wrote ("count",
   "partial"); 0 when there is none. */
static uint64_t trace_first_number(const char *text)
{
    char line[32];
    size_t len = strcspn(text, "\n");
    uint64_t v;
    if (len >= sizeof line) return 0;
    memcpy(line, text, len);
    line[len] = 0;
    return opt_u64(line, 0, UINT64_MAX, &v) ? 0 : v;
}

/* The run's directory (made by mkdtemp, ours alone) and the files the
   plugin left in it, a temporary file of a write it did not finish too. */
static void trace_cleanup(const char *dir)
{
    char path[PATH_MAX + 300];
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

/* Writes the report to `output` (NULL or - : standard output), as files.h says. */
static int trace_emit_report(const char *report, size_t len, const char *output)
{
    files_out o;
    char err[512];
    if (files_out_open(&o, output ? output : "-", err, sizeof err)) {
        opt_err("edan trace", "cannot write %s", err);
        return -1;
    }
    if (fwrite(report, 1, len, o.f) != len) {
        int e = errno;
        files_out_discard(&o);
        opt_err("edan trace", "cannot write %s: %s", output ? output : "the report to standard output",
                strerror(e));
        return -1;
    }
    if (files_out_close(&o, err, sizeof err)) {
        opt_err("edan trace", "cannot write %s", err);
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

/* ---- the options ------------------------------------------------------------ */

/* The first spelling of trace option `id`, as the plugin takes it. */
static const char *trace_name(int id)
{
    size_t k;
    if (*cli_scope_name(id)) return cli_scope_name(id);
    for (k = 0; k < TRACE_NOPTS; k++)
        if (trace_opts[k].id == id) return trace_opts[k].name;
    return "";
}

/* The value of one of edan trace's own options, checked before anything
   runs (arg: the option as given): 0, or -1 with a message. */
static int trace_check_value(int id, const char *arg, const char *val)
{
    uint32_t lohi[32][2];
    const char *why;
    double d;
    int len = (int)strcspn(arg, "=");
    if (!*val) return opt_err("edan trace", "%.*s '': an empty value (see edan trace --help)", len, arg);
    if ((id == CLI_SCOPE_THREADS || id == TRACE_RANKS) && cli_parse_threads(val, lohi, 32, &why) < 0)
        return opt_err("edan trace", "%.*s '%s': %s", len, arg, val, why);
    if (id == TRACE_SAMPLE || id == TRACE_SKIP) {
        uint64_t p, l;
        if (id == TRACE_SKIP ? cli_parse_count(val, &p) : cli_parse_sample(val, &p, &l, &why))
            return opt_err("edan trace", "%.*s '%s': %s", len, arg, val,
                           id == TRACE_SKIP ? "a positive whole number of instructions (k, M, G: 10^3, 10^6, 10^9)"
                                            : why);
    }
    if ((id == CLI_SCOPE_MAX_INSNS || id == CLI_SCOPE_MAX_SECONDS) &&
        (opt_double(val, 0, 1, 1e18, &d) || (id == CLI_SCOPE_MAX_INSNS && d != (double)(unsigned long long)d)))
        return opt_err("edan trace", "%.*s '%s': a positive %s", len, arg, val,
                       id == CLI_SCOPE_MAX_INSNS ? "whole number of instructions" : "number of seconds");
    return 0;
}

/* One of edan trace's own options: 0, or -1 with a message. */
static int trace_own_option(trace_args *t, int id, const char *arg, const char *val)
{
    if (val && trace_check_value(id, arg, val)) return -1;
    switch (id) {
    case TRACE_ANALYZE: t->analyze = 1; break;
    case TRACE_ALL_RANKS: t->all_ranks = 1; break;
    case TRACE_TEXT: t->text_path = val; break;
    case TRACE_BINARY: t->bin_path = val; break;
    case TRACE_OUTPUT: t->output = val; break;
    case TRACE_QEMU: t->qemu = val; break;
    case TRACE_PLUGIN: t->plugin = val; break;
    case TRACE_SYSROOT: t->sysroot = val; break;
    case TRACE_RANKS: t->ranks = val; break;
    default:        /* the plugin's: the scope, the threads, the limits, the markers, --text-pc */
        if (id == TRACE_TEXT_PC) t->text_pc = 1;
        if (id == TRACE_ASLR) t->aslr = 1;
        if (id == CLI_SCOPE_FUNC || id == CLI_SCOPE_REGION) t->scoped = 1;
        if (id == CLI_SCOPE_REGION || id == CLI_SCOPE_EXCLUDE) t->dynamic_scope = 1;
        if (id == TRACE_SAMPLE || id == TRACE_SKIP) t->sampled = 1;
        trace_push(t, trace_name(id));
        if (val) trace_push(t, val);
    }
    return 0;
}

/* The options, up to "--" or the program, whose index goes to *prog: 0;
   1 when --help was printed; -1 (a message printed) when they are wrong.
   The analysis options go to the plugin as they were given. */
static int trace_options(trace_args *t, cli_analysis *a, int argc, char **argv, int *prog)
{
    opt_def own[TRACE_NOPTS], tab[TRACE_NOPTS + CLI_ANALYSIS_ROOM];
    size_t n = cli_scope_rows(own, TRACE_NOPTS, trace_opts, TRACE_NOPTS, 0);
    n = opt_cat(tab, sizeof tab / sizeof tab[0], own, n, cli_analysis_opts, cli_analysis_nopts);
    const char *val;
    int i = 1, k, start;
    cli_analysis_init(a);
    *prog = -1;
    while ((k = cli_next_before_program("edan trace", tab, n, argc, argv, &i, &start, &val, prog)) != OPT_END) {
        if (k == OPT_ERROR) return -1;
        if (k == TRACE_HELP) {
            opt_help(stdout, tab, n);
            return 1;
        }
        if (k < CLI_ANALYSIS_ID) {
            if (trace_own_option(t, k, argv[start], val)) return -1;
        } else {
            if (cli_analysis_apply(a, k, val)) return -1;
            while (start < i) trace_push(t, argv[start++]);
        }
    }
    if (*prog < 0 || *prog >= argc)
        return opt_err("edan trace", "no program given (edan trace [options] -- PROGRAM ARGS; see edan trace --help)");
    return 0;
}

/* A rank of an MPI job: outputs of its own, the job told to the plugin.
   0, or -1 with a message. */
static int trace_job(trace_run *r, trace_args *t, cli_analysis *a, int argc, char **argv)
{
    char jerr[300];
    size_t len = 0;
    int k;
    if (cli_job_detect(&r->job, jerr, sizeof jerr)) return opt_err("edan trace", "%s", jerr);
    if (trace_job_outputs(&r->job, t, a)) return -1;
    for (k = 1; k < argc; k++) len += strlen(argv[k]) + 1;
    if (r->job.var && (r->job_command = (char *)malloc(len + 1))) {
        r->job_command[0] = 0;
        for (k = 1; k < argc; k++) {
            strcat(r->job_command, argv[k]);
            if (k + 1 < argc) strcat(r->job_command, " ");
        }
        snprintf(r->job_rank, sizeof r->job_rank, "%ld", r->job.rank);
        snprintf(r->job_size, sizeof r->job_size, "%ld", r->job.size);
        trace_push(t, "--job");
        trace_push(t, r->job_rank);
        trace_push(t, r->job_size);
        trace_push(t, r->job.host);
        trace_push(t, r->job.var);
        trace_push(t, r->job_command);
    }
    r->quiet_rank = r->job.size > 1 && r->job.rank != 0 && !t->all_ranks;
    return 0;
}

/* No output may destroy an input or share a file (or standard output)
   with another; the plugin's standard output is the program's, so its own
   outputs need files. 0, or -1 with a message. */
static int trace_check_roles(const trace_args *t, const cli_analysis *a, const char *program)
{
    int analysing = t->analyze || (!t->text_path && !t->bin_path);
    const files_role out[] = {{analysing ? (t->output ? t->output : "-") : NULL, t->output ? "-o" : "the report"},
                              {t->text_path, "--text"}, {t->bin_path, "--binary"},
                              {a->cmd.timeline_path, "--timeline"}, {a->cmd.sweep_path, "--sweep"},
                              {a->cmd.dot_path, "--dot"}, {a->cmd.layers_path, "--layers"}};
    char *found = trace_which(program);
    const files_role in[] = {{found ? found : program, "the program"}, {a->cmd.profile_path, "the profile"},
                             {a->cmd.elf_path, "--elf"}};
    const char *std = a->cmd.timeline_path && !strcmp(a->cmd.timeline_path, "-") ? "--timeline"
                      : a->cmd.sweep_path && !strcmp(a->cmd.sweep_path, "-") ? "--sweep"
                      : a->cmd.dot_path && !strcmp(a->cmd.dot_path, "-") ? "--dot"
                      : a->cmd.layers_path && !strcmp(a->cmd.layers_path, "-") ? "--layers" : NULL;
    char err[600];
    int rc = 0;
    if (std)
        rc = opt_err("edan trace", "%s -: give a file (standard output carries the report, a trace or the program's "
                     "output)", std);
    else if (files_check_roles(out, sizeof out / sizeof out[0], in, sizeof in / sizeof in[0], err, sizeof err))
        rc = opt_err("edan trace", "%s", err);
    free(found);
    return rc;
}

/* Before the program runs: the outputs can be written and the analysis
   takes its options. 0, or -1 with a message. */
static int trace_check(trace_run *r, const trace_args *t, cli_analysis *a, char **argv)
{
    cli_analysis_pick_profile(a);
    if (trace_check_roles(t, a, argv[r->prog]) || cli_analysis_finish(a)) return -1;
    if (t->text_pc && !t->text_path)
        return opt_err("edan trace", "--text-pc changes the lines of --text FILE, which is not given");
    if (t->sampled && (t->text_path || t->bin_path))
        return opt_err("edan trace", "--sample and --skip analyse online: they write no trace (--text, --binary)");
    if (t->sampled && t->dynamic_scope)
        return opt_err("edan trace", "--sample and --skip take --func or the whole program: --region and --exclude "
                       "follow calls and returns, which the stretches without analysis do not watch");
    r->analysing = t->analyze || (!t->text_path && !t->bin_path);
    r->to_stdout = (r->analysing && (!t->output || !strcmp(t->output, "-"))) +
                   (t->text_path && !strcmp(t->text_path, "-")) + (t->bin_path && !strcmp(t->bin_path, "-"));
    if ((t->output && strcmp(t->output, "-") && cli_output_check(t->output)) ||
        (t->text_path && strcmp(t->text_path, "-") && cli_output_check(t->text_path)) ||
        (t->bin_path && strcmp(t->bin_path, "-") && cli_output_check(t->bin_path)))
        return -1;
    if (r->analysing) {
        edan_context *probe_ctx = NULL;
        edan_result res = edan_create(&probe_ctx, &a->opts);
        if (res != EDAN_OK)
            opt_err("edan trace", "%s", probe_ctx ? edan_error(probe_ctx) : edan_result_string(res));
        edan_destroy(probe_ctx);
        if (res != EDAN_OK) return -1;
    }
    return 0;
}

/* ---- the program, qemu and the plugin ------------------------------------------ */

/* The program: found, executable, a RISC-V or x86-64 ELF, its libraries
   there. 0, or -1 with a message. */
static int trace_find_program(trace_run *r, trace_args *t, char **argv)
{
    const char *given = argv[r->prog];
    r->program = trace_which(given);
    if (!r->program && access(given, F_OK) == 0) r->program = strdup(given);
    if (!r->program)
        return opt_err("edan trace", "%s: no such program%s", given,
                       strstr(given, "build/examples/") ? " (`make examples` builds the example kernels)" : "");
    if (access(r->program, X_OK) != 0)
        return opt_err("edan trace", "%s is not executable (chmod +x %s)", r->program, r->program);
    if (trace_check_elf(r->program, &r->dynamic, &r->x86)) return -1;
    if (r->x86 && t->text_pc)
        return opt_err("edan trace", "--text-pc is a RISC-V text form; %s is an x86-64 program, whose text trace "
                       "lines always begin with the pc", r->program);
    if (r->x86) r->dynamic = 0;     /* the host's own libraries: no sysroot */
    if (r->dynamic && !t->sysroot) t->sysroot = "/usr/riscv64-linux-gnu";
    if (r->dynamic) {
        char ld[PATH_MAX];
        struct stat sb;
        snprintf(ld, sizeof ld, "%s/lib", t->sysroot);
        if (stat(ld, &sb) != 0)
            return opt_err("edan trace", "%s is dynamically linked and %s has no RISC-V libraries; install Debian's "
                           "libc6-riscv64-cross, pass --sysroot DIR, or link it with -static", r->program, t->sysroot);
    }
    return 0;
}

/* qemu for the program's machine. 0, or -1 with a message. */
static int trace_find_qemu(trace_run *r, const trace_args *t)
{
    const char *env = getenv("EDAN_QEMU");
    const char *want = t->qemu ? t->qemu : env && *env ? env : r->x86 ? "qemu-x86_64" : "qemu-riscv64";
    if ((r->qemu = trace_which(want))) return 0;
    return opt_err("edan trace", "%s not found: install Debian's qemu-user package (apt-get install qemu-user; "
                   "qemu-user-static has no plugin support), or set EDAN_QEMU", want);
}

/* A rank --ranks leaves out: the program runs plain (RISC-V: under qemu,
   no plugin). Returns only when it cannot: the exit status. */
static int trace_run_plain(const trace_run *r, const trace_args *t, int argc, char **argv)
{
    char **plain = (char **)calloc((size_t)(argc - r->prog) + 8, sizeof(char *));
    int n = 0, i;
    if (!plain) return 2;
    if (!r->x86) {
        plain[n++] = r->qemu;
        if (r->dynamic) { plain[n++] = (char *)"-L"; plain[n++] = (char *)t->sysroot; }
    }
    plain[n++] = r->program;
    for (i = r->prog + 1; i < argc; i++) plain[n++] = argv[i];
    plain[n] = NULL;
    fflush(NULL);
    execv(plain[0], plain);
    opt_err("edan trace", "cannot run %s: %s", plain[0], strerror(errno));
    free(plain);
    return 127;
}

/* The plugin, and edan-preload.so beside it (a program that a signal
   kills still gets its report). 0, or -1 with a message. */
static int trace_find_plugin_files(trace_run *r, const trace_args *t)
{
    const char *slash;
    r->plugin = t->plugin ? strdup(t->plugin) : trace_find_plugin();
    if (!r->plugin || access(r->plugin, R_OK) != 0)
        return opt_err("edan trace", "the EDAN QEMU plugin %s was not found (run make, or set EDAN_PLUGIN)",
                       r->plugin ? r->plugin : "edan-plugin.so");
    if (strchr(r->plugin, ','))
        return opt_err("edan trace", "the plugin path %s contains a comma, which QEMU cannot take", r->plugin);
    slash = strrchr(r->plugin, '/');
    snprintf(r->preload, sizeof r->preload, "%.*sedan-preload.so", slash ? (int)(slash - r->plugin + 1) : 0, r->plugin);
    if (access(r->preload, R_OK) != 0 || strchr(r->preload, ':') || strchr(r->preload, ' ')) r->preload[0] = 0;
    return 0;
}

/* A signal to edan ends the run with a partial report (trace_signal); a
   closed pipe is a write error; an ignored SIGHUP (nohup) stays ignored. Set before the temporary directory
   exists, so that it is removed whatever comes. */
static void trace_catch_signals(void)
{
    struct sigaction sa;
    size_t k;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = trace_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (k = 0; k < sizeof trace_stop_signals / sizeof trace_stop_signals[0]; k++) {
        struct sigaction old;
        /* nohup's SIGHUP stays ignored: a long run outlives its terminal */
        if (trace_stop_signals[k] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(trace_stop_signals[k], &sa, NULL);
    }
    signal(SIGPIPE, SIG_IGN);
}

/* The private directory for the plugin's arguments and answers, and the
   arguments written there. 0, or -1 with a message. */
static int trace_plugin_args(trace_run *r, trace_args *t, char **argv)
{
    const char *tmpdir = getenv("TMPDIR");
    char err[PATH_MAX + 128];
    if (tmpdir && *tmpdir && !strchr(tmpdir, ',') && strlen(tmpdir) < sizeof r->dir - 32)
        snprintf(r->dir, sizeof r->dir, "%s/edan-trace.XXXXXX", tmpdir);
    else
        snprintf(r->dir, sizeof r->dir, "/tmp/edan-trace.XXXXXX");
    if (!mkdtemp(r->dir)) {
        r->dir[0] = 0;
        return opt_err("edan trace", "cannot create a temporary directory: %s", strerror(errno));
    }
    snprintf(trace_stop_path, sizeof trace_stop_path, "%s/stop", r->dir);
    if (trace_stop_sig) {       /* a signal came before: the run ends as soon as it starts */
        FILE *sf = fopen(trace_stop_path, "w");
        if (sf) { fprintf(sf, "%d\n", (int)trace_stop_sig); fclose(sf); }
    }
    {
        static char sum[16];
        snprintf(sum, sizeof sum, "%u", (unsigned)EDAN_ENGINE_SUM);
        trace_push(t, "--engine");
        trace_push(t, sum);
    }
    trace_push(t, "--dir");
    trace_push(t, r->dir);
    trace_push(t, "--program");
    trace_push(t, r->program);
    trace_push(t, "--source");
    trace_push(t, argv[r->prog]);
    if (t->text_path) { trace_push(t, "--text"); trace_push(t, t->text_path); }
    if (t->bin_path) { trace_push(t, "--binary"); trace_push(t, t->bin_path); }
    if (t->analyze) trace_push(t, "--analyze");
    if ((t->text_path && !strcmp(t->text_path, "-")) || (t->bin_path && !strcmp(t->bin_path, "-"))) {
        /* the trace goes to our standard output, handed to the plugin as a descriptor of its own */
        static char fdbuf[16];
        r->stdout_fd = fcntl(1, F_DUPFD, 10);
        if (r->stdout_fd < 0) return opt_err("edan trace", "standard output: %s", strerror(errno));
        snprintf(fdbuf, sizeof fdbuf, "%d", r->stdout_fd);
        trace_push(t, "--stdout-fd");
        trace_push(t, fdbuf);
    }
    snprintf(r->args_path, sizeof r->args_path, "%s/args", r->dir);
    if (trace_write_args(r->args_path, t->plugin_args, t->nplugin, err, sizeof err))
        return opt_err("edan trace", "cannot write %s", err);
    snprintf(r->plugin_arg, sizeof r->plugin_arg, "%s,args=%s", r->plugin, r->args_path);
    return 0;
}

/* ---- running qemu ------------------------------------------------------------- */

/* qemu's command line: the sysroot, the environment, the plugin, then the
   program and its arguments. NULL when out of memory. */
static char **trace_qemu_argv(const trace_run *r, const trace_args *t, int argc, char **argv)
{
    char **q = (char **)calloc((size_t)(argc - r->prog) + 12, sizeof(char *));
    int k = 0, i;
    if (!q) return NULL;
    q[k++] = r->qemu;
    if (r->dynamic) { q[k++] = (char *)"-L"; q[k++] = (char *)t->sysroot; }
    /* x86-64: the dynamic loader binds every symbol at start, not lazily
       through its resolver, which saves the register state (xsave) in the
       middle of the analysed code */
    if (r->x86) { q[k++] = (char *)"-E"; q[k++] = (char *)"LD_BIND_NOW=1"; }
    if (r->preload[0]) {        /* the program keeps its own LD_PRELOAD, or none */
        static char keep[PATH_MAX + 16];
        const char *old = getenv("LD_PRELOAD");
        if (old && *old) {
            snprintf(keep, sizeof keep, "LD_PRELOAD=%s", old);
            q[k++] = (char *)"-E";
            q[k++] = keep;
        } else {
            q[k++] = (char *)"-U";
            q[k++] = (char *)"LD_PRELOAD";
        }
    }
    q[k++] = (char *)"-plugin";
    q[k++] = (char *)r->plugin_arg;
    q[k++] = r->program;
    for (i = r->prog + 1; i < argc; i++) q[k++] = argv[i];
    q[k] = NULL;
    return q;
}

/* Starts qemu: its pid, or -1 with a message. */
static pid_t trace_start(const trace_run *r, char **qargv)
{
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        opt_err("edan trace", "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        /* edan killed outright (SIGKILL): qemu goes too, whatever the program ignores */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1) _exit(127);     /* edan went before the line above */
        if (r->to_stdout && dup2(2, 1) < 0) _exit(127);
        /* the same addresses in every run (setarch -R): QEMU maps the program's memory with the
           system's mmap, whose randomisation would move large allocations across cache sets */
        if (!r->aslr) {
            int pers = personality(0xffffffff);
            if (pers != -1) personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
        }
        if (r->preload[0]) {        /* for qemu only: the program's environment is given back by -U or -E */
            const char *old = getenv("LD_PRELOAD");
            static char both[2 * PATH_MAX + 2];
            snprintf(both, sizeof both, "%s%s%s", r->preload, old && *old ? ":" : "", old && *old ? old : "");
            setenv("LD_PRELOAD", both, 1);
        }
        execv(r->qemu, qargv);
        opt_err("edan trace", "cannot run %s: %s", r->qemu, strerror(errno));
        _exit(127);
    }
    trace_child = pid;
    if (trace_pending_sig) kill(pid, trace_pending_sig);
    return pid;
}

/* Waits for qemu. After a signal the run has 5 s to start ending (the
   plugin then writes its file "ending") and as long as it needs to write
   the report of what ran (its size does not grow with the run); a second
   signal, or 5 s without a start, kills qemu. The wait never blocks for
   more than 0.1 s, so that a signal that comes between a look at
   trace_signals and the wait is acted on: pidfd and poll when the kernel
   has them, else naps. 0, or -1 with a message. */
static int trace_wait(trace_run *r, pid_t pid)
{
    double deadline = 0;
    int said = 0, pidfd = -1;
#ifdef SYS_pidfd_open
    pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
    for (;;) {
        pid_t w = waitpid(pid, &r->status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            if (pidfd >= 0) close(pidfd);
            return opt_err("edan trace", "waitpid: %s", strerror(errno));
        }
        if (trace_signals && !r->killed) {
            char ending[PATH_MAX + 16];
            snprintf(ending, sizeof ending, "%s/ending", r->dir);
            if (!deadline) deadline = cli_now() + 5.0;
            if (access(ending, F_OK) == 0) {
                if (!said && r->analysing && !r->quiet_rank)
                    opt_err("edan trace", "stopping: writing the report of what ran (a second signal kills the run)");
                said = 1;
            } else if (cli_now() > deadline) {
                kill(pid, SIGKILL);
                r->killed = 1;
            }
        }
        if (pidfd >= 0) {
            struct pollfd pf = {pidfd, POLLIN, 0};
            (void)poll(&pf, 1, trace_signals ? 50 : 100);     /* a signal ends it early (EINTR) */
        } else {
            struct timespec nap = {0, 20000000L};
            nanosleep(&nap, NULL);
        }
    }
    if (pidfd >= 0) close(pidfd);
    trace_child = 0;
    return 0;
}

/* ---- the outputs and the report ------------------------------------------------- */

/* "edan trace: " and what the plugin wrote (its lines end with a newline). */
static void trace_say(char *text)
{
    size_t len = strlen(text);
    if (len && text[len - 1] == '\n') text[len - 1] = 0;
    opt_err("edan trace", "%s", text);
}

/* qemu died of signal sig: the traces the plugin could not finish are
   removed and said, and why the report covers part or is missing. */
static void trace_died(const trace_run *r, const trace_args *t, char **argv, int sig, int partial, int reported)
{
    /* the plugin had no chance to finish its files: remove its temporaries */
    char *tmps = trace_slurp(r->dir, "outputs", NULL), *line, *save = NULL;
    const char *given = argv[r->prog];
    for (line = tmps ? strtok_r(tmps, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
        if (unlink(line) == 0)
            opt_err("edan trace", "%s was not written: the program did not exit",
                    t->text_path && strstr(line, t->text_path) == line ? t->text_path
                    : t->bin_path                                       ? t->bin_path
                                                                        : line);
    free(tmps);
    if (r->killed)
        opt_err("edan trace", "%s did not start to end within 5 s of signal %d (%s) and was killed; no report", given,
                (int)trace_stop_sig, strsignal(trace_stop_sig));
    else
        opt_err("edan trace", "%s %s by signal %d (%s)%s", given, partial == 3 ? "crashed: killed" : "was stopped", sig,
                strsignal(sig), reported || !r->analysing ? "; the report covers what ran before" : "; no report");
    if (r->x86 && sig == SIGILL)
        opt_err("edan trace", "note: QEMU 7.2 runs x86-64 code up to AVX2; a program built for AVX-512 (-mavx512f, "
                "or -march=native on such a machine) gets this signal at its first AVX-512 instruction: build it "
                "with -march=x86-64-v3 or older");
}

/* How many instructions the traces got (the plugin's "count"), said;
   for --func/--region, none is a failure (exit 1). rc: the status so far. */
static int trace_counts(const trace_run *r, const trace_args *t, int rc)
{
    char *text = trace_slurp(r->dir, "count", NULL);
    uint64_t count = text ? trace_first_number(text) : 0;
    if (text && (t->text_path || t->bin_path) && !r->quiet_rank) {
#define TRACE_NAME(p) (!strcmp((p), "-") ? "standard output" : (p))
        opt_err("edan trace", "%llu instructions written to %s%s%s", (unsigned long long)count,
                TRACE_NAME(t->text_path ? t->text_path : t->bin_path), t->text_path && t->bin_path ? " and " : "",
                t->text_path && t->bin_path ? TRACE_NAME(t->bin_path) : "");
#undef TRACE_NAME
    }
    if (text && t->sampled && WIFEXITED(r->status) && count == 0) {
        opt_err("edan trace", "nothing was analysed: the run ended before --skip's instructions of the scope had run "
                "(the report is empty)");
        if (rc == 0) rc = 1;
    } else if (text && t->scoped && WIFEXITED(r->status) && count == 0) {
        opt_err("edan trace", "nothing was analysed: the program never ran the code of --func/--region (the report "
                "is empty)");
        if (rc == 0) rc = 1;
    }
    free(text);
    return rc;
}

/* After the run: the plugin's error or notes, what the program's end
   means, the traces' counts, the report. The exit status. */
static int trace_collect(trace_run *r, const trace_args *t, char **argv)
{
    char *err = trace_slurp(r->dir, "error", NULL), *notes, *report, *p;
    size_t report_len = 0;
    int partial = 0, unfollowed = 0, rc = 2;
    if (err) {
        trace_say(err);
        free(err);
        return 2;
    }
    if ((notes = trace_slurp(r->dir, "notes", NULL)) && !r->quiet_rank) trace_say(notes);
    free(notes);
    report = trace_slurp(r->dir, "report", &report_len);
    /* the run ended early: 1 stopped, 2 a limit, 3 a crash (the plugin's "partial" file) */
    if ((p = trace_slurp(r->dir, "partial", NULL))) partial = (int)trace_first_number(p);
    free(p);
    /* the plugin could not follow the program where the scope's end depends on it */
    if ((p = trace_slurp(r->dir, "unfollowed", NULL))) unfollowed = 1;
    free(p);
    if (WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGPIPE && r->stdout_fd >= 0) {
        /* the trace went to our standard output, and nobody read it */
        opt_err("edan trace", "cannot write the trace to standard output: %s (the program was stopped)",
                strerror(EPIPE));
        free(report);
        return 2;
    }
    if (WIFSIGNALED(r->status)) {
        trace_died(r, t, argv, WTERMSIG(r->status), partial, report != NULL);
        rc = partial == 1 ? 1 : 128 + WTERMSIG(r->status);      /* stopped by a signal: 1, as a stop request is */
    } else if (WIFEXITED(r->status)) {
        rc = WEXITSTATUS(r->status);
        if (partial == 1) rc = 1;       /* stopped at a signal to edan: the run is not whole */
        if (!report && r->analysing && rc != 0)
            opt_err("edan trace", "%s under %s exited with status %d before the analysis ended", argv[r->prog],
                    r->qemu, rc);
    }
    if (unfollowed && rc == 0) rc = 1;
    rc = trace_counts(r, t, rc);
    trace_cleanup(r->dir);
    r->dir[0] = 0;
    if (report) {
        /* rank 0 alone prints to the terminal (--all-ranks: every rank) */
        if (!(r->quiet_rank && (!t->output || !strcmp(t->output, "-"))) &&
            trace_emit_report(report, report_len, t->output) && rc < 2)
            rc = 2;
        free(report);
    } else if (r->analysing && rc == 0) {
        opt_err("edan trace", "the plugin produced no report");
        rc = 2;
    }
    return rc;
}

/* Runs the program under qemu with the plugin: the options, the job, the
   checks, finding the tools, the plugin's arguments, the run, its outputs. */
int edan_cmd_trace(int argc, char **argv)
{
    cli_analysis a;
    trace_args t;
    trace_run r;
    char **qargv = NULL;
    pid_t pid;
    int rc = 2;
    memset(&t, 0, sizeof t);
    memset(&r, 0, sizeof r);
    r.stdout_fd = -1;
    t.plugin_args = (char **)calloc((size_t)argc * 2 + 32, sizeof(char *));
    if (!t.plugin_args) return opt_err("edan trace", "out of memory"), 2;
    if ((rc = trace_options(&t, &a, argc, argv, &r.prog)) != 0) {
        free(t.plugin_args);
        return rc < 0 ? 2 : 0;
    }
    rc = 2;
    if (trace_job(&r, &t, &a, argc, argv) || trace_check(&r, &t, &a, argv) || trace_find_program(&r, &t, argv) ||
        trace_find_qemu(&r, &t))
        goto out;
    if (!trace_rank_listed(t.ranks, r.job.rank)) {
        rc = trace_run_plain(&r, &t, argc, argv);
        goto out;
    }
    if (trace_find_plugin_files(&r, &t)) goto out;
    trace_catch_signals();
    if (trace_plugin_args(&r, &t, argv) || !(qargv = trace_qemu_argv(&r, &t, argc, argv))) goto out;
    r.aslr = t.aslr;
    pid = trace_start(&r, qargv);
    if (r.stdout_fd >= 0) close(r.stdout_fd);
    if (pid < 0 || trace_wait(&r, pid)) goto out;
    rc = trace_collect(&r, &t, argv);
out:
    if (r.dir[0]) trace_cleanup(r.dir);
    free(r.job_command);
    free(qargv);
    free(r.qemu);
    free(r.plugin);
    free(r.program);
    free(t.plugin_args);
    return rc;
}
