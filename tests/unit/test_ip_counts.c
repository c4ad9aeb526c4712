/* The profile's counts per (key, IP): samples counted a few at a time behind a prefetch
 * queue, through the table's growth, against plain per-pair counters and the order in
 * which the pairs first appear. */
#include "test_support.h"
#include "hotspot/ip_counts.h"
#include "splitmix.h"

#include <stdlib.h>

#define KEYS 48
#define IPS 3000

struct ref {
    uint64_t samples, period, time;
    uint32_t pid;
    size_t order; /* 1 + place in the order first seen; 0: not seen */
};

static void check(const pms__ip_counts *c, const struct ref *ref, const size_t *seen, size_t nseen)
{
    assert_int_equal(c->n, nseen);
    for (size_t i = 0; i < nseen; i++) {
        const pms__ip_first *first;
        const pms__ip_count *e = pms__ip_counts_get(c, i, &first);
        size_t pair = seen[i];
        assert_int_equal(e->key, pair / IPS * 0x100000001ull); /* keys that differ in high and low bits */
        assert_int_equal(e->ip, 0x400000 + pair % IPS);
        assert_int_equal(e->samples, ref[pair].samples);
        assert_int_equal(e->period, ref[pair].period);
        assert_int_equal(first->time, ref[pair].time);
        assert_int_equal(first->pid, ref[pair].pid);
    }
}

static void test_counts_match_plain_counters(void **state)
{
    (void)state;
    struct ref *ref = calloc(KEYS * IPS, sizeof *ref);
    size_t *seen = malloc(KEYS * IPS * sizeof *seen), nseen = 0;
    assert_non_null(ref);
    assert_non_null(seen);
    pms__ip_counts c;
    pms__ip_counts_init(&c);
    for (uint64_t t = 1; t <= 400000; t++) {
        /* skewed: most samples on few pairs, as in a profile, and every pair now and then */
        size_t pair = below(4) ? below(64) * 37 % (KEYS * IPS) : below(KEYS * IPS);
        uint64_t period = 1 + below(1000);
        uint32_t pid = (uint32_t)below(100000);
        assert_int_equal(pms__ip_counts_add(&c, pair / IPS * 0x100000001ull, 0x400000 + pair % IPS, period, t, pid), 0);
        if (!ref[pair].order) {
            seen[nseen++] = pair;
            ref[pair] = (struct ref){0, 0, t, pid, nseen};
        }
        ref[pair].samples++;
        ref[pair].period += period;
        if (t % 99991 == 0) { /* a flush in the middle, as pms_profile_add does */
            assert_int_equal(pms__ip_counts_flush(&c), 0);
            check(&c, ref, seen, nseen);
        }
    }
    assert_int_equal(pms__ip_counts_flush(&c), 0);
    assert_int_equal(pms__ip_counts_flush(&c), 0); /* nothing left: no change */
    check(&c, ref, seen, nseen);
    assert_true(nseen > KEYS * IPS / 2); /* the table grew many times on the way */
    pms__ip_counts_free(&c);
    free(ref);
    free(seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_counts_match_plain_counters)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
