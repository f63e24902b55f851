# tests/cmd/x86/pagerules.s - hand-written x86-64 functions for
# test_trace_x86.sh, one example each of edan-model's rules for an access
# across lines, store-to-load forwarding and the string instructions, every
# number worked out by hand from the page (alpha 200, unit costs). Linked
# with start.s: `kernel` calls each function with rdi at the zeroed 16 KiB
# buffer; traced with --func k_NAME. Every function ends in ret: a load of
# the return address (written outside the scope: a memory vertex of md 1)
# and an operation on rsp.
.intel_syntax noprefix
.globl kernel, k_straddle, k_spill, k_cmps, k_stos
.bss
.align 64
big: .zero 65600
.text

# A sum over the 8,192 doubles of big, 16 bytes a load, offset by one
# double: movupd [big+8+16i], i = 0 .. 4094. With a 32 KiB cache of 64-byte
# lines (--cache 32K:8:64) every fourth load straddles two lines: it hits
# the line the straddler before it brought from RAM and misses the next.
# Its RAM request does not wait for that fill (the fill edge joins at its
# end): md max(0 + 1, the filler's 1) = 1. The loads between hit (md 1 from
# their filler, no memory vertex). W = 1,024 lines + ret's = 1,025, D = 1
# (with the fill joined at the start, each line would wait for the one
# before it: D 1,024).
.type k_straddle, @function
k_straddle:
    lea rsi, [rip+big+8]
    mov ecx, 4095
    xorpd xmm1, xmm1
1:  movupd xmm0, [rsi]      # L 16 -> xmm0
    addpd xmm1, xmm0        # O
    add rsi, 16
    dec ecx
    jnz 1b
    ret
.size k_straddle, .-k_straddle

# A loop counter spilled to a stack slot, 100 iterations: the slot's
# reload, its increment, its store; an element loaded with it and copied
# 2 KiB on (a store that is no stack slot). With a store buffer of one
# store (--forward 1) the slot's store of the iteration before is two
# stores back, but stack slots forward at any distance: each reload is an
# operation from the slot's last store's start, at md 0 (the first store,
# of an immediate, and every increment have md 0 at their start). Each
# slot store md 1, element load md 1, copy store md 2: W = 1 + 3 x 100 + 1
# (ret) = 302, D = 2, 100 forwarded. Without forwarding (--forward 0) the
# counter's chain runs through RAM: reload j at md 2j, store 2j + 1,
# element load 2j + 1, copy 2j + 2: W 402, D 202.
.type k_spill, @function
k_spill:
    mov qword ptr [rsp-8], 0    # S (stack slot)                            md 1
    mov ecx, 100
1:  mov rdx, [rsp-8]            # L (stack slot) -> rdx
    add rdx, 1                  # O
    mov [rsp-8], rdx            # S (stack slot) <- O
    mov rax, [rdi+rdx*8]        # L <- O (rdx)
    mov [rdi+rdx*8+2048], rax   # S <- O (rdx), L (rax)
    dec ecx
    jnz 1b
    ret
.size k_spill, .-k_spill

# repe cmpsb over 100 equal (zero) bytes: each iteration two loads, the
# compare (RFLAGS from the loads) and the pointers' update (rsi, rdi, rcx
# from themselves alone): no load waits for a load, D = 1 (with the update
# reading the loaded bytes, each iteration's loads would wait for the
# one before: D 100). N = 3 + 4 x 100 + 2 = 405, W = 200 + 1 = 201.
.type k_cmps, @function
k_cmps:
    mov rsi, rdi
    lea rdi, [rdi+256]
    mov ecx, 100
    repe cmpsb
    ret
.size k_cmps, .-k_cmps

# rep stosb of 64 KiB: in chunks of 8 bytes, as an 8-byte loop stores:
# 8,192 chunks of the pointers' update and a store of 8 (md 1). N = 3 + 2
# x 8,192 + 2 = 16,389, W = 8,192 + 1 = 8,193, D = 1, 8,192 stores.
.type k_stos, @function
k_stos:
    lea rdi, [rip+big]
    mov ecx, 65536
    xor eax, eax
    rep stosb
    ret
.size k_stos, .-k_stos

.type kernel, @function
kernel:
    push rbx
    mov rbx, rdi
    call k_straddle
    mov rdi, rbx
    call k_spill
    mov rdi, rbx
    call k_cmps
    call k_stos
    pop rbx
    ret
.size kernel, .-kernel
