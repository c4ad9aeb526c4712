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

#include "pmuscope/target.h"

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
 *   callgrind.out, callgrind.log   callgrind --dump-instr=yes --skip-plt=no (per-instruction
 *                                  counts; --collect-jumps=yes for the branches taken) of
 *                                  the command's own process
 *   callgrind.out.PID[.N], callgrind.log.PID
 *                                  the same of each process it started (valgrind follows
 *                                  fork and exec: --trace-children=yes); a process dumps
 *                                  its counts (part N) just before it forks, so that a
 *                                  child starts from zero instead of its parent's counts
 *   objects                        "BUILD-ID PATH" of every object that ran, taken when
 *                                  valgrind ran, to refuse a rebuilt or different binary
 *   run                            the command: its binary's build-id and path, its
 *                                  arguments and its instruction count (all processes)
 * Every address is mapped to (object, file offset), the space that perf's MMAP records
 * also lead to, so PIE/ASLR and shared libraries line up. A truth object is a file as one
 * process image ran it: the processes of one program (by the name the kernel gives a
 * process: its file name, at most 15 bytes) are one image, another program another, so
 * that libc's instructions run by gzip and by xz under one shell are told apart, as the
 * samples of each process are. Basic blocks start at every branch target, after every
 * branch or call, and (for branches never taken) wherever the exact count changes between
 * executed instructions; a block's execution count is the exact count of its
 * instructions. A command of any length gets its whole truth. What valgrind cannot see:
 * the counts of a process image before it execs another program (valgrind starts the new
 * program afresh), and children made other than by fork, vfork or posix_spawn (a raw
 * clone) start with their parent's counts. */

typedef struct pms_hotspot_truth pms_hotspot_truth;

/* Runs argv once under callgrind, writing into dir (created if needed). Fails with
 * PMS_ECHILD if the command cannot run or exits non-zero. */
int pms_hotspot_truth_record(const char *dir, char *const argv[]);
/* The same, the command set up as setup says (its standard input, say; NULL: inherited). */
int pms_hotspot_truth_record_with(const char *dir, char *const argv[], const pms_child_setup *setup);
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
/* The process name of object i's image ("gzip"). */
const char *pms_hotspot_truth_object_process(const pms_hotspot_truth *t, size_t i);
/* The first object with this build-id (or, if build_id is NULL or "", this path); -1 if none. */
long pms_hotspot_truth_find_object(const pms_hotspot_truth *t, const char *path, const char *build_id);
/* The same in the image of process name `process` (NULL: any image). */
long pms_hotspot_truth_find_process_object(const pms_hotspot_truth *t, const char *process, const char *path,
                                           const char *build_id);
/* Processes (distinct process ids among the profiles) that valgrind followed. */
size_t pms_hotspot_truth_nprocesses(const pms_hotspot_truth *t);
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

/* ---- native runs that execute the code valgrind executes ----
 *
 * glibc picks its string and memory routines (IFUNC variants) and its copy strategies by
 * the CPU it sees; valgrind's virtual CPU lacks features (AVX-512) and may name another
 * vendor, so natively a program runs code that valgrind never ran. The probe asks glibc's
 * loader (ld.so --list-diagnostics, glibc 2.33 and later) natively and under valgrind
 * (--tool=none) what it chose, and gives the GLIBC_TUNABLES value (glibc.cpu.hwcaps and the
 * x86 copy thresholds) that makes the native choices valgrind's; the loader run again with
 * it says what still differs. */
typedef enum pms_hotspot_cpu_mask_state {
    PMS_CPU_MASK_OFF = 0,     /* not probed (turned off by the caller) */
    PMS_CPU_MASK_SAME,        /* glibc chooses the same natively and under valgrind */
    PMS_CPU_MASK_APPLIED,     /* tunables (if any) make the choices valgrind's but for `remaining` */
    PMS_CPU_MASK_UNAVAILABLE, /* cannot tell or cannot mask here: `why` says */
} pms_hotspot_cpu_mask_state;

typedef struct pms_hotspot_cpu_mask {
    pms_hotspot_cpu_mask_state state;
    char tunables[1024]; /* the GLIBC_TUNABLES value for the native runs, "" if none */
    char remaining[512]; /* what still differs with it (from the loader), "" if nothing */
    char why[256];       /* UNAVAILABLE: the reason */
} pms_hotspot_cpu_mask;

/* Probes, writing scratch files into dir (removed). Fails only on a lack of memory; a
 * machine where it cannot tell gives PMS_CPU_MASK_UNAVAILABLE. */
int pms_hotspot_cpu_mask_probe(pms_hotspot_cpu_mask *out, const char *dir);
/* "GLIBC_TUNABLES=..." for a native run (the caller's own GLIBC_TUNABLES first) into out;
 * 0 (and out untouched) when there is nothing to set. */
int pms_hotspot_cpu_mask_env(const pms_hotspot_cpu_mask *m, char *out, size_t size);

