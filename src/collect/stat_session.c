/* A whole stat measurement (pmuscope/stat_session.h): the runs, each CPU's values of
 * perf stat -A or each cgroup's of perf stat -G (whole runs and intervals), and the mean over
 * the runs. */
#include "pmuscope/stat_session.h"

#include "util/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct session {
    const pms_stat_config *cfg;
    pms_stat_value *values;  /* nevents: the interval's or the run's values */
    pms_stat_value *per_cpu; /* per_cpu: units x nevents values, each event's CPUs together;
                                cgroups: ncgroups x nevents values, cgroup by cgroup */
    size_t nper_cpu;
    pms_counter *counter;    /* the run's */
    pms_count *unit_prev, *unit_now; /* -A -I: every unit's counts at the last interval */
} session;

static void to_values(session *s, pms_stat_value *out, const pms_count *counts)
{
    for (size_t i = 0; i < s->cfg->nevents; i++) pms_stat_value_set(&out[i], &s->cfg->events[i], &counts[i]);
}

static int size_split(session *s, size_t m)
{
    if (s->nper_cpu != m) {
        free(s->per_cpu);
        s->nper_cpu = 0;
        if (!(s->per_cpu = calloc(m ? m : 1, sizeof *s->per_cpu))) return pms__fail(PMS_ENOMEM, "out of memory");
        s->nper_cpu = m;
    }
    return PMS_OK;
}

/* One value per event and unit from units' counts (units[u * n + i]), event by event. */
static int set_per_cpu(session *s, const pms_count *units)
{
    size_t nu = pms_counter_units(s->counter), n = s->cfg->nevents;
    int rc = size_split(s, nu * n);
    if (rc) return rc;
    for (size_t i = 0; i < n; i++)
        for (size_t u = 0; u < nu; u++) {
            pms_stat_value *v = &s->per_cpu[i * nu + u];
            pms_stat_value_set(v, &s->cfg->events[i], &units[u * n + i]);
            v->per_cpu = true;
            v->cpu = pms_counter_unit_cpu(s->counter, u);
        }
    return PMS_OK;
}

/* One value per cgroup and event, cgroup by cgroup as perf stat -G prints them: the sums of
 * the cgroup's CPUs (units[u * n + i]), scaled as one count. */
static int set_per_cgroup(session *s, const pms_count *units)
{
    size_t nu = pms_counter_units(s->counter), n = s->cfg->nevents, ng = pms_counter_cgroups(s->counter);
    int rc = size_split(s, ng * n);
    if (rc) return rc;
    for (size_t g = 0; g < ng; g++)
        for (size_t i = 0; i < n; i++) {
            pms_count sum = {0};
            bool supported = false;
            for (size_t u = 0; u < nu; u++) {
                if (pms_counter_unit_cgroup(s->counter, u) != (int)g) continue;
                const pms_count *c = &units[u * n + i];
                sum.raw += c->raw, sum.enabled += c->enabled, sum.running += c->running;
                supported = supported || c->state != PMS_COUNT_NOT_SUPPORTED;
            }
            sum.state = supported ? PMS_COUNT_COUNTED : PMS_COUNT_NOT_SUPPORTED;
            pms_count_scale(&sum);
            pms_stat_value *v = &s->per_cpu[g * n + i];
            pms_stat_value_set(v, &s->cfg->events[i], &sum);
            snprintf(v->cgroup, sizeof v->cgroup, "%s", pms_counter_cgroup_name(s->counter, g));
        }
    return PMS_OK;
}

static bool split(const pms_stat_config *cfg) { return cfg->per_cpu || cfg->ncgroups; }

/* Each CPU's (or cgroup's) values: with since_last, of the counts since the last interval (the
 * run's first: since the units opened), else of the counts since the units opened. */
static int read_per_cpu(session *s, bool since_last)
{
    size_t m = pms_counter_units(s->counter) * s->cfg->nevents;
    if (since_last && !s->unit_prev) {
        s->unit_prev = calloc(m ? m : 1, sizeof *s->unit_prev);
        s->unit_now = calloc(m ? m : 1, sizeof *s->unit_now);
    }
    pms_count *units = calloc(m ? m : 1, sizeof *units);
    int rc = units && (!since_last || (s->unit_prev && s->unit_now)) ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) rc = pms_counter_read_units(s->counter, since_last ? s->unit_now : units);
    if (rc == PMS_OK && since_last) {
        pms_count_delta(s->unit_now, s->unit_prev, m, units);
        memcpy(s->unit_prev, s->unit_now, m * sizeof *units);
    }
    if (rc == PMS_OK) rc = s->cfg->ncgroups ? set_per_cgroup(s, units) : set_per_cpu(s, units);
    free(units);
    return rc;
}

static int on_interval(double t, const pms_count *delta, size_t n, void *ctx)
{
    session *s = ctx;
    to_values(s, s->values, delta);
    const pms_stat_value *v = s->values;
    if (split(s->cfg)) {
        int rc = read_per_cpu(s, true);
        if (rc) return rc;
        v = s->per_cpu;
        n = s->nper_cpu;
    }
    return s->cfg->on_interval ? s->cfg->on_interval(s->cfg->ctx, t, v, n) : 0;
}

static int on_spawn(void *ctx, pid_t pid)
{
    session *s = ctx;
    return s->cfg->on_spawn(s->cfg->ctx, pid);
}

