/* tests/unit/naive.h - a deliberately naive reference for the eDAG model: it
   keeps the whole trace, finds every edge by scanning backwards for the last
   writer of each register and byte, simulates the caches with timestamps
   instead of move-to-front lists, and computes the metrics by fixpoint
   iteration over the explicit edge list (no reliance on trace order).
   Included by tests that compare it with edan.h on random traces. */
#ifndef EDAN_TEST_NAIVE_H
#define EDAN_TEST_NAIVE_H

typedef struct naive_line { uint64_t line; uint64_t stamp; int valid, dirty; size_t filler; } naive_line;

#define NAIVE_THREADS 8
typedef struct naive_result {
    uint64_t N, E, W, D, C, T1, Tinf, bytes, writebacks, ram_lines, chained, fill_edges, forwarded;
    uint64_t tN[NAIVE_THREADS], tW[NAIVE_THREADS], tC[NAIVE_THREADS], tD[NAIVE_THREADS], tchained[NAIVE_THREADS];
    uint64_t tcross[NAIVE_THREADS];     /* register and memory edges into its vertices from another thread's */
    uint64_t layers[4096];
    uint64_t bins[65536];
    size_t nbins;
    uint64_t wc[EDAN_MAX_M], wk[EDAN_MAX_M];   /* the windowed schedule at naive_wm[j]: T = wc + wk alpha */
} naive_result;

/* The m's of the windowed schedule naive_run plays (none: it plays none). */
static uint32_t naive_wnm, naive_wm[EDAN_MAX_M];

/* A scope gap in a trace: an entry with this flag is not an instruction but
   what unanalysed code wrote: the registers dst[0 .. ndst) and, when mem is
   EDAN_MEM_STORE, the bytes [addr, addr + size) (pc bytes when pc is not 0:
   wider ranges than size holds). Fed as edan_kill_regs and edan_kill_mem;
   the model finds it as the last writer, which makes no edge. */
#define NAIVE_KILL 0x80

/* A signal's verb, an entry flagged NAIVE_KILL | NAIVE_SIGNAL: addr 0 a
   handler starts (edan_signal_deliver), 1 it returns (edan_signal_return:
   the thread's register writers become those at its start again), 2 it is
   left (edan_signal_drop). naive_sigmatch[i] of a return or drop: the
   delivery it ends, found by naive_signals. */
#define NAIVE_SIGNAL 0x10
static size_t naive_sigmatch[4096];

/* An instruction with several accesses: an entry with this flag is fed with
   edan_feed_accesses, its accesses naive_multi[addr] (its mem and size
   unused). */
#define NAIVE_MULTI 0x40
#define NAIVE_MAX_ACC 8
typedef struct naive_accesses { edan_access acc[NAIVE_MAX_ACC]; uint32_t n; } naive_accesses;
static naive_accesses naive_multi[1024];

/* Threads: when naive_mt is set, trace entry i is thread naive_thread[i]'s,
   and an entry with NAIVE_SPAWN is not an instruction but thread
   naive_thread[i] starting thread addr (edan_thread_create). A register's
   last writer is its thread's, and before the thread started its
   creator's; memory is shared. */
#define NAIVE_SPAWN 0x20
static int naive_mt;
static uint32_t naive_thread[4096];

/* When set, naive_run leaves the graph of its last run here (the tests of
   edan_get_critical_chain): md and is_mem per trace entry, and the edges
   (malloc'd; the caller frees them). */
typedef struct naive_graph { uint64_t md[4096]; int is_mem[4096]; size_t (*edges)[2]; size_t ne; } naive_graph;
static naive_graph *naive_out;

/* The last writer of register r for entry v of thread t, or (size_t)-1. */
static size_t naive_reg_writer(const edan_insn *tr, size_t v, uint32_t t, edan_reg r);

/* The accesses of trace entry x, as a list (one for an ordinary memory
   instruction, AMO kind kept; none without memory access). */
static uint32_t naive_accesses_of(const edan_insn *x, edan_access *a)
{
    if (x->flags & NAIVE_MULTI) {
        memcpy(a, naive_multi[x->addr].acc, naive_multi[x->addr].n * sizeof *a);
        return naive_multi[x->addr].n;
    }
    if (x->mem == EDAN_MEM_NONE) return 0;
    a[0].addr = x->addr;
    a[0].size = (x->flags & NAIVE_KILL) && x->pc ? (uint32_t)x->pc : x->size;
    a[0].kind = x->mem;
    return 1;
}

static int naive_writes_reg(const edan_insn *v, edan_reg r)
{
    int i;
    for (i = 0; i < v->ndst; i++)
        if (v->dst[i] == r && r != 0) return 1;
    return 0;
}
static int naive_writes_byte(const edan_insn *v, uint64_t b)
{
    edan_access a[NAIVE_MAX_ACC];
    uint32_t n = naive_accesses_of(v, a), i;
    for (i = 0; i < n; i++)
        if ((a[i].kind == EDAN_MEM_STORE || a[i].kind == EDAN_MEM_AMO) && b >= a[i].addr && b < a[i].addr + a[i].size)
            return 1;
    return 0;
}

/* lookup with timestamps; returns the way + 1 on a hit (and refreshes it), else 0 */
static uint32_t naive_lookup(naive_line *set, uint32_t assoc, uint64_t line, uint64_t *clock)
{
    uint32_t w;
    for (w = 0; w < assoc; w++)
        if (set[w].valid && set[w].line == line) { set[w].stamp = ++*clock; return w + 1; }
    return 0;
}
static int naive_fill(naive_line *set, uint32_t assoc, uint64_t line, uint64_t *clock, size_t filler)
{
    uint32_t w, victim = 0;
    int ev;
    for (w = 0; w < assoc; w++) {
        if (!set[w].valid) { victim = w; break; }
        if (set[w].stamp < set[victim].stamp) victim = w;
    }
    ev = set[victim].valid && set[victim].dirty;
    set[victim].valid = 1;
    set[victim].dirty = 0;
    set[victim].line = line;
    set[victim].stamp = ++*clock;
    set[victim].filler = filler;
    return ev;
}

/* The whole-graph model of tr[0 .. n) (kills included) for one
   configuration; `paper`: the paper's cache rule (no fill edges, w(v) the
   access size of a memory access vertex). */
static size_t naive_reg_writer(const edan_insn *tr, size_t v, uint32_t t, edan_reg r)
{
    size_t u = v;
    while (u-- > 0) {
        uint32_t tu = naive_mt ? naive_thread[u] : 0;
        if (tr[u].flags & NAIVE_SPAWN) {
            if (tr[u].addr == t) t = tu;     /* before t started: its creator's */
            continue;
        }
        if (tu == t && (tr[u].flags & NAIVE_SIGNAL) && tr[u].addr == 1) {
            u = naive_sigmatch[u];          /* a handler returned: its registers are those at its start */
            continue;
        }
        if (tu == t && naive_writes_reg(&tr[u], r)) return u;
    }
    return (size_t)-1;
}

/* naive_sigmatch of tr[0 .. n): each return and drop's delivery, the last
   open one of its thread (at most EDAN_MAX_SIGNAL_DEPTH open: one more
   forgets the oldest, as the engine does). */
static void naive_signals(const edan_insn *tr, size_t n)
{
    static size_t open[NAIVE_THREADS][EDAN_MAX_SIGNAL_DEPTH];
    size_t depth[NAIVE_THREADS] = {0}, i;
    for (i = 0; i < n; i++) {
        uint32_t t = naive_mt ? naive_thread[i] % NAIVE_THREADS : 0;
        if (!(tr[i].flags & NAIVE_SIGNAL)) continue;
        if (tr[i].addr == 0) {
            if (depth[t] == EDAN_MAX_SIGNAL_DEPTH) {
                memmove(open[t], open[t] + 1, (EDAN_MAX_SIGNAL_DEPTH - 1) * sizeof open[t][0]);
                depth[t]--;
            }
            open[t][depth[t]++] = i;
        } else {
            CHECK(depth[t] > 0);
            naive_sigmatch[i] = depth[t] ? open[t][--depth[t]] : i;
        }
    }
}

/* Store-to-load forwarding (edan-model): the store buffer's size, 0 off
   (the tests set it as they set the engine's options.forward). */
static uint32_t naive_fwd_S = EDAN_FORWARD_DEFAULT;

/* options.forward for a round: the default mostly, off or a store buffer
   of 1 to 4 now and then; the model's naive_fwd_S set to match (the
   caller puts it back to the default). */
static uint32_t naive_random_forward(int round, uint64_t *s)
{
    uint32_t f = round % 5 == 3 ? EDAN_FORWARD_OFF : round % 5 == 4 ? 1 + (uint32_t)(*s % 4) : 0;
    naive_fwd_S = f == EDAN_FORWARD_OFF ? 0 : f ? f : EDAN_FORWARD_DEFAULT;
    return f;
}

/* The store entry that load entry v forwards from, or (size_t)-1: every
   byte it reads last written by one plain store u of its thread (no kill,
   no several-access or AMO writer), u among the thread's last
   naive_fwd_S stores or both stack-slot accesses. */
/* The kind of an instruction's memory access when it makes one (an access
   list of one is an ordinary instruction), else EDAN_MEM_NONE; *a its access. */
static uint8_t naive_single(const edan_insn *x, edan_access *a)
{
    edan_access acc[NAIVE_MAX_ACC];
    if (x->flags & (NAIVE_KILL | NAIVE_SPAWN | NAIVE_SIGNAL)) return EDAN_MEM_NONE;
    if (naive_accesses_of(x, acc) != 1) return EDAN_MEM_NONE;
    *a = acc[0];
    return acc[0].kind;
}

static size_t naive_forward_of(const edan_insn *tr, size_t v)
{
    const edan_insn *x = &tr[v];
    edan_access a, au;
    size_t u = (size_t)-1, q;
    uint64_t b;
    uint32_t tv = naive_mt ? naive_thread[v] : 0, later = 0;
    if (!naive_fwd_S || naive_single(x, &a) != EDAN_MEM_LOAD || (x->flags & EDAN_INSN_LOCKED)) return (size_t)-1;
    for (b = a.addr; b < a.addr + a.size; b++) {
        size_t wb = (size_t)-1;
        for (q = v; q-- > 0;)
            if (naive_writes_byte(&tr[q], b)) { wb = q; break; }
        if (wb == (size_t)-1 || (u != (size_t)-1 && wb != u)) return (size_t)-1;
        u = wb;
    }
    if (u == (size_t)-1 || naive_single(&tr[u], &au) != EDAN_MEM_STORE || (naive_mt ? naive_thread[u] : 0) != tv)
        return (size_t)-1;
    if ((x->flags & EDAN_INSN_STACK) && (tr[u].flags & EDAN_INSN_STACK)) return u;
    for (q = u + 1; q < v; q++)     /* the thread's stores since u */
        if ((naive_mt ? naive_thread[q] : 0) == tv && naive_single(&tr[q], &au) == EDAN_MEM_STORE) later++;
    return later < naive_fwd_S ? u : (size_t)-1;
}

