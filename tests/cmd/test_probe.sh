#!/usr/bin/env bash
# ./probe on this machine: a quick run writes a profile that the loader
# accepts and that is consistent (build/test_profile --check), with the
# budget it kept recorded (its speed is make bench's, not a test's) and its
# checks against the machine's limits recorded as their figures say (and
# found again by probe --check FILE; crafted figures that break physics
# fail them); a run
# with a 2 s budget stops its measurements at
# their deadlines and still has 3 repetitions each; the chase cycle is one
# cycle with evenly spaced marks; bad arguments and an unwritable output
# fail cleanly; Ctrl-C leaves no file. (The loader is fuzzed by
# tests/fuzz/test_fuzz_profile.sh.)
# The machine is shared: if the first profile is inconsistent the probe
# runs once more, and the test fails only if both are.
set -u
cd "$(dirname "$0")/../.."
[ -x ./probe ] && [ -x build/test_profile ] || { echo "needs ./probe and build/test_profile (make test)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# --help tells the options; unknown options are refused
./probe --help | grep -q -- '--quick' || { echo "FAIL: --help does not list --quick"; fail=1; }
./probe --bogus >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -ne 0 ] && grep -q "unknown option --bogus" "$tmp/err" || { echo "FAIL: --bogus: rc $rc"; fail=1; }
./probe --numma >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "did you mean --numa?" "$tmp/err" || { echo "FAIL: --numma: rc $rc $(cat "$tmp/err")"; fail=1; }
./probe -o >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "-o needs a value" "$tmp/err" || { echo "FAIL: -o alone: rc $rc $(cat "$tmp/err")"; fail=1; }
./probe --budget 0 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "budget wants seconds" "$tmp/err" || { echo "FAIL: --budget 0: rc $rc"; fail=1; }
./probe --quick -o /nonexistent/dir/p.json 2>"$tmp/err"; rc=$?
[ $rc -ne 0 ] && grep -q "cannot write" "$tmp/err" || { echo "FAIL: unwritable output: rc $rc"; fail=1; }

# Ctrl-C in the middle of a run (once its first measurement began: it said
# so on stderr): non-zero, no profile, no temporary file
./probe --quick -o "$tmp/int.json" 2> "$tmp/int.err" & pid=$!
while kill -0 $pid 2>/dev/null && ! grep -q . "$tmp/int.err"; do sleep 0.1; done
kill -INT $pid; wait $pid; rc=$?
[ $rc -ne 0 ] || { echo "FAIL: interrupted probe exited 0"; fail=1; }
ls "$tmp" | grep -q int.json && { echo "FAIL: interrupted probe left: $(ls "$tmp")"; fail=1; }

# a quick run, consistent
ok=0
for attempt in 1 2; do
  ./probe --quick -q -o "$tmp/p.json" > "$tmp/p.out" || { echo "FAIL: probe --quick exited $?"; fail=1; break; }
  if build/test_profile --check "$tmp/p.json"; then ok=1; break; fi
  echo "attempt $attempt inconsistent (shared machine?)"
done
[ $ok -eq 1 ] || fail=1
python3 - "$tmp/p.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "edan-hwprofile" and d["version"] == 1
assert d["bandwidth_method"]["write_allocate_counted"] is False
ops = {(b["level"], b["op"]) for b in d["bandwidth"]}
for lv in ("L1", "L2", "L3", "DRAM"):
    for op in ("load", "store", "2:1", "1:1"):
        assert (lv, op) in ops, (lv, op)
assert ("DRAM", "store_nt") in ops
assert {b["threads"] for b in d["bandwidth"]} == {1, d["topology"]["cores"]}
assert [p["k"] for p in d["mlp"]["points"]] == list(range(1, 33))
assert len(d["carm_validation"]) == 4 and all(len(c["points"]) == 9 for c in d["carm_validation"])
assert "available" in d["counters"] and (d["counters"]["available"] or d["counters"]["reason"])
# counters said available have measured the kernels (PAPI may report counters perf_event cannot open)
assert not d["counters"]["available"] or d["counters"]["kernels"], d["counters"]
assert all(l["page_bytes"] > 0 for l in d["latency"])
b = d["budget"]
assert b["seconds"] == d["method"]["budget_seconds"] == 15 and b["elapsed_seconds"] > 0
assert [s["name"] for s in b["sections"]][:2] == ["clocks", "latency_sweep"]
for e in d["bandwidth"] + d["compute"]:
    assert e["reps"] >= d["method"]["floor_reps"] and e["stop"] in ("settled", "max_reps", "deadline"), e
