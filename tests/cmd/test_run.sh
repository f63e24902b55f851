#!/usr/bin/env bash
# tests/cmd/test_run.sh - `make run` in a reduced mode (four small kernels
# built for this machine, no probing; then three RISC-V ones with a profile,
# whose failed check and unstable figures the report, its progress lines and
# the roofline show)
# and `edan plot` directly: the report README has the rankings of
# `edan rank`, every SVG parses as XML, the charts hold the series of the
# reports they were drawn from, scaled the way the data says, and bad input
# stops `edan plot` with `FILE: what is wrong`, exit status 2 and no output.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

EDAN=./edan
[ -x ./edan ] || fail "./edan is not built"

# ---- the reduced run ---------------------------------------------------------
R=$T/report
EDAN=$EDAN EDAN_RUN_PROFILE=none EDAN_RUN_KERNELS="chase:2048:100 gemm:16:10 lu:24:10 spmv:16:10" \
  EDAN_RUN_DM_PLOTS="lu spmv" python3 tools/run.py "$R" 2> "$T/run.err" || { cat "$T/run.err"; fail "tools/run.py failed"; }
grep -q 'trace lu 24' "$T/run.err" || fail "no progress line for the lu trace on stderr"
for f in README.md commands.sh json/chase.json json/gemm.json json/lu.json json/spmv.json sweep/lu.csv \
         ranking-0.json ranking-1.json svg/dm-lu.svg svg/dm-spmv.svg svg/whatif.svg; do
  [ -s "$R/$f" ] || fail "the report has no $f"
done
ls "$R" "$R"/svg | grep -q '\.tmp' && fail "temporary files left in the report"

python3 - "$R" <<'EOF' || fail "report checks"
import json, os, re, sys, csv
import xml.etree.ElementTree as ET
R = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"
errors = []
def check(cond, msg):
    if not cond: errors.append(msg)

readme = open(os.path.join(R, "README.md")).read()

# Rankings: the tables are those of `edan rank --json`, in its order.
for c in (0, 1):
    rk = json.load(open(os.path.join(R, f"ranking-{c}.json")))
    names = [a["name"] for a in rk["by_lambda"]]
    check(sorted(names) == ["chase", "gemm", "lu", "spmv"], f"ranking-{c}: kernels {names}")
    lam = [a["lambda"] for a in rk["by_lambda"]]
    check(lam == sorted(lam, reverse=True), f"ranking-{c} not by decreasing lambda")
    sec = readme.split(f"### Configuration {c}:", 1)
    check(len(sec) == 2, f"README has no ranking section for configuration {c}")
    if len(sec) == 2:
        rows = re.findall(r"^\| (\d+) \| (\w+) \|", sec[1].split("###", 1)[0], re.M)
        check([n for _, n in rows] == names, f"README ranking {c} rows {rows} != edan rank order {names}")
        check([int(r) for r, _ in rows] == list(range(1, len(names) + 1)), f"README ranks {rows}")
# The windowed schedule: the verdicts explain it, the rankings carry each
# report's lambda_window and its own rank by it.
check("The windowed schedule plays each kernel's eDAG through one core's window" in readme,
      "the verdicts do not explain the window")
for c in (0, 1):
    rk = json.load(open(os.path.join(R, f"ranking-{c}.json")))
    byw = rk.get("by_lambda_window", [])
    check(len(byw) == 4, f"ranking-{c}: no ranking by lambda_window")
    for a in byw:
        rep = json.load(open(os.path.join(R, "json", a["name"] + ".json")))["configs"][c]
        m = str(rk["m"])
        check(a["lambda_window"] == rep["m"][m]["lambda_window"], f"ranking-{c}: {a['name']}'s lambda_window")
        row = re.search(r"^\| \d+ \| " + a["name"] + r" \|(?: [^|]* \|){3} ([\d,]+) \|", readme.split(f"### Configuration {c}:", 1)[1], re.M)
        check(row and int(row.group(1).replace(",", "")) == a["lambda_window"],
              f"README ranking {c}: {a['name']}'s lambda_window column")
