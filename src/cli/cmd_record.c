/* pmuscope record: sample a command or a running process into a perf.data file, as
 * perf record does. */
#include "cli/cli.h"
#include "cli/olr_live.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/sampler.h"
#include "pmuscope/target.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#define DEFAULT_FREQ 4000

static void usage(FILE *out)
{
    fputs("usage: pmuscope record [options] -- COMMAND [ARGS...]\n"
          "       pmuscope record [options] -p PID\n\n"
          "Sample a command (from its exec, following its threads and children) or every thread\n"
          "of a running process (until it ends or Ctrl-C) into a perf.data file that perf script\n"
          "and perf report read. Every sample has IP, TID, TIME and PERIOD.\n\n"
          "  -e, --event EVENTS     sampling events, comma-separated (default cycles; cpu-clock\n"
          "                         on a machine without a hardware PMU, and it says so)\n"
          "  -c, --count PERIOD     sample every PERIOD events (64K, 1M accepted)\n"
          "  -F, --freq HZ          sample HZ times a second (default " "4000" ")\n"
          "      --read EVENTS      counters read at every sample of the first event (a\n"
          "                         PERF_SAMPLE_READ group; perf script -F event,period shows them);\n"
          "                         as with perf, the command's later threads and children are not\n"
          "                         followed then\n"
          "      --randomize=mask:BITS  after each sample the next period is PERIOD plus a uniform\n"
          "                         random value below 2^BITS (pfmon); needs -c\n"
          "      --randomize=exp    exponentially distributed periods with mean PERIOD (seed 003)\n"
          "      --seed N           seed of the randomised periods, for a repeatable sequence\n"
          "                         (default: from the clock)\n"
          "  -o, --output FILE      output file (default perf.data)\n"
          "  -m, --mmap-pages N     ring buffer data pages per thread or CPU, a power of 2 (default 128)\n"
          "  -p, --pid PID          attach to all threads of process PID\n"
          "      --fallback         let cpu-clock stand in for an event this machine cannot count\n"
          "                         (the output says so)\n"
          "      --olr[=METHOD]     fit the --read counters against the first event's count with\n"
          "                         line segments while recording (pmuscope olr): wm (default),\n"
          "                         opt or opt:EPS (error bound in counts); segments go to\n"
          "                         FILE.olr.csv as they close\n"
          "      --olr-output FILE  the segments CSV instead of FILE.olr.csv\n"
          "      --olr-only         keep the segments instead of the samples\n"
          "  -h, --help             this help\n\n"
          "Ctrl-C, SIGTERM or the end of the target still leave a complete file (it is made valid\n"
          "every second while recording). Exit status 0, 1 if an event cannot be opened or the\n"
          "command cannot be run (the message says why), 2 for a usage error.\n",
          out);
}

typedef struct record_opts {
    const char *events, *reads, *output;
    uint64_t period, freq;
    pms_randomize randomize;
    const char *randomize_spec;
    size_t pages;
    pid_t pid;
    bool fallback;
    olr_live_config olr;
    char **argv;
} record_opts;

enum { OPT_READ = 256, OPT_RANDOMIZE, OPT_SEED, OPT_FALLBACK, OPT_OLR, OPT_OLR_OUTPUT, OPT_OLR_ONLY };

