#!/usr/bin/env bash
# Benchmark of --jobs (configurations analysed in parallel): 1, 2 and 4
# configurations in one pass, with --jobs 1 (one thread), --jobs K (a
# thread a configuration; one configuration: --jobs 2, its windowed schedule
# on a second thread), --jobs 2K (each configuration's schedule on a
# thread of its own too) and --jobs 2K + 1 (the thread that feeds only
# counts and checks the calls and hands every configuration over), online
# (edan trace of the gemm kernel) and on its
# binary trace (edan analyze): the wall time, the CPU time of every thread,
# and the CPU time of the busiest thread (tests/bench/threadcpu.py), each
# the median of BENCH_REPS runs (default 5), and the busiest thread's time
# over one configuration's. The busiest thread's time is what the wall time
# is with a core for each thread; on a machine whose cores are busy with
# other work (the load average, printed first) the wall time measures that
# work too.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPS=${BENCH_REPS:-5}
N=${BENCH_GEMM:-128}
mkdir -p build/bench
B=build/bench/gemm-$N.bin
P=build/examples/gemm
[ -x $P ] || { echo "bench_jobs: $P is missing (make)"; exit 1; }
[ -s "$B" ] || ./edan trace --quiet --no-profile --func kernel_gemm --binary "$B" -- $P "$N" > /dev/null
echo "cores: $(nproc) usable; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
cfgs=("--cache 32K:8:64 --cache 1M:16:64:wb:12" "--config --cache 64K:8:64 --cache 2M:16:64:wb:14"
      "--config --cache 16K:4:64" "--config --cache 48K:12:64 --cache 1280K:20:64:wb:14")
configs() { local k; for ((k = 0; k < $1; k++)); do echo -n "${cfgs[$k]} "; done; }
printf '%-34s %4s %8s %8s %10s %10s\n' "gemm $N, --func kernel_gemm" "jobs" "wall s" "cpu s" "busiest s" "/ 1 config"
med() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
for how in trace analyze; do
  one=""
  for K in 1 2 4; do
    for J in 1 $((K > 1 ? K : 2)) $((K > 1 ? 2 * K : 0)) $((2 * K + 1)); do
      [ "$J" -gt 0 ] || continue
      if [ $how = trace ]; then cmd=(./edan trace --quiet --no-profile $(configs $K) --jobs $J --func kernel_gemm -- $P "$N")
      else cmd=(./edan analyze --quiet --no-profile $(configs $K) --jobs $J "$B"); fi
      ws=() cs=() bs=()
      for ((i = 0; i < REPS; i++)); do
        read -r w c b _ < <(python3 tests/bench/threadcpu.py "${cmd[@]}")
        ws+=("$w"); cs+=("$c"); bs+=("$b")
      done
      b=$(med "${bs[@]}")
      [ -n "$one" ] || one=$b
      printf '%-34s %4s %8s %8s %10s %10s\n' "$how, $K configuration(s)" "$J" "$(med "${ws[@]}")" "$(med "${cs[@]}")" \
        "$b" "$(awk -v a="$b" -v o="$one" 'BEGIN{printf "%.2fx", a/o}')"
    done
  done
done
