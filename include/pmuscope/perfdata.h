/* pmuscope: the perf.data file format, both ways, and the parsing of perf records.
 *
 * The reader makes one streaming pass over the data section and hands each record
 * to callbacks, so memory does not grow with the number of samples. It reads files
 * written by `perf record` (kernel 4.x to 6.x layouts) and by pmuscope, skips record
 * types it does not use, checks every size field against the file, and reports the
 * byte offset of anything malformed.
 *
 * The writer produces files that `perf script -i` and `perf report -i` read: header,
 * attributes with their sample ids, the data section as raw perf records, and the
 * feature sections perf needs to name events and find binaries. The file is valid
 * after every pms_perfdata_writer_sync(), so an interrupted recording loses nothing
 * written before it. */
#ifndef PMUSCOPE_PERFDATA_H
#define PMUSCOPE_PERFDATA_H
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* One event of a file: its attribute, the name it was given, and the sample ids
 * (one per opened fd) by which samples point back to it. */
typedef struct pms_perfdata_attr {
    struct perf_event_attr attr;
    const char *name;
    const uint64_t *ids;
    size_t nids;
} pms_perfdata_attr;

/* A counter value inside a PERF_SAMPLE_READ sample. */
typedef struct pms_read_value {
    uint64_t value;
    uint64_t id;
} pms_read_value;

/* A parsed PERF_RECORD_SAMPLE. Fields not in the attr's sample_type are zero. */
typedef struct pms_sample {
    const pms_perfdata_attr *attr; /* the event that took the sample (by id), or NULL */
    uint64_t ip;
    uint32_t pid, tid;
    uint64_t time;
    uint64_t id;
    uint32_t cpu;
    uint64_t period;
    uint16_t misc;               /* PERF_RECORD_MISC_* of the record: user/kernel */
    /* PERF_SAMPLE_READ (PERF_FORMAT_GROUP or a single value) */
    uint64_t time_enabled, time_running;
    size_t nvalues;
    const pms_read_value *values; /* points into the record or the parser's buffer */
    /* PERF_SAMPLE_CALLCHAIN: nr_callchain u64 entries as the kernel wrote them, leaf first,
     * with PERF_CONTEXT_* markers (>= PERF_CONTEXT_MAX) saying whether the entries after
     * them are kernel or user addresses; points into the (8-byte aligned) record. */
    uint64_t nr_callchain;
    const uint64_t *callchain;
    /* PERF_SAMPLE_REGS_USER (perf record --call-graph dwarf): the user registers of the attr's
     * sample_regs_user, one u64 each in the order of the mask's bits; abi is the kernel's
     * PERF_SAMPLE_REGS_ABI_* (0, PERF_SAMPLE_REGS_ABI_NONE: none, nr_user_regs 0). */
    uint64_t user_regs_abi, user_regs_mask;
    size_t nr_user_regs;
    const uint64_t *user_regs;
    /* PERF_SAMPLE_STACK_USER: the user stack from the stack pointer up, user_stack_size bytes
     * (the kernel's dyn_size: what it could copy of the attr's sample_stack_user). */
    size_t user_stack_size;
    const unsigned char *user_stack;
} pms_sample;

/* PERF_RECORD_MMAP / MMAP2: where a file was mapped in a process. */
typedef struct pms_mmap_event {
    uint32_t pid, tid;
    uint64_t start, len, pgoff;
    uint32_t prot;                 /* MMAP2 only, else 0 */
    int executable;                /* PROT_EXEC, or MMAP (not MMAP_DATA) records */
    const char *filename;
    uint64_t time;                 /* from sample_id_all, 0 if absent */
} pms_mmap_event;

typedef struct pms_task_event {    /* COMM, FORK, EXIT */
    uint32_t type;                 /* PERF_RECORD_COMM / FORK / EXIT */
    uint32_t pid, tid, ppid, ptid;
    const char *comm;              /* COMM only */
    uint64_t time;
} pms_task_event;

/* Callbacks of a read pass; any may be NULL. A non-zero return stops the pass and is
 * returned by pms_perfdata_read(). */
