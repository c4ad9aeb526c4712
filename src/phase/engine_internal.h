/* Internal: what the per-thread engines (threads.c) and the phase table (table.c) need of
 * the engine and the classifier beyond the public API. */
#ifndef PMS_PHASE_ENGINE_INTERNAL_H
#define PMS_PHASE_ENGINE_INTERNAL_H
#include "pmuscope/phase.h"

#include <stdio.h>

/* An engine whose classifier is `shared` (not destroyed with it), or its own when NULL. */
int pms__phase_engine_create_shared(pms_phase_engine **out, const pms_phase_config *cfg, uint64_t base_size,
                                    pms_classifier *shared);
const pms_classifier *pms__phase_engine_classifier(const pms_phase_engine *e);
/* Each interval's metric so far (NaN where it had none), as many as its labels. */
const double *pms__phase_engine_metrics(const pms_phase_engine *e);

/* The counts behind an engine's summary, to add up over threads. */
typedef struct pms_phase_tallies {
    uint64_t intervals, predictions;
    uint64_t correct[PMS_PREDICT_COUNT], false_changes[PMS_PREDICT_COUNT];
    double metric_error[PMS_PREDICT_COUNT];
    uint64_t metric_errors[PMS_PREDICT_COUNT];
    double baseline_error;
    uint64_t baseline_errors;
} pms_phase_tallies;
void pms__phase_engine_tallies(const pms_phase_engine *e, pms_phase_tallies *out);

/* The classifier's cache starts with the table's phases (their ids, centroids and
 * weights), new ids after its highest; PMS_EINVAL when the table does not fit the
 * classifier (signature size, projection seed, more phases than the cache holds). */
int pms__classifier_load_table(pms_classifier *c, const pms_phase_table *t, uint64_t seed);
/* Calls fn for every phase the classifier holds (id > 0), lowest id first. */
typedef int (*pms_phase_entry_fn)(int id, uint64_t weight, const double *centroid, size_t n, void *ctx);
int pms__classifier_each_phase(const pms_classifier *c, pms_phase_entry_fn fn, void *ctx);

/* The phase table's first line: its name and version (table.c reads, table_write.c writes). */
#define PMS_PHASE_TABLE_MAGIC "pmuscope-phase-table"
#define PMS_PHASE_TABLE_VERSION 1

/* Writes the phases of classifier c as a phase table (table_write.c). */
int pms__phase_table_write(const pms_classifier *c, size_t signature_size, uint64_t seed, FILE *out);

#endif
