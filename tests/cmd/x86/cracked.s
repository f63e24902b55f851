# tests/cmd/x86/cracked.s - hand-written x86-64 functions for
# test_trace_x86.sh, one rule of edan-model's "x86-64: instructions cracked
# into loads, operations and stores" each, every number worked out by hand
# from the page (no cache, alpha 200, unit costs). Linked with start.s:
# `kernel` calls each function with rdi at a 256-byte area of its own of the
# zeroed buffer; traced with --func k_NAME, the caller's registers and stores
# have no writer (a scoped trace). Per instruction: its vertices (L load, O
# operation, S store), what each reads from whom, and md. Every function ends
# in ret: a load of the return address (md 1, written outside the scope) and
# an operation on rsp. Columns of the expectations: N E W D C loads stores
# layers (W_1 W_2 ...), traced with --forward 0 (the cracking alone).
#
# Forwarded (the default): a load of bytes that one of the thread's last 32
# stores wrote, or of a stack slot a stack store wrote, is an operation of
# one cycle from that store's start, at the depth of the store's
# predecessors. Columns N E W D C loads stores layers forwarded:
#   k_rmw      the second and third loads from the stores before them
#              (md 1): each store at md 2, W 5, D 2   11 8 5 2 6 4 3 [2, 3] 2
#   k_pushpop  pop's load from push's store (stack slots): mov [rdi+8]'s
#              store at md 2                          8 8 4 2 4 3 2 [2, 2] 1
#   k_cvt      the reload of [rdi+8] from its store (md 1)
#                                                     7 4 4 2 3 3 2 [2, 2] 1
#   k_vzeroall the reload of [rdi+64] (32 bytes, one store)
#                                                     11 3 4 2 7 3 2 [3, 1] 1
#   k_xadd     lock xadd's loads are locked: never forwarded (as above)
#                                                     10 8 6 4 4 3 3 [2, 1, 1, 2] 0
#   k_cmpxchg  mov rdx, [rdi] from cmpxchg's store    8 5 4 2 4 4 1 [3, 1] 1
.intel_syntax noprefix
.globl kernel, k_sum, k_rmw, k_pushpop, k_cvt, k_movupd, k_xor, k_pxor, k_vzeroall, k_xadd, k_cmpxchg, k_movsb
.text

# A load-op sum: each add is a load, then the add; the loads wait for
# nothing, so D = 1 (one vertex, a load-op chain: D = 4).
#   11 8 5 1 6 5 0 [5]
.type k_sum, @function
k_sum:
    xor eax, eax            # O: zeroing idiom, no sources                   md 0
    add rax, [rdi]          # L; O <- xor, L                                 md 1
    add rax, [rdi+8]        # L; O <- O, L                                   md 1
    add rax, [rdi+16]       # L; O <- O, L                                   md 1
    add rax, [rdi+24]       # L; O <- O, L                                   md 1
    ret                     # L, O                                           md 1
.size k_sum, .-k_sum

# add qword ptr [rdi], 1, k = 3 times on one address: L, O, S each, as
# RISC-V's ld/addi/sd: W = 2k (+ ret's load), D = 2k.
#   11 8 7 6 4 4 3 [2, 1, 1, 1, 1, 1]
.type k_rmw, @function
k_rmw:
    add qword ptr [rdi], 1  # L (md 1); O <- L; S <- O (md 2)
    add qword ptr [rdi], 1  # L <- S (bytes, md 3); O <- L; S <- O (md 4)
    add qword ptr [rdi], 1  # L <- S (md 5); O <- L; S <- O (md 6)
    ret
.size k_rmw, .-k_rmw

# push and pop of a loaded value: the store of push waits for the load,
# the load of pop for that store; push's rsp update waits for no memory.
#   8 8 5 4 3 3 2 [2, 1, 1, 1]
.type k_pushpop, @function
k_pushpop:
    mov rax, [rdi]          # L -> rax                                       md 1
    push rax                # O rsp; S <- O (rsp), L (rax)                   md 2
    pop rcx                 # L -> rcx <- O (rsp), S (bytes) (md 3); O rsp <- O
    mov [rdi+8], rcx        # S <- L (rcx)                                   md 4
    ret                     # L <- O (rsp of pop); O <- O (rsp)              md 1
.size k_pushpop, .-k_pushpop

# cvtsi2sd writes bits 63:0 of xmm0 and keeps 127:64: a merge, so it waits
# for xmm0's last writer (a chain of 3); without the merge the store's md
# would be 1.
#   7 4 5 4 2 3 2 [2, 1, 1, 1]
.type k_cvt, @function
k_cvt:
    movsd xmm0, [rdi]       # L -> xmm0 (a load of 64 bits zeroes the rest)  md 1
    movsd [rdi+8], xmm0     # S <- L                                         md 2
    movsd xmm0, [rdi+8]     # L <- S (bytes)                                 md 3
    cvtsi2sd xmm0, rcx      # O <- L (xmm0; rcx has no writer)               md 3
    movsd [rdi+16], xmm0    # S <- O                                         md 4
    ret
.size k_cvt, .-k_cvt

# A loop of movupd into one register: a load of 128 bits is a plain write,
# legacy SSE or not, so the loads do not chain (the sum's adds do, but they
# are no memory vertices): D = 1.
#   23 21 5 1 18 5 0 [5]
.type k_movupd, @function
k_movupd:
    mov ecx, 4              # O
