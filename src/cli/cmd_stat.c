/* pmuscope stat: count events of a command or a running process, as perf stat does. */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/target.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* perf's default set, hardware events only where this machine has them. */
#define DEFAULT_SOFTWARE "task-clock,context-switches,cpu-migrations,page-faults"
#define DEFAULT_HARDWARE ",cycles,instructions,branches,branch-misses"

static void usage(FILE *out)
{
    fputs("usage: pmuscope stat [options] -- COMMAND [ARGS...]\n"
          "       pmuscope stat [options] -p PID\n"
          "       pmuscope stat -a [-C CPUS] [-A] [options] [-- COMMAND [ARGS...]]\n\n"
          "Count events of a command (from its exec) or of every thread of a running process\n"
          "(until it ends or Ctrl-C), and print them as perf stat does (on stderr unless -o).\n\n"
          "  -e, --event EVENTS     events, comma-separated, {a,b} for groups (perf's names, rNNNN,\n"
          "                         pmu/event=..,umask=../, libpfm4 names; see 'pmuscope list').\n"
          "                         Default: " DEFAULT_SOFTWARE "\n"
          "                         and, with a hardware PMU, cycles,instructions,branches,branch-misses\n"
          "  -p, --pid PID          attach to all threads of process PID\n"
          "  -a, --all-cpus         system-wide: every task of every CPU, while COMMAND runs (if\n"
          "                         given) or until Ctrl-C; needs perf_event_paranoid <= 0 or root\n"
          "  -C, --cpu CPUS         system-wide on these CPUs only (0-3,6), as perf stat -C\n"
          "  -A, --no-aggr          with -a or -C: each CPU's counts (CPU<n> column), not their sum\n"
          "                         (with -I per interval, with -r each CPU's mean over the runs)\n"
          "  -I, --interval-print MS  print the counts of every MS milliseconds\n"
          "  -x, --field-separator SEP  CSV in perf's columns: [time,]value,unit,event,[variance,]\n"
          "                         run time,running %,metric value,metric unit\n"
          "  -j, --json-output      perf's JSON lines: one object per event (and interval)\n"
          "  -o, --output FILE      write the results to FILE\n"
          "      --wide             CSV table: header time,<event>,..., one row per interval (or one\n"
          "                         for the whole run), on stdout unless -o\n"
          "  -r, --repeat N         run the command N times; mean and +- stddev of the mean, as perf\n"
          "      --fallback         let task-clock stand in for events this machine cannot count\n"
          "                         (the output names the substitute as task-clock(for EVENT))\n"
          "      --json[=FILE]      JSON, to FILE or instead of the text (on stdout unless -o)\n"
          "      --schedule=runs    more events than counters: run the command once per group of\n"
          "                         events that fits, with the anchor events in every run, and merge\n"
          "      --max-counters N   events per run besides the anchors (default: probed)\n"
          "      --anchor EVENTS    anchor events (default cycles,instructions; task-clock without PMU)\n"
          "      --sizes LIST       with --schedule=runs: run COMMAND once per size (1-10,50), the size\n"
          "                         appended as its last argument; writes the runs table\n"
          "                         run,size,<anchors>,<events> (CSV, stdout unless -o)\n"
          "  -h, --help             this help\n\n"
          "An event this machine cannot count is shown as <not supported> (a note says why),\n"
          "as perf stat shows it; with --schedule=runs it is an error.\n\n"
          "Exit status: the command's (128+N if killed by signal N); 1 if pmuscope cannot\n"
          "count (the message says why), 2 for a usage error.\n",
          out);
}

/* What one measurement prints as it goes (the -I lines). */
struct printer {
    const stat_opts *o;
    FILE *out;
    pms_json *json;
    const pms_event *events;
    size_t n;
    pms_stat_value *values;  /* n values in -e order */
    pms_stat_value *per_cpu; /* -A: n x CPUs values, each event's CPUs together, as perf prints them */
    size_t nper_cpu;
    /* -A -I: the run's counter and every unit's counts at the last interval */
    pms_counter *counter;
    pms_count *unit_prev, *unit_now;
    bool header_done;
};

/* -A: one value per event and unit from units' counts (out[u * n + i]), event by event as
 * perf stat -A prints them. */
