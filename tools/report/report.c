/* tools/report/report.c - the text report of an analysis (edan analyze, edan
   trace; the QEMU plugin prints it too): the trace, the verdicts, the
   table of metrics and bounds, the --top lists, the threads and the
   named regions; cli_report prints it or the JSON report
   (tools/report/report_json.c) and writes the files (tools/report/report_files.c). */
#include <string.h>
#include "report.h"

static void cli_hot_key(const cli_analysis *a, const edan_hotspot *h, char *buf, size_t n)
{
    edan_insn in;
    char text[160];
    memset(&in, 0, sizeof in);
    in.pc = h->key;
    in.op = h->op;
    in.flags = EDAN_INSN_HAS_PC;
    cli_insn_text(a, &in, 0, text, sizeof text);
    /* the program file's address, as objdump -d has it: where it was loaded does not show */
    if (h->has_pc) snprintf(buf, n, "0x%llx %s", (unsigned long long)cli_file_address(a, h->key), text);
    else snprintf(buf, n, "%s", cli_op_name(a, (uint32_t)h->key));
}

static void cli_table_sampled(const cli_sampled *s, uint32_t m, const char *config, FILE *o)
{
    static const char *const names[3] = {"W", "bytes between the last level and RAM", "lambda (the windows')"};
    cli_estimate e[3];
    uint64_t i, an = (uint64_t)s->sum[CLI_WIN_INSNS];
    int k;
    cli_sample_estimates(s, m, e);
    if (!s->period) {       /* --skip alone: one window from there on */
        fprintf(o, "SKIPPED: the first %llu instructions of the scope ran without analysis (--skip); the counts below "
                "are of the %llu that followed, of %llu.\n\n", (unsigned long long)s->skip, (unsigned long long)an,
                (unsigned long long)s->insns);
        return;
    }
    fprintf(o, "SAMPLED: %llu window%s of %llu instructions of the scope every %llu", (unsigned long long)s->windows,
            s->windows == 1 ? "" : "s", (unsigned long long)s->length, (unsigned long long)s->period);
    if (s->skip) fprintf(o, ", after %llu skipped", (unsigned long long)s->skip);
    fprintf(o, ": %llu of %llu instructions analysed (%.1f%%). The counts below are the windows'; each window starts "
            "with every writer forgotten, so no chain crosses windows. The whole run, estimated from the windows",
            (unsigned long long)an, (unsigned long long)s->insns, s->insns ? 100.0 * (double)an / (double)s->insns : 0);
    if (config) fprintf(o, " (its first configuration, %s)", config);
    fprintf(o, s->windows >= 2 ? " (95%% interval from their spread):\n" : " (one window: no interval):\n");
    for (k = 0; k < 3; k++) {
        const char *f = k == 2 ? "  %s: %.1f" : "  %s: %.0f", *fi = k == 2 ? " [%.1f, %.1f]" : " [%.0f, %.0f]";
        fprintf(o, f, names[k], e[k].value);
        if (e[k].interval) fprintf(o, fi, e[k].low, e[k].high);
        if (k == 2) fprintf(o, " at m = %u", m);
        fputc('\n', o);
    }
    fprintf(o, "  D: at least %llu (the deepest window's%s)\n", (unsigned long long)s->D_max,
            s->D_lower ? ", itself a lower bound" : "");
    fprintf(o, "  %-14s %14s %12s %12s %10s\n", "window start", "instructions", "W", "D", "lambda");
    for (i = 0; i < s->windows && i < 8; i++) {
        const cli_window *x = &s->listed[i];
        fprintf(o, "  %-14llu %14llu %12llu %11llu%s %10.1f\n", (unsigned long long)x->start,
                (unsigned long long)x->insns, (unsigned long long)x->W, (unsigned long long)x->D, x->D_lower ? "+" : " ",
                cli_window_lambda(x, m));
    }
    if (s->windows > 8)
        fprintf(o, "  ... %llu more (--json lists up to %d)\n", (unsigned long long)(s->windows - 8), CLI_SAMPLE_LISTED);
    fputc('\n', o);
}

/* The threads of a trace of several: each one's N, W, D, chained share in
   configuration 0 and the edges into it from other threads (values passed
   between threads, through memory or a new thread's registers). */
