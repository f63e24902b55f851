#!/usr/bin/env bash
# The windowed schedule against a cycle-level simulator: each kernel's
# latency sensitivity measured in ChampSim (the slope of its cycles against
# the RAM latency) beside edan's lambda_window and the paper's lambda(m),
# with the simulated core's parameters, and their Spearman rank correlations.
#
# ChampSim is not packaged: CHAMPSIM names a checkout of its source
# (github.com/ChampSim/ChampSim; its dependencies are Debian's libcli11-dev,
# nlohmann-json3-dev, libfmt-dev, libbz2-dev, liblzma-dev). The script
# builds a copy in the work directory with two changes: every DRAM read
# waits EDAN_EXTRA_PS picoseconds more before its bank sees it (RAM
# latency added as a far memory would add it, without taking any bank's or
# bus's time), and its livelock alarm off (a chase runs below its IPC
# floor of 0.01); and a core of the parameters below (CORES), with twice
# as many physical registers as its reorder buffer holds (the window's
# bound is the reorder buffer, as in edan's schedule).
#
# Usage: CHAMPSIM=DIR [OUT=tests/validate/slopes.csv] [KERNELS="..."]
#        [CORES="..."] [EXTRAS_NS="..."] [WORK=DIR] tests/validate/champsim.sh
# WORK (default: a new temporary directory, left in place) holds the
# simulator's builds, one a core (about 8 minutes each on 2 cores): a
# second run with the same WORK reuses them. The whole run takes about 35
# minutes of simulation on this project's development machine.
# Writes OUT: one row a core and kernel: the core's parameters, the
# kernel's instructions, its cycles at the base latency and the simulated
# slope (cycles a cycle of added RAM latency, least squares over
# EXTRAS_NS); then tests/cmd/test_window_sim.sh compares edan with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${CHAMPSIM:?CHAMPSIM=DIR: a ChampSim source checkout}"
out=${OUT:-tests/validate/slopes.csv}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/edan-champsim.XXXXXX")}
extras_ns=${EXTRAS_NS:-"0 25 50 75 100"}   # added RAM latency, ns (4 GHz core: 4 cycles a ns)
# the kernels: name and size (its function kernel_NAME; about a million instructions each)
kernels=${KERNELS:-"2mm 40
3mm 36
atax 300
bicg 300
cholesky 80
doitgen 20
gemm 48
gemver 200
gesummv 250
lu 72
mvt 250
symm 48
syr2k 40
syrk 48
trisolv 400
trmm 56
triad 100000
spmv 100
chase 20000"}
# the cores: name, ROB, load queue, store queue, width, L1D MSHRs (m)
cores=${CORES:-"big 352 128 72 6 16
small 96 24 16 4 4"}

make -s edan build/edan-plugin.so examples
gcc -std=c99 -O2 -Wall -Wextra -pedantic -o "$work/champsim_trace" tests/validate/champsim_trace.c

build_champsim() {     # $1 core name, $2 rob, $3 lq, $4 sq, $5 width, $6 mshr
  local d=$work/cs-$1
  [ -x "$d/bin/champsim" ] && return
  rm -rf "$d"; cp -r "$CHAMPSIM" "$d"; rm -rf "$d/.git" "$d/bin" "$d/.csconfig"
  # the added latency: a read enters the DRAM queue EDAN_EXTRA_PS later
  perl -0pi -e 's/(rq_it->value\(\)\.ready_time = current_time)(;)/$1 + champsim::chrono::picoseconds{std::atoll(std::getenv("EDAN_EXTRA_PS") ? std::getenv("EDAN_EXTRA_PS") : "0")}$2/ or die "the DRAM read queue line is not there\n"' "$d/src/dram_controller.cc"
  # a chase's IPC is below the simulator's livelock alarm (0.01): only no progress at all for
  # 10M cycles is one; and 400 cycles of added latency may pass without progress
  perl -0pi -e 's/livelock_threshold\{[^}]*\}/livelock_threshold{0.0, 0.0, 0.0}/ or die "no livelock_threshold\n"; s/DEADLOCK_CYCLE\{500\}/DEADLOCK_CYCLE{1000000}/ or die "no DEADLOCK_CYCLE\n"' "$d/src/champsim.cc"
  grep -q '^#include <cstdlib>' "$d/src/dram_controller.cc" || sed -i '1i #include <cstdlib>' "$d/src/dram_controller.cc"
  sed -i 's/-lCLI11 //' "$d/Makefile"       # Debian's CLI11 is header-only
  cat > "$d/edan.json" <<EOF
{
  "executable_name": "champsim", "block_size": 64, "page_size": 4096, "num_cores": 1,
  "ooo_cpu": [{ "frequency": 4000, "rob_size": $2, "lq_size": $3, "sq_size": $4,
    "fetch_width": $5, "decode_width": $5, "dispatch_width": $5, "execute_width": $5,
    "lq_width": 2, "sq_width": 2, "retire_width": $5, "scheduler_size": $2,
    "register_file_size": $(($2 * 2)),
    "branch_predictor": "hashed_perceptron", "btb": "basic_btb" }],
  "L1I": { "sets": 64, "ways": 8, "latency": 4, "prefetcher": "no" },
  "L1D": { "sets": 64, "ways": 8, "latency": 5, "mshr_size": $6, "prefetcher": "no" },
  "L2C": { "sets": 512, "ways": 8, "latency": 10, "mshr_size": 32, "prefetcher": "no" },
  "LLC": { "sets": 1024, "ways": 16, "latency": 20, "mshr_size": 64, "prefetcher": "no", "replacement": "lru" }
}
EOF
  (cd "$d" && ./config.sh edan.json > /dev/null && sed -i 's/-isystem *$//' absolute.options && make -s -j"$(nproc)" > "$work/build-$1.log" 2>&1) ||
    { echo "champsim.sh: building ChampSim failed: $work/build-$1.log" >&2; exit 1; }
}

sim_cycles() {         # $1 champsim dir, $2 trace, $3 extra ps: the simulated cycles
  EDAN_EXTRA_PS=$3 "$1/bin/champsim" --hide-heartbeat "$2" | awk '/^CPU 0 cumulative IPC/ { print $NF }'
}

echo "core,rob,lq,sq,width,m,kernel,size,insns,cycles,slope" > "$work/slopes.csv"
while read -r core rob lq sq width mshr; do
  build_champsim "$core" "$rob" "$lq" "$sq" "$width" "$mshr"
  while read -r name size; do
    [ -n "$name" ] || continue
    ./edan trace --no-profile --quiet --text "$work/t.txt" --text-pc --func "kernel_$name" -- build/examples/$name "$size" \
      > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    "$work/champsim_trace" < "$work/t.txt" > "$work/t.cs" 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
    pts=""
    for ns in $extras_ns; do
      c=$(sim_cycles "$work/cs-$core" "$work/t.cs" $((ns * 1000)))
      [ -n "$c" ] || { echo "champsim.sh: ChampSim failed on $name (+$ns ns)" >&2; exit 1; }
      pts+="$((ns * 4)) $c;"
    done
    # the least-squares slope of the cycles against the added cycles
    python3 - "$core,$rob,$lq,$sq,$width,$mshr,$name,$size,$(grep -c '^[^#]' "$work/t.txt")" "$pts" \
      >> "$work/slopes.csv" <<'PY'
import sys
xy = [tuple(map(float, p.split())) for p in sys.argv[2].strip(";").split(";")]
n = len(xy); mx = sum(x for x, _ in xy) / n; my = sum(y for _, y in xy) / n
slope = sum((x - mx) * (y - my) for x, y in xy) / sum((x - mx) ** 2 for x, _ in xy)
print(f"{sys.argv[1]},{int(xy[0][1])},{slope:.2f}")
PY
    tail -1 "$work/slopes.csv"
  done <<< "$kernels"
done <<< "$cores"
cp "$work/slopes.csv" "$out.tmp" && mv "$out.tmp" "$out"
SLOPES=$out bash tests/cmd/test_window_sim.sh
echo "wrote $out"