# The pointer chase, every RAM access waiting for the one before, is the most
# latency-bound kernel in relative terms (Lambda), with caches and without.
for c in (0, 1):
    rk = json.load(open(os.path.join(R, f"ranking-{c}.json")))
    pos = {a["name"]: a["rank"] for a in rk["by_Lambda"]}
    check(pos["chase"] == 1, f"configuration {c}: chase not first by Lambda: {pos}")
# The prose under each ranking is the table's: the first by lambda and by
# Lambda as ranked, every kernel under its verdict's class in the order of
# lambda; no kernel is called the most latency-bound ahead of the table.
def by_class(text):
    return {cl: ([] if ks == "none" else ks.split(", ")) for cl, ks in (p.split(": ", 1) for p in text.split("; "))}
for c in (0, 1):
    rk = json.load(open(os.path.join(R, f"ranking-{c}.json")))
    sec = readme.split(f"### Configuration {c}:", 1)[-1].split("###", 1)[0]
    for key, sym in (("by_lambda", "First by λ"), ("by_Lambda", "first by Λ")):
        check(f"{sym}: {rk[key][0]['name']} (" in sec, f"configuration {c}: the prose does not say {sym} is {rk[key][0]['name']}")
    got = re.search(r"kernels in the order of λ: (.*)\.\n", sec)
    check(got is not None, f"configuration {c}: no classes under the ranking")
    if got:
        want = {}
        for a in rk["by_lambda"]:
            cl = json.load(open(os.path.join(R, f"json/{a['name']}.json")))["configs"][c]["verdict"]["class"]
            want.setdefault(cl, []).append(a["name"])
        got = {cl: ks for cl, ks in by_class(got.group(1)).items() if ks}
        check(got == want, f"configuration {c}: classes {got}, the reports say {want}")
    # the chase is latency-bound in both; without a cache no other kernel is
    # (with the caches the small kernels' few cold misses lie far apart, each
    # alone in the window, and may be)
    for k in ("chase", "gemm", "lu", "spmv"):
        cl = json.load(open(os.path.join(R, f"json/{k}.json")))["configs"][c]["verdict"]["class"]
        check(cl == "latency-bound" if k == "chase" else c == 0 or cl != "latency-bound",
              f"configuration {c}: {k} is {cl}")
check("most latency-bound" not in readme, "the README calls a kernel the most latency-bound")
# each kernel's verdict is in the README's verdict table, as its report says it
for k in ("chase", "gemm", "lu", "spmv"):
    v = json.load(open(os.path.join(R, f"json/{k}.json")))["configs"][0]["verdict"]["text"]
    check(f"| {k} | {v} |" in readme, f"README has no verdict row for {k}")
check("## What-if: RAM 100 ns farther" in readme, "README has no what-if section")
# what-if rows agree with the reports: T_upper far - T_upper = delta
for k in ("chase", "gemm", "lu", "spmv"):
    r = json.load(open(os.path.join(R, f"json/{k}.json")))
    c = r["configs"][0]
    d = c["what_if"]["m"]["4"]["delta_T_upper"]
    check(f"| {k} | {c['name']} |" in readme, f"README what-if has no row for {k}")
    check(f"{d:,.0f}" in readme, f"README what-if lacks {k}'s delta {d:,.0f}")
for svg in ("svg/dm-lu.svg", "svg/dm-spmv.svg", "svg/whatif.svg"):
    check(f"]({svg})" in readme, f"README does not embed {svg}")
cmds = open(os.path.join(R, "commands.sh")).read()
for k in ("chase", "gemm", "lu", "spmv"):
    check(re.search(rf"trace .*json/{k}\.json -- build/examples-host/{k} ", cmds), f"commands.sh lacks the trace of {k}")
check(re.search(r"trace .*json/fig9-lu\.json -- build/examples/lu 64", cmds), "commands.sh lacks the RISC-V lu of Fig. 9")
check("built for this machine" in readme, "README does not say the kernels were built for this machine")

