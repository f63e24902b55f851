/* tests/unit/test_hybrid.c - the hybrid fast/slow memory model of edan.h against
   the LARM paper (Denoyelle et al., TPDS 2019): Eq. (3)-(5) with the theta
   of Table 6 and the KNL bandwidths of Table 4, the footnote-10 error, the
   least-squares fit recovering Table 6 from model-generated measurements,
   and bad input. Expected values are worked by hand from the tables. */
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include "check.h"

enum { LF = EDAN_HYBRID_LF, LS = EDAN_HYBRID_LS, SF = EDAN_HYBRID_SF, SS = EDAN_HYBRID_SS };

/* Table 6, in the paper's column order */
static void table6(edan_hybrid_model *m, int knl)
{
    static const double sky[12] = {0.966, 0.600, -0.102, 0.465, 0.294, 0.373,
                                   0.912, 0.067, 0.337, 0.059, 0.293, 0.54};
    static const double kn[12] = {0.238, 0.722, 0.985, 0.956, 0.611, 0.564,
                                  0.183, 0.953, 0.797, 0.726, 0.571, 0.65};
    const double *v = knl ? kn : sky;
    memset(m->theta, 0, sizeof m->theta);
    m->theta[LF][SF] = v[0]; m->theta[LF][LS] = v[1]; m->theta[LF][SS] = v[2];
    m->theta[LS][SF] = v[3]; m->theta[LS][LF] = v[4]; m->theta[LS][SS] = v[5];
    m->theta[SF][LF] = v[6]; m->theta[SF][LS] = v[7]; m->theta[SF][SS] = v[8];
    m->theta[SS][SF] = v[9]; m->theta[SS][LS] = v[10]; m->theta[SS][LF] = v[11];
}

/* KNL, cluster 0, flat mode (Table 4): MCDRAM:1 92.0 GB/s, NUMA:0 38.1 GB/s
   loads. The paper gives no store bandwidths. */
static edan_hybrid_model knl_loads(void)
{
    edan_hybrid_model m;
    memset(&m, 0, sizeof m);
    m.bw[LF] = 92.0;
    m.bw[LS] = 38.1;
    table6(&m, 1);
    return m;
}

static void test_knl_loads(void)
{
    edan_hybrid_model m = knl_loads();
    edan_hybrid_roof roof;
    edan_hybrid_times t;
    double q[4] = {0, 0, 0, 0};

    /* all in one memory: the model is that memory's bandwidth */
    q[LS] = 1;
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_OK);
    CHECK_NEAR(roof.bw_fit, 38.1, 1e-12);
    CHECK_NEAR(roof.bw_upper, 38.1, 1e-12);
    CHECK_NEAR(roof.bw_lower, 38.1, 1e-12);
    q[LS] = 0; q[LF] = 1;
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_OK);
    CHECK_NEAR(roof.bw_fit, 92.0, 1e-12);

    /* half and half (interleave): slow loads dominate,
       t_fit = 0.5/38.1 + theta_ls^lf * 0.5/92 */
    q[LF] = 0.5; q[LS] = 0.5;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK);
    CHECK(t.dominant == EDAN_HYBRID_LS);
    CHECK_NEAR(t.t_min, 0.5 / 38.1, 1e-12);
    CHECK_NEAR(t.t_max, 0.5 / 38.1 + 0.5 / 92.0, 1e-12);
    CHECK_NEAR(t.t_fit, 0.5 / 38.1 + 0.611 * 0.5 / 92.0, 1e-12);
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_OK);
    CHECK_NEAR(roof.bw_fit, 1.0 / (0.5 / 38.1 + 0.611 * 0.5 / 92.0), 1e-12);
    CHECK_NEAR(roof.bw_fit, 60.8121, 1e-5);         /* by hand: 1/0.0164441 */
    CHECK_NEAR(roof.bw_upper, 76.2, 1e-12);
    CHECK_NEAR(roof.bw_lower, 1.0 / (0.5 / 38.1 + 0.5 / 92.0), 1e-12);

    /* 90% in MCDRAM: fast loads dominate, theta_lf^ls = 0.722 */
    q[LF] = 0.9; q[LS] = 0.1;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK);
    CHECK(t.dominant == EDAN_HYBRID_LF);
    CHECK_NEAR(t.t_fit, 0.9 / 92.0 + 0.722 * 0.1 / 38.1, 1e-12);

    /* the two sides of the break at f = 92/(92+38.1) */
    q[LF] = 92.0 / 130.1 - 1e-6; q[LS] = 1 - q[LF];
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK && t.dominant == EDAN_HYBRID_LS);
    q[LF] = 92.0 / 130.1 + 1e-6; q[LS] = 1 - q[LF];
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK && t.dominant == EDAN_HYBRID_LF);

    /* KNL's theta are in [0, 1]: the fit lies between the two bounds, for
       any mix (store bandwidths assumed: 60 and 25 GB/s) */
    m.bw[SF] = 60;
    m.bw[SS] = 25;
    {
        unsigned s = 12345;
        int i, k;
        for (i = 0; i < 1000; i++) {
            for (k = 0; k < 4; k++) {
                s = s * 1103515245u + 12345u;
                q[k] = (double)((s >> 8) % 1000) / 1000.0;
            }
            if (q[0] + q[1] + q[2] + q[3] == 0) continue;
            CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_OK);
            CHECK(roof.bw_lower <= roof.bw_fit * (1 + 1e-12) && roof.bw_fit <= roof.bw_upper * (1 + 1e-12));
        }
    }
}

