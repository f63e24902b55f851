#!/usr/bin/env bash
# edan trace on what real programs do besides their kernels (the programs
# in tests/cmd/real/, built here for x86-64 with plain gcc -O2 and for
# RISC-V, static, where the ISA has the feature); each answer against the
# numbers worked out by hand or a relation that holds only when the scope
# is followed:
#  - signals: the example chase of N nodes under a 200 us timer (linked
#    with tests/cmd/real/timer.c) has D = N under
#    --func and --region (its handlers run on its registers, which their
#    sigreturn gives back); --func counts the same W with and without the
#    timer; the binary trace with its SIGNAL records gives the same W and D;
#  - non-local exits: a --region left by longjmp, a C++ exception or a
#    SIGSEGV handler's siglongjmp has the same W whatever main runs after;
#  - IFUNCs: --func memcpy traces the implementation the program calls (W
#    grows by the same amount with each call), which the report names and
#    whose own name gives the same W; --exclude memset --exclude memcpy
#    leaves the kernel's own W, whatever size they copy; the program's own
#    IFUNC is the implementation its resolver picks (W = K N);
#  - one name in two dlopened objects: both traced (W = the sum of
#    NAME@each, n + 1 and n/2 + 1), the report lists both; NAME@OBJECT of
#    an object without it is an error that names it;
#  - address randomisation: off by default (the program sees a fixed
#    layout), --aslr keeps it; the report says which.
. "$(dirname "$0")/../lib.sh"
E=./edan
R=tests/cmd/real
build() {   # build OUT COMPILER ARGS...: 0, or bad and 1
  local out=$1; shift
  "$@" -o "$out" 2> "$T/cc.err" || { bad "cannot build $out: $(head -3 "$T/cc.err")"; return 1; }
}
# the example chase (a random cycle: every load misses), with and without a timer
build "$T/chase" gcc -O2 -Iexamples examples/chase.c
build "$T/chase.rv" riscv64-linux-gnu-gcc -O2 -static -Iexamples examples/chase.c
build "$T/tchase" gcc -O2 -Iexamples examples/chase.c $R/timer.c
build "$T/tchase.rv" riscv64-linux-gnu-gcc -O2 -static -Iexamples examples/chase.c $R/timer.c
build "$T/nonlocal" gcc -O2 $R/nonlocal.c
build "$T/nonlocal.rv" riscv64-linux-gnu-gcc -O2 -static $R/nonlocal.c
build "$T/throw" g++ -O2 $R/throw.cpp
build "$T/throw.rv" riscv64-linux-gnu-g++ -O2 -static $R/throw.cpp
build "$T/ifunc" gcc -O2 $R/ifunc.c
build "$T/ifunc.rv" riscv64-linux-gnu-gcc -O2 -static $R/ifunc.c
build "$T/ifunc_b" gcc -O2 -DPICK_B $R/ifunc.c
build "$T/ifunc_b.rv" riscv64-linux-gnu-gcc -O2 -static -DPICK_B $R/ifunc.c
build "$T/liba.so" gcc -O1 -fPIC -shared -DSTRIDE=1 $R/dup_lib.c
build "$T/libb.so" gcc -O1 -fPIC -shared -DSTRIDE=2 $R/dup_lib.c
build "$T/dup_main" gcc -O2 $R/dup_main.c -ldl
build "$T/personality" gcc -O2 $R/personality.c
build "$T/personality.rv" riscv64-linux-gnu-gcc -O2 -static $R/personality.c

# trace OUT ARGS...: edan trace --json -o OUT, its exit status in $rc
trace() { local out=$1; shift; $E trace --no-profile --quiet --json -o "$out" "$@" > "$T/stdout" 2> "$T/stderr"; rc=$?; }
# get FILE PATH...: values from the report (c.W: configs[0]'s, t.x.y: tracer's), "|"-joined
get() {
  python3 - "$@" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("(no report: %s)" % e)
    sys.exit(0)
out = []
for p in sys.argv[2:]:
    v = d["configs"][0] if p.startswith("c.") else d["tracer"] if p.startswith("t.") else d
    try:
        for k in p.split(".")[1:] if p[:2] in ("c.", "t.") else p.split("."):
            v = v[int(k)] if isinstance(v, list) else v[k]
    except (KeyError, IndexError, ValueError):
        v = "(no %s)" % p
    out.append(str(v))
print("|".join(out))
EOF
}

