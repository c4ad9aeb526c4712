/* The text summary of a phase analysis (timeline, counts, quality against a known schedule,
 * predictors against their baselines), and what it shares with the other outputs. */
#include "phase/report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One character per phase id: 1-9, a-z, A-Z, '+' beyond; '.' for the transition phase. */
static char phase_char(int id)
{
    static const char digits[] = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if (id == PMS_PHASE_TRANSITION) return '.';
    if (id < 0) return ' ';
    return (size_t)id <= sizeof digits - 1 ? digits[id - 1] : '+';
}

static size_t nthreads(const pms_phase_run *r) { return r->threads ? pms_phase_threads_count(r->threads) : 0; }

/* Position of thread tid among the run's threads (0 when not found). */
static int thread_index(const pms_phase_run *r, pid_t tid)
{
    for (size_t i = 0; i < nthreads(r); i++) {
        pid_t t;
        pms_phase_threads_engine(r->threads, i, &t);
        if (t == tid) return (int)i;
    }
    return 0;
}

int pms__phase_row_prediction(const pms_phase_run *r, size_t i, int k)
{
    const pms_phase_event *ev = &r->rows[i].ev;
    const pms_phase_engine *e = r->threads ? pms_phase_threads_find(r->threads, ev->tid) : NULL;
    size_t n;
    const int *p = e ? pms_phase_engine_predictions(e, (pms_predictor_kind)k, &n) : NULL;
    return p && ev->index < n ? p[ev->index] : -1;
}

double pms__phase_truth_ari(const pms_phase_run *r, pid_t tid, size_t *used)
{
    int *a = malloc((r->n ? r->n : 1) * sizeof *a), *b = malloc((r->n ? r->n : 1) * sizeof *b);
    int shared = r->threads && pms_phase_threads_config(r->threads)->shared_table;
    int stride = 1;
    for (size_t i = 0; i < r->n; i++)
        if (r->rows[i].ev.phase + 1 > stride) stride = r->rows[i].ev.phase + 1;
    size_t m = 0;
    for (size_t i = 0; a && b && i < r->n; i++) {
        const pms_phase_row *row = &r->rows[i];
        if (row->truth < 0 || (tid && row->ev.tid != tid)) continue;
        /* without a shared table, thread 2's phase 1 is not thread 1's, and the known
         * labels are taken per thread too: each thread's phases against its own schedule */
        int own = shared || tid ? 0 : thread_index(r, row->ev.tid);
        a[m] = row->ev.phase + own * stride;
        b[m++] = row->truth + own * (int)(r->ntruth + 1);
    }
    double ari = a && b ? pms_adjusted_rand_index(a, b, m) : NAN;
    free(a);
    free(b);
    *used = m;
    return ari;
}

double pms__phase_truth_last_value(const pms_phase_run *r)
{
    size_t right = 0, n = 0;
    for (size_t i = 0; i < r->n; i++) {
        size_t prev = i; /* the same thread's previous row */
        while (prev-- > 0 && r->rows[prev].ev.tid != r->rows[i].ev.tid) {}
        if (prev < i && r->rows[i].truth >= 0 && r->rows[prev].truth >= 0) {
            n++;
            right += r->rows[i].truth == r->rows[prev].truth;
        }
    }
    return n ? (double)right / (double)n : NAN;
}

