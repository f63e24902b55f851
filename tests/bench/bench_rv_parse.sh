#!/usr/bin/env bash
# Speed of the RISC-V text parser and decoder (one core, median of 5 runs):
# in-memory traces of typical lines, then the full RV64GC mix of
# tests/gen_trace.c (10M lines) read from its file as `edan analyze` reads
# it, parse only. BENCH_RV_LINES sets the in-memory trace length (default
# 4000000 lines).
set -eu
cd "$(dirname "$0")/../.."
mkdir -p build/bench
${CC:-cc} -std=c99 -O2 -Wall -Wextra -pedantic -I. -o build/bench_rv_parse tests/bench/bench_rv_parse.c -lz -lm
nice build/bench_rv_parse "${BENCH_RV_LINES:-4000000}"
cc -O2 -o build/gen_trace tests/gen_trace.c
M=build/bench/mix-10000000.txt
[ -s "$M" ] || { build/gen_trace 10000000 1000000 paper mix > "$M.tmp" && mv "$M.tmp" "$M"; }
nice build/bench_rv_parse --file "$M"
