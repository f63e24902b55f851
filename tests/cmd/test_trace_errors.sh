#!/usr/bin/env bash
# `edan trace` and the binary trace reader on bad input: clear messages and
# the documented exit statuses, never a crash or a silent wrong number.
set -uo pipefail
cd "$(dirname "$0")/../.."
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
expect 139 'the run ended early: the program crashed' "a crashing program: its text trace written up to the crash" \
  -- ./edan trace --text "$tmp/crash.txt" -- "$tmp/prog" crash
./edan analyze --quiet "$tmp/crash.txt" > /dev/null 2>&1 || { echo "FAIL the text trace up to a crash does not read"; fail=1; }
if ls "$tmp"/crash.txt.* >/dev/null 2>&1; then echo "FAIL a temporary text trace was left behind"; fail=1; fi
EDAN_QEMU=/nonexistent/qemu-riscv64 expect 2 'not found.*qemu-user' "qemu-riscv64 missing" -- ./edan trace -- "$tmp/prog"
# the plugin refuses arguments from an edan built from other sources (another
# --engine sum): that edan's numbers are not the plugin's, so none are given
mkdir -p "$tmp/pd"
printf '%s\0' --engine 1 --dir "$tmp/pd" --program "$tmp/prog" --analyze > "$tmp/pargs"
qemu-riscv64 -plugin "build/edan-plugin.so,args=$tmp/pargs" "$tmp/prog" > /dev/null 2> "$tmp/perr"; rc=$?
if [ $rc -ne 0 ] && grep -q 'built from other sources than the edan that runs it' "$tmp/pd/error" 2>/dev/null &&
   [ ! -e "$tmp/pd/report" ]; then echo "ok   a plugin from other sources than edan's: refused (exit $rc), no report"
else echo "FAIL a plugin from other sources than edan's: exit $rc, error file:"; cat "$tmp/pd/error" "$tmp/perr" 2>/dev/null | head -3; fail=1; fi
# an ELF of a machine edan does not trace (the 64 bytes of an AArch64 header)
python3 -c 'import sys; h = bytearray(64); h[0:4] = b"\x7fELF"; h[4] = 2; h[5] = 1; h[6] = 1; h[16] = 2; h[18] = 183; sys.stdout.buffer.write(bytes(h))' > "$tmp/arm64"
chmod +x "$tmp/arm64"
expect 2 'neither a 64-bit RISC-V nor an x86-64 program.*AArch64' "an AArch64 program" -- ./edan trace -- "$tmp/arm64"
printf 'hello\n' > "$tmp/script"; chmod +x "$tmp/script"
expect 2 'not an ELF' "a non-ELF file" -- ./edan trace -- "$tmp/script"
expect 2 'no such program' "a missing program" -- ./edan trace -- "$tmp/does-not-exist"
expect 2 'no program given' "no program" -- ./edan trace --json
# options but no program: the message and where to look, not the whole --help
expect 2 'no program given.*see edan trace --help' "options, no program" -- ./edan trace --func x
[ "$(wc -l < "$tmp/err")" = 1 ] || { echo "FAIL edan trace --func x: $(wc -l < "$tmp/err") lines on stderr, not 1"; fail=1; }
expect 2 'unknown option' "an unknown option" -- ./edan trace --bogus -- "$tmp/prog"
expect 2 'needs a value' "an option without its value" -- ./edan trace --func
expect 2 'cannot write' "an unwritable trace file" -- ./edan trace --binary /nonexistent/dir/t.bin -- "$tmp/prog"

# a multithreaded program (RISC-V, whole): every thread in one eDAG, the
# Threads table in the report (test_trace_threads checks the numbers)
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
expect 0 - "a multithreaded program: no crash" -- ./edan trace -o "$tmp/thr.rep" -- "$tmp/thr"
if [ "$(grep -cE '^ +[0-3] +[0-9]+ ' "$tmp/thr.rep")" = 4 ] && grep -q "cross-thread edges" "$tmp/thr.rep"; then
  echo "ok   a multithreaded program: its four threads in the report"
else
  echo "FAIL a multithreaded program: the report has no table of four threads: $(grep -A8 Threads "$tmp/thr.rep")"; fail=1
fi

# relative output paths stay relative to where edan ran, even if the program chdirs
( cd "$tmp" && "$OLDPWD/edan" trace --text rel.txt -- ./prog d ) >/dev/null 2>&1
if [ -s "$tmp/rel.txt" ]; then echo "ok   --text with a relative path, program changing directory"
else echo "FAIL --text rel.txt was not written where edan ran"; fail=1; fi

