/* Event names to perf_event_attr: generic, cache, software, raw, sysfs (fake tree in
 * tests/fixtures/event/sysfs), libpfm4 (forced to Skylake), modifiers, groups, bad input.
 * Expected encodings are from include/linux/perf_event.h and the Intel SDM event tables. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/event.h"
#include "event/event_internal.h"

#include <stdlib.h>
#include <string.h>

static void use_fake_sysfs(void) { setenv("PMS_SYSFS_ROOT", pms_test_fixture("event/sysfs"), 1); }

static pms_event parse_ok(const char *spec)
{
    pms_event ev;
    int r = pms_event_parse(spec, &ev);
    if (r != PMS_OK) fail_msg("%s: %s", spec, pms_strerror());
    assert_string_equal(ev.name, spec);
    assert_int_equal(ev.attr.size, sizeof ev.attr);
    return ev;
}

static void expect_error(const char *spec, int status, const char *fragment)
{
    pms_event ev;
    int r = pms_event_parse(spec, &ev);
    if (r != status) fail_msg("%s: status %d, expected %d (%s)", spec, r, status, pms_strerror());
    if (!strstr(pms_strerror(), fragment)) fail_msg("%s: message '%s' lacks '%s'", spec, pms_strerror(), fragment);
}

static void test_generic_hardware_and_aliases(void **state)
{
    (void)state;
    pms_event ev = parse_ok("cycles");
    assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
    assert_int_equal(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
    assert_int_equal(ev.source, PMS_EVSRC_GENERIC);
    assert_false(ev.attr.exclude_user || ev.attr.exclude_kernel);
    assert_int_equal(parse_ok("cpu-cycles").attr.config, PERF_COUNT_HW_CPU_CYCLES);
    assert_int_equal(parse_ok("instructions").attr.config, PERF_COUNT_HW_INSTRUCTIONS);
    assert_int_equal(parse_ok("branches").attr.config, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
    assert_int_equal(parse_ok("branch-misses").attr.config, PERF_COUNT_HW_BRANCH_MISSES);
    assert_int_equal(parse_ok("ref-cycles").attr.config, PERF_COUNT_HW_REF_CPU_CYCLES);
    assert_int_equal(parse_ok("CACHE-MISSES").attr.config, PERF_COUNT_HW_CACHE_MISSES);
}

static void test_cache_names(void **state)
{
    (void)state;
    /* config = cache | op << 8 | result << 16 */
    pms_event ev = parse_ok("L1-dcache-load-misses");
    assert_int_equal(ev.attr.type, PERF_TYPE_HW_CACHE);
    assert_int_equal(ev.attr.config, 0x10000);
    assert_int_equal(parse_ok("LLC-loads").attr.config, 0x2);
    assert_int_equal(parse_ok("dTLB-store-misses").attr.config, 0x10103);
    assert_int_equal(parse_ok("L1-icache-prefetches").attr.config, 0x201);
    assert_int_equal(parse_ok("branch-load-misses").attr.config, 0x10005);
    assert_int_equal(parse_ok("llc-load-misses").attr.config, 0x10002);
    expect_error("LLC-lod-misses", PMS_ENOENT, "unknown event 'LLC-lod-misses'");
}

