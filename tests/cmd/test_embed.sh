#!/usr/bin/env bash
# edan.h dropped into another program: examples/embed.c compiles warning-free
# as C (gcc, clang) and C++ (g++), and agrees with `edan analyze`.
# Every compile runs in the background, two at a time (job, tests/lib.sh),
# and is checked after job_wait, in the order below. gcc and g++ compile at
# the -O each check names: their flow-based warnings (-Wmaybe-uninitialized
# and the like) need the optimiser. clang and clang++ compile at -O0: their
# warnings come from the front end, whatever the -O.
. "$(dirname "$0")/../lib.sh"
# opt COMPILER LEVEL: LEVEL for gcc and g++, -O0 for clang and clang++
opt() { case $1 in clang*) echo -O0 ;; *) echo "$2" ;; esac; }
cs=("gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11")     # C and C++
for i in 0 1 2; do
  job "embed$i" ${cs[$i]} -Wall -Wextra -pedantic -Werror "$(opt "${cs[$i]}" -O2)" -I. -o "$T/embed$i" examples/embed.c -lm
done
# the example at the top of edan.h, as printed there: a complete program,
# warning-free as C and as C++ (-Wmissing-field-initializers included)
python3 - edan.h "$T/example.c" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.strip() == "EXAMPLE") + 3
end = next(i for i in range(start, len(lines)) if lines[i].startswith("   examples/embed.c"))
open(sys.argv[2], "w").write("\n".join(l[7:] for l in lines[start:end]) + "\n")
EOF
cs+=("clang++ -x c++ -std=c++11")
for i in 0 1 2 3; do
  job "example$i" ${cs[$i]} -Wall -Wextra -pedantic -Wmissing-field-initializers -Werror "$(opt "${cs[$i]}" -O2)" \
    -I. -o "$T/example$i" "$T/example.c" -lm
done
# the allocator macros go three together or not at all
halves=("EDAN_MALLOC(sz, u) malloc(sz)" "EDAN_FREE(p, u) free(p)")
for i in 0 1; do
  printf '#include <stdlib.h>\n#define %s\n#define EDAN_IMPLEMENTATION\n#include "edan.h"\n' "${halves[$i]}" > "$T/half$i.c"
  job "half$i" gcc -std=c99 -fsyntax-only -I. "$T/half$i.c"
done
# the opt-outs: EDAN_NO_RISCV and EDAN_NO_PROFILE leave the engine alone
# (they leave out 3,000 lines at least), warning-free in C and C++, with
# the same answer; the functions they remove are gone
cat > "$T/engine.c" <<'EOF'
#define EDAN_IMPLEMENTATION
#include "edan.h"
#include <stdio.h>
#include <string.h>
int main(void)
{   /* a chase of 5 loads beside 5 independent ones */
    edan_options o;
    edan_context *ctx;
    edan_metrics m;
    edan_insn in;
    int i;
    memset(&o, 0, sizeof o);
    if (edan_create(&ctx, &o) != EDAN_OK) return 1;
    for (i = 0; i < 10; i++) {
        memset(&in, 0, sizeof in);
        in.cls = EDAN_CLASS_LOAD;
        in.mem = EDAN_MEM_LOAD;
        in.size = 8;
        in.addr = 0x1000 + 64 * (uint64_t)i;
        in.nsrc = 1;
        in.src[0] = i % 2 ? 11 : 10;
        in.ndst = 1;
        in.dst[0] = i % 2 ? 12 : 10;
        if (edan_feed(ctx, &in) != EDAN_OK) return 1;
    }
    edan_get_metrics(ctx, 0, &m);
    printf("W=%llu D=%llu\n", (unsigned long long)m.W, (unsigned long long)m.D);
    edan_destroy(ctx);
    return 0;
}
EOF
# engine I COMPILER DEFS...: the object $T/engineI.o (its symbols are read
# below) and the program $T/engineI
engine() {
  local i=$1 c=$2; shift 2
  # shellcheck disable=SC2086
  $c "$@" -Wall -Wextra -pedantic -Werror "$(opt "$c" -O1)" -I. -c -o "$T/engine$i.o" "$T/engine.c" &&
    ${c%% *} -o "$T/engine$i" "$T/engine$i.o" -lm
}
optouts=("" "-DEDAN_NO_RISCV" "-DEDAN_NO_PROFILE" "-DEDAN_NO_RISCV -DEDAN_NO_PROFILE")
for d in 0 1 2 3; do
  for k in 0 1 2; do
    # shellcheck disable=SC2086
    job "engine$d$k" engine "$d$k" "${cs[$k]}" ${optouts[$d]}
  done
done
job gen cc -O2 -o "$T/gen" tests/gen_trace.c
job_wait

for i in 0 1 2; do
  job_ok "embed$i" && ok "examples/embed.c builds with ${cs[$i]}" \
    || { bad "examples/embed.c with ${cs[$i]}"; cat "$T/embed$i.err"; }
done
for i in 0 1 2 3; do
  job_ok "example$i" && ok "the example of edan.h builds with ${cs[$i]}" \
    || { bad "the example of edan.h with ${cs[$i]}"; cat "$T/example$i.err"; }
done
printf 'lw a4,0(a5);0x100\nlw a5,0(a4);0x200\n' | "$T/example3" | grep -qx 'W=2 D=2 lambda=2.00' \
  && echo "ok   the example prints W, D and lambda" || { echo "FAIL the example's output"; fail=1; }
