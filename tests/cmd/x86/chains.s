# tests/cmd/x86/chains.s - a hand-written x86-64 kernel for test_trace_x86.sh:
# read-modify-write, a partial-register merge, a flags chain, push/pop, a
# rep movsb iteration over bytes written earlier, and ret. Linked with start.s,
# which calls it with rdi at a zeroed buffer.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    mov rax, [rdi]          #  1 load                                 md 1
    mov al, [rdi+8]         #  2 load; merges rax: <- 1               md 2
    add [rdi+16], rax       #  3 load+store; <- 2                     md 3
    mov rcx, [rdi+16]       #  4 load; <- 3 (bytes)                   md 4
    adc rdx, rcx            #  5 <- 4 (rcx), <- 3 (RFLAGS)            md 4
    push rdx                #  6 store; <- 5                          md 5
    pop r8                  #  7 load; <- 6 (rsp and bytes)           md 6
    lea rsi, [rdi+16]       #  8 (rdi: written outside the scope)
    lea rdi, [rdi+64]       #  9
    mov ecx, 1              # 10
    rep movsb               # 11 load buf+16 <- 3; <- 8, 9, 10        md 4
    mov r9b, [rdi-1]        # 12 <- 11 (rdi and bytes)                md 5
    ret                     # 13 load; <- 7 (rsp)                     md 7
.size kernel, .-kernel