def series(path):
    root = ET.parse(path).getroot()
    check(root.tag == NS + "svg", f"{path}: root is {root.tag}")
    out = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "series": continue
        pl = g.find(NS + "polyline")
        pts = [tuple(map(float, p.split(","))) for p in pl.get("points").split()] if pl is not None else []
        out.append((g.get("data-label"), pts))
    frame = [e for e in root.iter(NS + "rect") if e.get("fill") == "none"][0]
    box = tuple(float(frame.get(a)) for a in ("x", "y", "width", "height"))
    return out, box

def yaxis(path):
    """The y axis from its tick marks and labels: value(pixel y)."""
    root = ET.parse(path).getroot()
    g = [g for g in root.iter(NS + "g") if g.get("class") == "yticks"][0]
    lines = [float(l.get("y1")) for l in g.iter(NS + "line")]
    texts = [t.text for t in g.iter(NS + "text")]
    pre = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}
    vals = []
    for t in texts:
        m = re.fullmatch(r"([0-9.]+)(?: ?([kMG]?)B?)?", t.strip().replace("\u00d7", ""))
        assert m, f"{path}: tick label {t!r}"
        vals.append(float(m.group(1)) * pre[m.group(2) or ""])
    check(len(vals) >= 3 and vals == sorted(vals), f"{path}: y ticks {texts}")
    (p0, v0), (p1, v1) = (lines[0], vals[0]), (lines[-1], vals[-1])
    # the ticks are evenly spaced in value and in pixels
    for p, v in zip(lines, vals):
        check(abs((p - p0) / (p1 - p0) - (v - v0) / (v1 - v0)) < 1e-3, f"{path}: tick {v} at {p} is off the scale")
    return lambda y: v0 + (y - p0) / (p1 - p0) * (v1 - v0), abs(v1 - v0)

# every SVG parses
for f in os.listdir(os.path.join(R, "svg")):
    try: ET.parse(os.path.join(R, "svg", f))
    except ET.ParseError as e: errors.append(f"{f}: {e}")

# data movement: one series per configuration with a timeline, named after it;
# the series with the largest bin reaches highest; points inside the frame.
for k in ("lu", "spmv"):
    rep = json.load(open(os.path.join(R, f"json/{k}.json")))
    cf = [c for c in rep["configs"] if "timeline" in c]
    s, (x0, y0, w, h) = series(os.path.join(R, f"svg/dm-{k}.svg"))
    check([l for l, _ in s] == [c["name"] for c in cf], f"dm-{k}: series {[l for l, _ in s]}")
    check(all(len(p) >= 2 for _, p in s), f"dm-{k}: a series without points")
    if len(s) == len(cf) and all(s_[1] for s_ in s):
        value, span = yaxis(os.path.join(R, f"svg/dm-{k}.svg"))
        for (l, p), c in zip(s, cf):
            peak, low = value(min(y for _, y in p)), value(max(y for _, y in p))
            check(abs(peak - max(c["timeline"]["bins"])) <= span * 2e-4,
                  f"dm-{k}: {l} peaks at {peak:.0f} bytes on the axis, its timeline at {max(c['timeline']['bins'])}")
            check(abs(low - min(c["timeline"]["bins"])) <= span * 2e-4, f"dm-{k}: {l} lowest point {low:.0f}")
        top = [min(y for _, y in p) for _, p in s]
        big = max(range(len(cf)), key=lambda i: max(cf[i]["timeline"]["bins"]))
        check(top[big] == min(top), f"dm-{k}: the largest series ({cf[big]['name']}) is not the highest")
        for l, p in s:
            # (the frame is written to 0.1 px, the points to 0.01 px)
            check(all(x0 - 0.06 <= x <= x0 + w + 0.06 and y0 - 0.06 <= y <= y0 + h + 0.06 for x, y in p),
                  f"dm-{k}: {l} leaves the frame")
            # x grows with time
            check(all(p[i][0] <= p[i + 1][0] for i in range(len(p) - 1)), f"dm-{k}: {l} goes back in time")
        # the longer timeline ends farther right
        ends = [max(x for x, _ in p) for _, p in s]
        lens = [(len(c["timeline"]["bins"]) - 1) * c["timeline"]["tau"] for c in cf]
        i_long = max(range(len(cf)), key=lambda i: lens[i])
        check(ends[i_long] == max(ends), f"dm-{k}: the longest timeline does not end last")
        # the x axis ends where the data does, not at the next round tick
        check(abs(max(ends) - (x0 + w)) < 0.5, f"dm-{k}: the data ends at x = {max(ends)}, the axis at {x0 + w}")