static void test_software_names(void **state)
{
    (void)state;
    pms_event ev = parse_ok("task-clock");
    assert_int_equal(ev.attr.type, PERF_TYPE_SOFTWARE);
    assert_int_equal(ev.attr.config, PERF_COUNT_SW_TASK_CLOCK);
    assert_true(pms_event_is_software(&ev));
    assert_int_equal(parse_ok("cpu-clock").attr.config, PERF_COUNT_SW_CPU_CLOCK);
    assert_int_equal(parse_ok("faults").attr.config, PERF_COUNT_SW_PAGE_FAULTS);
    assert_int_equal(parse_ok("cs").attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
    assert_int_equal(parse_ok("major-faults").attr.config, PERF_COUNT_SW_PAGE_FAULTS_MAJ);
    assert_false(pms_event_is_software(&(pms_event){.attr = {.type = PERF_TYPE_HARDWARE}}));
}

static void test_modifiers(void **state)
{
    (void)state;
    pms_event ev = parse_ok("instructions:u");
    assert_false(ev.attr.exclude_user);
    assert_true(ev.attr.exclude_kernel);
    assert_true(ev.attr.exclude_hv);
    ev = parse_ok("cycles:k");
    assert_true(ev.attr.exclude_user);
    assert_false(ev.attr.exclude_kernel);
    ev = parse_ok("cycles:uk");
    assert_false(ev.attr.exclude_user || ev.attr.exclude_kernel);
    assert_true(ev.attr.exclude_hv);
    ev = parse_ok("cycles:h");
    assert_false(ev.attr.exclude_hv);
    assert_true(ev.attr.exclude_user && ev.attr.exclude_kernel);
    ev = parse_ok("cycles:upp");
    assert_int_equal(ev.attr.precise_ip, 2);
    assert_true(ev.attr.exclude_kernel);
    ev = parse_ok("cycles:p");
    assert_int_equal(ev.attr.precise_ip, 1);
    assert_false(ev.attr.exclude_kernel);
    expect_error("cycles:pppp", PMS_EINVAL, "too many 'p'");
    ev = parse_ok("cycles:uD");
    assert_true(ev.attr.pinned && ev.attr.exclude_kernel && !ev.attr.exclude_user);
    assert_false(parse_ok("cycles:u").attr.pinned);
    expect_error("cycles:x", PMS_EINVAL, "unknown modifier 'x' in ':x' (expected u, k, h, p or D)");
    expect_error("cycles:", PMS_EINVAL, "expected modifiers after ':'");
}

static void test_raw(void **state)
{
    (void)state;
    pms_event ev = parse_ok("r1a8");
    assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
    assert_int_equal(ev.attr.config, 0x1a8);
    assert_int_equal(ev.source, PMS_EVSRC_RAW);
    ev = parse_ok("r00c0:u");
    assert_int_equal(ev.attr.config, 0xc0);
    assert_true(ev.attr.exclude_kernel);
    expect_error("r12345678901234567", PMS_ENOENT, "unknown event");
    expect_error("rxyz", PMS_ENOENT, "unknown event 'rxyz'");
}

static void test_sysfs_formats(void **state)
{
    (void)state;
    use_fake_sysfs();
    pms_event ev = parse_ok("cpu/event=0x3c,umask=0x1/");
    assert_int_equal(ev.source, PMS_EVSRC_SYSFS);
    assert_int_equal(ev.attr.type, 4);
    assert_int_equal(ev.attr.config, 0x13c);
    /* a bare flag term is 1; cmask sits in bits 24-31 */
    ev = parse_ok("cpu/event=0xc0,umask=0x01,cmask=2,inv/");
    assert_int_equal(ev.attr.config, 0xc0 | 0x100 | (2u << 24) | (1u << 23));
    /* aliases from events/, with a config1 term */
    assert_int_equal(parse_ok("cpu/cycles-t/").attr.config, 0x3c | (1ULL << 32));
    ev = parse_ok("cpu/mem-loads/");
    assert_int_equal(ev.attr.config, 0x1cd);
    assert_int_equal(ev.attr.config1, 3);
    /* a split bit range: low 8 bits in 0-7, the next 4 in 32-35 */
    ev = parse_ok("fakeamd/event=0x1f3,umask=2/");
    assert_int_equal(ev.attr.type, 10);
    assert_int_equal(ev.attr.config, 0xf3 | 0x200 | (1ULL << 32));
    ev = parse_ok("cpu/config=0x1234,config1=7/:u");
    assert_int_equal(ev.attr.config, 0x1234);
    assert_int_equal(ev.attr.config1, 7);
    assert_true(ev.attr.exclude_kernel);
    expect_error("cpu/umask=0x1ff/", PMS_EINVAL, "umask=0x1ff does not fit in the bits of 'config:8-15'");
    expect_error("cpu/frobnicate=1/", PMS_EINVAL, "unknown term 'frobnicate'");
    expect_error("cpu/event=zz/", PMS_EINVAL, "expected a number after '='");
    expect_error("nopmu/event=1/", PMS_ENOENT, "no PMU named 'nopmu'");
    /* perf's form: the modifiers right after the closing '/' */
    ev = parse_ok("cpu/event=0x3c/uk");
    assert_int_equal(ev.attr.config, 0x3c);
    assert_false(ev.attr.exclude_kernel);
    assert_false(ev.attr.exclude_user);
    assert_true(parse_ok("cpu/event=0x3c/u").attr.exclude_kernel);
    expect_error("cpu/event=1/x", PMS_EINVAL, "unexpected 'x' after the closing '/'");
    expect_error("cpu/event=1/:", PMS_EINVAL, "expected modifiers after ':'");
    expect_error("cpu/event=1", PMS_EINVAL, "expected pmu/term=value");
    unsetenv("PMS_SYSFS_ROOT");
}

static void test_libpfm_skylake(void **state)
{
    (void)state;
    /* Intel SDM: INST_RETIRED.ANY_P = C0H/00H, L1D.REPLACEMENT = 51H/01H,
     * MEM_LOAD_RETIRED.L3_MISS = D1H/20H. */
    pms_event ev = parse_ok("INST_RETIRED:ANY_P");
    assert_int_equal(ev.source, PMS_EVSRC_PFM);
    assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
    assert_int_equal(ev.attr.config, 0xc0);
    assert_int_equal(parse_ok("skl::L1D:REPLACEMENT").attr.config, 0x151);
    assert_int_equal(parse_ok("MEM_LOAD_RETIRED:L3_MISS").attr.config, 0x20d1);
    ev = parse_ok("INST_RETIRED:ANY_P:u");
    assert_int_equal(ev.attr.config, 0xc0);
    assert_true(ev.attr.exclude_kernel);
    assert_false(ev.attr.exclude_user);
    expect_error("INST_RETIRED:NO_SUCH_UMASK", PMS_EINVAL, "libpfm4");
    expect_error("NOT_AN_EVENT_AT_ALL", PMS_ENOENT, "unknown event 'NOT_AN_EVENT_AT_ALL'");
}

static void test_bad_names(void **state)
{
    (void)state;
    expect_error("cycels", PMS_ENOENT, "did you mean 'cycles'?");
    expect_error("tsak-clock", PMS_ENOENT, "did you mean 'task-clock'?");
    expect_error("", PMS_EINVAL, "empty event name");
    expect_error("   ", PMS_EINVAL, "empty event name");
    char longname[300];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    expect_error(longname, PMS_EINVAL, "event name too long");
}

static void test_lists_and_groups(void **state)
{
    (void)state;
    use_fake_sysfs();
    pms_event *evs;
    size_t n;
    assert_int_equal(pms_event_list_parse("cycles,{task-clock,page-faults},cpu/event=1,umask=2/,cs", &evs, &n), PMS_OK);
    assert_int_equal(n, 5);
    assert_string_equal(evs[0].name, "cycles");
    assert_string_equal(evs[1].name, "task-clock");
    assert_string_equal(evs[2].name, "page-faults");
    assert_string_equal(evs[3].name, "cpu/event=1,umask=2/");
    assert_int_equal(evs[3].attr.config, 0x201);
    assert_int_equal(evs[0].group, 0);
    assert_int_equal(evs[1].group, 1);
    assert_int_equal(evs[2].group, 1);
    assert_int_equal(evs[3].group, 2);
    assert_int_equal(evs[4].group, 3);
    free(evs);

    assert_int_equal(pms_event_list_parse("{task-clock,page-faults}:u, cycles", &evs, &n), PMS_OK);
    assert_int_equal(n, 3);
    assert_string_equal(evs[0].name, "task-clock:u");
    assert_true(evs[1].attr.exclude_kernel);
    assert_false(evs[2].attr.exclude_kernel);
    assert_int_equal(evs[2].group, 1);
    free(evs);

    static const struct { const char *spec, *fragment; } bad[] = {
        {"{task-clock,page-faults", "missing '}'"},
        {"{task-clock,{cycles}}", "offset 12: groups cannot be nested"},
        {"task-clock,,cycles", "offset 11: expected an event name"},
        {"task-clock}", "'}' without '{'"},
        {"task-clock,", "expected an event name after ','"},
        {"{}", "expected an event name"},
        {"{task-clock}x", "expected ',' after '}'"},
        {"{task-clock}:q", "unknown modifier 'q'"},
        {"", "empty event list"},
        {"task-clock,bogus", "unknown event 'bogus'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        evs = (pms_event *)1;
        int r = pms_event_list_parse(bad[i].spec, &evs, &n);
        if (r >= 0) fail_msg("'%s' was accepted", bad[i].spec);
        assert_null(evs);
        if (!strstr(pms_strerror(), bad[i].fragment))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].spec, pms_strerror(), bad[i].fragment);
    }
    unsetenv("PMS_SYSFS_ROOT");
}

