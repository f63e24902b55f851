/* tools/cmd/options.c - the analysis options shared by `edan analyze` and
   `edan trace`, one table: --help text, applying each option, a profile's
   defaults, the final checks (outputs writable, --elf readable: with the report's
   helpers); the scope and run options of a traced program (edan trace, edan
   annotate, the plugin), one table. No main: also linked into the QEMU plugin. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include "cli.h"
#include "../common/files.h"
#include "../common/opt.h"

/* Limits of the options' numbers: far beyond any machine, small enough
   that nothing derived from them overflows. */
#define CLI_MAX_CACHE ((uint64_t)1 << 44)       /* 16 TiB */
#define CLI_MAX_TAU ((uint64_t)1 << 50)
#define CLI_MAX_CYCLES 1000000000u              /* alpha, a hit latency, a class cost */
#define CLI_MAX_GHZ 1000.0
#define CLI_MAX_TOP 1000000u

const opt_def cli_analysis_opts[] = {
    {NULL, NULL, 0, "Analysis options (per configuration unless marked global):"},
    {"--cache", "SIZE:ASSOC:LINE[:wb|wt][:LAT]", CLI_OPT_CACHE,
     "add a cache level (L1 first; once per level). SIZE takes\n"
     "K/M/G suffixes; wb = write-back, write-allocate (default),\n"
     "wt = write-through, no-write-allocate; LAT = hit latency\n"
     "in cycles (default 1). Any number of sets, as lscpu\n"
     "reports a cache (30M:20:64: 24576 sets, line mod sets)"},
    {"--profile", "FILE|DIR", CLI_OPT_PROFILE,
     "(global) a hardware profile written by probe: the cache\n"
     "hierarchy, alpha (DRAM latency in core cycles), m and\n"
     "the clock come from it; explicit options win. A\n"
     "directory: its HOST.json. Without --profile, this\n"
     "machine's own is used when probe has written one:\n"
     "$XDG_DATA_HOME/edan/hwprofiles/HOST.json (default\n"
     "~/.local/share/...), else the same under each of\n"
     "$XDG_DATA_DIRS (default /usr/local/share:/usr/share)"},
    {"--no-profile", NULL, CLI_OPT_NO_PROFILE, "(global) no profile, not even this machine's own"},
    {"--no-cache", NULL, CLI_OPT_NO_CACHE, "this configuration has no cache even with --profile"},
    {"--config", "[=NAME]", CLI_OPT_CONFIG,
     "start another configuration, analysed in the same pass;\n"
     "it inherits alpha, alpha0, freq, tau and costs, not caches"},
    {"--alpha", "CYCLES", CLI_OPT_ALPHA, "cost of a RAM access (default 200)"},
    {"--alpha0", "CYCLES", CLI_OPT_ALPHA0, "baseline latency in Lambda (default: alpha)"},
    {"--cost", "CLASS=CYCLES", CLI_OPT_COST,
     "cost of an instruction class (default 1): int_alu, int_mul,\n"
     "int_div, fp_add, fp_mul, fp_fma, fp_div, fp_cvt, branch,\n"
     "jump, csr, other"},
    {"--freq", "GHZ", CLI_OPT_FREQ, "clock for B in GB/s (default 1)"},
    {"--tau", "CYCLES", CLI_OPT_TAU, "bin width of the data-movement timeline"},
    {"--m", "LIST", CLI_OPT_M, "(global) memory issue slots, e.g. 1,4,8 (default 1,2,4,8,16)"},
    {"--timeline", "FILE.csv", CLI_OPT_TIMELINE, "(global) write the data movement per bin (needs --tau)"},
    {"--json", NULL, CLI_OPT_JSON, "(global) print the report as JSON"},
    {"--dot", "FILE", CLI_OPT_DOT, "(global) write the eDAG as Graphviz DOT (small traces only)"},
    {"--layers", "FILE", CLI_OPT_LAYERS,
     "(global) write every layer's W_i, i = 1..D, of each\n"
     "configuration (the report has a summary of at most 4096\n"
     "bins): FILE.csv as text, a row a layer; any other name\n"
     "binary (README.md, \"Trace formats\")"},
    {"--top", "N", CLI_OPT_TOP,
     "(global) list the N memory instructions that contribute\n"
     "most chained memory accesses (per PC, or per mnemonic),\n"
     "with their function and source line when the program\n"
     "is known (edan trace; edan analyze --elf)"},
    {"--chain", "[=VERTICES]", CLI_OPT_CHAIN,
     "(global) with --top: find one critical chain, the D RAM\n"
     "accesses in a row that make the memory depth, and give\n"
     "each instruction's part of it (a \"chain\" column), at any\n"
     "size: each RAM access keeps its step back along the chain\n"
     "(about 150 bytes with one configuration), the values still\n"
     "live where their chains go on. =VERTICES: find it in the\n"
     "recorded eDAG instead (about 120 bytes a vertex; a larger\n"
     "run: no chain, said why), as a check of the streamed one"},
    {"--elf", "PROG", CLI_OPT_ELF,
     "(global) the program a text trace with PCs came from: its\n"
     "symbols and DWARF line table name --top's instructions"},
    {"--alpha-add", "NS", CLI_OPT_ALPHA_ADD,
     "(global) what-if: the bounds with NS more RAM latency\n"
     "(cycles = NS x freq) and the predicted slowdown"},
    {"--sweep", "FILE.csv", CLI_OPT_SWEEP, "(global) the time bounds for 0..250 ns of added latency"},
    {"--remote", "NODE", CLI_OPT_REMOTE,
     "(global) what-if at NUMA node NODE's latency, taken from\n"
     "the --profile's NUMA latency matrix"},
    {"--forward", "STORES", CLI_OPT_FORWARD,
     "(global) store-to-load forwarding: a load of bytes one\n"
     "store of its thread wrote, among its last STORES stores\n"
     "(the store buffer; default 32, at most 4096) or both at\n"
     "a stack slot (sp/rsp plus a constant), is an operation\n"
     "from the store's start, no RAM access; 0 = off"},
    {"--paper", NULL, CLI_OPT_PAPER,
     "(global) the EDAN paper's model exactly, to reproduce its\n"
     "tables: --paper-cache, --forward 0 and --window 0"},
    {"--paper-cache", NULL, CLI_OPT_PAPER_CACHE,
     "(global) the EDAN paper's cache rule, to reproduce its\n"
     "tables: a cache hit depends only on its registers and\n"
     "bytes, not on the miss that brought its line (no fill\n"
     "edges), and bytes moved are the accesses' sizes"},
    {"--window", "R", CLI_OPT_WINDOW,
     "the windowed schedule's window: R vertices (instructions;\n"
     "x86-64: micro-operations) in flight, the reorder buffer\n"
     "(default: the profile's, else 192); 0 = no windowed\n"
     "schedule (T_window, lambda_window: README.md, \"The\n"
     "windowed schedule\")"},
    {"--lq", "N", CLI_OPT_LQ, "loads in flight in the window (default: the profile's, else 32)"},
    {"--sq", "N", CLI_OPT_SQ, "stores in flight in the window (default: the profile's, else 32)"},
    {"--width", "K", CLI_OPT_WIDTH, "vertices the window takes in a cycle (default: the profile's, else 8)"},
    {"--window-all-m", NULL, CLI_OPT_WINDOW_ALL_M,
     "(global) the windowed schedule at every m of --m (each\n"
     "costs about as much as the rest of the analysis); by\n"
     "default at the verdict's m alone: the profile's m, else 4"},
    {"--skip-unknown", NULL, CLI_OPT_SKIP_UNKNOWN, "(global) skip unknown instructions, count and report them"},
    {"--jobs", "N", CLI_OPT_JOBS,
     "(global) analyse the configurations in N threads, each\n"
     "its share of them; one configuration, or N of at least\n"
     "twice the configurations: each one's windowed schedule\n"
     "on a thread of its own (a program of one thread); N of\n"
     "at least twice the configurations and one: none on the\n"
     "thread that runs the program (or reads the trace).\n"
     "Default: the cores this process may run on, at most two\n"
     "a configuration and, under trace, one more (an MPI job's\n"
     "ranks share them).\n"
     "1 = one thread. The same report, byte for byte"},
    {"--quiet", NULL, CLI_OPT_QUIET, "(global) no progress line"},
};
const size_t cli_analysis_nopts = sizeof cli_analysis_opts / sizeof cli_analysis_opts[0];

