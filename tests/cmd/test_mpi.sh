#!/usr/bin/env bash
# A whole MPI job under the cluster's own launcher (Open MPI's mpirun on
# loopback; MPICH's mpiexec too when installed):
#  - 4 ranks of examples/mpi_stencil.c, N cells a rank, T sweeps, traced
#    with --func kernel_stencil -o DIR/rank%r.json: each rank's W and D
#    worked out from the kernel: a call updates N cells (an interior rank)
#    or N - 1 (ranks 0 and 3: the job's boundary cell stays fixed), two
#    loads and a store a cell, plus the load of the constant 0.5 and ret's
#    load: W = T (3 cells + 2); each sweep reads the last one's stores: D =
#    2T; every rank's file there, `edan job`'s totals their sums;
#  - the MPI + OpenMP conjugate gradient traced and reported as one job;
#  - refusals: an output without %r under 2 ranks (before anything runs),
#    `edan job` of a missing, a duplicate and a foreign rank, of a rank of
#    another ISA, a fractional rank number and D above W;
#  - --ranks: rank 1 traced alone, the others plain.
. "$(dirname "$0")/../lib.sh"
command -v mpirun > /dev/null || { bad "mpirun is missing (tools/deps.sh installs openmpi-bin)"; exit 1; }
[ -x build/examples-host/mpi_stencil ] || { bad "build/examples-host/mpi_stencil is not built (make)"; exit 1; }
# Open MPI refuses root without these; loopback only
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_tcp_if_include=lo
MPIRUN=(mpirun --oversubscribe)
# json FILE KEY...: each key's value in the report, its first configuration or its job section
json() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    for part in (d.get("job", {}), d["configs"][0], d):
        if k in part:
            print(part[k], end=" ")
            break
print()' "$@" | sed "s/ $//"; }

N=100 SW=4
mkdir -p "$T/st"
"${MPIRUN[@]}" -np 4 ./edan trace --quiet --json -o "$T/st/rank%r.json" --func kernel_stencil -- \
  build/examples-host/mpi_stencil $N $SW > "$T/out" 2> "$T/err" || bad "the traced stencil job failed: $(tail -3 "$T/err")"
sumW=0
for r in 0 1 2 3; do
  f=$T/st/rank$r.json
  cells=$N; { [ $r = 0 ] || [ $r = 3 ]; } && cells=$((N - 1))
  want="$r 4 $((SW * (3 * cells + 2))) $((2 * SW))"
  got=$([ -s "$f" ] && json "$f" rank size W D)
  [ "$got" = "$want" ] && ok "stencil rank $r: W D = $((SW * (3 * cells + 2))) $((2 * SW)) ($cells cells a sweep)" \
    || bad "stencil rank $r: got '$got', want '$want'"
  sumW=$((sumW + SW * (3 * cells + 2)))
done
grep -q "mpi_stencil checksum" "$T/out" && ok "the program's own output came through (rank 0's)" || bad "no checksum line: $(cat "$T/out")"
./edan job --json "$T"/st/rank*.json > "$T/job.json" 2> "$T/err"; rc=$?
python3 - "$T/job.json" $sumW <<'EOF' && [ $rc = 0 ] && ok "edan job: 4 ranks, W total $sumW, the ranks' sum" || bad "edan job: exit $rc $(head -c 400 "$T/job.json") $(cat "$T/err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ranks"] == 4 and d["total"]["W"] == int(sys.argv[2]), d["total"]
assert d["total"]["W"] == sum(r["W"] for r in d["by_rank"])
assert d["total"]["instructions"] == sum(r["instructions"] for r in d["by_rank"])
assert d["slowest"]["rank"] in (1, 2), d["slowest"]      # the interior ranks do more
EOF
# edan rank and plot name each rank's result by its program and rank (rank: three tables, by
# lambda_window, lambda and Lambda)
./edan rank "$T"/st/rank*.json > "$T/rank.txt" 2> "$T/err" && [ "$(grep -c 'mpi_stencil rank [0-3] ' "$T/rank.txt")" -eq 12 ] \
  && ok "edan rank: each rank's result named 'mpi_stencil rank R'" || bad "edan rank of the ranks: $(head -5 "$T/rank.txt") $(cat "$T/err")"
for r in 1 2; do   # a timeline each, to plot (the job was traced without --tau)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["configs"][0]["timeline"]={"tau":10,"bins":[1,2,3]}; json.dump(d,open(sys.argv[2],"w"))' \
    "$T/st/rank$r.json" "$T/tl$r.json"
done
./edan plot "$T/tl1.json" "$T/tl2.json" -o "$T/ranks.svg" 2> "$T/err" && grep -q "mpi_stencil rank 1" "$T/ranks.svg" && grep -q "mpi_stencil rank 2" "$T/ranks.svg" \
  && ok "edan plot: the ranks' legends 'mpi_stencil rank 1' and '... rank 2'" || bad "edan plot of the ranks: $(cat "$T/err")"
./edan job --svg "$T/job.svg" "$T"/st/rank*.json > "$T/job.txt" 2> "$T/err" && grep -q "bounds the job" "$T/job.txt" && grep -q "<rect" "$T/job.svg" \
  && ok "edan job: the table and the chart of the ranks' bounds" || bad "edan job table/svg: $(cat "$T/err")"