# what-if: one line per kernel; all start at slowdown 1; the steepest at 250 ns
# is the kernel with the largest slowdown in its sweep (configuration 0, m = 4).
s, box = series(os.path.join(R, "svg/whatif.svg"))
check(sorted(l for l, _ in s) == ["chase", "gemm", "lu", "spmv"], f"whatif: series {[l for l, _ in s]}")
if s and all(p for _, p in s):
    starts = {round(p[0][1], 1) for _, p in s}
    check(len(starts) == 1, f"whatif: the lines do not all start at the same slowdown: {starts}")
    last = {}
    for k in ("chase", "gemm", "lu", "spmv"):
        rows = list(csv.DictReader(open(os.path.join(R, f"sweep/{k}.csv"))))
        first_cfg = rows[0]["config"]
        last[k] = max(float(r["slowdown_upper"]) for r in rows if r["config"] == first_cfg and r["m"] == "4")
    want = max(last, key=last.get)
    got = min(s, key=lambda sp: sp[1][-1][1])[0]
    check(got == want, f"whatif: highest line at 250 ns is {got}, the sweeps say {want}")
    value, span = yaxis(os.path.join(R, "svg/whatif.svg"))
    for l, p in s:
        check(abs(value(p[0][1]) - 1) <= span * 2e-4, f"whatif: {l} starts at {value(p[0][1])}, not 1")
        check(abs(value(p[-1][1]) - last[l]) <= span * 2e-4, f"whatif: {l} ends at {value(p[-1][1])}, not {last[l]}")
    # nothing is below x1: the axis starts there
    check(abs(value(box[1] + box[3]) - 1) <= span * 2e-4, f"whatif: the y axis starts at {value(box[1] + box[3])}, not 1")
    # the legend lists the kernels by their slowdown at 250 ns, largest first
    root = ET.parse(os.path.join(R, "svg/whatif.svg")).getroot()
    legend = [t.text for g in root.iter(NS + "g") if g.get("class") == "legend" for t in g.iter(NS + "text")]
    check(legend == sorted(last, key=lambda k: -last[k]), f"whatif: legend {legend}, slowdowns {last}")
    # the configuration is named
    sub = [t.text for t in root.iter(NS + "text") if t.get("fill") == "#444"]
    cfg0 = list(csv.DictReader(open(os.path.join(R, "sweep/lu.csv"))))[0]["config"]
    check(sub and sub[0].endswith(f"; configuration {cfg0}"), f"whatif: subtitle {sub} does not name {cfg0}")

if errors:
    print("\n".join(errors)); sys.exit(1)
print("report checks passed")
EOF

# a failing step stops the run with a message and a non-zero status
if EDAN=$EDAN EDAN_RUN_PROFILE=none EDAN_RUN_KERNELS="gemm:16:10 nosuch:4:10" python3 tools/run.py "$T/bad" 2> "$T/bad.err"; then
  fail "tools/run.py succeeded with an unknown kernel"
fi
grep -q 'nosuch' "$T/bad.err" || fail "tools/run.py: no message naming the unknown kernel: $(cat "$T/bad.err")"
if EDAN=$EDAN EDAN_RUN_PROFILE=none EDAN_RUN_KERNELS="gemm:0:10" python3 tools/run.py "$T/bad" 2> "$T/bad.err"; then
  fail "tools/run.py succeeded although the trace failed"
