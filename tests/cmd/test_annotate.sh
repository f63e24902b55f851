#!/usr/bin/env bash
# edan annotate: per source line, the memory vertices, chained ones, max md
# and the line's part of the critical chain, beside the source. The chase
# (examples/chase.c) walks a list of n nodes: each node's value and next
# pointer are loaded once (n accesses per line), and D = n, the chain being
# the n - 1 next-pointer loads and the last node's value load. Also: the
# sum of --top --chain's column over every instruction is D; a trace and a
# JSON report annotate as the program does; a C++ function by its name;
# the errors and exit statuses.
. "$(dirname "$0")/../lib.sh"
rv=build/examples/chase host=build/examples-host/chase
val=$(grep -n 'sum += p->val;' examples/chase.c | cut -d: -f1)
next=$(grep -n 'p = p->next;' examples/chase.c | cut -d: -f1)
[ -n "$val" ] && [ -n "$next" ] || { bad "examples/chase.c: the loads' lines not found"; exit 1; }

# summary FILE: the summary's rows as "FILE:LINE CHAIN MEM CHAINED MAXMD" (commas and "." read as 0)
summary() {
  awk '/^Lines by/{s=1; getline; next} s && NF==0{exit} s{
         for (i = 2; i <= 5; i++) { gsub(",", "", $i); if ($i == ".") $i = 0 }
         print $NF, $2, $3, $4, $5}' "$1"
}

group() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }     # 1000 -> 1,000

# --- the chase, RISC-V and x86-64, two sizes: chase.c:$next holds n - 1 of D = n -----
for p in $rv $host; do
  for n in 300 1000; do
    ./edan annotate --func kernel_chase -- $p $n > "$T/a" 2> "$T/err"; rc=$?
    summary "$T/a" > "$T/s"
    want="chase.c:$next $((n - 1)) $n $((n - 1)) $n
chase.c:$val 1 $n $((n - 1)) $n"
    src_next=$(grep -E "^ +[0-9.]+% +[0-9,]+ +[0-9,]+ +[0-9,]+ +$next  +p = p->next;$" "$T/a")
    share=$(awk -v n=$n 'BEGIN{printf "%.1f%%", 100 * (n - 1) / n}')
    # x86-64 adds the ret's load of its return address (no part of the chain)
    if [ $rc -eq 0 ] && [ "$(head -2 "$T/s")" = "$want" ] && [ -z "$(tail -n +3 "$T/s" | awk '$2 != 0')" ] &&
       grep -q "; D = $(group $n):" "$T/a" && [ -n "$src_next" ] &&
       echo "$src_next" | grep -q "^ *$share " && grep -q "chase" "$T/err"; then
      ok "annotate $p $n: chase.c:$next (p = p->next) holds $((n - 1)) of the chain ($share), chase.c:$val 1; $n accesses on each; the source beside; the program's output on stderr"
    else bad "annotate $p $n (exit $rc)"; cat "$T/s"; head -30 "$T/a"; tail -3 "$T/err"; fi
  done
done

# --- the chain column of --top over every instruction adds up to D ---------------
for args in "--func kernel_chase -- $rv 500" "--func kernel_lu -- build/examples-host/lu 16" "--region main -- build/examples/walk 50"; do
  # shellcheck disable=SC2086
  ./edan trace --top 100000 --chain --json -o "$T/r.json" $args >/dev/null 2>&1
  if python3 - "$T/r.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
s = sum(h.get("chain", 0) for h in c["hotspots"])
ok = c["critical_chain"]["found"] and c["critical_chain"]["length"] == c["D"] == s and c["D"] > 10
print("D", c["D"], "chain total", s)
sys.exit(0 if ok else 1)
EOF
  then ok "trace --top --chain $args: the chain column adds up to D"
  else bad "trace --top --chain $args: the chain column does not add up to D"; fi
done
./edan trace --func kernel_chase --top 3 --chain=100 -- $rv 500 > "$T/t" 2>/dev/null
if grep -q "no critical chain: the eDAG has [0-9]* vertices, more than --chain records (100)" "$T/t"; then
  ok "--chain=100 on a larger eDAG: no chain, and why"
else bad "--chain=100"; tail -5 "$T/t"; fi
./edan trace --chain -- $rv 10 > /dev/null 2> "$T/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--chain needs --top" "$T/e" && ok "--chain without --top: exit 2, said why" \
  || { bad "--chain without --top (exit $rc)"; cat "$T/e"; }

