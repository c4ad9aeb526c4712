/* pmuscope: pprof profiles (profile.proto, gzipped), out and in.
 *
 * pms_pprof_write_perfdata() turns a perf.data into the profile that `go tool pprof`,
 * Parca, Pyroscope and speedscope read: for every event of the file two sample types,
 * "<event>_samples" (count) and "<event>" (the events the samples stand for: the sum of
 * their periods; for a counter read at every sample (PERF_SAMPLE_READ), the counter's
 * increments between samples, as perf report attributes them); one location per sampled
 * instruction (run-time address) with its mapping (file, build-id, start, limit, file
 * offset) and function (name, source file and line from DWARF where the binary has it);
 * the sampling period. The accuracy travels with it: every sample carries a label per
 * event, "<event> share", holding its share of that event's samples with the Wilson
 * score interval, and the profile's comment names the events, their periods and how they
 * varied (randomised periods), the caller's notes (seed), and each event's top functions
 * with their intervals, as `pmuscope report` computes them.
 *
 * pms_pprof_read() reads a pprof profile written by anyone (Go's runtime/pprof, a JVM
 * agent, Parca, pmuscope) into a hotspot table per sample type: functions by flat
 * value and by cum value (the samples whose stack holds them), with shares and Wilson
 * intervals (the number of draws is the sample count when the profile has a count
 * sample type, else the values themselves). */
#ifndef PMUSCOPE_PPROF_H
#define PMUSCOPE_PPROF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_pprof_options {
    double confidence;        /* level of the Wilson intervals (0: 0.95) */
    const char *const *notes; /* extra comment lines: how the recording was made (seed ...) */
    size_t nnotes;
    size_t top;               /* functions per event listed in the comment (0: 10) */
    const char *symfs;        /* read the binaries under this directory (pms_symbols_set_symfs) */
} pms_pprof_options;

/* Reads the perf.data at `perfdata` in one pass (memory grows with the distinct sampled
 * instructions) and writes the gzipped profile to `out` (through a temporary file: a
 * failure leaves a file that was at `out` as it was). options may be NULL. */
int pms_pprof_write_perfdata(const char *out, const char *perfdata, const pms_pprof_options *options);

/* Whether the file at path starts as a pprof profile (gzip's header and data, or a raw
 * profile.proto message: Profile's fields, each with its wire type). Fails only when it
 * cannot be read. */
int pms_pprof_sniff(bool *out, const char *path);

/* What a profile input holds, for the commands that take either. */
typedef enum pms_profile_kind { PMS_PROFILE_PERFDATA, PMS_PROFILE_PPROF } pms_profile_kind;
/* Tells a perf.data from a pprof profile by the file's first bytes: a perf.data magic of
 * any version, or fewer than 8 bytes that start one (a perf.data cut short, which the
 * perf.data reader names), is a perf.data; gzip's or Profile's first fields a pprof
 * profile. Anything else fails with PMS_EFORMAT: "PATH: neither a perf.data file (no
 * PERFILE2 magic at offset 0) nor a pprof profile (offset N: expected ...)". A path that is
 * not a regular file (a pipe, a device) is taken for a perf.data unlooked at: looking would
 * take its first bytes, and the perf.data reader checks them before anything else. */
int pms_profile_sniff(pms_profile_kind *out, const char *path);

/* One row of a pprof hotspot table: a function (name and file) and its flat value. */
typedef struct pms_pprof_row {
    const char *function;   /* "[unknown]" for addresses without a function */
    const char *file;       /* the function's source file, or "" */
    const char *binary;     /* the file of the first location's mapping, or "" */
    const char *build_id;   /* that mapping's build-id, or "" */
    int64_t value;          /* flat: the value of the samples whose leaf is in the function */
    uint64_t samples;       /* the count sample type's flat value where there is one, else 0 */
    double share;           /* value / the sample type's total */
    double ci_low, ci_high; /* Wilson score interval of share */
    /* cum (pprof -top -cum, perf report's "Children"): the samples whose stack holds the
     * function at any location or inlined line, each sample once however often it holds it;
     * a function only seen in stacks has a row with a flat value of 0 and leaf false. */
    int64_t cum_value;
    uint64_t cum_samples;   /* as samples, for cum */
    double cum_share, cum_ci_low, cum_ci_high;
    bool leaf;              /* some sample's leaf is in the function (it has a flat row) */
} pms_pprof_row;

typedef struct pms_pprof pms_pprof;

/* Reads the profile at path (gzipped or not). */
int pms_pprof_open(pms_pprof **out, const char *path);
/* The same from bytes in memory (name for messages). */
int pms_pprof_open_mem(pms_pprof **out, const void *data, size_t len, const char *name);
void pms_pprof_close(pms_pprof *p);
size_t pms_pprof_ntypes(const pms_pprof *p);
/* Sample type i: its type and unit ("cpu", "nanoseconds"). */
void pms_pprof_type(const pms_pprof *p, size_t i, const char **type, const char **unit);
/* The sample type the profile names as its default (pprof's choice: else the last). */
size_t pms_pprof_default_type(const pms_pprof *p);
size_t pms_pprof_ncomments(const pms_pprof *p);
const char *pms_pprof_comment(const pms_pprof *p, size_t i);
/* The table of sample type `type`: a row per function in a binary, by flat value (largest
 * first), with its cum value; *rows is malloc'd (free it), its strings belong to p.
 * Shares' intervals at `confidence` in (0, 1). */
int pms_pprof_table(pms_pprof *p, size_t type, double confidence, pms_pprof_row **rows, size_t *nrows);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
