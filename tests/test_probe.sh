#!/usr/bin/env bash
# ./probe on this machine: a quick run writes a profile that the loader
# accepts and that is consistent (build/test_profile --check); bad
# arguments and an unwritable output fail cleanly; Ctrl-C leaves no file;
# the JSON parser and the loader survive 15 s of fuzzing.
# The machine is shared: if the first profile is inconsistent the probe
# runs once more, and the test fails only if both are.
set -u
cd "$(dirname "$0")/.."
[ -x ./probe ] && [ -x build/test_profile ] || { echo "needs ./probe and build/test_profile (make test)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# --help tells the options; unknown options are refused
./probe --help | grep -q -- '--quick' || { echo "FAIL: --help does not list --quick"; fail=1; }
./probe --bogus >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -ne 0 ] && grep -q "unknown argument '--bogus'" "$tmp/err" || { echo "FAIL: --bogus: rc $rc"; fail=1; }
./probe --quick -o /nonexistent/dir/p.json 2>"$tmp/err"; rc=$?
[ $rc -ne 0 ] && grep -q "cannot write" "$tmp/err" || { echo "FAIL: unwritable output: rc $rc"; fail=1; }

# Ctrl-C in the middle of a run: non-zero, no profile, no temporary file
./probe --quick -q -o "$tmp/int.json" & pid=$!
sleep 2; kill -INT $pid; wait $pid; rc=$?
[ $rc -ne 0 ] || { echo "FAIL: interrupted probe exited 0"; fail=1; }
ls "$tmp" | grep -q int.json && { echo "FAIL: interrupted probe left: $(ls "$tmp")"; fail=1; }

# a quick run, consistent
ok=0
for attempt in 1 2; do
  t0=$SECONDS
  timeout 120 ./probe --quick -q -o "$tmp/p.json" || { echo "FAIL: probe --quick exited $?"; fail=1; break; }
  echo "probe --quick took $((SECONDS - t0)) s (attempt $attempt)"
  if build/test_profile --check "$tmp/p.json"; then ok=1; break; fi
  echo "attempt $attempt inconsistent (shared machine?)"
done
[ $ok -eq 1 ] || fail=1
python3 - "$tmp/p.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "edan-hwprofile" and d["version"] == 1
assert d["bandwidth_method"]["write_allocate_counted"] is False
ops = {(b["level"], b["op"]) for b in d["bandwidth"]}
for lv in ("L1", "L2", "L3", "DRAM"):
    for op in ("load", "store", "2:1", "1:1"):
        assert (lv, op) in ops, (lv, op)
assert ("DRAM", "store_nt") in ops
assert {b["threads"] for b in d["bandwidth"]} == {1, d["topology"]["cores"]}
assert [p["k"] for p in d["mlp"]["points"]] == list(range(1, 33))
assert len(d["carm_validation"]) == 4 and all(len(c["points"]) == 9 for c in d["carm_validation"])
assert "available" in d["counters"] and (d["counters"]["available"] or d["counters"]["reason"])
assert all(l["page_bytes"] > 0 for l in d["latency"])
print("sections present")
PY
# the JSON parser and the loader under libFuzzer with ASan/UBSan, 15 s,
# seeded with this machine's profile
if command -v clang >/dev/null; then
  mkdir -p "$tmp/corpus" && cp "$tmp/p.json" "$tmp/corpus/" 2>/dev/null
  if clang -std=c99 -g -O1 -Wall -Wextra -pedantic -Wno-unused-function -DTEST_PROFILE_FUZZ \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. -Itests \
        -o "$tmp/fuzz_profile" tests/test_profile.c -lm; then
    if (cd "$tmp" && timeout 60 ./fuzz_profile -max_total_time=15 -max_len=65536 corpus >fuzz.log 2>&1); then
      tail -1 "$tmp/fuzz.log"
    else
      echo "FAIL: fuzzing found a crash:"; tail -30 "$tmp/fuzz.log"; fail=1
    fi
  else
    echo "FAIL: the fuzz harness does not build"; fail=1
  fi
else
  echo "clang not installed: fuzzing skipped"
fi
exit $fail
