/* Phase classifiers (Sembrant's thesis, 3.2).
 *
 * Distance based: an LRU cache of signatures with their phase ids. A signature within
 * the similarity threshold of its closest entry takes that entry's id; otherwise it evicts
 * the least recently used entry. A new entry has the transition phase id until it has been
 * seen transition_threshold times (Lau et al.); until then a match replaces its signature,
 * as the thesis does, and from then on the entry's centroid is the running mean of the
 * signatures it matched.
 *
 * Sequential k-means: the distance classifier runs until K phases have ids in the
 * cache; those entries become the K means, and from then on every signature joins the
 * nearest mean, which moves towards it (equation 3.4). */
#include "phase/engine_internal.h"
#include "pmuscope/phase.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

typedef struct cache_entry {
    double *sig;
    int id;
    unsigned count;   /* times matched, including the first */
    unsigned weight;  /* signatures in the running mean (since the entry got its phase id) */
    uint64_t used;    /* LRU stamp */
    int valid;
} cache_entry;

struct pms_classifier {
    pms_classifier_config cfg;
    cache_entry *cache;
    double *storage;
    uint64_t clock;
    int next_id;
    /* k-means, once the means are seeded */
    int means_ready;
    double *means;    /* k x n */
    double *weights;
    int *mean_ids;
};

void pms_classifier_config_default(pms_classifier_config *c)
{
    memset(c, 0, sizeof *c);
    c->kind = PMS_CLASSIFIER_DISTANCE;
    c->signature_size = 32;
    c->threshold = 35;
    c->cache_size = 32;
    c->transition_threshold = 2;
    c->k = 4;
    c->learning_rate = 0;
}

double pms_phase_default_threshold(uint64_t samples_per_interval)
{
    uint64_t n = samples_per_interval;
    return n >= 100 ? 35.0 : n >= 40 ? 40.0 : n >= 16 ? 50.0 : n >= 8 ? 65.0 : 80.0;
}

void pms_classifier_config_for_samples(pms_classifier_config *c, uint64_t samples_per_interval)
{
    uint64_t n = samples_per_interval;
    if (c->threshold == PMS_PHASE_THRESHOLD_AUTO) c->threshold = pms_phase_default_threshold(n);
    if (c->transition_threshold == 0) c->transition_threshold = n >= 16 ? 2 : 1;
    if (c->signature_size == 0) c->signature_size = n >= 100 ? 32 : 256;
}

int pms_classifier_create(pms_classifier **out, const pms_classifier_config *cfg)
{
    if (cfg->signature_size < 1 || cfg->signature_size > PMS_PHASE_MAX_SIGNATURE)
        return pms__fail(PMS_EINVAL, "signature size %zu: expected 1 to %d", cfg->signature_size,
                        PMS_PHASE_MAX_SIGNATURE);
    if (!(cfg->threshold >= 0 && cfg->threshold <= 100))
        return pms__fail(PMS_EINVAL, "similarity threshold %g%%: expected 0 to 100", cfg->threshold);
    if (cfg->cache_size < 1 || cfg->cache_size > 65536)
        return pms__fail(PMS_EINVAL, "cache size %zu: expected 1 to 65536", cfg->cache_size);
    if (cfg->kind == PMS_CLASSIFIER_KMEANS && (cfg->k < 1 || cfg->k > cfg->cache_size))
        return pms__fail(PMS_EINVAL, "k-means K = %zu: expected 1 to the cache size (%zu)", cfg->k, cfg->cache_size);
    if (!(cfg->learning_rate >= 0 && cfg->learning_rate <= 1))
        return pms__fail(PMS_EINVAL, "learning rate %g: expected 0 (1/weight) or a value up to 1", cfg->learning_rate);
    pms_classifier *c = calloc(1, sizeof *c);
    size_t n = cfg->signature_size, k = cfg->kind == PMS_CLASSIFIER_KMEANS ? cfg->k : 0;
    if (c) {
        c->cfg = *cfg;
        c->cache = calloc(cfg->cache_size, sizeof *c->cache);
        c->storage = calloc(cfg->cache_size * n, sizeof *c->storage);
        c->means = calloc(k * n + 1, sizeof *c->means);
        c->weights = calloc(k + 1, sizeof *c->weights);
        c->mean_ids = calloc(k + 1, sizeof *c->mean_ids);
    }
    if (!c || !c->cache || !c->storage || !c->means || !c->weights || !c->mean_ids) {
        pms_classifier_destroy(c);
        return pms__fail(PMS_ENOMEM, "out of memory for the phase classifier");
    }
    for (size_t i = 0; i < cfg->cache_size; i++) c->cache[i].sig = c->storage + i * n;
    *out = c;
    return PMS_OK;
}

