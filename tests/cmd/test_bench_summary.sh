#!/usr/bin/env bash
# README's speed table from the benches' figures: bench_summary (the
# benches' last step, tests/bench/bench_lib.sh) writes a run's figures as
# JSON, tests/bench/readme_speed.py writes README's table between its two
# lines from them and nothing else; a missing figure file or missing lines
# are an error (exit 2) that leaves the README as it was.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/bench"
# a bench's figures, from made-up times of 3 rounds (not a timing), whose
# rounds' own ratios' median is not the ratio of the medians (none: 3.636x
# against 4x)
(
  set -e
  work=$T; . tests/bench/bench_lib.sh
  times[qemu]="1.0 1.1 0.9 " times[none]="4.0 4.0 3.0 " times[l12]="8.0 9.0 8.0 "
  times[j1none]="8.0 8.0 7.0 " times[j1l12]="11.0 11.0 10.0 "
  size=400 n=500000000 runs=3
  cd "$T"
  bench_summary riscv64 > /dev/null
)
f=$T/build/bench/speed-riscv64-400.json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["isa"] == "riscv64" and d["gemm"] == 400 and d["rounds"] == 3 and d["instructions"] == 500000000
assert d["ratio"] == {"none": 3.636, "l12": 8.182, "jobs1_none": 7.778, "jobs1_l12": 11.0}, d["ratio"]
assert d["seconds"] == {"qemu": 1.0, "none": 4.0, "l12": 8.0}' "$f" 2> "$T/err"; then
  ok "bench_summary writes the medians and the rounds' own ratios"
else bad "bench_summary's figures: $(tail -n 2 "$T/err")"; fi
cp "$f" "$T/bench/"
python3 - "$T/bench/speed-x86_64-400.json" <<'PY'
import json, sys
json.dump({"isa": "x86_64", "gemm": 400, "instructions": 525000000, "rounds": 5, "commit": "abc1234",
           "cores": 2, "cpu": "Some CPU", "load": "1.3 1.2 1.0", "date": "2026-01-02",
           "seconds": {"qemu": 1.05, "none": 4.54, "l12": 9.10},
           "ratio": {"none": 5.2, "l12": 8.63, "jobs1_none": 7.75, "jobs1_l12": 11.49}}, open(sys.argv[1], "w"))
PY
printf 'intro\n\n<!-- speed -->\nold table\n<!-- speed end -->\n\nafter\n' > "$T/R.md"
if python3 tests/bench/readme_speed.py --dir "$T/bench" --readme "$T/R.md" > /dev/null 2> "$T/err"; then
  ok "readme_speed.py writes the table"
else bad "readme_speed.py: $(cat "$T/err")"; fi
grep -q '^| RISC-V | 1.00 s | 4.00 s, 3.64x (125.0 M instr/s) | 8.00 s, 8.18x (62.5 M instr/s) | 3.89x, 5.50x | no cache <= 3x: not met; L1+L2 <= 4x: not met |$' "$T/R.md" \
  && ok "the RISC-V row: times, the rounds' ratios, rates, --jobs 1 over the cores, targets" \
  || bad "the RISC-V row: $(grep '^| RISC-V' "$T/R.md")"
grep -q '^| x86-64 | 1.05 s | .* | 3.88x, 5.75x | no cache <= 5x: not met |$' "$T/R.md" \
  && ok "the x86-64 row, its one target" || bad "the x86-64 row: $(grep '^| x86-64' "$T/R.md")"
[ "$(head -n 2 "$T/R.md")" = "$(printf 'intro\n')" ] && [ "$(tail -n 2 "$T/R.md")" = "$(printf '\nafter')" ] \
  && ! grep -q "old table" "$T/R.md" && ok "only the lines between the two marks are replaced" \
  || bad "the rest of the file changed: $(cat "$T/R.md")"
cp "$T/R.md" "$T/R1.md"
python3 tests/bench/readme_speed.py --dir "$T/bench" --readme "$T/R.md" > /dev/null 2>&1
cmp -s "$T/R.md" "$T/R1.md" && ok "a second run writes the same file" || bad "a second run changed the file"
rm "$T/bench/speed-x86_64-400.json"
python3 tests/bench/readme_speed.py --dir "$T/bench" --readme "$T/R.md" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "speed-x86_64-400.json: missing" "$T/err" && cmp -s "$T/R.md" "$T/R1.md" \
  && ok "a missing figure file: exit 2, named, the README as it was" || bad "a missing figure file: exit $rc, $(cat "$T/err")"
cp "$f" "$T/bench/speed-x86_64-400.json"
printf 'no marks\n' > "$T/N.md"
python3 tests/bench/readme_speed.py --dir "$T/bench" --readme "$T/N.md" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "N.md: no lines" "$T/err" && [ "$(cat "$T/N.md")" = "no marks" ] \
  && ok "a README without the two lines: exit 2, unchanged" || bad "a README without the lines: exit $rc, $(cat "$T/err")"
grep -q '^<!-- speed -->$' README.md && grep -q '^<!-- speed end -->$' README.md \
  && ok "README.md has the two lines" || bad "README.md lacks the speed table's lines"
exit $fail
