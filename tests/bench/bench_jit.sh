#!/usr/bin/env bash
# Benchmark of code that the program writes over: tests/cmd/jit.c writes N
# versions of a function at one address and calls each (a JIT), traced
# whole by edan trace (every block analysed), for N = 20,000 and 200,000,
# both ISAs. Peak memory (RSS) and time of QEMU alone, of this build and,
# with EDAN_BASE=DIR (a checkout with `make edan build/edan-plugin.so`
# done), of that build side by side. QEMU keeps its own record of every
# translation until its code cache is flushed: its growth is the floor.
# Usage: [EDAN_BASE=DIR] tests/bench/bench_jit.sh [N...]
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
make -s edan build/edan-plugin.so
gcc -O2 -o "$work/jit" tests/cmd/jit.c
riscv64-linux-gnu-gcc -O2 -static -o "$work/jit.rv" tests/cmd/jit.c
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(20000 200000)
echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-6s %-8s %-40s %9s %10s\n' isa versions run "time" "peak RSS"
for isa in x86 rv; do
  p=$work/jit q=qemu-x86_64; [ $isa = rv ] && p=$work/jit.rv q=qemu-riscv64
  for n in "${sizes[@]}"; do
    runs=("QEMU alone|$q $p $n" "edan trace (this build)|./edan trace --no-profile --quiet -o $work/r -- $p $n")
    [ -n "${EDAN_BASE:-}" ] && runs+=("edan trace ($EDAN_BASE)|env EDAN_PLUGIN=$EDAN_BASE/build/edan-plugin.so $EDAN_BASE/edan trace --no-profile --quiet -o $work/r -- $p $n")
    for r in "${runs[@]}"; do
      read -r med _ _ rss < <(python3 tests/bench/runstat.py 1 ${r#*|} 2> /dev/null)
      printf '  %-6s %-8s %-40s %7s s %7s MiB\n' $isa $n "${r%%|*}" "$med" "$rss"
    done
  done
done