static int measure_once(session *s, pms_count *totals, pms_measure_result *res)
{
    const pms_stat_config *cfg = s->cfg;
    int rc = pms_counter_create(cfg->events, cfg->nevents, PMS_COUNTER_SKIP_UNSUPPORTED, &s->counter);
    if (rc) return rc;
    if (cfg->ncgroups && (rc = pms_counter_set_cgroups(s->counter, cfg->cgroups, cfg->ncgroups)) != PMS_OK) {
        pms_counter_destroy(s->counter);
        s->counter = NULL;
        return rc;
    }
    pms_measure_opts mo = {.interval_ms = cfg->interval_ms, .on_interval = on_interval, .ctx = s, .stop = cfg->stop,
                           .on_spawn = cfg->on_spawn ? on_spawn : NULL};
    free(s->unit_prev), free(s->unit_now);
    s->unit_prev = s->unit_now = NULL; /* the units open as the run starts */
    char *const *argv = cfg->argv && cfg->argv[0] ? cfg->argv : NULL;
    rc = cfg->system_wide || cfg->ncgroups ? pms_measure_cpus(s->counter, cfg->cpus, argv, &mo, totals, res)
         : cfg->pid       ? pms_measure_pid(s->counter, cfg->pid, &mo, totals, res)
                          : pms_measure_command(s->counter, cfg->argv, &mo, totals, res);
    if (rc == PMS_OK && split(cfg)) rc = read_per_cpu(s, false);
    pms_counter_destroy(s->counter);
    s->counter = NULL;
    return rc;
}

/* The per-CPU values of run r kept at runs[r * per_run]. */
static int keep_per_cpu_run(pms_stat_value **runs, size_t *per_run, unsigned r, const session *s)
{
    if (r && *per_run != s->nper_cpu) return pms__fail(PMS_EIO, "the CPUs counted changed between runs");
    pms_stat_value *v = realloc(*runs, ((size_t)r + 1) * (s->nper_cpu ? s->nper_cpu : 1) * sizeof *v);
    if (!v) return pms__fail(PMS_ENOMEM, "out of memory");
    *runs = v;
    *per_run = s->nper_cpu;
    memcpy(v + (size_t)r * *per_run, s->per_cpu, *per_run * sizeof *v);
    return PMS_OK;
}

/* Each run's values (NaN where not counted) and wall time, for diffs of runs
 * (`stat --json` writes them). */
static int keep_runs(pms_stat_result *out, const pms_stat_value *runs, unsigned nruns, size_t n, const double *elapsed)
{
    out->run_values = malloc(((size_t)nruns * n + 1) * sizeof *out->run_values);
    out->run_elapsed_s = malloc(nruns * sizeof *out->run_elapsed_s);
    if (!out->run_values || !out->run_elapsed_s) return pms__fail(PMS_ENOMEM, "out of memory");
    for (size_t k = 0; k < (size_t)nruns * n; k++)
        out->run_values[k] = runs[k].state == PMS_COUNT_COUNTED ? runs[k].value : NAN;
    memcpy(out->run_elapsed_s, elapsed, nruns * sizeof *elapsed);
    return PMS_OK;
}

int pms_stat_measure(pms_stat_result *out, const pms_stat_config *cfg)
{
    memset(out, 0, sizeof *out);
    unsigned repeat = cfg->repeat ? cfg->repeat : 1;
    size_t n = cfg->nevents;
    session s = {.cfg = cfg, .values = calloc(n ? n : 1, sizeof *s.values)};
    pms_stat_value *runs = calloc((size_t)repeat * n + 1, sizeof *runs), *cpu_runs = NULL;
    pms_count *totals = calloc(n ? n : 1, sizeof *totals);
    double *elapsed = calloc(repeat, sizeof *elapsed), user = 0, sys = 0;
    size_t per_run = 0;
    unsigned done = 0;
    int rc = s.values && runs && totals && elapsed ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
    while (rc == PMS_OK && done < repeat && !(cfg->stop && *cfg->stop)) {
        pms_measure_result res = {0};
        if ((rc = measure_once(&s, totals, &res)) != PMS_OK) break;
        if (split(cfg) && (rc = keep_per_cpu_run(&cpu_runs, &per_run, done, &s)) != PMS_OK) break;
        to_values(&s, runs + (size_t)done * n, totals);
        elapsed[done++] = res.elapsed_s;
        user += res.user_s;
        sys += res.sys_s;
        if (cfg->on_run) cfg->on_run(cfg->ctx, done - 1, &res);
    }
    size_t nout = split(cfg) ? per_run : n;
    if (done > 0 && (out->values = calloc(nout ? nout : 1, sizeof *out->values)) == NULL) {
        rc = pms__fail(PMS_ENOMEM, "out of memory");
    } else if (done > 0) {
        int avg = split(cfg) ? pms_stat_average_runs(cpu_runs, done, per_run, out->values)
                               : pms_stat_average_runs(runs, done, n, out->values);
        if (avg) rc = avg;
        else if ((rc = keep_runs(out, split(cfg) ? cpu_runs : runs, done, nout, elapsed)) == PMS_OK) {
            out->runs = done;
            out->n = nout;
            pms_stat_mean_sem(elapsed, done, &out->elapsed_s, &out->elapsed_sem_s);
            out->user_s = user / done;
            out->sys_s = sys / done;
        }
    }
    free(s.values), free(s.per_cpu), free(s.unit_prev), free(s.unit_now);
    free(runs), free(cpu_runs), free(totals), free(elapsed);
    return rc;
}

void pms_stat_result_free(pms_stat_result *r)
{
    free(r->values);
    free(r->run_values);
    free(r->run_elapsed_s);
    r->values = NULL;
    r->run_values = r->run_elapsed_s = NULL;
    r->n = r->runs = 0;
}
