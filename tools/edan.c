/* tools/edan.c - the `edan` command: dispatches to its subcommands. */
#define EDAN_IMPLEMENTATION
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "roofline.h"


static const char usage[] =
    "usage: edan COMMAND [options]\n"
    "\n"
    "Commands:\n"
    "  analyze TRACE          eDAG memory-latency metrics of an instruction trace\n"
    "  trace -- PROG ARGS     run a RISC-V program under QEMU and analyse it online\n"
    "  rank RESULT.json...    rank applications by latency sensitivity (lambda, Lambda)\n"
    "  roofline PROFILE       draw the CARM and LARM roofline charts of a probe profile (SVG)\n"
    "  plot RESULT.json...    draw data movement over time (SVG)\n"
    "\n"
    "`edan COMMAND --help` describes a command. Version %d.%d.\n";

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        printf(usage, EDAN_VERSION_MAJOR, EDAN_VERSION_MINOR);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("edan %d.%d\n", EDAN_VERSION_MAJOR, EDAN_VERSION_MINOR);
        return 0;
    }
    if (!strcmp(argv[1], "analyze")) return edan_cmd_analyze(argc - 1, argv + 1);
    if (!strcmp(argv[1], "trace")) return edan_cmd_trace(argc - 1, argv + 1);
    if (!strcmp(argv[1], "rank")) return edan_cmd_rank(argc - 1, argv + 1);
    if (!strcmp(argv[1], "roofline")) return edan_cmd_roofline(argc - 1, argv + 1);
    if (!strcmp(argv[1], "plot")) return edan_cmd_plot(argc - 1, argv + 1);
    fprintf(stderr, "edan: unknown command '%s'\n\n", argv[1]);
    fprintf(stderr, usage, EDAN_VERSION_MAJOR, EDAN_VERSION_MINOR);
    return 2;
}
