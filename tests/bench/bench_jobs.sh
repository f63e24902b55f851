#!/usr/bin/env bash
# Benchmark of --jobs (configurations analysed in parallel): the wall time
# of 1, 2 and 4 configurations in one pass, with --jobs 1 (one thread) and
# --jobs K (a thread a configuration), each over one configuration's time,
# online (edan trace of the gemm kernel) and on its binary trace (edan
# analyze). Median of BENCH_REPS runs (default 5). The cores this process
# may use, and how busy the machine is, are printed first: on a machine
# with fewer idle cores than K the threads wait for one another.
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
printf '%-36s %6s %10s %12s %9s %10s\n' "gemm $N, --func kernel_gemm" "jobs" "median s" "min..max" "RSS MiB" "/ 1 config"
for how in trace analyze; do
  one=""
  for K in 1 2 4; do
    for J in $(printf '%s\n' 1 $K | uniq); do
      if [ $how = trace ]; then cmd=(./edan trace --quiet --no-profile $(configs $K) --jobs $J --func kernel_gemm -- $P "$N")
      else cmd=(./edan analyze --quiet --no-profile $(configs $K) --jobs $J "$B"); fi
      read -r med mn mx rss < <(python3 tests/bench/runstat.py "$REPS" "${cmd[@]}" 2> /dev/null)
      [ -n "$one" ] || one=$med
      printf '%-36s %6s %10s %12s %9s %10s\n' "$how, $K configuration(s)" "$J" "$med" "$mn..$mx" "$rss" \
        "$(awk -v a="$med" -v b="$one" 'BEGIN{printf "%.2fx", a/b}')"
    done
  done
done
