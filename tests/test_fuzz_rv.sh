#!/usr/bin/env bash
# Fuzzes the RISC-V text parser and decoder under ASan and UBSan for a bounded
# time (FUZZ_SECONDS, default 30) from a seed corpus of trace lines in every
# accepted format. Fails on any crash, sanitizer report, leak, timeout or
# broken invariant.
set -u
cd "$(dirname "$0")/.."
FUZZ=build/fuzz_rv
[ -x "$FUZZ" ] || { echo "$FUZZ is missing (make test builds it from tests/fuzz_rv.c)"; exit 1; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/corpus"
i=0
while IFS= read -r line; do
  i=$((i+1)); printf '%s\n' "$line" > "$W/corpus/seed$i"
done <<'SEEDS'
lw a4,0(a5);0x40080290
0;lw a4,0(a5);0x4000800210
0;0x104be;lw a4,0(a5);0x4000800210
0x00000000000105b4:  022000ef          jal                     ra,34                   # 0x105d6
00052703          lw              a4,0(a0);0x4000800210
0;0x104b0;blez a1,26 # 0x104ca
fmadd.d dyn,fa5,fa5,fa3,fa4
fcvt.w.d a0,fa5,rtz
fmv.d a2,a0
amoadd.w.aq.rl a0,a1,(a2);0x100;0x100
csrrs a0,fflags,zero
fsflags zero,a5
sc.w a0,a2,(a1)
beq a0,a1,10b50 <main+0x20>
c.ldsp a0,8(sp);0x1000
csrrs a0,hpmcounter4h,zero
fence rw,rw
SEEDS
printf '\x13\x05\x15\x00\x82\x80\x03\x27\x05\x00\xaf\x25\xb6\x04\x53\x75\xf5\xd2' > "$W/corpus/bytes"
printf 'lw a4,0(a5);0x10\r\nret\n\n# c\nadd a0,a1,a2' > "$W/corpus/lines"
"$FUZZ" -max_total_time="${FUZZ_SECONDS:-30}" -max_len=4200 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "$W/corpus" > "$W/log" 2>&1
rc=$?
grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss)" "$W/log" || true
if [ $rc -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:" "$W/log"; then
  echo "fuzzing failed (exit $rc):"
  grep -E -A 30 "ERROR:|runtime error:" "$W/log" | head -60
  exit 1
fi
echo "fuzz_rv: no crash, sanitizer report or broken invariant in ${FUZZ_SECONDS:-30} s"