printf 'lw a4,0(a5);0x100\nbogus a1\n' | "$T/example3" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "bogus" "$T/err" && echo "ok   the example stops at a line it cannot read" \
  || { echo "FAIL the example dropped a bad line (exit $rc)"; fail=1; }
# a program that includes the implementation (engine.c without an opt-out)
# exports only the API (edan_) and its main: every internal function is
# static there
for k in 0 1 2; do
  c=${cs[$k]}
  if job_ok "engine0$k"; then
    extra=$(nm -g --defined-only "$T/engine0$k.o" | awk '$2 ~ /^[TDBRV]$/ && $3 !~ /^edan_[a-z]/ && $3 != "main" && $3 !~ /^(_Z|DW\.ref)/' | head -3)
    api=$(nm -g --defined-only "$T/engine0$k.o" | grep -c ' edan_[a-z]')
    [ -z "$extra" ] && [ "$api" -gt 20 ] && echo "ok   $c: the implementation exports the $api edan_ functions and nothing else" \
      || { echo "FAIL $c: the implementation exports $extra (edan_ functions: $api)"; fail=1; }
  else
    echo "FAIL $c: the implementation does not compile"; cat "$T/engine0$k.err"; fail=1
  fi
done
for i in 0 1; do
  half=${halves[$i]}
  if job_ok "half$i"; then
    echo "FAIL #define ${half%%(*} alone compiles"; fail=1
  else
    grep -q "EDAN_MALLOC, EDAN_REALLOC and EDAN_FREE together" "$T/half$i.err" \
      && echo "ok   #define ${half%%(*} alone: an #error that says all three or none" \
      || { echo "FAIL #define ${half%%(*} alone: $(head -c 300 "$T/half$i.err")"; fail=1; }
  fi
done
for d in 0 1 2 3; do
  defs=${optouts[$d]}
  for k in 0 1 2; do
    c=${cs[$k]}
    if job_ok "engine$d$k" && [ "$("$T/engine$d$k")" = "W=10 D=5" ]; then
      echo "ok   ${defs:-no opt-out}, $c: builds warning-free, W=10 D=5"
    else echo "FAIL ${defs:-no opt-out}, $c: $(head -3 "$T/engine$d$k.err") $("$T/engine$d$k" 2>&1)"; fail=1; fi
  done
done
# the engine alone (both opt-outs), as gcc compiled it above
gone=' edan_rv_\| edan_profile_\| edan_hybrid_\| edan_json_\| edan_read_stream'
if ! job_ok engine30; then bad "the engine alone: no object to read (gcc's build failed, above)"
elif nm -g --defined-only "$T/engine30.o" > "$T/alone.nm" && grep -q " edan_feed$" "$T/alone.nm" && ! grep -q "$gone" "$T/alone.nm"; then
  echo "ok   the engine alone: no edan_rv_, edan_profile_, edan_hybrid_ or edan_json_ function, no edan_read_stream"
else echo "FAIL the engine alone still defines: $(grep "$gone" "$T/alone.nm" | head -3)"; fail=1; fi
# the API index at the top of edan.h names every function the header declares
missing=$(python3 -c '
import re
s = open("edan.h").read()
index = s[s.index("   API (by area"):s.index("   DOES NOT")]
decl = s[s.index("#define EDAN_H"):s.index("#endif /* EDAN_H */")]
names = sorted(set(re.findall(r"^[a-z][\w *]*?\b(edan_\w+)\(", decl, re.M)))
print(len(names), " ".join(n for n in names if not re.search(r"\b%s\b" % n, index)))')
[ -z "${missing#* }" ] && [ "${missing%% *}" -gt 20 ] && echo "ok   the API index names all ${missing%% *} functions edan.h declares" \
  || { echo "FAIL the API index of edan.h lacks: ${missing#* }"; fail=1; }
# what the two opt-outs leave out, in lines: what an embedder of the engine
# alone does not compile (a count, not a share: the engine grows on its own)
read -r cut kept < <(python3 -c '
import sys
n = k = 0; skip = False
for l in open("edan.h"):
    if l.startswith("#ifndef EDAN_NO_RISCV") or l.startswith("#ifndef EDAN_NO_PROFILE"): skip = True; continue
    if skip and (l.startswith("#endif /* EDAN_NO_RISCV") or l.startswith("#endif /* EDAN_NO_PROFILE")): skip = False; continue
    n += 1; k += not skip
print(n - k, round(100 * k / n))')
[ "$cut" -ge 3000 ] && echo "ok   the opt-outs leave out $cut lines; the engine alone is $kept% of edan.h's lines" ||
  { echo "FAIL the opt-outs leave out only $cut lines (the engine alone is $kept% of edan.h's)"; fail=1; }
job_ok gen || { echo "FAIL tests/gen_trace.c does not compile"; cat "$T/gen.err"; exit 1; }
"$T/gen" 50000 20000 authors > "$T/t.txt"
"$T/embed2" < "$T/t.txt" > "$T/out" || { echo "FAIL embed run"; exit 1; }
./edan analyze --json --m 4 "$T/t.txt" --config --cache 32K:8:64 > "$T/r.json" || exit 1
want=$(python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['configs']
for name,c in zip(['no cache','L1 32K'],r): print('%s: W=%d D=%d lambda(4)=%.4f'%(name,c['W'],c['D'],c['m']['4']['lambda']))" "$T/r.json")
if [ "$want" = "$(cat "$T/out")" ]; then echo "ok   embed agrees with edan analyze"; else
  echo "FAIL embed: $(cat "$T/out") vs $want"; fail=1; fi
exit $fail