static int parse_options(int argc, char **argv, record_opts *o)
{
    static const struct option longopts[] = {
        {"event", required_argument, NULL, 'e'},       {"count", required_argument, NULL, 'c'},
        {"freq", required_argument, NULL, 'F'},        {"read", required_argument, NULL, OPT_READ},
        {"randomize", required_argument, NULL, OPT_RANDOMIZE}, {"seed", required_argument, NULL, OPT_SEED},
        {"output", required_argument, NULL, 'o'},      {"mmap-pages", required_argument, NULL, 'm'},
        {"pid", required_argument, NULL, 'p'},         {"fallback", no_argument, NULL, OPT_FALLBACK},
        {"olr", optional_argument, NULL, OPT_OLR},     {"olr-output", required_argument, NULL, OPT_OLR_OUTPUT},
        {"olr-only", no_argument, NULL, OPT_OLR_ONLY},
        {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0},
    };
    *o = (record_opts){.output = "perf.data"};
    uint64_t v, seed = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+e:c:F:o:m:p:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'e': o->events = optarg; break;
        case OPT_READ: o->reads = optarg; break;
        case 'o': o->output = optarg; break;
        case OPT_FALLBACK: o->fallback = true; break;
        case 'c':
            if (!cli_parse_count(optarg, &o->period) || !o->period)
                return cli_usage_error("record", "-c %s: expected a period of at least 1", optarg);
            break;
        case 'F':
            if (!cli_parse_count(optarg, &o->freq) || !o->freq)
                return cli_usage_error("record", "-F %s: expected a frequency in Hz, at least 1", optarg);
            break;
        case 'm':
            if (!cli_parse_count(optarg, &v) || !v || (v & (v - 1)))
                return cli_usage_error("record", "-m %s: expected a power of 2 of pages", optarg);
            o->pages = (size_t)v;
            break;
        case 'p':
            if (!cli_parse_count(optarg, &v) || !v || v > INT32_MAX)
                return cli_usage_error("record", "-p %s: expected a process id", optarg);
            o->pid = (pid_t)v;
            break;
        case OPT_RANDOMIZE:
            if (pms_randomize_parse(optarg, &o->randomize)) return cli_usage_error("record", "%s", pms_strerror());
            o->randomize_spec = optarg;
            break;
        case OPT_SEED:
            if (!cli_parse_count(optarg, &seed) || !seed)
                return cli_usage_error("record", "--seed %s: expected a number of at least 1", optarg);
            break;
        case OPT_OLR:
            if (olr_live_parse(optarg, &o->olr))
                return cli_usage_error("record", "--olr=%s: expected wm, opt or opt:EPS", optarg);
            break;
        case OPT_OLR_OUTPUT: o->olr.path = optarg; break;
        case OPT_OLR_ONLY: o->olr.instead = 1; break;
        case 'h': usage(stdout); return -1;
        default: return cli_usage_error("record", "unknown option");
        }
    }
    o->argv = argv + optind;
    if (o->period && o->freq) return cli_usage_error("record", "-c and -F exclude each other");
    if (!o->period && !o->freq) o->freq = DEFAULT_FREQ;
    if ((o->olr.path || o->olr.instead) && !o->olr.enabled)
        return cli_usage_error("record", "--olr-output and --olr-only go with --olr");
    if (o->olr.enabled && !o->reads)
        return cli_usage_error("record", "--olr fits the counters of --read EVENTS: give them");
    if (seed && o->randomize.kind == PMS_RANDOMIZE_NONE)
        return cli_usage_error("record", "--seed only applies with --randomize");
    o->randomize.seed = seed;
    if (o->randomize.kind != PMS_RANDOMIZE_NONE && !o->period)
        return cli_usage_error("record", "--randomize needs a fixed period: give -c PERIOD");
    if (!o->pid == !o->argv[0])
        return cli_usage_error("record", o->pid ? "give either -p PID or a command, not both"
                                                : "no command to record: give -- COMMAND or -p PID");
    return CLI_OK;
}

/* Parses a list and checks every event; with --fallback, cpu-clock (sampling) or task-clock
 * (read counters) stands in for one this machine cannot count, and a warning says so. */
static int prepare_events(const char *spec, pms_fallback_use use, bool fallback, pms_event **events, size_t *n)
{
    if (pms_event_list_parse(spec, events, n) != PMS_OK) return cli_lib_error();
    for (size_t i = 0; i < *n; i++) {
        pms_event *ev = &(*events)[i];
        int r = pms_event_probe(ev);
        if (r == PMS_OK) continue;
        pms_event sub;
        if (!fallback || r != PMS_ENOTSUP || pms_event_fallback(ev, use, &sub) != PMS_OK) {
            cli_lib_error();
            free(*events);
            *events = NULL;
            return CLI_FAIL;
        }
        cli_warn("%s", pms_strerror());
        cli_warn("%s stands in for %s (--fallback): it %s time, not %s", sub.name, ev->name,
                 use == PMS_FALLBACK_SAMPLING ? "samples" : "counts", ev->name);
        *ev = sub;
    }
    return CLI_OK;
}

