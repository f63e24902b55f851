#!/usr/bin/env bash
# Memory of `edan trace` against the trace's length: the pointer chase of
# 10^6 and 10^7 nodes, whose memory depth D is its length (two loads a
# layer). From the short run to the long one, the peak RSS may grow by what
# the program's own grows, QEMU alone measured the same way (its nodes, 16
# bytes each, their order and QEMU's own), plus one byte per layer added:
# the layer histogram is the engine's only state that grows with D (it held
# 8 bytes a layer, 13 with its spare capacity, before it was made compact).
# The JSON report's size does not grow with D (its layers are a summary of
# at most 4,096 bins): within 10% from 10^5 to 10^7 layers (between
# 2,049 and 4,096 bins of a power of two layers each). --layers writes
# every W_i, as text and as binary: a chase of 10^5 nodes, D rows of 2.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
peak() {  # peak OUT CMD...: CMD's standard output into OUT; prints its peak RSS in bytes
  python3 - "$@" <<'EOF'
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    r = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT)
if r.returncode:
    sys.exit("%s exited with %d" % (" ".join(sys.argv[2:]), r.returncode))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
EOF
}
declare -A edan qemu
for n in 1000000 10000000; do
  edan[$n]=$(peak "$tmp/out" ./edan trace --json -o "$tmp/r$n.json" --func kernel_chase -- build/examples/chase $n)
  d=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["configs"][0]["D"])' "$tmp/r$n.json")
  [ "$d" = "$n" ] || { echo "FAIL: chase $n: D = $d, not $n"; cat "$tmp/out"; exit 1; }
  qemu[$n]=$(peak "$tmp/out" qemu-riscv64 build/examples/chase $n)
  echo "chase $n nodes (D = $d): edan trace peak $((${edan[$n]} >> 10)) KiB, QEMU alone $((${qemu[$n]} >> 10)) KiB"
done
grew=$((${edan[10000000]} - ${edan[1000000]}))
own=$((${qemu[10000000]} - ${qemu[1000000]}))
layers=$((10000000 - 1000000))
echo "from 10^6 to 10^7 nodes: edan trace grew $((grew >> 10)) KiB, the program under QEMU alone $((own >> 10)) KiB," \
     "the layers added $((layers >> 10)) Ki"
[ "$grew" -lt $((own + layers)) ] || { echo "FAIL: more than the program's growth plus a byte per layer"; exit 1; }
echo "ok: less than the program's growth plus a byte per layer"
./edan trace --quiet --json -o "$tmp/r.json" --layers "$tmp/l.csv" --func kernel_chase -- build/examples/chase 100000 > /dev/null 2>&1
./edan trace --quiet --json -o "$tmp/r2.json" --layers "$tmp/l.bin" --func kernel_chase -- build/examples/chase 100000 > /dev/null 2>&1
python3 - "$tmp/r.json" "$tmp/l.csv" "$tmp/l.bin" <<'EOF'
import json, struct, sys
c = json.load(open(sys.argv[1]))["configs"][0]
rows = open(sys.argv[2]).read().split("\n")
assert rows[0] == "layer,W[no cache]", rows[0]
w = [int(r.split(",")[1]) for r in rows[1:] if r]
assert [int(r.split(",")[0]) for r in rows[1:] if r] == list(range(1, len(w) + 1))
b = open(sys.argv[3], "rb").read()
assert b[:8] == b"EDANLAYR" and struct.unpack("<II", b[8:16]) == (1, 1), b[:16]
(d,) = struct.unpack("<Q", b[16:24])
wb = list(struct.unpack("<%dQ" % d, b[24:24 + 8 * d]))
L = c["layers"]
assert len(w) == c["D"] == d == 100000 and set(w) == {2} and sum(w) == c["W"] and wb == w, (len(w), c["D"], d)
assert sum(L["sum"]) == c["W"] and sum(L["count"]) == c["D"] and L["bins"] <= 4096, L["bins"]
print("ok: --layers: %d rows of W_i, text and binary the same, their sum W; the summary's %d bins of %d" % (len(w), L["bins"], L["width"]))
EOF
s5=$(stat -c %s "$tmp/r.json"); s6=$(stat -c %s "$tmp/r1000000.json"); s7=$(stat -c %s "$tmp/r10000000.json")
echo "the JSON report: $s5 bytes at D = 10^5, $s6 at 10^6, $s7 at 10^7"
[ $((s7 > s5 ? s7 - s5 : s5 - s7)) -lt $((s5 / 10)) ] || { echo "FAIL: the report grew with D"; exit 1; }
echo "ok: the report's size at D = 10^5 and 10^7 within 10%"