static void cli_report_threads(edan_context *ctx, FILE *o)
{
    uint32_t t;
    uint64_t cross = 0;
    char label[128];
    if (edan_num_threads(ctx) < 2) return;
    cli_config_label(edan_get_config(ctx, 0), label, sizeof label);
    fprintf(o, "\nThreads [%s]:\n  %6s %14s %12s %12s %10s %14s\n", label, "thread", "instructions", "W", "D",
            "chained", "edges from");
    fprintf(o, "  %6s %14s %12s %12s %10s %14s\n", "", "", "", "", "", "other threads");
    uint32_t shown = 0, more = 0;
    uint64_t moreN = 0, moreW = 0;
    for (t = 0; t < edan_num_threads(ctx); t++) {
        edan_thread_metrics tm;
        if (edan_get_thread_metrics(ctx, 0, t, &tm) != EDAN_OK) continue;
        cross += tm.cross_edges;
        if (shown == 32) {      /* thousands of short threads: the first ones, then a sum */
            more++;
            moreN += tm.N;
            moreW += tm.W;
            continue;
        }
        shown++;
        fprintf(o, "  %6u %14llu %12llu %12llu %9.1f%% %14llu\n", t, (unsigned long long)tm.N,
                (unsigned long long)tm.W, (unsigned long long)tm.D,
                tm.W ? 100.0 * (double)tm.chained / (double)tm.W : 0.0, (unsigned long long)tm.cross_edges);
    }
    if (more)
        fprintf(o, "  ... %u more threads: %llu instructions, W %llu in all (--json lists every thread)\n", more,
                (unsigned long long)moreN, (unsigned long long)moreW);
    fprintf(o, "  cross-thread edges: %llu\n", (unsigned long long)cross);
}

/* A row of the table: its name, then a column of width w per configuration. */
static void cli_row_u(FILE *o, const char *name, const uint64_t *v, uint32_t K, int w)
{
    uint32_t k;
    fprintf(o, "  %-26s", name);
    for (k = 0; k < K; k++) fprintf(o, " %*llu", w, (unsigned long long)v[k]);
    fputc('\n', o);
}
/* A row of configurations' values; "-" in the columns whose has[k] is 0
   (has NULL: none; a windowed schedule that did not run there). */
static void cli_row_where(FILE *o, const char *name, const double *v, const int *has, uint32_t K, const char *fmt, int w)
{
    uint32_t k;
    char cell[64];
    fprintf(o, "  %-26s", name);
    for (k = 0; k < K; k++) {
        if (!has || has[k]) snprintf(cell, sizeof cell, fmt, v[k]);
        else snprintf(cell, sizeof cell, "-");
        fprintf(o, " %*s", w, cell);
    }
    fputc('\n', o);
}
static void cli_row_d(FILE *o, const char *name, const double *v, uint32_t K, const char *fmt, int w)
{
    cli_row_where(o, name, v, NULL, K, fmt, w);
}

/* The table's rows: `expr`, a value of configuration k, for each k. */
#define CLI_ROW_U(title, expr) do { for (k = 0; k < K; k++) u[k] = (expr); cli_row_u(o, title, u, K, w); } while (0)
#define CLI_ROW_D(title, expr, fmt) \
    do { for (k = 0; k < K; k++) d[k] = (expr); cli_row_d(o, title, d, K, fmt, w); } while (0)

/* What the scope's name of entry i found, on a line, when it is worth
   saying (an IFUNC, a shared object's function, several functions, a C++
   function named short);
   *next: the entry after the name's. */
static void cli_table_scope_name(const cli_tracer *t, size_t i, size_t *next, FILE *o)
{
    size_t j, end = i;
    int say = 0;
    while (end < t->nscoped && !strcmp(t->scoped[end].name, t->scoped[i].name) &&
           !strcmp(t->scoped[end].option, t->scoped[i].option))
        end++;
    *next = end;
    for (j = i; j < end; j++) say |= t->scoped[j].ifunc || t->scoped[j].shared || t->scoped[j].short_of[0] || end - i > 1;
    if (!say) return;
    fprintf(o, "Scope: %s %s:", t->scoped[i].option, t->scoped[i].name);
    for (j = i; j < end; j++) {
        const cli_scoped *f = &t->scoped[j];
        if (f->ifunc && !f->function[0])
            fprintf(o, "%s an IFUNC of %s whose implementation the program never reached", j > i ? ";" : "", f->object);
        else if (f->ifunc)
            fprintf(o, "%s %s [%s], the implementation of the IFUNC that the program ran", j > i ? ";" : "", f->function,
                    f->object);
        else
            fprintf(o, "%s %s [%s]", j > i ? ";" : "", f->short_of[0] ? f->short_of : f->function, f->object);
    }
    fprintf(o, "\n");
}

