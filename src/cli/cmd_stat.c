/* pmuscope stat: count events of a command or a running process, as perf stat does. */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/json.h"
#include "pmuscope/stat_session.h"
#include "pmuscope/target.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>


static void usage(FILE *out)
{
    fputs("usage: pmuscope stat [options] -- COMMAND [ARGS...]\n"
          "       pmuscope stat [options] -p PID\n"
          "       pmuscope stat -a [-C CPUS] [-A] [options] [-- COMMAND [ARGS...]]\n"
          "       pmuscope stat -G CGROUPS [options] [-- COMMAND [ARGS...]]\n"
          "       pmuscope stat --serve [ADDR:]PORT [-e EVENTS] [-a | -p PID | -G CGROUPS] [-- COMMAND...]\n"
          "       pmuscope stat --regions [-e EVENTS] [-x SEP | --json] [-o FILE] -- COMMAND [ARGS...]\n\n"
          "Count events of a command (from its exec) or of every thread of a running process\n"
          "(until it ends or Ctrl-C), and print them as perf stat does (on stderr unless -o).\n\n"
          "  -e, --event EVENTS     events, comma-separated, {a,b} for groups (perf's names, rNNNN,\n"
          "                         pmu/event=..,umask=../, libpfm4 names; see 'pmuscope list').\n"
          "                         Default: task-clock,context-switches,cpu-migrations,page-faults\n"
          "                         and, with a hardware PMU, cycles,instructions,branches,branch-misses\n"
          "  -p, --pid PID          attach to all threads of process PID\n"
          "  -a, --all-cpus         system-wide: every task of every CPU, while COMMAND runs (if\n"
          "                         given) or until Ctrl-C; needs perf_event_paranoid <= 0 or root\n"
          "  -C, --cpu CPUS         system-wide on these CPUs only (0-3,6), as perf stat -C\n"
          "  -G, --cgroup CGROUPS   system-wide, in these cgroups only (comma-separated, named from the\n"
          "                         root of the cgroup hierarchy, / for the root): every event is\n"
          "                         counted in each, as perf stat --for-each-cgroup (a cgroup column)\n"
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
          "      --json[=FILE]      JSON, to FILE or instead of the text (on stdout unless -o), with\n"
          "                         each run's values beside the mean (pmuscope diff compares them)\n"
          "      --schedule=runs    more events than counters: run the command once per group of\n"
          "                         events that fits, with the anchor events in every run, and merge\n"
          "      --max-counters N   events per run besides the anchors (default: probed)\n"
          "      --anchor EVENTS    anchor events (default cycles,instructions; task-clock without PMU)\n"
          "      --sizes LIST       with --schedule=runs: run COMMAND once per size (1-10,50), the size\n"
          "                         appended as its last argument; writes the runs table\n"
          "                         run,size,<anchors>,<events> (CSV, stdout unless -o)\n"
          "      --serve [ADDR:]PORT  serve the counts to Prometheus at http://ADDR:PORT/metrics (ADDR\n"
          "                         127.0.0.1 unless given; PORT 0: any free port, printed), refreshed\n"
          "                         every -I MS (default 1000); with a command, its final counts stay\n"
          "                         served after it ends, until Ctrl-C (docs/stat.md: the families)\n"
          "      --phases           with --serve and a command or -p: the current phase and its metric\n"
          "                         (pmuscope phase's monitor at its defaults) as gauges\n"
          "      --regions          run COMMAND, a program with pmuscope's region markers\n"
          "                         (pmuscope/region.h), and print its report: per region a table\n"
          "                         of each thread's calls, time and events (-e: the events, else\n"
          "                         the markers' default); -x SEP for CSV, --json for the report\n"
          "  -h, --help             this help\n\n"
          "A multiplexed count (more events than counters) carries its uncertainty, one\n"
          "standard deviation: \"( +- x% multiplexing )\" in the table, one more CSV field,\n"
          "\"uncertainty\" in JSON; a count multiplexing made impossible reads <impossible>.\n\n"
          "An event this machine cannot count is shown as <not supported> (a note says why),\n"
          "as perf stat shows it; with --schedule=runs it is an error.\n\n"
          "Exit status: the command's (128+N if killed by signal N); 1 if pmuscope cannot\n"
          "count (the message says why), 2 for a usage error.\n",
          out);
}

/* What one measurement prints as it goes (the -I lines) and at the end. */
struct printer {
    const stat_opts *o;
    FILE *out;
    pms_json *json;
    pms_stat_style style;
    bool header_done;
    int exit_code; /* the command's, after each run */
};

