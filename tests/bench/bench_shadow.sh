#!/usr/bin/env bash
# Shadow memory and hotspots at scale. (1) The engine alone on the shapes of
# memory its shadow memory keeps apart (tests/bench/bench_shadow.c): an array
# written word by word then read, a triad looping over 1 MB, a word in each
# of 256K pages, a word in four; through edan_feed and through compiled
# blocks; the whole process's seconds (median of RUNS, default 5) and peak
# RSS. EDAN_BASE=DIR (a checkout with ./edan built) adds that
# edan.h's build, run in turn with this one, and the median of the rounds'
# ratios. (2) `edan analyze` of 300,000 stores to distinct pages: time and
# peak RSS. (3) `edan analyze --top N` over N distinct PCs (100,000 and
# 1,000,000): the hotspot list's sort (EDAN_BASE's build at 100,000 only).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. tests/bench/bench_lib.sh
runs=${RUNS:-5}
base=${EDAN_BASE:-}
cc -std=c99 -O2 -I. -o "$work/this" tests/bench/bench_shadow.c -lm
[ -z "$base" ] || cc -std=c99 -O2 -I"$base" -o "$work/base" tests/bench/bench_shadow.c -lm

echo "the engine alone (tests/bench/bench_shadow.c), median of $runs:"
printf '  %-14s %-6s %10s %10s %9s' shape path "M instr" "seconds" "RSS MiB"
[ -z "$base" ] && echo || printf ' %10s %9s %12s\n' "base s" "base RSS" "this/base"
for shape in array loop pages stride; do
  for path in feed block; do
    ts=() tb=() ratios=() n=0 mib=0 bmib=0
    read -r n _ < <("$work/this" "$shape" "$path" 16)       # instructions (a 16th of the work)
    n=$((n * 16))
    for ((i = 0; i < runs; i++)); do
      read -r t _ _ mib < <(python3 tests/bench/runstat.py 1 "$work/this" "$shape" "$path")
      ts+=("$t")
      if [ -n "$base" ]; then
        read -r b _ _ bmib < <(python3 tests/bench/runstat.py 1 "$work/base" "$shape" "$path")
        tb+=("$b"); ratios+=("$(awk -v a="$t" -v b="$b" 'BEGIN {printf "%.3f", a / b}')")
      fi
    done
    printf '  %-14s %-6s %10.1f %10s %9s' "$shape" "$path" "$(awk -v n="$n" 'BEGIN {print n / 1e6}')" \
      "$(echo "${ts[*]}" | bench_median)" "$mib"
    [ -z "$base" ] && echo || printf ' %10s %9s %12s\n' "$(echo "${tb[*]}" | bench_median)" "$bmib" \
      "$(echo "${ratios[*]}" | bench_median)"
  done
done

echo
echo "edan analyze, a store to each of 300,000 pages (6.9 MB of text), median of 3:"
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "sd a5,%d(a4);0x%x\n", 8 * (i % 512), 268435456 + 4096 * i + 8 * (i % 512) }' \
  > "$work/pages.txt"
read -r med mn mx rss < <(python3 tests/bench/runstat.py 3 ./edan analyze --no-profile --quiet "$work/pages.txt")
echo "  this build: $med s ($mn..$mx), peak RSS $rss MiB"
if [ -n "$base" ]; then
  read -r med mn mx rss < <(python3 tests/bench/runstat.py 1 "$base/edan" analyze --no-profile --quiet "$work/pages.txt")
  echo "  $base: $med s, peak RSS $rss MiB"
fi

echo
echo "edan analyze --top N over N distinct PCs (a chained load in three), median of 3:"
for n in 100000 1000000; do
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
      if (i % 3 == 0) printf "0;0x%x;ld a5,0(a5);0x%x\n", 65536 + 4 * i, 8388608 + 8 * (i % 1000);
      else printf "0;0x%x;ld a4,0(a6);0x%x\n", 65536 + 4 * i, 9437184 + 8 * (i % 1000) }' > "$work/pcs.txt"
  read -r med mn mx rss < <(python3 tests/bench/runstat.py 3 ./edan analyze --no-profile --quiet --top "$n" "$work/pcs.txt")
  echo "  $n PCs, --top $n: this build $med s ($mn..$mx), peak RSS $rss MiB"
  if [ -n "$base" ] && [ "$n" -le 100000 ]; then
    read -r med mn mx rss < <(python3 tests/bench/runstat.py 1 "$base/edan" analyze --no-profile --quiet --top "$n" "$work/pcs.txt")
    echo "  $n PCs, --top $n: $base $med s"
  fi
done
