/* Telling perf.data from other inputs by its magic, for the commands that take either:
 * the magics the reader knows (perfdata_reader.c reads the current little-endian format
 * and names the big-endian and version 1 files it does not read). */
#include "io/perfdata_format.h"
#include "util/error.h"

#include <byteswap.h>
#include <errno.h>
#include <stdio.h>

int pms_perfdata_sniff(bool *out, const char *path)
{
    *out = false;
    FILE *f = fopen(path, "rb");
    if (!f) return pms__fail_errno(PMS_ENOENT, errno, "cannot open %s", path);
    uint64_t magic = 0;
    size_t got = fread(&magic, 1, sizeof magic, f);
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) return pms__fail_errno(PMS_EIO, err, "cannot read %s", path);
    if (got < sizeof magic) return PMS_OK;
    *out = magic == PMS_PERFDATA_MAGIC || magic == bswap_64(PMS_PERFDATA_MAGIC) || magic == PMS_PERFDATA_MAGIC_V1;
    return PMS_OK;
}
