/* Unwinding the user stack copies of perf record --call-graph dwarf samples with elfutils'
 * libdwfl (the binaries' .eh_frame / .debug_frame CFI), as perf report does. */
#ifndef PMS_SYMBOL_UNWIND_H
#define PMS_SYMBOL_UNWIND_H

#include "pmuscope/perfdata.h"
#include "pmuscope/symbols.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pms__unwinder pms__unwinder;

/* An unwinder that finds the binaries through `symbols` (kept by the caller). */
int pms__unwinder_create(pms__unwinder **out, pms_symbols *symbols);
void pms__unwinder_destroy(pms__unwinder *u);

/* The user frames of sample s (which has user registers and a stack copy), leaf first: the
 * sampled user IP, then each caller's return address less one (perf's addresses of
 * non-activation frames), at most max of them. Unwinding stops where the CFI or the copy
 * ends. Returns the number written to frames (0 when the sample has nothing to unwind). */
size_t pms__unwind(pms__unwinder *u, const pms_sample *s, uint64_t *frames, size_t max);

/* The callchain perf report makes of a dwarf sample: the kernel's callchain as recorded
 * (kernel frames only, with exclude_callchain_user), then PERF_CONTEXT_USER and the unwound
 * user frames, at most PMS__UNWIND_MAX_STACK of them; the sample's own callchain when
 * nothing unwinds. *chain points into the unwinder (valid until its next call).
 * PMS_OK or PMS_ENOMEM. */
#define PMS__UNWIND_MAX_STACK 127u
int pms__unwind_chain(pms__unwinder *u, const pms_sample *s, const uint64_t **chain, uint64_t *nr);

/* *out: s with the chain of pms__unwind_chain when s has a user stack copy, and without
 * the copy (so that a consumer handed *out does not unwind it again); the unwinder *u is
 * made at the first such sample. PMS_OK or PMS_ENOMEM (said). */
int pms__unwind_sample(pms__unwinder **u, pms_symbols *symbols, const pms_sample *s, pms_sample *out);

/* The sample's user IP and stack pointer from its registers (by the architecture of the
 * register set: x86_64 or aarch64). 0 when the sample has no registers or pmuscope does
 * not know their layout. */
int pms__unwind_user_ip_sp(const pms_sample *s, uint64_t *ip, uint64_t *sp);

#endif
