/* edan_trace.h - source markers for `edan trace`.

   Put EDAN_TRACE_BEGIN() before and EDAN_TRACE_END() after the code to
   analyse. When a program contains these markers, `edan trace` analyses only
   the instructions executed between a BEGIN and the following END (callees
   included); everything else (start-up, input generation, printing) is
   skipped. Markers may be executed many times.

   Each marker is one RISC-V HINT instruction: `slti zero, zero, IMM`, which
   the ISA reserves for custom use and which does nothing on real hardware
   and in QEMU, so a marked program runs unchanged without EDAN. The "memory"
   clobber keeps the compiler from moving loads and stores across a marker.
   On other architectures the markers compile to nothing.

   The encodings (the plugin recognises them from the instruction bytes):
     EDAN_TRACE_BEGIN: slti zero, zero, 0x4ed  = 0x4ed02013
     EDAN_TRACE_END:   slti zero, zero, 0x4ee  = 0x4ee02013
*/
#ifndef EDAN_TRACE_H
#define EDAN_TRACE_H

#define EDAN_TRACE_BEGIN_INSN 0x4ed02013u
#define EDAN_TRACE_END_INSN   0x4ee02013u

#if defined(__riscv)
#define EDAN_TRACE_BEGIN() __asm__ __volatile__("slti zero, zero, 0x4ed" ::: "memory")
#define EDAN_TRACE_END()   __asm__ __volatile__("slti zero, zero, 0x4ee" ::: "memory")
#else
#define EDAN_TRACE_BEGIN() ((void)0)
#define EDAN_TRACE_END()   ((void)0)
#endif

#endif /* EDAN_TRACE_H */
