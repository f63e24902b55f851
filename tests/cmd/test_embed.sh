#!/usr/bin/env bash
# edan.h dropped into another program: examples/embed.c compiles warning-free
# as C (gcc, clang) and C++ (g++), and agrees with `edan analyze`.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
for c in "gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11"; do
  if $c -Wall -Wextra -pedantic -Werror -O2 -I. -o "$T/embed" examples/embed.c -lm 2> "$T/err"; then
    echo "ok   examples/embed.c builds with $c"
  else
    echo "FAIL examples/embed.c with $c"; cat "$T/err"; fail=1
  fi
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
for c in "gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11" "clang++ -x c++ -std=c++11"; do
  if $c -Wall -Wextra -pedantic -Wmissing-field-initializers -Werror -O2 -I. -o "$T/example" "$T/example.c" -lm 2> "$T/err"; then
    echo "ok   the example of edan.h builds with $c"
  else
    echo "FAIL the example of edan.h with $c"; cat "$T/err"; fail=1
  fi
done
printf 'lw a4,0(a5);0x100\nlw a5,0(a4);0x200\n' | "$T/example" | grep -qx 'W=2 D=2 lambda=2.00' \
  && echo "ok   the example prints W, D and lambda" || { echo "FAIL the example's output"; fail=1; }
printf 'lw a4,0(a5);0x100\nbogus a1\n' | "$T/example" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "bogus" "$T/err" && echo "ok   the example stops at a line it cannot read" \
  || { echo "FAIL the example dropped a bad line (exit $rc)"; fail=1; }
# a program that includes the implementation exports only the API (edan_):
# every internal function is static there; the allocator macros go three
# together or not at all
printf '#define EDAN_IMPLEMENTATION\n#include "edan.h"\n' > "$T/impl.c"
for c in "gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11"; do
  if $c -Wall -Wextra -pedantic -Werror -O0 -I. -c -o "$T/impl.o" "$T/impl.c" 2> "$T/err"; then
    extra=$(nm -g --defined-only "$T/impl.o" | awk '$2 ~ /^[TDBRV]$/ && $3 !~ /^edan_[a-z]/ && $3 !~ /^(_Z|DW\.ref)/' | head -3)
    api=$(nm -g --defined-only "$T/impl.o" | grep -c ' edan_[a-z]')
    [ -z "$extra" ] && [ "$api" -gt 20 ] && echo "ok   $c: the implementation exports the $api edan_ functions and nothing else" \
      || { echo "FAIL $c: the implementation exports $extra (edan_ functions: $api)"; fail=1; }
  else
    echo "FAIL $c: the implementation alone does not compile"; cat "$T/err"; fail=1
  fi
done
for half in "EDAN_MALLOC(sz, u) malloc(sz)" "EDAN_FREE(p, u) free(p)"; do
  printf '#include <stdlib.h>\n#define %s\n#define EDAN_IMPLEMENTATION\n#include "edan.h"\n' "$half" > "$T/half.c"
  if gcc -std=c99 -fsyntax-only -I. "$T/half.c" 2> "$T/err"; then
    echo "FAIL #define ${half%%(*} alone compiles"; fail=1
  else
    grep -q "EDAN_MALLOC, EDAN_REALLOC and EDAN_FREE together" "$T/err" \
      && echo "ok   #define ${half%%(*} alone: an #error that says all three or none" \
      || { echo "FAIL #define ${half%%(*} alone: $(head -c 300 "$T/err")"; fail=1; }
  fi
done
cc -O2 -o "$T/gen" tests/gen_trace.c
"$T/gen" 50000 20000 authors > "$T/t.txt"
"$T/embed" < "$T/t.txt" > "$T/out" || { echo "FAIL embed run"; exit 1; }
./edan analyze --json --m 4 "$T/t.txt" --config --cache 32K:8:64 > "$T/r.json" || exit 1
want=$(python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))['configs']
for name,c in zip(['no cache','L1 32K'],r): print('%s: W=%d D=%d lambda(4)=%.4f'%(name,c['W'],c['D'],c['m']['4']['lambda']))" "$T/r.json")
if [ "$want" = "$(cat "$T/out")" ]; then echo "ok   embed agrees with edan analyze"; else
  echo "FAIL embed: $(cat "$T/out") vs $want"; fail=1; fi
exit $fail
