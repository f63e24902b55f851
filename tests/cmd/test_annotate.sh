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
if grep -q "no critical chain: the eDAG has [0-9]* vertices, more than --chain=100 records: give --chain alone" "$T/t"; then
  ok "--chain=100 (the recorded eDAG's chain) on a larger eDAG: no chain, and why"
else bad "--chain=100"; tail -5 "$T/t"; fi

# --- the streamed chain (--chain) is the recorded eDAG's (--chain=VERTICES), instruction by instruction ---
for args in "--func kernel_chase -- $rv 300" "--func kernel_lu -- build/examples-host/lu 12" \
            "--cache 1K:2:64 --cache 8K:4:64 --func kernel_lu -- build/examples-host/lu 12" \
            "--cache 512:2:64 --region main -- build/examples/walk 30" "--func kernel_spmv -- build/examples/spmv 8"; do
  # shellcheck disable=SC2086
  ./edan trace --top 100000 --chain --json -o "$T/s.json" $args >/dev/null 2>&1
  # shellcheck disable=SC2086
  ./edan trace --top 100000 --chain=10000000 --json -o "$T/g.json" $args >/dev/null 2>&1
  if python3 - "$T/s.json" "$T/g.json" <<'EOF2'
import json, sys
s, g = (json.load(open(f))["configs"][0] for f in sys.argv[1:])
cs = {h["address"]: h["chain"] for h in s["hotspots"]}
cg = {h["address"]: h["chain"] for h in g["hotspots"]}
ok = s["critical_chain"]["found"] and g["critical_chain"]["found"] and cs == cg and sum(cs.values()) == s["D"] > 1
print("D", s["D"], "instructions on the chain", sum(1 for v in cs.values() if v))
sys.exit(0 if ok else 1)
EOF2
  then ok "trace --top --chain $args: the streamed chain is the recorded eDAG's"
  else bad "trace --top --chain $args: the streamed chain differs from the recorded eDAG's"; fi
done

# --- the chain past the size the eDAG was once recorded to (4,000,000 vertices): a million nodes, 5 million vertices ---
n=1000000
./edan annotate --no-source --func kernel_chase -- $rv $n > "$T/big" 2>/dev/null; rc=$?
if [ $rc -eq 0 ] && [ "$(summary "$T/big" | head -2)" = "chase.c:$next $((n - 1)) $n $((n - 1)) $n
chase.c:$val 1 $n $((n - 1)) $n" ] && grep -q "; D = $(group $n): the critical chain" "$T/big"; then
  ok "annotate of a chase of $n nodes (past the 4,000,000 vertices the chain once needed recorded): chase.c:$next holds $((n - 1)) of the chain"
else bad "annotate of a chase of $n nodes (exit $rc)"; cat "$T/big"; fi
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

# --- the accesses each cache level served, per line (tests/cmd/levels.c: counted by hand there) ---
# row FILE LINE: a source row's counts "L1 L2 RAM" (with a 2-level cache; "." read as 0)
row() {
  awk -v ln="$2" '$7 == ln && $7 ~ /^[0-9]+$/ { for (i = 2; i <= 4; i++) { gsub(",", "", $i); if ($i == ".") $i = 0 }
                   print $2, $3, $4; exit }' "$1"
}
lv() { grep -n "$1" tests/cmd/levels.c | cut -d: -f1; }
warm=$(lv '/\* warm:') again=$(lv '/\* again:') head1=$(lv '/\* head:') head2=$(lv '/\* head again:')
for cc in "cc -O1" "riscv64-linux-gnu-gcc -O1 -static"; do
  if ! command -v "${cc%% *}" > /dev/null; then skip "annotate levels $cc" "no ${cc%% *}"; continue; fi
  # shellcheck disable=SC2086
  $cc -g -o "$T/levels" tests/cmd/levels.c || { bad "$cc levels.c"; continue; }
  ./edan annotate --cache 1K:2:64 --cache 8K:4:64 --func kernel_levels -- "$T/levels" > "$T/lv" 2>/dev/null; rc=$?
  got="$(row "$T/lv" $warm)|$(row "$T/lv" $again)|$(row "$T/lv" $head1)|$(row "$T/lv" $head2)"
  if [ $rc -eq 0 ] && [ "$got" = "224 0 32|224 32 0|56 8 0|64 0 0" ] &&
     grep -qE "^ chain% +chain +L1 +L2 +RAM +chained +max md +where$" "$T/lv"; then
    ok "annotate --cache 1K --cache 8K, $cc: per line the accesses of L1, L2 and RAM as counted by hand (224/0/32, 224/32/0, 56/8/0, 64/0/0)"
  else bad "annotate levels, $cc (exit $rc): got $got"; cat "$T/lv"; fi
done

