#!/usr/bin/env bash
# Kernels in shared libraries: dgemm_ of Debian's reference BLAS (libblas3),
# called by examples/blas_dgemm.c, named by --func, --region and --exclude.
# Its loop nest (C = C + A B, alpha = beta = 1, C n x n, inner dimension k):
#     do j = 1, n; do l = 1, k; temp = b(l, j)          one load of b
#       do i = 1, n; c(i, j) = c(i, j) + temp * a(i, l)  loads of a and c, a store of c
# so one more l adds 3 n^2 + n memory vertices, and, without a cache, 2 to
# D: c(i, j)'s chain is its load and its store at every l, without
# store-to-load forwarding (--forward 0). With it (the default), c(i, j)'s
# load comes from its store of the l before, n stores ago (n <= 32, the
# store buffer): one more l adds 2 n^2 + n and D stays. Also: --top
# names the library's function and its file's address (objdump -d of the
# library), and a name in no object is an error that lists the objects.
. "$(dirname "$0")/../lib.sh"
prog=build/examples-host/blas_dgemm
refdir=/usr/lib/x86_64-linux-gnu/blas      # the reference BLAS, whatever the alternatives pick
[ -e "$refdir/libblas.so.3" ] || { skip shared_lib "no reference BLAS in $refdir (tools/deps.sh installs libblas-dev)"; exit $fail; }
export LD_LIBRARY_PATH=$refdir

wd() {  # wd N K [OPTION NAME]: "W D" of the traced dgemm_ (with $FWD's options)
  # shellcheck disable=SC2086
  ./edan trace --quiet --json -o "$T/r.json" ${FWD:-} "${3:---func}" "${4:-dgemm_}" -- $prog "$1" "$2" > /dev/null 2> "$T/err" || { echo "failed"; return; }
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["configs"][0]; print(c["W"], c["D"])' "$T/r.json"
}
n=6
FWD="--forward 0"
read -r w1 d1 <<< "$(wd $n 5)"
read -r w2 d2 <<< "$(wd $n 6)"
read -r w3 d3 <<< "$(wd $n 7)"
FWD=
read -r f1 e1 <<< "$(wd $n 5)"
read -r f2 e2 <<< "$(wd $n 6)"
read -r f3 e3 <<< "$(wd $n 7)"
if [ "$w1" = failed ] || [ "$w2" = failed ] || [ "$w3" = failed ] || [ "$f1" = failed ] || [ "$f3" = failed ]; then
  bad "--func dgemm_ (libblas.so.3): $(cat "$T/err")"
else
  [ $((w2 - w1)) -eq $((3 * n * n + n)) ] && [ $((w3 - w2)) -eq $((3 * n * n + n)) ] \
    && ok "--func dgemm_ of libblas.so.3, --forward 0: one more l adds 3n^2 + n = $((3 * n * n + n)) memory vertices (W $w1, $w2, $w3)" \
    || bad "--func dgemm_, --forward 0: W $w1, $w2, $w3 at k = 5, 6, 7: want steps of $((3 * n * n + n))"
  [ $((d2 - d1)) -eq 2 ] && [ $((d3 - d2)) -eq 2 ] && ok "--func dgemm_, --forward 0: one more l adds 2 to D (D $d1, $d2, $d3)" \
    || bad "--func dgemm_, --forward 0: D $d1, $d2, $d3 at k = 5, 6, 7: want steps of 2"
  [ $((f2 - f1)) -eq $((2 * n * n + n)) ] && [ $((f3 - f2)) -eq $((2 * n * n + n)) ] && [ "$e1" = "$e3" ] \
    && ok "--func dgemm_, forwarding: one more l adds 2n^2 + n = $((2 * n * n + n)) (W $f1, $f2, $f3), D stays $e1" \
    || bad "--func dgemm_, forwarding: W $f1, $f2, $f3, D $e1, $e2, $e3 at k = 5, 6, 7: want steps of $((2 * n * n + n)), one D"
fi

# --region: the function and what it calls (lsame_ checks its arguments): at least --func's
read -r wr dr <<< "$(wd $n 6 --region dgemm_)"
[ "$wr" != failed ] && [ "$wr" -ge "$f2" ] && [ "$wr" -lt $((f2 + 200)) ] && [ "$dr" -ge "$e2" ] \
  && ok "--region dgemm_: W $wr, D $dr (--func: $f2, $e2)" || bad "--region dgemm_: W $wr D $dr against $f2 $e2 $(cat "$T/err")"
# --exclude: the program's main without the library's call in it (without
# forwarding: in the whole run dgemm_'s loads of the arguments its caller
# stored, and the caller's of what dgemm_ stored, are forwarded)
FWD="--forward 0"
read -r wx dx <<< "$(wd $n 6 --exclude dgemm_)"
FWD=
read -r wa da <<< "$(./edan trace --quiet --json --forward 0 -- $prog $n 6 2>/dev/null | python3 -c 'import json,sys; c=json.load(sys.stdin)["configs"][0]; print(c["W"], c["D"])')"
[ "$wx" != failed ] && [ -n "$wa" ] && [ $((wa - wx)) -ge "$w2" ] \
  && ok "--exclude dgemm_ (--forward 0): the whole run's W less at least dgemm_'s ($wa - $wx >= $w2)" || bad "--exclude dgemm_: $wx of $wa $(cat "$T/err")"

