/* tests/bench/bench_trace_decode.c - reading a trace without analysing it: the
   binary decoder (tools/front/bintrace.h) against the text parser
   (edan_rv_parse_line) on traces of the same run. Built and run by
   tests/bench/bench_trace.sh. Usage: bench_trace_decode TEXT BINARY
   Prints the wall time and rate of each, the median of 3 runs. */
#define _POSIX_C_SOURCE 200809L
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "tools/front/bintrace.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int sink_insn(void *user, const edan_insn *in, const char **msg)
{
    (void)msg;
    *(uint64_t *)user += in->addr + in->op;
    return 0;
}

static unsigned char buf[1 << 22];

static double read_binary(const char *path, unsigned long long *count)
{
    FILE *f = fopen(path, "rb");
    bintrace_reader r;
    size_t have = 0, used;
    uint64_t sink = 0;
    int rc = BINTRACE_OK;
    double t0 = now();
    if (!f) { perror(path); exit(2); }
    bintrace_reader_init(&r);
    for (;;) {
        size_t n = fread(buf + have, 1, sizeof buf - have, f);
        have += n;
        rc = bintrace_reader_decode(&r, buf, have, &used, sink_insn, &sink);
        if (rc != BINTRACE_OK) break;
        memmove(buf, buf + used, have - used);
        have -= used;
        if (!n) break;
    }
    fclose(f);
    if (rc != BINTRACE_EOF) { fprintf(stderr, "%s: %s\n", path, r.error); exit(2); }
    *count = r.count + (sink == 42);
    bintrace_reader_free(&r);
    return now() - t0;
}

/* Lines split in large buffers with memchr, as `edan analyze` does. */
static double read_text(const char *path, unsigned long long *count)
{
    FILE *f = fopen(path, "rb");
    edan_rv_parser *p = NULL;
    edan_insn in;
    edan_result r;
    uint64_t sink = 0;
    size_t have = 0;
    double t0 = now();
    if (!f) { perror(path); exit(2); }
    if (edan_rv_parser_create(&p, NULL) != EDAN_OK) exit(2);
    *count = 0;
    for (;;) {
        size_t n = fread(buf + have, 1, sizeof buf - have, f), pos = 0;
        have += n;
        for (;;) {
            unsigned char *nl = memchr(buf + pos, '\n', have - pos);
            size_t len;
            if (!nl) break;
            len = (size_t)(nl - (buf + pos)) + 1;
            r = edan_rv_parse_line(p, (const char *)buf + pos, len, &in);
            if (r != EDAN_OK && r != EDAN_SKIP) {   /* EDAN_SKIP: the #edan-trace header, a comment */
                fprintf(stderr, "%s: cannot parse: %.*s", path, (int)len, (const char *)buf + pos);
                exit(2);
            }
            if (r == EDAN_OK) {
                sink += in.addr + in.op;
                ++*count;
            }
            pos += len;
        }
        memmove(buf, buf + pos, have - pos);
        have -= pos;
        if (!n) break;
    }
    fclose(f);
    *count += sink == 42;
    return now() - t0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    double tt[3], tb[3];
    unsigned long long nt = 0, nb = 0;
    int i;
    if (argc != 3) { fprintf(stderr, "usage: %s TEXT BINARY\n", argv[0]); return 2; }
    for (i = 0; i < 3; i++) {   /* round-robin, like the rest of the benchmark */
        tt[i] = read_text(argv[1], &nt);
        tb[i] = read_binary(argv[2], &nb);
    }
    qsort(tt, 3, sizeof tt[0], cmp);
    qsort(tb, 3, sizeof tb[0], cmp);
    printf("  %-44s %8.2f s %8.1f M insn/s\n", "parse the text trace (no analysis)", tt[1], nt / tt[1] / 1e6);
    printf("  %-44s %8.2f s %8.1f M insn/s %7.1fx faster\n", "decode the binary trace (no analysis)", tb[1],
           nb / tb[1] / 1e6, tt[1] / tb[1]);
    return nt == nb ? 0 : 1;
}
