/* tools/report/hotspots.c - the program's instructions named for the report:
   the objects that hold a pc, the code bytes by pc and their text, the
   symbols and source lines by pc, and the --top list of hotspots with
   their vertices on the critical chain. */
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "../front/x86.h"

const cli_object *cli_object_of(const cli_analysis *a, uint64_t pc)
{
    size_t i;
    for (i = 0; i < a->run.nobjects; i++)
        if (pc >= a->run.objects[i].lo && pc < a->run.objects[i].hi) return &a->run.objects[i];
    return NULL;
}

uint64_t cli_file_address(const cli_analysis *a, uint64_t pc)
{
    const cli_object *o = cli_object_of(a, pc);
    return o && !o->is_program && o->path ? pc - o->bias : pc - a->run.elf_bias;
}

void cli_where_open(cli_where *w, const cli_analysis *a)
{
    memset(w, 0, sizeof *w);
    w->a = a;
    if (!a->cmd.elf_path || cli_syms_open(&w->prog, a->cmd.elf_path, a->run.elf_bias, &w->why)) {
        memset(&w->prog, 0, sizeof w->prog);
        if (!a->cmd.elf_path) w->why = NULL;
    }
    if (a->run.nobjects) {
        w->objs = (cli_syms *)calloc(a->run.nobjects, sizeof *w->objs);
        w->tried = (char *)calloc(a->run.nobjects, 1);
    }
}

/* Names the program or a shared object: any. */
int cli_where_any(const cli_where *w) { return w->prog.mod || (w->objs && w->a->run.nobjects > 1); }

/* pc's function (demangled; NULL: none), its symbol as the file has it,
   file and line (NULL: none), and its shared object's name (NULL: the
   program's). */
void cli_where_at(cli_where *w, uint64_t pc, const char **fn, const char **sym, const char **file, int *line,
                         const char **object)
{
    const cli_object *o = cli_object_of(w->a, pc);
    cli_syms *s = &w->prog;
    *object = NULL;
    if (o && !o->is_program && o->path && w->objs && w->tried) {
        size_t i = (size_t)(o - w->a->run.objects);
        const char *why, *b = strrchr(o->path, '/');
        if (!w->tried[i]) {
            w->tried[i] = 1;
            if (cli_syms_open(&w->objs[i], o->path, o->bias, &why)) memset(&w->objs[i], 0, sizeof w->objs[i]);
        }
        s = &w->objs[i];
        *object = b ? b + 1 : o->path;
    }
    cli_syms_at(s, pc, fn, file, line);
    *sym = s->sym;
}

void cli_where_close(cli_where *w)
{
    size_t i;
    cli_syms_close(&w->prog);
    for (i = 0; w->objs && i < w->a->run.nobjects; i++)
        if (w->tried[i]) cli_syms_close(&w->objs[i]);
    free(w->objs);
    free(w->tried);
}

const char *cli_op_name(const cli_analysis *a, uint32_t op)
{
    const char *n = a && a->run.op_name ? a->run.op_name(op) : edan_rv_op_name(op);
    return n ? n : "unknown-op";     /* an op id of another front-end or a damaged trace: named, not NULL */
}

int cli_code_add(cli_code *c, uint64_t pc, const uint8_t *bytes, unsigned len)
{
    size_t i, mask;
    if ((c->used + 1) * 2 > c->cap) {   /* keep the load under 1/2 */
        size_t nc = c->cap ? 2 * c->cap : 1024, j;
        uint64_t *np = (uint64_t *)calloc(nc, sizeof *np);
        uint8_t (*nb)[16] = (uint8_t (*)[16])calloc(nc, sizeof *nb);
        if (!np || !nb) {
            free(np);
            free(nb);
            return -1;
        }
        for (j = 0; j < c->cap; j++) {
            if (!c->pc[j]) continue;
            for (i = (size_t)((c->pc[j] * 0x9e3779b97f4a7c15ull) >> 20) & (nc - 1); np[i]; i = (i + 1) & (nc - 1)) {}
            np[i] = c->pc[j];
            memcpy(nb[i], c->bytes[j], 16);
        }
        free(c->pc);
        free(c->bytes);
        c->pc = np;
        c->bytes = nb;
        c->cap = nc;
    }
    mask = c->cap - 1;
    for (i = (size_t)(((pc + 1) * 0x9e3779b97f4a7c15ull) >> 20) & mask; c->pc[i]; i = (i + 1) & mask)
        if (c->pc[i] == pc + 1) return 0;
    c->pc[i] = pc + 1;      /* 0: an empty slot */
    if (len > 15) len = 15;
    c->bytes[i][0] = (uint8_t)len;
    memcpy(c->bytes[i] + 1, bytes, len);
    c->used++;
    return 0;
}

