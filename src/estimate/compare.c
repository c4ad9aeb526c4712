/* A cycle-estimation comparison: the fitting and test runs and counters chosen
 * from a runs table, and the methods fitted on them. */
#include "pmuscope/estimate_report.h"
#include "estimate/model.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

static int choose_runs(const pms_runs *r, const pms_estimate_spec *s, pms_estimate_data *d)
{
    int rc;
    if (s->test && (rc = pms_runs_select(r, s->test, s->by_index, &d->test, &d->n_test)) < 0)
        return pms__with_option(rc, "test");
    if (s->train) {
        if ((rc = pms_runs_select(r, s->train, s->by_index, &d->train, &d->n_train)) < 0)
            return pms__with_option(rc, "train");
    } else {
        d->train = malloc((r->n_runs ? r->n_runs : 1) * sizeof *d->train);
        if (!d->train) return pms__fail(PMS_ENOMEM, "out of memory");
        for (size_t j = 0; j < r->n_runs; j++) {
            bool in_test = false;
            for (size_t t = 0; t < d->n_test; t++) in_test |= d->test[t] == j;
            if (!in_test) d->train[d->n_train++] = j;
        }
        if (d->n_train == 0)
            return pms__with_option(pms__fail(PMS_EINVAL, "every run is a test run: none is left to fit on"), "test");
    }
    d->overlap = malloc((d->n_train ? d->n_train : 1) * sizeof *d->overlap);
    if (!d->overlap) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t a = 0; a < d->n_train; a++)
        for (size_t t = 0; t < d->n_test; t++)
            if (d->train[a] == d->test[t]) d->overlap[d->n_overlap++] = d->train[a];
    return PMS_OK;
}

static int choose_counters(const pms_runs *r, const char *const *want, pms_estimate_data *d)
{
    d->names = malloc((r->n_counters + 1) * sizeof *d->names);
    d->counter_col = malloc((r->n_counters + 1) * sizeof *d->counter_col);
    if (!d->names || !d->counter_col) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t i = 0; i < r->n_counters; i++) {
        bool take = !want;
        for (size_t k = 0; want && want[k]; k++) take |= strcmp(want[k], r->counters[i]) == 0;
        if (take) d->names[d->n_counters] = r->counters[i], d->counter_col[d->n_counters++] = i;
    }
    for (size_t k = 0; want && want[k]; k++) {
        bool found = false;
        for (size_t i = 0; i < d->n_counters; i++) found |= strcmp(d->names[i], want[k]) == 0;
        if (!found)
            return pms__with_option(pms__fail(PMS_EINVAL, "%s has no counter column '%s'", r->source, want[k]),
                                    "counters");
    }
    return PMS_OK;
}

int pms_estimate_prepare(const pms_runs *r, const pms_estimate_spec *spec, pms_estimate_data *d)
{
    memset(d, 0, sizeof *d);
    d->runs = r;
    if ((spec->train || spec->test) && !spec->by_index)
        d->number_clash = pms_runs_number_clash(r, &d->clash[0], &d->clash[1]);
    int rc = choose_runs(r, spec, d);
    if (rc == PMS_OK) rc = choose_counters(r, spec->counters, d);
    if (rc != PMS_OK) return rc;
    d->cycles = malloc((d->n_train ? d->n_train : 1) * sizeof *d->cycles);
    d->events = malloc((d->n_train * d->n_counters + 1) * sizeof *d->events);
    if (!d->cycles || !d->events) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t a = 0; a < d->n_train; a++) {
        size_t j = d->train[a];
        d->cycles[a] = r->cycles[j];
        for (size_t i = 0; i < d->n_counters; i++)
            d->events[a * d->n_counters + i] = r->events[j * r->n_counters + d->counter_col[i]];
    }
    return PMS_OK;
}

void pms_estimate_data_free(pms_estimate_data *d)
{
    free(d->names), free(d->counter_col), free(d->train), free(d->test), free(d->overlap), free(d->cycles);
    free(d->events);
    memset(d, 0, sizeof *d);
}

size_t pms_estimate_run(const pms_estimate_data *d, const pms_estimate_options *o, pms_estimate_result *res)
{
    size_t fitted = 0;
    for (size_t k = 0; k < PMS_EST_METHODS; k++) {
        res[k].wanted = o->method[k];
        if (!res[k].wanted) continue;
        pms__estimate_fit(k, d->cycles, d->events, d->n_train, d->n_counters, d->names, o, &res[k]);
        if (!res[k].ok) continue;
        fitted++;
        if (pms__estimate_heldout(d, o, k, &res[k]) != PMS_OK)
            snprintf(res[k].heldout_reason, sizeof res[k].heldout_reason, "%s", pms_strerror());
        if (o->bootstrap.replicates && pms_estimate_bootstraps(k) && pms__estimate_bootstrap(d, o, k, &res[k].boot) != PMS_OK)
            snprintf(res[k].boot_reason, sizeof res[k].boot_reason, "%s", pms_strerror());
    }
    return fitted;
}

void pms_estimate_result_free(pms_estimate_result *res)
{
    for (size_t k = 0; k < PMS_EST_METHODS; k++) pms__estimate_result_clear(&res[k]);
}
