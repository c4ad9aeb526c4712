/* JIT symbols from perf map files (see perf_map.h), read as perf's dso__load_perf_map does. */
#include "symbol/perf_map.h"
#include "util/error.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pms__perf_map_covers(const char *f)
{
    return strcmp(f, "//anon") == 0 || strncmp(f, "/dev/zero", 9) == 0 || strncmp(f, "/anon_hugepage", 14) == 0 ||
           strncmp(f, "[stack", 6) == 0 || strncmp(f, "/SYSV", 5) == 0 || strcmp(f, "[heap]") == 0;
}

int pms__perf_map_load(const char *path, pms__symtab *t)
{
    /* O_NONBLOCK: a FIFO planted under the name in /tmp must not block the report */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_uid != 0 && st.st_uid != geteuid())) {
        close(fd);
        return pms__fail(PMS_EPERM, "%s is not a regular file owned by this user or root: ignored", path);
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int err = errno;
        close(fd);
        return pms__fail_errno(pms__status_from_errno(err), err, "cannot read %s", path);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = PMS_OK;
    while (rc == PMS_OK && (len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n') line[--len] = '\0';
        /* perf's reading: a hex number, one separator, another, one separator, a name of
         * three characters or more */
        char *p = line;
        uint64_t start = strtoull(p, &p, 16), size;
        if (++p + 2 >= line + len) continue;
        size = strtoull(p, &p, 16);
        if (++p + 2 >= line + len) continue;
        /* perf's symbol of size 0 covers its start only */
        rc = pms__symtab_add(t, start, size ? size : 1, STB_GLOBAL, p);
    }
    free(line);
    fclose(f);
    if (rc == PMS_OK) pms__symtab_finish(t);
    return rc;
}