/* Skylake's theta_lf^ss is negative: t_fit may fall below t_min; the roof
   is reported as fitted (above the all-overlapped bound), not clamped. */
static void test_skylake_negative_theta(void)
{
    edan_hybrid_model m;
    edan_hybrid_roof roof;
    edan_hybrid_times t;
    double q[4] = {0.6, 0, 0, 0.4};
    memset(&m, 0, sizeof m);
    table6(&m, 0);
    m.bw[LF] = m.bw[LS] = m.bw[SF] = m.bw[SS] = 1.0;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK);
    CHECK(t.dominant == EDAN_HYBRID_LF);
    CHECK_NEAR(t.t_fit, 0.6 - 0.102 * 0.4, 1e-12);
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_OK);
    CHECK_NEAR(roof.bw_fit, 1.0 / 0.5592, 1e-12);
    CHECK(roof.bw_fit > roof.bw_upper);
    /* all four transfers, stores to slow dominate:
       t = 0.1, 0.2, 0.3, 0.4 -> 0.4 + 0.54*0.1 + 0.293*0.2 + 0.059*0.3 */
    q[LF] = 0.1; q[LS] = 0.2; q[SF] = 0.3; q[SS] = 0.4;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK);
    CHECK(t.dominant == EDAN_HYBRID_SS);
    CHECK_NEAR(t.t_fit, 0.4 + 0.054 + 0.0586 + 0.0177, 1e-12);
    CHECK_NEAR(t.t_max, 1.0, 1e-12);
    /* a theta so negative that the time vanishes: the times are given, the
       bandwidth is refused (an ill-conditioned fit, not a roof) */
    q[LF] = 0.5; q[LS] = 0; q[SF] = 0; q[SS] = 0.4;
    m.theta[LF][SS] = -3;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK);
    CHECK_NEAR(t.t_fit, 0.5 - 1.2, 1e-12);
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_ERR_INVALID_ARG);
}

/* Equal times: the first of lf, ls, sf, ss dominates. */
static void test_ties(void)
{
    edan_hybrid_model m;
    edan_hybrid_times t;
    double q[4] = {0, 0.5, 0, 0.5};
    memset(&m, 0, sizeof m);
    table6(&m, 1);
    m.bw[LF] = m.bw[LS] = m.bw[SF] = m.bw[SS] = 2.0;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK);
    CHECK(t.dominant == EDAN_HYBRID_LS);
    CHECK_NEAR(t.t_fit, 0.25 + 0.564 * 0.25, 1e-12);
}

