/* tests/unit/test_profile.c - the JSON DOM, the hardware-profile loader and the
   probe's Sattolo cycle. With `--check FILE` it instead checks that a
   profile written by `probe` on this machine is consistent (used by
   tests/cmd/test_probe.sh). */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"
#include "probes/sattolo.h"

/* ---- an allocator that counts, to see that everything is freed ---- */
static long live_blocks;
static void *count_alloc(size_t n, void *u) { (void)u; live_blocks++; return malloc(n); }
static void *count_realloc(void *p, size_t n, void *u) { (void)u; if (!p) live_blocks++; return realloc(p, n); }
static void count_free(void *p, void *u) { (void)u; if (p) live_blocks--; free(p); }

static edan_result parse(const char *s, edan_json **out, char *err)
{
    return edan_json_parse(s, strlen(s), NULL, out, err, 200);
}

static void test_json(void)
{
    edan_json *r;
    char err[200];
    const edan_json *a;
    edan_allocator al = {count_alloc, count_realloc, count_free, NULL};
    const char *doc = "{\"a\": [1, -2.5e3, true, null, \"x\\n\\u00e9\\ud83d\\ude00\"],\n \"b\": {\"c\": {}}, \"a2\": []}";
    CHECK(edan_json_parse(doc, strlen(doc), &al, &r, err, sizeof err) == EDAN_OK);
    CHECK(edan_json_kind(r) == EDAN_JSON_OBJECT);
    CHECK_EQ_U(edan_json_len(r), 3);
    CHECK(!strcmp(edan_json_key_at(r, 1), "b"));
    a = edan_json_get(r, "a");
    CHECK_EQ_U(edan_json_len(a), 5);
    CHECK(edan_json_number(edan_json_at(a, 0), 0) == 1.0);
    CHECK(edan_json_number(edan_json_at(a, 1), 0) == -2500.0);
    CHECK(edan_json_kind(edan_json_at(a, 2)) == EDAN_JSON_BOOL && edan_json_bool(edan_json_at(a, 2), 0) == 1);
    CHECK(edan_json_kind(edan_json_at(a, 3)) == EDAN_JSON_NULL);
    CHECK(!strcmp(edan_json_string(edan_json_at(a, 4), ""), "x\n\xC3\xA9\xF0\x9F\x98\x80"));
    CHECK(edan_json_at(a, 5) == NULL);
    CHECK(edan_json_get(r, "zz") == NULL);
    CHECK(edan_json_number(edan_json_get(r, "b"), 7) == 7);       /* wrong kind: the default */
    CHECK(edan_json_string(NULL, "d")[0] == 'd');
    CHECK_EQ_U(edan_json_line(edan_json_get(r, "b")), 2);
    CHECK(edan_json_kind(edan_json_get(edan_json_get(r, "b"), "c")) == EDAN_JSON_OBJECT);
    edan_json_free(r);
    CHECK_EQ_U(live_blocks, 0);

    /* malformed input: an error with the right line, never a tree */
    {
        static const struct { const char *text; unsigned line; edan_result rc; } bad[] = {
            {"", 1, EDAN_ERR_PARSE}, {"{", 1, EDAN_ERR_PARSE}, {"{\"a\":\n[1,\n2", 3, EDAN_ERR_PARSE},
            {"[1,]", 1, EDAN_ERR_PARSE}, {"01", 1, EDAN_ERR_PARSE}, {"1.", 1, EDAN_ERR_PARSE},
            {"-", 1, EDAN_ERR_PARSE}, {"\"abc", 1, EDAN_ERR_PARSE}, {"{\"a\" 1}", 1, EDAN_ERR_PARSE},
            {"{a: 1}", 1, EDAN_ERR_PARSE}, {"[1]\n\nx", 3, EDAN_ERR_PARSE}, {"nul", 1, EDAN_ERR_PARSE},
            {"\"\\u12\"", 1, EDAN_ERR_PARSE}, {"\"\\ud800\"", 1, EDAN_ERR_PARSE}, {"\"a\tb\"", 1, EDAN_ERR_PARSE},
            {"\"\\x\"", 1, EDAN_ERR_PARSE}, {"[1 2]", 1, EDAN_ERR_PARSE}, {"{\"a\":1,}", 1, EDAN_ERR_PARSE},
            {"[0,\n1e999]", 2, EDAN_ERR_PARSE}, {"-1e400", 1, EDAN_ERR_PARSE},
            {"{\"a\": 1,\n\"b\": {\"a\": 2},\n\"a\": 3}", 3, EDAN_ERR_PARSE}, {"[{\"x\": 1, \"x\": 1}]", 1, EDAN_ERR_PARSE},
        };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            char want[32];
            edan_result rc = parse(bad[i].text, &r, err);
            CHECK(rc == bad[i].rc);
            CHECK(r == NULL);
            snprintf(want, sizeof want, "line %u: ", bad[i].line);
            if (strncmp(err, want, strlen(want)) != 0)
                fprintf(stderr, "case %u: '%s' gave '%s'\n", (unsigned)i, bad[i].text, err);
            CHECK(strncmp(err, want, strlen(want)) == 0);
        }
    }
    /* a number beyond a double and a duplicate key are named; numbers
       that underflow are kept (as 0 or subnormals: finite) */
    CHECK(parse("{\"W\": 1,\n \"W\": 2}", &r, err) == EDAN_ERR_PARSE);
    CHECK(!strcmp(err, "line 2: duplicate key \"W\" (also on line 1)"));
    CHECK(parse("[1e999]", &r, err) == EDAN_ERR_PARSE);
    CHECK(strstr(err, "1e999 is out of range") != NULL);
    CHECK(parse("[4.9e-324, 1e-400, 1e308, -0]", &r, err) == EDAN_OK);
    CHECK(edan_json_number(edan_json_at(r, 0), 0) > 0 && edan_json_number(edan_json_at(r, 1), 1) == 0);
    CHECK(edan_json_number(edan_json_at(r, 2), 0) == 1e308);
    edan_json_free(r);
    {   /* many keys: the duplicate is found without comparing every pair */
        size_t nkeys = 50000, i, len = 0;
        char *big = (char *)malloc(nkeys * 24 + 64);
        big[len++] = '{';
        for (i = 0; i < nkeys; i++) len += (size_t)sprintf(big + len, "%s\"k%lu\": %lu", i ? ", " : "", (unsigned long)i, (unsigned long)i);
        big[len++] = '}';
        CHECK(edan_json_parse(big, len, &al, &r, err, sizeof err) == EDAN_OK);
        edan_json_free(r);
        len -= 1;
        len += (size_t)sprintf(big + len, ", \"k777\": 0}");
        CHECK(edan_json_parse(big, len, &al, &r, err, sizeof err) == EDAN_ERR_PARSE && r == NULL);
        CHECK(strstr(err, "duplicate key \"k777\"") != NULL);
        CHECK_EQ_U(live_blocks, 0);
        free(big);
    }
    /* nesting is bounded: deep input fails cleanly instead of overflowing the stack */
    {
        size_t n = 100000, i;
        char *deep = (char *)malloc(n + 1);
        for (i = 0; i < n; i++) deep[i] = '[';
        deep[n] = 0;
        CHECK(edan_json_parse(deep, n, &al, &r, err, sizeof err) == EDAN_ERR_LIMIT);
        CHECK(strstr(err, "nesting") != NULL);
        CHECK_EQ_U(live_blocks, 0);
        /* just inside the bound is fine */
        for (i = 0; i < EDAN_JSON_MAX_DEPTH; i++) deep[i] = '[';
        for (i = 0; i < EDAN_JSON_MAX_DEPTH; i++) deep[EDAN_JSON_MAX_DEPTH + i] = ']';
        CHECK(edan_json_parse(deep, 2 * EDAN_JSON_MAX_DEPTH, &al, &r, err, sizeof err) == EDAN_OK);
        edan_json_free(r);
        CHECK_EQ_U(live_blocks, 0);
        free(deep);
    }
    /* every prefix of a valid document is rejected, and nothing leaks */
    {
        size_t n = strlen(doc), k;
        int all = 1;
        for (k = 0; k < n; k++) {
            edan_result rc = edan_json_parse(doc, k, &al, &r, err, sizeof err);
            if (rc == EDAN_OK || r != NULL || strncmp(err, "line ", 5) != 0) all = 0;
        }
        CHECK(all);
        CHECK_EQ_U(live_blocks, 0);
    }
}