/* The kinds of the model's edges: a predecessor whose finish starts the
   vertex; a forwarding store, whose start does (and its depth less its
   own access); a filler of an access across lines that went to RAM, whose
   finish ends it (and whose depth it takes). */
enum { NAIVE_E_FINISH = 0, NAIVE_E_FORWARD = 1, NAIVE_E_END = 2 };

/* A time of the windowed schedule: c cycles plus k RAM latencies; times
   compare by their value at alpha, a tie by k. */
typedef struct naive_t { uint64_t c, k; } naive_t;
static uint64_t naive_alpha;
static int naive_later(naive_t a, naive_t b)
{
    uint64_t x = a.c + a.k * naive_alpha, y = b.c + b.k * naive_alpha;
    return x > y || (x == y && a.k > b.k);
}
static naive_t naive_tmax(naive_t a, naive_t b) { return naive_later(b, a) ? b : a; }

/* The windowed schedule of the model page, played the plain way: every
   vertex's dispatch, start, finish and retirement kept, each thread's
   vertices, loads and stores listed, the m slots scanned for the one
   freed last among those free at the vertex's ready time (else the first
   to be free), the edges (sorted by target) read as they are. A predecessor that
   has left its thread's window (it is not among the thread's last R
   vertices when the current one is played) counts with nothing when it is
   the current thread's, else with the retirement of the last vertex of its
   stretch (the run of entries of its thread that holds it). */
static void naive_window(const edan_insn *tr, size_t n, const edan_config *cfg, const size_t (*edges)[2],
                         const unsigned char *ekind, size_t ne, const int *is_mem, const uint64_t *t,
                         const unsigned char *kind, naive_result *R)
{
    const uint64_t W = cfg->window ? cfg->window : 192, LQ = cfg->lq ? cfg->lq : 32, SQ = cfg->sq ? cfg->sq : 32;
    const uint64_t K = cfg->width ? cfg->width : 8;
    naive_t *disp = (naive_t *)calloc(n, sizeof(naive_t)), *st = (naive_t *)calloc(n, sizeof(naive_t));
    naive_t *F = (naive_t *)calloc(n, sizeof(naive_t)), *seen = (naive_t *)calloc(n, sizeof(naive_t));
    naive_t *ret = (naive_t *)calloc(n, sizeof(naive_t)), *drain = (naive_t *)calloc(n, sizeof(naive_t));
    size_t *tv = (size_t *)calloc(NAIVE_THREADS * n, sizeof(size_t));     /* tv[th * n + i]: thread th's vertex i */
    size_t *tl = (size_t *)calloc(NAIVE_THREADS * n, sizeof(size_t));     /* ... its load i */
    size_t *ts = (size_t *)calloc(NAIVE_THREADS * n, sizeof(size_t));     /* ... its store i */
    size_t *local = (size_t *)calloc(n, sizeof(size_t));
    size_t *send = (size_t *)calloc(n, sizeof(size_t));    /* each vertex's stretch's last vertex */
    naive_t *slots = (naive_t *)calloc(NAIVE_THREADS * 65536, sizeof(naive_t));
    uint32_t j;
    naive_alpha = cfg->alpha ? cfg->alpha : 200;
    {   /* the stretches: runs of entries of one thread, as naive_feed switches (spawns run in none) */
        size_t v, first = 0, last = n;
        uint32_t cur = 0;
        for (v = 0; v <= n; v++) {
            if (v < n && (tr[v].flags & NAIVE_SPAWN)) continue;
            if (v == n || (naive_mt && naive_thread[v] != cur)) {
                size_t x;
                for (x = first; x < v; x++) send[x] = last;
                first = v;
                last = n;
                if (v < n) cur = naive_thread[v];
            }
            if (v < n && !(tr[v].flags & NAIVE_KILL)) last = v;
        }
    }
    for (j = 0; j < naive_wnm; j++) {
        const uint32_t m = naive_wm[j];
        size_t nv[NAIVE_THREADS] = {0}, nl[NAIVE_THREADS] = {0}, ns[NAIVE_THREADS] = {0}, v, e = 0, q;
        naive_t T = {0, 0};
        memset(slots, 0, NAIVE_THREADS * 65536 * sizeof(naive_t));
        for (v = 0; v < n; v++) {
            const uint32_t th = naive_mt ? naive_thread[v] % NAIVE_THREADS : 0;
            const size_t i = nv[th];
            const int load = kind[v] == EDAN_MEM_LOAD || kind[v] == EDAN_MEM_AMO;
            const int store = kind[v] == EDAN_MEM_STORE || kind[v] == EDAN_MEM_AMO;
            naive_t S = {0, 0}, d = {0, 0}, end = {0, 0}, *sl = slots + (size_t)th * 65536;
            if (tr[v].flags & (NAIVE_KILL | NAIVE_SPAWN)) continue;
            for (; e < ne && edges[e][1] < v; e++) {}
            for (q = e; q < ne && edges[q][1] == v; q++) {
                const size_t u = edges[q][0];
                const uint32_t tu = naive_mt ? naive_thread[u] % NAIVE_THREADS : 0;
                naive_t x;
                if (local[u] + W < nv[tu]) {    /* left its window: its own thread's finished before this
                                                   dispatch; another's counts with its stretch's end */
                    naive_t zero = {0, 0};
                    x = tu == th ? zero : ret[send[u]];
                } else {
                    x = ekind[q] == NAIVE_E_FORWARD ? st[u] : seen[u];
                }
                if (ekind[q] == NAIVE_E_END) end = naive_tmax(end, x);
                else S = naive_tmax(S, x);
            }
            if (i >= K) { d = disp[tv[th * n + i - K]]; d.c++; }
            if (i >= W) d = naive_tmax(d, ret[tv[th * n + i - W]]);
            if (load && nl[th] >= LQ) d = naive_tmax(d, ret[tl[th * n + nl[th] - LQ]]);
            if (store && ns[th] >= SQ) d = naive_tmax(d, drain[ts[th * n + ns[th] - SQ]]);
            disp[v] = d;
            st[v] = naive_tmax(d, S);
            if (is_mem[v]) {    /* the slot free at its ready time that was freed last, else the first free */
                uint32_t b = m, x;
                for (x = 0; x < m; x++)
                    if (!naive_later(sl[x], st[v]) && (b == m || naive_later(sl[x], sl[b]))) b = x;
                if (b == m)
                    for (b = 0, x = 1; x < m; x++)
                        if (naive_later(sl[b], sl[x])) b = x;
                st[v] = naive_tmax(st[v], sl[b]);
                F[v] = st[v];
                F[v].k++;
                sl[b] = F[v];
            } else {
                F[v] = st[v];
                F[v].c += t[v];
            }
            F[v] = naive_tmax(F[v], end);
            seen[v] = F[v];
            if (kind[v] == EDAN_MEM_STORE) { seen[v] = st[v]; seen[v].c++; }
            ret[v] = i ? naive_tmax(ret[tv[th * n + i - 1]], seen[v]) : seen[v];
            drain[v] = naive_tmax(ret[v], F[v]);
            if (load) tl[th * n + nl[th]++] = v;
            if (store) ts[th * n + ns[th]++] = v;
            local[v] = i;
            tv[th * n + nv[th]++] = v;
            T = naive_tmax(T, ret[v]);
        }
        R->wc[j] = T.c;
        R->wk[j] = T.k;
    }
    free(disp); free(st); free(F); free(seen); free(ret); free(drain); free(tv); free(tl); free(ts); free(local);
    free(send);
    free(slots);
}

