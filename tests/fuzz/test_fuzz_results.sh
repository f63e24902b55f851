#!/usr/bin/env bash
# Fuzzes the readers of result files under ASan and UBSan for a bounded time
# (FUZZ_SECONDS, default 30): each input is read by `edan rank`, `edan plot`
# (a report and a sweep CSV) and `edan roofline` (an --app report and a
# profile), which must succeed or exit 2 with a message (tests/fuzz/fuzz_results.c).
# Seeds: a report with a timeline, a what-if and hotspots, a sweep, the
# shipped profiles. Fails on any crash, sanitizer report, leak or timeout.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/corpus"
./edan trace --quiet --json --tau 50 --alpha-add 100 --top 3 --sweep "$T/corpus/sweep.csv" \
  -o "$T/corpus/report.json" --func kernel_gemm -- build/examples/gemm 6 >/dev/null 2>"$T/err" ||
  { echo "seed: edan trace failed:"; cat "$T/err"; exit 1; }
cp hwprofiles/vm.json hwprofiles/reference-tpds19-knl.json "$T/corpus/"
FUZZ_PROFILE=hwprofiles/vm.json fuzz_run fuzz_results 65536
exit $fail
