/* Tests of tools/jsonw.h, the one JSON writer: each layout's separators,
   line breaks, indentation and closes, strings' escapes, reals' precision
   and null. The expected texts are written out by hand from the layouts'
   descriptions in jsonw.h. */
#define _POSIX_C_SOURCE 200809L
#include "../../tools/jsonw.h"
#include "check.h"
#include <math.h>
#include <stdlib.h>

/* a writer on memory; done() closes it and returns the text */
typedef struct mem {
    FILE *f;
    char *text;
    size_t len;
    jw w;
} mem;

static void start(mem *m)
{
    m->text = NULL;
    m->f = open_memstream(&m->text, &m->len);
    jw_init(&m->w, m->f);
}

static void expect(mem *m, const char *want, int line)
{
    fclose(m->f);
    check_count++;
    if (strcmp(m->text, want) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: wrote\n%s\nexpected\n%s\n", __FILE__, line, m->text, want);
    }
    free(m->text);
}
#define EXPECT(m, want) expect(m, want, __LINE__)

static void test_lines(void)
{
    mem m;
    start(&m);
    jw_obj(&m.w, NULL);
    jw_int(&m.w, "a", -3);
    jw_arr(&m.w, "empty");
    jw_end_arr(&m.w);
    jw_arr(&m.w, "list");
    jw_uint(&m.w, NULL, 18446744073709551615ULL);
    jw_bool(&m.w, NULL, 1);
    jw_end_arr(&m.w);
    jw_end_obj(&m.w);
    EXPECT(&m, "{\n  \"a\": -3,\n  \"empty\": [],\n  \"list\": [\n    18446744073709551615,\n    true\n  ]\n}");
}

static void test_inline_and_rows(void)
{
    mem m;
    start(&m);
    jw_obj_as(&m.w, NULL, JW_ROWS);
    jw_str(&m.w, "k", "v");
    jw_row(&m.w);
    jw_obj_as(&m.w, "in", JW_INLINE);
    jw_null(&m.w, "x");
    jw_bool(&m.w, "y", 0);
    jw_end_obj(&m.w);
    jw_end_obj(&m.w);
    EXPECT(&m, "{\"k\": \"v\",\n  \"in\": {\"x\": null, \"y\": false}\n}");
}

/* JW_WRAP: as JW_ROWS, but the close stays where the last member ends,
   nested wraps indent by their depth and inline containers do not count */
static void test_wrap(void)
{
    mem m;
    start(&m);
    jw_obj_as(&m.w, NULL, JW_WRAP);
    jw_int(&m.w, "n", 2);
    jw_row(&m.w);
    jw_arr_as(&m.w, "rows", JW_WRAP);
    jw_row(&m.w);
    jw_obj_as(&m.w, NULL, JW_INLINE);
    jw_int(&m.w, "i", 0);
    jw_arr_as(&m.w, "deep", JW_WRAP);
    jw_row(&m.w);
    jw_int(&m.w, NULL, 7);
    jw_end_arr(&m.w);
    jw_end_obj(&m.w);
    jw_row(&m.w);
    jw_obj_as(&m.w, NULL, JW_INLINE);
    jw_int(&m.w, "i", 1);
    jw_end_obj(&m.w);
    jw_end_arr(&m.w);
    jw_arr_as(&m.w, "none", JW_WRAP);
    jw_end_arr(&m.w);
    jw_end_obj(&m.w);
    EXPECT(&m, "{\"n\": 2,\n  \"rows\": [\n    {\"i\": 0, \"deep\": [\n      7]},\n    {\"i\": 1}], \"none\": []}");
}

static void test_values(void)
{
    mem m;
    start(&m);
    m.w.real_digits = 9;
    jw_arr_as(&m.w, NULL, JW_INLINE);
    jw_num(&m.w, NULL, 1.0 / 3.0);
    jw_num(&m.w, NULL, 0.125);
    jw_num(&m.w, NULL, NAN);
    jw_num(&m.w, NULL, INFINITY);
    jw_num(&m.w, NULL, -INFINITY);
    jw_str(&m.w, NULL, "a\"b\\c\n\x01");
    jw_raw(&m.w, NULL, "12.5");
    jw_end_arr(&m.w);
    EXPECT(&m, "[0.333333333, 0.125, null, null, null, \"a\\\"b\\\\c\\u000a\\u0001\", 12.5]");

    start(&m);
    m.w.real_max = 1e6;
    jw_arr_as(&m.w, NULL, JW_INLINE);
    jw_num(&m.w, NULL, 1.0 / 3.0);
    jw_num(&m.w, NULL, 2e6);
    jw_num(&m.w, NULL, -1e6);
    jw_end_arr(&m.w);
    EXPECT(&m, "[0.333333, null, -1e+06]");
}

int main(void)
{
    test_lines();
    test_inline_and_rows();
    test_wrap();
    test_values();
    return check_summary("test_jsonw");
}
