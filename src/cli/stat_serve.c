/* pmuscope stat --serve: the counts as a Prometheus scrape target. The counting runs as stat's
 * does (-I intervals, 1 s by default); after every interval the exposition is rendered once, in
 * both formats, into a cache that the HTTP server's own thread (libmicrohttpd) copies out, so
 * that a slow or hostile scraper never holds the counting up. With a command, the final counts
 * stay served after it ends, until SIGINT or SIGTERM. */
#include "cli/cli.h"
#include "cli/stat_cli.h"

#include "pmuscope/error.h"
#include "pmuscope/openmetrics.h"
#include "pmuscope/phase.h"
#include "pmuscope/stat_session.h"

#include <math.h>
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#ifdef PMS_HAVE_MHD
#include <microhttpd.h>

/* At most this many connections at once, each closed after this many idle seconds: a
 * scraper opens one, and a client that sends nothing cannot hold the port. */
#define SERVE_MAX_CONNECTIONS 32
#define SERVE_IDLE_TIMEOUT_S 10

typedef struct serve {
    pthread_mutex_t lock;
    char *cache[2];     /* the exposition in each pms_exposition_format, NUL-terminated */
    size_t cache_len[2];
    /* counting side (the measuring thread only, outside the lock) */
    pms_stat_value *totals, *last;
    size_t n;
    double last_t, last_s, created;
    pid_t pid;
    int target_running;
    pms_exposition_phase phase; /* written by the phase monitor's thread, under the lock */
    bool has_phase;
    pms_phase_monitor *monitor;
    const stat_opts *o;
} serve;

static double unix_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Renders the snapshot in both formats and swaps it into the cache. */
static void publish(serve *s)
{
    pms_exposition_phase phase;
    pthread_mutex_lock(&s->lock);
    phase = s->phase;
    pthread_mutex_unlock(&s->lock);
    pms_exposition e = {.totals = s->totals, .last = s->last, .n = s->n, .last_s = s->last_s,
                        .created = s->created, .pid = s->pid, .target_running = s->target_running,
                        .phase = s->has_phase ? &phase : NULL};
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    for (int f = 0; f < 2; f++) {
        FILE *m = open_memstream(&text[f], &len[f]);
        if (!m || pms_exposition_write(m, &e, (pms_exposition_format)f) != PMS_OK) {
            if (m) fclose(m);
            free(text[f]);
            text[f] = NULL;
            continue;
        }
        fclose(m);
    }
    pthread_mutex_lock(&s->lock);
    for (int f = 0; f < 2; f++)
        if (text[f]) {
            free(s->cache[f]);
            s->cache[f] = text[f];
            s->cache_len[f] = len[f];
        }
    pthread_mutex_unlock(&s->lock);
}

/* Each interval: the totals grow by its counts; the rates come from it. */
static int on_interval(void *ctx, double t, const pms_stat_value *v, size_t n)
{
    serve *s = ctx;
    if (!s->totals || s->n != n) {
        free(s->totals), free(s->last);
        s->totals = calloc(n ? n : 1, sizeof *s->totals);
        s->last = calloc(n ? n : 1, sizeof *s->last);
        if (!s->totals || !s->last) return PMS_ENOMEM;
        memcpy(s->totals, v, n * sizeof *v);
        for (size_t i = 0; i < n; i++) {
            pms_stat_value *tot = &s->totals[i];
            tot->value = tot->uncertainty = 0;
            tot->enabled = tot->running = 0;
        }
        s->n = n;
        s->last_t = 0;
    }
    for (size_t i = 0; i < n; i++) {
        pms_stat_value *tot = &s->totals[i];
        tot->value += v[i].state == PMS_COUNT_COUNTED ? v[i].value : 0;
        tot->enabled += v[i].enabled;
        tot->running += v[i].running;
        /* each interval's scaling error is its own: they add as independent errors do */
        if (v[i].state == PMS_COUNT_COUNTED && isfinite(v[i].uncertainty))
            tot->uncertainty = hypot(tot->uncertainty, v[i].uncertainty);
        if (v[i].state == PMS_COUNT_COUNTED) tot->state = PMS_COUNT_COUNTED;
    }
    memcpy(s->last, v, n * sizeof *v);
    s->last_s = t - s->last_t;
    s->last_t = t;
    publish(s);
    return 0;
}

/* The phase monitor's thread: the phase and metric of the interval that just ended. */
static int on_phase(const pms_phase_event *ev, void *ctx)
{
    serve *s = ctx;
    pthread_mutex_lock(&s->lock);
    s->phase.id = ev->phase;
    s->phase.metric = ev->metric;
    s->phase.metric_name = ev->metric_is_cpi ? "CPI" : "ns/sample";
    pthread_mutex_unlock(&s->lock);
    return 0;
}