static void test_fallback(void **state)
{
    (void)state;
    pms_event ev = parse_ok("cycles:u"), sub;
    ev.group = 7;
    assert_int_equal(pms_event_fallback(&ev, PMS_FALLBACK_COUNTING, &sub), PMS_OK);
    assert_string_equal(sub.name, "task-clock:u"); /* the levels asked for, in the name too */
    assert_int_equal(sub.attr.type, PERF_TYPE_SOFTWARE);
    assert_int_equal(sub.attr.config, PERF_COUNT_SW_TASK_CLOCK);
    assert_true(sub.attr.exclude_kernel);
    assert_int_equal(sub.group, 7);
    assert_int_equal(pms_event_fallback(&ev, PMS_FALLBACK_SAMPLING, &sub), PMS_OK);
    assert_string_equal(sub.name, "cpu-clock:u");
    assert_int_equal(sub.attr.config, PERF_COUNT_SW_CPU_CLOCK);
    ev = parse_ok("cycles");
    assert_int_equal(pms_event_fallback(&ev, PMS_FALLBACK_SAMPLING, &sub), PMS_OK);
    assert_string_equal(sub.name, "cpu-clock");
    ev = parse_ok("cycles:k");
    assert_int_equal(pms_event_fallback(&ev, PMS_FALLBACK_SAMPLING, &sub), PMS_OK);
    assert_string_equal(sub.name, "cpu-clock:k");
    assert_true(sub.attr.exclude_user && !sub.attr.exclude_kernel);
    ev = parse_ok("page-faults");
    assert_int_equal(pms_event_fallback(&ev, PMS_FALLBACK_COUNTING, &sub), PMS_OK);
    assert_string_equal(sub.name, "page-faults");
}

