/* One entry to the three run inputs: a runs table, an interval table summed per
 * run, or `perf stat -I` files summed per program window. */
#include "estimate/runs.h"
#include "util/error.h"

static size_t count(const char *const *list)
{
    size_t n = 0;
    while (list && list[n]) n++;
    return n;
}

int pms_runs_load(pms_runs **out, const pms_runs_input *in)
{
    *out = NULL;
    size_t np = count(in->paths), nw = count(in->windows);
    if (np == 0) return pms__fail(PMS_EINVAL, "runs: no input file");
    switch (in->format) {
    case PMS_RUNS_TABLE:
    case PMS_RUNS_INTERVALS:
        if (np != 1) return pms__fail(PMS_EINVAL, "runs: %zu files given, a table is one file", np);
        return in->format == PMS_RUNS_TABLE ? pms__runs_read(in->paths[0], in->cycles_col, in->ignore, in->drop_missing, out)
                                            : pms__runs_sum_intervals(in->paths[0], in->group_by, in->ignore,
                                                                      in->cycles_col, in->drop_missing, out);
    case PMS_RUNS_WINDOWS:
        if (np != nw) return pms__fail(PMS_EINVAL, "%zu interval files but %zu window files", np, nw);
        return pms_runs_sum_windows(in->paths, in->windows, np, in->cycles_col, out);
    }
    return pms__fail(PMS_EINVAL, "runs: unknown input format %d", (int)in->format);
}
