/* libFuzzer harness for the readers of result files: the input, written to
   a file, is read as an `edan analyze --json` report by `edan rank`, `edan
   plot` and `edan roofline --app` (on a CARM and, with a hybrid roof, a
   LARM chart), as a sweep CSV by `edan plot --sweep`, and as a profile by
   `edan roofline` (CARM and LARM). Each must succeed or refuse with exit
   status 2 and a message, never crash, hang or write past its buffers; a
   refusal leaves no chart; every chart written has numbers for its
   coordinates (no attribute but the free-text data-label holds nan or
   inf), and the JSON of `edan rank --json` parses. Mutations add numbers
   beyond a double, subnormals and duplicate keys (json_mutate.h). Outputs
   go to a scratch directory. Run by tests/fuzz/test_fuzz_results.sh. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define EDAN_IMPLEMENTATION
#include "tools/cmd/cli.h"
#include "tools/common/files.h"
#include "tools/report/roofline.h"
#include "json_mutate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], in_path[128], csv_path[128], svg_path[128], rank_path[128], prof_path[256];

static void cleanup(void)
{
    unlink(in_path);
    unlink(csv_path);
    unlink(svg_path);
    unlink(rank_path);
    rmdir(dir);
}

static void broken(const char *cmd, const char *rule)
{
    fprintf(stderr, "fuzz_results: %s: %s\n", cmd, rule);
    abort();
}

/* The whole of a file the command wrote, NUL-terminated (malloc). */
static char *slurp(const char *path, size_t *len)
{
    char err[256], *text = files_read_all(path, (size_t)1 << 30, len, err, sizeof err);
    if (!text) broken(path, err);
    return text;
}

/* Every attribute of the chart but data-label (free text from the input)
   must be free of "nan" and "inf": a coordinate or size that is no number. */
static void check_svg(const char *cmd)
{
    size_t len, i;
    char *svg = slurp(svg_path, &len), *p = svg;
    while ((p = strstr(p, "=\"")) != NULL) {
        char *name = p, *value = p + 2, *end = strchr(value, '"');
        while (name > svg && (name[-1] == '-' || name[-1] == ':' || (name[-1] >= 'a' && name[-1] <= 'z'))) name--;
        if (!end) broken(cmd, "an attribute without its closing quote");
        if (strncmp(name, "data-label=", 11))
            for (i = 0; value + i + 3 <= end; i++)
                if (!strncmp(value + i, "nan", 3) || !strncmp(value + i, "inf", 3)) {
                    fprintf(stderr, "fuzz_results: %s wrote %.*s\n", cmd, (int)(end + 1 - name), name);
                    abort();
                }
        p = end + 1;
    }
    free(svg);
}

/* A chart command: 0 or 2; on 0 the chart is checked, on 2 there is none. */
static void run_chart(int (*cmd)(int, char **), int argc, char **argv)
{
    struct stat st;
    int rc;
    unlink(svg_path);
    rc = cmd(argc, argv);
    if (rc != 0 && rc != 2) broken(argv[0], "an exit status other than 0 or 2");
    if (rc == 0) check_svg(argv[0]);
    else if (stat(svg_path, &st) == 0) broken(argv[0], "a chart left behind by a refusal");
}

/* edan rank --json with its standard output in a file: 0 or 2, and on 0
   JSON that edan's own reader takes (an inf once made it invalid). */
static void run_rank_json(char **argv, int argc)
{
    size_t len;
    char *text, err[256];
    edan_json *root = NULL;
    int rc;
    fflush(stdout);
    if (!freopen(rank_path, "w", stdout)) abort();
    rc = edan_cmd_rank(argc, argv);
    fflush(stdout);
    if (!freopen("/dev/null", "w", stdout)) abort();
    if (rc != 0 && rc != 2) broken("rank --json", "an exit status other than 0 or 2");
    if (rc != 0) return;
    text = slurp(rank_path, &len);
    if (edan_json_parse(text, len, NULL, &root, err, sizeof err) != EDAN_OK) {
        fprintf(stderr, "fuzz_results: rank --json wrote JSON its reader refuses: %s\n", err);
        abort();
    }
    edan_json_free(root);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f;
    if (!dir[0]) {
        const char *p = getenv("FUZZ_PROFILE");     /* a real profile for --app runs, with a hybrid model */
        snprintf(dir, sizeof dir, "/tmp/fuzz_results.%ld", (long)getpid());
        if (mkdir(dir, 0700) && errno != EEXIST) abort();
        atexit(cleanup);
        snprintf(in_path, sizeof in_path, "%s/r.json", dir);
        snprintf(csv_path, sizeof csv_path, "%s/s.csv", dir);
        snprintf(svg_path, sizeof svg_path, "%s/o.svg", dir);
        snprintf(rank_path, sizeof rank_path, "%s/rank.json", dir);
        snprintf(prof_path, sizeof prof_path, "%s", p ? p : "hwprofiles/qemu-2node.json");
        if (!freopen("/dev/null", "w", stdout)) abort();
    }
    f = fopen(in_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();
    f = fopen(csv_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();
    {
        char *a1[] = {"rank", in_path, NULL};
        char *a2[] = {"rank", "--json", in_path, "--m", "4", NULL};
        char *a3[] = {"plot", in_path, "-o", svg_path, NULL};
        char *a4[] = {"plot", "--sweep", csv_path, "-o", svg_path, NULL};
        char *a5[] = {"roofline", prof_path, "--app", in_path, "-o", svg_path, NULL};
        char *a6[] = {"roofline", prof_path, "--cluster", "0", "--fast-fraction", "0.5", "--app", in_path,
                      "-o", svg_path, NULL};
        char *a7[] = {"roofline", in_path, "-o", svg_path, NULL};
        char *a8[] = {"roofline", in_path, "--cluster", "0", "-o", svg_path, NULL};
        int rc = edan_cmd_rank(2, a1);
        if (rc != 0 && rc != 2) broken("rank", "an exit status other than 0 or 2");
        run_rank_json(a2, 5);
        run_chart(edan_cmd_plot, 4, a3);
        run_chart(edan_cmd_plot, 5, a4);
        run_chart(edan_cmd_roofline, 6, a5);
        run_chart(edan_cmd_roofline, 10, a6);
        run_chart(edan_cmd_roofline, 4, a7);
        run_chart(edan_cmd_roofline, 6, a8);
    }
    return 0;
}
