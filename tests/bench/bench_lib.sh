# tests/bench/bench_lib.sh - sourced by the benchmark scripts that time variants
# side by side. bench_rounds RUNS NAME...: the command array cmd_NAME of
# each NAME once per round (round-robin, so that the load of a shared
# machine spreads over all of them alike), RUNS rounds; each run's wall time
# is appended to times[NAME]. A failing command stops the script with its
# messages. Needs $work, a scratch directory.
declare -A times
bench_rounds() {
  local runs=$1 i v t0 t1
  shift
  for ((i = 0; i < runs; i++)); do
    for v in "$@"; do
      declare -n cmd="cmd_$v"
      t0=$(date +%s.%N)
      "${cmd[@]}" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
      t1=$(date +%s.%N)
      times[$v]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", b - a}') "
      unset -n cmd
    done
  done
}
# bench_median: the median of the numbers on standard input (space or newline separated)
bench_median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {printf "%.3f\n", a[int((NR+1)/2)]}'; }
# bench_row NAME VARIANT BASE: a table's row: VARIANT's median time, its rate
# (the caller's n instructions over it) and the median of the rounds' own
# ratios of its time to BASE's (a drift of the machine's speed falls on a
# round's runs alike; the ratio of the two medians can differ by 10%)
bench_row() {
  awk -v name="$1" -v t="$(bench_median <<<"${times[$2]}")" -v n="$n" -v r="$(bench_ratio_median "$2" "$3")" \
    'BEGIN {printf "  %-44s %8.2f s %8.1f M insn/s %7.2fx\n", name, t, n / t / 1e6, r}'
}
# bench_base_online: with EDAN_BASE set, the rows of its two online runs
# (base_none, base_l12, timed by bench_rounds) beside this build's, against
# qemu alone.
bench_base_online() {
  [ -n "${EDAN_BASE:-}" ] || return 0
  bench_row "$EDAN_BASE: online analysis, no cache" base_none qemu
  bench_row "$EDAN_BASE: online analysis, L1 32K + L2 1M" base_l12 qemu
  # the rounds' own ratios: a drift of the machine's speed falls on a round's runs alike
  awk -v n="$(bench_ratio_range none base_none)" -v l="$(bench_ratio_range l12 base_l12)" 'BEGIN {
    split(n, a, " "); split(l, b, " ")
    printf "  this build against EDAN_BASE, the median of the rounds'"'"' ratios (least-largest):\n"
    printf "    no cache %.3fx (%.3f-%.3f)%s, L1+L2 %.3fx (%.3f-%.3f)%s\n",
           a[1], a[2], a[3], (a[2] <= 1 && a[3] >= 1 ? ": within the noise" : ""),
           b[1], b[2], b[3], (b[2] <= 1 && b[3] >= 1 ? ": within the noise" : "") }'
}
# bench_ratio_median A B: the median of the rounds' own ratios of A's time
# to B's (times[A], times[B] from bench_rounds, in round order).
bench_ratio_median() {
  bench_ratios "$1" "$2" | bench_median
}
bench_ratios() {
  paste -d' ' <(tr ' ' '\n' <<<"${times[$1]}" | grep .) <(tr ' ' '\n' <<<"${times[$2]}" | grep .) |
    awk '{print $1 / $2}'
}
# bench_ratio_range A B: those ratios' median, least and largest
bench_ratio_range() {
  bench_ratios "$1" "$2" | sort -g | awk '{a[NR]=$1} END {printf "%.4f %.4f %.4f\n", a[int((NR+1)/2)], a[1], a[NR]}'
}
# bench_window_vars ARGS...: the variants w0none and w0l12, this build's two
# online runs without the windowed schedule (--window 0), and j1none and
# j1l12, the same two with it but on one thread (--jobs 1: the schedule
# played by the caller's thread, not handed over), ARGS the program and its
# arguments; the caller adds them to its names.
bench_window_vars() {
  cmd_w0none=(./edan trace --no-profile --quiet --window 0 -o "$work/w0a" -- "$@")
  cmd_w0l12=(./edan trace --no-profile --quiet --window 0 --cache 32K:8:64 --cache 1M:16:64:wb:10 -o "$work/w0b" -- "$@")
  cmd_j1none=(./edan trace --no-profile --quiet --jobs 1 -o "$work/j1a" -- "$@")
  cmd_j1l12=(./edan trace --no-profile --quiet --jobs 1 --cache 32K:8:64 --cache 1M:16:64:wb:10 -o "$work/j1b" -- "$@")
}
# bench_window_cost: their rows beside this build's, against qemu alone, and
# what the windowed schedule (on by default) costs: the time with it against
# the time without it (its budget: 1.3x). Medians of the rounds' own ratios,
# as a drift of the machine's speed falls on a round's runs alike.
bench_window_cost() {
  local a b
  bench_row "edan trace, online, no cache, --window 0" w0none qemu
  bench_row "edan trace, online, L1+L2, --window 0" w0l12 qemu
  a=$(bench_ratio_median none w0none)
  b=$(bench_ratio_median l12 w0l12)
  awk -v a="$a" -v b="$b" 'BEGIN {printf "  the windowed schedule: no cache %.2fx the time of --window 0, L1+L2 %.2fx (<= 1.3x: %s)\n",
                                   a, b, a <= 1.3 && b <= 1.3 ? "met" : "not met"}'
  bench_row "edan trace, online, no cache, --jobs 1" j1none qemu
  bench_row "edan trace, online, L1+L2, --jobs 1" j1l12 qemu
  # All the work on one thread, spread over every core without any cost of
  # handing it over: about the least any run of this build can take here
  # (the threads' run does that work and the hand-over besides; the one
  # thread plays the schedule its own way, so the two do not match exactly)
  awk -v a="$(bench_ratio_median j1none qemu)" -v b="$(bench_ratio_median j1l12 qemu)" -v c="$(nproc)" 'BEGIN {
    printf "  about the least ratio to qemu alone that %d cores allow this work (--jobs 1 over the cores): no cache %.2fx, L1+L2 %.2fx\n",
           c, a / c, b / c }'
}
# bench_summary ISA: this run's figures, as JSON in build/bench/speed-ISA-SIZE.json,
# from which tests/bench/readme_speed.py writes README's table of where the
# speed stands: the build, the machine, the medians and the rounds' own
# ratios to qemu alone (uses the caller's size, n and runs).
# The build is the checkout's commit as the rounds start (with changes: its
# engine's sources differed from it).
bench_commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain -- edan.h tools 2>/dev/null)" ] || bench_commit="$bench_commit with changes"
bench_summary() {
  local out="build/bench/speed-$1-$size.json"
  mkdir -p build/bench
  python3 - "$out" "$1" "$size" "$n" "$runs" "$bench_commit" "$(nproc)" \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(bench_median <<<"${times[qemu]}")" "$(bench_median <<<"${times[none]}")" "$(bench_median <<<"${times[l12]}")" \
    "$(bench_ratio_median none qemu)" "$(bench_ratio_median l12 qemu)" \
    "$(bench_ratio_median j1none qemu)" "$(bench_ratio_median j1l12 qemu)" <<'PY'
import datetime, json, os, sys
a = sys.argv[1:]
d = {"isa": a[1], "gemm": int(a[2]), "instructions": int(a[3]), "rounds": int(a[4]), "commit": a[5],
     "cores": int(a[6]), "cpu": a[7], "load": a[8], "date": datetime.date.today().isoformat(),
     "seconds": {"qemu": float(a[9]), "none": float(a[10]), "l12": float(a[11])},
     "ratio": {"none": float(a[12]), "l12": float(a[13]), "jobs1_none": float(a[14]), "jobs1_l12": float(a[15])}}
tmp = a[0] + ".tmp"
with open(tmp, "w") as f:
    json.dump(d, f, indent=1)
os.replace(tmp, a[0])
PY
  echo "  summary for README: $out (python3 tests/bench/readme_speed.py)"
}
