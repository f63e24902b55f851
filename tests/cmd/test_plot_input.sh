#!/usr/bin/env bash
# `edan plot` and the numbers of its inputs: a timeline's tau and bins are
# whole numbers in range, --xmax is finite, a report with a number beyond a
# double or a duplicate key is refused; each with exit status 2, a message
# naming the value and no chart left behind. Values the chart can draw,
# however close together, give coordinates that are numbers (no nan, no inf).
. "$(dirname "$0")/../lib.sh"
. tests/cmd/refusal.sh

cat > "$T/t.txt" <<'EOF'
lw a4,0(a5);0x40080290
addi a5,a5,4
fadd.d fa0,fa0,fa1
lw a4,0(a5);0x40080294
fadd.d fa0,fa0,fa1
EOF
./edan analyze --json --tau 2 "$T/t.txt" > "$T/r.json" || bad "analyze --json --tau 2"

# plot_refused WHAT PATTERN ARGS...: `edan plot ARGS... -o $T/out.svg` is refused (tests/cmd/refusal.sh)
plot_refused() { local what=$1 pat=$2; shift 2; refused "$what" "$pat" ./edan plot "$@" -o "$T/out.svg"; }
# edit NAME EXPR: $T/NAME.json, the report with the Python expression EXPR applied to its first configuration `c`
edit() {
  python3 - "$T" "$1" "$2" <<'PY'
import json, sys
d, name, expr = sys.argv[1:]
r = json.load(open(d + "/r.json"))
c = r["configs"][0]
exec(expr)
json.dump(r, open(f"{d}/{name}.json", "w"), indent=1)
PY
}

plot_refused "--xmax inf" "--xmax inf: expected cycles from 1" "$T/r.json" --xmax inf
plot_refused "--xmax 4.9e-324" "--xmax 4.9e-324: expected cycles from 1" "$T/r.json" --xmax 4.9e-324
edit subbin 'c["timeline"]["bins"][1] = 4.9e-324'
plot_refused "a subnormal bin" 'subbin.json: line [0-9]*: timeline bin 1 of "no cache" is 4.94066e-324, not a byte count' "$T/subbin.json"
edit hugebin 'c["timeline"]["bins"][0] = 1e300'
plot_refused "a bin of 1e300 bytes" "timeline bin 0 of \"no cache\" is 1e+300" "$T/hugebin.json"
edit subtau 'c["timeline"]["tau"] = 4.9e-324'
plot_refused "a subnormal tau" "timeline tau 4.94066e-324 is not a whole number of cycles" "$T/subtau.json"
sed 's/"tau": 2,/"tau": 1e999,/' "$T/r.json" > "$T/inftau.json"
plot_refused "a tau beyond a double" "inftau.json:[0-9]*: not valid JSON: number 1e999 is out of range" "$T/inftau.json"
sed 's/"tau": 2,/"tau": 2, "tau": 1,/' "$T/r.json" > "$T/duptau.json"
plot_refused "a duplicate tau" 'duplicate key "tau"' "$T/duptau.json"

# what can be drawn is drawn with numbers: equal huge bins, a slowdown
# sweep whose values are all the same (a zero span once divided by zero)
edit flat 'c["timeline"]["bins"] = [18446744073709551615] * 4'
printf 'config,m,added_ns,T_upper,slowdown_upper\nc,4,0,1e19,1e19\nc,4,10,1e19,1e19\n' > "$T/flat.csv"
for args in "$T/flat.json" "$T/flat.json --log" "--sweep $T/flat.csv --slowdown" "--sweep $T/flat.csv --log"; do
  # shellcheck disable=SC2086
  if ./edan plot $args -o "$T/f.svg" 2> "$T/err" && svg_numbers "$T/f.svg" 2>> "$T/err"; then
    ok "drawn with finite coordinates: plot $(echo "$args" | sed "s|$T/||g")"
  else
    bad "plot $args: $(cat "$T/err")"
  fi
done
exit $fail