fi
grep -q 'edan trace of gemm failed' "$T/bad.err" || fail "tools/run.py: no message for the failed trace: $(cat "$T/bad.err")"
[ -e "$T/bad/README.md" ] && fail "tools/run.py wrote a README although a step failed"

# ---- with a hardware profile: the roofline with the kernels on it ---------
R2=$T/report2
# (the RISC-V builds, EDAN_RUN_ISA=riscv: the EDAN paper's setting)
# (and an OpenMP kernel, two threads: one eDAG, ranked with the others)
# (the shipped profile with probe's checks: one failed, two figures unstable;
# the report, its progress lines and the roofline say so)
python3 - hwprofiles/vm.json "$T/vm-checked.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["checks"] = {"count": 2, "failed": 1, "results": [
    {"check": "roof_order", "figure": "L2 <= L1 1 thread(s)", "passed": False, "value": 323, "limit": 162,
     "retries": 2, "figures": {"L1": 162, "L2": 323, "threads": 1}},
    {"check": "latency_order", "figure": "L1 < L2", "passed": True, "value": 1.5, "limit": 4.2, "retries": 0,
     "figures": {"L1": 1.5, "L2": 4.2}}]}
d["stability"] = {"threshold": 0.1, "figures": 63, "unstable": [{"figure": "DRAM latency"}, {"figure": "core clock"}]}
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
# (measured by a stand-in for probe that writes that profile as this host's,
# in a home of its own: make run installs what it measured as the machine's
# own profile, which a later edan run uses without --profile)
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p["host"]=sys.argv[3]; json.dump(p,open(sys.argv[2],"w"),indent=1)' \
  "$T/vm-checked.json" "$T/this.json" "$(hostname)"
cat > "$T/probe" <<EOF
#!/bin/sh
[ "\$1" = --install ] && exec "$PWD/probe" "\$@"
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && cp "$T/this.json" "\$2"; shift; done
EOF
chmod +x "$T/probe"
own=$T/xdg/edan/hwprofiles/$(hostname).json
XDG_DATA_HOME=$T/xdg PROBE=$T/probe EDAN=$EDAN EDAN_RUN_ISA=riscv EDAN_RUN_KERNELS="chase:2048:100 gemm:16:10 spmv:16:10 omp_gemm:16:10" \
  EDAN_RUN_DM_PLOTS="spmv" python3 tools/run.py "$R2" 2> "$T/run2.err" || { cat "$T/run2.err"; fail "tools/run.py with a profile failed"; }
cmp -s "$own" "$T/this.json" || fail "make run did not install its profile as the machine's own ($own): $(grep -i install "$T/run2.err")"
grep -q "installed .* as this machine's own profile: $own" "$T/run2.err" || fail "make run did not say where it installed the profile"
grep -q "this machine's own profile: $own" "$R2/README.md" || fail "the report's README does not say where the profile was installed"
# one m throughout the report (the profile's measured m: verdicts, rankings,
# what-if), and the L3 the analysis takes (not hwloc's) explained where shown
python3 - "$R2" "$T/this.json" <<'EOF' || fail "one m and one L3 size throughout the report"
import json, re, sys
r, prof = sys.argv[1], json.load(open(sys.argv[2]))
text = open(r + "/README.md").read()
m = prof["mlp"]["m"]
ms = set(re.findall(r"\(m = (\d+)\)", text)) | set(re.findall(r"--m (\d+)", text)) | set(re.findall(r"(\d+) RAM accesses at a time", text))
assert ms == {str(m)}, ms
for k in ("chase", "gemm", "spmv"):
    assert json.load(open(f"{r}/json/{k}.json"))["configs"][0]["verdict"]["m"] == m
