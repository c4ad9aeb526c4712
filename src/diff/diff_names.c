/* The names of a diff's verdicts and tests, as every output gives them. */
#include "diff/diff_internal.h"

const char *pms__diff_verdict_name(pms_diff_verdict v)
{
    return v == PMS_DIFF_UP ? "up" : v == PMS_DIFF_DOWN ? "down" : "none";
}

const char *pms__diff_method_name(const pms_diff_result *r)
{
    switch (r->method) {
    case PMS_DIFF_TWO_PROPORTION:
        return r->continuity ? "two-proportion test with continuity correction (R's prop.test): each sample an "
                               "independent draw"
                             : "two-proportion test without continuity correction (R's prop.test, correct = FALSE): "
                               "each sample an independent draw";
    case PMS_DIFF_WELCH_RUNS:
        return "Welch's t test of the runs' shares (R's t.test), each side's variance at least that of sampling: "
               "the run is the unit";
    case PMS_DIFF_RANK_SUM:
        return "Wilcoxon rank sum (Mann-Whitney) test of the runs' values (R's wilcox.test), ratio NEW/BASE by "
               "Hodges-Lehmann";
    }
    return "";
}