/* ---- profiles ------------------------------------------------------- */
/* The values the test writes and then expects back. */
typedef struct ref_profile {
    double ghz, l1_ns, l1_cyc, l2_ns, l2_cyc, dram_ns, dram_cyc, bw_l1, bw_dram;
    unsigned m;
} ref_profile;

static char *make_profile(const ref_profile *v, int version, const char *schema)
{
    char *s = (char *)malloc(8192);
    snprintf(s, 8192,
             "{\n"
             "  \"schema\": \"%s\",\n"
             "  \"version\": %d,\n"
             "  \"host\": \"testhost\",\n"
             "  \"topology\": {\"cores\": 2},\n"
             "  \"frequency\": {\"core_ghz\": {\"median\": %.17g, \"min\": 1, \"max\": 9}, \"tsc_ghz\": 2.1},\n"
             "  \"caches\": [\n"
             "    {\"level\": \"L1\", \"size_bytes\": 49152, \"line_bytes\": 64, \"assoc\": 12,\n"
             "     \"effective_bytes\": 49152, \"latency_ns\": %.17g, \"latency_cycles\": %.17g},\n"
             "    {\"level\": \"L2\", \"size_bytes\": 1048576, \"line_bytes\": 64, \"assoc\": 16,\n"
             "     \"effective_bytes\": 786432, \"latency_ns\": %.17g, \"latency_cycles\": %.17g}\n"
             "  ],\n"
             "  \"bandwidth\": [\n"
             "    {\"level\": \"L1\", \"op\": \"load\", \"threads\": 1, \"bytes\": 24576,\n"
             "     \"GBps\": {\"median\": %.17g, \"min\": 1, \"max\": 1000}},\n"
             "    {\"level\": \"L1\", \"op\": \"2:1\", \"threads\": 1, \"bytes\": 24576,\n"
             "     \"GBps\": {\"median\": 5, \"min\": 1, \"max\": 1000}},\n"
             "    {\"level\": \"DRAM\", \"op\": \"store_nt\", \"threads\": 2, \"bytes\": 268435456,\n"
             "     \"GBps\": {\"median\": %.17g, \"min\": 0.5, \"max\": 1000}}\n"
             "  ],\n"
             "  \"latency\": [\n"
             "    {\"level\": \"L1\", \"ns\": %.17g, \"cycles\": %.17g},\n"
             "    {\"level\": \"DRAM\", \"ns\": %.17g, \"cycles\": %.17g}\n"
             "  ],\n"
             "  \"mlp\": {\"m\": %u},\n"
             "  \"compute\": [{\"isa\": \"avx512\", \"op\": \"fma\", \"threads\": 1,\n"
             "               \"GFLOPs\": {\"median\": 100, \"min\": 90, \"max\": 110}}],\n"
             "  \"bandwidth_method\": {\"write_allocate_counted\": false},\n"
             "  \"counters\": {\"available\": false, \"reason\": \"none\"}\n"
             "}\n",
             schema, version, v->ghz, v->l1_ns, v->l1_cyc, v->l2_ns, v->l2_cyc, v->bw_l1, v->bw_dram, v->l1_ns,
             v->l1_cyc, v->dram_ns, v->dram_cyc, v->m);
    return s;
}

