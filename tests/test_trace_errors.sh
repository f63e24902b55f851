#!/usr/bin/env bash
# `edan trace` and the binary trace reader on bad input: clear messages and
# the documented exit statuses, never a crash or a silent wrong number.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect RC PATTERN DESCRIPTION -- command...
  local want=$1 pat=$2 what=$3; shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ $rc -eq "$want" ] && { [ "$pat" = - ] || grep -qiE "$pat" "$tmp/err"; }; then echo "ok   $what (exit $rc)"
  else echo "FAIL $what: exit $rc (want $want), stderr:"; sed 's/^/     /' "$tmp/err" | head -5; fail=1; fi
}
cat > "$tmp/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    volatile int *p = NULL;
    if (argc > 1 && argv[1][0] == 'c') return *p;     /* crash */
    if (argc > 1 && argv[1][0] == 'd') return chdir("/") != 0;

    return argc > 1 ? atoi(argv[1]) : 0;
}
C
riscv64-linux-gnu-gcc -O2 -static -o "$tmp/prog" "$tmp/prog.c"

expect 7 - "the program's exit status is forwarded" -- ./edan trace --quiet -o "$tmp/r" -- "$tmp/prog" 7
[ -s "$tmp/r" ] || { echo "FAIL no report for a program exiting with status 7"; fail=1; }
expect 139 'crashed.*signal 11' "a crashing program: 128+signal and a message" -- ./edan trace -- "$tmp/prog" crash
expect 139 'was not written' "a crashing program: no half-written text trace" -- ./edan trace --text "$tmp/crash.txt" -- "$tmp/prog" crash
if ls "$tmp"/crash.txt* >/dev/null 2>&1; then echo "FAIL a partial text trace was left behind"; fail=1; fi
EDAN_QEMU=/nonexistent/qemu-riscv64 expect 2 'not found.*qemu-user' "qemu-riscv64 missing" -- ./edan trace -- "$tmp/prog"
expect 2 'not a 64-bit RISC-V program.*x86-64' "an x86-64 program" -- ./edan trace -- /bin/true
printf 'hello\n' > "$tmp/script"; chmod +x "$tmp/script"
expect 2 'not an ELF' "a non-ELF file" -- ./edan trace -- "$tmp/script"
expect 2 'no such program' "a missing program" -- ./edan trace -- "$tmp/does-not-exist"
expect 2 'no program given' "no program" -- ./edan trace --json
expect 2 'unknown option' "an unknown option" -- ./edan trace --bogus -- "$tmp/prog"
expect 2 'needs a value' "an option without its value" -- ./edan trace --func
expect 2 'cannot write' "an unwritable trace file" -- ./edan trace --binary /nonexistent/dir/t.bin -- "$tmp/prog"

# a multithreaded program: only the first thread, and a warning
cat > "$tmp/thr.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static double a[4][1000];
static void *work(void *p) { long k = (long)p; int i; for (i = 0; i < 1000; i++) a[k][i] += (double)k * i; return NULL; }
int main(void)
{
    pthread_t t[3]; long i;
    for (i = 0; i < 3; i++) pthread_create(&t[i], NULL, work, (void *)i);
    for (i = 0; i < 3; i++) pthread_join(t[i], NULL);
    printf("%f\n", a[2][999]);
    return 0;
}
C
riscv64-linux-gnu-gcc -O2 -static -pthread -o "$tmp/thr" "$tmp/thr.c"
expect 0 'threads.*only the first thread' "a multithreaded program: a warning, no crash" -- ./edan trace -o "$tmp/thr.rep" -- "$tmp/thr"

# relative output paths stay relative to where edan ran, even if the program chdirs
( cd "$tmp" && "$OLDPWD/edan" trace --text rel.txt -- ./prog d ) >/dev/null 2>&1
if [ -s "$tmp/rel.txt" ]; then echo "ok   --text with a relative path, program changing directory"
else echo "FAIL --text rel.txt was not written where edan ran"; fail=1; fi

# binary traces: truncated, corrupted, wrong version
./edan trace --binary "$tmp/t.bin" -- build/examples/sum 20 >/dev/null 2>&1 || { echo "FAIL writing a binary trace"; fail=1; }
size=$(stat -c %s "$tmp/t.bin")
head -c $((size - 3)) "$tmp/t.bin" > "$tmp/trunc.bin"
expect 2 'truncated' "a truncated binary trace" -- ./edan analyze --quiet "$tmp/trunc.bin"
python3 - "$tmp/t.bin" "$tmp/ver.bin" "$tmp/bad.bin" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
v = bytearray(d); v[6] = 9; open(sys.argv[2], "wb").write(v)
b = bytearray(d); b[16] = 0x7c   # first record: an EXEC of block 31 before any DEFINE
open(sys.argv[3], "wb").write(b)
PY
expect 2 'version 9' "a binary trace of an unknown version" -- ./edan analyze --quiet "$tmp/ver.bin"
expect 2 'undefined block' "a corrupted binary trace" -- ./edan analyze --quiet "$tmp/bad.bin"
exit $fail
