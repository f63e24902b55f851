#!/usr/bin/env bash
# edan trace --sample PERIOD:LENGTH and --skip N: windows of LENGTH
# instructions of the scope analysed out of every PERIOD, the rest run
# without analysis callbacks.
#  - steady kernels (RISC-V triad and gemm, x86-64 triad, a triad of two
#    threads): the full run's W lies in the interval the sampled run prints,
#    the windows cover about LENGTH/PERIOD of the instructions, and the
#    count of the scope's instructions is the full run's (threads: within
#    10^-4, their spinning varies);
#  - --skip N: the analysis starts after N instructions of the scope (its
#    instructions plus N are the full run's, within a few blocks); alone, the
#    report says SKIPPED; past the run's end, exit 1 and why;
#  - a chain cut into windows: D is a lower bound, each window's D its own
#    loads (every writer forgotten at its start); SIGINT between windows
#    still gives the partial report;
#  - what --sample cannot do is refused: LENGTH >= PERIOD, a trace file,
#    --region, a program with markers (without --no-markers).
. "$(dirname "$0")/../lib.sh"
E=./edan
field() { python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); s = r.get("sampled") or {}; c = r["configs"][0]
for k in sys.argv[2:]:
    v = r
    for p in k.split("."): v = v[int(p)] if isinstance(v, list) else v[p]
    print(v)' "$@"; }
gcc -O2 -Iexamples -o "$T/triad.x86" examples/triad.c || { bad "cannot build triad for x86-64"; exit 1; }
gcc -O2 -o "$T/stopme" tests/cmd/stopme.c || { bad "cannot build stopme"; exit 1; }

# compare NAME SAMPLE FUNC PROGRAM ARGS...: the full run's W within the sampled run's interval
compare() {
  local name=$1 sample=$2 func=$3; shift 3
  $E trace --no-profile --quiet --json -o "$T/full.json" --func "$func" -- "$@" > /dev/null 2> "$T/full.err" ||
    { bad "$name: the full run failed: $(tail -2 "$T/full.err")"; return; }
  $E trace --no-profile --quiet --json -o "$T/s.json" --sample "$sample" --func "$func" -- "$@" > /dev/null 2> "$T/s.err" ||
    { bad "$name: the sampled run failed: $(tail -2 "$T/s.err")"; return; }
  python3 - "$T/full.json" "$T/s.json" "$sample" "$name" <<'PY' && ok "$(cat "$T/msg")" || bad "$(cat "$T/msg")"
import json, sys
f, s = (json.load(open(p)) for p in sys.argv[1:3])
period, length = (float(x.replace("M", "e6").replace("k", "e3")) for x in sys.argv[3].split(":"))
fc, sm = f["configs"][0], s["sampled"]
insns = fc.get("machine_instructions", f.get("machine_instructions")) or fc["instructions"]
W, est = fc["W"], sm["W"]
share = sm["analysed"] / sm["instructions"]
msg = ("%s --sample %s: the full run's W %d in [%.0f, %.0f] (estimate %.0f, %d windows, %.1f%% analysed, %d of %d instructions counted)"
       % (sys.argv[4], sys.argv[3], W, est["low"], est["high"], est["estimate"], sm["windows"], 100 * share, sm["instructions"], insns))
good = (est["low"] <= W <= est["high"] and abs(est["estimate"] - W) <= 0.05 * W and abs(sm["instructions"] - insns) <= 1e-4 * insns
        and abs(share - length / period) < 0.03 and sm["windows"] >= 2 and not s["partial"])
print(msg, file=open(__import__("os").environ["T"] + "/msg", "w"))
sys.exit(0 if good else 1)
PY
}
export T
compare "RISC-V triad 2M" 2M:200k kernel_triad build/examples/triad 2000000
compare "RISC-V gemm 100" 1M:100k kernel_gemm build/examples/gemm 100
compare "x86-64 triad 2M" 2M:200k kernel_triad "$T/triad.x86" 2000000
OMP_NUM_THREADS=2 compare "RISC-V triad of 2 threads" 1M:100k kernel_triad build/examples/omp_triad 1000000
grep -q "stood still" "$T/s.err" && bad "2 threads: a thread waited for the analysis at a switch: $(cat "$T/s.err")" \
  || ok "2 threads: no thread stood still at the windows' switches"

# the text report says so
$E trace --no-profile --quiet --sample 2M:200k --func kernel_triad -- build/examples/triad 1000000 > "$T/r.txt" 2>&1
grep -q "^SAMPLED: 5 windows of 200000 instructions of the scope every 2000000" "$T/r.txt" && grep -q "^  D: at least 2" "$T/r.txt" \
  && ok "the text report: SAMPLED, the windows, D at least 2" || bad "text report: $(grep -A3 SAMPLED "$T/r.txt")"