/* Footnote 10: 100/n * sqrt(sum of squared relative differences). */
static void test_error(void)
{
    edan_hybrid_model m = knl_loads();
    double q[2][4] = {{0.25, 0.75, 0, 0}, {0.5, 0.5, 0, 0}};
    double y[2], err = -1;
    edan_hybrid_roof r0, r1;
    CHECK(edan_hybrid_bandwidth(&m, q[0], &r0) == EDAN_OK);
    CHECK(edan_hybrid_bandwidth(&m, q[1], &r1) == EDAN_OK);
    y[0] = r0.bw_fit * 1.02;
    y[1] = r1.bw_fit * 0.97;
    CHECK(edan_hybrid_error(&m, 2, (const double (*)[4])q, y, &err) == EDAN_OK);
    CHECK_NEAR(err, 50.0 * sqrt(0.02 * 0.02 + 0.03 * 0.03), 1e-9);
    CHECK_NEAR(err, 1.802776, 1e-6);
}

/* The sweep of the paper's methodology (fast 0..1 in 1/8 x stores 0..1 in
   1/4), measured on a machine that follows Eq. (5) with KNL's theta: the
   fit gives Table 6 back, and the model error is 0. */
static void test_fit_recovers_table6(void)
{
    edan_hybrid_model truth, fit;
    double q[45][4], y[45], err = -1;
    int i = 0, f, s, d, k;
    memset(&truth, 0, sizeof truth);
    table6(&truth, 1);
    truth.bw[LF] = 92.0; truth.bw[LS] = 38.1; truth.bw[SF] = 60.0; truth.bw[SS] = 25.0;
    for (f = 0; f <= 8; f++)
        for (s = 0; s <= 4; s++, i++) {
            edan_hybrid_roof r;
            q[i][LF] = (1 - s / 4.0) * (f / 8.0);
            q[i][LS] = (1 - s / 4.0) * (1 - f / 8.0);
            q[i][SF] = (s / 4.0) * (f / 8.0);
            q[i][SS] = (s / 4.0) * (1 - f / 8.0);
            CHECK(edan_hybrid_bandwidth(&truth, q[i], &r) == EDAN_OK);
            y[i] = r.bw_fit;
        }
    fit = truth;
    for (d = 0; d < 4; d++)
        for (k = 0; k < 4; k++) fit.theta[d][k] = -7;     /* overwritten by the fit */
    CHECK(edan_hybrid_fit(&fit, 45, (const double (*)[4])q, y) == EDAN_OK);
    /* every pair (dominating d, other k) that occurs in the sweep is
       determined and equals Table 6; the others stay undetermined */
    {
        int occurs[4][4];
        memset(occurs, 0, sizeof occurs);
        for (i = 0; i < 45; i++) {
            double t[4];
            int dom = 0;
            for (k = 0; k < 4; k++) t[k] = q[i][k] / truth.bw[k];
            for (k = 1; k < 4; k++)
                if (t[k] > t[dom]) dom = k;
            for (k = 0; k < 4; k++)
                if (k != dom && t[k] > 0) occurs[dom][k] = 1;
        }
        for (d = 0; d < 4; d++)
            for (k = 0; k < 4; k++) {
                if (k == d) continue;
                if (occurs[d][k]) CHECK_NEAR(fit.theta[d][k], truth.theta[d][k], 1e-9);
                else CHECK(isnan(fit.theta[d][k]));
            }
        CHECK(occurs[LS][LF] && occurs[LF][LS] && occurs[SS][LS] && occurs[SF][LF]);
    }
    /* undetermined theta are never needed by the points themselves */
    for (d = 0; d < 4; d++)
        for (k = 0; k < 4; k++)
            if (isnan(fit.theta[d][k])) fit.theta[d][k] = 0;
    CHECK(edan_hybrid_error(&fit, 45, (const double (*)[4])q, y, &err) == EDAN_OK);
    CHECK(err < 1e-9);

    /* noise of +-1% on the measurements: the fit stays near Table 6 and the
       error near 1%/sqrt(n)-scaled footnote-10 value, far below the paper's 3% */
    {
        unsigned r = 777;
        for (i = 0; i < 45; i++) {
            r = r * 1103515245u + 12345u;
            y[i] *= 1.0 + 0.01 * ((double)((r >> 8) % 2001) / 1000.0 - 1.0);
        }
        fit = truth;
        CHECK(edan_hybrid_fit(&fit, 45, (const double (*)[4])q, y) == EDAN_OK);
        CHECK(fabs(fit.theta[LS][LF] - 0.611) < 0.2);
        for (d = 0; d < 4; d++)
            for (k = 0; k < 4; k++)
                if (isnan(fit.theta[d][k])) fit.theta[d][k] = 0;
        CHECK(edan_hybrid_error(&fit, 45, (const double (*)[4])q, y, &err) == EDAN_OK);
        CHECK(err > 0 && err < 1.0);
    }
}

