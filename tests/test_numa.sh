#!/usr/bin/env bash
# probe --numa on this machine and on two emulated NUMA machines (qemu TCG,
# tests/numa/run-vm.sh): the one-node skip record here; inside the machines
# the LARM matrix, page placement, HMAT attributes, memkind's HBW choice
# (found through HMAT, and forced with MEMKIND_HBW_NODES), the hybrid sweep
# and its fit (tests/numa/check.py), and the hybrid models read back and
# evaluated through edan.h (tests/numa/model_check.c). Also `make
# test-numa`. The machines run probe_numa_section through
# tests/numa/driver.c: the whole probe takes minutes under TCG
# (NUMA_FULL_PROBE=1 runs it too).
set -euo pipefail
cd "$(dirname "$0")/.."
B=build/numa
mkdir -p "$B"
nice ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -D_GNU_SOURCE -O2 -I. -o "$B/numa-driver" \
  tests/numa/driver.c probes/numa.c $(pkg-config --libs hwloc) -lmemkind -lnuma -lpthread -lm
nice ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -O2 -I. -o "$B/model_check" tests/numa/model_check.c -lm

# this machine: with one node the section is a skip record, and exits 0
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
"$B/numa-driver" --quick --silent > "$B/host.log"
if [ "$nodes" -le 1 ]; then
  python3 - "$B/host.log" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
doc = json.loads(t.split("@@EDAN-NUMA-BEGIN", 1)[1].split("@@EDAN-NUMA-END", 1)[0])
assert doc["skipped"] is True and doc["nodes"] == 1, doc
assert "one NUMA node" in doc["reason"], doc["reason"]
assert {n["roof"] for n in doc["needs"]} == {"remote", "contended", "congested", "hybrid"}, doc["needs"]
assert doc["roofs"] == [] and doc["hybrid"] == [], "a one-node run measured NUMA roofs"
assert doc["memkind"]["hbw"]["available"] is False and doc["memkind"]["hbw"]["reason"]
print("host: one-node skip record ok")
PY
fi
python3 -m json.tool < <(sed -n '/@@EDAN-NUMA-BEGIN/,/@@EDAN-NUMA-END/p' "$B/host.log" | sed '1d;$d') > /dev/null

t0=$SECONDS
bash tests/numa/run-vm.sh hbm "$B/hbm.log" "$B/numa-driver" --quick --silent
python3 tests/numa/check.py "$B/hbm.log" hbm 0 hbw=2,3
"$B/model_check" "$B/hbm.log" 0
HBW_NODES=1 bash tests/numa/run-vm.sh 2node "$B/2node.log" "$B/numa-driver" --quick --silent
python3 tests/numa/check.py "$B/2node.log" 2node 0 nohbw
python3 tests/numa/check.py "$B/2node.log" 2node 1 hbw=1,1 hbwenv=1
"$B/model_check" "$B/2node.log" 0
"$B/model_check" "$B/2node.log" 1
for run in 0 1; do
  sed -n '/@@EDAN-NUMA-BEGIN/,/@@EDAN-NUMA-END/p' "$B/2node.log" |
    awk -v want=$run '/@@EDAN-NUMA-BEGIN/{n++; next} /@@EDAN-NUMA-END/{next} n==want+1' |
    python3 -m json.tool > /dev/null
done
grep -c '@@EDAN-VM-EXIT 0' "$B/2node.log" | grep -qx 2 || { echo "2node: the driver did not exit 0 twice" >&2; exit 1; }
grep -q '@@EDAN-VM-EXIT 0' "$B/hbm.log" || { echo "hbm: the driver did not exit 0" >&2; exit 1; }
echo "emulated machines: $((SECONDS - t0)) s"

# NUMA_FULL_PROBE=1: also the whole `probe --numa --quick` (the CARM part
# takes about 8 minutes under TCG, so not by default) and its profile
if [ "${NUMA_FULL_PROBE:-0}" = 1 ]; then
  make --no-print-directory probe >/dev/null
  VM_TIMEOUT=1200 VM_SHOW=/tmp/profile.json bash tests/numa/run-vm.sh 2node "$B/probe-2node.log" \
    ./probe --numa --quick -o /tmp/profile.json
  python3 tests/numa/check.py "$B/probe-2node.log" 2node 0 nohbw
fi
