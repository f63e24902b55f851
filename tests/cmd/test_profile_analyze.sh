#!/usr/bin/env bash
# The analyzer with a hardware profile: caches, alpha, m and the clock come
# from the profile, explicit options win, the report says where each came
# from; a bigger cache does not raise W; a larger alpha scales the memory
# bounds; --remote needs the profile's NUMA matrix; what probe's checks of
# the profile found (failed checks, unstable figures) is in the provenance
# and under edan roofline's chart, a failed check also on stderr.
. "$(dirname "$0")/../lib.sh"
P=hwprofiles/vm.json
cc -O2 -o "$T/gen" tests/gen_trace.c && "$T/gen" 300000 4000000 > "$T/t.txt" || exit 1
python3 - "$P" "$T/big.json" "$T/slow.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
big = json.loads(json.dumps(p))
for c in big["caches"]:          # twice the ways and size, same sets: LRU never misses more
    c["assoc"] = (c["assoc"] or 16) * 2
    c["size_bytes"] *= 2
    c["effective_bytes"] *= 2
json.dump(big, open(sys.argv[2], "w"))
slow = json.loads(json.dumps(p))
for e in slow["latency"]:
    if e["level"] == "DRAM":
        e["ns"] *= 2; e["cycles"] *= 2; e["ns_min"] *= 2; e["ns_max"] *= 2
json.dump(slow, open(sys.argv[3], "w"))
PY
for f in "$P" "$T/big.json" "$T/slow.json"; do
  ./edan analyze --json --quiet --profile "$f" "$T/t.txt" > "$T/$(basename "$f").out" || bad "analyze --profile $f"
done
./edan analyze --json --quiet --profile "$P" --alpha 1000 --freq 2 "$T/t.txt" --config --no-cache > "$T/over.json" || bad "override"
python3 - "$P" "$T" <<'PY' && ok "profile values used, options override, provenance reported, bigger cache W <= , larger alpha scales the bounds" || bad "profile semantics"
import json, sys
prof, d = json.load(open(sys.argv[1])), sys.argv[2]
base = json.load(open(d + "/vm.json.out"))
c = base["configs"][0]
dram = [e for e in prof["latency"] if e["level"] == "DRAM"][0]
assert c["alpha"] == round(dram["cycles"]), (c["alpha"], dram["cycles"])
assert len(c["cache"]) == len(prof["caches"])
assert [x["line"] for x in c["cache"]] == [x["line_bytes"] for x in prof["caches"]]
assert str(prof["mlp"]["m"]) in c["m"], c["m"].keys()
assert "alpha: profile" in c["provenance"] and "caches: profile" in c["provenance"]
big = json.load(open(d + "/big.json.out"))["configs"][0]
assert big["W"] <= c["W"], (big["W"], c["W"])
slow = json.load(open(d + "/slow.json.out"))["configs"][0]
assert slow["W"] == c["W"] and slow["D"] == c["D"] and slow["C"] == c["C"]
for m in c["m"]:
    assert abs(slow["m"][m]["M_upper"] / slow["alpha"] - c["m"][m]["M_upper"] / c["alpha"]) < 1e-6 * c["m"][m]["lambda"] + 1e-9
    assert slow["m"][m]["T_upper"] > c["m"][m]["T_upper"] or c["W"] == 0
