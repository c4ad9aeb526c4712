/* The five analysis methods in help texts: `pmuscope help methods` and the end of each
 * method's --help. The table itself is the library's (pmuscope/methods.h). */
#ifndef PMS_CLI_METHODS_H
#define PMS_CLI_METHODS_H
#include <stdio.h>

/* "Method: NAME\nPaper: CITATION\n" word-wrapped to 80 columns, for the end of a --help. */
void cli_print_method(FILE *out, const char *command);
/* `pmuscope help methods`. */
void cli_print_methods(FILE *out);

#endif
