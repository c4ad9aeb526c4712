/* Known phase schedules (the `phases` workload's --trace), to score a labelling. */
#include "pmuscope/phase.h"
#include "util/error.h"
#include "util/grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
    uint64_t start, end;
    int label;
} span;

struct pms_phase_truth {
    span *spans;
    size_t n, cap;
    char (*names)[32];
    size_t nnames, names_cap;
};

void pms_phase_truth_free(pms_phase_truth *t)
{
    if (!t) return;
    free(t->spans);
    free(t->names);
    free(t);
}

static int label_of(pms_phase_truth *t, const char *name)
{
    for (size_t i = 0; i < t->nnames; i++)
        if (!strcmp(t->names[i], name)) return (int)i;
    if (pms_grow(&t->names, &t->names_cap, t->nnames + 1, sizeof *t->names)) return -1;
    snprintf(t->names[t->nnames], sizeof t->names[0], "%s", name);
    return (int)t->nnames++;
}

int pms_phase_truth_load(pms_phase_truth **out, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return pms_fail_errno(PMS_ENOENT, errno, "cannot open %s", path);
    pms_phase_truth *t = calloc(1, sizeof *t);
    char line[512];
    int rc = t ? PMS_OK : pms_fail(PMS_ENOMEM, "out of memory");
    for (size_t lineno = 1; !rc && fgets(line, sizeof line, f); lineno++) {
        unsigned long long start, end;
        char name[32], extra;
        char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\0') continue;
        if (sscanf(p, "%llu %llu %31s %c", &start, &end, name, &extra) != 3 || end < start) {
            rc = pms_fail(PMS_EFORMAT, "%s: line %zu: expected \"start_ns end_ns label\" with start <= end", path,
                          lineno);
            break;
        }
        int label = label_of(t, name);
        if (label < 0 || pms_grow(&t->spans, &t->cap, t->n + 1, sizeof *t->spans)) {
            rc = pms_fail(PMS_ENOMEM, "out of memory");
            break;
        }
        t->spans[t->n++] = (span){start, end, label};
    }
    fclose(f);
    if (!rc && t->n == 0) rc = pms_fail(PMS_EFORMAT, "%s: no schedule lines", path);
    if (rc) {
        pms_phase_truth_free(t);
        return rc;
    }
    *out = t;
    return PMS_OK;
}

int pms_phase_truth_label(const pms_phase_truth *t, uint64_t start, uint64_t end)
{
    /* Overlap of [start, end) with each label; the spans are few (one per phase instance). */
    uint64_t best = 0;
    int label = -1;
    for (size_t l = 0; l < t->nnames; l++) {
        uint64_t overlap = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (t->spans[i].label != (int)l) continue;
            uint64_t a = start > t->spans[i].start ? start : t->spans[i].start;
            uint64_t b = end < t->spans[i].end ? end : t->spans[i].end;
            if (b > a) overlap += b - a;
        }
        if (overlap > best) best = overlap, label = (int)l;
    }
    return label;
}

const char *pms_phase_truth_name(const pms_phase_truth *t, int label)
{
    return label >= 0 && (size_t)label < t->nnames ? t->names[label] : "-";
}

int pms_phase_truth_nlabels(const pms_phase_truth *t) { return (int)t->nnames; }
