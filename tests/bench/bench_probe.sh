#!/usr/bin/env bash
# probe against likwid-bench and a plain pointer chase, side by side in one
# run: bandwidth (load, store, non-temporal store) at the working sets and
# thread counts of a fresh `probe --quick` profile, and latency per level.
# The machine may be shared (the load average is printed with the numbers),
# so each pair is measured alternately: ROUNDS rounds (default 3; ROUNDS=7
# to tell a difference from the noise), DRAM pairs DRAM_ROUNDS (default
# 2 x ROUNDS + 1: DRAM rounds spread widest). Which tool runs first
# alternates from round to round, so that neither always meets the state
# the other leaves (huge pages to assemble, a clock just gone up or down).
# Three ratios per pair: of the two medians; paired, the median of the
# rounds' own ratios (a round's two runs are seconds apart, so a drift of
# the machine's speed over minutes, which moves both tools alike, cancels),
# with the lowest and highest round ratio; and of the two tools' best runs
# (other tenants only ever take bandwidth away, so a tool's best run is the
# nearest to what the machine can do alone: CARM's rule that the roof is
# the best). The pairs below 0.95 of likwid-bench are counted by each.
set -u
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
DRAM_ROUNDS=${DRAM_ROUNDS:-$((2 * ROUNDS + 1))}
[ -x ./probe ] || { echo "bench_probe: needs ./probe (make)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)  ($(nproc) CPUs)"
./probe --quick -q -o "$tmp/p.json" || exit 1

# the reference chase: the textbook loop, independent of probe's code
cat > "$tmp/refchase.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>
int main(int argc, char **argv)
{
    size_t bytes = strtoull(argv[1], 0, 10), n = bytes / 64, i, steps = 0;
    char *buf = aligned_alloc(2 << 20, (bytes + (2 << 20) - 1) / (2 << 20) * (2 << 20));
    size_t *order = malloc(n * sizeof *order);
    struct timespec a, b;
#ifdef REF_THP
    madvise(buf, (bytes + (2 << 20) - 1) / (2 << 20) * (2 << 20), MADV_HUGEPAGE);
#endif
    void **p;
    srand(1);
    for (i = 0; i < n; i++) order[i] = i;
    for (i = n - 1; i > 0; i--) { size_t j = ((size_t)rand() * RAND_MAX + rand()) % (i + 1), t = order[i]; order[i] = order[j]; order[j] = t; }
    for (i = 0; i < n; i++) *(void **)(buf + order[i] * 64) = buf + order[(i + 1) % n] * 64;
    p = (void **)(buf + order[0] * 64);
    for (i = 0; i < n; i++) p = (void **)*p;          /* warm-up lap */
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        for (i = 0; i < 100000; i++) p = (void **)*p;
        steps += 100000;
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec) < 0.2);
    printf("%.3f %p\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / steps, (void *)p);
    return 0;
}
C
cc -O2 -D_GNU_SOURCE -o "$tmp/refchase" "$tmp/refchase.c" || exit 1
cc -O2 -D_GNU_SOURCE -DREF_THP -o "$tmp/refchase_thp" "$tmp/refchase.c" || exit 1

isa=sse
grep -qw avx512f /proc/cpuinfo && isa=avx512 || { grep -qw avx /proc/cpuinfo && isa=avx; }
have_likwid=0
command -v likwid-bench >/dev/null || bash tools/deps.sh likwid || true   # installs it as root, else prints the apt-get line
if command -v likwid-bench >/dev/null; then
  if likwid-bench -t load_$isa -w S0:24kB:1 >"$tmp/lw.out" 2>&1 && grep -q 'MByte/s' "$tmp/lw.out"; then
    have_likwid=1
  else
    echo "likwid-bench cannot run here:"; sed 's/^/    /' "$tmp/lw.out" | tail -5
  fi
else
  echo "likwid-bench is not installed (Debian package likwid)"
fi

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

python3 - "$tmp/p.json" > "$tmp/cases" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
seen = set()
for b in d["bandwidth"]:
    if b["op"] in ("load", "store", "store_nt"):
        k = (b["level"], b["op"], b["threads"])
        if k not in seen:
            seen.add(k); print(b["level"], b["op"], b["threads"], b["bytes"])
PY

