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
# bench_base_online: with EDAN_BASE set, the rows of its two online runs
# (base_none, base_l12, timed by bench_rounds) beside this build's t_none
# and t_l12, against t_qemu; uses the caller's row and median.
bench_base_online() {
  [ -n "${EDAN_BASE:-}" ] || return 0
  local bn bl
  bn=$(median base_none); bl=$(median base_l12)
  row "$EDAN_BASE: online analysis, no cache" "$bn" "$t_qemu"
  row "$EDAN_BASE: online analysis, L1 32K + L2 1M" "$bl" "$t_qemu"
  awk -v a="$t_none" -v b="$bn" -v c="$t_l12" -v d="$bl" \
    'BEGIN {printf "  this build against EDAN_BASE: no cache %.2fx the time, L1+L2 %.2fx\n", a / b, c / d}'
}