/* perf's names of the user-space-only variant (evsel__fallback): ":u" appended, or "u" after
 * modifiers or a sysfs term list; a libpfm4 name keeps its own colons and gets ":u". */
static void test_user_only_name(void **state)
{
    (void)state;
    static const struct { const char *spec, *name; } cases[] = {
        {"task-clock", "task-clock:u"}, {"cycles:p", "cycles:pu"}, {"cycles:ppp", "cycles:pppu"},
        {"r003c", "r003c:u"},           {"cpu/event=0x3c/", "cpu/event=0x3c/u"},
    };
    use_fake_sysfs();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pms_event ev = parse_ok(cases[i].spec), user;
        assert_int_equal(pms__event_user_only(&ev, &user), PMS_OK);
        assert_string_equal(user.name, cases[i].name);
        assert_true(user.attr.exclude_kernel && user.attr.exclude_hv && !user.attr.exclude_user);
        /* perf's name parses back to the same levels */
        pms_event again = parse_ok(user.name);
        assert_true(again.attr.exclude_kernel && again.attr.exclude_hv && !again.attr.exclude_user);
        assert_int_equal(again.attr.config, ev.attr.config);
    }
    unsetenv("PMS_SYSFS_ROOT");
}

struct seen { int cycles, task_clock, l1d, alias, pfm, total; };
static int visit(const char *name, const char *desc, pms_event_source src, void *ctx)
{
    struct seen *s = ctx;
    assert_non_null(desc);
    s->total++;
    s->cycles += strcmp(name, "cycles") == 0 && src == PMS_EVSRC_GENERIC;
    s->task_clock += strcmp(name, "task-clock") == 0;
    s->l1d += strcmp(name, "L1-dcache-load-misses") == 0;
    s->alias += strcmp(name, "cpu/cycles-t/") == 0 && src == PMS_EVSRC_SYSFS;
    s->pfm += strcmp(name, "skl::INST_RETIRED") == 0 && src == PMS_EVSRC_PFM;
    return 0;
}
static int stop_at_third(const char *name, const char *desc, pms_event_source src, void *ctx)
{
    (void)name, (void)desc, (void)src;
    return ++*(int *)ctx == 3 ? 42 : 0;
}

