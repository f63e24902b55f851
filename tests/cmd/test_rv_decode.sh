#!/usr/bin/env bash
# Differential test of the RISC-V decoder (edan_rv_decode) against the text
# parser (edan_rv_parse_line). The programs in tests/cmd/rv/ and examples/ are
# cross-compiled with -O2 for rv64gc and rv64g; every instruction of their
# objdump -d listing (static glibc included) and of a qemu-riscv64 -d in_asm
# log of their run (QEMU 7.2's own disassembly, the trace format) must read
# the same from its bytes as from its text (tests/cmd/rv/allinsn.c runs every
# RV64GC instruction form once, so QEMU prints them all). Also: all 16-bit
# encodings and 200000 random 32-bit words through objdump -D -b binary.
set -eu
cd "$(dirname "$0")/../.."
CHK=build/test_rv_decode
[ -x "$CHK" ] || { echo "$CHK is missing (make test builds it)"; exit 1; }
for t in riscv64-linux-gnu-gcc riscv64-linux-gnu-objdump qemu-riscv64; do
  command -v "$t" >/dev/null || { echo "$t is missing (tools/deps.sh installs it)"; exit 1; }
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
CC=riscv64-linux-gnu-gcc
DUMP=riscv64-linux-gnu-objdump
progs=() listings=() logs=()
for m in rv64gc rv64g; do
  for src in tests/cmd/rv/*.c; do
    n=$(basename "$src" .c).$m
    $CC -O2 -march=$m -mabi=lp64d -static -o "$W/$n" "$src" -lm
    $DUMP -d "$W/$n" > "$W/$n.dis"
    qemu-riscv64 -d in_asm -D "$W/$n.log" "$W/$n" > /dev/null
    listings+=("$W/$n.dis") logs+=("$W/$n.log")
  done
  for src in examples/*.c; do
    [ "$src" = examples/embed.c ] && continue      # the library's host example, not a kernel
    case $src in examples/mpi_*) continue ;; esac  # MPI kernels: built for this machine only, with mpicc
    n=ex_$(basename "$src" .c).$m
    $CC -O2 -march=$m -mabi=lp64d -Iexamples -Itools/trace -c -o "$W/$n.o" "$src" ||
      { echo "FAIL: $src does not compile for $m"; exit 1; }
    $DUMP -d "$W/$n.o" > "$W/$n.dis"
    listings+=("$W/$n.dis")
  done
done
echo "== objdump -d of ${#listings[@]} programs and objects"
"$CHK" --objdump --require-all "${listings[@]}"
echo "== qemu-riscv64 -d in_asm of ${#logs[@]} runs"
"$CHK" --qemu --require-all "${logs[@]}"
echo "== every 16-bit encoding"
"$CHK" --gen16 "$W/c16.bin"
$DUMP -D -b binary -m riscv:rv64 "$W/c16.bin" > "$W/c16.dis"
"$CHK" --objdump "$W/c16.dis"
echo "== 200000 random 32-bit words"
"$CHK" --gen32 200000 "$W/r32.bin"
$DUMP -D -b binary -m riscv:rv64 "$W/r32.bin" > "$W/r32.dis"
"$CHK" --objdump --lenient-csr "$W/r32.dis"
