/* pmuscope: the five analysis methods, what each does, the subcommand that runs it and
 * the paper it follows, for every output that names a method (help texts, the demo's
 * page and summary). Venue and year are cited only where the paper's own text states them. */
#ifndef PMUSCOPE_METHODS_H
#define PMUSCOPE_METHODS_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_method {
    const char *command;  /* the pmuscope subcommand that runs it */
    const char *name;     /* what it does, in a few words */
    const char *about;    /* one or two sentences */
    const char *citation; /* authors, "title", and what the paper's text gives of venue and year */
} pms_method;

/* The table, in the order `pmuscope help methods` lists it (*n entries). */
const pms_method *pms_methods(size_t *n);
/* The method that subcommand runs, or NULL. */
const pms_method *pms_method_of(const char *command);
/* Writes first, then text word-wrapped (breaking between words before column 80), each
 * further line starting with indent, and a newline. PMS_OK, or PMS_EIO if out failed. */
int pms_write_wrapped(FILE *out, const char *first, const char *text, const char *indent);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