const cli_scope_opt cli_scope_opts[] = {
    {{"--func", "NAME", CLI_SCOPE_FUNC,
      "only instructions inside function NAME, not of those it\n"
      "calls (the report counts what its calls ran: Called out)\n"
      "(repeatable; NAME also matches NAME.constprop.0,\n"
      "NAME.isra.0, ..., the Fortran procedures NAME_ and\n"
      "__MODULE_MOD_NAME, a C++ function by its qualified name\n"
      "(geo::dot<double>), its signature or its symbol, or short\n"
      "when that is one function: Grid::sum for sim::Grid::sum,\n"
      "wsum for wsum<double> (several: refused, listed);\n"
      "every function of that name, of the program and of the\n"
      "shared libraries it maps, dlopen included: looked up as\n"
      "their code first runs; NAME@OBJECT: that object's only,\n"
      "e.g. dupfn@liba.so; an IFUNC such as memcpy means the\n"
      "implementation the program runs)"},
     "only instructions inside function NAME"},
    {{"--region", "NAME", CLI_SCOPE_REGION,
      "everything from the entry of NAME until control returns\n"
      "below its frame (by a return, longjmp, an exception),\n"
      "callees included (repeatable)"},
     "NAME and what it calls"},
    {{"--exclude", "NAME", CLI_SCOPE_EXCLUDE, "drop NAME and everything it calls (repeatable)"},
     "not NAME and what it calls"},
    {{"--threads", "LIST", CLI_SCOPE_THREADS,
      "only these threads (0 the main thread, then 1, 2, ... in\n"
      "the order they were created; e.g. 1-4,7); the others'\n"
      "writes still end chains, as untraced code's do. By\n"
      "default every thread; scoping applies to each"},
     "only these threads"},
    {{"--no-markers", NULL, CLI_SCOPE_NO_MARKERS,
      "ignore EDAN_TRACE_BEGIN()/EDAN_TRACE_END() markers; by\n"
      "default a program containing them is analysed only\n"
      "between a BEGIN and the following END (edan_trace.h);\n"
      "a named region, BEGIN(\"name\") ... END(\"name\"), gets a\n"
      "report section and a JSON \"regions\" entry of its own"},
     "ignore EDAN_TRACE_BEGIN()/EDAN_TRACE_END()"},
    {{"--max-insns", "N", CLI_SCOPE_MAX_INSNS,
      "end the run, with a partial report, once about N\n"
      "instructions were analysed (at the end of a block)"},
     "end the run after about N instructions"},
    {{"--max-seconds", "S", CLI_SCOPE_MAX_SECONDS,
      "end the run, with a partial report, after S seconds\n"
      "(exit status 0 for either limit)"},
     "end the run after S seconds"},
};
const size_t cli_scope_nopts = sizeof cli_scope_opts / sizeof cli_scope_opts[0];

