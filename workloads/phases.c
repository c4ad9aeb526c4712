/* phases: distinct code regions run in a fixed repeating sequence, A-B-B-C-B-D by default.
 *
 *   A  integer hashing (compute bound, few memory accesses)
 *   B  sequential streaming over a 16 MiB array (bandwidth bound)
 *   C  random pointer chasing over 32 MiB (latency bound, cache and TLB misses)
 *   D  floating point (square roots and divides)
 *
 * Each phase is a fixed amount of work (--units, scaled per phase), so the instruction
 * stream is the same on every run. --trace FILE writes one line per phase instance,
 * "start_ns end_ns phase", with CLOCK_MONOTONIC times (the clock pmuscope samples with),
 * so that a classifier's labels can be compared with the true schedule. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STREAM_WORDS (2u << 20)  /* 16 MiB of uint64_t */
#define CHASE_NODES (4u << 20)   /* 32 MiB of uint64_t indices */

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

__attribute__((noinline)) static void phase_b_stream(uint64_t units)
{
    uint64_t s = 0;
    for (uint64_t u = 0; u < units; u++)
        for (uint64_t i = (u * 16384) % STREAM_WORDS, n = 0; n < 16384; n++, i = (i + 1) % STREAM_WORDS) {
            s += stream_buf[i];
            stream_buf[i] = s;
        }
    sink += s;
}

__attribute__((noinline)) static void phase_c_chase(uint64_t units)
{
    uint64_t p = units % CHASE_NODES;
    for (uint64_t i = 0; i < units * 2500; i++)
        p = chase_next[p];
    sink += p;
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

static void usage(FILE *out)
{
    fprintf(out,
            "usage: phases [--sequence ABBCBD] [--repeat N] [--units N] [--trace FILE]\n"
            "  --sequence S  the phases to run in order, letters A to D (default ABBCBD)\n"
            "  --repeat N    how many times to run the sequence (default 3)\n"
            "  --units N     work per phase instance; about 10 ms per 250 units (default 250)\n"
            "  --trace FILE  write \"start_ns end_ns phase\" per phase instance (CLOCK_MONOTONIC)\n");
}

int main(int argc, char **argv)
{
    const char *sequence = "ABBCBD", *trace_path = NULL;
    long repeat = 3, units = 250;
    static const struct option opts[] = {
        {"sequence", required_argument, 0, 's'}, {"repeat", required_argument, 0, 'r'},
        {"units", required_argument, 0, 'u'},    {"trace", required_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "s:r:u:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': sequence = optarg; break;
        case 'r': repeat = strtol(optarg, NULL, 10); break;
        case 'u': units = strtol(optarg, NULL, 10); break;
        case 't': trace_path = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (repeat < 1 || units < 1 || strspn(sequence, "ABCD") != strlen(sequence) || !*sequence) {
        usage(stderr);
        return 2;
    }
    FILE *trace = NULL;
    if (trace_path && !(trace = fopen(trace_path, "w"))) {
        perror(trace_path);
        return 1;
    }
    setup();
    for (long r = 0; r < repeat; r++)
        for (const char *p = sequence; *p; p++) {
            uint64_t t0 = now_ns();
            switch (*p) {
            case 'A': phase_a_hash((uint64_t)units); break;
            case 'B': phase_b_stream((uint64_t)units); break;
            case 'C': phase_c_chase((uint64_t)units); break;
            case 'D': phase_d_float((uint64_t)units); break;
            }
            if (trace) fprintf(trace, "%llu %llu %c\n", (unsigned long long)t0, (unsigned long long)now_ns(), *p);
        }
    if (trace) fclose(trace);
    free(stream_buf);
    free(chase_next);
    return 0;
}