static int open_phase_monitor(serve *s, pid_t pid, bool held_child)
{
    pms_phase_monitor_config cfg;
    pms_phase_monitor_config_default(&cfg);
    cfg.inherit = 1;
    cfg.enable_on_exec = held_child;
    cfg.own_thread = 1;
    cfg.on_interval = on_phase;
    cfg.user = s;
    int rc = pms_phase_monitor_open(&s->monitor, pid, &cfg);
    if (!rc) rc = pms_phase_monitor_start(s->monitor);
    if (rc && s->monitor) {
        pms_phase_monitor_close(s->monitor);
        s->monitor = NULL;
    }
    return rc;
}

static int on_spawn(void *ctx, pid_t pid)
{
    serve *s = ctx;
    s->created = unix_now();
    return s->has_phase ? open_phase_monitor(s, pid, true) : PMS_OK;
}

static bool wants_openmetrics(struct MHD_Connection *c)
{
    const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    return accept && strstr(accept, "application/openmetrics-text");
}

static void client_name(struct MHD_Connection *c, char *buf, size_t size)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char host[NI_MAXHOST] = "?", port[NI_MAXSERV] = "";
    if (ci && ci->client_addr)
        getnameinfo(ci->client_addr, ci->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                                             : sizeof(struct sockaddr_in),
                    host, sizeof host, port, sizeof port, NI_NUMERICHOST | NI_NUMERICSERV);
    snprintf(buf, size, "%s:%s", host, port);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type, const char *body,
                             size_t len, const char *method, const char *url)
{
    if (status != MHD_HTTP_OK) {
        char who[NI_MAXHOST + NI_MAXSERV + 2];
        client_name(c, who, sizeof who);
        fprintf(stderr, "pmuscope stat: %s %s %.200s: %u\n", who, method, url, status);
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED) MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static const char index_page[] =
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>pmuscope stat</title></head><body>"
    "<h1>pmuscope stat</h1><p>Counts of this machine's events for Prometheus: <a href=\"/metrics\">/metrics</a> "
    "(OpenMetrics when the scraper asks for it, else Prometheus's text format).</p></body></html>\n";

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version, (void)upload_data, (void)con_cls;
    serve *s = cls;
    *upload_data_size = 0; /* a body, if any, is not read: the request is refused below */
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
        static const char msg[] = "only GET (and HEAD) are served\n";
        return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", msg, sizeof msg - 1, method, url);
    }
    if (strcmp(url, "/") == 0)
        return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", index_page, sizeof index_page - 1, method, url);
    if (strcmp(url, "/metrics") != 0) {
        static const char msg[] = "no such page: the metrics are at /metrics\n";
        return reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", msg, sizeof msg - 1, method, url);
    }
    pms_exposition_format f = wants_openmetrics(c) ? PMS_EXPOSITION_OPENMETRICS : PMS_EXPOSITION_TEXT;
    pthread_mutex_lock(&s->lock);
    char *body = s->cache[f] ? strdup(s->cache[f]) : NULL;
    size_t len = s->cache[f] ? s->cache_len[f] : 0;
    pthread_mutex_unlock(&s->lock);
    if (!body) {
        static const char msg[] = "no counts yet: the first interval has not ended\n";
        return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8", msg, sizeof msg - 1, method, url);
    }
    enum MHD_Result ok = reply(c, MHD_HTTP_OK, pms_exposition_content_type(f), body, len, method, url);
    free(body);
    return ok;
}

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    fputs("pmuscope stat: http: ", stderr);
    vfprintf(stderr, fmt, ap);
}

/* ADDR:PORT, [ADDR6]:PORT, :PORT or PORT (127.0.0.1 unless an address is given) into host
 * and port; false when spec is none of these. */
static bool split_address(const char *spec, char *host, size_t host_size, char *port, size_t port_size)
{
    snprintf(host, host_size, "127.0.0.1");
    const char *colon = strrchr(spec, ':');
    if (spec[0] == '[') {
        const char *close = strchr(spec, ']');
        if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= host_size) return false;
        snprintf(host, host_size, "%.*s", (int)(close - spec - 1), spec + 1);
        colon = close + 1;
    } else if (colon && colon > spec) {
        if ((size_t)(colon - spec) >= host_size) return false;
        snprintf(host, host_size, "%.*s", (int)(colon - spec), spec);
    }
    if (snprintf(port, port_size, "%s", colon ? colon + 1 : spec) >= (int)port_size) return false;
    uint64_t p;
    return cli_parse_count(port, &p) && p <= 65535;
}

bool stat_serve_address_valid(const char *spec)
{
    char host[256], port[16];
    return split_address(spec, host, sizeof host, port, sizeof port);
}

