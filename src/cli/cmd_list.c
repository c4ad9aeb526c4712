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
          "count it (by opening it on pmuscope itself) and why not. Where perf_event_paranoid\n"
          "lets this user count user space only, an event is countable as stat and record count\n"
          "it, as NAME:u (\"yes, in user space only\").\n\n"
          "  PATTERN        show only names containing PATTERN (case-insensitive)\n"
          "  --available    show only events this machine can count\n"
          "  --json[=FILE]  JSON, to FILE or instead of the text: [{\"name\", \"kind\", \"description\",\n"
          "                 \"available\", \"user_only\" and \"counted_as\" (NAME:u) or \"reason\"}]\n"
          "  -h, --help     this help\n",
          out);
}

struct lister {
    bool available_only;
    pms_json *json;
    FILE *text; /* NULL: JSON in place of the text */
    size_t shown, usable;
};

static int visit(const pms_event_listing *e, void *ctx)
{
    struct lister *l = ctx;
    if (l->available_only && !e->available) return 0;
    l->shown++;
    l->usable += e->available != 0;
    if (l->json) {
        pms_json_object_begin(l->json);
        pms_json_kv_string(l->json, "name", e->name);
        pms_json_kv_string(l->json, "kind", e->kind);
        pms_json_kv_string(l->json, "description", e->description);
        pms_json_kv_bool(l->json, "available", e->available);
        if (e->available) pms_json_kv_bool(l->json, "user_only", e->user_only != 0);
        if (e->user_only) pms_json_kv_string(l->json, "counted_as", e->counted_as);
        if (!e->available) pms_json_kv_string(l->json, "reason", e->reason);
        pms_json_object_end(l->json);
    }
    if (!l->text) return 0;
    if (e->available && e->user_only) {
        fprintf(l->text, "  %-40s %-9s yes, in user space only (%s): perf_event_paranoid is %d\n", e->name, e->kind,
                e->counted_as, e->user_only);
    } else if (e->available) {
        fprintf(l->text, "  %-40s %-9s yes\n", e->name, e->kind);
    } else {
        /* The first clause is the reason; the rest (advice) is in --json and in the error of stat. */
        size_t cut = strcspn(e->reason, ";");
        fprintf(l->text, "  %-40s %-9s no: %.*s\n", e->name, e->kind, (int)cut, e->reason);
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
    const char *pattern = optind < argc ? argv[optind++] : NULL;
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
    pms_event_foreach_probed(pattern, visit, &l);
    if (jf) {
        pms_json_array_end(&j);
        pms_json_finish(&j);
    }
    int rc = jf ? cli_close_output(jf) : CLI_OK;
    if (l.text) printf("\n%zu events listed, %zu countable here\n", l.shown, l.usable);
    return rc;
}