static void test_bad_input(void)
{
    edan_hybrid_model m = knl_loads();
    edan_hybrid_times t;
    edan_hybrid_roof roof;
    double q[4] = {0.5, 0.5, 0, 0}, y[1] = {50}, err;
    double zero[4] = {0, 0, 0, 0}, neg[4] = {0.5, -0.1, 0, 0}, stores[4] = {0.5, 0, 0.5, 0};
    double nan_q[4] = {0.5, 0, 0, 0};
    nan_q[1] = NAN;
    CHECK(edan_hybrid_times_of(NULL, q, &t) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_hybrid_times_of(&m, zero, &t) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_hybrid_times_of(&m, neg, &t) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_hybrid_times_of(&m, nan_q, &t) == EDAN_ERR_INVALID_ARG);
    /* stores to fast with no store bandwidth known (KNL in the paper) */
    CHECK(edan_hybrid_bandwidth(&m, stores, &roof) == EDAN_ERR_INVALID_ARG);
    /* a theta the evaluation needs is undetermined */
    m.theta[LS][LF] = NAN;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_ERR_INVALID_ARG);
    /* ... and one it does not need is fine */
    m = knl_loads();
    m.theta[LS][SS] = NAN;
    CHECK(edan_hybrid_times_of(&m, q, &t) == EDAN_OK);
    CHECK(edan_hybrid_error(&m, 0, (const double (*)[4])&q, y, &err) == EDAN_ERR_INVALID_ARG);
    y[0] = NAN;
    CHECK(edan_hybrid_error(&m, 1, (const double (*)[4])&q, y, &err) == EDAN_ERR_INVALID_ARG);
    y[0] = -1;
    CHECK(edan_hybrid_fit(&m, 1, (const double (*)[4])&q, y) == EDAN_ERR_INVALID_ARG);
}

/* ---- profiles -------------------------------------------------------- */
static edan_json *load_text(const char *text, char *err, size_t errlen)
{
    edan_json *root = NULL;
    if (edan_json_parse(text, strlen(text), NULL, &root, err, errlen) != EDAN_OK) return NULL;
    return root;
}

static edan_json *load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf, err[200];
    long n;
    edan_json *root;
    if (!f) { fprintf(stderr, "%s: cannot open\n", path); return NULL; }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    fclose(f);
    buf[n] = 0;
    root = load_text(buf, err, sizeof err);
    if (!root) fprintf(stderr, "%s:%s\n", path, err);
    free(buf);
    return root;
}

/* The reference profiles give the model of Table 6 and the KNL load
   bandwidths of Table 4 back, and evaluate like the hand-worked values. */