# refusals
"${MPIRUN[@]}" -np 2 ./edan trace --quiet -o "$T/one.json" --func kernel_stencil -- build/examples-host/mpi_stencil 10 1 \
  > /dev/null 2> "$T/err"; rc=$?
[ $rc != 0 ] && grep -q "would be written by every rank: put %r" "$T/err" && grep -q "OMPI_COMM_WORLD_SIZE" "$T/err" && [ ! -e "$T/one.json" ] \
  && ok "an output without %r under 2 ranks: refused before anything ran, the variable named" || bad "no %r: exit $rc $(head -3 "$T/err")"
./edan job "$T/st/rank0.json" "$T/st/rank1.json" "$T/st/rank3.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "missing: 2" "$T/err" && ok "edan job without rank 2: refused, named" || bad "missing rank: exit $rc $(cat "$T/err")"
./edan job "$T"/st/rank*.json "$T/st/rank1.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "both rank 1" "$T/err" && ok "edan job with rank 1 twice: refused, named" || bad "duplicate rank: exit $rc $(cat "$T/err")"
mkdir -p "$T/other"
"${MPIRUN[@]}" -np 4 ./edan trace --quiet --json -o "$T/other/rank%r.json" --func kernel_stencil -- \
  build/examples-host/mpi_stencil 50 $SW > /dev/null 2>&1
./edan job "$T/st/rank0.json" "$T/st/rank1.json" "$T/st/rank2.json" "$T/other/rank3.json" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "other/rank3.json is not of the job" "$T/err" && ok "edan job with a rank of another job: refused, named" \
  || bad "foreign rank: exit $rc $(cat "$T/err")"
# a rank of another ISA, a fractional rank number, D above W: each refused, the file and field named
mkdir -p "$T/bad"
edit() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d,open(sys.argv[2],"w"))' "$@"; }
cp "$T"/st/rank[023].json "$T/bad/"
for c in 'isa|d["isa"]="x86-64" if d["isa"]!="x86-64" else "riscv64"|"isa"' \
         'fraction|d["job"]["rank"]=1.5|"job"."rank" is not a whole number' \
         'depth|d["configs"][0]["D"]=d["configs"][0]["W"]+1|D ('; do
  name=${c%%|*} rest=${c#*|} code=${rest%%|*} want=${rest#*|}
  edit "$T/st/rank1.json" "$T/bad/rank1.json" "$code"
  ./edan job "$T"/bad/rank*.json > /dev/null 2> "$T/err"; rc=$?
  [ $rc = 2 ] && grep -q "bad/rank1.json" "$T/err" && grep -qF "$want" "$T/err" \
    && ok "edan job refuses a rank's $name: exit 2, '$(head -c 120 "$T/err")'" || bad "edan job, a rank's $name: exit $rc $(cat "$T/err")"
done

# --ranks: rank 1 alone traced, the others run plain (no report of theirs);
# 40 cells a rank, more than the store buffer's 32 stores: a sweep's loads
# find none of the sweep before in it, and every access is a RAM access
mkdir -p "$T/some"
"${MPIRUN[@]}" -np 3 ./edan trace --quiet --json --ranks 1 -o "$T/some/rank%r.json" --func kernel_stencil -- \
  build/examples-host/mpi_stencil 40 2 > /dev/null 2> "$T/err"
[ "$(ls "$T/some")" = rank1.json ] && [ "$(json "$T/some/rank1.json" W)" = $((2 * (3 * 40 + 2))) ] \
  && ok "--ranks 1: rank 1 alone traced" || bad "--ranks 1: $(ls "$T/some") $(tail -2 "$T/err")"

# MPI + OpenMP conjugate gradient: the job report of 2 ranks of 2 threads each
mkdir -p "$T/cg"
OMP_NUM_THREADS=2 "${MPIRUN[@]}" -np 2 ./edan trace --quiet --json -o "$T/cg/rank%r.json" --func kernel_matvec \
  --func kernel_dot --func kernel_axpy -- build/examples-host/mpi_cg 128 5 > "$T/out" 2> "$T/err"
./edan job "$T"/cg/rank*.json > "$T/cg.txt" 2> "$T/err2" && grep -q "mpi_cg residual" "$T/out" && grep -q "^Job of 2 ranks" "$T/cg.txt" \
  && ok "MPI + OpenMP conjugate gradient: 2 ranks, one job report" || bad "mpi_cg: $(tail -3 "$T/err") $(cat "$T/err2")"

# MPICH, where installed
if command -v mpiexec.mpich > /dev/null && command -v mpicc.mpich > /dev/null; then
  mpicc.mpich -O2 -Iexamples -o "$T/st_mpich" examples/mpi_stencil.c -lm
  mkdir -p "$T/mpich"
  mpiexec.mpich -n 4 ./edan trace --quiet --json -o "$T/mpich/rank%r.json" --func kernel_stencil -- "$T/st_mpich" $N $SW \
    > /dev/null 2> "$T/err"
  [ "$(json "$T/mpich/rank1.json" W)" = $((SW * (3 * N + 2))) ] && ok "MPICH: rank 1's W as under Open MPI" \
    || bad "MPICH: $(tail -2 "$T/err")"
else
  echo "note: MPICH is not installed (mpich): its mpiexec is not tried"
fi
exit $fail
