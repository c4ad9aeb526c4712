/* Telling perf.data from other inputs by its magic, for the commands that take either:
 * the magics the reader knows (perfdata_reader.c reads the current little-endian format
 * and names the big-endian and version 1 files it does not read). */
#include "io/perfdata_format.h"
#include "io/perfdata_head.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>

int pms_perfdata_sniff(bool *out, const char *path)
{
    *out = false;
    FILE *f = fopen(path, "rb");
    if (!f) return pms__fail_errno(PMS_ENOENT, errno, "cannot open %s", path);
    unsigned char magic[8];
    size_t got = fread(magic, 1, sizeof magic, f);
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) return pms__fail_errno(PMS_EIO, err, "cannot read %s", path);
    *out = pms__perfdata_magic(magic, got);
    return PMS_OK;
}