static int set_per_cpu(struct printer *p, const pms_count *units)
{
    size_t nu = pms_counter_units(p->counter);
    if (p->nper_cpu != nu * p->n) {
        free(p->per_cpu);
        p->nper_cpu = 0;
        if (!(p->per_cpu = calloc(nu * p->n, sizeof *p->per_cpu))) return PMS_ENOMEM;
        p->nper_cpu = nu * p->n;
    }
    for (size_t i = 0; i < p->n; i++)
        for (size_t u = 0; u < nu; u++) {
            pms_stat_value *v = &p->per_cpu[i * nu + u];
            pms_stat_value_set(v, &p->events[i], &units[u * p->n + i]);
            v->per_cpu = true;
            v->cpu = pms_counter_unit_cpu(p->counter, u);
        }
    return PMS_OK;
}

/* -A -I: every unit's counts since the last interval into p->per_cpu. */
static int per_cpu_interval(struct printer *p)
{
    size_t m = pms_counter_units(p->counter) * p->n;
    if (!p->unit_prev) { /* the run's first interval: counts since the units opened */
        p->unit_prev = calloc(m ? m : 1, sizeof *p->unit_prev);
        p->unit_now = calloc(m ? m : 1, sizeof *p->unit_now);
    }
    pms_count *delta = calloc(m ? m : 1, sizeof *delta);
    int r = delta && p->unit_prev && p->unit_now ? pms_counter_read_units(p->counter, p->unit_now) : PMS_ENOMEM;
    if (r == PMS_OK) {
        pms_count_delta(p->unit_now, p->unit_prev, m, delta);
        memcpy(p->unit_prev, p->unit_now, m * sizeof *delta);
        r = set_per_cpu(p, delta);
    }
    free(delta);
    return r;
}

static void to_values(struct printer *p, const pms_count *counts)
{
    for (size_t i = 0; i < p->n; i++) pms_stat_value_set(&p->values[i], &p->events[i], &counts[i]);
}

static int on_interval(double t, const pms_count *delta, size_t n, void *ctx)
{
    struct printer *p = ctx;
    to_values(p, delta);
    const pms_stat_value *values = p->values;
    if (p->o->no_aggr) {
        int r = per_cpu_interval(p);
        if (r) return r; /* negative: measure_once says why */
        values = p->per_cpu;
        n = p->nper_cpu;
    }
    double step = p->o->interval_ms / 1000.0;
    if (p->json) {
        pms_json_object_begin(p->json);
        pms_json_kv_double(p->json, "time", t);
        pms_json_key(p->json, "counts");
        pms_stat_json_values(p->json, values, n, step);
        pms_json_object_end(p->json);
    }
    if (p->o->json) {
        /* JSON only */
    } else if (p->o->wide) {
        if (!p->header_done) pms_stat_wide_header(p->out, values, n);
        pms_stat_wide_row(p->out, t, values, n);
    } else if (p->o->sep) {
        pms_stat_print_csv(p->out, p->o->sep, t, step, 1, values, n);
    } else if (p->o->json_lines) {
        pms_stat_print_json_lines(p->out, t, step, 1, values, n);
    } else {
        pms_stat_print_plain_interval(p->out, t, step, values, n, !p->header_done);
    }
    p->header_done = true;
    fflush(p->out);
    if (p->json) fflush(p->json->out);
    return 0;
}

/* -A: every CPU's counts of the run. */
static int read_per_cpu(struct printer *p)
{
    size_t m = pms_counter_units(p->counter) * p->n;
    pms_count *units = calloc(m ? m : 1, sizeof *units);
    int r = units ? pms_counter_read_units(p->counter, units) : PMS_ENOMEM;
    if (r == PMS_OK) r = set_per_cpu(p, units);
    free(units);
    return r;
}

/* -A -r: the runs' per-CPU values (run r's at r x nper_cpu), averaged at the end into p->per_cpu. */
struct per_cpu_runs {
    pms_stat_value *v;
    size_t nruns, per_run;
};

static int keep_per_cpu_run(struct per_cpu_runs *k, const struct printer *p)
{
    if (k->nruns && k->per_run != p->nper_cpu) return cli_error("the CPUs counted changed between runs");
    pms_stat_value *v = realloc(k->v, (k->nruns + 1) * p->nper_cpu * sizeof *v);
    if (!v) return cli_error("out of memory");
    k->v = v;
    k->per_run = p->nper_cpu;
    memcpy(v + k->nruns++ * k->per_run, p->per_cpu, k->per_run * sizeof *v);
    return CLI_OK;
}

