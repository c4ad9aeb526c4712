/* Residual quantiles (R's quantile type 7) by one selection and a partition around
 * the median, against GSL's quantile of the sorted values (the same definition),
 * on small and large vectors, distinct values and heavy ties. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "splitmix.h"
#include "stats/quantile.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check(const double *x, size_t n)
{
    double q[5], *sorted = malloc(n * sizeof *sorted);
    assert_non_null(sorted);
    memcpy(sorted, x, n * sizeof *x);
    gsl_sort(sorted, 1, n);
    assert_int_equal(pms__quantiles_type7(x, n, q), PMS_OK);
    static const double probs[5] = {0, 0.25, 0.5, 0.75, 1};
    for (int k = 0; k < 5; k++) {
        double want = gsl_stats_quantile_from_sorted_data(sorted, 1, n, probs[k]);
        /* the weights (1 - h) and h are rounded apart from GSL's: a few ulps */
        if (fabs(q[k] - want) > 4e-16 * fmax(fabs(want), 1.0))
            fail_msg("n %zu, quantile %g: %.17g, sorted %.17g", n, probs[k], q[k], want);
    }
    free(sorted);
}

static void test_against_sorted(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 31, 64, 101, 1000, 4097, 100003};
    double *x = malloc(100003 * sizeof *x);
    assert_non_null(x);
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        size_t n = sizes[t];
        for (int kind = 0; kind < 4; kind++) {
            for (size_t i = 0; i < n; i++) {
                double u = (double)(rnd() >> 11) * 0x1p-53 - 0.5;
                x[i] = kind == 0 ? u                           /* distinct */
                       : kind == 1 ? (double)below(3)          /* heavy ties */
                       : kind == 2 ? (i % 7 ? 0.0 : u)         /* mostly one value */
                                   : (double)(n - i);          /* descending */
            }
            check(x, n);
        }
    }
    free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
