#!/usr/bin/env bash
# probe against likwid-bench and a plain pointer chase, side by side in one
# run: bandwidth (load, store, non-temporal store) at the working sets and
# thread counts of a fresh `probe --quick` profile, and latency per level.
# Each pair is measured alternately ROUNDS times (default 3; ROUNDS=7 to
# tell a difference from the noise), since the machine may be shared: the
# load average is printed with the numbers. Two ratios per pair: of the two
# medians, and the median of the rounds' own ratios (each round's two runs
# are seconds apart, so a drift of the machine's speed over minutes, which
# moves both tools alike, cancels in it); with the lowest and highest round
# ratio beside it. The pairs below 0.95 of likwid-bench are counted at the
# end, by each ratio.
set -u
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
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
echo "bandwidth, GB/s (1e9 B/s), medians of $ROUNDS alternating runs; likwid-bench kernels *_$isa"
echo "ratio = probe median / likwid median; paired = median of the rounds' probe/likwid [lowest, highest]"
printf "%-5s %-9s %3s %11s %10s %10s %7s %7s %15s\n" level op thr "bytes/thr" probe likwid ratio paired "round ratios"
below=0; below_paired=0; pairs=0
while read -r level op threads bytes; do
  case $op in load) lk=load_$isa ;; store) lk=store_$isa ;; store_nt) lk=store_mem_$isa ;; esac
  : > "$tmp/ours"; : > "$tmp/theirs"; : > "$tmp/rounds"
  for r in $(seq "$ROUNDS"); do
    a=$(./probe --bench "$op,$bytes,$threads" | awk '{print $1}')
    echo "$a" >> "$tmp/ours"
    if [ $have_likwid = 1 ]; then
      b=$(likwid-bench -t "$lk" -w "S0:$((bytes * threads))B:$threads" 2>/dev/null | awk '/^MByte\/s/ {print $2 / 1000}')
      if [ -n "$b" ] && [ -n "$a" ]; then
        echo "$b" >> "$tmp/theirs"
        awk -v a="$a" -v b="$b" 'BEGIN {if (b > 0) print a / b}' >> "$tmp/rounds"
      fi
    fi
  done
  ours=$(median < "$tmp/ours")
  if [ -s "$tmp/theirs" ]; then
    theirs=$(median < "$tmp/theirs"); ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN {printf "%.2f", a / b}')
    paired=$(median < "$tmp/rounds" | awk '{printf "%.2f", $1}')
    spread=$(sort -g "$tmp/rounds" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "[%.2f, %.2f]", lo, hi}')
    pairs=$((pairs + 1))
    awk -v r="$ratio" 'BEGIN {exit !(r < 0.95)}' && below=$((below + 1))
    awk -v r="$paired" 'BEGIN {exit !(r < 0.95)}' && below_paired=$((below_paired + 1))
  else
    theirs="n/a"; ratio="n/a"; paired="n/a"; spread=""
  fi
  printf "%-5s %-9s %3s %11s %10.1f %10s %7s %7s %15s\n" "$level" "$op" "$threads" "$bytes" "$ours" "$theirs" "$ratio" \
    "$paired" "$spread"
done < "$tmp/cases"
[ $pairs -gt 0 ] && echo "below 0.95 of likwid-bench: $below of $pairs pairs by the ratio of medians, $below_paired by the paired ratio (load average now $(cut -d' ' -f1-3 /proc/loadavg))"

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
