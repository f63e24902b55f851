/* examples/embed.c - edan.h inside your own tool: reads a RISC-V text trace
   on standard input and prints W, D and lambda at m = 4, twice: without a
   cache and with a 32 KiB 8-way L1 (both in the same pass).
   Build: cc -O2 -I.. embed.c -o embed -lm      Run: ./embed < trace.txt */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include <stdio.h>
#include <string.h>

int main(void)
{
    edan_config cfg[2];
    edan_options opt;
    edan_context *ctx = NULL;
    edan_rv_parser *rv = NULL;
    edan_insn in;
    char line[4096];
    unsigned long long lineno = 0;
    uint32_t k;

    memset(cfg, 0, sizeof cfg);             /* zero = the paper's defaults */
    cfg[1].num_levels = 1;
    cfg[1].level[0].size = 32 * 1024;
    cfg[1].level[0].assoc = 8;
    cfg[1].level[0].line = 64;
    memset(&opt, 0, sizeof opt);
    opt.num_configs = 2;
    opt.configs = cfg;
    if (edan_rv_parser_create(&rv, NULL) != EDAN_OK || edan_create(&ctx, &opt) != EDAN_OK) {
        fprintf(stderr, "%s\n", ctx ? edan_error(ctx) : "out of memory");
        edan_destroy(ctx);          /* a failed context too: NULL, or one holding the message */
        edan_rv_parser_destroy(rv);
        return 1;
    }

    while (fgets(line, sizeof line, stdin)) {
        edan_result r = edan_rv_parse_line(rv, line, strlen(line), &in);
        lineno++;
        if (r == EDAN_SKIP) continue;
        if (r != EDAN_OK || edan_feed(ctx, &in) != EDAN_OK) {
            fprintf(stderr, "<stdin>:%llu: %s\n", lineno, r != EDAN_OK ? edan_rv_error(rv) : edan_error(ctx));
            edan_destroy(ctx);
            edan_rv_parser_destroy(rv);
            return 2;
        }
    }
    for (k = 0; k < 2; k++) {
        edan_metrics m;
        edan_bounds b;
        edan_get_metrics(ctx, k, &m);
        edan_get_bounds(ctx, k, 4, &b);
        printf("%s: W=%llu D=%llu lambda(4)=%.4f\n", k ? "L1 32K" : "no cache", (unsigned long long)m.W,
               (unsigned long long)m.D, b.lambda);
    }
    edan_destroy(ctx);
    edan_rv_parser_destroy(rv);
    return 0;
}