static int measure_once(const stat_opts *o, struct printer *p, pms_count *totals, pms_measure_result *res)
{
    pms_counter *c;
    if (pms_counter_create(p->events, p->n, PMS_COUNTER_SKIP_UNSUPPORTED, &c) != PMS_OK) return cli_lib_error();
    pms_measure_opts mo = {.interval_ms = o->interval_ms, .on_interval = on_interval, .ctx = p, .stop = &stat_stop};
    p->counter = c;
    free(p->unit_prev), free(p->unit_now);
    p->unit_prev = p->unit_now = NULL; /* the units open as the run starts */
    int r = o->system_wide ? pms_measure_cpus(c, o->cpus, o->argv[0] ? o->argv : NULL, &mo, totals, res)
            : o->pid       ? pms_measure_pid(c, o->pid, &mo, totals, res)
                           : pms_measure_command(c, o->argv, &mo, totals, res);
    if (r == PMS_OK && o->no_aggr) r = read_per_cpu(p);
    pms_counter_destroy(c);
    p->counter = NULL;
    return r == PMS_OK ? CLI_OK : r == PMS_ENOMEM ? cli_error("out of memory") : cli_lib_error();
}

static void print_totals(const stat_opts *o, FILE *out, pms_json *json, const pms_stat_summary *s,
                         const pms_stat_value *v, size_t n)
{
    if (json) {
        pms_json_key(json, "counts");
        pms_stat_json_values(json, v, n, s->elapsed_s);
        pms_json_kv_double(json, "elapsed_s", s->elapsed_s);
        pms_json_kv_uint(json, "runs", s->runs);
        if (s->has_rusage) {
            pms_json_kv_double(json, "user_s", s->user_s);
            pms_json_kv_double(json, "sys_s", s->sys_s);
        }
        pms_json_key(json, "notes");
        pms_json_array_begin(json);
        for (size_t k = 0; k < s->nnotes; k++) pms_json_string(json, s->notes[k]);
        pms_json_array_end(json);
    }
    if (o->json) {
        /* JSON only */
    } else if (o->json_lines) { /* the notes would not be JSON: they go to the standard error */
        if (!o->interval_ms) pms_stat_print_json_lines(out, -1, s->elapsed_s, s->runs, v, n);
        for (size_t k = 0; k < s->nnotes; k++) fprintf(stderr, "pmuscope stat: %s\n", s->notes[k]);
    } else if (o->interval_ms) {
        for (size_t k = 0; k < s->nnotes; k++) fprintf(out, "# %s\n", s->notes[k]);
    } else if (o->wide) {
        pms_stat_wide_header(out, v, n);
        pms_stat_wide_row(out, s->elapsed_s, v, n);
    } else if (o->sep) {
        pms_stat_print_csv(out, o->sep, -1, s->elapsed_s, s->runs, v, n);
    } else {
        pms_stat_print_plain(out, s, v, n);
    }
}

