/* pmuscope: the sampled-IP profile behind `pmuscope report`.
 *
 * Samples are counted per (event, process, IP) in one streaming pass, so memory grows
 * with the number of distinct IPs, not of samples. Tables are made at the end, when
 * every mapping is known: by symbol (binary + function) or by instruction (binary +
 * file offset), with each row's share of the event's samples and a Wilson score
 * confidence interval for that share (the sample is a binomial draw: each sample lands
 * in the row or not). */
#ifndef PMUSCOPE_PROFILE_H
#define PMUSCOPE_PROFILE_H
#include <stddef.h>
#include <stdint.h>

#include "pmuscope/perfdata.h"
#include "pmuscope/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_profile pms_profile;

typedef enum pms_profile_key {
    PMS_PROFILE_BY_SYMBOL = 0,
    PMS_PROFILE_BY_IP = 1,
    PMS_PROFILE_BY_DSO = 2, /* one row per binary (perf report --sort dso) */
    PMS_PROFILE_BY_NONE = 3, /* no location: rows by the flags below only (perf --sort comm) */
    /* Flags ORed with one of the above: rows split further by the thread's command name
     * (perf's comm key) and by thread id (perf's pid key, printed TID:comm). */
    PMS_PROFILE_WITH_COMM = 0x100,
    PMS_PROFILE_WITH_PID = 0x200,
    /* With callchains (perf record -g): each row also gets the samples whose callchain
     * passes through it (perf report --children), and rows are sorted by those. An
     * address is counted once per sample however often its chain holds it (recursion).
     * Without callchains a row's children are its own samples. */
    PMS_PROFILE_CHILDREN = 0x400,
} pms_profile_key;

/* What a share counts: samples (each sample one binomial draw), or the events they stand
 * for (the sum of the samples' periods, as perf report's overhead). With varying periods
 * (perf record -F) the interval of a period share uses Kish's effective sample size
 * (sum of periods)^2 / (sum of squared periods); with a fixed period both are the same. */
typedef enum pms_profile_weight {
    PMS_WEIGHT_SAMPLES = 0,
    PMS_WEIGHT_PERIOD = 1,
} pms_profile_weight;

typedef struct pms_profile_row {
    const char *binary;     /* file, "[vdso]"-style name, "[kernel]" or "[unknown]"; "" for BY_NONE */
    const char *symbol;     /* function, or NULL when none covers the address(es) */
    uint64_t ip;            /* BY_IP: a run-time IP of the row (the first one seen); else 0 */
    uint64_t file_offset;   /* BY_IP: offset in the binary; BY_SYMBOL: of the symbol start, or without a
                             * symbol of the address (a row per address, as perf; kernel and
                             * unmapped addresses are their own offsets) */
    uint64_t symbol_offset; /* BY_IP: offset of the IP in its symbol */
    uint64_t samples;
    uint64_t period;        /* sum of the samples' periods */
    double share;           /* samples (or period) / all samples (or period) of the event */
    double ci_low, ci_high; /* Wilson score interval of share */
    const char *comm;        /* WITH_COMM: the thread's command name at the samples, NULL if unknown */
    uint32_t tid;            /* WITH_PID: the thread id (perf's pid key); WITH_COMM and comm NULL: the
                              * unnamed thread's id (perf's comm ":TID"); else 0 */
    const char *thread_comm; /* WITH_PID: the thread's last command name (perf prints TID:it) */
    /* PMS_PROFILE_CHILDREN: the samples in the row or below it in the callchain (perf's
     * "Children"), their periods, share and its Wilson interval; else zero. A row only
     * seen in callchains has no samples of its own. */
    uint64_t children_samples, children_period;
    double children_share, children_ci_low, children_ci_high;
} pms_profile_row;

/* Reports progress of pms_profile_read: bytes of the data section done and in all. */
typedef void (*pms_progress_fn)(uint64_t done, uint64_t total, void *ctx);

/* A profile that symbolises through `symbols` (owned by the caller, fed by the profile
 * itself when it reads a file). */
int pms_profile_create(pms_profile **out, pms_symbols *symbols);
void pms_profile_destroy(pms_profile *p);

/* Counts one sample of event `event` (an index chosen by the caller, < 1024). */
int pms_profile_add(pms_profile *p, size_t event, const pms_sample *s);
/* Reads a whole perf.data: samples (event = the attr's index in the file), mmap and task
 * records into the symbol map; progress may be NULL. */
int pms_profile_read(pms_profile *p, pms_perfdata_reader *r, pms_progress_fn progress, void *ctx);

uint64_t pms_profile_samples(const pms_profile *p, size_t event); /* all samples of the event */
uint64_t pms_profile_lost(const pms_profile *p);                  /* PERF_RECORD_LOST totals */
size_t pms_profile_distinct_ips(const pms_profile *p);
size_t pms_profile_distinct_callchains(const pms_profile *p);
/* Whether samples of the event carried callchains (PERF_SAMPLE_CALLCHAIN). */
int pms_profile_has_callchains(const pms_profile *p, size_t event);

/* The table of one event, rows sorted by share (largest first); *rows is malloc'd (free
 * it), its strings belong to the symbol map. confidence in (0, 1), e.g. 0.95. Shares
 * count samples. */
int pms_profile_table(pms_profile *p, size_t event, pms_profile_key key, double confidence, pms_profile_row **rows,
                      size_t *nrows);
/* The same with shares weighted as `weight` says. */
int pms_profile_table_weighted(pms_profile *p, size_t event, pms_profile_key key, pms_profile_weight weight,
                               double confidence, pms_profile_row **rows, size_t *nrows);

/* One call path of a row (perf report --no-children -g folded): the row's samples whose
 * callchain names these functions, leaf first. */
typedef struct pms_profile_path {
    size_t row;    /* index of the row in the table made with it */
    char *path;    /* function names leaf first, ';' between, an address without a symbol as
                    * 0x... (its run-time IP), as perf report -g folded prints them */
    uint64_t samples, period;
    double share;  /* of all the event's samples, or period (as the table's weight) */
} pms_profile_path;

/* pms_profile_table_weighted, and the call paths of the rows' own samples (*paths sorted by
 * row, then share; none without callchains). Only rows by location (no WITH_COMM or
 * WITH_PID). Free the paths with pms_profile_paths_free. */
int pms_profile_table_paths(pms_profile *p, size_t event, pms_profile_key key, pms_profile_weight weight,
                            double confidence, pms_profile_row **rows, size_t *nrows, pms_profile_path **paths,
                            size_t *npaths);
void pms_profile_paths_free(pms_profile_path *paths, size_t n);

/* Wilson score interval for a binomial proportion k/n at the given confidence level. */
int pms_wilson_interval(uint64_t k, uint64_t n, double confidence, double *low, double *high);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
