# tests/cmd/x86/chains.s - a hand-written x86-64 kernel for test_trace_x86.sh:
# read-modify-write, a partial-register merge, a flags chain, push/pop, a
# rep movsb iteration over bytes written earlier, and ret. Linked with start.s,
# which calls it with rdi at a zeroed buffer. Each instruction cracked into
# its vertices (edan-model, "x86-64: instructions cracked into loads,
# operations and stores": L load, O operation, S store), what each reads
# from whom, and md (no cache):
# 22 vertices, 25 edges, W 11 (8 loads, 3 stores), D 5, C 11, Tinf 1003
# (200 a memory vertex, 1 any other), layers 4 1 2 2 2.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    mov rax, [rdi]          #  1 L -> rax                                     md 1
    mov al, [rdi+8]         #  2 L; O merges rax <- 1, L                      md 1
    add [rdi+16], rax       #  3 L; O <- 2 (rax), L; S <- O                   md 2
    mov rcx, [rdi+16]       #  4 L -> rcx <- 3's S (bytes)                    md 3
    adc rdx, rcx            #  5 O <- 4 (rcx), 3's O (RFLAGS)                 md 3
    push rdx                #  6 O rsp; S <- O (rsp), 5 (rdx)                 md 4
    pop r8                  #  7 L -> r8 <- 6's O (rsp), 6's S (bytes) (md 5);
                            #    O rsp <- 6's O
    lea rsi, [rdi+16]       #  8 O (rdi: written outside the scope)
    lea rdi, [rdi+64]       #  9 O
    mov ecx, 1              # 10 O
    rep movsb               # 11 one iteration: L <- 8 (rsi), 3's S (bytes)
                            #    (md 3); O <- 8, 9, 10; S <- O (rdi), L (md 4)
    mov r9b, [rdi-1]        # 12 L <- 11's O (rdi), 11's S (bytes) (md 5);
                            #    O merges r9 <- L
    ret                     # 13 L <- 7's O (rsp) (md 1); O rsp <- 7's O
.size kernel, .-kernel
