/* A schedule measured once per input size (stat --schedule=runs --sizes): the runs table
 * of Hattori's paper, one merged row per size, with the anchors' variation between runs. */
#include "pmuscope/schedule.h"

#include "util/error.h"
#include "util/grow.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pms_schedule_parse_sizes(long **sizes, size_t *count, const char *spec)
{
    size_t cap = 0, n = 0;
    long *list = NULL;
    const char *p = spec;
    *sizes = NULL;
    *count = 0;
    while (*p) {
        char *end;
        errno = 0;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || errno || lo < 0) goto bad;
        if (*end == '-') {
            const char *q = end + 1;
            hi = strtol(q, &end, 10);
            if (end == q || errno || hi < lo || hi - lo > 100000) goto bad;
        }
        for (long s = lo; s <= hi; s++) {
            if (pms__grow(&list, &cap, n + 1, sizeof *list)) {
                free(list);
                return pms__fail(PMS_ENOMEM, "out of memory");
            }
            list[n++] = s;
        }
        if (*end == ',' && end[1]) end++;
        else if (*end) goto bad;
        p = end;
    }
    if (n == 0) goto bad;
    *sizes = list;
    *count = n;
    return PMS_OK;
bad:
    free(list);
    return pms__fail(PMS_EINVAL, "expected sizes such as 1-10,50, found '%s' (at offset %zu)", spec, (size_t)(p - spec));
}

/* The progress of size k's runs, for the caller's on_run. */
struct sizes_run {
    const pms_schedule_sizes_opts *o;
    size_t k;
};

static void on_run(void *ctx, size_t run, size_t nruns, const pms_event *events, size_t n)
{
    const struct sizes_run *sr = ctx;
    sr->o->on_run(sr->o->ctx, sr->k, run, nruns, events, n);
}

int pms_schedule_measure_sizes(double *worst_cv, pms_schedule *s, char *const argv[], const long *sizes,
                               size_t nsizes, const pms_schedule_sizes_opts *o)
{
    size_t na = pms_schedule_anchor_count(s), n = na + pms_schedule_event_count(s), argc = 0;
    while (argv[argc]) argc++;
    char size_arg[32], **args = calloc(argc + 2, sizeof *args); /* the command, the size, NULL */
    pms_stat_value *merged = calloc(n, sizeof *merged);
    double *cv = calloc(na ? na : 1, sizeof *cv);
    int rc = args && merged && cv ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (args) {
        memcpy(args, argv, argc * sizeof *args);
        args[argc] = size_arg;
    }
    for (size_t a = 0; a < na; a++) worst_cv[a] = 0;
    for (size_t k = 0; rc == PMS_OK && k < nsizes; k++) {
        snprintf(size_arg, sizeof size_arg, "%ld", sizes[k]);
        struct sizes_run sr = {o, k};
        pms_schedule_measure_opts mo = {.stop = o ? o->stop : NULL, .on_run = o && o->on_run ? on_run : NULL,
                                        .ctx = &sr};
        double elapsed;
        rc = pms_schedule_measure(&elapsed, s, args, &mo);
        if (rc == PMS_OK) rc = pms_schedule_merge(s, merged, cv);
        if (rc != PMS_OK) {
            pms__fail_context(rc, "TEST%ld (%zu/%zu)", sizes[k], k + 1, nsizes);
            break;
        }
        for (size_t a = 0; a < na; a++)
            if (isfinite(cv[a]) && cv[a] > worst_cv[a]) worst_cv[a] = cv[a];
        if (o && o->on_size) rc = o->on_size(o->ctx, k, merged, cv);
    }
    free(args);
    free(merged);
    free(cv);
    return rc;
}
