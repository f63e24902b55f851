/* tools/common/files.h - how every program of the project reads a whole file and
   writes an output: one place for the rules.

   Output targets:
     "-"                  standard output;
     a regular file, or a name that does not exist yet
                          written to a temporary file beside it and renamed
                          over it when complete (readers never see half a
                          file; a failed write leaves the old one);
     a symbolic link      the same at the file it points to (the link stays);
     anything else        (a FIFO, a terminal, /dev/null, /dev/full, a
                          socket) written in place: replacing it would
                          destroy it.
   A file replaced keeps its mode (and, as root, its owner); a file without
   any write permission is refused, not replaced. A hard link is replaced
   by a new file: its other names keep the old content (as editors do).
   Every write and the final close are checked; a failure names the target
   and the reason. */
#ifndef EDAN_FILES_H
#define EDAN_FILES_H
#include <stddef.h>
#include <stdio.h>

typedef struct files_out {
    FILE *f;
    const char *path;       /* as given, for messages */
    char *target;           /* where the data goes (a link resolved); NULL for standard output */
    char *tmp;              /* the temporary file, when the target is replaced atomically */
} files_out;

/* Opens `path` for writing as above; 0, or -1 with the reason in err. */
int files_out_open(files_out *o, const char *path, char *err, size_t errlen);
/* Checks the writes, closes and (atomic targets) renames; 0, or -1 with the
   reason in err (the temporary file removed, the target untouched). */
int files_out_close(files_out *o, char *err, size_t errlen);
/* Gives up: closes and removes the temporary file; the target untouched. */
void files_out_discard(files_out *o);
/* 1 when path names something an output may be written to without
   creating it (standard output, an existing FIFO or device). */
int files_out_in_place(const char *path);

/* An input or output of a command, and how the command line names it
   ("--timeline", "the trace"). */
typedef struct files_role { const char *path; const char *what; } files_role;
/* Before any work: refused (-1, the reason in err) when an output is the
   same file (device and inode, or the same new name) as an input or as
   another output, or more than one output is standard output ("-", or the
   file standard output already goes to). NULL paths are skipped. */
int files_check_roles(const files_role *out, size_t nout, const files_role *in, size_t nin, char *err, size_t errlen);
/* files_check_roles for one output; the message, `CMD: ...`, on stderr. */
int files_check_output(const char *cmd, const char *out, const char *what, const files_role *in, size_t nin);

/* The whole of a file (or "-", standard input), NUL-terminated; at most
   max bytes. NULL with the reason in err (a directory, too large, ...). */
char *files_read_all(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* This machine's host name ("localhost" when it has none): %h in paths, the
   name of its own profile and the host of a job's rank. */
void files_host(char *host, size_t n);

/* path with %h the host's name, %r the rank (rank < 0: %r kept as it is) and
   %% a %; any other % kept. malloc'd; NULL when out of memory. */
char *files_expand(const char *path, long rank, const char *host);

/* This machine's own hardware profile, HOST.json (the host's name), the
   one edan takes without --profile and probe writes without -o:
   $XDG_DATA_HOME/edan/hwprofiles/ (~/.local/share/edan/hwprofiles/ when
   unset) for a user, then the same under each of $XDG_DATA_DIRS
   (/usr/local/share:/usr/share when unset) for every user of the machine.
   files_own_profile_find: the first readable one (0), -1 when none;
   files_own_profile_home: the user's, its directories made (0), -1 without
   a home. */
int files_own_profile_find(char *buf, size_t n);
int files_own_profile_home(char *buf, size_t n);
#endif
