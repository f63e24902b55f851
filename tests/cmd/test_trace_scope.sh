#!/usr/bin/env bash
# Scoping in `edan trace`: --func, --region, --exclude, source markers, a
# dynamically linked binary, a missing symbol. The expectations are relations
# between runs, not numbers copied from a run.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
get() {  # get KEY ARGS... : one metric of the first configuration
  local key=$1; shift
  ./edan trace --json -o "$tmp/r.json" "$@" >/dev/null
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0][sys.argv[2]])' "$tmp/r.json" "$key"
}
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL $2 ($1)"; exit 1; fi; }

all=$(get instructions -- build/examples/sum 50)
func=$(get instructions --func kernel -- build/examples/sum 50)
region=$(get instructions --region kernel -- build/examples/sum 50)
check "[ $func -gt 0 ] && [ $func -lt $all ]" "--func kernel: $func of $all instructions"
check "[ $region -eq $func ]" "--region of a leaf function = --func ($region)"
func_small=$(get instructions --func kernel -- build/examples/sum 10)
check "[ $((func - func_small)) -eq $((4 * 40)) ]" "--func kernel: 4 instructions per element (n=10: $func_small, n=50: $func)"

# region = the function and its callees; exclude removes a callee and its callees
rmain=$(get instructions --region main -- build/examples/sum 50)
rmain_ex=$(get instructions --region main --exclude kernel -- build/examples/sum 50)
fmain=$(get instructions --func main -- build/examples/sum 50)
check "[ $rmain -gt $((fmain + func)) ]" "--region main ($rmain) covers main ($fmain), kernel ($func) and the library calls"
check "[ $((rmain - rmain_ex)) -eq $func ]" "--region main --exclude kernel drops exactly kernel's $func instructions"
# --func main: what its calls ran outside the scope (kernel, the C library), said in the report, is the rest of --region main
out=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tracer"]["called_out"]["instructions"])' "$tmp/r.json")
check "[ $((fmain + out)) -eq $rmain ]" "--func main's calls ran $out instructions outside it: with main's $fmain, --region main's $rmain"

# markers: the marked loop of examples/markers.c is the summation loop
mk=$(get instructions -- build/examples/markers 50)
mk100=$(get instructions -- build/examples/markers 100)
mkw=$(get W -- build/examples/markers 50); mkd=$(get D -- build/examples/markers 50)
nomk=$(get instructions --no-markers -- build/examples/markers 50)
check "[ $mkw -eq 50 ] && [ $mkd -eq 1 ]" "markers: the marked loop loads 50 elements (W=$mkw), independently (D=$mkd)"
check "[ $((mk100 - mk)) -eq $((4 * 50)) ]" "markers: 4 instructions per element inside the markers (n=50: $mk, n=100: $mk100)"
check "[ $((mk * 10)) -lt $nomk ]" "markers: only the loop ($mk instructions), not the whole program ($nomk with --no-markers)"

# dynamically linked: same kernel, load offset applied
dyn=$(get instructions --func kernel -- build/examples/sum-dyn 50)
dynw=$(get W --func kernel -- build/examples/sum-dyn 50)
check "[ $dyn -eq $func ] && [ $dynw -eq 50 ]" "dynamically linked binary: --func kernel finds the kernel ($dyn instructions, W=$dynw)"

# scoped traces cut chains: what untraced code writes loses its writer
# (examples/walk.c: the list rebuilt and the head pointer set by main
# between two walks, an array sum between them; no cache)
n=500
w1=$(get W --func list_walk -- build/examples/walk $n); d1=$(get D --func list_walk -- build/examples/walk $n)
c1=$(get chained --func list_walk -- build/examples/walk $n)
w2=$(get W --func array_sum -- build/examples/walk $n); d2=$(get D --func array_sum -- build/examples/walk $n)
c2=$(get chained --func array_sum -- build/examples/walk $n)
wb=$(get W --func list_walk --func array_sum -- build/examples/walk $n)
db=$(get D --func list_walk --func array_sum -- build/examples/walk $n)
cb=$(get chained --func list_walk --func array_sum -- build/examples/walk $n)
check "[ $w1 -eq $((4 * n)) ] && [ $d1 -eq $n ]" "two walks with the list rebuilt between: W = 4n ($w1), D = n ($d1), not 2n"
check "[ $c2 -eq 0 ] && [ $d2 -eq 1 ]" "the array sum alone: no chained access (D = $d2)"
check "[ $wb -eq $((w1 + w2)) ] && [ $db -eq $d1 ] && [ $cb -eq $((c1 + c2)) ]" \
  "walks and sum traced together: W = the sum ($wb), D = the larger ($db), chained = the sum ($cb): no link through main"
rw=$(get D --region list_walk -- build/examples/walk $n)
check "[ $rw -eq $n ]" "--region list_walk (scoped while it runs): the walks are cut apart too (D = $rw)"

# C++: a function named as users write it (its name, its qualified name, its
# signature, its symbol) is the same function; an inlined one is said to be
cat > "$tmp/cg.cpp" <<'CPP'
#include <cstdio>
namespace hpcg {
__attribute__((noinline)) double CG_ref(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}
}
static double helper(const double *a, int n) { double s = 1; for (int i = 0; i < n; i++) s *= a[i]; return s; }
int main(int argc, char **argv)
{
    static double a[100];
    for (int i = 0; i < 100; i++) a[i] = i * 0.5;
    std::printf("%f %f\n", hpcg::CG_ref(a, 100), helper(a, argc * 50));
    return 0;
}
CPP
riscv64-linux-gnu-g++ -O2 -g -static -o "$tmp/cg" "$tmp/cg.cpp"
n1=$(get instructions --func CG_ref -- "$tmp/cg"); n2=$(get instructions --func hpcg::CG_ref -- "$tmp/cg")
n3=$(get instructions --func 'hpcg::CG_ref(double const*, int)' -- "$tmp/cg")
n4=$(get instructions --func _ZN4hpcg6CG_refEPKdi -- "$tmp/cg")
check "[ $n1 -gt 400 ] && [ $n1 -eq $n2 ] && [ $n1 -eq $n3 ] && [ $n1 -eq $n4 ]" \
  "C++: CG_ref, hpcg::CG_ref, its signature and its symbol name one function ($n1 instructions)"
set +e
out=$(./edan trace --func helper -- "$tmp/cg" 2>&1); rc=$?
set -e
check "[ $rc -eq 2 ] && grep -q 'inlined into main' <<<\"\$out\" && grep -q -- '--region' <<<\"\$out\"" \
  "an inlined function: said so, with its caller and --region"

# a missing symbol: exit 2, a message with the close matches, the program not run
set +e
out=$(./edan trace --func kernal -- build/examples/sum 4 2>&1); rc=$?
set -e
check "[ $rc -eq 2 ]" "missing function: exit status 2"
check "grep -q 'kernal' <<<\"\$out\" && grep -q 'close matches: kernel' <<<\"\$out\"" "missing function: message names it and suggests kernel"
check "! grep -q '^sum ' <<<\"\$out\"" "missing function: the program did not run"
