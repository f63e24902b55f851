#!/usr/bin/env bash
# The same C kernel on both ISAs: every single-threaded example kernel built
# for RISC-V (gcc -O3, the EDAN paper's setting) and for x86-64 the ways
# programs are built (gcc -O2; -O3; -O3 -march=x86-64-v3), traced at two
# sizes with its kernel in scope (--region: the kernel function and what it
# calls, so that a helper or memcpy call that one compiler makes counts too;
# markers: between them), in two configurations of one pass: no cache, and
# a 32 KiB L1 (--cache 32K:8:64). An x86-64 instruction is cracked into the
# loads, operation and stores a load/store machine executes, and a spilled
# register comes back through store-to-load forwarding (edan-model), so the
# answers agree up to register allocation and vectorisation:
#   D(x86-64) <= 2 D(RISC-V) + 8 for every kernel, build, size and
#   configuration; W(x86-64) <= 1.5 W(RISC-V) for every build, and
#   W(x86-64) >= 0.5 W(RISC-V) for -O2 (vectorised code at -O3 does fewer,
#   wider accesses),
# except where README.md's table of compiler reasons (between the lines
# "<!-- cross-isa exceptions -->" and "<!-- end -->") names the kernel, the
# build and the bound (W or D) with its reason. Prints the table whose rows
# README.md quotes.
. "$(dirname "$0")/../lib.sh"
for t in gcc riscv64-linux-gnu-gcc qemu-x86_64 qemu-riscv64; do
  command -v "$t" >/dev/null || { bad "$t is missing (tools/deps.sh installs it)"; exit 1; }
done
[ -x ./edan ] && [ -e build/edan-plugin.so ] || { bad "build edan first (make)"; exit 1; }

# kernel|scope|size|size
kernels=("sum|--region kernel|2000|4000" "markers||2000|4000" "2mm|--region kernel_2mm|24|32"
         "3mm|--region kernel_3mm|24|32" "atax|--region kernel_atax|64|96" "bicg|--region kernel_bicg|64|96"
         "cholesky|--region kernel_cholesky|32|48" "doitgen|--region kernel_doitgen|16|24"
         "gemm|--region kernel_gemm|32|48" "gemver|--region kernel_gemver|64|96"
         "gesummv|--region kernel_gesummv|64|96" "mvt|--region kernel_mvt|64|96" "symm|--region kernel_symm|32|48"
         "syr2k|--region kernel_syr2k|32|48" "syrk|--region kernel_syrk|32|48"
         "trisolv|--region kernel_trisolv|128|192" "trmm|--region kernel_trmm|32|48" "lu|--region kernel_lu|32|48"
         "triad|--region kernel_triad|2000|4000" "chase|--region kernel_chase|2000|4000"
         "spmv|--region kernel_cg_step|16|24" "walk|--region list_walk --region array_sum|2000|4000")
builds=("O2|-O2" "O3|-O3" "v3|-O3 -march=x86-64-v3")
configs=(--no-profile --no-cache --config=L1 --cache 32K:8:64)

# The README's exceptions: "| kernel | build | bound | reason |" rows
exceptions=$(sed -n '/<!-- cross-isa exceptions -->/,/<!-- end -->/p' README.md | grep '^| [a-z0-9]' || true)
# excepted KERNEL FLAGS BOUND: the README names it (a row that starts so)
excepted() {
  [[ $'\n'$exceptions == *$'\n'"| $1 | \`$2\` | $3 |"* ]]
}

# build NAME VARIANT FLAGS...: $T/NAME.VARIANT
build() {
  local name=$1 v=$2; shift 2
  if [ "$v" = rv ]; then
    riscv64-linux-gnu-gcc -std=c99 -g "$@" -static -Iexamples -Itools/trace -o "$T/$name.$v" "examples/$name.c" -lm
  else
    gcc -std=c99 -g "$@" -Iexamples -Itools/trace -o "$T/$name.$v" "examples/$name.c" -lm
  fi
}

# trace OUT.json SCOPE PROGRAM SIZE: both configurations
trace() {
  local out=$1 scope=$2 prog=$3 size=$4
  # shellcheck disable=SC2086
  ./edan trace --quiet --json $scope "${configs[@]}" -o "$out" -- "$prog" "$size" > /dev/null 2> "$out.err"
}

