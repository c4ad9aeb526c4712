/* The feature sections of a perf.data that pmuscope writes, in the layouts that perf's
 * tools/perf/util/header.c reads (write_hostname, write_nrcpus, write_event_desc, ...). */
#include "io/perfdata_features.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef PMS_VERSION
#define PMS_VERSION "0.1"
#endif

struct bytes {
    unsigned char *p;
    size_t len, cap;
    int oom;
};

static void append(struct bytes *b, const void *data, size_t n)
{
    if (b->oom) return;
    if (b->len > SIZE_MAX - n || pms__grow(&b->p, &b->cap, b->len + n, 1)) {
        b->oom = 1;
        return;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void append_u32(struct bytes *b, uint32_t v) { append(b, &v, 4); }
static void append_u64(struct bytes *b, uint64_t v) { append(b, &v, 8); }

/* perf's do_write_string: u32 padded length, then the string and zeros up to it. */
static void append_string(struct bytes *b, const char *s)
{
    static const unsigned char zeros[PMS_FEAT_STRING_ALIGN];
    size_t n = strlen(s) + 1;
    size_t padded = (n + PMS_FEAT_STRING_ALIGN - 1) / PMS_FEAT_STRING_ALIGN * PMS_FEAT_STRING_ALIGN;
    append_u32(b, (uint32_t)padded);
    append(b, s, n);
    append(b, zeros, padded - n);
}

static void event_desc(struct bytes *b, const pms_perfdata_attr *attrs, size_t nattrs)
{
    append_u32(b, (uint32_t)nattrs);
    append_u32(b, (uint32_t)sizeof(struct perf_event_attr));
    for (size_t i = 0; i < nattrs; i++) {
        struct perf_event_attr a = attrs[i].attr;
        a.size = sizeof a;
        append(b, &a, sizeof a);
        append_u32(b, (uint32_t)attrs[i].nids);
        append_string(b, attrs[i].name ? attrs[i].name : "");
        for (size_t k = 0; k < attrs[i].nids; k++) append_u64(b, attrs[i].ids[k]);
    }
}

static void cmdline(struct bytes *b, int argc, char *const argv[])
{
    if (argc <= 0 || !argv) {
        append_u32(b, 1);
        append_string(b, "pmuscope");
        return;
    }
    append_u32(b, (uint32_t)argc);
    for (int i = 0; i < argc; i++) append_string(b, argv[i] ? argv[i] : "");
}

static int add(pms_feature *f, size_t *n, unsigned bit, struct bytes *b)
{
    if (b->oom) {
        free(b->p);
        *b = (struct bytes){0};
        return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory building the header");
    }
    f[(*n)++] = (pms_feature){bit, b->p, b->len};
    *b = (struct bytes){0};
    return 0;
}

int pms__features_build(pms_feature **out, size_t *count, const pms_perfdata_attr *attrs, size_t nattrs, int argc,
                       char *const argv[])
{
    enum { MAX_FEATURES = 8 };
    pms_feature *f = calloc(MAX_FEATURES, sizeof *f);
    if (!f) return pms__fail(PMS_ENOMEM, "perf.data writer: out of memory");
    size_t n = 0;
    struct utsname u;
    if (uname(&u) != 0) memset(&u, 0, sizeof u);
    struct sysinfo si;
    uint64_t mem_kb = sysinfo(&si) == 0 ? (uint64_t)si.totalram * si.mem_unit / 1024 : 0;
    long conf = sysconf(_SC_NPROCESSORS_CONF), online = sysconf(_SC_NPROCESSORS_ONLN);

    struct bytes b = {0};
    int rc = 0;
    append_string(&b, u.nodename);
    rc = rc ? rc : add(f, &n, PMS_FEAT_HOSTNAME, &b);
    append_string(&b, u.release);
    rc = rc ? rc : add(f, &n, PMS_FEAT_OSRELEASE, &b);
    append_string(&b, "pmuscope " PMS_VERSION);
    rc = rc ? rc : add(f, &n, PMS_FEAT_VERSION, &b);
    append_string(&b, u.machine);
    rc = rc ? rc : add(f, &n, PMS_FEAT_ARCH, &b);
    append_u32(&b, (uint32_t)(conf > 0 ? conf : 1));
    append_u32(&b, (uint32_t)(online > 0 ? online : 1));
    rc = rc ? rc : add(f, &n, PMS_FEAT_NRCPUS, &b);
    append_u64(&b, mem_kb);
    rc = rc ? rc : add(f, &n, PMS_FEAT_TOTAL_MEM, &b);
    cmdline(&b, argc, argv);
    rc = rc ? rc : add(f, &n, PMS_FEAT_CMDLINE, &b);
    event_desc(&b, attrs, nattrs);
    rc = rc ? rc : add(f, &n, PMS_FEAT_EVENT_DESC, &b);
    free(b.p);
    if (rc) {
        pms__features_free(f, n);
        return rc;
    }
    *out = f;
    *count = n;
    return PMS_OK;
}

void pms__features_free(pms_feature *f, size_t count)
{
    if (!f) return;
    for (size_t i = 0; i < count; i++) free(f[i].data);
    free(f);
}

static int hex_value(char c) { return c >= 'a' ? c - 'a' + 10 : c - '0'; }

/* perf's build_id_event: header (misc: cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE), pid,
 * build_id[20] padded to 24 with the id's size in byte 20, the file name padded to 64. */
int pms__feature_build_ids(pms_feature *out, const pms_perfdata_build_id *ids, size_t n)
{
    static const unsigned char zeros[64];
    struct bytes b = {0};
    for (size_t i = 0; i < n; i++) {
        size_t name = strlen(ids[i].filename) + 1, padded = (name + 63) / 64 * 64;
        unsigned char id[24] = {0};
        size_t len = strlen(ids[i].hex) / 2;
        if (len > 20) len = 20;
        for (size_t k = 0; k < len; k++)
            id[k] = (unsigned char)(hex_value(ids[i].hex[2 * k]) << 4 | hex_value(ids[i].hex[2 * k + 1]));
        id[20] = (unsigned char)len;
        struct perf_event_header h = {PMS_RECORD_HEADER_BUILD_ID,
                                      (uint16_t)(ids[i].cpumode | PMS_PERF_RECORD_MISC_BUILD_ID_SIZE),
                                      (uint16_t)(sizeof h + 4 + sizeof id + padded)};
        append(&b, &h, sizeof h);
        append_u32(&b, (uint32_t)ids[i].pid);
        append(&b, id, sizeof id);
        append(&b, ids[i].filename, name);
        append(&b, zeros, padded - name);
    }
    size_t count = 0;
    return add(out, &count, PMS_FEAT_BUILD_ID, &b);
}

int pms__feature_compressed(pms_feature *out, uint32_t level, uint32_t ratio, uint32_t max_expanded)
{
    struct bytes b = {0};
    append_u32(&b, 0); /* version */
    append_u32(&b, PMS_COMP_ZSTD);
    append_u32(&b, level);
    append_u32(&b, ratio);
    append_u32(&b, max_expanded);
    size_t count = 0;
    return add(out, &count, PMS_FEAT_COMPRESSED, &b);
}
