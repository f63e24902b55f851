#!/usr/bin/env bash
# The x86-64 front-end (tools/front/x86.c) on real code: every instruction that
# objdump -d lists in the dynamic loader, libc, libm, libstdc++, ls and
# python3 must decode with Zydis to objdump's length, with its registers
# within an edan_insn's and its memory operands within the front-end's
# (tests/cmd/x86_check.c). fwait and the x87 instruction after it, which
# objdump shows as one (fstcw), are two.
set -eu
cd "$(dirname "$0")/../.."
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -std=c99 -Wall -Wextra -pedantic -O2 -I. -o "$W/x86_check" tests/cmd/x86_check.c tools/front/x86.c tools/front/bintrace_feed.c -lZydis -lm
fail=0 n=0
for f in /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libm.so.6 \
         /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /bin/ls "$(readlink -f /usr/bin/python3)"; do
  [ -e "$f" ] || { echo "x86 decode: $f is missing"; fail=1; continue; }
  objdump -d -w "$f" > "$W/dis"
  "$W/x86_check" "$(basename "$f")" < "$W/dis" || fail=1
  n=$((n + 1))
done
[ "$fail" = 0 ] && [ "$n" = 6 ] || { echo "test_x86_decode: FAILED"; exit 1; }
echo "test_x86_decode: every instruction of $n binaries decodes"
