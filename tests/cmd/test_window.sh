#!/usr/bin/env bash
# The windowed schedule through the command line (README.md, "The windowed
# schedule"): the model page's worked checks from text traces, its options
# and their errors, where the window comes from (default, option, profile,
# off), and traced programs on both ISAs and with threads.
. "$(dirname "$0")/../lib.sh"

# jget FILE EXPR: a Python expression over the report r
jget() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# --- the page's checks: a chain of 100 dependent RAM loads: lambda_window
# 100; 1,000 independent loads one every 8 instructions with R 192, LQ 32:
# about 1000/16 at m 16, 1000/24 at m 64 (the window holds 24); one every
# 400: 1,000 (the window never holds two)
python3 -c "
for i in range(100): print(f'ld a0,0(a0);{0x10000 + 64 * i:#x}')" > "$T/chain.txt"
./edan analyze --json "$T/chain.txt" > "$T/chain.json" \
  && [ "$(jget "$T/chain.json" 'r["configs"][0]["m"]["4"]["lambda_window"]')" = 100 ] \
  && [ "$(jget "$T/chain.json" 'r["configs"][0]["m"]["4"]["T_window"]')" = 20000 ] \
  && ok "a chain of 100 RAM loads: lambda_window 100, T_window 100 x 200" \
  || bad "the chain: $(jget "$T/chain.json" 'r["configs"][0]["m"]')"
spaced() {  # spaced GAP N: N independent loads, GAP - 1 other instructions after each
  python3 -c "
import sys
gap, n = int(sys.argv[1]), int(sys.argv[2])
for i in range(n):
    print(f'ld a1,0(a2);{0x100000 + 8 * i:#x}')
    for f in range(1, gap): print(f'addi t{f % 4},t{f % 4},1')" "$@"
}
spaced 8 1000 > "$T/gap8.txt"
spaced 400 200 > "$T/gap400.txt"
for c in "gap8 16 62.5 2" "gap8 64 41.7 2" "gap400 16 200 0"; do
  set -- $c
  ./edan analyze --json --m "$2" "$T/$1.txt" > "$T/g.json" || { bad "$1 at m $2: no report"; continue; }
  lw=$(jget "$T/g.json" "r['configs'][0]['m']['$2']['lambda_window']")
  python3 -c "import sys; sys.exit(abs($lw - $3) > $4)" && ok "$1 at m $2: lambda_window $lw (the page: about $3)" \
    || bad "$1 at m $2: lambda_window $lw, expected $3 +- $4"
done

# --- where the window comes from, and what the options say
jwin() { jget "$1" 'r["configs"][0]["window"]'; }
./edan analyze --json "$T/chain.txt" > "$T/d.json"
[ "$(jwin "$T/d.json")" = "{'rob': 192, 'lq': 32, 'sq': 32, 'width': 8, 'm': 4, 'source': 'default'}" ] \
  && ok "no profile: the page's window (192, 32, 32, 8) at the verdict's m, source default" || bad "default window: $(jwin "$T/d.json")"
./edan analyze --json --window 100 --lq 10 --sq 12 --width 4 "$T/chain.txt" > "$T/o.json"
[ "$(jwin "$T/o.json")" = "{'rob': 100, 'lq': 10, 'sq': 12, 'width': 4, 'm': 4, 'source': 'option'}" ] \
  && ok "--window 100 --lq 10 --sq 12 --width 4: source option" || bad "options: $(jwin "$T/o.json")"
for opt in "--window 0" "--paper"; do
  ./edan analyze --json $opt "$T/chain.txt" > "$T/off.json"
  [ "$(jwin "$T/off.json")" = "{'source': 'off'}" ] && [ "$(jget "$T/off.json" '"T_window" in r["configs"][0]["m"]["4"]')" = False ] \
    && [ "$(jget "$T/off.json" 'r["configs"][0]["verdict"]["from"]')" = bounds ] \
    && ok "$opt: no windowed schedule, the verdict from the bounds" || bad "$opt: $(jwin "$T/off.json")"