1:  movupd xmm0, [rdi]      # L -> xmm0 <- add rdi (from the second on)     md 1
    addpd xmm1, xmm0        # O <- O (xmm1, from the second on), L
    add rdi, 16             # O <- O (from the second on)
    dec ecx                 # O <- O
    jnz 1b                  # O <- O (RFLAGS)
    ret
.size k_movupd, .-k_movupd

# xor eax, eax breaks the chain through rax: the last load waits for no load.
#   6 2 4 2 2 4 0 [3, 1]
.type k_xor, @function
k_xor:
    mov rax, [rdi]          # L -> rax                                       md 1
    mov rax, [rdi+rax]      # L <- L (rax)                                   md 2
    xor eax, eax            # O: no sources                                  md 0
    mov rcx, [rdi+rax+8]    # L <- O (rax)                                   md 1
    ret
.size k_xor, .-k_xor

# pxor xmm0, xmm0 likewise for a vector register.
#   8 4 4 2 4 4 0 [3, 1]
.type k_pxor, @function
k_pxor:
    movq xmm0, [rdi]        # L -> xmm0                                      md 1
    movq rax, xmm0          # O <- L                                         md 1
    movq xmm0, [rdi+rax]    # L <- O (rax)                                   md 2
    pxor xmm0, xmm0         # O: no sources                                  md 0
    movq rcx, xmm0          # O <- O
    mov rdx, [rdi+rcx+8]    # L <- O (rcx)                                   md 1
    ret
.size k_pxor, .-k_pxor

# vzeroall writes every vector register with no sources (four operations
# of four registers each): the last store waits for no load; vzeroupper
# writes nothing.
#   11 3 5 3 6 3 2 [3, 1, 1]
.type k_vzeroall, @function
k_vzeroall:
    vmovdqu ymm3, [rdi]     # L -> ymm3                                      md 1
    vmovdqu [rdi+64], ymm3  # S <- L                                         md 2
    vmovdqu ymm3, [rdi+64]  # L <- S (bytes)                                 md 3
    vzeroall                # O O O O: no sources
    vmovdqu [rdi+128], ymm3 # S <- O (the first of vzeroall's four)          md 1
    vzeroupper              # O: nothing read, nothing written
    ret
.size k_vzeroall, .-k_vzeroall

# lock xadd: load, operation, store (QEMU 7.2 reports the atomic access
# once, as a store; it loads the bytes first).
#   10 8 6 4 4 3 3 [2, 1, 1, 2]
.type k_xadd, @function
k_xadd:
    mov eax, 1              # O                                              md 0
    lock xadd [rdi], eax    # L (md 1); O <- O (rax), L; S <- O (md 2)
    lock xadd [rdi], eax    # L <- S (md 3); O <- O (rax), L; S <- O (md 4)
    mov [rdi+8], eax        # S <- O (rax)                                   md 4
    ret
.size k_xadd, .-k_xadd

# cmpxchg: load, then the comparison and exchange (rax, rcx, the loaded
# value), then the store ([rdi] is 0 = rax: rcx is stored).
#   8 5 5 3 3 4 1 [3, 1, 1]
.type k_cmpxchg, @function
k_cmpxchg:
    mov rcx, [rdi+8]        # L -> rcx                                       md 1
    xor eax, eax            # O                                              md 0
    cmpxchg [rdi], rcx      # L (md 1); O <- xor (rax), L (rcx), L; S <- O (md 2)
    mov rdx, [rdi]          # L <- S (bytes)                                 md 3
    ret
.size k_cmpxchg, .-k_cmpxchg

# rep movsb of 3 bytes: QEMU runs three iterations (its last look at rcx
# makes no vertex); a rep movs of bytes goes in chunks of 8, here one of 3
# bytes: a load of 3 <- rsi's writer (md 1), an operation on rsi, rdi and
# rcx, a store of 3 <- O (rdi), L (md 2).
#   8 6 3 2 5 2 1 [2, 1]
.type k_movsb, @function
k_movsb:
    lea rsi, [rdi]          # O
    lea rdi, [rdi+64]       # O
    mov ecx, 3              # O
    rep movsb               # one chunk: L <- rsi's writer; O <- rsi's, rdi's, rcx's; S <- O (rdi), L
    ret
.size k_movsb, .-k_movsb

# kernel: each function with rdi at an area of its own
.type kernel, @function
kernel:
    push rbx
    mov rbx, rdi
    lea rdi, [rbx]
    call k_sum
    lea rdi, [rbx+256]
    call k_rmw
    lea rdi, [rbx+512]
    call k_pushpop
    lea rdi, [rbx+768]
    call k_cvt
    lea rdi, [rbx+1024]
    call k_movupd
    lea rdi, [rbx+1280]
    call k_xor
    lea rdi, [rbx+1536]
    call k_pxor
    lea rdi, [rbx+1792]
    call k_vzeroall
    lea rdi, [rbx+2048]
    call k_xadd
    lea rdi, [rbx+2304]
    call k_cmpxchg
    lea rdi, [rbx+2560]
    call k_movsb
    pop rbx
    ret
.size kernel, .-kernel
