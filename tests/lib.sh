# tests/lib.sh - sourced first by the test scripts that report check by
# check: runs from the project root, gives a temporary directory $T removed
# on exit, and ok/bad to report one check (bad sets fail=1; the script ends
# with `exit $fail`).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
# job NAME CMD...: runs CMD in the background, at most TEST_JOBS (default 2,
# the machine's cores) at once; after job_wait (every job ended), job_ok NAME
# says whether it exited 0, $T/NAME.rc holds its exit code and $T/NAME.err
# its standard error
job_slots=0
job() {
  local name=$1; shift
  if [ "$job_slots" -ge "${TEST_JOBS:-2}" ]; then wait -n; job_slots=$((job_slots - 1)); fi
  { "$@" 2> "$T/$name.err"; echo $? > "$T/$name.rc"; } &
  job_slots=$((job_slots + 1))
}
job_wait() { wait; job_slots=0; }
job_ok() { [ "$(cat "$T/$1.rc" 2> /dev/null)" = 0 ]; }
# skip NAME WHY: a check that could not be made (tests/run.sh counts it; CI fails on it)
skip() { local name=$1; shift; echo "SKIP $name: $*"; }

# fuzz_run NAME MAX_LEN: runs the libFuzzer harness build/NAME on the seeds in
# $T/corpus for FUZZ_SECONDS (default 20 in make test; make fuzz runs 300); bad on a crash, a sanitizer
# report, a leak, a timeout or the harness's own "NAME: ..." message (the
# input that did it is kept in build/), else ok.
fuzz_run() {
  local name=$1 max_len=$2 rc
  [ -x "build/$name" ] || { bad "build/$name is missing (make test builds it from tests/$name.c)"; return; }
  "build/$name" -max_total_time="${FUZZ_SECONDS:-20}" -max_len="$max_len" -timeout=20 -rss_limit_mb=2048 \
    -artifact_prefix="$T/" -print_final_stats=1 "$T/corpus" > "$T/log" 2>&1
  rc=$?
  grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss)" "$T/log" || true
  if [ $rc -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|^$name:" "$T/log"; then
    bad "$name: fuzzing failed (exit $rc)"
    grep -E -B 2 -A 30 "ERROR:|runtime error:|^$name:" "$T/log" | head -60
    for a in "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-*; do
      [ -e "$a" ] && cp "$a" "build/$name-$(basename "$a")" && echo "input kept: build/$name-$(basename "$a")"
    done
  else
    ok "$name: no crash, sanitizer report or broken invariant in ${FUZZ_SECONDS:-20} s"
  fi
}
