/* Thread names over time (see comms.h). */
#include "hotspot/comms.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

void pms__comms_init(pms__comms *c)
{
    memset(c, 0, sizeof *c);
    pms__keymap_init(&c->last);
}

void pms__comms_free(pms__comms *c)
{
    pms__keymap_free(&c->last);
    free(c->changes);
    for (size_t i = 0; i < c->nnames; i++) free(c->names[i]);
    free(c->names);
}

/* Few distinct names in a recording: a linear search interns them. */
static size_t intern(pms__comms *c, const char *comm)
{
    for (size_t i = c->nnames; i-- > 0;)
        if (strcmp(c->names[i], comm) == 0) return i + 1;
    char *copy = strdup(comm);
    if (!copy || pms__grow(&c->names, &c->names_cap, c->nnames + 1, sizeof *c->names)) {
        free(copy);
        return 0;
    }
    c->names[c->nnames++] = copy;
    return c->nnames;
}

int pms__comms_set(pms__comms *c, uint32_t tid, uint64_t time, const char *comm)
{
    size_t name = intern(c, comm);
    uint64_t *slot = name ? pms__keymap_upsert(&c->last, tid, 0, SIZE_MAX) : NULL;
    if (!slot || pms__grow(&c->changes, &c->cap, c->n + 1, sizeof *c->changes))
        return pms__fail(PMS_ENOMEM, "out of memory for the thread names");
    c->changes[c->n] = (struct pms__comm_change){time, name, (size_t)*slot};
    *slot = c->n++;
    return PMS_OK;
}

const char *pms__comms_name(const pms__comms *c, size_t id) { return id ? c->names[id - 1] : NULL; }

size_t pms__comms_at(const pms__comms *c, uint32_t tid, uint64_t time)
{
    uint64_t *slot = pms__keymap_find(&c->last, tid, 0);
    if (!slot) return 0;
    const struct pms__comm_change *ch = &c->changes[*slot];
    while (ch->time > time && ch->prev != SIZE_MAX) ch = &c->changes[ch->prev];
    return ch->comm;
}
