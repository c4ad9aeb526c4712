/* The methods' lines in help texts, from the library's table (pmuscope/methods.h). */
#include "cli/methods.h"
#include "pmuscope/methods.h"

void cli_print_method(FILE *out, const char *command)
{
    const pms_method *m = pms_method_of(command);
    if (!m) return;
    fputc('\n', out);
    pms_write_wrapped(out, "Method: ", m->name, "  ");
    pms_write_wrapped(out, "Paper: ", m->citation, "  ");
}

void cli_print_methods(FILE *out)
{
    size_t n;
    const pms_method *methods = pms_methods(&n);
    fputs("pmuscope's five analysis methods, each from a paper (see 'pmuscope COMMAND --help'):\n", out);
    for (size_t i = 0; i < n; i++) {
        const pms_method *m = &methods[i];
        fprintf(out, "\n%-10s %s\n", m->command, m->name);
        pms_write_wrapped(out, "           ", m->about, "           ");
        pms_write_wrapped(out, "           Paper: ", m->citation, "             ");
    }
}
