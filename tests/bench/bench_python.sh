#!/usr/bin/env bash
# Side by side with the EDAN authors' Python implementation
# (https://github.com/ss16118/sc23-edan, eDAG_generator/): the same trace of
# >= 200K lines in that tool's format, analysed without a cache model by
#   edan:       ./edan analyze --json --quiet TRACE            (median of BENCH_PY_RUNS runs)
#   reference:  python3 eDAG_generator/main.py -f TRACE --mls  (once; it prints
#               "memory depth: D, memory work: W" from get_crit_path_mem_acc_p())
# and prints both wall times, the speedup and whether W and D agree. Then a few
# hand-written traces of 1-3 lines show where the two models differ.
#
# The reference is not part of this repository and is never copied into it:
#   EDAN_REFERENCE_PY=DIR   a checkout (DIR/eDAG_generator/main.py), or a git
#                           directory of the repository (bare or not); its
#                           eDAG_generator/ is extracted into build/sc23-edan/
#   EDAN_REFERENCE_PYTHON   the interpreter (default /usr/bin/python3, Debian's), with
#                           python3-networkx python3-igraph python3-numpy python3-scipy
#                           python3-matplotlib python3-tqdm python3-graphviz python3-texttable
#   BENCH_PY_LINES          length of the generated trace (default 200000)
#   BENCH_PY_RUNS           runs of edan for the median (default 5)
# Without EDAN_REFERENCE_PY (or without those packages) it prints "skipped" and exits 0.
# Exit status 1 if W or D differ on a benchmark trace.
set -euo pipefail
cd "$(dirname "$0")/../.."

REF=${EDAN_REFERENCE_PY:-}
PY=${EDAN_REFERENCE_PYTHON:-/usr/bin/python3}
LINES=${BENCH_PY_LINES:-200000}
RUNS=${BENCH_PY_RUNS:-5}
OUT=build/bench_python

if [ -z "$REF" ]; then
  echo "skipped: comparison with the EDAN authors' Python implementation needs a copy of it:"
  echo "  git clone https://github.com/ss16118/sc23-edan DIR"
  echo "  EDAN_REFERENCE_PY=DIR bash tests/bench/bench_python.sh     (DIR may also be a bare git directory)"
  echo "  and Debian's python3-networkx python3-igraph python3-numpy python3-scipy"
  echo "  python3-matplotlib python3-tqdm python3-graphviz python3-texttable"
  exit 0
fi

# --- the reference: a checkout, or a git directory to extract -------------------------
mkdir -p "$OUT"
if [ -f "$REF/eDAG_generator/main.py" ]; then
  REFDIR=$(cd "$REF" && pwd)
  # its own repository's commit; a directory this script extracted is named
  # by its commit (inside another repository, git would name that one's)
  if [ "$(git -C "$REFDIR" rev-parse --show-toplevel 2>/dev/null)" = "$REFDIR" ]; then
    COMMIT=$(git -C "$REFDIR" rev-parse HEAD)
  elif [[ $(basename "$REFDIR") =~ ^[0-9a-f]{40}$ ]]; then
    COMMIT=$(basename "$REFDIR")
  else
    COMMIT="unknown commit"
  fi
elif git --git-dir="$REF" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  COMMIT=$(git --git-dir="$REF" rev-parse HEAD)
  REFDIR=build/sc23-edan/$COMMIT
  if [ ! -f "$REFDIR/eDAG_generator/main.py" ]; then
    rm -rf "$REFDIR.tmp" && mkdir -p "$REFDIR.tmp"
    git --git-dir="$REF" archive "$COMMIT" eDAG_generator | tar -x -C "$REFDIR.tmp"
    rm -rf "$REFDIR" && mv "$REFDIR.tmp" "$REFDIR"
  fi
  REFDIR=$(cd "$REFDIR" && pwd)
else
  echo "bench_python: EDAN_REFERENCE_PY=$REF is neither a checkout with eDAG_generator/main.py" \
       "nor a git directory of sc23-edan" >&2
  exit 2
fi
missing=""
for m in networkx:networkx igraph:igraph numpy:numpy scipy:scipy matplotlib:matplotlib \
         tqdm:tqdm graphviz:graphviz texttable:texttable; do
  "$PY" -c "import ${m%%:*}" 2>/dev/null || missing="$missing python3-${m#*:}"
