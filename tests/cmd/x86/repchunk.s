# tests/cmd/x86/repchunk.s - a hand-written x86-64 kernel for
# test_trace_x86.sh: twice, a rep movsb of 13 bytes (a chunk of 8, then 5
# bytes that the analysis holds until the next instruction comes), then a
# block that reads what those bytes stored. The second time, that block
# runs exactly as its vertices say and the plugin feeds it whole: the
# bytes held before it must go first, or its load finds another writer.
# Linked with start.s.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    mov r8d, 2
1:
    lea rsi, [rdi+128]
    lea rdi, [rdi+4096]
    mov ecx, 13
    rep movsb
    mov rax, [rdi-8]                        # the bytes of the last iterations
    add rax, 1
    mov [rdi], rax
    dec r8d
    jnz 1b
    ret
.size kernel, .-kernel
