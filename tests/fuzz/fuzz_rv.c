/* libFuzzer harness for the RISC-V front-end: every line of the input goes
   through edan_rv_parse_line (each in its own exactly-sized buffer, so ASan
   sees any read past its end), and the input's bytes through edan_rv_decode
   at every 2-byte offset. Accepted instructions must keep the edan_insn
   invariants; a violation aborts. Run by tests/fuzz/test_fuzz_rv.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define EDAN_IMPLEMENTATION
#include "edan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_insn(const edan_insn *in)
{
    unsigned i;
    if (in->op >= EDAN_RV_OP_COUNT || in->nsrc > EDAN_MAX_SRC || in->ndst > EDAN_MAX_DST ||
        in->cls >= EDAN_CLASS_COUNT || in->mem > EDAN_MEM_AMO ||
        (in->mem != EDAN_MEM_NONE && (in->size == 0 || in->size > EDAN_MAX_ACCESS)))
        abort();
    for (i = 0; i < in->nsrc; i++)
        if (in->src[i] == 0 || in->src[i] >= EDAN_RV_NUM_REGS) abort();
    for (i = 0; i < in->ndst; i++)
        if (in->dst[i] == 0 || in->dst[i] >= EDAN_RV_NUM_REGS) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static edan_rv_parser *p;  /* one for every input: its memo carries over, as in a trace */
    edan_insn in;
    size_t i, start = 0;
    if (!p && edan_rv_parser_create(&p, NULL) != EDAN_OK) abort();
    for (i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            size_t len = i - start + (i < size);    /* keep the '\n' */
            char *line = (char *)malloc(len ? len : 1);
            if (!line) return 0;
            memcpy(line, data + start, len);
            if (edan_rv_parse_line(p, line, len, &in) == EDAN_OK) check_insn(&in);
            else if (!memchr(p->error, 0, sizeof p->error)) abort();  /* message terminated */
            free(line);
            start = i + 1;
        }
    }
    for (i = 0; i + 1 < size; i += 2) {
        size_t avail = size - i < 4 ? size - i : 4;
        uint8_t *b = (uint8_t *)malloc(avail);
        if (!b) return 0;
        memcpy(b, data + i, avail);
        if (edan_rv_decode(b, avail, &in) == EDAN_OK) {
            check_insn(&in);
            if (in.length != 2 && in.length != 4) abort();
        }
        free(b);
    }
    return 0;
}