done
if [ -n "$missing" ]; then
  echo "skipped: $PY cannot import what the reference needs; install:"
  echo "  apt-get install$missing"
  exit 0
fi

# --- our side -----------------------------------------------------------------------------
[ -x ./edan ] || make edan
cc -O2 -o build/gen_trace tests/gen_trace.c

# Reference: one run; prints "W D total_s build_s rss_mib", or "error <message>".
ref_run() {
  local trace=$1 log=$OUT/ref-$(basename "$1").log t0 t1 rss=""
  t0=$EPOCHREALTIME
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$log.rss" nice "$PY" "$REFDIR/eDAG_generator/main.py" -f "$trace" --mls >"$log" 2>&1 || true
    rss=$(awk 'END { printf "%.1f", $1 / 1024 }' "$log.rss")
  else
    nice "$PY" "$REFDIR/eDAG_generator/main.py" -f "$trace" --mls >"$log" 2>&1 || true
    rss="?"
  fi
  t1=$EPOCHREALTIME
  if grep -q 'memory depth:' "$log"; then
    sed -n 's/.*memory depth: \([0-9.]*\), memory work: \([0-9]*\).*/\2 \1/p' "$log" | head -1 |
      awk -v t0="$t0" -v t1="$t1" -v rss="$rss" \
        -v gen="$(sed -n 's/.*Time take for generation: \([0-9.]*\) s.*/\1/p' "$log" | head -1)" \
        '{ printf "%d %d %.3f %s %s\n", $1, $2 + 0.5, t1 - t0, gen, rss }'
  else
    echo "error $(grep -E 'Error|error' "$log" | tail -1)"
  fi
}
# edan: prints "W D" (EDAN_ARGS: more options).
ours_wd() {
  ./edan analyze --no-profile ${EDAN_ARGS:-} --json --quiet "$1" |
    "$PY" -c 'import json, sys; c = json.load(sys.stdin)["configs"][0]; print(c["W"], c["D"])'
}

# --- benchmark traces ---------------------------------------------------------------------
# The format is the one the reference's tracer writes (trace/qemu_execlog.c: "cpu;insn" plus
# ";0xaddr" for memory accesses). Its parser (riscv_parser.py) takes the token after the CPU
# as the instruction, so the older variant with a PC (0;0x10400;insn;0xaddr) stops it.
traces=()
SYN=$OUT/synthetic-$LINES.trace
[ -s "$SYN" ] || { build/gen_trace "$LINES" 65536 authors > "$SYN.tmp" && mv "$SYN.tmp" "$SYN"; }
traces+=("$SYN|synthetic: tests/gen_trace.c $LINES 65536 authors")

# A real kernel: gemm n=32, only the kernel (the reference knows too few instructions for a
# whole program, see below), traced by `edan trace --text` and given the CPU prefix; its comment lines
# (#edan-kill: what code outside the scope wrote) left out, as the reference knows none.
GEMM=$OUT/gemm-32.trace
if [ ! -s "$GEMM" ]; then
  if { [ -x build/examples/gemm ] && [ -f build/edan-plugin.so ]; } ||
     make -s build/examples/gemm build/edan-plugin.so >/dev/null 2>&1; then
    if nice ./edan trace --no-profile --func kernel_gemm --text "$GEMM.txt" -- build/examples/gemm 32 >/dev/null 2>"$GEMM.err"; then
      sed '/^#/d; s/^/0;/' "$GEMM.txt" > "$GEMM" && rm -f "$GEMM.txt" "$GEMM.err"
    fi
  fi
fi
if [ -s "$GEMM" ]; then
  traces+=("$GEMM|gemm n=32: edan trace --func kernel_gemm --text F -- build/examples/gemm 32; sed '/^#/d; s/^/0;/'")
else
  echo "(no gemm trace: needs riscv64-linux-gnu-gcc, qemu-riscv64 and build/edan-plugin.so)"
fi

