/* regions: a program that counts regions of its own code with pmuscope's markers and nothing
 * else of pmuscope (pmuscope/region.h). THREADS threads run at once; each runs REPEATS times
 *
 *     region "work"            holding both of these:
 *       region "pages"         PAGES fresh pages of memory touched once each: PAGES page faults
 *       region "loop"          a loop of exactly 5 instructions an iteration (x86-64, arm64),
 *                              ITERATIONS times
 *
 * and at exit the library writes the report to $PMS_REGION_OUT (pmuscope-regions.json):
 *
 *     cc -o regions regions.c $(pkg-config --cflags --libs pmuscope)
 *     PMS_REGION_EVENTS=page-faults,instructions:u ./regions -t 2 -p 100
 *     pmuscope stat --regions -- ./regions -t 2 -p 100
 *
 *   regions [-t THREADS] [-p PAGES] [-n ITERATIONS] [-r REPEATS] */
#include "pmuscope/region.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned long pages = 100, iterations = 1000000, repeats = 1;
volatile unsigned long loop_result; /* used, so that the loop stays */

/* Five instructions an iteration: two adds, an exclusive or, the decrement and the branch. */
static unsigned long loop(unsigned long n)
{
    unsigned long a = 0, b = 0;
    if (n == 0) return 0;
#if defined(__aarch64__)
    __asm__ volatile("1: add %1, %1, #1\n\teor %2, %2, %1\n\tadd %2, %2, #3\n\tsubs %0, %0, #1\n\tb.ne 1b"
                     : "+r"(n), "+r"(a), "+r"(b) : : "cc");
#elif defined(__x86_64__)
    __asm__ volatile("1: add $1, %1\n\txor %1, %2\n\tadd $3, %2\n\tsub $1, %0\n\tjnz 1b"
                     : "+r"(n), "+r"(a), "+r"(b) : : "cc");
#else
    for (volatile unsigned long i = 0; i < n; i++) b += i;
#endif
    return b;
}

static int check(int status, const char *what)
{
    if (status != 0) fprintf(stderr, "regions: %s failed (pmuscope status %d)\n", what, status);
    return status;
}

/* AddressSanitizer would check each store against its shadow memory, and touching the shadow
 * faults pages of its own: the loop that touches the pages goes unchecked, so that its page
 * faults are the program's. */
#if defined(__SANITIZE_ADDRESS__)
#define UNCHECKED __attribute__((no_sanitize_address))
#else
#define UNCHECKED
#endif

UNCHECKED static void touch(char *p, size_t page)
{
    for (unsigned long i = 0; i < pages; i++) ((volatile char *)p)[i * page] = 1;
}

/* PAGES fresh pages (no transparent huge pages: one fault a page), touched in region "pages". */
static int touch_pages(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (pages ? pages : 1) * page;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    madvise(p, len, MADV_NOHUGEPAGE);
    int r = check(pms_region_begin("pages"), "begin pages");
    if (r == 0) touch(p, page);
    if (r == 0) r = check(pms_region_end("pages"), "end pages");
    munmap(p, len);
    return r;
}

static void *run(void *arg)
{
    int *status = arg;
    for (unsigned long k = 0; *status == 0 && k < repeats; k++) {
        *status = check(pms_region_begin("work"), "begin work");
        if (*status == 0) *status = touch_pages();
        if (*status == 0) *status = check(pms_region_begin("loop"), "begin loop");
        if (*status == 0) loop_result = loop(iterations);
        if (*status == 0) *status = check(pms_region_end("loop"), "end loop");
        if (*status == 0) *status = check(pms_region_end("work"), "end work");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned long threads = 1;
    int opt;
    while ((opt = getopt(argc, argv, "t:p:n:r:")) != -1) {
        unsigned long v = strtoul(optarg, NULL, 10);
        if (opt == 't') threads = v;
        else if (opt == 'p') pages = v;
        else if (opt == 'n') iterations = v;
        else if (opt == 'r') repeats = v;
        else return 2;
    }
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "usage: regions [-t THREADS (1-64)] [-p PAGES] [-n ITERATIONS] [-r REPEATS]\n");
        return 2;
    }
    pthread_t tid[64];
    int status[64] = {0};
    for (unsigned long t = 1; t < threads; t++) pthread_create(&tid[t], NULL, run, &status[t]);
    run(&status[0]); /* the first thread is this one */
    int failed = status[0] != 0;
    for (unsigned long t = 1; t < threads; t++) {
        pthread_join(tid[t], NULL);
        failed |= status[t] != 0;
    }
    return failed; /* the report is written at exit */
}