# Every build first, then the traces, two at a time (job, tests/lib.sh).
traces=()
for ks in "${kernels[@]}"; do
  IFS='|' read -r name scope s1 s2 <<< "$ks"
  job "$name.rv" build "$name" rv -O3
  for b in "${builds[@]}"; do
    # shellcheck disable=SC2086
    job "$name.${b%%|*}" build "$name" "${b%%|*}" ${b#*|}
  done
  for size in "$s1" "$s2"; do
    for v in rv O2 O3 v3; do traces+=("$name|$scope|$v|$size"); done
  done
done
job_wait
for ks in "${kernels[@]}"; do
  name=${ks%%|*}
  job_ok "$name.rv" || { bad "$name: the RISC-V build failed"; cat "$T/$name.rv.err"; continue; }
  for b in "${builds[@]}"; do
    job_ok "$name.${b%%|*}" || { bad "$name ${b#*|}: the build failed"; cat "$T/$name.${b%%|*}.err"; }
  done
done
for j in "${traces[@]}"; do
  IFS='|' read -r name scope v size <<< "$j"
  job_ok "$name.rv" && job_ok "$name.$v" || continue
  job "trace.$name.$v.$size" trace "$T/$name.$v.$size.json" "$scope" "$T/$name.$v" "$size"
done
job_wait

# "W D" of both configurations of every trace, read by one python3
declare -A wds
while read -r f w0 d0 w1 d1; do wds[$f.0]="$w0 $d0" wds[$f.1]="$w1 $d1"; done < <(python3 - "$T"/*.json <<'EOF'
import json, sys
for f in sys.argv[1:]:
    try:
        c = json.load(open(f))["configs"]
        print(f, c[0]["W"], c[0]["D"], c[1]["W"], c[1]["D"])
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        pass
EOF
)
# wd FILE.json K: "W D" of configuration K (fails when the trace has none)
wd() { [ -n "${wds[$1.$2]:-}" ] && echo "${wds[$1.$2]}"; }

printf '%-9s %5s %-20s %9s %5s %9s %5s %9s %5s %9s %5s  %s\n' kernel size build "W" "D" "L1 W" "D" \
  "RISC-V W" "D" "L1 W" "D" "check" > "$T/table"
for ks in "${kernels[@]}"; do
  IFS='|' read -r name scope s1 s2 <<< "$ks"
  for size in "$s1" "$s2"; do
    r="$T/$name.rv.$size.json"
    if ! wd "$r" 0 > /dev/null 2>&1; then bad "$name $size: tracing the RISC-V build failed: $(tail -2 "$r.err")"; continue; fi
    read -r rw rd <<< "$(wd "$r" 0)"
    read -r lrw lrd <<< "$(wd "$r" 1)"
    for b in "${builds[@]}"; do
      v=${b%%|*} flags=${b#*|} x="$T/$name.$v.$size.json" why=""
      if ! wd "$x" 0 > /dev/null 2>&1; then bad "$name $flags $size: tracing failed: $(tail -2 "$x.err")"; continue; fi
      read -r xw xd <<< "$(wd "$x" 0)"
      read -r lxw lxd <<< "$(wd "$x" 1)"
      for pair in "$xw $xd $rw $rd none" "$lxw $lxd $lrw $lrd L1"; do
        read -r a d ra rdd cfg <<< "$pair"
        if [ "$d" -gt "$((2 * rdd + 8))" ] && ! excepted "$name" "$flags" D; then
          why+=" [$cfg] D $d > 2 x $rdd + 8;"
        fi
        if [ "$((2 * a))" -gt "$((3 * ra))" ] && ! excepted "$name" "$flags" W; then
          why+=" [$cfg] W $a > 1.5 x $ra;"
        fi
        if [ "$v" = O2 ] && [ "$((2 * a))" -lt "$ra" ] && ! excepted "$name" "$flags" W; then
          why+=" [$cfg] W $a < 0.5 x $ra;"
        fi
      done
      check=ok
      [ -n "$why" ] && check="FAIL:$why"
      if [ -z "$why" ] && { excepted "$name" "$flags" W || excepted "$name" "$flags" D; }; then
        check="ok (README names a compiler reason)"
      fi
      printf '%-9s %5s %-20s %9s %5s %9s %5s %9s %5s %9s %5s  %s\n' "$name" "$size" "$flags" "$xw" "$xd" "$lxw" "$lxd" \
        "$rw" "$rd" "$lrw" "$lrd" "$check" >> "$T/table"
      case $check in
        FAIL*) bad "$name $flags $size: $check" ;;
        *) ok "$name $flags $size: W $xw D $xd (L1: W $lxw D $lxd) against RISC-V W $rw D $rd (L1: W $lrw D $lrd)" ;;
      esac
    done
  done
done
cat "$T/table"
exit $fail
