/* tools/front/syms.c - the program's ELF and DWARF, read in one place (cli.h):
   its symbols and line table (libdwfl) that name the hotspots of --top and
   the plugin's messages; its functions by the names users give (libelf,
   demangled by libiberty) for --func, --region, --exclude and annotate
   --func; what the DWARF says of a function inlined everywhere (libdw);
   the executable segments and addresses the plugin places code by. No
   main: linked into edan and into the QEMU plugin. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <elfutils/libdwelf.h>
#include <libiberty/demangle.h>
#include "../cmd/cli.h"
#include "../trace/edan_trace.h"
#include "../common/suggest.h"

/* ---- the program's symbols and line table (elfutils' libdwfl) ------------ */

/* Opens path for symbol lookups; 0, or -1 with *why set. */
int cli_syms_open(cli_syms *s, const char *path, uint64_t bias, const char **why)
{
    static const Dwfl_Callbacks cb = {NULL, dwfl_standard_find_debuginfo, dwfl_offline_section_address, NULL};
    int fd;
    memset(s, 0, sizeof *s);
    s->bias = bias;
    fd = open(path, O_RDONLY);
    if (fd < 0) { *why = strerror(errno); return -1; }
    s->dwfl = dwfl_begin(&cb);
    if (!s->dwfl) { close(fd); *why = dwfl_errmsg(-1); return -1; }
    s->mod = dwfl_report_offline(s->dwfl, "", path, fd);     /* takes the descriptor */
    dwfl_report_end(s->dwfl, NULL, NULL);
    if (!s->mod || !dwfl_module_getelf(s->mod, &s->mbias)) {
        *why = "not an ELF file";
        dwfl_end(s->dwfl);
        s->dwfl = NULL;
        return -1;
    }
    return 0;
}

/* A C++ symbol as users write its name: qualified, with template
   arguments, without return type, parameters or clone suffix
   ("geo::dot<double>"); NULL for another symbol. malloc'd. */
static char *cli_demangle_name(const char *sym)
{
    return strncmp(sym, "_Z", 2) ? NULL : cplus_demangle(sym, DMGL_ANSI);
}

void cli_syms_at(cli_syms *s, uint64_t pc, const char **name, const char **file, int *line)
{
    Dwarf_Addr a = (Dwarf_Addr)(pc - s->bias) + s->mbias;
    Dwfl_Line *l;
    *name = *file = s->sym = NULL;
    *line = 0;
    if (!s->mod) return;
    *name = s->sym = dwfl_module_addrname(s->mod, a);
    free(s->demangled);
    s->demangled = *name ? cli_demangle_name(*name) : NULL;
    if (s->demangled) *name = s->demangled;
    l = dwfl_module_getsrc(s->mod, a);
    if (l) *file = dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL);
}

const char *cli_syms_func_at(cli_syms *s, uint64_t pc, uint64_t *lo, uint64_t *hi)
{
    GElf_Sym sym;
    GElf_Off off;
    const char *name;
    if (!s->mod) return NULL;
    name = dwfl_module_addrinfo(s->mod, (Dwarf_Addr)(pc - s->bias) + s->mbias, &off, &sym, NULL, NULL, NULL);
    if (!name) return NULL;
    *lo = pc - off;
    *hi = pc - off + (sym.st_size ? sym.st_size : 1);
    return name;
}

const char *cli_syms_comp_dir(cli_syms *s, uint64_t pc)
{
    Dwfl_Line *l = s->mod ? dwfl_module_getsrc(s->mod, (Dwarf_Addr)(pc - s->bias) + s->mbias) : NULL;
    return l ? dwfl_line_comp_dir(l) : NULL;
}

void cli_syms_func_lines(cli_syms *s, uint64_t lo, uint64_t hi, const char *file, int *first, int *last)
{
    Dwarf_Addr bias, at = (Dwarf_Addr)(lo - s->bias) + s->mbias;
    Dwarf_Die *cu = s->mod ? dwfl_module_addrdie(s->mod, at, &bias) : NULL, *scopes = NULL;
    size_t n = 0, i;
    int ns, k;
    if (!cu) return;
    /* the line of its name (DWARF's declaration line) */
    ns = dwarf_getscopes(cu, at - bias, &scopes);
    for (k = ns - 1; k >= 0; k--) {
        const char *df;
        int dl;
        if (dwarf_tag(&scopes[k]) != DW_TAG_subprogram) continue;
        if ((df = dwarf_decl_file(&scopes[k])) && !strcmp(df, file) && dwarf_decl_line(&scopes[k], &dl) == 0 && dl > 0)
            *first = dl;
        break;
    }
    free(scopes);
    if (dwfl_getsrclines(cu, &n) != 0) return;
    for (i = 0; i < n; i++) {
        Dwfl_Line *dl = dwfl_onesrcline(cu, i);
        Dwarf_Addr a;
        uint64_t pc;
        int ln;
        const char *src = dl ? dwfl_lineinfo(dl, &a, &ln, NULL, NULL, NULL) : NULL;
        if (!src || ln <= 0 || strcmp(src, file)) continue;
        pc = (uint64_t)(a - s->mbias) + s->bias;
        if (pc < lo || pc >= hi) continue;
        if (!*first || ln < *first) *first = ln;
        if (ln > *last) *last = ln;
    }
}

