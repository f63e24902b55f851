#!/usr/bin/env bash
# Benchmark of `edan trace` on an OpenMP program: omp_gemm (examples/gemm.c
# built with -fopenmp for this machine) with 1, 2 and 4 threads, its kernel
# analysed online without a cache (--func kernel_gemm: the threads' share
# of the work, not libgomp's waiting), against qemu-x86_64 alone. The
# threads run one at a time under the analysis (README, "Programs of several
# threads"), so the aim is the one-thread rate kept: instructions analysed
# per second, and each rate against the one-thread rate. Medians of RUNS
# runs (default 3), round-robin.
# Usage: tests/bench/bench_trace_threads.sh [GEMM_SIZE (default 200)]
set -euo pipefail
cd "$(dirname "$0")/../.."
size=${1:-200}
runs=${RUNS:-3}
prog=build/examples-host/omp_gemm
[ -x $prog ] || { echo "$prog is missing (make examples)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
declare -A n
for t in 1 2 4; do
  OMP_NUM_THREADS=$t ./edan trace --no-profile --quiet --no-cache --json --func kernel_gemm -o "$work/r$t.json" -- $prog "$size" > /dev/null 2>&1
  n[$t]=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["instructions"])' "$work/r$t.json")
done
echo "program: examples/gemm.c $size with OpenMP (gcc -O3 -march=x86-64-v3 -fopenmp), kernel_gemm's instructions: ${n[1]} (1 thread), ${n[2]} (2), ${n[4]} (4); $runs runs each (round-robin), median wall time"
echo "machine: $(nproc) cores, $(uname -m), $(qemu-x86_64 --version | head -n 1)"
. tests/bench/bench_lib.sh
names=(qemu1 t1 t2 t4)
cmd_qemu1=(env OMP_NUM_THREADS=1 qemu-x86_64 $prog "$size")
for t in 1 2 4; do
  eval "cmd_t$t=(env OMP_NUM_THREADS=$t ./edan trace --no-profile --quiet --no-cache --func kernel_gemm -o $work/o$t -- $prog $size)"
done
bench_rounds "$runs" "${names[@]}"
median() { bench_median <<<"${times[$1]}"; }
t_q=$(median qemu1); t1=$(median t1); t2=$(median t2); t4=$(median t4)
rate1=$(awk -v n="${n[1]}" -v t="$t1" 'BEGIN {print n / t}')
row() { awk -v name="$1" -v t="$2" -v n="$3" -v r1="$rate1" \
  'BEGIN {printf "  %-42s %8.2f s %8.1f M insn/s %7.2f\n", name, t, n / t / 1e6, n / t / r1}'; }
printf '  %-42s %10s %17s %8s\n' "run" "median" "rate" "vs 1 thread"
printf '  %-42s %8.2f s\n' "qemu-x86_64 alone, 1 thread (no plugin)" "$t_q"
row "edan trace, 1 thread" "$t1" "${n[1]}"
row "edan trace, 2 threads" "$t2" "${n[2]}"
row "edan trace, 4 threads" "$t4" "${n[4]}"