# --- --asm: each line's memory instructions under it, with their counts ---
./edan annotate --asm --func kernel_chase -- $rv 300 > "$T/asm" 2>/dev/null
objdump=riscv64-linux-gnu-objdump
if ! command -v $objdump > /dev/null; then skip "annotate --asm" "no $objdump"
else
  # the program's loads of each line, as the disassembler and the line table have them
  $objdump -d -l --no-show-raw-insn $rv | awk '/^[^ ].*:[0-9]+( \(discriminator [0-9]+\))?$/ { sub(/ \(.*/, ""); n = split($0, f, ":"); ln = f[n] }
       /^ *[0-9a-f]+:\t(ld|lw|lb|lbu|lh|lhu|lwu|fld|flw)\t/ { if (ln != "") print ln, $1 }' | sed 's/:$//' > "$T/loads"
  want_next=$(awk -v l=$next '$1 == l { print $2 }' "$T/loads" | sort | tr '\n' ' ')
  # the rows under chase.c:$next's row: "ADDRESS COUNT" of each instruction
  under=$(awk -v l=$next '$5 ~ /^[0-9]+[+]?$/ { cur = $5 + 0; next } $5 ~ /^[0-9a-f]+:$/ && cur == l && $6 == "ld" {
                            sub(":", "", $5); print $5, $2 }' "$T/asm")
  got_next=$(echo "$under" | awk '{ print $1 }' | sort | tr '\n' ' ')
  row_next=$(awk -v l=$next '$5 == l { print $2; exit }' "$T/asm")
  insn_next=$(echo "$under" | awk '{ print $2 }' | sort -u)
  if [ -n "$want_next" ] && [ "$got_next" = "$want_next" ] && [ "$row_next" = 300 ] && [ "$insn_next" = 300 ]; then
    ok "annotate --asm: chase.c:$next's load ($want_next) under its line, with the line's 300 accesses"
  else bad "annotate --asm: want [$want_next] got [$got_next] row $row_next insn $insn_next"; cat "$T/asm"; fi
fi

# --- code inlined at a line counts there too: a forced-inline helper and std::map::find ---
g++ -O2 -g -o "$T/inl" tests/cmd/inl.cpp || exit 1
helper=$(grep -n 'return p\[i\] + p\[i + 1\];' tests/cmd/inl.cpp | cut -d: -f1)
call=$(grep -n 's += pair_sum(p, 2 \* i);' tests/cmd/inl.cpp | cut -d: -f1)
find=$(grep -n 'auto it = w.find(keys\[i\]);' tests/cmd/inl.cpp | cut -d: -f1)
good=1
for n in 40 90; do
  ./edan annotate --func get_pairs -- "$T/inl" $n > "$T/i" 2>/dev/null || good=0
  # the helper's two loads per call, n calls: 2n at its line and 2n at the call's (marked +)
  summary "$T/i" | grep -q "^inl.cpp:$helper [0-9]* $((2 * n)) " || good=0
  grep -q "get_pairs  inl.cpp:$call (with the code inlined there)$" "$T/i" || good=0
  grep -qE "^ .* $((2 * n)) .* $call\+ .*pair_sum" "$T/i" || good=0
  grep -qE "^ .* $((2 * n)) .* $helper  .*return p\[i\]" "$T/i" || good=0
done
[ $good = 1 ] && ok "annotate: a forced-inline helper's 2n loads at its line and at its call site (marked +)" \
  || { bad "annotate: inlined helper"; cat "$T/i"; }
./edan annotate --func lookups -- "$T/inl" 60 > "$T/m" 2>/dev/null; rc=$?
mapfind=$(grep -o "stl_map.h:[0-9]* (with the code inlined there)" "$T/m" | head -1 | sed 's/ .*//; s/.*://')
mapfile=$(grep -o -- "-- lookups  [^:]*stl_map.h" "$T/m" | sed 's/-- lookups  //')
findline=$([ -n "$mapfile" ] && sed -n "${mapfind}p" "$mapfile")
# the w.find line: at least the n key loads and the nodes find visits (1 + a node's key per node at least: > 2n)
wfind=$(awk -v l=$find '$5 == l"+" { gsub(",", "", $2); print $2 }' "$T/m")
mfind=$(awk -v l=$mapfind '$5 == l"+" { gsub(",", "", $2); print $2 }' "$T/m")
if [ $rc -eq 0 ] && echo "$findline" | grep -q "find(" && [ -n "$wfind" ] && [ -n "$mfind" ] && [ "$wfind" -ge "$mfind" ] &&
   [ "$mfind" -gt 120 ] && grep -q "lookups  inl.cpp:$find (with the code inlined there)" "$T/m"; then
  ok "annotate: std::map::find inlined into lookups counts at its stl_map.h line ($mfind accesses) and at the user's w.find line, inl.cpp:$find ($wfind)"
else bad "annotate: std::map::find's call sites (exit $rc; map line '$findline', $mfind, w.find $wfind)"; cat "$T/m"; fi

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