static const cli_scope_opt *cli_scope_of(int id)
{
    size_t k;
    for (k = 0; k < cli_scope_nopts; k++)
        if (cli_scope_opts[k].o.id == id) return &cli_scope_opts[k];
    return NULL;
}

size_t cli_scope_rows(opt_def *out, size_t cap, const opt_def *t, size_t n, int brief)
{
    size_t k;
    if (n > cap) return 0;
    for (k = 0; k < n; k++) {
        const cli_scope_opt *s = t[k].name ? NULL : cli_scope_of(t[k].id);
        out[k] = t[k];
        if (!s) continue;
        out[k].name = s->o.name;
        out[k].arg = s->o.arg;
        if (!t[k].help) out[k].help = brief ? s->brief : s->o.help;
    }
    return n;
}

const char *cli_scope_name(int id)
{
    const cli_scope_opt *s = cli_scope_of(id);
    return s ? s->o.name : "";
}

void cli_analysis_init(cli_analysis *a)
{
    memset(a, 0, sizeof *a);
    a->num_configs = 1;
    a->cmd.remote_node = -1;
}

static int cli_parse_cache(edan_config *c, const char *spec)
{
    char buf[128], *field[6], *p;
    int n = 0;
    uint64_t size;
    uint32_t assoc, line, lat = 0;
    edan_write_policy wp = EDAN_WRITE_BACK;
    int i;
    if (strlen(spec) >= sizeof buf) return cli_err("--cache %s: too long", spec);
    strcpy(buf, spec);
    for (p = buf; n < 6;) {
        field[n++] = p;
        p = strchr(p, ':');
        if (!p) break;
        *p++ = 0;
    }
    if (n < 3 || n > 5) return cli_err("--cache %s: expected SIZE:ASSOC:LINE[:wb|wt][:LAT]", spec);
    if (opt_size(field[0], CLI_MAX_CACHE, &size) || !size)
        return cli_err("--cache %s: bad size '%s' (1 byte to 16T)", spec, field[0]);
    if (opt_u32(field[1], 1, 1u << 20, &assoc))
        return cli_err("--cache %s: bad associativity '%s' (1 to 1048576)", spec, field[1]);
    if (opt_u32(field[2], 1, 4096, &line))
        return cli_err("--cache %s: bad line size '%s' (1 to 4096 bytes)", spec, field[2]);
    for (i = 3; i < n; i++) {
        if (!strcmp(field[i], "wb")) wp = EDAN_WRITE_BACK;
        else if (!strcmp(field[i], "wt")) wp = EDAN_WRITE_THROUGH;
        else if (opt_u32(field[i], 1, CLI_MAX_CYCLES, &lat))
            return cli_err("--cache %s: '%s' is neither wb, wt nor a latency (1 to %u cycles)", spec, field[i],
                           CLI_MAX_CYCLES);
    }
    if (c->num_levels >= EDAN_MAX_LEVELS) return cli_err("--cache: at most %d levels", EDAN_MAX_LEVELS);
    if (c->num_levels && c->write_policy != wp)
        return cli_err("--cache %s: one write policy for the whole hierarchy", spec);
    c->write_policy = wp;
    c->level[c->num_levels].size = size;
    c->level[c->num_levels].assoc = assoc;
    c->level[c->num_levels].line = line;
    c->level[c->num_levels].latency = lat;
    c->num_levels++;
    return 0;
}

static int cli_parse_class(const char *s, size_t len)
{
    int c;
    for (c = 0; c < EDAN_CLASS_COUNT; c++) {
        const char *n = edan_class_name((edan_class)c);
        if (strlen(n) == len && !strncmp(n, s, len)) return c;
    }
    return -1;
}

