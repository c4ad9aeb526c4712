/* pmuscope list: every event name this machine knows, and whether it can count it. */
#include "cli/cli.h"

#include "pmuscope/error.h"
#include "pmuscope/event.h"
#include "pmuscope/json.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fputs("usage: pmuscope list [--json[=FILE]] [--available] [PATTERN]\n\n"
          "List perf's generic hardware, cache and software events, the sysfs events of each PMU\n"
          "and the libpfm4 events of the PMUs libpfm4 detects, each with whether this machine can\n"
          "count it (by opening it on pmuscope itself) and why not.\n\n"
          "  PATTERN        show only names containing PATTERN (case-insensitive)\n"
          "  --available    show only events this machine can count\n"
          "  --json[=FILE]  JSON, to FILE or instead of the text: [{\"name\", \"kind\", \"description\",\n"
          "                 \"available\", \"reason\"}]\n"
          "  -h, --help     this help\n",
          out);
}

struct lister {
    const char *pattern;
    bool available_only;
    pms_json *json;
    FILE *text; /* NULL: JSON in place of the text */
    size_t shown, usable;
};

static const char *kind_of(const pms_event *ev, pms_event_source src)
{
    switch (src) {
    case PMS_EVSRC_GENERIC:
        return ev->attr.type == PERF_TYPE_SOFTWARE ? "software" :
               ev->attr.type == PERF_TYPE_HW_CACHE ? "cache" : "hardware";
    case PMS_EVSRC_RAW: return "raw";
    case PMS_EVSRC_SYSFS: return "sysfs";
    case PMS_EVSRC_PFM: return "libpfm4";
    case PMS_EVSRC_TOOL: return "tool";
    }
    return "?";
}

/* The reason without the leading "name: " the library puts in front. */
static const char *strip_name(const char *msg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(msg, name, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

static int visit(const char *name, const char *description, pms_event_source src, void *ctx)
{
    struct lister *l = ctx;
    if (l->pattern && !strcasestr(name, l->pattern)) return 0;
    pms_event ev;
    int r = pms_event_parse(name, &ev);
    if (r == PMS_OK) r = pms_event_probe(&ev);
    char reason[512] = "";
    if (r != PMS_OK) snprintf(reason, sizeof reason, "%s", strip_name(pms_strerror(), name));
    if (l->available_only && r != PMS_OK) return 0;
    l->shown++;
    l->usable += r == PMS_OK;
    const char *kind = kind_of(&ev, src);
    if (l->json) {
        pms_json_object_begin(l->json);
        pms_json_kv_string(l->json, "name", name);
        pms_json_kv_string(l->json, "kind", kind);
        pms_json_kv_string(l->json, "description", description);
        pms_json_kv_bool(l->json, "available", r == PMS_OK);
        if (r != PMS_OK) pms_json_kv_string(l->json, "reason", reason);
        pms_json_object_end(l->json);
    }
    if (!l->text) return 0;
    if (r == PMS_OK) {
        fprintf(l->text, "  %-40s %-9s yes\n", name, kind);
    } else {
        /* The first clause is the reason; the rest (advice) is in --json and in the error of stat. */
        size_t cut = strcspn(reason, ";");
        fprintf(l->text, "  %-40s %-9s no: %.*s\n", name, kind, (int)cut, reason);
    }
    return 0;
}

int cmd_list(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", optional_argument, NULL, 'j'},
        {"available", no_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *json = NULL;
    struct lister l = {0};
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "h", longopts)) != -1) {
        switch (opt) {
        case 'j': json = cli_format_target(optarg); break;
        case CLI_OPT_LISTED: return CLI_OK;
        case 'a': l.available_only = true; break;
        case 'h': usage(stdout); return CLI_OK;
        default: return cli_usage_error("list", "%s", cli_bad_option());
        }
    }
    if (optind < argc) l.pattern = argv[optind++];
    if (optind < argc) return cli_usage_error("list", "expected at most one PATTERN, found '%s'", argv[optind]);
    pms_json j;
    FILE *jf = json ? cli_open_output(json) : NULL;
    if (json && !jf) return CLI_FAIL;
    if (jf) {
        pms_json_init(&j, jf, true);
        pms_json_array_begin(&j);
        l.json = &j;
    }
    l.text = cli_is_main(json) ? NULL : stdout;
    if (l.text) fprintf(l.text, "  %-40s %-9s %s\n", "event", "kind", "can this machine count it?");
    pms_event_foreach(visit, &l);
    if (jf) {
        pms_json_array_end(&j);
        pms_json_finish(&j);
    }
    int rc = jf ? cli_close_output(jf) : CLI_OK;
    if (l.text) printf("\n%zu events listed, %zu countable here\n", l.shown, l.usable);
    return rc;
}
