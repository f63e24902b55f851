#!/usr/bin/env bash
# `edan trace` on programs of several threads, both ISAs (one eDAG, each
# thread's registers its own, memory shared):
#  - examples/threads.c, pthread walks whose W and D follow by hand (its
#    comment): two threads at once (D the longer walk's), a hand-off through
#    a shared pointer after a join (D the sum, as the same two walks by one
#    thread give), a barrier then walks of three lengths (W the sum, D the
#    longest), 1000 short threads one after the other (D = 12 per thread);
#    per-thread W and D; the hand-off's one edge between threads; --threads keeps one thread (the hand-off then
#    starts from nothing); the online report = the binary trace's = the
#    text trace's;
#  - OpenMP (libgomp) fork-join kernels: five runs give the same W and D,
#    whole and per thread, with 2 and 4 threads (the reduction's not: the
#    partial sums are added in the order the threads come, and a thread's
#    load of the sum is forwarded when it stored it last; its accesses, W +
#    forwarded, loads and stores, are the same); the pipeline over a
#    mutex-and-condition-variable queue runs to the native answer;
#  - three forks and a system() beside a walking thread (tests/cmd/fork_threads.c):
#    the walk exact, the forks said;
#  - 4000 short threads: what edan adds to QEMU's own memory stays small;
#  - --func of an OpenMP kernel counts what libgomp ran around its parallel
#    region, a callback into the scope, as called out;
#  - a bad --threads list: exit 2, nothing run.
. "$(dirname "$0")/../lib.sh"
E=./edan
for t in qemu-x86_64 qemu-riscv64; do command -v $t > /dev/null || { bad "$t is missing (tools/deps.sh)"; exit 1; }; done

