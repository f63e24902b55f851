#!/usr/bin/env bash
# Fuzzes the readers of result files under ASan and UBSan for a bounded time
# (FUZZ_SECONDS, default 30): each input is read by `edan rank`, `edan plot`
# (a report and a sweep CSV) and `edan roofline` (an --app report, with a
# hybrid roof too, and a profile), which must succeed or exit 2 with a
# message; a refusal leaves no chart, a chart has no nan or inf in its
# attributes, rank's JSON parses (tests/fuzz/fuzz_results.c). Seeds: a
# report with a timeline, a what-if and hotspots, a sweep, the shipped
# profiles, and reports, a sweep and a profile with numbers beyond a double,
# subnormal or far out of range and with duplicate keys; mutations add such
# numbers and keys anywhere (tests/fuzz/json_mutate.h). Fails on any crash,
# sanitizer report, leak, timeout or broken rule.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/corpus"
./edan trace --quiet --json --tau 50 --alpha-add 100 --top 3 --sweep "$T/corpus/sweep.csv" \
  -o "$T/corpus/report.json" --func kernel_gemm -- build/examples/gemm 6 >/dev/null 2>"$T/err" ||
  { echo "seed: edan trace failed:"; cat "$T/err"; exit 1; }
cp hwprofiles/vm.json hwprofiles/qemu-2node.json hwprofiles/reference-tpds19-knl.json "$T/corpus/"
c="$T/corpus"
sed -e 's/"W": [0-9]*/"W": 1e999/' "$c/report.json" > "$c/inf.json"
sed -e 's/"W": \([0-9]*\)/"W": 1e300, "W": \1/' -e 's/"tau": 50,/"tau": 50, "tau": 4.9e-324,/' "$c/report.json" \
  > "$c/duplicate.json"
sed -e 's/"C": [0-9]*/"C": 4.9e-324/' -e 's/"bins": \[[0-9]*/"bins": [4.9e-324/' \
  -e 's/"arithmetic_intensity": [0-9.e-]*/"arithmetic_intensity": 1e308/' "$c/report.json" > "$c/subnormal.json"
sed -e '2,$s/,[0-9.]*$/,1e308/' "$c/sweep.csv" > "$c/sweep-far.csv"
sed -e 's/"median": \([0-9.]*\)/"median": 4.9e-324/g' hwprofiles/qemu-2node.json > "$c/profile-subnormal.json"
sed -e 's/"version": 1/"version": 1e308/' -e '0,/"cluster": 0/s//"cluster": 1e308/' hwprofiles/qemu-2node.json \
  > "$c/profile-far.json"
FUZZ_PROFILE=hwprofiles/qemu-2node.json fuzz_run fuzz_results 65536
exit $fail
