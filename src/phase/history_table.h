/* Internal: the LRU table of the Markov and run-length predictors. A key is a short
 * sequence of integers (a phase history, or a phase and its run length); an entry holds
 * the phase that followed the key last time and a 2-bit saturating confidence. */
#ifndef PMS_PHASE_HISTORY_TABLE_H
#define PMS_PHASE_HISTORY_TABLE_H
#include <stddef.h>
#include <stdint.h>

#define PMS_HISTORY_KEY_MAX 8
#define PMS_CONFIDENCE_MAX 3

typedef struct pms_history_key {
    int v[PMS_HISTORY_KEY_MAX];
    unsigned n;
} pms_history_key;

typedef struct pms_history_entry {
    pms_history_key key;
    uint64_t hash;       /* of the key, compared first */
    int next;
    unsigned confidence; /* 1..PMS_CONFIDENCE_MAX */
    uint64_t used;
    int valid;
} pms_history_entry;

typedef struct pms_history_table {
    pms_history_entry *entries;
    size_t size;
    uint64_t clock;
} pms_history_table;

int pms__history_table_init(pms_history_table *t, size_t size);
void pms__history_table_free(pms_history_table *t);
/* The entry for key, or NULL. */
const pms_history_entry *pms__history_table_find(pms_history_table *t, const pms_history_key *key);
/* Records that next followed key: a match raises the confidence, a mismatch lowers it
 * and replaces the phase when it reaches zero; a new key evicts the LRU entry. */
void pms__history_table_learn(pms_history_table *t, const pms_history_key *key, int next);

#endif