# run NAME OPTIONS... -- PROGRAM ARGS: the report in $T/NAME.json
run() { local name=$1; shift; $E trace --no-cache --json --quiet "$@" > "$T/$name.json" 2> "$T/$name.err"; }
# whole FILE: "W D", then per thread "W/D" (their ids in order)
whole() { python3 -c '
import json, sys
r = json.load(open(sys.argv[1])); c = r["configs"][0]
print(c["W"], c["D"], " ".join("%d/%d" % (t["configs"][0]["W"], t["configs"][0]["D"]) for t in r.get("threads", [])))' "$1"; }

for isa in host rv; do
  if [ $isa = host ]; then P=build/examples-host/threads; ret=1; else P=build/examples/threads; ret=0; fi
  [ -x $P ] || { bad "$P is missing (make examples)"; continue; }
  n=100
  # a walk of k nodes: k + 2 accesses (+ the x86 ret's load of its return address)
  w() { echo $(($1 + 2 + ret)); }
  checks=(
    "chases|$(( $(w $n) + $(w $((2 * n))) )) $((2 * n + 2)) 0/0 $(w $n)/$((n + 2)) $(w $((2 * n)))/$((2 * n + 2))|two threads at once: D the longer walk's"
    "handoff|$((2 * $(w $n))) $((2 * n + 4)) 0/0 $(w $n)/$((n + 2)) $(w $n)/$((2 * n + 4))|a hand-off after a join: D the sum, B's chain runs through A"
    "serial|$((2 * $(w $n) - 1)) $((2 * n + 2)) |the same two walks by one thread: the second's load of the pointer is forwarded from the first's store"
    "parfor 3|$(( $(w 50) + $(w 100) + $(w 150) )) 152 0/0 $(w 50)/52 $(w 100)/102 $(w 150)/152|a barrier, then walks of 50, 100, 150 nodes"
  )
  for c in "${checks[@]}"; do
    mode=${c%%|*}; rest=${c#*|}; want=${rest%%|*}; what=${rest#*|}
    arg=$n; [ "$mode" = "parfor 3" ] && arg=50
    if run t --func kernel_walk -- $P $mode $arg; then
      got=$(whole "$T/t.json")
      [ "$got" = "$want" ] && ok "$isa threads $mode $arg: W D per-thread W/D = $want ($what)" \
        || bad "$isa threads $mode $arg: got '$got', want '$want'"
    else
      bad "$isa threads $mode: $(tail -3 "$T/t.err")"
    fi
  done
  if run t --func kernel_walk -- $P handoff $n; then
    got=$(python3 -c 'import json,sys; print(*[t["cross_edges"] for t in json.load(open(sys.argv[1]))["threads"]])' "$T/t.json")
    [ "$got" = "0 0 1" ] && ok "$isa handoff: one edge between the threads (B's load of the pointer A stored)" \
      || bad "$isa handoff: cross-thread edges per thread '$got', want '0 0 1'"
  else
    bad "$isa handoff: $(tail -3 "$T/t.err")"
  fi
  if run t --threads 2 --func kernel_walk -- $P handoff $n; then
    got=$(whole "$T/t.json")
    want="$(w $n) $((n + 2)) 0/0 0/0 $(w $n)/$((n + 2))"
    [ "$got" = "$want" ] && ok "$isa --threads 2: B alone, its chain starts from nothing: $want" \
      || bad "$isa --threads 2: got '$got', want '$want'"
  else
    bad "$isa --threads 2: $(tail -3 "$T/t.err")"
  fi
  if run t --func kernel_walk -- $P many 1000; then
    got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["configs"][0]["D"], len(r["threads"]))' "$T/t.json")
    [ "$got" = "12000 1001" ] && ok "$isa 1000 short threads: D 12000, 1001 threads reported" \
      || bad "$isa 1000 short threads: got '$got', want '12000 1001'"
  else
    bad "$isa 1000 short threads: $(tail -3 "$T/t.err")"
  fi
  O="--tau 100 --config=l1 --cache 4K:4:64"
  if $E trace $O --analyze --json --quiet --func kernel_walk --binary "$T/p.bt" --text "$T/p.txt" -- $P parfor 3 50 \
       > "$T/on.json" 2> "$T/on.err" &&
     $E analyze $O --json --quiet "$T/p.bt" > "$T/bin.json" 2> "$T/bin.err" &&
     $E analyze $O --json --quiet "$T/p.txt" > "$T/txt.json" 2> "$T/txt.err"; then
    strip() {   # the analysis, without the input's name, its header and what only the tracer knows
      python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
for k in ("source", "isa", "vertices", "machine_instructions", "tracer"): d.pop(k, None)
print(json.dumps(d, sort_keys=True, indent=1))' "$1"
    }
    if cmp -s <(strip "$T/on.json") <(strip "$T/bin.json") && cmp -s <(strip "$T/on.json") <(strip "$T/txt.json"); then
      ok "$isa parfor: online = binary trace = text trace ($(grep -c '^#edan-thread' "$T/p.txt") #edan-thread lines)"
    else
      bad "$isa parfor: the reports differ"
    fi
  else
    bad "$isa parfor traces: $(tail -3 "$T"/*.err)"
  fi

  # OpenMP fork-join kernels: five runs, the same answer
  for k in "omp_gemm 24 gemm" "omp_triad 3000 triad" "omp_reduce 3000 omp_reduce"; do
    set -- $k; prog=$1 size=$2 func=kernel_$3
    if [ $isa = host ]; then B=build/examples-host/$prog; else B=build/examples/$prog; fi
    for th in 2 4; do
      : > "$T/runs"
      for i in 1 2 3 4 5; do
        if ! OMP_NUM_THREADS=$th run o --func $func -- $B $size; then
          echo "failed: $(tail -2 "$T/o.err")" >> "$T/runs"
        elif [ $prog = omp_reduce ]; then    # the accesses: W + forwarded, loads, stores
          python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["configs"][0]
print(c["W"] + c["forwarded"], c["loads"], c["stores"])' "$T/o.json" >> "$T/runs"
        else
          whole "$T/o.json" >> "$T/runs"
        fi
      done
      if [ "$(sort -u "$T/runs" | wc -l)" = 1 ] && [ "$(wc -w < "$T/runs")" -ge 10 ]; then
        ok "$isa $prog $size, $th threads: five runs, one answer (W D per-thread: $(head -1 "$T/runs" | cut -c1-60))"
      else
        bad "$isa $prog $size, $th threads: $(sort | uniq -c < "$T/runs" | head -5)"
      fi
    done
  done
  if [ $isa = host ]; then B=build/examples-host/omp_pipeline; else B=build/examples/omp_pipeline; fi
  native=$(if [ $isa = host ]; then $B 2000; else qemu-riscv64 $B 2000; fi)
  # the report on standard output, the program's on standard error
  if $E trace --quiet --func kernel_omp_pipeline -- $B 2000 > "$T/pipe.out" 2> "$T/pipe.err" &&
     grep -qxF "$native" "$T/pipe.err" && ! grep -q warning "$T/pipe.err"; then
    ok "$isa omp_pipeline: runs under the analysis to the native answer ($native)"
  else
    bad "$isa omp_pipeline: want '$native': $(tail -3 "$T/pipe.err")"
  fi
done

# forks (and a system()) while another thread walks: the parent's walk whole
for isa in host rv; do
  if [ $isa = host ]; then cc=gcc; ret=1; else cc="riscv64-linux-gnu-gcc -static"; ret=0; fi
  $cc -std=c99 -O2 -pthread -Iexamples -o "$T/fork_$isa" tests/cmd/fork_threads.c || { bad "cannot build fork_threads.c"; continue; }
  if run f --func kernel_walk -- "$T/fork_$isa" 500; then
    got=$(whole "$T/f.json")
    want="$((500 + 2 + ret)) 502 0/0 $((500 + 2 + ret))/502"
    [ "$got" = "$want" ] && grep -q "forked 4 times; only the parent" "$T/f.err" && ! grep -q "not analysed" "$T/f.err" \
      && ok "$isa three forks and a system() beside a walking thread: its W D whole ($want), the forks said" \
      || bad "$isa forks: got '$got', want '$want'; $(cat "$T/f.err")"
  else
    bad "$isa forks: $(tail -3 "$T/f.err")"
  fi
done

# 4000 short threads: QEMU 7.2 itself keeps about 25 KB a thread; the
# analysis adds its few megabytes, not more per thread
P=build/examples-host/threads
# peak_kb COMMAND...: the largest resident size (KB) of the command and its children
peak_kb() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"; }
q=$(peak_kb qemu-x86_64 $P many 4000)
e=$(peak_kb $E trace --quiet --func kernel_walk -- $P many 4000)
if [ -n "$q" ] && [ -n "$e" ] && [ $((e - q)) -lt 16384 ]; then
  ok "4000 short threads: edan trace's peak memory $e KB, QEMU alone $q KB"
else
  bad "4000 short threads: edan trace $e KB, QEMU alone $q KB (more than 16 MB apart)"
fi

# --func kernel_triad of one OpenMP thread: GOMP_parallel, which it calls, calls
# back its parallel region (kernel_triad._omp_fn.0, in the scope as a clone
# of the name); what GOMP_parallel ran around it, counted as called out of
# the scope, and the scope's own instructions are --region kernel_triad's
ci() { OMP_NUM_THREADS=1 $E trace --quiet --json "$1" kernel_triad -- build/examples-host/omp_triad 1000 2>/dev/null |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["machine_instructions"], d["tracer"].get("called_out", {}).get("instructions", "-"))'; }
read -r fi fo <<< "$(ci --func)"
read -r ri _ <<< "$(ci --region)"
[ -n "$fi" ] && [ "$fo" != - ] && [ "$fo" -gt 0 ] && [ $((fi + fo)) = "$ri" ] \
  && ok "--func kernel_triad (OpenMP, 1 thread): its $fi instructions and the $fo its call to libgomp ran around the callback are --region's $ri" \
  || bad "--func kernel_triad's called_out: '$fi' '$fo', --region '$ri'"

$E trace --threads 1-x -- $P chases 10 > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "threads '1-x'" "$T/err" && ok "--threads 1-x: exit 2, $(cat "$T/err")" \
  || bad "--threads 1-x: rc=$rc $(cat "$T/err")"
exit $fail