/* The default event: cycles where the machine has it, else cpu-clock, said aloud. */
static const char *default_event(void)
{
    pms_event cycles;
    if (pms_event_parse("cycles", &cycles) == PMS_OK && pms_event_probe(&cycles) == PMS_OK) return "cycles";
    cli_warn("cycles cannot be sampled here (%s); sampling cpu-clock, the default without a PMU",
             pms_strerror());
    return "cpu-clock";
}

typedef struct recording {
    pms_perfdata_writer *w;
    uint64_t written;
    olr_live *olr;
} recording;

static int write_record(const struct perf_event_header *h, void *ctx)
{
    recording *r = ctx;
    if (r->olr) {
        olr_live_record(r->olr, h);
        if (!olr_live_keeps(r->olr, h)) return PMS_OK;
    }
    int rc = pms_perfdata_writer_add(r->w, h);
    if (rc == PMS_OK && h->type == PERF_RECORD_SAMPLE) r->written++;
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Drains the buffers into the file until the target ends or a signal; the file is made
 * valid every second. Returns 0, or the failing status. */
static int record_loop(pms_sampler *s, recording *r, pms_child *child, int *child_status, bool *child_done)
{
    double last_sync = now_s();
    for (;;) {
        int n = pms_sampler_poll(s, 100, write_record, r);
        if (n < 0) return n;
        if (r->olr) olr_live_round(r->olr);
        if (now_s() - last_sync >= 1.0) {
            int rc = pms_perfdata_writer_sync(r->w);
            if (rc) return rc;
            last_sync = now_s();
        }
        if (stat_stop) return PMS_OK;
        if (child) {
            if (waitpid(child->pid, child_status, WNOHANG) == child->pid) {
                *child_done = true;
                return PMS_OK;
            }
        } else if (pms_sampler_target_gone(s)) {
            return PMS_OK;
        }
    }
}

static void print_summary(const record_opts *o, const recording *r, const pms_sampler_stats *st)
{
    struct stat sb;
    double mb = stat(o->output, &sb) == 0 ? (double)sb.st_size / (1024.0 * 1024.0) : 0.0;
    fprintf(stderr, "[ pmuscope record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb, o->output,
            (unsigned long long)r->written);
    fprintf(stderr, "[ pmuscope record: %llu samples lost, %llu throttle and %llu unthrottle events ]\n",
            (unsigned long long)st->lost, (unsigned long long)st->throttles, (unsigned long long)st->unthrottles);
    if (st->period_updates)
        fprintf(stderr, "[ pmuscope record: --randomize=%s: %llu period changes, %.1f us each ]\n", o->randomize_spec,
                (unsigned long long)st->period_updates, (double)st->period_update_ns / 1e3 / (double)st->period_updates);
}

/* Opens the sampler on pid with the parsed events. */
static int open_sampler(const record_opts *o, pms_event *ev, size_t nev, pms_event *reads, size_t nreads, pid_t pid,
                        bool launched, pms_sampler **s)
{
    pms_sampling_event *sev = calloc(nev, sizeof *sev);
    if (!sev) return cli_error("out of memory");
    for (size_t i = 0; i < nev; i++) {
        sev[i] = (pms_sampling_event){.event = ev[i], .period = o->period, .freq = o->period ? 0 : o->freq,
                                      .randomize = o->randomize};
    }
    sev[0].read = reads;
    sev[0].nread = nreads;
    /* A launched command is followed into its threads and children (per-CPU buffers), except
     * with --read: as perf does for group reads, since an inherited event's values are per
     * thread (kernel 6.12 on; EINVAL before) and perf script takes deltas per event. */
    pms_sampler_config cfg = {.events = sev, .nevents = nev, .mmap_pages = o->pages,
                              .inherit = launched && nreads == 0, .enable_on_exec = launched};
    int rc = pms_sampler_open(s, &cfg, pid);
    free(sev);
    return rc ? cli_lib_error() : CLI_OK;
}

static int run(const record_opts *o, pms_event *ev, size_t nev, pms_event *reads, size_t nreads, int argc,
               char **argv)
{
    pms_child child = {.pid = -1, .release_fd = -1, .error_fd = -1};
    bool launched = o->argv[0] != NULL;
    if (launched && pms_child_spawn(&child, o->argv) != PMS_OK) return cli_lib_error();
    pid_t pid = launched ? child.pid : o->pid;
    pms_sampler *s = NULL;
    int ret = open_sampler(o, ev, nev, reads, nreads, pid, launched, &s);
    if (ret) {
        if (launched) pms_child_abort(&child);
        return ret;
    }
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(s, &nattrs);
    recording r = {0};
    if (pms_perfdata_writer_open(&r.w, o->output, attrs, nattrs, argc, argv) != PMS_OK) {
        ret = cli_lib_error();
        if (launched) pms_child_abort(&child);
        pms_sampler_close(s);
        return ret;
    }
    if (o->olr.enabled && olr_live_open(&r.olr, &o->olr, o->output, attrs, nattrs)) {
        if (launched) pms_child_abort(&child);
        pms_perfdata_writer_close(r.w);
        pms_sampler_close(s);
        return CLI_FAIL;
    }
    stat_install_signals();
    double started = now_s();
    int rc = PMS_OK;
    if (launched) {
        rc = pms_child_release(&child, o->argv[0]);
        if (rc) { /* the command could not run: nothing was recorded, leave no file */
            ret = cli_lib_error();
            pms_perfdata_writer_close(r.w);
            remove(o->output);
            if (r.olr) olr_live_close(r.olr, 0, NULL);
            pms_sampler_close(s);
            return ret;
        }
    } else {
        rc = pms_sampler_synthesize(s, pid, write_record, &r);
        if (!rc) rc = pms_sampler_enable(s);
    }
    int status = 0;
    bool done = false;
    if (!rc) rc = record_loop(s, &r, launched ? &child : NULL, &status, &done);
    if (rc) ret = cli_lib_error();
    pms_sampler_disable(s);
    if (!rc && pms_sampler_poll(s, 0, write_record, &r) < 0) ret = cli_lib_error();
    if (launched && !done) { /* stopped by a signal or an error: end the command too, as perf does */
        kill(child.pid, SIGTERM);
        waitpid(child.pid, &status, 0);
    } else if (launched && WIFSIGNALED(status)) {
        char how[96];
        stat_describe_status(status, how, sizeof how);
        cli_warn("the command %s; the file holds its samples until then", how);
    }
    pms_sampler_stats st;
    pms_sampler_get_stats(s, &st);
    if (pms_perfdata_writer_close(r.w) != PMS_OK) ret = cli_lib_error();
    pms_sampler_close(s);
    if (!ret) print_summary(o, &r, &st);
    if (r.olr) olr_live_close(r.olr, now_s() - started, ret ? NULL : stderr);
    return ret;
}

int cmd_record(int argc, char **argv)
{
    record_opts o;
    int rc = parse_options(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    pms_event *ev = NULL, *reads = NULL;
    size_t nev = 0, nreads = 0;
    rc = prepare_events(o.events ? o.events : default_event(), PMS_FALLBACK_SAMPLING, o.fallback, &ev, &nev);
    if (!rc && o.reads) rc = prepare_events(o.reads, PMS_FALLBACK_COUNTING, o.fallback, &reads, &nreads);
    if (!rc) rc = run(&o, ev, nev, reads, nreads, argc, argv);
    free(ev);
    free(reads);
    return rc;
}
