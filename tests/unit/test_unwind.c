/* The dwarf unwinder on captured samples: this process samples itself with user registers
 * and stack copies (as record --call-graph dwarf) while it runs a known chain
 * (outer -> middle -> leaf), the records go through a perf.data file, and every sample
 * that landed in the leaf unwinds to leaf, middle, outer and this test, in that order.
 * ctest-labels: serial */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/event.h"
#include "pmuscope/perfdata.h"
#include "pmuscope/sampler.h"
#include "pmuscope/symbols.h"
#include "symbol/unwind.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile uint64_t sink;

__attribute__((noinline)) static void unwind_leaf(uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) sink += i * i;
}
__attribute__((noinline)) static void unwind_middle(uint64_t n)
{
    unwind_leaf(n);
    sink++;
}
__attribute__((noinline)) static void unwind_outer(uint64_t n)
{
    unwind_middle(n);
    sink++;
}

static int keep(const struct perf_event_header *h, void *ctx) { return pms_perfdata_writer_add(ctx, h); }

/* What the samples unwound to. */
typedef struct verdict {
    pms_symbols *symbols;
    pms__unwinder *unwinder;
    uint64_t with_stack, in_leaf, whole_chain;
    char first_bad[256];
} verdict;

static const char *name_of(verdict *v, const pms_sample *s, uint64_t ip)
{
    pms_symbol_info info;
    pms_symbols_resolve(v->symbols, s->pid, ip, s->time, 0, &info);
    return info.symbol ? info.symbol : "?";
}

/* name is function `want`, or a clone of it the compiler made (want.constprop.0) */
static int is_function(const char *name, const char *want)
{
    size_t len = strlen(want);
    return strncmp(name, want, len) == 0 && (name[len] == 0 || name[len] == '.');
}

static int on_sample(const pms_sample *s, void *ctx)
{
    verdict *v = ctx;
    uint64_t frames[PMS__UNWIND_MAX_STACK];
    if (!s->user_stack) return 0;
    v->with_stack++;
    size_t n = pms__unwind(v->unwinder, s, frames, PMS__UNWIND_MAX_STACK);
    if (n == 0 || !is_function(name_of(v, s, frames[0]), "unwind_leaf")) return 0;
    v->in_leaf++;
    static const char *const want[] = {"unwind_leaf", "unwind_middle", "unwind_outer", "test_unwind_captured"};
    size_t k = 0;
    while (k < 4 && k < n && is_function(name_of(v, s, frames[k]), want[k])) k++;
    if (k == 4) v->whole_chain++;
    else if (!v->first_bad[0])
        snprintf(v->first_bad, sizeof v->first_bad, "frame %zu of %zu is %s, expected %s", k, n,
                 k < n ? name_of(v, s, frames[k]) : "(none)", want[k]);
    return 0;
}

static int on_mmap(const pms_mmap_event *m, void *ctx) { return pms_symbols_add_mmap(((verdict *)ctx)->symbols, m); }

static void test_unwind_captured(void **state)
{
    (void)state;
    pms_sampling_event ev = {.period = 100000};
    assert_int_equal(pms_event_parse("cpu-clock", &ev.event), PMS_OK);
    pms_sampler_config cfg = {.events = &ev, .nevents = 1, .callchain = 1, .dwarf_stack_size = PMS_DWARF_STACK_DEFAULT};
    pms_sampler *s;
    assert_int_equal(pms_sampler_open(&s, &cfg, getpid()), PMS_OK);
    size_t nattrs;
    const pms_perfdata_attr *attrs = pms_sampler_attrs(s, &nattrs);
    const char *path = pms_test_write_temp(".data", NULL, 0);
    pms_perfdata_writer *w;
    assert_int_equal(pms_perfdata_writer_open(&w, path, attrs, nattrs, 0, NULL), PMS_OK);
    assert_int_equal(pms_sampler_synthesize(s, getpid(), keep, w), PMS_OK);
    assert_int_equal(pms_sampler_enable(s), PMS_OK);
    pms_sampler_stats st;
    do { /* samples follow this thread's CPU time: 300 of them, however busy the machine */
        unwind_outer(1000000);
        assert_true(pms_sampler_poll(s, 0, keep, w) >= 0);
        pms_sampler_get_stats(s, &st);
    } while (st.samples < 300);
    assert_int_equal(pms_sampler_disable(s), PMS_OK);
    assert_true(pms_sampler_poll(s, 0, keep, w) >= 0);
    pms_sampler_close(s);
    assert_int_equal(pms_perfdata_writer_close(w), PMS_OK);

    verdict v = {0};
    assert_int_equal(pms_symbols_create(&v.symbols), PMS_OK);
    assert_int_equal(pms__unwinder_create(&v.unwinder, v.symbols), PMS_OK);
    pms_perfdata_reader *r;
    assert_int_equal(pms_perfdata_open(&r, path), PMS_OK);
    pms_perfdata_handlers h = {.sample = on_sample, .mmap = on_mmap, .ctx = &v};
    assert_int_equal(pms_perfdata_read(r, &h), PMS_OK);
    pms_perfdata_close(r);
    pms__unwinder_destroy(v.unwinder);
    pms_symbols_destroy(v.symbols);
    remove(path);
    if (v.whole_chain != v.in_leaf) fail_msg("%llu of %llu samples in the leaf unwind wholly; %s",
                                             (unsigned long long)v.whole_chain, (unsigned long long)v.in_leaf, v.first_bad);
    assert_true(v.with_stack >= 300);
    assert_true(v.in_leaf >= 30); /* the leaf does nearly all of the work */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_unwind_captured)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
