#!/usr/bin/env bash
# The verdict, README "Reading the verdict". With the windowed schedule (the
# default) its class is the share of the window's time T_window that is RAM
# latency more slots would not hide: lambda_window alpha / T_window times the
# larger of D / max(lambda_window, lambda(m)) (the chain's share, as the
# paper's where the window adds nothing) and 1 - (W/m) /
# lambda_window (the latencies beyond the W/m rounds m slots need: accesses
# too far apart to share the window); without it (--window 0, --paper) the longest chain's share of
# the upper bound's RAM latencies, D / lambda(m). Latency-bound from 0.5,
# mixed from 0.1. A load that every later access depends on (a
# loop-invariant pointer, an OpenMP kernel's shared variables) chains nearly
# every access but adds one round trip to D: such a kernel is not
# latency-bound; a pointer chase is; so are searches that each outgrow the
# window, which the paper's bounds call throughput-bound.
. "$(dirname "$0")/../lib.sh"

# check_verdict JSON [CLASS...]: the JSON verdict of every configuration
# carries its numbers, they follow from W, D and m, the class from the
# thresholds; with CLASS arguments, configuration k's class is the k-th
check_verdict() {
  python3 - "$@" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
want = sys.argv[2:]
def cls_of(share, ram):
    if ram < 0.1: return "compute-bound"
    return "latency-bound" if share >= 0.5 else "mixed" if share >= 0.1 else "throughput-bound"
for k, c in enumerate(r["configs"]):
    v = c["verdict"]
    W, D, m = c["W"], c["D"], v["m"]
    assert (v["W"], v["D"]) == (W, D), (v["W"], v["D"], W, D)
    assert v["latency_bound_from"] == 0.5 and v["mixed_from"] == 0.1 and v["compute_bound_below"] == 0.1, v
    lam = (W - D) / m + D if W else 0.0
    assert abs(v["W_over_m"] - W / m) <= 1e-12 * W and abs(v["lambda"] - lam) <= 1e-12 * max(1, lam), v
    share = D / lam if lam else 0.0
    assert abs(v["chain_share"] - share) <= 1e-12, (v["chain_share"], share)
    t = v["text"]
    if v["from"] == "window":
        lw = v["lambda_window"]
        assert c["m"][str(m)]["lambda_window"] == lw and c["m"][str(m)]["T_window"] == v["T_window"], (c["m"], v)
        assert 0 <= lw <= W, (lw, W)
        share = ram = 0.0
        if lw and v["T_window"]:
            ram = min(1.0, lw * c["alpha"] / v["T_window"])
            # each thread that ran is a core with m slots of its own: the busiest's accesses over them
            ran = [t["configs"][k]["W"] for t in r.get("threads", []) if t["instructions"]]
            busiest = max(ran) if ran else W
            share = max(0.0, min(1.0, max(D / max(lw, lam), 1 - busiest / m / lw)) * ram)
        assert abs(v["window_share"] - share) <= 1e-12, (v["window_share"], share)
        if W: assert t.startswith(cls_of(share, ram) + ": on a core's window") and f" {lw:,} of the {W:,} RAM" in t, t
    else:
        assert v["from"] == "bounds" and "lambda_window" not in v, v
        Tu = c["m"][str(m)]["T_upper"]
        ram = lam * c["alpha"] / Tu if Tu else 0.0
        if W:
            assert f"makes {D:,} RAM round trip" in t and f"all {W:,} RAM accesses with {m} in flight" in t, t
            assert "wait for an earlier" not in t, t
    assert abs(v["ram_share"] - ram) <= 1e-12, (v["ram_share"], ram)
    cls = "none" if not W else cls_of(share, ram)
    assert v["class"] == cls, (c["name"], v["class"], cls, share)
    if k < len(want): assert cls == want[k], (c["name"], cls, want[k], v["text"])
    if W: assert t.startswith(cls + ": "), t
EOF
}

# --- an axpy whose one invariant load (the arrays' base, from memory) every
# address depends on: 3,000 of the 3,001 RAM accesses have it on a path, D 3
{
  echo 'ld a1,0(a0);0x10000'
  echo 'add a2,a1,a3'
  python3 -c "
for i in range(1000):
    print(f'fld fa1,0(a1);{0x20000 + 8 * i:#x}')
    print(f'fld fa2,0(a2);{0x40000 + 8 * i:#x}')
    print('fmadd.d fa2,fa0,fa1,fa2')
    print(f'fsd fa2,0(a2);{0x40000 + 8 * i:#x}')
    print('addi a1,a1,8')
    print('addi a2,a2,8')"
} > "$T/invariant.txt"
./edan analyze --window 0 --json "$T/invariant.txt" > "$T/invariant.json" || bad "the invariant-load trace does not analyse"
python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['configs'][0]
assert (c['W'], c['D'], c['chained']) == (3001, 3, 3000), (c['W'], c['D'], c['chained'])" "$T/invariant.json" \
  && check_verdict "$T/invariant.json" throughput-bound \
  && ok "one invariant load under every access (3,000 of 3,001 chained, D 3): throughput-bound" \
  || bad "the invariant load's verdict: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["verdict"])' "$T/invariant.json")"