# --skip
$E trace --no-profile --quiet --json -o "$T/full.json" --func kernel_triad -- build/examples/triad 2000000 > /dev/null 2>&1
total=$(field "$T/full.json" configs.0.instructions)
$E trace --no-profile --quiet --json -o "$T/k.json" --skip 9M --func kernel_triad -- build/examples/triad 2000000 > /dev/null 2>&1
read -r got win all < <(field "$T/k.json" configs.0.instructions sampled.windows sampled.instructions | tr '\n' ' ')
if [ "$all" = "$total" ] && [ "$win" = 1 ] && [ $((got + 9000000)) -le "$total" ] && [ $((got + 9000000)) -ge $((total - 1000)) ]; then
  ok "--skip 9M: $got of $total instructions analysed, from the 9,000,000th on"
else
  bad "--skip 9M: $got analysed of $total ($all counted, $win windows)"
fi
$E trace --no-profile --quiet --json -o "$T/k.json" --skip 5M --sample 4M:400k --func kernel_triad -- build/examples/triad 2000000 > /dev/null 2>&1
first=$(field "$T/k.json" sampled.listed.0.start)
[ "$first" -ge 5000000 ] && [ "$(field "$T/k.json" sampled.windows)" = 4 ] && ok "--skip 5M --sample 4M:400k: the first window at $first, 4 windows" \
  || bad "--skip with --sample: first window at $first, $(field "$T/k.json" sampled.windows) windows"

$E trace --no-profile --skip 5000 -- build/examples/triad 1000 > "$T/k.txt" 2>&1
grep -q "^SKIPPED: the first 5000 instructions of the scope ran without analysis" "$T/k.txt" \
  && ok "--skip alone: the text report says SKIPPED" || bad "--skip alone: $(grep -m1 -E "SKIPPED|SAMPLED" "$T/k.txt")"
$E trace --no-profile --quiet --skip 1G --func kernel_triad -- build/examples/triad 1000 > /dev/null 2> "$T/k.err"; rc=$?
[ $rc = 1 ] && grep -q "ended before --skip's instructions" "$T/k.err" && ok "--skip past the run's end: exit 1, said" \
  || bad "--skip past the end: exit $rc, $(cat "$T/k.err")"

# a chain cut into windows; SIGINT between windows
rm -f "$T/ready"
$E trace --no-profile --quiet --json -o "$T/c.json" --sample 4M:1M --func chase -- "$T/stopme" chase "$T/ready" > /dev/null 2> "$T/c.err" &
pid=$!
for k in $(seq 600); do [ -e "$T/ready" ] && break; sleep 0.1; done
sleep 2; kill -INT $pid; wait $pid; rc=$?
python3 - "$T/c.json" <<'PY' && ok "a chain in windows of 1M instructions: $(cat "$T/msg")" || bad "chain: exit $rc, $(cat "$T/msg") $(tail -2 "$T/c.err")"
import json, os, sys
r = json.load(open(sys.argv[1])); s = r["sampled"]
full = [w for w in s["listed"] if w["instructions"] >= 1000000]
msg = "%d windows, each whole one's D = its W (%s), the run's D at least %d; partial: %s" % (
    s["windows"], ", ".join(str(w["D"]) for w in full[:3]), s["D_lower_bound"], r["partial"])
open(os.environ["T"] + "/msg", "w").write(msg)
sys.exit(0 if r["partial"] and full and all(w["D"] == w["W"] for w in full) and s["D_lower_bound"] == max(w["D"] for w in s["listed"]) else 1)
PY

# refused
while IFS='|' read -r args want; do
  $E trace --no-profile --quiet $args -- build/examples/triad 1000 > /dev/null 2> "$T/e.err"; rc=$?
  [ $rc = 2 ] && grep -q -- "$want" "$T/e.err" && ok "refused: $args (exit 2: $(head -1 "$T/e.err" | cut -c1-90))" \
    || bad "$args: exit $rc, $(cat "$T/e.err")"
done <<'EOF2'
--sample 1M:1M|LENGTH must be smaller than PERIOD
--sample 1M|expected PERIOD:LENGTH
--sample 1M:0|positive whole numbers
--skip 0|positive whole number
--sample 1M:100k --text /dev/null|write no trace
--sample 1M:100k --region kernel_triad|--region and --exclude
EOF2
$E trace --no-profile --quiet --sample 1M:100k -- build/examples/markers > /dev/null 2> "$T/e.err"; rc=$?
[ $rc = 2 ] && grep -q "no-markers" "$T/e.err" && ok "refused: a program with markers, without --no-markers (exit 2)" \
  || bad "markers: exit $rc, $(cat "$T/e.err")"
exit $fail
