/* Sampled hotspots against the truth: S, R and B for the measures of Wu & Mencer. */
#include "pmuscope/hotspot.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_location(const void *a, const void *b)
{
    const pms_hotspot_row *x = a, *y = b;
    if (x->object != y->object)
        return x->object < y->object ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset ? 1 : 0;
}

static int cmp_sampled_desc(const void *a, const void *b)
{
    const pms_hotspot_row *x = a, *y = b;
    if (x->sampled != y->sampled)
        return x->sampled < y->sampled ? 1 : -1;
    return cmp_location(a, b);
}

/* Samples per file the truth does not know, the most first (r->outside_files). */
static void count_outside(pms_hotspot_result *r, const pms_hotspot_sample *s)
{
    const char *path = s->path ? s->path : "?", *process = s->process ? s->process : "";
    size_t cap = sizeof r->outside_files / sizeof *r->outside_files, i = 0;
    while (i < r->noutside_files && strcmp(r->outside_files[i].path, path))
        i++;
    if (i == r->noutside_files) {
        if (i == cap && r->outside_files[cap - 1].samples >= s->count)
            return; /* not among the largest */
        i = i == cap ? cap - 1 : r->noutside_files++;
        r->outside_files[i] = (pms_hotspot_outside_file){.samples = 0};
        snprintf(r->outside_files[i].path, sizeof r->outside_files[i].path, "%s", path);
        snprintf(r->outside_files[i].process, sizeof r->outside_files[i].process, "%s", process);
    }
    r->outside_files[i].samples += s->count;
    for (; i > 0 && r->outside_files[i].samples > r->outside_files[i - 1].samples; i--) {
        pms_hotspot_outside_file tmp = r->outside_files[i];
        r->outside_files[i] = r->outside_files[i - 1];
        r->outside_files[i - 1] = tmp;
    }
}

/* The truth object of a sample: of its own process's image, else (a process name the
 * truth does not have: a thread that renamed itself) the first image that ran the file. */
static long find_object(const pms_hotspot_truth *t, const pms_hotspot_sample *s, pms_hotspot_result *r)
{
    long o = pms_hotspot_truth_find_process_object(t, s->process, s->path, NULL);
    if (o < 0 && s->build_id)
        o = pms_hotspot_truth_find_process_object(t, s->process, NULL, s->build_id);
    if (o >= 0 || !s->process)
        return o;
    o = pms_hotspot_truth_find_process_object(t, NULL, s->path, NULL);
    if (o < 0 && s->build_id)
        o = pms_hotspot_truth_find_process_object(t, NULL, NULL, s->build_id);
    if (o >= 0)
        r->other_process_samples += s->count;
    return o;
}

/* Places the samples in truth objects; fails on a rebuilt binary. */
static int place_samples(const pms_hotspot_truth *t, const pms_hotspot_sample *s, size_t n, pms_hotspot_result *r)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += s[i].count;
        long o = pms_hotspot_truth_find_object(t, s[i].path, NULL);
        if (o >= 0 && s[i].build_id && s[i].build_id[0] &&
            strcmp(s[i].build_id, pms_hotspot_truth_object_build_id(t, (size_t)o)) != 0)
            return pms__fail(PMS_EINVAL, "the recording sampled %s with build-id %s, but the truth was recorded on "
                            "build-id %s: a truth from a different binary", s[i].path, s[i].build_id,
                            pms_hotspot_truth_object_build_id(t, (size_t)o));
        if ((o = find_object(t, &s[i], r)) < 0) {
            r->outside_samples += s[i].count;
            count_outside(r, &s[i]);
            continue;
        }
        r->rows[r->nrows++] = (pms_hotspot_row){(size_t)o, s[i].offset, s[i].count, {0, 0, 0, ""}};
    }
    if (total == 0)
        return pms__fail(PMS_EINVAL, "no sample to compare with the truth");
    return PMS_OK;
}

int pms_hotspot_check_outside(const pms_hotspot_truth *t, const pms_hotspot_result *r)
{
    uint64_t total = r->outside_samples + r->measures.ns;
    if ((double)r->outside_samples <= PMS_HOTSPOT_OUTSIDE_LIMIT * (double)total)
        return PMS_OK;
    const pms_hotspot_outside_file *worst = r->noutside_files ? &r->outside_files[0] : NULL;
    return pms__fail(PMS_EINVAL, "%llu of %llu samples fall in files that valgrind never ran (%llu in %s): "
                    "the truth (of \"%s\") is from a different binary or command",
                    (unsigned long long)r->outside_samples, (unsigned long long)total,
                    (unsigned long long)(worst ? worst->samples : 0), worst ? worst->path : "?",
                    pms_hotspot_truth_command(t));
}

static void merge_rows(pms_hotspot_result *r)
{
    if (r->nrows == 0)
        return;
    qsort(r->rows, r->nrows, sizeof *r->rows, cmp_location);
    size_t w = 0;
    for (size_t i = 1; i < r->nrows; i++) {
        if (cmp_location(&r->rows[w], &r->rows[i]) == 0)
            r->rows[w].sampled += r->rows[i].sampled;
        else
            r->rows[++w] = r->rows[i];
    }
    r->nrows = w + 1;
}