/* --m LIST: distinct memory issue slot counts (each is a key of the JSON report). */
static int cli_parse_m(cli_analysis *a, const char *val)
{
    uint32_t m[EDAN_MAX_M];
    int n = opt_u32_list(val, 1, CLI_MAX_M, m, EDAN_MAX_M), j, k;
    if (n == -2) return cli_err("--m: at most %d values", EDAN_MAX_M);
    if (n < 0) return cli_err("--m %s: expected a list of positive integers, e.g. 1,4,8", val);
    if (n == 0) return cli_err("--m: empty list");
    for (j = 1; j < n; j++)
        for (k = 0; k < j; k++)
            if (m[k] == m[j]) return cli_err("--m %s: %u given twice", val, m[j]);
    memcpy(a->opts.m, m, (size_t)n * sizeof m[0]);
    a->opts.num_m = (uint32_t)n;
    return 0;
}

/* --config[=NAME]: the next configuration inherits costs, alpha, freq and tau, not caches. */
static int cli_start_config(cli_analysis *a, const char *name)
{
    edan_config *c = &a->configs[a->num_configs - 1], *next = &a->configs[a->num_configs];
    if (a->num_configs >= EDAN_MAX_CONFIGS) return cli_err("at most %d configurations", EDAN_MAX_CONFIGS);
    *next = *c;
    next->num_levels = 0;
    next->write_policy = EDAN_WRITE_BACK;
    next->name = name;
    memset(next->level, 0, sizeof next->level);
    a->cmd.explicit_set[a->num_configs] = a->cmd.explicit_set[a->num_configs - 1] & ~(unsigned)CLI_SET_CACHE;
    a->num_configs++;
    return 0;
}

/* --cost CLASS=CYCLES of a non-memory class. */
static int cli_parse_cost(edan_config *c, const char *val)
{
    const char *e = strchr(val, '=');
    int cls = e ? cli_parse_class(val, (size_t)(e - val)) : -1;
    uint32_t cyc;
    if (cls < 0 || cls == EDAN_CLASS_LOAD || cls == EDAN_CLASS_STORE || cls == EDAN_CLASS_AMO)
        return cli_err("--cost %s: expected CLASS=CYCLES with a non-memory class (see --help)", val);
    if (opt_u32(e + 1, 1, CLI_MAX_CYCLES, &cyc))
        return cli_err("--cost %s: expected cycles, 1 to %u", val, CLI_MAX_CYCLES);
    c->cost[cls] = cyc;
    return 0;
}

/* The options that set a number of the current configuration. */
static int cli_apply_config(cli_analysis *a, int id, const char *val)
{
    edan_config *c = &a->configs[a->num_configs - 1];
    unsigned *set = &a->cmd.explicit_set[a->num_configs - 1];
    uint64_t t;
    switch (id) {
    case CLI_OPT_CACHE:
        if (cli_parse_cache(c, val)) return -1;
        *set |= CLI_SET_CACHE;
        return 0;
    case CLI_OPT_NO_CACHE:
        c->num_levels = 0;
        *set |= CLI_SET_CACHE;
        return 0;
    case CLI_OPT_ALPHA:
        if (opt_u32(val, 1, CLI_MAX_CYCLES, &c->alpha))
            return cli_err("--alpha %s: expected cycles, 1 to %u", val, CLI_MAX_CYCLES);
        *set |= CLI_SET_ALPHA;
        return 0;
    case CLI_OPT_ALPHA0:
        if (opt_double(val, 0, 1, CLI_MAX_CYCLES, &c->alpha0))
            return cli_err("--alpha0 %s: expected cycles, more than 0 and at most %u", val, CLI_MAX_CYCLES);
        return 0;
    case CLI_OPT_COST:
        return cli_parse_cost(c, val);
    case CLI_OPT_FREQ:
        if (opt_double(val, 0, 1, CLI_MAX_GHZ, &c->freq_ghz))
            return cli_err("--freq %s: expected GHz, more than 0 and at most %g", val, CLI_MAX_GHZ);
        *set |= CLI_SET_FREQ;
        return 0;
    case CLI_OPT_TAU:
        if (opt_size(val, CLI_MAX_TAU, &t) || !t) return cli_err("--tau %s: expected cycles, 1 to 2^50", val);
        c->tau = t;
        return 0;
    case CLI_OPT_WINDOW: case CLI_OPT_LQ: case CLI_OPT_SQ: case CLI_OPT_WIDTH: {
        static const char *const names[] = {"--window", "--lq", "--sq", "--width"};
        uint32_t *f = id == CLI_OPT_WINDOW ? &c->window : id == CLI_OPT_LQ ? &c->lq : id == CLI_OPT_SQ ? &c->sq : &c->width;
        const char *name = names[id - CLI_OPT_WINDOW];
        uint32_t v;
        if (opt_u32(val, id == CLI_OPT_WINDOW ? 0 : 1, EDAN_WINDOW_MAX, &v))
            return cli_err("%s %s: expected %s to %u", name, val, id == CLI_OPT_WINDOW ? "0 (off)" : "1",
                           (unsigned)EDAN_WINDOW_MAX);
        *f = id == CLI_OPT_WINDOW && !v ? EDAN_WINDOW_OFF : v;
        *set |= id == CLI_OPT_WINDOW ? CLI_SET_WINDOW : id == CLI_OPT_LQ ? CLI_SET_LQ : id == CLI_OPT_SQ ? CLI_SET_SQ
                                                                                     : CLI_SET_WIDTH;
        return 0;
    }
    }
    return -1;      /* not an option of a configuration: cli_analysis_apply passes only these */
}

