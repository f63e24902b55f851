#!/usr/bin/env bash
# `edan rank`: a latency-bound pointer chase ranks above gemm by lambda and by
# Lambda, the ranking carries each report's own numbers, and bad reports are
# refused with a message naming the file.
. "$(dirname "$0")/../lib.sh"
./edan trace --quiet --func kernel_chase --json -o "$T/chase.json" -- build/examples/chase 4000 > /dev/null || bad "trace chase"
./edan trace --quiet --func kernel_gemm --json -o "$T/gemm.json" -- build/examples/gemm 16 > /dev/null || bad "trace gemm"
./edan trace --quiet --func kernel_triad --json -o "$T/triad.json" -- build/examples/triad 2000 > /dev/null || bad "trace triad"
./edan rank --json "$T/gemm.json" "$T/triad.json" "$T/chase.json" > "$T/rank.json" || bad "rank"
python3 - "$T" <<'PY' && ok "the pointer chase ranks first by lambda and by Lambda, with its report's numbers" || bad "ranking"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/rank.json"))
assert r["m"] == 4
for key in ("by_lambda", "by_Lambda"):
    names = [x["name"] for x in r[key]]
    assert names[0] == "chase", (key, names)
    assert names.index("chase") < names.index("gemm")
    vals = [x[key[3:]] for x in r[key]]
    assert vals == sorted(vals, reverse=True), (key, vals)
for x in r["by_lambda"]:
    c = json.load(open(f"{d}/{x['name']}.json"))["configs"][0]
    assert x["W"] == c["W"] and x["D"] == c["D"] and x["lambda"] == c["m"]["4"]["lambda"], x
    assert x["Lambda"] == c["m"]["4"]["Lambda"]
PY
./edan rank "$T/gemm.json" "$T/chase.json" > "$T/table.txt" && grep -q "Ranking by lambda" "$T/table.txt" \
  && ok "table output" || bad "table output"
printf '{"configs": [' > "$T/trunc.json"
./edan rank "$T/trunc.json" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "trunc.json:1: " "$T/err" && ok "a truncated report is refused with FILE:LINE" || bad "truncated: rc=$rc $(cat "$T/err")"
./edan rank --m 3 "$T/gemm.json" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no m = 3" "$T/err" && ok "a missing m is named" || bad "missing m: rc=$rc"
echo '{"a": 1}' > "$T/other.json"
./edan rank "$T/other.json" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "not an edan report" "$T/err" && ok "a foreign JSON file is refused" || bad "foreign: rc=$rc"
# every command that reads reports reads them one way: the same messages
for cmd in "rank" "plot -o $T/o.svg" "annotate" "roofline hwprofiles/vm.json -o $T/o.svg --app"; do
  ./edan $cmd "$T/other.json" 2> "$T/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "^edan ${cmd%% *}: $T/other.json: not an edan report" "$T/err" || bad "edan $cmd of a foreign JSON: rc=$rc $(cat "$T/err")"
  ./edan $cmd "$T/trunc.json" 2> "$T/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "^edan ${cmd%% *}: $T/trunc.json:1: not valid JSON: unexpected end" "$T/err" \
    || bad "edan $cmd of a truncated report: rc=$rc $(cat "$T/err")"
done
./edan job "$T/trunc.json" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^edan job: $T/trunc.json:1: not valid JSON" "$T/err" && ok "rank, plot, annotate, roofline --app and job refuse foreign and truncated reports in the same words" \
  || bad "edan job of a truncated report: rc=$rc $(cat "$T/err")"