/* ---- sampled hotspots against the truth ---- */

/* Samples at one location of a file: the object as the recording mapped it (path,
 * and build-id if the recording kept one, else NULL) and the file offset of the IP.
 * The same location may appear several times; counts are added. */
typedef struct pms_hotspot_sample {
    const char *path;
    const char *build_id;
    uint64_t offset;
    uint64_t count;
    const char *process; /* the sampled thread's command name (perf's comm), NULL if unknown */
} pms_hotspot_sample;

/* One sampled IP with what the truth says about it. */
typedef struct pms_hotspot_row {
    size_t object;         /* truth object index */
    uint64_t offset;       /* file offset */
    uint64_t sampled;      /* c_i */
    pms_hotspot_fact fact; /* r_i, bc, function */
} pms_hotspot_row;

/* A file that valgrind never ran, and the samples in it. */
typedef struct pms_hotspot_outside_file {
    char path[256];
    char process[16];  /* the process name of its first samples ("" if unknown) */
    uint64_t samples;
} pms_hotspot_outside_file;

typedef struct pms_hotspot_result {
    pms_hotspot_measures measures;
    size_t top_n;
    double top_precision, top_recall;
    pms_hotspot_row *rows;    /* sorted by sampled count, decreasing */
    size_t nrows;
    uint64_t outside_samples; /* samples in files the truth does not know (left out of S) */
    pms_hotspot_outside_file outside_files[4]; /* the files that hold most of them */
    size_t noutside_files;
    uint64_t unexecuted_samples; /* samples at instructions valgrind never ran (r_i = 0): code
                                    chosen for the CPU at run time, such as glibc's IFUNC
                                    variants, differs under valgrind's virtual CPU */
    uint64_t other_process_samples; /* placed in a file by path alone: their process name is
                                       none of the truth's (a thread that renamed itself) */
} pms_hotspot_result;

/* Largest share of the samples in files (NS + outside) that may lie in files the truth
 * does not know before pms_hotspot_evaluate takes the truth for another command's. */
#define PMS_HOTSPOT_OUTSIDE_LIMIT 0.01

/* Builds S and R from the samples and computes the measures and top-N. Each sample is
 * placed in its process's image of its file (by process name; by path alone when no image
 * has its name), samples in a file the truth does not describe are left out and counted.
 * Fails (PMS_EINVAL) if a build-id differs, or when no sample falls in a file the truth
 * knows. */
int pms_hotspot_measure_samples(const pms_hotspot_truth *t, const pms_hotspot_sample *samples, size_t n,
                                size_t top_n, pms_hotspot_result *out);
/* PMS_EINVAL naming the worst file when more than PMS_HOTSPOT_OUTSIDE_LIMIT of a result's
 * samples are in files the truth does not know: the truth belongs to another binary. */
int pms_hotspot_check_outside(const pms_hotspot_truth *t, const pms_hotspot_result *r);
/* pms_hotspot_measure_samples, then pms_hotspot_check_outside (the result freed if it
 * fails). */
int pms_hotspot_evaluate(const pms_hotspot_truth *t, const pms_hotspot_sample *samples, size_t n, size_t top_n,
                         pms_hotspot_result *out);
void pms_hotspot_result_free(pms_hotspot_result *r);

/* ---- what an ideal random sampler gives ----
 *
 * NS samples, each at an executed instruction drawn with probability r_i / (sum of r):
 * what a period in instructions does on average, with no skid and no bias. Its measures
 * over seeded draws are the noise that a recording's measures are read against: an
 * NRMSE_SR of 0.6 where an ideal sampler with as many samples gives 0.03 is bias, an OD
 * that rises with the period as the ideal one does is the samples thinning out. */
typedef struct pms_hotspot_spread {
    double mean;      /* over the draws (NaN if no draw defines the measure) */
    double low, high; /* the central 95% of the draws: their 2.5% and 97.5% quantiles (R's type 7) */
} pms_hotspot_spread;

typedef struct pms_hotspot_ideal {
    uint64_t ns;
    size_t draws;
    pms_hotspot_spread nrmse_sr, sc, od; /* OD over all sampled IPs (all have a truth here) */
    pms_hotspot_spread kendall_tau;      /* over the draws where tau-b is defined */
} pms_hotspot_ideal;

typedef struct pms_hotspot_ideal_config {
    size_t draws;       /* 0: 200 */
    uint64_t seed;      /* the same seed, the same draws */
    int at_block_start; /* a sample lands on the first instruction of the block it drew */
} pms_hotspot_ideal_config;

/* The ideal sampler's measures with ns samples (1 to UINT_MAX) against truth t; cfg NULL:
 * 200 draws, seed 0, samples at instructions. */
int pms_hotspot_ideal_sampler(pms_hotspot_ideal *out, const pms_hotspot_truth *t, uint64_t ns,
                              const pms_hotspot_ideal_config *cfg);

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
