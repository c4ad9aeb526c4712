/* phases: distinct code regions run in a fixed repeating sequence, A-B-B-C-B-D by default.
 *
 *   A  integer hashing (compute bound, few memory accesses)
 *   B  sequential streaming over a 16 MiB array (bandwidth bound)
 *   C  random pointer chasing over 32 MiB (latency bound, cache and TLB misses)
 *   D  floating point (square roots and divides)
 *
 * By default each phase instance runs 200 ms of its thread's CPU time (--ms), so that the
 * schedule holds however busy the machine is, and the sequence runs twice (2.4 s of CPU):
 * phases long enough for a sampling monitor at its defaults (a sample every 4 ms, below 1%
 * overhead) to find. With --units each phase is a fixed amount of work instead (scaled
 * per phase), so that the instruction stream is the same on every run (exact counts,
 * valgrind); the phases are then uneven (B short, C long). --threads N runs the schedule
 * on N threads at once, each shifted by one more letter (opposite schedules with two
 * phases and two threads). --trace FILE writes one line per phase instance, "start_ns
 * end_ns phase tid", with CLOCK_MONOTONIC times (the clock pmuscope samples with), so
 * that a classifier's labels can be compared with the true schedule. */
#include <getopt.h>
#include <pthread.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define STREAM_WORDS (2u << 20)  /* 16 MiB of uint64_t */
#define CHASE_NODES (4u << 20)   /* 32 MiB of uint64_t indices */
#define DEFAULT_MS 200           /* ms of CPU per phase instance without --units */

static uint64_t *stream_buf;
static uint64_t *chase_next;
static volatile uint64_t sink;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static void phase_a_hash(uint64_t units)
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < units * 40000; i++) {
        h ^= i;
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    sink += h;
}

/* first: the unit to start at (0 for a phase instance of --units; where the last chunk
 * ended under --ms, so that chunks go on streaming through the array). */
__attribute__((noinline)) static void phase_b_stream(uint64_t units, uint64_t first)
{
    uint64_t s = 0;
    for (uint64_t u = first; u < first + units; u++)
        for (uint64_t i = (u * 16384) % STREAM_WORDS, n = 0; n < 16384; n++, i = (i + 1) % STREAM_WORDS) {
            s += stream_buf[i];
            stream_buf[i] = s;
        }
    sink += s;
}

/* start: the node to start at (units % CHASE_NODES for --units; where the last chunk
 * stopped under --ms). Returns where it stopped. */
__attribute__((noinline)) static uint64_t phase_c_chase(uint64_t units, uint64_t start)
{
    uint64_t p = start;
    for (uint64_t i = 0; i < units * 2500; i++)
        p = chase_next[p];
    sink += p;
    return p;
}

__attribute__((noinline)) static void phase_d_float(uint64_t units)
{
    double x = 1.0;
    for (uint64_t i = 0; i < units * 6000; i++)
        x = sqrt(x + (double)i) / 1.0001 + 1.0 / (x + 1.0);
    sink += (uint64_t)x;
}

static void setup(void)
{
    stream_buf = malloc(STREAM_WORDS * sizeof *stream_buf);
    chase_next = malloc(CHASE_NODES * sizeof *chase_next);
    if (!stream_buf || !chase_next) {
        fprintf(stderr, "phases: out of memory\n");
        exit(1);
    }
    for (uint64_t i = 0; i < STREAM_WORDS; i++) stream_buf[i] = i;
    /* One random cycle through all nodes (Sattolo's algorithm, fixed seed). */
    for (uint64_t i = 0; i < CHASE_NODES; i++) chase_next[i] = i;
    uint64_t r = 88172645463325252ull;
    for (uint64_t i = CHASE_NODES - 1; i > 0; i--) {
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;
        uint64_t j = r % i;
        uint64_t t = chase_next[i]; chase_next[i] = chase_next[j]; chase_next[j] = t;
    }
}

/* One thread's run of the schedule; the trace lines are kept and written at the end. */
typedef struct runner {
    const char *sequence;
    long repeat, units, ms;
    size_t shift;          /* this thread starts this many letters into the sequence */
    pid_t tid;
    char *lines;           /* "start_ns end_ns phase tid\n" per instance */
    size_t len, cap;
    uint64_t stream_at, chase_at; /* --ms: where B and C go on from, chunk after chunk */
} runner;

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A phase instance of `units` of work (--units: the same instructions on every run). */
static void run_units(char phase, uint64_t units)
{
    switch (phase) {
    case 'A': phase_a_hash(units); break;
    case 'B': phase_b_stream(units, 0); break;
    case 'C': phase_c_chase(units, units % CHASE_NODES); break;
    case 'D': phase_d_float(units); break;
    }
}

/* A phase instance of `ms` of this thread's CPU time (--ms: the schedule holds on a busy
 * machine, where wall time stretches), in chunks of about 0.1 to 0.5 ms. */
