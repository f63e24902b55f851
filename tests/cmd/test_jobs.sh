#!/usr/bin/env bash
# --jobs N: configurations analysed in parallel give the report of the
# sequential analysis (--jobs 1), byte for byte, text and --json (with --top
# and --chain), with the --timeline and --layers files, for 1 to 5
# configurations (one: --jobs 2, its windowed schedule on a thread of its
# own; K with --jobs 2K: each configuration's too; with --jobs 2K + 1 the
# thread that feeds analyses a stand-in and hands every configuration over):
#  - online (edan trace): a kernel, a multi-threaded program (pthreads: a
#    hand-off between threads; threads at once through their binary trace,
#    which holds one interleaving of them; not OpenMP, whose barriers spin
#    a different number of instructions at each run), named regions (EDAN_TRACE markers:
#    a context per region) and a whole program, both ISAs;
#  - a run that crashes (the partial report), and a stop request (SIGINT);
#  - edan analyze of a binary trace of every single-threaded example kernel
#    (the kernels and sizes of tests/cmd/test_cross_isa.sh), both ISAs, and
#    of a text trace;
# and a bad --jobs is a usage error (exit 2).
. "$(dirname "$0")/../lib.sh"
for t in qemu-x86_64 qemu-riscv64; do
  command -v "$t" >/dev/null || { bad "$t is missing (tools/deps.sh installs it)"; exit 1; }
done
[ -x ./edan ] && [ -e build/edan-plugin.so ] || { bad "build edan first (make)"; exit 1; }

# the first K of these make K configurations (--tau in the first: every one has it)
cfgs=("--cache 32K:8:64 --tau 100" "--config --cache 1M:16:64:wt --alpha 300" "--config=none --no-cache"
      "--config --cache 4K:2:64 --cache 256K:8:64:wb:12 --window 64" "--config --cache 16K:4:64 --alpha0 150")
configs() { local k; for ((k = 0; k < $1; k++)); do echo -n "${cfgs[$k]} "; done; }
common=(--no-profile --quiet --top 5 --chain)

# run NAME K JOBS SUBCOMMAND ARGS...: ./edan SUBCOMMAND, its K configurations, --jobs JOBS, ARGS: the
# text report, then the JSON report, into $T/NAME.K.JOBS.*
run() {
  local name=$1 K=$2 J=$3 sub=$4; shift 4
  local o=$T/$name.$K.$J
  ./edan $sub "${common[@]}" $(configs "$K") --jobs "$J" --timeline "$o.tl.csv" --layers "$o.layers.csv" "$@" \
    > "$o.txt" 2> "$o.err" &&
    ./edan $sub "${common[@]}" $(configs "$K") --jobs "$J" --json "$@" > "$o.json" 2>> "$o.err"
}
# same NAME K JOBS...: each JOBS's outputs are --jobs 1's
same() {
  local name=$1 K=$2 J f differ="" first=""; shift 2
  for J in "$@"; do
    for f in txt json tl.csv layers.csv; do
      cmp -s "$T/$name.$K.1.$f" "$T/$name.$K.$J.$f" && continue
      differ="$differ --jobs $J .$f;"
      [ -n "$first" ] || first="$T/$name.$K.$J.$f"
    done
  done
  if [ -n "$differ" ]; then
    bad "$name, $K configuration$([ $K = 1 ] || echo s): differs from --jobs 1:$differ"
    diff "$T/$name.$K.1.${first#$T/$name.$K.*.}" "$first" | head -10
  else
    ok "$name, $K configuration$([ $K = 1 ] || echo s): --jobs $* = --jobs 1, byte for byte ($(wc -c < "$T/$name.$K.1.json") bytes of JSON)"
  fi
}
# check NAME K JOBS... -- SUBCOMMAND ARGS...: runs it with --jobs 1 and each JOBS, compares
check() {
  local name=$1 K=$2 jobs=() J; shift 2
  while [ "$1" != "--" ]; do jobs+=("$1"); shift; done; shift
  for J in 1 "${jobs[@]}"; do
    run "$name" "$K" "$J" "$@" || { bad "$name, $K configuration$([ $K = 1 ] || echo s), --jobs $J: $(tail -3 "$T/$name.$K.$J.err")"; return; }
  done
  same "$name" "$K" "${jobs[@]}"
}