static void test_reference_profiles(void)
{
    edan_json *knl = load_file("hwprofiles/reference-tpds19-knl.json");
    edan_json *sky = load_file("hwprofiles/reference-tpds19-skylake.json");
    edan_json *joe = load_file("hwprofiles/reference-tpds19-joe0.json");
    edan_hybrid_model m, want;
    edan_hybrid_roof roof;
    char err[200];
    double q[4] = {0.5, 0.5, 0, 0};
    int d, k;
    CHECK(knl && sky && joe);
    if (!knl || !sky || !joe) goto out;

    CHECK(edan_hybrid_from_json(knl, 0, &m, err, sizeof err) == EDAN_OK);
    memset(&want, 0, sizeof want);
    table6(&want, 1);
    for (d = 0; d < 4; d++)
        for (k = 0; k < 4; k++)
            if (k != d) CHECK_NEAR(m.theta[d][k], want.theta[d][k], 0);
    CHECK_NEAR(m.bw[LF], 92.0, 0);
    CHECK_NEAR(m.bw[LS], 38.1, 0);
    CHECK(m.bw[SF] == 0 && m.bw[SS] == 0);          /* not in the paper */
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_OK);
    CHECK_NEAR(roof.bw_fit, 1.0 / (0.5 / 38.1 + 0.611 * 0.5 / 92.0), 1e-12);
    q[SF] = 0.1;        /* stores need a store bandwidth the paper does not give */
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_ERR_INVALID_ARG);
    /* Table 4, as printed in the profile: every MCDRAM above every DRAM roof */
    {
        const edan_json *roofs = edan_json_get(edan_json_get(knl, "numa"), "roofs");
        size_t i;
        double mcd_min = 1e9, ddr_max = 0;
        CHECK(edan_json_len(roofs) == 27);
        for (i = 0; i < edan_json_len(roofs); i++) {
            const edan_json *e = edan_json_at(roofs, i);
            const char *lab = edan_json_string(edan_json_get(e, "node_label"), "");
            double v = edan_json_number(edan_json_get(edan_json_get(e, "GBps"), "median"), -1);
            if (strcmp(edan_json_string(edan_json_get(e, "roof"), ""), "local") &&
                strcmp(edan_json_string(edan_json_get(e, "roof"), ""), "remote")) continue;
            if (strncmp(lab, "MCDRAM", 6) == 0 && v < mcd_min) mcd_min = v;
            if (strncmp(lab, "NUMA", 4) == 0 && v > ddr_max) ddr_max = v;
        }
        CHECK(ddr_max > 0 && mcd_min > ddr_max);
    }

    CHECK(edan_hybrid_from_json(sky, -1, &m, err, sizeof err) == EDAN_OK);
    table6(&want, 0);
    for (d = 0; d < 4; d++)
        for (k = 0; k < 4; k++)
            if (k != d) CHECK_NEAR(m.theta[d][k], want.theta[d][k], 0);
    q[SF] = 0;
    CHECK(edan_hybrid_bandwidth(&m, q, &roof) == EDAN_ERR_INVALID_ARG);   /* no bandwidths */

    /* Joe0 has LARM roofs (Table 2) but no hybrid model */
    CHECK(edan_hybrid_from_json(joe, 0, &m, err, sizeof err) == EDAN_ERR_INVALID_ARG);
    CHECK(strstr(err, "no model for cluster 0") != NULL);
    {
        /* Table 2: local > remote nodes in order > congested > contended */
        const edan_json *roofs = edan_json_get(edan_json_get(joe, "numa"), "roofs");
        double local = -1, remote[4] = {0}, contended[4] = {0}, congested = -1;
        size_t i;
        for (i = 0; i < edan_json_len(roofs); i++) {
            const edan_json *e = edan_json_at(roofs, i);
            const char *r = edan_json_string(edan_json_get(e, "roof"), "");
            int node = (int)edan_json_number(edan_json_get(e, "node"), -1);
            double v = edan_json_number(edan_json_get(edan_json_get(e, "GBps"), "median"), -1);
            if (!strcmp(r, "local")) local = v;
            else if (!strcmp(r, "remote") && node >= 0 && node < 4) remote[node] = v;
            else if (!strcmp(r, "contended") && node >= 0 && node < 4) contended[node] = v;
            else if (!strcmp(r, "congested")) congested = v;
        }
        CHECK_NEAR(local, 36.1, 0);
        CHECK(remote[1] > remote[2] && remote[2] > remote[3] && remote[3] > 0);
        CHECK(congested > remote[1] && congested < local);
        CHECK(contended[0] > contended[1] && contended[1] > contended[2] && contended[2] > contended[3]);
        CHECK_NEAR(contended[3], 6.2, 0);
    }
out:
    edan_json_free(knl);
    edan_json_free(sky);
    edan_json_free(joe);
}

