/* edan_trace.h - source markers for `edan trace`.

   Put EDAN_TRACE_BEGIN() before and EDAN_TRACE_END() after the code to
   analyse. When a program contains these markers, `edan trace` analyses only
   the instructions executed between a BEGIN and the following END (callees
   included); everything else (start-up, input generation, printing) is
   skipped. Markers may be executed many times.

   Named regions: EDAN_TRACE_BEGIN("name") ... EDAN_TRACE_END("name") marks
   a region that the report also gives on its own (a section of the text
   report, an entry of the JSON report's "regions" list), as if it alone
   had been traced: everything outside it, other regions included, only
   takes the writers of what it writes. The name is a string literal (no
   quote, backslash or percent sign in it); the BEGINs and ENDs of one name
   may be many, and run many times. A named region's code is in the whole
   report too, with the unnamed markers' code. Named regions do not nest,
   neither in each other nor with unnamed markers: `edan trace` stops (exit
   2) at a BEGIN while another region is open, or at the END of a region
   that is not the open one. The same region's BEGIN may run again before
   its END (each thread of a parallel loop runs both): the region ends at
   the END that balances the BEGINs.

   Each marker is one instruction that does nothing, on real hardware and
   in QEMU, so a marked program runs unchanged without EDAN: on RISC-V a
   HINT, `slti zero, zero, IMM`, which the ISA reserves for custom use; on
   x86-64 a long NOP, `nopl IMM(%rax)` (which reads no memory). A named
   marker is followed by its name's address, in instructions that do
   nothing either: on RISC-V `auipc zero, %pcrel_hi(NAME)` and `slti
   zero, zero, %pcrel_lo(...)` (NAME's offset from the auipc, assembled
   without linker relaxation, which would rewrite the pair; an auipc that
   writes zero is a HINT, and where Zicfilp makes it a landing pad, a
   no-op but after an indirect jump, which never lands between a marker
   and its name), on x86-64 `nopl REL32(%rbp,%rbp,8)` (REL32: NAME's
   offset from this instruction). NAME is the name's bytes,
   NUL-terminated, in a read-only data section. The
   "memory" clobber keeps the compiler from moving loads and stores across
   a marker. On other architectures the markers compile to nothing.

   The encodings (the plugin recognises them from the instruction bytes):
     EDAN_TRACE_BEGIN: slti zero, zero, 0x4ed  = 0x4ed02013
                       nopl 0x4ed(%rax)        = 0f 1f 80 ed 04 00 00
     EDAN_TRACE_END:   slti zero, zero, 0x4ee  = 0x4ee02013
                       nopl 0x4ee(%rax)        = 0f 1f 80 ee 04 00 00
     the name after a marker:
                       auipc zero, HI          = HI << 12 | 0x017
                       slti zero, zero, LO     = LO << 20 | 0x02013
                       nopl REL32(%rbp,%rbp,8) = 0f 1f 84 ed REL32
*/
#ifndef EDAN_TRACE_H
#define EDAN_TRACE_H

#define EDAN_TRACE_BEGIN_INSN 0x4ed02013u
#define EDAN_TRACE_END_INSN   0x4ee02013u
#define EDAN_TRACE_X86_LEN 7
#define EDAN_TRACE_X86_BEGIN "\x0f\x1f\x80\xed\x04\x00\x00"
#define EDAN_TRACE_X86_END   "\x0f\x1f\x80\xee\x04\x00\x00"
#define EDAN_TRACE_X86_NAME_LEN 8
#define EDAN_TRACE_X86_NAME "\x0f\x1f\x84\xed"     /* then REL32, little-endian */

/* The marker, then (.ifnc: when the name is not empty) the name: one asm
   statement whatever the optimisation level. */
#if defined(__riscv)
#define EDAN__TRACE_MARK(imm, name) __asm__ __volatile__( \
    "slti zero, zero, " imm "\n" \
    ".ifnc \"" name "\",\"\"\n" \
    ".pushsection .rodata.edan_trace, \"a\", @progbits\n" \
    "1: .asciz \"" name "\"\n" \
    ".popsection\n" \
    ".option push\n" \
    ".option norelax\n" \
    "2: auipc zero, %%pcrel_hi(1b)\n" \
    "slti zero, zero, %%pcrel_lo(2b)\n" \
    ".option pop\n" \
    ".endif\n" ::: "memory")
#define EDAN_TRACE_BEGIN(...) EDAN__TRACE_MARK("0x4ed", "" __VA_ARGS__)
#define EDAN_TRACE_END(...)   EDAN__TRACE_MARK("0x4ee", "" __VA_ARGS__)
#elif defined(__x86_64__)
#define EDAN__TRACE_MARK(imm, name) __asm__ __volatile__( \
    ".byte 0x0f, 0x1f, 0x80, " imm ", 0x04, 0x00, 0x00\n" \
    ".ifnc \"" name "\",\"\"\n" \
    ".pushsection .rodata.edan_trace, \"a\", @progbits\n" \
    "1: .asciz \"" name "\"\n" \
    ".popsection\n" \
    ".byte 0x0f, 0x1f, 0x84, 0xed\n" \
    ".long 1b - . + 4\n" \
    ".endif\n" ::: "memory")
#define EDAN_TRACE_BEGIN(...) EDAN__TRACE_MARK("0xed", "" __VA_ARGS__)
#define EDAN_TRACE_END(...)   EDAN__TRACE_MARK("0xee", "" __VA_ARGS__)
#else
#define EDAN_TRACE_BEGIN(...) ((void)0)
#define EDAN_TRACE_END(...)   ((void)0)
#endif

#endif /* EDAN_TRACE_H */