/* Top-N over every executed instruction and every sampled IP (rows sorted by location). */
static int top_n(const pms_hotspot_truth *t, pms_hotspot_result *r)
{
    size_t ni = pms_hotspot_truth_ninstructions(t), cap = ni + r->nrows, k = 0, j = 0;
    uint64_t *sampled = calloc(cap ? cap : 1, sizeof *sampled), *executed = calloc(cap ? cap : 1, sizeof *executed);
    if (!sampled || !executed) {
        free(sampled);
        free(executed);
        return pms__fail(PMS_ENOMEM, "out of memory for %zu instructions", cap);
    }
    for (size_t i = 0; i < ni; i++, k++) {
        pms_hotspot_row key = {0};
        uint64_t count;
        pms_hotspot_truth_instruction(t, i, &key.object, &key.offset, &count);
        while (j < r->nrows && cmp_location(&r->rows[j], &key) < 0)
            sampled[k++] = r->rows[j++].sampled; /* sampled but never executed under valgrind: executed 0 */
        executed[k] = count; /* after those: it was written at the slot of the first of them */
        if (j < r->nrows && cmp_location(&r->rows[j], &key) == 0)
            sampled[k] = r->rows[j++].sampled;
    }
    while (j < r->nrows)
        sampled[k++] = r->rows[j++].sampled;
    int rc = pms_hotspot_top_n(sampled, executed, k, r->top_n, &r->top_precision, &r->top_recall);
    free(sampled);
    free(executed);
    return rc;
}

static int measure(const pms_hotspot_truth *t, pms_hotspot_result *r)
{
    size_t nb;
    const uint64_t *blocks = pms_hotspot_truth_block_counts(t, &nb);
    pms_hotspot_ip *ips = malloc(r->nrows * sizeof *ips);
    /* B plus each IP's block count: a count already in B changes no level; one that is
     * not (an IP that never ran under valgrind: 0) ranks where it belongs. */
    uint64_t *all = malloc((nb + r->nrows) * sizeof *all);
    if (!ips || !all) {
        free(ips);
        free(all);
        return pms__fail(PMS_ENOMEM, "out of memory for %zu IPs", r->nrows);
    }
    memcpy(all, blocks, nb * sizeof *all);
    for (size_t i = 0; i < r->nrows; i++) {
        ips[i] = (pms_hotspot_ip){r->rows[i].sampled, r->rows[i].fact.executed, r->rows[i].fact.block_count};
        all[nb + i] = r->rows[i].fact.block_count;
    }
    int rc = pms_hotspot_measure(ips, r->nrows, pms_hotspot_truth_instructions(t), all, nb + r->nrows, &r->measures);
    free(ips);
    free(all);
    return rc;
}

int pms_hotspot_evaluate(const pms_hotspot_truth *t, const pms_hotspot_sample *samples, size_t n, size_t top,
                         pms_hotspot_result *out)
{
    int rc = pms_hotspot_measure_samples(t, samples, n, top, out);
    if (rc == PMS_OK && (rc = pms_hotspot_check_outside(t, out)) < 0)
        pms_hotspot_result_free(out);
    return rc;
}

int pms_hotspot_measure_samples(const pms_hotspot_truth *t, const pms_hotspot_sample *samples, size_t n, size_t top,
                                pms_hotspot_result *out)
{
    memset(out, 0, sizeof *out);
    out->top_n = top;
    out->rows = malloc((n ? n : 1) * sizeof *out->rows);
    if (!out->rows)
        return pms__fail(PMS_ENOMEM, "out of memory for %zu samples", n);
    int rc = place_samples(t, samples, n, out);
    if (rc == PMS_OK && out->nrows == 0)
        rc = pms__fail(PMS_EINVAL, "none of the %llu samples falls in a file that valgrind ran (%llu in %s): the truth "
                       "(of \"%s\") is from a different binary or command", (unsigned long long)out->outside_samples,
                       (unsigned long long)out->outside_files[0].samples, out->outside_files[0].path,
                       pms_hotspot_truth_command(t));
    if (rc == PMS_OK) {
        merge_rows(out);
        for (size_t i = 0; i < out->nrows; i++) {
            pms_hotspot_truth_lookup(t, out->rows[i].object, out->rows[i].offset, &out->rows[i].fact);
            if (out->rows[i].fact.executed == 0)
                out->unexecuted_samples += out->rows[i].sampled;
        }
        rc = measure(t, out);
    }
    if (rc == PMS_OK && top > 0)
        rc = top_n(t, out);
    if (rc < 0) {
        pms_hotspot_result_free(out);
        return rc;
    }
    qsort(out->rows, out->nrows, sizeof *out->rows, cmp_sampled_desc);
    return PMS_OK;
}

void pms_hotspot_result_free(pms_hotspot_result *r)
{
    free(r->rows);
    r->rows = NULL;
    r->nrows = 0;
}
