/* pprof files: protobuf-c packs and unpacks the message, zlib does the gzip framing. */
#include "io/pprof_file.h"
#include "io/pprof_head.h"
#include "util/error.h"
#include "util/file.h"
#include "util/output.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Inflated profiles above this are refused (a small gzip can expand without bound). */
#define MAX_INFLATED ((size_t)1 << 30)

/* gzip of len bytes into *out (malloc'd). */
static int gzip_bytes(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen)
{
    z_stream z = {0};
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return pms__fail(PMS_ENOMEM, "cannot start zlib's deflate");
    size_t cap = deflateBound(&z, len);
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf) {
        deflateEnd(&z);
        return pms__fail(PMS_ENOMEM, "out of memory for the gzipped profile (%zu bytes)", cap);
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int zrc = deflate(&z, Z_FINISH);
    *outlen = z.total_out;
    deflateEnd(&z);
    if (zrc != Z_STREAM_END) {
        free(buf);
        return pms__fail(PMS_EIO, "zlib's deflate failed (%d)", zrc);
    }
    *out = buf;
    return PMS_OK;
}

int pms__pprof_save(const Pms__Profile *p, const char *path)
{
    size_t len = pms__profile__get_packed_size(p);
    if (len > UINT32_MAX) return pms__fail(PMS_EINVAL, "%s: the profile would take %zu bytes", path, len);
    uint8_t *raw = malloc(len ? len : 1), *gz = NULL;
    if (!raw) return pms__fail(PMS_ENOMEM, "out of memory for the profile (%zu bytes)", len);
    pms__profile__pack(p, raw);
    size_t gzlen = 0;
    int rc = gzip_bytes(raw, len, &gz, &gzlen);
    free(raw);
    if (rc) return rc;
    pms__output o;
    if (!(rc = pms__output_open(&o, path, 0))) { /* a device in place, a file replaced when complete */
        rc = pms__output_write(&o, gz, gzlen);
        if (rc) pms__output_abort(&o);
        else rc = pms__output_commit(&o);
    }
    free(gz);
    return rc;
}

static int gunzip_bytes(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen, const char *name)
{
    z_stream z = {0};
    if (inflateInit2(&z, 15 + 16) != Z_OK) return pms__fail(PMS_ENOMEM, "cannot start zlib's inflate");
    size_t cap = len * 4 + 1024, n = 0;
    uint8_t *buf = NULL;
    int zrc = Z_OK, rc = PMS_OK;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    while (zrc != Z_STREAM_END) {
        if (!buf || n == cap) {
            if (buf) cap *= 2;
            if (cap > MAX_INFLATED) {
                rc = pms__fail(PMS_EFORMAT, "%s: the profile inflates beyond %zu MiB", name, MAX_INFLATED >> 20);
                break;
            }
            uint8_t *b = realloc(buf, cap);
            if (!b) {
                rc = pms__fail(PMS_ENOMEM, "out of memory inflating %s", name);
                break;
            }
            buf = b;
        }
        z.next_out = buf + n;
        z.avail_out = (uInt)(cap - n);
        zrc = inflate(&z, Z_NO_FLUSH);
        n = cap - z.avail_out;
        if (zrc == Z_STREAM_END) break;
        if (zrc != Z_OK) {
            rc = pms__fail(PMS_EFORMAT, "%s: gzip data broken at compressed offset %lu: %s", name,
                           (unsigned long)z.total_in, z.msg ? z.msg : "inflate failed");
            break;
        }
        if (z.avail_in == 0 && z.avail_out != 0) {
            rc = pms__fail(PMS_EFORMAT, "%s: gzip data ends early, at compressed offset %lu (a truncated file?)",
                           name, (unsigned long)z.total_in);
            break;
        }
    }
    inflateEnd(&z);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *outlen = n;
    return PMS_OK;
}

/* A string index in range. */
static int check_str(const Pms__Profile *p, int64_t i, const char *what, size_t k, const char *name)
{
    if (i >= 0 && (size_t)i < p->n_string_table) return PMS_OK;
    return pms__fail(PMS_EFORMAT, "%s: %s %zu names string %lld, the string table has %zu", name, what, k,
                     (long long)i, p->n_string_table);
}

