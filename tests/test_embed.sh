#!/usr/bin/env bash
# edan.h dropped into another program: examples/embed.c compiles warning-free
# as C (gcc, clang) and C++ (g++), and agrees with `edan analyze`.
set -u
cd "$(dirname "$0")/.."
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
