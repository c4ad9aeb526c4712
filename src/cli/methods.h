/* The five analysis methods of pmuscope: what each does, its subcommand and the paper
 * it follows. One table for `pmuscope help methods`, the commands' --help and the demo. */
#ifndef PMS_CLI_METHODS_H
#define PMS_CLI_METHODS_H
#include <stddef.h>
#include <stdio.h>

typedef struct cli_method {
    const char *command;  /* the subcommand that runs it */
    const char *name;     /* what it does, in a few words */
    const char *about;    /* one or two sentences */
    const char *citation; /* authors, "title", and what the paper's text gives of venue and year */
} cli_method;

/* The table (*n entries). */
const cli_method *cli_methods(size_t *n);
/* The method run by a subcommand, or NULL. */
const cli_method *cli_method_of(const char *command);
/* "Method: NAME.\nPaper: CITATION.\n" word-wrapped to 80 columns, for the end of a --help. */
void cli_print_method(FILE *out, const char *command);
/* "<indent>Paper: CITATION" word-wrapped to 80 columns (nothing if command runs no method). */
void cli_print_citation(FILE *out, const char *command, const char *indent);
/* `pmuscope help methods`. */
void cli_print_methods(FILE *out);

#endif
