/* tools/common/files.c - reading whole files and writing outputs (files.h). */
#define _XOPEN_SOURCE 700     /* realpath */
#include "files.h"
#include "edan.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int files_fail(char *err, size_t errlen, const char *path, const char *why)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s", path, why);
    return -1;
}

int files_out_in_place(const char *path)
{
    struct stat sb;
    if (!strcmp(path, "-")) return 1;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

int files_out_open(files_out *o, const char *path, char *err, size_t errlen)
{
    struct stat sb;
    int fd;
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!strcmp(path, "-")) {
        o->f = stdout;
        return 0;
    }
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        /* write at the file the link names; a dangling link: at its target path */
        char buf[PATH_MAX];
        ssize_t n;
        o->target = realpath(path, NULL);
        if (!o->target) {
            n = readlink(path, buf, sizeof buf - 1);
            if (n <= 0) return files_fail(err, errlen, path, strerror(errno));
            buf[n] = 0;
            if (buf[0] != '/' && strrchr(path, '/')) {
                char full[2 * PATH_MAX];
                snprintf(full, sizeof full, "%.*s/%s", (int)(strrchr(path, '/') - path), path, buf);
                o->target = strdup(full);
            } else {
                o->target = strdup(buf);
            }
        }
    } else {
        o->target = strdup(path);
    }
    if (!o->target) return files_fail(err, errlen, path, "out of memory");
    if (stat(o->target, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            files_out_discard(o);
            return files_fail(err, errlen, path, "is a directory");
        }
        if (!S_ISREG(sb.st_mode)) {     /* a FIFO, a device, a socket: in place */
            o->f = fopen(o->target, "w");
            if (!o->f) {
                int e = errno;
                files_out_discard(o);
                return files_fail(err, errlen, path, strerror(e));
            }
            return 0;
        }
    }
    if (stat(o->target, &sb) == 0 && S_ISREG(sb.st_mode) && !(sb.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
        files_out_discard(o);
        return files_fail(err, errlen, path, "is read-only (no write permission): not replaced");
    }
    o->tmp = (char *)malloc(strlen(o->target) + 32);
    if (!o->tmp) {
        files_out_discard(o);
        return files_fail(err, errlen, path, "out of memory");
    }
    sprintf(o->tmp, "%s.tmp.%ld", o->target, (long)getpid());
    fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST) {    /* a stale one of an earlier process of this pid */
        unlink(o->tmp);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    }
    if (fd >= 0 && stat(o->target, &sb) == 0 && S_ISREG(sb.st_mode)) {
        /* the file it replaces keeps its mode and (when allowed) its owner */
        if (fchown(fd, sb.st_uid, sb.st_gid) != 0) { /* not ours to give: the mode still holds */ }
        if (fchmod(fd, sb.st_mode & 07777) != 0) { /* its default mode then; written all the same */ }
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) close(fd);
        free(o->tmp);
        o->tmp = NULL;
        files_out_discard(o);
        return files_fail(err, errlen, path, strerror(e));
    }
    return 0;
}

int files_out_close(files_out *o, char *err, size_t errlen)
{
    int bad = 0, e = 0;
    if (!o->f) return files_fail(err, errlen, o->path, "not open");
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f)) { bad = 1; e = errno; }     /* a failed flush says why */
    if (o->f == stdout) {
        o->f = NULL;
        if (bad) return files_fail(err, errlen, "standard output", e ? strerror(e) : "write error");
        return 0;
    }
    if (fclose(o->f) != 0 && !bad) { bad = 1; e = errno; }
    o->f = NULL;
    if (!bad && o->tmp && rename(o->tmp, o->target) != 0) { bad = 1; e = errno; }
    if (bad) {
        files_out_discard(o);
        return files_fail(err, errlen, o->path, e ? strerror(e) : "write error");
    }
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    return 0;
}

void files_out_discard(files_out *o)
{
    if (o->f && o->f != stdout) fclose(o->f);
    o->f = NULL;
    if (o->tmp) unlink(o->tmp);
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
}

/* Where a role's file is: its device and inode (exists), else the new
   name's full form (its directory resolved). */
typedef struct files_where { int exists, special; dev_t dev; ino_t ino; char name[PATH_MAX + 256]; } files_where;

static void files_locate(const char *path, files_where *w)
{
    struct stat sb;
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    memset(w, 0, sizeof *w);
    if (stat(path, &sb) == 0) {
        w->exists = 1;
        w->special = !S_ISREG(sb.st_mode);      /* a device or FIFO: two writers destroy nothing */
        w->dev = sb.st_dev;
        w->ino = sb.st_ino;
        return;
    }
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? (slash == path ? "/" : path) : ".");
    if (!realpath(dir, real)) snprintf(real, sizeof real, "%s", dir);
    snprintf(w->name, sizeof w->name, "%s/%s", real, slash ? slash + 1 : path);
}

static int files_same_place(const files_where *a, const files_where *b)
{
    if (a->exists != b->exists || a->special || b->special) return 0;
    return a->exists ? a->dev == b->dev && a->ino == b->ino : !strcmp(a->name, b->name);
}

