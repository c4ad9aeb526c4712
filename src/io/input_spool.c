/* Inputs that may be pipes (see io/input_spool.h): copied into an unlinked temporary file,
 * so that disk, not memory, holds them and they go away with the descriptor. */
#include "io/input_spool.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const unsigned char *p, size_t n, const char *name)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0)
            return pms__fail_errno(PMS_EIO, k < 0 ? errno : ENOSPC, "%s: cannot copy it into a temporary file", name);
        p += k;
        n -= (size_t)k;
    }
    return PMS_OK;
}

/* Fills buf (size bytes) from fd, or as much as there is: *got. */
static int read_some(int fd, unsigned char *buf, size_t size, size_t *got, uint64_t total, const char *name)
{
    *got = 0;
    while (*got < size) {
        ssize_t n = read(fd, buf + *got, size - *got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            return pms__fail_errno(PMS_EIO, errno, "%s: offset %llu: cannot read", name,
                                   (unsigned long long)(total + *got));
        if (n == 0) break;
        *got += (size_t)n;
    }
    return PMS_OK;
}

int pms__spool(int in_fd, const char *name, pms__head_check check, void *ctx, int *out_fd, uint64_t *size)
{
    unsigned char *buf = malloc(PMS_INPUT_HEAD);
    if (!buf) return pms__fail(PMS_ENOMEM, "out of memory");
    size_t got;
    int rc = read_some(in_fd, buf, PMS_INPUT_HEAD, &got, 0, name);
    /* a whole head, more may follow: the format says now whether it can be one */
    if (!rc && got == PMS_INPUT_HEAD && check) rc = check(buf, got, name, ctx);
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/pmuscope-pipe-XXXXXX", dir);
    int fd = rc ? -1 : mkostemp(path, O_CLOEXEC);
    if (!rc && fd < 0)
        rc = pms__fail_errno(PMS_EIO, errno, "%s: cannot make a temporary file in %s to read it into", name, dir);
    if (fd >= 0) unlink(path);
    uint64_t total = 0;
    while (!rc && got) {
        total += got;
        if (pms__over_input_limit(total)) rc = pms__fail_input_limit(name);
        else if (!(rc = write_all(fd, buf, got, name))) rc = read_some(in_fd, buf, PMS_INPUT_HEAD, &got, total, name);
    }
    free(buf);
    if (rc) {
        if (fd >= 0) close(fd);
        return rc;
    }
    *out_fd = fd;
    *size = total;
    return PMS_OK;
}

int pms__input_open(pms__input *in, const char *path, pms__head_check check, void *ctx)
{
    *in = (pms__input){.path = path, .name = path, .copy = -1};
    bool is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    struct stat st;
    int rc = fstat(fd, &st) ? pms__fail_errno(PMS_EIO, errno, "cannot stat %s", path) : PMS_OK;
    /* a regular file, a directory or a device: each reader opens it and says what it makes of it */
    if (rc || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        if (!is_stdin) close(fd);
        if (!rc && is_stdin) { /* a regular file on standard input: read through its /dev/fd path */
            snprintf(in->fd_path, sizeof in->fd_path, "/dev/fd/%d", STDIN_FILENO);
            in->path = in->fd_path;
        }
        return rc;
    }
    uint64_t size;
    rc = pms__spool(fd, path, check, ctx, &in->copy, &size);
    if (!is_stdin) close(fd);
    if (rc) return rc;
    snprintf(in->fd_path, sizeof in->fd_path, "/dev/fd/%d", in->copy);
    in->path = in->fd_path;
    return PMS_OK;
}

int pms__input_status(const pms__input *in, int rc)
{
    if (rc && in->path != in->name) pms__fail_rename(in->path, in->name);
    return rc;
}

void pms__input_close(pms__input *in)
{
    if (in->copy >= 0) close(in->copy);
    in->copy = -1;
}
