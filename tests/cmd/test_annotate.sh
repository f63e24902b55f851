#!/usr/bin/env bash
# --top N --chain: each instruction's part of the critical chain, the D RAM
# accesses in a row that make the memory depth; over every instruction the
# column adds up to D.
. "$(dirname "$0")/../lib.sh"
rv=build/examples/chase

# --- the chain column of --top over every instruction adds up to D ---------------
for args in "--func kernel_chase -- $rv 500" "--func kernel_lu -- build/examples-host/lu 12" "--region main -- build/examples/walk 50"; do
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

exit $fail
