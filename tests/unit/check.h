/* tests/unit/check.h - minimal assertions for the C tests: a failed check prints
   file:line and the values, and the test exits non-zero at the end. */
#ifndef EDAN_TEST_CHECK_H
#define EDAN_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static int check_failures, check_count;

#define CHECK(cond) do { check_count++; if (!(cond)) { check_failures++; \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ_U(a, b) do { unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
    check_count++; if (va_ != vb_) { check_failures++; \
    fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", __FILE__, __LINE__, #a, va_, #b, vb_); } } while (0)
#define CHECK_NEAR(a, b, tol) do { double va_ = (double)(a), vb_ = (double)(b); check_count++; \
    if (!(fabs(va_ - vb_) <= (tol) * (1.0 + fabs(vb_)))) { check_failures++; \
    fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g\n", __FILE__, __LINE__, #a, va_, vb_); } } while (0)

static int check_summary(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}
#endif
