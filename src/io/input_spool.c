/* Inputs that may be pipes (see io/input_spool.h). */
#include "io/input_spool.h"
#include "util/error.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pms__input_open(pms__input *in, const char *path)
{
    *in = (pms__input){.path = path, .name = path};
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
    if (!(in->copy = tmpfile())) rc = pms__fail_errno(PMS_EIO, errno, "%s: cannot make a temporary copy of the pipe", path);
    char buf[65536];
    ssize_t n;
    while (!rc && (n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) rc = pms__fail_errno(PMS_EIO, errno, "cannot read %s", path);
        else if (fwrite(buf, 1, (size_t)n, in->copy) != (size_t)n)
            rc = pms__fail_errno(PMS_EIO, errno, "%s: cannot copy the pipe to a temporary file", path);
    }
    if (!rc && fflush(in->copy) != 0)
        rc = pms__fail_errno(PMS_EIO, errno, "%s: cannot copy the pipe to a temporary file", path);
    if (!is_stdin) close(fd);
    if (rc) {
        pms__input_close(in);
        return rc;
    }
    snprintf(in->fd_path, sizeof in->fd_path, "/dev/fd/%d", fileno(in->copy));
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
    if (in->copy) fclose(in->copy);
    in->copy = NULL;
}
