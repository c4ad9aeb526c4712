/* A profile diff as a pprof profile (pmuscope/diff.h): NEW's samples count up, BASE's down
 * with the label pprof::base, as `go tool pprof -diff_base` combines two profiles, so that
 * pprof shows NEW - BASE; one location per row, in its binary's mapping and function. */
#include "diff/diff_internal.h"
#include "hotspot/pprof_build.h"
#include "pmuscope/error.h"
#include "pmuscope/symbols.h"
#include "util/error.h"
#include "util/keymap.h"

#include <stdio.h>
#include <string.h>

typedef struct ids {
    pms_keymap mappings, functions; /* by the interned strings' addresses */
} ids;

/* The binary's mapping (file offsets as addresses, up to the largest row's). */
static int mapping_of(pms_pprof_builder *b, ids *m, const pms_diff_result *r, const char *binary, uint64_t *id)
{
    uint64_t *slot = pms__keymap_upsert(&m->mappings, (uint64_t)(uintptr_t)binary, 0, 0);
    if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    if (!*slot) {
        uint64_t limit = 0;
        for (size_t i = 0; i < r->nrows; i++)
            if (r->rows[i].where.binary == binary && r->rows[i].where.file_offset >= limit)
                limit = r->rows[i].where.file_offset + 1;
        int rc = pms__pprof_add_mapping(b, slot, binary, "", 0, limit, 0, 1, 0);
        if (rc) return rc;
    }
    *id = *slot;
    return PMS_OK;
}

static int function_of(pms_pprof_builder *b, ids *m, const pms_profile_row *w, uint64_t *id)
{
    const char *name = w->symbol ? w->symbol : PMS_BINARY_UNKNOWN;
    uint64_t *slot = pms__keymap_upsert(&m->functions, (uint64_t)(uintptr_t)w->binary, (uint64_t)(uintptr_t)w->symbol, 0);
    if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    if (!*slot) {
        int rc = pms__pprof_add_function(b, slot, name, name, "", 0);
        if (rc) return rc;
    }
    *id = *slot;
    return PMS_OK;
}

/* The row's two samples: NEW's count, and BASE's negated with pprof::base. */
static int row_samples(pms_pprof_builder *b, ids *m, const pms_diff_result *r, const pms_diff_row *row)
{
    uint64_t mapping = 0, function = 0, location = 0;
    int rc = mapping_of(b, m, r, row->where.binary, &mapping);
    if (!rc) rc = function_of(b, m, &row->where, &function);
    if (!rc) rc = pms__pprof_add_location(b, &location, mapping, row->where.file_offset, function, 0);
    char change[160], q[32];
    snprintf(change, sizeof change, "%+.2f pp [%+.2f, %+.2f] (%g%%)", 100 * row->delta, 100 * row->ci_low,
             100 * row->ci_high, 100 * r->confidence);
    snprintf(q, sizeof q, "%.3g", row->q_value);
    const pms_pprof_label labels[] = {{"diff verdict", pms__diff_verdict_name(row->verdict)},
                                      {"diff change", change},
                                      {"diff q-value", q},
                                      {"pprof::base", "true"}};
    int64_t value = (int64_t)row->new_samples;
    if (!rc && row->new_samples) rc = pms__pprof_add_sample(b, &location, 1, &value, labels, 3);
    value = -(int64_t)row->base_samples;
    if (!rc && row->base_samples) rc = pms__pprof_add_sample(b, &location, 1, &value, labels + 3, 1);
    return rc;
}

int pms_diff_write_pprof(const char *path, const pms_diff_result *r)
{
    if (r->counts) return pms__fail(PMS_EINVAL, "%s: a pprof profile holds samples: counts have none", path);
    pms_pprof_builder *b = NULL;
    ids m;
    pms__keymap_init(&m.mappings);
    pms__keymap_init(&m.functions);
    char type[160];
    snprintf(type, sizeof type, "%s_samples", r->event ? r->event : "event");
    int rc = pms__pprof_builder_create(&b);
    if (!rc) rc = pms__pprof_add_type(b, type, "count");
    if (!rc) rc = pms__pprof_set_default_type(b, type);
    if (!rc)
        rc = pms__pprof_add_comment(b, "pmuscope diff: %s samples of NEW (%llu, %zu runs) minus BASE (%llu, %zu runs), "
                                    "as go tool pprof -diff_base BASE NEW", r->event ? r->event : "",
                                    (unsigned long long)r->new_total, r->new_runs, (unsigned long long)r->base_total,
                                    r->base_runs);
    if (!rc) rc = pms__pprof_add_comment(b, "test: %s; FDR %g: %zu of %zu rows changed", pms__diff_method_name(r),
                                         r->fdr, r->changed, r->tested);
    for (size_t i = 0; i < r->nrows && !rc; i++) rc = row_samples(b, &m, r, &r->rows[i]);
    if (!rc) rc = pms__pprof_builder_save(b, path);
    pms__pprof_builder_destroy(b);
    pms__keymap_free(&m.mappings);
    pms__keymap_free(&m.functions);
    return rc;
}
