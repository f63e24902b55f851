# tests/cmd/x86/chains.s - a hand-written x86-64 kernel for test_trace_x86.sh:
# read-modify-write, a partial-register merge, a flags chain, push/pop, a
# rep movsb iteration over bytes written earlier, and ret. Linked with start.s,
# which calls it with rdi at a zeroed buffer. Each instruction cracked into
# its vertices (edan-model, "x86-64: instructions cracked into loads,
# operations and stores": L load, O operation, S store), what each reads
# from whom, and md (no cache), without store-to-load forwarding (--forward
# 0): 22 vertices, 25 edges, W 11 (8 loads, 3 stores), D 5, C 11, Tinf 1003
# (200 a memory vertex, 1 any other), layers 4 1 2 2 2.
# With it (the default), the loads marked "fw" read bytes that one of the
# last stores wrote: each is an operation of one cycle from that store's
# start, at the depth of the store's predecessors (S3 starts at 202 at md 1,
# S6 at 204, S11 at 203): W 7, D 2, C 15, Tinf 404 (S6), layers 4 3; N, E
# and the loads and stores are the same.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    mov rax, [rdi]          #  1 L -> rax                                     md 1
    mov al, [rdi+8]         #  2 L; O merges rax <- 1, L                      md 1
    add [rdi+16], rax       #  3 L; O <- 2 (rax), L; S <- O                   md 2
    mov rcx, [rdi+16]       #  4 L -> rcx <- 3's S (bytes)                    md 3 (fw: 1)
    adc rdx, rcx            #  5 O <- 4 (rcx), 3's O (RFLAGS)                 md 3
    push rdx                #  6 O rsp; S <- O (rsp), 5 (rdx)                 md 4
    pop r8                  #  7 L -> r8 <- 6's O (rsp), 6's S (bytes) (md 5; fw: 1);
                            #    O rsp <- 6's O
    lea rsi, [rdi+16]       #  8 O (rdi: written outside the scope)
    lea rdi, [rdi+64]       #  9 O
    mov ecx, 1              # 10 O
    rep movsb               # 11 one iteration: L <- 8 (rsi), 3's S (bytes)
                            #    (md 3; fw: 1); O <- 8, 9, 10; S <- O (rdi), L
                            #    (md 4; fw: 2)
    mov r9b, [rdi-1]        # 12 L <- 11's O (rdi), 11's S (bytes) (md 5; fw: 1);
                            #    O merges r9 <- L
    ret                     # 13 L <- 7's O (rsp) (md 1); O rsp <- 7's O
.size kernel, .-kernel
