/* Internal: the numbers every report of a cycle-estimation comparison shows, in one place. */
#ifndef PMS_ESTIMATE_REPORT_INTERNAL_H
#define PMS_ESTIMATE_REPORT_INTERNAL_H
#include "pmuscope/estimate_report.h"

/* The estimate of run `run` (a row of the runs table) by a model over the chosen counters, and its error %. */
double pms__report_estimate(const pms_estimate_data *d, const pms_cycle_model *m, size_t run);
double pms__report_error(const pms_estimate_data *d, const pms_cycle_model *m, size_t run);
/* error % of one run by an MRACM pair's own fit (NaN for a rejected pair) */
double pms__report_pair_error(const pms_estimate_data *d, const pms_mracm_pair *q, size_t run);
/* Mean |error %| over the fitting runs (the fit error) and over the test runs (NaN without any). */
double pms__report_fit_error(const pms_estimate_data *d, const pms_cycle_model *m);
double pms__report_test_error(const pms_estimate_data *d, const pms_cycle_model *m);
/* "t" or "jackknife+" (or "none"). */
const char *pms__report_interval_name(pms_estimate_interval kind);
/* The held-out scheme: "leave-one-out" or "K-fold". */
const char *pms__report_folds_name(const pms_estimate_data *d, const pms_estimate_result *r, char *buf, size_t size);
/* The intercept, then every counter's coefficient (0 where the model leaves it out), and their names. */
void pms__report_boot_names(const pms_estimate_data *d, const pms_cycle_model *m, const char **names, double *est);
/* Why R's lm leaves an aliased counter out, in a few words. */
const char *pms__report_alias_reason(pms_alias_reason why);

#endif