# a report of a text trace is named the same by rank and by roofline --app (the trace's name without .txt)
./edan trace --quiet --text "$T/triad.txt" -- build/examples/triad 300 > /dev/null || bad "text trace of triad"
./edan analyze --json "$T/triad.txt" > "$T/triad-text.json" || bad "analyze the text trace"
./edan rank --json "$T/triad-text.json" > "$T/rank-text.json" || bad "rank the text trace's report"
./edan roofline hwprofiles/vm.json --app "$T/triad-text.json" -o "$T/app.svg" 2> /dev/null || bad "roofline --app"
name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["by_lambda"][0]["name"])' "$T/rank-text.json")
[ "$name" = triad ] && grep -q "data-label=\"$name\"" "$T/app.svg" && ok "rank and roofline --app name a text trace's report alike ($name)" \
  || bad "names: rank '$name', roofline: $(grep -o 'data-label="[^"]*"' "$T/app.svg" | head -1)"
# options apply to every report, wherever they stand
./edan rank --json "$T/gemm.json" "$T/chase.json" --m 1 > "$T/m1.json" || bad "rank --m 1 after the reports"
python3 - "$T" <<'PY' && ok "--m after the reports ranks at that m" || bad "--m after the reports"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/m1.json"))
assert r["m"] == 1, r["m"]
for x in r["by_lambda"]:
    c = json.load(open(f"{d}/{x['name']}.json"))["configs"][0]
    assert x["lambda"] == c["m"]["1"]["lambda"] and x["Lambda"] == c["m"]["1"]["Lambda"], (x, c["m"]["1"])
PY
# numbers that cannot be ranked or written back are refused with FILE:LINE
# and the value: beyond a double, a duplicate key (which of the two?), a
# count that is no count (W/C would overflow), a subnormal cost
refused() {  # what, sed expression, pattern of the message
  sed "$2" "$T/gemm.json" > "$T/bad.json"
  cmp -s "$T/gemm.json" "$T/bad.json" && { bad "$1: the edit did not apply"; return; }
  ./edan rank --json "$T/bad.json" > "$T/out" 2> "$T/err"; local rc=$?
  if [ $rc -eq 2 ] && grep -q -- "$3" "$T/err" && grep -q "bad.json:[0-9]*: " "$T/err" && ! grep -q "inf" "$T/out"; then
    ok "refused: $1"
  else
    bad "$1: rc=$rc $(cat "$T/err") $(head -c 300 "$T/out")"
  fi
}
refused "W beyond a double" 's/"W": [0-9]*,/"W": 1e999,/' "1e999 is out of range"
refused "a duplicate W" 's/"W": [0-9]*,/"W": 1e300, "W": 6000,/' 'duplicate key "W"'
refused "W of 1e300" 's/"W": [0-9]*,/"W": 1e300,/' '"W" is 1e+300'
refused "a subnormal C" 's/"C": [0-9]*,/"C": 4.9e-324,/' '"C" is 4.94066e-324'
refused "lambda of 1e300" 's/"4": {"lambda": [0-9.e+-]*,/"4": {"lambda": 1e300,/' '"lambda" is 1e+300'
# the windowed schedule's ranking first, when every report has lambda_window at m
python3 - "$T" <<'PY' && ok "by_lambda_window: first, sorted, each report's own lambda_window" || bad "by_lambda_window"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/rank.json"))
assert list(r)[:2] == ["m", "by_lambda_window"], list(r)
vals = [x["lambda_window"] for x in r["by_lambda_window"]]
assert vals == sorted(vals, reverse=True) and r["by_lambda_window"][0]["name"] == "chase", r["by_lambda_window"]
for x in r["by_lambda_window"]:
    c = json.load(open(f"{d}/{x['name']}.json"))["configs"][0]
    assert x["lambda_window"] == c["m"]["4"]["lambda_window"], x
PY
./edan trace --quiet --window 0 --func kernel_gemm --json -o "$T/gemm0.json" -- build/examples/gemm 16 > /dev/null || bad "trace gemm --window 0"
./edan rank "$T/gemm0.json" "$T/chase.json" > "$T/t0.txt" && grep -q "No ranking by lambda_window: gemm has no windowed schedule at m = 4" "$T/t0.txt" \
  && ! grep -q "Ranking by lambda_window" "$T/t0.txt" && ok "a report without the window: no window ranking, said why" \
  || bad "rank without the window: $(head -3 "$T/t0.txt")"
exit $fail
