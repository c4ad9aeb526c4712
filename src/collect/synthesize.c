/* COMM and MMAP2 records for a process that was already running when sampling started
 * (an attach with -p): the kernel reported its mappings before our events existed, so
 * they are read from /proc, as perf record does, and encoded by the perf.data codec. */
#include "pmuscope/sampler.h"

#include "pmuscope/target.h"
#include "symbol/kallsyms.h"
#include "util/error.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct synth {
    const pms_perfdata_attr *attr; /* the first event: its id marks the records */
    pms_record_fn fn;
    void *ctx;
    uint64_t buf[(PATH_MAX + 256) / 8];
} synth;

static int emit(synth *y, size_t size)
{
    if (size == 0) return PMS_OK; /* a name too long to report */
    return y->fn((const struct perf_event_header *)(const void *)y->buf, y->ctx);
}

static int emit_comm(synth *y, pid_t pid, pid_t tid)
{
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) return PMS_OK; /* the thread ended meanwhile */
    if (!fgets(comm, sizeof comm, f)) comm[0] = 0;
    fclose(f);
    comm[strcspn(comm, "\n")] = 0;
    pms_task_event t = {.type = PERF_RECORD_COMM, .pid = (uint32_t)pid, .tid = (uint32_t)tid, .comm = comm};
    return emit(y, pms_perfdata_encode_task(y->buf, sizeof y->buf, y->attr, &t));
}

/* One line of /proc/PID/maps: "start-end perms offset maj:min inode   path". */
static int emit_mmap(synth *y, pid_t pid, const char *line)
{
    unsigned long long start, end, pgoff, ino;
    unsigned maj, min;
    char perms[8];
    int path_at = 0;
    if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj, &min, &ino,
               &path_at) < 7)
        return PMS_OK;
    /* Only code can be sampled; with mmap_data (--call-graph dwarf) the files' other mappings
     * too, as the kernel then reports them: an unwinder reads .eh_frame_hdr there. */
    bool exec = perms[2] == 'x';
    if (!line[path_at] || (!exec && (!y->attr->attr.mmap_data || line[path_at] == '['))) return PMS_OK;
    pms_mmap_event m = {.pid = (uint32_t)pid, .tid = (uint32_t)pid, .start = start, .len = end - start,
                        .pgoff = pgoff, .executable = exec, .filename = line + path_at};
    m.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) | (exec ? PROT_EXEC : 0);
    return emit(y, pms_perfdata_encode_mmap2(y->buf, sizeof y->buf, y->attr, &m));
}

int pms_sampler_synthesize(const pms_sampler *s, pid_t pid, pms_record_fn fn, void *ctx)
{
    size_t nattrs;
    synth *y = calloc(1, sizeof *y);
    if (!y) return pms__fail(PMS_ENOMEM, "out of memory");
    *y = (synth){.attr = pms_sampler_attrs(s, &nattrs), .fn = fn, .ctx = ctx};

    pid_t *tids = NULL;
    size_t n = 0;
    int rc = pms_process_threads(pid, &tids, &n);
    for (size_t i = 0; !rc && i < n; i++) rc = emit_comm(y, pid, tids[i]);
    free(tids);

    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = rc ? NULL : fopen(path, "r");
    if (!rc && !f) rc = pms__fail_errno(pms__status_from_errno(errno), errno, "cannot read %s", path);
    char line[PATH_MAX + 128];
    while (!rc && f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        rc = emit_mmap(y, pid, line);
    }
    if (f) fclose(f);
    free(y);
    return rc;
}

/* The loaded modules' maps from /proc/modules ("NAME SIZE REFS DEPS STATE ADDRESS"), named
 * "[NAME]" as perf names a module whose file it did not look up; none when the file is
 * unreadable or the addresses hidden (0). */
static int synthesize_modules(const pms_perfdata_attr *attrs, pms_record_fn fn, void *ctx)
{
    FILE *f = fopen("/proc/modules", "r");
    if (!f) return PMS_OK;
    char line[512], name[64], mapname[80];
    unsigned long long size, start;
    uint64_t buf[64];
    int rc = PMS_OK;
    while (!rc && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size, &start) != 3 || !start || !size) continue;
        snprintf(mapname, sizeof mapname, "[%s]", name);
        size_t n = pms_perfdata_encode_kernel_map(buf, sizeof buf, attrs, start, size, 0, mapname);
        if (n) rc = fn((const struct perf_event_header *)(const void *)buf, ctx);
    }
    fclose(f);
    return rc;
}

int pms_sampler_synthesize_kernel(const pms_sampler *s, pms_record_fn fn, void *ctx)
{
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(s, &nattrs);
    int kernel = 0;
    for (size_t i = 0; i < nattrs; i++) kernel |= !attrs[i].attr.exclude_kernel;
    uint64_t start, end;
    const char *ref;
    /* Nothing to name without kernel samples; hidden addresses leave them unnamed, as with perf. */
    if (!kernel || pms__kernel_text(&start, &end, &ref)) return PMS_OK;
    uint64_t buf[64];
    char name[32];
    snprintf(name, sizeof name, "[kernel.kallsyms]%s", ref);
    size_t n = pms_perfdata_encode_kernel_map(buf, sizeof buf, attrs, start, end - start, start, name);
    int rc = n ? fn((const struct perf_event_header *)(const void *)buf, ctx) : PMS_OK;
    return rc ? rc : synthesize_modules(attrs, fn, ctx);
}

int pms_sampler_synthesize_all(const pms_sampler *s, pms_record_fn fn, void *ctx)
{
    DIR *d = opendir("/proc");
    if (!d) return pms__fail_errno(PMS_EIO, errno, "cannot read /proc");
    int rc = PMS_OK;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0) continue;
        rc = pms_sampler_synthesize(s, (pid_t)pid, fn, ctx);
        if (rc == PMS_ENOENT || rc == PMS_EPERM) rc = PMS_OK; /* it ended meanwhile, or is hidden from us */
    }
    closedir(d);
    return rc;
}