l3 = [c for c in prof["caches"] if c["level"] == "L3"][0]
eff, rep = l3["effective_bytes"] // 1024, l3["size_bytes"] // 1024
assert eff != rep
assert f"L3 is analysed as {eff} KiB, not the {rep} KiB" in text, "the derived L3 not explained"
assert f"L3 {eff} KiB" in text
d = json.load(open(f"{r}/json/gemm.json"))
assert f"L3 taken as {eff} KiB, not the {rep} KiB" in d["profile_caches"], d.get("profile_caches")
EOF
printf 'ld a1,0(a0);0x1000\nld a2,0(a1);0x2000\n' > "$T/two.txt"
XDG_DATA_HOME=$T/xdg ./edan analyze --json "$T/two.txt" > "$T/own.json" &&
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["profile"]==sys.argv[2] and d["profile_default"], d.get("profile")' "$T/own.json" "$own" \
  || fail "a later edan analyze without --profile does not use the installed profile"
XDG_DATA_HOME=$T/xdg ./probe --install "$T/this.json" > "$T/again.out" 2>&1 && grep -q "already" "$T/again.out" \
  && cmp -s "$own" "$T/this.json" || fail "probe --install replaced the machine's own profile: $(cat "$T/again.out")"
XDG_DATA_HOME=$T/none ./edan analyze "$T/two.txt" > "$T/none.txt" && head -1 "$T/none.txt" | grep -q "^No hardware profile of this machine: the model's defaults (RAM latency alpha 200 cycles" \
  || fail "a run without any profile does not say so in its first line: $(head -2 "$T/none.txt")"
grep -q -- "-- build/examples/gemm 16" "$R2/commands.sh" || fail "EDAN_RUN_ISA=riscv did not trace build/examples/gemm"
grep -q "cross-compiled for RISC-V" "$R2/README.md" || fail "EDAN_RUN_ISA=riscv: the README does not say so"
python3 - "$R2" <<'EOF' || fail "the roofline of the run with a profile"
import json, sys, xml.etree.ElementTree as ET
r = sys.argv[1]
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(r + "/svg/roofline.svg").getroot()
apps = {g.get("data-label"): float(g.get("data-ai")) for g in root.iter(NS + "g") if g.get("class") == "app"}
for k in ("gemm", "spmv"):   # the kernels with floating-point work
    c = json.load(open(f"{r}/json/{k}.json"))["configs"][0]
    got = [v for l, v in apps.items() if k in l]
    assert got and abs(got[0] - c["arithmetic_intensity"]) <= 1e-5 * c["arithmetic_intensity"], (k, apps)
assert not any("chase" in l for l in apps), apps          # no flops, no point
assert "svg/roofline.svg" in open(r + "/README.md").read()
omp = json.load(open(f"{r}/json/omp_gemm.json"))
assert [t["thread"] for t in omp["threads"]] == [0, 1], omp.get("threads")
ser = json.load(open(f"{r}/json/gemm.json"))["configs"][1]
assert omp["configs"][1]["W"] >= ser["W"], (omp["configs"][1]["W"], ser["W"])   # the same loads, and libgomp's
assert any(a["name"] == "omp_gemm" for a in json.load(open(f"{r}/ranking-0.json"))["by_lambda"])
assert "export OMP_NUM_THREADS=2" in open(r + "/commands.sh").read()
readme = open(r + "/README.md").read()
assert "- probe's checks against the machine's limits: 1 of 2 failed" in readme, readme
assert "  - roof_order L2 <= L1 1 thread(s): 323 > 162 (L1 162, L2 323, threads 1)" in readme, readme
assert "- figures that stayed unstable: 2 of 63" in readme and "DRAM latency, core clock" in readme, readme
texts = " ".join(t.text or "" for t in root.iter(NS + "text"))
assert "probe's checks: 1 of 2 failed: roof_order L2 <= L1 1 thread(s) (323 > 162); 2 figures unstable" in texts, texts
assert "ran with OMP_NUM_THREADS=2 threads, all of them in one eDAG" in open(r + "/README.md").read()
EOF
grep -q "probe's checks against the machine's limits: 1 of 2 failed" "$T/run2.err" \
  && grep -q "roof_order L2 <= L1 1 thread(s): 323 > 162" "$T/run2.err" \
  || fail "make run does not say that a check of the profile failed: $(cat "$T/run2.err")"
echo "roofline checks passed"

