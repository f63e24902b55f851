#!/usr/bin/env bash
# Benchmark of a scoped trace whose program runs mostly outside the scope:
# `edan trace --func kernel_chase` of the chase example, where building the
# list (main, untraced) is about 88% of the instructions and the walk
# (traced, analysed) the rest. Untraced code is still watched for what it
# writes (one callback per block executed, one per store); this measures
# what that costs against qemu-riscv64 alone, and against analysing
# everything. The variants run round-robin, RUNS rounds (default 5); medians,
# and the median of each round's own ratio to qemu alone.
# Usage: tests/bench/bench_scope.sh [CHASE_SIZE (default 2000000)]
set -euo pipefail
cd "$(dirname "$0")/../.."
size=${1:-2000000}
runs=${RUNS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
prog=(build/examples/chase "$size")
count() { ./edan trace --no-profile --quiet --json -o "$work/c.json" "$@" -- "${prog[@]}" >/dev/null
          python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["instructions"])' "$work/c.json"; }
all=$(count); scoped=$(count --func kernel_chase)
echo "program: ${prog[*]}: $all instructions, $scoped in kernel_chase ($(awk -v a="$all" -v s="$scoped" 'BEGIN {printf "%.0f", 100 * (a - s) / a}')% outside the scope)"
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
. tests/bench/bench_lib.sh
names=(qemu scoped full)
cmd_qemu=(qemu-riscv64 "${prog[@]}")
cmd_scoped=(./edan trace --no-profile --quiet -o "$work/r1" --func kernel_chase -- "${prog[@]}")
cmd_full=(./edan trace --no-profile --quiet -o "$work/r2" -- "${prog[@]}")
bench_rounds "$runs" "${names[@]}"
ratios() {  # each round's time of $1 over qemu's
  paste <(tr ' ' '\n' <<<"${times[$1]}" | grep .) <(tr ' ' '\n' <<<"${times[qemu]}" | grep .) | awk '{print $1 / $2}' | tr '\n' ' '; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '  %-52s %9s %12s\n' "run" "median" "vs qemu"
for v in "${names[@]}"; do
  case $v in
    qemu) label="qemu-riscv64 alone (no plugin)";;
    scoped) label="edan trace --func kernel_chase (scoped)";;
    full) label="edan trace, everything analysed";;
  esac
  printf '  %-52s %8s s %11sx\n' "$label" "$(bench_median <<<"${times[$v]}")" "$(ratios "$v" | bench_median)"
done