# a load roof is the better of its two orders, and says which
for e in d["bandwidth"]:
    if e["op"] == "load":
        o = e["orders_GBps"]
        assert e["order"] in o and e["GBps"]["median"] == max(o.values()) == o[e["order"]], e
    else:
        assert "order" not in e and "orders_GBps" not in e, e
print("sections present")
PY
# every figure carries its spreads; one is unstable exactly when its middle
# half spans more than the threshold, and then the profile and the summary
# list it; the summary says how to use the profile
python3 - "$tmp/p.json" "$tmp/p.out" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); out = open(sys.argv[2]).read()
st = d["stability"]; th = st["threshold"]
assert th == 0.10 and st["max_reruns"] == 1 and st["figures"] > 0
stats = [e["GBps"] for e in d["bandwidth"]] + [e["GFLOPs"] for e in d["compute"]] + [d["frequency"]["core_ghz"]]
flagged = 0
for s in stats:
    assert s["min"] <= s["median"] <= s["max"] and abs(s["spread"] - (s["max"] - s["min"]) / s["median"]) <= 1e-4 * (1 + s["spread"]), s
    assert s.get("unstable", False) == (s["quartile_spread"] > th), s
    flagged += s.get("unstable", False)
for l in d["latency"]:
    assert l.get("unstable", False) == (l["ns_quartile_spread"] > th), l
    flagged += l.get("unstable", False)
for u in st["unstable"]:
    assert u["quartile_spread"] > th and u["q1"] <= u["median"] <= u["q3"] and 1 <= u["runs"] <= 2, u
assert len(st["unstable"]) == flagged, (len(st["unstable"]), flagged)
assert ("probe: warning: %d of %d figures stayed unstable" % (flagged, st["figures"]) in out) == (flagged > 0), out
assert "Use it: edan trace --profile " + sys.argv[1] in out and "edan roofline " + sys.argv[1] in out, out
print("stability: %d of %d figures unstable after %d reruns" % (flagged, st["figures"], st["reruns"]))
PY
# the statistics behind it: one outlier leaves a figure stable, a
# disagreeing middle half does not
cat > "$tmp/stats.c" <<'C'
#include "probes/probe.h"
#define EDAN_IMPLEMENTATION     /* topo.c draws profiles' figures */
#include "edan.h"
#include <stdio.h>
int main(void)
{
    static const double outlier[] = {10, 10, 10, 10, 100}, split[] = {10, 10, 15, 15, 15}, calm[] = {100, 101, 99, 102, 98, 100, 100};
    probe_stats s;
    int bad = 0;
    probe_stats_of(outlier, 5, &s);
    bad |= !(s.median == 10 && s.q1 == 10 && s.q3 == 10 && s.spread == 9 && !probe_stats_unstable(&s));
    probe_stats_of(split, 5, &s);
    bad |= !(s.median == 15 && s.q1 == 10 && s.q3 == 15 && probe_stats_unstable(&s));
    probe_stats_of(calm, 7, &s);
    bad |= !(s.median == 100 && s.q1 == 99.5 && s.q3 == 100.5 && !probe_stats_unstable(&s));
    probe_stats_of(split, 2, &s);
    bad |= probe_stats_unstable(&s);         /* fewer than 3 repetitions: no judgement */
    return bad;
}
C
cc -std=c99 -Wall -Wextra -O2 -I. -D_GNU_SOURCE -o "$tmp/stats" "$tmp/stats.c" probes/measure.c probes/topo.c $(pkg-config --cflags --libs hwloc) -lpthread -lm \
  && "$tmp/stats" && echo "stability rule: quartiles" || { echo "FAIL: probe_stats_of / probe_stats_unstable"; fail=1; }

