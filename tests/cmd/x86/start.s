# tests/cmd/x86/start.s - the program around a hand-written kernel (linked
# with chains.s or vector.s): static, no libc; _start, outside the traced
# scope, points rdi at a zeroed 16 KiB buffer, calls kernel and exits.
.intel_syntax noprefix
.globl _start
.bss
.align 64
buf: .zero 16384
.text
.type _start, @function
_start:
    lea rdi, [rip+buf]
    call kernel
    mov eax, 60
    xor edi, edi
    syscall
.size _start, .-_start
