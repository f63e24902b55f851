#!/usr/bin/env bash
# Runs every test: the compiled build/test_* programs given as arguments and
# every tests/test_*.sh script. Each passes by exiting 0. Prints a summary line.
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0; failed=()
run() {
  local name=$1; shift
  local t0=$SECONDS log
  log=$(mktemp)
  if "$@" >"$log" 2>&1; then
    pass=$((pass+1)); echo "PASS $name ($((SECONDS-t0)) s)"
  else
    fail=$((fail+1)); failed+=("$name"); echo "FAIL $name ($((SECONDS-t0)) s)"; tail -n 40 "$log" | sed 's/^/    /'
  fi
  rm -f "$log"
}
for t in "$@"; do run "$(basename "$t")" "$t"; done
for s in tests/test_*.sh; do [ -e "$s" ] && run "$(basename "$s")" bash "$s"; done
echo
[ $fail -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