const char *pms__phase_short_phases_advice(const pms_phase_run *r, const pms_phase_summary *s, char *buf, size_t size)
{
    if (!r->n || r->note) return NULL; /* the input's own note says what is wrong */
    const pms_phase_event *first = &r->rows[0].ev; /* a full interval: the last may be partial */
    uint64_t samples = first->samples, isize = first->size;
    int n;
    unsigned f = 4; /* how many times shorter the intervals should be */
    if (r->truth_span_samples > 0 && r->truth_span_samples < (double)samples) {
        /* a phase instance two intervals long at least */
        for (f = 2; f < 1024 && r->truth_span_samples * f < 2.0 * (double)samples; f *= 2) {}
        /* the known schedule says it: its phase instances hold fewer samples than an interval */
        n = snprintf(buf, size,
                     "the phases are shorter than an interval (the known schedule's phase instances hold a median "
                     "of %.1f samples, an interval %llu): ",
                     r->truth_span_samples, (unsigned long long)samples);
    } else if (s->intervals >= 6 && (s->mean_run_length < 2 || s->transition_share > 0.25)) {
        /* without one: a phase shorter than an interval makes every interval a mixture, so the
         * phase changes at (almost) every interval, or one-off mixtures stay in the transition
         * phase */
        n = snprintf(buf, size,
                     "the phases look shorter than an interval (a phase run lasts %.2f intervals on average, "
                     "%.0f%% of them are in the transition phase): ",
                     s->mean_run_length, 100 * s->transition_share);
    } else {
        return NULL;
    }
    if (n < 0 || (size_t)n >= size) return buf;
    if (r->samples_name) /* exact block vectors: the file's intervals are what they are */
        snprintf(buf + n, size - (size_t)n, "vectors of fewer instructions resolve them");
    else if (!strcmp(r->size_unit, "samples") || !strcmp(r->size_unit, "count"))
        snprintf(buf + n, size - (size_t)n, "a recording at a %u times shorter period resolves them, with as many "
                 "samples per interval", f);
    else
        snprintf(buf + n, size - (size_t)n,
                 "intervals %u times shorter resolve them, with as many samples: --interval-size %llu -c %llu "
                 "(%u times the samples: about %u times the overhead)",
                 f, (unsigned long long)(isize / f ? isize / f : 1),
                 (unsigned long long)(samples && isize / samples / f ? isize / samples / f : 1), f, f);
    return buf;
}

void pms__phase_print_num(FILE *out, int width, const char *fmt, double v)
{
    if (!isfinite(v)) fprintf(out, " %*s", width, "-");
    else {
        fputc(' ', out);
        fprintf(out, fmt, width, v);
    }
}

/* A percentage, or "-" and why in the width of the number (and why after the line). */
static void print_percent(FILE *out, int width, double v)
{
    if (isfinite(v)) fprintf(out, "%*.1f%%", width, 100 * v);
    else fprintf(out, "%*s ", width, "-");
}

static void print_timelines(const pms_phase_run *r, FILE *out)
{
    size_t threads = nthreads(r);
    for (size_t t = 0; t < (threads > 1 ? threads : 1); t++) {
        pid_t tid = 0;
        if (threads > 1) pms_phase_threads_engine(r->threads, t, &tid);
        fprintf(out, threads > 1 ? "timeline of thread %d: " : "timeline: ", (int)tid);
        for (size_t i = 0; i < r->n; i++)
            if (threads <= 1 || r->rows[i].ev.tid == tid) fputc(phase_char(r->rows[i].ev.phase), out);
        fputc('\n', out);
    }
    fprintf(out, "          (one character per interval; '.' = transition phase)\n\n");
}

/* One line per thread where there are several. */
static void print_threads(const pms_phase_run *r, FILE *out)
{
    size_t threads = nthreads(r);
    if (threads < 2) return;
    fprintf(out, "  threads             %zu, %s\n", threads,
            pms_phase_threads_config(r->threads)->shared_table ? "sharing one phase table"
                                                                 : "each with a phase table of its own");
    for (size_t t = 0; t < threads; t++) {
        pid_t tid;
        pms_phase_summary s;
        pms_phase_engine_summary(pms_phase_threads_engine(r->threads, t, &tid), &s);
        fprintf(out, "    thread %-8d %zu intervals, %d phases, transition share %.1f%%", (int)tid, s.intervals,
                s.phases, 100 * s.transition_share);
        size_t m;
        double ari = r->has_truth ? pms__phase_truth_ari(r, tid, &m) : NAN;
        if (isfinite(ari)) fprintf(out, ", adjusted Rand index %.3f (%zu intervals)", ari, m);
        fputc('\n', out);
    }
}

