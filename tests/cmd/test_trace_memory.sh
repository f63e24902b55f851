#!/usr/bin/env bash
# Memory of `edan trace` against the trace's length: the pointer chase of
# 10^6 and 10^7 nodes, whose memory depth D is its length (two loads a
# layer). From the short run to the long one, the peak RSS may grow by what
# the program's own grows, QEMU alone measured the same way (its nodes, 16
# bytes each, their order and QEMU's own), plus one byte per layer added:
# the layer histogram is the engine's only state that grows with D (it held
# 8 bytes a layer, 13 with its spare capacity, before it was made compact).
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
  edan[$n]=$(peak "$tmp/report" ./edan trace --func kernel_chase -- build/examples/chase $n)
  d=$(awk '/memory depth D/ {print $NF}' "$tmp/report")
  [ "$d" = "$n" ] || { echo "FAIL: chase $n: D = $d, not $n"; cat "$tmp/report"; exit 1; }
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
