#!/usr/bin/env bash
# Fuzzes the hardware-profile loader under ASan and UBSan for a bounded time
# (FUZZ_SECONDS, default 30): every input is parsed, an accepted profile
# becomes an analysis configuration the engine takes or refuses with a
# message (tests/fuzz/fuzz_profile.c). Seeds: the shipped profiles and one with
# the numbers that once hung or were silently converted. Fails on any
# crash, sanitizer report, leak, timeout or broken rule.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/corpus"
cp hwprofiles/*.json "$T/corpus/"
sed -e 's/"effective_bytes": [0-9]*/"effective_bytes": 9223372036854775808/' \
    -e 's/"m": [0-9]*/"m": 4294967296/' hwprofiles/vm.json > "$T/corpus/huge.json"
fuzz_run fuzz_profile 65536
exit $fail
