/* Reference values written by the R scripts under tests/fixtures ("key,value"
 * lines, 17 significant digits), shared by the tests that compare with R. */
#ifndef PMS_TEST_REF_VALUES_H
#define PMS_TEST_REF_VALUES_H
#include "test_support.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REF_MAX = 512 };

struct ref {
    double val[REF_MAX];
    char keys[REF_MAX][128];
    size_t n;
};

static inline void ref_load(struct ref *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    char line[512];
    r->n = 0;
    while (fgets(line, sizeof line, f) && r->n < REF_MAX) {
        char *comma = strrchr(line, ',');
        if (!comma) continue;
        *comma = '\0';
        snprintf(r->keys[r->n], sizeof r->keys[0], "%.127s", line);
        r->val[r->n++] = strtod(comma + 1, NULL);
    }
    fclose(f);
    if (r->n == 0) fail_msg("%s: no reference values", path);
}

static inline double ref_get(const struct ref *r, const char *key)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->keys[i], key) == 0) return r->val[i];
    fail_msg("reference value '%s' missing", key);
    return NAN;
}

static inline bool have_rscript(void) { return pms_test_system("command -v Rscript >/dev/null 2>&1") == 0; }

#endif