# a program that replaces itself (exec): the report of what ran before, a
# note; the new program runs untraced, its exit status is edan's
cat > "$tmp/exec.c" <<'C'
#include <stdio.h>
#include <unistd.h>
volatile long a[100];
__attribute__((noinline)) long kernel(void) { long s = 0; int i; for (i = 0; i < 100; i++) s += a[i]; return s; }
int main(void)
{
    char *argv[] = {"/bin/sh", "-c", "exit 5", NULL};
    printf("%ld\n", kernel());
    fflush(stdout);
    execv("/bin/sh", argv);
    return 1;
}
C
riscv64-linux-gnu-gcc -O2 -static -o "$tmp/exec" "$tmp/exec.c"
expect 5 'replaced itself with another \(exec\)' "a program that execs: a note, the new program's exit status" -- \
  ./edan trace --json --func kernel -o "$tmp/exec.json" -- "$tmp/exec"
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["W"])' "$tmp/exec.json" 2>&1)" = 100 ] \
  && echo "ok   a program that execs: the report of what ran before (W 100)" \
  || { echo "FAIL a program that execs: no report of its kernel: $(head -c 300 "$tmp/exec.json")"; fail=1; }

# binary traces: truncated, corrupted, wrong version
./edan trace --binary "$tmp/t.bin" -- build/examples/sum 20 >/dev/null 2>&1 || { echo "FAIL writing a binary trace"; fail=1; }
size=$(stat -c %s "$tmp/t.bin")
head -c $((size - 3)) "$tmp/t.bin" > "$tmp/trunc.bin"
expect 2 'truncated' "a truncated binary trace" -- ./edan analyze --quiet "$tmp/trunc.bin"
python3 - "$tmp/t.bin" "$tmp/ver.bin" "$tmp/bad.bin" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
v = bytearray(d); v[6] = 9; open(sys.argv[2], "wb").write(v)
b = bytearray(d); b[d[10] | d[11] << 8] = 0x7c   # first record (after hdr_size bytes): an EXEC of block 31 before any DEFINE
open(sys.argv[3], "wb").write(b)
PY
expect 2 'version 9' "a binary trace of an unknown version" -- ./edan analyze --quiet "$tmp/ver.bin"
expect 2 'undefined block' "a corrupted binary trace" -- ./edan analyze --quiet "$tmp/bad.bin"

# a forking program: the child is not analysed (and writes nothing), a warning says so
cat > "$tmp/fork.c" <<'C'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile double a[1000];
int main(void)
{
    int i, st;
    pid_t p = fork();
    for (i = 0; i < 1000; i++) a[i] += i;       /* both processes */
    if (p == 0) return 3;
    waitpid(p, &st, 0);
    printf("child %d\n", WEXITSTATUS(st));
    return 0;
}
C
riscv64-linux-gnu-gcc -O2 -static -o "$tmp/fork" "$tmp/fork.c"
expect 0 'forked 1 time; only the parent' "a forking program: the parent analysed, a warning" -- \
  ./edan trace --json -o "$tmp/fork.json" -- "$tmp/fork"
grep -q '"instructions"' "$tmp/fork.json" && ! grep -q "child 3" "$tmp/fork.json" \
  && echo "ok   a forking program: one report, the parent's" || { echo "FAIL the fork's report"; fail=1; }

# nothing in the scope ran: said, exit 1; a file that is not executable: refused before running
expect 1 'nothing was analysed' "--func of a function that never runs" -- ./edan trace --func abort -- build/examples/sum 5
cp build/examples/sum "$tmp/noexec"; chmod -x "$tmp/noexec"
expect 2 'not executable' "a program without execute permission" -- ./edan trace -- "$tmp/noexec" 5
expect 2 'is not a multiple of associativity 7 x line 64' "a bad cache explained before the program runs" -- \
  ./edan trace --cache 33K:7:64 -- build/examples/sum 5

# what goes to standard output is the report or the trace alone (the program's output to stderr)
./edan trace --json --func kernel -- build/examples/sum 20 2>"$tmp/err" | python3 -c 'import json,sys; json.load(sys.stdin)' \
  && grep -q '^sum ' "$tmp/err" && echo "ok   --json on standard output parses, the program's output on stderr" \
  || { echo "FAIL --json on standard output mixed with the program's output"; fail=1; }