# Online: the plugin's analysis; named regions: tests/cmd/regions/regions.c
cflags=(-std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Iexamples -Itools/trace tests/cmd/regions/regions.c)
gcc "${cflags[@]}" -o "$T/regions.host" 2> "$T/cc.err" && riscv64-linux-gnu-gcc -static "${cflags[@]}" -o "$T/regions.rv" 2>> "$T/cc.err" ||
  bad "cannot build tests/cmd/regions/regions.c: $(head -3 "$T/cc.err")"
for isa in rv host; do
  if [ $isa = host ]; then B=build/examples-host; else B=build/examples; fi
  check "$isa-gemm" 1 2 3 -- trace --func kernel_gemm -- $B/gemm 16     # one: the schedule's thread; 3: a stand-in's
  check "$isa-gemm" 2 2 4 5 -- trace --func kernel_gemm -- $B/gemm 16     # 4: each one's schedule's thread
  check "$isa-gemm" 5 2 3 5 10 11 -- trace --func kernel_gemm -- $B/gemm 16
  check "$isa-threads-handoff" 3 2 3 6 7 -- trace --func kernel_walk -- $B/threads handoff 100
  # threads at once interleave as the host schedules them, differently from run to run: their binary
  # trace holds one interleaving
  for mode in "chases 100" "parfor 3 50"; do
    if ./edan trace --quiet --func kernel_walk --binary "$T/thr.bin" -- $B/threads $mode > /dev/null 2> "$T/trace.err"; then
      check "$isa-threads-${mode%% *}.bin" 3 2 3 6 7 -- analyze "$T/thr.bin"
    else
      bad "$isa threads $mode: no trace: $(tail -3 "$T/trace.err")"
    fi
  done
  check "$isa-markers" 2 2 4 5 -- trace -- $B/markers 500
  check "$isa-regions" 3 2 3 6 7 -- trace -- "$T/regions.$isa" 100 bump
  check "$isa-spmv-whole" 3 3 6 7 -- trace -- $B/spmv 6
  check "$isa-spmv-whole" 1 2 3 -- trace -- $B/spmv 6
done

# edan analyze of a binary trace of every single-threaded example kernel, both ISAs
kernels=("sum|--region kernel|2000" "markers||2000" "2mm|--region kernel_2mm|12" "3mm|--region kernel_3mm|12"
         "atax|--region kernel_atax|48" "bicg|--region kernel_bicg|48" "cholesky|--region kernel_cholesky|24"
         "doitgen|--region kernel_doitgen|8" "gemm|--region kernel_gemm|16" "gemver|--region kernel_gemver|48"
         "gesummv|--region kernel_gesummv|48" "mvt|--region kernel_mvt|48" "symm|--region kernel_symm|16"
         "syr2k|--region kernel_syr2k|16" "syrk|--region kernel_syrk|16" "trisolv|--region kernel_trisolv|96"
         "trmm|--region kernel_trmm|16" "lu|--region kernel_lu|16" "triad|--region kernel_triad|2000"
         "chase|--region kernel_chase|2000" "spmv|--region kernel_cg_step|12"
         "walk|--region list_walk --region array_sum|2000")