done
./edan analyze --json --window-all-m --m 1,4,8 "$T/gap8.txt" > "$T/all.json"
[ "$(jget "$T/all.json" '[r["configs"][0]["m"][m].get("lambda_window") is not None for m in ("1", "4", "8")]')" = "[True, True, True]" ] \
  && ok "--window-all-m: lambda_window at every m" || bad "--window-all-m: $(jget "$T/all.json" 'r["configs"][0]["m"]')"
./edan analyze --json --m 1,4,8 "$T/gap8.txt" > "$T/one.json"
[ "$(jget "$T/one.json" '[m for m in ("1", "4", "8") if "lambda_window" in r["configs"][0]["m"][m]]')" = "['4']" ] \
  && ok "without it: at the verdict's m alone (4)" || bad "window at one m: $(jget "$T/one.json" 'r["configs"][0]["m"]')"
./edan analyze --json --window 50 --config=big --window 400 "$T/gap8.txt" > "$T/two.json"
[ "$(jget "$T/two.json" '[c["window"]["rob"] for c in r["configs"]]')" = "[50, 400]" ] \
  && ok "--window per configuration" || bad "per configuration: $(jget "$T/two.json" '[c["window"] for c in r["configs"]]')"
for bad_opt in "--window x" "--window 70000" "--lq 0" "--sq -1" "--width 0"; do
  ./edan analyze $bad_opt "$T/chain.txt" > /dev/null 2> "$T/err"; rc=$?
  name=${bad_opt%% *}
  [ $rc = 2 ] && grep -q -- "$name" "$T/err" && ok "$bad_opt: exit 2, said ($(head -c 80 "$T/err"))" \
    || bad "$bad_opt: exit $rc, $(cat "$T/err")"
done
./edan analyze --window 8 --lq 2 --sq 2 --width 1 "$T/gap8.txt" | grep -q "T window (cycles)" \
  && ok "the text report shows T window first" || bad "no T window row in the text report"

# --- the sweep: the window's time along today's critical path at each added latency
./edan analyze --sweep "$T/sw.csv" "$T/chain.txt" > /dev/null && python3 - "$T/sw.csv" "$T/chain.json" <<'EOF' \
  && ok "--sweep: T_window_lower = c + lambda_window x alpha at m 4, empty at the other m's" || bad "sweep: $(head -3 "$T/sw.csv")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
m4 = json.load(open(sys.argv[2]))["configs"][0]["m"]["4"]
for r in rows:
    if r["m"] == "4":
        want = (m4["T_window"] - 100 * 200) + 100 * float(r["alpha_cycles"])
        assert abs(float(r["T_window_lower"]) - want) < 1e-9 * want, (r, want)
        assert abs(float(r["slowdown_window"]) - want / m4["T_window"]) < 1e-9, r
    else:
        assert r["T_window_lower"] == "" and r["slowdown_window"] == "", r
EOF

# --- the roofline's model point: flops over T_window at the report's clock (one
# point, not the bounds' range, whose C adds every instruction's cost)
./edan trace --quiet --json -o "$T/gemm.json" --no-profile --func kernel_gemm -- build/examples/gemm 16 > /dev/null \
  && ./edan roofline hwprofiles/vm.json --app "$T/gemm.json" -o "$T/g.svg" 2> /dev/null \
  && python3 - "$T/gemm.json" "$T/g.svg" <<'EOF' && ok "roofline --app: the model point is flops x GHz / T_window" || bad "roofline model point: $(grep -o 'data-label="gemm"[^>]*' "$T/g.svg")"
import json, re, sys
c = json.load(open(sys.argv[1]))["configs"][0]
want = c["flops"] * c["freq_ghz"] / c["m"]["4"]["T_window"]
lo, hi = map(float, re.search(r'data-label="gemm" data-ai="[^"]*" data-gflops-lo="([^"]*)" data-gflops-hi="([^"]*)"', open(sys.argv[2]).read()).groups())
assert abs(lo - want) <= 1e-5 * want and lo == hi, (lo, hi, want)
EOF

