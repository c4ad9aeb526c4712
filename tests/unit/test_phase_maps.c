/* The phase module's address map (src/phase/maps.c): an address in a file mapping becomes
 * the file's offset tagged by its base name, the same number wherever the file is loaded
 * and whichever process loads it; other addresses stay raw; a later mapping replaces what it
 * overlaps; a forked child starts with its parent's mappings. The caller's hint (the
 * mapping hit last) gives the same answers as the full search, also after the mappings it
 * pointed at were replaced, removed or moved in the list. */
#include "test_support.h"
#include "phase/maps.h"
#include "pmuscope/error.h"

#include <stdint.h>

static pms_mmap_event file_map(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const char *name)
{
    return (pms_mmap_event){.pid = pid, .tid = pid, .start = start, .len = len, .pgoff = pgoff, .executable = 1,
                            .filename = name};
}

static uint64_t relocate(const pms_maps *m, uint32_t pid, uint64_t ip)
{
    size_t fresh = 0;
    return pms__maps_relocate(m, pid, ip, &fresh);
}

static void test_file_offsets_are_run_independent(void **state)
{
    (void)state;
    pms_maps *a, *b;
    assert_int_equal(pms__maps_create(&a), PMS_OK);
    assert_int_equal(pms__maps_create(&b), PMS_OK);
    /* the same library at two load addresses in two runs, from two directories */
    pms_mmap_event la = file_map(10, 0x7f0000001000, 0x5000, 0x1000, "/usr/lib/libz.so.1");
    pms_mmap_event lb = file_map(20, 0x7e0000001000, 0x5000, 0x1000, "/opt/lib/libz.so.1");
    assert_int_equal(pms__maps_add(a, &la), PMS_OK);
    assert_int_equal(pms__maps_add(b, &lb), PMS_OK);
    uint64_t ra = relocate(a, 10, 0x7f0000001234), rb = relocate(b, 20, 0x7e0000001234);
    assert_int_equal(ra, rb);
    assert_int_equal(ra & ((1ull << 40) - 1), 0x1234); /* pgoff 0x1000 + 0x234 */
    assert_true(ra >> 40 != 0);
    /* another process, an address outside the mapping, anonymous memory: raw */
    assert_int_equal(relocate(a, 11, 0x7f0000001234), 0x7f0000001234);
    assert_int_equal(relocate(a, 10, 0x7f0000006000), 0x7f0000006000);
    pms_mmap_event anon = file_map(10, 0x10000, 0x1000, 0, "//anon");
    assert_int_equal(pms__maps_add(a, &anon), PMS_OK);
    assert_int_equal(relocate(a, 10, 0x10010), 0x10010);
    /* a different file at the same offset: another tag */
    pms_mmap_event other = file_map(20, 0x7d0000001000, 0x5000, 0x1000, "/usr/lib/liblzma.so.5");
    assert_int_equal(pms__maps_add(b, &other), PMS_OK);
    assert_int_not_equal(relocate(b, 20, 0x7d0000001234), ra);
    pms__maps_free(a);
    pms__maps_free(b);
}

static void test_fork_and_replacement(void **state)
{
    (void)state;
    pms_maps *m;
    assert_int_equal(pms__maps_create(&m), PMS_OK);
    pms_mmap_event prog = file_map(1, 0x400000, 0x2000, 0, "/usr/bin/gzip");
    assert_int_equal(pms__maps_add(m, &prog), PMS_OK);
    assert_int_equal(pms__maps_fork(m, 1, 2), PMS_OK);
    assert_int_equal(relocate(m, 2, 0x400010), relocate(m, 1, 0x400010));
    /* the child execs another program over the same range: its addresses change, the
     * parent's do not */
    pms_mmap_event exec = file_map(2, 0x400000, 0x2000, 0, "/usr/bin/xz");
    assert_int_equal(pms__maps_add(m, &exec), PMS_OK);
    assert_int_not_equal(relocate(m, 2, 0x400010), relocate(m, 1, 0x400010));
    /* an anonymous mapping over part of the parent's program leaves that part raw */
    pms_mmap_event jit = file_map(1, 0x401000, 0x1000, 0, "//anon");
    assert_int_equal(pms__maps_add(m, &jit), PMS_OK);
    assert_int_equal(relocate(m, 1, 0x401010), 0x401010);
    assert_int_equal(relocate(m, 1, 0x400010) & 0xffff, 0x10);
    pms__maps_free(m);
}

/* Many mappings in several processes, replaced and forked as the addresses are asked for in
 * a random walk: relocating with one hint kept across all calls gives what a fresh search
 * gives every time. */
static void test_hint_agrees_with_full_search(void **state)
{
    (void)state;
    pms_maps *m;
    assert_int_equal(pms__maps_create(&m), PMS_OK);
    static const char *const names[] = {"/bin/a", "/lib/b.so", "/lib/c.so", "/lib/d.so"};
    uint64_t x = 88172645463325252ull; /* xorshift64 */
    size_t hint = 0, hits = 0;
    for (int step = 0; step < 20000; step++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t pid = 1 + (uint32_t)(x % 3);
        uint64_t page = (x >> 8) % 64;
        if (step % 97 == 0) {
            pms_mmap_event e = file_map(pid, 0x100000 + page * 0x1000, 0x1000 * (1 + (x >> 20) % 4), (x >> 24) % 8 * 0x1000,
                                        names[(x >> 30) % 4]);
            if ((x >> 40) % 5 == 0) e.filename = "//anon";
            assert_int_equal(pms__maps_add(m, &e), PMS_OK);
        } else if (step % 1009 == 0) {
            assert_int_equal(pms__maps_fork(m, pid, 1 + pid % 3), PMS_OK);
        }
        uint64_t ip = 0x100000 + page * 0x1000 + (x >> 12) % 0x1000;
        uint64_t want = relocate(m, pid, ip);
        assert_int_equal(pms__maps_relocate(m, pid, ip, &hint), want);
        hits += want != ip;
    }
    assert_true(hits > 5000); /* most addresses fell in a file mapping: the hint was used */
    pms__maps_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_offsets_are_run_independent),
        cmocka_unit_test(test_fork_and_replacement),
        cmocka_unit_test(test_hint_agrees_with_full_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
