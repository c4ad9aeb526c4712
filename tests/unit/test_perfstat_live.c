/* The perf stat reader on real `perf stat -I 100` output made here, in both
 * forms, checked against awk's reading of the same file. Software events only:
 * they count on machines without a hardware PMU. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/perfstat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *workload(void)
{
    static char path[1024];
    const char *dir = getenv("PMS_WORKLOADS");
    snprintf(path, sizeof path, "%s/phases", dir ? dir : "workloads");
    return path;
}

/* Runs perf stat into out; sep NULL gives the plain form. */
static void run_perf(const char *out, const char *sep)
{
    char xopt[16] = "";
    if (sep) snprintf(xopt, sizeof xopt, "-x'%s'", sep);
    int rc = pms_test_system("perf stat -I 100 %s -o '%s' -e task-clock,page-faults,context-switches -- '%s' "
                             "--units 250 --repeat 4 >/dev/null 2>&1",
                             xopt, out, workload());
    if (rc != 0) fail_msg("perf stat failed (exit %d): is linux-perf installed and perf_event_paranoid <= 2?", rc);
}

/* awk's numbers for the file: intervals (distinct times) and the sum of page-faults. */
static void awk_reference(const char *file, const char *sep, double *intervals, double *faults)
{
    const char *out = pms_test_write_temp(".awk", "", 0);
    int rc = sep ? pms_test_system("awk -F'%s' '!/^#/ && NF>3 {t[$1]=1; if ($4==\"page-faults\" && $2 ~ /^[0-9]+$/) s+=$2} "
                                   "END {n=0; for (k in t) n++; print n, s+0}' '%s' > '%s'",
                                   sep, file, out)
                 : pms_test_system("awk '!/^#/ && NF>2 {t[$1]=1; if ($3==\"page-faults\") {gsub(\",\",\"\",$2); s+=$2}} "
                                   "END {n=0; for (k in t) n++; print n, s+0}' '%s' > '%s'",
                                   file, out);
    assert_int_equal(rc, 0);
    FILE *f = fopen(out, "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%lf %lf", intervals, faults), 2);
    fclose(f);
    remove(out);
}

static void check(const char *sep)
{
    const char *file = pms_test_write_temp(sep ? ".csv" : ".txt", "", 0);
    run_perf(file, sep);
    pms_table *t = NULL;
    if (pms_interval_table_read(file, &t) != PMS_OK) fail_msg("%s", pms_strerror());
    double intervals, faults;
    awk_reference(file, sep, &intervals, &faults);
    assert_true(intervals >= 4); /* the workload runs for about 0.8 s */
    assert_int_equal(pms_table_rows(t), (size_t)intervals);
    size_t c;
    assert_int_equal(pms_table_require(t, "page-faults", &c), PMS_OK);
    const double *v;
    assert_int_equal(pms_table_numeric(t, c, true, &v), PMS_OK);
    double sum = 0;
    for (size_t i = 0; i < pms_table_rows(t); i++)
        if (!isnan(v[i])) sum += v[i];
    assert_close(sum, faults, 0);
    assert_true(sum > 0);
    assert_int_equal(pms_table_require(t, "task-clock", &c), PMS_OK);
    assert_int_equal(pms_table_require(t, "context-switches", &c), PMS_OK);
    pms_table_free(t);
    remove(file);
}

static void test_csv_output(void **s) { (void)s; check(","); }
static void test_semicolon_csv_output(void **s) { (void)s; check(";"); }
static void test_plain_output(void **s) { (void)s; check(NULL); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_output),
        cmocka_unit_test(test_semicolon_csv_output),
        cmocka_unit_test(test_plain_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
