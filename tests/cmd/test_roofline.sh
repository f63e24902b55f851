#!/usr/bin/env bash
# `edan roofline`: the CARM chart's roofs are the profile's best medians; the
# LARM charts (one per cluster) carry every local/remote/contended/congested
# roof of their cluster; the hybrid roof of an application equals Eq. (5) of
# the TPDS 2019 paper evaluated here independently from the profile's model
# and the report's load/store bytes; the reference profiles draw; errors are
# clear. Every SVG is parsed as XML; roofs are read from their data-*
# attributes.
. "$(dirname "$0")/../lib.sh"
. tests/cmd/refusal.sh

./edan trace --quiet --profile hwprofiles/vm.json --func kernel_gemm --json -o "$T/gemm.json" -- build/examples/gemm 16 > /dev/null || bad "trace gemm"
./edan trace --quiet --profile hwprofiles/vm.json --func kernel_triad --json -o "$T/triad.json" -- build/examples/triad 2000 > /dev/null || bad "trace triad"

# A two-cluster profile: this machine's profile with a numa section whose
# roofs and hybrid models are made up (the structure probe --numa writes).
python3 - "$T" <<'PY' || bad "making the two-cluster profile"
import json, sys
d = sys.argv[1]
p = json.load(open("hwprofiles/vm.json"))
def roof(kind, c, node, g, op="load"):
    return {"roof": kind, "cluster": c, "node": node, "op": op, "threads": 1, "threads_total": 1 if kind in ("local", "remote") else 2,
            "bytes": 1 << 26, "GBps": {"median": g, "min": g * 0.98, "max": g * 1.01}, "valid": True}
roofs = []
for c in (0, 1):
    o = 1 - c
    roofs += [roof("local", c, c, 20.0 + c), roof("local", c, c, 15.0 + c, "store_nt"), roof("remote", c, o, 11.0 + c),
              roof("remote", c, o, 8.0 + c, "store_nt"), roof("contended", c, c, 9.5 + c), roof("contended", c, o, 6.0 + c),
              roof("congested", c, None, 12.5 + c)]
roofs.append(dict(roof("remote", 0, 1, 3.0), valid=False))      # pages moved: left out
theta = {"lf": {"ls": 0.30, "sf": 0.45, "ss": 0.62}, "ls": {"lf": 0.25, "sf": 0.51, "ss": 0.70},
         "sf": {"lf": 0.15, "ls": 0.35, "ss": 0.80}, "ss": {"lf": 0.20, "ls": 0.40, "sf": 0.66}}
hyb = [{"cluster": c, "fast_node": c, "slow_node": 1 - c, "bandwidth_GBps": {"lf": 40.0 - c, "ls": 20.0, "sf": 30.0, "ss": 12.0 + c},
        "theta": theta, "points_fitted": 45, "error_pct": 1.0} for c in (0, 1)]
p["numa"] = {"skipped": False, "nodes": 2, "clusters": [{"cluster": 0, "threads": 1}, {"cluster": 1, "threads": 1}],
             "roofs": roofs, "latency": [], "hybrid": hyb, "warnings": []}
json.dump(p, open(d + "/numa.json", "w"), indent=1)
PY

cat > "$T/check.py" <<'PY'
import json, math, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
def roofs(svg):
    root = ET.parse(svg).getroot()
    out = []
    for e in root.iter(NS + "line"):
        if e.get("class") == "roof":
            out.append((e.get("data-kind"), e.get("data-label"), float(e.get("data-gbps") or e.get("data-gflops"))))
    return root, out
def close(a, b, rel=2e-5):
    return abs(a - b) <= rel * max(abs(a), abs(b))
def best(p, level, threads):
    v = [e["GBps"]["median"] for e in p["bandwidth"] if e["level"] == level and e["threads"] == threads]
    return max(v) if v else None
def eq5(model, q):
    """the paper's Eq. (5): the dominating transfer's time plus theta x the others'"""
    names = ["lf", "ls", "sf", "ss"]
    t = {k: (q[k] / model["bandwidth_GBps"][k] if q[k] > 0 else 0.0) for k in names}
    d = max(names, key=lambda k: (t[k], -names.index(k)))
    tf = t[d] + sum(model["theta"][d][x] * t[x] for x in names if x != d and t[x] > 0)
    return sum(q.values()) / tf
