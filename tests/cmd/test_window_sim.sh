#!/usr/bin/env bash
# The windowed schedule against a cycle-level simulator's measurements
# (README.md, "The windowed schedule", its validation): tests/validate/slopes.csv holds, for two
# simulated cores, each kernel's latency sensitivity measured by
# tests/validate/champsim.sh (ChampSim: the slope of the kernel's cycles
# against the RAM latency). edan analyses the same kernels with the cores'
# parameters (R, LQ, SQ, K, m and the caches; nothing fitted to these
# measurements), and lambda_window must rank the slopes at Spearman >= 0.94
# on each core. lambda(m) and lambda(4), the paper's, are printed beside it.
# SLOPES=FILE checks another file of the same columns.
. "$(dirname "$0")/../lib.sh"
slopes=${SLOPES:-tests/validate/slopes.csv}
make -s edan build/edan-plugin.so examples > /dev/null || { bad "make failed"; exit 1; }

# one edan trace a kernel, one configuration a core (its window and m), the
# caches of the simulated machine (L1D 32K 8-way 5 cycles, L2 256K 8-way 10
# more, LLC 1M 16-way 20 more), RAM at 200 cycles
python3 - "$slopes" > "$T/runs" <<'PY' || { bad "$slopes: unreadable"; exit 1; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cores = {}
for r in rows: cores.setdefault(r["core"], r)
ms = sorted({int(r["m"]) for r in cores.values()} | {4})
cfg = []
for i, (name, r) in enumerate(cores.items()):
    cfg += ([] if i == 0 else [f"--config={name}"]) + [
        "--cache", "32K:8:64:wb:5", "--cache", "256K:8:64:wb:15", "--cache", "1M:16:64:wb:35",
        "--window", r["rob"], "--lq", r["lq"], "--sq", r["sq"], "--width", r["width"]]
for k in dict.fromkeys((r["kernel"], r["size"]) for r in rows):
    print(k[0], k[1], "--alpha 200 --m " + ",".join(map(str, ms)) + " --window-all-m " + " ".join(cfg))
PY
while read -r name size opts; do
  # shellcheck disable=SC2086
  job "$name" ./edan trace --no-profile --json -o "$T/$name.json" $opts --func "kernel_$name" -- build/examples/$name "$size"
done < "$T/runs" > /dev/null     # the kernels' own output
job_wait
while read -r name _; do job_ok "$name" || bad "edan trace of $name failed: $(tail -2 "$T/$name.err")"; done < "$T/runs"

python3 - "$slopes" "$T" <<'PY' || fail=1
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def ranks(v):
    o = sorted(range(len(v)), key=lambda i: v[i]); r = [0.0] * len(v); i = 0
    while i < len(o):
        j = i
        while j + 1 < len(o) and v[o[j + 1]] == v[o[i]]: j += 1
        for k in range(i, j + 1): r[o[k]] = (i + j) / 2
        i = j + 1
    return r
def spearman(a, b):
    ra, rb = ranks(a), ranks(b); n = len(a); ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    return cov / (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
cores = list(dict.fromkeys(r["core"] for r in rows))
ok = True
for ci, core in enumerate(cores):
    s = [r for r in rows if r["core"] == core]
    m = s[0]["m"]
    lw, lm, l4 = [], [], []
    print(f"core {core}: R {s[0]['rob']}, LQ {s[0]['lq']}, SQ {s[0]['sq']}, K {s[0]['width']}, m {m}")
    print(f"  {'kernel':10} {'simulated':>10} {'lambda_window':>14} {'lambda(m)':>10} {'lambda(4)':>10} {'W':>8}")
    for r in s:
        c = json.load(open(f"{sys.argv[2]}/{r['kernel']}.json"))["configs"][ci]
        lw.append(c["m"][m]["lambda_window"]); lm.append(c["m"][m]["lambda"]); l4.append(c["m"]["4"]["lambda"])
        print(f"  {r['kernel']:10} {float(r['slope']):10.1f} {lw[-1]:14.1f} {lm[-1]:10.1f} {l4[-1]:10.1f} {c['W']:8}")
    sl = [float(r["slope"]) for r in s]
    rw, rm, r4 = spearman(sl, lw), spearman(sl, lm), spearman(sl, l4)
    print(f"  Spearman against the simulated slopes ({len(s)} kernels): lambda_window {rw:.3f}, lambda(m) {rm:.3f}, lambda(4) {r4:.3f}")
    q = lambda v: f"{min(a / b for a, b in zip(v, sl)):.2f} to {max(a / b for a, b in zip(v, sl)):.2f}"
    print(f"  against the simulated slope: lambda_window {q(lw)}, lambda(m) {q(lm)}")
    if rw >= 0.94: print(f"ok   core {core}: lambda_window ranks the simulated slopes at {rw:.3f} >= 0.94")
    else: print(f"FAIL core {core}: lambda_window ranks the simulated slopes at {rw:.3f} < 0.94"); ok = False
sys.exit(0 if ok else 1)
PY
exit $fail
