/* The reports of bootstrap intervals: text, JSON and the replicates as CSV. */
#include "pmuscope/json.h"
#include "pmuscope/stats.h"
#include "util/error.h"
#include "util/number_text.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static int written(FILE *out)
{
    if (!ferror(out)) return PMS_OK;
    return pms__fail_errno(PMS_EIO, errno, "cannot write the bootstrap intervals");
}

int pms_bootstrap_write_text(const pms_bootstrap *b, const char *what, const char *const *names,
                             const double *estimate, FILE *out)
{
    fprintf(out, "  bootstrap %g%% percentile intervals: %zu resamples of the %zu %s (", 100 * b->level, b->replicates,
            b->n, what);
    if (b->block > 1) fprintf(out, "moving blocks of %zu", b->block);
    else fputs("case resampling", out);
    fprintf(out, ", seed %" PRIu64 ")", b->seed);
    if (b->n_ok < b->replicates) fprintf(out, ", %zu refits failed and are left out", b->replicates - b->n_ok);
    fprintf(out, "\n  %-24s %16s %16s %16s\n", "", "estimate", "lower", "upper");
    for (size_t c = 0; c < b->ncoef; c++) {
        pms__num_text e, l, u;
        fprintf(out, "  %-24s %16s %16s %16s\n", names[c], pms__num(&e, "%.8g", estimate[c]),
                pms__num(&l, "%.8g", b->lower[c]), pms__num(&u, "%.8g", b->upper[c]));
    }
    if (b->n_ok == 0) fputs("  (-: no refit succeeded)\n", out);
    return written(out);
}

void pms_bootstrap_write_json(const pms_bootstrap *b, const char *const *names, pms_json *j)
{
    pms_json_object_begin(j);
    pms_json_kv_string(j, "scheme", b->block > 1 ? "moving blocks" : "cases");
    pms_json_kv_uint(j, "block", b->block);
    pms_json_kv_uint(j, "replicates", b->replicates);
    pms_json_kv_uint(j, "ok", b->n_ok);
    pms_json_kv_uint(j, "seed", b->seed);
    pms_json_kv_double(j, "level", b->level);
    pms_json_key(j, "intervals");
    pms_json_object_begin(j);
    for (size_t c = 0; c < b->ncoef; c++) {
        pms_json_key(j, names[c]);
        pms_json_array_begin(j);
        pms_json_double(j, b->lower[c]);
        pms_json_double(j, b->upper[c]);
        pms_json_array_end(j);
    }
    pms_json_object_end(j);
    pms_json_object_end(j);
}

int pms_bootstrap_write_replicates(const pms_bootstrap *b, const char *what, const char *const *names, bool header,
                                   FILE *out)
{
    if (!b->rows || !b->coef) return pms__fail(PMS_EINVAL, "bootstrap: the replicates were not kept");
    if (header) {
        fputs("what,replicate,ok,rows", out);
        for (size_t c = 0; c < b->ncoef; c++) fprintf(out, ",%s", names[c]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < b->replicates; i++) {
        const double *coef = b->coef + i * b->ncoef;
        bool ok = b->ncoef == 0 || coef[0] == coef[0];
        if (strpbrk(what, ",\"\n")) { /* a CSV cell in quotes, inner quotes doubled */
            fputc('"', out);
            for (const char *c = what; *c; c++) fputs(*c == '"' ? "\"\"" : (char[]){*c, 0}, out);
            fputc('"', out);
        } else {
            fputs(what, out);
        }
        fprintf(out, ",%zu,%d,", i + 1, ok);
        for (size_t k = 0; k < b->n; k++) fprintf(out, "%s%zu", k ? " " : "", b->rows[i * b->n + k] + 1);
        for (size_t c = 0; c < b->ncoef; c++)
            if (ok) fprintf(out, ",%.17g", coef[c]);
            else fputc(',', out);
        fputc('\n', out);
    }
    return written(out);
}
