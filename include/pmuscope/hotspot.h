/* pmuscope: how well sampled hotspots match the real ones (Wu & Mencer's hotspot paper).
 *
 * S = {(IP_i, c_i)}: the sampled IP histogram, m distinct IPs, NS = sum c_i samples.
 * R = {(IP_i, r_i)}: the exact execution count of the instruction at each sampled IP.
 * B: the execution counts of all basic blocks of the run; bc(IP_i) is the count of
 * the block that IP_i falls in. NI: all instructions executed.
 *
 *   NRMSE_SR = sqrt(sum c_i/NS (c_i/NS - r_i/NI)^2) / (max - min of {c_i/NS} u {r_i/NI})
 *   SC       = sum r_i / NI
 *   OD       = sqrt(sum c_i/NS (SOLevel(IP_i) - ROLevel(IP_i))^2) / m
 *
 * Order levels: equal counts share a level; level 1 is the largest count, level k the
 * k-th largest distinct count. SOLevel ranks c_i among the sampled counts, ROLevel
 * ranks bc(IP_i) among the counts of ALL basic blocks of B.
 *
 * Extras: top-N precision and recall (the N most sampled IPs against the N most
 * executed instructions; IPs tied with the N-th count are included in each set) and
 * Kendall's tau-b between c_i and r_i. */
#ifndef PMUSCOPE_HOTSPOT_H
#define PMUSCOPE_HOTSPOT_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* One sampled IP. */
typedef struct pms_hotspot_ip {
    uint64_t sampled;     /* c_i */
    uint64_t executed;    /* r_i: exact count of the instruction at IP_i */
    uint64_t block_count; /* bc of the basic block that IP_i falls in */
} pms_hotspot_ip;

typedef struct pms_hotspot_measures {
    size_t m;             /* distinct sampled IPs */
    uint64_t ns;          /* samples */
    uint64_t ni;          /* instructions executed */
    double nrmse_sr;
    double sc;
    double od;            /* the paper's OD: over all m sampled IPs */
    double od_covered;    /* OD over the m_covered sampled IPs that ran under valgrind
                             (r_i > 0), its weights and levels among those alone; NaN if none */
    size_t m_covered;
    uint64_t ns_uncovered;/* samples at IPs with no truth (r_i = 0) */
    double kendall_tau;   /* tau-b of (c_i, r_i); NaN when m < 2 or one side is constant */
} pms_hotspot_measures;

/* Computes NRMSE_SR, SC, OD (also over the covered IPs alone) and Kendall's tau-b. block_counts holds the execution
 * count of every basic block of the run (any order, repeats allowed, nblocks >= 1);
 * every ips[i].block_count must be one of them. Fails (PMS_EINVAL, with the reason)
 * on m == 0, ni == 0, a zero sampled count, or a block count not in block_counts. */
int pms_hotspot_measure(const pms_hotspot_ip *ips, size_t m, uint64_t ni, const uint64_t *block_counts,
                        size_t nblocks, pms_hotspot_measures *out);

/* Order levels as the paper defines them: levels[i] = 1 + the number of distinct
 * values in counts[] larger than counts[i]. */
int pms_hotspot_order_levels(const uint64_t *counts, size_t n, size_t *levels);

/* Kendall's tau-b of two paired sequences (ties handled); NaN if undefined. */
double pms_kendall_tau_b(const uint64_t *x, const uint64_t *y, size_t n);

/* Top-N precision and recall. sampled[i] and executed[i] describe the same key i
 * (an instruction; 0 where it was never sampled); the sampled top set is the keys
 * whose sampled count is >= the N-th largest positive sampled count, the true top set
 * likewise on executed. precision = |both| / |sampled top|, recall = |both| / |true top|. */
int pms_hotspot_top_n(const uint64_t *sampled, const uint64_t *executed, size_t n, size_t top,
                      double *precision, double *recall);

/* ---- ground truth: exact counts from valgrind ----
 *
 * A truth directory holds what one valgrind run of one command wrote:
 *   callgrind.out, callgrind.log   callgrind --dump-instr=yes --collect-jumps=yes --skip-plt=no
 *                                  (per-instruction counts and the branches taken)
 *   objects                        "BUILD-ID PATH" of every object that ran, taken when
 *                                  valgrind ran, to refuse a rebuilt or different binary
 *   run                            the command: its binary's build-id and path, its
 *                                  arguments and its instruction count
 * Every address is mapped to (object, file offset), the space that perf's MMAP records
 * also lead to, so PIE/ASLR and shared libraries line up. Basic blocks start at every
 * branch target, after every branch or call, and (for branches never taken) wherever
 * the exact count changes between executed instructions; a block's execution count is
 * the exact count of its instructions. A command of any length gets its whole truth. */

typedef struct pms_hotspot_truth pms_hotspot_truth;

/* Runs argv once under callgrind, writing into dir (created if needed). Fails with
 * PMS_ECHILD if the command cannot run or exits non-zero. */
int pms_hotspot_truth_record(const char *dir, char *const argv[]);
/* Removes the files of a truth directory and the directory (if then empty). */
void pms_hotspot_truth_remove(const char *dir);
/* Loads a truth directory; refuses it (PMS_EINVAL) if a recorded object has since
 * been rebuilt (build-id changed). */
int pms_hotspot_truth_load(pms_hotspot_truth **out, const char *dir);
void pms_hotspot_truth_free(pms_hotspot_truth *t);