# ---- edan plot directly: several reports overlay, legend names, bad input ----
P=$T/p; mkdir -p "$P"
cp "$R/json/lu.json" "$P/a.json"; cp "$R/json/spmv.json" "$P/b.json"
"$EDAN" plot "$P/a.json" "$P/b.json" --title 'a & b <overlay>' -o "$P/ab.svg" || fail "plot of two reports"
python3 - "$P/ab.svg" <<'EOF' || fail "overlay checks"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
labels = [g.get("data-label") for g in root.iter(NS + "g") if g.get("class") == "series"]
legend = [t.text for g in root.iter(NS + "g") if g.get("class") == "legend" for t in g.iter(NS + "text")]
want = ["a: L1 48K L2 1M", "a: no-cache", "b: L1 48K L2 1M", "b: no-cache"]
# the first configuration's name is this machine's caches: compare the shape
assert len(labels) == 4 and labels[1] == "a: no-cache" and labels[3] == "b: no-cache", labels
assert labels[0].startswith("a: ") and labels[2].startswith("b: "), labels
assert legend == labels, (legend, labels)
title = [t.text for t in root.iter(NS + "text") if t.get("font-weight") == "bold"]
assert title == ["a & b <overlay>"], title
print("overlay checks passed")
EOF
"$EDAN" plot --label left "$P/a.json" --label right "$P/b.json" --config 1 -o "$P/lr.svg" || fail "plot --label --config"
grep -q 'data-label="left"' "$P/lr.svg" && grep -q 'data-label="right"' "$P/lr.svg" || fail "--label not used as the legend name"
[ "$(grep -c 'class="series"' "$P/lr.svg")" = 2 ] || fail "--config 1 did not select one configuration per report"
# a label far wider than the legend is shortened with "..."
long=$(printf 'w%.0s' $(seq 600))
"$EDAN" plot --label "$long" "$P/a.json" --label right "$P/b.json" --config 1 -o "$P/long.svg" || fail "plot with a 600-byte label"
python3 - "$P/long.svg" <<'EOF' || fail "a long legend label is not shortened"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
legend = [t.text for g in root.iter(NS + "g") if g.get("class") == "legend" for t in g.iter(NS + "text")]
assert len(legend) == 2 and legend[0].endswith("...") and 4 < len(legend[0]) < 100, legend
EOF
"$EDAN" plot --log "$P/a.json" -o "$P/log.svg" || fail "plot --log"
python3 - "$P/log.svg" "$P/a.json" <<'EOF' || fail "--log chart checks"
import json, math, re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
g = [g for g in root.iter(NS + "g") if g.get("class") == "yticks"][0]
ys = [float(l.get("y1")) for l in g.iter(NS + "line")]
pre = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}
vals = []
texts = [t.text for t in g.iter(NS + "text")]
# the timeline has empty bins: zero is the bottom edge, labelled 0, a decade under the rest
assert texts[0] == "0", texts
frame = [e for e in root.iter(NS + "rect") if e.get("fill") == "none"][0]
assert abs(ys[0] - (float(frame.get("y")) + float(frame.get("height")))) < 0.01, (ys[0], frame.attrib)
ys = ys[1:]
for t in texts[1:]:
    m = re.fullmatch(r"([0-9.]+) ([kMG]?)B", t)
    assert m, t
    vals.append(float(m.group(1)) * pre[m.group(2)])
# log placement: pixel y linear in log10(value)
(y0, v0), (y1, v1) = (ys[0], vals[0]), (ys[-1], vals[-1])
val = lambda y: 10 ** (math.log10(v0) + (y - y0) / (y1 - y0) * (math.log10(v1) - math.log10(v0)))
for y, v in zip(ys, vals):
    assert abs(val(y) / v - 1) < 1e-3, (y, v)
cf = [c for c in json.load(open(sys.argv[2]))["configs"] if "timeline" in c]
for gs, c in zip([g for g in root.iter(NS + "g") if g.get("class") == "series"], cf):
    pts = [tuple(map(float, p.split(","))) for p in gs.find(NS + "polyline").get("points").split()]
    peak = val(min(y for _, y in pts))
    assert abs(peak / max(c["timeline"]["bins"]) - 1) < 1e-2, (c["name"], peak, max(c["timeline"]["bins"]))
