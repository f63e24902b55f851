/* tools/front/bintrace_write.c - the binary trace writer, as the QEMU
   plugin writes `edan trace --binary` (the format and these functions:
   bintrace.h). */
#include "bintrace.h"

static int bintrace_writer_flush(bintrace_writer *w)
{
    w->crc = crc32(w->crc, w->buf + w->crc_from, (uInt)(w->len - w->crc_from));
    w->crc_from = 0;
    if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len && !w->failed) {
        w->failed = 1;
        w->err = errno;
    }
    if (w->len) w->flushed = 1;
    w->len = 0;
    return w->failed ? BINTRACE_ERR : BINTRACE_OK;
}

/* Make room for `need` more bytes. */
static unsigned char *bintrace_writer_reserve(bintrace_writer *w, size_t need)
{
    if (w->cap - w->len < need) bintrace_writer_flush(w);
    return w->buf + w->len;
}

int bintrace_writer_open_version(bintrace_writer *w, FILE *f, unsigned isa, unsigned version)
{
    unsigned char hdr[BINTRACE_HEADER_LOAD] = {'E', 'D', 'A', 'N', 'B', 'T', BINTRACE_VERSION, 0, 0, 0,
                                               BINTRACE_HEADER_LOAD, 0, 0, 0, 0, 0};
    size_t hlen = version >= 3 ? BINTRACE_HEADER_LOAD : BINTRACE_HEADER_SIZE;
    hdr[6] = (unsigned char)version;
    hdr[8] = (unsigned char)isa;
    hdr[10] = (unsigned char)hlen;
    memset(w, 0, sizeof *w);
    w->f = f;
    w->isa = isa;
    w->version = version;
    w->cap = 1u << 20;
    if (w->cap < 2 * (size_t)BINTRACE_MAX_RECORD) w->cap = 2 * (size_t)BINTRACE_MAX_RECORD;
    w->buf = (unsigned char *)malloc(w->cap);
    if (!w->buf) return BINTRACE_ERR;
    memcpy(w->buf, hdr, hlen);
    w->len = hlen;
    w->crc = crc32(0L, Z_NULL, 0);
    w->since_check = hlen;
    w->check_every = BINTRACE_CHECK_EVERY;
    return BINTRACE_OK;
}

int bintrace_writer_set_load(bintrace_writer *w, uint64_t load)
{
    int k;
    if (w->flushed || w->len != BINTRACE_HEADER_LOAD || w->buf[10] != BINTRACE_HEADER_LOAD) return BINTRACE_ERR;
    for (k = 0; k < 8; k++) w->buf[16 + k] = (unsigned char)(load >> (8 * k));
    return BINTRACE_OK;
}

int bintrace_writer_open_isa(bintrace_writer *w, FILE *f, unsigned isa)
{
    return bintrace_writer_open_version(w, f, isa, BINTRACE_VERSION);
}

int bintrace_writer_open(bintrace_writer *w, FILE *f)
{
    return bintrace_writer_open_isa(w, f, EDAN_ISA_RISCV64);
}

/* A CHECK record: the crc32 of everything before it (version 2: since the
   previous one). The CRC goes on over the record itself, so that the next
   covers it too: chained, a stretch cannot move. */
static void bintrace__write_check(bintrace_writer *w)
{
    unsigned char *p;
    size_t tag;
    uLong c;
    p = bintrace_writer_reserve(w, 16);
    tag = w->len;
    c = crc32(w->crc, w->buf + w->crc_from, (uInt)(w->len - w->crc_from));
    p = bintrace_put_varint(p, (2u << 2) | 3);
    p[0] = (unsigned char)c;
    p[1] = (unsigned char)(c >> 8);
    p[2] = (unsigned char)(c >> 16);
    p[3] = (unsigned char)(c >> 24);
    w->len = (size_t)(p + 4 - w->buf);
    if (w->version >= 3) {
        w->crc = c;
        w->crc_from = tag;
    } else {
        w->crc = crc32(0L, Z_NULL, 0);
        w->crc_from = w->len;
    }
    w->since_check = 0;
}

/* A record of n bytes was written: a CHECK when the span is long enough. */
static void bintrace__wrote(bintrace_writer *w, size_t n)
{
    w->since_check += n;
    if (w->since_check >= w->check_every) bintrace__write_check(w);
}

