/* diff_simulate BASE.callgrind NEW.callgrind [--samples N] [--runs R] [--reps K] [--seed S]
 *               [--concentration C] [--fdr Q] [--shares]
 * The calibration of `pmuscope diff` on exact data: each function's exact share of the
 * instructions, from callgrind (valgrind's exact counts), is what a sampled profile of the run
 * estimates. K times (seeded: GSL's MT19937), R runs a side are drawn, each N samples from a
 * multinomial of the side's exact shares (with C > 0, each run's shares first drawn from a
 * Dirichlet of concentration C around them: runs that differ as real runs do), and diffed as
 * pmuscope diff does (pms_diff). Functions whose exact shares differ are the true changes;
 * a flagged other function is a false discovery. Prints one line of key=value:
 *   rows, changed_true (true changes), fdr (mean share of false ones among the flagged),
 *   any_false (runs with a false discovery), power_up / power_down (the largest true rise /
 *   fall flagged in its direction), detectable_up (its mean detectable change, points).
 * With --shares, the exact shares of both files first ("# share base new function"). */
#include "pmuscope/callgrind.h"
#include "pmuscope/diff.h"
#include "pmuscope/error.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct func {
    char name[256];
    double share[2];
} func;

typedef struct model {
    func *f;
    size_t n;
} model;

static func *find_or_add(model *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->f[i].name, name) == 0) return &m->f[i];
    func *grown = realloc(m->f, (m->n + 1) * sizeof *grown);
    if (!grown) return NULL;
    m->f = grown;
    func *f = &m->f[m->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    return f;
}

/* The exact share of each function's instructions in a callgrind file, into side s. */
static int load(model *m, const char *path, int s)
{
    pms_callgrind *cg;
    if (pms_callgrind_read(&cg, path)) return fprintf(stderr, "diff_simulate: %s\n", pms_strerror()), 1;
    size_t n;
    const pms_cg_instr *in = pms_callgrind_instrs(cg, &n);
    double total = (double)pms_callgrind_total(cg);
    for (size_t i = 0; i < n; i++) {
        func *f = find_or_add(m, pms_callgrind_function(cg, in[i].function));
        if (!f) return pms_callgrind_free(cg), 1;
        f->share[s] += (double)in[i].count / total;
    }
    pms_callgrind_free(cg);
    return 0;
}

typedef struct settings {
    unsigned samples, runs, reps;
    unsigned long seed;
    double concentration, fdr;
} settings;

/* One run's sample counts of side s. */
static void draw_run(gsl_rng *rng, const model *m, int s, const settings *o, double *p, double *alpha, unsigned *counts)
{
    for (size_t i = 0; i < m->n; i++) p[i] = m->f[i].share[s];
    if (o->concentration > 0) {
        /* functions with no share stay at none; the others vary around their exact share */
        size_t k = 0;
        for (size_t i = 0; i < m->n; i++)
            if (p[i] > 0) alpha[k++] = o->concentration * p[i];
        double *theta = alpha + m->n;
        gsl_ran_dirichlet(rng, k, alpha, theta);
        for (size_t i = 0, j = 0; i < m->n; i++)
            if (p[i] > 0) p[i] = theta[j++];
    }
    gsl_ran_multinomial(rng, m->n, o->samples, p, counts);
}

