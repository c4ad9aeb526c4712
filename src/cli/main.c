/* pmuscope: the command dispatcher. Each subcommand lives in cmd_<name>.c. */
#include "cli/cli.h"
#include "cli/methods.h"

#include <stdio.h>
#include <string.h>

struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
#define PMS_COMMAND(name, summary) {#name, summary, cmd_##name},
#include "cli/commands.def"
#undef PMS_COMMAND
};

static void print_usage(FILE *out)
{
    fprintf(out, "usage: pmuscope [--version] [--help] <command> [<args>]\n\n"
                 "Collect hardware performance counter data and analyse it.\n\n"
                 "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nSee 'pmuscope <command> --help' for the options of one command,\n"
                 "and 'pmuscope help methods' for the five methods and their papers.\n");
}

int cmd_help(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "methods") == 0) {
        cli_print_methods(stdout);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0 && strcmp(argv[1], "help") != 0) {
            char *args[] = {argv[1], "--help", NULL};
            return commands[i].run(2, args);
        }
    return cli_usage_error(NULL, "'%s' is not a pmuscope command", argv[1]);
}

int main(int argc, char **argv)
{
    cli_outputs_begin();
    if (argc < 2) {
        print_usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_usage(stdout);
        return cli_exit_status(CLI_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("pmuscope %s\n", PMS_VERSION);
        return cli_exit_status(CLI_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return cli_exit_status(commands[i].run(argc - 1, argv + 1));
    return cli_usage_error(NULL, "'%s' is not a pmuscope command", argv[1]);
}
