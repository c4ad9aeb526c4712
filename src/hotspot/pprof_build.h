/* Internal: a pprof profile put together piece by piece (strings interned, ids given in
 * order from 1), then saved gzipped (io/pprof_file.h). */
#ifndef PMS_HOTSPOT_PPROF_BUILD_H
#define PMS_HOTSPOT_PPROF_BUILD_H
#include <stddef.h>
#include <stdint.h>

typedef struct pms_pprof_builder pms_pprof_builder;

typedef struct pms_pprof_label {
    const char *key, *str; /* a string label */
} pms_pprof_label;

int pms__pprof_builder_create(pms_pprof_builder **out);
void pms__pprof_builder_destroy(pms_pprof_builder *b);

/* Each returns PMS_OK or PMS_ENOMEM (with the message set); ids come back in *id. */
int pms__pprof_add_type(pms_pprof_builder *b, const char *type, const char *unit);
int pms__pprof_set_period(pms_pprof_builder *b, const char *type, const char *unit, int64_t period);
int pms__pprof_set_default_type(pms_pprof_builder *b, const char *type);
void pms__pprof_set_time(pms_pprof_builder *b, int64_t time_nanos, int64_t duration_nanos);
int pms__pprof_add_comment(pms_pprof_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int pms__pprof_add_mapping(pms_pprof_builder *b, uint64_t *id, const char *file, const char *build_id,
                           uint64_t start, uint64_t limit, uint64_t file_offset, int has_functions, int has_lines);
int pms__pprof_add_function(pms_pprof_builder *b, uint64_t *id, const char *name, const char *system_name,
                            const char *file, int64_t start_line);
/* A location with one line (function_id 0: none). */
int pms__pprof_add_location(pms_pprof_builder *b, uint64_t *id, uint64_t mapping_id, uint64_t address,
                            uint64_t function_id, int64_t line);
/* A sample: its locations (leaf first), one value per sample type added so far, labels. */
int pms__pprof_add_sample(pms_pprof_builder *b, const uint64_t *locations, size_t nlocations, const int64_t *values,
                          const pms_pprof_label *labels, size_t nlabels);
/* Packs, gzips and writes the profile (io/pprof_file.h: through a temporary file). */
int pms__pprof_builder_save(pms_pprof_builder *b, const char *path);
#endif