int cli_syms_call_sites(cli_syms *s, uint64_t pc, const char **files, int *lines, int max)
{
    Dwarf_Addr bias, at = (Dwarf_Addr)(pc - s->bias) + s->mbias;
    Dwarf_Die *cu = s->mod ? dwfl_module_addrdie(s->mod, at, &bias) : NULL, *scopes = NULL, *up;
    Dwarf_Files *fs = NULL;
    size_t nfs = 0;
    int ns, k = 0, n = 0;
    if (!cu || (ns = dwarf_getscopes(cu, at - bias, &scopes)) <= 0) return 0;
    if (dwarf_getsrcfiles(cu, &fs, &nfs) != 0) fs = NULL;
    /* the innermost inlined instance's call site, then (the scopes around
       that instance, not around its abstract definition) the next one out */
    while (fs && n < max) {
        Dwarf_Attribute a;
        Dwarf_Word file, line;
        const char *name;
        for (; k < ns && dwarf_tag(&scopes[k]) != DW_TAG_inlined_subroutine; k++) {}
        if (k >= ns) break;
        if (dwarf_attr(&scopes[k], DW_AT_call_file, &a) && dwarf_formudata(&a, &file) == 0 &&
            dwarf_attr(&scopes[k], DW_AT_call_line, &a) && dwarf_formudata(&a, &line) == 0 && line && file < nfs &&
            (name = dwarf_filesrc(fs, file, NULL, NULL))) {
            files[n] = name;
            lines[n++] = (int)line;
        }
        if ((ns = dwarf_getscopes_die(&scopes[k], &up)) <= 0) break;
        free(scopes);
        scopes = up;
        k = 1;      /* up[0] is the instance itself */
    }
    free(scopes);
    return n;
}

void cli_syms_close(cli_syms *s)
{
    if (s->dwfl) dwfl_end(s->dwfl);
    free(s->demangled);
    memset(s, 0, sizeof *s);
}

/* ---- the program's functions by the names users give (--func) ----------- */
static int cli_clone_of(const char *sym, const char *name)
{
    size_t n = strlen(name);
    /* `kernel` also names gcc's clones: kernel.constprop.0, kernel.isra.0,
       kernel.part.0, kernel.cold */
    return strncmp(sym, name, n) == 0 && (sym[n] == 0 || sym[n] == '.');
}

/* The length of the operator's name at p of s ("operator<<", "operator()"),
   whose characters are no brackets; 0 when p starts none. */
static size_t cli_operator_len(const char *s, const char *p)
{
    const char *q = p + 8;
    if (strncmp(p, "operator", 8) || (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) return 0;
    if (q[0] == '(' && q[1] == ')') return 10;
    while (*q && strchr("<>=!+-*/%&|^~[],", *q)) q++;
    return (size_t)(q - p);
}

/* The component of qualified name s after the one at p: after the next
   "::" outside template arguments and parentheses ("get" after
   "geo::Vec<std::pair<int, int> >::get"'s "Vec<..."), or NULL. */
static const char *cli_next_component(const char *s, const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        size_t op = cli_operator_len(s, p);
        if (op) p += op - 1;
        else if (*p == '<' || *p == '(') depth++;
        else if ((*p == '>' || *p == ')') && depth) depth--;
        else if (!depth && p[0] == ':' && p[1] == ':') return p + 2;
    }
    return NULL;
}

/* The last component of a qualified name ("get" of "geo::Vec<int>::get"). */
static const char *cli_last_component(const char *q)
{
    const char *p, *last = q;
    for (p = q; (p = cli_next_component(q, p)) != NULL;) last = p;
    return last;
}

/* Whether name is s or its trailing components ("Grid::sum" of "sim::Grid::sum"). */
static int cli_tail_is(const char *s, const char *name)
{
    const char *p;
    for (p = s; p; p = cli_next_component(s, p))
        if (!strcmp(p, name)) return 1;
    return 0;
}

/* s without its template arguments ("sim::Grid::sum" of
   "sim::Grid<double>::sum<int>"), malloc'd; NULL when it has none, they
   do not balance, or out of memory. */
static char *cli_strip_templates(const char *s)
{
    char *out = (char *)malloc(strlen(s) + 1), *o = out;
    const char *p;
    int depth = 0, any = 0;
    if (!out) return NULL;
    for (p = s; *p; p++) {
        size_t op = depth ? 0 : cli_operator_len(s, p);
        if (op) {
            memcpy(o, p, op);
            o += op;
            p += op - 1;
        } else if (*p == '<') {
            depth++;
            any = 1;
        } else if (*p == '>') {
            if (!depth--) break;
        } else if (!depth) {
            *o++ = *p;
        }
    }
    *o = 0;
    if (*p || depth || !any) {
        free(out);
        return NULL;
    }
    return out;
}

