#!/usr/bin/env bash
# Code that the program writes over (tests/cmd/jit.c, both ISAs): a JIT
# writes N versions of a function at one address and calls each. Every
# third version loads the word twice: W of the run with the versions
# written (--region run_jit: the calls inside the scope) exceeds W of the
# run writing the same bytes each time by exactly the number of those
# versions: each translation is analysed as the bytes it holds, never as
# an earlier block at its address. The note counts the blocks written
# over. Peak memory at 20,000 and 200,000 versions is measured by
# tests/bench/bench_jit.sh, not here.
. "$(dirname "$0")/../lib.sh"
E=./edan
gcc -O2 -o "$T/jit" tests/cmd/jit.c || { bad "cannot build jit"; exit 1; }
riscv64-linux-gnu-gcc -O2 -static -o "$T/jit.rv" tests/cmd/jit.c || { bad "cannot build jit for RISC-V"; exit 1; }
w() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["configs"][0]["W"])' "$1"; }
n=3000
twice=$(( (n + 0) / 3 ))    # i % 3 == 2 for i < 3000: 1000
for isa in x86 rv; do
  p=$T/jit; [ $isa = rv ] && p=$T/jit.rv
  $E trace --no-profile --quiet --json -o "$T/v.json" --region run_jit -- "$p" $n > /dev/null 2> "$T/v.err"; rc1=$?
  $E trace --no-profile --quiet --json -o "$T/s.json" --region run_jit -- "$p" $n same > /dev/null 2> "$T/s.err"; rc2=$?
  wv=$(w "$T/v.json"); ws=$(w "$T/s.json")
  written=$(sed -n 's/.*wrote over \([0-9]*\) blocks.*/\1/p' "$T/v.err")
  if [ $rc1 = 0 ] && [ $rc2 = 0 ] && [ $((wv - ws)) = $twice ] && [ "${written:-0}" -ge $((n - 1)) ]; then
    ok "$isa: $n versions of a function at one address: W $wv, $twice more than the same bytes written again ($ws); $written blocks written over"
  else
    bad "$isa: versions: exit $rc1/$rc2, W $wv against $ws (want $twice more), written over '${written}': $(tail -2 "$T/v.err")"
  fi
  grep -q "wrote over" "$T/s.err" && bad "$isa: the same bytes written again counted as code written over" \
    || ok "$isa: the same bytes written again: not taken for code written over"
done
exit $fail