void pms_classifier_destroy(pms_classifier *c)
{
    if (!c) return;
    free(c->cache);
    free(c->storage);
    free(c->means);
    free(c->weights);
    free(c->mean_ids);
    free(c);
}

int pms_classifier_nphases(const pms_classifier *c) { return c->next_id; }

/* Seeds the means from the cache once K entries have ids of their own. */
static void try_seed_means(pms_classifier *c)
{
    size_t n = c->cfg.signature_size, k = 0;
    for (size_t i = 0; i < c->cfg.cache_size; i++)
        if (c->cache[i].valid && c->cache[i].id > 0) k++;
    if (k < c->cfg.k) return;
    k = 0;
    /* Lowest ids first, so that the means keep the order of discovery. */
    for (int id = 1; id <= c->next_id && k < c->cfg.k; id++)
        for (size_t i = 0; i < c->cfg.cache_size; i++)
            if (c->cache[i].valid && c->cache[i].id == id) {
                memcpy(c->means + k * n, c->cache[i].sig, n * sizeof *c->means);
                c->weights[k] = c->cache[i].count;
                c->mean_ids[k++] = id;
            }
    c->means_ready = 1;
}

static int classify_kmeans(pms_classifier *c, const double *sig, double *distance)
{
    size_t n = c->cfg.signature_size, best = 0;
    double bestd = INFINITY;
    for (size_t k = 0; k < c->cfg.k; k++) {
        double d = pms_signature_distance(c->means + k * n, sig, n);
        if (d < bestd) bestd = d, best = k;
    }
    double *m = c->means + best * n;
    c->weights[best] += 1;
    double rate = c->cfg.learning_rate > 0 ? c->cfg.learning_rate : 1.0 / c->weights[best];
    for (size_t i = 0; i < n; i++) m[i] += rate * (sig[i] - m[i]);
    if (distance) *distance = bestd;
    return c->mean_ids[best];
}

static int classify_distance(pms_classifier *c, const double *sig, double *distance)
{
    size_t n = c->cfg.signature_size;
    double limit = c->cfg.threshold / 100.0 * 2.0, bestd = INFINITY;
    cache_entry *best = NULL, *victim = NULL;
    for (size_t i = 0; i < c->cfg.cache_size; i++) {
        cache_entry *e = &c->cache[i];
        if (!e->valid) {
            if (!victim || victim->valid) victim = e;
            continue;
        }
        if (!victim || (victim->valid && e->used < victim->used)) victim = e;
        double d = pms_signature_distance(e->sig, sig, n);
        if (d < bestd) bestd = d, best = e;
    }
    c->clock++;

    if (best && bestd <= limit) {
        best->count++;
        best->used = c->clock;
        if (best->id == PMS_PHASE_TRANSITION) {
            /* As in the thesis: an entry still in the transition phase takes the newest
             * signature, so that the interval that crossed a phase boundary (and created the
             * entry) does not stay in the phase's centroid once the entry gets an id. */
            memcpy(best->sig, sig, n * sizeof *sig);
            best->weight = 1;
            if (best->count >= c->cfg.transition_threshold) best->id = ++c->next_id;
        } else {
            /* A phase's centroid is the running mean of every signature it matched: replacing
             * it by the last one let a phase drift away through its boundary intervals. */
            best->weight++;
            for (size_t i = 0; i < n; i++) best->sig[i] += (sig[i] - best->sig[i]) / best->weight;
        }
        if (distance) *distance = bestd;
        return best->id;
    }
    memcpy(victim->sig, sig, n * sizeof *sig);
    victim->valid = 1;
    victim->count = 1;
    victim->weight = 1;
    victim->used = c->clock;
    victim->id = c->cfg.transition_threshold <= 1 ? ++c->next_id : PMS_PHASE_TRANSITION;
    if (distance) *distance = best ? bestd : 2.0;
    return victim->id;
}