int cli_analysis_apply(cli_analysis *a, int id, const char *val)
{
    uint32_t node;
    switch (id) {
    case CLI_OPT_CACHE: case CLI_OPT_NO_CACHE: case CLI_OPT_ALPHA: case CLI_OPT_ALPHA0: case CLI_OPT_COST:
    case CLI_OPT_FREQ: case CLI_OPT_TAU: case CLI_OPT_WINDOW: case CLI_OPT_LQ: case CLI_OPT_SQ: case CLI_OPT_WIDTH:
        return cli_apply_config(a, id, val);
    case CLI_OPT_WINDOW_ALL_M: a->cmd.window_all_m = 1; return 0;
    case CLI_OPT_CONFIG: return cli_start_config(a, val);
    case CLI_OPT_M: return cli_parse_m(a, val);
    case CLI_OPT_PROFILE: a->cmd.profile_path = val; return 0;
    case CLI_OPT_NO_PROFILE: a->cmd.no_profile = 1; return 0;
    case CLI_OPT_TIMELINE: a->cmd.timeline_path = val; return 0;
    case CLI_OPT_DOT: a->cmd.dot_path = val; return 0;
    case CLI_OPT_LAYERS: a->cmd.layers_path = val; return 0;
    case CLI_OPT_SWEEP: a->cmd.sweep_path = val; return 0;
    case CLI_OPT_ELF: a->cmd.elf_path = val; return 0;
    case CLI_OPT_JSON: a->cmd.json = 1; return 0;
    case CLI_OPT_PAPER_CACHE: a->opts.paper_cache = 1; return 0;
    case CLI_OPT_PAPER:
        a->opts.paper_cache = 1;
        a->opts.forward = EDAN_FORWARD_OFF;
        a->cmd.paper = 1;
        return 0;
    case CLI_OPT_FORWARD:
        if (opt_u32(val, 0, EDAN_FORWARD_MAX, &a->opts.forward))
            return cli_err("--forward %s: expected a number of stores, 0 (off) to %u", val, EDAN_FORWARD_MAX);
        if (!a->opts.forward) a->opts.forward = EDAN_FORWARD_OFF;
        return 0;
    case CLI_OPT_SKIP_UNKNOWN: a->cmd.skip_unknown = 1; return 0;
    case CLI_OPT_QUIET: a->cmd.quiet = 1; return 0;
    case CLI_OPT_JOBS:
        if (opt_u32(val, 1, 4096, &a->cmd.jobs)) return cli_err("--jobs %s: expected a number of threads, 1 to 4096", val);
        return 0;
    case CLI_OPT_REMOTE:
        if (opt_u32(val, 0, 65535, &node)) return cli_err("--remote %s: expected a NUMA node number", val);
        a->cmd.remote_node = (int)node;
        return 0;
    case CLI_OPT_TOP:
        if (opt_u32(val, 0, CLI_MAX_TOP, &a->cmd.top))
            return cli_err("--top %s: expected a count, 0 to %u", val, CLI_MAX_TOP);
        return 0;
    case CLI_OPT_CHAIN:
        a->cmd.chain = CLI_CHAIN_STREAM;
        if (val && (opt_u32(val, 2, CLI_CHAIN_MAX, &a->cmd.chain)))
            return cli_err("--chain=%s: expected a number of vertices, 2 to %u", val, CLI_CHAIN_MAX);
        return 0;
    case CLI_OPT_ALPHA_ADD:
        if (opt_double(val, 0, 0, 1e9, &a->cmd.alpha_add_ns))
            return cli_err("--alpha-add %s: expected nanoseconds >= 0", val);
        return 0;
    }
    return cli_err("no analysis option %d", id);
}

int cli_next_before_program(const char *cmd, const opt_def *t, size_t n, int argc, char **argv, int *i, int *start,
                            const char **val, int *prog)
{
    int k;
    *start = *i;
    k = opt_next(cmd, t, n, argc, argv, i, val);
    if (k != OPT_REST && k != OPT_OPERAND) return k;
    *prog = k == OPT_REST ? *i : *start;
    return OPT_END;
}


/* The added latency (ns) of NUMA node `node` seen from the first cluster:
   its chase latency minus the cluster's local one, from the profile's
   "numa" section. Returns -1 with a message when the profile lacks it. */
static double cli_remote_delta(const edan_profile *p, const char *path, int node)
{
    const edan_json *numa = edan_json_get(edan_profile_json(p), "numa"), *lat;
    double local = -1, far = -1;
    int cluster = -1;
    size_t i;
    if (!numa || edan_json_bool(edan_json_get(numa, "skipped"), 0)) {
        cli_err("--remote: %s has no NUMA latency matrix (%s)", path,
                numa ? edan_json_string(edan_json_get(numa, "reason"), "skipped") : "probe ran without --numa");
        return -1;
    }
    lat = edan_json_get(numa, "latency");
    for (i = 0; i < edan_json_len(lat); i++) {
        const edan_json *e = edan_json_at(lat, i);
        int c = (int)edan_json_number(edan_json_get(e, "cluster"), -1), n = (int)edan_json_number(edan_json_get(e, "node"), -1);
        double ns = edan_json_number(edan_json_get(edan_json_get(e, "ns"), "median"), -1);
        if (cluster < 0) cluster = c;
        if (c != cluster || ns <= 0) continue;
        if (n == c) local = ns;
        if (n == node) far = ns;
    }
    if (local < 0 || far < 0) {
        cli_err("--remote %d: %s has no latency from cluster %d to node %d", node, path, cluster, node);
        return -1;
    }
    if (far <= local)
        cli_err("--remote %d: in %s node %d (%.1f ns) is no farther than cluster %d's own memory (%.1f ns): the "
                "what-if adds no latency", node, path, node, far, cluster, local);
    return far > local ? far - local : 0.0;
}

