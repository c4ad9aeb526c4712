/* The region markers in this process: exact page-fault counts per region and thread, nested
 * regions, two threads at once, misuse (an end that does not match), and the report taken,
 * written as JSON, read back (jansson) and printed. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/region.h"
#include "pmuscope/region_report.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }


static void touch(char *p, size_t n) { pms_test_touch_pages(p, n); }

/* n fresh pages, touched once each inside region name: n page faults. */
static void touch_in(const char *name, size_t n)
{
    size_t len = (n ? n : 1) * page_size();
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    madvise(p, len, MADV_NOHUGEPAGE);
    assert_int_equal(pms_region_begin(name), PMS_OK);
    touch(p, n);
    assert_int_equal(pms_region_end(name), PMS_OK);
    munmap(p, len);
}

static const pms_region_row *row_of(const pms_region_results *r, const char *region, int64_t tid)
{
    for (size_t k = 0; k < r->nrows; k++)
        if (strcmp(r->rows[k].region, region) == 0 && r->rows[k].thread == tid) return &r->rows[k];
    fail_msg("no row for %s on thread %lld", region, (long long)tid);
    return NULL;
}

static size_t event_of(const pms_region_results *r, const char *name)
{
    for (size_t i = 0; i < r->nevents; i++)
        if (strcmp(r->events[i].name, name) == 0) return i;
    fail_msg("no event %s", name);
    return 0;
}

struct job {
    size_t pages;
    int64_t tid;
};

static void *worker(void *arg)
{
    struct job *j = arg;
    j->tid = gettid();
    for (int k = 0; k < 3; k++) touch_in("work", j->pages);
    return NULL;
}

static void test_regions(void **state)
{
    (void)state;
    assert_int_equal(pms_region_end("none"), PMS_EINVAL);
    assert_non_null(strstr(pms_strerror(), "no region is open"));
    assert_int_equal(pms_region_begin(NULL), PMS_EINVAL);
    /* nested: the outer region holds the inner one's 40 faults and its own 10. A region's first
     * begin allocates its record (which may fault a page inside an enclosing region): the
     * inner ones have run once before. */
    touch_in("warm", 1); /* the thread's counters open here */
    touch_in("inner", 1);
    touch_in("inner2", 0);
    assert_int_equal(pms_region_begin("outer"), PMS_OK);
    touch_in("inner", 40);
    assert_int_equal(pms_region_end("inner"), PMS_EINVAL); /* closed already */
    char *p = mmap(NULL, 10 * page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(p, 10 * page_size(), MADV_NOHUGEPAGE);
    touch(p, 10);
    assert_int_equal(pms_region_begin("inner2"), PMS_OK);
    assert_int_equal(pms_region_end("outer"), PMS_EINVAL); /* inner2 is open inside it */
    assert_non_null(strstr(pms_strerror(), "'inner2', begun inside it, is open"));
    assert_int_equal(pms_region_end("inner2"), PMS_OK);
    assert_int_equal(pms_region_end("outer"), PMS_OK);
    munmap(p, 10 * page_size());
    /* two threads at once, 3 calls of 25 and 70 pages */
    struct job a = {25, 0}, b = {70, 0};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, worker, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, worker, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);

    pms_region_results *r;
    assert_int_equal(pms_region_results_take(&r), PMS_OK);
    size_t pf = event_of(r, "page-faults"), tc = event_of(r, "task-clock");
    int64_t me = gettid();
    assert_int_equal(row_of(r, "inner", me)->counts[pf].raw, 41);
    assert_int_equal(row_of(r, "inner", me)->calls, 2);
    assert_int_equal(row_of(r, "outer", me)->counts[pf].raw, 50);
    assert_int_equal(row_of(r, "outer", me)->calls, 1);
    const pms_region_row *wa = row_of(r, "work", a.tid), *wb = row_of(r, "work", b.tid);
    assert_int_equal(wa->calls, 3);
    assert_int_equal(wa->counts[pf].raw, 75);
    assert_int_equal(wb->counts[pf].raw, 210);
    assert_int_equal(wb->counts[pf].state, PMS_COUNT_COUNTED);
    assert_true(wb->counts[tc].value > 0 && wb->counts[tc].value <= (double)wb->time_ns * 1.01);
    assert_close(wb->counts[pf].uncertainty, 0, 0); /* software events: never multiplexed */
    /* regions in order of first use */
    assert_string_equal(r->rows[0].region, "warm");

    /* JSON written and read back, then printed */
    char path[] = "/tmp/pms-region-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(pms_region_results_write_json(f, r), PMS_OK);
    fclose(f);
    pms_region_results *back;
    assert_int_equal(pms_region_results_read(&back, path), PMS_OK);
    assert_int_equal(back->nrows, r->nrows);
    assert_int_equal(back->nevents, r->nevents);
    assert_int_equal(row_of(back, "work", b.tid)->counts[pf].raw, 210);
    assert_close(row_of(back, "work", b.tid)->counts[pf].value, 210, 0);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    pms_region_results_print_table(m, back);
    fclose(m);
    assert_non_null(strstr(text, "Region work\n"));
    assert_non_null(strstr(text, "  page-faults"));
    free(text);
    pms_region_results_free(back);
    pms_region_results_free(r);
    unlink(path);
}

/* A file that is not a region report is refused with the member at fault. */
static void test_read_errors(void **state)
{
    (void)state;
    pms_region_results *r;
    const char *bad = "{\"pid\": 1, \"events\": [{\"name\": \"x\", \"read\": \"read(2)\"}],"
                      " \"regions\": [{\"region\": \"a\", \"thread\": 1, \"calls\": -1}], \"errors\": []}";
    const char *p = pms_test_write_temp(".json", bad, strlen(bad));
    assert_int_equal(pms_region_results_read(&r, p), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "regions[0].calls: expected a count"));
    p = pms_test_write_temp(".json", "{\"pid\": 1, \"events\": [", 21);
    assert_int_equal(pms_region_results_read(&r, p), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), "line 1"));
    assert_int_equal(pms_region_results_read(&r, "/nonexistent/report.json"), PMS_ENOENT);
}

int main(void)
{
    setenv("PMS_REGION_EVENTS", "task-clock,page-faults,context-switches", 1);
    setenv("PMS_REGION_OUT", "", 1); /* no report file at exit */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_read_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