# the checks against the machine's limits on crafted figures: the issue's
# 111.5 GFLOP/s of AVX-512 FMA on one core at 1.16 GHz (96 flops a cycle)
# and its clock, inverted roofs and latencies fail; sound figures pass
cat > "$tmp/checks.c" <<'C'
#include "probes/probe.h"
#define EDAN_IMPLEMENTATION     /* topo.c draws profiles' figures */
#include "edan.h"
#include <stdio.h>
#define T(cond) do { if (!(cond)) { printf("check failed: %s\n", #cond); bad = 1; } } while (0)
int main(void)
{
    probe_check c;
    double zero = 0, nan = zero / zero;
    int bad = 0, isa;
    for (isa = 0; isa < PROBE_ISA_COUNT; isa++)      /* 2 FP units x lanes x 2 flops (FMA) */
        T(probe_flops_per_cycle_limit(isa) == 2 * probe_isa_lanes(isa) * 2);
    T(probe_flops_per_cycle_limit(PROBE_ISA_AVX512) == 32);
    T(!probe_check_flops(&c, PROBE_ISA_AVX512, "avx512 fma 1 thread(s)", 111.5, 1, 1.16) && !c.passed);
    T(c.value > 96 && c.value < 96.2 && c.limit == 32 && c.kind == PROBE_CHECK_FLOPS && c.nfig == 3);
    T(probe_check_flops(&c, PROBE_ISA_AVX512, "avx512 fma 1 thread(s)", 111.5, 1, 3.5));
    T(!probe_check_flops(&c, PROBE_ISA_AVX2, "avx2 fma 2 thread(s)", 111.5, 2, 3.0));  /* 18.6 > 16 */
    T(probe_check_flops(&c, PROBE_ISA_AVX2, "avx2 fma 2 thread(s)", 96, 2, 3.0));      /* 16 */
    T(probe_check_flops(&c, PROBE_ISA_SCALAR, "scalar fma 1 thread(s)", 4.15, 1, 1.0)); /* within 5% */
    T(!probe_check_flops(&c, PROBE_ISA_SCALAR, "scalar fma 1 thread(s)", 4.3, 1, 1.0));
    T(!probe_check_flops(&c, PROBE_ISA_SSE, "x", nan, 1, 2.0) && !probe_check_flops(&c, PROBE_ISA_SSE, "x", 4, 1, 0));
    T(!probe_check_clock(&c, PROBE_ISA_AVX512, 111.5, 1.16) && c.kind == PROBE_CHECK_CLOCK);
    T(c.limit == 1.16 && c.value > 3.48 && c.value < 3.49);   /* the slowest clock for 111.5 GFLOP/s: 3.48 GHz */
    T(probe_check_clock(&c, PROBE_ISA_AVX512, 111.5, 3.6));
    T(!probe_check_order(&c, PROBE_CHECK_ROOFS, "L1", 162, "L2", 323, 1) && c.kind == PROBE_CHECK_ROOFS);
    T(probe_check_order(&c, PROBE_CHECK_ROOFS, "L1", 323, "L2", 162, 1));
    T(probe_check_order(&c, PROBE_CHECK_ROOFS, "L2", 100, "L3", 104, 2));    /* within 5% */
    T(!probe_check_order(&c, PROBE_CHECK_ROOFS, "L3", 40, "DRAM", 60, 2));
    T(!probe_check_order(&c, PROBE_CHECK_LATENCY, "L3", 40, "DRAM", 30, 1) && c.kind == PROBE_CHECK_LATENCY);
    T(probe_check_order(&c, PROBE_CHECK_LATENCY, "L1", 1.2, "L2", 4, 1));
    return bad;
}
C
cc -std=c99 -Wall -Wextra -O2 -I. -D_GNU_SOURCE -o "$tmp/checks" "$tmp/checks.c" probes/check.c probes/kernels.c probes/measure.c probes/topo.c $(pkg-config --cflags --libs hwloc) -lpthread -lm \
  && "$tmp/checks" && echo "checks on crafted figures: impossible flops per cycle, a clock too slow for the FLOP roof, inverted roofs and latencies fail" \
  || { echo "FAIL: probe_check_* on crafted figures"; fail=1; }

