#!/usr/bin/env bash
# Benchmark of long runs, side by side in one run (RUNS rounds, default 5,
# round-robin; medians):
#  1. a chain of 10^7 and 10^8 dependent loads (tests/bench/chain.c, both
#     ISAs; a ring in the first cache level, which QEMU alone runs at close
#     to the host's speed) under edan trace --func walk against QEMU alone,
#     and the chase example's random list of 2^24 nodes;
#  2. SIGINT to edan trace once an endless chain (tests/cmd/stopme.c chase)
#     is about 10^8 loads deep: the time from the signal to edan's exit,
#     the report written (its D);
#  3. --sample on gemm, triad and spmv (RISC-V): the time against the full
#     analysis and QEMU alone, the estimate's error against the full run's
#     W and whether the printed interval holds it.
# Usage: [RUNS=N] tests/bench/bench_long.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
make -s edan build/edan-plugin.so examples
gcc -O2 -o "$work/chain" tests/bench/chain.c
riscv64-linux-gnu-gcc -O2 -static -o "$work/chain.rv" tests/bench/chain.c
gcc -O2 -o "$work/stopme" tests/cmd/stopme.c
riscv64-linux-gnu-gcc -O2 -static -o "$work/stopme.rv" tests/cmd/stopme.c
. tests/bench/bench_lib.sh
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo; echo "1. a chain of dependent loads, edan trace --no-profile --func walk against QEMU alone ($runs rounds)"
printf '  %-6s %-10s %10s %10s %8s %12s\n' isa loads qemu edan ratio "ns a load"
for isa in x86 rv; do
  p=$work/chain q=qemu-x86_64; [ $isa = rv ] && p=$work/chain.rv q=qemu-riscv64
  for n in 10000000 100000000; do
    times=()
    cmd_q=($q "$p" $n)
    cmd_e=(./edan trace --no-profile --quiet -o "$work/r" --func walk -- "$p" $n)
    bench_rounds "$runs" q e
    tq=$(bench_median <<<"${times[q]}"); te=$(bench_median <<<"${times[e]}")
    awk -v i=$isa -v n=$n -v q="$tq" -v e="$te" 'BEGIN { printf "  %-6s %-10d %8.2f s %8.2f s %7.1fx %12.1f\n", i, n, q, e, e / q, 1e9 * (e - q) / n }'
  done
done

echo "  the chase example (a random list of 2^24 nodes, the walk D = 2^24 loads), --func kernel_chase, whole process:"
times=()
cmd_q=(qemu-riscv64 build/examples/chase 16777216)
cmd_e=(./edan trace --no-profile --quiet -o "$work/r" --func kernel_chase -- build/examples/chase 16777216)
bench_rounds "$runs" q e
tq=$(bench_median <<<"${times[q]}"); te=$(bench_median <<<"${times[e]}")
awk -v q="$tq" -v e="$te" 'BEGIN { printf "  %-6s %-10s %8.2f s %8.2f s %7.1fx\n", "rv", "chase", q, e, e / q }'

echo; echo "2. SIGINT once an endless chain is about 10^8 loads deep: the time to edan's exit"
printf '  %-6s %12s %14s\n' isa D "to the exit"
for isa in x86 rv; do
  p=$work/stopme secs=6; [ $isa = rv ] && p=$work/stopme.rv secs=3
  for ((i = 0; i < 3; i++)); do
    rm -f "$work/ready"
    ./edan trace --no-profile --quiet --json -o "$work/s.json" --func chase -- "$p" chase "$work/ready" > /dev/null 2>&1 &
    pid=$!
    while [ ! -e "$work/ready" ]; do sleep 0.05; done
    sleep $secs
    t0=$(date +%s.%N); kill -INT $pid; wait $pid || true; t1=$(date +%s.%N)
    d=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["configs"][0]["D"])' "$work/s.json")
    awk -v i=$isa -v d="$d" -v a="$t0" -v b="$t1" 'BEGIN { printf "  %-6s %12d %12.3f s\n", i, d, b - a }'
  done
done

echo; echo "3. --sample (RISC-V, --func the kernel; $runs rounds): time against the full analysis and QEMU alone"
printf '  %-20s %-12s %8s %8s %8s %14s %10s\n' program sample qemu full sampled "W error" "in the 95%"
while read -r name func sample args; do
  prog=(build/examples/$name $args)
  ./edan trace --no-profile --quiet --json -o "$work/f.json" --func "$func" -- "${prog[@]}" > /dev/null 2>&1
  ./edan trace --no-profile --quiet --json -o "$work/s.json" --sample "$sample" --func "$func" -- "${prog[@]}" > /dev/null 2>&1
  times=()
  cmd_q=(qemu-riscv64 "${prog[@]}")
  cmd_f=(./edan trace --no-profile --quiet -o "$work/r" --func "$func" -- "${prog[@]}")
  cmd_s=(./edan trace --no-profile --quiet -o "$work/r" --sample "$sample" --func "$func" -- "${prog[@]}")
  bench_rounds "$runs" q f s
  read -r err inside < <(python3 - "$work/f.json" "$work/s.json" <<'PY'
import json, sys
f, s = (json.load(open(p)) for p in sys.argv[1:3])
W, e = f["configs"][0]["W"], s["sampled"]["W"]
print("%+.4f%%" % (100 * (e["estimate"] - W) / W), "yes" if e["low"] is not None and e["low"] <= W <= e["high"] else "no")
PY
)
  printf '  %-20s %-12s %6s s %6s s %6s s %14s %10s\n' "$name $args" "$sample" "$(bench_median <<<"${times[q]}")" \
    "$(bench_median <<<"${times[f]}")" "$(bench_median <<<"${times[s]}")" "$err" "$inside"
done <<'LIST'
gemm kernel_gemm 10M:1M 250
triad kernel_triad 10M:1M 8000000
spmv kernel_spmv 10M:1M 512
LIST
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
