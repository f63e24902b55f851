#!/usr/bin/env bash
# `edan trace` on x86-64 programs (qemu-x86_64, the plugin with the Zydis
# front-end, online analysis):
#  - tests/cmd/x86/chains.s, hand-written: read-modify-write, a merge into
#    rax, a flags chain, push/pop, one rep movsb iteration, ret; N, E, W, D,
#    C, Tinf, the layers and the access counts worked out by hand in its
#    comments, each instruction cracked into its load, operation and store
#    vertices (QEMU runs a rep once per iteration and once more: each
#    iteration is cracked, the last look at rcx makes no vertex);
#  - tests/cmd/x86/cracked.s: one function per rule of the cracking (a
#    load-op sum, a read-modify-write k times, push/pop, cvtsi2sd's merge, a
#    movupd loop, xor and pxor zeroing idioms, vzeroall, lock xadd, cmpxchg,
#    rep movsb), each's N E W D C loads stores layers worked out by hand
#    without store-to-load forwarding, and with it where it forwards;
#  - tests/cmd/x86/pagerules.s: the page's examples, worked by hand: an
#    unaligned SSE sum over 8,192 doubles with a 32 KiB cache (D 1), a
#    spilled loop counter with and without forwarding, repe cmpsb over 100
#    bytes (D 1), a 64 KiB rep stosb in 8,192 stores; --paper is
#    --paper-cache and --forward 0;
#  - examples/chase.c built for the host and for RISC-V: the same depth n,
#    and x86's W one more (the kernel's ret loads its return address);
#  - a dynamically linked program (tests/cmd/x86/libm_call.c) whose traced
#    function calls libm's exp: it runs, prints what it prints natively,
#    every instruction decodes, only the function's own accesses count;
#  - a Fortran kernel (examples/daxpy.f90, gfortran) with --func;
#  - EDAN_TRACE_BEGIN()/END() markers in a host-built program;
#  - ls -lR, python3 and gzip traced whole: every executed instruction decodes
#    with the memory accesses QEMU reports for it;
#  - tests/cmd/x86/vector.s, hand-written: an AVX2 gather with loaded
#    indices, an SSE load that merges beside a VEX one that does not, a
#    scalar FMA from memory (whose 16-byte load in QEMU 7.2 is clipped to
#    its 8-byte operand), loads forwarded from a store, a rep movsb of 5000
#    iterations in 625 chunks of 8 bytes; the binary and text traces of the same run
#    analysed to the same report as the online analysis (so too a whole
#    program with two configurations, caches and a timeline);
#  - bad input: a 32-bit x86 program is refused naming its machine, and so
#    is --text-pc; an AVX-512 program dies of SIGILL, said; an instruction
#    QEMU runs and the decoder refuses stops the trace (--skip-unknown: left
#    out, counted); damaged x86-64 text and binary traces stop with the line
#    or byte at fault.
set -u
cd "$(dirname "$0")/../.."
E=./edan
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fails=$((fails + 1)); }
for t in as ld gcc qemu-x86_64; do command -v "$t" >/dev/null || { echo "test_trace_x86: $t is missing"; exit 1; }; done