# the quick run's checks: one per compute entry (at the clock measured around
# it), the clock against the FLOP roof, the roofs and latencies level by
# level; each passed exactly when its value is within its limit (+ slack),
# recomputed here from the figures the profile holds; failed ones marked in
# their entries and in the summary; probe --check FILE finds the same
python3 - "$tmp/p.json" "$tmp/p.out" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); out = open(sys.argv[2]).read()
ck = d["checks"]; res = ck["results"]; slack = ck["slack"]
lim = ck["flops_per_cycle_limit"]
lanes = {"scalar": 1, "sse": 2, "avx2": 4, "avx512": 8}
assert all(lim[i] == 2 * lanes[i] * 2 for i in lanes) and "2 FP units" in lim["reason"], lim
assert ck["max_retries"] == 2 and 0 < slack < 0.2
kinds = [r["check"] for r in res]
levels = [l["level"] for l in d["latency"]]
cores = d["topology"]["cores"]
assert kinds.count("flops_per_cycle") == len(d["compute"]), kinds
assert kinds.count("clock_vs_flop_roof") == 1
assert kinds.count("latency_order") == len(levels) - 1
assert kinds.count("roof_order") == (len(levels) - 1) * (2 if cores > 1 else 1)
for r in res:
    assert r["passed"] == (r["value"] <= r["limit"] * (1 + slack)), r
    assert 0 <= r["retries"] <= ck["max_retries"] and r["figures"], r
assert ck["failed"] == sum(not r["passed"] for r in res) and ck["count"] == len(res)
assert ck["unstable"] == len(d["stability"]["unstable"]) and ck["figures"] == d["stability"]["figures"]
byfig = {r["figure"]: r for r in res if r["check"] == "flops_per_cycle"}
for e in d["compute"]:
    r = byfig["%s %s %d thread(s)" % (e["isa"], e["op"], e["threads"])]
    f = e["GFLOPs"]["median"] / e["threads"] / e["clock_ghz"]
    assert abs(e["flops_per_cycle_per_core"] - f) <= 1e-4 * f and abs(r["value"] - f) <= 1e-4 * f, (e, r)
    assert r["limit"] == lim[e["isa"]] and e.get("check_failed", False) == (not r["passed"]), (e, r)
roof = max((e for e in d["compute"] if e["threads"] == 1), key=lambda e: e["GFLOPs"]["median"])
clk = [r for r in res if r["check"] == "clock_vs_flop_roof"][0]
assert clk["limit"] == d["frequency"]["core_ghz"]["median"], clk
assert abs(clk["value"] - roof["GFLOPs"]["median"] / lim[roof["isa"]]) <= 1e-4 * clk["value"], clk
assert ("checks against the machine's limits failed" in out) == (ck["failed"] > 0), out
assert ("checks against the machine's limits: all %d passed (%d re-measurement(s)" % (len(res), ck["retries"]) in out) == (ck["failed"] == 0), out
print("checks: %d of %d failed, %d retries" % (ck["failed"], len(res), ck["retries"]))
PY
./probe --check "$tmp/p.json" > "$tmp/check.out"; rc=$?
python3 - "$tmp/p.json" "$tmp/check.out" "$rc" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); out = open(sys.argv[2]).read(); rc = int(sys.argv[3])
n, f = len(d["checks"]["results"]), d["checks"]["failed"]
assert ("%d checks, %d failed" % (n, f)) in out and rc == (1 if f else 0), (out, rc)
print("probe --check of the run's profile: the run's %d checks, %d failed, exit %d" % (n, f, rc))
PY
# crafted from the run's profile: one core's widest FMA at three times the
# flops a cycle its ISA allows (at the profile's clock), and L1's roofs
# below L2's: --check exits 1 and names them
fig=$(python3 - "$tmp/p.json" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lanes = {"scalar": 1, "sse": 2, "avx2": 4, "avx512": 8}
e = max((e for e in d["compute"] if e["threads"] == 1 and e["op"] == "fma"), key=lambda e: lanes[e["isa"]])
ghz = d["frequency"]["core_ghz"]["median"]
e["clock_ghz"] = ghz
e["GFLOPs"].update(median=3 * 2 * lanes[e["isa"]] * 2 * ghz, max=3 * 2 * lanes[e["isa"]] * 2 * ghz)
for b in d["bandwidth"]:
    if b["level"] == "L1":
        b["GBps"].update(min=0.01, median=0.01)
json.dump(d, open(sys.argv[2], "w"))
print(e["isa"])
PY
)
./probe --check "$tmp/bad.json" > "$tmp/bad.out"; rc=$?
[ $rc -eq 1 ] && grep -q "flops_per_cycle *$fig fma 1 thread(s)" "$tmp/bad.out" && grep -q "clock_vs_flop_roof" "$tmp/bad.out" \
  && grep -q "roof_order *L2 <= L1 1 thread(s)" "$tmp/bad.out" \
  && echo "probe --check: a crafted profile's impossible flops per cycle, clock and inverted roofs fail (exit 1)" \
  || { echo "FAIL: probe --check crafted ($fig): rc $rc $(cat "$tmp/bad.out")"; fail=1; }