static int run_stat(const stat_opts *o)
{
    stat_notes notes = {0};
    pms_event *events = NULL;
    size_t n = 0;
    int rc = cli_prepare_events(o->events_spec, PMS_FALLBACK_COUNTING,
                                o->fallback ? PMS_UNSUPPORTED_FALLBACK : PMS_UNSUPPORTED_KEEP, &events, &n, &notes);
    if (rc) {
        free(events);
        stat_notes_free(&notes);
        return rc;
    }
    FILE *out = stat_open_output(o, o->json || o->wide);
    pms_stat_value *runs = calloc((size_t)o->repeat * n, sizeof *runs), *avg = calloc(n, sizeof *avg);
    pms_count *totals = calloc(n, sizeof *totals);
    double *elapsed = calloc(o->repeat, sizeof *elapsed);
    if (!out || !runs || !avg || !totals || !elapsed) {
        rc = out ? cli_error("out of memory") : CLI_FAIL;
        goto done;
    }
    pms_json json;
    FILE *jf = o->json ? out : o->json_path ? cli_open_output(o->json_path) : NULL;
    if (o->json_path && !jf) {
        rc = CLI_FAIL;
        goto done;
    }
    if (jf) {
        pms_json_init(&json, jf, true);
        pms_json_object_begin(&json);
        if (o->interval_ms) {
            pms_json_key(&json, "intervals");
            pms_json_array_begin(&json);
        }
    }
    struct printer p = {.o = o, .out = out, .json = jf ? &json : NULL, .events = events, .n = n, .values = avg};
    pms_measure_result res = {0};
    unsigned done = 0;
    struct per_cpu_runs cpu_runs = {0};
    double user = 0, sys = 0;
    int exit_code = CLI_OK;
    stat_install_signals();
    while (done < o->repeat && !stat_stop) {
        if ((rc = measure_once(o, &p, totals, &res)) != CLI_OK) break;
        if (o->no_aggr && (rc = keep_per_cpu_run(&cpu_runs, &p)) != CLI_OK) break;
        p.values = runs + (size_t)done * n;
        to_values(&p, totals);
        p.values = avg;
        elapsed[done++] = res.elapsed_s;
        user += res.user_s;
        sys += res.sys_s;
        if (!o->pid) exit_code = stat_exit_code(res.wait_status);
    }
    if (jf && o->interval_ms) pms_json_array_end(&json);
    if (done > 0 && (pms_stat_average_runs(runs, done, n, avg) ||
                     (o->no_aggr && pms_stat_average_runs(cpu_runs.v, done, p.nper_cpu, p.per_cpu)))) {
        rc = cli_lib_error();
    } else if (done > 0) {
        /* Ctrl-C still prints what was counted, as perf does. */
        double elapsed_mean, elapsed_sem;
        pms_stat_mean_sem(elapsed, done, &elapsed_mean, &elapsed_sem);
        char target[512];
        if (o->system_wide) /* as perf names it, with or without a command */
            snprintf(target, sizeof target, o->cpus ? "'CPU(s) %s'" : "'system wide'", o->cpus);
        else if (o->pid)
            snprintf(target, sizeof target, "process id '%d'", (int)o->pid);
        else
            stat_describe_command(o->argv, target, sizeof target);
        pms_stat_summary s = {.target = target, .runs = done, .elapsed_s = elapsed_mean,
                              .elapsed_stddev_s = elapsed_sem,
                              .has_rusage = !o->pid && !o->system_wide, .user_s = user / done, .sys_s = sys / done,
                              .notes = (const char *const *)notes.lines, .nnotes = notes.n};
        if (o->no_aggr)
            print_totals(o, out, jf ? &json : NULL, &s, p.per_cpu, p.nper_cpu);
        else
            print_totals(o, out, jf ? &json : NULL, &s, avg, n);
        if (rc == CLI_OK) rc = exit_code;
    }
    if (jf) {
        pms_json_object_end(&json);
        pms_json_finish(&json);
        if (jf != out) cli_close_output(jf);
    }
    free(p.per_cpu), free(p.unit_prev), free(p.unit_now), free(cpu_runs.v);
done:
    if (out) stat_close_output(out);
    free(runs), free(avg), free(totals), free(elapsed), free(events);
    stat_notes_free(&notes);
    return rc;
}

static bool append_events(char **spec, const char *more)
{
    size_t old = *spec ? strlen(*spec) : 0;
    char *s = realloc(*spec, old + strlen(more) + 2);
    if (!s) return false;
    if (old)
        s[old++] = ',';
    strcpy(s + old, more);
    *spec = s;
    return true;
}