./edan analyze --json --alpha-add 50 "$T/chain.txt" > "$T/wi.json" && python3 - "$T/wi.json" <<'EOF' \
  && ok "--alpha-add: the window's time along today's critical path at the far latency, and its growth" || bad "what-if: $(jget "$T/wi.json" 'r["configs"][0]["what_if"]')"
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
wi, m4 = c["what_if"], c["m"]["4"]
x = wi["m"]["4"]
assert abs(x["delta_T_window"] - m4["lambda_window"] * (wi["alpha_far_cycles"] - wi["alpha_cycles"])) < 1e-9, x
assert abs(x["T_window_lower"] - (m4["T_window"] + x["delta_T_window"])) < 1e-9, x
assert "T_window_lower" not in wi["m"]["1"], wi["m"]["1"]
EOF

# --- from the profile: its "window" section (probe's measure)
python3 -c "
import json
p = json.load(open('hwprofiles/vm.json'))
p['window'] = {'rob': 481, 'lq': 190, 'sq': 143, 'width': 6}
json.dump(p, open('$T/prof.json', 'w'), indent=1)"
./edan analyze --json --profile "$T/prof.json" "$T/chain.txt" > "$T/p.json"
w=$(jwin "$T/p.json")
case "$w" in
  "{'rob': 481, 'lq': 190, 'sq': 143, 'width': 6, "*"'source': 'profile'}") ok "the profile's window: 481, 190, 143, 6, source profile" ;;
  *) bad "the profile's window: $w" ;;
esac
./edan analyze --json --profile "$T/prof.json" --window 64 "$T/chain.txt" > "$T/p2.json"
case "$(jwin "$T/p2.json")" in
  "{'rob': 64, 'lq': 190, 'sq': 143, 'width': 6, "*"'source': 'option'}") ok "--window over a profile's: the option's R, the profile's queues and width" ;;
  *) bad "--window over the profile: $(jwin "$T/p2.json")" ;;
esac
jget "$T/p.json" 'r["configs"][0]["provenance"]' | grep -q "window: profile" \
  && ok "the provenance says window: profile" || bad "provenance: $(jget "$T/p.json" 'r["configs"][0]["provenance"]')"

# --- traced programs: the chase, RISC-V and x86-64, with no cache: every
# load waits for the one before, so the window's critical path holds the
# chain: lambda_window >= D, and the two ISAs agree within 1%; two threads
for isa in examples examples-host; do
  ./edan trace --quiet --json -o "$T/$isa.json" --no-profile --func kernel_chase -- build/$isa/chase 2048 > /dev/null 2> "$T/err" \
    || { bad "trace chase ($isa): $(tail -n 2 "$T/err")"; continue; }
  python3 - "$T/$isa.json" <<'EOF' && ok "chase ($isa): D <= lambda_window <= W" || bad "chase ($isa): $(jget "$T/$isa.json" 'r["configs"][0]["m"]["4"]')"
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
lw = c["m"]["4"]["lambda_window"]
assert c["D"] <= lw <= c["W"], (c["D"], lw, c["W"])
EOF
done
python3 -c "
import json, sys
a, b = [json.load(open(f))['configs'][0]['m']['4']['lambda_window'] for f in sys.argv[1:]]
sys.exit(abs(a - b) > 0.01 * max(a, b))" "$T/examples.json" "$T/examples-host.json" \
  && ok "chase: RISC-V and x86-64 lambda_window within 1%" \
  || bad "chase across ISAs: $(jget "$T/examples.json" 'r["configs"][0]["m"]["4"]["lambda_window"]') vs $(jget "$T/examples-host.json" 'r["configs"][0]["m"]["4"]["lambda_window"]')"
OMP_NUM_THREADS=2 ./edan trace --quiet --json -o "$T/omp.json" --no-profile --func kernel_triad -- build/examples/omp_triad 20000 > /dev/null 2> "$T/err" \
  && python3 - "$T/omp.json" <<'EOF' && ok "omp_triad, 2 threads: a window each, T_window and 0 <= lambda_window <= W" || bad "omp_triad: $(tail -n 2 "$T/err")"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["configs"][0]
assert len(r["threads"]) >= 2, r["threads"]
assert c["m"]["4"]["T_window"] > 0 and 0 <= c["m"]["4"]["lambda_window"] <= c["W"], c["m"]["4"]
EOF
exit $fail