int cli_func_match(const cli_func *f, const char *name)
{
    const char *mod, *s;
    char *plain;
    size_t n = strlen(name);
    int m = 0;
    if (cli_clone_of(f->name, name)) return CLI_NAME_EXACT;
    /* Fortran (gfortran): an external procedure is NAME_, a module's
       __MODULE_MOD_NAME */
    if (!strncmp(f->name, name, n) && f->name[n] == '_' && f->name[n + 1] == 0) return CLI_NAME_EXACT;
    if (!strncmp(f->name, "__", 2) && (mod = strstr(f->name, "_MOD_")) != NULL && !strcmp(mod + 5, name))
        return CLI_NAME_EXACT;
    if (!f->sig) return 0;
    if (!strcmp(f->sig, name) || !strcmp(f->base, name) || (f->call && !strcmp(f->call, name))) return CLI_NAME_EXACT;
    s = strchr(name, '(') ? f->call : f->base;     /* with its parameters: the signature's trailing components */
    if (s && cli_tail_is(s, name)) return CLI_NAME_SHORT;
    if (strchr(name, '<') || strchr(name, '(') || !(plain = cli_strip_templates(f->base))) return 0;
    if (cli_tail_is(plain, name)) m = CLI_NAME_SHORT;
    free(plain);
    return m;
}

int cli_func_matches(const cli_func *f, const char *name) { return cli_func_match(f, name) != 0; }

/* names[0 .. n) after msg's text: "a, b, c and N more". */
static void cli_list_names(const char *const *names, size_t n, char *msg, size_t cap)
{
    size_t i, len = strlen(msg);
    for (i = 0; i < n && i < 8 && len < cap; i++)
        len += (size_t)snprintf(msg + len, cap - len, "%s%s", i ? ", " : "", names[i]);
    if (i < n && len < cap) snprintf(msg + len, cap - len, " and %zu more", n - i);
}

int cli_funcs_select(const cli_funcs *fs, const char *opt, const char *name, const char *path, int exact_only,
                     unsigned char *sel, char *msg, size_t cap)
{
    unsigned char *kind = (unsigned char *)calloc(fs->n ? fs->n : 1, 1);
    const char **bases = NULL;
    size_t i, k, nexact = 0, nbases = 0;
    int want, count = 0;
    if (kind) {
        for (i = 0; i < fs->n; i++)
            nexact += (kind[i] = (unsigned char)cli_func_match(&fs->f[i], name)) == CLI_NAME_EXACT;
        want = nexact ? CLI_NAME_EXACT : exact_only ? -1 : CLI_NAME_SHORT;
        if (want != CLI_NAME_SHORT || (bases = (const char **)malloc((fs->n ? fs->n : 1) * sizeof *bases)) != NULL) {
            /* a short name: one function (its overloads, its symbol's clones), else which */
            for (i = 0; bases && i < fs->n; i++) {
                if (kind[i] != CLI_NAME_SHORT) continue;
                for (k = 0; k < nbases && strcmp(bases[k], fs->f[i].base); k++) {}
                if (k == nbases) bases[nbases++] = fs->f[i].base;
            }
            if (nbases > 1) {
                snprintf(msg, cap, "%s %s: ambiguous: it names %zu functions of %s: ", opt, name, nbases, path);
                cli_list_names(bases, nbases, msg, cap);
                if (strlen(msg) < cap) snprintf(msg + strlen(msg), cap - strlen(msg), "; give one of them as listed");
                count = -1;
            }
            for (i = 0; count >= 0 && i < fs->n; i++)
                if (kind[i] == want) {
                    if (sel) sel[i] = 1;
                    count++;
                }
            free(bases);
            free(kind);
            return count;
        }
    }
    free(kind);
    snprintf(msg, cap, "out of memory");
    return -1;
}

/* A C++ symbol's signature, its name, and the signature from its name on
   (the signature of a template function starts with its return type). */
static int cli_func_demangle(cli_func *f)
{
    char *clone, *p;
    size_t n;
    f->sig = f->base = NULL;
    f->call = NULL;
    if (strncmp(f->name, "_Z", 2)) return 0;
    if (!(f->sig = cplus_demangle(f->name, DMGL_PARAMS | DMGL_ANSI))) return 0;
    if ((clone = strstr(f->sig, " [clone ")) != NULL) *clone = 0;
    if (!(f->base = cli_demangle_name(f->name))) {
        free(f->sig);
        f->sig = NULL;
        return -1;
    }
    n = strlen(f->base);
    for (p = f->sig; (p = strstr(p, f->base)) != NULL; p++)
        if (p[n] == '(' && (p == f->sig || p[-1] == ' ')) {
            f->call = p;
            break;
        }
    return 0;
}

/* A copy of `like` (its name copied; nothing demangled yet) added to
   v[0 .. *n), of room *cap. 0, or -1 when out of memory. */
static int cli_funcs_add(cli_func **v, size_t *n, size_t *cap, const cli_func *like)
{
    cli_func *f;
    cli_func *nv = (cli_func *)cli_grow(*v, cap, *n, sizeof **v, 256);
    if (!nv) return -1;
    *v = nv;
    f = &nv[*n];
    memset(f, 0, sizeof *f);
    if (!(f->name = strdup(like->name))) return -1;
    f->value = like->value;
    f->size = like->size;
    f->ifunc = like->ifunc;
    f->local = like->local;
    (*n)++;
    return cli_func_demangle(f);
}

/* path as an ELF file (and *fd, which syms_elf_close closes), or NULL. */
static Elf *syms_elf_open(const char *path, int *fd)
{
    Elf *e;
    if (elf_version(EV_CURRENT) == EV_NONE || (*fd = open(path, O_RDONLY)) < 0) return NULL;
    e = elf_begin(*fd, ELF_C_READ, NULL);
    if (e && elf_kind(e) == ELF_K_ELF) return e;
    if (e) elf_end(e);
    close(*fd);
    return NULL;
}

