#!/usr/bin/env bash
# Memory depth of real programs traced by `edan trace`, without a cache:
#  - the pointer chase's loads each depend on the previous one: D equals the
#    length of the chain, at two lengths;
#  - gemm and mvt are data-oblivious: D does not grow with the problem size
#    (the EDAN paper's section 5.1 finding), while W does.
set -euo pipefail
cd "$(dirname "$0")/.."
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