/* --func alone: the instructions its functions' calls ran outside the
   scope, and in which functions, when there were any. */
static void cli_table_called_out(const cli_tracer *t, FILE *o)
{
    size_t i;
    const char *name = "NAME";
    char n[32];
    for (i = 0; i < t->nscoped; i++)
        if (!strcmp(t->scoped[i].option, "--func")) {
            name = t->scoped[i].name;
            break;
        }
    fprintf(o, "Called out: calls from the --func scope ran %s instructions outside it, which were not analysed",
            cli_group(n, sizeof n, t->called_out));
    for (i = 0; i < t->ncallees; i++)
        fprintf(o, "%s%s%s%s%s %s", i ? ", " : ": ", t->callees[i].function[0] ? t->callees[i].function : "?",
                t->callees[i].object[0] ? " [" : "", t->callees[i].object, t->callees[i].object[0] ? "]" : "",
                cli_group(n, sizeof n, t->callees[i].insns));
    fprintf(o, ". --region %s analyses the function with all it calls.\n", name);
}

/* What the tracer met that the numbers depend on: what the scope's names
   found, signal handlers, non-local exits, transfers it could not place. */
static void cli_table_tracer(const cli_tracer *t, FILE *o)
{
    size_t i, next;
    int said = 0;
    for (i = 0; i < t->nscoped; i = next) cli_table_scope_name(t, i, &next, o), said = 1;
    if (t->func_scope && t->called_out) cli_table_called_out(t, o), said = 1;
    if (t->signals) {
        fprintf(o, "Signals: %llu signal handler%s ran, analysed as code of the program (within the scope or not, as any "
                "code); at each one's sigreturn the interrupted code got its registers back", (unsigned long long)t->signals,
                t->signals == 1 ? "" : "s");
        if (t->signals_cut) fprintf(o, "; %llu at a fault, after the instructions before it", (unsigned long long)t->signals_cut);
        if (t->signals_left) fprintf(o, "; %llu left by a non-local exit", (unsigned long long)t->signals_left);
        fprintf(o, ".\n");
        said = 1;
    }
    if (t->sigreturns_unseen) {
        fprintf(o, "Signals: %llu sigreturn%s whose handler's start the tracer did not see: the registers lost their "
                "writers there.\n", (unsigned long long)t->sigreturns_unseen, t->sigreturns_unseen == 1 ? "" : "s");
        said = 1;
    }
    if (t->nonlocal) {
        fprintf(o, "Non-local exits: %llu (longjmp, C++ exceptions) left frames; a --region or --exclude scope ends when "
                "control returns below its frame by any path.\n", (unsigned long long)t->nonlocal);
        said = 1;
    }
    if (t->unplaced_in_scope) {
        fprintf(o, "WARNING: %llu time%s control went somewhere no frame explains while a --region or --exclude scope "
                "ran (first from 0x%llx to 0x%llx: a coroutine switch, a hand-made stack?): the tracer could not follow "
                "it, and where the scope ends may be wrong there.\n", (unsigned long long)t->unplaced_in_scope,
                t->unplaced_in_scope == 1 ? "" : "s", (unsigned long long)t->unplaced_from,
                (unsigned long long)t->unplaced_to);
        said = 1;
    }
    if (said) fputc('\n', o);
}

/* What was analysed, the job's rank, whether it is partial, each
   configuration's verdict. */
/* Where the report's machine came from, when not all from a profile: the
   report's first lines, before any number (README, "Reading the report"). */
