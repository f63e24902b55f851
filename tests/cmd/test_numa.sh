#!/usr/bin/env bash
# probe --numa on this machine and on two emulated NUMA machines (qemu TCG,
# tests/cmd/numa/run-vm.sh): the one-node skip record here; inside the machines
# the LARM matrix, page placement, HMAT attributes, memkind's HBW choice
# (found through HMAT, and forced with MEMKIND_HBW_NODES), the hybrid sweep
# and its fit (tests/cmd/numa/check.py), and the hybrid models read back and
# evaluated through edan.h (tests/cmd/numa/model_check.c). Also `make
# test-numa`. The machines run probe_numa_section through
# tests/cmd/numa/driver.c: the whole probe takes minutes under TCG
# (NUMA_FULL_PROBE=1 runs it too).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build/numa
mkdir -p "$B"
nice ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -D_GNU_SOURCE -O2 -I. -o "$B/numa-driver" \
  tests/cmd/numa/driver.c probes/numa*.c probes/measure.c probes/topo.c $(pkg-config --libs hwloc) -lmemkind -lnuma -lpthread -lm

# Three emulated machines boot side by side (each keeps about one core
# busy): hbm, 2node, and 2node again for the run with MEMKIND_HBW_NODES=1
# alone; model_check compiles meanwhile (-O0: it evaluates a few models).
# Every one of them is waited for before anything is checked.
t0=$SECONDS
pids=()
bash tests/cmd/numa/run-vm.sh hbm "$B/hbm.log" "$B/numa-driver" --quick --silent & pids+=($!)
bash tests/cmd/numa/run-vm.sh 2node "$B/2node.log" "$B/numa-driver" --quick --silent & pids+=($!)
HBW_NODES=1 HBW_ONLY=1 bash tests/cmd/numa/run-vm.sh 2node "$B/2node-hbw.log" "$B/numa-driver" --quick --silent & pids+=($!)
nice ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -O0 -I. -o "$B/model_check" tests/cmd/numa/model_check.c -lm & pids+=($!)
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ $rc = 0 ] || exit 1

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
note = t.split("@@EDAN-NUMA-NOTE\n", 1)[1]
assert "one NUMA node" in note and "remote, contended or congested roofs" in note and "hybrid" in note, note
print("host: one-node skip record ok, and the summary says what was skipped")
PY
fi
python3 -m json.tool < <(sed -n '/@@EDAN-NUMA-BEGIN/,/@@EDAN-NUMA-END/p' "$B/host.log" | sed '1d;$d') > /dev/null

python3 tests/cmd/numa/check.py "$B/hbm.log" hbm 0 hbw=2,3
"$B/model_check" "$B/hbm.log" 0
python3 tests/cmd/numa/check.py "$B/2node.log" 2node 0 nohbw
python3 tests/cmd/numa/check.py "$B/2node-hbw.log" 2node 0 hbw=1,1 hbwenv=1
"$B/model_check" "$B/2node.log" 0
"$B/model_check" "$B/2node-hbw.log" 0
for log in 2node 2node-hbw; do
  sed -n '/@@EDAN-NUMA-BEGIN/,/@@EDAN-NUMA-END/p' "$B/$log.log" | sed '1d;$d' | python3 -m json.tool > /dev/null
  grep -c '@@EDAN-NUMA-BEGIN' "$B/$log.log" | grep -qx 1 || { echo "$log: not one run of the driver" >&2; exit 1; }
  grep -c '@@EDAN-VM-EXIT 0' "$B/$log.log" | grep -qx 1 || { echo "$log: the driver did not exit 0" >&2; exit 1; }
done
grep -q '@@EDAN-VM-EXIT 0' "$B/hbm.log" || { echo "hbm: the driver did not exit 0" >&2; exit 1; }
echo "emulated machines: $((SECONDS - t0)) s"

# the LARM charts of these sections (grafted onto this machine's profile):
# one chart per cluster holding each valid load roof the section measured,
# and a hybrid roof where the fitted model can be evaluated (Eq. 5 here)
make --no-print-directory edan > /dev/null
for m in hbm 2node; do
  python3 - "$B/$m.log" "$B/larm-$m.json" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
