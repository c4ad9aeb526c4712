/* Writing a file without losing the one that was there (see util/output.h). */
#include "util/output.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail_output(const pms__output *o, int err)
{
    return pms__fail_errno(pms__status_from_errno(err), err, "cannot write %s", o->name);
}

/* PATH with its symbolic links followed to the file they name (which need not exist:
 * writing through a dangling link creates its target, as the shell's > does). A loop or
 * an unreadable link stops the walk: opening then says why. */
static char *follow_links(const char *path)
{
    char *p = strdup(path);
    for (int hops = 0; p && hops < 40; hops++) {
        struct stat st;
        char link[PATH_MAX];
        ssize_t n;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode) || (n = readlink(p, link, sizeof link - 1)) < 0) break;
        link[n] = '\0';
        char *next = NULL;
        const char *slash = strrchr(p, '/');
        if (link[0] == '/' || !slash) next = strdup(link);
        else if (asprintf(&next, "%.*s/%s", (int)(slash - p), p, link) < 0) next = NULL;
        free(p);
        p = next;
    }
    return p;
}

/* A new temporary file beside o->target, created with mode (the umask applies). */
static int create_temporary(pms__output *o, mode_t mode)
{
    size_t len = strlen(o->target) + 16;
    if (!(o->tmp = malloc(len))) return -1;
    for (int tries = 0; tries < 100; tries++) {
        uint32_t r;
        if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r) r = (uint32_t)getpid() * 2654435761u + (uint32_t)tries;
        snprintf(o->tmp, len, "%s.tmp-%06x", o->target, r & 0xffffff);
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) {
            if (fd < 0) {
                free(o->tmp);
                o->tmp = NULL;
            }
            return fd;
        }
    }
    free(o->tmp);
    o->tmp = NULL;
    errno = EEXIST;
    return -1;
}

/* Whether target, which exists as st, can be renamed over (or to target.old) by this process:
 * in a sticky directory (/tmp) only by its owner, the directory's owner or root. Found out
 * here, before anything is written: the rename would fail (EPERM) only once the whole output
 * was, and a recording's command had run for nothing. */
static bool replaceable(const char *target, const struct stat *st)
{
    uid_t me = geteuid();
    if (me == 0 || st->st_uid == me) return true;
    const char *slash = strrchr(target, '/');
    char *dir = slash ? strndup(target, slash == target ? 1 : (size_t)(slash - target)) : strdup(".");
    struct stat ds;
    bool ok = !dir || stat(dir, &ds) != 0 || !(ds.st_mode & S_ISVTX) || ds.st_uid == me;
    free(dir);
    return ok;
}