typedef struct pms_perfdata_handlers {
    int (*sample)(const pms_sample *s, void *ctx);
    int (*mmap)(const pms_mmap_event *m, void *ctx);
    int (*task)(const pms_task_event *t, void *ctx);
    int (*lost)(uint64_t lost_samples, void *ctx);     /* PERF_RECORD_LOST(_SAMPLES) */
    int (*throttle)(int unthrottle, uint64_t time, void *ctx);
    /* Every record, before the typed callback; for tools that need the rest. */
    int (*raw)(const struct perf_event_header *h, uint64_t file_offset, void *ctx);
    void *ctx;
} pms_perfdata_handlers;

typedef struct pms_perfdata_reader pms_perfdata_reader;

/* Whether the file at path starts as a perf.data file of any kind: the current format in
 * either byte order, version 1 (perf before Linux 2.6.36) or pipe mode: the reader then
 * reads it or says why it cannot. *out false for anything else (a table, a BBV file, an
 * empty file). Fails only when the file cannot be opened or read. */
int pms_perfdata_sniff(bool *out, const char *path);

/* Opens and checks the header and attribute section. Reads the file format and the pipe
 * format (perf record -o -: the events and features as records before the samples).
 * PATH "-" is the standard input; input from a pipe or FIFO is first copied to an unlinked
 * temporary file in $TMPDIR (else /tmp), since the pass seeks back to the data. */
int pms_perfdata_open(pms_perfdata_reader **out, const char *path);
void pms_perfdata_close(pms_perfdata_reader *r);
size_t pms_perfdata_nattrs(const pms_perfdata_reader *r);
/* The recording command (HEADER_CMDLINE: "perf record ... -- CMD ARGS"), NULL-terminated;
 * NULL with *argc 0 when the file does not hold one. */
char *const *pms_perfdata_cmdline(const pms_perfdata_reader *r, size_t *argc);
const pms_perfdata_attr *pms_perfdata_get_attr(const pms_perfdata_reader *r, size_t i);
/* The build-ids of the file's binaries (HEADER_BUILD_ID): which build of each file the
 * samples came from. cpumode is PERF_RECORD_MISC_KERNEL for the kernel and its modules,
 * PERF_RECORD_MISC_USER for user space. */
typedef struct pms_perfdata_build_id {
    char hex[41];         /* lower-case hex, up to 20 bytes */
    const char *filename; /* as recorded: a path, "[kernel.kallsyms]", "[vdso]", ... */
    uint16_t cpumode;
    int32_t pid;
} pms_perfdata_build_id;
size_t pms_perfdata_nbuild_ids(const pms_perfdata_reader *r);
const pms_perfdata_build_id *pms_perfdata_get_build_id(const pms_perfdata_reader *r, size_t i);
/* Size of the data section in bytes (for progress). */
uint64_t pms_perfdata_data_size(const pms_perfdata_reader *r);
/* One pass over the data section. */
int pms_perfdata_read(pms_perfdata_reader *r, const pms_perfdata_handlers *h);

/* The order in which pms_perfdata_read() hands records over. */
typedef enum pms_perfdata_order {
    /* The default: by time, as perf report and perf script see them. perf record writes
     * its per-CPU buffers one after the other, so the file is not in time order; records
     * are held until a FINISHED_ROUND record says nothing older can follow (perf's
     * ordered-events rules), then handed over sorted by time, ties in file order.
     * Records without a time (no PERF_SAMPLE_TIME, or synthesised with time 0) and the
     * records perf adds itself (types 64 and up) go at once. Memory is bounded by two
     * rounds, and by 64 MiB of queued records in a file without rounds (past
     * that the older half goes out early, as perf does at its queue-size limit). */
    PMS_PERFDATA_ORDER_TIME = 0,
    /* As the records lie in the file: one streaming pass, nothing held. */
    PMS_PERFDATA_ORDER_FILE = 1,
} pms_perfdata_order;
void pms_perfdata_set_order(pms_perfdata_reader *r, pms_perfdata_order order);

/* The event of attrs[] that owns sample id `id` (pms_sample.id, a read value's id); NULL if none
 * does. For a reader's events: pms_attr_by_id(pms_perfdata_get_attr(r, 0), pms_perfdata_nattrs(r), id). */
const pms_perfdata_attr *pms_attr_by_id(const pms_perfdata_attr *attrs, size_t nattrs, uint64_t id);

/* Parses a PERF_RECORD_SAMPLE laid out by attrs[] (all of which must share one
 * sample_type and read_format, as pmuscope's and perf's multi-event files do with
 * PERF_SAMPLE_IDENTIFIER). Used for live ring-buffer records as well as files.
 * values storage: up to max_values entries written to vbuf. */
