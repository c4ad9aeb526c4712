/* Option plumbing shared by the subcommands: getopt_long with --list-options (the real
 * option table, for shell completion and the test that no flag has two meanings), and
 * the --json[=FILE] / --csv[=FILE] convention. */
#include "cli/cli.h"
#include "pmuscope/input.h"

#include <stdio.h>
#include <string.h>

/* Prints "SHORT LONG ARG" lines: SHORT is -x or -, ARG none, required or optional. */
static void list_options(const char *shortopts, const struct option *longopts)
{
    static const char *const kinds[] = {"none", "required", "optional"};
    for (const struct option *o = longopts; o->name; o++) {
        int is_short = o->flag == NULL && o->val > 0 && o->val < 128 && o->val != ':' && o->val != '+' &&
                       strchr(shortopts, o->val) != NULL;
        if (is_short) printf("-%c --%s %s\n", o->val, o->name, kinds[o->has_arg]);
        else printf("- --%s %s\n", o->name, kinds[o->has_arg]);
    }
    /* short options without a long name */
    for (const char *p = shortopts; *p; p++) {
        if (*p == ':' || *p == '+' || *p == '-') continue;
        const struct option *o = longopts;
        while (o->name && !(o->flag == NULL && o->val == *p)) o++;
        if (!o->name) printf("-%c - %s\n", *p, p[1] == ':' ? (p[2] == ':' ? "optional" : "required") : "none");
    }
}

static char bad_option[160];

/* What was wrong with the option getopt refused (opterr is off, so getopt says nothing
 * itself: the command's usage error is the one message). A long option and the last
 * letter of a cluster move optind past their argument, which is then argv[optind - 1];
 * a letter inside a cluster leaves optind on the cluster (in_cluster), and argv[optind - 1]
 * is the argument before it, perhaps a long option that was fine. */
static void describe_bad_option(int argc, char **argv, const char *shortopts, bool in_cluster)
{
    const char *arg = optind >= 1 && optind <= argc ? argv[optind - 1] : "";
    const char *expects = optopt && strchr(shortopts, optopt) ? "expects an argument" : NULL;
    if (!in_cluster && arg && strncmp(arg, "--", 2) == 0) {
        int len = (int)strcspn(arg, "=");
        if (optopt || arg[len])
            snprintf(bad_option, sizeof bad_option, "%.*s: %s", len, arg,
                     arg[len] ? "takes no argument" : "expects an argument");
        else
            snprintf(bad_option, sizeof bad_option, "%.100s: unknown option", arg);
    } else if (expects) {
        snprintf(bad_option, sizeof bad_option, "-%c: %s", optopt, expects);
    } else {
        snprintf(bad_option, sizeof bad_option, "-%c: unknown option", optopt ? optopt : '?');
    }
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    if (optind == 1 && argc == 2 && strcmp(argv[1], "--list-options") == 0) {
        list_options(shortopts, longopts);
        optind = 2;
        return CLI_OPT_LISTED;
    }
    opterr = 0;
    int before = optind;
    int c = getopt_long(argc, argv, shortopts, longopts, NULL);
    if (c == '?' || c == ':') describe_bad_option(argc, argv, shortopts, optind == before);
    return c;
}

const char *cli_bad_option(void) { return bad_option; }

const char CLI_MAIN_OUTPUT[] = "-";

const char *cli_format_target(const char *arg) { return arg ? arg : CLI_MAIN_OUTPUT; }

bool cli_is_main(const char *target) { return target == CLI_MAIN_OUTPUT; }

int cli_set_input_limit(const char *cmd, const char *arg)
{
    uint64_t bytes;
    if (!cli_parse_count(arg, &bytes))
        return cli_usage_error(cmd, "--input-limit %s: expected a size in bytes (K, M, G accepted; 0: none)", arg);
    pms_input_limit_set(bytes);
    return CLI_OK;
}
