/* Tests of tools/common/files.c's path expansion (files_expand), the one place that
   turns %h, %r and %% into the host, the rank and a %: for `edan trace -o`
   per rank and `probe -o DIR/%h.json` per node. The host names are the
   longest Linux allows (64 bytes), many times over, so that a buffer sized
   by the path's length would overflow. */
#define EDAN_IMPLEMENTATION
#include "../../tools/common/files.c"
#include "check.h"

static void expect(const char *path, long rank, const char *host, const char *want, int line)
{
    char *got = files_expand(path, rank, host);
    check_count++;
    if (!got || strcmp(got, want) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: files_expand(\"%s\", %ld, \"%s\") gave \"%s\", expected \"%s\"\n", __FILE__, line,
                path, rank, host, got ? got : "(null)", want);
    }
    free(got);
}
#define EXPECT(path, rank, host, want) expect(path, rank, host, want, __LINE__)

int main(void)
{
    char host64[65], many[16 * 64 + 8], path[64], h[256];
    int i;
    memset(host64, 'a', 64);
    host64[64] = 0;
    host64[0] = 'H';

    EXPECT("out.json", 3, "node1", "out.json");
    EXPECT("", 0, "node1", "");
    EXPECT("r%r-%h.json", 12, "node1", "r12-node1.json");
    EXPECT("%%h is %h", 0, "n", "%h is n");
    EXPECT("100%", 0, "n", "100%");                 /* a % at the end stays */
    EXPECT("%x%r", 7, "n", "%x7");                  /* an unknown % stays */
    EXPECT("%r.%h", -1, "n", "%r.n");               /* no rank: %r stays (probe) */
    EXPECT("%r", 2147483647L, "n", "2147483647");

    /* sixteen %h of a 64-byte host name: 1,024 bytes from a 32-byte path */
    path[0] = 0;
    many[0] = 0;
    for (i = 0; i < 16; i++) {
        strcat(path, "%h");
        strcat(many, host64);
    }
    strcat(path, ".js");
    strcat(many, ".js");
    EXPECT(path, -1, host64, many);

    /* the host's name: never empty */
    files_host(h, sizeof h);
    CHECK(h[0] != 0);
    CHECK(strlen(h) < sizeof h);
    files_host(h, 2);
    CHECK(strlen(h) <= 1);
    return check_summary("test_files");
}