doc = json.loads(t.split("@@EDAN-NUMA-BEGIN", 1)[1].split("@@EDAN-NUMA-END", 1)[0])
p = json.load(open("hwprofiles/vm.json"))
p["numa"] = doc
json.dump(p, open(sys.argv[2], "w"))
PY
  rm -f "$B/larm-$m"-cluster*.svg
  ./edan roofline "$B/larm-$m.json" --larm -o "$B/larm-$m.svg" 2> /dev/null
  ./edan roofline "$B/larm-$m.json" --fast-fraction 0.5 --store-fraction 0.25 -o "$B/larm-$m-hybrid.svg" \
    2> "$B/larm-$m-hybrid.err" || true
  python3 - "$B" "$m" <<'PY'
import json, math, os, sys, xml.etree.ElementTree as ET
B, m = sys.argv[1:3]
NS = "{http://www.w3.org/2000/svg}"
p = json.load(open(f"{B}/larm-{m}.json"))
def roofs(path):
    return [(e.get("data-kind"), float(e.get("data-gbps") or e.get("data-gflops")))
            for e in ET.parse(path).getroot().iter(NS + "line") if e.get("class") == "roof"]
clusters = sorted({r["cluster"] for r in p["numa"]["roofs"]})
assert clusters, "no roofs"
for c in clusters:
    got = sorted(g for k, g in roofs(f"{B}/larm-{m}-cluster{c}.svg") if k in ("local", "remote", "contended", "congested"))
    want = sorted(r["GBps"]["median"] for r in p["numa"]["roofs"]
                  if r["cluster"] == c and r["op"] == "load" and r.get("valid", True) and r["GBps"]["median"] > 0)
    assert len(got) == len(want) and all(abs(a - b) <= 2e-5 * b for a, b in zip(got, want)), (m, c, got, want)
h = [x for x in p["numa"]["hybrid"] if not x.get("skipped")][0]
names = ["lf", "ls", "sf", "ss"]
q = {"lf": 0.5 * 0.75, "ls": 0.5 * 0.75, "sf": 0.5 * 0.25, "ss": 0.5 * 0.25}
t = {k: q[k] / h["bandwidth_GBps"][k] for k in names}
d = max(names, key=lambda k: (t[k], -names.index(k)))
th = [h["theta"][d][x] for x in names if x != d]
tf = t[d] + sum((h["theta"][d][x] or 0) * t[x] for x in names if x != d) if None not in th else None
hy = [g for k, g in roofs(f"{B}/larm-{m}-hybrid.svg") if k == "hybrid"] if os.path.exists(f"{B}/larm-{m}-hybrid.svg") else []
if tf is not None and tf > 0:
    assert len(hy) == 1 and abs(hy[0] - 1 / tf) <= 2e-5 / tf, (m, hy, 1 / tf)
else:
    err = open(f"{B}/larm-{m}-hybrid.err").read()
    assert not hy and ("undetermined" in err or "not positive" in err), (m, err)
print(f"{m}: LARM charts of {len(clusters)} clusters hold the section's roofs; hybrid roof {'%.4g GB/s' % (1 / tf) if tf and tf > 0 else 'refused: ' + ('undetermined theta' if tf is None else 't_fit <= 0')}")
PY
done

# NUMA_FULL_PROBE=1: also the whole `probe --numa --quick` (the CARM part
# takes about 8 minutes under TCG, so not by default) and its profile
if [ "${NUMA_FULL_PROBE:-0}" = 1 ]; then
  make --no-print-directory probe >/dev/null
  VM_TIMEOUT=1200 VM_SHOW=/tmp/profile.json bash tests/cmd/numa/run-vm.sh 2node "$B/probe-2node.log" \
    ./probe --numa --quick -o /tmp/profile.json
  python3 tests/cmd/numa/check.py "$B/probe-2node.log" 2node 0 nohbw
fi
