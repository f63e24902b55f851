#!/usr/bin/env bash
# tools/run.sh [REPORT_DIR] - `make run`: from this machine to a verdict.
#
# Probes this machine (./probe --quick), traces and analyses the example
# kernels with its hardware profile (a data-movement timeline, a what-if at
# +100 ns and a 0..250 ns sweep per kernel), ranks them (edan rank), draws the
# roofline (edan roofline) and the data movement (edan plot), and writes
# REPORT_DIR/README.md (default build/report): the machine, the rankings, the
# what-if table, the charts and the exact commands behind every number.
#
# Environment:
#   EDAN_RUN_KERNELS  kernels to run, "name[:size[:tau]] ..." (default: the
#                     set below); a kernel not in the table below needs all three
#   EDAN_RUN_PROFILE  use this hardware profile instead of probing (none: no
#                     profile, the model's defaults)
#   EDAN_RUN_DM_PLOTS kernels whose data movement is drawn, "name[:log] ..."
#                     (default: spmv:log triad; the EDAN paper's Fig. 9
#                     setting, lu 64, is always drawn)
#   EDAN_RUN_ADD_NS   latency added in the what-if (default 100 ns)
#   EDAN, PROBE       the edan and probe binaries (default ./edan, ./probe)
# Progress goes to stderr; a failing step stops the run with its message and
# a non-zero exit status. Steps whose tool is not built are skipped with a
# line saying so, and the report says what is missing.
set -u
cd "$(dirname "$0")/.."
REPORT=${1:-build/report}
EDAN=${EDAN:-./edan}
PROBE=${PROBE:-./probe}
ADD_NS=${EDAN_RUN_ADD_NS:-100}
T0=$SECONDS

# name  size  tau  scope: the kernel function, or the region of spmv's CG step
# (its three iterations are the three bursts of the data-movement chart).
# The chase's list (2M nodes, 32 MiB) is larger than the last cache level of
# the machines we know, as a pointer-chase benchmark's must be.
KERNEL_TABLE="
sum      4000000 1000  --func   kernel
gemm     128     10    --func   kernel_gemm
mvt      1024    10    --func   kernel_mvt
atax     1024    100   --func   kernel_atax
bicg     1024    100   --func   kernel_bicg
gesummv  1024    10    --func   kernel_gesummv
trmm     128     10    --func   kernel_trmm
syrk     128     10    --func   kernel_syrk
trisolv  2048    1000  --func   kernel_trisolv
lu       128     10    --func   kernel_lu
triad    1048576 1000  --func   kernel_triad
chase    2097152 100000 --func  kernel_chase
spmv     256     100   --region kernel_cg_step
"
DEFAULT_KERNELS="sum gemm mvt atax bicg gesummv trmm syrk trisolv lu triad chase spmv"
# the kernels whose data movement is drawn (every configuration)
DM_PLOTS=${EDAN_RUN_DM_PLOTS:-"spmv:log triad"}

say() { printf '[%3ds] %s\n' $((SECONDS - T0)) "$*" >&2; }
die() { printf '[%3ds] make run: %s\n' $((SECONDS - T0)) "$*" >&2; exit 1; }

MISSING=()          # what could not be done, for the report
STEPS=()            # "seconds|what" per step, for the report

mkdir -p "$REPORT" || die "cannot create $REPORT"
# Only what this script writes is removed, so stale results cannot mix in.
rm -rf "$REPORT/json" "$REPORT/sweep" "$REPORT/svg" "$REPORT/logs" "$REPORT/commands.sh" \
       "$REPORT/ranking"*.txt "$REPORT/ranking"*.json "$REPORT/README.md"
mkdir -p "$REPORT/json" "$REPORT/sweep" "$REPORT/svg" "$REPORT/logs" || die "cannot write in $REPORT"
CMDS="$REPORT/commands.sh"
printf '#!/bin/sh\n# The commands of `make run`, in order (from the repository root).\nset -e\n' > "$CMDS"

