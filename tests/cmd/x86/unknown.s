# tests/cmd/x86/unknown.s - a kernel with an instruction that QEMU 7.2 runs
# and the decoder refuses: vmovd xmm0, eax encoded with VEX.L = 1 (the
# instruction set reserves it; QEMU ignores the bit). For test_trace_x86.sh:
# the trace stops there naming it, or (--skip-unknown) leaves it out.
# Linked with start.s.
.intel_syntax noprefix
.globl kernel
.text
.type kernel, @function
kernel:
    mov rax, [rdi]                  # 1 load
    .byte 0xc5, 0xfd, 0x6e, 0xc0    # 2 vmovd xmm0, eax with VEX.L = 1
    ret                             # 3 load
.size kernel, .-kernel