static int resolve(const char *spec, struct sockaddr_storage *sa, socklen_t *len)
{
    char host[256], port[16];
    if (!split_address(spec, host, sizeof host, port, sizeof port)) return -1;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV}, *res;
    if (getaddrinfo(host, port, &hints, &res) != 0) return -2;
    memcpy(sa, res->ai_addr, res->ai_addrlen);
    *len = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static struct MHD_Daemon *start_server(serve *s, const char *spec, char *url, size_t url_size)
{
    struct sockaddr_storage sa;
    socklen_t salen;
    int r = resolve(spec, &sa, &salen);
    if (r == -1) {
        cli_usage_error("stat", "--serve: expected [ADDR:]PORT (127.0.0.1:9100, [::1]:9100, 0 for any free port), "
                                "found '%s'", spec);
        return NULL;
    }
    if (r == -2) {
        cli_error("--serve %s: cannot resolve the address", spec);
        return NULL;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (sa.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, s, MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_MAX_CONNECTIONS,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_IDLE_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)64 * 1024, MHD_OPTION_END);
    if (!d) {
        cli_error("--serve %s: cannot listen there (in use, or not an address of this machine)", spec);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    char host[NI_MAXHOST] = "?";
    getnameinfo((struct sockaddr *)&sa, salen, host, sizeof host, NULL, 0, NI_NUMERICHOST);
    snprintf(url, url_size, sa.ss_family == AF_INET6 ? "http://[%s]:%u/metrics" : "http://%s:%u/metrics", host,
             info ? (unsigned)info->port : 0);
    return d;
}

int stat_serve(const stat_opts *o, const pms_event *events, size_t n, stat_notes *notes)
{
    serve s = {.o = o, .pid = o->pid, .target_running = o->argv && o->argv[0] ? 1 : o->pid ? 1 : -1,
               .has_phase = o->phases, .phase = {.id = -1, .metric = NAN}};
    pthread_mutex_init(&s.lock, NULL);
    if (o->phases && !(o->argv && o->argv[0]) && !o->pid) {
        pthread_mutex_destroy(&s.lock);
        return cli_usage_error("stat", "--phases follows a command or -p PID, not -a or -G alone");
    }
    char url[512];
    struct MHD_Daemon *d = start_server(&s, o->serve, url, sizeof url);
    if (!d) {
        pthread_mutex_destroy(&s.lock);
        return CLI_FAIL;
    }
    fprintf(stderr, "pmuscope stat: serving %s (every %u ms; Ctrl-C stops)\n", url, o->interval_ms);
    s.created = unix_now();
    int rc = CLI_OK;
    if (o->phases && o->pid && open_phase_monitor(&s, o->pid, false) != PMS_OK) rc = cli_lib_error();
    pms_stat_config cfg = {.events = events, .nevents = n, .argv = o->argv, .pid = o->pid,
                           .system_wide = o->system_wide, .cpus = o->cpus, .cgroups = (const char *const *)o->cgroups,
                           .ncgroups = o->ncgroups, .repeat = 1, .interval_ms = o->interval_ms, .stop = &stat_stop,
                           .on_interval = on_interval, .on_spawn = on_spawn, .ctx = &s};
    pms_stat_result r = {0};
    stat_install_signals();
    if (rc == CLI_OK && pms_stat_measure(&r, &cfg) != PMS_OK) rc = cli_lib_error();
    if (s.monitor) {
        pms_phase_monitor_stop(s.monitor);
        pms_phase_monitor_close(s.monitor);
        s.monitor = NULL;
    }
    if (r.runs > 0 && r.n == s.n) { /* the final counts, the last partial interval included */
        memcpy(s.totals, r.values, r.n * sizeof *r.values);
        if (s.target_running > 0) s.target_running = 0;
        publish(&s);
        if (!stat_stop && s.target_running == 0) {
            fprintf(stderr, "pmuscope stat: the target ended; serving its final counts until Ctrl-C\n");
            while (!stat_stop) nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
        }
    }
    MHD_stop_daemon(d);
    if (r.runs > 0) {
        char target[512];
        pms_stat_describe_target(target, sizeof target, o->argv, o->pid, o->system_wide || o->ncgroups, o->cpus);
        pms_stat_summary sum = {.target = target, .runs = r.runs, .elapsed_s = r.elapsed_s,
                                .notes = (const char *const *)notes->lines, .nnotes = notes->n};
        pms_stat_print_plain(stderr, &sum, r.values, r.n);
    }
    pms_stat_result_free(&r);
    free(s.totals), free(s.last), free(s.cache[0]), free(s.cache[1]);
    pthread_mutex_destroy(&s.lock);
    return rc;
}

#else /* built without libmicrohttpd (the cross build for the emulated guest) */

bool stat_serve_address_valid(const char *spec)
{
    (void)spec;
    return true; /* stat_serve says why it cannot serve */
}

int stat_serve(const stat_opts *o, const pms_event *events, size_t n, stat_notes *notes)
{
    (void)o, (void)events, (void)n, (void)notes;
    return cli_error("--serve: this pmuscope was built without libmicrohttpd");
}

#endif