echo "reference: the EDAN authors' Python implementation, sc23-edan $COMMIT"
echo "           $("$PY" -c 'import sys, networkx, igraph; print("Python", sys.version.split()[0], "networkx", networkx.__version__, "igraph", igraph.__version__)')"
echo "reference command: $PY eDAG_generator/main.py -f TRACE --mls   (no cache model, unit costs; run once)"
echo "edan command:      ./edan analyze --json --quiet TRACE   (no cache; median of $RUNS runs)"
echo "both under nice, wall time of the whole process"
echo
rc=0
for entry in "${traces[@]}"; do
  t=${entry%%|*}
  n=$(wc -l < "$t")
  echo "trace: $t, $n lines, $(( $(stat -c %s "$t") >> 10 )) KiB"
  echo "  (${entry#*|})"
  oW= oD= med=
  read -r oW oD < <(ours_wd "$t") || true
  read -r med mn mx orss < <(python3 tests/bench/runstat.py "$RUNS" nice ./edan analyze --no-profile --json --quiet "$t") || true
  if [ -z "${oW:-}" ] || [ -z "${med:-}" ]; then
    echo "  edan analyze failed on $t"
    rc=1
    continue
  fi
  r=$(ref_run "$t")
  if [ "${r%% *}" = error ]; then
    echo "  reference failed: ${r#error }"
    rc=1
    continue
  fi
  read -r rW rD rtot rgen rrss <<<"$r"
  printf '  %-10s %10s %10s %12s %10s   %s\n' "" "W" "D" "wall s" "RSS MiB" "lines/s"
  printf '  %-10s %10d %10d %12s %10s   %.0f\n' "edan" "$oW" "$oD" "$med" "$orss" \
    "$(awk -v n="$n" -v t="$med" 'BEGIN { print n / t }')"
  printf '  %-10s %10d %10d %12s %10s   %.0f   (graph construction alone: %s s)\n' "reference" "$rW" "$rD" \
    "$rtot" "$rrss" "$(awk -v n="$n" -v t="$rtot" 'BEGIN { print n / t }')" "${rgen:-?}"
  echo "  edan runs: median $med s (min $mn, max $mx)"
  printf '  speedup: %.0fx\n' "$(awk -v a="$rtot" -v b="$med" 'BEGIN { print a / b }')"
  if [ "$oW" = "$rW" ] && [ "$oD" = "$rD" ]; then
    echo "  W and D agree"
  else
    echo "  W and D DISAGREE (edan W=$oW D=$oD, reference W=$rW D=$rD)"
    rc=1
  fi
  echo
done

# --- where the models differ: hand-written traces in the same format --------------------
echo "model differences (hand-written traces in $OUT/diff-*.trace):"
probe() {
  local name=$1 what=$2 t=$OUT/diff-$1.trace r oW oD
  printf '%b' "$3" > "$t"
  oW= oD= med=
  read -r oW oD < <(ours_wd "$t") || true
  r=$(ref_run "$t")
  if [ "${r%% *}" = error ]; then
    r="fails: ${r#error }"
  else
    r="W=$(echo "$r" | cut -d' ' -f1) D=$(echo "$r" | cut -d' ' -f2)"
  fi
  printf '  %-10s edan W=%s D=%s; reference %s\n             %s\n' "$name" "$oW" "$oD" "$r" "$what"
}
EDAN_ARGS="--forward 0" probe overlap "sd to 0x1000, lw from 0x1004, edan --forward 0: the reference matches memory by the access's start address, edan by byte" \
  '0;sd a0,0(sp);0x1000\n0;lw a1,4(sp);0x1004\n'
probe forward "the same with store-to-load forwarding (edan's default): the load takes the stored value, no RAM access" \
  '0;sd a0,0(sp);0x1000\n0;lw a1,4(sp);0x1004\n'
probe amo "sd then amoadd.w on the same word: the reference's AMO does not read memory (no edge from the store)" \
  '0;sd a0,0(a1);0x1000\n0;amoadd.w a5,a4,(a1);0x1000\n'
probe jr "ld t0; jr t0; ld via ra: the reference makes jr write ra, so the second load depends on the first" \
  '0;ld t0,0(a0);0x1000\n0;jr t0\n0;ld a1,0(ra);0x2000\n'
probe fmv.d "fld fa0; fmv.d a2,a0; fsd fa2: QEMU prints fmv.d with integer names; the reference takes them as x-registers" \
  '0;fld fa0,0(s0);0x1000\n0;fmv.d a2,a0\n0;fsd fa2,0(s1);0x2000\n'
probe bltz "instructions missing from the reference's tables (bltz, seqz, remu, mulhu, lr.w, sc.w, fsw, csrr, ...) stop it" \
  '0;bltz a0,8\n'
exit $rc
