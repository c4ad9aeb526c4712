/* pmu_papi: pmuscope's counter sets and region markers beside PAPI 7's event sets and
 * high-level regions, on the same events, for the hardware suite and the benchmark.
 *
 *   pmu_papi count N REPEATS PMS_EVENTS PAPI_EVENTS
 *       the same loop of known length (workloads/known_loop.h, N iterations) REPEATS times in
 *       pmuscope region "loop" and REPEATS times between PAPI_start and PAPI_stop; prints
 *       "pmuscope EVENT SUM HOW" and "papi EVENT SUM" per event (SUM over the repeats; HOW:
 *       how pmuscope read it).
 *   pmu_papi bench MODE OPS PMS_EVENTS PAPI_EVENTS
 *       OPS operations of one kind, timed: MODE pms-read (pms_counterset_read), papi-read
 *       (PAPI_read), pms-region (pms_region_begin/end), papi-region (PAPI_hl_region_begin/end);
 *       prints "MODE WALL_NS CPU_NS" per operation (wall clock, and this thread's CPU time).
 *
 * PMS_EVENTS are pmuscope names ("instructions:u,cycles:u"), PAPI_EVENTS PAPI's
 * ("PAPI_TOT_INS,PAPI_TOT_CYC"), the same events in the same order. Exit status 77 where PAPI
 * cannot count them here (the reason on stderr): a machine without a PMU. */
#include "pmuscope/counterset.h"
#include "pmuscope/error.h"
#include "pmuscope/region.h"
#include "pmuscope/region_report.h"

#include "known_loop.h"

#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_EVENTS 16

KNOWN_LOOP_FUNCTION(known_loop)

volatile unsigned long loop_result;

static int papi_fail(const char *what, int rc)
{
    fprintf(stderr, "pmu_papi: PAPI: %s: %s\n", what, PAPI_strerror(rc));
    return 77;
}

/* A PAPI event set of the comma-separated names; 77 where PAPI cannot count them. */
static int papi_set(const char *names, int *set, int *n)
{
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) return papi_fail("PAPI_library_init", rc < 0 ? rc : PAPI_EINVAL);
    int cid = PAPI_get_component_index("perf_event");
    const PAPI_component_info_t *info = cid >= 0 ? PAPI_get_component_info(cid) : NULL;
    if (!info || info->disabled) {
        fprintf(stderr, "pmu_papi: PAPI's perf_event component is disabled here: %s\n",
                info ? info->disabled_reason : "not built in");
        return 77;
    }
    *set = PAPI_NULL;
    if ((rc = PAPI_create_eventset(set)) != PAPI_OK) return papi_fail("PAPI_create_eventset", rc);
    char *copy = strdup(names), *save = NULL;
    *n = 0;
    for (char *name = strtok_r(copy, ",", &save); name && *n < MAX_EVENTS; name = strtok_r(NULL, ",", &save), ++*n)
        if ((rc = PAPI_add_named_event(*set, name)) != PAPI_OK) {
            fprintf(stderr, "pmu_papi: PAPI: %s: ", name);
            free(copy);
            return papi_fail("PAPI_add_named_event", rc);
        }
    free(copy);
    return 0;
}

static int pms_set(const char *names, pms_counterset **set)
{
    pms_event *ev;
    size_t n;
    int rc = pms_event_list_parse(names, &ev, &n);
    if (rc == PMS_OK) rc = pms_counterset_create(set, ev, n, 0);
    if (rc != PMS_OK) {
        fprintf(stderr, "pmu_papi: pmuscope: %s\n", pms_strerror());
        return rc == PMS_ENOTSUP ? 77 : 1;
    }
    free(ev);
    return 0;
}