static int check_profile(const Pms__Profile *p, const char *name)
{
    if (p->n_string_table == 0 || p->string_table[0][0] != 0)
        return pms__fail(PMS_EFORMAT, "%s: the string table does not start with \"\" (not a pprof profile?)", name);
    int rc = PMS_OK;
    for (size_t k = 0; k < p->n_sample_type && !rc; k++)
        rc = check_str(p, p->sample_type[k]->type, "sample type", k, name) ||
                     check_str(p, p->sample_type[k]->unit, "sample type", k, name)
                 ? PMS_EFORMAT
                 : PMS_OK;
    for (size_t k = 0; k < p->n_function && !rc; k++)
        if (check_str(p, p->function[k]->name, "function", k, name) ||
            check_str(p, p->function[k]->system_name, "function", k, name) ||
            check_str(p, p->function[k]->filename, "function", k, name))
            rc = PMS_EFORMAT;
    for (size_t k = 0; k < p->n_mapping && !rc; k++)
        if (check_str(p, p->mapping[k]->filename, "mapping", k, name) ||
            check_str(p, p->mapping[k]->build_id, "mapping", k, name))
            rc = PMS_EFORMAT;
    for (size_t k = 0; k < p->n_comment && !rc; k++)
        if (check_str(p, p->comment[k], "comment", k, name)) rc = PMS_EFORMAT;
    if (rc) return rc;
    if (p->default_sample_type && check_str(p, p->default_sample_type, "default sample type", 0, name))
        return PMS_EFORMAT;
    for (size_t k = 0; k < p->n_sample; k++) {
        const Pms__Sample *s = p->sample[k];
        if (s->n_value != p->n_sample_type)
            return pms__fail(PMS_EFORMAT, "%s: sample %zu has %zu values for %zu sample types", name, k, s->n_value,
                             p->n_sample_type);
        for (size_t l = 0; l < s->n_label; l++)
            if (check_str(p, s->label[l]->key, "label of sample", k, name) ||
                check_str(p, s->label[l]->str, "label of sample", k, name) ||
                check_str(p, s->label[l]->num_unit, "label of sample", k, name))
                return PMS_EFORMAT;
    }
    return PMS_OK;
}

/* Ids that samples and lines refer to exist; sorted ids would allow a binary search, but
 * profiles from other tools need not be sorted: one pass with a sort of copies. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int id_in(const uint64_t *ids, size_t n, uint64_t id)
{
    return bsearch(&id, ids, n, sizeof *ids, cmp_u64) != NULL;
}

static int sorted_ids(uint64_t **out, size_t n, const void *const *items, size_t id_offset)
{
    uint64_t *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) memcpy(&ids[i], (const char *)items[i] + id_offset, sizeof *ids);
    qsort(ids, n, sizeof *ids, cmp_u64);
    *out = ids;
    return PMS_OK;
}

static int check_references(const Pms__Profile *p, const char *name)
{
    uint64_t *locs = NULL, *funcs = NULL, *maps = NULL;
    int rc = sorted_ids(&locs, p->n_location, (const void *const *)p->location, offsetof(Pms__Location, id));
    if (!rc) rc = sorted_ids(&funcs, p->n_function, (const void *const *)p->function, offsetof(Pms__Function, id));
    if (!rc) rc = sorted_ids(&maps, p->n_mapping, (const void *const *)p->mapping, offsetof(Pms__Mapping, id));
    for (size_t k = 0; k < p->n_sample && !rc; k++)
        for (size_t l = 0; l < p->sample[k]->n_location_id && !rc; l++)
            if (!id_in(locs, p->n_location, p->sample[k]->location_id[l]))
                rc = pms__fail(PMS_EFORMAT, "%s: sample %zu refers to location %llu, which the profile lacks", name, k,
                               (unsigned long long)p->sample[k]->location_id[l]);
    for (size_t k = 0; k < p->n_location && !rc; k++) {
        const Pms__Location *loc = p->location[k];
        if (loc->mapping_id && !id_in(maps, p->n_mapping, loc->mapping_id))
            rc = pms__fail(PMS_EFORMAT, "%s: location %llu refers to mapping %llu, which the profile lacks", name,
                           (unsigned long long)loc->id, (unsigned long long)loc->mapping_id);
        for (size_t l = 0; l < loc->n_line && !rc; l++)
            if (!id_in(funcs, p->n_function, loc->line[l]->function_id))
                rc = pms__fail(PMS_EFORMAT, "%s: location %llu refers to function %llu, which the profile lacks", name,
                               (unsigned long long)loc->id, (unsigned long long)loc->line[l]->function_id);
    }
    free(locs);
    free(funcs);
    free(maps);
    return rc;
}

int pms__pprof_decode(Pms__Profile **out, const void *data, size_t len, const char *name)
{
    *out = NULL;
    const uint8_t *bytes = data;
    uint8_t *inflated = NULL;
    if (len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) {
        int rc = gunzip_bytes(bytes, len, &inflated, &len, name);
        if (rc) return rc;
        bytes = inflated;
    }
    Pms__Profile *p = pms__profile__unpack(NULL, len, bytes);
    free(inflated);
    if (!p) return pms__fail(PMS_EFORMAT, "%s: not a pprof profile: the protobuf message does not decode as one", name);
    int rc = check_profile(p, name);
    if (!rc) rc = check_references(p, name);
    if (rc) {
        pms__profile__free_unpacked(p, NULL);
        return rc;
    }
    *out = p;
    return PMS_OK;
}

int pms__pprof_load(Pms__Profile **out, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    int rc = pms__read_file(path, pms__pprof_check_head, NULL, &data, &len); /* /dev/zero: refused at once */
    if (!rc) rc = pms__pprof_decode(out, data, len, path);
    free(data);
    return rc;
}

void pms__pprof_free(Pms__Profile *p)
{
    if (p) pms__profile__free_unpacked(p, NULL);
}
