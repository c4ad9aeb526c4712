/* Internal: a sorted table of one binary's (or the kernel's) symbols, with perf's rules for
 * which of several aliases at one address names it and where a symbol without a size ends,
 * so that sampled addresses get the names perf report prints. */
#ifndef PMS_SYMBOL_SYMTAB_H
#define PMS_SYMBOL_SYMTAB_H
#include <stddef.h>
#include <stdint.h>

struct pms__sym {
    uint64_t start, end; /* [start, end); end == start: not fixed up yet */
    char *name;
    unsigned char binding; /* STB_* */
    size_t seq;            /* order of adding: perf keeps the first of otherwise equal aliases */
};

typedef struct pms__symtab {
    struct pms__sym *v;
    size_t n, cap;
} pms__symtab;

/* Adds a symbol; name is copied. size 0: ends where the next symbol starts. */
int pms__symtab_add(pms__symtab *t, uint64_t start, uint64_t size, int binding, const char *name);
/* Sorts, keeps one of the aliases at each address as perf's choose_best_symbol does, and
 * ends sizeless symbols at the next one (the last at the page after its start). */
void pms__symtab_finish(pms__symtab *t);
/* The symbol covering addr, or NULL. */
const struct pms__sym *pms__symtab_find(const pms__symtab *t, uint64_t addr);
void pms__symtab_free(pms__symtab *t);

/* The demangled form of a C++ or Rust name, malloc'd, or NULL when it is not mangled
 * (libiberty, as perf report shows names: without parameters). */
char *pms__demangle(const char *name);
#endif