/* The bytes of the instruction at pc (*len of them), or NULL. */
static const uint8_t *cli_code_get(const cli_code *c, uint64_t pc, unsigned *len)
{
    size_t i, mask;
    if (!c || !c->cap) return NULL;
    mask = c->cap - 1;
    for (i = (size_t)(((pc + 1) * 0x9e3779b97f4a7c15ull) >> 20) & mask; c->pc[i]; i = (i + 1) & mask)
        if (c->pc[i] == pc + 1) {
            *len = c->bytes[i][0];
            return c->bytes[i] + 1;
        }
    return NULL;
}

void cli_code_free(cli_code *c)
{
    free(c->pc);
    free(c->bytes);
    memset(c, 0, sizeof *c);
}

void cli_insn_text(const cli_analysis *a, const edan_insn *in, int role, char *buf, size_t n)
{
    unsigned len = 0;
    const uint8_t *b = a && a->run.isa == EDAN_ISA_X86_64 && (in->flags & EDAN_INSN_HAS_PC)
                       ? cli_code_get(a->run.code, in->pc, &len) : NULL;
    size_t used;
    /* rip-relative targets at the program file's addresses, as objdump -d shows them */
    if (!b || x86_format(b, len, cli_file_address(a, in->pc), buf, n) != 0) snprintf(buf, n, "%s", cli_op_name(a, in->op));
    used = strlen(buf);
    if (role && a && a->run.isa == EDAN_ISA_X86_64 && *x86_op_role(in->op))
        snprintf(buf + used, n - used, " (%s)", x86_op_role(in->op));
}

/* A vertex of the critical chain: its key as the hotspots have it. */
typedef struct cli_chain_key { uint64_t key; int has_pc; } cli_chain_key;
typedef struct cli_chain_keys { cli_chain_key *k; size_t n, cap; int nomem; } cli_chain_keys;

static void cli_chain_add(void *user, const edan_insn *v, uint32_t md)
{
    cli_chain_keys *c = (cli_chain_keys *)user;
    cli_chain_key *nk;
    (void)md;
    if (c->nomem) return;
    if (!(nk = (cli_chain_key *)cli_grow(c->k, &c->cap, c->n, sizeof *c->k, 1024))) {
        c->nomem = 1;
        return;
    }
    c->k = nk;
    c->k[c->n].has_pc = (v->flags & EDAN_INSN_HAS_PC) != 0;
    c->k[c->n].key = c->k[c->n].has_pc ? v->pc : v->op;
    c->n++;
}

static int cli_chain_cmp(const void *x, const void *y)
{
    const cli_chain_key *a = (const cli_chain_key *)x, *b = (const cli_chain_key *)y;
    if (a->has_pc != b->has_pc) return a->has_pc < b->has_pc ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

void cli_hot_free(cli_hot *t)
{
    free(t->h);
    free(t->chain);
    memset(t, 0, sizeof *t);
}

/* 0, or -1 (a message printed) when out of memory. */
int cli_hot_get(edan_context *ctx, const cli_analysis *a, uint32_t k, cli_hot *t)
{
    size_t all = 0, q;
    cli_chain_keys c;
    edan_metrics mt;
    memset(t, 0, sizeof *t);
    edan_get_hotspots(ctx, k, NULL, 0, &all);
    if (all > a->cmd.top) all = a->cmd.top;
    if (!(t->h = (edan_hotspot *)calloc(all ? all : 1, sizeof *t->h))) return cli_err("out of memory");
    edan_get_hotspots(ctx, k, t->h, all, &t->n);
    if (!a->cmd.chain) return 0;
    edan_get_metrics(ctx, k, &mt);
    if (a->cmd.chain != CLI_CHAIN_STREAM && mt.N > a->cmd.chain) {
        snprintf(t->why, sizeof t->why, "the eDAG has %llu vertices, more than --chain=%u records: give --chain "
                 "alone (streamed, at any size)", (unsigned long long)mt.N, a->cmd.chain);
        return 0;
    }
    memset(&c, 0, sizeof c);
    if (edan_get_critical_chain(ctx, k, cli_chain_add, &c) != EDAN_OK || c.nomem) {
        snprintf(t->why, sizeof t->why, "%s", c.nomem ? "out of memory" : edan_error(ctx));
        free(c.k);
        return 0;
    }
    qsort(c.k, c.n, sizeof *c.k, cli_chain_cmp);
    if (!(t->chain = (uint64_t *)calloc(t->n ? t->n : 1, sizeof *t->chain))) {
        free(c.k);
        return cli_err("out of memory");
    }
    for (q = 0; q < t->n; q++) {        /* the chain's vertices of each key: a range of the sorted keys */
        cli_chain_key want;
        size_t lo = 0, hi = c.n;
        want.key = t->h[q].key;
        want.has_pc = t->h[q].has_pc;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cli_chain_cmp(&c.k[mid], &want) < 0) lo = mid + 1;
            else hi = mid;
        }
        while (lo < c.n && !cli_chain_cmp(&c.k[lo], &want)) { t->chain[q]++; lo++; }
    }
    free(c.k);
    return 0;
}
