/* The HEADER_BUILD_ID section of a recording: perf record lists the binaries that have
 * samples with their build-ids, so that perf report (and `perf buildid-list`) knows which
 * build was sampled. Found the way perf finds them: by reading the file once more. */
#include "collect/record_build_ids.h"
#include "pmuscope/symbols.h"
#include "symbol/build_id.h"
#include "symbol/kallsyms.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct hit_set {
    pms_symbols *symbols;
    const char **names; /* interned by the symbol map: one pointer per binary */
    size_t n, cap;
};

static int on_mmap(const pms_mmap_event *m, void *ctx) { return pms_symbols_add_mmap(((struct hit_set *)ctx)->symbols, m); }
static int on_task(const pms_task_event *t, void *ctx) { return pms_symbols_add_task(((struct hit_set *)ctx)->symbols, t); }

static int on_sample(const pms_sample *s, void *ctx)
{
    struct hit_set *h = ctx;
    int kernel = (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
    const char *name = pms_symbols_binary(h->symbols, s->pid, s->ip, s->time, kernel);
    if (!name) return PMS_OK;
    for (size_t i = h->n; i > 0; i--)
        if (h->names[i - 1] == name) return PMS_OK;
    if (pms__grow(&h->names, &h->cap, h->n + 1, sizeof *h->names))
        return pms__fail(PMS_ENOMEM, "out of memory for build-ids");
    h->names[h->n++] = name;
    return PMS_OK;
}

/* The build-id of one binary with samples; 0 when it has none to give. */
static int build_id_of(const char *name, pms_perfdata_build_id *out)
{
    char hex[PMS_BUILD_ID_HEX];
    int kernel = strcmp(name, PMS_BINARY_KERNEL) == 0, rc;
    if (kernel) rc = pms__kernel_build_id("/sys/kernel/notes", hex);
    else if (strcmp(name, "[vdso]") == 0) rc = pms__vdso_build_id(hex);
    else rc = name[0] == '/' ? pms__elf_build_id(name, hex) : PMS_ENOENT;
    if (rc) return 0;
    size_t len = strlen(hex);
    if (!len || len >= sizeof out->hex) return 0;
    memcpy(out->hex, hex, len + 1);
    out->filename = name;
    out->cpumode = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
    out->pid = -1; /* perf's host machine */
    return 1;
}

int pms__record_build_ids(const char *path, pms_perfdata_writer *w)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return PMS_OK;
    struct hit_set h = {0};
    pms_perfdata_reader *r = NULL;
    int rc = pms_symbols_create(&h.symbols);
    if (!rc) rc = pms_perfdata_open(&r, path);
    pms_perfdata_handlers handlers = {.sample = on_sample, .mmap = on_mmap, .task = on_task, .ctx = &h};
    if (!rc) rc = pms_perfdata_read(r, &handlers);
    pms_perfdata_build_id *ids = rc ? NULL : calloc(h.n ? h.n : 1, sizeof *ids);
    if (!rc && !ids) rc = pms__fail(PMS_ENOMEM, "out of memory for build-ids");
    size_t n = 0;
    for (size_t i = 0; !rc && i < h.n; i++) n += (size_t)build_id_of(h.names[i], &ids[n]);
    if (!rc) rc = pms_perfdata_writer_set_build_ids(w, ids, n);
    free(ids);
    free(h.names);
    pms_perfdata_close(r);
    pms_symbols_destroy(h.symbols);
    return rc;
}
