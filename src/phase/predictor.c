/* Phase predictors (Sembrant's thesis, 3.3): last value, Markov-N, partial pattern match
 * (Markov N down to 1) and run length, each falling back to last value when its table
 * has no confident entry. */
#include "pmuscope/phase.h"
#include "phase/history_table.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

struct pms_predictor {
    pms_predictor_config cfg;
    pms_history_table tables[PMS_HISTORY_KEY_MAX]; /* Markov: [0]; PPM: [n-1] for history n */
    size_t ntables;
    int history[PMS_HISTORY_KEY_MAX];              /* most recent last */
    unsigned nhistory;
    unsigned run;                                  /* run length of the current phase */
    uint64_t seen, repeats;                        /* intervals, and those equal to the previous */
};

void pms_predictor_config_default(pms_predictor_config *c, pms_predictor_kind kind)
{
    c->kind = kind;
    c->history = kind == PMS_PREDICT_PPM ? 3 : kind == PMS_PREDICT_MARKOV ? 2 : 1;
    c->cache_size = 256;
    c->confidence_threshold = 0.5; /* confidences are 1/3, 2/3, 1: an entry is used once confirmed */
}

const char *pms_predictor_name(pms_predictor_kind kind)
{
    static const char *const names[] = {"last", "markov", "ppm", "run-length"};
    return kind < PMS_PREDICT_COUNT ? names[kind] : "?";
}

int pms_predictor_create(pms_predictor **out, const pms_predictor_config *cfg)
{
    if ((unsigned)cfg->kind >= PMS_PREDICT_COUNT) return pms__fail(PMS_EINVAL, "unknown predictor %d", cfg->kind);
    if ((cfg->kind == PMS_PREDICT_MARKOV || cfg->kind == PMS_PREDICT_PPM) &&
        (cfg->history < 1 || cfg->history > PMS_HISTORY_KEY_MAX))
        return pms__fail(PMS_EINVAL, "%s history length %u: expected 1 to %d", pms_predictor_name(cfg->kind),
                        cfg->history, PMS_HISTORY_KEY_MAX);
    if (!(cfg->confidence_threshold >= 0 && cfg->confidence_threshold <= 1))
        return pms__fail(PMS_EINVAL, "confidence threshold %g: expected 0 to 1", cfg->confidence_threshold);
    pms_predictor *p = calloc(1, sizeof *p);
    if (!p) return pms__fail(PMS_ENOMEM, "out of memory for the predictor");
    p->cfg = *cfg;
    p->ntables = cfg->kind == PMS_PREDICT_LAST ? 0 : cfg->kind == PMS_PREDICT_PPM ? cfg->history : 1;
    for (size_t i = 0; i < p->ntables; i++) {
        int rc = pms__history_table_init(&p->tables[i], cfg->cache_size);
        if (rc) {
            pms_predictor_destroy(p);
            return rc;
        }
    }
    *out = p;
    return PMS_OK;
}

void pms_predictor_destroy(pms_predictor *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->ntables; i++) pms__history_table_free(&p->tables[i]);
    free(p);
}

/* The key of the last n phases of the history. */
static int history_key(const pms_predictor *p, unsigned n, pms_history_key *key)
{
    if (p->nhistory < n) return 0;
    key->n = n;
    memcpy(key->v, p->history + p->nhistory - n, n * sizeof key->v[0]);
    return 1;
}

/* The key of the run-length predictor: the current phase and its run so far. */
static void run_key(const pms_predictor *p, pms_history_key *key)
{
    key->n = 2;
    key->v[0] = p->history[p->nhistory - 1];
    key->v[1] = (int)(p->run > 1u << 30 ? 1u << 30 : p->run);
}

/* Table of history n for the learning and prediction of Markov (n = N) and PPM. */
static pms_history_table *table_for(pms_predictor *p, unsigned n)
{
    return p->cfg.kind == PMS_PREDICT_PPM ? &p->tables[n - 1] : &p->tables[0];
}

static void learn(pms_predictor *p, int phase)
{
    pms_history_key key;
    switch (p->cfg.kind) {
    case PMS_PREDICT_LAST: break;
    case PMS_PREDICT_MARKOV:
        if (history_key(p, p->cfg.history, &key)) pms__history_table_learn(&p->tables[0], &key, phase);
        break;
    case PMS_PREDICT_PPM:
        for (unsigned n = 1; n <= p->cfg.history; n++)
            if (history_key(p, n, &key)) pms__history_table_learn(table_for(p, n), &key, phase);
        break;
    case PMS_PREDICT_RUN_LENGTH:
        if (p->nhistory) {
            run_key(p, &key);
            pms__history_table_learn(&p->tables[0], &key, phase);
        }
        break;
    default: break;
    }
}

static void push_history(pms_predictor *p, int phase)
{
    p->seen++;
    if (p->nhistory && p->history[p->nhistory - 1] == phase) {
        p->repeats++;
        p->run++;
    } else {
        p->run = 1;
    }
    if (p->nhistory == PMS_HISTORY_KEY_MAX) {
        memmove(p->history, p->history + 1, (PMS_HISTORY_KEY_MAX - 1) * sizeof p->history[0]);
        p->nhistory--;
    }
    p->history[p->nhistory++] = phase;
}

/* Uses the entry for key if it is confident enough. */
static int try_table(pms_predictor *p, pms_history_table *t, const pms_history_key *key, pms_prediction *next)
{
    const pms_history_entry *e = pms__history_table_find(t, key);
    if (!e) return 0;
    double conf = (double)e->confidence / PMS_CONFIDENCE_MAX;
    if (conf < p->cfg.confidence_threshold) return 0;
    next->phase = e->next;
    next->confidence = conf;
    next->from_table = 1;
    return 1;
}

void pms_predictor_update(pms_predictor *p, int phase, pms_prediction *next)
{
    learn(p, phase);
    push_history(p, phase);
    pms_history_key key;
    switch (p->cfg.kind) {
    case PMS_PREDICT_MARKOV:
        if (history_key(p, p->cfg.history, &key) && try_table(p, &p->tables[0], &key, next)) return;
        break;
    case PMS_PREDICT_PPM:
        for (unsigned n = p->cfg.history; n >= 1; n--)
            if (history_key(p, n, &key) && try_table(p, table_for(p, n), &key, next)) return;
        break;
    case PMS_PREDICT_RUN_LENGTH:
        run_key(p, &key);
        if (try_table(p, &p->tables[0], &key, next)) return;
        break;
    default: break;
    }
    /* Last value, as confident as it has been right so far. */
    next->phase = phase;
    next->confidence = p->seen > 1 ? (double)p->repeats / (double)(p->seen - 1) : 0.5;
    next->from_table = 0;
}