static void cli_table_settings(edan_context *ctx, const cli_analysis *a, FILE *o)
{
    uint32_t k;
    int said = 0;
    char label[128], prof[128];
    if (!a->cmd.profile_path && !a->cmd.no_profile) {
        const edan_config *c = edan_get_config(ctx, 0);
        char list[256] = "";
        size_t n = 0;
        if (!(a->cmd.explicit_set[0] & CLI_SET_ALPHA))
            n += (size_t)snprintf(list + n, sizeof list - n, "RAM latency alpha %u cycles, ", c->alpha);
        if (!(a->cmd.explicit_set[0] & CLI_SET_FREQ))
            n += (size_t)snprintf(list + n, sizeof list - n, "clock %.3g GHz, ", c->freq_ghz);
        if (!a->opts.num_m) n += (size_t)snprintf(list + n, sizeof list - n, "m %u, ", cli_verdict_m(a));
        if (!(a->cmd.explicit_set[0] & CLI_SET_CACHE)) n += (size_t)snprintf(list + n, sizeof list - n, "no cache, ");
        if (!(a->cmd.explicit_set[0] & CLI_SET_WINDOW_ANY) && !a->cmd.paper)
            n += (size_t)snprintf(list + n, sizeof list - n, "window %u/%u/%u/%u, ", c->window, c->lq, c->sq,
                                  c->width);
        if (n >= 2 && n < sizeof list) list[n - 2] = 0;
        if (list[0])
            fprintf(o, "No hardware profile of this machine: the model's defaults (%s) stand where no option is "
                    "given. ./probe measures them and writes this machine's profile, which every later run uses "
                    "(make run does too); --profile FILE takes another machine's.\n\n", list);
    }
    if (a->cmd.profile_path) cli_config_label(&a->prof.caches, prof, sizeof prof);
    for (k = 0; a->cmd.profile_path && k < edan_num_configs(ctx); k++) {
        if (!(a->cmd.explicit_set[k] & CLI_SET_CACHE)) continue;
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        fprintf(o, "Caches [%s]: --cache, in place of the profile's whole hierarchy (%s).\n", label, prof);
        said = 1;
    }
    if (said) fputc('\n', o);
}

static void cli_table_head(edan_context *ctx, const cli_analysis *a, const char *source, const edan_metrics *mt,
                           FILE *o)
{
    uint32_t k;
    char label[128];
    if (a->run.isa == EDAN_ISA_X86_64)
        fprintf(o, "%s (x86-64): %llu instructions cracked into %llu vertices (%llu loads, %llu stores, the rest "
                "operations; N counts the vertices), %llu register and memory edges\n\n",
                source, (unsigned long long)a->run.machine_insns, (unsigned long long)mt->N,
                (unsigned long long)mt->loads, (unsigned long long)mt->stores,
                (unsigned long long)(mt->E - mt->fill_edges));
    else
        fprintf(o, "%s (RISC-V): %llu instructions (%llu loads, %llu stores, %llu atomics), %llu register and memory "
                "edges\n\n", source, (unsigned long long)mt->N, (unsigned long long)mt->loads,
                (unsigned long long)mt->stores, (unsigned long long)mt->amos,
                (unsigned long long)(mt->E - mt->fill_edges));
    if (a->run.job) fprintf(o, "Rank %ld of %ld, on %s.\n\n", a->run.job->rank, a->run.job->size, a->run.job->host);
    if (a->run.partial)
        fprintf(o, "PARTIAL: the run ended early (%s): this report covers what was analysed until then.\n\n",
                a->run.partial);
    if (a->run.tracer) cli_table_tracer(a->run.tracer, o);
    if (a->run.sampled) {       /* the windows' counts are the first configuration's */
        cli_config_label(edan_get_config(ctx, 0), label, sizeof label);
        cli_table_sampled(a->run.sampled, cli_verdict_m(a), edan_num_configs(ctx) > 1 ? label : NULL, o);
    }
    for (k = 0; k < edan_num_configs(ctx); k++) {
        cli_verdict v;
        cli_verdict_make(ctx, a, k, &v);
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        fprintf(o, "Verdict [%s]: %s.\n", label, v.text);
    }
    fputc('\n', o);
}

/* The configurations' labels over their columns; returns the columns'
   width, that of the longest label (none is cut), 18 at least. */
static int cli_table_columns(edan_context *ctx, FILE *o)
{
    uint32_t k, K = edan_num_configs(ctx);
    int w = 18;
    char label[128];
    for (k = 0; k < K; k++) {
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        if ((int)strlen(label) > w) w = (int)strlen(label);
    }
    fprintf(o, "  %-26s", "");
    for (k = 0; k < K; k++) {
        cli_config_label(edan_get_config(ctx, k), label, sizeof label);
        fprintf(o, " %*s", w, label);
    }
    fputc('\n', o);
    return w;
}

