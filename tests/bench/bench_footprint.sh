#!/usr/bin/env bash
# The engine's cost per instruction against the program's footprint: RISC-V
# gemm at several sizes (default 200 250 320 400: 0.96 to 3.84 MB of data),
# each run with all the work on one thread (--jobs 1, so that its wall time
# is its CPU time), without a cache and with L1 32K + L2 1M, beside
# qemu-riscv64 alone. Per size: the median of RUNS runs (default 3,
# round-robin) of each, less QEMU alone's, over the instructions; and, from
# the L1+L2 run's JSON report, the L1 misses (accesses less L1's hits) and
# the lines from RAM per instruction (a forwarded load looks up no level).
# Without a cache the cost should not grow with the footprint; with one it
# grows with the model's work, the misses (each a walk through the levels).
# Usage: tests/bench/bench_footprint.sh [SIZE...]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200 250 320 400)
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
l1l2=(--cache 32K:8:64 --cache 1M:16:64:wb:10)
. tests/bench/bench_lib.sh
names=()
for s in "${sizes[@]}"; do
  declare -a "cmd_q$s=(qemu-riscv64 build/examples/gemm $s)"
  declare -a "cmd_n$s=(./edan trace --jobs 1 --no-profile --quiet -o $work/n$s -- build/examples/gemm $s)"
  declare -a "cmd_c$s=(./edan trace --jobs 1 --no-profile --quiet --json -o $work/c$s.json ${l1l2[*]} -- build/examples/gemm $s)"
  names+=("q$s" "n$s" "c$s")
done
echo "RISC-V gemm N, --jobs 1, $runs runs each (round-robin), medians; machine: $(nproc) cores, $(uname -m)"
bench_rounds "$runs" "${names[@]}"
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '  %5s %8s %9s %9s %13s %13s %11s %11s\n' N data instr "QEMU" "no cache" "L1+L2" "L1 misses" "RAM lines"
printf '  %5s %8s %9s %9s %13s %13s %11s %11s\n' "" "(MB)" "(M)" "alone (s)" "(ns/instr)" "(ns/instr)" "(/instr)" "(/instr)"
for s in "${sizes[@]}"; do
  python3 - "$work/c$s.json" "$s" "$(bench_median <<<"${times[q$s]}")" "$(bench_median <<<"${times[n$s]}")" \
    "$(bench_median <<<"${times[c$s]}")" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))["configs"][0]
s, q, a, c = int(sys.argv[2]), *map(float, sys.argv[3:])
n = g["instructions"]
acc = g["loads"] + g["stores"] + g["amos"] - g["forwarded"]
print(f"  {s:5d} {3 * s * s * 8 / 1e6:8.2f} {n / 1e6:9.1f} {q:9.2f} {(a - q) / n * 1e9:13.2f} {(c - q) / n * 1e9:13.2f}"
      f" {(acc - g['level_hits'][0]) / n:11.4f} {g['ram_lines'] / n:11.5f}")
EOF
done