static void test_profile(void)
{
    ref_profile v = {3.25, 1.5, 4.875, 4.25, 13.8125, 101.5, 329.875, 211.25, 12.75, 7};
    char *text = make_profile(&v, 1, "edan-hwprofile");
    edan_profile *p;
    char err[300];
    edan_config cfg;
    edan_allocator al = {count_alloc, count_realloc, count_free, NULL};
    size_t n = strlen(text), k;

    CHECK(edan_profile_parse(text, n, "t.json", &al, &p, err, sizeof err) == EDAN_OK);
    if (!p) { fprintf(stderr, "%s\n", err); return; }
    CHECK(p->version == 1);
    CHECK(!strcmp(p->host, "testhost"));
    CHECK(p->core_ghz == v.ghz);
    CHECK_EQ_U(p->num_caches, 2);
    CHECK(!strcmp(p->cache[1].level, "L2"));
    CHECK_EQ_U(p->cache[1].size, 1048576);
    CHECK_EQ_U(p->cache[1].effective_size, 786432);
    CHECK(p->cache[1].latency_cycles == v.l2_cyc);
    CHECK(p->dram_latency_ns == v.dram_ns);
    CHECK(p->dram_latency_cycles == v.dram_cyc);
    CHECK_EQ_U(p->mlp_m, v.m);
    CHECK_EQ_U(p->num_bandwidth, 3);
    CHECK(edan_profile_bandwidth_of(p, "L1", "load", 1) == v.bw_l1);
    CHECK(edan_profile_bandwidth_of(p, "DRAM", "store_nt", 2) == v.bw_dram);
    CHECK(edan_profile_bandwidth_of(p, "DRAM", "store_nt", 1) == 0);
    CHECK(edan_profile_roof(p, "L1", 1) == v.bw_l1);        /* the best of load (211.25) and 2:1 (5) */
    CHECK(p->peak_GFLOPs_1core == 100);
    CHECK(p->write_allocate_counted == 0);
    CHECK(p->counters_available == 0);
    CHECK(!strcmp(edan_json_string(edan_json_get(edan_json_get(edan_profile_json(p), "counters"), "reason"), ""),
                  "none"));

    /* into an analysis configuration: L2's 786432 effective bytes with 16
       ways of 64 bytes round down to 512 sets (524288 bytes) */
    memset(&cfg, 0, sizeof cfg);
    cfg.cost[0] = 5;
    CHECK(edan_profile_to_config(p, &cfg) == EDAN_OK);
    CHECK_EQ_U(cfg.num_levels, 2);
    CHECK_EQ_U(cfg.level[0].size, 49152);
    CHECK_EQ_U(cfg.level[0].assoc, 12);
    CHECK_EQ_U(cfg.level[0].latency, 5);     /* 4.875 rounded */
    CHECK_EQ_U(cfg.level[1].size, 524288);
    CHECK_EQ_U(cfg.level[1].latency, 14);
    CHECK_EQ_U(cfg.alpha, 330);              /* 329.875 rounded */
    CHECK(cfg.freq_ghz == v.ghz);
    CHECK_EQ_U(cfg.cost[0], 5);              /* untouched */
    edan_profile_free(p);
    CHECK_EQ_U(live_blocks, 0);

    /* a configuration the analyzer accepts */
    {
        edan_options opt;
        edan_context *ctx = NULL;
        CHECK(edan_profile_parse(text, n, "t.json", NULL, &p, err, sizeof err) == EDAN_OK);
        memset(&cfg, 0, sizeof cfg);
        edan_profile_to_config(p, &cfg);
        memset(&opt, 0, sizeof opt);
        opt.num_configs = 1;
        opt.configs = &cfg;
        CHECK(edan_create(&ctx, &opt) == EDAN_OK);
        edan_destroy(ctx);
        edan_profile_free(p);
    }

    /* truncated anywhere: rejected with "t.json:LINE: " */
    {
        int all = 1;
        for (k = 0; k < n - 2; k++) {
            edan_result rc = edan_profile_parse(text, k, "t.json", &al, &p, err, sizeof err);
            if (rc == EDAN_OK || p || strncmp(err, "t.json:", 7) != 0) {
                if (all) fprintf(stderr, "prefix %u: rc %d, '%s'\n", (unsigned)k, rc, err);
                all = 0;
            }
        }
        CHECK(all);
        CHECK_EQ_U(live_blocks, 0);
        CHECK(edan_profile_parse(text, n / 2, "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_PARSE);
        CHECK(strstr(err, "truncated") != NULL);
    }
    free(text);

    /* wrong version / schema: EDAN_ERR_VERSION with a clear message and line */
    text = make_profile(&v, 2, "edan-hwprofile");
    CHECK(edan_profile_parse(text, strlen(text), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_VERSION);
    CHECK(p == NULL);
    CHECK(strncmp(err, "t.json:3: unsupported profile version 2", 39) == 0);
    free(text);
    text = make_profile(&v, 0, "edan-hwprofile");
    CHECK(edan_profile_parse(text, strlen(text), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_VERSION);
    free(text);
    text = make_profile(&v, 1, "something-else");
    CHECK(edan_profile_parse(text, strlen(text), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_VERSION);
    CHECK(strncmp(err, "t.json:2: \"schema\"", 18) == 0);
    free(text);
    {   /* no "version" at all: said so (it used to say "must be an integer") */
        char *q;
        text = make_profile(&v, 1, "edan-hwprofile");
        q = strstr(text, "\"version\"");
        memcpy(q, "\"vErsion\"", 9);
        CHECK(edan_profile_parse(text, strlen(text), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_VERSION);
        CHECK(strstr(err, "t.json:1: no \"version\"") == err);
        free(text);
    }

    /* inconsistent or missing fields name the place */
    {
        char *t = make_profile(&v, 1, "edan-hwprofile"), *q;
        q = strstr(t, "\"min\": 0.5");       /* DRAM store_nt: min above the median */
        memcpy(q, "\"min\": 9e9", 10);
        CHECK(edan_profile_parse(t, strlen(t), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_PARSE);
        if (strstr(err, "t.json:19: ") != err) fprintf(stderr, "got: %s\n", err);
        CHECK(strstr(err, "t.json:19: ") == err && strstr(err, "\"bandwidth\"[2]") != NULL);
        free(t);
        t = make_profile(&v, 1, "edan-hwprofile");
        q = strstr(t, "\"mlp\": {\"m\"");
        memcpy(q, "\"mlp\": {\"n\"", 11);
        CHECK(edan_profile_parse(t, strlen(t), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_PARSE);
        CHECK(strstr(err, "\"mlp\" has no \"m\"") != NULL);
        free(t);
    }
    /* numbers out of range are refused with their name and line, never
       converted: an effective size of 2^63 (or negative) hung the
       conversion to sets; 2^32 cycles of DRAM latency became alpha 200, a
       line of 2^32 bytes dropped the L1, 2^32 ways became 16, m = 2^32 was
       dropped */
    {
        static const struct { const char *from, *to, *name; } bad[] = {
            {"\"effective_bytes\": 786432", "\"effective_bytes\": 9223372036854775808", "effective_bytes"},
            {"\"effective_bytes\": 786432", "\"effective_bytes\": -786432", "effective_bytes"},
            {"\"cycles\": 329.875", "\"cycles\": 4294967296", "cycles"},
            {"\"line_bytes\": 64, \"assoc\": 12", "\"line_bytes\": 4294967296, \"assoc\": 12", "line_bytes"},
            {"\"assoc\": 12", "\"assoc\": 4294967296", "assoc"},
            {"\"assoc\": 12", "\"assoc\": 12.5", "assoc"},
            {"\"m\": 7", "\"m\": 4294967296", "\"m\""},
            {"\"cores\": 2", "\"cores\": -2", "cores"},
        };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            ref_profile w = v;
            char *t, *q, *u;
            size_t lt;
            w.dram_cyc = 329.875;
            t = make_profile(&w, 1, "edan-hwprofile");
            q = strstr(t, bad[i].from);
            CHECK(q != NULL);
            if (!q) { free(t); continue; }
            lt = strlen(t);
            u = (char *)malloc(lt + 64);
            memcpy(u, t, (size_t)(q - t));
            strcpy(u + (q - t), bad[i].to);
            strcat(u, q + strlen(bad[i].from));
            CHECK(edan_profile_parse(u, strlen(u), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_PARSE);
            if (!strstr(err, bad[i].name) || strncmp(err, "t.json:", 7)) fprintf(stderr, "case %u: %s\n", (unsigned)i, err);
            CHECK(strstr(err, bad[i].name) != NULL && strncmp(err, "t.json:", 7) == 0);
            CHECK(p == NULL);
            free(t);
            free(u);
        }
    }
    /* a version far out of range is named, not converted to int first */
    text = make_profile(&v, 1, "edan-hwprofile");
    {
        char *q = strstr(text, "\"version\": 1,"), *u = (char *)malloc(strlen(text) + 16);
        sprintf(u, "%.*s\"version\": 1e308,%s", (int)(q - text), text, q + strlen("\"version\": 1,"));
        CHECK(edan_profile_parse(u, strlen(u), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_VERSION && p == NULL);
        CHECK(!strncmp(err, "t.json:3: unsupported profile version 1e+308", 44));
        free(u);
    }
    free(text);
    /* the numa section's numbers: a well-formed one loads; each number out
       of range is refused with its name and line */
    {
        static const char numa[] =
            "  \"numa\": {\"skipped\": false, \"clusters\": [{\"cluster\": 0, \"threads\": 2}],\n"
            "   \"roofs\": [{\"roof\": \"local\", \"cluster\": 0, \"node\": 0, \"op\": \"load\", \"threads\": 2,\n"
            "              \"GBps\": {\"median\": 20.5, \"min\": 20, \"max\": null}},\n"
            "             {\"roof\": \"congested\", \"cluster\": 0, \"node\": null, \"GBps\": 7}],\n"
            "   \"latency\": [{\"cluster\": 0, \"node\": 1, \"ns\": {\"median\": 120}}],\n"
            "   \"hybrid\": [{\"cluster\": 0, \"fast_node\": 1, \"slow_node\": 0,\n"
            "               \"bandwidth_GBps\": {\"lf\": 40, \"ls\": 20, \"sf\": null, \"ss\": 12},\n"
            "               \"theta\": {\"lf\": {\"ls\": -0.1, \"sf\": null}, \"ls\": {\"lf\": 0.5}}}]},\n";
        static const struct { const char *from, *to, *name; unsigned line; } bad[] = {
            {"\"cluster\": 0, \"node\": 0", "\"cluster\": 1e308, \"node\": 0", "\"cluster\" in \"numa\".roofs[0] is 1e+308", 30},
            {"\"cluster\": 0, \"threads\": 2", "\"cluster\": 0.5, \"threads\": 2", "\"cluster\" in \"numa\".clusters[0] is 0.5", 29},
            {"\"median\": 20.5", "\"median\": 1e300", "\"median\" in \"numa\".roofs[0].GBps is 1e+300", 31},
            {"\"median\": 20.5", "\"median\": -2", "\"median\" in \"numa\".roofs[0].GBps is -2", 31},
            {"\"GBps\": 7", "\"GBps\": 7e99", "\"GBps\" in \"numa\".roofs[1] is 7e+99", 32},
            {"\"GBps\": 7", "\"GBps\": \"fast\"", "\"GBps\" in \"numa\".roofs[1] must be a number", 32},
            {"\"node\": 1, \"ns\"", "\"node\": -1, \"ns\"", "\"node\" in \"numa\".latency[0] is -1", 33},
            {"\"ls\": 20", "\"ls\": 1e10", "\"ls\" in \"numa\".hybrid[0].bandwidth_GBps is 1e+10", 35},
            {"\"ls\": -0.1", "\"ls\": -1e300", "\"ls\" in \"numa\".hybrid[0].theta.lf is -1e+300", 36},
            {"\"roofs\": [", "\"roofs\": 3, \"x\": [", "\"roofs\" in \"numa\" must be an array", 30},
        };
        size_t i;
        char *t = make_profile(&v, 1, "edan-hwprofile"), *q = strstr(t, "  \"counters\""), *u;
        u = (char *)malloc(strlen(t) + sizeof numa + 64);
        sprintf(u, "%.*s%s%s", (int)(q - t), t, numa, q);
        CHECK(edan_profile_parse(u, strlen(u), "t.json", NULL, &p, err, sizeof err) == EDAN_OK);
        if (!p) fprintf(stderr, "numa profile: %s\n", err);
        edan_profile_free(p);
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            char *w = (char *)malloc(strlen(u) + 64), *at = strstr(u, bad[i].from), want[160];
            CHECK(at != NULL);
            if (!at) { free(w); continue; }
            sprintf(w, "%.*s%s%s", (int)(at - u), u, bad[i].to, at + strlen(bad[i].from));
            snprintf(want, sizeof want, "t.json:%u: %s", bad[i].line, bad[i].name);
            CHECK(edan_profile_parse(w, strlen(w), "t.json", NULL, &p, err, sizeof err) == EDAN_ERR_PARSE && p == NULL);
            if (strncmp(err, want, strlen(want))) fprintf(stderr, "numa case %u: '%s', not '%s'\n", (unsigned)i, err, want);
            CHECK(!strncmp(err, want, strlen(want)));
            free(w);
        }
        free(t);
        free(u);
    }
    CHECK(edan_profile_load("/nonexistent/x.json", NULL, &p, err, sizeof err) == EDAN_ERR_IO);
    CHECK(strncmp(err, "/nonexistent/x.json:0: ", 23) == 0);
}

/* ---- the chase permutation ---------------------------------------- */
/* The profile's "window" (probe's measure of the core's window): into
   edan_profile and, by edan_profile_to_config, into a configuration's
   window, lq, sq and width (a width not measured: the default); a skipped
   one, or none, leaves them; a bad one names its place. */
static void test_profile_window(void)
{
    ref_profile v = {3.25, 1.5, 4.875, 4.25, 13.8125, 101.5, 329.875, 211.25, 12.75, 7};
    char *t = make_profile(&v, 1, "edan-hwprofile"), *u = (char *)malloc(9000), *q;
    edan_profile *p;
    edan_config cfg;
    char err[300];
    static const char *const sections[] = {
        "\"window\": {\"rob\": 481, \"lq\": 190, \"sq\": 143, \"width\": 6},",
        "\"window\": {\"rob\": 481, \"lq\": 190, \"sq\": 143},",
        "\"window\": {\"skipped\": true, \"reason\": \"no jump\"},",
        "",
        "\"window\": {\"rob\": 481, \"lq\": 0, \"sq\": 143},",
        "\"window\": {\"rob\": 481, \"sq\": 143},"};
    size_t i;
    q = strstr(t, "  \"mlp\"");
    for (i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        edan_result rc;
        snprintf(u, 9000, "%.*s  %s\n%s", (int)(q - t), t, sections[i], q);
        rc = edan_profile_parse(u, strlen(u), "w.json", NULL, &p, err, sizeof err);
        if (i >= 4) {   /* "w.json:LINE: ..." at the section's line, naming "lq" in "window" */
            char at[32];
            const char *c;
            int line = 1;
            for (c = u; c < u + (q - t); c++) line += *c == '\n';
            snprintf(at, sizeof at, "w.json:%d: ", line);
            CHECK(rc == EDAN_ERR_PARSE && p == NULL);
            CHECK(strstr(err, at) == err && strstr(err, "\"window\"") != NULL && strstr(err, "\"lq\"") != NULL);
            continue;
        }
        CHECK(rc == EDAN_OK);
        if (!p) { fprintf(stderr, "%s\n", err); continue; }
        memset(&cfg, 0, sizeof cfg);
        cfg.window = 7;     /* kept where the profile measured nothing */
        CHECK(edan_profile_to_config(p, &cfg) == EDAN_OK);
        if (i < 2) {
            CHECK_EQ_U(p->window_rob, 481);
            CHECK_EQ_U(p->window_lq, 190);
            CHECK_EQ_U(p->window_sq, 143);
            CHECK_EQ_U(p->window_width, i == 0 ? 6 : 0);
            CHECK(cfg.window == 481 && cfg.lq == 190 && cfg.sq == 143 && cfg.width == (i == 0 ? 6u : 0u));
        } else {
            CHECK(p->window_rob == 0 && cfg.window == 7 && cfg.lq == 0);
        }
        edan_profile_free(p);
    }
    free(u);
    free(t);
}

static void test_sattolo(void)
{
    static const size_t sizes[] = {1, 2, 3, 7, 64, 1000, 4097, 65536};
    size_t s;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], i, at = 0, steps = 0, fixed = 0;
        size_t *next = (size_t *)malloc(n * sizeof *next);
        unsigned char *seen = (unsigned char *)calloc(n, 1);
        int once = 1;
        probe_sattolo(next, n, 1234 + n);
        for (i = 0; i < n; i++) fixed += n > 1 && next[i] == i;
        /* from 0, n steps visit every element exactly once and come back */
        do {
            if (seen[at]) once = 0;
            seen[at] = 1;
            at = next[at];
            steps++;
        } while (at != 0 && steps <= n);
        CHECK(once);
        CHECK_EQ_U(steps, n);
        CHECK_EQ_U(fixed, 0);
        for (i = 0; i < n; i++) CHECK(seen[i]);
        free(next);
        free(seen);
    }
    /* different seeds give different cycles */
    {
        size_t a[100], b[100];
        probe_sattolo(a, 100, 1);
        probe_sattolo(b, 100, 2);
        CHECK(memcmp(a, b, sizeof a) != 0);
    }
}

/* ---- --check FILE: a profile measured on this machine is consistent ---- */
static int check_file(const char *path)
{
    static const char *const levels[4] = {"L1", "L2", "L3", "DRAM"};
    edan_profile *p;
    char err[400];
    size_t i;
    int k, t;
    if (edan_profile_load(path, NULL, &p, err, sizeof err) != EDAN_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    /* every roof: positive median, min <= median <= max */
    for (i = 0; i < p->num_bandwidth; i++) {
        const edan_profile_bandwidth *b = &p->bandwidth[i];
        CHECK(b->median > 0 && b->min <= b->median && b->median <= b->max);
    }
    for (i = 0; i < p->num_compute; i++) {
        const edan_profile_compute *c = &p->compute[i];
        CHECK(c->median > 0 && c->min <= c->median && c->median <= c->max);
    }
    CHECK(p->num_compute > 0);
    /* the hierarchy: each deeper level's roof below the previous one, its
       latency above. At all cores L3 is only required to beat DRAM: when
       the probe had to shrink L3 to what the latency sweep shows (a VM
       reporting the host's cache), the per-thread L3 share may be no
       larger than L2, and then the two measure the same thing. */
    for (t = 0; t < 2; t++) {
        uint32_t th = t ? p->cores : 1;
        for (k = 0; k < 4; k++) {
            double r = edan_profile_roof(p, levels[k], th);
            printf("roof %-4s %u thread(s): %.1f GB/s\n", levels[k], th, r);
            CHECK(r > 0);
            if (k && !(t && k == 2)) CHECK(r < edan_profile_roof(p, levels[k - 1], th));
        }
        CHECK(edan_profile_roof(p, "DRAM", th) < edan_profile_roof(p, "L2", th));
    }
    for (k = 0; k < 4; k++) {
        double ns = -1, prev = -1;
        for (i = 0; i < p->num_latency; i++) {
            if (!strcmp(p->latency[i].level, levels[k])) ns = p->latency[i].ns;
            if (k && !strcmp(p->latency[i].level, levels[k - 1])) prev = p->latency[i].ns;
        }
        printf("latency %-4s %.2f ns\n", levels[k], ns);
        CHECK(ns > 0);
        if (k) CHECK(ns > prev);
    }
    CHECK(p->mlp_m >= 1);
    CHECK(p->dram_latency_cycles > 0);
    CHECK(p->core_ghz > 0);
    CHECK(p->num_carm == 4);
    for (i = 0; i < p->num_carm; i++) CHECK(p->carm[i].rms_error_pct >= 0);
    printf("m = %u, alpha = %.0f cycles, core %.2f GHz\n", p->mlp_m, p->dram_latency_cycles, p->core_ghz);
    edan_profile_free(p);
    return check_summary(path);
}

/* edan_read_stream, the one reading loop of the loader and the CLI: the
   whole stream, NUL-terminated, across its buffer's growth; more than max
   bytes refused, exactly max accepted; an empty stream is empty. */
static void test_read_stream(void)
{
    const size_t n = 200000;     /* more than the first 64 KiB buffer, and its double */
    FILE *f = tmpfile();
    char *buf = NULL;
    size_t len = 1, i, bad = 0;
    CHECK(f != NULL);
    if (!f) return;
    for (i = 0; i < n; i++) fputc('a' + (int)(i % 26), f);
    rewind(f);
    CHECK(edan_read_stream(f, n, NULL, &buf, &len) == EDAN_OK && buf && len == n);
    if (buf) {
        for (i = 0; i < n; i++) bad += buf[i] != 'a' + (int)(i % 26);
        CHECK(bad == 0 && buf[n] == 0);
    }
    free(buf);
    rewind(f);
    CHECK(edan_read_stream(f, n - 1, NULL, &buf, &len) == EDAN_ERR_LIMIT && buf == NULL && len == 0);
    rewind(f);
    CHECK(edan_read_stream(f, 100, NULL, &buf, &len) == EDAN_ERR_LIMIT && buf == NULL);
    fclose(f);
    f = tmpfile();
    if (!f) return;
    CHECK(edan_read_stream(f, 0, NULL, &buf, &len) == EDAN_OK && buf && len == 0 && buf[0] == 0);
    free(buf);
    fclose(f);
}

/* "checks" (probe's checks of its figures against the machine's limits):
   a profile without it loads with none; with it, the failed ones are
   counted; one that is not an object, or a result without "passed", is a
   parse error at its line. The unstable figures come from "stability". */
static void test_profile_checks(void)
{
    static const char *const tails[] = {
        ",\n  \"checks\": {\"results\": [{\"check\": \"flops_per_cycle\", \"passed\": true},\n"
        "    {\"check\": \"roof_order\", \"passed\": false}, {\"check\": \"latency_order\", \"passed\": false}]},\n"
        "  \"stability\": {\"unstable\": [{\"figure\": \"L1 latency\"}]}\n}\n",
        ",\n  \"checks\": \"none\"\n}\n",
        ",\n  \"checks\": {\"results\": [{\"passed\": true},\n    {\"passed\": 0}]}\n}\n",
    };
    ref_profile v = {3.25, 1.5, 4.875, 4.25, 13.8125, 101.5, 329.875, 211.25, 12.75, 7};
    char *base = make_profile(&v, 1, "edan-hwprofile"), text[9000], err[300];
    edan_profile *p = NULL;
    size_t k;
    CHECK(edan_profile_parse(base, strlen(base), "t.json", NULL, &p, err, sizeof err) == EDAN_OK);
    if (p) CHECK(p->num_checks == 0 && p->checks_failed == 0 && p->unstable_figures == 0);
    edan_profile_free(p);
    for (k = 0; k < sizeof tails / sizeof tails[0]; k++) {
        size_t n = strlen(base) - 3;        /* without "\n}\n" */
        edan_result rc;
        memcpy(text, base, n);
        snprintf(text + n, sizeof text - n, "%s", tails[k]);
        rc = edan_profile_parse(text, strlen(text), "t.json", NULL, &p, err, sizeof err);
        if (k == 0) {
            CHECK(rc == EDAN_OK && p && p->num_checks == 3 && p->checks_failed == 2 && p->unstable_figures == 1);
            if (rc != EDAN_OK) fprintf(stderr, "%s\n", err);
        } else {
            CHECK(rc == EDAN_ERR_PARSE && p == NULL);
            char want[128];
            size_t i, line = 2 + (k == 2);  /* "checks" opens the tail's second line; its second result the third */
            for (i = 0; i < n; i++) line += text[i] == '\n';
            snprintf(want, sizeof want, k == 1 ? "t.json:%u: \"checks\" must be an object"
                                               : "t.json:%u: \"checks\".\"results\"[1] needs \"passed\"",
                     (unsigned)line);
            CHECK(strstr(err, want) != NULL);
            if (!strstr(err, want)) fprintf(stderr, "want %s, got %s\n", want, err);
        }
        edan_profile_free(p);
        p = NULL;
    }
    free(base);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--check")) return check_file(argv[2]);
    test_json();
    test_profile();
    test_profile_window();
    test_profile_checks();
    test_sattolo();
    test_read_stream();
    return check_summary("test_profile");
}

