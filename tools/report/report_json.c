/* tools/report/report_json.c - the JSON report of an analysis (edan analyze
   --json, edan trace --json): the trace, each configuration's verdict,
   metrics, bounds and hotspots, the threads and the named regions. */
#include <string.h>
#include "report.h"
#include "../common/jsonw.h"

/* Through tools/common/jsonw.h: rows of a few members each, small records inline;
   reals round-trip (%.17g), beyond 1e300 null. */

static void cli_json_sampled(jw *w, const cli_sampled *s, uint32_t m)
{
    static const char *const names[3] = {"W", "bytes", "lambda"};
    cli_estimate e[3];
    uint64_t i, n = s->windows < CLI_SAMPLE_LISTED ? s->windows : CLI_SAMPLE_LISTED;
    int k;
    cli_sample_estimates(s, m, e);
    jw_row(w);
    jw_obj_as(w, "sampled", JW_ROWS);
    jw_row(w);
    jw_uint(w, "period", s->period);
    jw_uint(w, "length", s->length);
    jw_uint(w, "skip", s->skip);
    jw_uint(w, "windows", s->windows);
    jw_row(w);
    jw_uint(w, "instructions", s->insns);
    jw_uint(w, "analysed", (uint64_t)s->sum[CLI_WIN_INSNS]);
    jw_uint(w, "m", m);
    jw_uint(w, "config", 0);
    jw_num(w, "confidence", 0.95);
    for (k = 0; k < 3 && s->period; k++) {     /* --skip alone: nothing to estimate */
        jw_row(w);
        jw_obj_as(w, names[k], JW_INLINE);
        jw_num(w, "estimate", e[k].value);
        if (e[k].interval) {
            jw_num(w, "low", e[k].low);
            jw_num(w, "high", e[k].high);
        } else {
            jw_null(w, "low");
            jw_null(w, "high");
        }
        jw_end_obj(w);
    }
    jw_row(w);
    jw_uint(w, "D_lower_bound", s->D_max);
    jw_bool(w, "window_D_lower_bound", s->D_lower);
    jw_row(w);
    jw_arr_as(w, "listed", JW_ROWS);
    for (i = 0; i < n; i++) {
        const cli_window *x = &s->listed[i];
        jw_row(w);
        jw_obj_as(w, NULL, JW_INLINE);
        jw_uint(w, "start", x->start);
        jw_uint(w, "instructions", x->insns);
        jw_uint(w, "W", x->W);
        jw_uint(w, "D", x->D);
        jw_bool(w, "D_lower_bound", x->D_lower);
        jw_num(w, "lambda", cli_window_lambda(x, m));
        jw_uint(w, "bytes", x->bytes);
        jw_uint(w, "T1", x->T1);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_end_obj(w);
}

/* What edan trace met: the address randomisation, the signal handlers,
   the non-local exits, what the scope's names found. */
/* A row of a list of functions, open for the caller's members: the
   scope's option and name (s; NULL: none), the function, its file. */
static void cli_json_function(jw *w, const cli_scoped *s, const char *function, const char *object, int shared)
{
    jw_row(w);
    jw_obj_as(w, NULL, JW_INLINE);
    if (s) {
        jw_str(w, "option", s->option);
        jw_str(w, "name", s->name);
    }
    jw_str(w, "function", function);
    jw_str(w, "object", object);
    jw_bool(w, "shared", shared);
}

static void cli_json_tracer(jw *w, const cli_tracer *t)
{
    size_t i;
    jw_row(w);
    jw_obj_as(w, "tracer", JW_ROWS);
    jw_row(w);
    jw_bool(w, "aslr", t->aslr);
    jw_row(w);
    jw_obj_as(w, "signals", JW_INLINE);
    jw_uint(w, "handled", t->signals);
    jw_uint(w, "at_faults", t->signals_cut);
    jw_uint(w, "returns_unseen", t->sigreturns_unseen);
    jw_uint(w, "left", t->signals_left);
    jw_end_obj(w);
    jw_row(w);
    jw_obj_as(w, "nonlocal_exits", JW_INLINE);
    jw_uint(w, "followed", t->nonlocal);
    jw_uint(w, "unplaced", t->unplaced);
    jw_uint(w, "unplaced_in_scope", t->unplaced_in_scope);
    if (t->unplaced) {
        char at[24];
        snprintf(at, sizeof at, "0x%llx", (unsigned long long)t->unplaced_from);
        jw_str(w, "first_from", at);
        snprintf(at, sizeof at, "0x%llx", (unsigned long long)t->unplaced_to);
        jw_str(w, "first_to", at);
    }
    jw_end_obj(w);
    jw_row(w);
    jw_arr_as(w, "scope", JW_ROWS);
    for (i = 0; i < t->nscoped; i++) {
        cli_json_function(w, &t->scoped[i], t->scoped[i].function, t->scoped[i].object, t->scoped[i].shared);
        jw_bool(w, "ifunc", t->scoped[i].ifunc);
        jw_str(w, "short_of", t->scoped[i].short_of);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    if (t->func_scope) {    /* what its calls ran outside it: {"instructions": N, "functions": [rows]} */
        jw_row(w);
        jw_obj_as(w, "called_out", JW_INLINE);
        jw_uint(w, "instructions", t->called_out);
        jw_arr_as(w, "functions", JW_ROWS);
        for (i = 0; i < t->ncallees; i++) {
            cli_json_function(w, NULL, t->callees[i].function, t->callees[i].object, t->callees[i].shared);
            jw_uint(w, "instructions", t->callees[i].insns);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_end_obj(w);
    }
    jw_end_obj(w);
}

/* The trace: its source, ISA, program, whether it is partial, the job's
   rank and the profile the configurations came from. */
static void cli_json_header(jw *w, const cli_analysis *a, const char *source)
{
    char crc[16];
    jw_row(w);
    jw_str(w, "source", source);
    jw_row(w);
    if (a->run.isa == EDAN_ISA_X86_64) {
        jw_str(w, "isa", "x86-64");
        jw_str(w, "vertices", "micro-operations");
        jw_uint(w, "machine_instructions", a->run.machine_insns);
    } else {
        jw_str(w, "isa", "riscv64");
        jw_str(w, "vertices", "instructions");
    }
    if (a->cmd.elf_path && a->cmd.top) {    /* the program whose symbols and lines name the hotspots */
        jw_row(w);
        jw_str(w, "elf", a->cmd.elf_path);
    }
    jw_row(w);
    jw_bool(w, "partial", a->run.partial != NULL);
    if (a->run.job) {
        jw_row(w);
        jw_obj_as(w, "job", JW_INLINE);
        jw_int(w, "rank", a->run.job->rank);
        jw_int(w, "size", a->run.job->size);
        jw_str(w, "host", a->run.job->host);
        jw_str(w, "launcher", a->run.job->var ? a->run.job->var : "");
        jw_str(w, "command", a->run.job->command ? a->run.job->command : "");
        jw_end_obj(w);
    }
    if (a->run.partial) jw_str(w, "partial_reason", a->run.partial);
    if (a->run.tracer) cli_json_tracer(w, a->run.tracer);
    if (a->run.sampled) cli_json_sampled(w, a->run.sampled, cli_verdict_m(a));
    if (a->cmd.profile_path) {
        jw_row(w);
        jw_str(w, "profile", a->cmd.profile_path);
        jw_uint(w, "profile_m", a->prof.m);
        jw_bool(w, "profile_default", a->prof.own);
        if (a->prof.cache_note[0]) jw_str(w, "profile_caches", a->prof.cache_note);
        snprintf(crc, sizeof crc, "%08lx", a->prof.crc);
        jw_str(w, "profile_crc32", crc);
    }
}

static void cli_json_verdict(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    static const char *const names[] = {"W_over_m", "lambda", "chain_share", "latency_bound_from", "mixed_from",
                                        "compute_bound_below", "ram_share", "added_ns", "added_seconds_min", "added_seconds_max", "slowdown_min",
                                        "slowdown_max"};
    cli_verdict v;
    cli_verdict_make(ctx, a, k, &v);
    {
        const double vals[] = {v.w_over_m, v.lambda, v.chain_share, CLI_VERDICT_LATENCY_BOUND, CLI_VERDICT_MIXED,
                               CLI_VERDICT_COMPUTE_BOUND, v.ram_share, CLI_VERDICT_NS, v.add_min_s, v.add_max_s, v.slowdown_min, v.slowdown_max};
        jw_row(w);
        jw_obj_as(w, "verdict", JW_INLINE);
        jw_str(w, "text", v.text);
        jw_str(w, "class", v.cls);
        jw_str(w, "from", v.windowed ? "window" : "bounds");
        jw_uint(w, "m", v.m);
        jw_uint(w, "W", v.W);
        jw_uint(w, "D", v.D);
        jw_nums(w, names, vals, sizeof vals / sizeof vals[0]);
        if (v.windowed) {
            jw_row(w);
            jw_uint(w, "T_window", v.T_window);
            jw_uint(w, "lambda_window", v.lambda_window);
            jw_num(w, "window_share", v.window_share);
            jw_num(w, "added_seconds_window", v.add_window_s);
        }
        jw_end_obj(w);
    }
}

/* The configuration itself: caches, write policy, RAM latency, clock, costs. */
static void cli_json_config(jw *w, const edan_config *c)
{
    uint32_t l, j;
    jw_row(w);
    jw_arr_as(w, "cache", JW_INLINE);
    for (l = 0; l < c->num_levels; l++) {
        jw_obj_as(w, NULL, JW_INLINE);
        jw_uint(w, "level", l + 1);
        jw_uint(w, "size", c->level[l].size);
        jw_uint(w, "assoc", c->level[l].assoc);
        jw_uint(w, "line", c->level[l].line);
        jw_uint(w, "latency", c->level[l].latency);
        jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_row(w);
    jw_str(w, "write_policy", c->write_policy == EDAN_WRITE_THROUGH ? "wt" : "wb");
    jw_uint(w, "alpha", c->alpha);
    jw_num(w, "alpha0", c->alpha0);
    jw_num(w, "freq_ghz", c->freq_ghz);
    jw_row(w);
    jw_obj_as(w, "costs", JW_INLINE);
    for (j = 0; j < EDAN_CLASS_COUNT; j++) jw_uint(w, edan_class_name((edan_class)j), c->cost[j]);
    jw_end_obj(w);
}

/* The layer histogram, a size that does not grow with D: at most
   CLI_LAYER_BINS bins of `width` layers, each's first layer, layers, sum
   of W_i and largest W_i (width 1 up to D = CLI_LAYER_BINS: every W_i);
   the whole in --layers FILE. */
static void cli_json_layers(jw *w, edan_context *ctx, uint32_t k, const edan_metrics *mt)
{
    static edan_layer_bin bins[CLI_LAYER_BINS];
    size_t n = 0, i;
    uint64_t width = 1;
    (void)mt;
    if (edan_get_layer_summary(ctx, k, bins, CLI_LAYER_BINS, &n, &width) != EDAN_OK) n = 0;
    jw_row(w);
    jw_obj_as(w, "layers", JW_INLINE);
    jw_uint(w, "width", width);
    jw_uint(w, "bins", n);
    {
        static const char *const names[] = {"first", "count", "sum", "max"};
        size_t f;
        for (f = 0; f < 4; f++) {
            jw_arr_as(w, names[f], JW_INLINE);
            for (i = 0; i < n; i++)
                jw_uint(w, NULL, f == 0 ? bins[i].first : f == 1 ? bins[i].count : f == 2 ? bins[i].sum : bins[i].max);
            jw_end_arr(w);
        }
    }
    jw_end_obj(w);
}

/* The eDAG's counts: size, W, D, C, T1, Tinf, bytes, accesses, each
   level's hits and the layers' summary. */
static void cli_json_metrics(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k, const edan_metrics *mt)
{
    static const char *const size_names[] = {"instructions", "edges", "fill_edges", "W", "D", "C"};
    static const char *const access_names[] = {"loads", "stores", "amos", "chained", "forwarded"};
    static const char *const byte_names[] = {"flops", "load_bytes", "store_bytes"};
    uint64_t fl = cli_flops(ctx, a), req = mt->load_bytes + mt->store_bytes;
    const uint64_t sizes[] = {mt->N, mt->E, mt->fill_edges, mt->W, mt->D, mt->C};
    const uint64_t accesses[] = {mt->loads, mt->stores, mt->amos, mt->chained, mt->forwarded};
    const uint64_t bytes[] = {fl, mt->load_bytes, mt->store_bytes};
    uint32_t l;
    jw_row(w);
    jw_uints(w, size_names, sizes, sizeof sizes / sizeof sizes[0]);
    jw_row(w);
    jw_uint(w, "T1", mt->T1);
    jw_uint(w, "Tinf", mt->Tinf);
    jw_num(w, "parallelism", mt->parallelism);
    jw_row(w);
    jw_uint(w, "bytes", mt->bytes);
    jw_num(w, "B_bytes_per_cycle", mt->B_bytes_per_cycle);
    jw_num(w, "B_GBps", mt->B_GBps);
    jw_row(w);
    jw_uints(w, access_names, accesses, sizeof accesses / sizeof accesses[0]);
    jw_row(w);
    jw_uints(w, byte_names, bytes, sizeof bytes / sizeof bytes[0]);
    jw_num(w, "arithmetic_intensity", req ? (double)fl / (double)req : 0.0);
    jw_uint(w, "ram_lines", mt->ram_lines);
    jw_uint(w, "writebacks", mt->writebacks);
    jw_arr_as(w, "level_hits", JW_INLINE);
    for (l = 0; l < edan_get_config(ctx, k)->num_levels; l++) jw_uint(w, NULL, mt->level_hits[l]);
    jw_end_arr(w);
    cli_json_layers(w, ctx, k, mt);
}

/* The bounds for each m. */
static void cli_json_bounds(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    static const char *const names[] = {"lambda", "Lambda", "M_lower", "M_layered", "M_upper",
                                        "T_lower", "T_layered", "T_upper"};
    char m[16];
    uint32_t j;
    jw_row(w);
    jw_obj_as(w, "m", JW_ROWS);
    for (j = 0; j < cli_num_m(a); j++) {
        edan_bounds b;
        edan_get_bounds(ctx, k, cli_m_at(a, j), &b);
        {
            const double vals[] = {b.lambda, b.Lambda, b.M_lower, b.M_layered, b.M_upper,
                                   b.T_lower, b.T_layered, b.T_upper};
            edan_window wd;
            snprintf(m, sizeof m, "%u", cli_m_at(a, j));
            jw_row(w);
            jw_obj_as(w, m, JW_INLINE);
            jw_nums(w, names, vals, sizeof vals / sizeof vals[0]);
            if (cli_window_at(ctx, a, k, cli_m_at(a, j), &wd)) {
                jw_uint(w, "T_window", wd.T);
                jw_uint(w, "lambda_window", wd.lambda);
            }
            jw_end_obj(w);
        }
    }
    jw_end_obj(w);
}

/* --alpha-add: the time bounds with RAM that many nanoseconds farther. */
static void cli_json_what_if(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    const edan_config *c = edan_get_config(ctx, k);
    double far = cli_far_alpha(c, a->cmd.alpha_add_ns);
    char m[16];
    uint32_t j;
    jw_row(w);
    jw_obj_as(w, "what_if", JW_INLINE);
    jw_num(w, "alpha_add_ns", a->cmd.alpha_add_ns);
    jw_uint(w, "alpha_cycles", c->alpha);
    jw_num(w, "alpha_far_cycles", far);
    jw_obj_as(w, "m", JW_ROWS);
    for (j = 0; j < cli_num_m(a); j++) {
        edan_bounds nb, fb;
        edan_get_bounds(ctx, k, cli_m_at(a, j), &nb);
        edan_get_bounds_at(ctx, k, cli_m_at(a, j), far, &fb);
        snprintf(m, sizeof m, "%u", cli_m_at(a, j));
        jw_row(w);
        jw_obj_as(w, m, JW_INLINE);
        jw_num(w, "T_lower", fb.T_lower);
        jw_num(w, "T_layered", fb.T_layered);
        jw_num(w, "T_upper", fb.T_upper);
        jw_num(w, "delta_T_upper", fb.T_upper - nb.T_upper);
        jw_num(w, "slowdown_upper", nb.T_upper > 0 ? fb.T_upper / nb.T_upper : 1.0);
        {   /* the window's time along today's critical path at the far latency: at least this */
            edan_window wd;
            if (cli_window_at(ctx, a, k, cli_m_at(a, j), &wd)) {
                const double tw = (double)wd.c + (double)wd.lambda * far;
                jw_num(w, "T_window_lower", tw);
                jw_num(w, "delta_T_window", tw - (double)wd.T);
                jw_num(w, "slowdown_window", wd.T ? tw / (double)wd.T : 1.0);
            }
        }
        jw_end_obj(w);
    }
    jw_end_obj(w);
    jw_end_obj(w);
}

static void cli_json_timeline(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k)
{
    const edan_config *c = edan_get_config(ctx, k);
    const uint64_t *bins;
    size_t nb, b;
    if (!c->tau || edan_get_timeline(ctx, k, &bins, &nb) != EDAN_OK) return;
    jw_row(w);
    jw_obj_as(w, "timeline", JW_INLINE);
    jw_uint(w, "tau", c->tau);
    if (c->tau != a->configs[k].tau)    /* doubled: the bins were bounded */
        jw_uint(w, "tau_requested", a->configs[k].tau);
    jw_arr_as(w, "bins", JW_INLINE);
    for (b = 0; b < nb; b++) jw_uint(w, NULL, bins[b]);
    jw_end_arr(w);
    jw_end_obj(w);
}

/* A hotspot: where it is (addresses, object, function, line), what it is
   and its counts. */
static void cli_json_hotspot(jw *w, const cli_analysis *a, cli_where *where, const cli_hot *t, size_t q,
                             uint32_t levels)
{
    const edan_hotspot *h = &t->h[q];
    char text[160];
    uint32_t l;
    jw_row(w);
    jw_obj_as(w, NULL, JW_INLINE);
    if (h->has_pc) {        /* address: in the program's (or its object's) file; pc: where it ran */
        snprintf(text, sizeof text, "0x%llx", (unsigned long long)cli_file_address(a, h->key));
        jw_str(w, "address", text);
        snprintf(text, sizeof text, "0x%llx", (unsigned long long)h->key);
        jw_str(w, "pc", text);
    }
    if (h->has_pc && cli_where_any(where)) {
        const char *fn, *sym, *file, *object;
        int line;
        cli_where_at(where, h->key, &fn, &sym, &file, &line, &object);
        if (object) jw_str(w, "object", object);
        if (fn) jw_str(w, "function", fn);
        if (fn && strcmp(fn, sym)) jw_str(w, "symbol", sym);
        if (file) {
            jw_str(w, "file", file);
            jw_int(w, "line", line);
        }
    }
    jw_str(w, "op", cli_op_name(a, h->op));
    if (a->run.isa == EDAN_ISA_X86_64 && h->has_pc) {
        edan_insn in;
        memset(&in, 0, sizeof in);
        in.pc = h->key;
        in.op = h->op;
        in.flags = EDAN_INSN_HAS_PC;
        cli_insn_text(a, &in, 0, text, sizeof text);
        jw_str(w, "instruction", text);
    }
    jw_uint(w, "executed", h->executed);
    jw_uint(w, "mem_vertices", h->mem_vertices);
    jw_uint(w, "chained", h->chained);
    jw_uint(w, "max_md", h->max_md);
    if (levels) {       /* the accesses each cache level served, L1 first (those of RAM: mem_vertices) */
        jw_arr_as(w, "served", JW_INLINE);
        for (l = 0; l < levels; l++) jw_uint(w, NULL, h->served[l]);
        jw_end_arr(w);
    }
    if (t->chain) jw_uint(w, "chain", t->chain[q]);
    jw_end_obj(w);
}

/* --top's hotspots, and with --chain whether the critical chain was found;
   0, or -1 (a message printed) when out of memory. */
static int cli_json_hotspots(jw *w, edan_context *ctx, const cli_analysis *a, uint32_t k, const edan_metrics *mt)
{
    cli_hot t;
    cli_where where;
    size_t q;
    if (cli_hot_get(ctx, a, k, &t)) return -1;
    cli_where_open(&where, a);
    if (a->cmd.chain) {
        jw_row(w);
        jw_obj_as(w, "critical_chain", JW_INLINE);
        jw_bool(w, "found", t.chain != NULL);
        if (t.chain) jw_uint(w, "length", mt->D);
        else jw_str(w, "why", t.why);
        jw_end_obj(w);
    }
    jw_row(w);
    jw_arr_as(w, "hotspots", JW_ROWS);
    for (q = 0; q < t.n; q++) cli_json_hotspot(w, a, &where, &t, q, edan_get_config(ctx, k)->num_levels);
    jw_end_arr(w);
    cli_where_close(&where);
    cli_hot_free(&t);
    return 0;
}

/* Each thread's share of a trace of several, per configuration. */
static void cli_json_threads(jw *w, edan_context *ctx)
{
    uint32_t t, k, K = edan_num_configs(ctx);
    if (edan_num_threads(ctx) < 2) return;
    jw_row(w);
    jw_arr_as(w, "threads", JW_ROWS);
    for (t = 0; t < edan_num_threads(ctx); t++) {
        edan_thread_metrics tm;
        if (edan_get_thread_metrics(ctx, 0, t, &tm) != EDAN_OK) continue;    /* an id never used */
        jw_row(w);
        jw_obj_as(w, NULL, JW_INLINE);
        jw_uint(w, "thread", t);
        jw_bool(w, "live", tm.live);
        jw_uint(w, "instructions", tm.N);
        jw_uint(w, "cross_edges", tm.cross_edges);
        jw_arr_as(w, "configs", JW_INLINE);
        for (k = 0; k < K; k++) {
            edan_get_thread_metrics(ctx, k, t, &tm);
            jw_obj_as(w, NULL, JW_INLINE);
            jw_uint(w, "W", tm.W);
            jw_uint(w, "D", tm.D);
            jw_uint(w, "C", tm.C);
            jw_uint(w, "chained", tm.chained);
            jw_end_obj(w);
        }
        jw_end_arr(w);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

/* The "configs" list: each configuration's metrics. 0, or -1 (a message
   printed) when out of memory. */
static int cli_json_configs(jw *w, edan_context *ctx, const cli_analysis *a)
{
    uint32_t k, K = edan_num_configs(ctx);
    char label[128];
    jw_row(w);
    jw_arr_as(w, "configs", JW_ROWS);
    for (k = 0; k < K; k++) {
        const edan_config *c = edan_get_config(ctx, k);
        edan_metrics mt;
        edan_get_metrics(ctx, k, &mt);
        cli_config_label(c, label, sizeof label);
        jw_row(w);
        jw_obj_as(w, NULL, JW_ROWS);
        jw_row(w);
        jw_str(w, "name", label);
        jw_row(w);
        jw_str(w, "provenance", a->prof.provenance[k]);
        cli_json_verdict(w, ctx, a, k);
        cli_json_config(w, c);
        jw_row(w);
        jw_obj_as(w, "window", JW_INLINE);
        if (c->window != EDAN_WINDOW_OFF) {
            jw_uint(w, "rob", c->window);
            jw_uint(w, "lq", c->lq);
            jw_uint(w, "sq", c->sq);
            jw_uint(w, "width", c->width);
            jw_uint(w, "m", a->opts.window_m);     /* 0: every m */
        }
        jw_str(w, "source", cli_window_source(a, k));
        jw_end_obj(w);
        cli_json_metrics(w, ctx, a, k, &mt);
        cli_json_bounds(w, ctx, a, k);
        if (a->cmd.alpha_add_ns > 0) cli_json_what_if(w, ctx, a, k);
        cli_json_timeline(w, ctx, a, k);
        if (a->cmd.top && cli_json_hotspots(w, ctx, a, k, &mt)) return -1;
        jw_end_obj(w);
    }
    jw_end_arr(w);
    return 0;
}

/* The "regions" list: each named region's name, entries and configurations. */
static void cli_json_regions(jw *w, const cli_analysis *a)
{
    size_t i;
    if (!a->run.nregions) return;
    jw_row(w);
    jw_arr_as(w, "regions", JW_ROWS);
    for (i = 0; i < a->run.nregions; i++) {
        const cli_region *r = &a->run.regions[i];
        cli_analysis ra = cli_region_analysis(a, r);
        jw_row(w);
        jw_obj_as(w, NULL, JW_ROWS);
        jw_row(w);
        jw_str(w, "name", r->name);
        jw_uint(w, "entries", r->entries);
        if (a->run.isa == EDAN_ISA_X86_64) jw_uint(w, "machine_instructions", r->machine_insns);
        jw_bool(w, "open_at_end", r->open_at_end);
        (void)cli_json_configs(w, r->ctx, &ra);
        jw_end_obj(w);
    }
    jw_end_arr(w);
}

int cli_report_json(edan_context *ctx, const cli_analysis *a, const char *source, FILE *o)
{
    jw w;
    jw_init(&w, o);
    w.real_digits = 17;
    w.real_max = 1e300;
    jw_obj_as(&w, NULL, JW_ROWS);
    cli_json_header(&w, a, source);
    if (cli_json_configs(&w, ctx, a)) return -1;
    cli_json_threads(&w, ctx);
    cli_json_regions(&w, a);
    jw_end_obj(&w);
    fputc('\n', o);
    return 0;
}
