/* tools/bintrace.h - the EDAN binary trace format: writer and reader.

   Shared by the QEMU plugin (writer) and `edan analyze` (reader); all
   functions are static inline. Needs edan.h (for edan_insn) included first
   or here.

   FORMAT (version 1; all integers little-endian; "varint" = unsigned LEB128,
   at most 10 bytes; "zz" = zigzag-coded signed varint)
     Header, 16 bytes:
       0  "EDANBT"       magic
       6  u16 version    1
       8  u16 isa        1 = RISC-V RV64
      10  u16 hdr_size   16 (a reader skips bytes up to hdr_size)
      12  u32 flags      0
     Then records, each starting with a varint tag T; T & 3 is the kind:
       2 DEFINE: a block (straight-line run of static instructions) with id
         T >> 2, which must equal the number of blocks defined before.
           varint n (1..BINTRACE_MAX_BLOCK), then n instructions:
             zz    pc - (previous pc + previous length) (first: pc - 0)
             u8    length (0..4), then `length` raw instruction bytes
             varint op; u8 class; u8 mem kind; varint access size
             u8 nsrc; u8 ndst; nsrc varint source regs; ndst varint dest regs
       0 EXEC: block T >> 2 was executed, all its instructions in order.
       1 EXEC-PART: block T >> 2, then varint first, varint count: only
         instructions first .. first+count-1 were executed.
           Both EXEC kinds are followed by one zz per executed memory
           instruction (mem kind != 0): its address minus a prediction,
           last + stride, kept per static instruction of the block
           (initially 0, 0; after each access: stride = addr - last,
           last = addr). Strided accesses cost one byte.
       3 END (T >> 2 == 0): varint total instructions executed. The last
         record; a file without it is truncated.
   A block's instructions carry everything edan_feed needs (decoded once at
   translation time), so a reader needs no instruction decoder.
*/
#ifndef EDAN_BINTRACE_H
#define EDAN_BINTRACE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "edan.h"

#define BINTRACE_VERSION 1
#define BINTRACE_ISA_RV64 1
#define BINTRACE_HEADER_SIZE 16
#define BINTRACE_MAX_BLOCK 1024
/* Largest encoded record: a DEFINE of BINTRACE_MAX_BLOCK instructions. */
#define BINTRACE_MAX_RECORD (BINTRACE_MAX_BLOCK * 64 + 64)

enum { BINTRACE_OK = 0, BINTRACE_EOF = 1, BINTRACE_ERR = -1 };

/* One static instruction of a block, with its address predictor. */
typedef struct bintrace_sinsn {
    edan_insn in;           /* pc set; addr filled per execution */
    uint64_t last, stride;  /* address predictor */
    uint8_t raw[4];
} bintrace_sinsn;

/* ---------------------------------------------------------------------- */
/* Encoding helpers                                                       */
/* ---------------------------------------------------------------------- */
static inline uint64_t bintrace_zigzag(uint64_t v) { return (v << 1) ^ (0 - (v >> 63)); }
static inline uint64_t bintrace_unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

static inline unsigned char *bintrace_put_varint(unsigned char *p, uint64_t v)
{
    while (v >= 0x80) { *p++ = (unsigned char)(v | 0x80); v >>= 7; }
    *p++ = (unsigned char)v;
    return p;
}

/* Returns the number of bytes read, 0 if truncated or longer than 10 bytes. */
static inline size_t bintrace_get_varint(const unsigned char *p, size_t avail, uint64_t *v)
{
    uint64_t x = 0;
    size_t i;
    for (i = 0; i < avail && i < 10; i++) {
        x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) { *v = x; return i + 1; }
    }
    return 0;
}

/* 1 when head (n bytes of a file's start) is a binary trace. */
static inline int bintrace_detect(const unsigned char *head, size_t n)
{
    return n >= 6 && memcmp(head, "EDANBT", 6) == 0;
}