/* The eDAG's metrics, a row each. */
static void cli_table_metrics(edan_context *ctx, const cli_analysis *a, const edan_metrics *mt, int w, FILE *o)
{
    uint32_t k, K = edan_num_configs(ctx);
    uint64_t u[EDAN_MAX_CONFIGS] = {0};
    double d[EDAN_MAX_CONFIGS] = {0};
    CLI_ROW_U("alpha (cycles)", edan_get_config(ctx, k)->alpha);
    CLI_ROW_U("memory work W", mt[k].W);
    CLI_ROW_U("memory depth D", mt[k].D);
    CLI_ROW_U("chained (md >= 2)", mt[k].chained);
    CLI_ROW_U("forwarded loads", mt[k].forwarded);
    CLI_ROW_U("fill edges", mt[k].fill_edges);
    CLI_ROW_U("C (cycles)", mt[k].C);
    CLI_ROW_U("T1 (cycles)", mt[k].T1);
    CLI_ROW_U("Tinf (cycles)", mt[k].Tinf);
    CLI_ROW_D("parallelism T1/Tinf", mt[k].parallelism, "%.2f");
    CLI_ROW_D("W/C", mt[k].C ? (double)mt[k].W / (double)mt[k].C : 0.0, "%.4f");
    CLI_ROW_U("bytes to/from RAM", mt[k].bytes);
    CLI_ROW_U("bytes requested (ld+st)", mt[k].load_bytes + mt[k].store_bytes);
    CLI_ROW_U("flops", cli_flops(ctx, a));
    /* the bandwidth the run would need to finish in its critical path's
       time: a figure of the model, not a measurement (each configuration's
       clock) */
    CLI_ROW_D("B = bytes/Tinf (B/cycle)", mt[k].B_bytes_per_cycle, "%.3f");
    CLI_ROW_D("B = bytes/Tinf (GB/s)", mt[k].B_GBps, "%.2f");
}

/* The bounds for each m; with --alpha-add, the time bounds with RAM farther. */
static void cli_table_bounds(edan_context *ctx, const cli_analysis *a, int w, FILE *o)
{
    uint32_t k, K = edan_num_configs(ctx), j, num_m = cli_num_m(a);
    double d[EDAN_MAX_CONFIGS] = {0};
    for (j = 0; j < num_m; j++) {
        uint32_t m = cli_m_at(a, j);
        edan_bounds b[EDAN_MAX_CONFIGS];
        for (k = 0; k < K; k++) edan_get_bounds(ctx, k, m, &b[k]);
        fprintf(o, "  m = %u\n", m);
        {   /* the windowed schedule first, where it ran at this m ("-": not here) */
            edan_window wd[EDAN_MAX_CONFIGS];
            int any = 0, has[EDAN_MAX_CONFIGS];
            for (k = 0; k < K; k++) any |= has[k] = cli_window_at(ctx, a, k, m, &wd[k]);
            if (any) {
                for (k = 0; k < K; k++) d[k] = (double)wd[k].T;
                cli_row_where(o, "  T window (cycles)", d, has, K, "%.0f", w);
                for (k = 0; k < K; k++) d[k] = (double)wd[k].lambda;
                cli_row_where(o, "  lambda window", d, has, K, "%.0f", w);
            }
        }
        CLI_ROW_D("  lambda", b[k].lambda, "%.2f");
        CLI_ROW_D("  Lambda", b[k].Lambda, "%.6g");
        CLI_ROW_D("  T lower (cycles)", b[k].T_lower, "%.1f");
        CLI_ROW_D("  T layered (cycles)", b[k].T_layered, "%.1f");
        CLI_ROW_D("  T upper (cycles)", b[k].T_upper, "%.1f");
    }
    if (!(a->cmd.alpha_add_ns > 0)) return;
    fprintf(o, "\nWhat-if: RAM latency + %g ns\n", a->cmd.alpha_add_ns);
    CLI_ROW_D("alpha far (cycles)", cli_far_alpha(edan_get_config(ctx, k), a->cmd.alpha_add_ns), "%.1f");
    for (j = 0; j < num_m; j++) {
        uint32_t m = cli_m_at(a, j);
        edan_bounds nb[EDAN_MAX_CONFIGS], fb[EDAN_MAX_CONFIGS];
        for (k = 0; k < K; k++) {
            edan_get_bounds(ctx, k, m, &nb[k]);
            edan_get_bounds_at(ctx, k, m, cli_far_alpha(edan_get_config(ctx, k), a->cmd.alpha_add_ns), &fb[k]);
        }
        fprintf(o, "  m = %u\n", m);
        {   /* the window's slope first, where it ran at this m ("-": not here) */
            edan_window wd[EDAN_MAX_CONFIGS];
            int any = 0, has[EDAN_MAX_CONFIGS];
            for (k = 0; k < K; k++) any |= has[k] = cli_window_at(ctx, a, k, m, &wd[k]);
            if (any) {
                for (k = 0; k < K; k++)
                    d[k] = (double)wd[k].lambda * (cli_far_alpha(edan_get_config(ctx, k), a->cmd.alpha_add_ns) -
                                                   (double)edan_get_config(ctx, k)->alpha);
                cli_row_where(o, "  + lambda_window x d-alpha", d, has, K, "%.1f", w);
            }
        }
        CLI_ROW_D("  T upper far (cycles)", fb[k].T_upper, "%.1f");
        CLI_ROW_D("  + lambda x d-alpha", fb[k].T_upper - nb[k].T_upper, "%.1f");
        CLI_ROW_D("  slowdown (upper)", nb[k].T_upper > 0 ? fb[k].T_upper / nb[k].T_upper : 1.0, "%.4fx");
    }
}
#undef CLI_ROW_U
#undef CLI_ROW_D

