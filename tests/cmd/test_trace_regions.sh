#!/usr/bin/env bash
# Named regions, EDAN_TRACE_BEGIN("name") / EDAN_TRACE_END("name"), on
# tests/cmd/regions/regions.c built for RISC-V (static) and x86-64 (gcc -O2):
#  - the marked program runs natively (RISC-V: qemu-riscv64 without the
#    plugin) and prints what it prints with the markers compiled out, in C
#    and in C++ (both forms of the macros, -Wall -Wextra -pedantic -Werror),
#    built by gcc and by clang;
#  - the report has one section and one JSON "regions" entry per region:
#    "walk" (3 list walks of n nodes, the list relinked between them) and
#    "sum" (n independent loads), whose W and D are the hand counts (sum:
#    W = n, D = 1; walk: W = 6n, D = n, not 3n) and those of the kernel analysed
#    alone with --no-markers --func (equal on RISC-V; on x86-64 --func
#    counts one load more per call, its ret's); the whole report's
#    instructions and W are the regions' sums;
#  - what other regions write kills links as untraced code's writes do:
#    region "bump" (a[i] += 1, three times, region "reset" zeroing a
#    between) has --func bump's D = 2, while the whole run chains through
#    the resets;
#  - a region opened inside another stops the trace (exit 2) naming both;
#  - unnamed markers alone make no "regions" list.
. "$(dirname "$0")/../lib.sh"
E=./edan
S=tests/cmd/regions/regions.c
n=100
build() {   # build OUT COMPILER ARGS...: 0, or bad and 1
  local out=$1; shift
  "$@" -o "$out" 2> "$T/cc.err" || { bad "cannot build $out: $(head -3 "$T/cc.err")"; return 1; }
}
# the markers compiled out: the header's guard defined, the macros empty
plain=(-DEDAN_TRACE_H '-DEDAN_TRACE_BEGIN(...)=((void)0)' '-DEDAN_TRACE_END(...)=((void)0)')
cflags=(-std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -pedantic -Werror -Iexamples -Itools/trace)
build "$T/rg" gcc "${cflags[@]}" $S || exit 1
build "$T/rg.rv" riscv64-linux-gnu-gcc -static "${cflags[@]}" $S || exit 1
build "$T/rg-plain" gcc "${cflags[@]}" "${plain[@]}" $S || exit 1
build "$T/rg-plain.rv" riscv64-linux-gnu-gcc -static "${cflags[@]}" "${plain[@]}" $S || exit 1

# 1. native runs
for mode in "" bump; do
  a=$("$T/rg" $n $mode 2>&1); b=$("$T/rg-plain" $n $mode 2>&1)
  c=$(qemu-riscv64 "$T/rg.rv" $n $mode 2>&1); d=$(qemu-riscv64 "$T/rg-plain.rv" $n $mode 2>&1)
  if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$c" = "$d" ] && [ "$a" = "$c" ]; then
    ok "native run${mode:+ ($mode)}: marked and unmarked print '$a' on x86-64 and RISC-V"
  else bad "native run${mode:+ ($mode)}: x86-64 '$a' / '$b', RISC-V '$c' / '$d'"; fi
done
cat > "$T/cxx.cpp" <<'CPP'
#include <cstdio>
#include "edan_trace.h"
int main(int argc, char **)
{
    long s = 0;
    EDAN_TRACE_BEGIN();
    for (int i = 0; i < argc * 10; i++) s += i;
    EDAN_TRACE_END();
    EDAN_TRACE_BEGIN("cxx");
    for (int i = 0; i < argc * 20; i++) s += 2 * i;
    EDAN_TRACE_END("cxx");
    std::printf("cxx %ld\n", s);
    return 0;
}
CPP
cxxflags=(-std=c++11 -O2 -Wall -Wextra -pedantic -Werror -Itools/trace)
build "$T/cxx" g++ "${cxxflags[@]}" "$T/cxx.cpp"
build "$T/cxx.rv" riscv64-linux-gnu-g++ -static "${cxxflags[@]}" "$T/cxx.cpp"
a=$("$T/cxx" 2>&1); c=$(qemu-riscv64 "$T/cxx.rv" 2>&1)
if [ "$a" = "cxx 425" ] && [ "$c" = "cxx 425" ]; then ok "C++: both marker forms build warning-free and run natively ('$a')"
else bad "C++: x86-64 '$a', RISC-V '$c'"; fi

# trace OUT ARGS...: the JSON report of edan trace ARGS in OUT, the exit status in $rc
trace() { $E trace --no-profile --quiet --json -o "$1" "${@:2}" > "$T/stdout" 2> "$T/stderr"; rc=$?; }
# get FILE EXPR...: Python expressions over the report j, "|"-joined; c is its
# first configuration, r its regions by name, each with its first configuration's metrics
get() {
  python3 -c 'import json, sys
j = json.load(open(sys.argv[1])); c = j["configs"][0]
r = {x["name"]: dict(x, **x["configs"][0]) for x in j.get("regions", [])}
print("|".join(str(eval(e)) for e in sys.argv[2:]))' "$@" 2>&1 | tail -n 1
}