static void print_predictors(const pms_phase_run *r, const pms_phase_summary *s, FILE *out)
{
    fprintf(out, "\n  %-12s %9s %14s %13s\n", "predictor", "accuracy", "false changes", "metric error");
    for (int k = 0; k < PMS_PREDICT_COUNT; k++) {
        fprintf(out, "  %-12s", pms_predictor_name((pms_predictor_kind)k));
        print_percent(out, 9, s->accuracy[k]);
        print_percent(out, 14, s->false_change_rate[k]);
        pms__phase_print_num(out, 13, "%*.4g", s->metric_error[k]);
        int worse = s->metric_error[k] > s->metric_error_baseline;
        fprintf(out, "%s%s\n", k == (int)r->cfg->predictor ? "  (reported in events)" : "",
                worse ? "  (metric worse than the program mean)" : "");
    }
    if (isnan(s->accuracy[0])) fprintf(out, "  (accuracy and false changes: " WHY_NO_PREDICTION ")\n");
    if (r->has_truth) {
        double base = pms__phase_truth_last_value(r);
        fprintf(out, "  %-12s", "baseline");
        print_percent(out, 9, base);
        fprintf(out, "  (last value on the known schedule's labels: %s)\n",
                isfinite(base) ? "what prediction must beat" : WHY_NO_PAIRS);
    }
    fprintf(out, "  %-12s %9s %14s", "program mean", "", "");
    pms__phase_print_num(out, 13, "%*.4g", s->metric_error_baseline);
    fprintf(out, "  (the mean %s so far as every interval's guess: what the metric error must beat)\n",
            r->metric_name);
    fprintf(out, "  (metric error: mean |%s of the predicted phase so far - the interval's|)\n", r->metric_name);
}

void pms_phase_print_summary(const pms_phase_run *r, FILE *out)
{
    pms_phase_summary s;
    pms_phase_threads_summary(r->threads, &s);
    print_timelines(r, out);
    fprintf(out, "summary of %s\n", r->source);
    fprintf(out, "  intervals           %zu\n", s.intervals);
    fprintf(out, "  phases              %d\n", s.phases);
    fprintf(out, "  seed                %llu (of the signatures' random projection)\n",
            (unsigned long long)r->cfg->seed);
    if (s.intervals) {
        fprintf(out, "  transition share    %.1f%%\n", 100 * s.transition_share);
        fprintf(out, "  mean run length     %.2f intervals\n", s.mean_run_length);
    } else {
        fprintf(out, "  transition share    - (" WHY_NO_INTERVALS ")\n");
        fprintf(out, "  mean run length     - (" WHY_NO_INTERVALS ")\n");
    }
    print_threads(r, out);
    if (r->metric_about) fprintf(out, "  metric              %s: %s\n", r->metric_name, r->metric_about);
    if (!isfinite(s.intra_phase_cov) || !isfinite(s.whole_cov))
        fprintf(out, "  intra-phase CoV     - (no per-interval %s)\n", r->metric_name);
    else
        fprintf(out, "  intra-phase CoV     %.2f%% of %s (whole run %.2f%%)\n", 100 * s.intra_phase_cov,
                r->metric_name, 100 * s.whole_cov);
    if (r->has_truth) {
        size_t m;
        double ari = pms__phase_truth_ari(r, 0, &m);
        if (isfinite(ari))
            fprintf(out, "  adjusted Rand index %.3f against the known schedule (%zu intervals)\n", ari, m);
        else
            fprintf(out, "  adjusted Rand index - (" WHY_NO_LABELS ": %zu)\n", m);
    }
    char advice[512];
    if (r->note) fprintf(out, "  note: %s\n", r->note);
    if (pms__phase_short_phases_advice(r, &s, advice, sizeof advice)) fprintf(out, "  note: %s\n", advice);
    print_predictors(r, &s, out);
}
