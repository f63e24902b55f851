# tests/cmd/x86/vector.s - a hand-written x86-64 kernel for test_trace_x86.sh:
# an AVX2 gather whose indices come from a load, a legacy SSE load (merges:
# reads its register) beside a VEX one (zeroes the rest: a plain write), a
# scalar FMA with a memory operand (8 bytes, though QEMU loads 16), and
# a rep movsb of 5000 bytes (one vertex of 10000 accesses: several VERTEX
# records in a binary trace, continuation lines in a text trace). Linked with
# start.s, which calls it with rdi at a zeroed buffer. Per instruction: what
# it reads from whom, and its memory depth md:
# 14 instructions, 15 edges (14 if the SSE load did not merge, 16 if the VEX
# one did), W 9, D 5, memory vertices per md 2 1 1 3 2; 5088 bytes loaded,
# 5032 stored, 3 flops.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    vmovdqu xmm1, [rdi]                     #  1 load 16 (four indices, 0)        md 1
    vpcmpeqd ymm2, ymm2, ymm2               #  2 the mask, all ones               md 0
    vgatherdpd ymm0, [rdi+xmm1*8+64], ymm2  #  3 4 loads of 8; <- 1, <- 2         md 2
    vmovupd [rdi+128], ymm0                 #  4 store 32; <- 3                   md 3
    movsd xmm0, [rdi+128]                   #  5 load 8; <- 4 (bytes); SSE merge:
                                            #    reads xmm0, <- 3                 md 4
    vmovsd xmm0, [rdi+136]                  #  6 load 8; <- 4 (bytes); VEX: a
                                            #    plain write, no edge from 5      md 4
    addsd xmm3, xmm0                        #  7 <- 6; 1 flop                     md 4
    vfmadd231sd xmm3, xmm0, [rdi+136]       #  8 load 8 (QEMU 7.2 loads 16); <- 4
                                            #    (bytes), 6, 7; 2 flops           md 5
    lea rsi, [rdi+128]                      #  9 (rdi: written outside the scope) md 0
    lea rdi, [rdi+8192]                     # 10                                  md 0
    mov ecx, 5000                           # 11                                  md 0
    rep movsb                               # 12 5000 loads of buf+128.., 5000
                                            #    stores to buf+8192..; <- 9, 10,
                                            #    11, <- 4 (bytes 128..159)        md 4
    movsd xmm5, [rdi-8]                     # 13 load 8; <- 12 (rdi and bytes)    md 5
    ret                                     # 14 load 8 (written outside)         md 1
.size kernel, .-kernel
