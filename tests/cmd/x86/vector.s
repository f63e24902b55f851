# tests/cmd/x86/vector.s - a hand-written x86-64 kernel for test_trace_x86.sh:
# an AVX2 gather whose indices come from a load, a legacy SSE load of 64
# bits (it zeroes the rest of xmm0: a plain write) beside a VEX one, a
# scalar FMA with a memory operand (8 bytes, though QEMU loads 16), loads
# that store-to-load forwarding answers, and a rep movsb of 5000 bytes
# (5000 iterations: 5000 lines of a text trace, 5000 VERTEX records of a
# binary one; a rep movs of bytes is analysed in chunks of 8: 625 of a load,
# an operation and a store). Linked with start.s, which calls it with rdi at
# a zeroed buffer. Each instruction's vertices (L load, O operation, S
# store), what each reads from whom, md, and F (no cache, alpha 200):
# 1891 vertices, 2520 edges, W 1250, D 3, memory vertices per md 623 622 5;
# 5088 bytes loaded, 5032 stored, 3 flops.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    vmovdqu xmm1, [rdi]                     #  1 L -> xmm1 (four indices, 0)      md 1, F 200
    vpcmpeqd ymm2, ymm2, ymm2               #  2 O: all ones, no sources          md 0
    vgatherdpd ymm0, [rdi+xmm1*8+64], ymm2  #  3 L: 4 loads of 8 <- 1 (index),
                                            #    2 (mask) (md 2, F 400); O <- 2, L
    vmovupd [rdi+128], ymm0                 #  4 S 32 <- 3's O: starts at 401     md 3
    movsd xmm0, [rdi+128]                   #  5 L 8 <- 4 (bytes): forwarded      md 2
    vmovsd xmm0, [rdi+136]                  #  6 L 8 <- 4 (bytes): forwarded      md 2
    addsd xmm3, xmm0                        #  7 O <- 6; 1 flop                   md 2
    vfmadd231sd xmm3, xmm0, [rdi+136]       #  8 L 8 (QEMU 7.2 loads 16) <- 4
                                            #    (bytes): forwarded (md 2); O <-
                                            #    7, 6, L; 2 flops
    lea rsi, [rdi+128]                      #  9 O (rdi: written outside the scope)
    lea rdi, [rdi+8192]                     # 10 O
    mov ecx, 5000                           # 11 O
    rep movsb                               # 12 625 chunks j of 8 bytes: L of
                                            #    buf+128+8j <- the rsi of 9 or of
                                            #    chunk j-1, and for j < 4 4's bytes:
                                            #    forwarded (md 2), else a RAM load
                                            #    (md 1); O <- rsi's, rdi's, rcx's
                                            #    writer(s); S to buf+8192+8j <- O, L
                                            #    (md 3 for j < 4, else 2)
    movsd xmm5, [rdi-8]                     # 13 L <- chunk 624's O (rdi) and S
                                            #    (bytes): forwarded (md 1)
    ret                                     # 14 L (written outside) md 1; O
.size kernel, .-kernel
