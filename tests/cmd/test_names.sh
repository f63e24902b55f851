#!/usr/bin/env bash
# The program's functions and addresses: --top lists the program file's
# addresses (objdump -d's) and C++ functions demangled; --func names a C++
# function by qualified name, signature and mangled name
# (tests/cmd/geo.cpp), and short: a template function without its arguments,
# a method by its trailing components; one ambiguous so is refused with the
# candidates. A path that is not UTF-8 reaches the JSON report escaped. A
# --func miss speaks of dynamic linking only where it may explain it, and a
# name not in a dynamically linked program is looked for in its shared
# objects.
. "$(dirname "$0")/../lib.sh"
rv=build/examples/chase host=build/examples-host/chase
# the source lines of the chase's two loads, as the source has them
val=$(grep -n 'sum += p->val;' examples/chase.c | cut -d: -f1)
next=$(grep -n 'p = p->next;' examples/chase.c | cut -d: -f1)

# --- --top: the program file's addresses, as objdump -d has them --------------
for p in $rv $host; do
  ./edan trace --func kernel_chase --top 2 --json -o "$T/top.json" -- $p 100 >/dev/null 2>&1
  od=objdump; [ $p = $rv ] && od=riscv64-linux-gnu-objdump
  python3 - "$T/top.json" > "$T/addrs" <<'EOF'
import json, sys
for h in json.load(open(sys.argv[1]))["configs"][0]["hotspots"]: print(h["address"], h["pc"], h["line"])
EOF
  good=0 n=0
  while read -r addr pc line; do
    n=$((n + 1))
    # the instruction objdump lists at that address is a load, and its pc is where it ran
    ins=$($od -d --start-address="$addr" --stop-address=$((addr + 16)) "$p" | grep -E "^ +${addr#0x}:")
    if echo "$ins" | grep -qE $'\t(ld|mov|add)[ \t]' && [ $((pc - addr)) -ge 0 ] && { [ "$line" = "$val" ] || [ "$line" = "$next" ]; }; then
      good=$((good + 1)); fi
  done < "$T/addrs"
  text=$(./edan trace --func kernel_chase --top 1 -- $p 100 2>/dev/null | awk '/^Top 1/{getline; getline; print $1}')
  first=$(head -1 "$T/addrs" | cut -d' ' -f1)
  if [ $n -eq 2 ] && [ $good -eq 2 ] && [ "$text" = "$first" ]; then
    ok "--top on $p: the addresses ($(cut -d' ' -f1 "$T/addrs" | tr '\n' ' ')) are the loads objdump -d lists there; JSON keeps the pc"
  else bad "--top addresses on $p: $good of $n, text '$text'"; cat "$T/addrs"; fi
done

# an x86-64 text trace says where the program was loaded: analyze --elf places its PCs
./edan trace --func kernel_chase --text "$T/x.txt" -- $host 100 >/dev/null 2>&1
./edan analyze --top 1 --elf $host "$T/x.txt" > "$T/x-top"
if [ "$(head -1 "$T/x.txt")" = "#edan-trace x86-64" ] && sed -n 2p "$T/x.txt" | grep -q '^#edan-load 0x' && grep -qE "^  0x[0-9a-f]{4} .* kernel_chase  chase.c:($val|$next)\$" "$T/x-top"; then
  ok "an x86-64 text trace opens with its ISA and #edan-load: analyze --elf --top gives the file's address, function and line"
else bad "#edan-load"; head -c 200 "$T/x.txt"; cat "$T/x-top"; fi
# ... and a binary trace's header, its load offset
./edan trace --func kernel_chase --binary "$T/x.bin" -- $host 100 >/dev/null 2>&1
./edan analyze --top 1 --elf $host "$T/x.bin" > "$T/b-top"
if [ "$(od -An -tu2 -j10 -N2 "$T/x.bin" | tr -d ' ')" = 24 ] &&
   grep -qE "^  0x[0-9a-f]{4} .* kernel_chase  chase.c:($val|$next)\$" "$T/b-top"; then
  ok "an x86-64 binary trace's header holds the load offset: analyze --elf --top gives the file's address, function and line"