int files_check_roles(const files_role *out, size_t nout, const files_role *in, size_t nin, char *err, size_t errlen)
{
    size_t i, j;
    const char *std = NULL;
    struct stat so;
    files_where wstd, wi, wj;
    /* the file standard output goes to, if a regular one: an output there is a second writer */
    memset(&wstd, 0, sizeof wstd);
    if (fstat(1, &so) == 0 && S_ISREG(so.st_mode)) {
        wstd.exists = 1;
        wstd.dev = so.st_dev;
        wstd.ino = so.st_ino;
    }
    for (i = 0; i < nout; i++) {
        if (!out[i].path) continue;
        if (!strcmp(out[i].path, "-")) {
            if (std) {
                if (err && errlen)
                    snprintf(err, errlen, "%s and %s both go to standard output: give one of them a file", std,
                             out[i].what);
                return -1;
            }
            std = out[i].what;
            continue;
        }
        files_locate(out[i].path, &wi);
        for (j = 0; j < nin; j++) {
            if (!in[j].path || !strcmp(in[j].path, "-")) continue;
            files_locate(in[j].path, &wj);
            if (files_same_place(&wi, &wj)) {
                if (err && errlen)
                    snprintf(err, errlen, "%s %s is %s (%s): writing it would destroy it", out[i].what, out[i].path,
                             in[j].what, in[j].path);
                return -1;
            }
        }
        for (j = 0; j < i; j++) {
            if (!out[j].path || !strcmp(out[j].path, "-")) continue;
            files_locate(out[j].path, &wj);
            if (files_same_place(&wi, &wj)) {
                if (err && errlen)
                    snprintf(err, errlen, "%s and %s name the same file %s", out[j].what, out[i].what, out[i].path);
                return -1;
            }
        }
        if (wstd.exists && files_same_place(&wi, &wstd)) {
            if (err && errlen)
                snprintf(err, errlen, "%s %s is the file standard output goes to: give another", out[i].what,
                         out[i].path);
            return -1;
        }
    }
    return 0;
}

int files_check_output(const char *cmd, const char *out, const char *what, const files_role *in, size_t nin)
{
    files_role o;
    char err[600];
    o.path = out;
    o.what = what;
    if (!files_check_roles(&o, 1, in, nin, err, sizeof err)) return 0;
    fprintf(stderr, "%s: %s\n", cmd, err);
    return -1;
}

char *files_read_all(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    FILE *f;
    struct stat sb;
    char *buf = NULL;
    size_t n = 0;
    int std = !strcmp(path, "-"), e;
    edan_result r;
    f = std ? stdin : fopen(path, "rb");
    if (!f) {
        files_fail(err, errlen, path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        if (!std) fclose(f);
        files_fail(err, errlen, path, "is a directory");
        return NULL;
    }
    errno = 0;
    r = edan_read_stream(f, max, NULL, &buf, &n);
    e = errno;
    if (!std) fclose(f);
    if (r != EDAN_OK) {
        files_fail(err, errlen, path, r == EDAN_ERR_LIMIT ? "too large" : r == EDAN_ERR_NOMEM ? "out of memory"
                                      : e ? strerror(e) : "read error");
        return NULL;
    }
    if (len) *len = n;
    return buf;
}

void files_host(char *host, size_t n)
{
    if (!n) return;
    memset(host, 0, n);
    if (gethostname(host, n - 1) != 0 || !host[0]) snprintf(host, n, "localhost");
}

/* what replaces p[0] p[1] when they are %h, %r (rank >= 0) or %%; NULL otherwise */
static const char *files_piece(const char *p, long rank, const char *host, char *num, size_t nn)
{
    if (p[0] != '%') return NULL;
    if (p[1] == 'h') return host;
    if (p[1] == 'r' && rank >= 0) {
        snprintf(num, nn, "%ld", rank);
        return num;
    }
    return p[1] == '%' ? "%" : NULL;
}

char *files_expand(const char *path, long rank, const char *host)
{
    char num[32], *out = NULL;
    int pass;
    /* the first pass measures, the second writes */
    for (pass = 0; pass < 2; pass++) {
        const char *p;
        size_t k = 0;
        for (p = path; *p; p++) {
            const char *piece = files_piece(p, rank, host, num, sizeof num);
            size_t len = piece ? strlen(piece) : 1;
            if (out) memcpy(out + k, piece ? piece : p, len);
            k += len;
            if (piece) p++;
        }
        if (out) out[k] = 0;
        else if (!(out = (char *)malloc(k + 1))) return NULL;
    }
    return out;
}

/* the user's directory of profiles, without the host's file */
static int files_own_dir(char *dir, size_t n)
{
    const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
    if (x && *x == '/') snprintf(dir, n, "%s/edan/hwprofiles", x);
    else if (h && *h == '/') snprintf(dir, n, "%s/.local/share/edan/hwprofiles", h);
    else return -1;
    return 0;
}

int files_own_profile_find(char *buf, size_t n)
{
    char host[256], dir[4096], dirs[4096];
    const char *d = getenv("XDG_DATA_DIRS");
    char *p, *save = NULL;
    files_host(host, sizeof host);
    if (files_own_dir(dir, sizeof dir) == 0) {
        snprintf(buf, n, "%s/%s.json", dir, host);
        if (access(buf, R_OK) == 0) return 0;
    }
    snprintf(dirs, sizeof dirs, "%s", d && *d ? d : "/usr/local/share:/usr/share");
    for (p = strtok_r(dirs, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        if (*p != '/') continue;    /* relative entries are ignored (XDG) */
        snprintf(buf, n, "%s/edan/hwprofiles/%s.json", p, host);
        if (access(buf, R_OK) == 0) return 0;
    }
    return -1;
}

int files_own_profile_home(char *buf, size_t n)
{
    char host[256], dir[4096], *p;
    files_host(host, sizeof host);
    if (files_own_dir(dir, sizeof dir)) return -1;
    for (p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    mkdir(dir, 0755);
    snprintf(buf, n, "%s/%s.json", dir, host);
    return 0;
}