# --- a trace and a report annotate as the program does ------------------------------
./edan annotate --no-source --func kernel_chase -- $rv 400 > "$T/prog" 2>/dev/null
./edan trace --func kernel_chase --binary "$T/c.bin" -- $rv 400 >/dev/null 2>&1
./edan annotate --no-source --elf $rv "$T/c.bin" > "$T/bin"
./edan trace --func kernel_chase --json --top 1000 --chain -o "$T/c.json" -- $rv 400 >/dev/null 2>&1
./edan annotate --no-source "$T/c.json" > "$T/json"
./edan trace --func kernel_chase --text "$T/x.txt" -- $host 400 >/dev/null 2>&1
./edan annotate --no-source --func kernel_chase -- $host 400 > "$T/xprog" 2>/dev/null
./edan annotate --no-source --elf $host "$T/x.txt" > "$T/xtxt"
./edan trace --func kernel_chase --binary "$T/x.bin" -- $host 400 >/dev/null 2>&1
./edan annotate --no-source --elf $host "$T/x.bin" > "$T/xbin"
if [ -s "$T/prog" ] && [ "$(summary "$T/prog")" = "$(summary "$T/bin")" ] &&
   [ "$(summary "$T/prog")" = "$(summary "$T/json")" ] && [ "$(summary "$T/xprog")" = "$(summary "$T/xtxt")" ] &&
   [ "$(summary "$T/xprog")" = "$(summary "$T/xbin")" ] && summary "$T/xbin" | grep -q "^chase.c:$next 399 400 "; then
  ok "a binary trace (--elf), a JSON report, and x86-64 text and binary traces of a position-independent program (their load offset) annotate as the run does"
else bad "trace/report annotation differs"; for f in prog bin json xprog xtxt xbin; do echo "$f:"; summary "$T/$f"; done; fi

# --- a C++ function by its qualified name: its loads on its own line ---------------
g++ -O2 -g -o "$T/geo" tests/cmd/geo.cpp || exit 1
dotl=$(grep -n 's += a\[i\] \* b\[i\];' tests/cmd/geo.cpp | cut -d: -f1)
good=1
for n in 50 120; do
  ./edan annotate --func 'geo::dot<double>' -- "$T/geo" $n > "$T/g" 2>/dev/null || good=0
  # two calls (main and Vec::norm) of two loads per element, all on the loop's line
  summary "$T/g" | grep -q "^geo.cpp:$dotl [0-9]* $((4 * n)) " || good=0
  grep -qE "^-- geo::dot<double>  .*geo.cpp: " "$T/g" || good=0
  grep -qE "^ .* $((4 * n)) .* $dotl  .*s \+= a\[i\] \* b\[i\];" "$T/g" || good=0
done
[ $good = 1 ] && ok "annotate --func 'geo::dot<double>': its section named so, 4n loads at geo.cpp:$dotl beside the source" \
  || { bad "annotate geo::dot<double>"; cat "$T/g"; }

# --- errors and exit statuses ---------------------------------------------------------
./edan annotate --func kernel_chas --elf $host "$T/x.txt" > /dev/null 2> "$T/e1"; r1=$?
./edan annotate --func 'geo::dott<double>' -- "$T/geo" 10 > /dev/null 2> "$T/e2"; r2=$?
if [ $r1 -eq 2 ] && [ "$(wc -l < "$T/e1")" -eq 1 ] && grep -q "close matches: kernel_chase" "$T/e1" &&
   ! grep -q dynamic "$T/e1" && [ $r2 -eq 2 ] && grep -q "close matches: geo::dot<double>" "$T/e2" &&
   ! grep -q dynamic "$T/e2"; then
  ok "a --func miss of the program's function: one line, its close matches, no word of shared libraries, exit 2"
else bad "--func misses ($r1, $r2)"; cat "$T/e1" "$T/e2"; fi
./edan annotate --func kernel_chase -- $rv 0 > "$T/f" 2> "$T/e"; rc=$?
[ $rc -eq 1 ] && grep -q "ended with status 2" "$T/e" && grep -q "^edan annotate: $rv" "$T/f" \
  && ok "a program that fails: what ran is annotated, exit 1" || { bad "failing program (exit $rc)"; cat "$T/e"; }
err() {     # err WANT ARGS...: exit 2 and one line on stderr that holds WANT
  local want=$1; shift
  ./edan annotate "$@" > /dev/null 2> "$T/e"; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l < "$T/e")" -eq 1 ] && grep -q -- "$want" "$T/e"; then ok "annotate $*: exit 2, '$want'"
  else bad "annotate $* (exit $rc)"; cat "$T/e"; fi
}
err "no program, trace or report given"
err "give --elf PROG" "$T/x.txt"
err "unknown option --frobnicate" --frobnicate "$T/x.txt"
err "the annotation is text" --json -- $rv 10
err "one configuration is annotated" --cache 1K:2:64 --config --cache 2K:2:64 -- $rv 10
err "an option of edan trace, for a program" --region main --elf $rv "$T/c.bin"
err "no such file\|No such file" "$T/missing.bin"
echo '{"configs": [{"W": 1}]}' > "$T/bare.json"
err "without --top" --elf $rv "$T/bare.json"
err "expected a count of lines" --top x -- $rv 10
exit $fail
