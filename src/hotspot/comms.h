/* The command name (comm) of each thread over time, from COMM and FORK records, as perf
 * keeps it: a thread starts with its parent's comm and takes a new one at each COMM (exec,
 * prctl). Names are interned: one pointer per distinct string. */
#ifndef PMS_HOTSPOT_COMMS_H
#define PMS_HOTSPOT_COMMS_H

#include "util/keymap.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pms__comms {
    pms_keymap last;     /* tid -> index of its latest change in changes */
    struct pms__comm_change {
        uint64_t time;
        size_t comm; /* id, as pms__comms_at returns */
        size_t prev; /* earlier change of the same thread, SIZE_MAX for none */
    } *changes;
    size_t n, cap;
    char **names; /* interned strings */
    size_t nnames, names_cap;
} pms__comms;

void pms__comms_init(pms__comms *c);
void pms__comms_free(pms__comms *c);
/* Thread tid is named comm from time on; returns PMS_OK or PMS_ENOMEM. */
int pms__comms_set(pms__comms *c, uint32_t tid, uint64_t time, const char *comm);
/* The comm of tid at time (its first one for earlier times) as an id: 0 when none is
 * known, else 1 + its index among the interned names. */
size_t pms__comms_at(const pms__comms *c, uint32_t tid, uint64_t time);
/* The name of an id of pms__comms_at, NULL for 0. */
const char *pms__comms_name(const pms__comms *c, size_t id);

#endif