int cmd_stat(int argc, char **argv)
{
    enum { OPT_WIDE = 256, OPT_FALLBACK, OPT_JSON, OPT_SCHEDULE, OPT_MAX, OPT_ANCHOR, OPT_SIZES };
    static const struct option longopts[] = {
        {"event", required_argument, NULL, 'e'},        {"pid", required_argument, NULL, 'p'},
        {"json-output", no_argument, NULL, 'j'},        {"all-cpus", no_argument, NULL, 'a'},
        {"cpu", required_argument, NULL, 'C'},          {"no-aggr", no_argument, NULL, 'A'},
        {"interval-print", required_argument, NULL, 'I'}, {"field-separator", required_argument, NULL, 'x'},
        {"output", required_argument, NULL, 'o'},       {"repeat", required_argument, NULL, 'r'},
        {"wide", no_argument, NULL, OPT_WIDE},          {"fallback", no_argument, NULL, OPT_FALLBACK},
        {"json", optional_argument, NULL, OPT_JSON},          {"schedule", required_argument, NULL, OPT_SCHEDULE},
        {"max-counters", required_argument, NULL, OPT_MAX}, {"anchor", required_argument, NULL, OPT_ANCHOR},
        {"sizes", required_argument, NULL, OPT_SIZES},  {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    stat_opts o = {.repeat = 1};
    int opt, rc = CLI_OK;
    uint64_t v;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+e:p:I:x:o:r:jaC:Ah", longopts)) != -1) {
        switch (opt) {
        case 'e':
            if (!append_events(&o.events_spec, optarg)) rc = cli_error("out of memory");
            break;
        case 'p':
            if (!cli_parse_count(optarg, &v) || v == 0 || v > 0x7fffffff)
                rc = cli_usage_error("stat", "-p: expected a process id, found '%s'", optarg);
            o.pid = (pid_t)v;
            break;
        case 'I':
            if (!cli_parse_count(optarg, &v) || v < 10 || v > 3600000)
                rc = cli_usage_error("stat", "-I: expected milliseconds between 10 and 3600000, found '%s'", optarg);
            o.interval_ms = (unsigned)v;
            break;
        case 'x':
            if (!*optarg) rc = cli_usage_error("stat", "-x: expected a separator");
            o.sep = optarg;
            break;
        case 'o': o.output = optarg; break;
        case 'r':
            if (!cli_parse_count(optarg, &v) || v == 0 || v > 100000)
                rc = cli_usage_error("stat", "-r: expected a number of runs (1 or more), found '%s'", optarg);
            o.repeat = (unsigned)v;
            break;
        case OPT_WIDE: o.wide = true; break;
        case 'j': o.json_lines = true; break;
        case 'a': o.system_wide = true; break;
        case 'A': o.no_aggr = true; break;
        case 'C': {
            int *cpus;
            size_t ncpus;
            if (pms_cpu_list(&cpus, &ncpus, optarg)) rc = cli_usage_error("stat", "-C: %s", pms_strerror());
            else free(cpus);
            o.system_wide = true;
            o.cpus = optarg;
            break;
        }
        case OPT_FALLBACK: o.fallback = true; break;
        case OPT_JSON:
            o.json = optarg == NULL;
            o.json_path = optarg;
            break;
        case CLI_OPT_LISTED:
            free(o.events_spec);
            return CLI_OK;
        case OPT_SCHEDULE:
            if (strcmp(optarg, "runs") != 0)
                rc = cli_usage_error("stat", "--schedule: expected 'runs', found '%s'", optarg);
            o.schedule_runs = true;
            break;
        case OPT_MAX:
            if (!cli_parse_count(optarg, &v) || v == 0 || v > 64)
                rc = cli_usage_error("stat", "--max-counters: expected 1 to 64, found '%s'", optarg);
            o.max_counters = (unsigned)v;
            break;
        case OPT_ANCHOR: o.anchor_spec = optarg; break;
        case OPT_SIZES: o.sizes_spec = optarg; break;
        case 'h':
            usage(stdout);
            free(o.events_spec);
            return CLI_OK;
        default: rc = cli_usage_error("stat", "%s", cli_bad_option()); break;
        }
        if (rc) break;
    }
    if (rc == CLI_OK) {
        o.argv = argv + optind;
        bool has_cmd = optind < argc;
        if (o.system_wide && o.pid)
            rc = cli_usage_error("stat", "-a and -C count every task of the CPUs: they do not go with -p");
        else if (o.no_aggr && !o.system_wide)
            rc = cli_usage_error("stat", "-A shows each CPU of -a or -C: give one of them");
        else if (o.system_wide && o.schedule_runs)
            rc = cli_usage_error("stat", "--schedule=runs runs a command: it does not go with -a or -C");
        else if (!has_cmd && !o.pid && !o.system_wide)
            rc = cli_usage_error("stat", "expected a command to run (after --) or -p PID");
        else if (has_cmd && o.pid)
            rc = cli_usage_error("stat", "give either a command or -p PID, not both");
        else if ((o.json ? 1 : 0) + (o.wide ? 1 : 0) + (o.sep ? 1 : 0) + (o.json_lines ? 1 : 0) > 1)
            rc = cli_usage_error("stat", "--json, --wide, -x and -j choose different outputs: give one");
        else if (o.schedule_runs && (o.pid || o.interval_ms || o.repeat > 1))
            rc = cli_usage_error("stat", "--schedule=runs runs a command whole: it does not go with -p, -I or -r");
        else if (!o.schedule_runs && (o.sizes_spec || o.max_counters || o.anchor_spec))
            rc = cli_usage_error("stat", "--sizes, --max-counters and --anchor need --schedule=runs");
        else if (o.pid && o.repeat > 1)
            rc = cli_usage_error("stat", "-r repeats a command: it does not go with -p");
    }
    if (rc == CLI_OK && !o.events_spec) {
        pms_event cycles;
        bool hw = pms_event_parse("cycles", &cycles) == PMS_OK && pms_event_probe(&cycles) == PMS_OK;
        if (!append_events(&o.events_spec, hw ? DEFAULT_SOFTWARE DEFAULT_HARDWARE : DEFAULT_SOFTWARE))
            rc = cli_error("out of memory");
    }
    if (rc == CLI_OK) rc = o.schedule_runs ? stat_schedule(&o) : run_stat(&o);
    free(o.events_spec);
    return rc;
}
