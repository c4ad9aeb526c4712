/* Internal: the load bias of each truth object under valgrind, for the code that callgrind
 * places in no object (PLT stubs, .init, .fini: outside the .text that valgrind's debug
 * info covers), whose addresses are run-time addresses. */
#ifndef PMS_HOTSPOT_TRUTH_STUBS_H
#define PMS_HOTSPOT_TRUTH_STUBS_H
#include "pmuscope/callgrind.h"
#include "pmuscope/symbols.h"

/* For each callgrind object i with obj[i] >= 0 (an index among the nobjects paths), finds
 * its bias from the calls it makes into the object "???": the call instruction at link-time
 * address a (x86-64 CALL rel32, AArch64 BL) names its link-time target t, and callgrind's
 * run-time target T gives bias = T - t. biases[k] and known[k] (k < nobjects) are set for
 * the objects whose calls agree; returns the number of them, or a pms_status below 0. */
int pms__truth_stub_biases(const pms_callgrind *cg, const long *obj, const char *const *paths, size_t nobjects,
                           pms_symbols *symbols, uint64_t *biases, int *known);

#endif