/* ---------------------------------------------------------------------- */
/* Writer                                                                 */
/* ---------------------------------------------------------------------- */
typedef struct bintrace_writer {
    FILE *f;
    unsigned char *buf;
    size_t len, cap;
    uint32_t nblocks;
    uint64_t count;         /* instructions written */
    int failed;             /* a write failed */
} bintrace_writer;

static inline int bintrace_writer_flush(bintrace_writer *w)
{
    if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len) w->failed = 1;
    w->len = 0;
    return w->failed ? BINTRACE_ERR : BINTRACE_OK;
}

/* Make room for `need` more bytes. */
static inline unsigned char *bintrace_writer_reserve(bintrace_writer *w, size_t need)
{
    if (w->cap - w->len < need) bintrace_writer_flush(w);
    return w->buf + w->len;
}

static inline int bintrace_writer_open(bintrace_writer *w, FILE *f)
{
    unsigned char hdr[BINTRACE_HEADER_SIZE] = {'E', 'D', 'A', 'N', 'B', 'T',
        BINTRACE_VERSION, 0, BINTRACE_ISA_RV64, 0, BINTRACE_HEADER_SIZE, 0, 0, 0, 0, 0};
    memset(w, 0, sizeof *w);
    w->f = f;
    w->cap = 1u << 20;
    if (w->cap < 2 * (size_t)BINTRACE_MAX_RECORD) w->cap = 2 * (size_t)BINTRACE_MAX_RECORD;
    w->buf = (unsigned char *)malloc(w->cap);
    if (!w->buf) return BINTRACE_ERR;
    memcpy(w->buf, hdr, sizeof hdr);
    w->len = sizeof hdr;
    return BINTRACE_OK;
}

/* Define a block of n (1..BINTRACE_MAX_BLOCK) static instructions; returns its id. */
static inline uint32_t bintrace_write_define(bintrace_writer *w, const bintrace_sinsn *s, uint32_t n)
{
    uint32_t id = w->nblocks++, i, k;
    uint64_t expect = 0;
    unsigned char *p = bintrace_writer_reserve(w, BINTRACE_MAX_RECORD), *p0 = p;
    p = bintrace_put_varint(p, ((uint64_t)id << 2) | 2);
    p = bintrace_put_varint(p, n);
    for (i = 0; i < n; i++) {
        const edan_insn *in = &s[i].in;
        uint8_t len = in->length > 4 ? 4 : in->length;
        p = bintrace_put_varint(p, bintrace_zigzag(in->pc - expect));
        expect = in->pc + in->length;
        *p++ = len;
        for (k = 0; k < len; k++) *p++ = s[i].raw[k];
        p = bintrace_put_varint(p, in->op);
        *p++ = in->cls;
        *p++ = in->mem;
        p = bintrace_put_varint(p, in->size);
        *p++ = in->nsrc;
        *p++ = in->ndst;
        for (k = 0; k < in->nsrc && k < EDAN_MAX_SRC; k++) p = bintrace_put_varint(p, in->src[k]);
        for (k = 0; k < in->ndst && k < EDAN_MAX_DST; k++) p = bintrace_put_varint(p, in->dst[k]);
    }
    w->len += (size_t)(p - p0);
    return id;
}

/* Block `id` executed instructions first..first+count-1, with the addresses
   in s[i].in.addr. Updates the predictors in s. */
static inline void bintrace_write_exec(bintrace_writer *w, uint32_t id, bintrace_sinsn *s,
                                       uint32_t n, uint32_t first, uint32_t count)
{
    unsigned char *p = bintrace_writer_reserve(w, BINTRACE_MAX_RECORD), *p0 = p;
    uint32_t i;
    if (first == 0 && count == n) {
        p = bintrace_put_varint(p, (uint64_t)id << 2);
    } else {
        p = bintrace_put_varint(p, ((uint64_t)id << 2) | 1);
        p = bintrace_put_varint(p, first);
        p = bintrace_put_varint(p, count);
    }
    for (i = first; i < first + count; i++) {
        if (s[i].in.mem != EDAN_MEM_NONE) {
            uint64_t a = s[i].in.addr;
            p = bintrace_put_varint(p, bintrace_zigzag(a - (s[i].last + s[i].stride)));
            s[i].stride = a - s[i].last;
            s[i].last = a;
        }
    }
    w->len += (size_t)(p - p0);
    w->count += count;
}

