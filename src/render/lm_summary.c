/* summary(lm()) as R prints it (print.summary.lm with digits = 4). */
#include "pmuscope/stats.h"
#include "util/error.h"
#include "util/number_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *stars(double p)
{
    return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : p < 0.1 ? "." : " ";
}

static void format_p(double p, char *buf, size_t size)
{
    if (p < 2e-16)
        snprintf(buf, size, "<2e-16");
    else
        snprintf(buf, size, "%.3g", p);
}

static int name_width(const pms_lm *m)
{
    int w = 11;
    for (size_t k = 0; k < m->ncoef; k++)
        if ((int)strlen(m->names[k]) > w) w = (int)strlen(m->names[k]);
    return w;
}

int pms_lm_write_summary(const pms_lm *m, const char *response, FILE *out)
{
    size_t k0 = m->has_intercept ? 1 : 0;
    fprintf(out, "Call:\n%s(formula = %s ~ ", m->method == PMS_LM_NNLS ? "nnls" : m->method == PMS_LM_RIDGE ? "ridge" : "lm",
            response);
    for (size_t k = k0; k < m->ncoef; k++) fprintf(out, "%s%s", k > k0 ? " + " : "", m->names[k]);
    if (m->ncoef == k0) fputs("1", out);
    if (!m->has_intercept) fputs(" - 1", out);
    fputs(")\n\nResiduals:\n", out);
    double rq[5];
    int rc = pms_lm_resid_quantiles(m, rq);
    if (rc < 0) return rc;
    fprintf(out, "%10s %10s %10s %10s %10s\n", "Min", "1Q", "Median", "3Q", "Max");
    for (int q = 0; q < 5; q++) fprintf(out, "%10.4g%s", rq[q], q < 4 ? " " : "\n");

    int w = name_width(m), undefined = 0;
    fputs("\nCoefficients:\n", out);
    if (m->method == PMS_LM_OLS) {
        fprintf(out, "%-*s %11s %11s %8s %9s\n", w, "", "Estimate", "Std. Error", "t value", "Pr(>|t|)");
        for (size_t k = 0; k < m->ncoef; k++) {
            char p[32];
            pms__num_text se;
            format_p(m->p_value[k], p, sizeof p);
            fprintf(out, "%-*s %11.4g %11s ", w, m->names[k], m->coef[k], pms__num(&se, "%.4g", m->std_error[k]));
            if (!isfinite(m->t_value[k]) || !isfinite(m->p_value[k])) {
                fprintf(out, "%8s %9s\n", "-", "-");
                undefined = 1;
                continue;
            }
            /* t values of a near-perfect fit run to 1e15 and more: %g keeps the columns */
            fprintf(out, fabs(m->t_value[k]) < 1e5 ? "%8.3f %9s %s\n" : "%8.3g %9s %s\n", m->t_value[k], p,
                    stars(m->p_value[k]));
        }
        fputs("---\nSignif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1\n", out);
    } else {
        fprintf(out, "%-*s %11s\n", w, "", "Estimate");
        for (size_t k = 0; k < m->ncoef; k++)
            fprintf(out, "%-*s %11.4g%s\n", w, m->names[k], m->coef[k],
                    m->at_bound[k] ? "   (held at 0 by the constraint)" : "");
        fprintf(out, "(%s: no standard errors, t or p values)\n",
              m->method == PMS_LM_RIDGE ? "ridge regression, shrunk estimates" : "non-negative least squares");
    }
    fprintf(out, "\nResidual standard error: %.4g on %zu degrees of freedom\n", m->sigma, m->df_residual);
    if (m->perfect_fit) fputs("Warning: essentially perfect fit: summary may be unreliable\n", out);
    pms__num_text r2, adj;
    fprintf(out, "Multiple R-squared:  %s,\tAdjusted R-squared:  %s \n", pms__num(&r2, "%.4g", m->r_squared),
            pms__num(&adj, "%.4g", m->adj_r_squared));
    if (!isfinite(m->r_squared) || !isfinite(m->adj_r_squared)) undefined = 1;
    if (undefined)
        fprintf(out, "(-: undefined, 0/0: %s)\n",
                m->sigma == 0 ? "the residuals are all 0 (an exact fit, or a constant response)"
                              : "a coefficient without a standard error");
    if (m->method == PMS_LM_OLS && isfinite(m->f_statistic)) {
        char p[32];
        if (m->f_p_value < 2.220446e-16)
            snprintf(p, sizeof p, "< 2.2e-16");
        else
            snprintf(p, sizeof p, "%.4g", m->f_p_value);
        fprintf(out, "F-statistic: %.4g on %.0f and %.0f DF,  p-value: %s\n", m->f_statistic, m->f_df1, m->f_df2, p);
    }
    if (ferror(out)) return pms__fail(PMS_EIO, "error writing the model summary");
    return PMS_OK;
}
