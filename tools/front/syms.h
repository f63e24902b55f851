/* tools/front/syms.h - the program's ELF and DWARF, read in one place
   (tools/front/syms.c): symbols and source lines by pc (--top, annotate,
   the plugin's messages), functions by the names users give them (--func,
   --region, --exclude), the ELF header's facts, functions by address for
   the tracer's control flow, and IFUNCs' relocation slots. */
#ifndef EDAN_SYMS_H
#define EDAN_SYMS_H
#include <stddef.h>
#include <stdint.h>

/* The program's ELF and DWARF (tools/front/syms.c). Its symbols and DWARF line
   table (elfutils' libdwfl): the function and source line of a PC, for
   --top. bias: added to the program's addresses where it was loaded. */
typedef struct cli_syms {
    void *dwfl, *mod;
    uint64_t mbias, bias;
    const char *sym;        /* the symbol of the last cli_syms_at, as the file has it */
    char *demangled;        /* ... and its C++ name */
} cli_syms;
int cli_syms_open(cli_syms *s, const char *path, uint64_t bias, const char **why);
/* The function and source line of a pc: name (a C++ one demangled, valid
   until the next call; NULL: none), file (NULL: no line table entry), line. */
void cli_syms_at(cli_syms *s, uint64_t pc, const char **name, const char **file, int *line);
/* The symbol holding pc (as the file names it), its extent [*lo, *hi)
   (one byte for a symbol without a size); NULL when none. */
const char *cli_syms_func_at(cli_syms *s, uint64_t pc, uint64_t *lo, uint64_t *hi);
/* The directory the DWARF says pc's source was compiled in, or NULL. */
const char *cli_syms_comp_dir(cli_syms *s, uint64_t pc);
/* The line table's lines of source `file` within [lo, hi): *first (the
   function's declaration line, when its DWARF has one) and *last, each
   widened (0: none yet). */
void cli_syms_func_lines(cli_syms *s, uint64_t lo, uint64_t hi, const char *file, int *first, int *last);
/* Where the code at pc was inlined from, when it was: the call site of
   each inlined function around it, innermost first (the line that calls
   the function pc's line is in, then the line that calls that one...), up
   to max; the number found. The names are the line table's. */
int cli_syms_call_sites(cli_syms *s, uint64_t pc, const char **files, int *lines, int max);
void cli_syms_close(cli_syms *s);

/* The program's functions (libelf), a C++ one demangled (libiberty), and
   the names users give them (--func, --region, --exclude, annotate --func):
   the symbol (mangled or not, or a gcc clone of it: NAME.constprop.0, ...),
   a C++ function's qualified name (`geo::dot<double>`), its signature with
   or without the return type (`geo::dot<double>(double const*, int)`), a
   Fortran procedure's name: these name it exactly. A C++ name's trailing
   components (`Grid::sum_every` of `sim::Grid::sum_every`, `dot<double>`),
   without template arguments when NAME has none (`weighted_sum` of
   `weighted_sum<double>`), name it short. */
typedef struct cli_func {
    char *name;             /* the symbol */
    char *sig, *base;       /* C++: the demangled signature and name, else NULL */
    const char *call;       /* C++: the signature from the name on (no return type) */
    uint64_t value, size;
    int ifunc;              /* an IFUNC: value is its resolver, which picks the implementation at load time */
    int local;              /* a file's own (STB_LOCAL: static in C), not one other objects may call */
} cli_func;
typedef struct cli_funcs {
    cli_func *f; size_t n;              /* defined functions: .symtab, else its detached debug file's (a -dbg
                                           package's), else .dynsym */
    cli_func *imports; size_t nimports; /* functions the program takes from shared libraries */
    int have_symtab, debug_symtab, dynamic;
} cli_funcs;
int cli_funcs_load(cli_funcs *fs, const char *path, const char **why);
void cli_funcs_free(cli_funcs *fs);
enum { CLI_NAME_SHORT = 1, CLI_NAME_EXACT = 2 };
/* How NAME names f: CLI_NAME_EXACT, CLI_NAME_SHORT, or 0 (not at all). */
int cli_func_match(const cli_func *f, const char *name);
int cli_func_matches(const cli_func *f, const char *name);     /* either way */
/* The functions of fs that NAME means, sel[i] set to 1 for each (sel:
   fs->n flags, or NULL): those it names exactly; without any, those it
   names short (unless exact_only) when they are one function (its
   overloads and its symbol's clones are one). Their number; or -1 with
   msg ("OPT NAME: ambiguous: it names 2 functions of PATH: geo::dot<double>,
   geo::dot<float>; give one of them as listed") when they are several,
   or out of memory. */