int pms_classifier_nearest(const pms_classifier *c, const double *sig, double *distance)
{
    size_t n = c->cfg.signature_size;
    double bestd = INFINITY;
    int id = PMS_PHASE_TRANSITION;
    if (c->means_ready) {
        for (size_t k = 0; k < c->cfg.k; k++) {
            double d = pms_signature_distance(c->means + k * n, sig, n);
            if (d < bestd) bestd = d, id = c->mean_ids[k];
        }
    } else {
        for (size_t i = 0; i < c->cfg.cache_size; i++) {
            if (!c->cache[i].valid || c->cache[i].id == PMS_PHASE_TRANSITION) continue;
            double d = pms_signature_distance(c->cache[i].sig, sig, n);
            if (d < bestd) bestd = d, id = c->cache[i].id;
        }
    }
    if (distance) *distance = id == PMS_PHASE_TRANSITION ? 2.0 : bestd;
    return id;
}

int pms_classifier_classify(pms_classifier *c, const double *sig, double *distance)
{
    if (c->means_ready) return classify_kmeans(c, sig, distance);
    int id = classify_distance(c, sig, distance);
    if (c->cfg.kind == PMS_CLASSIFIER_KMEANS && c->next_id >= (int)c->cfg.k) try_seed_means(c);
    return id;
}

int pms__classifier_load_table(pms_classifier *c, const pms_phase_table *t, uint64_t seed)
{
    size_t n = c->cfg.signature_size, count = pms_phase_table_count(t);
    if (pms_phase_table_signature_size(t) != n || pms_phase_table_seed(t) != seed)
        return pms__fail(PMS_EINVAL,
                         "the phase table has signatures of %zu entries from projection seed %llu; this run makes "
                         "%zu entries from seed %llu (pass --signature-size %zu --seed %llu)",
                         pms_phase_table_signature_size(t), (unsigned long long)pms_phase_table_seed(t), n,
                         (unsigned long long)seed, pms_phase_table_signature_size(t),
                         (unsigned long long)pms_phase_table_seed(t));
    if (count > c->cfg.cache_size)
        return pms__fail(PMS_EINVAL, "the phase table has %zu phases, more than the classifier's cache of %zu", count,
                         c->cfg.cache_size);
    for (size_t i = 0; i < count; i++) {
        int id;
        uint64_t weight;
        const double *centroid;
        pms_phase_table_get(t, i, &id, &weight, &centroid);
        cache_entry *e = &c->cache[i];
        memcpy(e->sig, centroid, n * sizeof *e->sig);
        e->id = id;
        e->weight = weight > UINT_MAX ? UINT_MAX : (unsigned)weight;
        e->count = e->weight > c->cfg.transition_threshold ? e->weight : c->cfg.transition_threshold;
        e->used = ++c->clock;
        e->valid = 1;
        if (id > c->next_id) c->next_id = id;
    }
    if (c->cfg.kind == PMS_CLASSIFIER_KMEANS && c->next_id >= (int)c->cfg.k) try_seed_means(c);
    return PMS_OK;
}

int pms__classifier_each_phase(const pms_classifier *c, pms_phase_entry_fn fn, void *ctx)
{
    size_t n = c->cfg.signature_size;
    for (int id = 1; id <= c->next_id; id++) {
        if (c->means_ready) {
            for (size_t k = 0; k < c->cfg.k; k++)
                if (c->mean_ids[k] == id) {
                    int rc = fn(id, (uint64_t)c->weights[k], c->means + k * n, n, ctx);
                    if (rc) return rc;
                }
            continue;
        }
        for (size_t i = 0; i < c->cfg.cache_size; i++)
            if (c->cache[i].valid && c->cache[i].id == id) {
                int rc = fn(id, c->cache[i].weight, c->cache[i].sig, n, ctx);
                if (rc) return rc;
            }
    }
    return PMS_OK;
}
