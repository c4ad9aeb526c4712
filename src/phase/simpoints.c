/* SimPoint's outputs from a phase analysis: one simulation point per phase and its weight,
 * as SimPoint 3.0 writes them with -saveSimpoints and -saveSimpointWeights ("INTERVAL
 * CLUSTER" and "WEIGHT CLUSTER" lines), so that simulator users can adopt pmuscope's
 * phases. SimPoint's definitions: a cluster's simulation point is its interval closest
 * (Euclidean distance) to the cluster's centroid, the mean of its intervals' vectors; its
 * weight is its share of the intervals, by their sizes (instructions, or what the intervals
 * count) as SimPoint weighs variable-length intervals, which is the share of their number
 * when they are all of one size. Here a cluster is a phase (the transition phase, 0,
 * included where intervals are in it, so that the weights add up to 1), a vector an
 * interval's signature. */
#include "pmuscope/phase_report.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cluster {
    int phase;
    double weight;
    size_t best;        /* the row closest to the centroid */
    double best_distance;
} cluster;

static int cmp_cluster(const void *a, const void *b)
{
    int x = ((const cluster *)a)->phase, y = ((const cluster *)b)->phase;
    return (x > y) - (x < y);
}

static double euclidean(const double *a, const double *b, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; i++) d += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrt(d);
}

/* Fills c (one per distinct phase, sorted) and returns how many; 0 when out of memory. */
static size_t find_clusters(const pms_phase_run *r, cluster *c, double *centroid, size_t n)
{
    size_t k = 0;
    double total = 0;
    for (size_t i = 0; i < r->n; i++) total += (double)r->rows[i].ev.size;
    for (size_t i = 0; i < r->n; i++) {
        int phase = r->rows[i].ev.phase;
        size_t j = 0;
        while (j < k && c[j].phase != phase) j++;
        if (j < k) continue;
        /* the centroid: the mean of the phase's signatures */
        memset(centroid, 0, n * sizeof *centroid);
        size_t members = 0;
        double weight = 0;
        for (size_t m = i; m < r->n; m++)
            if (r->rows[m].ev.phase == phase) {
                for (size_t e = 0; e < n; e++) centroid[e] += r->rows[m].sig[e];
                members++;
                weight += (double)r->rows[m].ev.size;
            }
        for (size_t e = 0; e < n; e++) centroid[e] /= (double)members;
        c[k] = (cluster){.phase = phase, .weight = total > 0 ? weight / total : 0, .best_distance = INFINITY};
        for (size_t m = i; m < r->n; m++) {
            if (r->rows[m].ev.phase != phase) continue;
            double d = euclidean(r->rows[m].sig, centroid, n);
            if (d < c[k].best_distance) c[k].best_distance = d, c[k].best = m; /* ties: the earliest */
        }
        k++;
    }
    qsort(c, k, sizeof *c, cmp_cluster);
    return k;
}

int pms_phase_write_simpoints(const pms_phase_run *r, FILE *simpoints, FILE *weights)
{
    if (!r->n) return pms__fail(PMS_EINVAL, "no intervals: no simulation points");
    for (size_t i = 1; i < r->n; i++)
        if (r->rows[i].ev.tid != r->rows[0].ev.tid)
            return pms__fail(PMS_EINVAL, "SimPoint's files describe one stream of intervals, and this run has "
                                         "several threads (%d and %d, ...; --tid TID follows one)",
                             (int)r->rows[0].ev.tid, (int)r->rows[i].ev.tid);
    size_t n = r->rows[0].ev.signature_size;
    cluster *c = malloc(r->n * sizeof *c);
    double *centroid = malloc(n * sizeof *centroid);
    int rc = c && centroid ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory for the simulation points");
    size_t k = rc ? 0 : find_clusters(r, c, centroid, n);
    for (size_t j = 0; j < k; j++) {
        if (simpoints) fprintf(simpoints, "%llu %d\n", (unsigned long long)r->rows[c[j].best].ev.index, c[j].phase);
        if (weights) fprintf(weights, "%.17g %d\n", c[j].weight, c[j].phase);
    }
    free(c);
    free(centroid);
    if (!rc && ((simpoints && ferror(simpoints)) || (weights && ferror(weights))))
        rc = pms__fail(PMS_EIO, "cannot write the simulation points");
    return rc;
}
