#!/usr/bin/env bash
# Benchmark of `edan trace` on a run of >= 100M RISC-V instructions (the whole
# gemm example, all of its instructions analysed): the time of plain
# qemu-riscv64, of online analysis without a cache and with L1+L2, of writing a
# text and a binary trace, and of `edan analyze` reading each trace.
# Medians of RUNS runs (default 5); instructions per second of each; each
# online run's ratio to qemu-riscv64 alone (the median of the rounds' own
# ratios) against the speed targets (no cache <= 3x, L1+L2 <= 4x); both
# online runs again with --window 0, and what the windowed schedule costs
# against them (its budget: 1.3x); both again with --jobs 1 (all the work on
# one thread), whose time over the cores is about the least any run of
# this build can take here. EDAN_BASE=DIR (a checkout with ./edan and
# build/edan-plugin.so built) adds that build's two online runs, side by
# side in the same rounds, and the median and range of the rounds' ratios
# between the builds (a range across 1: within the noise).
# The figures for README's speed table go to build/bench/speed-ISA-SIZE.json
# (python3 tests/bench/readme_speed.py writes the table from them).
# Usage: tests/bench/bench_trace.sh [GEMM_SIZE (default 250)]
set -euo pipefail
cd "$(dirname "$0")/../.."
size=${1:-250}
runs=${RUNS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
prog=(build/examples/gemm "$size")
l1l2=(--cache 32K:8:64 --cache 1M:16:64:wb:10)


./edan trace --no-profile --quiet --json -o "$work/r.json" -- "${prog[@]}" >/dev/null
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["instructions"])' "$work/r.json")
echo "program: ${prog[*]} (static), $n instructions analysed; $runs runs each (round-robin), median wall time"
echo "machine: $(nproc) cores, $(uname -m), $(qemu-riscv64 --version | head -n 1)"
[ "$n" -ge 100000000 ] || echo "warning: fewer than 100M instructions; use a larger size"

# The variants run round-robin (tests/bench/bench_lib.sh).
. tests/bench/bench_lib.sh
names=(qemu none l12 text bin atext abin)
cmd_qemu=(qemu-riscv64 "${prog[@]}")
cmd_none=(./edan trace --no-profile --quiet -o "$work/r1" -- "${prog[@]}")
cmd_l12=(./edan trace --no-profile --quiet "${l1l2[@]}" -o "$work/r2" -- "${prog[@]}")
cmd_text=(./edan trace --no-profile --text "$work/t.txt" -- "${prog[@]}")
cmd_bin=(./edan trace --no-profile --binary "$work/t.bin" -- "${prog[@]}")
cmd_atext=(./edan analyze --no-profile --quiet "$work/t.txt")
cmd_abin=(./edan analyze --no-profile --quiet "$work/t.bin")
if [ -n "${EDAN_BASE:-}" ]; then
  names+=(base_none base_l12)
  cmd_base_none=(env EDAN_PLUGIN="$EDAN_BASE/build/edan-plugin.so" "$EDAN_BASE/edan" trace --no-profile --quiet -o "$work/r3" -- "${prog[@]}")
  cmd_base_l12=(env EDAN_PLUGIN="$EDAN_BASE/build/edan-plugin.so" "$EDAN_BASE/edan" trace --no-profile --quiet "${l1l2[@]}"
                -o "$work/r4" -- "${prog[@]}")
fi
names+=(w0none w0l12 j1none j1l12)
bench_window_vars "${prog[@]}"
bench_rounds "$runs" "${names[@]}"
s_text=$(stat -c %s "$work/t.txt"); s_bin=$(stat -c %s "$work/t.bin")
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
printf '  %-44s %10s %17s %8s\n' "run" "median" "rate" "vs qemu"
bench_row "qemu-riscv64 alone (no plugin)" qemu qemu
bench_row "edan trace, online analysis, no cache" none qemu
bench_row "edan trace, online analysis, L1 32K + L2 1M" l12 qemu
bench_window_cost
bench_row "edan trace --text FILE" text qemu
bench_row "edan trace --binary FILE" bin qemu
bench_base_online
awk -v a="$(bench_ratio_median none qemu)" -v b="$(bench_ratio_median l12 qemu)" 'BEGIN {
  printf "  targets (the median of the rounds'"'"' ratios to qemu alone): no cache %.2fx (<= 3x: %s), L1+L2 %.2fx (<= 4x: %s)\n",
         a, a <= 3 ? "met" : "not met", b, b <= 4 ? "met" : "not met" }'
bench_summary riscv64
echo
printf '  %-44s %10s %17s %8s\n' "reading the trace" "median" "rate" "vs text"
bench_row "edan analyze TEXT" atext atext
bench_row "edan analyze BINARY" abin atext
echo
awk -v a="$s_text" -v b="$s_bin" -v n="$n" 'BEGIN {
  printf "  text trace   %12.0f bytes (%.1f bytes/instruction)\n", a, a / n
  printf "  binary trace %12.0f bytes (%.2f bytes/instruction), %.1fx smaller\n", b, b / n, a / b }'
awk -v r="$(bench_ratio_median atext abin)" 'BEGIN { printf "  edan analyze reads the binary trace %.1fx faster than the text trace\n", r }'
echo
echo "  reading alone, without the analysis (tests/bench/bench_trace_decode.c):"
${CC:-cc} -std=c99 -O2 -I. -o "$work/decode" tests/bench/bench_trace_decode.c \
  tools/front/bintrace_read.c tools/front/bintrace_feed.c -lz -lm
"$work/decode" "$work/t.txt" "$work/t.bin"
# same metrics three ways (a check, not a timing)
./edan analyze --no-profile --quiet --json "$work/t.bin" > "$work/b.json"
python3 - "$work/r.json" "$work/b.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["configs"][0] for p in sys.argv[1:3])
keys = ("instructions", "W", "D", "T1", "Tinf")
print("  online:", {k: a[k] for k in keys}, "\n  binary:", {k: b[k] for k in keys})
sys.exit(0 if all(a[k] == b[k] for k in keys) else 1)
PY