/* Fill what the command line left open from the profile, and say where
   every value came from. */
static int cli_apply_profile(cli_analysis *a)
{
    edan_profile *p = NULL;
    char err[512], checks[128] = "";
    uint32_t k;
    struct stat sb;
    if (stat(a->cmd.profile_path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        /* a directory of profiles, one per node (probe -o DIR/%h.json): this node's */
        static char own[4096 + 300];
        char host[256];
        files_host(host, sizeof host);
        snprintf(own, sizeof own, "%s/%s.json", a->cmd.profile_path, host);
        if (access(own, R_OK) != 0)
            return cli_err("--profile %s: a directory without this node's profile %s (probe -o %s/%%h.json writes it)",
                           a->cmd.profile_path, own, a->cmd.profile_path);
        a->cmd.profile_path = own;
    }
    {   /* read once: the profile and which profile it is (its CRC-32, whatever its
           name later: the report says so for edan roofline) come from the same bytes */
        size_t len;
        char *text = cli_file_read("edan", a->cmd.profile_path, &len);
        edan_result r;
        if (!text) return -1;
        r = edan_profile_parse(text, len, a->cmd.profile_path, NULL, &p, err, sizeof err);
        a->prof.crc = crc32(0L, (const unsigned char *)text, (unsigned)len);
        free(text);
        if (r != EDAN_OK) return cli_err("%s", err);
    }
    /* what probe's checks of the profile's figures found: said, never silently used */
    if (p->num_checks)
        snprintf(checks, sizeof checks, "; profile checks: %u of %u failed, %u figures unstable",
                 (unsigned)p->checks_failed, (unsigned)p->num_checks, (unsigned)p->unstable_figures);
    else if (p->unstable_figures)
        snprintf(checks, sizeof checks, "; profile checks: none recorded, %u figures unstable",
                 (unsigned)p->unstable_figures);
    for (k = 0; k < a->num_configs; k++) {
        edan_config *c = &a->configs[k], pc = *c;
        unsigned ex = a->cmd.explicit_set[k];
        edan_profile_to_config(p, &pc);
        if (!(ex & CLI_SET_CACHE)) {
            memcpy(c->level, pc.level, sizeof c->level);
            c->num_levels = pc.num_levels;
            c->write_policy = EDAN_WRITE_BACK;
        }
        if (!(ex & CLI_SET_ALPHA)) c->alpha = pc.alpha;
        if (!(ex & CLI_SET_FREQ)) c->freq_ghz = pc.freq_ghz;
        if (p->window_rob) {    /* what the profile measured, where no option says otherwise */
            if (!(ex & CLI_SET_WINDOW)) c->window = pc.window;
            if (!(ex & CLI_SET_LQ)) c->lq = pc.lq;
            if (!(ex & CLI_SET_SQ)) c->sq = pc.sq;
            if (!(ex & CLI_SET_WIDTH)) c->width = pc.width;
        }
        {
            char al[96];
            if (ex & CLI_SET_ALPHA) snprintf(al, sizeof al, "option");
            else snprintf(al, sizeof al, "profile (DRAM %.1f ns at %.2f GHz)", p->dram_latency_ns, p->core_ghz);
            snprintf(a->prof.provenance[k], sizeof a->prof.provenance[k], "caches: %s; alpha: %s; clock: %s; m: %s%s",
                     ex & CLI_SET_CACHE ? "option" : "profile", al, ex & CLI_SET_FREQ ? "option" : "profile",
                     a->opts.num_m ? "option" : "profile", checks);
        }
    }
    if (p->checks_failed)
        opt_ferr(NULL, a->cmd.profile_path, 0, "warning: %u of %u of the profile's checks against the machine's limits "
                 "failed: its figures break physics (probe --check %s lists them)", (unsigned)p->checks_failed,
                 (unsigned)p->num_checks, a->cmd.profile_path);
    a->prof.m = p->mlp_m;
    {   /* a level the profile takes at another size than hwloc reports: its reason, for the report */
        const edan_json *cs = edan_json_get(edan_profile_json(p), "caches");
        size_t i, n = 0;
        a->prof.cache_note[0] = 0;
        for (i = 0; i < edan_json_len(cs) && n < sizeof a->prof.cache_note; i++) {
            const edan_json *c = edan_json_at(cs, i);
            double size = edan_json_number(edan_json_get(c, "size_bytes"), 0);
            double eff = edan_json_number(edan_json_get(c, "effective_bytes"), size);
            if (!(size > 0 && eff > 0) || eff == size) continue;
            n += (size_t)snprintf(a->prof.cache_note + n, sizeof a->prof.cache_note - n,
                                  "%s%s taken as %.0f KiB, not the %.0f KiB %s reports (%s)", n ? "; " : "",
                                  edan_json_string(edan_json_get(c, "level"), "?"), eff / 1024, size / 1024,
                                  edan_json_string(edan_json_get(c, "source"), "the system"),
                                  edan_json_string(edan_json_get(c, "effective_source"), "measured"));
        }
    }
    edan_profile_to_config(p, &a->prof.caches);
    a->prof.caches.name = NULL;
    a->prof.window = p->window_rob != 0;
    if (!a->opts.num_m) {       /* 1, the paper's 4, and the measured m */
        a->opts.m[a->opts.num_m++] = 1;
        a->opts.m[a->opts.num_m++] = CLI_M_PAPER;
        if (p->mlp_m > 1 && p->mlp_m != CLI_M_PAPER) a->opts.m[a->opts.num_m++] = p->mlp_m;
    }
    if (a->cmd.remote_node >= 0) {
        double d = cli_remote_delta(p, a->cmd.profile_path, a->cmd.remote_node);
        if (d < 0) { edan_profile_free(p); return -1; }
        a->cmd.alpha_add_ns = d;
    }
    edan_profile_free(p);
    return 0;
}

uint32_t cli_verdict_m(const cli_analysis *a)
{
    static const uint32_t dm[] = EDAN_DEFAULT_M;
    const uint32_t *m = a->opts.num_m ? a->opts.m : dm;
    const uint32_t n = a->opts.num_m ? a->opts.num_m : (uint32_t)(sizeof dm / sizeof dm[0]);
    uint32_t j, best = 0, four = 0;
    for (j = 0; j < n; j++) {
        if (a->prof.m > 1 && m[j] == a->prof.m) return m[j];
        if (m[j] == CLI_M_PAPER) four = 1;
        if (m[j] > best) best = m[j];
    }
    return four ? CLI_M_PAPER : best;
}

const char *cli_window_source(const cli_analysis *a, uint32_t k)
{
    if (a->configs[k].window == EDAN_WINDOW_OFF) return "off";
    if (a->cmd.explicit_set[k] & CLI_SET_WINDOW_ANY) return "option";
    return a->prof.window ? "profile" : "default";
}

/* This machine's own profile (files_own_profile_find says where). */
void cli_analysis_pick_profile(cli_analysis *a)
{
    static char found[4096 + 300];
    if (a->cmd.profile_path || a->cmd.no_profile || a->prof.own) return;
    if (files_own_profile_find(found, sizeof found) == 0) {
        a->cmd.profile_path = found;
        a->prof.own = 1;
    }
}

int cli_analysis_finish(cli_analysis *a)
{
    uint32_t k, most;
    if (a->cmd.no_profile && a->cmd.profile_path)
        return cli_err("--no-profile and --profile %s: give one", a->cmd.profile_path);
    cli_analysis_pick_profile(a);
    if (a->cmd.elf_path) {
        cli_syms sy;
        const char *why = NULL;
        if (cli_syms_open(&sy, a->cmd.elf_path, 0, &why)) return cli_err("--elf %s: %s", a->cmd.elf_path, why);
        cli_syms_close(&sy);
    }
    if (a->cmd.remote_node >= 0 && !a->cmd.profile_path) return cli_err("--remote needs --profile");
    if (a->cmd.profile_path && cli_apply_profile(a)) return -1;
    for (k = 0; k < a->num_configs && !a->cmd.profile_path; k++)
        snprintf(a->prof.provenance[k], sizeof a->prof.provenance[k], "caches: %s; alpha: %s; clock: %s; m: %s",
                 a->configs[k].num_levels ? "option" : "none",
                 a->cmd.explicit_set[k] & CLI_SET_ALPHA ? "option" : "default",
                 a->cmd.explicit_set[k] & CLI_SET_FREQ ? "option" : "default", a->opts.num_m ? "option" : "default");
    if (a->cmd.timeline_path) {
        for (k = 0; k < a->num_configs; k++)
            if (!a->configs[k].tau) return cli_err("--timeline needs --tau (in every configuration)");
    }
    if ((a->cmd.timeline_path && cli_output_check(a->cmd.timeline_path)) ||
        (a->cmd.dot_path && cli_output_check(a->cmd.dot_path)) ||
        (a->cmd.sweep_path && cli_output_check(a->cmd.sweep_path)) ||
        (a->cmd.layers_path && cli_output_check(a->cmd.layers_path)))
        return -1;
    /* the windowed schedule: none in the paper's model; at the verdict's m */
    for (k = 0; k < a->num_configs && a->cmd.paper; k++) a->configs[k].window = EDAN_WINDOW_OFF;
    a->opts.window_m = a->cmd.window_all_m ? 0 : cli_verdict_m(a);
    for (k = 0; k < a->num_configs; k++) {
        size_t len = strlen(a->prof.provenance[k]);
        snprintf(a->prof.provenance[k] + len, sizeof a->prof.provenance[k] - len, "; cache rule: %s",
                 !a->configs[k].num_levels ? "none (no cache)"
                 : a->opts.paper_cache ? "the paper's (--paper-cache: no fill edges, bytes = access sizes)"
                                       : "fill dependencies (a hit waits for the miss that filled its line)");
        len = strlen(a->prof.provenance[k]);
        if (a->opts.forward == EDAN_FORWARD_OFF)
            snprintf(a->prof.provenance[k] + len, sizeof a->prof.provenance[k] - len, "; forwarding: off");
        else
            snprintf(a->prof.provenance[k] + len, sizeof a->prof.provenance[k] - len,
                     "; forwarding: the last %u stores and stack slots",
                     a->opts.forward ? a->opts.forward : EDAN_FORWARD_DEFAULT);
        len = strlen(a->prof.provenance[k]);
        snprintf(a->prof.provenance[k] + len, sizeof a->prof.provenance[k] - len, "; window: %s",
                 cli_window_source(a, k));
    }
    a->opts.num_configs = a->num_configs;
    a->opts.configs = a->configs;
    /* by default the cores, two a configuration at most: once every
       configuration has a thread, each one's windowed schedule takes a
       second (README's row: about 0.6-0.9x the time, for 1.1-1.6x the CPU);
       online, one more, so that the thread that runs the program (QEMU's)
       hands every configuration over (0.75-0.9x the busiest thread's time;
       under edan analyze, whose thread only reads the trace, not always
       faster: README's row) */
    a->opts.jobs = a->cmd.jobs ? a->cmd.jobs : cli_cores();
    most = 2 * a->num_configs + (a->cmd.online != 0);
    if (!a->cmd.jobs && a->opts.jobs > most) a->opts.jobs = most;
    if (a->cmd.chain && !a->cmd.top)
        return cli_err("--chain needs --top N: it gives each of the N instructions its part of the chain");
    a->opts.hotspots = a->cmd.top ? 1 : 0;
    a->opts.chain = a->cmd.chain == CLI_CHAIN_STREAM;
    a->opts.dot_max_vertices = a->cmd.chain == CLI_CHAIN_STREAM ? 0 : a->cmd.chain;
    if (a->cmd.dot_path && a->opts.dot_max_vertices < CLI_DOT_LIMIT) a->opts.dot_max_vertices = CLI_DOT_LIMIT;
    return 0;
}


/* The decimal thread id of s[0 .. len) into *id: 0, or -1. */
static int cli_thread_id(const char *s, size_t len, uint32_t *id)
{
    char buf[24];
    if (!len || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    return opt_u32(buf, 0, UINT32_MAX, id);
}

int cli_parse_threads(const char *s, uint32_t (*lohi)[2], int cap, const char **why)
{
    int n = 0;
    for (;;) {
        size_t len = strspn(s, "0123456789");
        uint32_t lo, hi;
        if (cli_thread_id(s, len, &lo)) { *why = "expected a thread id (0 is the main thread)"; return -1; }
        s += len;
        hi = lo;
        if (*s == '-') {
            len = strspn(++s, "0123456789");
            if (cli_thread_id(s, len, &hi)) { *why = "expected the range's last thread id"; return -1; }
            s += len;
        }
        if (lo > hi || hi >= EDAN_MAX_THREADS) { *why = "bad range (ids go up from 0, below 2^20)"; return -1; }
        if (n == cap) { *why = "too many ranges"; return -1; }
        lohi[n][0] = lo;
        lohi[n][1] = hi;
        n++;
        if (!*s) return n;
        if (*s != ',') { *why = "expected ',' between ids"; return -1; }
        s++;
    }
}

int cli_parse_count(const char *s, uint64_t *out)
{
    static const char units[] = "kMGT";
    char buf[32];
    size_t len = strlen(s);
    const char *u;
    uint64_t v, scale = 1;
    if (!len || len >= sizeof buf) return -1;
    memcpy(buf, s, len + 1);
    if ((u = strchr(units, buf[len - 1])) != NULL && len > 1) {
        size_t k;
        for (k = 0; k <= (size_t)(u - units); k++) scale *= 1000;
        buf[--len] = 0;
    }
    if (opt_u64(buf, 1, UINT64_MAX / scale, &v)) return -1;
    *out = v * scale;
    return 0;
}

int cli_parse_sample(const char *s, uint64_t *period, uint64_t *length, const char **why)
{
    char buf[64];
    char *colon;
    if (strlen(s) >= sizeof buf || !(colon = strchr(strcpy(buf, s), ':'))) {
        *why = "expected PERIOD:LENGTH, instructions (10M:1M: 1,000,000 of every 10,000,000)";
        return -1;
    }
    *colon = 0;
    if (cli_parse_count(buf, period) || cli_parse_count(colon + 1, length)) {
        *why = "PERIOD and LENGTH are positive whole numbers of instructions (k, M, G: thousands, millions, billions)";
        return -1;
    }
    if (*length >= *period) {
        *why = "LENGTH must be smaller than PERIOD (a LENGTH of PERIOD analyses everything: leave --sample out)";
        return -1;
    }
    return 0;
}