./edan trace --func kernel --text - -- build/examples/sum 20 2>/dev/null | ./edan analyze --json - > "$tmp/p.json" \
  && ./edan trace --func kernel --json -o "$tmp/o.json" -- build/examples/sum 20 >/dev/null 2>&1 \
  && python3 -c 'import json,sys; a,b=[json.load(open(f))["configs"][0] for f in sys.argv[1:]]; sys.exit(a["W"]!=b["W"] or a["instructions"]!=b["instructions"])' "$tmp/p.json" "$tmp/o.json" \
  && echo "ok   --text - | edan analyze -: the same W and instructions as online" \
  || { echo "FAIL --text - piped into edan analyze"; fail=1; }
expect 2 'both go to standard output' "--text - with the report on standard output" -- \
  ./edan trace --analyze --text - -- build/examples/sum 5

# SIGTERM to edan ends the program too: exit 1, its binary trace written
# as far as it went (whole: it reads), no temporary directory or file
mkdir "$tmp/td"
TMPDIR="$tmp/td" ./edan trace --binary "$tmp/td/t.bin" -- build/examples/chase 16000000 >/dev/null 2>&1 &
epid=$!
for i in $(seq 1 100); do [ -n "$(ls "$tmp/td")" ] && break; sleep 0.05; done
sleep 0.3
kill -TERM $epid; wait $epid; rc=$?
sleep 0.2
left=$(ls -A "$tmp/td")
qemu_left=$(pgrep -f "chase 16000000" || true)
[ $rc -eq 1 ] && [ "$left" = t.bin ] && [ -z "$qemu_left" ] && ./edan analyze --quiet "$tmp/td/t.bin" > /dev/null \
  && echo "ok   SIGTERM to edan trace: the program stopped, exit 1, its binary trace whole, nothing else left" \
  || { echo "FAIL SIGTERM: exit $rc, left: $left, qemu: $qemu_left"; fail=1; kill $qemu_left 2>/dev/null; }
# binary traces made by hand (tools/front/bintrace.h): an instruction of an op no
# front-end names (once a NULL dereference with --top), header flags, a
# varint past 64 bits
python3 - "$tmp" <<'PY'
import struct, sys, zlib
def v(x):
    out = bytearray()
    while x >= 0x80: out.append(x & 0x7f | 0x80); x >>= 7
    out.append(x); return bytes(out)
def zz(x): return v((x << 1) ^ (x >> 63) & 0xffffffffffffffff)
def trace(end=None, flags=0):
    b = b"EDANBT" + struct.pack("<HHHI", 2, 1, 16, flags)
    b += v(2) + v(1) + zz(0x1000) + bytes([0]) + v(5000) + bytes([11, 1]) + v(8) + bytes([1, 1]) + v(10) + v(11)
    b += v(0) + zz(0x2000)                      # EXEC block 0, its load's address
    b += v(11) + struct.pack("<I", zlib.crc32(b))
    return b + v(3) + (end if end is not None else v(1))
d = sys.argv[1]
open(d + "/op.bin", "wb").write(trace())
open(d + "/flags.bin", "wb").write(trace(flags=1))
open(d + "/varint.bin", "wb").write(trace(end=b"\xff" * 9 + b"\x7f"))
PY
expect 0 - "an op no front-end names, with --top: no crash" -- ./edan analyze --json --top 3 "$tmp/op.bin"
grep -q '"op": "unknown-op"' "$tmp/out" && echo "ok   ... and the hotspot says unknown-op" || { echo "FAIL unknown op not named"; fail=1; }
expect 0 - "the same as a table" -- ./edan analyze --top 3 "$tmp/op.bin"
grep -q "unknown-op" "$tmp/out" && ! grep -q "(null)" "$tmp/out" && echo "ok   ... named, no (null)" || { echo "FAIL (null) in the table"; fail=1; }
expect 2 'unknown flags' "a binary trace with header flags set" -- ./edan analyze --quiet "$tmp/flags.bin"
expect 2 'malformed varint' "a varint past 64 bits" -- ./edan analyze --quiet "$tmp/varint.bin"

# the other subcommands' inputs: a directory, a result file that is not one
expect 2 'is a directory' "rank on a directory" -- ./edan rank "$tmp"
expect 2 'is a directory' "probe -o a directory, before measuring" -- ./probe --quick -o "$tmp"
exit $fail