/* Malformed models: a clear message with the line. */
static void test_profile_errors(void)
{
    static const char *const bad[] = {
        "{\"numa\": {\"hybrid\": [{\"cluster\": 0,\n \"bandwidth_GBps\": {\"lf\": \"fast\", \"ls\": 1, \"sf\": 1, \"ss\": 1},"
        " \"theta\": {}}]}}",
        "{\"numa\": {\"hybrid\": [{\"cluster\": 0, \"bandwidth_GBps\": {\"lf\": 1, \"ls\": 1, \"sf\": 1, \"ss\": -2},"
        " \"theta\": {}}]}}",
        "{\"numa\": {\"hybrid\": [{\"cluster\": 0, \"bandwidth_GBps\": {\"lf\": 1, \"ls\": 1, \"sf\": 1, \"ss\": 1},\n\n"
        " \"theta\": {\"lf\": {\"ls\": 1, \"sf\": 1}, \"ls\": {}, \"sf\": {}, \"ss\": {}}}]}}",
        "{\"numa\": {\"hybrid\": [{\"cluster\": 0, \"bandwidth_GBps\": {\"lf\": 1, \"ls\": 1, \"sf\": 1, \"ss\": 1}}]}}",
    };
    static const char *const msg[] = {"line 2: bandwidth_GBps.lf", "bandwidth_GBps.ss", "line 3: theta.lf.ss",
                                      "without a theta"};
    size_t i;
    char err[200];
    edan_hybrid_model m;
    for (i = 0; i < sizeof bad / sizeof *bad; i++) {
        edan_json *root = load_text(bad[i], err, sizeof err);
        CHECK(root != NULL);
        if (!root) continue;
        CHECK(edan_hybrid_from_json(root, 0, &m, err, sizeof err) == EDAN_ERR_PARSE);
        if (!strstr(err, msg[i])) fprintf(stderr, "message was: %s\n", err);
        CHECK(strstr(err, msg[i]) != NULL);
        edan_json_free(root);
    }
    {
        edan_json *root = load_text("{\"numa\": {\"skipped\": true}}", err, sizeof err);
        CHECK(root && edan_hybrid_from_json(root, 0, &m, err, sizeof err) == EDAN_ERR_INVALID_ARG);
        CHECK(strstr(err, "no numa.hybrid") != NULL);
        edan_json_free(root);
    }
}

/* A probed profile, loaded: edan_hybrid_from_profile gives each cluster's
   model of its numa.hybrid (qemu-2node.json's bandwidths, as the file has
   them), and says so when a profile has none. */
static void test_loaded_profile(void)
{
    edan_profile *p = NULL, *vm = NULL;
    edan_hybrid_model m;
    char err[200];
    CHECK(edan_profile_load("hwprofiles/qemu-2node.json", NULL, &p, err, sizeof err) == EDAN_OK);
    if (!p) return;
    CHECK(edan_hybrid_from_profile(p, 1, &m, err, sizeof err) == EDAN_OK);
    CHECK(fabs(m.bw[EDAN_HYBRID_LF] - 1.70341938) < 1e-9 && fabs(m.bw[EDAN_HYBRID_SS] - 7.89369317) < 1e-9);
    CHECK(edan_hybrid_from_profile(p, -1, &m, err, sizeof err) == EDAN_OK);
    CHECK(fabs(m.bw[EDAN_HYBRID_LS] - 1.66052849) < 1e-9);
    CHECK(edan_hybrid_from_profile(p, 7, &m, err, sizeof err) == EDAN_ERR_INVALID_ARG && err[0]);
    CHECK(edan_hybrid_from_profile(NULL, 0, &m, err, sizeof err) == EDAN_ERR_INVALID_ARG);
    CHECK(edan_profile_load("hwprofiles/vm.json", NULL, &vm, err, sizeof err) == EDAN_OK);
    if (vm) CHECK(edan_hybrid_from_profile(vm, 0, &m, err, sizeof err) == EDAN_ERR_INVALID_ARG && strstr(err, "numa"));
    edan_profile_free(vm);
    edan_profile_free(p);
}

int main(void)
{
    test_knl_loads();
    test_skylake_negative_theta();
    test_ties();
    test_error();
    test_fit_recovers_table6();
    test_bad_input();
    test_reference_profiles();
    test_profile_errors();
    test_loaded_profile();
    return check_summary("test_hybrid");
}
