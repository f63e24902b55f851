/* libFuzzer harness for the readers of result files: the input, written to
   a file, is read as an `edan analyze --json` report by `edan rank`, `edan
   plot` and `edan roofline --app`, as a sweep CSV by `edan plot --sweep`,
   and as a profile by `edan roofline`. Each must succeed or refuse with
   exit status 2 and a message, never crash, hang or write past its
   buffers. Outputs go to a scratch directory. Run by
   tests/fuzz/test_fuzz_results.sh. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define EDAN_IMPLEMENTATION
#include "cli.h"
#include "roofline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], in_path[128], csv_path[128], svg_path[128], prof_path[256];

static void cleanup(void)
{
    unlink(in_path);
    unlink(csv_path);
    unlink(svg_path);
    rmdir(dir);
}

static void run(int (*cmd)(int, char **), int argc, char **argv)
{
    int rc = cmd(argc, argv);
    if (rc != 0 && rc != 2) {
        fprintf(stderr, "fuzz_results: %s exited %d (0 or 2 expected)\n", argv[0], rc);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f;
    if (!dir[0]) {
        const char *p = getenv("FUZZ_PROFILE");     /* a real profile for --app runs */
        snprintf(dir, sizeof dir, "/tmp/fuzz_results.%ld", (long)getpid());
        if (mkdir(dir, 0700) && errno != EEXIST) abort();
        atexit(cleanup);
        snprintf(in_path, sizeof in_path, "%s/r.json", dir);
        snprintf(csv_path, sizeof csv_path, "%s/s.csv", dir);
        snprintf(svg_path, sizeof svg_path, "%s/o.svg", dir);
        snprintf(prof_path, sizeof prof_path, "%s", p ? p : "hwprofiles/vm.json");
        if (!freopen("/dev/null", "w", stdout)) abort();
    }
    f = fopen(in_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();
    f = fopen(csv_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();
    {
        char *a1[] = {"rank", in_path, NULL};
        char *a2[] = {"rank", "--json", "--m", "4", in_path, NULL};
        char *a3[] = {"plot", in_path, "-o", svg_path, NULL};
        char *a4[] = {"plot", "--sweep", csv_path, "-o", svg_path, NULL};
        char *a5[] = {"roofline", prof_path, "--app", in_path, "-o", svg_path, NULL};
        char *a6[] = {"roofline", in_path, "-o", svg_path, NULL};
        run(edan_cmd_rank, 2, a1);
        run(edan_cmd_rank, 5, a2);
        run(edan_cmd_plot, 4, a3);
        run(edan_cmd_plot, 5, a4);
        run(edan_cmd_roofline, 6, a5);
        run(edan_cmd_roofline, 4, a6);
    }
    return 0;
}