static void syms_elf_close(Elf *e, int fd)
{
    elf_end(e);
    close(fd);
}

/* Whether the ELF asks for an interpreter (PT_INTERP): dynamically
   linked; its path into out[0 .. n) when out is not NULL. */
static int syms_interp(Elf *e, char *out, size_t n)
{
    size_t nph, i, len;
    char *raw = elf_rawfile(e, &len);
    if (elf_getphdrnum(e, &nph) != 0) return 0;
    for (i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP) continue;
        if (!out) return 1;
        if (!raw || ph.p_offset >= len || !ph.p_filesz || ph.p_filesz > len - ph.p_offset || ph.p_filesz >= n) return 0;
        memcpy(out, raw + ph.p_offset, ph.p_filesz);
        out[ph.p_filesz] = 0;
        return 1;
    }
    return 0;
}
#define syms_has_interp(e) syms_interp(e, NULL, 0)

int cli_elf_ident(const char *path, cli_elf_id *id)
{
    int fd, rc = -2;
    Elf *e;
    GElf_Ehdr eh;
    memset(id, 0, sizeof *id);
    if (elf_version(EV_CURRENT) == EV_NONE) return -2;
    if ((fd = open(path, O_RDONLY)) < 0) return -1;
    e = elf_begin(fd, ELF_C_READ, NULL);
    if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh)) {
        id->machine = eh.e_machine;
        id->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
        id->little = eh.e_ident[EI_DATA] == ELFDATA2LSB;
        id->dynamic = syms_has_interp(e);
        rc = 0;
    }
    if (e) elf_end(e);
    close(fd);
    return rc;
}

/* The functions of e's symbol tables of type `want` (SHT_SYMTAB or
   SHT_DYNSYM) into fs: those defined (into fs->f, when `defined`) and
   those imported (into fs->imports, when `imports`). 1 when e has such a
   table, 0 when not, -1 when out of memory. */
static int syms_read_functions(Elf *e, Elf64_Word want, int defined, int imports, cli_funcs *fs, size_t *cap,
                               size_t *icap)
{
    Elf_Scn *scn;
    int found = 0;
    for (scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        Elf_Data *d;
        size_t k, cnt;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != want || sh.sh_entsize == 0 || !(d = elf_getdata(scn, NULL)))
            continue;
        found = 1;
        cnt = sh.sh_size / sh.sh_entsize;
        for (k = 0; k < cnt; k++) {
            GElf_Sym sym;
            cli_func fn;
            int type, undef;
            if (!gelf_getsym(d, (int)k, &sym)) continue;
            type = GELF_ST_TYPE(sym.st_info);
            if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
            memset(&fn, 0, sizeof fn);
            fn.name = elf_strptr(e, sh.sh_link, sym.st_name);
            if (!fn.name || !*fn.name) continue;
            undef = sym.st_shndx == SHN_UNDEF;
            if (undef && imports) {
                if (cli_funcs_add(&fs->imports, &fs->nimports, icap, &fn)) return -1;
            } else if (!undef && defined && sym.st_value != 0) {
                fn.value = sym.st_value;
                fn.size = sym.st_size;
                fn.ifunc = type == STT_GNU_IFUNC;
                fn.local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
                if (cli_funcs_add(&fs->f, &fs->n, cap, &fn)) return -1;
            }
        }
    }
    return found;
}

/* The detached debug file of e (Debian's -dbg packages: by its build id,
   under /usr/lib/debug/.build-id/), open, or NULL. */
static Elf *syms_debug_file(Elf *e, int *fd)
{
    const unsigned char *id;
    ssize_t n = dwelf_elf_gnu_build_id(e, (const void **)&id), k;
    char path[256];
    size_t len;
    Elf *d;
    if (n < 2 || n > 64) return NULL;
    len = (size_t)snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/", id[0]);
    for (k = 1; k < n; k++) len += (size_t)snprintf(path + len, sizeof path - len, "%02x", id[k]);
    snprintf(path + len, sizeof path - len, ".debug");
    if ((*fd = open(path, O_RDONLY)) < 0) return NULL;
    d = elf_begin(*fd, ELF_C_READ, NULL);
    if (!d || elf_kind(d) != ELF_K_ELF) {
        if (d) elf_end(d);
        close(*fd);
        return NULL;
    }
    return d;
}

int cli_funcs_load(cli_funcs *fs, const char *path, const char **why)
{
    int fd, rc;
    Elf *e;
    size_t cap = 0, icap = 0;
    memset(fs, 0, sizeof *fs);
    if (elf_version(EV_CURRENT) == EV_NONE) { *why = elf_errmsg(-1); return -1; }
    if ((fd = open(path, O_RDONLY)) < 0) { *why = strerror(errno); return -1; }
    e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        if (e) elf_end(e);
        close(fd);
        *why = "not an ELF file";
        return -1;
    }
    fs->dynamic = syms_has_interp(e);
    /* the functions: .symtab, else the debug file's, else .dynsym; what the program imports: .dynsym */
    rc = syms_read_functions(e, SHT_SYMTAB, 1, 0, fs, &cap, &icap);
    if (rc > 0) fs->have_symtab = 1;
    if (rc == 0) {
        int dfd;
        Elf *d = syms_debug_file(e, &dfd);
        if (d) {
            rc = syms_read_functions(d, SHT_SYMTAB, 1, 0, fs, &cap, &icap);
            if (rc > 0) fs->debug_symtab = 1;
            elf_end(d);
            close(dfd);
        }
    }
    if (rc >= 0) rc = syms_read_functions(e, SHT_DYNSYM, !fs->have_symtab && !fs->debug_symtab, 1, fs, &cap, &icap);
    elf_end(e);
    close(fd);
    if (rc < 0) {
        cli_funcs_free(fs);
        *why = "out of memory";
        return -1;
    }
    return 0;
}