static int on_interval(void *ctx, double t, const pms_stat_value *values, size_t n)
{
    struct printer *p = ctx;
    double step = p->o->interval_ms / 1000.0;
    if (p->json) pms_stat_json_interval(p->json, t, step, values, n);
    if (!p->o->json) /* else JSON only */
        pms_stat_print_interval(p->out, &p->style, t, step, values, n, !p->header_done);
    p->header_done = true;
    fflush(p->out);
    if (p->json) fflush(p->json->out);
    return 0;
}

static void on_run(void *ctx, unsigned run, const pms_measure_result *res)
{
    struct printer *p = ctx;
    (void)run;
    if (!p->o->pid) p->exit_code = stat_exit_code(res->wait_status);
}

static void print_totals(const struct printer *p, const pms_stat_summary *s, const pms_stat_value *v, size_t n)
{
    const stat_opts *o = p->o;
    if (p->json) pms_stat_json_totals(p->json, s, v, n);
    if (o->json) {
        /* JSON only */
    } else if (o->json_lines) { /* the notes would not be JSON: they go to the standard error */
        if (!o->interval_ms) pms_stat_print_totals(p->out, &p->style, s, v, n);
        for (size_t k = 0; k < s->nnotes; k++) fprintf(stderr, "pmuscope stat: %s\n", s->notes[k]);
    } else if (o->interval_ms) {
        for (size_t k = 0; k < s->nnotes; k++) fprintf(p->out, "# %s\n", s->notes[k]);
    } else {
        pms_stat_print_totals(p->out, &p->style, s, v, n);
    }
}

/* -e's events, with --fallback's substitutes or <not supported> rows (and their notes). */
static int prepare_events(const stat_opts *o, pms_event **events, size_t *n, stat_notes *notes)
{
    return cli_prepare_events(o->events_spec, PMS_FALLBACK_COUNTING,
                              o->fallback ? PMS_UNSUPPORTED_FALLBACK : PMS_UNSUPPORTED_KEEP, events, n, notes);
}

static int run_stat(const stat_opts *o)
{
    stat_notes notes = {0};
    pms_event *events = NULL;
    size_t n = 0;
    int rc = prepare_events(o, &events, &n, &notes);
    FILE *out = rc ? NULL : stat_open_output(o, o->json || o->wide);
    FILE *jf = !out ? NULL : o->json ? out : o->json_path ? cli_open_output(o->json_path) : NULL;
    if (!rc && (!out || (o->json_path && !jf))) rc = CLI_FAIL;
    pms_json json;
    if (!rc && jf) {
        pms_json_init(&json, jf, true);
        pms_json_object_begin(&json);
        if (o->interval_ms) {
            pms_json_key(&json, "intervals");
            pms_json_array_begin(&json);
        }
    }
    struct printer p = {.o = o, .out = out, .json = jf ? &json : NULL, .style = stat_style(o)};
    pms_stat_config cfg = {.events = events, .nevents = n, .argv = o->argv, .pid = o->pid,
                           .system_wide = o->system_wide, .cpus = o->cpus, .per_cpu = o->no_aggr,
                           .cgroups = (const char *const *)o->cgroups, .ncgroups = o->ncgroups,
                           .repeat = o->repeat, .interval_ms = o->interval_ms, .stop = &stat_stop,
                           .on_interval = on_interval, .on_run = on_run, .ctx = &p};
    pms_stat_result r = {0};
    if (!rc) {
        stat_install_signals();
        if (pms_stat_measure(&r, &cfg) != PMS_OK) rc = cli_lib_error();
        if (jf && o->interval_ms) pms_json_array_end(&json);
    }
    if (r.runs > 0) { /* Ctrl-C, or a failed run, still prints what was counted, as perf does */
        char target[512];
        pms_stat_describe_target(target, sizeof target, o->argv, o->pid, o->system_wide, o->cpus);
        pms_stat_summary s = {.target = target, .runs = r.runs, .elapsed_s = r.elapsed_s,
                              .elapsed_stddev_s = r.elapsed_sem_s, .has_rusage = !o->pid && !o->system_wide,
                              .user_s = r.user_s, .sys_s = r.sys_s,
                              .notes = (const char *const *)notes.lines, .nnotes = notes.n,
                              .run_values = r.run_values, .run_elapsed_s = r.run_elapsed_s};
        print_totals(&p, &s, r.values, r.n);
        if (rc == CLI_OK) rc = p.exit_code;
    }
    if (jf) {
        pms_json_object_end(&json);
        pms_json_finish(&json);
        if (jf != out) cli_close_output(jf);
    }
    if (out) stat_close_output(out);
    pms_stat_result_free(&r);
    free(events);
    stat_notes_free(&notes);
    return rc;
}