PY

# 1. CARM of this machine's profile with two applications
if ./edan roofline hwprofiles/vm.json --app "$T/gemm.json" --app "$T/triad.json" -o "$T/carm.svg" 2> "$T/err"; then
  python3 - "$T" <<'PY' && ok "CARM: the roofs are the profile's best medians at 1 thread; the applications sit at their reports' intensity" || bad "CARM"
import json, sys
sys.path.insert(0, sys.argv[1]); from check import *
d = sys.argv[1]
p = json.load(open("hwprofiles/vm.json"))
root, rs = roofs(d + "/carm.svg")
mem = {label: g for kind, label, g in rs if kind != "compute"}
for lv in ("L1", "L2", "L3", "DRAM"):
    assert close(mem[lv], best(p, lv, 1)), (lv, mem[lv], best(p, lv, 1))
fma = max(e["GFLOPs"]["median"] for e in p["compute"] if e["threads"] == 1 and e["op"] == "fma")
assert any(k == "compute" and close(g, fma) for k, l, g in rs), rs
apps = {g.get("data-label"): float(g.get("data-ai")) for g in root.iter(NS + "g") if g.get("class") == "app"}
for name in ("gemm", "triad"):
    c = json.load(open(f"{d}/{name}.json"))["configs"][0]
    label = [k for k in apps if name in k]
    assert label and close(apps[label[0]], c["arithmetic_intensity"], 1e-5), (name, apps)
PY
else bad "CARM: $(cat "$T/err")"; fi

# 2. LARM: one chart per cluster, every valid roof of the cluster, the invalid one left out
if ./edan roofline "$T/numa.json" --larm -o "$T/larm.svg" 2> "$T/err"; then
  python3 - "$T" <<'PY' && ok "LARM: one chart per cluster with each local/remote/contended/congested load roof and the caches; moved pages left out" || bad "LARM"
import json, os, sys
sys.path.insert(0, sys.argv[1]); from check import *
d = sys.argv[1]
p = json.load(open(d + "/numa.json"))
assert not os.path.exists(d + "/larm.svg")
for c in (0, 1):
    root, rs = roofs(f"{d}/larm-cluster{c}.svg")
    want = sorted(e["GBps"]["median"] for e in p["numa"]["roofs"] if e["cluster"] == c and e["op"] == "load" and e["valid"])
    got = sorted(g for k, l, g in rs if k in ("local", "remote", "contended", "congested"))
    assert len(want) == 5 and all(close(a, b) for a, b in zip(want, got)) and len(got) == len(want), (c, want, got)
    assert {k for k, l, g in rs} >= {"local", "remote", "contended", "congested", "L1", "L2", "L3", "compute"}, rs
    assert not any(k == "DRAM" for k, l, g in rs)
    for lv in ("L1", "L2", "L3"):
        assert any(k == lv and close(g, best(p, lv, 1)) for k, l, g in rs), lv
    text = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
    assert "cluster %d" % c in text and "left out" in text if c == 0 else "cluster %d" % c in text, text
PY
else bad "LARM: $(cat "$T/err")"; fi
./edan roofline "$T/numa.json" --cluster 1 --op store_nt -o "$T/c1.svg" 2> "$T/err" && python3 - "$T" <<'PY' && ok "LARM --cluster 1 --op store_nt: the store roofs" || bad "LARM store roofs: $(cat "$T/err")"
import sys
sys.path.insert(0, sys.argv[1]); from check import *
root, rs = roofs(sys.argv[1] + "/c1.svg")
assert sorted(g for k, l, g in rs if k in ("local", "remote")) == [9.0, 16.0], rs
PY

# 3. the hybrid roof of each application, Eq. (5) recomputed here
if ./edan roofline "$T/numa.json" --cluster 1 --fast-fraction 0.25 --app "$T/gemm.json" --app "$T/triad.json" \
     -o "$T/hyb.svg" 2> "$T/err" \
   && ./edan roofline "$T/numa.json" --fast-fraction 0.6 --store-fraction 0.3 -o "$T/hyb2.svg" 2>> "$T/err"; then
  python3 - "$T" <<'PY' && ok "hybrid roofs: Eq. (5) of the cluster's model at the applications' load/store bytes, and of a store fraction on the CARM chart (first model)" || bad "hybrid roofs"
