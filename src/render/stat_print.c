/* Counting results in the format asked for: one place that picks the printer of each
 * format for an interval and for the totals (pmuscope/statfmt.h). */
#include "pmuscope/statfmt.h"

void pms_stat_print_interval(FILE *out, const pms_stat_style *st, double t, double interval_s,
                             const pms_stat_value *v, size_t n, bool first)
{
    switch (st->format) {
    case PMS_STAT_WIDE:
        if (first) pms_stat_wide_header(out, v, n);
        pms_stat_wide_row(out, t, v, n);
        break;
    case PMS_STAT_CSV: pms_stat_print_csv(out, st->sep, t, interval_s, 1, v, n); break;
    case PMS_STAT_JSON_LINES: pms_stat_print_json_lines(out, t, interval_s, 1, v, n); break;
    case PMS_STAT_PLAIN: pms_stat_print_plain_interval(out, t, interval_s, v, n, first); break;
    }
}

void pms_stat_print_totals(FILE *out, const pms_stat_style *st, const pms_stat_summary *s, const pms_stat_value *v,
                           size_t n)
{
    switch (st->format) {
    case PMS_STAT_WIDE:
        pms_stat_wide_header(out, v, n);
        pms_stat_wide_row(out, s->elapsed_s, v, n);
        break;
    case PMS_STAT_CSV: pms_stat_print_csv(out, st->sep, -1, s->elapsed_s, s->runs, v, n); break;
    case PMS_STAT_JSON_LINES: pms_stat_print_json_lines(out, -1, s->elapsed_s, s->runs, v, n); break;
    case PMS_STAT_PLAIN: pms_stat_print_plain(out, s, v, n); break;
    }
}
