#!/usr/bin/env bash
# Fuzzes the hardware-profile loader under ASan and UBSan for a bounded time
# (FUZZ_SECONDS, default 30): every input is parsed, an accepted profile
# becomes an analysis configuration the engine takes or refuses with a
# message (tests/fuzz/fuzz_profile.c). Seeds: the shipped profiles, one with
# the numbers that once hung or were silently converted, ones with numbers
# beyond a double, subnormal and far out of range (a version and a cluster
# of 1e308), with duplicate keys and with probe's "checks"; mutations add such numbers and keys
# anywhere (tests/fuzz/json_mutate.h). Fails on any crash, sanitizer
# report, leak, timeout or broken rule.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/corpus"
cp hwprofiles/*.json "$T/corpus/"
sed -e 's/"effective_bytes": [0-9]*/"effective_bytes": 9223372036854775808/' \
    -e 's/"m": [0-9]*/"m": 4294967296/' hwprofiles/vm.json > "$T/corpus/huge.json"
sed -e '0,/"median": [0-9.]*/s//"median": 1e999/' hwprofiles/qemu-2node.json > "$T/corpus/inf.json"
sed -e 's/"median": \([0-9.]*\)/"median": 4.9e-324/g' hwprofiles/qemu-2node.json > "$T/corpus/subnormal.json"
sed -e 's/"version": 1/"version": 1e308/' -e '0,/"cluster": 0/s//"cluster": 1e308/' hwprofiles/qemu-2node.json \
  > "$T/corpus/far.json"
sed -e '0,/"GBps": {/s//"GBps": {"median": 1e300, /' -e 's/"cluster": 1,/"cluster": 1, "cluster": 0,/' \
  hwprofiles/qemu-2node.json > "$T/corpus/duplicate.json"
sed -e '$ s/^}$/, "checks": {"results": [{"check": "roof_order", "passed": false}, {"passed": true}]}, "stability": {"unstable": [{"figure": "L1 latency"}]}}/' \
  hwprofiles/vm.json > "$T/corpus/checks.json"
fuzz_run fuzz_profile 65536
exit $fail