# --top: the library's function, its object, its file's address
./edan trace --quiet --json --func dgemm_ --top 3 -o "$T/top.json" -- $prog $n 6 > /dev/null 2>&1
read -r obj fn addr <<< "$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["configs"][0]["hotspots"][0]; print(h.get("object"), h.get("function"), h["address"])' "$T/top.json")"
lib=$(readlink -f "$refdir/libblas.so.3")
ins=$(objdump -d --start-address="$addr" --stop-address=$((addr + 16)) "$lib" | grep -E "^ +${addr#0x}:")
case $obj in libblas.so*) o=1 ;; *) o=0 ;; esac
[ $o = 1 ] && [ "$fn" = dgemm_ ] && echo "$ins" | grep -qE $'\t(movsd|addsd|mov)[ \t]' \
  && ok "--top: dgemm_ in $obj at $addr, where objdump -d of the library has: $(echo "$ins" | cut -f3)" \
  || bad "--top: object '$obj', function '$fn', address $addr: objdump has '$ins'"
./edan trace --quiet --func dgemm_ --top 1 -- $prog 4 2>/dev/null | grep -q "dgemm_ \[libblas.so" \
  && ok "--top's table names dgemm_ [libblas.so...]" || bad "--top's table does not name the library"

# a name in no object: an error that lists the objects searched, exit 2
./edan trace --quiet --func no_such_kernel -- $prog 4 > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "no_such_kernel: no function of that name in $prog nor in the shared objects whose code ran" "$T/err" \
  && grep -q "libblas.so" "$T/err" && grep -q "libc.so" "$T/err" \
  && ok "--func no_such_kernel: exit 2, the objects searched named" || bad "no_such_kernel: exit $rc $(cat "$T/err")"
# a mistyped name of the program itself is refused before the program runs
./edan trace --quiet --func mian -- $prog 4 > "$T/out" 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "close matches: main" "$T/err" && ! grep -q blas_dgemm "$T/out" \
  && ok "--func mian: refused before the program ran (close matches: main)" || bad "--func mian: exit $rc $(cat "$T/err")"
# --func of a wrapper that calls out for the work: cblas_dgemm (the reference
# BLAS's C interface) checks its arguments and calls dgemm_. The report says
# what the calls ran outside the scope, in which functions, and suggests
# --region; the counts agree with the scopes that analyse them: the wrapper's
# and its calls' instructions are --region's, dgemm_'s --func dgemm_'s.
if nm -D "$(readlink -f "$refdir/libblas.so.3")" | grep -q ' T cblas_dgemm$'; then
  gcc -O2 -o "$T/cblas_call" tests/cmd/cblas_call.c -L"$refdir" -lblas || exit 1
  mi() {  # mi OPTION NAME: "machine_instructions called_out.instructions top-function its-instructions its-object"
    ./edan trace --quiet --json -o "$T/c.json" "$1" "$2" -- "$T/cblas_call" 8 > /dev/null 2> "$T/err" || { echo failed; return; }
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1])); c = r["tracer"].get("called_out", {}); f = (c.get("functions") or [{}])[0]
print(r["machine_instructions"], c.get("instructions", "-"), f.get("function", "-"), f.get("instructions", "-"), f.get("object", "-"))' "$T/c.json"
  }
  read -r fw out callee cin cobj <<< "$(mi --func cblas_dgemm)"
  read -r rw rout _ <<< "$(mi --region cblas_dgemm)"
  read -r dw _ <<< "$(mi --func dgemm_)"
  ./edan trace --quiet --func cblas_dgemm -- "$T/cblas_call" 8 2>/dev/null | grep '^Called out:' > "$T/line"
  case $cobj in libblas.so*) o=1 ;; *) o=0 ;; esac
  [ "$fw" != failed ] && [ "$callee" = dgemm_ ] && [ $o = 1 ] && [ $((fw + out)) -eq "$rw" ] && [ "$cin" = "$dw" ] &&
    [ "$rout" = - ] && grep -q "ran $(python3 -c "print(f'{$out:,}')") instructions outside it.*: dgemm_ \[libblas.so.*--region cblas_dgemm" "$T/line" \
    && ok "--func cblas_dgemm ($fw instructions): its calls ran $out outside the scope, the most in dgemm_ [$cobj] ($cin, as --func dgemm_ analyses: $dw); with them --region's $rw; the report suggests --region" \
    || { bad "--func cblas_dgemm's calls: '$fw' '$out' '$callee' '$cin' '$cobj', --region '$rw' '$rout', --func dgemm_ '$dw' $(cat "$T/err")"; cat "$T/line"; }
  ./edan trace --quiet --json -o "$T/k.json" --func kernel_chase -- build/examples-host/chase 100 > /dev/null 2>&1
  ./edan trace --quiet --func kernel_chase -- build/examples-host/chase 100 2>/dev/null > "$T/k.txt"
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["tracer"]["called_out"]; sys.exit(c["instructions"] != 0 or c["functions"] != [])' "$T/k.json" \
    && ! grep -q '^Called out' "$T/k.txt" && ok "--func kernel_chase, which calls nothing: called_out 0, no line" || bad "a leaf's called_out"
else
  skip shared_lib_cblas "the BLAS in $refdir has no cblas_dgemm"
fi
exit $fail

