#!/usr/bin/env bash
# Speed of the RISC-V text parser and decoder (one core, median of 5 runs).
# BENCH_RV_LINES sets the trace length (default 4000000 lines).
set -eu
cd "$(dirname "$0")/.."
mkdir -p build
${CC:-cc} -std=c99 -O2 -Wall -Wextra -pedantic -I. -o build/bench_rv_parse tests/bench_rv_parse.c -lz -lm
nice build/bench_rv_parse "${BENCH_RV_LINES:-4000000}"