print("log chart checks passed")
EOF
"$EDAN" plot --sweep "$R/sweep/lu.csv" -o "$P/sw.svg" || fail "plot --sweep"
# one line per configuration and m: 2 configurations x 5 m
[ "$(grep -c 'class="series"' "$P/sw.svg")" = 10 ] || fail "sweep chart: not one line per configuration and m"
grep -q 'data-label="no-cache, m = 16"' "$P/sw.svg" || fail "sweep chart: no line for no-cache, m = 16"

# more lines than colours: colour and marker shape together tell all 12 apart
args=()
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do cp "$R/sweep/lu.csv" "$P/k$i.csv"; args+=(--sweep "$P/k$i.csv"); done
"$EDAN" plot --slowdown --m 4 --config 0 "${args[@]}" -o "$P/many.svg" || fail "plot of 12 sweeps"
python3 - "$P/many.svg" <<'EOF' || fail "12 lines are not all told apart"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
looks = []
for g in root.iter(NS + "g"):
    if g.get("class") != "series": continue
    pl = g.find(NS + "polyline")
    marks = [e for e in g if e.tag != NS + "polyline"]
    assert marks, f"{g.get('data-label')}: no markers"
    shape = (marks[0].tag, len(marks[0].get("d", "").split("L")), marks[0].get("stroke") is None)
    looks.append((pl.get("stroke"), pl.get("stroke-dasharray"), shape))
assert len(looks) == 12 and len(set(looks)) == 12, looks
print("12 lines, 12 looks")
EOF

# bad input: FILE: what is wrong, exit 2, an existing output left alone
echo keep > "$P/out.svg"
expect_bad() {  # file-in-message, then the plot arguments
  local want=$1; shift
  "$EDAN" plot "$@" -o "$P/out.svg" 2> "$P/err"; rc=$?
  [ $rc = 2 ] || fail "edan plot $*: exit $rc, not 2"
  grep -q "$want" "$P/err" || fail "edan plot $*: message '$(cat "$P/err")' lacks '$want'"
  [ "$(cat "$P/out.svg")" = keep ] || fail "edan plot $*: replaced the output although it failed"
}
printf '{"configs": [' > "$P/trunc.json"
printf '{"source": "x", "configs": [{"name": "c", "W": 1}]}' > "$P/notl.json"
printf '{"configs": [{"name": "c", "timeline": {"tau": 10, "bins": [1, "x"]}}]}' > "$P/badbin.json"
printf 'config,m,added_ns,alpha_cycles,T_lower,T_layered,T_upper,slowdown_upper\n"c",4,0,200,1,2,3,1\n"c",4,x,200,1,2,3,1\n' > "$P/bad.csv"
printf 'a,b\n1,2\n' > "$P/other.csv"
expect_bad "$P/missing.json: " "$P/missing.json"
expect_bad "$P/trunc.json:1: not valid JSON" "$P/trunc.json"
expect_bad "$P/notl.json: no configuration has a timeline" "$P/notl.json"
expect_bad "$P/badbin.json: line 1: timeline bin 1" "$P/badbin.json"
expect_bad "$P/bad.csv: line 3: added_ns" --sweep "$P/bad.csv"
expect_bad "$P/other.csv: line 1: not a sweep CSV" --sweep "$P/other.csv"
printf '\n \n' > "$P/blank.csv"     # the header is the first line not empty (a blank first line once read past it)
expect_bad "$P/blank.csv: line 2: not a sweep CSV" --sweep "$P/blank.csv"
expect_bad "unknown option" --bogus "$P/a.json"
expect_bad "either JSON reports or --sweep" "$P/a.json" --sweep "$R/sweep/lu.csv"
ls "$P" | grep -q '\.tmp' && fail "edan plot left a temporary file"
echo "test_run: all checks passed"