import json, sys
sys.path.insert(0, sys.argv[1]); from check import *
d = sys.argv[1]
p = json.load(open(d + "/numa.json"))
m1 = p["numa"]["hybrid"][1]
root, rs = roofs(d + "/hyb.svg")
hyb = {l: g for k, l, g in rs if k == "hybrid"}
assert len(hyb) == 2, hyb
for name in ("gemm", "triad"):
    c = json.load(open(f"{d}/{name}.json"))["configs"][0]
    L, S, F = c["load_bytes"], c["store_bytes"], 0.25
    want = eq5(m1, {"lf": F * L, "ls": (1 - F) * L, "sf": F * S, "ss": (1 - F) * S})
    got = [g for l, g in hyb.items() if name in l]
    assert got and close(got[0], want), (name, got, want)
root, rs = roofs(d + "/hyb2.svg")
want = eq5(p["numa"]["hybrid"][0], {"lf": 0.6 * 0.7, "ls": 0.4 * 0.7, "sf": 0.6 * 0.3, "ss": 0.4 * 0.3})
got = [g for k, l, g in rs if k == "hybrid"]
assert len(got) == 1 and close(got[0], want), (got, want)
PY
else bad "hybrid: $(cat "$T/err")"; fi

# 4. reference profiles transcribed from the paper
if ./edan roofline hwprofiles/reference-tpds19-joe0.json --larm --peak 189.4 -o "$T/joe.svg" 2> "$T/err" \
   && ./edan roofline hwprofiles/reference-tpds19-knl.json --larm -o "$T/knl.svg" 2>> "$T/err" \
   && ./edan roofline hwprofiles/reference-tpds19-knl.json --cluster 0 --fast-fraction 0.5 --store-fraction 0 -o "$T/knlh.svg" 2>> "$T/err"; then
  python3 - "$T" <<'PY' && ok "reference profiles: Joe0's 9 LARM roofs of Table 2 and its caches; KNL: a chart per cluster and mode, its load-only hybrid roof" || bad "reference profiles"
import json, os, sys
sys.path.insert(0, sys.argv[1]); from check import *
d = sys.argv[1]
j = json.load(open("hwprofiles/reference-tpds19-joe0.json"))
root, rs = roofs(d + "/joe-cluster0.svg")
want = sorted(e["GBps"]["median"] for e in j["numa"]["roofs"])
got = sorted(g for k, l, g in rs if k in ("local", "remote", "contended", "congested"))
assert len(want) == 9 and got == want, (want, got)
assert sum(1 for k, l, g in rs if k in ("L1", "L2", "L3")) == 3
names = sorted(f for f in os.listdir(d) if f.startswith("knl-"))
assert names == ["knl-cluster0-cache.svg", "knl-cluster0-flat.svg", "knl-cluster1-flat.svg", "knl-cluster2-flat.svg",
                 "knl-cluster3-flat.svg"], names
k = json.load(open("hwprofiles/reference-tpds19-knl.json"))
m = dict(k["numa"]["hybrid"][0]); m["bandwidth_GBps"] = {x: (v or 1.0) for x, v in m["bandwidth_GBps"].items()}
root, rs = roofs(d + "/knlh.svg")
got = [g for kk, l, g in rs if kk == "hybrid"]
assert len(got) == 1 and close(got[0], eq5(m, {"lf": 0.5, "ls": 0.5, "sf": 0, "ss": 0})), got
PY
else bad "reference profiles: $(cat "$T/err")"; fi

# 5. labels of close applications do not overlap
./edan roofline hwprofiles/vm.json --point alpha:1:10 --point beta:1.02:10.3 --point gamma:1.04:10.1 \
    --point delta:0.98:9.9 -o "$T/pts.svg" 2> "$T/err" && python3 - "$T" <<'PY' && ok "labels of four close points overlap neither each other nor the dots" || bad "point labels: $(cat "$T/err")"