# --- the thresholds, at m = 4: a chain of D dependent loads beside W - D
# independent ones; D / lambda exactly 0.5 and 0.1 on the boundaries
chain_trace() {  # chain_trace D INDEPENDENT
  python3 -c "
import sys
d, n = int(sys.argv[1]), int(sys.argv[2])
for i in range(d): print(f'ld a0,0(a0);{0x10000 + 8 * i:#x}')
for i in range(n): print(f'ld t0,0(a1);{0x80000 + 8 * i:#x}')" "$@"
}
for c in "20 20 latency-bound" "10 40 latency-bound" "9 41 mixed" "5 60 mixed" "2 72 mixed" "2 73 throughput-bound"; do
  set -- $c
  chain_trace "$1" "$2" > "$T/chain.txt"
  ./edan analyze --window 0 --json "$T/chain.txt" > "$T/chain.json" && check_verdict "$T/chain.json" "$3" \
    && ok "D $1 beside $2 independent loads (m 4, no window): $3" || bad "D $1 beside $2 independent loads: not $3"
done
# --- the window: 100 binary-tree searches of 10 levels, each level a load of
# the node the last one chose and 19 instructions of compares and index
# arithmetic beside it: a search (200 instructions) outgrows the window of
# 192, so a core waits on each level's load, one search after another. The
# paper's bounds overlap the searches (D 10, lambda(4) 257.5 of W 1,000):
# throughput-bound; the window: lambda_window about W, latency-bound. With
# a window of 4,096 the searches overlap 4 at a time (m 4): throughput-bound.
python3 -c "
for s in range(100):
    for l in range(10):
        print(f'ld a0,0(a0);{0x100000 + 4096 * s + 64 * l:#x}')
        for j in range(19): print(f'addi t{j % 4},t{j % 4},1')
    print('addi a0,a1,0')" > "$T/search.txt"
./edan analyze --json "$T/search.txt" > "$T/search.json" && check_verdict "$T/search.json" latency-bound \
  && ok "100 searches that outgrow the window: latency-bound" \
  || bad "100 searches, window: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["verdict"])' "$T/search.json")"
./edan analyze --window 0 --json "$T/search.txt" > "$T/search0.json" && check_verdict "$T/search0.json" throughput-bound \
  && ok "the same searches by the paper's bounds (--window 0): throughput-bound" || bad "100 searches, no window"
./edan analyze --window 4096 --lq 4096 --json "$T/search.txt" > "$T/search4k.json" \
  && check_verdict "$T/search4k.json" throughput-bound \
  && ok "the same searches in a window of 4,096: throughput-bound" \
  || bad "100 searches, window 4096: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["verdict"])' "$T/search4k.json")"
printf 'addi a0,a0,1\n' > "$T/none.txt"
./edan analyze --json "$T/none.txt" > "$T/none.json" && check_verdict "$T/none.json" none \
  && ok "no RAM access: class none" || bad "no RAM access: $(cat "$T/none.json" | head -c 600)"

# --- the example kernels: the chase is latency-bound with a cache and
# without; gemm, triad and the OpenMP kernels (two threads, either ISA) are not
trace_verdict() {  # trace_verdict WHAT CLASSES -- edan trace arguments
  local what=$1 classes=$2; shift 3
  if OMP_NUM_THREADS=2 ./edan trace --quiet --json -o "$T/k.json" "$@" > /dev/null 2> "$T/err"; then
    check_verdict "$T/k.json" $classes && ok "$what: $classes" \
      || bad "$what: $(python3 -c 'import json,sys; print([c["verdict"]["text"] for c in json.load(open(sys.argv[1]))["configs"]])' "$T/k.json")"
  else
    bad "$what: edan trace failed: $(tail -n 3 "$T/err")"
  fi
}
trace_verdict "chase (RISC-V), L1 1K and no cache" "latency-bound latency-bound" -- \
  --func kernel_chase --cache 1K:2:64 --config=none -- build/examples/chase 4096
trace_verdict "chase (x86-64), L1 1K and no cache" "latency-bound latency-bound" -- \
  --func kernel_chase --cache 1K:2:64 --config=none -- build/examples-host/chase 4096
trace_verdict "gemm (RISC-V), L1 32K and no cache" "mixed throughput-bound" -- \
  --func kernel_gemm --cache 32K:8:64 --config=none -- build/examples/gemm 32
trace_verdict "triad (RISC-V), no cache" "throughput-bound" -- --func kernel_triad -- build/examples/triad 10000
# a gemm the cache holds: its cold misses are under a tenth of the window's
# time when RAM is 20 cycles away (compute-bound); without the cache, and a
# triad through the same cache, stay bound by RAM
trace_verdict "gemm 64 (RISC-V) in a 1 MiB L1 and without, alpha 20" "compute-bound throughput-bound" -- \
  --func kernel_gemm --cache 1M:8:64 --alpha 20 --config=none --alpha 20 -- build/examples/gemm 64
trace_verdict "triad (RISC-V) in a 1 MiB L1, alpha 20" "throughput-bound" -- \
  --func kernel_triad --cache 1M:8:64 --alpha 20 -- build/examples/triad 10000
for isa in examples examples-host; do
  trace_verdict "omp_triad ($isa), L1 32K and no cache" "throughput-bound throughput-bound" -- \
    --func kernel_triad --cache 32K:8:64 --config=none -- build/$isa/omp_triad 10000
  trace_verdict "omp_gemm ($isa), no cache" "throughput-bound" -- --func kernel_gemm -- build/$isa/omp_gemm 32
done

# --- the line: the class first, the numbers of the JSON as printed
./edan analyze --window 0 "$T/invariant.txt" > "$T/invariant.out"
grep -qF "Verdict [no cache]: throughput-bound: the longest chain makes 3 RAM round trips in a row, against 750 rounds for all 3,001 RAM accesses with 4 in flight; the chain is 0.4% of the upper bound's 753 rounds, RAM latency 98% of its time; 100 ns more RAM latency adds" "$T/invariant.out" \
  && ok "the verdict line of the invariant load" || bad "the verdict line: $(grep Verdict "$T/invariant.out")"
exit $fail