echo
echo "bandwidth, GB/s (1e9 B/s), medians of $ROUNDS alternating runs ($DRAM_ROUNDS for DRAM); likwid-bench kernels *_$isa"
echo "ratio = probe median / likwid median; paired = median of the rounds' probe/likwid [lowest, highest];"
echo "best = probe's best run / likwid-bench's best run"
printf "%-5s %-9s %3s %11s %10s %10s %7s %7s %15s %6s\n" level op thr "bytes/thr" probe likwid ratio paired "round ratios" best
# likwid-bench's GB/s for the pair at hand, into b
run_likwid() {
  [ $have_likwid = 1 ] &&
    b=$(likwid-bench -t "$lk" -w "S0:$((bytes * threads))B:$threads" 2>/dev/null | awk '/^MByte\/s/ {print $2 / 1000}')
}
below=0; below_paired=0; below_best=0; pairs=0
while read -r level op threads bytes; do
  case $op in load) lk=load_$isa ;; store) lk=store_$isa ;; store_nt) lk=store_mem_$isa ;; esac
  : > "$tmp/ours"; : > "$tmp/theirs"; : > "$tmp/rounds"
  rounds=$ROUNDS; [ "$level" = DRAM ] && rounds=$DRAM_ROUNDS
  for r in $(seq "$rounds"); do
    b=""
    [ $((r % 2)) = 0 ] && run_likwid
    a=$(./probe --bench "$op,$bytes,$threads" | awk '{print $1}')
    echo "$a" >> "$tmp/ours"
    [ $((r % 2)) = 1 ] && run_likwid
    if [ -n "$b" ] && [ -n "$a" ]; then       # b stays empty without likwid-bench
      echo "$b" >> "$tmp/theirs"
      awk -v a="$a" -v b="$b" 'BEGIN {if (b > 0) print a / b}' >> "$tmp/rounds"
    fi
  done
  ours=$(median < "$tmp/ours")
  if [ -s "$tmp/theirs" ]; then
    theirs=$(median < "$tmp/theirs"); ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN {printf "%.2f", a / b}')
    paired=$(median < "$tmp/rounds" | awk '{printf "%.2f", $1}')
    spread=$(sort -g "$tmp/rounds" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "[%.2f, %.2f]", lo, hi}')
    best=$(awk -v a="$(sort -g "$tmp/ours" | tail -1)" -v b="$(sort -g "$tmp/theirs" | tail -1)" \
      'BEGIN {printf "%.2f", a / b}')
    pairs=$((pairs + 1))
    awk -v r="$ratio" 'BEGIN {exit !(r < 0.95)}' && below=$((below + 1))
    awk -v r="$paired" 'BEGIN {exit !(r < 0.95)}' && below_paired=$((below_paired + 1))
    awk -v r="$best" 'BEGIN {exit !(r < 0.95)}' && below_best=$((below_best + 1))
  else
    theirs="n/a"; ratio="n/a"; paired="n/a"; spread=""; best="n/a"
  fi
  printf "%-5s %-9s %3s %11s %10.1f %10s %7s %7s %15s %6s\n" "$level" "$op" "$threads" "$bytes" "$ours" "$theirs" \
    "$ratio" "$paired" "$spread" "$best"
done < "$tmp/cases"
[ $pairs -gt 0 ] && echo "below 0.95 of likwid-bench: $below of $pairs pairs by the ratio of medians, $below_paired by the paired ratio, $below_best by the best runs (load average now $(cut -d' ' -f1-3 /proc/loadavg))"

echo
echo "latency, ns: probe --chase (2 MiB pages where THP allows) against a plain reference chase"
echo "with the allocator's pages (ref) and with MADV_HUGEPAGE (ref_thp); one 64-byte line per step"
printf "%-5s %11s %9s %9s %9s %7s %9s\n" level bytes probe ref ref_thp ratio ratio_thp
python3 -c '
import json, sys
for l in json.load(open(sys.argv[1]))["latency"]: print(l["level"], l["bytes"])' "$tmp/p.json" |
while read -r level bytes; do
  : > "$tmp/ours"; : > "$tmp/theirs"; : > "$tmp/theirs_thp"
  for r in $(seq "$ROUNDS"); do
    ./probe --chase "$bytes" | awk '{print $1}' >> "$tmp/ours"
    "$tmp/refchase" "$bytes" | awk '{print $1}' >> "$tmp/theirs"
    "$tmp/refchase_thp" "$bytes" | awk '{print $1}' >> "$tmp/theirs_thp"
  done
  ours=$(median < "$tmp/ours"); theirs=$(median < "$tmp/theirs"); thp=$(median < "$tmp/theirs_thp")
  printf "%-5s %11s %9.2f %9.2f %9.2f %7.2f %9.2f\n" "$level" "$bytes" "$ours" "$theirs" "$thp" \
    "$(awk -v a="$ours" -v b="$theirs" 'BEGIN {print a / b}')" "$(awk -v a="$ours" -v b="$thp" 'BEGIN {print a / b}')"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)  (other work on this machine disturbs every number above)"
