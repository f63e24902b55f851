/* edan_trace.h - source markers for `edan trace`.

   Put EDAN_TRACE_BEGIN() before and EDAN_TRACE_END() after the code to
   analyse. When a program contains these markers, `edan trace` analyses only
   the instructions executed between a BEGIN and the following END (callees
   included); everything else (start-up, input generation, printing) is
   skipped. Markers may be executed many times.

   Each marker is one instruction that does nothing, on real hardware and
   in QEMU, so a marked program runs unchanged without EDAN: on RISC-V a
   HINT, `slti zero, zero, IMM`, which the ISA reserves for custom use; on
   x86-64 a long NOP, `nopl IMM(%rax)` (which reads no memory). The
   "memory" clobber keeps the compiler from moving loads and stores across
   a marker. On other architectures the markers compile to nothing.

   The encodings (the plugin recognises them from the instruction bytes):
     EDAN_TRACE_BEGIN: slti zero, zero, 0x4ed  = 0x4ed02013
                       nopl 0x4ed(%rax)        = 0f 1f 80 ed 04 00 00
     EDAN_TRACE_END:   slti zero, zero, 0x4ee  = 0x4ee02013
                       nopl 0x4ee(%rax)        = 0f 1f 80 ee 04 00 00
*/
#ifndef EDAN_TRACE_H
#define EDAN_TRACE_H

#define EDAN_TRACE_BEGIN_INSN 0x4ed02013u
#define EDAN_TRACE_END_INSN   0x4ee02013u
#define EDAN_TRACE_X86_LEN 7
#define EDAN_TRACE_X86_BEGIN "\x0f\x1f\x80\xed\x04\x00\x00"
#define EDAN_TRACE_X86_END   "\x0f\x1f\x80\xee\x04\x00\x00"

#if defined(__riscv)
#define EDAN_TRACE_BEGIN() __asm__ __volatile__("slti zero, zero, 0x4ed" ::: "memory")
#define EDAN_TRACE_END()   __asm__ __volatile__("slti zero, zero, 0x4ee" ::: "memory")
#elif defined(__x86_64__)
#define EDAN_TRACE_BEGIN() __asm__ __volatile__(".byte 0x0f, 0x1f, 0x80, 0xed, 0x04, 0x00, 0x00" ::: "memory")
#define EDAN_TRACE_END()   __asm__ __volatile__(".byte 0x0f, 0x1f, 0x80, 0xee, 0x04, 0x00, 0x00" ::: "memory")
#else
#define EDAN_TRACE_BEGIN() ((void)0)
#define EDAN_TRACE_END()   ((void)0)
#endif

#endif /* EDAN_TRACE_H */