else bad "binary trace load offset"; cat "$T/b-top"; fi

# --- C++: --func by qualified name, signature, mangled name -----------------------
g++ -O2 -g -o "$T/geo" tests/cmd/geo.cpp || exit 1
mangled=$(nm "$T/geo" | awk '$3 ~ /^_ZN3geo3dotIdE/ {print $3}')
W() { rm -f "$T/w.json"; ./edan trace --json -o "$T/w.json" --func "$1" -- "$T/geo" "$2" >/dev/null 2>&1 && python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["W"])' "$T/w.json"; }
w1=$(W 'geo::dot<double>' 200) w1s=$(W 'geo::dot<double>' 100)
w2=$(W 'geo::dot<double>(double const*, double const*, int)' 200)
w3=$(W "$mangled" 200)
w4=$(W 'double geo::dot<double>(double const*, double const*, int)' 200)
wf=$(W 'geo::dot<float>' 200)
# two calls (main and Vec::norm) of two loads per element
if [ -n "$w1" ] && [ $((w1 - w1s)) -eq 400 ] && [ "$w2" = "$w1" ] && [ "$w3" = "$w1" ] && [ "$w4" = "$w1" ] &&
   [ -n "$wf" ] && [ "$wf" != "$w1" ]; then
  ok "--func geo::dot<double>, its signature, with its return type, and $mangled: the same W ($w1), 2 loads per element per call; geo::dot<float> another ($wf)"
else bad "C++ --func: '$w1' '$w1s' '$w2' '$w3' '$w4' '$wf'"; fi
./edan trace --func 'geo::dot<double>' --top 1 -- "$T/geo" 50 2>/dev/null > "$T/geo-top"
./edan trace --func 'geo::dot<double>' --top 1 --json -o "$T/geo.json" -- "$T/geo" 50 >/dev/null 2>&1
fs=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["configs"][0]["hotspots"][0]; print(h["function"], h["symbol"])' "$T/geo.json")
if grep -qE '^  0x[0-9a-f]+ .* geo::dot<double>  geo.cpp:[0-9]+$' "$T/geo-top" && [ "$fs" = "geo::dot<double> $mangled" ]; then
  ok "--top names the C++ function demangled (geo::dot<double>); JSON has its symbol too"
else bad "--top C++ name: '$fs'"; cat "$T/geo-top"; fi

# --- C++ names given short: a template without its arguments, a method by its
# class and name; ambiguous ones refused with the candidates ------------------------
s1=$(W weighted_sum 200) s1s=$(W weighted_sum 100) s2=$(W 'weighted_sum<double>' 200)
g1=$(W Grid::sum_every 200) g1s=$(W Grid::sum_every 100) g2=$(W sim::Grid::sum_every 200)
# weighted_sum: two loads per element; sum_every(2): one load every other cell
if [ -n "$s1" ] && [ "$s1" = "$s2" ] && [ $((s1 - s1s)) -eq 200 ] &&
   [ -n "$g1" ] && [ "$g1" = "$g2" ] && [ $((g1 - g1s)) -eq 50 ]; then
  ok "--func weighted_sum is weighted_sum<double>, its only instantiation (W $s1, 2 loads per element); Grid::sum_every is sim::Grid::sum_every (W $g1, a load every other cell)"
else bad "short C++ names: weighted_sum '$s1' '$s1s' against '$s2'; Grid::sum_every '$g1' '$g1s' against '$g2'"; fi
# the report says which function a short name took
./edan trace --func Grid::sum_every -- "$T/geo" 10 2>/dev/null > "$T/s.txt"
./edan trace --quiet --json -o "$T/s.json" --func weighted_sum -- "$T/geo" 10 > /dev/null 2>&1
so=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tracer"]["scope"][0]["short_of"])' "$T/s.json")
grep -qx 'Scope: --func Grid::sum_every: sim::Grid::sum_every \[geo\]' "$T/s.txt" && [ "$so" = 'weighted_sum<double>' ] \
  && ok "the report names the function a short name took: Scope: --func Grid::sum_every: sim::Grid::sum_every [geo]; JSON short_of $so" \
  || { bad "short name in the report: '$so'"; grep Scope "$T/s.txt"; }