# Records a command in commands.sh and runs it niced; stdout to $OUT (a file;
# /dev/null by default), stderr to $LOG. Returns the command's status.
OUT=/dev/null
LOG=/dev/null
run() {
  local q
  q=$(printf '%q ' "$@")
  if [ "$OUT" != /dev/null ]; then printf '%s> %q\n' "$q" "$OUT" >> "$CMDS"
  else printf '%s\n' "$q" >> "$CMDS"; fi
  nice -n 10 "$@" > "$OUT" 2> "$LOG"
}
step_done() { STEPS+=("$(( SECONDS - $1 ))|$2"); }

[ -x "$EDAN" ] || die "$EDAN is not built (run make)"
[ -d build/examples ] || die "build/examples is missing (run make examples)"

# ---- 1. the machine ---------------------------------------------------------
PROFILE=""
t=$SECONDS
if [ "${EDAN_RUN_PROFILE:-}" = none ]; then
  say "hardware profile: none (EDAN_RUN_PROFILE=none)"
  MISSING+=("no hardware profile: EDAN_RUN_PROFILE=none")
elif [ -n "${EDAN_RUN_PROFILE:-}" ]; then
  [ -r "$EDAN_RUN_PROFILE" ] || die "EDAN_RUN_PROFILE=$EDAN_RUN_PROFILE: no such file"
  cp "$EDAN_RUN_PROFILE" "$REPORT/profile.json" || die "cannot copy $EDAN_RUN_PROFILE"
  printf '# hardware profile given with EDAN_RUN_PROFILE\ncp %q %q\n' "$EDAN_RUN_PROFILE" "$REPORT/profile.json" >> "$CMDS"
  PROFILE="$REPORT/profile.json"
  say "hardware profile: $EDAN_RUN_PROFILE (given)"
else
  [ -x "$PROBE" ] || die "$PROBE is not built (run make)"
  say "probing this machine: $PROBE --quick (at most about 20 s)"
  rm -f "$REPORT/profile.json"
  LOG="$REPORT/logs/probe.log"
  run "$PROBE" --quick -o "$REPORT/profile.json" || die "$PROBE --quick failed: see $LOG ($(tail -n 1 "$LOG"))"
  LOG=/dev/null
  [ -s "$REPORT/profile.json" ] || die "$PROBE --quick wrote no profile"
  PROFILE="$REPORT/profile.json"
  say "hardware profile: $PROFILE"
fi
step_done $t "hardware profile"

# Analysis options: the profile's caches, alpha, m and clock in the first
# configuration, and the same kernel without caches (the model's RAM-only
# view, as in the EDAN paper's Fig. 9) in the second.
CFG=()
if [ -n "$PROFILE" ]; then
  CFG=(--profile "$PROFILE")
  SETTINGS="caches, alpha, m and clock from the hardware profile \`profile.json\`"
else
  # this machine's data caches as the C library reports them; the model's
  # default RAM latency (200 cycles) and clock (1 GHz)
  for l in 1 2 3; do
    if [ $l = 1 ]; then p=LEVEL1_DCACHE; else p=LEVEL${l}_CACHE; fi
    size=$(getconf ${p}_SIZE 2>/dev/null); assoc=$(getconf ${p}_ASSOC 2>/dev/null); line=$(getconf ${p}_LINESIZE 2>/dev/null)
    if [ -n "$size" ] && [ -n "$assoc" ] && [ -n "$line" ] && [ "$size" -gt 0 ] 2>/dev/null && [ "$assoc" -gt 0 ] && [ "$line" -gt 0 ]; then
      CFG+=(--cache "$size:$assoc:$line")
    fi
  done
  SETTINGS="no hardware profile: the data caches getconf reports, the model's default RAM latency (alpha = 200 cycles) and clock (1 GHz)"
fi

