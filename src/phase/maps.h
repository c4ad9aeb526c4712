/* Internal: where each process mapped its files, so that a sampled address becomes the
 * same number in every run. Position-independent programs and libraries load at a new
 * random address each run (ASLR); a signature built from raw addresses then differs from
 * run to run, and a phase table saved by one run means nothing to the next. An address
 * inside a file mapping is replaced by its offset in the file, tagged with a hash of the
 * file's name (not its directory: the same program installed elsewhere, or on another
 * machine, gives the same numbers). Other addresses (the kernel's, anonymous memory, JIT
 * code) stay as they are. */
#ifndef PMS_PHASE_MAPS_H
#define PMS_PHASE_MAPS_H
#include "pmuscope/perfdata.h"

#include <stdint.h>

typedef struct pms_maps pms_maps;

int pms__maps_create(pms_maps **out);
void pms__maps_free(pms_maps *m);
/* A file mapped in process m->pid (an MMAP or MMAP2 record); replaces what it overlaps. */
int pms__maps_add(pms_maps *m, const pms_mmap_event *ev);
/* Process child was forked from parent: it starts with the parent's mappings. */
int pms__maps_fork(pms_maps *m, uint32_t parent, uint32_t child);
/* The same from a record as the kernel writes it (MMAP, MMAP2, FORK; others are left
 * alone), laid out with sample_id_all for sample_type. */
int pms__maps_record(pms_maps *m, const struct perf_event_header *h, uint64_t sample_type);
/* The run-independent number of address ip of process pid. *hint: the caller's own
 * memory of the mapping it hit last (start it at 0), tried first. */
uint64_t pms__maps_relocate(const pms_maps *m, uint32_t pid, uint64_t ip, size_t *hint);

#endif
