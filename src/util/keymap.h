/* Internal: an open-addressing hash map from a pair of u64 keys to a u64 value, for
 * tables that grow with distinct keys (pids, instruction addresses) only. */
#ifndef PMS_UTIL_KEYMAP_H
#define PMS_UTIL_KEYMAP_H
#include <stddef.h>
#include <stdint.h>

typedef struct pms_keymap_slot {
    uint64_t a, b, value;
    int used;
} pms_keymap_slot;

typedef struct pms_keymap {
    pms_keymap_slot *slots;
    size_t cap, count; /* cap is a power of two */
} pms_keymap;

void pms__keymap_init(pms_keymap *m);
void pms__keymap_free(pms_keymap *m);
/* The value of (a, b), or NULL. */
uint64_t *pms__keymap_find(const pms_keymap *m, uint64_t a, uint64_t b);
/* The value of (a, b), inserted as `initial` if absent; NULL when out of memory. */
uint64_t *pms__keymap_upsert(pms_keymap *m, uint64_t a, uint64_t b, uint64_t initial);
/* Iteration: slots[i] for i < cap with used set. */
#endif
