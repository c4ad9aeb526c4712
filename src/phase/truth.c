/* Known phase schedules (the `phases` workload's --trace), to score a labelling. */
#include "pmuscope/phase.h"
#include "io/count_parse.h"
#include "io/text_lines.h"
#include "util/error.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
    uint64_t start, end;
    int label;
    uint64_t tid; /* the thread that ran it; 0: not said (any thread) */
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
    if (pms__grow(&t->names, &t->names_cap, t->nnames + 1, sizeof *t->names)) return -1;
    snprintf(t->names[t->nnames], sizeof t->names[0], "%s", name);
    return (int)t->nnames++;
}

int pms_phase_truth_load(pms_phase_truth **out, const char *path)
{
    pms_lines r;
    int rc = pms__lines_open(&r, path, 0);
    if (rc) return rc;
    pms_phase_truth *t = calloc(1, sizeof *t);
    if (!t) rc = pms__fail(PMS_ENOMEM, "out of memory");
    char *line;
    size_t len;
    while (!rc && (rc = pms__lines_next(&r, &line, &len)) == 1) {
        rc = PMS_OK;
        char *p = line + strspn(line, " \t\r");
        if (*p == '#' || *p == '\0') continue;
        /* "start_ns end_ns label [tid]": two exact counts, a name and perhaps a thread id,
         * blank-separated. */
        char *field[5], *save = NULL;
        size_t nf = 0;
        for (char *tok = strtok_r(p, " \t\r", &save); tok && nf < 5; tok = strtok_r(NULL, " \t\r", &save)) field[nf++] = tok;
        uint64_t start = 0, end = 0, tid = 0;
        if ((nf != 3 && nf != 4) || pms__parse_count(field[0], strlen(field[0]), &start) ||
            pms__parse_count(field[1], strlen(field[1]), &end) || end < start || strlen(field[2]) >= 32 ||
            (nf == 4 && (pms__parse_count(field[3], strlen(field[3]), &tid) || tid == 0 || tid > INT32_MAX))) {
            rc = pms__fail(PMS_EFORMAT,
                          "%s: line %zu: expected \"start_ns end_ns label [tid]\": two counts with start <= end, a "
                          "label of at most 31 characters and perhaps a thread id",
                          path, r.line);
            break;
        }
        const char *name = field[2];
        int label = label_of(t, name);
        if (label < 0 || pms__grow(&t->spans, &t->cap, t->n + 1, sizeof *t->spans)) {
            rc = pms__fail(PMS_ENOMEM, "out of memory");
            break;
        }
        t->spans[t->n++] = (span){start, end, label, tid};
    }
    pms__lines_close(&r);
    if (!rc && t->n == 0) rc = pms__fail(PMS_EFORMAT, "%s: no schedule lines", path);
    if (rc) {
        pms_phase_truth_free(t);
        return rc;
    }
    *out = t;
    return PMS_OK;
}

int pms_phase_truth_label(const pms_phase_truth *t, uint64_t start, uint64_t end)
{
    return pms_phase_truth_thread_label(t, 0, start, end);
}

int pms_phase_truth_thread_label(const pms_phase_truth *t, pid_t tid, uint64_t start, uint64_t end)
{
    /* Overlap of [start, end) with each label; the spans are few (one per phase instance). */
    uint64_t best = 0;
    int label = -1;
    for (size_t l = 0; l < t->nnames; l++) {
        uint64_t overlap = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (t->spans[i].label != (int)l || (tid > 0 && t->spans[i].tid && t->spans[i].tid != (uint64_t)tid))
                continue;
            uint64_t a = start > t->spans[i].start ? start : t->spans[i].start;
            uint64_t b = end < t->spans[i].end ? end : t->spans[i].end;
            if (b > a) overlap += b - a;
        }
        if (overlap > best) best = overlap, label = (int)l;
    }
    return label;
}

int pms_phase_truth_label_at(const pms_phase_truth *t, pid_t tid, uint64_t time, size_t *at)
{
    for (size_t i = 0; i < t->n; i++) {
        const span *s = &t->spans[i];
        if ((tid <= 0 || !s->tid || s->tid == (uint64_t)tid) && time >= s->start && time < s->end) {
            if (at) *at = i;
            return s->label;
        }
    }
    return -1;
}

size_t pms_phase_truth_nspans(const pms_phase_truth *t) { return t->n; }

const char *pms_phase_truth_name(const pms_phase_truth *t, int label)
{
    return label >= 0 && (size_t)label < t->nnames ? t->names[label] : "-";
}

int pms_phase_truth_nlabels(const pms_phase_truth *t) { return (int)t->nnames; }
