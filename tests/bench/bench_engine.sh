#!/usr/bin/env bash
# Benchmark of `edan analyze` on generated text traces: lines per second
# (median of 3 runs) and peak RSS, without a cache, with L1+L2, and with four
# configurations in one pass; the same on the full RV64GC mix (every
# instruction family, sub-word, unaligned and atomic accesses), run in turn
# with the triad loop so that their ratio is measured side by side; and RSS
# against trace length at a fixed footprint. Traces are generated once into
# build/bench/.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build/bench
cc -O2 -o build/gen_trace tests/gen_trace.c
LINES=${BENCH_LINES:-50000000}
T=build/bench/trace-${LINES}.txt
M=build/bench/mix-${LINES}.txt
[ -s "$T" ] || { echo "generating $LINES lines into $T"; build/gen_trace "$LINES" 1000000 > "$T.tmp" && mv "$T.tmp" "$T"; }
[ -s "$M" ] || { echo "generating $LINES lines into $M"; build/gen_trace "$LINES" 1000000 paper mix > "$M.tmp" && mv "$M.tmp" "$M"; }
nlines=$(wc -l < "$T")
echo "traces: $T (triad loop) and $M (RV64GC mix), $nlines lines each, $(($(stat -c %s "$T") >> 20)) and" \
     "$(($(stat -c %s "$M") >> 20)) MiB, footprint 1 MB"
printf '%-40s %10s %12s %12s %9s\n' "configuration" "median s" "min..max" "Mlines/s" "RSS MiB"
mls() { awk -v n="$nlines" -v t="$1" 'BEGIN{printf "%.1f", n/t/1e6}'; }
run() {
  local name=$1 trace=$2; shift 2
  read -r med mn mx rss < <(python3 tests/bench/runstat.py 3 ./edan analyze --no-profile --quiet "$@" "$trace")
  printf '%-40s %10s %12s %12s %9s\n' "$name" "$med" "$mn..$mx" "$(mls "$med")" "$rss"
}
run "no cache" "$T"
run "L1 32K:8:64 + L2 1M:16:64" "$T" --cache 32K:8:64 --cache 1M:16:64
run "4 configs in one pass" "$T" --config=none --config=l1-16k --cache 16K:4:64 --config=l1-32k --cache 32K:8:64 \
    --config=l1-64k --cache 64K:8:64
run "mix: no cache" "$M"
run "mix: L1 32K:8:64 + L2 1M:16:64" "$M" --cache 32K:8:64 --cache 1M:16:64
echo
echo "side by side, no cache (5 pairs, triad then mix; median of the per-pair ratios):"
ratios=() tt=() tm=()
for i in 1 2 3 4 5; do
  read -r a _ < <(python3 tests/bench/runstat.py 1 ./edan analyze --no-profile --quiet "$T")
  read -r b _ < <(python3 tests/bench/runstat.py 1 ./edan analyze --no-profile --quiet "$M")
  tt+=("$a"); tm+=("$b"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.3f", b/a}')")
done
med() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
echo "  triad $(mls "$(med "${tt[@]}")") M lines/s, mix $(mls "$(med "${tm[@]}")") M lines/s;" \
     "mix time / triad time $(med "${ratios[@]}") (ratios ${ratios[*]})"
echo
echo "RSS against trace length (footprint 1 MB, no cache):"
for n in 5000000 20000000; do
  t=build/bench/trace-$n.txt
  [ -s "$t" ] || build/gen_trace "$n" 1000000 > "$t"
  read -r med mn mx rss < <(python3 tests/bench/runstat.py 1 ./edan analyze --no-profile --quiet "$t")
  printf '  %10d lines: %6s MiB\n' "$n" "$rss"
done
read -r med mn mx rss < <(python3 tests/bench/runstat.py 1 ./edan analyze --no-profile --quiet "$T")
printf '  %10d lines: %6s MiB\n' "$nlines" "$rss"
