/* COMM and MMAP2 records for a process that was already running when sampling started
 * (an attach with -p): the kernel reported its mappings before our events existed, so
 * they are read from /proc, as perf record does, and laid out as the kernel would. */
#include "pmuscope/sampler.h"

#include "pmuscope/target.h"
#include "util/error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The sample_id trailer of our records (sample_type IDENTIFIER|IP|TID|TIME|ID|PERIOD[|READ]):
 * pid/tid, time, id, identifier. Time 0 sorts the records before every sample. */
typedef struct sample_id_trailer {
    uint32_t pid, tid;
    uint64_t time, id, identifier;
} sample_id_trailer;

typedef struct record_buf {
    union {
        struct perf_event_header h;
        uint64_t align;
    };
    unsigned char body[PATH_MAX + 256];
} record_buf;

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Appends the string (NUL-padded to 8 bytes) and the trailer, sets the size. */
static int finish(record_buf *r, size_t fixed, const char *str, const sample_id_trailer *t, pms_record_fn fn,
                  void *ctx)
{
    size_t slen = strlen(str) + 1, spad = pad8(slen);
    if (fixed + spad + sizeof *t > sizeof r->body) return PMS_OK; /* a path too long to report */
    memset(r->body + fixed, 0, spad);
    memcpy(r->body + fixed, str, slen);
    memcpy(r->body + fixed + spad, t, sizeof *t);
    r->h.size = (uint16_t)(sizeof r->h + fixed + spad + sizeof *t);
    return fn(&r->h, ctx);
}

static int emit_comm(pid_t pid, pid_t tid, const sample_id_trailer *t, pms_record_fn fn, void *ctx)
{
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) return PMS_OK; /* the thread ended meanwhile */
    if (!fgets(comm, sizeof comm, f)) comm[0] = 0;
    fclose(f);
    comm[strcspn(comm, "\n")] = 0;
    record_buf r = {.h = {.type = PERF_RECORD_COMM, .misc = 0}};
    uint32_t ids[2] = {(uint32_t)pid, (uint32_t)tid};
    memcpy(r.body, ids, sizeof ids);
    sample_id_trailer tt = *t;
    tt.tid = (uint32_t)tid;
    return finish(&r, sizeof ids, comm, &tt, fn, ctx);
}

/* One line of /proc/PID/maps: "start-end perms offset maj:min inode   path". */
static int emit_mmap(pid_t pid, const char *line, const sample_id_trailer *t, pms_record_fn fn, void *ctx)
{
    unsigned long long start, end, pgoff, ino;
    unsigned maj, min;
    char perms[8];
    int path_at = 0;
    if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj, &min, &ino, &path_at) < 7)
        return PMS_OK;
    const char *name = line + path_at;
    if (perms[2] != 'x' || !*name) return PMS_OK; /* only code can be sampled */
    struct {
        uint32_t pid, tid;
        uint64_t addr, len, pgoff;
        uint32_t maj, min;
        uint64_t ino, ino_generation;
        uint32_t prot, flags;
    } m = {(uint32_t)pid, (uint32_t)pid, start, end - start, pgoff, maj, min, ino, 0, 0, 0};
    m.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) | PROT_EXEC;
    m.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
    record_buf r = {.h = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER}};
    memcpy(r.body, &m, sizeof m);
    return finish(&r, sizeof m, name, t, fn, ctx);
}

int pms_sampler_synthesize(const pms_sampler *s, pid_t pid, pms_record_fn fn, void *ctx)
{
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(s, &nattrs);
    uint64_t id = attrs[0].nids ? attrs[0].ids[0] : 0;
    sample_id_trailer t = {(uint32_t)pid, (uint32_t)pid, 0, id, id};

    pid_t *tids;
    size_t n;
    int rc = pms_process_threads(pid, &tids, &n);
    if (rc) return rc;
    for (size_t i = 0; !rc && i < n; i++) rc = emit_comm(pid, tids[i], &t, fn, ctx);
    free(tids);
    if (rc) return rc;

    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return pms_fail_errno(pms_status_from_errno(errno), errno, "cannot read %s", path);
    char line[PATH_MAX + 128];
    while (!rc && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        rc = emit_mmap(pid, line, &t, fn, ctx);
    }
    fclose(f);
    return rc;
}