static void cli_func_list_free(cli_func *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].sig);
        free(v[i].base);
    }
    free(v);
}

void cli_funcs_free(cli_funcs *fs)
{
    cli_func_list_free(fs->f, fs->n);
    cli_func_list_free(fs->imports, fs->nimports);
    memset(fs, 0, sizeof *fs);
}

const cli_func *cli_funcs_import(const cli_funcs *fs, const char *name)
{
    size_t i;
    for (i = 0; i < fs->nimports; i++)
        if (cli_func_matches(&fs->imports[i], name)) return &fs->imports[i];
    return NULL;
}

void cli_funcs_close_matches(const cli_funcs *fs, const char *name, char *out, size_t outlen)
{
    const char *best[5];
    size_t bestd[5], nbest = 0, i, k, limit = suggest_limit(strlen(name));
    out[0] = 0;
    for (i = 0; i < fs->n; i++) {
        const char *shown = fs->f[i].base ? fs->f[i].base : fs->f[i].name;     /* C++: as users write it */
        const char *cmp = strstr(name, "::") ? shown : cli_last_component(shown);
        size_t d = suggest_distance(cmp, strlen(cmp), name, strlen(name));
        if (d > limit && !strstr(shown, name)) continue;
        if (d > limit) d = limit + 1;
        for (k = 0; k < nbest; k++)
            if (strcmp(best[k], shown) == 0) break;
        if (k < nbest) continue;
        if (nbest < 5) { best[nbest] = shown; bestd[nbest++] = d; }
        else {
            size_t worst = 0;
            for (k = 1; k < nbest; k++) if (bestd[k] > bestd[worst]) worst = k;
            if (d >= bestd[worst]) continue;
            best[worst] = shown;
            bestd[worst] = d;
        }
    }
    /* by distance */
    for (i = 1; i < nbest; i++)
        for (k = i; k > 0 && bestd[k] < bestd[k - 1]; k--) {
            const char *t = best[k]; size_t td = bestd[k];
            best[k] = best[k - 1]; bestd[k] = bestd[k - 1];
            best[k - 1] = t; bestd[k - 1] = td;
        }
    for (i = 0; i < nbest; i++) {
        size_t len = strlen(out);
        snprintf(out + len, outlen - len, "%s%s", i ? ", " : "", best[i]);
    }
}

int cli_func_miss(const cli_funcs *fs, const char *opt, const char *name, const char *program, char *msg, size_t n)
{
    char close[1024];
    const cli_func *imp = cli_funcs_import(fs, name);
    if (imp) {
        snprintf(msg, n, "%s %s: %s imports %s from a shared library: edan trace --func names it there (--top lists its "
                 "instructions); only the program's own functions have lines here", opt, name, program,
                 imp->base ? imp->base : imp->name);
        return -1;
    }
    cli_funcs_close_matches(fs, name, close, sizeof close);
    if (close[0])
        snprintf(msg, n, "%s %s: no function of that name in %s; close matches: %s", opt, name, program, close);
    else if (fs->dynamic)
        snprintf(msg, n, "%s %s: no function of that name in %s (no close match among %zu functions; the program is "
                 "dynamically linked: if it is a shared library's, edan trace --func names it there)", opt, name,
                 program, fs->n);
    else
        snprintf(msg, n, "%s %s: no function of that name in %s (no close match among %zu functions)", opt, name,
                 program, fs->n);
    return -1;
}

/* ---- what the DWARF says of a function without a symbol (libdw) --------- */

/* The search: inlined (found), and the functions it was inlined into. */
typedef struct cli_dw { const char *name; int found; char *callers; size_t n; } cli_dw;

static void cli_dw_caller(cli_dw *w, const char *caller)
{
    size_t len = strlen(w->callers);
    const char *p = w->callers;
    if (!caller) return;
    for (; (p = strstr(p, caller)) != NULL; p += strlen(caller))      /* once each */
        if ((p == w->callers || p[-1] == ' ') && (p[strlen(caller)] == ',' || !p[strlen(caller)])) return;
    if (len + strlen(caller) + 3 < w->n) snprintf(w->callers + len, w->n - len, "%s%s", len ? ", " : "", caller);
}

