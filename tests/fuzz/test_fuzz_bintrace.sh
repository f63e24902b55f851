#!/usr/bin/env bash
# Fuzzes the binary trace reader and the engine behind it under ASan and
# UBSan for a bounded time (FUZZ_SECONDS, default 30): every input is read
# as a block analysis of one configuration (the compiled blocks), of two
# with hotspots, and instruction by instruction through edan_feed, with a
# cache and without (then with hotspots), which must agree
# (tests/fuzz/fuzz_bintrace.c). Seeds: binary traces of example kernels written
# by `edan trace`, two of them scoped (KILL records), one of three threads (THREAD records). Fails on any crash, sanitizer report, leak, timeout or
# disagreement. Seeds of x86-64 traces too (tests/cmd/x86/*.s), and traces
# of many CHECK stretches (tests/fuzz/seed_bintrace.c), whose stretches the
# harness moves and repeats: an error, never other numbers.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/corpus"
for cs in "kernel|sum 8" "kernel_gemm|gemm 4" "kernel_chase|chase 12" "kernel_cg_step|spmv 6" "kernel_lu|lu 5" \
          "kernel_triad|triad 9"; do
  func=${cs%%|*}; read -r name size <<<"${cs#*|}"
  ./edan trace --func "$func" --binary "$T/corpus/$name.bin" -- "build/examples/$name" "$size" >/dev/null 2>"$T/err" ||
    { echo "seed $name: edan trace failed:"; cat "$T/err"; exit 1; }
done
# scoped traces with KILL records (what untraced code wrote)
./edan trace --func list_walk --func array_sum --binary "$T/corpus/walk.bin" -- build/examples/walk 6 >/dev/null 2>"$T/err" ||
  { echo "seed walk: edan trace failed:"; cat "$T/err"; exit 1; }
./edan trace --region kernel --binary "$T/corpus/region.bin" -- build/examples/sum 5 >/dev/null 2>"$T/err" ||
  { echo "seed region: edan trace failed:"; cat "$T/err"; exit 1; }
head -c 40 "$T/corpus/gemm.bin" > "$T/corpus/cut.bin"     # a truncated trace
# several threads (THREAD records): a barrier, then three walks
./edan trace --func kernel_walk --binary "$T/corpus/threads.bin" -- build/examples/threads parfor 3 4 >/dev/null 2>"$T/err" ||
  { echo "seed threads: edan trace failed:"; cat "$T/err"; exit 1; }
# x86-64 traces (their instructions read by the harness's stand-in decoder):
# the hand-written kernels, a rep movsb of 10000 accesses in VERTEX records
for k in chains vector; do
  as --64 -o "$T/$k.o" "tests/cmd/x86/$k.s" && as --64 -o "$T/start.o" tests/cmd/x86/start.s &&
    ld -static -o "$T/$k" "$T/$k.o" "$T/start.o" &&
    ./edan trace --func kernel --binary "$T/corpus/x86-$k.bin" -- "$T/$k" >/dev/null 2>"$T/err" ||
    { echo "seed x86-$k: edan trace failed:"; cat "$T/err"; exit 1; }
done
# a block whose middle instruction the analysis refuses (register 60000), run
# in part after it: header, DEFINE of 3, EXEC-PART 2..2, END
printf 'EDANBT\x01\x00\x01\x00\x10\x00\x00\x00\x00\x00\x02\x03\x00\x00\x00\x01\x00\x00\x01\x01\x01\x02\x00\x00\x00\x01\x00\x00\x01\x01\xe0\xd4\x03\x03\x00\x00\x00\x01\x00\x00\x01\x01\x02\x04\x01\x02\x01\x03\x01' \
  > "$T/corpus/refused.bin"
# a block of two loads run twice, the second time with the second address
# varint malformed: every way must read the first address alike (the whole-
# block decoder once moved its predictor twice: a miss where a hit was)
printf 'EDANBT\x01\x00\x01\x00\x10\x00\x00\x00\x00\x00\x02\x02\x00\x00\x00\x0b\x01\x08\x01\x01\x01\x02\x00\x00\x00\x0b\x01\x08\x01\x01\x01\x03\x00\x80\x01\x80\x01\x00\x7f' > "$T/corpus/badz.bin"
head -c 25 /dev/zero | tr '\0' '\200' >> "$T/corpus/badz.bin"
printf '\x03\x04' >> "$T/corpus/badz.bin"
# traces of many CHECK stretches (one every 200 bytes), whose stretches the
# harness moves, repeats and replaces
build/seed_bintrace "$T/corpus/stretches-rv.bin" "$T/corpus/stretches-x86.bin" ||
  { echo "seed_bintrace failed"; exit 1; }
# inputs the fuzzer once found a fault with, kept as seeds (each run reads
# them first): tests/fuzz/regress/bintrace-*.bin
#   bintrace-uop-without-access.bin: an x86-64 VERTEX whose uop has no
#   access while no access was ever assigned (a null pointer plus 0)
#   bintrace-execution-without-access.bin: the same read for a caller
#   without an analysis (bintrace_emit_execution)
#   bintrace-run-refused-midway.bin: a run of one block's EXEC records that
#   the analysis refuses at its fourth (an access that wraps): the block
#   analysis counted none of the run's instructions, the general decoder
#   the three executions before it
#   bintrace-refused-at-its-instruction.bin: a refusal inside a block's
#   execution, which the block analysis put at the block's first instruction
cp tests/fuzz/regress/bintrace-*.bin "$T/corpus/"
fuzz_run fuzz_bintrace 12000
exit $fail
