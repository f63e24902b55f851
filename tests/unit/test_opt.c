/* Tests of tools/common/opt.h, the one option parser: values given either way,
   "needs a value", a forgotten value, "did you mean" from the table, the
   help text from the same table, and the number parsers' bounds. */
#define _POSIX_C_SOURCE 200809L
#include "../../tools/common/opt.h"
#include "check.h"
#include <unistd.h>

enum { O_HELP = 1, O_JSON, O_TOP, O_CONFIG, O_CACHE };
static const opt_def opts[] = {
    {NULL, NULL, 0, "Options:"},
    {"-h|--help", NULL, O_HELP, "this text"},
    {"--json", NULL, O_JSON, "print JSON"},
    {"--top", "N", O_TOP, "the N hottest\ninstructions"},
    {"--config", "[=NAME]", O_CONFIG, "another configuration"},
    {"--cache", "SIZE:ASSOC:LINE[:wb|wt][:LAT]", O_CACHE, "a cache level"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

/* What opt_next prints on stderr for argv, and its result. */
static int parse(char **argv, int argc, int *i, const char **val, char *err, size_t n)
{
    int fd[2], saved = dup(2), r;
    ssize_t got;
    if (pipe(fd)) return -100;
    fflush(stderr);
    dup2(fd[1], 2);
    r = opt_next("cmd", opts, NOPTS, argc, argv, i, val);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd[1]);
    got = read(fd[0], err, n - 1);
    err[got > 0 ? got : 0] = 0;
    close(fd[0]);
    return r;
}

static void test_next(void)
{
    char *argv[] = {"--top", "5", "--top=7", "x", "-h", "--config", "--config=b", "--", "--json"};
    int i = 0;
    const char *v;
    char err[256];
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == O_TOP && !strcmp(v, "5") && i == 2);
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == O_TOP && !strcmp(v, "7"));
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == OPT_OPERAND && !strcmp(v, "x"));
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == O_HELP && !v);
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == O_CONFIG && !v);
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == O_CONFIG && !strcmp(v, "b"));
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == OPT_REST && i == 8);
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == O_JSON);
    CHECK(parse(argv, 9, &i, &v, err, sizeof err) == OPT_END);
}

static void test_errors(void)
{
    char err[256];
    const char *v;
    int i = 0;
    char *a1[] = {"--top"};
    char *a2[] = {"--top", "--json"};
    char *a3[] = {"--jsn"};
    char *a4[] = {"--json=1"};
    char *a5[] = {"--frobnicate"};
    CHECK(parse(a1, 1, &i, &v, err, sizeof err) == OPT_ERROR && strstr(err, "cmd: --top needs a value"));
    i = 0;
    CHECK(parse(a2, 2, &i, &v, err, sizeof err) == OPT_ERROR && strstr(err, "not the option '--json'"));
    i = 0;
    CHECK(parse(a3, 1, &i, &v, err, sizeof err) == OPT_ERROR && strstr(err, "did you mean --json?"));
    i = 0;
    CHECK(parse(a4, 1, &i, &v, err, sizeof err) == OPT_ERROR && strstr(err, "--json takes no value"));
    i = 0;
    CHECK(parse(a5, 1, &i, &v, err, sizeof err) == OPT_ERROR && strstr(err, "unknown option --frobnicate (see cmd --help)")
          && !strstr(err, "did you mean"));
}

static void test_help(void)
{
    char buf[1024];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    opt_help(f, opts, NOPTS);
    fclose(f);
    CHECK(!strcmp(buf, "Options:\n"
                       "  -h|--help           this text\n"
                       "  --json              print JSON\n"
                       "  --top N             the N hottest\n"
                       "                      instructions\n"
                       "  --config[=NAME]     another configuration\n"
                       "  --cache SIZE:ASSOC:LINE[:wb|wt][:LAT]\n"
                       "                      a cache level\n"));
}

static void test_numbers(void)
{
    uint64_t u;
    uint32_t w;
    double d;
    CHECK(!opt_u64("42", 1, 100, &u) && u == 42);
    CHECK(opt_u64("0", 1, 100, &u) && opt_u64("101", 1, 100, &u) && opt_u64("-1", 0, 100, &u));
    CHECK(opt_u64("4x", 0, 100, &u) && opt_u64("", 0, 100, &u) && opt_u64("99999999999999999999", 0, UINT64_MAX, &u));
    CHECK(!opt_u32("4294967295", 0, UINT32_MAX, &w) && w == UINT32_MAX);
    CHECK(!opt_size("32KiB", 1ull << 40, &u) && u == 32768);
    CHECK(!opt_size("1G", 1ull << 40, &u) && u == 1ull << 30);
    CHECK(opt_size("17179869185G", UINT64_MAX, &u) && opt_size("1Q", 1ull << 40, &u));
    CHECK(!opt_double("2.5", 0, 1, 10, &d) && d == 2.5);
    CHECK(opt_double("0", 0, 1, 10, &d) && !opt_double("0", 0, 0, 10, &d));
    {
        const char *end;
        CHECK(!opt_double_at("1e-3-2", &end, 0, 1, 10, &d) && d == 1e-3 && !strcmp(end, "-2"));
        CHECK(!opt_double_at("2.5:7", &end, 0, 1, 10, &d) && d == 2.5 && *end == ':');
        CHECK(opt_double_at(":7", &end, 0, 1, 10, &d) && opt_double_at(" 2", &end, 0, 1, 10, &d) &&
              opt_double_at("inf:1", &end, 0, 1, INFINITY, &d));
    }
    CHECK(opt_double("nan", 0, 0, 10, &d) && opt_double("inf", 0, 0, INFINITY, &d) && opt_double("1e999", 0, 0, 1e308, &d));
}

static void test_list(void)
{
    uint32_t m[3];
    CHECK(opt_u32_list("1,4,8", 1, 100, m, 3) == 3 && m[0] == 1 && m[1] == 4 && m[2] == 8);
    CHECK(opt_u32_list("", 1, 100, m, 3) == 0 && opt_u32_list("4,", 1, 100, m, 3) == 1 && m[0] == 4);
    CHECK(opt_u32_list(",4", 1, 100, m, 3) == -1 && opt_u32_list("1,,4", 1, 100, m, 3) == -1);
    CHECK(opt_u32_list("0", 1, 100, m, 3) == -1 && opt_u32_list("101", 1, 100, m, 3) == -1);
    CHECK(opt_u32_list("4x", 1, 100, m, 3) == -1 && opt_u32_list("1,2,3,4", 1, 100, m, 3) == -2);
}

/* A command's own options and a shared set: an option both define (the
   same id) is the command's, listed once; text rows stay. */
static void test_cat(void)
{
    static const opt_def own[] = {{"--top", "N", O_TOP, "the command's own --top"}};
    opt_def t[16];
    size_t n = opt_cat(t, 16, own, 1, opts, NOPTS), k, tops = 0;
    CHECK_EQ_U(n, NOPTS);
    for (k = 0; k < n; k++) tops += t[k].id == O_TOP;
    CHECK_EQ_U(tops, 1);
    CHECK(t[0].help == own[0].help && t[1].name == NULL);
    CHECK_EQ_U(opt_cat(t, NOPTS, own, 1, opts, NOPTS), 0);     /* room for both is asked */
}

int main(void)
{
    test_cat();
    test_next();
    test_errors();
    test_help();
    test_numbers();
    test_list();
    return check_summary("test_opt");
}