# ---- 1. signals during a scoped kernel ----------------------------------------------------------
N=100000
for isa in x86 rv; do
  s=; [ $isa = rv ] && s=.rv
  for scope in func region; do
    trace "$T/s.json" --$scope kernel_chase -- "$T/tchase$s" $N
    got=$(get "$T/s.json" c.D t.signals.handled t.signals.returns_unseen)
    IFS='|' read -r d handled unseen <<< "$got"
    if [ $rc = 0 ] && [ "$d" = $N ] && [ "$handled" -gt 0 ] && [ "$unseen" = 0 ]; then
      ok "$isa --$scope kernel_chase under a timer: D = N = $N with $handled signal handlers run"
    else
      bad "$isa --$scope kernel_chase under a timer: exit $rc, D $d (want $N), handled $handled, unseen $unseen: $(tail -2 "$T/stderr")"
    fi
  done
  # --func: the handler runs outside the function: W as without the timer
  trace "$T/a.json" --func kernel_chase -- "$T/chase$s" $N; w0=$(get "$T/a.json" c.W)
  trace "$T/b.json" --func kernel_chase -- "$T/tchase$s" $N; w1=$(get "$T/b.json" c.W)
  want=$((2 * N)); [ $isa = x86 ] && want=$((2 * N + 1))     # x86-64: ret's load
  [ "$w0" = $want ] && [ "$w1" = $want ] && ok "$isa --func kernel_chase: W = $want with and without the timer" \
    || bad "$isa --func kernel_chase: W $w0 without the timer, $w1 with it (want $want)"
  # the binary trace carries the signals: its analysis is the online one
  $E trace --no-profile --quiet --json -o "$T/on.json" --analyze --binary "$T/s.bt" --region kernel_chase -- \
    "$T/tchase$s" $N > /dev/null 2>&1
  $E analyze --no-profile --quiet --json "$T/s.bt" > "$T/off.json" 2> "$T/stderr"
  a=$(get "$T/on.json" c.W c.D c.instructions); b=$(get "$T/off.json" c.W c.D c.instructions)
  [ "$a" = "$b" ] && [ "$(get "$T/on.json" c.D)" = $N ] \
    && ok "$isa: the binary trace of a run with signals analyses as the run did (W|D|N $a)" \
    || bad "$isa: online W|D|N $a, its binary trace $b: $(tail -2 "$T/stderr")"
done

# ---- 2. non-local exits out of a --region -------------------------------------------------------
for isa in x86 rv; do
  s=; [ $isa = rv ] && s=.rv
  for mode in longjmp fault; do
    fn=kernel; [ $mode = fault ] && fn=kernel_fault
    trace "$T/a.json" --region $fn -- "$T/nonlocal$s" $mode 1000 10; a=$(get "$T/a.json" c.W c.D); ra=$rc
    trace "$T/b.json" --region $fn -- "$T/nonlocal$s" $mode 1000 5000; b=$(get "$T/b.json" c.W c.D); rb=$rc
    trace "$T/c.json" --region main -- "$T/nonlocal$s" $mode 1000 5000; c=$(get "$T/c.json" c.W)
    exits=$(get "$T/b.json" t.nonlocal_exits.followed)
    if [ $ra = 0 ] && [ $rb = 0 ] && [ "$a" = "$b" ] && [ "${a%|*}" -lt "$((c - 5000))" ] && [ "$exits" -ge 1 ]; then
      ok "$isa $mode: --region $fn has W|D $a whether main runs 10 or 5000 loads after it ($exits non-local exit followed)"
    else
      bad "$isa $mode: --region $fn W|D $a (exit $ra) after 10 loads, $b (exit $rb) after 5000; --region main W $c"
    fi
  done
  # the fault: the chase's D, the handler left by siglongjmp, the faulting load not counted
  got=$(get "$T/b.json" c.D t.signals.handled t.signals.left t.signals.at_faults)
  [ "$got" = "1000|1|1|1" ] && ok "$isa fault: D = 1000, one handler, at a fault, left by siglongjmp" \
    || bad "$isa fault: D|handled|left|at_faults $got (want 1000|1|1|1)"
  trace "$T/a.json" --region kernel -- "$T/throw$s" 1000 10; a=$(get "$T/a.json" c.W c.D); ra=$rc
  trace "$T/b.json" --region kernel -- "$T/throw$s" 1000 5000; b=$(get "$T/b.json" c.W c.D); rb=$rc
  [ $ra = 0 ] && [ $rb = 0 ] && [ "$a" = "$b" ] && [ "$(get "$T/b.json" t.nonlocal_exits.followed)" -ge 1 ] \
    && ok "$isa C++ exception: --region kernel has W|D $a whether the handler runs 10 or 5000 loads" \
    || bad "$isa C++ exception: --region kernel W|D $a (exit $ra) after 10 loads, $b (exit $rb) after 5000"
done

# ---- 3. IFUNCs ------------------------------------------------------------------------------------
for k in 1 2 10; do trace "$T/m$k.json" --func memcpy -- "$T/ifunc" libc $k 4096; eval "w$k=\$(get \"\$T/m$k.json\" c.W)"; done
impl=$(get "$T/m10.json" t.scope.0.function t.scope.0.object t.scope.0.ifunc)
if [ "$w2" -gt "$w1" ] && [ $((w10 - w1)) = $((9 * (w2 - w1))) ] && [ "${impl##*|}" = True ] && [ -n "${impl%%|*}" ]; then
  ok "x86 --func memcpy: W $w1, $w2, $w10 for 1, 2, 10 calls of 4 KiB ($((w2 - w1)) a call) in ${impl%|*}"
else
  bad "x86 --func memcpy: W $w1, $w2, $w10 for 1, 2, 10 calls; the report's function|object|ifunc: $impl"
