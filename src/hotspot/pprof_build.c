/* Building a pprof profile: items go into growing arrays of protobuf-c's message structs;
 * the pointer arrays protobuf-c packs from are made at save time, when nothing moves. */
#include "hotspot/pprof_build.h"
#include "io/pprof_file.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/strtab.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY(type, name) \
    type *name;           \
    size_t n_##name, cap_##name

struct pms_pprof_builder {
    pms_strtab strings;
    ARRAY(Pms__ValueType, types);
    ARRAY(Pms__Mapping, mappings);
    ARRAY(Pms__Function, functions);
    ARRAY(Pms__Location, locations);
    ARRAY(Pms__Line, lines);       /* one per location */
    ARRAY(Pms__Sample, samples);
    ARRAY(uint64_t, location_ids); /* every sample's, in order */
    ARRAY(int64_t, values);
    ARRAY(Pms__Label, labels);
    ARRAY(int64_t, comments);
    Pms__ValueType period_type;
    int64_t period, default_type, time_nanos, duration_nanos;
};

#define PUSH(b, name, item)                                                               \
    (pms__grow(&(b)->name, &(b)->cap_##name, (b)->n_##name + 1, sizeof *(b)->name)       \
         ? pms__fail(PMS_ENOMEM, "out of memory for the pprof profile")                   \
         : ((b)->name[(b)->n_##name++] = (item), PMS_OK))

/* The index of s in the string table, added if new; -1 when out of memory. */
static int64_t intern(pms_pprof_builder *b, const char *s) { return pms__strtab_intern(&b->strings, s); }

int pms__pprof_builder_create(pms_pprof_builder **out)
{
    pms_pprof_builder *b = calloc(1, sizeof *b);
    if (!b) return pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    pms__strtab_init(&b->strings);
    pms__value_type__init(&b->period_type);
    if (intern(b, "") != 0) { /* pprof's rule: string 0 is "" */
        pms__pprof_builder_destroy(b);
        return PMS_ENOMEM;
    }
    *out = b;
    return PMS_OK;
}

void pms__pprof_builder_destroy(pms_pprof_builder *b)
{
    if (!b) return;
    pms__strtab_free(&b->strings);
    free(b->types);
    free(b->mappings);
    free(b->functions);
    free(b->locations);
    free(b->lines);
    free(b->samples);
    free(b->location_ids);
    free(b->values);
    free(b->labels);
    free(b->comments);
    free(b);
}

static int value_type(pms_pprof_builder *b, Pms__ValueType *v, const char *type, const char *unit)
{
    pms__value_type__init(v);
    if ((v->type = intern(b, type)) < 0 || (v->unit = intern(b, unit)) < 0) return PMS_ENOMEM;
    return PMS_OK;
}

int pms__pprof_add_type(pms_pprof_builder *b, const char *type, const char *unit)
{
    Pms__ValueType v;
    int rc = value_type(b, &v, type, unit);
    return rc ? rc : PUSH(b, types, v);
}

int pms__pprof_set_period(pms_pprof_builder *b, const char *type, const char *unit, int64_t period)
{
    b->period = period;
    return value_type(b, &b->period_type, type, unit);
}

int pms__pprof_set_default_type(pms_pprof_builder *b, const char *type)
{
    return (b->default_type = intern(b, type)) < 0 ? PMS_ENOMEM : PMS_OK;
}

void pms__pprof_set_time(pms_pprof_builder *b, int64_t time_nanos, int64_t duration_nanos)
{
    b->time_nanos = time_nanos;
    b->duration_nanos = duration_nanos;
}

int pms__pprof_add_comment(pms_pprof_builder *b, const char *fmt, ...)
{
    char *text = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n < 0) return pms__fail(PMS_ENOMEM, "out of memory for the pprof comment");
    int64_t i = intern(b, text);
    free(text);
    return i < 0 ? PMS_ENOMEM : PUSH(b, comments, i);
}

int pms__pprof_add_mapping(pms_pprof_builder *b, uint64_t *id, const char *file, const char *build_id,
                           uint64_t start, uint64_t limit, uint64_t file_offset, int has_functions, int has_lines)
{
    Pms__Mapping m;
    pms__mapping__init(&m);
    m.id = b->n_mappings + 1;
    m.memory_start = start;
    m.memory_limit = limit;
    m.file_offset = file_offset;
    if ((m.filename = intern(b, file)) < 0 || (m.build_id = intern(b, build_id)) < 0) return PMS_ENOMEM;
    m.has_functions = has_functions;
    m.has_filenames = has_lines;
    m.has_line_numbers = has_lines;
    *id = m.id;
    return PUSH(b, mappings, m);
}

int pms__pprof_add_function(pms_pprof_builder *b, uint64_t *id, const char *name, const char *system_name,
                            const char *file, int64_t start_line)
{
    Pms__Function f;
    pms__function__init(&f);
    f.id = b->n_functions + 1;
    if ((f.name = intern(b, name)) < 0 || (f.system_name = intern(b, system_name)) < 0 ||
        (f.filename = intern(b, file)) < 0)
        return PMS_ENOMEM;
    f.start_line = start_line;
    *id = f.id;
    return PUSH(b, functions, f);
}

int pms__pprof_add_location(pms_pprof_builder *b, uint64_t *id, uint64_t mapping_id, uint64_t address,
                            uint64_t function_id, int64_t line)
{
    Pms__Location loc;
    Pms__Line l;
    pms__location__init(&loc);
    pms__line__init(&l);
    loc.id = b->n_locations + 1;
    loc.mapping_id = mapping_id;
    loc.address = address;
    l.function_id = function_id;
    l.line = line;
    *id = loc.id;
    int rc = PUSH(b, lines, l);
    return rc ? rc : PUSH(b, locations, loc);
}

int pms__pprof_add_sample(pms_pprof_builder *b, const uint64_t *locations, size_t nlocations, const int64_t *values,
                          const pms_pprof_label *labels, size_t nlabels)
{
    Pms__Sample s;
    pms__sample__init(&s);
    s.n_location_id = nlocations;
    s.n_value = b->n_types;
    s.n_label = nlabels;
    int rc = PMS_OK;
    for (size_t i = 0; i < nlocations && !rc; i++) rc = PUSH(b, location_ids, locations[i]);
    for (size_t i = 0; i < b->n_types && !rc; i++) rc = PUSH(b, values, values[i]);
    for (size_t i = 0; i < nlabels && !rc; i++) {
        Pms__Label l;
        pms__label__init(&l);
        if ((l.key = intern(b, labels[i].key)) < 0 || (l.str = intern(b, labels[i].str)) < 0) return PMS_ENOMEM;
        rc = PUSH(b, labels, l);
    }
    return rc ? rc : PUSH(b, samples, s);
}

/* Pointers to each item of an array, as protobuf-c's repeated message fields want. */
static void **pointers(void *items, size_t n, size_t size)
{
    void **p = malloc((n ? n : 1) * sizeof *p);
    for (size_t i = 0; p && i < n; i++) p[i] = (char *)items + i * size;
    return p;
}

int pms__pprof_builder_save(pms_pprof_builder *b, const char *path)
{
    /* The samples' arrays point into the flat ones, now that those stay put. */
    size_t loc = 0, val = 0, lab = 0;
    for (size_t i = 0; i < b->n_samples; i++) {
        Pms__Sample *s = &b->samples[i];
        s->location_id = b->location_ids + loc;
        s->value = b->values + val;
        loc += s->n_location_id;
        val += s->n_value;
        lab += s->n_label;
    }
    Pms__Label **label_ptrs = (Pms__Label **)pointers(b->labels, b->n_labels, sizeof *b->labels);
    Pms__Line **line_ptrs = (Pms__Line **)pointers(b->lines, b->n_lines, sizeof *b->lines);
    Pms__Profile p;
    pms__profile__init(&p);
#define ATTACH(field, array) (p.n_##field = b->n_##array, p.field = (void *)pointers(b->array, b->n_##array, sizeof *b->array))
    ATTACH(sample_type, types);
    ATTACH(sample, samples);
    ATTACH(mapping, mappings);
    ATTACH(location, locations);
    ATTACH(function, functions);
#undef ATTACH
    int rc = PMS_OK;
    if (!label_ptrs || !line_ptrs || !p.sample_type || !p.sample || !p.mapping || !p.location || !p.function) {
        rc = pms__fail(PMS_ENOMEM, "out of memory for the pprof profile");
    } else {
        lab = 0;
        for (size_t i = 0; i < b->n_samples; i++) {
            b->samples[i].label = label_ptrs + lab;
            lab += b->samples[i].n_label;
        }
        for (size_t i = 0; i < b->n_locations; i++) {
            b->locations[i].line = line_ptrs + i;
            b->locations[i].n_line = b->lines[i].function_id ? 1 : 0;
        }
        p.string_table = b->strings.strings;
        p.n_string_table = b->strings.n;
        p.period_type = &b->period_type;
        p.period = b->period;
        p.comment = b->comments;
        p.n_comment = b->n_comments;
        p.default_sample_type = b->default_type;
        p.time_nanos = b->time_nanos;
        p.duration_nanos = b->duration_nanos;
        rc = pms__pprof_save(&p, path);
    }
    free(label_ptrs);
    free(line_ptrs);
    free(p.sample_type);
    free(p.sample);
    free(p.mapping);
    free(p.location);
    free(p.function);
    return rc;
}