int pms_sample_parse(const struct perf_event_header *h, const pms_perfdata_attr *attrs, size_t nattrs,
                     pms_sample *out, pms_read_value *vbuf, size_t max_values);

/* ---- encoding records (synthesised COMM/MMAP2 for attach mode, tests, generators) ----
 * Each lays out one record for `attr` (with the sample_id_all trailer when the attr asks
 * for it: pid/tid/time of the event, the attr's first id, cpu 0) in buf and returns its
 * size in bytes, or 0 when it does not fit in cap bytes or the sample_type has fields
 * beyond PERF_SAMPLE_CALLCHAIN. Strings are padded to 8 bytes as the kernel does. */
size_t pms_perfdata_encode_sample(void *buf, size_t cap, const pms_perfdata_attr *attr, const pms_sample *s);
/* Writes MMAP2 (device/inode zero; prot from m->prot, or PROT_READ|PROT_EXEC when
 * m->executable and m->prot is 0). */
size_t pms_perfdata_encode_mmap2(void *buf, size_t cap, const pms_perfdata_attr *attr, const pms_mmap_event *m);
/* The kernel's text as perf record synthesizes it: PERF_RECORD_MMAP of pid -1 named
 * "[kernel.kallsyms]_text" from start (_text) for len bytes (to _etext). */
size_t pms_perfdata_encode_kernel_mmap(void *buf, size_t cap, const pms_perfdata_attr *attr, uint64_t start,
                                        uint64_t len);
/* A kernel map as perf record synthesizes it: PERF_RECORD_MMAP of pid -1 from start for
 * len bytes at pgoff, named `name`: "[kernel.kallsyms]_stext" with pgoff the address of
 * _stext (where kallsyms lists no _text), a loaded module's "[name]" (or its file) with
 * pgoff 0, from /proc/modules. */
size_t pms_perfdata_encode_kernel_map(void *buf, size_t cap, const pms_perfdata_attr *attr, uint64_t start,
                                       uint64_t len, uint64_t pgoff, const char *name);
/* COMM, FORK or EXIT after t->type. */
size_t pms_perfdata_encode_task(void *buf, size_t cap, const pms_perfdata_attr *attr, const pms_task_event *t);

/* Opens a perf.data image held in memory (len bytes at data, kept by the caller until
 * close); `name` stands for the file in messages. */
int pms_perfdata_open_mem(pms_perfdata_reader **out, const void *data, size_t len, const char *name);

/* ---- writer ---- */

typedef struct pms_perfdata_writer pms_perfdata_writer;

/* Creates PATH (replacing it) for the given events. Record metadata that perf wants
 * in the feature sections (hostname, os release, arch, cpus, command line) is filled
 * in by the writer itself; cmdline is the recording command (may be NULL). */
int pms_perfdata_writer_open(pms_perfdata_writer **out, const char *path, const pms_perfdata_attr *attrs,
                             size_t nattrs, int argc, char *const argv[]);
/* Appends one record (h->size bytes) to the data section. */
int pms_perfdata_writer_add(pms_perfdata_writer *w, const struct perf_event_header *h);
/* Makes the file on disk a valid perf.data holding everything added so far. */
int pms_perfdata_writer_sync(pms_perfdata_writer *w);
/* Syncs, writes the feature sections, closes and frees. */
int pms_perfdata_writer_close(pms_perfdata_writer *w);
/* Sets the build-id section (HEADER_BUILD_ID, what `perf buildid-list` lists) to these
 * binaries, from the next sync on. */
int pms_perfdata_writer_set_build_ids(pms_perfdata_writer *w, const pms_perfdata_build_id *ids, size_t n);
/* perf record -z: the records added from now on go out as PERF_RECORD_COMPRESSED records
 * of a zstd stream at this level (1 to 22), with the HEADER_COMPRESSED feature that perf
 * report and pms_perfdata_open() read them by; each sync flushes the stream, so the file
 * stays whole. Before the first record, on a file (not "-"). */
int pms_perfdata_writer_compress(pms_perfdata_writer *w, int level);
/* Bytes of records written so far. */
uint64_t pms_perfdata_writer_data_size(const pms_perfdata_writer *w);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