fi
trace "$T/i.json" --func "${impl%%|*}" -- "$T/ifunc" libc 10 4096
[ "$(get "$T/i.json" c.W)" = "$w10" ] && ok "x86 --func ${impl%%|*} (the implementation's own name): W $w10, as --func memcpy" \
  || bad "x86 --func ${impl%%|*}: W $(get "$T/i.json" c.W) (exit $rc), --func memcpy $w10: $(tail -1 "$T/stderr")"
for size in 64 4096; do
  trace "$T/x$size.json" --region kernel --exclude memset --exclude memcpy -- "$T/ifunc" libc 4 $size
  trace "$T/y$size.json" --region kernel -- "$T/ifunc" libc 4 $size
done
x64=$(get "$T/x64.json" c.W); x4096=$(get "$T/x4096.json" c.W); y64=$(get "$T/y64.json" c.W); y4096=$(get "$T/y4096.json" c.W)
[ "$x64" = "$x4096" ] && [ "$y4096" -gt "$y64" ] && [ "$x4096" -lt "$y64" ] \
  && ok "x86 --region kernel --exclude memset --exclude memcpy: W $x64 whether they copy 64 B or 4 KiB (without: $y64, $y4096)" \
  || bad "x86 --exclude memset --exclude memcpy: W $x64 (64 B), $x4096 (4 KiB); without: $y64, $y4096"
for isa in x86 rv; do
  s=; [ $isa = rv ] && s=.rv
  ret=0; [ $isa = x86 ] && ret=1      # x86-64: ret's load
  trace "$T/o.json" --func kernel_ifunc -- "$T/ifunc$s" own 1000 3
  got=$(get "$T/o.json" c.W t.scope.0.function t.scope.0.ifunc)
  [ "$got" = "$((3 * (1000 + ret)))|kernel_impl_a|True" ] && ok "$isa own IFUNC: --func kernel_ifunc traces kernel_impl_a, W = 3 x 1000" \
    || bad "$isa own IFUNC: W|function|ifunc $got (want $((3 * (1000 + ret)))|kernel_impl_a|True): $(tail -1 "$T/stderr")"
  trace "$T/o.json" --func kernel_ifunc -- "$T/ifunc_b$s" own 1000 3
  got=$(get "$T/o.json" c.W t.scope.0.function)
  [ "$got" = "$((3 * (500 + ret)))|kernel_impl_b" ] && ok "$isa own IFUNC resolved to kernel_impl_b: W = 3 x 500" \
    || bad "$isa own IFUNC resolved to kernel_impl_b: W|function $got (want $((3 * (500 + ret)))|kernel_impl_b)"
done

# ---- 4. one name in two shared objects ----------------------------------------------------------
n=1000
trace "$T/d.json" --func dupfn -- "$T/dup_main" $n "$T/liba.so" "$T/libb.so"; wd=$(get "$T/d.json" c.W)
trace "$T/da.json" --func dupfn@liba.so -- "$T/dup_main" $n "$T/liba.so" "$T/libb.so"; wa=$(get "$T/da.json" c.W)
trace "$T/db.json" --func dupfn@libb -- "$T/dup_main" $n "$T/liba.so" "$T/libb.so"; wb=$(get "$T/db.json" c.W)
objs=$(get "$T/d.json" t.scope.0.object t.scope.1.object)
[ "$wa" = $((n + 1)) ] && [ "$wb" = $((n / 2 + 1)) ] && [ "$wd" = $((wa + wb)) ] && [ "$objs" = "liba.so|libb.so" ] \
  && ok "x86 --func dupfn in two dlopened objects: W $wd = dupfn@liba.so's $wa + dupfn@libb's $wb; the report lists $objs" \
  || bad "x86 dupfn: W $wd, @liba.so $wa (want $((n + 1))), @libb $wb (want $((n / 2 + 1))), objects $objs"
$E trace --no-profile --func dupfn@libc.so.6 -- "$T/dup_main" $n "$T/liba.so" "$T/libb.so" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "dupfn@libc.so.6: no function of that name in a shared object named libc.so.6" "$T/err" \
  && ok "x86 --func dupfn@libc.so.6: exit 2, the object named" || bad "x86 dupfn@libc.so.6: exit $rc: $(cat "$T/err")"

# ---- 5. address randomisation ----------------------------------------------------------------------
for isa in x86 rv; do
  s=; [ $isa = rv ] && s=.rv
  a=$($E trace --no-profile --quiet --json -o "$T/p.json" -- "$T/personality$s" 2> /dev/null)
  ja=$(get "$T/p.json" t.aslr)
  b=$($E trace --no-profile --quiet --aslr --json -o "$T/p.json" -- "$T/personality$s" 2> /dev/null)
  jb=$(get "$T/p.json" t.aslr)
  [ "$a|$ja|$b|$jb" = "fixed|False|randomised|True" ] && ok "$isa: address randomisation off by default, kept with --aslr; the report says which" \
    || bad "$isa: the program saw $a ($ja in the report) by default, $b ($jb) with --aslr"
done
exit $fail