import sys
sys.path.insert(0, sys.argv[1]); from check import *
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/pts.svg").getroot()
boxes, dots = [], []
for g in root.iter(NS + "g"):
    if g.get("class") != "app": continue
    t, d = g.find(NS + "text"), g.find(NS + "circle")
    x, y, w = float(t.get("x")), float(t.get("y")), 7.2 * len(t.text)
    x0 = x if t.get("text-anchor") == "start" else x - w
    boxes.append((x0, y - 13, x0 + w, y + 1))
    dx, dy = float(d.get("cx")), float(d.get("cy"))
    dots.append((dx - 5, dy - 5, dx + 5, dy + 5))
def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
assert len(boxes) == 4
for i in range(4):
    for j in range(4):
        assert i == j or not overlap(boxes[i], dots[j]), ("label over a dot", i, j)
        assert j >= i or not overlap(boxes[i], boxes[j]), ("labels overlap", i, j)
PY

# 5a. an application with its measured runtime: the model's point (flops over
# T_window at the profile's m, at the report's clock) and the measured one
# (flops / seconds) side by side, the first said (model)
./edan roofline hwprofiles/vm.json --app "$T/gemm.json:0.002" -o "$T/both.svg" 2> "$T/err" \
  && python3 - "$T" <<'PY' && ok "--app FILE:SECONDS: the model's point (T_window) beside the measured one" || bad "model beside measured: $(cat "$T/err")"
import sys, json
sys.path.insert(0, sys.argv[1]); from check import *
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/both.svg").getroot()
pts = [(g.find(NS + "text").text, float(g.get("data-gflops-lo")), float(g.get("data-gflops-hi")))
       for g in root.iter(NS + "g") if g.get("class") == "app"]
c = json.load(open(sys.argv[1] + "/gemm.json"))["configs"][0]
m = str(json.load(open("hwprofiles/vm.json"))["mlp"]["m"])
b = c["m"][m] if m in c["m"] else c["m"]["4"]
model = c["flops"] * c["freq_ghz"] / b["T_window"]
measured = c["flops"] / 0.002 / 1e9
assert len(pts) == 2, pts
assert pts[0][0].endswith("(model)") and close(pts[0][1], model) and close(pts[0][2], model), (pts, model)
assert not pts[1][0].endswith("(model)") and close(pts[1][1], measured) and close(pts[1][2], measured), (pts, measured)
PY

# 5b. what a reader of the chart must be told: an application's point from
# EDAN's bounds says (model), a point given as a measurement does not; a
# profile without compute roofs keeps its memory roofs to 4 flop/byte and
# says why; LARM roofs that lie on each other carry their own markers.
./edan roofline hwprofiles/vm.json --app "$T/gemm.json" --point measured:1:10 -o "$T/model.svg" 2> "$T/err" \
  && ./edan roofline hwprofiles/reference-tpds19-knl.json --cluster 0 --mode flat -o "$T/knl.svg" 2>> "$T/err" \
  && python3 - "$T" <<'PY' && ok "points say (model) or not; KNL's roofs stop at 4 flop/byte; each LARM roof has its markers" || bad "chart honesty: $(cat "$T/err")"
import sys
sys.path.insert(0, sys.argv[1]); from check import *
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/model.svg").getroot()
apps = {g.get("data-label"): g.find(NS + "text").text for g in root.iter(NS + "g") if g.get("class") == "app"}
assert apps == {"gemm": "gemm (model)", "measured": "measured"}, apps
texts = [t.text or "" for t in root.iter(NS + "text")]
assert any(t.startswith("(model): predicted by EDAN") for t in texts), texts
root = ET.parse(sys.argv[1] + "/knl.svg").getroot()
texts = [t.text or "" for t in root.iter(NS + "text")]
assert any("no compute roofs" in t for t in texts), texts
roofs = [e for e in root.iter(NS + "line") if e.get("class") == "roof"]
assert roofs and all(abs(float(e.get("x2")) - max(float(r.get("x2")) for r in roofs)) < 0.1 for e in roofs)
xticks = [g for g in root.iter(NS + "g") if g.get("class") == "xticks"][0]
xt = [t.text for t in xticks.iter(NS + "text") if t.text in ("4", "8", "64")]
assert xt == ["4"], xt                   # the axis ends at 4 flop/byte
marks = {g.get("data-label"): len(list(g)) for g in root.iter(NS + "g") if g.get("class") == "roof-markers"}
assert len(marks) == len(roofs) and all(n >= 2 for n in marks.values()), marks
PY