# json FILE KEY...: the first configuration's values (layers: each W_i, from
# the report's summary of bins one layer wide)
json() { python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
L = c.get("layers")
if L: c["layers"] = L["sum"] if L["width"] == 1 else "width %d" % L["width"]
print(" ".join(str(c[k]) for k in sys.argv[2:]))' "$@"; }

# 1. the hand-written kernel
# kernel NAME: tests/cmd/x86/NAME.s linked with start.s into $W/NAME
kernel() { as --64 -o "$W/$1.o" "tests/cmd/x86/$1.s" && as --64 -o "$W/start.o" tests/cmd/x86/start.s &&
           ld -static -o "$W/$1" "$W/$1.o" "$W/start.o" || { echo "cannot build $1.s"; exit 1; }; }
kernel chains
for fw in "--forward 0|22 25 11 5 11 1003 8 3 0 [4, 1, 2, 2, 2]" "|22 25 7 2 15 404 8 3 0 [4, 3]"; do
  o=${fw%%|*} want=${fw#*|}
  # shellcheck disable=SC2086
  if $E trace --json --quiet $o --func kernel -- "$W/chains" > "$W/chains.json" 2> "$W/err"; then
    got=$(json "$W/chains.json" instructions edges W D C Tinf loads stores amos layers)
    [ "$got" = "$want" ] && ok "chains.s ${o:-forwarding}: N E W D C Tinf loads stores amos layers = $want" \
      || bad "chains.s ${o:-forwarding}: got '$got', want '$want'"
    grep -q warning "$W/err" && bad "chains.s: warnings: $(cat "$W/err")"
  else
    bad "chains.s: edan trace failed: $(cat "$W/err")"
  fi
done

# 1a. the rules of the cracking, a function each (tests/cmd/x86/cracked.s)
kernel cracked
for fw in "k_sum|11 8 5 1 6 5 0 [5]" "k_rmw|11 8 7 6 4 4 3 [2, 1, 1, 1, 1, 1]" "k_pushpop|8 8 5 4 3 3 2 [2, 1, 1, 1]" \
          "k_cvt|7 4 5 4 2 3 2 [2, 1, 1, 1]" "k_movupd|23 21 5 1 18 5 0 [5]" "k_xor|6 2 4 2 2 4 0 [3, 1]" \
          "k_pxor|8 4 4 2 4 4 0 [3, 1]" "k_vzeroall|11 3 5 3 6 3 2 [3, 1, 1]" "k_xadd|10 8 6 4 4 3 3 [2, 1, 1, 2]" \
          "k_cmpxchg|8 5 5 3 3 4 1 [3, 1, 1]" "k_movsb|8 6 3 2 5 2 1 [2, 1]"; do
  f=${fw%%|*} want=${fw#*|}
  # the cracking alone: without store-to-load forwarding (checked below)
  if $E trace --json --quiet --forward 0 --func "$f" -- "$W/cracked" > "$W/c.json" 2> "$W/err"; then
    got=$(json "$W/c.json" instructions edges W D C loads stores layers)
    [ "$got" = "$want" ] && ! grep -q warning "$W/err" && ok "cracked.s $f: N E W D C loads stores layers = $want" \
      || bad "cracked.s $f: got '$got', want '$want' $(cat "$W/err")"
  else
    bad "cracked.s $f: edan trace failed: $(cat "$W/err")"
  fi
done
# ... and with it (the default): a load of what a recent store wrote, or of
# a stack slot, is an operation from the store's start (cracked.s's
# "Forwarded" paragraph); lock xadd's loads are locked: never forwarded
for fw in "k_rmw|11 8 5 2 6 4 3 [2, 3] 2" "k_pushpop|8 8 4 2 4 3 2 [2, 2] 1" "k_cvt|7 4 4 2 3 3 2 [2, 2] 1" \
          "k_vzeroall|11 3 4 2 7 3 2 [3, 1] 1" "k_xadd|10 8 6 4 4 3 3 [2, 1, 1, 2] 0" \
          "k_cmpxchg|8 5 4 2 4 4 1 [3, 1] 1"; do
  f=${fw%%|*} want=${fw#*|}
  if $E trace --json --quiet --func "$f" -- "$W/cracked" > "$W/c.json" 2> "$W/err"; then
    got=$(json "$W/c.json" instructions edges W D C loads stores layers forwarded)
    [ "$got" = "$want" ] && ok "cracked.s $f, forwarded: N E W D C loads stores layers forwarded = $want" \
      || bad "cracked.s $f, forwarded: got '$got', want '$want' $(cat "$W/err")"
  else
    bad "cracked.s $f: edan trace failed: $(cat "$W/err")"
  fi
done

# 1b. the page's examples of an access across lines, store-to-load
#     forwarding and the string instructions (tests/cmd/x86/pagerules.s)
kernel pagerules
for fw in "k_straddle|--cache 32K:8:64|W D|1025 1" "k_spill|--forward 1|W D forwarded|302 2 100" \
          "k_spill|--forward 0|W D forwarded|402 202 0" "k_cmps||instructions W D|405 201 1" \
          "k_stos||instructions W D stores|16389 8193 1 8192"; do
  IFS='|' read -r f o keys want <<< "$fw"
  # shellcheck disable=SC2086
  if $E trace --json --quiet --no-profile $o --func "$f" -- "$W/pagerules" > "$W/p.json" 2> "$W/err"; then
    # shellcheck disable=SC2086
    got=$(json "$W/p.json" $keys)
    [ "$got" = "$want" ] && ok "pagerules.s $f ${o:-(defaults)}: $keys = $want" \
      || bad "pagerules.s $f ${o:-(defaults)}: $keys got '$got', want '$want' $(cat "$W/err")"
  else
    bad "pagerules.s $f: edan trace failed: $(cat "$W/err")"
  fi
done

# same A B: the two reports are the same but for the trace's name
same() { python3 -c '
import json, sys
def strip(d):
    if isinstance(d, dict): return {k: strip(v) for k, v in d.items() if k not in ("source", "trace", "tracer")}
    if isinstance(d, list): return [strip(x) for x in d]
    return d
a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
sys.exit(a != b)' "$@"; }

# --paper is the paper's model exactly: --paper-cache, --forward 0 and --window 0 (and
# not the default, which forwards and keeps fill edges)
P="--no-profile --cache 4K:2:64 --region kernel"
# shellcheck disable=SC2086
if $E trace --json --quiet $P --paper -- "$W/pagerules" > "$W/pa.json" 2> "$W/err" &&
   $E trace --json --quiet $P --paper-cache --forward 0 --window 0 -- "$W/pagerules" > "$W/pb.json" 2>> "$W/err" &&
   $E trace --json --quiet $P -- "$W/pagerules" > "$W/pc.json" 2>> "$W/err"; then
  same "$W/pa.json" "$W/pb.json" && ! same "$W/pa.json" "$W/pc.json" \
    && ok "--paper = --paper-cache --forward 0 --window 0 (W D $(json "$W/pa.json" W D); the default: $(json "$W/pc.json" W D))" \
    || bad "--paper differs from --paper-cache --forward 0 --window 0, or equals the default"
else
  bad "--paper: edan trace failed: $(cat "$W/err")"
fi

# 1b. the vector kernel, online and from its binary and text traces
kernel vector
if $E trace --analyze --json --quiet --func kernel --binary "$W/v.bt" --text "$W/v.txt" -- "$W/vector" > "$W/v.json" 2> "$W/err"; then
  got=$(json "$W/v.json" instructions edges W D loads stores amos layers load_bytes store_bytes flops)
  want="1891 2520 1250 3 632 626 0 [623, 622, 5] 5088 5032 3"
  [ "$got" = "$want" ] && ok "vector.s: N E W D loads stores amos layers bytes flops = $want" \
    || bad "vector.s: got '$got', want '$want'"
  $E analyze --json --quiet "$W/v.bt" > "$W/vb.json" && same "$W/v.json" "$W/vb.json" \
    && ok "vector.s: its binary trace analyses to the online report" || bad "vector.s: binary trace's report differs"
  $E analyze --json --quiet "$W/v.txt" > "$W/vt.json" && same "$W/v.json" "$W/vt.json" \
    && ok "vector.s: its text trace analyses to the online report" || bad "vector.s: text trace's report differs"
  plus=$(grep -c '^+' "$W/v.txt")
  iters=$(grep -c '^0x[0-9a-f]* f3a4 | rep movsb | L1@0x[0-9a-f]* S1@0x[0-9a-f]*$' "$W/v.txt")
  [ "$iters" = 5000 ] && [ "$plus" = 0 ] \
    && ok "vector.s: the rep movsb's 5000 iterations, a line each with its load and its store" \
    || bad "vector.s: rep movsb text lines: $iters iterations, $plus continuation lines; $(grep -m1 'rep movsb' "$W/v.txt" | head -c 100)"
else
  bad "vector.s: edan trace failed: $(cat "$W/err")"
fi

# 1c. a whole program, two configurations (caches, a timeline): the same
#     report online, from its binary trace and from its text trace
O="--tau 1000 --cache 32K:8:64 --cache 1M:16:64:wb:14 --timeline $W/g.csv --config=nc --no-cache --tau 1000"
if $E trace $O --analyze --json --quiet --binary "$W/g.bt" --text "$W/g.txt" -- build/examples-host/gemm 30 > "$W/g.json" 2> "$W/err" &&
   $E analyze $O --json --quiet "$W/g.bt" > "$W/gb.json" && $E analyze $O --json --quiet "$W/g.txt" > "$W/gt.json"; then
  same "$W/g.json" "$W/gb.json" && same "$W/g.json" "$W/gt.json" \
    && ok "gemm 30, whole program ($(json "$W/g.json" instructions) instructions): online = binary = text, two configurations" \
    || bad "gemm 30: the reports differ"
else
  bad "gemm 30: $(tail -3 "$W/err")"
fi

kernel repchunk
# 1c2. with no trace written, a block's exact execution goes to the analysis
#      whole from the block's callback (the plugin's fast path), after the
#      vertices fed one by one before it (repchunk.s: a rep movsb's last
#      bytes, held until then): one configuration (compiled blocks, the
#      windowed schedule), with and without caches, the same report as the
#      binary traces of 1b and 1c
for O1 in "--no-cache" "--cache 32K:8:64 --cache 1M:16:64:wb:14"; do
  # shellcheck disable=SC2086
  if $E trace $O1 --json --quiet -- build/examples-host/gemm 30 > "$W/g1.json" 2> "$W/err" &&
     $E analyze $O1 --json --quiet "$W/g.bt" > "$W/g1b.json" &&
     $E trace $O1 --json --quiet --func kernel -- "$W/vector" > "$W/v1.json" 2>> "$W/err" &&
     $E analyze $O1 --json --quiet "$W/v.bt" > "$W/v1b.json" &&
     $E trace $O1 --json --quiet --func kernel -- "$W/repchunk" > "$W/r1.json" 2>> "$W/err" &&
     $E trace $O1 --json --quiet --func kernel --binary "$W/r.bt" -- "$W/repchunk" > /dev/null 2>> "$W/err" &&
     $E analyze $O1 --json --quiet "$W/r.bt" > "$W/r1b.json"; then
    same "$W/g1.json" "$W/g1b.json" && same "$W/v1.json" "$W/v1b.json" && same "$W/r1.json" "$W/r1b.json" \
      && ok "gemm 30, vector.s and repchunk.s $O1: blocks fed whole online = the binary trace's report" \
      || bad "gemm 30, vector.s or repchunk.s $O1: the online report differs from the binary trace's"
  else
    bad "gemm 30, vector.s, repchunk.s $O1: $(tail -3 "$W/err")"
  fi
done

# 1d. the text trace says its ISA in its first line: 400 KB of comment lines
#     before the first instruction change nothing (file, pipe, .gz); without
#     that line the RISC-V reader that a guess would pick names it
if [ "$(head -1 "$W/g.txt")" = "#edan-trace x86-64" ]; then
  # after the #edan-trace and #edan-load lines, as edan trace writes its #edan-kill lines
  { head -2 "$W/g.txt"; yes '#edan-kill m0x10+8' | head -n 20000; tail -n +3 "$W/g.txt"; } > "$W/g400.txt"
  gzip -c "$W/g400.txt" > "$W/g400.txt.gz"
  $E analyze $O --json --quiet "$W/g400.txt" > "$W/g4f.json" 2> "$W/err" &&
  $E analyze $O --json --quiet - < "$W/g400.txt" > "$W/g4p.json" 2>> "$W/err" &&
  $E analyze $O --json --quiet "$W/g400.txt.gz" > "$W/g4z.json" 2>> "$W/err" &&
  same "$W/g.json" "$W/g4f.json" && same "$W/g.json" "$W/g4p.json" && same "$W/g.json" "$W/g4z.json" \
    && ok "a text trace with 400 KB of comments before its first instruction: the same report (file, pipe, .gz)" \
    || bad "400 KB of leading comments: $(tail -3 "$W/err")"
  tail -n +2 "$W/g400.txt" > "$W/g400-nohead.txt"
  $E analyze --quiet "$W/g400-nohead.txt" > /dev/null 2> "$W/err"; rc=$?
  [ $rc = 2 ] && grep -q '"#edan-trace x86-64" first line' "$W/err" && ok "the same without its #edan-trace line: exit 2, the missing line named" \
    || bad "no #edan-trace line: exit $rc $(tail -3 "$W/err")"
  { echo "#edan-trace sparc64"; tail -n +2 "$W/g.txt"; } > "$W/gs.txt"
  $E analyze --quiet "$W/gs.txt" > /dev/null 2> "$W/err"; rc=$?
  [ $rc = 2 ] && grep -q "gs.txt:1: unknown ISA" "$W/err" && ok "#edan-trace sparc64: exit 2, file:1: unknown ISA" \
    || bad "#edan-trace sparc64: exit $rc $(cat "$W/err")"
else
  bad "the text trace's first line is not #edan-trace x86-64: $(head -1 "$W/g.txt")"
fi

# 2. chase on both ISAs
gcc -O2 -Iexamples -Itools/trace -o "$W/chase" examples/chase.c
n=2000
x=$($E trace --json --quiet --func kernel_chase -- "$W/chase" $n 2> "$W/err" | python3 -c '
import json, sys; c = json.load(sys.stdin)["configs"][0]; print(c["W"], c["D"])') || x=""
r=$($E trace --json --quiet --func kernel_chase -- build/examples/chase $n 2>> "$W/err" | python3 -c '
import json, sys; c = json.load(sys.stdin)["configs"][0]; print(c["W"], c["D"])') || r=""
set -- $x $r
if [ $# = 4 ] && [ "$2" = $n ] && [ "$4" = $n ] && [ "$1" = $(($3 + 1)) ]; then
  ok "chase n=$n: D = n on both ISAs; W x86 $1 = RISC-V $3 + 1 (ret)"
else
  bad "chase n=$n: x86 W D '$x', RISC-V W D '$r' $(cat "$W/err")"
fi

# 3. a dynamically linked program calling libm from the traced function
gcc -O2 -o "$W/libm_call" tests/cmd/x86/libm_call.c -lm
native=$("$W/libm_call" 300)
if $E trace --json --func kernel -- "$W/libm_call" 300 > "$W/lm.json" 2> "$W/err"; then
  set -- $(json "$W/lm.json" instructions loads W)
  if [ "$2" -ge 300 ] && [ "$1" -lt 6000 ] && ! grep -q "warning" "$W/err"; then
    ok "libm_call: kernel only ($1 instructions, $2 loads for 300 elements), no undecodable instruction"
  else
    bad "libm_call: instructions $1 loads $2; $(cat "$W/err")"
  fi
else
  bad "libm_call: edan trace failed: $(cat "$W/err")"
fi
# the program's own output goes to standard error (the report is standard output)
$E trace --quiet --func kernel -- "$W/libm_call" 300 2>&1 >/dev/null | grep -qx "$native" \
  && ok "libm_call prints what it prints natively ($native)" || bad "libm_call's output differs from '$native'"

# 3b. Fortran: examples/daxpy.f90 (gfortran -O3, built by make into
#     build/examples-host/), --func kernel_daxpy names kernel_daxpy_. n and a
#     are passed by reference (4 + 8 bytes loaded once), x(i) and y(i) loaded
#     and y(i) stored once each, ret loads 8: 16n + 20 bytes loaded, 8n
#     stored, 2n flops (a multiply and an add per element), whatever the
#     vector width; W at most 3n + 3 (scalar code), fewer when vectorised
n=1000
if $E trace --json --quiet --func kernel_daxpy -- build/examples-host/daxpy $n > "$W/f.json" 2> "$W/err"; then
  got=$(json "$W/f.json" load_bytes store_bytes flops)
  want="$((16 * n + 20)) $((8 * n)) $((2 * n))"
  w=$(json "$W/f.json" W)
  if [ "$got" = "$want" ] && [ "$w" -le $((3 * n + 3)) ] && [ "$w" -gt $((n / 2)) ]; then
    ok "Fortran daxpy n=$n: bytes loaded and stored, flops = $want; W $w"
  else
    bad "Fortran daxpy: got '$got' (W $w), want '$want'"
  fi
else
  bad "Fortran daxpy: edan trace failed: $(cat "$W/err")"
fi

# 3c. EDAN_TRACE_BEGIN()/END() markers (examples/markers.c, built for the
#     host): only the marked loop, which loads the n ints of arr once and
#     stores nothing (gcc -O2: add edx, [rax], then the pointer step, the
#     compare and the branch, 5 vertices an element); --no-markers analyses
#     the whole program
n=1000
got=$($E trace --json --quiet -- build/examples-host/markers $n 2> "$W/err" | python3 -c '
import json, sys; c = json.load(sys.stdin)["configs"][0]; print(c["load_bytes"], c["store_bytes"], c["instructions"])')
all=$($E trace --json --quiet --no-markers -- build/examples-host/markers $n 2>> "$W/err" | python3 -c '
import json, sys; print(json.load(sys.stdin)["configs"][0]["instructions"])')
set -- $got
if [ "${1:-}" = $((4 * n)) ] && [ "${2:-}" = 0 ] && [ "${3:-0}" -le $((5 * n + 10)) ] && [ "${all:-0}" -gt $((20 * n)) ]; then
  ok "markers n=$n: the marked loop only: $1 bytes loaded, $2 stored, $3 instructions ($all without markers)"
else
  bad "markers: got '$got', whole '$all'; $(cat "$W/err")"
fi

# 4. the decoder against QEMU on real programs, every instruction traced: each
#    executed instruction decodes, and the bytes it loads and stores are the
#    ones QEMU reports (the plugin compares them at every execution and warns
#    of a difference); page-crossing instructions, for which QEMU 7.2 reports
#    no access, are counted apart
for p in "/bin/ls -lR /usr/include/linux" "/usr/bin/python3 -c print(sum(range(1000)))" "/bin/gzip -c tests/cmd/x86/chains.s"; do
  set -- $p
  if $E trace --quiet -o "$W/p.txt" -- "$@" > /dev/null 2> "$W/err"; then
    if grep -aq "other memory accesses\|could not be decoded\|were left out\|register state" "$W/err"; then
      bad "$1: $(grep -a warning "$W/err" | head -3)"
    else
      ok "$1 ${2:-}: $(head -c 60 "$W/p.txt" | sed 's/.*: //;s/ (.*//'); every execution's accesses as decoded"
    fi
  else
    bad "$1: edan trace failed: $(tail -3 "$W/err")"
  fi
done

# 5. bad input
printf '.globl _start\n_start: mov $1, %%eax\n int $0x80\n' > "$W/t32.s"
as --32 -o "$W/t32.o" "$W/t32.s" && ld -m elf_i386 -o "$W/t32" "$W/t32.o"
$E trace -- "$W/t32" > /dev/null 2> "$W/err"; rc=$?
[ $rc = 2 ] && grep -q "x86 (32-bit)" "$W/err" && ok "a 32-bit x86 program: exit 2, named: $(head -c 120 "$W/err")" \
  || bad "32-bit x86: rc=$rc $(cat "$W/err")"
$E trace --text "$W/t.txt" --text-pc -- "$W/chains" > /dev/null 2> "$W/err"; rc=$?
[ $rc = 2 ] && grep -q "RISC-V text form" "$W/err" && [ ! -e "$W/t.txt" ] && ok "--text-pc of an x86-64 program: exit 2, said" \
  || bad "--text-pc on x86-64: rc=$rc $(cat "$W/err")"
# an AVX-512 instruction, which QEMU 7.2 cannot run: the program dies of
# SIGILL (exit 132) with QEMU's message passed on and what it means said
printf '.intel_syntax noprefix\n.globl _start\n_start:\n vaddpd zmm0, zmm1, zmm2\n mov eax, 60\n xor edi, edi\n syscall\n' > "$W/avx512.s"
as --64 -o "$W/avx512.o" "$W/avx512.s" && ld -static -o "$W/avx512" "$W/avx512.o"
$E trace --quiet -- "$W/avx512" > /dev/null 2> "$W/err"; rc=$?
[ $rc = 132 ] && grep -q "Illegal instruction" "$W/err" && grep -q "up to AVX2" "$W/err" \
  && ok "an AVX-512 program: exit 132, QEMU's message and the AVX2 limit said" || bad "AVX-512: rc=$rc $(cat "$W/err")"
# an instruction QEMU runs and the decoder refuses (tests/cmd/x86/unknown.s):
# the trace stops at it (exit 2, its pc, bytes and function, no report);
# --skip-unknown leaves it out (the kernel's other two instructions) and says so
kernel unknown
$E trace --quiet --func kernel -- "$W/unknown" > "$W/out" 2> "$W/err"; rc=$?
[ $rc = 2 ] && grep -q "pc 0x[0-9a-f]* in kernel .*bytes c5 fd 6e c0: the instruction cannot be decoded" "$W/err" && [ ! -s "$W/out" ] \
  && ok "an undecodable instruction: exit 2, $(head -c 100 "$W/err" | sed "s|$W/||")" || bad "undecodable: rc=$rc $(cat "$W/err" "$W/out")"
$E trace --json --quiet --skip-unknown --func kernel -- "$W/unknown" > "$W/out" 2> "$W/err"; rc=$?
[ $rc = 0 ] && [ "$(json "$W/out" instructions W)" = "3 2" ] && grep -q "1 executions of instructions that cannot be decoded were left out" "$W/err" \
  && ok "--skip-unknown: the other 2 instructions analysed (3 vertices), the one left out said" || bad "--skip-unknown: rc=$rc $(cat "$W/err")"
# damaged x86-64 text traces: the file and line at fault, exit 2
if [ -s "$W/v.txt" ]; then
  n=0
  for edit in 's/\(| vmovsd xmm0, .* | L8@\)0x[0-9a-f]*$/\1zz/' 's/^\(0x[0-9a-f]*\) f20f58[0-9a-f]* | addsd/\1 f20f58 | addsd/' '2i\
+ L8@0x1000' 's/^\(0x[0-9a-f]*\) 488db780000000 | lea rsi, \[rdi+0x80\] |$/\1 488db780000000 lea rsi/' \
              's/\(| vmovsd xmm0, .*\) | L8@0x[0-9a-f]*$/\1 |/' 's/\(| lea rsi, \[rdi+0x80\] |\)$/\1 L8@0x1000 S8@0x1000/' \
              's/\(| vmovsd xmm0, .* | \)L8@/\1L65@/'; do
    n=$((n + 1))
    sed "$edit" "$W/v.txt" > "$W/bad$n.txt"
    cmp -s "$W/v.txt" "$W/bad$n.txt" && { bad "text edit $n changed nothing"; continue; }
    line=$(cmp "$W/v.txt" "$W/bad$n.txt" | sed 's/.* line //')
    $E analyze --quiet "$W/bad$n.txt" > /dev/null 2> "$W/err"; rc=$?
    [ $rc = 2 ] && grep -q "^$W/bad$n.txt:$line: " "$W/err" && ok "damaged x86-64 text trace $n: exit 2, $(head -c 110 "$W/err" | sed "s|$W/||")" \
      || bad "damaged text $n: rc=$rc, want line $line: $(cat "$W/err")"
  done
  # a load without its access, a lea with two: not the instruction's (the tracer writes neither)
  for n in 5 6; do
    grep -q "the accesses are not the instruction's" <($E analyze --quiet "$W/bad$n.txt" 2>&1 >/dev/null) \
      && ok "damaged x86-64 text trace $n: its accesses are not the instruction's, said" \
      || bad "damaged text $n: $($E analyze --quiet "$W/bad$n.txt" 2>&1 >/dev/null)"
  done
  grep -q "a size of 1 to 64 bytes" <($E analyze --quiet "$W/bad7.txt" 2>&1 >/dev/null) \
    && ok "L65@: the limit said, 64 bytes" || bad "L65@: $($E analyze --quiet "$W/bad7.txt" 2>&1 >/dev/null)"
fi
# damaged x86-64 binary traces: cut short, one byte changed
if [ -s "$W/v.bt" ]; then
  size=$(stat -c %s "$W/v.bt")
  head -c $((size / 2)) "$W/v.bt" > "$W/cut.bt"
  $E analyze --quiet "$W/cut.bt" > /dev/null 2> "$W/err"; rc=$?
  [ $rc = 2 ] && grep -q "truncated" "$W/err" && ok "a cut x86-64 binary trace: exit 2, said" || bad "cut binary: rc=$rc $(cat "$W/err")"
  python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[len(d) // 3] ^= 0x10; open(sys.argv[2], "wb").write(d)' "$W/v.bt" "$W/flip.bt"
  $E analyze --quiet "$W/flip.bt" > /dev/null 2> "$W/err"; rc=$?
  [ $rc = 2 ] && grep -q "byte [0-9]*: " "$W/err" && ok "an x86-64 binary trace with a changed byte: exit 2, $(head -c 100 "$W/err" | sed "s|$W/||")" \
    || bad "changed byte: rc=$rc $(cat "$W/err")"
fi

# memset and memcpy (glibc: rep stosb, rep movsb, an iteration per byte):
# memory follows the program's footprint, not the trace's length: 8 MB
# copied 4 times takes what 8 MB copied once does, and a byte written by a
# store of its own costs a bounded number of bytes of shadow memory
cat > "$W/copy.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    size_t n = (size_t)atol(argv[1]) << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 1, r;
    char *a = malloc(n), *b = malloc(n);
    if (!a || !b) return 2;
    for (r = 0; r < reps; r++) {
        memset(a, r + 1, n);
        memcpy(b, a, n);
    }
    printf("%d\n", b[n - 1]);
    return 0;
}
C
gcc -O2 -o "$W/copy" "$W/copy.c"
peak_kb() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"; }
q=$(peak_kb qemu-x86_64 "$W/copy" 8 4)
e1=$(peak_kb $E trace --quiet --no-cache -o "$W/copy.rep" -- "$W/copy" 8 1)
e4=$(peak_kb $E trace --quiet --no-cache -o "$W/copy.rep" -- "$W/copy" 8 4)
if $E trace --quiet --no-cache -o /dev/null -- "$W/copy" 1 2> "$W/err" > /dev/null && ! grep -q "other memory accesses" "$W/err" &&
   [ $(( e4 - e1 )) -lt $(( e1 / 10 )) ] && [ $(( (e4 - q) / 1024 )) -lt $((48 * 16)) ]; then
  ok "memset and memcpy of 8 MB: edan trace's peak memory $((e1 / 1024)) MB once, $((e4 / 1024)) MB four times (QEMU alone $((q / 1024)) MB; 16 MB of data)"
else
  bad "memset and memcpy of 8 MB: edan trace $((e1 / 1024)) MB once, $((e4 / 1024)) MB four times, QEMU alone $((q / 1024)) MB; $(cat "$W/err")"
fi

[ $fails = 0 ] && echo "test_trace_x86: all checks passed" || { echo "test_trace_x86: $fails failed"; exit 1; }
