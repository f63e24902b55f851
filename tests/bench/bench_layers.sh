#!/usr/bin/env bash
# The engine alone against memory depth: tests/bench/bench_layers.c feeds a
# chain (a pointer chase, D = the loads), a mixed chain (1 to 3 loads a
# layer, D about half the loads) and a wide feed (8 layers) of 10^6, 10^7
# and 10^8 loads (BENCH_LAYERS_MAX=N stops earlier). Per shape and size:
# the median wall time of RUNS runs (default 3) and ns per load (the three
# shapes in turn at each size, side by side), the engine's peak allocation,
# what it adds per layer to that of 1000 loads, and the process's peak RSS.
# EDAN_BASE=DIR (a checkout, nothing built) adds that edan.h's build, run
# in turn with this one: its median and the median of the rounds' ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/bench/bench_lib.sh
mkdir -p build/bench
cc -std=c99 -O2 -I. -o build/bench/bench_layers tests/bench/bench_layers.c -lm
base=${EDAN_BASE:-}
[ -z "$base" ] || cc -std=c99 -O2 -I"$base" -o build/bench/bench_layers_base tests/bench/bench_layers.c -lm
max=${BENCH_LAYERS_MAX:-100000000}
runs=${RUNS:-3}
printf '%-6s %10s %10s %9s %8s %14s %11s %10s' shape loads D "median s" "ns/load" "engine bytes" "bytes/layer" "RSS KiB"
[ -z "$base" ] && echo || printf ' %9s %10s\n' "base s" "this/base"
for n in 1000000 10000000 100000000; do
  [ "$n" -le "$max" ] || break
  for shape in chain mixed wide; do
    read -r base_bytes < <(build/bench/bench_layers "$shape" 1000 | awk '{print $13}')
    ts=() tb=() ratios=()
    for ((i = 0; i < runs; i++)); do
      read -r t _ < <(python3 tests/bench/runstat.py 1 build/bench/bench_layers "$shape" "$n")
      ts+=("$t")
      if [ -n "$base" ]; then
        read -r b _ < <(python3 tests/bench/runstat.py 1 build/bench/bench_layers_base "$shape" "$n")
        tb+=("$b") ratios+=("$(awk -v a="$t" -v b="$b" 'BEGIN {printf "%.3f", a / b}')")
      fi
    done
    med=$(echo "${ts[*]}" | bench_median)
    read -r d bytes hwm < <(build/bench/bench_layers "$shape" "$n" | awk '{print $7, $13, $16}')
    printf '%-6s %10d %10d %9s %8s %14s %11s %10s' "$shape" "$n" "$d" "$med" \
      "$(awk -v t="$med" -v n="$n" 'BEGIN{printf "%.1f", t * 1e9 / n}')" "$bytes" \
      "$(awk -v b="$bytes" -v a="$base_bytes" -v d="$d" 'BEGIN{printf "%.3f", (b - a) / d}')" "$hwm"
    [ -z "$base" ] && echo || printf ' %9s %10s\n' "$(echo "${tb[*]}" | bench_median)" "$(echo "${ratios[*]}" | bench_median)"
  done
done
