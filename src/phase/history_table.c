#include "phase/history_table.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

int pms__history_table_init(pms_history_table *t, size_t size)
{
    memset(t, 0, sizeof *t);
    if (size < 1 || size > (1u << 20))
        return pms__fail(PMS_EINVAL, "predictor cache size %zu: expected 1 to %u", size, 1u << 20);
    t->entries = calloc(size, sizeof *t->entries);
    if (!t->entries) return pms__fail(PMS_ENOMEM, "out of memory for the predictor table");
    t->size = size;
    return PMS_OK;
}

void pms__history_table_free(pms_history_table *t) { free(t->entries); }

static int same_key(const pms_history_key *a, const pms_history_key *b)
{
    return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof a->v[0]) == 0;
}

static uint64_t key_hash(const pms_history_key *key)
{
    uint64_t h = 1469598103934665603ull ^ key->n; /* FNV-1a over the values */
    for (unsigned i = 0; i < key->n; i++) {
        h ^= (uint64_t)(uint32_t)key->v[i];
        h *= 1099511628211ull;
    }
    return h;
}

static pms_history_entry *lookup(pms_history_table *t, const pms_history_key *key, uint64_t hash)
{
    for (size_t i = 0; i < t->size; i++) {
        pms_history_entry *e = &t->entries[i];
        if (e->hash == hash && e->valid && same_key(&e->key, key)) return e;
    }
    return NULL;
}

const pms_history_entry *pms__history_table_find(pms_history_table *t, const pms_history_key *key)
{
    pms_history_entry *e = lookup(t, key, key_hash(key));
    if (e) e->used = ++t->clock;
    return e;
}

void pms__history_table_learn(pms_history_table *t, const pms_history_key *key, int next)
{
    uint64_t hash = key_hash(key);
    pms_history_entry *e = lookup(t, key, hash);
    if (e) {
        if (e->next == next) {
            if (e->confidence < PMS_CONFIDENCE_MAX) e->confidence++;
        } else if (--e->confidence == 0) {
            e->next = next;
            e->confidence = 1;
        }
        e->used = ++t->clock;
        return;
    }
    pms_history_entry *victim = &t->entries[0];
    for (size_t i = 0; i < t->size; i++) {
        pms_history_entry *c = &t->entries[i];
        if (!c->valid) {
            victim = c;
            break;
        }
        if (c->used < victim->used) victim = c;
    }
    victim->key = *key;
    victim->hash = hash;
    victim->next = next;
    victim->confidence = 1;
    victim->valid = 1;
    victim->used = ++t->clock;
}