int cli_funcs_select(const cli_funcs *fs, const char *opt, const char *name, const char *path, int exact_only,
                     unsigned char *sel, char *msg, size_t cap);
/* The function NAME the program imports, or NULL. */
const cli_func *cli_funcs_import(const cli_funcs *fs, const char *name);
/* Up to five functions named like NAME, ", "-separated ("" when none). */
void cli_funcs_close_matches(const cli_funcs *fs, const char *name, char *out, size_t n);
/* The message for OPT NAME that matches no function of program: a
   function it imports, the close matches, or, for a dynamically linked
   program without any, that it may be a shared library's. Returns -1. */
int cli_func_miss(const cli_funcs *fs, const char *opt, const char *name, const char *program, char *msg, size_t n);
/* What the DWARF of path says of NAME, a function without a symbol: 1
   when it was inlined (callers: the functions it was inlined into,
   ", "-separated), else 0. */
int cli_func_inlined(const char *path, const char *name, char *callers, size_t n);
/* The ELF header's facts that edan trace checks before anything runs: the
   machine (EM_*), 64-bit, little-endian, and an interpreter (dynamically
   linked). 0; -1 when the file cannot be opened (errno says why); -2 when
   it is not an ELF file. */
typedef struct cli_elf_id {
    unsigned machine;
    int is64, little, dynamic;
} cli_elf_id;
int cli_elf_ident(const char *path, cli_elf_id *id);
/* The dynamic loader path asks for (PT_INTERP) into out: 0, or -1 (none). */
int cli_elf_interp(const char *path, char *out, size_t n);
/* The address in path's ELF file of the byte at file offset off (its
   PT_LOAD segment's): 0, or -1. */
int cli_elf_vaddr(const char *path, uint64_t off, uint64_t *vaddr);
/* path's executable segments: their lowest address (0: none), and
   whether they hold the EDAN_TRACE_BEGIN marker (x86: its x86-64 form,
   else RISC-V's). 0, or -1 with the message in err. */
int cli_elf_exec_segments(const char *path, int x86, uint64_t *min_vaddr, int *markers, char *err, size_t errlen);

/* Where an address of a file is (the tracer's following of control flow,
   tools/trace/flow.h): its functions from the symbols (.symtab, a detached debug
   file's, .dynsym; a NAME.cold part counted as NAME), code without a symbol
   from the unwind table's ranges (libdw), and its PLT sections. NULL when
   out of memory; a file that cannot be read places nothing. */
typedef struct cli_fnmap cli_fnmap;
cli_fnmap *cli_fnmap_open(const char *path);
/* addr, an address of the file: *fn its function (an id: the function's
   address; 0: not known), *entry whether it is the first instruction of a
   function or part, *plt whether it lies in a PLT. */
void cli_fnmap_place(cli_fnmap *m, uint64_t addr, uint64_t *fn, int *entry, int *plt);
/* The extent [*lo, *hi) of the function holding addr (its symbol's, else
   its unwind table entry's): 0, or -1 when none is known. */
int cli_fnmap_range(cli_fnmap *m, uint64_t addr, uint64_t *lo, uint64_t *hi);
void cli_fnmap_close(cli_fnmap *m);
/* The slots of path's global offset table that hold the address of
   function `name` once it is relocated: its JUMP_SLOT, GLOB_DAT and 64-bit
   relocations against the name, and, when resolver is not 0, the IRELATIVE
   ones whose resolver (addend) it is (an IFUNC called within its own
   object, or a static program's). Their addresses in the file, up to cap;
   their number. */
size_t cli_elf_got_slots(const char *path, const char *name, uint64_t resolver, uint64_t *slots, size_t cap);

#endif