/* Only the clock events count nanoseconds: a page-faults period is in faults. */
static void test_counts_time(void **state)
{
    (void)state;
    const char *spec[] = {"cpu-clock", "task-clock:u", "page-faults", "context-switches", "cycles"};
    const int want[] = {1, 1, 0, 0, 0};
    for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
        pms_event ev;
        assert_int_equal(pms_event_parse(spec[i], &ev), PMS_OK);
        if (pms_event_counts_time(ev.attr.type, ev.attr.config) != want[i]) fail_msg("%s", spec[i]);
    }
}

static void test_foreach(void **state)
{
    (void)state;
    use_fake_sysfs();
    struct seen s = {0};
    assert_int_equal(pms_event_foreach(visit, &s), 0);
    assert_int_equal(s.cycles, 1);
    assert_int_equal(s.task_clock, 1);
    assert_int_equal(s.l1d, 1);
    assert_int_equal(s.alias, 1);
    assert_int_equal(s.pfm, 1);
    assert_true(s.total > 100);
    int calls = 0;
    assert_int_equal(pms_event_foreach(stop_at_third, &calls), 42);
    assert_int_equal(calls, 3);
    unsetenv("PMS_SYSFS_ROOT");
}

/* perf's tool events: parsed as such, in groups too, without modifiers; probe says countable. */
static void test_tool_events(void **state)
{
    (void)state;
    pms_event ev = parse_ok("duration_time");
    assert_int_equal(ev.source, PMS_EVSRC_TOOL);
    assert_int_equal(ev.attr.type, PMS_EVENT_TOOL_TYPE);
    assert_int_equal(ev.attr.config, PMS_EVENT_TOOL_DURATION);
    assert_true(pms_event_is_tool(&ev));
    assert_int_equal(pms_event_probe(&ev), PMS_OK);
    assert_int_equal(parse_ok("user_time").attr.config, PMS_EVENT_TOOL_USER);
    assert_int_equal(parse_ok("system_time").attr.config, PMS_EVENT_TOOL_SYSTEM);
    assert_false(pms_event_is_tool(&(pms_event){.attr = {.type = PERF_TYPE_SOFTWARE}}));
    expect_error("duration_time:u", PMS_EINVAL, "takes no modifiers");
    pms_event *list;
    size_t n;
    assert_int_equal(pms_event_list_parse("{task-clock,duration_time},user_time", &list, &n), PMS_OK);
    assert_int_equal(n, 3);
    assert_int_equal(list[1].source, PMS_EVSRC_TOOL);
    assert_int_equal(list[0].group, list[1].group);
    assert_int_not_equal(list[1].group, list[2].group);
    struct perf_event_attr attr = list[1].attr;
    assert_int_equal(pms_event_open(list[1].name, &attr, 0, -1, -1, 0), PMS_EINVAL);
    free(list);
}

int main(void)
{
    /* libpfm4 reads this once, at its initialisation. */
    setenv("LIBPFM_FORCE_PMU", "skl", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic_hardware_and_aliases),
        cmocka_unit_test(test_tool_events),
        cmocka_unit_test(test_cache_names),
        cmocka_unit_test(test_software_names),
        cmocka_unit_test(test_modifiers),
        cmocka_unit_test(test_raw),
        cmocka_unit_test(test_sysfs_formats),
        cmocka_unit_test(test_libpfm_skylake),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_lists_and_groups),
        cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_user_only_name),
        cmocka_unit_test(test_counts_time),
        cmocka_unit_test(test_foreach),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