./probe --check "$tmp/none.json" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "none.json" "$tmp/err" || { echo "FAIL: --check missing file: rc $rc"; fail=1; }

# --version; --topology draws the machine, with a profile's figures beside its caches and nodes
./probe --version > "$tmp/v" && grep -Eq '^probe [0-9]+\.[0-9]+ \(edan.h .*profile version 1; hwloc [0-9.]+' "$tmp/v" \
  && echo "--version: $(cat "$tmp/v")" || { echo "FAIL: --version: $(cat "$tmp/v")"; fail=1; }
./probe --topology > "$tmp/topo" || { echo "FAIL: --topology exited $?"; fail=1; }
grep -q "^Machine (" "$tmp/topo" && grep -q "PU L#0" "$tmp/topo" && grep -q "figures: none, no profile of this machine yet" "$tmp/topo" \
  && echo "--topology without a profile" || { echo "FAIL: --topology: $(cat "$tmp/topo")"; fail=1; }
./probe --topology --profile "$tmp/p.json" > "$tmp/topo" || { echo "FAIL: --topology --profile exited $?"; fail=1; }
python3 - "$tmp/p.json" "$tmp/topo" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); t = open(sys.argv[2]).read()
pus = sum(1 for l in t.splitlines() if "PU L#" in l)
assert pus == d["topology"]["pus"], (pus, t)
for c in d["caches"]:
    want = "| %s: %.1f ns (%.0f cycles)" % (c["level"], c["latency_ns"], c["latency_cycles"])
    assert want in t, (want, t)
dram = [l for l in d["latency"] if l["level"] == "DRAM"][0]
assert "| DRAM: %.1f ns (alpha %.0f cycles)" % (dram["ns"], dram["cycles"]) in t and "m %d" % d["mlp"]["m"] in t, t
assert "figures: " + sys.argv[1] in t
print("--topology --profile: every cache level's and DRAM's figures beside them")
PY
./probe --topology --profile "$tmp/none.json" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "none.json" "$tmp/err" || { echo "FAIL: --topology --profile missing: rc $rc"; fail=1; }
./probe --profile "$tmp/p.json" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "is for --topology" "$tmp/err" || { echo "FAIL: --profile without --topology: rc $rc"; fail=1; }

# a budget too short for the probes: every measurement stops at its
# deadline with 3 repetitions, and the profile is complete
./probe --quick --budget 2 -q -o "$tmp/b.json" || { echo "FAIL: probe --budget 2 exited $?"; fail=1; }
python3 - "$tmp/b.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
entries = d["bandwidth"] + d["compute"] + [p for c in d["carm_validation"] for p in c["points"]]
assert d["budget"]["seconds"] == 2 and d["budget"]["deadline_stops"] > 0
assert all(e["reps"] >= 3 for e in entries)
assert sum(e["stop"] == "deadline" for e in entries) > len(entries) // 2
assert d["budget"]["shortest_rep_seconds"] < d["method"]["rep_seconds"]
print("budget 2 s: %d of %d measurements stopped at their deadline" %
      (sum(e["stop"] == "deadline" for e in entries), len(entries)))
PY

# the chase cycle (probe_cycle_order): one cycle through every element
cat > "$tmp/cycle.c" <<'C'
#include "probes/sattolo.h"
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    size_t sizes[] = {1, 2, 3, 64, 1000, 65536}, k;
    for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k], i, *order = malloc(n * sizeof *order), *next = malloc(n * sizeof *next), p = 0;
        char *seen = calloc(n, 1);
        probe_cycle_order(order, n, 7 + n);
        for (i = 0; i < n; i++) next[order[i]] = order[(i + 1) % n];
        for (i = 0; i < n; i++) { if (seen[p]) { printf("n=%zu: cycle shorter than n\n", n); return 1; } seen[p] = 1; p = next[p]; }
        if (p != 0) { printf("n=%zu: not back at the start\n", n); return 1; }
        free(order); free(next); free(seen);
    }
    return 0;
}
C
cc -std=c99 -Wall -Wextra -O2 -I. -o "$tmp/cycle" "$tmp/cycle.c" && "$tmp/cycle" && echo "chase cycle: one cycle" || { echo "FAIL: probe_cycle_order"; fail=1; }
exit $fail
