/* The phase table that outlives a run: every phase's id, weight and centroid signature,
 * with the signature size and projection seed they were made with, as text. A later run
 * that loads it starts its classifier with these phases, so that a phase keeps its id
 * across runs (and machines: signatures are built from run-independent addresses, see
 * maps.h). */
#include "phase/engine_internal.h"
#include "io/count_parse.h"
#include "io/text_lines.h"
#include "pmuscope/phase.h"
#include "util/error.h"
#include "util/grow.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct table_phase {
    int id;
    uint64_t weight;
    double *centroid;
} table_phase;

struct pms_phase_table {
    size_t signature_size;
    uint64_t seed;
    table_phase *v;
    size_t n, cap;
};

void pms_phase_table_free(pms_phase_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) free(t->v[i].centroid);
    free(t->v);
    free(t);
}

size_t pms_phase_table_count(const pms_phase_table *t) { return t->n; }
size_t pms_phase_table_signature_size(const pms_phase_table *t) { return t->signature_size; }
uint64_t pms_phase_table_seed(const pms_phase_table *t) { return t->seed; }

void pms_phase_table_get(const pms_phase_table *t, size_t i, int *id, uint64_t *weight, const double **centroid)
{
    *id = t->v[i].id;
    *weight = t->v[i].weight;
    *centroid = t->v[i].centroid;
}

/* ---- reading ---- */

typedef struct reader {
    pms_lines lines;
    const char *path;
    char *save;
} reader;

static int bad(const reader *r, const char *what)
{
    return pms__fail(PMS_EFORMAT, "%s: line %zu: %s", r->path, r->lines.line, what);
}

static char *next_word(reader *r, char *line)
{
    return strtok_r(line, " \t\r", &r->save);
}

/* The next word as a count from min to max. */
static int word_count(reader *r, uint64_t min, uint64_t max, uint64_t *out, const char *what)
{
    char *w = next_word(r, NULL);
    if (!w || pms__parse_count(w, strlen(w), out) != PMS_COUNT_OK || *out < min || *out > max) {
        char msg[160];
        snprintf(msg, sizeof msg, "expected %s (a whole number from %llu to %llu)%s%s", what,
                 (unsigned long long)min, (unsigned long long)max, w ? ", not " : "", w ? w : "");
        return bad(r, msg);
    }
    return PMS_OK;
}

/* The next line that is not blank or a comment, split after its first word: 1, 0 at the
 * end, or a status. */
static int next_line(reader *r, char **first)
{
    char *line;
    size_t len;
    int rc;
    while ((rc = pms__lines_next(&r->lines, &line, &len)) == 1) {
        char *p = line + strspn(line, " \t\r");
        if (*p == '#' || *p == '\0') continue;
        *first = next_word(r, p);
        return 1;
    }
    return rc;
}

static int read_header(reader *r, pms_phase_table *t)
{
    char *w;
    uint64_t v;
    int rc = next_line(r, &w);
    if (rc < 0) return rc;
    if (rc == 0 || strcmp(w, PMS_PHASE_TABLE_MAGIC) != 0)
        return rc == 0 ? pms__fail(PMS_EFORMAT, "%s: empty: not a phase table (%s)", r->path, PMS_PHASE_TABLE_MAGIC)
                       : bad(r, "expected \"" PMS_PHASE_TABLE_MAGIC " 1\": not a phase table");
    if ((rc = word_count(r, PMS_PHASE_TABLE_VERSION, PMS_PHASE_TABLE_VERSION, &v, "the table's version 1"))) return rc;
    if ((rc = next_line(r, &w)) < 0) return rc;
    if (rc == 0 || strcmp(w, "signature-size") != 0) return bad(r, "expected \"signature-size N\"");
    if ((rc = word_count(r, 2, PMS_PHASE_MAX_SIGNATURE, &v, "the signature size"))) return rc;
    if (v & (v - 1)) return bad(r, "the signature size must be a power of two");
    t->signature_size = (size_t)v;
    if ((rc = next_line(r, &w)) < 0) return rc;
    if (rc == 0 || strcmp(w, "seed") != 0) return bad(r, "expected \"seed N\" (of the random projection)");
    return word_count(r, 0, UINT64_MAX, &t->seed, "the projection seed");
}

static int read_phase(reader *r, pms_phase_table *t)
{
    uint64_t id, weight;
    int rc = word_count(r, 1, INT32_MAX, &id, "a phase id");
    if (!rc) rc = word_count(r, 1, UINT64_MAX, &weight, "the phase's weight (intervals it holds)");
    if (rc) return rc;
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].id == (int)id) return bad(r, "a second phase with this id");
    if (pms__grow(&t->v, &t->cap, t->n + 1, sizeof *t->v)) return pms__fail(PMS_ENOMEM, "out of memory");
    table_phase *p = &t->v[t->n];
    if (!(p->centroid = malloc(t->signature_size * sizeof *p->centroid))) return pms__fail(PMS_ENOMEM, "out of memory");
    p->id = (int)id;
    p->weight = weight;
    t->n++;
    double sum = 0;
    for (size_t k = 0; k < t->signature_size; k++) {
        char *w = next_word(r, NULL), *end;
        errno = 0;
        double x = w ? strtod(w, &end) : NAN;
        if (!w || *end || errno || !(x >= 0 && x <= 1)) {
            char msg[128];
            snprintf(msg, sizeof msg, "entry %zu of %zu of the signature: expected a number from 0 to 1", k + 1,
                     t->signature_size);
            return bad(r, msg);
        }
        p->centroid[k] = x;
        sum += x;
    }
    if (next_word(r, NULL)) return bad(r, "more signature entries than the signature size");
    if (fabs(sum - 1) > 1e-6) return bad(r, "the signature's entries do not add up to 1");
    return PMS_OK;
}

int pms_phase_table_load(pms_phase_table **out, const char *path)
{
    reader r = {.path = path};
    int rc = pms__lines_open(&r.lines, path, PMS_LINES_COMPLETE);
    if (rc) return rc;
    pms_phase_table *t = calloc(1, sizeof *t);
    if (!t) rc = pms__fail(PMS_ENOMEM, "out of memory");
    if (!rc) rc = read_header(&r, t);
    char *w;
    while (!rc && (rc = next_line(&r, &w)) == 1)
        rc = strcmp(w, "phase") ? bad(&r, "expected \"phase ID WEIGHT\" and the signature's entries")
                                : read_phase(&r, t);
    if (!rc && t->n == 0) rc = pms__fail(PMS_EFORMAT, "%s: no phases in the table", path);
    pms__lines_close(&r.lines);
    if (rc) {
        pms_phase_table_free(t);
        return rc;
    }
    *out = t;
    return PMS_OK;
}