# 5b'. a point predicted with another profile than the chart's, or with
# none, is drawn hollow, marked in its label, said in a note and on
# standard error; one predicted with the chart's profile (by the CRC-32 the
# report keeps, under whatever name; or, in a report without it, by its
# path) is not
./edan trace --quiet --profile "$T/numa.json" --func kernel_gemm --json -o "$T/gemm-numa.json" -- build/examples/gemm 16 > /dev/null \
  && ./edan trace --quiet --no-profile --func kernel_gemm --json -o "$T/gemm-none.json" -- build/examples/gemm 16 > /dev/null \
  || bad "trace gemm with the two-cluster profile and with none"
cp hwprofiles/vm.json "$T/vm-copy.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["profile_crc32"]; d["profile"] = sys.argv[3]; json.dump(d, open(sys.argv[2], "w"))' \
  "$T/gemm.json" "$T/gemm-old.json" "$T/vm-copy.json"
if ./edan roofline "$T/vm-copy.json" --app "$T/gemm.json" --app "$T/gemm-numa.json" --app "$T/gemm-none.json" \
     --app "$T/gemm-old.json" -o "$T/foreign.svg" 2> "$T/err"; then
  python3 - "$T" <<'PY' && ok "points predicted with another profile or none: hollow, marked, said in a note and on stderr; the same profile under another name is not" || bad "foreign points: $(cat "$T/err")"
import json, sys
sys.path.insert(0, sys.argv[1]); from check import *
import xml.etree.ElementTree as ET
d = sys.argv[1]
root = ET.parse(d + "/foreign.svg").getroot()
apps = [(g.get("data-profile"), g.find(NS + "text").text, g.find(NS + "circle").get("fill")) for g in root.iter(NS + "g")
        if g.get("class") == "app"]
assert apps == [(None, "gemm (model)", "#7b2d8e"), ("other", "gemm (model, other profile)", "white"),
                ("none", "gemm (model, no profile)", "white"), (None, "gemm (model)", "#7b2d8e")], apps
notes = " ".join(t.text or "" for t in root.iter(NS + "text"))
assert "hollow: predicted with another profile than this chart's" in notes and d + "/numa.json" in notes, notes
err = open(d + "/err").read()
assert err.count("drawn hollow") == 2 and "gemm-numa.json was analysed with the profile " + d + "/numa.json, not " in err, err
assert "gemm-none.json was analysed without a profile" in err, err
PY
else bad "foreign points: $(cat "$T/err")"; fi

# 5c. compute roofs of nearly the same GFLOP/s (qemu-2node: sse and scalar
# FMA at 0.5) keep their labels apart
./edan roofline hwprofiles/qemu-2node.json --cluster 0 -o "$T/close.svg" 2> "$T/err" \
  && python3 - "$T" <<'PY' && ok "labels of close compute roofs do not overlap" || bad "compute labels: $(cat "$T/err")"
import sys
sys.path.insert(0, sys.argv[1]); from check import *
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1] + "/close.svg").getroot()
ys = sorted(float(t.get("y")) for t in root.iter(NS + "text") if (t.text or "").endswith(" GFLOP/s"))
assert len(ys) >= 2, ys
assert all(b - a >= 12 for a, b in zip(ys, ys[1:])), ys     # 12 px text
PY

# 6. errors: a clear message and a non-zero exit
expect_err() {  # what, pattern, command...
  local what=$1 pat=$2; shift 2
  "$@" > /dev/null 2> "$T/err"; local rc=$?
  if [ $rc -ne 0 ] && grep -q -- "$pat" "$T/err"; then ok "error: $what"; else bad "error: $what: rc=$rc $(cat "$T/err")"; fi
}
expect_err "no hybrid model on a one-node profile" "no hybrid model" ./edan roofline hwprofiles/vm.json --fast-fraction 0.5 --store-fraction 0 -o "$T/x.svg"
expect_err "KNL's model has no store bandwidths" "no bandwidth for stores to the fast memory" \
  ./edan roofline hwprofiles/reference-tpds19-knl.json --cluster 0 --fast-fraction 0.5 --app "$T/gemm.json" -o "$T/x.svg"
