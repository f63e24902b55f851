#!/usr/bin/env bash
# Every chart of `make run` and of README's tour, rendered as a reader sees
# it: the charts are made by the same commands on small inputs (tools/run.py
# with every default kernel, once with this project's machine profile and
# once with the emulated two-node one, whose LARM and hybrid charts come
# along; the tour's `edan roofline` and `edan plot` lines as README has
# them), and each SVG is checked:
# - every text carries its box (data-bbox, its glyphs' room from the font's
#   metrics), and the boxes are true: each text is rendered by rsvg-convert
#   without the rest of the chart (texts far enough apart share a
#   rendering) and its ink (tests/cmd/png_ink.c) lies inside its box;
# - no two text boxes overlap, no text covers a marker (data-bbox of the
#   points, bars and markers), every box lies on the canvas;
# - no title reads "(none)".
# Then what the charts must say: lines that coincide are named so in the
# legend and drawn so that both show; a model point analysed with another
# profile is marked.
. "$(dirname "$0")/../lib.sh"
command -v rsvg-convert > /dev/null || { skip "charts render" "rsvg-convert is not installed (Debian librsvg2-bin; tools/deps.sh installs it)"; exit 0; }
gcc -std=c99 -O2 -Wall -Wextra -pedantic -o "$T/png_ink" tests/cmd/png_ink.c -lz -lm || { bad "cannot build png_ink"; exit 1; }
export OMP_NUM_THREADS=2
mkdir -p "$T/svg"

# 1. make run, reduced: every default kernel on a small input
small="sum:2000:100 gemm:16:10 omp_gemm:16:10 mvt:48:10 atax:48:10 bicg:48:10 gesummv:48:10 trmm:16:10
       syrk:16:10 trisolv:96:100 lu:16:10 triad:2000:100 chase:2048:100 spmv:16:10"
