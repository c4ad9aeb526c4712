/* `pmuscope record --olr` (see olr_live.h). The share of run time is the paper's measure:
 * time stamps taken around the regression of every sample, summed, over the whole run. */
#include "cli/olr_live.h"
#include "cli/cli.h"
#include "olr/columns.h"
#include "pmuscope/olr_series.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct olr_live {
    olr_live_config cfg;
    const pms_perfdata_attr *attrs;
    size_t nattrs;
    char *path;
    FILE *csv;
    olr_columns cols;
    olr_pending pending;             /* samples of the last two rounds, put in time order */
    uint64_t round_max, prev_round_max;
    int chosen, failed;
    char *failure;
    uint32_t tid;
    uint64_t *vals, *row;
    pms_read_value vbuf[64];
    pms_olr *olr;
    uint64_t samples, skipped;
    double seconds; /* in the regression */
};

int olr_live_parse(const char *arg, olr_live_config *cfg)
{
    cfg->enabled = 1;
    cfg->eps = 0;
    if (!arg || strcmp(arg, "wm") == 0) {
        cfg->method = PMS_OLR_WM;
        return 0;
    }
    if (strncmp(arg, "opt", 3) != 0 || (arg[3] && arg[3] != ':')) return -1;
    cfg->method = PMS_OLR_OPT;
    return arg[3] == ':' && (!cli_parse_double(arg + 4, &cfg->eps) || cfg->eps < 0) ? -1 : 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int write_segment(const pms_olr_segment *s, void *ctx)
{
    olr_live *l = ctx;
    pms_olr_write_segment(l->csv, l->cols.names[s->counter], s);
    return 0;
}

int olr_live_open(olr_live **out, const olr_live_config *cfg, const char *perfdata_path,
                  const pms_perfdata_attr *attrs, size_t nattrs)
{
    olr_live *l = calloc(1, sizeof *l);
    if (!l) return cli_error("out of memory");
    l->cfg = *cfg;
    l->attrs = attrs;
    l->nattrs = nattrs;
    if (cfg->path) l->path = strdup(cfg->path);
    else if (asprintf(&l->path, "%s.olr.csv", perfdata_path) < 0) l->path = NULL;
    if (!l->path || !(l->csv = cli_open_output(l->path))) {
        free(l->path);
        free(l);
        return CLI_FAIL;
    }
    pms_olr_write_segment_header(l->csv);
    *out = l;
    return 0;
}

static const pms_perfdata_attr *attr_of_id(uint64_t id, void *ctx)
{
    olr_live *l = ctx;
    for (size_t i = 0; i < l->nattrs; i++)
        for (size_t k = 0; k < l->attrs[i].nids; k++)
            if (l->attrs[i].ids[k] == id) return &l->attrs[i];
    return NULL;
}

static int start(olr_live *l, const pms_sample *smp)
{
    int rc = olr_columns_choose(&l->cols, smp, NULL, NULL, attr_of_id, l, "record --olr");
    if (rc) return rc;
    l->chosen = 1;
    l->tid = smp->tid;
    olr_pending_init(&l->pending, l->cols.k);
    l->vals = malloc((1 + l->cols.k) * sizeof *l->vals);
    l->row = malloc(l->cols.k * sizeof *l->row);
    if (!l->vals || !l->row) return pms_fail(PMS_ENOMEM, "out of memory");
    pms_olr_options opt;
    pms_olr_options_init(&opt);
    opt.method = l->cfg.method;
    opt.ncounters = l->cols.k;
    pms_olr_counter_options *c = calloc(l->cols.k, sizeof *c);
    if (!c) return pms_fail(PMS_ENOMEM, "out of memory");
    for (size_t j = 0; j < l->cols.k; j++) {
        pms_olr_counter_options_init(&c[j]);
        c[j].eps = l->cfg.eps;
    }
    opt.counters = c;
    rc = pms_olr_create(&l->olr, &opt, write_segment, l);
    free(c);
    return rc;
}

static void stop(olr_live *l)
{
    l->failed = 1;
    l->failure = strdup(pms_strerror());
}

void olr_live_record(olr_live *l, const struct perf_event_header *h)
{
    if (l->failed || h->type != PERF_RECORD_SAMPLE) return;
    double t0 = now();
    pms_sample smp;
    int rc = pms_sample_parse(h, l->attrs, l->nattrs, &smp, l->vbuf, 64);
    if (rc == 0 && !l->chosen) rc = start(l, &smp);
    if (rc == 0) {
        if (smp.tid == l->tid && olr_columns_extract(&l->cols, &smp, l->vals)) {
            rc = olr_pending_add(&l->pending, smp.time, smp.id, l->vals);
            if (smp.time > l->round_max) l->round_max = smp.time;
        } else {
            l->skipped++;
        }
    }
    if (rc) stop(l);
    l->seconds += now() - t0;
}

/* In time order: the regression of one sample. */
static int fit_row(uint64_t group, const uint64_t *vals, void *ctx)
{
    olr_live *l = ctx;
    uint64_t x;
    int rc = olr_columns_accumulate(&l->cols, group, vals, &x, l->row);
    if (rc == 0) rc = pms_olr_push(l->olr, x, l->row);
    l->samples += rc == 0;
    return rc;
}

void olr_live_round(olr_live *l)
{
    if (l->failed || !l->chosen) return;
    double t0 = now();
    /* As perf's FINISHED_ROUND: every buffer has been drained since the previous round
     * ended, so nothing older than that round's newest sample can still arrive. */
    if (olr_pending_flush(&l->pending, l->prev_round_max, fit_row, l)) stop(l);
    l->prev_round_max = l->round_max;
    l->seconds += now() - t0;
}

int olr_live_keeps(const olr_live *l, const struct perf_event_header *h)
{
    return !(l->cfg.instead && h->type == PERF_RECORD_SAMPLE && !l->failed);
}

static void print_summary(const olr_live *l, double run_seconds, FILE *out)
{
    fprintf(out, "[ pmuscope record: olr %s: %llu samples of thread %u fitted (%llu others skipped), segments in %s ]\n",
            pms_olr_method_name(l->cfg.method), (unsigned long long)l->samples, l->tid,
            (unsigned long long)l->skipped, l->path);
    for (size_t j = 0; l->olr && j < l->cols.k; j++) {
        pms_olr_summary s;
        if (pms_olr_get_summary(l->olr, j, &s)) continue;
        fprintf(out, "[ pmuscope record: olr %s: %llu segments, reduction %.1f, max error %.4g, MNESD %.3g ]\n",
                l->cols.names[j], (unsigned long long)s.segments, s.reduction, s.max_abs_error, s.mnesd);
    }
    fprintf(out, "[ pmuscope record: olr: %.3f ms in the regression, %.3f%% of the %.3f s run ]\n", 1e3 * l->seconds,
            run_seconds > 0 ? 100 * l->seconds / run_seconds : 0.0, run_seconds);
}

int olr_live_close(olr_live *l, double run_seconds, FILE *out)
{
    int rc = 0;
    double t0 = now();
    if (out && l->olr && !l->failed &&
        (olr_pending_flush(&l->pending, UINT64_MAX, fit_row, l) || pms_olr_finish(l->olr)))
        stop(l);
    l->seconds += now() - t0;
    cli_close_output(l->csv);
    if (!out) {
        remove(l->path);
    } else {
        if (l->failed) {
            cli_warn("record --olr: the regression stopped: %s", l->failure ? l->failure : "?");
            rc = CLI_FAIL;
        } else if (!l->olr) {
            cli_warn("record --olr: no samples to fit");
            rc = CLI_FAIL;
        }
        print_summary(l, run_seconds, out);
    }
    pms_olr_destroy(l->olr);
    olr_columns_free(&l->cols);
    olr_pending_free(&l->pending);
    free(l->vals);
    free(l->row);
    free(l->failure);
    free(l->path);
    free(l);
    return rc;
}