trace "$T/c.json" -- "$T/cxx.rv"
v=$(get "$T/c.json" 'len(j.get("regions", []))' 'r["cxx"]["entries"]' 'r["cxx"]["instructions"] < c["instructions"]')
[ "$rc" = 0 ] && [ "$v" = "1|1|True" ] && ok "C++: the named region is reported ($v)" || bad "C++: exit $rc, regions|entries|fewer: $v"
# clang's assemblers take the markers too (RISC-V: compiled by clang, linked by gcc)
if command -v clang >/dev/null; then
  build "$T/rg-clang" clang "${cflags[@]}" $S &&
    clang --target=riscv64-linux-gnu -march=rv64gc "${cflags[@]}" -c -o "$T/rg-clang.o" $S 2> "$T/cc.err" &&
    build "$T/rg-clang.rv" riscv64-linux-gnu-gcc -static "$T/rg-clang.o" || bad "clang: $(head -3 "$T/cc.err")"
  a=$("$T/rg-clang" $n 2>&1); c=$(qemu-riscv64 "$T/rg-clang.rv" $n 2>&1); b=$("$T/rg-plain" $n 2>&1)
  trace "$T/cl.json" -- "$T/rg-clang.rv" $n
  v=$(get "$T/cl.json" 'sorted(r)' 'r["sum"]["W"]' 'r["walk"]["D"]')
  [ "$a" = "$b" ] && [ "$c" = "$b" ] && [ "$v" = "['sum', 'walk']|$n|$n" ] &&
    ok "clang: x86-64 and RISC-V builds run natively ('$a'); RISC-V's regions reported ($v)" ||
    bad "clang: x86-64 '$a', RISC-V '$c', want '$b'; regions $v"
else
  skip "clang" "clang is not installed: the markers built by clang's assemblers are not checked"
fi

# 2. one entry per region, W and D by hand and as --func gives them
for isa in rv x86; do
  p="$T/rg"; [ $isa = rv ] && p="$T/rg.rv"
  ret=1 why="; --func counts a load more a call, its ret"; [ $isa = rv ] && ret=0 why=""
  trace "$T/$isa.json" -- "$p" $n
  v=$(get "$T/$isa.json" 'sorted(r)' 'r["walk"]["entries"]' 'r["sum"]["entries"]')
  [ "$rc" = 0 ] && [ "$v" = "['sum', 'walk']|3|1" ] && ok "$isa: one JSON entry per region ($v)" ||
    bad "$isa: exit $rc, regions|walk entries|sum entries: $v $(cat "$T/stderr")"
  v=$(get "$T/$isa.json" 'r["sum"]["W"]' 'r["sum"]["D"]' 'r["walk"]["W"]' 'r["walk"]["D"]')
  [ "$v" = "$n|1|$((6 * n))|$n" ] && ok "$isa: sum W = n, D = 1; walk W = 6n, D = n, not 3n ($v)" ||
    bad "$isa: sum W|D, walk W|D: $v, want $n|1|$((6 * n))|$n"
  for k in walk:list_walk sum:array_sum; do
    reg=${k%%:*} fn=${k#*:}
    trace "$T/f.json" --no-markers --func $fn -- "$p" $n
    f=$(get "$T/f.json" 'c["W"]' 'c["D"]' 'c["loads"]')
    v=$(get "$T/$isa.json" "r['$reg']['W'] + $ret * r['$reg']['entries']" "r['$reg']['D']" \
            "r['$reg']['loads'] + $ret * r['$reg']['entries']")
    [ "$f" = "$v" ] && ok "$isa: region $reg = --func $fn (W|D|loads $v$why)" ||
      bad "$isa: region $reg W|D|loads $v, --func $fn $f"
  done
  v=$(get "$T/$isa.json" 'c["instructions"] == r["walk"]["instructions"] + r["sum"]["instructions"]' \
          'c["W"] == r["walk"]["W"] + r["sum"]["W"]' 'c["D"]')
  [ "$v" = "True|True|$n" ] && ok "$isa: the whole report is the regions' sum (instructions, W; D = $n)" || bad "$isa: sums: $v"
  $E trace --no-profile --quiet -o "$T/$isa.txt" -- "$p" $n > /dev/null 2>&1
  w=$(grep -c '^Region "walk", entered 3 times' "$T/$isa.txt"); s=$(grep -c '^Region "sum", entered 1 time ' "$T/$isa.txt")
  [ "$w" = 1 ] && [ "$s" = 1 ] && ok "$isa: the text report has a section per region" || bad "$isa: sections walk $w, sum $s"

  # 3. other regions' writes kill
  trace "$T/b.json" -- "$p" $n bump
  trace "$T/fb.json" --no-markers --func bump -- "$p" $n bump
  f=$(get "$T/fb.json" 'c["D"]' 'c["W"] - c["loads"]')
  v=$(get "$T/b.json" 'r["bump"]["D"]' 'r["bump"]["W"] - r["bump"]["loads"]' 'c["D"] > r["bump"]["D"]')
  [ "$v" = "$f|True" ] && [ "${f%%|*}" = 2 ] &&
    ok "$isa: region bump, reset between: D|stores $v = --func bump's $f; the whole run chains through the resets" ||
    bad "$isa: region bump D|stores|whole deeper $v, --func bump $f"

  # 4. nesting refused
  $E trace --no-profile --quiet -- "$p" $n nest > "$T/stdout" 2> "$T/stderr"; rc=$?
  [ "$rc" = 2 ] && grep -q 'EDAN_TRACE_BEGIN("sum") while region "walk" is open' "$T/stderr" &&
    grep -q 'do not nest' "$T/stderr" && ok "$isa: a region inside another: exit 2, said" ||
    bad "$isa: nested regions: exit $rc, $(cat "$T/stderr")"
done

# 5. unnamed markers alone: no regions
trace "$T/m.json" -- build/examples/markers 50
v=$(get "$T/m.json" '"regions" in j' 'c["W"]')
[ "$rc" = 0 ] && [ "$v" = "False|50" ] && ok "unnamed markers: no regions list, W = 50 as before" || bad "unnamed markers: exit $rc, $v"
exit $fail
