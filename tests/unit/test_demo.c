/* The demo and the methods' table as library calls (pmuscope/demo.h, pmuscope/methods.h):
 * choosing steps, the checks before a run, a run of the pmuscope binary ($PMUSCOPE) from
 * outside it with its progress, a run whose steps all fail, and the wrapped citations. */
#include "test_support.h"
#include "pmuscope/demo.h"
#include "pmuscope/error.h"
#include "pmuscope/methods.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_select_keeps_own_order(void **state)
{
    (void)state;
    static pms_demo d;
    pms_demo_init(&d);
    assert_int_equal(d.nsteps, 9);
    assert_string_equal(d.steps[0].name, "hotspot");
    assert_int_equal(pms_demo_select(&d, "estimate,record"), PMS_OK);
    assert_int_equal(d.nsteps, 2);
    assert_string_equal(d.steps[0].name, "record");
    assert_string_equal(d.steps[1].name, "estimate");
    pms_demo_init(&d);
    assert_int_equal(pms_demo_select(&d, "record,nosuch"), PMS_EINVAL);
    assert_string_equal(pms_strerror(), "no step 'nosuch'");
}

static void test_prepare_names_what_is_missing(void **state)
{
    (void)state;
    static pms_demo d;
    pms_demo_init(&d);
    assert_int_equal(pms_demo_prepare(&d), PMS_EINVAL); /* no program */
    d.program = getenv("PMUSCOPE");
    d.workloads = "/nonexistent-workloads";
    d.fixtures = getenv("PMS_FIXTURES");
    assert_int_equal(pms_demo_prepare(&d), PMS_ENOENT);
    assert_non_null(strstr(pms_strerror(), "/nonexistent-workloads/phases: No such file or directory"));
}

/* What the progress callback saw: one letter per call (B, R, W, E) and step. */
typedef struct seen {
    char log[64];
    size_t n;
} seen;

static void note(void *ctx, const pms_demo *demo, size_t step, pms_demo_stage stage)
{
    seen *s = ctx;
    assert_true(step < demo->nsteps);
    if (s->n + 2 < sizeof s->log) {
        s->log[s->n++] = "BRWE"[stage];
        s->log[s->n++] = (char)('0' + step);
    }
}

/* Runs steps of the demo with program into a new directory dir (a mkdtemp template). */
static void run_in(pms_demo *d, char *dir, const char *program, const char *steps, seen *s)
{
    assert_non_null(mkdtemp(dir));
    pms_demo_init(d);
    d->program = program;
    d->dir = dir;
    d->workloads = getenv("PMS_WORKLOADS");
    d->fixtures = getenv("PMS_FIXTURES");
    d->progress = s ? note : NULL;
    d->progress_ctx = s;
    assert_int_equal(pms_demo_select(d, steps), PMS_OK);
    assert_int_equal(pms_demo_prepare(d), PMS_OK);
    assert_int_equal(pms_demo_run(d), PMS_OK);
}

/* A run as a program other than pmuscope makes it: the steps that need no sampling. */
static void test_run_from_a_library_user(void **state)
{
    (void)state;
    static pms_demo d;
    char dir[] = "/tmp/pms-test-demo-XXXXXX";
    seen s = {0};
    run_in(&d, dir, getenv("PMUSCOPE"), "cpistack,estimate", &s);
    assert_string_equal(s.log, "R0E0R1E1");
    assert_int_equal(pms_demo_failed(&d), 0);
    assert_string_equal(d.steps[0].argv[0], "pmuscope");
    assert_string_equal(d.steps[0].argv[1], "cpistack");

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(pms_demo_write_summary(out, &d), PMS_OK);
    assert_int_equal(pms_demo_write_json(out, &d, NULL), PMS_OK);
    assert_int_equal(pms_demo_write_page(out, &d), PMS_OK);
    fclose(out);
    assert_non_null(strstr(text, "pmuscope demo: 2 steps in"));
    assert_non_null(strstr(text, "automotive_qsort1 52 ")); /* the CPI stack table, read back */
    assert_non_null(strstr(text, "    Paper: Ryota Hattori,")); /* the method's citation */
    assert_non_null(strstr(text, "\"name\": \"estimate\""));
    assert_non_null(strstr(text, "\"page\": null"));
    assert_non_null(strstr(text, "<svg")); /* the page has the steps' figures inline */
    free(text);
    pms_demo_free(&d);
    assert_int_equal(pms_test_system("rm -rf '%s'", dir), 0);
}

/* Every step fails (the program is not pmuscope): each says why, the page still comes. */
static void test_failed_steps_are_kept(void **state)
{
    (void)state;
    static pms_demo d;
    char dir[] = "/tmp/pms-test-demo-XXXXXX";
    run_in(&d, dir, "/bin/false", "report,estimate", NULL);
    assert_int_equal(pms_demo_failed(&d), 2);
    assert_int_equal(d.steps[1].status, 1);
    assert_string_equal(d.steps[1].why, "exit status 1");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(pms_demo_write_page(out, &d), PMS_OK);
    fclose(out);
    assert_non_null(strstr(text, "This step failed: exit status 1"));
    free(text);
    pms_demo_free(&d);
    assert_int_equal(pms_test_system("rm -rf '%s'", dir), 0);
}

static void test_methods_table(void **state)
{
    (void)state;
    size_t n;
    const pms_method *m = pms_methods(&n);
    assert_int_equal(n, 5);
    for (size_t i = 0; i < n; i++) assert_ptr_equal(pms_method_of(m[i].command), &m[i]);
    assert_null(pms_method_of("demo"));
    assert_non_null(strstr(pms_method_of("phase")->citation, "Sembrant"));
}

/* Lines end before column 80, only between words, and every word is kept. */
static void test_wrapped_lines(void **state)
{
    (void)state;
    const char *citation = pms_method_of("cpistack")->citation;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(pms_write_wrapped(out, "    Paper: ", citation, "      "), PMS_OK);
    fclose(out);
    char joined[1024] = "";
    size_t lines = 0;
    for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), lines++) {
        assert_true(strlen(line) <= 80);
        assert_true(strncmp(line, lines ? "      " : "    Paper: ", lines ? 6 : 11) == 0);
        assert_true(line[strlen(line) - 1] != ' ');
        strcat(joined, joined[0] ? " " : "");
        strcat(joined, line + strspn(line, " ") + (lines ? 0 : strlen("Paper: ")));
    }
    assert_true(lines >= 3);
    assert_string_equal(joined, citation);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_keeps_own_order),
        cmocka_unit_test(test_prepare_names_what_is_missing),
        cmocka_unit_test(test_run_from_a_library_user),
        cmocka_unit_test(test_failed_steps_are_kept),
        cmocka_unit_test(test_methods_table),
        cmocka_unit_test(test_wrapped_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