expect_err "an unknown cluster lists the clusters" "the profile has clusters 0, 1" ./edan roofline "$T/numa.json" --cluster 7 -o "$T/x.svg"
expect_err "LARM of a profile without numa roofs" "no LARM roofs" ./edan roofline hwprofiles/vm.json --larm -o "$T/x.svg"
expect_err "CARM of a profile with only LARM roofs" "use --larm or --cluster" ./edan roofline hwprofiles/reference-tpds19-knl.json -o "$T/x.svg"
expect_err "threads the profile does not have" "has them for 1, 2 thread" ./edan roofline hwprofiles/vm.json --threads 3 -o "$T/x.svg"
expect_err "a fast fraction out of range" "from 0 to 1" ./edan roofline hwprofiles/vm.json --fast-fraction 1.5 --store-fraction 0 -o "$T/x.svg"
head -c 300 hwprofiles/vm.json > "$T/trunc.json"
expect_err "a truncated profile: FILE:LINE" "trunc.json:[0-9]*:" ./edan roofline "$T/trunc.json" -o "$T/x.svg"
[ ! -e "$T/x.svg" ] && ! ls "$T"/*.tmp > /dev/null 2>&1 && ok "no chart and no temporary file after the errors" || bad "files left behind"

if command -v rsvg-convert > /dev/null; then
  for f in "$T"/carm.svg "$T"/larm-cluster0.svg "$T"/hyb.svg "$T"/joe-cluster0.svg; do
    rsvg-convert "$f" -o "${f%.svg}.png" || bad "rsvg-convert $f"
  done
  ok "the charts render to PNG"
else
  skip "roofline PNG" "rsvg-convert is not installed (Debian librsvg2-bin; tools/deps.sh installs it)"
fi
# 7. numbers: what cannot be drawn is an error naming the value, with exit
# status 2 and no chart (every --larm chart is checked before one is
# written); what can be drawn has coordinates that are numbers
# roofline_refused WHAT PATTERN ARGS...: `edan roofline ARGS... -o $T/out.svg` is refused, no chart
# written (tests/cmd/refusal.sh)
roofline_refused() { local what=$1 pat=$2; shift 2; refused "$what" "$pat" ./edan roofline "$@" -o "$T/out.svg"; }
# variant NAME SOURCE EXPR: $T/NAME.json, profile SOURCE with the Python statement EXPR applied to it (`p`)
variant() {
  python3 - "$T/$1.json" "$2" "$3" <<'PY'
import json, sys
out, src, expr = sys.argv[1:]
p = json.load(open(src))
exec(expr)
json.dump(p, open(out, "w"), indent=1)
PY
}
if ./edan roofline hwprofiles/vm.json --peak 0.5 -o "$T/peak.svg" 2> "$T/err" && svg_numbers "$T/peak.svg" 2>> "$T/err"; then
  ok "--peak under the memory roofs: an axis of some height, every coordinate a number"
else bad "--peak 0.5: $(cat "$T/err")"; fi
roofline_refused "--point of infinite intensity" "intensity inf flop/byte is out of range" hwprofiles/vm.json --point a:inf:5
roofline_refused "--point of 1e308 GFLOP/s" "performance 1e+308 GFLOP/s is out of range" hwprofiles/vm.json --point a:1:1e308
roofline_refused "--point of subnormal intensity" "intensity 4.94066e-324 flop/byte is out of range" hwprofiles/vm.json --point a:4.9e-324:5
roofline_refused "--app with a runtime of 1e-300 s" "--app $T/gemm.json:1e-300: performance .* GFLOP/s is out of range" \
  hwprofiles/vm.json --app "$T/gemm.json:1e-300"
roofline_refused "--cluster 0.5" "--cluster wants a whole number from 0 to 1048576, not '0.5'" "$T/numa.json" --cluster 0.5
sed '0,/"median": 20.0/s//"median": 1e999/' "$T/numa.json" > "$T/inf.json"
roofline_refused "a numa roof beyond a double" "inf.json:[0-9]*: number 1e999 is out of range" "$T/inf.json" --larm
variant big "$T/numa.json" 'p["numa"]["roofs"][0]["GBps"]["median"] = 1e300'
roofline_refused "a numa roof of 1e300 GB/s" 'big.json:[0-9]*: "median" in "numa".roofs\[0\].GBps is 1e+300' "$T/big.json" --larm
variant cl "$T/numa.json" 'p["numa"]["roofs"][0]["cluster"] = 1e308'
roofline_refused "a cluster of 1e308" 'cl.json:[0-9]*: "cluster" in "numa".roofs\[0\] is 1e+308' "$T/cl.json" --larm
variant refcl hwprofiles/reference-tpds19-knl.json 'p["numa"]["roofs"][0]["cluster"] = 1e308'
roofline_refused "a cluster of 1e308 in a reference profile" '"cluster" in "numa".roofs\[0\] is 1e+308' "$T/refcl.json" --larm
variant ver "$T/numa.json" 'p["version"] = 1e308'
roofline_refused "a version of 1e308" "ver.json:[0-9]*: unsupported profile version 1e+308" "$T/ver.json"
variant refver hwprofiles/reference-tpds19-knl.json 'p["version"] = 1e308'
roofline_refused "a version of 1e308 in a reference profile" "refver.json:[0-9]*: unsupported profile version 1e+308" "$T/refver.json" --larm
variant sub "$T/numa.json" '[e["GBps"].update(median=4.9e-324, min=0) for e in p["bandwidth"] if e["level"] == "L1"]'
roofline_refused "a subnormal L1 roof" "sub.json:[0-9]*: roof 'L1' of 4.94066e-324 GB/s is out of range" "$T/sub.json"
variant sub1 "$T/numa.json" '[e["GBps"].update(median=4.9e-324, min=0) for e in p["numa"]["roofs"] if e["cluster"] == 1]'
roofline_refused "a subnormal roof of cluster 1: not even cluster 0's chart" "roof 'local node 1' of 4.94066e-324 GB/s" "$T/sub1.json" --larm
sed '0,/"GBps": {/s//"GBps": {"median": 1e300, /' hwprofiles/vm.json > "$T/dup.json"
roofline_refused "a duplicate key in a profile" 'dup.json:[0-9]*: duplicate key "median"' "$T/dup.json"
variant mode hwprofiles/reference-tpds19-knl.json 'p["numa"]["roofs"][0]["mode"] = "../../x"'
roofline_refused "a mode that names another directory" 'mode "../../x" of cluster 0 cannot be part of a file name' "$T/mode.json" --larm

# --larm names its charts beside a plain file path only: not after "-"
# (which made "--cluster0.svg"), a FIFO or a directory
mkdir "$T/cwd" && mkfifo "$T/cwd/fifo"
for o in - fifo "$T/cwd"; do
  (cd "$T/cwd" && "$OLDPWD/edan" roofline "$OLDPWD/hwprofiles/reference-tpds19-knl.json" --larm -o "$o" > /dev/null 2> ../err)
  rc=$?
  if [ $rc -eq 2 ] && grep -q -- "--larm .* CHART.svg" "$T/err" && [ "$(ls "$T/cwd")" = fifo ]; then
    ok "--larm -o $(basename "$o"): refused, no chart made"
  else
    bad "--larm -o $o: rc=$rc $(cat "$T/err"); $(ls "$T/cwd")"
  fi
done

# reference profiles are checked too: a version this edan does not read,
# a negative roof (once silently dropped)
sed 's/"version": 1/"version": 99/' hwprofiles/reference-tpds19-knl.json > "$T/v99.json"
./edan roofline "$T/v99.json" --cluster 0 -o "$T/v.svg" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unsupported profile version" "$T/err" && [ ! -e "$T/v.svg" ] \
  && echo "ok   a reference profile of version 99 is refused" || { echo "FAIL version 99: exit $rc $(cat "$T/err")"; fail=1; }
sed '0,/"median": 38.1}/s//"median": -38.1}/' hwprofiles/reference-tpds19-knl.json > "$T/neg.json"
./edan roofline "$T/neg.json" --cluster 0 -o "$T/n.svg" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q '"GBps" is -38.1' "$T/err" \
  && echo "ok   a negative roof in a reference profile is refused, with its line" || { echo "FAIL negative roof: exit $rc $(cat "$T/err")"; fail=1; }
exit $fail
