#!/usr/bin/env bash
# Runs every test: the compiled build/test_* programs given as arguments and
# every test script, tests/cmd/test_*.sh and tests/fuzz/test_*.sh (none with --programs-only; --skip "name: why"
# counts a test that could not be built). T=NAME runs only
# test_NAME (its program, its script, or both). Each passes by exiting 0. A
# check a test could not make prints a line `SKIP name: why`: those lines
# are shown and counted, and under CI=true any of them fails the run (a skip
# hides a missing install step). The fuzz scripts, each bound to its own
# FUZZ_SECONDS, run two at a time after the others. Closes with `N passed,
# N failed, N skipped`.
set -u
cd "$(dirname "$0")/.."
scripts=1 pass=0 fail=0 skipped=0 failed=()
while [ $# -gt 0 ]; do
  case $1 in
    --programs-only) scripts=0; shift ;;
    --skip) echo "SKIP $2"; skipped=$((skipped+1)); shift 2 ;;   # --skip "name: why": a test that cannot be built
    *) break ;;
  esac
done
# The tests' answers must not depend on a profile that this machine's user or
# administrator put where edan finds it without --profile.
XDG_DATA_HOME=$(mktemp -d) XDG_DATA_DIRS=/nonexistent
export XDG_DATA_HOME XDG_DATA_DIRS
logs=$(mktemp -d)
trap 'rm -rf "$XDG_DATA_HOME" "$logs"' EXIT
# start NAME CMD...: runs one test, its output to $logs/NAME.log, its exit
# code and seconds to $logs/NAME.rc and .s
start() {
  local name=$1 t0=$SECONDS; shift
  "$@" > "$logs/$name.log" 2>&1
  echo $? > "$logs/$name.rc"
  echo $((SECONDS - t0)) > "$logs/$name.s"
}
# report NAME: PASS, or FAIL and the last 40 lines of its output; then its SKIP lines
report() {
  local name=$1 n
  if [ "$(cat "$logs/$name.rc")" = 0 ]; then
    pass=$((pass+1)); echo "PASS $name ($(cat "$logs/$name.s") s)"
  else
    fail=$((fail+1)); failed+=("$name"); echo "FAIL $name ($(cat "$logs/$name.s") s)"; tail -n 40 "$logs/$name.log" | sed 's/^/    /'
  fi
  n=$(grep -c '^SKIP ' "$logs/$name.log")
  if [ "$n" -gt 0 ]; then
    skipped=$((skipped+n)); grep '^SKIP ' "$logs/$name.log" | sed 's/^/    /'
  fi
}
run() { start "$@"; report "$1"; }
wanted() { [ -z "${T:-}" ] || [ "$1" = "test_$T" ]; }
for t in "$@"; do wanted "$(basename "$t")" && run "$(basename "$t")" "$t"; done
if [ $scripts = 1 ]; then
  for s in tests/cmd/test_*.sh; do [ -e "$s" ] && wanted "$(basename "$s" .sh)" && run "$(basename "$s")" bash "$s"; done
  # The fuzzers, each single-threaded for its FUZZ_SECONDS, two at a time
  # (the machine's cores); reported in order once all have ended.
  fuzzed=()
  for s in tests/fuzz/test_*.sh; do
    [ -e "$s" ] && wanted "$(basename "$s" .sh)" || continue
    [ "$(jobs -rp | wc -l)" -ge 2 ] && wait -n
    start "$(basename "$s")" bash "$s" &
    fuzzed+=("$(basename "$s")")
  done
  wait
  for name in ${fuzzed[@]+"${fuzzed[@]}"}; do report "$name"; done
fi
if [ -n "${T:-}" ] && [ $((pass + fail)) -eq 0 ]; then
  echo "no test named test_$T (tests/unit/test_$T.c, tests/cmd/test_$T.sh or tests/fuzz/test_$T.sh)"; exit 2
fi
echo
[ $fail -gt 0 ] && echo "failed: ${failed[*]}"
if [ "${CI:-}" = true ] && [ $skipped -gt 0 ]; then
  echo "CI=true: $skipped skipped checks fail the run (tools/deps.sh installs what the tests need)"
  fail=$((fail+1))
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
