/* The first bytes of a pprof profile (see io/pprof_head.h). */
#include "io/pprof_head.h"
#include "util/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

/* The wire type each field of profile.proto's Profile has: 2 (length-delimited) for the
 * messages, strings and packed lists, 0 for the int64s; comment (13) is either. */
static bool field_wire_ok(uint64_t field, unsigned wire)
{
    if (field < 1 || field > 14) return false;
    if (field == 13) return wire == 0 || wire == 2;
    return wire == (field <= 6 || field == 11 ? 2u : 0u);
}

/* A varint at p[*at..n): 1 read, 0 cut off by the end, -1 longer than 10 bytes. */
static int varint_at(const unsigned char *p, size_t n, size_t *at, uint64_t *v)
{
    *v = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (*at + i >= n) return 0;
        *v |= (uint64_t)(p[*at + i] & 0x7f) << (7 * i);
        if (!(p[*at + i] & 0x80)) {
            *at += i + 1;
            return 1;
        }
    }
    return -1;
}

/* Walks the top-level fields of a raw Profile's first n bytes (all of it when whole): the
 * offset and what was expected where they cannot be a profile's, or 0. */
static int walk_fields(const unsigned char *p, size_t n, bool whole, size_t *bad, const char **why)
{
    size_t at = 0;
    while (at < n) {
        *bad = at;
        uint64_t key, v;
        int got = varint_at(p, n, &at, &key);
        if (got < 0) return *why = "a field key (a varint of at most 10 bytes)", -1;
        if (got == 0) break;
        if (!field_wire_ok(key >> 3, (unsigned)(key & 7))) {
            *why = "a field of profile.proto's Profile (1 to 14, each of its wire type)";
            return -1;
        }
        if ((got = varint_at(p, n, &at, &v)) < 0) return *why = "a varint of at most 10 bytes", -1;
        if (got == 0) break;
        if ((key & 7) == 2) {
            if (v > n - at) {
                if (!whole) break; /* the rest is still to come */
                return *why = "a field's bytes inside the file (the profile is cut short?)", -1;
            }
            at += (size_t)v;
        }
    }
    if (whole && at != n) return *why = "a whole field before the end of the file (the profile is cut short?)", -1;
    return 0;
}

bool pms__pprof_starts(const unsigned char *data, size_t len, bool whole, char *why, size_t size)
{
    size_t bad = 0;
    const char *what = NULL;
    if (len >= 2 && data[0] == 0x1f && data[1] == 0x8b) { /* gzipped: inflate what there is */
        if (len >= 3 && data[2] != 8) return snprintf(why, size, "offset 2: expected gzip's method 8 (deflate)"), false;
        z_stream z = {0};
        unsigned char *out = inflateInit2(&z, 15 + 16) == Z_OK ? malloc((size_t)256 << 10) : NULL;
        if (!out) { /* out of memory: nothing seen to say it is not one */
            inflateEnd(&z);
            return true;
        }
        z.next_in = (Bytef *)data;
        z.avail_in = (uInt)len;
        z.next_out = out;
        z.avail_out = (uInt)256 << 10;
        int zrc = inflate(&z, Z_SYNC_FLUSH);
        size_t made = ((size_t)256 << 10) - z.avail_out;
        unsigned long at = z.total_in;
        inflateEnd(&z);
        bool ok = true;
        if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR) {
            snprintf(why, size, "gzip data broken at compressed offset %lu", at);
            ok = false;
        } else if (walk_fields(out, made, whole && zrc == Z_STREAM_END, &bad, &what)) {
            snprintf(why, size, "byte %zu of the gzipped data: expected %s", bad, what);
            ok = false;
        }
        free(out);
        return ok;
    }
    if (len == 0) return whole ? (snprintf(why, size, "an empty file"), false) : true;
    if (walk_fields(data, len, whole, &bad, &what)) return snprintf(why, size, "offset %zu: expected %s", bad, what), false;
    return true;
}

int pms__pprof_check_start(const unsigned char *data, size_t len, bool whole, const char *name)
{
    char why[160];
    if (pms__pprof_starts(data, len, whole, why, sizeof why)) return PMS_OK;
    return pms__fail(PMS_EFORMAT, "%s: not a pprof profile: %s", name, why);
}

int pms__pprof_check_head(const unsigned char *head, size_t len, const char *name, void *ctx)
{
    (void)ctx;
    return pms__pprof_check_start(head, len, false, name);
}