for isa in rv host; do
  if [ $isa = host ]; then B=build/examples-host; else B=build/examples; fi
  for k in "${kernels[@]}"; do
    IFS='|' read -r name scope size <<< "$k"
    if ! ./edan trace --quiet $scope --binary "$T/$name.bin" -- $B/$name $size > /dev/null 2> "$T/trace.err"; then
      bad "$isa $name: no trace: $(tail -3 "$T/trace.err")"; continue
    fi
    for K in 1 2 3 4 5; do
      if [ $K = 5 ]; then check "$isa-$name.bin" $K 2 5 10 11 -- analyze "$T/$name.bin"
      elif [ $K = 2 ]; then check "$isa-$name.bin" $K 2 4 5 -- analyze "$T/$name.bin"     # 4: each one's schedule's thread
      elif [ $K = 1 ]; then check "$isa-$name.bin" $K 2 3 -- analyze "$T/$name.bin"     # 2: the schedule's thread
      else check "$isa-$name.bin" $K $K -- analyze "$T/$name.bin"; fi
    done
  done
done
# and a text trace
if ./edan trace --quiet --func kernel_gemm --text "$T/gemm.txt" -- build/examples/gemm 12 > /dev/null 2> "$T/trace.err"; then
  check rv-gemm.txt 4 2 4 9 -- analyze "$T/gemm.txt"
else
  bad "no text trace: $(tail -3 "$T/trace.err")"
fi

# a run that ends early: the partial report is the same (a crash, at the same instruction every time),
# and a stop request (SIGINT to edan) ends the threads and writes it (exit 1)
gcc -O2 -o "$T/stopme.host" tests/cmd/stopme.c && riscv64-linux-gnu-gcc -O2 -static -o "$T/stopme.rv" tests/cmd/stopme.c ||
  bad "cannot build tests/cmd/stopme.c"
for isa in host rv; do
  rcs=""
  for J in 1 3 6 7; do
    ./edan trace "${common[@]}" $(configs 3) --jobs $J --func work -- "$T/stopme.$isa" crash > "$T/crash.$J.txt" 2> /dev/null
    rcs="$rcs $?"
  done
  if [ "$rcs" = " 139 139 139 139" ] && grep -q "^PARTIAL" "$T/crash.1.txt" && cmp -s "$T/crash.1.txt" "$T/crash.3.txt" &&
     cmp -s "$T/crash.1.txt" "$T/crash.6.txt" && cmp -s "$T/crash.1.txt" "$T/crash.7.txt"; then
    ok "$isa crash: --jobs 3's, 6's and 7's partial reports = --jobs 1's, byte for byte"
  else
    bad "$isa crash: exit statuses$rcs; $(for J in 3 6 7; do diff "$T/crash.1.txt" "$T/crash.$J.txt" | head -5; done)"
  fi
done
for J in 3 6 7; do
  rm -f "$T/ready"
  ./edan trace "${common[@]}" $(configs 3) --jobs $J --func work -- "$T/stopme.host" spin "$T/ready" > "$T/stop.txt" 2> "$T/stop.err" &
  pid=$!
  for i in $(seq 300); do [ -e "$T/ready" ] && break; sleep 0.1; done
  sleep 0.3; kill -INT $pid; wait $pid; rc=$?
  if [ $rc = 1 ] && grep -q "^PARTIAL" "$T/stop.txt" && grep -q "memory work W .* .* .*" "$T/stop.txt"; then
    ok "SIGINT with --jobs $J: exit 1, the partial report of the 3 configurations"
  else
    bad "SIGINT with --jobs $J: exit $rc; $(tail -2 "$T/stop.err")"
  fi
done

# a bad --jobs: a usage error, nothing analysed
for j in 0 x -1; do
  ./edan analyze --jobs $j "$T/gemm.bin" > "$T/bad.out" 2> "$T/bad.err"; rc=$?
  if [ $rc = 2 ] && grep -q -- "--jobs $j: expected a number of threads" "$T/bad.err" && [ ! -s "$T/bad.out" ]; then
    ok "--jobs $j: exit 2, $(head -1 "$T/bad.err")"
  else
    bad "--jobs $j: exit $rc, $(head -1 "$T/bad.err")"
  fi
done
exit $fail