static void naive_run(const edan_insn *tr, size_t n, const edan_config *cfg, int paper, naive_result *R)
{
    naive_line *lv[EDAN_MAX_LEVELS];
    uint32_t sets[EDAN_MAX_LEVELS];
    uint64_t clock = 0, alpha = cfg->alpha ? cfg->alpha : 200;
    size_t cap_e = n * (EDAN_MAX_SRC + 2 * EDAN_MAX_ACCESS * NAIVE_MAX_ACC) + 1;
    size_t (*edges)[2] = (size_t (*)[2])malloc(sizeof *edges * cap_e);
    unsigned char *ekind = (unsigned char *)malloc(cap_e);
    size_t ne = 0, v, u, e, i;
    int *is_mem = (int *)calloc(n, sizeof(int));
    uint64_t *t = (uint64_t *)calloc(n, sizeof(uint64_t)), *w = (uint64_t *)calloc(n, sizeof(uint64_t));
    uint64_t *S = (uint64_t *)calloc(n, sizeof(uint64_t)), *F = (uint64_t *)calloc(n, sizeof(uint64_t));
    uint64_t *Fend = (uint64_t *)calloc(n, sizeof(uint64_t));
    uint64_t *md = (uint64_t *)calloc(n, sizeof(uint64_t));
    unsigned char *kind = (unsigned char *)calloc(n, 1);       /* its access's kind (an AMO loads and stores) */
    uint64_t *mdS = (uint64_t *)calloc(n, sizeof(uint64_t)), *mdE = (uint64_t *)calloc(n, sizeof(uint64_t));
    uint32_t L = cfg->num_levels, l;
    int changed, wt = cfg->write_policy == EDAN_WRITE_THROUGH;
    memset(R, 0, sizeof *R);
    naive_signals(tr, n);
    for (l = 0; l < L; l++) {
        sets[l] = (uint32_t)(cfg->level[l].size / cfg->level[l].assoc / cfg->level[l].line);
        lv[l] = (naive_line *)calloc((size_t)sets[l] * cfg->level[l].assoc, sizeof(naive_line));
    }
    for (v = 0; v < n; v++) {
        const edan_insn *x = &tr[v];
        size_t preds[EDAN_MAX_SRC + 2 * EDAN_MAX_ACCESS * NAIVE_MAX_ACC], fills[EDAN_MAX_ACCESS * NAIVE_MAX_ACC];
        unsigned char pkind[EDAN_MAX_SRC + 2 * EDAN_MAX_ACCESS * NAIVE_MAX_ACC];
        size_t np = 0, nf = 0, k, fwd;
        edan_access acc[NAIVE_MAX_ACC];
        uint32_t na = naive_accesses_of(x, acc), ai;
        uint64_t all = 0;
        if (x->flags & (NAIVE_KILL | NAIVE_SPAWN)) continue;        /* not a vertex */
        fwd = naive_forward_of(tr, v);
        {
            int ld = 0, sd = 0;
            for (ai = 0; ai < na; ai++) {
                ld |= acc[ai].kind != EDAN_MEM_STORE;
                sd |= acc[ai].kind != EDAN_MEM_LOAD;
            }
            kind[v] = (unsigned char)(ld && sd ? EDAN_MEM_AMO : ld ? EDAN_MEM_LOAD : sd ? EDAN_MEM_STORE : EDAN_MEM_NONE);
        }
        /* sources: registers, then bytes read; a kill as the last writer makes no edge */
        for (i = 0; i < x->nsrc; i++) {
            if (!x->src[i]) continue;
            u = naive_reg_writer(tr, v, naive_mt ? naive_thread[v] : 0, x->src[i]);
            if (u != (size_t)-1) {
                for (k = 0; k < np && preds[k] != u; k++) {}
                if (k == np && !(tr[u].flags & NAIVE_KILL)) { pkind[np] = NAIVE_E_FINISH; preds[np++] = u; }
            }
        }
        if (fwd != (size_t)-1) {
            /* forwarded: the store's start, no memory access vertex, no cache lookup, one cycle */
            for (k = 0; k < np && preds[k] != fwd; k++) {}
            if (k == np) { pkind[np] = NAIVE_E_FORWARD; preds[np++] = fwd; }
            R->forwarded++;
            t[v] = 1;
            na = 0;
        }
        for (ai = 0; ai < na; ai++) {
            uint64_t b;
            all += acc[ai].size;
            if (acc[ai].kind != EDAN_MEM_LOAD && acc[ai].kind != EDAN_MEM_AMO) continue;
            for (b = acc[ai].addr; b < acc[ai].addr + acc[ai].size; b++)
                for (u = v; u-- > 0;)
                    if (naive_writes_byte(&tr[u], b)) {
                        for (k = 0; k < np && preds[k] != u; k++) {}
                        if (k == np && !(tr[u].flags & NAIVE_KILL)) { pkind[np] = NAIVE_E_FINISH; preds[np++] = u; }
                        break;
                    }
        }

        if (naive_mt)
            for (k = 0; k < np; k++)
                if (naive_thread[preds[k]] != naive_thread[v]) R->tcross[naive_thread[v] % NAIVE_THREADS]++;
        /* memory access vertex, cost, bytes moved; fillers of the lines served */
        if (fwd != (size_t)-1) {
            /* t set above */
        } else if (na == 0) {
            t[v] = cfg->cost[x->cls] ? cfg->cost[x->cls] : 1;
        } else if (!L) {
            is_mem[v] = 1;
            w[v] = all;
        } else {
            uint32_t shift = 0, lat = 0;
            uint64_t line, lb = cfg->level[0].line;
            while ((1u << shift) < lb) shift++;
            for (ai = 0; ai < na; ai++)
            for (line = acc[ai].addr >> shift; line <= (acc[ai].addr + acc[ai].size - 1) >> shift; line++) {
                int is_store = acc[ai].kind == EDAN_MEM_STORE, writes = acc[ai].kind != EDAN_MEM_LOAD;
                size_t filler = v + 1;      /* a line from RAM: this vertex fills it */
                uint32_t way = 0;
                if (is_store && wt) {
                    for (l = 0; l < L; l++) {
                        naive_line *set = lv[l] + (size_t)(line % sets[l]) * cfg->level[l].assoc;
                        if (naive_lookup(set, cfg->level[l].assoc, line, &clock)) break;
                    }
                    continue;
                }
                for (l = 0; l < L; l++) {
                    naive_line *set = lv[l] + (size_t)(line % sets[l]) * cfg->level[l].assoc;
                    if ((way = naive_lookup(set, cfg->level[l].assoc, line, &clock)) != 0) break;
                }
                if (l == L) { is_mem[v] = 1; w[v] += lb; R->ram_lines++; }
                else {
                    uint32_t hl = cfg->level[l].latency ? cfg->level[l].latency : 1;
                    naive_line *set = lv[l] + (size_t)(line % sets[l]) * cfg->level[l].assoc;
                    if (hl > lat) lat = hl;
                    filler = set[way - 1].filler;
                    /* a fill dependence, unless already a predecessor */
                    if (!paper && filler && filler != v + 1) {
                        for (k = 0; k < np && preds[k] != filler - 1; k++) {}
                        if (k == np) {
                            for (k = 0; k < nf && fills[k] != filler - 1; k++) {}
                            if (k == nf) {
                                fills[nf++] = filler - 1;
                                R->fill_edges++;
                            }
                        }
                    }
                }
                {
                    uint32_t hit = l, j;
                    for (j = 0; j < hit; j++) {
                        naive_line *set = lv[j] + (size_t)(line % sets[j]) * cfg->level[j].assoc;
                        if (naive_fill(set, cfg->level[j].assoc, line, &clock, filler) && j == L - 1) {
                            w[v] += lb;
                            R->writebacks++;
                        }
                    }
                }
                if (writes && !wt) {
                    for (l = 0; l < L; l++) {
                        naive_line *set = lv[l] + (size_t)(line % sets[l]) * cfg->level[l].assoc;
                        uint32_t q;
                        for (q = 0; q < cfg->level[l].assoc; q++)
                            if (set[q].valid && set[q].line == line) set[q].dirty = 1;
                    }
                }
            }
            for (ai = 0; ai < na; ai++)
                if (acc[ai].kind != EDAN_MEM_LOAD && wt) { is_mem[v] = 1; w[v] += acc[ai].size; }
            if (paper) w[v] = is_mem[v] ? all : 0;
            t[v] = lat ? lat : 1;
            /* the fillers: of an access that also went to RAM, at its end; else at its start */
            for (k = 0; k < nf; k++) { pkind[np] = is_mem[v] ? NAIVE_E_END : NAIVE_E_FINISH; preds[np++] = fills[k]; }
        }
        if (is_mem[v]) t[v] = alpha;
        for (k = 0; k < np; k++) { edges[ne][0] = preds[k]; edges[ne][1] = v; ekind[ne] = pkind[k]; ne++; }
    }
    /* S, F, md by fixpoint over the edge list, in reverse edge order so the
       iteration does not lean on the trace order. A vertex starts at S
       (its predecessors' finishes, a forwarding store's start) at depth mdS
       (theirs; the store's at its start); it ends at F = max(S + t, the
       ending fillers' F), at md = max(mdS + [memory vertex], their md) */
    for (v = 0; v < n; v++) { F[v] = t[v]; md[v] = (uint64_t)is_mem[v]; }
    do {
        changed = 0;
        for (e = ne; e-- > 0;) {
            size_t a = edges[e][0], b = edges[e][1];
            if (ekind[e] == NAIVE_E_END) {
                if (F[a] > Fend[b]) { Fend[b] = F[a]; changed = 1; }
                if (md[a] > mdE[b]) { mdE[b] = md[a]; changed = 1; }
            } else {
                uint64_t from = ekind[e] == NAIVE_E_FORWARD ? S[a] : F[a];
                uint64_t depth = ekind[e] == NAIVE_E_FORWARD ? mdS[a] : md[a];
                if (from > S[b]) { S[b] = from; changed = 1; }
                if (depth > mdS[b]) { mdS[b] = depth; changed = 1; }
            }
            F[b] = S[b] + t[b] > Fend[b] ? S[b] + t[b] : Fend[b];
            md[b] = mdS[b] + (uint64_t)is_mem[b] > mdE[b] ? mdS[b] + (uint64_t)is_mem[b] : mdE[b];
        }
    } while (changed);
    R->E = ne;
    if (cfg->window != EDAN_WINDOW_OFF && naive_wnm)
        naive_window(tr, n, cfg, (const size_t (*)[2])edges, ekind, ne, is_mem, t, kind, R);
    for (v = 0; v < n; v++) {
        uint32_t th = naive_mt ? naive_thread[v] % NAIVE_THREADS : 0;
        if (tr[v].flags & (NAIVE_KILL | NAIVE_SPAWN)) continue;
        R->N++;
        R->tN[th]++;
        R->T1 += t[v];
        if (F[v] > R->Tinf) R->Tinf = F[v];
        R->bytes += w[v];
        if (is_mem[v]) {
            R->W++;
            R->tW[th]++;
            R->layers[md[v] - 1]++;
            if (md[v] >= 2) { R->chained++; R->tchained[th]++; }
            if (md[v] > R->D) R->D = md[v];
            if (md[v] > R->tD[th]) R->tD[th] = md[v];
        } else {
            R->C += t[v];
            R->tC[th] += t[v];
        }
    }
    if (cfg->tau) {
        uint64_t b;
        R->nbins = (size_t)((R->Tinf + cfg->tau - 1) / cfg->tau) + 1;
        for (b = 0; b < R->nbins && b < 65536; b++)
            for (v = 0; v < n; v++)
                if (!(tr[v].flags & (NAIVE_KILL | NAIVE_SPAWN)) && S[v] <= cfg->tau * b && cfg->tau * b <= F[v])
                    R->bins[b] += w[v];
    }
    if (naive_out && n <= 4096) {
        for (v = 0; v < n; v++) { naive_out->md[v] = md[v]; naive_out->is_mem[v] = is_mem[v]; }
        naive_out->edges = edges;
        naive_out->ne = ne;
        edges = NULL;
    }
    for (l = 0; l < L; l++) free(lv[l]);
    free(kind);
    free(edges); free(ekind); free(is_mem); free(t); free(w); free(S); free(F); free(Fend); free(md); free(mdS); free(mdE);
}

