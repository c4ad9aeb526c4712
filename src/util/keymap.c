#include "util/keymap.h"

#include <stdlib.h>

void pms__keymap_init(pms_keymap *m) { *m = (pms_keymap){0}; }

void pms__keymap_free(pms_keymap *m)
{
    free(m->slots);
    *m = (pms_keymap){0};
}

static size_t hash(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    return (size_t)h;
}

static pms_keymap_slot *probe(pms_keymap_slot *slots, size_t cap, uint64_t a, uint64_t b)
{
    for (size_t i = hash(a, b) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!slots[i].used || (slots[i].a == a && slots[i].b == b)) return &slots[i];
}

uint64_t *pms__keymap_find(const pms_keymap *m, uint64_t a, uint64_t b)
{
    if (!m->cap) return NULL;
    pms_keymap_slot *s = probe(m->slots, m->cap, a, b);
    return s->used ? &s->value : NULL;
}

static int grow(pms_keymap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    pms_keymap_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].used) *probe(slots, cap, m->slots[i].a, m->slots[i].b) = m->slots[i];
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

uint64_t *pms__keymap_upsert(pms_keymap *m, uint64_t a, uint64_t b, uint64_t initial)
{
    if ((m->count + 1) * 4 > m->cap * 3 && grow(m)) return NULL; /* load factor <= 3/4 */
    pms_keymap_slot *s = probe(m->slots, m->cap, a, b);
    if (!s->used) {
        *s = (pms_keymap_slot){a, b, initial, 1};
        m->count++;
    }
    return &s->value;
}
