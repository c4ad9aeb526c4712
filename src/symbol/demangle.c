/* Symbol names as perf report prints them: C++ and Rust (legacy and v0) demangled by
 * libiberty's cplus_demangle in its automatic style, without parameter lists. */
#include "symbol/symtab.h"

#include <libiberty/demangle.h>

char *pms__demangle(const char *name)
{
    if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R')) return NULL; /* neither Itanium C++ nor Rust v0 */
    return cplus_demangle(name, DMGL_NO_OPTS);
}
