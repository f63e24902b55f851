#!/usr/bin/env bash
# `edan trace` on the EDAN paper's summation kernel (Fig. 4) with n = 4 and no
# cache: the kernel's four loads are independent, so W = 4 and D = 1 (Fig. 7).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$(./edan trace --func kernel --alpha 1 --json -o "$tmp/r.json" -- build/examples/sum 4)
[ "$out" = "sum 10" ] || { echo "the program's own output changed: '$out'"; exit 1; }
python3 - "$tmp/r.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
print("sum n=4 --func kernel:", {k: c[k] for k in ("instructions", "W", "D", "loads", "stores")})
assert c["W"] == 4, c["W"]
assert c["D"] == 1, c["D"]
assert c["loads"] == 4 and c["stores"] == 0
# lambda(m) = (W - D)/m + D
for m, b in c["m"].items():
    assert abs(b["lambda"] - ((4 - 1) / int(m) + 1)) < 1e-9, (m, b)
PY
echo "summation kernel: W = 4, D = 1 as in the paper"