int main(int argc, char **argv)
{
    settings o = {.samples = 10000, .runs = 1, .reps = 200, .seed = 1, .fdr = 0.05};
    const char *files[2] = {NULL, NULL};
    int shares = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--samples") == 0 && v) o.samples = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--runs") == 0 && v) o.runs = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--reps") == 0 && v) o.reps = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--seed") == 0 && v) o.seed = strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--concentration") == 0 && v) o.concentration = strtod(argv[++i], NULL);
        else if (strcmp(a, "--fdr") == 0 && v) o.fdr = strtod(argv[++i], NULL);
        else if (strcmp(a, "--shares") == 0) shares = 1;
        else if (a[0] != '-' && nfiles < 2) files[nfiles++] = a;
        else return fprintf(stderr, "usage: diff_simulate BASE.callgrind NEW.callgrind [options] (see the source)\n"), 2;
    }
    if (nfiles != 2 || !o.samples || !o.runs || !o.reps) return fprintf(stderr, "diff_simulate: expected two files\n"), 2;
    model m = {0};
    if (load(&m, files[0], 0) || load(&m, files[1], 1)) return 1;
    size_t up = 0, down = 0; /* the largest true rise and fall */
    for (size_t i = 0; i < m.n; i++) {
        double d = m.f[i].share[1] - m.f[i].share[0], du = m.f[up].share[1] - m.f[up].share[0],
               dd = m.f[down].share[1] - m.f[down].share[0];
        if (d > du) up = i;
        if (d < dd) down = i;
        if (shares) printf("# share %.6f %.6f %s\n", 100 * m.f[i].share[0], 100 * m.f[i].share[1], m.f[i].name);
    }
    int changed_true = 0;
    for (size_t i = 0; i < m.n; i++) changed_true += fabs(m.f[i].share[1] - m.f[i].share[0]) > 1e-6;

    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, o.seed);
    double *p = calloc(m.n, sizeof *p), *alpha = calloc(2 * m.n, sizeof *alpha);
    unsigned *counts = calloc(m.n, sizeof *counts);
    pms_profile_row *rows = calloc(m.n, sizeof *rows);
    double fdr_sum = 0, detectable_sum = 0;
    unsigned any_false = 0, power_up = 0, power_down = 0;
    size_t nrows = 0;
    const char *method = "";
    for (unsigned rep = 0; rep < o.reps; rep++) {
        pms_diff_options dopt = {.fdr = o.fdr};
        pms_diff *d;
        if (pms_diff_create(&d, &dopt)) return fprintf(stderr, "diff_simulate: %s\n", pms_strerror()), 1;
        for (int s = 0; s < 2; s++)
            for (unsigned r = 0; r < o.runs; r++) {
                draw_run(rng, &m, s, &o, p, alpha, counts);
                size_t n = 0;
                for (size_t i = 0; i < m.n; i++)
                    if (counts[i]) rows[n++] = (pms_profile_row){.binary = "sim", .symbol = m.f[i].name, .samples = counts[i]};
                if (pms_diff_add_profile_run(d, (pms_diff_side)s, s ? "new" : "base", "sim", rows, n, o.samples))
                    return fprintf(stderr, "diff_simulate: %s\n", pms_strerror()), 1;
            }
        pms_diff_result r;
        if (pms_diff_compute(&r, d)) return fprintf(stderr, "diff_simulate: %s\n", pms_strerror()), 1;
        method = r.method == PMS_DIFF_WELCH_RUNS ? "welch-runs" : "two-proportion";
        unsigned flagged = 0, false_ = 0;
        for (size_t i = 0; i < r.nrows; i++) {
            const pms_diff_row *row = &r.rows[i];
            size_t f = 0;
            while (strcmp(m.f[f].name, row->where.symbol) != 0) f++;
            bool true_change = fabs(m.f[f].share[1] - m.f[f].share[0]) > 1e-6;
            if (f == up) detectable_sum += 100 * row->detectable;
            if (row->verdict == PMS_DIFF_NONE) continue;
            flagged++;
            false_ += !true_change;
            power_up += f == up && changed_true && row->verdict == PMS_DIFF_UP;
            power_down += f == down && changed_true && row->verdict == PMS_DIFF_DOWN;
        }
        fdr_sum += flagged ? (double)false_ / flagged : 0;
        any_false += false_ > 0;
        nrows += r.nrows;
        pms_diff_result_free(&r);
        pms_diff_destroy(d);
    }
    printf("samples=%u runs=%u reps=%u concentration=%g seed=%lu method=%s rows=%.1f changed_true=%d fdr=%.4f "
           "any_false=%.4f power_up=%.4f power_down=%.4f detectable_up=%.3f\n",
           o.samples, o.runs, o.reps, o.concentration, o.seed, method, (double)nrows / o.reps, changed_true,
           fdr_sum / o.reps, (double)any_false / o.reps, changed_true ? (double)power_up / o.reps : 0,
           changed_true ? (double)power_down / o.reps : 0, detectable_sum / o.reps);
    free(p), free(alpha), free(counts), free(rows), free(m.f);
    gsl_rng_free(rng);
    return 0;
}
