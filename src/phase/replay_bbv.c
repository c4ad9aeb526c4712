/* Offline replay of exact basic block vectors (exp-bbv, SimPoint) through the engine. */
#include "pmuscope/phase.h"
#include "util/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pms_phase_replay_bbv(pms_phase_engine *e, const pms_bbv *b, pms_phase_event_fn fn, void *ctx)
{
    const pms_projection *proj = pms_phase_engine_projection(e);
    double *sig = calloc(proj->size, sizeof *sig);
    if (!sig) return pms__fail(PMS_ENOMEM, "out of memory");
    size_t n = pms_bbv_nintervals(b);
    int rc = PMS_OK;
    for (size_t i = 0; i < n && !rc;) {
        /* Dynamic intervals: merge as many vectors as the engine asks for. */
        unsigned want = pms_phase_engine_next_multiple(e);
        memset(sig, 0, proj->size * sizeof *sig);
        pms_phase_interval iv = {.metric = NAN};
        for (unsigned k = 0; k < want && i < n; k++, i++) {
            pms_bbv_interval v;
            rc = pms_bbv_get_interval(b, i, &v);
            if (rc) break;
            for (size_t j = 0; j < v.nentries; j++) {
                const pms_bbv_block *blk = pms_bbv_find_block(b, v.entries[j].block);
                pms_signature_add(proj, sig, blk ? blk->address : v.entries[j].block, (double)v.entries[j].count);
            }
            iv.size += v.instructions;
            iv.n += v.nentries;
        }
        if (rc) break;
        pms_phase_event ev;
        rc = pms_phase_engine_push_signature(e, sig, &iv, &ev);
        if (!rc && fn) rc = fn(&ev, ctx);
    }
    free(sig);
    return rc;
}
