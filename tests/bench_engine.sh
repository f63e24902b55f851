#!/usr/bin/env bash
# Benchmark of `edan analyze` on generated text traces: lines per second
# (median of 3 runs) and peak RSS, without a cache, with L1+L2, and with four
# configurations in one pass; and RSS against trace length at a fixed
# footprint. Traces are generated once into build/bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/bench
cc -O2 -o build/gen_trace tests/gen_trace.c
LINES=${BENCH_LINES:-50000000}
T=build/bench/trace-${LINES}.txt
[ -s "$T" ] || { echo "generating $LINES lines into $T"; build/gen_trace "$LINES" 1000000 > "$T.tmp" && mv "$T.tmp" "$T"; }
nlines=$(wc -l < "$T")
size=$(stat -c %s "$T")
echo "trace: $T, $nlines lines, $((size >> 20)) MiB, footprint 1 MB"
printf '%-34s %10s %10s %12s %9s\n' "configuration" "median s" "min..max" "Mlines/s" "RSS MiB"
run() {
  local name=$1; shift
  read -r med mn mx rss < <(python3 tests/runstat.py 3 ./edan analyze --quiet "$@" "$T")
  printf '%-34s %10s %10s %12.1f %9s\n' "$name" "$med" "$mn..$mx" "$(awk -v n="$nlines" -v t="$med" 'BEGIN{print n/t/1e6}')" "$rss"
}
run "no cache"
run "L1 32K:8:64 + L2 1M:16:64" --cache 32K:8:64 --cache 1M:16:64
run "4 configs in one pass" --config=none --config=l1-16k --cache 16K:4:64 --config=l1-32k --cache 32K:8:64 \
    --config=l1-64k --cache 64K:8:64
echo
echo "RSS against trace length (footprint 1 MB, no cache):"
for n in 5000000 20000000; do
  t=build/bench/trace-$n.txt
  [ -s "$t" ] || build/gen_trace "$n" 1000000 > "$t"
  read -r med mn mx rss < <(python3 tests/runstat.py 1 ./edan analyze --quiet "$t")
  printf '  %10d lines: %6s MiB\n' "$n" "$rss"
done
read -r med mn mx rss < <(python3 tests/runstat.py 1 ./edan analyze --quiet "$T")
printf '  %10d lines: %6s MiB\n' "$nlines" "$rss"