amb=1
for name in dot geo::dot; do
  ./edan trace --func "$name" -- "$T/geo" 10 > "$T/a.out" 2> "$T/a.err"; rc=$?
  [ $rc -eq 2 ] && grep -q -- "--func $name: ambiguous: it names 2 functions of $T/geo: geo::dot<double>, geo::dot<float>" "$T/a.err" &&
    ! grep -q '^[0-9]' "$T/a.out" || { amb=0; echo "rc $rc"; cat "$T/a.err"; }
done
./edan annotate --func dot -- "$T/geo" 10 > /dev/null 2> "$T/a.err"; rc=$?
[ $rc -eq 2 ] && grep -q "geo::dot<double>, geo::dot<float>" "$T/a.err" || { amb=0; echo "annotate: rc $rc"; cat "$T/a.err"; }
[ $amb = 1 ] && ok "--func dot and --func geo::dot (trace, annotate): exit 2 before the program runs, the two instantiations listed" \
  || bad "an ambiguous short name"

# --- a path that is not UTF-8 reaches the JSON report escaped ----------------------
d="$T/$(printf 'caf\351')"      # a directory named in Latin-1
mkdir -p "$d" && cp $host "$d/chase"
./edan trace --quiet --json --top 1 -o "$T/u.json" --func kernel_chase -- "$d/chase" 10 > /dev/null 2> "$T/u.err"
./edan annotate --func kernel_chase -- "$d/chase" 10 > "$T/u.ann" 2>> "$T/u.err"; rc=$?
if python3 -m json.tool "$T/u.json" > /dev/null && ! LC_ALL=C grep -q $'\351' "$T/u.json" &&
   [ $rc -eq 0 ] && grep -q "chase.c:$val" "$T/u.ann" &&
   python3 - "$T/u.json" "$d/chase" <<'EOF'
import json, os, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
want = os.fsencode(sys.argv[2]).decode("latin-1")     # ASCII but the one byte: each byte its character
sys.exit(0 if r["source"] == want and r["elf"] == want else 1)
EOF
then ok "a program under a directory named in Latin-1: the JSON report parses (python3 -m json.tool), its byte 0xe9 written as \\u00e9; annotate runs it and finds its lines"
else bad "invalid UTF-8 in a path: $(head -c 300 "$T/u.json") $(cat "$T/u.err")"; fi

# --- a --func miss: dynamic linking said only where it may explain it -------------
./edan trace --func kernel_chas -- $rv 10 2> "$T/m1" >/dev/null
./edan trace --func 'geo::dott<double>' -- "$T/geo" 10 2> "$T/m2" >/dev/null
./edan trace --func nosuchthingatall -- "$T/geo" 10 2> "$T/m3" >/dev/null
./edan trace --func sqrt -- "$T/geo" 10 2> "$T/m4" >/dev/null; r4=$?
if grep -q "close matches: kernel_chase" "$T/m1" && ! grep -q dynamic "$T/m1"; then
  ok "a miss in a static program: close matches, no word of dynamic linking"
else bad "static miss"; cat "$T/m1"; fi
if grep -q "close matches: geo::dot<double>" "$T/m2" && ! grep -q dynamic "$T/m2" &&
   grep -q "nosuchthingatall: no function of that name in $T/geo nor in the shared objects whose code ran (.*libc.so" "$T/m3" &&
   [ $r4 -eq 1 ] && grep -q "never ran the code of --func" "$T/m4"; then
  ok "a dynamically linked program: a near miss names the program's function only; no match at all is looked for in its shared objects, which the error lists; sqrt is libm's (found there, never called)"
else bad "dynamic misses"; cat "$T/m2" "$T/m3" "$T/m4"; fi
exit $fail
