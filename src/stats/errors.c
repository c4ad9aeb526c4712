/* Prediction errors: RMSE, MAE, MAPE. */
#include "pmuscope/stats.h"
#include "util/error.h"

#include <math.h>

double pms_rmse(const double *y, const double *yhat, size_t n)
{
    if (n == 0) return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (y[i] - yhat[i]) * (y[i] - yhat[i]);
    return sqrt(s / (double)n);
}

double pms_mae(const double *y, const double *yhat, size_t n)
{
    if (n == 0) return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += fabs(y[i] - yhat[i]);
    return s / (double)n;
}

int pms_mape(const double *y, const double *yhat, size_t n, double *out)
{
    if (n == 0) return pms__fail(PMS_EINVAL, "MAPE of no observations");
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        if (y[i] == 0)
            return pms__fail(PMS_ENUMERIC, "MAPE: observation %zu is zero, the percentage error is undefined", i + 1);
        s += fabs((y[i] - yhat[i]) / y[i]);
    }
    *out = 100.0 * s / (double)n;
    return PMS_OK;
}