static int count(unsigned long n, unsigned long repeats, const char *pms_events, const char *papi_events)
{
    int set, nev, rc = papi_set(papi_events, &set, &nev);
    if (rc) return rc;
    long long sum[MAX_EVENTS] = {0}, v[MAX_EVENTS];
    for (unsigned long k = 0; k < repeats; k++) {
        if ((rc = PAPI_start(set)) != PAPI_OK) return papi_fail("PAPI_start", rc);
        loop_result = known_loop(n);
        if ((rc = PAPI_stop(set, v)) != PAPI_OK) return papi_fail("PAPI_stop", rc);
        for (int i = 0; i < nev; i++) sum[i] += v[i];
    }
    PAPI_cleanup_eventset(set);
    PAPI_destroy_eventset(&set);
    setenv("PMS_REGION_EVENTS", pms_events, 1);
    setenv("PMS_REGION_OUT", "", 1);
    for (unsigned long k = 0; k < repeats; k++)
        if (pms_region_begin("loop") != PMS_OK || (loop_result = known_loop(n), pms_region_end("loop")) != PMS_OK) {
            fprintf(stderr, "pmu_papi: pmuscope: %s\n", pms_strerror());
            return 1;
        }
    pms_region_results *r;
    if (pms_region_results_take(&r) != PMS_OK || r->nrows != 1 || (int)r->nevents != nev) {
        fprintf(stderr, "pmu_papi: pmuscope: no single loop region (%s)\n", pms_strerror());
        return 1;
    }
    char *copy = strdup(papi_events), *save = NULL, *name = strtok_r(copy, ",", &save);
    for (int i = 0; i < nev; i++, name = strtok_r(NULL, ",", &save)) {
        printf("pmuscope %s %llu %s\n", r->events[i].name, (unsigned long long)r->rows[0].counts[i].raw, r->events[i].read);
        printf("papi %s %lld\n", name, sum[i]);
    }
    free(copy);
    pms_region_results_free(r);
    return 0;
}

static double now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench(const char *mode, unsigned long ops, const char *pms_events, const char *papi_events)
{
    pms_counterset *pset = NULL;
    int set = PAPI_NULL, nev = 0, rc = 0;
    pms_count counts[MAX_EVENTS];
    long long v[MAX_EVENTS];
    if (strcmp(mode, "pms-read") == 0) {
        if ((rc = pms_set(pms_events, &pset)) != 0 || pms_counterset_start(pset) != PMS_OK) return rc ? rc : 1;
    } else if (strcmp(mode, "papi-read") == 0) {
        if ((rc = papi_set(papi_events, &set, &nev)) != 0) return rc;
        if ((rc = PAPI_start(set)) != PAPI_OK) return papi_fail("PAPI_start", rc);
    } else if (strcmp(mode, "pms-region") == 0) {
        setenv("PMS_REGION_EVENTS", pms_events, 1);
        setenv("PMS_REGION_OUT", "", 1);
        if (pms_region_begin("warm") != PMS_OK || pms_region_end("warm") != PMS_OK) return 1; /* counters open */
    } else if (strcmp(mode, "papi-region") == 0) {
        setenv("PAPI_EVENTS", papi_events, 1);
        setenv("PAPI_OUTPUT_DIRECTORY", "/tmp", 1);
        setenv("PAPI_HL_VERBOSE", "0", 1);
        if ((rc = PAPI_hl_region_begin("warm")) != PAPI_OK || (rc = PAPI_hl_region_end("warm")) != PAPI_OK)
            return papi_fail("PAPI_hl_region_begin/end", rc);
    } else {
        fprintf(stderr, "pmu_papi: unknown mode %s\n", mode);
        return 2;
    }
    double w0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    for (unsigned long k = 0; k < ops && rc == 0; k++) {
        if (pset) rc = pms_counterset_read(pset, counts);
        else if (set != PAPI_NULL) rc = PAPI_read(set, v);
        else if (mode[1] == 'm') rc = pms_region_begin("r") || pms_region_end("r");
        else rc = PAPI_hl_region_begin("r") || PAPI_hl_region_end("r");
    }
    double w1 = now_ns(CLOCK_MONOTONIC), c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    if (rc) {
        fprintf(stderr, "pmu_papi: %s failed: %s\n", mode, pset || mode[1] == 'm' ? pms_strerror() : PAPI_strerror(rc));
        return 1;
    }
    printf("%s %.1f %.1f\n", mode, (w1 - w0) / (double)ops, (c1 - c0) / (double)ops);
    pms_counterset_destroy(pset);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "count") == 0)
        return count(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10), argv[4], argv[5]);
    if (argc == 6 && strcmp(argv[1], "bench") == 0) return bench(argv[2], strtoul(argv[3], NULL, 10), argv[4], argv[5]);
    fprintf(stderr, "usage: pmu_papi count N REPEATS PMS_EVENTS PAPI_EVENTS\n"
                    "       pmu_papi bench pms-read|papi-read|pms-region|papi-region OPS PMS_EVENTS PAPI_EVENTS\n");
    return 2;
}
