#!/usr/bin/env bash
# The three ways to analyse a program agree: online analysis by the plugin,
# `edan analyze` of the text trace and `edan analyze` of the binary trace give
# identical metrics, for several kernels and analysis configurations
# (no cache; L1+L2 write-back and a write-through L1 in one pass).
# Also: the binary trace is at least 4x smaller than the text trace. (Code
# run once costs its block's definition, about 14 bytes per instruction: a
# whole-program run as small as atax 4 under an empty environment, mostly
# the C library's start-up, is only 2x smaller; atax 40 about 8x.)
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
configs=(
  "--tau 50"
  "--cache 1K:2:64 --cache 8K:4:64:wb:10 --config --cache 2K:2:64:wt --m 1,3,8"
)
cases=(
  "--func kernel|sum 64"
  "--func kernel_gemm|gemm 6"
  "--func kernel_chase|chase 40"
  "--func kernel_cg_step|spmv 4"
  "--func kernel_trmm|trmm 5"
  "--func list_walk --func array_sum|walk 300"
  "--region main --exclude ex_link_nodes|walk 1000"
  "|atax 40"
  "|sum-dyn 100"
)
strip() {  # metrics without the input's name and what only the tracer knows
  python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j.pop("source", None)
j.pop("tracer", None)
print(json.dumps(j, sort_keys=True))
PY
}
fail=0
for cs in "${cases[@]}"; do
  scope=${cs%%|*}; prog=${cs#*|}
  read -r name size <<<"$prog"
  ./edan trace $scope --text "$tmp/t.txt" --binary "$tmp/t.bin" -- "build/examples/$name" $size >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
  tsz=$(stat -c %s "$tmp/t.txt"); bsz=$(stat -c %s "$tmp/t.bin")
  for cfg in "${configs[@]}"; do
    ./edan trace $scope $cfg --json -o "$tmp/online.json" -- "build/examples/$name" $size >/dev/null
    ./edan analyze $cfg --json --quiet "$tmp/t.txt" > "$tmp/text.json"
    ./edan analyze $cfg --json --quiet "$tmp/t.bin" > "$tmp/bin.json"
    a=$(strip "$tmp/online.json"); b=$(strip "$tmp/text.json"); c=$(strip "$tmp/bin.json")
    n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["instructions"])' "$tmp/online.json")
    if [ "$a" = "$b" ] && [ "$a" = "$c" ] && [ "$n" -gt 0 ]; then
      echo "ok   $prog $scope [$cfg]: $n instructions, online = text = binary"
    else
      echo "FAIL $prog $scope [$cfg]: online / text / binary differ"
      diff <(echo "$a" | tr ',' '\n') <(echo "$b" | tr ',' '\n') | head -10 || true
      diff <(echo "$a" | tr ',' '\n') <(echo "$c" | tr ',' '\n') | head -10 || true
      fail=1
    fi
  done
  echo "     text trace $tsz bytes, binary trace $bsz bytes ($((tsz / (bsz > 0 ? bsz : 1)))x smaller)"
  if [ $((bsz * 4)) -gt "$tsz" ]; then echo "FAIL binary trace not 4x smaller than text"; fail=1; fi
done

# With PCs in the text trace (--text-pc), the per-PC hotspots (--top) agree
# too; in SpMV the x[col[k]] loads wait for the col[k] loads (chained).
./edan trace --func kernel_spmv --text-pc --text "$tmp/p.txt" --binary "$tmp/p.bin" -- build/examples/spmv 5 >/dev/null 2>&1
./edan trace --func kernel_spmv --top 5 --json -o "$tmp/online.json" -- build/examples/spmv 5 >/dev/null
./edan analyze --quiet --top 5 --json --elf build/examples/spmv "$tmp/p.txt" > "$tmp/text.json"
./edan analyze --quiet --top 5 --json --elf build/examples/spmv "$tmp/p.bin" > "$tmp/bin.json"
if python3 - "$tmp/online.json" "$tmp/text.json" "$tmp/bin.json" <<'PY'
import json, sys
r = [json.load(open(f)) for f in sys.argv[1:]]
for x in r:
    x.pop("source")
    x.pop("tracer", None)
hot = r[0]["configs"][0]["hotspots"]
print("     spmv hotspots:", [(h["pc"], h["op"], h["chained"]) for h in hot[:3]])
sys.exit(0 if r[0] == r[1] == r[2] and hot and hot[0]["chained"] > 0 else 1)
PY
then echo "ok   spmv --top 5: online = text with PCs = binary, chained loads found"
else echo "FAIL spmv --top 5 differs between online, text (--text-pc) and binary"; fail=1; fi
exit $fail