int pms__output_open(pms__output *o, const char *path, unsigned flags)
{
    *o = (pms__output){.fd = -1, .flags = flags};
    if (!(o->name = strdup(path))) return pms__fail(PMS_ENOMEM, "out of memory");
    struct stat st;
    int err = 0;
    bool foreign = false; /* another user's file in a sticky directory */
    if (strcmp(path, "-") == 0) {
        o->in_place = true;
        if ((o->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0) err = errno;
    } else if (!(o->target = follow_links(path))) {
        err = ENOMEM;
    } else if (stat(o->target, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->in_place = true; /* a device, FIFO or socket: written, never replaced */
        if ((o->fd = open(o->target, O_WRONLY | O_CLOEXEC)) < 0) err = errno;
    } else {
        bool exists = stat(o->target, &st) == 0;
        mode_t mode = flags & PMS_OUTPUT_PRIVATE ? 0600 : exists ? (st.st_mode & 07777) : 0666;
        foreign = exists && !replaceable(o->target, &st);
        o->fd = foreign ? (errno = EPERM, -1) : create_temporary(o, mode);
        /* the mode of the file replaced, exactly (open applied the umask to it); a failure
         * leaves the umask's mode, which is what a new file would get */
        if (o->fd >= 0 && exists && !(flags & PMS_OUTPUT_PRIVATE) && fchmod(o->fd, mode) != 0) errno = 0;
        if (o->fd < 0) {
            err = errno;
            /* A file that may be written in a directory that may not: in place, as the
             * shell's > would (the only case where a failure can cut the old file short). */
            if ((err == EACCES || err == EPERM) && exists && access(o->target, W_OK) == 0) {
                o->in_place = true;
                err = (o->fd = open(o->target, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0 ? errno : 0;
            }
        }
    }
    if (err) {
        int rc = foreign && err == EPERM
                     ? pms__fail_errno(PMS_EPERM, err, "cannot write %s: it belongs to another user, and its directory "
                                                      "is sticky (as /tmp): only the file's owner may replace it", o->name)
                     : fail_output(o, err);
        pms__output_abort(o);
        return rc;
    }
    o->seekable = lseek(o->fd, 0, SEEK_CUR) >= 0;
    return 0;
}

int pms__output_failed(pms__output *o, int err)
{
    if (!o->err) o->err = err ? err : EIO;
    return fail_output(o, o->err);
}

int pms__output_write(pms__output *o, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = write(o->fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return pms__output_failed(o, k < 0 ? errno : ENOSPC);
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
    pms__output *o = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(o->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (!o->err) o->err = w < 0 ? errno : ENOSPC;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

FILE *pms__output_stream(pms__output *o)
{
    if (!o->stream) {
        static const cookie_io_functions_t io = {.write = stream_write};
        if (!(o->stream = fopencookie(o, "w", io))) pms__fail(PMS_ENOMEM, "out of memory for %s", o->name);
    }
    return o->stream;
}

/* Moves a non-empty regular file at target to target.old: a hard link first, so that
 * target never goes missing; a rename where the file system has no hard links. */
static int keep_old(pms__output *o)
{
    struct stat st;
    if (lstat(o->target, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return 0;
    char *old = NULL;
    if (asprintf(&old, "%s.old", o->target) < 0) return pms__fail(PMS_ENOMEM, "out of memory");
    int rc = 0;
    if ((unlink(old) != 0 && errno != ENOENT) || (link(o->target, old) != 0 && rename(o->target, old) != 0)) {
        int err = errno;
        o->kept = true;
        rc = pms__fail(pms__status_from_errno(err), "cannot keep %s as %s: %s; the new output is kept in %s",
                             o->name, old, strerror(err), o->tmp);
    }
    free(old);
    return rc;
}

/* A failed rename keeps the temporary file, which holds the whole output, and names it:
 * deleting it would lose what a recording's command ran for. */
int pms__output_publish(pms__output *o)
{
    if (o->in_place || o->published || !o->tmp) return 0;
    int rc = o->flags & PMS_OUTPUT_KEEP_OLD ? keep_old(o) : 0;
    if (rc) return rc;
    if (rename(o->tmp, o->target) != 0) {
        int err = errno;
        o->kept = true;
        return pms__fail(pms__status_from_errno(err), "cannot write %s: %s; the output is kept in %s",
                               o->name, strerror(err), o->tmp);
    }
    o->kept = false;
    o->published = true;
    return 0;
}

int pms__output_commit(pms__output *o)
{
    int err = 0;
    if (o->stream) {
        errno = 0;
        if (fflush(o->stream) != 0 || ferror(o->stream)) err = errno ? errno : EIO;
        fclose(o->stream); /* the cookie does not close fd */
        o->stream = NULL;
    }
    if (o->err) err = o->err; /* the first failure says why */
    /* fsync: a rename must not publish a file whose blocks a crash could still lose. A
     * device or pipe has nothing to sync (EINVAL, EROFS). */
    if (!err && !o->in_place && fsync(o->fd) != 0) err = errno;
    if (o->fd >= 0 && close(o->fd) != 0 && !err && errno != EINTR) err = errno; /* NFS reports a lost write here */
    o->fd = -1;
    int rc = err ? fail_output(o, err) : 0;
    if (!rc && o->tmp && !o->published) rc = pms__output_publish(o);
    pms__output_abort(o);
    return rc;
}

void pms__output_abort(pms__output *o)
{
    if (o->stream) fclose(o->stream);
    if (o->fd >= 0) close(o->fd);
    if (o->tmp && !o->published && !o->kept) unlink(o->tmp);
    free(o->tmp);
    free(o->target);
    free(o->name);
    *o = (pms__output){.fd = -1};
}

int pms__output_save(const char *path, unsigned flags, int (*write)(FILE *f, void *ctx), void *ctx)
{
    pms__output o;
    int rc = pms__output_open(&o, path, flags);
    if (rc) return rc;
    FILE *f = pms__output_stream(&o);
    rc = f ? write(f, ctx) : PMS_ENOMEM;
    /* The file's reason, where its stream failed: the writer may have flushed already, and a
     * second fflush then succeeds, yet the writer's message does not name the file. */
    if (rc && f) {
        fflush(f);
        if (o.err) rc = pms__output_failed(&o, o.err);
    }
    if (rc) {
        pms__output_abort(&o);
        return rc;
    }
    return pms__output_commit(&o);
}
