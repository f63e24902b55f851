#!/usr/bin/env bash
# Fuzzes the RISC-V text parser and decoder under ASan and UBSan for a bounded
# time (FUZZ_SECONDS, default 30) from a seed corpus of trace lines in every
# accepted format. Fails on any crash, sanitizer report, leak, timeout or
# broken invariant.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/corpus"
i=0
while IFS= read -r line; do
  i=$((i+1)); printf '%s\n' "$line" > "$T/corpus/seed$i"
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
printf '\x13\x05\x15\x00\x82\x80\x03\x27\x05\x00\xaf\x25\xb6\x04\x53\x75\xf5\xd2' > "$T/corpus/bytes"
printf 'lw a4,0(a5);0x10\r\nret\n\n# c\nadd a0,a1,a2' > "$T/corpus/lines"
fuzz_run fuzz_rv 4200
exit $fail
