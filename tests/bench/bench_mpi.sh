#!/usr/bin/env bash
# Benchmark of a whole MPI job under edan trace: 4 ranks of the halo-exchange
# stencil (examples/mpi_stencil.c) under mpirun --oversubscribe on this
# machine's cores, each rank's kernel analysed online without a cache
# (--func kernel_stencil, one JSON result per rank), against the same job
# with every rank under qemu-x86_64 alone (the emulator is the floor: edan
# trace runs each rank in it) and natively. Medians of RUNS runs (default 3),
# round-robin; the ratio is the traced job's time over the emulated one's.
# Usage: tests/bench/bench_mpi.sh [CELLS (default 200000)] [STEPS (default 10)]
set -euo pipefail
cd "$(dirname "$0")/../.."
cells=${1:-200000}
steps=${2:-10}
runs=${RUNS:-3}
prog=build/examples-host/mpi_stencil
[ -x $prog ] || { echo "$prog is missing (make examples; tools/deps.sh installs Open MPI)"; exit 1; }
command -v mpirun > /dev/null || { echo "mpirun is missing (tools/deps.sh installs openmpi-bin)"; exit 1; }
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_tcp_if_include=lo
work=$(mktemp -d "${TMPDIR:-/tmp}/edan-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
mpi=(mpirun --oversubscribe -np 4)
"${mpi[@]}" ./edan trace --no-profile --quiet --no-cache --json -o "$work/r%r.json" --func kernel_stencil -- $prog "$cells" "$steps" > /dev/null
insns=$(python3 -c 'import json,sys; print(sum(json.load(open(f))["configs"][0]["instructions"] for f in sys.argv[1:]))' "$work"/r?.json)
echo "job: 4 ranks of examples/mpi_stencil.c ($cells cells in all, $steps steps; gcc -O2), mpirun --oversubscribe; kernel_stencil's instructions over the ranks: $insns; $runs runs each (round-robin), median wall time"
echo "machine: $(nproc) cores, $(uname -m), $(qemu-x86_64 --version | head -n 1), $(mpirun --version | head -n 1)"
. tests/bench/bench_lib.sh
cmd_native=("${mpi[@]}" $prog "$cells" "$steps")
cmd_qemu=("${mpi[@]}" qemu-x86_64 $prog "$cells" "$steps")
cmd_traced=("${mpi[@]}" ./edan trace --no-profile --quiet --no-cache --json -o "$work/t%r.json" --func kernel_stencil -- $prog "$cells" "$steps")
bench_rounds "$runs" native qemu traced
t_n=$(bench_median <<<"${times[native]}"); t_q=$(bench_median <<<"${times[qemu]}"); t_t=$(bench_median <<<"${times[traced]}")
printf '  %-52s %8s %12s\n' "run (4 ranks)" "median" "vs qemu"
printf '  %-52s %7.2f s %11.2fx\n' "native" "$t_n" "$(awk -v a="$t_n" -v b="$t_q" 'BEGIN {print a / b}')"
printf '  %-52s %7.2f s %11.2fx\n' "every rank under qemu-x86_64 alone (the floor)" "$t_q" 1
printf '  %-52s %7.2f s %11.2fx  (%.1f M kernel insn/s)\n' "every rank under edan trace --func kernel_stencil" "$t_t" \
  "$(awk -v a="$t_t" -v b="$t_q" 'BEGIN {print a / b}')" "$(awk -v n="$insns" -v t="$t_t" 'BEGIN {print n / t / 1e6}')"