static void cli_dw_walk(Dwarf_Die *first, const char *caller, cli_dw *w, int depth)
{
    Dwarf_Die die = *first, child, next;
    if (depth > 64) return;
    do {
        int tag = dwarf_tag(&die);
        const char *here = caller;
        if (tag == DW_TAG_subprogram) {
            const char *nm = dwarf_diename(&die);
            if (nm && !strcmp(nm, w->name) && dwarf_func_inline(&die)) w->found = 1;
            if (nm) here = nm;
        } else if (tag == DW_TAG_inlined_subroutine) {
            Dwarf_Attribute at;
            Dwarf_Die origin;
            const char *on;
            if (dwarf_attr(&die, DW_AT_abstract_origin, &at) && dwarf_formref_die(&at, &origin) &&
                (on = dwarf_diename(&origin)) != NULL && !strcmp(on, w->name)) {
                w->found = 1;
                cli_dw_caller(w, caller);
            }
        }
        if (dwarf_child(&die, &child) == 0) cli_dw_walk(&child, here, w, depth + 1);
        if (dwarf_siblingof(&die, &next) != 0) break;
        die = next;
    } while (1);
}

int cli_func_inlined(const char *path, const char *name, char *callers, size_t n)
{
    int fd = open(path, O_RDONLY);
    Dwarf *dw;
    Dwarf_Off off = 0, next;
    size_t hsize;
    cli_dw w;
    callers[0] = 0;
    if (fd < 0) return 0;
    dw = dwarf_begin(fd, DWARF_C_READ);
    w.name = name;
    w.found = 0;
    w.callers = callers;
    w.n = n;
    while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu, child;
        if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) cli_dw_walk(&child, NULL, &w, 0);
        off = next;
    }
    if (dw) dwarf_end(dw);
    close(fd);
    return w.found;
}

/* ---- the program's segments (libelf) ------------------------------------ */

int cli_elf_vaddr(const char *path, uint64_t off, uint64_t *vaddr)
{
    int fd, rc = -1;
    Elf *e = syms_elf_open(path, &fd);
    size_t nph, i;
    if (!e) return -1;
    if (elf_getphdrnum(e, &nph) == 0)
        for (i = 0; i < nph && rc; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD) continue;
            if (off >= ph.p_offset && off < ph.p_offset + ph.p_filesz) {
                *vaddr = off - ph.p_offset + ph.p_vaddr;
                rc = 0;
            }
        }
    syms_elf_close(e, fd);
    return rc;
}

int cli_elf_exec_segments(const char *path, int x86, uint64_t *min_vaddr, int *markers, char *err, size_t errlen)
{
    int fd;
    Elf *e;
    size_t nph, i;
    char *raw;
    size_t rawsize;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
        return -1;
    }
    fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        if (e) elf_end(e);
        close(fd);
        snprintf(err, errlen, "%s: not an ELF file", path);
        return -1;
    }
    *min_vaddr = UINT64_MAX;
    *markers = 0;
    raw = elf_rawfile(e, &rawsize);
    if (elf_getphdrnum(e, &nph) == 0) {
        for (i = 0; i < nph; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(e, (int)i, &ph)) continue;
            if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
            if (ph.p_vaddr < *min_vaddr) *min_vaddr = ph.p_vaddr;
            if (raw && ph.p_offset <= rawsize && ph.p_filesz <= rawsize - ph.p_offset) {
                const unsigned char *p = (const unsigned char *)raw + ph.p_offset;
                uint64_t off;
                for (off = 0; !x86 && off + 4 <= ph.p_filesz; off += 2) {
                    uint32_t w = p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
                                 (uint32_t)p[off + 3] << 24;
                    if (w == EDAN_TRACE_BEGIN_INSN) { *markers = 1; break; }
                }
                for (off = 0; x86 && off + EDAN_TRACE_X86_LEN <= ph.p_filesz; off++)
                    if (p[off] == 0x0f && !memcmp(p + off, EDAN_TRACE_X86_BEGIN, EDAN_TRACE_X86_LEN)) {
                        *markers = 1;
                        break;
                    }
            }
        }
    }
    if (*min_vaddr == UINT64_MAX) *min_vaddr = 0;
    elf_end(e);
    close(fd);
    return 0;
}

/* ---- where an address is: a file's functions as ranges ------------------- */
typedef struct cli_fnrange { uint64_t lo, hi, fn; } cli_fnrange;
struct cli_fnmap {
    cli_fnrange *r;         /* the functions with a symbol and a size, sorted by lo */
    size_t n;
    uint64_t *start;        /* every function symbol's address (those without a size too: _init, _fini), sorted */
    size_t nstart;
    uint64_t *fde;          /* the unwind table's functions: their first addresses, sorted */
    uint64_t *fde_end;      /* ... and their ends (= the first: not known) */
    size_t nfde;
    uint64_t plt[8][2];     /* its PLT sections: [lo, hi) */
    int nplt;
};

