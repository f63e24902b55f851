#!/usr/bin/env bash
# Memory depth of real programs traced by `edan trace`, without a cache:
#  - the pointer chase's loads each depend on the previous one: D equals the
#    length of the chain, at two lengths;
#  - gemm and mvt are data-oblivious: D does not grow with the problem size
#    (the EDAN paper's section 5.1 finding), while W does.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
metric() {  # metric PROGRAM SIZE FUNC KEY
  ./edan trace --func "$3" --json -o "$tmp/r.json" -- "build/examples/$1" "$2" >/dev/null
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0][sys.argv[2]])' "$tmp/r.json" "$4"
}
for len in 30 100; do
  d=$(metric chase $len kernel_chase D)
  echo "chase: chain of $len nodes -> D = $d"
  [ "$d" -eq "$len" ] || { echo "FAIL: D should equal the chain length $len"; exit 1; }
done
for k in gemm mvt; do
  d1=$(metric $k 6 kernel_$k D); d2=$(metric $k 12 kernel_$k D)
  w1=$(metric $k 6 kernel_$k W); w2=$(metric $k 12 kernel_$k W)
  echo "$k: n=6 W=$w1 D=$d1; n=12 W=$w2 D=$d2 (data-oblivious: D constant, paper section 5.1)"
  [ "$d1" -eq "$d2" ] || { echo "FAIL: D of $k grew with the problem size"; exit 1; }
  [ "$w2" -gt "$w1" ] || { echo "FAIL: W of $k did not grow with the problem size"; exit 1; }
done

# With a cache far smaller than the list (1 KiB against 4096 nodes x 16 B),
# every line the chase touches misses once, and each miss waits for the one
# before it, whichever node load comes first: D = W (fill dependencies).
# Under the paper's rule a node's second load, a hit, depends on nothing
# but its register: the walk shows D = 1 (the answer issue the rule has).
chase_cached() {  # chase_cached [OPTIONS]: W D of a 4096-node walk through a 1 KiB cache
  ./edan trace --func kernel_chase --cache 1K:2:64 "$@" --json -o "$tmp/r.json" -- build/examples/chase 4096 >/dev/null
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["configs"][0]; print(c["W"], c["D"])' "$tmp/r.json"
}
read -r w d < <(chase_cached)
echo "chase 4096 through a 1 KiB cache: W = $w, D = $d (fill dependencies)"
[ "$w" -ge 1024 ] && [ "$d" -eq "$w" ] || { echo "FAIL: D should equal W"; exit 1; }
read -r pw pd < <(chase_cached --paper-cache)
echo "the same under --paper-cache: W = $pw, D = $pd"
[ "$pw" -eq "$w" ] && [ "$pd" -lt "$d" ] || { echo "FAIL: the paper's rule should give the same W and a smaller D"; exit 1; }

# --top names the chase's loads by function and source line (DWARF)
./edan trace --top 2 --func kernel_chase -- build/examples/chase 50 > "$tmp/top.txt" 2>&1
line=$(grep -n 'p = p->next' examples/chase.c | cut -d: -f1)
grep -qE "kernel_chase +chase\.c:$line\$" "$tmp/top.txt" ||
  { cat "$tmp/top.txt"; echo "FAIL: --top does not name kernel_chase at chase.c:$line"; exit 1; }
echo "--top names kernel_chase at chase.c:$line"