static uint64_t naive_rand(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

static void naive_random_config(edan_config *c, uint64_t *s)
{
    uint32_t l, kind = (uint32_t)(naive_rand(s) % 4);
    static const uint32_t lines[] = {16, 32, 64};
    memset(c, 0, sizeof *c);
    c->alpha = (uint32_t)(naive_rand(s) % 3 == 0 ? 0 : 1 + naive_rand(s) % 300);
    /* Lambda's baseline: alpha (0) or another latency, fractional too */
    c->alpha0 = naive_rand(s) % 2 ? 0.0 : 0.5 + (double)(naive_rand(s) % 500);
    c->cost[EDAN_CLASS_FP_FMA] = (uint32_t)(naive_rand(s) % 6);
    c->cost[EDAN_CLASS_INT_ALU] = (uint32_t)(naive_rand(s) % 3);
    c->tau = 1 + naive_rand(s) % 40;
    /* a windowed schedule in two of three: small windows and queues, so
       that vertices leave them in a trace of hundreds */
    if (naive_rand(s) % 3 == 0) {
        c->window = EDAN_WINDOW_OFF;
    } else {
        c->window = naive_rand(s) % 4 ? 1 + (uint32_t)(naive_rand(s) % 40) : 0;
        c->lq = naive_rand(s) % 3 ? 1 + (uint32_t)(naive_rand(s) % 8) : 0;
        c->sq = naive_rand(s) % 3 ? 1 + (uint32_t)(naive_rand(s) % 8) : 0;
        c->width = naive_rand(s) % 3 ? 1 + (uint32_t)(naive_rand(s) % 4) : 0;
    }
    c->write_policy = naive_rand(s) % 2 ? EDAN_WRITE_BACK : EDAN_WRITE_THROUGH;
    c->num_levels = kind == 0 ? 0 : kind == 3 ? 2 : 1;
    {
        uint32_t line = lines[naive_rand(s) % 3];
        uint64_t prev = 0;
        for (l = 0; l < c->num_levels; l++) {
            /* mostly 1, 2 or 4 ways (a small trace's lines evict each other); else 3, or as
               many as real caches have (their LRU order over more ways, the L3's 12 and 20) */
            static const uint32_t wide[] = {3, 8, 12, 16, 20};
            uint32_t assoc = naive_rand(s) % 4 ? 1u << (naive_rand(s) % 3) : wide[naive_rand(s) % 5];
            /* sets a power of two, or not (a line's set is line mod sets) */
            uint32_t nsets = naive_rand(s) % 4 ? 1u << (naive_rand(s) % 4) : 3 + (uint32_t)(naive_rand(s) % 3) * 2;
            uint64_t size = (uint64_t)assoc * nsets * line;
            if (size <= prev) { nsets *= 4; size = (uint64_t)assoc * nsets * line; }
            c->level[l].size = size;
            c->level[l].assoc = assoc;
            c->level[l].line = line;
            c->level[l].latency = (uint32_t)(naive_rand(s) % 6);
            prev = size;
        }
    }
}

/* The registers random instructions use: x0, a few integer and FP ones. */
static const edan_reg naive_regs[] = {0, 1, 2, 3, 4, 5, 6, 32, 33, 34};

/* A scope gap: registers and bytes that unanalysed code wrote, in the
   window the random traces use (base .. base + 104). */
static void naive_random_kill(edan_insn *x, uint64_t base, uint64_t *s)
{
    uint32_t j, what = (uint32_t)(naive_rand(s) % 3);
    memset(x, 0, sizeof *x);
    x->flags = NAIVE_KILL;
    if (what != 1) {
        x->ndst = (uint8_t)(1 + naive_rand(s) % 2);
        for (j = 0; j < x->ndst; j++) x->dst[j] = naive_regs[naive_rand(s) % 10];
    }
    if (what != 0) {
        x->mem = EDAN_MEM_STORE;
        x->size = (uint16_t)(1 + naive_rand(s) % 24);
        x->addr = base + naive_rand(s) % 96;
    }
}

/* Feeds a kill entry (NAIVE_KILL) as the engine takes it. */
static edan_result naive_kill(edan_context *ctx, const edan_insn *x)
{
    edan_result r;
    if (x->flags & NAIVE_SIGNAL)
        return x->addr == 0 ? edan_signal_deliver(ctx) : x->addr == 1 ? edan_signal_return(ctx) : edan_signal_drop(ctx);
    r = edan_kill_regs(ctx, x->dst, x->ndst);
    if (r == EDAN_OK && x->mem == EDAN_MEM_STORE) r = edan_kill_mem(ctx, x->addr, x->pc ? x->pc : x->size);
    return r;
}

/* tr[0 .. n) into ctx with edan_feed, kills with naive_kill. */
static edan_result naive_feed(edan_context *ctx, const edan_insn *tr, size_t n)
{
    size_t i;
    uint32_t cur = 0;
    for (i = 0; i < n; i++) {
        edan_result r;
        if (naive_mt && tr[i].flags & NAIVE_SPAWN) {
            if ((r = edan_thread_create(ctx, naive_thread[i], (uint32_t)tr[i].addr)) != EDAN_OK) return r;
            continue;
        }
        if (naive_mt && naive_thread[i] != cur) {
            if ((r = edan_thread_switch(ctx, naive_thread[i])) != EDAN_OK) return r;
            cur = naive_thread[i];
        }
        r = tr[i].flags & NAIVE_KILL                ? naive_kill(ctx, &tr[i])
                        : tr[i].flags & NAIVE_MULTI ? edan_feed_accesses(ctx, &tr[i], naive_multi[tr[i].addr].acc,
                                                                           naive_multi[tr[i].addr].n)
                                                    : edan_feed(ctx, &tr[i]);
        if (r != EDAN_OK) return r;
    }
    return EDAN_OK;
}

/* A random trace; in a third of them, now and then a scope gap (a kill). */
static size_t naive_random_trace(edan_insn *tr, size_t max, uint64_t *s)
{
    static const uint16_t sizes[] = {1, 2, 4, 8, 8, 8, 16};
    size_t n = 1 + naive_rand(s) % max, i;
    uint64_t base = 0xfd0 + (naive_rand(s) % 3) * 0x1000;  /* windows crossing page (shadow-chunk) edges */
    int aligned = naive_rand(s) % 2;    /* half the traces: every access aligned to its size, as compiled code's */
    int gaps = naive_rand(s) % 3 == 0, sigs = gaps && naive_rand(s) % 2, stack = naive_rand(s) % 2;
    uint32_t depth = 0;     /* signal handlers running */
    for (i = 0; i < n; i++) {
        edan_insn *x = &tr[i];
        uint32_t r = (uint32_t)(naive_rand(s) % 100), j;
        if (gaps && naive_rand(s) % 30 == 0) {
            naive_random_kill(x, base, s);
            continue;
        }
        if (sigs && naive_rand(s) % 25 == 0) {     /* a handler starts, returns, or is left */
            memset(x, 0, sizeof *x);
            x->flags = NAIVE_KILL | NAIVE_SIGNAL;
            x->addr = depth && naive_rand(s) % 2 ? (naive_rand(s) % 4 ? 1 : 2) : 0;
            depth = x->addr ? depth - 1 : depth + 1;
            continue;
        }
        memset(x, 0, sizeof *x);
        x->nsrc = (uint8_t)(naive_rand(s) % 3);
        for (j = 0; j < x->nsrc; j++) x->src[j] = naive_regs[naive_rand(s) % 10];
        x->cls = (uint8_t)(naive_rand(s) % 2 ? EDAN_CLASS_INT_ALU : EDAN_CLASS_FP_FMA);
        if (r < 40) {
            x->ndst = 1;
            x->dst[0] = naive_regs[naive_rand(s) % 10];
            /* in a third of the traces, some instructions write two registers */
            if (r < 2 && base == 0x1fd0) x->dst[x->ndst++] = naive_regs[naive_rand(s) % 10];
        } else if (r < 95) {
            x->mem = (uint8_t)(r < 65 ? EDAN_MEM_LOAD : r < 88 ? EDAN_MEM_STORE : EDAN_MEM_AMO);
            x->cls = (uint8_t)(x->mem == EDAN_MEM_LOAD ? EDAN_CLASS_LOAD : x->mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE : EDAN_CLASS_AMO);
            x->size = sizes[naive_rand(s) % 7];
            x->addr = base + naive_rand(s) % 96;
            if (aligned) x->addr &= ~(uint64_t)(x->size - 1);
            if (x->mem != EDAN_MEM_STORE) { x->ndst = 1; x->dst[0] = naive_regs[naive_rand(s) % 10]; }
            /* in half the traces, stack-slot accesses (forwarded at any distance) and locked loads */
            if (stack && naive_rand(s) % 3 == 0) x->flags |= EDAN_INSN_STACK;
            if (stack && x->mem == EDAN_MEM_LOAD && naive_rand(s) % 8 == 0) x->flags |= EDAN_INSN_LOCKED;
        } else {
            x->cls = EDAN_CLASS_BRANCH;
        }
    }
    return n;
}

/* The critical chain: when naive_chain is set, the trace's instructions
   carry their index as pc and ctx recorded the graph; the chain
   (edan_get_critical_chain) must have D memory vertices, md D down to 1,
   the first the earliest memory vertex of md D, each reached from the one
   after it in the model's graph. */
static int naive_chain;
typedef struct naive_chain_got { uint64_t pc[4096]; uint32_t md[4096]; size_t n; } naive_chain_got;
static void naive_chain_add(void *user, const edan_insn *v, uint32_t md)
{
    naive_chain_got *c = (naive_chain_got *)user;
    CHECK(v->flags & EDAN_INSN_HAS_PC);
    if (c->n < 4096) {
        c->pc[c->n] = v->pc;
        c->md[c->n++] = md;
    }
}

/* Is there a path from entry a to entry b in G? */
static int naive_reaches(const naive_graph *G, size_t a, size_t b, size_t n)
{
    static unsigned char seen[4096];
    size_t e;
    int grew = 1;
    memset(seen, 0, n);
    seen[a] = 1;
    while (grew && !seen[b]) {
        grew = 0;
        for (e = 0; e < G->ne; e++)
            if (seen[G->edges[e][0]] && !seen[G->edges[e][1]]) seen[G->edges[e][1]] = 1, grew = 1;
    }
    return seen[b];
}

static void naive_check_chain(edan_context *ctx, uint32_t k, const edan_insn *tr, size_t n, const edan_config *c, int paper)
{
    static naive_graph G;
    static naive_result R;
    static naive_chain_got got;
    size_t i, first;
    got.n = 0;
    CHECK(edan_get_critical_chain(ctx, k, naive_chain_add, &got) == EDAN_OK);
    naive_out = &G;
    naive_run(tr, n, c, paper, &R);
    naive_out = NULL;
    CHECK_EQ_U(got.n, R.D);
    for (first = 0; first < n && !(G.is_mem[first] && G.md[first] == R.D); first++) {}
    if (got.n) CHECK_EQ_U(got.pc[0], first);
    for (i = 0; i < got.n && i < R.D; i++) {
        CHECK_EQ_U(got.md[i], R.D - i);
        CHECK(got.pc[i] < n && G.is_mem[got.pc[i]] && G.md[got.pc[i]] == R.D - i);
        if (i && got.pc[i] < n) CHECK(naive_reaches(&G, (size_t)got.pc[i], (size_t)got.pc[i - 1], n));
    }
    free(G.edges);
}

/* The streamed chain of ctx (options o, o.chain set) is the one the
   recorded graph gives, vertex for vertex, in each configuration. */
static void naive_same_chain(edan_context *ctx, const edan_insn *tr, size_t n, const edan_options *o)
{
    static naive_chain_got a, b;
    edan_options ro = *o;
    edan_context *ref;
    uint32_t k;
    size_t i;
    ro.chain = 0;
    CHECK(edan_create(&ref, &ro) == EDAN_OK);
    CHECK(naive_feed(ref, tr, n) == EDAN_OK);
    for (k = 0; k < o->num_configs; k++) {
        a.n = b.n = 0;
        CHECK(edan_get_critical_chain(ctx, k, naive_chain_add, &a) == EDAN_OK);
        CHECK(edan_get_critical_chain(ref, k, naive_chain_add, &b) == EDAN_OK);
        CHECK_EQ_U(a.n, b.n);
        for (i = 0; i < a.n && i < b.n; i++) CHECK_EQ_U(a.pc[i], b.pc[i]);
    }
    edan_destroy(ref);
}

/* Every metric of ctx's K configurations against the whole-graph model of
   the trace tr[0 .. n) (and the critical chain: naive_chain). */
static void naive_compare(edan_context *ctx, const edan_insn *tr, size_t n, const edan_config *cfgs, uint32_t K,
                          int paper)
{
    static naive_result R;
    static const uint32_t dm[] = EDAN_DEFAULT_M;
    uint32_t k, mm;
    const int own_m = !naive_wnm;       /* the windowed schedule's m's: the caller's, or the default list */
    if (own_m) {
        naive_wnm = (uint32_t)(sizeof dm / sizeof dm[0]);
        memcpy(naive_wm, dm, sizeof dm);
    }
    for (k = 0; k < K; k++) {
        edan_metrics m;
        const uint64_t *bins;
        size_t nb, b;
        edan_config c = cfgs[k];
        if (c.tau) {    /* the tau the engine used (doubled past its bin limit) */
            const uint64_t tau = edan_get_config(ctx, k)->tau;
            CHECK(tau >= c.tau && tau % c.tau == 0);
            c.tau = tau;
        }
        naive_run(tr, n, &c, paper, &R);
        CHECK(edan_get_metrics(ctx, k, &m) == EDAN_OK);
        CHECK_EQ_U(m.N, R.N);
        CHECK_EQ_U(m.E, R.E);
        CHECK_EQ_U(m.fill_edges, R.fill_edges);
        CHECK_EQ_U(m.W, R.W);
        CHECK_EQ_U(m.D, R.D);
        CHECK_EQ_U(m.C, R.C);
        CHECK_EQ_U(m.T1, R.T1);
        CHECK_EQ_U(m.Tinf, R.Tinf);
        CHECK_EQ_U(m.bytes, R.bytes);
        CHECK_EQ_U(m.writebacks, R.writebacks);
        CHECK_EQ_U(m.ram_lines, R.ram_lines);
        CHECK_EQ_U(m.chained, R.chained);
        CHECK_EQ_U(m.forwarded, R.forwarded);
        for (mm = 0; mm < naive_wnm; mm++) {    /* the windowed schedule */
            edan_window wd;
            const uint64_t alpha = cfgs[k].alpha ? cfgs[k].alpha : 200;
            if (cfgs[k].window == EDAN_WINDOW_OFF) {
                CHECK(edan_get_window(ctx, k, naive_wm[mm], &wd) == EDAN_ERR_INVALID_ARG);
                continue;
            }
            CHECK(edan_get_window(ctx, k, naive_wm[mm], &wd) == EDAN_OK);
            CHECK_EQ_U(wd.lambda, R.wk[mm]);
            CHECK_EQ_U(wd.c, R.wc[mm]);
            CHECK_EQ_U(wd.T, R.wc[mm] + R.wk[mm] * alpha);
            CHECK(wd.lambda <= m.W);
        }
        for (b = 0; b < m.D && b < 4096; b++) {
            uint64_t w = ~(uint64_t)0;
            CHECK(edan_get_layers(ctx, k, b + 1, &w, 1) == EDAN_OK);
            CHECK_EQ_U(w, R.layers[b]);
        }
        if (cfgs[k].tau) {
            CHECK(edan_get_timeline(ctx, k, &bins, &nb) == EDAN_OK);
            c.tau = edan_get_config(ctx, k)->tau;       /* reading may have doubled it */
            naive_run(tr, n, &c, paper, &R);
            CHECK_EQ_U(nb, R.nbins);
            for (b = 0; b < nb && b < R.nbins && b < 65536; b++) CHECK_EQ_U(bins[b], R.bins[b]);
        }
        if (naive_chain) naive_check_chain(ctx, k, tr, n, &cfgs[k], paper);
        if (naive_mt) {     /* each thread's share */
            uint32_t th;
            for (th = 0; th < edan_num_threads(ctx) && th < NAIVE_THREADS; th++) {
                edan_thread_metrics tm;
                CHECK(edan_get_thread_metrics(ctx, k, th, &tm) == EDAN_OK);
                CHECK_EQ_U(tm.N, R.tN[th]);
                CHECK_EQ_U(tm.W, R.tW[th]);
                CHECK_EQ_U(tm.C, R.tC[th]);
                CHECK_EQ_U(tm.D, R.tD[th]);
                CHECK_EQ_U(tm.chained, R.tchained[th]);
                CHECK_EQ_U(tm.cross_edges, R.tcross[th]);
            }
        }
        for (mm = 1; mm <= 9; mm++) {
            edan_bounds bd;
            double lam = R.W ? ((double)R.W - (double)R.D) / mm + (double)R.D : 0.0, lay = 0;
            double alpha = cfgs[k].alpha ? cfgs[k].alpha : 200;
            double a0 = cfgs[k].alpha0 > 0 ? cfgs[k].alpha0 : alpha;
            CHECK(edan_get_bounds(ctx, k, mm, &bd) == EDAN_OK);
            CHECK_NEAR(bd.lambda, lam, 1e-12);
            for (b = 0; b < R.D; b++) lay += (double)((R.layers[b] + mm - 1) / mm);
            CHECK_NEAR(bd.M_layered, lay * alpha, 1e-12);
            CHECK_NEAR(bd.M_upper, lam * alpha, 1e-12);
            CHECK_NEAR(bd.M_lower, ((double)R.D > (double)R.W / mm ? (double)R.D : (double)R.W / mm) * alpha, 1e-12);
            CHECK_NEAR(bd.Lambda, lam > 0 ? lam / (lam * a0 + (double)R.C) : 0.0, 1e-12);
            CHECK(bd.M_lower <= bd.M_layered + 1e-9 && bd.M_layered <= bd.M_upper + 1e-9);
            CHECK(bd.Lambda >= 0.0 && bd.Lambda <= 1.0);
        }
    }
    if (own_m) naive_wnm = 0;
}

/* Random traces of several threads: a trace of naive_random_trace whose
   entries are dealt to up to four threads (each after its start, by a
   running thread, at a random point), fed in that serial interleaving;
   the whole program's metrics and each thread's against the model. */
static void test_threads_differential(int rounds, uint64_t seed)
{
    static edan_insn base[400], tr[410];
    uint64_t s = seed;
    int round;
    naive_mt = 1;
    for (round = 0; round < rounds; round++) {
        edan_config cfgs[2];
        edan_options o;
        edan_context *ctx;
        uint32_t K = 1 + (uint32_t)(naive_rand(&s) % 2), k, T = 2 + (uint32_t)(naive_rand(&s) % 3), started = 1, t;
        size_t nb = naive_random_trace(base, 400, &s), n = 0, i, at[4] = {0, 0, 0, 0};
        int before = check_failures;
        for (t = 1; t < T; t++) at[t] = (size_t)(naive_rand(&s) % (nb + 1));
        for (k = 0; k < K; k++) naive_random_config(&cfgs[k], &s);
        for (i = 0; i <= nb; i++) {
            for (t = 1; t < T; t++)
                if (at[t] == i) {       /* thread t starts here, by a running thread */
                    memset(&tr[n], 0, sizeof tr[n]);
                    tr[n].flags = NAIVE_SPAWN;
                    tr[n].addr = t;
                    naive_thread[n++] = (uint32_t)(naive_rand(&s) % started) ;
                    started++;
                }
            if (i == nb) break;
            tr[n] = base[i];
            naive_thread[n++] = (uint32_t)(naive_rand(&s) % started);
        }
        {   /* a signal's return or drop in a thread that runs no handler: a delivery */
            uint32_t depth[4] = {0, 0, 0, 0};
            for (i = 0; i < n; i++) {
                if (!(tr[i].flags & NAIVE_SIGNAL)) continue;
                if (tr[i].addr && !depth[naive_thread[i]]) tr[i].addr = 0;
                if (tr[i].addr) depth[naive_thread[i]]--;
                else depth[naive_thread[i]]++;
            }
        }
        /* the spawns named threads in the order they start: rename so that
           thread ids are 0 .. T-1 in start order (started counts them) */
        {
            uint32_t map[4] = {0, 0, 0, 0}, next = 1;
            for (i = 0; i < n; i++)
                if (tr[i].flags & NAIVE_SPAWN) map[tr[i].addr] = next++;
            for (i = 0; i < n; i++)
                if (tr[i].flags & NAIVE_SPAWN) tr[i].addr = map[tr[i].addr];
        }
        memset(&o, 0, sizeof o);
        o.num_configs = K;
        o.configs = cfgs;
        o.hotspots = round % 2;     /* the general copy, or the lean one */
        o.forward = naive_random_forward(round, &s);
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        CHECK(naive_feed(ctx, tr, n) == EDAN_OK);
        naive_compare(ctx, tr, n, cfgs, K, 0);
        if (check_failures != before)
            fprintf(stderr, "threads round %d (seed %llu) failed: %zu entries, %u threads, %u configs\n", round,
                    (unsigned long long)seed, n, T, K);
        edan_destroy(ctx);
        naive_fwd_S = EDAN_FORWARD_DEFAULT;
    }
    naive_mt = 0;
}

static void test_differential(int rounds, uint64_t seed)
{
    static edan_insn tr[400];
    uint64_t s = seed;
    int round;
    for (round = 0; round < rounds; round++) {
        edan_config cfgs[4];
        edan_options o;
        edan_context *ctx;
        uint32_t K = 1 + (uint32_t)(naive_rand(&s) % 4), k;
        size_t n = naive_random_trace(tr, 400, &s);
        int before = check_failures;
        for (k = 0; k < K; k++) naive_random_config(&cfgs[k], &s);
        memset(&o, 0, sizeof o);
        o.num_configs = K;
        o.configs = cfgs;
        /* rounds 0, 1, 2, 3 mod 4: edan_feed; with hotspots (the engine's
           general copy for one configuration too); each instruction
           prepared once and fed twice where the trace repeats it (same
           fields, new address); runs of prepared instructions of random
           lengths through edan_feed_prepared_n. Rounds 4..7 mod 8: the
           paper's cache rule. Kills (scope gaps) as they come. */
        o.hotspots = round % 4 == 1;
        o.paper_cache = round % 8 >= 4;
        o.forward = naive_random_forward(round, &s);
        /* rounds 0, 1 mod 4 and even mod 3: the graph recorded, the critical chain checked */
        naive_chain = round % 4 <= 1 && round % 3 != 1;
        if (naive_chain) {
            size_t i;
            for (i = 0; i < n; i++)
                if (!(tr[i].flags & NAIVE_KILL)) {
                    tr[i].pc = i;
                    tr[i].flags |= EDAN_INSN_HAS_PC;
                }
            o.dot_max_vertices = 400;
            o.chain = (uint32_t)(round / 8 % 2);    /* half of them streamed (checked against the graph's below) */
        }
        o.timeline_max_bins = round % 3 == 2 ? 4 + (uint32_t)(naive_rand(&s) % 12) : 0;   /* tau doubles */
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        if (round % 4 == 2) {
            size_t i;
            edan_prepared p;
            int have = 0;
            for (i = 0; i < n; i++) {
                if (tr[i].flags & NAIVE_KILL) {
                    CHECK(naive_kill(ctx, &tr[i]) == EDAN_OK);
                    continue;
                }
                if (!have || memcmp(&tr[i].op, &tr[i - 1].op, sizeof tr[i] - offsetof(edan_insn, op)))
                    CHECK(edan_prepare(ctx, &tr[i], &p) == EDAN_OK);
                have = 1;
                CHECK(edan_feed_prepared_n(ctx, &p, &tr[i].addr, 1, NULL) == EDAN_OK);
            }
        } else if (round % 4 == 3) {
            static edan_prepared run[400];
            static uint64_t addrs[400];
            size_t i, j;
            for (i = 0; i < n; i += j) {
                size_t len = 1 + naive_rand(&s) % 12;
                if (tr[i].flags & NAIVE_KILL) {
                    CHECK(naive_kill(ctx, &tr[i]) == EDAN_OK);
                    j = 1;
                    continue;
                }
                for (j = 0; j < len && i + j < n && !(tr[i + j].flags & NAIVE_KILL); j++) {
                    CHECK(edan_prepare(ctx, &tr[i + j], &run[j]) == EDAN_OK);
                    addrs[j] = tr[i + j].addr;
                }
                CHECK(edan_feed_prepared_n(ctx, run, addrs, j, NULL) == EDAN_OK);
            }
        } else {
            CHECK(naive_feed(ctx, tr, n) == EDAN_OK);
        }
        naive_compare(ctx, tr, n, cfgs, K, o.paper_cache);
        if (o.chain) naive_same_chain(ctx, tr, n, &o);
        naive_chain = 0;
        edan_destroy(ctx);
        naive_fwd_S = EDAN_FORWARD_DEFAULT;
        if (check_failures != before) {
            fprintf(stderr, "differential round %d (seed %llu) failed: %zu instructions, %u configs%s\n", round,
                    (unsigned long long)seed, n, K, o.paper_cache ? ", the paper's cache rule" : "");
            break;
        }
    }
}

/* Instructions with several accesses (edan_feed_accesses) among ordinary
   ones: a fifth of a random trace's entries become one with 0 to 6 loads
   and stores of 1 to 16 bytes in the trace's window, overlapping each
   other and the other instructions' (a load of bytes the same instruction
   stored before, stores to bytes it loads, several lines); every metric
   against the whole-graph model, with and without caches, the paper's
   rule in half the rounds, hotspots in a quarter. */
static void test_multi(int rounds, uint64_t seed)
{
    static edan_insn tr[300];
    static const uint32_t sizes[] = {1, 2, 4, 8, 8, 16};
    uint64_t s = seed;
    int round;
    for (round = 0; round < rounds; round++) {
        edan_config cfgs[4];
        edan_options o;
        edan_context *ctx;
        uint32_t K = 1 + (uint32_t)(naive_rand(&s) % 3), k;
        size_t n = naive_random_trace(tr, 300, &s), i, nm = 0;
        uint64_t base = 0;
        int before = check_failures;
        for (i = 0; i < n && !base; i++)
            if (tr[i].mem != EDAN_MEM_NONE) base = tr[i].addr & ~(uint64_t)63;
        if (!base) base = 0xfc0;
        for (i = 0; i < n && nm < 1024; i++) {
            edan_insn *x = &tr[i];
            naive_accesses *m = &naive_multi[nm];
            uint32_t j;
            if ((x->flags & NAIVE_KILL) || naive_rand(&s) % 5) continue;
            m->n = (uint32_t)(naive_rand(&s) % 7);
            for (j = 0; j < m->n; j++) {
                m->acc[j].kind = (uint8_t)(naive_rand(&s) % 2 ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
                m->acc[j].size = sizes[naive_rand(&s) % 6];
                m->acc[j].addr = base + naive_rand(&s) % 120;
                if (j && naive_rand(&s) % 3 == 0) m->acc[j].addr = m->acc[j - 1].addr;   /* read-modify-write */
            }
            if (naive_rand(&s) % 3 == 0) {     /* a rep string instruction: loads and stores, each run contiguous */
                uint64_t src = base + naive_rand(&s) % 60, dst = base + naive_rand(&s) % 60;
                uint32_t sz = sizes[naive_rand(&s) % 3], movs = naive_rand(&s) % 2;
                m->n = NAIVE_MAX_ACC;
                for (j = 0; j < m->n; j++) {
                    int ld = movs && j % 2 == 0;
                    m->acc[j].kind = (uint8_t)(ld ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
                    m->acc[j].size = sz;
                    m->acc[j].addr = ld ? src + sz * (j / 2) : dst + sz * (movs ? j / 2 : j);
                }
            }
            if (naive_rand(&s) % 4 == 0) {     /* as wide as x86's: up to EDAN_MAX_SRC read, EDAN_MAX_DST written */
                x->nsrc = (uint8_t)(naive_rand(&s) % (EDAN_MAX_SRC + 1));
                for (j = 0; j < x->nsrc; j++) x->src[j] = naive_regs[naive_rand(&s) % 10];
                x->ndst = (uint8_t)(naive_rand(&s) % (EDAN_MAX_DST + 1));
                for (j = 0; j < x->ndst; j++) x->dst[j] = naive_regs[naive_rand(&s) % 10];
            }
            x->flags |= NAIVE_MULTI;
            x->addr = nm++;
            x->mem = EDAN_MEM_NONE;
            x->size = 0;
        }
        for (k = 0; k < K; k++) naive_random_config(&cfgs[k], &s);
        memset(&o, 0, sizeof o);
        o.num_configs = K;
        o.configs = cfgs;
        o.hotspots = round % 4 == 1;
        o.paper_cache = round % 2;
        o.forward = naive_random_forward(round, &s);
        if (round % 8 >= 6) {   /* the streamed chain against the recorded graph's (naive_same_chain) */
            for (i = 0; i < n; i++)
                if (!(tr[i].flags & NAIVE_KILL)) {
                    tr[i].pc = i;
                    tr[i].flags |= EDAN_INSN_HAS_PC;
                }
            o.chain = 1;
            o.dot_max_vertices = 400;
        }
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        CHECK(naive_feed(ctx, tr, n) == EDAN_OK);
        naive_compare(ctx, tr, n, cfgs, K, o.paper_cache);
        if (o.chain) naive_same_chain(ctx, tr, n, &o);
        edan_destroy(ctx);
        naive_fwd_S = EDAN_FORWARD_DEFAULT;
        if (check_failures != before) {
            fprintf(stderr, "multi-access round %d (seed %llu) failed: %zu instructions, %zu with access lists, %u configs%s\n",
                    round, (unsigned long long)seed, n, nm, K, o.paper_cache ? ", the paper's cache rule" : "");
            break;
        }
    }
}

/* Blocks: a random program of a few static blocks (mostly what the engine
   compiles: loads within a word, stores of whole words; now and then an
   AMO, a store of part of a word, two register targets or an access across
   words, which it feeds one by one) executed in a random order, each
   execution with its own addresses, some only in part (a prefix through
   edan_feed_prepared_n); every metric against the whole-graph model of the
   instructions fed. One configuration in three rounds of four, two in the
   fourth (mostly with one cost table: compiled too); half of the
   configurations without a cache and a timeline; with hotspots in one
   round of five, which must equal those of edan_feed. */
static void test_blocks(int rounds, uint64_t seed)
{
    static edan_insn tr[3000], blk[6][12];
    static edan_prepared prep[6][12];
    static uint64_t addrs[12];
    static const uint16_t lsizes[] = {1, 2, 4, 8, 8, 8};
    uint64_t s = seed;
    int round;
    for (round = 0; round < rounds; round++) {
        edan_config cfgs[2];
        edan_options o;
        edan_context *ctx;
        edan_block *b[6];
        uint32_t K = round % 4 == 3 ? 2 : 1, k, nb = 1 + (uint32_t)(naive_rand(&s) % 6), len[6], i, j;
        uint64_t base = 0xfd0 + (naive_rand(&s) % 3) * 0x1000;
        int odd = naive_rand(&s) % 3 == 0;      /* unaligned accesses, partial stores, ... */
        int gaps = naive_rand(&s) % 3 == 0;     /* scope gaps between executions */
        const int mt = round % 3 == 2;          /* two threads, taking turns between executions */
        uint32_t cur = 0, spawn = mt ? 1 + (uint32_t)(naive_rand(&s) % 40) : 0;
        size_t n = 0;
        int before = check_failures, last = -1;
        for (k = 0; k < K; k++) {
            naive_random_config(&cfgs[k], &s);
            if (naive_rand(&s) % 2) {           /* the plain copy: no cache, no timeline */
                cfgs[k].num_levels = 0;
                cfgs[k].tau = 0;
            }
            /* several configurations are compiled when they share a cost table */
            if (k && naive_rand(&s) % 4) memcpy(cfgs[k].cost, cfgs[0].cost, sizeof cfgs[k].cost);
        }
        memset(&o, 0, sizeof o);
        o.num_configs = K;
        o.configs = cfgs;
        o.hotspots = round % 5 == 2;
        o.paper_cache = round % 7 >= 4;
        o.forward = naive_random_forward(round, &s);
        o.timeline_max_bins = round % 3 == 1 ? 4 + (uint32_t)(naive_rand(&s) % 12) : 0;
        if (round % 2) {    /* the windowed schedule at one m (a compiled block's own pass) */
            o.window_m = 1 + (uint32_t)(naive_rand(&s) % 8);
            naive_wnm = 1;
            naive_wm[0] = o.window_m;
        }
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        for (i = 0; i < nb; i++) {
            len[i] = 1 + (uint32_t)(naive_rand(&s) % 12);
            for (j = 0; j < len[i]; j++) {
                edan_insn *x = &blk[i][j];
                uint32_t r = (uint32_t)(naive_rand(&s) % 100), q;
                memset(x, 0, sizeof *x);
                x->op = (uint32_t)(naive_rand(&s) % 5);
                if (round % 2) {        /* hotspots per PC, else per op */
                    x->pc = 0x10000 + 64 * i + 4 * j;
                    x->flags = EDAN_INSN_HAS_PC;
                }
                x->nsrc = (uint8_t)(naive_rand(&s) % 4);
                if (odd && r % 16 == 5) x->nsrc = (uint8_t)(5 + r % (EDAN_MAX_SRC - 4));     /* x86-wide */
                for (q = 0; q < x->nsrc; q++) x->src[q] = naive_regs[naive_rand(&s) % 10];
                x->cls = (uint8_t)(naive_rand(&s) % 2 ? EDAN_CLASS_INT_ALU : EDAN_CLASS_FP_FMA);
                if (r < 50) {
                    if (naive_rand(&s) % 8) x->dst[x->ndst++] = naive_regs[naive_rand(&s) % 10];
                    if (odd && r < 3) x->dst[x->ndst++] = naive_regs[naive_rand(&s) % 10];
                    if (odd && r == 0) while (x->ndst < EDAN_MAX_DST) x->dst[x->ndst++] = naive_regs[naive_rand(&s) % 10];
                } else if (r < 95) {
                    x->mem = (uint8_t)(r < 75 ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
                    if (odd && r == 94) x->mem = EDAN_MEM_AMO;
                    x->cls = (uint8_t)(x->mem == EDAN_MEM_LOAD ? EDAN_CLASS_LOAD : EDAN_CLASS_STORE);
                    x->size = x->mem == EDAN_MEM_LOAD ? lsizes[naive_rand(&s) % 6] : 8;
                    if (odd && naive_rand(&s) % 4 == 0) x->size = (uint16_t)(1u << (naive_rand(&s) % 5));
                    if (x->mem == EDAN_MEM_LOAD) x->nsrc = x->nsrc > 2 ? 2 : x->nsrc;
                    if (x->mem != EDAN_MEM_STORE) { x->ndst = 1; x->dst[0] = naive_regs[naive_rand(&s) % 10]; }
                    if (x->mem == EDAN_MEM_STORE && odd && naive_rand(&s) % 8 == 0) x->dst[x->ndst++] = naive_regs[1];
                } else {
                    x->cls = EDAN_CLASS_BRANCH;
                }
                CHECK(edan_prepare(ctx, x, &prep[i][j]) == EDAN_OK);
            }
            CHECK(edan_block_create(ctx, prep[i], len[i], &b[i]) == EDAN_OK);
        }
        naive_mt = mt;
        while (n + 13 <= sizeof tr / sizeof tr[0] && naive_rand(&s) % 300) {
            /* mostly the same block again, as a loop runs */
            int bi = last >= 0 && naive_rand(&s) % 3 ? last : (int)(naive_rand(&s) % nb);
            uint32_t upto;
            if (spawn && !--spawn) {     /* thread 0 starts thread 1, whose live-ins' writers are then its */
                memset(&tr[n], 0, sizeof tr[n]);
                tr[n].flags = NAIVE_SPAWN;
                tr[n].addr = 1;
                naive_thread[n++] = 0;
                CHECK(edan_thread_create(ctx, 0, 1) == EDAN_OK);
                cur = 1;
                CHECK(edan_thread_switch(ctx, cur) == EDAN_OK);
            } else if (mt && !spawn && naive_rand(&s) % 6 == 0) {
                cur ^= 1;
                CHECK(edan_thread_switch(ctx, cur) == EDAN_OK);
            }
            if (gaps && naive_rand(&s) % 12 == 0) {
                naive_random_kill(&tr[n], base, &s);
                CHECK(naive_kill(ctx, &tr[n]) == EDAN_OK);
                naive_thread[n] = cur;
                n++;
                continue;
            }
            upto = naive_rand(&s) % 16 ? len[bi] : 1 + (uint32_t)(naive_rand(&s) % len[bi]);
            for (j = 0; j < upto; j++) {
                edan_insn *x = &tr[n + j];
                *x = blk[bi][j];
                if (x->mem != EDAN_MEM_NONE) {
                    x->addr = base + naive_rand(&s) % 96;
                    if (!odd || naive_rand(&s) % 4) x->addr &= ~(uint64_t)(x->size - 1);
                }
                addrs[j] = x->addr;
                naive_thread[n + j] = cur;
            }
            if (upto == len[bi]) CHECK(edan_feed_block(ctx, b[bi], addrs) == EDAN_OK);
            else CHECK(edan_feed_prepared_n(ctx, prep[bi], addrs, upto, NULL) == EDAN_OK);
            n += upto;
            last = bi;
        }
        for (i = 0; i < nb; i += 2) edan_block_destroy(b[i]);    /* the others: edan_destroy's */
        naive_compare(ctx, tr, n, cfgs, K, o.paper_cache);
        naive_wnm = 0;
        if (o.hotspots) {
            static edan_hotspot h1[64], h2[64];
            edan_context *ref;
            size_t c1, c2, q;
            int l;
            CHECK(edan_create(&ref, &o) == EDAN_OK);
            CHECK(naive_feed(ref, tr, n) == EDAN_OK);
            for (k = 0; k < K; k++) {
                CHECK(edan_get_hotspots(ctx, k, h1, 64, &c1) == EDAN_OK);
                CHECK(edan_get_hotspots(ref, k, h2, 64, &c2) == EDAN_OK);
                CHECK_EQ_U(c1, c2);
                for (q = 0; q < c1 && q < c2; q++) {
                    CHECK_EQ_U(h1[q].key, h2[q].key);
                    CHECK_EQ_U(h1[q].executed, h2[q].executed);
                    CHECK_EQ_U(h1[q].mem_vertices, h2[q].mem_vertices);
                    CHECK_EQ_U(h1[q].chained, h2[q].chained);
                    CHECK_EQ_U(h1[q].max_md, h2[q].max_md);
                    for (l = 0; l < EDAN_MAX_LEVELS; l++) CHECK_EQ_U(h1[q].served[l], h2[q].served[l]);
                }
            }
            edan_destroy(ref);
        }
        naive_mt = 0;
        edan_destroy(ctx);
        naive_fwd_S = EDAN_FORWARD_DEFAULT;
        if (check_failures != before) {
            fprintf(stderr, "block round %d (seed %llu) failed: %zu instructions, %u blocks, %u configs%s%s%s%s\n", round,
                    (unsigned long long)seed, n, nb, K, odd ? ", odd accesses" : "", gaps ? ", scope gaps" : "",
                    o.paper_cache ? ", the paper's cache rule" : "", mt ? ", two threads" : "");
            break;
        }
    }
}
/* Long blocks (up to the binary trace's 1024 instructions): many terms per
   value, many steps and locals; each executed a few times, against the
   whole-graph model. */
static void test_long_blocks(int rounds, uint64_t seed)
{
    static edan_insn blk[1024], tr[4096];
    static edan_prepared prep[1024];
    static uint64_t addrs[1024];
    uint64_t s = seed;
    int round;
    for (round = 0; round < rounds; round++) {
        edan_config cfg;
        edan_options o;
        edan_context *ctx;
        edan_block *b;
        uint32_t len = 1 + (uint32_t)(naive_rand(&s) % 1024), runs = 1 + (uint32_t)(naive_rand(&s) % 4), i, j, q;
        size_t n = 0;
        int before = check_failures;
        naive_random_config(&cfg, &s);
        if (round % 2) { cfg.num_levels = 0; cfg.tau = 0; }
        memset(&o, 0, sizeof o);
        o.num_configs = 1;
        o.configs = &cfg;
        o.paper_cache = round % 4 == 2;
        o.forward = naive_random_forward(round, &s);
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        for (j = 0; j < len; j++) {
            edan_insn *x = &blk[j];
            uint32_t r = (uint32_t)(naive_rand(&s) % 100);
            memset(x, 0, sizeof *x);
            x->nsrc = (uint8_t)(naive_rand(&s) % 4);
            for (q = 0; q < x->nsrc; q++) x->src[q] = naive_regs[naive_rand(&s) % 10];
            x->cls = (uint8_t)(naive_rand(&s) % 2 ? EDAN_CLASS_INT_ALU : EDAN_CLASS_FP_FMA);
            if (r < 70) {
                x->ndst = 1;
                x->dst[0] = naive_regs[naive_rand(&s) % 10];
            } else {
                x->mem = (uint8_t)(r < 90 ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
                x->cls = (uint8_t)(x->mem == EDAN_MEM_LOAD ? EDAN_CLASS_LOAD : EDAN_CLASS_STORE);
                x->size = 8;
                if (x->mem == EDAN_MEM_LOAD) { x->nsrc = x->nsrc > 1; x->ndst = 1; x->dst[0] = naive_regs[naive_rand(&s) % 10]; }
            }
            CHECK(edan_prepare(ctx, x, &prep[j]) == EDAN_OK);
        }
        CHECK(edan_block_create(ctx, prep, len, &b) == EDAN_OK);
        for (i = 0; i < runs && n + len + 1 <= sizeof tr / sizeof tr[0]; i++) {
            if (i && round % 3 == 0) {      /* a scope gap between two executions */
                naive_random_kill(&tr[n], 0x2000, &s);
                CHECK(naive_kill(ctx, &tr[n]) == EDAN_OK);
                n++;
            }
            for (j = 0; j < len; j++) {
                tr[n + j] = blk[j];
                if (blk[j].mem != EDAN_MEM_NONE) tr[n + j].addr = 0x2000 + 8 * (naive_rand(&s) % 64);
                addrs[j] = tr[n + j].addr;
            }
            CHECK(edan_feed_block(ctx, b, addrs) == EDAN_OK);
            n += len;
        }
        naive_compare(ctx, tr, n, &cfg, 1, o.paper_cache);
        edan_destroy(ctx);
        naive_fwd_S = EDAN_FORWARD_DEFAULT;
        if (check_failures != before) {
            fprintf(stderr, "long block round %d (seed %llu) failed: %u instructions, %u runs\n", round,
                    (unsigned long long)seed, len, runs);
            break;
        }
    }
}

/* Shadow memory's shapes of pages: the words a trace writes in a page, in
   every shape the engine keeps them in (a small table that grows, slot by
   slot, to the largest; a chunk, reached by the count or by an array
   written word by word; many pages of a few words each), through every way
   of feeding (edan_feed with one configuration and the general copy with
   two and hotspots, prepared instructions, compiled blocks, instructions
   with several accesses, two threads), with words written in parts, across
   two words, AMOs, and scope gaps of a few bytes or of hundreds of pages;
   every metric against the whole-graph model. */
static uint64_t naive_page_addr(uint32_t shape, uint64_t base, uint64_t *k, int store, uint64_t *s)
{
    switch (shape) {
    case 0:     /* an array written word by word (three pages), read behind */
        if (store) return base + 8 * ((*k)++ % 1536);
        return base + 8 * (naive_rand(s) % (*k < 1536 ? *k + 1 : 1536));
    case 1:     /* 300 words of one page in a random order: the table grows to its largest, then a chunk */
        return base + 8 * (naive_rand(s) % 300);
    case 2:     /* a few words in each of 64 pages */
        return base + 4096 * (naive_rand(s) % 64) + 8 * (naive_rand(s) % 3);
    default:    /* one word in four, over two pages */
        return base + 32 * (naive_rand(s) % 256);
    }
}

static void naive_page_insn(edan_insn *x, uint32_t shape, uint64_t base, uint64_t *k, uint64_t *s)
{
    static const uint16_t part[] = {1, 2, 4};
    uint32_t r = (uint32_t)(naive_rand(s) % 100), j;
    memset(x, 0, sizeof *x);
    if (r < 3) {        /* a scope gap: a few bytes, or hundreds of pages */
        x->flags = NAIVE_KILL;
        x->mem = EDAN_MEM_STORE;
        x->addr = naive_page_addr(shape, base, k, 0, s) + naive_rand(s) % 8;
        x->size = (uint16_t)(1 + naive_rand(s) % 24);
        if (naive_rand(s) % 4 == 0) {
            x->addr = base - 4096 * (naive_rand(s) % 4);
            x->pc = 4096 * (1 + naive_rand(s) % 400);
        }
        if (naive_rand(s) % 2) x->dst[x->ndst++] = naive_regs[naive_rand(s) % 10];
        return;
    }
    x->nsrc = (uint8_t)(naive_rand(s) % 3);
    for (j = 0; j < x->nsrc; j++) x->src[j] = naive_regs[naive_rand(s) % 10];
    x->cls = EDAN_CLASS_INT_ALU;
    if (r < 33) {
        x->dst[x->ndst++] = naive_regs[naive_rand(s) % 10];
        return;
    }
    x->mem = (uint8_t)(r < 60 ? EDAN_MEM_LOAD : r < 97 ? EDAN_MEM_STORE : EDAN_MEM_AMO);
    x->cls = (uint8_t)(x->mem == EDAN_MEM_LOAD ? EDAN_CLASS_LOAD : x->mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE : EDAN_CLASS_AMO);
    x->addr = naive_page_addr(shape, base, k, x->mem != EDAN_MEM_LOAD, s);
    x->size = 8;
    if (naive_rand(s) % 8 == 0) {
        if (naive_rand(s) % 2) {        /* part of a word */
            x->size = part[naive_rand(s) % 3];
            x->addr += (naive_rand(s) % (8u / x->size)) * x->size;
        } else {                        /* across two words */
            x->addr += 1 + naive_rand(s) % 7;
        }
    }
    if (x->mem != EDAN_MEM_STORE) x->dst[x->ndst++] = naive_regs[naive_rand(s) % 10];
}

static void test_page_shapes(int rounds, uint64_t seed)
{
    static edan_insn tr[2400], blk[8];
    static edan_prepared prep[8];
    static uint64_t addrs[8];
    uint64_t s = seed;
    int round;
    for (round = 0; round < rounds; round++) {
        const uint32_t shape = (uint32_t)round % 4, path = (uint32_t)(round / 4) % 6;
        uint64_t base = 0x40000 + (shape == 0 ? 8 * (naive_rand(&s) % 512) : 0), k = 0;
        edan_config cfgs[2];
        edan_options o;
        edan_context *ctx;
        uint32_t K = path == 1 ? 2 : 1, c, j;
        size_t n = 0, i, nm = 0;
        int before = check_failures;
        for (c = 0; c < K; c++) naive_random_config(&cfgs[c], &s);
        memset(&o, 0, sizeof o);
        o.num_configs = K;
        o.configs = cfgs;
        o.hotspots = path == 1;
        o.paper_cache = round % 3 == 2;
        o.forward = naive_random_forward(round, &s);
        CHECK(edan_create(&ctx, &o) == EDAN_OK);
        if (path == 3) {        /* one block, executed again and again */
            for (j = 0; j < 8; j++) {
                edan_insn *x = &blk[j];
                uint32_t r = (uint32_t)(naive_rand(&s) % 100);
                memset(x, 0, sizeof *x);
                x->nsrc = (uint8_t)(naive_rand(&s) % 3);
                for (c = 0; c < x->nsrc; c++) x->src[c] = naive_regs[naive_rand(&s) % 10];
                x->cls = EDAN_CLASS_INT_ALU;
                if (r < 70 && j) {
                    x->mem = (uint8_t)(r < 30 ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
                    x->cls = (uint8_t)(r < 30 ? EDAN_CLASS_LOAD : EDAN_CLASS_STORE);
                    x->size = 8;
                }
                if (x->mem != EDAN_MEM_STORE) x->dst[x->ndst++] = naive_regs[naive_rand(&s) % 10];
                CHECK(edan_prepare(ctx, x, &prep[j]) == EDAN_OK);
            }
            {
                edan_block *b;
                CHECK(edan_block_create(ctx, prep, 8, &b) == EDAN_OK);
                while (n + 9 <= sizeof tr / sizeof tr[0]) {
                    if (naive_rand(&s) % 16 == 0) {
                        naive_page_insn(&tr[n], shape, base, &k, &s);
                        if (tr[n].flags & NAIVE_KILL) {
                            CHECK(naive_kill(ctx, &tr[n]) == EDAN_OK);
                            n++;
                        }
                        continue;
                    }
                    for (j = 0; j < 8; j++) {
                        tr[n + j] = blk[j];
                        if (blk[j].mem != EDAN_MEM_NONE)
                            tr[n + j].addr = naive_page_addr(shape, base, &k, blk[j].mem == EDAN_MEM_STORE, &s);
                        addrs[j] = tr[n + j].addr;
                    }
                    CHECK(edan_feed_block(ctx, b, addrs) == EDAN_OK);
                    n += 8;
                }
            }
        } else {
            n = 1500 + naive_rand(&s) % 900;
            for (i = 0; i < n; i++) naive_page_insn(&tr[i], shape, base, &k, &s);
            if (path == 4)      /* a fifth with 1 to 4 accesses */
                for (i = 0; i < n && nm < 1024; i++) {
                    naive_accesses *m = &naive_multi[nm];
                    if ((tr[i].flags & NAIVE_KILL) || naive_rand(&s) % 5) continue;
                    m->n = 1 + (uint32_t)(naive_rand(&s) % 4);
                    for (j = 0; j < m->n; j++) {
                        m->acc[j].kind = (uint8_t)(naive_rand(&s) % 2 ? EDAN_MEM_LOAD : EDAN_MEM_STORE);
                        m->acc[j].size = naive_rand(&s) % 4 ? 8 : 1 + (uint32_t)(naive_rand(&s) % 16);
                        m->acc[j].addr = naive_page_addr(shape, base, &k, m->acc[j].kind == EDAN_MEM_STORE, &s);
                    }
                    tr[i].flags |= NAIVE_MULTI;
                    tr[i].addr = nm++;
                    tr[i].mem = EDAN_MEM_NONE;
                    tr[i].size = 0;
                }
            if (path == 5) {    /* two threads, taking turns in runs */
                memmove(tr + 1, tr, (n < sizeof tr / sizeof tr[0] ? n : n - 1) * sizeof tr[0]);
                n += n < sizeof tr / sizeof tr[0];
                memset(&tr[0], 0, sizeof tr[0]);
                tr[0].flags = NAIVE_SPAWN;
                tr[0].addr = 1;
                for (i = 0; i < n; i++) naive_thread[i] = i && (i / 37) % 2;
                naive_mt = 1;
            }
            if (path == 2) {
                edan_prepared p;
                for (i = 0; i < n; i++)
                    if (tr[i].flags & NAIVE_KILL) CHECK(naive_kill(ctx, &tr[i]) == EDAN_OK);
                    else CHECK(edan_prepare(ctx, &tr[i], &p) == EDAN_OK && edan_feed_prepared_n(ctx, &p, &tr[i].addr, 1, NULL) == EDAN_OK);
            } else {
                CHECK(naive_feed(ctx, tr, n) == EDAN_OK);
            }
        }
        naive_compare(ctx, tr, n, cfgs, K, o.paper_cache);
        naive_mt = 0;
        edan_destroy(ctx);
        naive_fwd_S = EDAN_FORWARD_DEFAULT;
        if (check_failures != before) {
            fprintf(stderr, "page shapes round %d (seed %llu) failed: shape %u, path %u, %zu entries\n", round,
                    (unsigned long long)seed, shape, path, n);
            break;
        }
    }
}

#endif