for prof in vm qemu-2node; do
  if XDG_DATA_HOME=$T/xdg EDAN_RUN_PROFILE=hwprofiles/$prof.json EDAN_RUN_KERNELS="$(echo $small)" python3 tools/run.py "$T/run-$prof" 2> "$T/err"; then
    for f in "$T/run-$prof"/svg/*.svg; do cp "$f" "$T/svg/run-$prof-$(basename "$f")"; done
    ok "make run's charts with hwprofiles/$prof.json: $(ls "$T/run-$prof/svg" | tr '\n' ' ')"
  else bad "tools/run.py with hwprofiles/$prof.json: $(tail -n 3 "$T/err")"; fi
done
ls "$T"/svg/run-qemu-2node-larm-cluster*.svg > /dev/null 2>&1 || bad "make run with a two-node profile drew no LARM chart"
# a profile given to make run (vm.json's host is this development machine's
# name) is not installed as the machine's own: only what make run measured is
[ ! -e "$T/xdg/edan/hwprofiles" ] && ok "make run with a given profile installed none" \
  || bad "make run installed a given profile: $(ls "$T/xdg/edan/hwprofiles")"

# 2. the tour's charts: README's own `edan roofline` and `edan plot` lines,
# from small reports analysed with the tour's profile (this machine's there)
mkdir -p "$T/tour"
cp hwprofiles/vm.json "$T/tour/this-machine.json"
./edan trace --quiet --profile "$T/tour/this-machine.json" --func kernel_gemm --tau 100 --json -o "$T/tour/gemm.json" \
  -- build/examples/gemm 24 > /dev/null 2>&1 || bad "trace gemm for the tour"
./edan trace --quiet --profile "$T/tour/this-machine.json" --func kernel_triad --json -o "$T/tour/triad.json" \
  -- build/examples/triad 2000 > /dev/null 2>&1 || bad "trace triad for the tour"
python3 - README.md > "$T/tour.sh" <<'EOF'
import re, sys
for body in re.findall(r"```sh\n(.*?)```", open(sys.argv[1]).read(), re.S):
    for l in body.split("\n"):
        if l.startswith(("./edan roofline", "./edan plot")):
            print(l.split("#")[0].strip())
EOF
n=$(wc -l < "$T/tour.sh")
[ "$n" -ge 5 ] || bad "README's tour has $n chart commands, expected the roofline and plot ones"
while read -r cmd; do
  if bash -c "${cmd//build\/tour/$T/tour}" > /dev/null 2> "$T/err"; then ok "tour: $cmd"
  else bad "tour: \`$cmd\`: $(tail -n 2 "$T/err")"; fi
done < "$T/tour.sh"
for f in "$T"/tour/*.svg; do cp "$f" "$T/svg/tour-$(basename "$f")"; done

# 3. crowded charts: twenty points in a corner, labels of every length;
# twelve roofs on a LARM chart with points among their markers
pts=()
for i in $(seq 1 20); do pts+=(--point "k$i$(printf '%*s' $((i % 7)) '' | tr ' ' x):0.0$((i % 9 + 1)):0.0$((i % 5 + 1))"); done
./edan roofline hwprofiles/vm.json "${pts[@]}" -o "$T/svg/crowd-carm.svg" 2> "$T/err" || bad "crowded CARM: $(cat "$T/err")"
./edan roofline hwprofiles/reference-tpds19-joe0.json --larm --peak 189.4 --point a:0.1:3 --point b:0.11:3.2 \
  --point c:0.5:20 --point d:1:25 -o "$T/crowd-larm.svg" 2> "$T/err" && cp "$T"/crowd-larm-cluster0.svg "$T/svg/" \
  || bad "crowded LARM: $(cat "$T/err")"

# 4. what the charts must say. Lines that coincide: a configuration given
# twice (the same values) and one 0.2% off (the same pixels) are dashed
# over the line they lie on and named so in the legend
python3 - "$T/run-vm/json/triad.json" "$T/twice.json" <<'EOF' || bad "making a report with coinciding lines"
import copy, json, sys
d = json.load(open(sys.argv[1]))
a = copy.deepcopy(d["configs"][0]); a["name"] = "L1 only"
b = copy.deepcopy(d["configs"][1]); b["name"] = "RAM, 0.2% more"
b["timeline"]["bins"] = [round(x * 1.002) for x in b["timeline"]["bins"]]
d["configs"] += [a, b]
json.dump(d, open(sys.argv[2], "w"))
EOF
if ./edan plot "$T/twice.json" -o "$T/svg/coincide.svg" 2> "$T/err"; then
  python3 - "$T/svg/coincide.svg" "$T/twice.json" <<'EOF' && ok "coinciding lines: dashed over the line they lie on, said in the legend (= and ≈)" || bad "coinciding lines"
import json, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
names = [c["name"] for c in json.load(open(sys.argv[2]))["configs"]]
on = {g.get("data-label"): (g.get("data-on"), g.find(NS + "polyline").get("stroke-dasharray"))
      for g in root.iter(NS + "g") if g.get("class") == "series"}
assert on["L1 only"][0] == names[0] and on["L1 only"][1], on
assert on["RAM, 0.2% more"][0] == names[1] and on["RAM, 0.2% more"][1], on
assert on[names[0]][0] is None and on[names[1]][0] is None, on
legend = [t.text for g in root.iter(NS + "g") if g.get("class") == "legend" for t in g.iter(NS + "text")]
assert f"L1 only = {names[0]}" in legend and f"RAM, 0.2% more \u2248 {names[1]}" in legend, legend
EOF
else bad "plot of coinciding lines: $(cat "$T/err")"; fi
# the hybrid roof above every memory roof of the emulated machine: its note says why
python3 -c 'import sys, xml.etree.ElementTree as ET; t = " ".join(e.text or "" for e in ET.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}text")); sys.exit("It lies above every memory roof here" not in t)' "$T/tour/hybrid.svg" \
  && ok "the tour's hybrid chart says why its roofs lie above the memory roofs" || bad "hybrid.svg: no note on its hybrid roofs"
grep -q 'data-profile="other"' "$T/tour/larm-cluster0.svg" 2> /dev/null && grep -q "predicted with another profile" "$T/tour/larm-cluster0.svg" \
  && ok "the tour's LARM chart marks gemm, analysed with another profile" || bad "larm-cluster0.svg: gemm not marked"

cat > "$T/check.py" <<'EOF'
"""check.py PNG_INK SVG...: text boxes true, apart, off markers, on the canvas."""
import math, os, re, subprocess, sys, tempfile
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
INHERIT = ("font-size", "font-family", "font-weight", "text-anchor", "fill")
MARGIN = 6.0        # px around a box that a rendering shared with other texts keeps to itself
INK_SLACK = 1.0     # px an antialiased pixel's centre may lie outside a box

def corners(box, rot):
    x0, y0, x1, y1 = box
    pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if rot:
        a, cx, cy = rot
        c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
        pts = [(cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)) for x, y in pts]
    return pts

def apart(p, q, slack=0.25):
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y1 - y2, x2 - x1
            n = math.hypot(nx, ny)
            if n == 0: continue
            pa = [(x * nx + y * ny) / n for x, y in p]
            qa = [(x * nx + y * ny) / n for x, y in q]
            if max(pa) <= min(qa) + slack or max(qa) <= min(pa) + slack: return True
    return False

def items(path):
    root = ET.parse(path).getroot()
    texts, marks = [], []
    def walk(e, inh):
        inh = dict(inh)
        for k in INHERIT:
            if e.get(k) is not None: inh[k] = e.get(k)
        tag = e.tag.replace(NS, "")
        tr = e.get("transform")
        if tag == "text":
            m = re.fullmatch(r"rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)", tr or "")
            if tr and not m: raise SystemExit(f"{path}: a text's transform {tr!r} is not rotate(a x y)")
            texts.append((e, inh, tuple(map(float, m.groups())) if m else None))
        else:
            if tr: raise SystemExit(f"{path}: <{tag}> has a transform, texts inside would move")
            if e.get("data-bbox"): marks.append(e)
        for c in e: walk(c, inh)
    walk(root, {})
    return root, texts, marks

def box_of(e):
    b = e.get("data-bbox")
    return tuple(map(float, b.split())) if b else None

def check(png_ink, path, work):
    errs = []
    root, texts, marks = items(path)
    W, H = float(root.get("width")), float(root.get("height"))
    title = root.find(NS + "title")
    if title is not None and "(none)" in (title.text or ""): errs.append(f"the title reads {title.text!r}")
    polys = []
    for e, inh, rot in texts:
        b = box_of(e)
        s = "".join(e.itertext())
        if b is None:
            errs.append(f"text {s!r} has no data-bbox"); polys.append(None); continue
        p = corners(b, rot)
        polys.append(p)
        if not all(-0.5 <= x <= W + 0.5 and -0.5 <= y <= H + 0.5 for x, y in p): errs.append(f"text {s!r} leaves the canvas")
    name = lambda i: repr("".join(texts[i][0].itertext()))
    for i in range(len(texts)):
        if polys[i] is None: continue
        for j in range(i):
            if polys[j] is not None and not apart(polys[i], polys[j]):
                errs.append(f"texts {name(j)} and {name(i)} overlap")
        for m in marks:
            if not apart(polys[i], corners(box_of(m), None)):
                errs.append(f"text {name(i)} covers a {m.tag.replace(NS, '')} at {m.get('data-bbox')}")
    # the boxes are true: each text rendered alone (or with texts at least
    # MARGIN px away), its ink inside its box
    def grown(i):
        x0, y0, x1, y1 = box_of(texts[i][0])
        return corners((x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN), texts[i][2])
    batches = []
    for i in range(len(texts)):
        if polys[i] is None: continue
        for bt in batches:
            if all(apart(grown(i), grown(j), 0) for j in bt):
                bt.append(i); break
        else: batches.append([i])
    for k, bt in enumerate(batches):
        svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": root.get("width"),
                                 "height": root.get("height"), "viewBox": root.get("viewBox") or f"0 0 {W} {H}"})
        ET.SubElement(svg, "rect", {"width": "100%", "height": "100%", "fill": "white"})
        for i in bt:
            e, inh, rot = texts[i]
            c = ET.SubElement(svg, "text", {k2.replace(NS, ""): v for k2, v in e.attrib.items()})
            for a, v in inh.items(): c.set(a, e.get(a) or v)
            c.text = "".join(e.itertext())
        base = os.path.join(work, f"b{k}")
        ET.ElementTree(svg).write(base + ".svg")
        subprocess.run(["rsvg-convert", base + ".svg", "-o", base + ".png"], check=True)
        with open(base + ".txt", "w") as f:
            for i in bt:
                pts = [v for xy in polys[i] + grown(i) for v in xy]
                f.write(f"{i} " + " ".join(f"{v:.2f}" for v in pts) + "\n")
        out = subprocess.run([png_ink, base + ".png", base + ".txt"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if f[0] == "orphans":
                if f[1] != "0": errs.append(f"ink of a text reaches {MARGIN:g} px beyond its box: {line}")
                continue
            i, pixels, far = int(f[0]), int(f[1]), float(f[2])
            if pixels == 0 and name(i).strip("' "): errs.append(f"text {name(i)} left no ink")
            if far > INK_SLACK: errs.append(f"text {name(i)}: its ink lies {far:.1f} px outside its box")
    return len(texts), len(marks), len(batches), errs

png_ink, paths = sys.argv[1], sys.argv[2:]
failed = 0
for path in paths:
    with tempfile.TemporaryDirectory() as work:
        try:
            nt, nm, nb, errs = check(png_ink, path, work)
        except SystemExit as e:
            nt, nm, nb, errs = 0, 0, 0, [str(e)]
    tag = os.path.basename(path)
    if errs:
        failed = 1
        print(f"FAIL {tag}: " + "; ".join(errs[:8]) + (f" (and {len(errs) - 8} more)" if len(errs) > 8 else ""))
    else:
        print(f"ok   {tag}: {nt} texts in their boxes ({nb} renderings), apart and off {nm} markers")
sys.exit(failed)
EOF

for f in "$T"/svg/*.svg; do
  rsvg-convert "$f" -o "${f%.svg}.png" 2> "$T/err" || bad "rsvg-convert $(basename "$f"): $(cat "$T/err")"
done
python3 "$T/check.py" "$T/png_ink" "$T"/svg/*.svg || fail=1
exit $fail