uint32_t bintrace_write_define(bintrace_writer *w, const bintrace_sinsn *s, uint32_t n)
{
    uint32_t id = w->nblocks++, i, k;
    uint64_t expect = 0;
    unsigned char *p = bintrace_writer_reserve(w, BINTRACE_MAX_RECORD), *p0 = p;
    p = bintrace_put_varint(p, ((uint64_t)id << 2) | 2);
    p = bintrace_put_varint(p, n);
    for (i = 0; i < n; i++) {
        const edan_insn *in = &s[i].in;
        uint8_t len = in->length > 4 ? 4 : in->length;
        if (w->isa == EDAN_ISA_X86_64) len = in->length > 15 ? 15 : in->length;
        p = bintrace_put_varint(p, bintrace_zigzag(in->pc - expect));
        expect = in->pc + in->length;
        *p++ = len;
        for (k = 0; k < len; k++) *p++ = s[i].raw[k];
        if (w->isa == EDAN_ISA_X86_64) continue;
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
    bintrace__wrote(w, (size_t)(p - p0));
    return id;
}

void bintrace_write_exec(bintrace_writer *w, uint32_t id, bintrace_sinsn *s,
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
    bintrace__wrote(w, (size_t)(p - p0));
}

void bintrace_write_vertex(bintrace_writer *w, uint32_t id, uint32_t idx, const edan_access *a,
                           size_t n, int more)
{
    do {
        size_t k = n > BINTRACE_MAX_VERTEX ? BINTRACE_MAX_VERTEX : n, i;
        int cont = more || n > k;
        unsigned char *p = bintrace_writer_reserve(w, 40 + 16 * k), *p0 = p;
        p = bintrace_put_varint(p, (3u << 2) | 3);
        p = bintrace_put_varint(p, id);
        p = bintrace_put_varint(p, idx);
        p = bintrace_put_varint(p, (uint64_t)k << 1 | (unsigned)cont);
        for (i = 0; i < k; i++) {
            *p++ = a[i].kind;
            p = bintrace_put_varint(p, a[i].size);
            p = bintrace_put_varint(p, bintrace_zigzag(a[i].addr - w->vlast));
            w->vlast = a[i].addr;
        }
        if (!cont) w->count++;
        w->len += (size_t)(p - p0);
        bintrace__wrote(w, (size_t)(p - p0));
        a += k;
        n -= k;
    } while (n);
}

void bintrace_write_kill(bintrace_writer *w, const edan_reg *regs, uint32_t nregs,
                         const uint64_t (*ranges)[2], uint32_t nranges)
{
    unsigned char *p = bintrace_writer_reserve(w, 32 + 3 * (size_t)nregs + 20 * (size_t)nranges), *p0 = p;
    uint64_t end = 0;
    uint32_t i;
    p = bintrace_put_varint(p, (1u << 2) | 3);
    p = bintrace_put_varint(p, nregs);
    for (i = 0; i < nregs; i++) p = bintrace_put_varint(p, regs[i]);
    p = bintrace_put_varint(p, nranges);
    for (i = 0; i < nranges; i++) {
        p = bintrace_put_varint(p, bintrace_zigzag(ranges[i][0] - end));
        p = bintrace_put_varint(p, ranges[i][1]);
        end = ranges[i][0] + ranges[i][1];
    }
    w->len += (size_t)(p - p0);
    bintrace__wrote(w, (size_t)(p - p0));
}

void bintrace_write_thread(bintrace_writer *w, unsigned verb, uint32_t a, uint32_t b)
{
    unsigned char *p = bintrace_writer_reserve(w, 32), *p0 = p;
    p = bintrace_put_varint(p, (4u << 2) | 3);
    p = bintrace_put_varint(p, verb);
    if (verb < BINTRACE_SIGNAL) p = bintrace_put_varint(p, a);
    if (verb == 0) p = bintrace_put_varint(p, b);
    w->len += (size_t)(p - p0);
    bintrace__wrote(w, (size_t)(p - p0));
}

int bintrace_writer_close(bintrace_writer *w)
{
    unsigned char *p, *p0;
    int rc;
    bintrace__write_check(w);       /* END follows a CHECK */
    p = p0 = bintrace_writer_reserve(w, 32);
    p = bintrace_put_varint(p, 3);
    p = bintrace_put_varint(p, w->count);
    w->len += (size_t)(p - p0);
    rc = bintrace_writer_flush(w);
    free(w->buf);
    w->buf = NULL;
    errno = 0;
    if (fflush(w->f) != 0 || ferror(w->f)) {
        if (!w->err) w->err = errno;
        rc = BINTRACE_ERR;
    }
    return rc;
}