# ---- 2. trace and analyse the kernels --------------------------------------
KERNELS=()
for spec in ${EDAN_RUN_KERNELS:-$DEFAULT_KERNELS}; do
  IFS=: read -r name size tau <<< "$spec"
  row=$(awk -v n="$name" '$1 == n' <<< "$KERNEL_TABLE")
  sopt=--func; sname=kernel_$name
  if [ -n "$row" ]; then
    read -r _ dsize dtau sopt sname <<< "$row"
    size=${size:-$dsize}; tau=${tau:-$dtau}
  fi
  [ -n "${size:-}" ] && [ -n "${tau:-}" ] || die "kernel $spec: give name:size:tau (not in the table of tools/run.sh)"
  [ -x "build/examples/$name" ] || die "build/examples/$name is missing (run make examples)"
  KERNELS+=("$name")
  printf '%s %s %s %s %s\n' "$name" "$size" "$tau" "$sopt" "$sname" >> "$REPORT/logs/kernels.txt"
  say "trace $name $size (tau $tau cycles)"
  t=$SECONDS
  OUT="$REPORT/logs/$name.out"; LOG="$REPORT/logs/$name.log"
  run "$EDAN" trace --quiet --json "$sopt" "$sname" --tau "$tau" "${CFG[@]}" --config=no-cache --no-cache \
      --alpha-add "$ADD_NS" --sweep "$REPORT/sweep/$name.csv" -o "$REPORT/json/$name.json" \
      -- "build/examples/$name" "$size" \
    || die "edan trace of $name failed: see $LOG ($(tail -n 1 "$LOG"))"
  OUT=/dev/null; LOG=/dev/null
  [ -s "$REPORT/json/$name.json" ] || die "edan trace of $name wrote no report"
  step_done $t "trace and analyse $name ($size)"
