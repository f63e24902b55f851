# tests/cmd/x86/vector.s - a hand-written x86-64 kernel for test_trace_x86.sh:
# an AVX2 gather whose indices come from a load, a legacy SSE load of 64
# bits (it zeroes the rest of xmm0: a plain write) beside a VEX one, a
# scalar FMA with a memory operand (8 bytes, though QEMU loads 16), and a
# rep movsb of 5000 bytes (5000 iterations of a load, an operation and a
# store: 5000 lines of a text trace, 5000 VERTEX records of a binary one).
# Linked with start.s, which calls it with rdi at a zeroed buffer. Each
# instruction's vertices (L load, O operation, S store), what each reads
# from whom, and md:
# 15016 vertices, 20055 edges, W 10008, D 5, memory vertices per md
# 4970 4969 2 35 32; 5088 bytes loaded, 5032 stored, 3 flops.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    vmovdqu xmm1, [rdi]                     #  1 L -> xmm1 (four indices, 0)      md 1
    vpcmpeqd ymm2, ymm2, ymm2               #  2 O: all ones, no sources          md 0
    vgatherdpd ymm0, [rdi+xmm1*8+64], ymm2  #  3 L: 4 loads of 8 <- 1 (index),
                                            #    2 (mask) (md 2); O <- 2, L
    vmovupd [rdi+128], ymm0                 #  4 S 32 <- 3's O                    md 3
    movsd xmm0, [rdi+128]                   #  5 L 8 -> xmm0 <- 4 (bytes)         md 4
    vmovsd xmm0, [rdi+136]                  #  6 L 8 -> xmm0 <- 4 (bytes)         md 4
    addsd xmm3, xmm0                        #  7 O <- 6; 1 flop                   md 4
    vfmadd231sd xmm3, xmm0, [rdi+136]       #  8 L 8 (QEMU 7.2 loads 16) <- 4
                                            #    (bytes) (md 4); O <- 7, 6, L;
                                            #    2 flops
    lea rsi, [rdi+128]                      #  9 O (rdi: written outside the scope)
    lea rdi, [rdi+8192]                     # 10 O
    mov ecx, 5000                           # 11 O
    rep movsb                               # 12 5000 iterations i: L of buf+128+i
                                            #    <- rsi's writer, 4 (bytes, i < 32)
                                            #    (md 4 for i < 32, else 1); O <-
                                            #    rsi's, rdi's, rcx's writers; S to
                                            #    buf+8192+i <- O, L (md 5 or 2)
    movsd xmm5, [rdi-8]                     # 13 L <- 12's last O (rdi), its last
                                            #    8 S (bytes)                      md 3
    ret                                     # 14 L (written outside) md 1; O
.size kernel, .-kernel
