/* tests/cmd/jit.c - a program that rewrites its code as a JIT does, built
   for both ISAs. Usage: jit N [SAME]
   N times: writes into one executable page a function that loads a word
   and adds a constant, the i-th time the constant i % 2048, and calls it
   (from run_jit, the scope of --func, which stores the result). Every
   third version (i % 3 == 2) loads the word twice. With SAME, every
   version is the first kind with the constant 7: the same bytes written
   again and again. Prints the sum of what the calls returned. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef long (*jit_fn)(const long *);
static volatile long word = 1;

/* The function with constant c (0 .. 2047) at code, loading the word
   twice when twice: its size. */
static size_t emit(uint8_t *code, uint32_t c, int twice)
{
#if defined(__x86_64__)
    /* mov rax, [rdi]; (add rax, [rdi];) add rax, imm32; ret */
    static const uint8_t load[] = {0x48, 0x8b, 0x07}, add_load[] = {0x48, 0x03, 0x07}, add_imm[] = {0x48, 0x05};
    size_t len = 0;
    memcpy(code, load, 3), len += 3;
    if (twice) memcpy(code + len, add_load, 3), len += 3;
    memcpy(code + len, add_imm, 2), len += 2;
    memcpy(code + len, &c, 4), len += 4;
    code[len++] = 0xc3;
    return len;
#elif defined(__riscv)
    /* (ld a1, 0(a0);) ld a0, 0(a0); (add a0, a0, a1;) addi a0, a0, c; ret */
    uint32_t insn[5], n = 0;
    if (twice) insn[n++] = 0x00053583u;
    insn[n++] = 0x00053503u;
    if (twice) insn[n++] = 0x00b50533u;
    insn[n++] = 0x00050513u | (c & 0x7ffu) << 20;
    insn[n++] = 0x00008067u;
    memcpy(code, insn, n * 4);
    return n * 4;
#else
#error "x86-64 or RISC-V"
#endif
}

static volatile long last;

__attribute__((noinline)) long run_jit(jit_fn f)
{
    long r = f((const long *)&word);
    last = r;       /* no tail call: the JIT's code runs inside the scope */
    return r;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, i, sum = 0;
    int same = argc > 2;
    uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return perror("mmap"), 1;
    for (i = 0; i < n; i++) {
        size_t len = same ? emit(page, 7u, 0) : emit(page, (uint32_t)(i % 2048), i % 3 == 2);
        __builtin___clear_cache((char *)page, (char *)page + len);
        sum += run_jit((jit_fn)(uintptr_t)page);
    }
    printf("%ld\n", sum);
    return 0;
}