done
[ ${#KERNELS[@]} -gt 0 ] || die "no kernels (EDAN_RUN_KERNELS is empty)"

# The EDAN paper's Fig. 9 setting: lu at N = 64, no cache, RAM accesses 200
# cycles, other instructions 1, tau = 1 cycle.
say "trace lu 64 in the setting of the EDAN paper's Fig. 9"
t=$SECONDS
OUT="$REPORT/logs/fig9-lu.out"; LOG="$REPORT/logs/fig9-lu.log"
run "$EDAN" trace --quiet --json --func kernel_lu --alpha 200 --tau 1 -o "$REPORT/json/fig9-lu.json" \
    -- build/examples/lu 64 || die "edan trace of lu 64 failed: see $LOG ($(tail -n 1 "$LOG"))"
OUT=/dev/null; LOG=/dev/null
step_done $t "trace and analyse lu (64) as in the paper's Fig. 9"
JSONS=(); SWEEPS=()
for k in "${KERNELS[@]}"; do JSONS+=("$REPORT/json/$k.json"); SWEEPS+=("$REPORT/sweep/$k.csv"); done

# The m the rankings and the what-if use: 4 (the EDAN paper's) if the
# reports have it, else the first m of the first report.
M=$(python3 - "${JSONS[0]}" <<'EOF'
import json, sys
ms = list(json.load(open(sys.argv[1]))["configs"][0]["m"].keys())
print("4" if "4" in ms else ms[0])
EOF
) || die "cannot read ${JSONS[0]}"

# ---- 3. rank ----------------------------------------------------------------
t=$SECONDS
say "rank (m = $M)"
for c in 0 1; do
  LOG="$REPORT/logs/rank.log"
  OUT="$REPORT/ranking-$c.txt"; run "$EDAN" rank --m "$M" --config "$c" "${JSONS[@]}" || die "edan rank failed: $(tail -n 1 "$LOG")"
  OUT="$REPORT/ranking-$c.json"; run "$EDAN" rank --json --m "$M" --config "$c" "${JSONS[@]}" || die "edan rank --json failed: $(tail -n 1 "$LOG")"
done
OUT=/dev/null; LOG=/dev/null
step_done $t "rank"

# ---- 4. roofline --------------------------------------------------------------
t=$SECONDS
ROOFLINE=""
ROOF_NOTE=""
if [ -z "$PROFILE" ]; then
  say "roofline: no hardware profile, no roofline"
  MISSING+=("no roofline: it needs the hardware profile")
else
  say "roofline with the kernels on it"
  LOG="$REPORT/logs/roofline.log"
  # one --app per kernel that does floating-point work
  mapfile -t APPS < <(python3 - "${JSONS[@]}" <<'EOF'
import json, sys
for path in sys.argv[1:]:
    if json.load(open(path))["configs"][0].get("flops", 0) > 0:
        print("--app"); print(path)
EOF
)
  run "$EDAN" roofline "$PROFILE" "${APPS[@]}" -o "$REPORT/svg/roofline.svg" || die "edan roofline failed: $(tail -n 1 "$LOG")"
  ROOF_NOTE="Each kernel with floating-point work (configuration 0) sits at its arithmetic intensity (flops per byte loaded or stored); its bar spans the performance between the model's upper and lower time bound at the profile's m (flops x clock / cycles, at the report's clock)."
  # a profile of probe --numa on a machine with several nodes: the LARM charts too
  if python3 -c 'import json,sys; n=json.load(open(sys.argv[1])).get("numa",{}); sys.exit(0 if n.get("roofs") and not n.get("skipped") else 1)' "$PROFILE"; then
    run "$EDAN" roofline "$PROFILE" "${APPS[@]}" --larm -o "$REPORT/svg/larm.svg" || die "edan roofline --larm failed: $(tail -n 1 "$LOG")"
    ROOF_NOTE="$ROOF_NOTE The locality-aware charts, one per cluster: svg/larm-cluster*.svg."
  fi
  LOG=/dev/null
  ROOFLINE=svg/roofline.svg
fi
step_done $t "roofline"

# ---- 5. data movement and what-if charts ------------------------------------
t=$SECONDS
PLOTS=()
say "charts: data movement and what-if"
LOG="$REPORT/logs/plot.log"
run "$EDAN" plot "$REPORT/json/fig9-lu.json" --title "Data movement over time: lu, N = 64 (the setting of the EDAN paper's Fig. 9)" \
    -o "$REPORT/svg/dm-fig9-lu.svg" || die "edan plot failed: $(tail -n 1 "$LOG")"
PLOTS+=(dm-fig9-lu)
for spec in $DM_PLOTS; do
  k=${spec%%:*}; scale=()
  [ "$spec" = "$k:log" ] && scale=(--log)
  [ -s "$REPORT/json/$k.json" ] || continue
  run "$EDAN" plot "${scale[@]+"${scale[@]}"}" "$REPORT/json/$k.json" --title "Data movement over time: $k" \
      -o "$REPORT/svg/dm-$k.svg" || die "edan plot failed: $(tail -n 1 "$LOG")"
  PLOTS+=("dm-$k")
done
SW=(); for s in "${SWEEPS[@]}"; do SW+=(--sweep "$s"); done
run "$EDAN" plot --config 0 --m "$M" --slowdown --title "Slowdown when RAM gets farther (m = $M)" \
    "${SW[@]}" -o "$REPORT/svg/whatif.svg" \
  || die "edan plot --sweep failed: $(tail -n 1 "$LOG")"
PLOTS+=(whatif)
for k in chase gemm; do
  [ -s "$REPORT/sweep/$k.csv" ] || continue
  run "$EDAN" plot --log --sweep "$REPORT/sweep/$k.csv" --title "Upper time bound of $k when RAM gets farther" \
      -o "$REPORT/svg/whatif-$k.svg" || die "edan plot --sweep failed: $(tail -n 1 "$LOG")"
  PLOTS+=("whatif-$k")
done
LOG=/dev/null
step_done $t "charts"

# ---- 6. the summary -----------------------------------------------------------
say "summary: $REPORT/README.md"
step_done $T0 "make run after the build (total)"
printf '%s\n' "${MISSING[@]+"${MISSING[@]}"}" > "$REPORT/logs/missing.txt"
printf '%s\n' "${STEPS[@]}" > "$REPORT/logs/steps.txt"
python3 - "$REPORT" "$M" "$ADD_NS" "$SETTINGS" "${PROFILE:+profile.json}" "$ROOFLINE" "${PLOTS[*]+${PLOTS[*]}}" \
    "$ROOF_NOTE" "$DM_PLOTS" <<'EOF' || die "cannot write $REPORT/README.md"
import json, os, platform, subprocess, sys, datetime
rep, M, add_ns, settings, profile, roofline, plots, roof_note, dm_specs = sys.argv[1:10]
dm_specs = dm_specs.split()
plots = plots.split()
kinfo = [l.split() for l in open(os.path.join(rep, "logs/kernels.txt")) if l.strip()]
kernels = [k[0] for k in kinfo]

def load(p):
    with open(os.path.join(rep, p)) as f:
        return json.load(f)

def num(v, kind):
    """int: thousands separators; fix2: 2 decimals; sig: 4 significant digits."""
    if v is None: return "n/a"
    if kind == "int": return f"{v:,.0f}"
    if kind == "fix2": return f"{v:,.2f}"
    return f"{v:.4g}"

def fmt(v, d=4):
    if v is None: return "n/a"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15): return f"{int(v):,}"
    return f"{v:.{d}g}"

out = []
w = out.append
w("# EDAN report: memory-latency sensitivity of the example kernels on this machine\n")
w(f"Written by `make run` on {datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC')}. "
  "Every number below comes from the files next to this one; `commands.sh` holds the exact commands "
  "(run from the repository root) that produced them.\n")

# ---- machine
w("## The machine\n")
cpu = ""
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip(); break
except OSError:
    pass
w(f"- host `{platform.node()}`, {platform.system()} {platform.release()} {platform.machine()}, "
  f"{os.cpu_count()} CPUs{', ' + cpu if cpu else ''}")
def get(d, *path):
    for k in path:
        if isinstance(d, dict): d = d.get(k)
        elif isinstance(d, list) and isinstance(k, int) and k < len(d): d = d[k]
        else: return None
    return d

def val(x):
    """a number, or the median of a {median, min, max} object"""
    if isinstance(x, dict): x = x.get("median")
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None

if profile:
    p = load("profile.json")
    mode = p.get("mode")
    w(f"- hardware profile: [`{profile}`]({profile}), measured by `./probe`"
      + (f" ({mode} mode)" if isinstance(mode, str) else "")
      + (f" on {p['created']}" if isinstance(p.get("created"), str) else ""))
    cpu_p = get(p, "topology", "cpu_model")
    cores = get(p, "topology", "cores")
    if cpu_p: w(f"- CPU: {' '.join(str(cpu_p).split())}" + (f", {cores} cores" if cores else ""))
    ghz = val(get(p, "frequency", "core_ghz"))
    if ghz: w(f"- core clock: {ghz:.3g} GHz (measured)")
    caches = get(p, "caches")
    if isinstance(caches, list) and caches:
        parts = []
        for c in caches:
            if not isinstance(c, dict): continue
            sz = val(c.get("size_bytes"))
            lat = val(c.get("latency_cycles"))
            parts.append(f"{c.get('level', '?')} {sz / 1024:.0f} KiB" if sz else str(c.get("level", "?")))
            if c.get("assoc"): parts[-1] += f" {c['assoc']}-way"
            if lat: parts[-1] += f" ({lat:.0f} cycles)"
        w("- caches: " + ", ".join(parts))
    lats = get(p, "latency")
    if isinstance(lats, list):
        for l in lats:
            if isinstance(l, dict) and str(l.get("level", "")).upper() in ("DRAM", "RAM", "MEMORY"):
                ns, cyc = val(l.get("ns")), val(l.get("cycles"))
                if ns: w(f"- RAM latency: {ns:.1f} ns" + (f" = {cyc:.0f} core cycles" if cyc else ""))
    m = val(get(p, "mlp", "m"))
    if m: w(f"- memory-level parallelism m: {m:g}")
    roofs = get(p, "roofs", "compute")
    if isinstance(roofs, list):
        for r in roofs:
            g = val(get(r, "GFLOPs"))
            t = r.get("threads")
            if g: w(f"- compute roof {r.get('name', '')}" + (f" ({t} thread{'s' if t != 1 else ''})" if t else "")
                    + f": {g:.1f} GFLOP/s")
    bw = get(p, "bandwidth")
    if isinstance(bw, list):
        best = {}
        for b in bw:
            if not isinstance(b, dict): continue
            g = val(b.get("GBps"))
            key = (str(b.get("level", "?")), b.get("threads"))
            if g and g > best.get(key, 0): best[key] = g
        if best:
            w("- bandwidth (best op, GB/s): " + ", ".join(
                f"{lv} {g:.1f} ({t} thread{'s' if t != 1 else ''})" for (lv, t), g in best.items()))
else:
    w("- no hardware profile (see *Missing* below)")
w("")

# ---- settings
r0 = load(f"json/{kernels[0]}.json")
w("## How the kernels were analysed\n")
w(f"Each kernel was run under QEMU with `edan trace`, scoped to its kernel function, with two "
  f"configurations analysed in the same pass ({settings}):\n")
w("| # | configuration | caches (size / ways / line / hit latency) | alpha (cycles) | clock (GHz) | m |")
w("|---|---|---|---|---|---|")
for i, c in enumerate(r0["configs"]):
    caches = ", ".join(f"L{l['level']} {l['size']//1024} KiB / {l['assoc']} / {l['line']} B / {l['latency']}"
                       for l in c.get("cache", [])) or "none (every access reaches RAM)"
    w(f"| {i} | {c['name']} | {caches} | {c['alpha']} | {fmt(c['freq_ghz'])} | {', '.join(c['m'].keys())} |")
w("")
w("| kernel | problem size | scope | tau (cycles) | instructions |")
w("|---|---|---|---|---|")
for k, size, tau, sopt, sname in kinfo:
    r = load(f"json/{k}.json")
    w(f"| {k} | {size} | `{sopt} {sname}` | {tau} | {num(r['configs'][0]['instructions'], 'int')} |")
w("")

# ---- verdicts
w("## Verdicts\n")
w("Each kernel's verdict on this machine (configuration 0), as `edan` prints it above its report: "
  "how many of its RAM accesses wait for an earlier RAM access, how many RAM round trips lie in a row "
  "on its longest chain, and what 100 ns more RAM latency would add at least and at most "
  "(README.md of the repository, *Reading the verdict*).\n")
w("| kernel | verdict |")
w("|---|---|")
for k in kernels:
    v = load(f"json/{k}.json")["configs"][0].get("verdict", {})
    w(f"| {k} | {v.get('text', 'n/a')} |")
w("")

# ---- rankings
w(f"## Ranking by memory-latency sensitivity (m = {M})\n")
w("λ = (W − D)/m + D: how many RAM latencies the worst-case time grows by per cycle of added latency "
  "(absolute); Λ = λ/(λ·α₀ + C): the same relative to the kernel's time. The paper ranks with λ "
  "(Fig. 11) and Λ (Fig. 12); Λ ranks well only where W/C is large (≥ 0.3 in the paper).\n")
w("λ is absolute: a big streaming kernel whose many RAM accesses are independent still adds W/m RAM "
  "latencies to its worst case, so it can outrank a pointer chase whose every access waits for the one "
  "before; Λ divides by the kernel's own time, and there the chase, which does little but wait for RAM, "
  "is the most latency-bound.\n")
for c in (0, 1):
    path = f"ranking-{c}.json"
    if not os.path.exists(os.path.join(rep, path)):
        continue
    rk = load(path)
    name = r0["configs"][c]["name"] if c < len(r0["configs"]) else str(c)
    w(f"### Configuration {c}: {name}\n")
    bl = {a["name"]: a["rank"] for a in rk["by_lambda"]}
    bL = {a["name"]: a["rank"] for a in rk["by_Lambda"]}
    w("| rank by λ | kernel | W | D | C | λ | Λ | W/C | rank by Λ |")
    w("|---|---|---|---|---|---|---|---|---|")
    for a in rk["by_lambda"]:
        wc = a['W_over_C']
        w(f"| {a['rank']} | {a['name']} | {num(a['W'], 'int')} | {num(a['D'], 'int')} | {num(a['C'], 'int')} | "
          f"{num(a['lambda'], 'fix2')} | {num(a['Lambda'], 'sig')} | {wc:.3g}{'' if wc >= 0.3 else ' (< 0.3)'} | "
          f"{bL.get(a['name'], '?')} |")
    w(f"\n(`edan rank --m {M} --config {c}`: [`ranking-{c}.txt`](ranking-{c}.txt), [`ranking-{c}.json`](ranking-{c}.json))\n")
if not os.path.exists(os.path.join(rep, "ranking-0.json")):
    w("No ranking (see *Missing*).\n")

# ---- what-if
w(f"## What-if: RAM {add_ns} ns farther (m = {M})\n")
w("The time bounds at the far latency are exact (W, D, the layers and C do not depend on alpha): "
  "the upper bound grows by exactly λ × Δα. The increase column is edan's (`what_if` in each report); "
  "the λ × Δα column is computed here from λ and the two latencies, as a check.\n")
w("| kernel | configuration | α → α far (cycles) | T_upper (cycles) | T_upper far (cycles) | "
  "increase (edan) | λ × Δα (here) | slowdown |")
w("|---|---|---|---|---|---|---|---|")
for k in kernels:
    r = load(f"json/{k}.json")
    for c in r["configs"]:
        wi = c.get("what_if")
        if not wi or M not in wi["m"]: continue
        far = wi["m"][M]
        base = c["m"][M]["T_upper"]
        lam_da = c["m"][M]["lambda"] * (wi["alpha_far_cycles"] - wi["alpha_cycles"])
        w(f"| {k} | {c['name']} | {wi['alpha_cycles']} → {num(wi['alpha_far_cycles'], 'sig')} | {num(base, 'int')} | "
          f"{num(far['T_upper'], 'int')} | {num(far['delta_T_upper'], 'int')} | {num(lam_da, 'int')} | "
          f"{far['slowdown_upper']:.4f}× |")
w(f"\nThe 0..250 ns sweeps, every configuration and m: `sweep/KERNEL.csv`.\n")

# ---- charts
w("## Charts\n")
if roofline:
    w(f"### Roofline of this machine with the kernels\n")
    if roof_note: w(roof_note + "\n")
    w(f"![roofline]({roofline})\n")
titles = {"whatif": f"Slowdown of every kernel against the added RAM latency (configuration 0, m = {M})"}
if "whatif" in plots:
    w(f"### What-if\n\n{titles['whatif']}:\n\n![what-if](svg/whatif.svg)\n")
for p in plots:
    if p.startswith("whatif-"):
        w(f"Upper time bound of {p[7:]} against the added latency, every configuration and m (log scale):\n\n"
          f"![{p}](svg/{p}.svg)\n")
dm = [p for p in plots if p.startswith("dm-")]
if dm:
    w("### Data movement over time\n")
    w("Bytes moved to or from RAM by the memory accesses under way at each time (U_i of the model, "
      "τ-cycle phases of the ASAP schedule with unbounded parallelism), one line per configuration, "
      "as in the EDAN paper's Fig. 9 and 15.\n")
    for p in dm:
        if p == "dm-fig9-lu":
            w("lu at N = 64 without caches, RAM accesses 200 cycles, other instructions 1 cycle, τ = 1 cycle: "
              "the setting of the paper's Fig. 9 (`json/fig9-lu.json`), to compare with it: bursts of data "
              "movement that shrink as the factorisation proceeds.\n")
        else:
            log = any(d == p[3:] + ":log" for d in dm_specs)
            w(f"{p[3:]} with the configurations of the ranking (`json/{p[3:]}.json`)"
              + (", log scale (zero on the bottom edge)" if log else "") + ":\n")
        w(f"![{p}](svg/{p}.svg)\n")
if not roofline and not plots:
    w("No charts (see *Missing*).\n")

# ---- missing, timings, commands
missing = [l for l in open(os.path.join(rep, "logs/missing.txt")).read().splitlines() if l]
if missing:
    w("## Missing\n")
    for m in missing: w(f"- {m}")
    w("")
w("## Time taken\n")
w("| step | seconds |")
w("|---|---|")
for l in open(os.path.join(rep, "logs/steps.txt")).read().splitlines():
    if l:
        s, what = l.split("|", 1)
        w(f"| {what} | {s} |")
w("")
w("## Commands\n")
w("Run from the repository root after `make` and `make examples` (the same as [`commands.sh`](commands.sh)):\n")
w("```sh")
for l in open(os.path.join(rep, "commands.sh")).read().splitlines():
    if l.startswith("#!") or l == "set -e": continue
    w(l)
w("```")
tmp = os.path.join(rep, "README.md.tmp")
with open(tmp, "w") as f:
    f.write("\n".join(out) + "\n")
os.replace(tmp, os.path.join(rep, "README.md"))
EOF
say "done: $REPORT/README.md"
