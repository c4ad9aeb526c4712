/* Distinct strings by FNV-1a hash and length; strings that collide on both are told apart
 * by comparison and probe on. */
#include "util/strtab.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

void pms__strtab_init(pms_strtab *t)
{
    memset(t, 0, sizeof *t);
    pms__keymap_init(&t->index);
}

void pms__strtab_free(pms_strtab *t)
{
    for (size_t i = 0; i < t->n; i++) free(t->strings[i]);
    free(t->strings);
    pms__keymap_free(&t->index);
    pms__strtab_init(t);
}

static uint64_t hash_string(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

int64_t pms__strtab_intern(pms_strtab *t, const char *s)
{
    if (!s) s = "";
    size_t len = strlen(s);
    uint64_t h = hash_string(s, len);
    for (uint64_t probe = 0;; probe++) {
        uint64_t *slot = pms__keymap_upsert(&t->index, h, (uint64_t)len | probe << 32, UINT64_MAX);
        if (!slot) return pms__fail(PMS_ENOMEM, "out of memory for a string table"), -1;
        if (*slot == UINT64_MAX - 1) continue; /* a slot left by a failed insertion */
        if (*slot != UINT64_MAX) {
            if (strcmp(t->strings[*slot], s) == 0) return (int64_t)*slot;
            continue; /* another string with this hash and length */
        }
        char *copy = strdup(s);
        if (!copy || pms__grow(&t->strings, &t->cap, t->n + 1, sizeof *t->strings)) {
            free(copy);
            *slot = UINT64_MAX - 1;
            return pms__fail(PMS_ENOMEM, "out of memory for a string table"), -1;
        }
        t->strings[t->n] = copy;
        *slot = t->n++;
        return (int64_t)*slot;
    }
}
