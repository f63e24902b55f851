/* tools/cmd/edan.c - the `edan` command: dispatches to its subcommands. */
#define _POSIX_C_SOURCE 200809L
#define EDAN_IMPLEMENTATION
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../report/roofline.h"
#include "../common/opt.h"


static const char usage[] =
    "usage: edan COMMAND [options]\n"
    "\n"
    "Commands:\n"
    "  analyze TRACE          eDAG memory-latency metrics of an instruction trace\n"
    "  trace -- PROG ARGS     run a RISC-V or x86-64 program under QEMU and analyse it online\n"
    "  rank RESULT.json...    rank applications by latency sensitivity (lambda, Lambda)\n"
    "  roofline PROFILE       draw the CARM and LARM roofline charts of a probe profile (SVG)\n"
    "  plot RESULT.json...    draw data movement over time (SVG)\n"
    "  job RESULT.json...     one report of an MPI job from its ranks' results\n"
    "  annotate -- PROG ARGS  the analysis per source line, beside the source\n"
    "\n"
    "Exit status, every command: 0 success; 1 the analysed program or a check failed\n"
    "(trace passes on the program's status); 2 a usage error, bad input, or an output\n"
    "that cannot be written.\n"
    "\n"
    "`edan COMMAND --help` describes a command. Version %d.%d.\n";

int main(int argc, char **argv)
{
    int rc;
    signal(SIGPIPE, SIG_IGN);       /* a closed pipe: a write error we report, not a silent death */
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        if (argc < 2) {
            fprintf(stderr, usage, EDAN_VERSION_MAJOR, EDAN_VERSION_MINOR);
            return 2;
        }
        printf(usage, EDAN_VERSION_MAJOR, EDAN_VERSION_MINOR);
        rc = 0;
    } else if (!strcmp(argv[1], "--version")) {
        printf("edan %d.%d\n", EDAN_VERSION_MAJOR, EDAN_VERSION_MINOR);
        rc = 0;
    } else if (!strcmp(argv[1], "analyze")) rc = edan_cmd_analyze(argc - 1, argv + 1);
    else if (!strcmp(argv[1], "trace")) rc = edan_cmd_trace(argc - 1, argv + 1);
    else if (!strcmp(argv[1], "rank")) rc = edan_cmd_rank(argc - 1, argv + 1);
    else if (!strcmp(argv[1], "roofline")) rc = edan_cmd_roofline(argc - 1, argv + 1);
    else if (!strcmp(argv[1], "plot")) rc = edan_cmd_plot(argc - 1, argv + 1);
    else if (!strcmp(argv[1], "job")) rc = edan_cmd_job(argc - 1, argv + 1);
    else if (!strcmp(argv[1], "annotate")) rc = edan_cmd_annotate(argc - 1, argv + 1);
    else {
        /* the commands, then the options a command's place also takes */
        static const char *const words[] = {"analyze", "trace", "rank", "roofline", "plot", "job", "annotate", "--help",
                                            "--version"};
        const char *near = suggest_word(argv[1], words, sizeof words / sizeof words[0]);
        char list[128] = "";
        size_t j;
        for (j = 0; words[j][0] != '-'; j++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s %s", j ? "," : "", words[j]);
        opt_err("edan", "unknown command '%s'%s%s%s (commands:%s; see edan --help)", argv[1],
                near ? "; did you mean " : "", near ? near : "", near ? "?" : "", list);
        return 2;
    }
    /* what went to standard output must have arrived: a full disk, a closed
       pipe or /dev/full is an error, not a success */
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        char who[64];
        int e = errno;
        snprintf(who, sizeof who, "edan%s%.40s", argv[1][0] == '-' ? "" : " ", argv[1][0] == '-' ? "" : argv[1]);
        opt_err(who, "cannot write to standard output: %s", strerror(e));
        if (rc == 0 || rc == 1) rc = 2;
    }
    return rc;
}
