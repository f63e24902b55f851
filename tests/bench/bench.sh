#!/usr/bin/env bash
# Runs every benchmark script tests/bench/bench_*.sh in turn.
set -u
cd "$(dirname "$0")/../.."
rc=0
for b in tests/bench/bench_*.sh; do
  [ -e "$b" ] || continue
  echo "== $b"; bash "$b" || rc=1
done
exit $rc
