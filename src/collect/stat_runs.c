/* Mean and spread of repeated runs (-r, and the anchors of --schedule=runs), with GSL. */
#include "pmuscope/stat.h"
#include "util/error.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

/* The counted values of event i over the runs into x; returns how many. */
static size_t counted(const pms_stat_value *runs, size_t nruns, size_t n, size_t i, double *x)
{
    size_t m = 0;
    for (size_t r = 0; r < nruns; r++)
        if (runs[r * n + i].state == PMS_COUNT_COUNTED) x[m++] = runs[r * n + i].value;
    return m;
}

void pms_stat_mean_sem(const double *x, size_t n, double *mean, double *sem)
{
    *mean = n ? gsl_stats_mean(x, 1, n) : 0;
    *sem = n > 1 ? gsl_stats_sd(x, 1, n) / sqrt((double)n) : 0;
}

int pms_stat_average_runs(const pms_stat_value *runs, size_t nruns, size_t n, pms_stat_value *out)
{
    double *x = malloc((nruns ? nruns : 1) * sizeof *x);
    if (!x) return pms__fail(PMS_ENOMEM, "out of memory averaging %zu runs", nruns);
    for (size_t i = 0; i < n; i++) {
        out[i] = runs[i];
        double enabled = 0, running = 0, u2 = 0;
        for (size_t r = 0; r < nruns; r++) {
            const pms_stat_value *v = &runs[r * n + i];
            enabled += (double)v->enabled;
            running += (double)v->running;
            if (v->state == PMS_COUNT_COUNTED) {
                out[i].state = PMS_COUNT_COUNTED;
                out[i].flaw = PMS_FLAW_NONE;
                u2 += v->uncertainty * v->uncertainty;
            }
        }
        out[i].enabled = (uint64_t)(enabled / (double)nruns);
        out[i].running = (uint64_t)(running / (double)nruns);
        size_t m = counted(runs, nruns, n, i, x);
        double sem;
        pms_stat_mean_sem(x, m, &out[i].value, &sem);
        out[i].uncertainty = m ? sqrt(u2) / (double)m : 0;
        /* perf's rel_stddev_stats: 0 where the mean is 0 (a CPU that never faulted prints 0.00%) */
        if (m < 2) out[i].rel_stddev = NAN;
        else out[i].rel_stddev = out[i].value != 0 ? 100.0 * sem / fabs(out[i].value) : 0.0;
    }
    free(x);
    return PMS_OK;
}

double pms_stat_cv(const pms_stat_value *runs, size_t nruns, size_t n, size_t i)
{
    double *x = malloc((nruns ? nruns : 1) * sizeof *x);
    if (!x) return NAN;
    size_t m = counted(runs, nruns, n, i, x);
    double cv = NAN;
    if (m > 1) {
        double mean = gsl_stats_mean(x, 1, m);
        if (mean != 0) cv = 100.0 * gsl_stats_sd(x, 1, m) / fabs(mean);
    }
    free(x);
    return cv;
}