/* Where each configuration's values come from: the profile, the options. */
static void cli_table_provenance(edan_context *ctx, const cli_analysis *a, FILE *o)
{
    uint32_t k;
    char label[128];
    fprintf(o, "\nWhere the values come from");
    if (a->cmd.profile_path)
        fprintf(o, " (profile %s%s, measured m = %u)", a->cmd.profile_path,
                a->prof.own ? ": this machine's own, used without --profile; --no-profile to go without" : "",
                a->prof.m);
    fprintf(o, ":\n");
    if (a->run.tracer)
        fprintf(o, "  the program's addresses: %s\n",
                a->run.tracer->aslr ? "randomised by the system (--aslr): caches may see other sets in another run"
                                    : "the same in every run (address randomisation off; --aslr keeps it)");
    if (a->prof.cache_note[0]) fprintf(o, "  the profile's caches: %s\n", a->prof.cache_note);
    for (k = 0; k < edan_num_configs(ctx); k++) {
        const edan_config *c = edan_get_config(ctx, k);
        cli_config_label(c, label, sizeof label);
        fprintf(o, "  %s:\n    %s\n", label, a->prof.provenance[k]);
        if (c->tau && c->tau != a->configs[k].tau)
            fprintf(o, "    timeline: tau %llu cycles (--tau %llu would need more than the bins allowed; each "
                       "doubling keeps every other bin)\n",
                    (unsigned long long)c->tau, (unsigned long long)a->configs[k].tau);
    }
}

/* A hotspot's function [object]  file:line, when the program is known. */
static void cli_table_where(cli_where *w, const edan_hotspot *h, char *where, size_t n)
{
    const char *fn, *sym, *file, *base, *object;
    char fo[400];
    int line;
    where[0] = 0;
    if (!h->has_pc || !cli_where_any(w)) return;
    cli_where_at(w, h->key, &fn, &sym, &file, &line, &object);
    base = file ? strrchr(file, '/') : NULL;
    snprintf(fo, sizeof fo, "%s%s%s%s", fn ? fn : "?", object ? " [" : "", object ? object : "", object ? "]" : "");
    if (file) snprintf(where, n, "%s  %s:%d", fo, base ? base + 1 : file, line);
    else snprintf(where, n, "%s", fo);
}