static void run_ms(runner *r, char phase, long ms)
{
    uint64_t end = thread_cpu_ns() + (uint64_t)ms * 1000000ull;
    while (thread_cpu_ns() < end) {
        switch (phase) {
        case 'A': phase_a_hash(10); break;
        case 'B': phase_b_stream(20, r->stream_at); r->stream_at += 20; break;
        case 'C': r->chase_at = phase_c_chase(2, r->chase_at); break;
        case 'D': phase_d_float(10); break;
        }
    }
}

static void *run_schedule(void *arg)
{
    runner *r = arg;
    r->tid = (pid_t)syscall(SYS_gettid);
    size_t n = strlen(r->sequence);
    for (long k = 0; k < r->repeat; k++)
        for (size_t i = 0; i < n; i++) {
            char phase = r->sequence[(i + r->shift) % n];
            uint64_t t0 = now_ns();
            if (r->ms) run_ms(r, phase, r->ms);
            else run_units(phase, (uint64_t)r->units);
            uint64_t t1 = now_ns();
            if (r->len + 96 > r->cap) {
                char *grown = realloc(r->lines, r->cap = r->cap ? 2 * r->cap : 4096);
                if (!grown) {
                    fprintf(stderr, "phases: out of memory\n");
                    exit(1);
                }
                r->lines = grown;
            }
            r->len += (size_t)snprintf(r->lines + r->len, r->cap - r->len, "%llu %llu %c %d\n",
                                       (unsigned long long)t0, (unsigned long long)t1, phase, (int)r->tid);
        }
    return NULL;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: phases [--sequence ABBCBD] [--repeat N] [--units N | --ms N] [--threads N] [--trace FILE]\n"
            "  --sequence S  the phases to run in order, letters A to D (default ABBCBD)\n"
            "  --repeat N    how many times to run the sequence (default 2; 3 with --units)\n"
            "  --units N     work per phase instance: the same instructions on every run; about\n"
            "                14 ms of CPU per 250 units for A, 2 ms for B, 84 ms for C, 17 ms for D\n"
            "  --ms N        each phase instance runs N ms of its thread's CPU time instead (default\n"
            "                %d without --units): the schedule holds however busy the machine is\n"
            "  --threads N   N threads (1 to 8, default 1) run the schedule at once, thread k starting\n"
            "                k letters into the sequence (with --sequence AB and 2 threads, one runs A\n"
            "                while the other runs B: opposite schedules)\n"
            "  --trace FILE  write \"start_ns end_ns phase tid\" per phase instance (CLOCK_MONOTONIC)\n",
            DEFAULT_MS);
}

int main(int argc, char **argv)
{
    const char *sequence = "ABBCBD", *trace_path = NULL;
    long repeat = -1, units = 0, ms = 0, threads = 1;
    static const struct option opts[] = {
        {"sequence", required_argument, 0, 's'}, {"repeat", required_argument, 0, 'r'},
        {"units", required_argument, 0, 'u'},    {"ms", required_argument, 0, 'm'},
        {"threads", required_argument, 0, 'n'},  {"trace", required_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "s:r:u:m:n:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': sequence = optarg; break;
        case 'r': repeat = strtol(optarg, NULL, 10); break;
        case 'u': units = strtol(optarg, NULL, 10); break;
        case 'm': ms = strtol(optarg, NULL, 10); break;
        case 'n': threads = strtol(optarg, NULL, 10); break;
        case 't': trace_path = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (units && ms) {
        fprintf(stderr, "phases: --units and --ms exclude each other\n");
        return 2;
    }
    if (!units && !ms) ms = DEFAULT_MS;
    if (repeat == -1) repeat = units ? 3 : 2; /* --units's default run is the one it always was */
    if (repeat < 1 || units < 0 || ms < 0 || threads < 1 || threads > 8 ||
        strspn(sequence, "ABCD") != strlen(sequence) || !*sequence) {
        usage(stderr);
        return 2;
    }
    FILE *trace = NULL;
    if (trace_path && !(trace = fopen(trace_path, "w"))) {
        perror(trace_path);
        return 1;
    }
    setup();
    runner r[8] = {0};
    pthread_t tids[8];
    for (long k = 0; k < threads; k++) {
        r[k] = (runner){.sequence = sequence, .repeat = repeat, .units = units, .ms = ms, .shift = (size_t)k,
                        .chase_at = (uint64_t)k * 977};
        if (k && pthread_create(&tids[k], NULL, run_schedule, &r[k])) {
            fprintf(stderr, "phases: cannot start thread %ld\n", k + 1);
            return 1;
        }
    }
    run_schedule(&r[0]);
    for (long k = 1; k < threads; k++) pthread_join(tids[k], NULL);
    for (long k = 0; k < threads; k++) {
        if (trace) fwrite(r[k].lines, 1, r[k].len, trace);
        free(r[k].lines);
    }
    if (trace && fclose(trace)) {
        perror(trace_path);
        return 1;
    }
    free(stream_buf);
    free(chase_next);
    return 0;
}