static int run_serve(const stat_opts *o)
{
    stat_notes notes = {0};
    pms_event *events = NULL;
    size_t n = 0;
    int rc = prepare_events(o, &events, &n, &notes);
    if (rc == CLI_OK) rc = stat_serve(o, events, n, &notes);
    free(events);
    stat_notes_free(&notes);
    return rc;
}

/* -G A,B (several -G add up). */
static bool add_cgroups(stat_opts *o, const char *list)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0) return false;
        char **more = realloc(o->cgroups, (o->ncgroups + 1) * sizeof *more);
        if (!more) return false;
        o->cgroups = more;
        if (!(o->cgroups[o->ncgroups] = strndup(p, len))) return false;
        o->ncgroups++;
        p += len;
        if (*p == ',') p++;
    }
    return o->ncgroups > 0;
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
    enum { OPT_WIDE = 256, OPT_FALLBACK, OPT_JSON, OPT_SCHEDULE, OPT_MAX, OPT_ANCHOR, OPT_SIZES, OPT_SERVE, OPT_PHASES, OPT_REGIONS };
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
        {"cgroup", required_argument, NULL, 'G'},
        {"serve", required_argument, NULL, OPT_SERVE},  {"phases", no_argument, NULL, OPT_PHASES},
        {"regions", no_argument, NULL, OPT_REGIONS},
        {NULL, 0, NULL, 0},
    };
    stat_opts o = {.repeat = 1};
    int opt, rc = CLI_OK;
    uint64_t v;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+e:p:I:x:o:r:jaC:AG:h", longopts)) != -1) {
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
        case 'G':
            if (!add_cgroups(&o, optarg)) rc = cli_usage_error("stat", "-G: expected cgroup names, found '%s'", optarg);
            break;
        case OPT_SERVE:
            if (!stat_serve_address_valid(optarg))
                rc = cli_usage_error("stat", "--serve: expected [ADDR:]PORT (127.0.0.1:9100, [::1]:9100, 0 for any "
                                             "free port), found '%s'", optarg);
            o.serve = optarg;
            break;
        case OPT_PHASES: o.phases = true; break;
        case OPT_REGIONS: o.regions = true; break;
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
        else if (!has_cmd && !o.pid && !o.system_wide && !o.ncgroups)
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
        else if (o.ncgroups && (o.pid || o.no_aggr || o.schedule_runs))
            rc = cli_usage_error("stat", "-G counts cgroups on every CPU: it does not go with -p, -A or --schedule");
        else if (o.serve && (o.repeat > 1 || o.schedule_runs || o.sep || o.json_lines || o.json || o.json_path ||
                             o.wide || o.output))
            rc = cli_usage_error("stat", "--serve serves one measurement over HTTP: it does not go with -r, "
                                         "--schedule, -x, -j, --json, --wide or -o");
        else if (o.phases && !o.serve)
            rc = cli_usage_error("stat", "--phases goes with --serve");
        else if (o.regions && (!has_cmd || o.pid || o.system_wide || o.interval_ms || o.repeat > 1 || o.wide ||
                               o.json_lines || o.json_path || o.schedule_runs || o.fallback || o.ncgroups || o.serve))
            rc = cli_usage_error("stat", "--regions runs a command and prints its region report: it goes with -e, "
                                         "-x, --json and -o only");
    }
    if (rc == CLI_OK && o.regions) {
        rc = stat_regions(&o);
        free(o.events_spec);
        return rc;
    }
    if (rc == CLI_OK && o.ncgroups) o.system_wide = true;
    if (rc == CLI_OK && o.serve && !o.interval_ms) o.interval_ms = 1000;
    if (rc == CLI_OK && !o.events_spec && !append_events(&o.events_spec, pms_stat_default_events()))
        rc = cli_error("out of memory");
    if (rc == CLI_OK) rc = o.schedule_runs ? stat_schedule(&o) : o.serve ? run_serve(&o) : run_stat(&o);
    free(o.events_spec);
    for (size_t g = 0; g < o.ncgroups; g++) free(o.cgroups[g]);
    free(o.cgroups);
    return rc;
}
