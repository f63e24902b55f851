#!/usr/bin/env bash
# Benchmark of `edan trace` on an x86-64 program built for this machine: the
# gemm example compiled with the host's gcc -O2 (dynamically linked), every
# instruction of the run analysed online, without a cache and with L1+L2,
# against qemu-x86_64 alone. Medians of RUNS runs (default 5), round-robin;
# guest instructions per second of each (the analysis cracks them into
# more vertices: both counts are printed); both online runs again with
# --window 0, and what the windowed schedule costs against them (its
# budget: 1.3x); both again with --jobs 1 (all the work on one thread),
# whose time over the cores is about the least any run of this build can
# take here. EDAN_BASE=DIR (a checkout with ./edan and
# build/edan-plugin.so built) adds that build's two runs, side by side in
# the same rounds. The last line: the no-cache run against its
# speed target (<= 5x qemu-x86_64 alone).
# The figures for README's speed table go to build/bench/speed-ISA-SIZE.json
# (python3 tests/bench/readme_speed.py writes the table from them).
# Usage: tests/bench/bench_trace_x86.sh [GEMM_SIZE (default 250)]
set -euo pipefail
cd "$(dirname "$0")/../.."
size=${1:-250}
runs=${RUNS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
gcc -O2 -Iexamples -Itools/trace -o "$work/gemm" examples/gemm.c
prog=("$work/gemm" "$size")
./edan trace --no-profile --quiet --json -o "$work/r.json" -- "${prog[@]}" >/dev/null
read -r n v < <(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
print(d.get("machine_instructions", d["configs"][0]["instructions"]), d["configs"][0]["instructions"])' "$work/r.json")
echo "program: examples/gemm.c $size (gcc -O2, x86-64, dynamic), $n instructions analysed ($v vertices); $runs runs each (round-robin), median wall time"
echo "machine: $(nproc) cores, $(uname -m), $(qemu-x86_64 --version | head -n 1)"
. tests/bench/bench_lib.sh
names=(qemu none l12)
cmd_qemu=(qemu-x86_64 "${prog[@]}")
cmd_none=(./edan trace --no-profile --quiet -o "$work/r1" -- "${prog[@]}")
cmd_l12=(./edan trace --no-profile --quiet --cache 32K:8:64 --cache 1M:16:64:wb:10 -o "$work/r2" -- "${prog[@]}")
if [ -n "${EDAN_BASE:-}" ]; then
  names+=(base_none base_l12)
  cmd_base_none=(env EDAN_PLUGIN="$EDAN_BASE/build/edan-plugin.so" "$EDAN_BASE/edan" trace --no-profile --quiet -o "$work/r3" -- "${prog[@]}")
  cmd_base_l12=(env EDAN_PLUGIN="$EDAN_BASE/build/edan-plugin.so" "$EDAN_BASE/edan" trace --no-profile --quiet --cache 32K:8:64
                --cache 1M:16:64:wb:10 -o "$work/r4" -- "${prog[@]}")
fi
names+=(w0none w0l12 j1none j1l12)
bench_window_vars "${prog[@]}"
bench_rounds "$runs" "${names[@]}"
printf '  %-44s %10s %17s %8s\n' "run" "median" "rate" "vs qemu"
bench_row "qemu-x86_64 alone (no plugin)" qemu qemu
bench_row "edan trace, online analysis, no cache" none qemu
bench_row "edan trace, online analysis, L1 32K + L2 1M" l12 qemu
bench_window_cost
bench_base_online
awk -v a="$(bench_ratio_median none qemu)" 'BEGIN {
  printf "  target (the median of the rounds'"'"' ratios to qemu alone): no cache %.2fx (<= 5x: %s)\n", a, a <= 5 ? "met" : "not met" }'
bench_summary x86_64