over = json.load(open(d + "/over.json"))["configs"]
assert over[0]["alpha"] == 1000 and over[0]["freq_ghz"] == 2 and "alpha: option" in over[0]["provenance"]
assert over[1]["cache"] == [] and over[1]["alpha"] == 1000 and "caches: option" in over[1]["provenance"]
PY
./edan analyze --profile "$P" --remote 1 "$T/t.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no NUMA latency matrix" "$T/err" && ok "--remote on a one-node profile says why" || bad "--remote: rc=$rc $(cat "$T/err")"
./edan analyze --remote 1 "$T/t.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "needs --profile" "$T/err" && ok "--remote without --profile refused" || bad "--remote alone rc=$rc"
head -c 200 "$P" > "$T/trunc.json"
./edan analyze --profile "$T/trunc.json" "$T/t.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "trunc.json:[0-9]*:" "$T/err" && ok "a truncated profile: FILE:LINE message" || bad "truncated profile rc=$rc $(cat "$T/err")"
# --- applications on the roofline: AI and the performance range from a report -----
./edan analyze --json --quiet --profile "$P" "$T/t.txt" > "$T/app.json" || bad "app report"
./edan roofline "$P" --app "$T/app.json" --app "$T/app.json:0.001" -o "$T/rl.svg" || bad "roofline --app"
python3 - "$T/rl.svg" "$T/app.json" <<'PY' && ok "roofline --app: the SVG parses and names the application twice, the model's point as (model)" || bad "roofline --app svg"
import json, sys, xml.etree.ElementTree as E
svg = E.parse(sys.argv[1]).getroot()
texts = [t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text")] + [t.text or "" for t in svg.iter("text")]
c = json.load(open(sys.argv[2]))["configs"][0]
assert c["flops"] > 0 and abs(c["arithmetic_intensity"] - c["flops"] / (c["load_bytes"] + c["store_bytes"])) < 1e-12
# the point from the model says so; the one with a measured runtime does not (and
# has the model's point beside it); all named as edan rank names the report (the
# trace's name without .txt)
assert sum(1 for t in texts if t.strip() == "t (model)") == 2, texts
assert sum(1 for t in texts if t.strip() == "t") == 1, texts
PY
# --- this machine's own profile, used without --profile ----------------------
H=$(hostname)
mkdir -p "$T/xdg/edan/hwprofiles" "$T/sys/edan/hwprofiles"
XDG_DATA_HOME="$T/empty" XDG_DATA_DIRS=/nonexistent ./edan analyze --json --quiet "$T/t.txt" > "$T/none.json" || bad "analyze with no profile anywhere"
cp "$T/slow.json" "$T/sys/edan/hwprofiles/$H.json"
XDG_DATA_HOME="$T/empty" XDG_DATA_DIRS="relative:/nonexistent:$T/sys" ./edan analyze --json --quiet "$T/t.txt" > "$T/sys.json" || bad "analyze, system profile"
cp "$P" "$T/xdg/edan/hwprofiles/$H.json"
XDG_DATA_HOME="$T/xdg" XDG_DATA_DIRS="$T/sys" ./edan analyze --json --quiet "$T/t.txt" > "$T/own.json" || bad "analyze, own profile"
XDG_DATA_HOME="$T/xdg" ./edan analyze --quiet "$T/t.txt" > "$T/own.txt" || bad "analyze, own profile, text"
XDG_DATA_HOME="$T/xdg" XDG_DATA_DIRS="$T/sys" ./edan analyze --json --quiet --no-profile "$T/t.txt" > "$T/nop.json" || bad "analyze --no-profile"
XDG_DATA_HOME="$T/xdg" ./edan analyze --json --quiet --profile "$T/big.json" "$T/t.txt" > "$T/given.json" || bad "analyze --profile with an own profile"
python3 - "$T" "$H" <<'PY' && ok "without --profile: this machine's own (XDG_DATA_HOME before XDG_DATA_DIRS), said in the provenance; --no-profile and --profile win" || bad "default profile"
import json, sys
d, host = sys.argv[1], sys.argv[2]
L = lambda n: json.load(open(f"{d}/{n}"))
none, sysp, own, nop, given = L("none.json"), L("sys.json"), L("own.json"), L("nop.json"), L("given.json")
ref, slow, big = L("vm.json.out"), L("slow.json.out"), L("big.json.out")
assert "profile" not in none and none["configs"][0]["cache"] == [], none.get("profile")
assert sysp["profile"] == f"{d}/sys/edan/hwprofiles/{host}.json" and sysp["profile_default"] is True
assert sysp["configs"][0]["alpha"] == slow["configs"][0]["alpha"] != ref["configs"][0]["alpha"]
assert own["profile"] == f"{d}/xdg/edan/hwprofiles/{host}.json" and own["profile_default"] is True
for k in ("alpha", "W", "D", "cache"):
    assert own["configs"][0][k] == ref["configs"][0][k], k
assert "profile" not in nop and nop["configs"][0] == none["configs"][0]
assert given["profile_default"] is False and given["configs"][0]["W"] == big["configs"][0]["W"]
PY
grep -q "this machine's own, used without --profile; --no-profile to go without" "$T/own.txt" \
  && ok "the report says the profile was found without --profile" || bad "report: $(grep -A1 'come from' "$T/own.txt")"
./edan analyze --no-profile --profile "$P" "$T/t.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "give one" "$T/err" && ok "--no-profile with --profile refused" || bad "--no-profile --profile rc=$rc $(cat "$T/err")"
# --- probe's checks of the profile: in the provenance line, never silently used ---
python3 - "$P" "$T/checked.json" "$T/passed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
res = [{"check": "flops_per_cycle", "figure": "avx512 fma 1 thread(s)", "passed": False, "value": 96.1, "limit": 32,
        "retries": 2, "figures": {"GFLOPs": 111.5, "threads": 1, "clock_ghz": 1.16}},
       {"check": "latency_order", "figure": "L1 < L2", "passed": True, "value": 1.5, "limit": 4.2, "retries": 0,
        "figures": {"L1": 1.5, "L2": 4.2}}]
d["checks"] = {"count": 2, "failed": 1, "results": res}
d["stability"] = {"threshold": 0.1, "figures": 63, "unstable": [{"figure": "core clock"}]}
json.dump(d, open(sys.argv[2], "w"))
res[0]["passed"] = True
del d["stability"]
json.dump(d, open(sys.argv[3], "w"))
PY
./edan analyze --json --quiet --profile "$T/checked.json" "$T/t.txt" > "$T/checked.out" 2> "$T/err" || bad "analyze, profile with a failed check"
./edan analyze --quiet --profile "$T/checked.json" "$T/t.txt" > "$T/checked.txt" 2> /dev/null || bad "analyze, text"
./edan analyze --json --quiet --profile "$T/passed.json" "$T/t.txt" > "$T/passed.out" 2> "$T/err2" || bad "analyze, profile whose checks passed"
python3 - "$T" <<'PY' && ok "the profile's checks in the provenance (1 of 2 failed, 1 unstable; 0 of 2), a warning for the failed one" || bad "checks in the provenance: $(cat "$T/err")"
import json, sys
d = sys.argv[1]
c = json.load(open(d + "/checked.out"))["configs"][0]["provenance"]
assert "profile checks: 1 of 2 failed, 1 figures unstable" in c, c
assert "profile checks: 1 of 2 failed, 1 figures unstable" in open(d + "/checked.txt").read()
p = json.load(open(d + "/passed.out"))["configs"][0]["provenance"]
assert "profile checks: 0 of 2 failed, 0 figures unstable" in p, p
err = open(d + "/err").read()
assert "checked.json: warning: 1 of 2 of the profile's checks against the machine's limits failed" in err, err
assert "probe --check " + d + "/checked.json" in err, err
assert open(d + "/err2").read() == "", open(d + "/err2").read()
PY
./edan roofline "$T/checked.json" -o "$T/checked.svg" 2> "$T/err" || bad "roofline of a profile with a failed check"
python3 - "$T/checked.svg" "$T/err" <<'PY' && ok "edan roofline: the failed check under the chart, a warning on stderr" || bad "roofline checks note: $(cat "$T/err")"
import sys, xml.etree.ElementTree as ET
texts = " ".join(t.text or "" for t in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}text"))
assert "probe's checks: 1 of 2 failed: flops_per_cycle avx512 fma 1 thread(s) (96.1 > 32); 1 figures unstable" in texts, texts
assert "warning: 1 of 2 of the profile's checks" in open(sys.argv[2]).read()
PY
exit $fail
