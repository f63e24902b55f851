/* Tests of tools/common/jsonw.h, the one JSON writer: each layout's separators,
   line breaks, indentation and closes, strings' escapes, reals' precision
   and null. The expected texts are written out by hand from the layouts'
   descriptions in jsonw.h. */
#define _POSIX_C_SOURCE 200809L
#include "../../tools/common/jsonw.h"
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

/* Strings of bytes that are not UTF-8 (a file name in Latin-1, a cut
   sequence, an overlong form, a surrogate, past U+10FFFF) write each such
   byte as \u00XX; UTF-8 of one to four bytes stays as it is. */
static void test_utf8(void)
{
    mem m;
    start(&m);
    jw_arr_as(&m.w, NULL, JW_INLINE);
    jw_str(&m.w, NULL, "/tmp/caf\xe9/prog");             /* Latin-1 */
    jw_str(&m.w, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");   /* UTF-8: 2, 3 and 4 bytes */
    jw_str(&m.w, NULL, "a\xe2\x82");                      /* a sequence cut short by the end */
    jw_str(&m.w, NULL, "\xc0\xaf\xe0\x80\xaf");             /* overlong forms of / */
    jw_str(&m.w, NULL, "\xed\xa0\x80\xf4\x90\x80\x80\xff"); /* a surrogate, U+110000, 0xff */
    jw_end_arr(&m.w);
    EXPECT(&m, "[\"/tmp/caf\\u00e9/prog\", \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\", \"a\\u00e2\\u0082\", "
               "\"\\u00c0\\u00af\\u00e0\\u0080\\u00af\", \"\\u00ed\\u00a0\\u0080\\u00f4\\u0090\\u0080\\u0080\\u00ff\"]");
}

int main(void)
{
    test_lines();
    test_inline_and_rows();
    test_wrap();
    test_values();
    test_utf8();
    return check_summary("test_jsonw");
}