/* Writes the END record and flushes; frees the buffer. The caller closes f. */
static inline int bintrace_writer_close(bintrace_writer *w)
{
    unsigned char *p = bintrace_writer_reserve(w, 32), *p0 = p;
    int rc;
    p = bintrace_put_varint(p, 3);
    p = bintrace_put_varint(p, w->count);
    w->len += (size_t)(p - p0);
    rc = bintrace_writer_flush(w);
    free(w->buf);
    w->buf = NULL;
    if (fflush(w->f) != 0 || ferror(w->f)) rc = BINTRACE_ERR;
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Reader                                                                 */
/* ---------------------------------------------------------------------- */
/* Reads up to n bytes into buf; returns the count (0 at end of input). */
typedef size_t (*bintrace_read_fn)(void *user, void *buf, size_t n);

static inline size_t bintrace_read_stdio(void *user, void *buf, size_t n)
{
    return fread(buf, 1, n, (FILE *)user);
}

typedef struct bintrace_block {
    bintrace_sinsn *s;
    uint32_t n;
} bintrace_block;

typedef struct bintrace_reader {
    bintrace_read_fn read;
    void *user;
    unsigned char *buf;
    size_t cap, pos, len;
    uint64_t base;          /* input offset of buf[0] */
    int eof, done;
    bintrace_block *blocks;
    uint32_t nblocks, cap_blocks;
    int in_exec;            /* inside an EXEC record: emit cur_i..cur_end-1 */
    uint32_t cur_block, cur_i, cur_end;
    uint64_t count;         /* instructions returned so far */
    char err[160];          /* "byte N: what is wrong" after BINTRACE_ERR */
} bintrace_reader;

static inline int bintrace__fail(bintrace_reader *r, const char *what)
{
    snprintf(r->err, sizeof r->err, "byte %llu: %s",
             (unsigned long long)(r->base + r->pos), what);
    return BINTRACE_ERR;
}

/* Keep at least BINTRACE_MAX_RECORD bytes buffered unless at the end. */
static inline void bintrace__fill(bintrace_reader *r)
{
    if (r->eof || r->len - r->pos >= (size_t)BINTRACE_MAX_RECORD) return;
    if (r->pos) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->base += r->pos;
        r->len -= r->pos;
        r->pos = 0;
    }
    while (!r->eof && r->len < r->cap) {
        size_t got = r->read(r->user, r->buf + r->len, r->cap - r->len);
        if (got == 0) r->eof = 1;
        r->len += got;
    }
}

static inline int bintrace__varint(bintrace_reader *r, uint64_t *v)
{
    size_t k = bintrace_get_varint(r->buf + r->pos, r->len - r->pos, v);
    if (!k) return bintrace__fail(r, r->len - r->pos < 10 ? "truncated record" : "malformed varint");
    r->pos += k;
    return BINTRACE_OK;
}

static inline int bintrace__byte(bintrace_reader *r, uint8_t *v)
{
    if (r->pos >= r->len) return bintrace__fail(r, "truncated record");
    *v = r->buf[r->pos++];
    return BINTRACE_OK;
}