/* NI: all instructions executed. */
uint64_t pms_hotspot_truth_instructions(const pms_hotspot_truth *t);
/* The profiled command as callgrind recorded it. */
const char *pms_hotspot_truth_command(const pms_hotspot_truth *t);
/* The command valgrind ran, NULL-terminated (NULL, *argc 0, in a truth recorded before
 * pmuscope kept it). */
char *const *pms_hotspot_truth_argv(const pms_hotspot_truth *t, size_t *argc);
/* Checks that a recording ran the truth's command: cmdline is its command line
 * ("perf record ... -- CMD ARGS", pms_perfdata_cmdline; the command is what follows the
 * first "--", or else its last words). PMS_EINVAL naming both when the program (by
 * build-id) or an argument differs; PMS_ENOENT when the recording or the truth holds no
 * command. */
int pms_hotspot_truth_check_command(const pms_hotspot_truth *t, char *const cmdline[], size_t n);
size_t pms_hotspot_truth_nobjects(const pms_hotspot_truth *t);
const char *pms_hotspot_truth_object_path(const pms_hotspot_truth *t, size_t i);
const char *pms_hotspot_truth_object_build_id(const pms_hotspot_truth *t, size_t i);
/* The object with this build-id (or, if build_id is NULL or "", this path); -1 if none. */
long pms_hotspot_truth_find_object(const pms_hotspot_truth *t, const char *path, const char *build_id);
/* The execution counts of all basic blocks (the list B). */
const uint64_t *pms_hotspot_truth_block_counts(const pms_hotspot_truth *t, size_t *n);

/* What the truth says about the instruction at (object, file offset). */
typedef struct pms_hotspot_fact {
    uint64_t executed;      /* exact count of the instruction, 0 if it never ran */
    uint64_t block_count;   /* count of its basic block, 0 if it never ran */
    uint64_t block_offset;  /* file offset of the block's first instruction */
    const char *function;   /* function name from callgrind (from the ELF symbols if valgrind
                               never ran the instruction), "" if unknown */
} pms_hotspot_fact;
void pms_hotspot_truth_lookup(const pms_hotspot_truth *t, size_t object, uint64_t offset, pms_hotspot_fact *out);
/* The executed instructions, sorted by (object, offset). */
size_t pms_hotspot_truth_ninstructions(const pms_hotspot_truth *t);
void pms_hotspot_truth_instruction(const pms_hotspot_truth *t, size_t i, size_t *object, uint64_t *offset,
                                   uint64_t *count);
/* Instructions and branch targets that valgrind reported but that could not be placed
 * on an executed instruction of a file (anonymous code, valgrind's own preload objects). */
void pms_hotspot_truth_unmapped(const pms_hotspot_truth *t, uint64_t *instructions, size_t *blocks);
/* Basic blocks placed in object i. */
size_t pms_hotspot_truth_object_blocks(const pms_hotspot_truth *t, size_t object);

/* ---- sampled hotspots against the truth ---- */

/* Samples at one location of a file: the object as the recording mapped it (path,
 * and build-id if the recording kept one, else NULL) and the file offset of the IP.
 * The same location may appear several times; counts are added. */
typedef struct pms_hotspot_sample {
    const char *path;
    const char *build_id;
    uint64_t offset;
    uint64_t count;
} pms_hotspot_sample;

/* One sampled IP with what the truth says about it. */
typedef struct pms_hotspot_row {
    size_t object;         /* truth object index */
    uint64_t offset;       /* file offset */
    uint64_t sampled;      /* c_i */
    pms_hotspot_fact fact; /* r_i, bc, function */
} pms_hotspot_row;

typedef struct pms_hotspot_result {
    pms_hotspot_measures measures;
    size_t top_n;
    double top_precision, top_recall;
    pms_hotspot_row *rows;    /* sorted by sampled count, decreasing */
    size_t nrows;
    uint64_t outside_samples; /* samples in files the truth does not know (left out of S) */
    uint64_t unexecuted_samples; /* samples at instructions valgrind never ran (r_i = 0): code
                                    chosen for the CPU at run time, such as glibc's IFUNC
                                    variants, differs under valgrind's virtual CPU */
} pms_hotspot_result;

/* Builds S and R from the samples and computes the measures and top-N. Samples in a
 * file the truth does not describe are left out and counted; if they are more than 1%
 * of all samples, or a build-id differs, the truth belongs to another binary and the
 * call fails (PMS_EINVAL) naming the object. */
int pms_hotspot_evaluate(const pms_hotspot_truth *t, const pms_hotspot_sample *samples, size_t n, size_t top_n,
                         pms_hotspot_result *out);
void pms_hotspot_result_free(pms_hotspot_result *r);

/* ---- the sampled side: a perf.data recording ---- */

/* The user-space IP samples of a recording, placed in files through its MMAP records. */
typedef struct pms_hotspot_recording {
    pms_hotspot_sample *samples; /* one per distinct (file, offset) */
    size_t n;
    uint64_t total;          /* all samples of the sampling event */
    uint64_t unplaced;       /* kernel, vdso or anonymous code: no file to place them in */
    char event[64];          /* the sampling event's name */
    uint64_t period;         /* its sample_period, 0 when sampled by frequency */
    int time_based;          /* cpu-clock or task-clock: the period counts nanoseconds */
    char **cmdline;          /* the recording command, NULL-terminated (NULL if the file has none) */
    size_t ncmdline;
} pms_hotspot_recording;

int pms_hotspot_recording_read(pms_hotspot_recording *out, const char *perfdata);
void pms_hotspot_recording_free(pms_hotspot_recording *r);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