static int cli_fnrange_cmp(const void *x, const void *y)
{
    const cli_fnrange *a = (const cli_fnrange *)x, *b = (const cli_fnrange *)y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int cli_u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The index after the last of v[0 .. n) (sorted) that is at most addr. */
static size_t cli_upper(const uint64_t *v, size_t n, size_t stride, uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid * stride] <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The value of the function named like part's name without its ".cold"
   (".cold.N") suffix, or part's own. */
static uint64_t cli_fnmap_parent(const cli_funcs *fs, const cli_func *part)
{
    const char *c = strstr(part->name, ".cold");
    size_t len, k;
    if (!c || (c[5] && c[5] != '.')) return part->value;
    len = (size_t)(c - part->name);
    for (k = 0; k < fs->n; k++)
        if (strlen(fs->f[k].name) == len && !strncmp(fs->f[k].name, part->name, len)) return fs->f[k].value;
    return part->value;
}

static int32_t cli_le32(const unsigned char *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static int64_t cli_le64(const unsigned char *p)
{
    return (int64_t)((uint64_t)(uint32_t)cli_le32(p) | (uint64_t)(uint32_t)cli_le32(p + 4) << 32);
}

/* The functions .eh_frame_hdr's search table lists (every function
   compiled with unwind information, hand-written assembly with CFI too),
   as linkers write it: a table of (initial location, FDE) pairs of 4-byte
   offsets from the section's start (DW_EH_PE_datarel | DW_EH_PE_sdata4),
   its count a 4-byte number; each one's end from its FDE in .eh_frame
   (ef, at ef_addr; NULL: not known), whose initial location is a 4-byte
   pc-relative or an 8-byte absolute one (the encodings compilers use). */
static void cli_fnmap_fdes(cli_fnmap *m, Elf_Data *d, uint64_t addr, Elf_Data *ef, uint64_t ef_addr)
{
    const unsigned char *p = (const unsigned char *)d->d_buf;
    size_t k, n, at;
    if (!p || d->d_size < 12 || p[0] != 1 || p[2] != 0x03 || p[3] != 0x3b) return;
    at = 4 + ((p[1] & 0x0f) == 0x03 || (p[1] & 0x0f) == 0x0b ? 4 : (p[1] & 0x0f) == 0x04 || (p[1] & 0x0f) == 0x0c ? 8 : 0);
    if (at == 4 || at + 4 > d->d_size) return;
    n = (size_t)(uint32_t)cli_le32(p + at);
    at += 4;
    if (n > (d->d_size - at) / 8) return;
    m->fde = (uint64_t *)malloc((n ? n : 1) * sizeof *m->fde);
    m->fde_end = (uint64_t *)malloc((n ? n : 1) * sizeof *m->fde_end);
    if (!m->fde || !m->fde_end) return;
    for (k = 0; k < n; k++) {
        uint64_t start = addr + (uint64_t)(int64_t)cli_le32(p + at + 8 * k);
        uint64_t fde = addr + (uint64_t)(int64_t)cli_le32(p + at + 8 * k + 4), off = fde - ef_addr;
        const unsigned char *f = ef && ef->d_buf && fde >= ef_addr && off + 24 <= ef->d_size ?
                                 (const unsigned char *)ef->d_buf + off : NULL;
        m->fde[k] = m->fde_end[k] = start;
        if (!f || (uint32_t)cli_le32(f) == 0xffffffffu) continue;
        if (fde + 8 + (uint64_t)(int64_t)cli_le32(f + 8) == start) m->fde_end[k] = start + (uint32_t)cli_le32(f + 12);
        else if ((uint64_t)cli_le64(f + 8) == start) m->fde_end[k] = start + (uint64_t)cli_le64(f + 16);
    }
    m->nfde = n;
}

cli_fnmap *cli_fnmap_open(const char *path)
{
    cli_fnmap *m = (cli_fnmap *)calloc(1, sizeof *m);
    cli_funcs fs;
    const char *why;
    size_t k, shstr;
    Elf_Scn *scn;
    Elf *e;
    Elf_Data *hdr = NULL, *ef = NULL;
    uint64_t hdr_addr = 0, ef_addr = 0;
    int fd;
    if (!m) return NULL;
    if (cli_funcs_load(&fs, path, &why) == 0) {
        m->r = (cli_fnrange *)malloc((fs.n ? fs.n : 1) * sizeof *m->r);
        m->start = (uint64_t *)malloc((fs.n ? fs.n : 1) * sizeof *m->start);
        for (k = 0; m->r && m->start && k < fs.n; k++) {
            if (fs.f[k].ifunc) continue;    /* its value is its resolver's */
            m->start[m->nstart++] = fs.f[k].value;
            if (!fs.f[k].size) continue;
            m->r[m->n].lo = fs.f[k].value;
            m->r[m->n].hi = fs.f[k].value + fs.f[k].size;
            m->r[m->n].fn = cli_fnmap_parent(&fs, &fs.f[k]);
            m->n++;
        }
        cli_funcs_free(&fs);
        if (m->r) qsort(m->r, m->n, sizeof *m->r, cli_fnrange_cmp);
        if (m->start) qsort(m->start, m->nstart, sizeof *m->start, cli_u64_cmp);
    }
    if (!(e = syms_elf_open(path, &fd))) return m;
    if (elf_getshdrstrndx(e, &shstr) == 0)
        for (scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
            GElf_Shdr sh;
            const char *nm;
            Elf_Data *d;
            if (!gelf_getshdr(scn, &sh) || !(nm = elf_strptr(e, shstr, sh.sh_name))) continue;
            if (!strcmp(nm, ".eh_frame_hdr") && (d = elf_getdata(scn, NULL))) { hdr = d; hdr_addr = sh.sh_addr; }
            if (!strcmp(nm, ".eh_frame") && (d = elf_getdata(scn, NULL))) { ef = d; ef_addr = sh.sh_addr; }
            if ((!strcmp(nm, ".init") || !strcmp(nm, ".fini")) && sh.sh_size) {    /* DT_INIT, DT_FINI: stripped, no CFI */
                uint64_t *ns = (uint64_t *)realloc(m->start, (m->nstart + 1) * sizeof *ns);
                if (ns) {
                    m->start = ns;
                    m->start[m->nstart++] = sh.sh_addr;
                    qsort(m->start, m->nstart, sizeof *m->start, cli_u64_cmp);
                }
            }
            if ((!strncmp(nm, ".plt", 4) || !strcmp(nm, ".iplt")) && m->nplt < 8) {
                m->plt[m->nplt][0] = sh.sh_addr;
                m->plt[m->nplt][1] = sh.sh_addr + sh.sh_size;
                m->nplt++;
            }
        }
    if (hdr) cli_fnmap_fdes(m, hdr, hdr_addr, ef, ef_addr);
    syms_elf_close(e, fd);
    return m;
}

void cli_fnmap_place(cli_fnmap *m, uint64_t addr, uint64_t *fn, int *entry, int *plt)
{
    size_t k;
    *fn = 0;
    *entry = *plt = 0;
    for (k = 0; k < (size_t)m->nplt; k++)
        if (addr >= m->plt[k][0] && addr < m->plt[k][1]) {
            *plt = 1;
            *fn = m->plt[k][0];
            return;
        }
    k = cli_upper(m->start, m->nstart, 1, addr);
    *entry = k && m->start[k - 1] == addr;
    k = m->n ? cli_upper(&m->r[0].lo, m->n, sizeof *m->r / sizeof(uint64_t), addr) : 0;
    if (k && addr < m->r[k - 1].hi) {       /* a function with a symbol */
        *fn = m->r[k - 1].fn;
        return;
    }
    k = cli_upper(m->fde, m->nfde, 1, addr);     /* else the unwind table's */
    if (k) {
        *fn = m->fde[k - 1];
        *entry |= addr == m->fde[k - 1];
    }
}

int cli_fnmap_range(cli_fnmap *m, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
    size_t k = m->n ? cli_upper(&m->r[0].lo, m->n, sizeof *m->r / sizeof(uint64_t), addr) : 0;
    if (k && addr < m->r[k - 1].hi) {
        *lo = m->r[k - 1].lo;
        *hi = m->r[k - 1].hi;
        return 0;
    }
    k = cli_upper(m->fde, m->nfde, 1, addr);
    if (k && addr < m->fde_end[k - 1]) {
        *lo = m->fde[k - 1];
        *hi = m->fde_end[k - 1];
        return 0;
    }
    return -1;
}

void cli_fnmap_close(cli_fnmap *m)
{
    if (!m) return;
    free(m->r);
    free(m->start);
    free(m->fde);
    free(m->fde_end);
    free(m);
}

size_t cli_elf_got_slots(const char *path, const char *name, uint64_t resolver, uint64_t *slots, size_t cap)
{
    int fd;
    Elf *e = syms_elf_open(path, &fd);
    Elf_Scn *scn;
    GElf_Ehdr eh;
    size_t n = 0;
    unsigned by_name[3], irel;
    if (!e) return 0;
    if (!gelf_getehdr(e, &eh)) goto done;
    if (eh.e_machine == EM_X86_64) {
        by_name[0] = R_X86_64_JUMP_SLOT; by_name[1] = R_X86_64_GLOB_DAT; by_name[2] = R_X86_64_64;
        irel = R_X86_64_IRELATIVE;
    } else if (eh.e_machine == EM_RISCV) {
        by_name[0] = R_RISCV_JUMP_SLOT; by_name[1] = R_RISCV_64; by_name[2] = R_RISCV_64;
        irel = R_RISCV_IRELATIVE;
    } else {
        goto done;
    }
    for (scn = elf_nextscn(e, NULL); scn && n < cap; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh, symsh;
        Elf_Data *d, *syms = NULL;
        Elf_Scn *symscn;
        size_t k, cnt;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
            continue;
        if (sh.sh_link && (symscn = elf_getscn(e, sh.sh_link)) && gelf_getshdr(symscn, &symsh))
            syms = elf_getdata(symscn, NULL);
        cnt = sh.sh_size / sh.sh_entsize;
        for (k = 0; k < cnt && n < cap; k++) {
            GElf_Rela r;
            GElf_Sym sym;
            unsigned type;
            const char *nm;
            if (!gelf_getrela(d, (int)k, &r)) continue;
            type = (unsigned)GELF_R_TYPE(r.r_info);
            if (type == irel) {
                if (resolver && (uint64_t)r.r_addend == resolver) slots[n++] = r.r_offset;
                continue;
            }
            if ((type != by_name[0] && type != by_name[1] && type != by_name[2]) || !syms || !GELF_R_SYM(r.r_info) ||
                !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) ||
                !(nm = elf_strptr(e, symsh.sh_link, sym.st_name)) || strcmp(nm, name))
                continue;
            slots[n++] = r.r_offset;
        }
    }
done:
    syms_elf_close(e, fd);
    return n;
}

int cli_elf_interp(const char *path, char *out, size_t n)
{
    int fd, rc;
    Elf *e = syms_elf_open(path, &fd);
    if (!e) return -1;
    rc = syms_interp(e, out, n) ? 0 : -1;
    syms_elf_close(e, fd);
    return rc;
}