static inline void bintrace_reader_free(bintrace_reader *r)
{
    uint32_t i;
    for (i = 0; i < r->nblocks; i++) free(r->blocks[i].s);
    free(r->blocks);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Reads and checks the header. On BINTRACE_ERR, r->err says why (free r
   with bintrace_reader_free in every case). */
static inline int bintrace_reader_init(bintrace_reader *r, bintrace_read_fn read, void *user)
{
    unsigned hdr_size, version, isa;
    memset(r, 0, sizeof *r);
    r->read = read;
    r->user = user;
    r->cap = 4 * (size_t)BINTRACE_MAX_RECORD;
    r->buf = (unsigned char *)malloc(r->cap);
    if (!r->buf) { snprintf(r->err, sizeof r->err, "out of memory"); return BINTRACE_ERR; }
    bintrace__fill(r);
    if (r->len < BINTRACE_HEADER_SIZE || !bintrace_detect(r->buf, r->len))
        return bintrace__fail(r, "not an EDAN binary trace (bad header)");
    version = r->buf[6] | (unsigned)r->buf[7] << 8;
    isa = r->buf[8] | (unsigned)r->buf[9] << 8;
    hdr_size = r->buf[10] | (unsigned)r->buf[11] << 8;
    if (version != BINTRACE_VERSION) {
        snprintf(r->err, sizeof r->err, "byte 6: binary trace version %u, this reader knows version %d",
                 version, BINTRACE_VERSION);
        return BINTRACE_ERR;
    }
    if (isa != BINTRACE_ISA_RV64) return bintrace__fail(r, "unknown ISA in binary trace header");
    if (hdr_size < BINTRACE_HEADER_SIZE || hdr_size > r->len) return bintrace__fail(r, "bad header size");
    r->pos = hdr_size;
    return BINTRACE_OK;
}

static inline int bintrace__define(bintrace_reader *r, uint64_t id)
{
    uint64_t n, v, expect = 0;
    uint32_t i, k;
    bintrace_sinsn *s;
    if (id != r->nblocks) return bintrace__fail(r, "block defined out of order");
    if (bintrace__varint(r, &n)) return BINTRACE_ERR;
    if (n < 1 || n > BINTRACE_MAX_BLOCK) return bintrace__fail(r, "bad block size");
    if (r->nblocks == r->cap_blocks) {
        uint32_t nc = r->cap_blocks ? 2 * r->cap_blocks : 256;
        bintrace_block *nb = (bintrace_block *)realloc(r->blocks, nc * sizeof *nb);
        if (!nb) return bintrace__fail(r, "out of memory");
        r->blocks = nb;
        r->cap_blocks = nc;
    }
    s = (bintrace_sinsn *)calloc((size_t)n, sizeof *s);
    if (!s) return bintrace__fail(r, "out of memory");
    r->blocks[r->nblocks].s = s;
    r->blocks[r->nblocks].n = (uint32_t)n;
    r->nblocks++;
    for (i = 0; i < n; i++) {
        edan_insn *in = &s[i].in;
        uint8_t len, b;
        if (bintrace__varint(r, &v)) return BINTRACE_ERR;
        in->pc = expect + bintrace_unzigzag(v);
        in->flags = EDAN_INSN_HAS_PC;
        if (bintrace__byte(r, &len)) return BINTRACE_ERR;
        if (len > 4) return bintrace__fail(r, "bad instruction length");
        in->length = len;
        expect = in->pc + len;
        for (k = 0; k < len; k++)
            if (bintrace__byte(r, &s[i].raw[k])) return BINTRACE_ERR;
        if (bintrace__varint(r, &v)) return BINTRACE_ERR;
        if (v > UINT32_MAX) return bintrace__fail(r, "bad op id");
        in->op = (uint32_t)v;
        if (bintrace__byte(r, &b)) return BINTRACE_ERR;
        if (b >= EDAN_CLASS_COUNT) return bintrace__fail(r, "bad instruction class");
        in->cls = b;
        if (bintrace__byte(r, &b)) return BINTRACE_ERR;
        if (b > EDAN_MEM_AMO) return bintrace__fail(r, "bad memory kind");
        in->mem = b;
        if (bintrace__varint(r, &v)) return BINTRACE_ERR;
        if (v > EDAN_MAX_ACCESS || (in->mem != EDAN_MEM_NONE && v == 0))
            return bintrace__fail(r, "bad access size");
        in->size = (uint16_t)v;
        if (bintrace__byte(r, &in->nsrc) || bintrace__byte(r, &in->ndst)) return BINTRACE_ERR;
        if (in->nsrc > EDAN_MAX_SRC || in->ndst > EDAN_MAX_DST)
            return bintrace__fail(r, "bad register count");
        for (k = 0; k < (uint32_t)in->nsrc + in->ndst; k++) {
            if (bintrace__varint(r, &v)) return BINTRACE_ERR;
            if (v > 0xffff) return bintrace__fail(r, "bad register id");
            if (k < in->nsrc) in->src[k] = (edan_reg)v;
            else in->dst[k - in->nsrc] = (edan_reg)v;
        }
    }
    return BINTRACE_OK;
}

/* Decodes up to max instructions into out. Returns BINTRACE_OK with *n > 0,
   BINTRACE_EOF at the (checked) end of the trace, or BINTRACE_ERR (r->err). */
static inline int bintrace_next(bintrace_reader *r, edan_insn *out, size_t max, size_t *n)
{
    size_t got = 0;
    *n = 0;
    while (got < max) {
        if (r->in_exec) {
            bintrace_sinsn *s = r->blocks[r->cur_block].s;
            uint32_t i = r->cur_i;
            if (s[i].in.mem != EDAN_MEM_NONE) {
                uint64_t z, a;
                size_t k = bintrace_get_varint(r->buf + r->pos, r->len - r->pos, &z);
                if (!k) {
                    bintrace__fill(r);
                    if (bintrace__varint(r, &z)) return BINTRACE_ERR;
                } else {
                    r->pos += k;
                }
                a = s[i].last + s[i].stride + bintrace_unzigzag(z);
                s[i].stride = a - s[i].last;
                s[i].last = a;
                s[i].in.addr = a;
            }
            out[got++] = s[i].in;
            if (++r->cur_i == r->cur_end) r->in_exec = 0;
            continue;
        }
        if (r->done) break;
        bintrace__fill(r);
        if (r->pos == r->len) {
            if (got) break;
            return bintrace__fail(r, "truncated binary trace (no end record)");
        }
        {
            uint64_t t, id, first, count;
            if (bintrace__varint(r, &t)) return BINTRACE_ERR;
            id = t >> 2;
            switch (t & 3) {
            case 0: case 1:
                if (id >= r->nblocks) return bintrace__fail(r, "execution of an undefined block");
                first = 0;
                count = r->blocks[id].n;
                if ((t & 3) == 1) {
                    if (bintrace__varint(r, &first) || bintrace__varint(r, &count)) return BINTRACE_ERR;
                    if (count == 0 || first >= r->blocks[id].n || count > r->blocks[id].n - first)
                        return bintrace__fail(r, "bad instruction range in block");
                }
                r->in_exec = 1;
                r->cur_block = (uint32_t)id;
                r->cur_i = (uint32_t)first;
                r->cur_end = (uint32_t)(first + count);
                r->count += count;
                break;
            case 2:
                if (bintrace__define(r, id)) return BINTRACE_ERR;
                break;
            default:
                if (id != 0) return bintrace__fail(r, "unknown record kind");
                if (bintrace__varint(r, &count)) return BINTRACE_ERR;
                if (count != r->count) return bintrace__fail(r, "instruction count in end record does not match");
                bintrace__fill(r);
                if (r->pos != r->len) return bintrace__fail(r, "data after the end record");
                r->done = 1;
                break;
            }
        }
    }
    *n = got;
    return got ? BINTRACE_OK : BINTRACE_EOF;
}

#endif /* EDAN_BINTRACE_H */