/* Configuration k's --top list; 0, or -1 (a message printed) when out of memory. */
static int cli_table_hotspots(edan_context *ctx, const cli_analysis *a, uint32_t k, const edan_metrics *mt,
                              cli_where *w, FILE *o)
{
    char key[200], where[720], chain[24] = "", label[128];
    int kw = 24;
    cli_hot t;
    const edan_hotspot *h;
    size_t q;
    if (cli_hot_get(ctx, a, k, &t)) return -1;
    h = t.h;
    cli_config_label(edan_get_config(ctx, k), label, sizeof label);
    for (q = 0; q < t.n; q++) {     /* the instruction column as wide as its longest entry */
        cli_hot_key(a, &h[q], key, sizeof key);
        if ((int)strlen(key) > kw) kw = (int)strlen(key);
    }
    fprintf(o, "\nTop %u memory instructions by chained accesses [%s]:\n", a->cmd.top, label);
    fprintf(o, "  %-*s %12s %12s %12s %8s%s  %s\n", kw, "instruction",
            a->run.isa == EDAN_ISA_X86_64 ? "accesses" : "executed", "mem vertices", "chained", "max md",
            t.chain ? "    chain" : "", cli_where_any(w) ? "where" : "");
    for (q = 0; q < t.n; q++) {
        cli_table_where(w, &h[q], where, sizeof where);
        if (t.chain) snprintf(chain, sizeof chain, " %8llu", (unsigned long long)t.chain[q]);
        cli_hot_key(a, &h[q], key, sizeof key);
        fprintf(o, "  %-*s %12llu %12llu %12llu %8llu%s  %s\n", kw, key, (unsigned long long)h[q].executed,
                (unsigned long long)h[q].mem_vertices, (unsigned long long)h[q].chained,
                (unsigned long long)h[q].max_md, chain, where);
    }
    if (t.chain) fprintf(o, "  (chain: the instruction's accesses among the D = %llu of the critical chain)\n",
                         (unsigned long long)mt->D);
    else if (a->cmd.chain) fprintf(o, "  (no critical chain: %s)\n", t.why);
    cli_hot_free(&t);
    return 0;
}

/* Each named region's section: what it ran, its verdicts and metrics
   (the main report's provenance holds for them). */
static void cli_report_regions(const cli_analysis *a, FILE *o)
{
    size_t i;
    for (i = 0; i < a->run.nregions; i++) {
        const cli_region *r = &a->run.regions[i];
        cli_analysis ra = cli_region_analysis(a, r);
        uint32_t k, K = edan_num_configs(r->ctx);
        edan_metrics mt[EDAN_MAX_CONFIGS];
        char title[200];
        int w;
        for (k = 0; k < K; k++) edan_get_metrics(r->ctx, k, &mt[k]);
        snprintf(title, sizeof title, "Region \"%s\", entered %llu time%s%s", r->name, (unsigned long long)r->entries,
                 r->entries == 1 ? "" : "s", r->open_at_end ? " (still open at the end)" : "");
        fprintf(o, "\n");
        cli_table_head(r->ctx, &ra, title, &mt[0], o);
        w = cli_table_columns(r->ctx, o);
        cli_table_metrics(r->ctx, &ra, mt, w, o);
        cli_table_bounds(r->ctx, &ra, w, o);
    }
}

static int cli_report_table(edan_context *ctx, const cli_analysis *a, const char *source, FILE *o)
{
    uint32_t K = edan_num_configs(ctx), k;
    int w;
    edan_metrics mt[EDAN_MAX_CONFIGS];
    for (k = 0; k < K; k++) edan_get_metrics(ctx, k, &mt[k]);
    cli_table_settings(ctx, a, o);     /* once, before the whole report (not a region's section) */
    cli_table_head(ctx, a, source, &mt[0], o);
    w = cli_table_columns(ctx, o);
    cli_table_metrics(ctx, a, mt, w, o);
    cli_table_bounds(ctx, a, w, o);
    cli_table_provenance(ctx, a, o);
    if (a->cmd.top) {
        cli_where where;
        cli_where_open(&where, a);
        for (k = 0; k < K; k++)
            if (cli_table_hotspots(ctx, a, k, &mt[k], &where, o)) {
                cli_where_close(&where);
                return -1;
            }
        if (a->cmd.elf_path && !where.prog.mod)
            fprintf(o, "(no function names: %s: %s)\n", a->cmd.elf_path, where.why ? where.why : "error");
        cli_where_close(&where);
    }
    cli_report_threads(ctx, o);
    cli_report_regions(a, o);
    return 0;
}

int cli_report(edan_context *ctx, const cli_analysis *a, const char *source, FILE *out)
{
    uint32_t k;
    int rc;
    for (k = 0; k < edan_num_configs(ctx); k++) {   /* the timelines' final tau, before anything says it */
        const uint64_t *bins;
        size_t nb;
        if (edan_get_config(ctx, k)->tau && edan_get_timeline(ctx, k, &bins, &nb) != EDAN_OK)
            return cli_err("timeline: %s", edan_error(ctx));
    }
    rc = a->cmd.json ? cli_report_json(ctx, a, source, out) : cli_report_table(ctx, a, source, out);
    if (!rc) rc = cli_write_files(ctx, a);
    fflush(out);
    return rc;
}
