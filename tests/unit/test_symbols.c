/* The symbol map: real ASLR (this process's own /proc/self/maps, PIE executable and
 * libc), the hotspots binary mapped as the kernel maps it, fork inheritance, mappings
 * replaced over time, buckets, and file-offset lookups; expected names from nm. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "pmuscope/symbols.h"
#include "binary_helpers.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int pms_test_marker_function(int x);
__attribute__((noinline)) int pms_test_marker_function(int x) { return x * 3 + 1; }

/* Feeds the executable mappings of this very process, as perf would synthesise them. */
static void add_own_maps(pms_symbols *s, uint32_t pid)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[PATH_MAX + 256];
    while (fgets(line, sizeof line, f)) {
        unsigned long start, end, off;
        char perms[8], path[PATH_MAX] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %s", &start, &end, perms, &off, path) < 4) continue;
        pms_mmap_event m = {.pid = pid, .tid = pid, .start = start, .len = end - start, .pgoff = off,
                            .executable = perms[2] == 'x', .filename = path};
        assert_int_equal(pms_symbols_add_mmap(s, &m), PMS_OK);
    }
    fclose(f);
}

static void test_own_process_pie_and_libc(void **state)
{
    (void)state;
    pms_symbols *s;
    assert_int_equal(pms_symbols_create(&s), PMS_OK);
    add_own_maps(s, 77);
    pms_symbol_info si;
    uint64_t ip = (uint64_t)(uintptr_t)&pms_test_marker_function + 3;
    pms_symbols_resolve(s, 77, ip, 0, 0, &si);
    assert_true(si.mapped);
    assert_non_null(si.symbol);
    assert_string_equal(si.symbol, "pms_test_marker_function");
    assert_int_equal(si.symbol_offset, 3);
    assert_non_null(strstr(si.binary, "test_symbols"));
    /* The file offset agrees with nm's address through the program headers. */
    uint64_t addr;
    assert_int_equal(pms_symbols_offset_to_address(s, si.binary, si.file_offset, &addr), PMS_OK);
    assert_int_equal(addr, pms_test_nm_address(si.binary, "pms_test_marker_function") + 3);

    /* A shared library: getpid in libc (aliases such as __getpid share its address). */
    ip = (uint64_t)(uintptr_t)&getpid;
    pms_symbols_resolve(s, 77, ip, 0, 0, &si);
    assert_non_null(strstr(si.binary, "libc"));
    assert_non_null(si.symbol);
    assert_non_null(strstr(si.symbol, "getpid"));
    assert_int_equal(si.symbol_offset, 0);
    pms_symbols_destroy(s);
}

static void test_hotspots_mapped_like_the_kernel(void **state)
{
    (void)state;
    const char *bin = pms_test_workload("hotspots");
    const uint64_t text = pms_test_text_offset(bin);
    pms_symbols *s;
    assert_int_equal(pms_symbols_create(&s), PMS_OK);
    /* The text segment only, at its file offset, as perf record shows it. */
    const uint64_t base = 0x5651cb5a8000;
    pms_mmap_event m = {.pid = 5, .tid = 5, .start = base + text, .len = 0x1000, .pgoff = text,
                        .executable = 1, .filename = bin, .time = 100};
    assert_int_equal(pms_symbols_add_mmap(s, &m), PMS_OK);
    static const char *names[] = {"hot_a", "hot_b", "hot_c", "hot_d", "hot_e"};
    for (int i = 0; i < 5; i++) {
        uint64_t a = pms_test_nm_address(bin, names[i]);
        pms_symbol_info si;
        pms_symbols_resolve(s, 5, base + a + 5, 200, 0, &si);
        assert_string_equal(si.binary, bin);
        assert_int_equal(si.file_offset, a + 5); /* vaddr == offset in this binary's text */
        assert_non_null(si.symbol);
        assert_string_equal(si.symbol, names[i]);
        assert_int_equal(si.symbol_offset, 5);
        assert_int_equal(si.symbol_address, a);
        /* The same by file offset, as valgrind-side addresses arrive. */
        assert_int_equal(pms_symbols_lookup_file(s, bin, a + 1, &si), PMS_OK);
        assert_string_equal(si.symbol, names[i]);
        assert_int_equal(si.symbol_offset, 1);
    }
    /* A forked child sees its parent's mappings; a thread (pid == ppid) changes nothing. */
    pms_task_event fork = {.type = PERF_RECORD_FORK, .pid = 6, .ppid = 5, .tid = 6, .ptid = 5};
    assert_int_equal(pms_symbols_add_task(s, &fork), PMS_OK);
    pms_symbol_info si;
    pms_symbols_resolve(s, 6, base + pms_test_nm_address(bin, "hot_c"), 300, 0, &si);
    assert_non_null(si.symbol);
    assert_string_equal(si.symbol, "hot_c");
    /* Kernel-mode samples: in [unknown] until the kernel's maps are known (as in perf), then
     * in the kernel or the module (pid -1 records, perf's names), [unknown] outside them. */
    pms_symbols_resolve(s, 5, 0xffffffff81000000ull, 0, 1, &si);
    assert_string_equal(si.binary, PMS_BINARY_UNKNOWN);
    pms_mmap_event kernel = {.pid = UINT32_MAX, .start = 0xffffffff81000000ull, .len = 0x1000000,
                             .pgoff = 0xffffffff81000000ull, .executable = 1, .filename = "[kernel.kallsyms]_text"};
    pms_mmap_event module = {.pid = UINT32_MAX, .start = 0xffffffffa0000000ull, .len = 0x6000, .executable = 1,
                             .filename = "/lib/modules/6.1.0/kernel/drivers/usb/storage/usb-storage.ko.xz"};
    assert_int_equal(pms_symbols_add_mmap(s, &kernel), PMS_OK);
    assert_int_equal(pms_symbols_add_mmap(s, &module), PMS_OK);
    /* Recorded on another kernel (its build-id is not this one's): named by address only,
     * as perf does without that kernel's kallsyms. */
    pms_perfdata_build_id other = {"00112233445566778899aabbccddeeff00112233", "[kernel.kallsyms]",
                                   PERF_RECORD_MISC_KERNEL, -1};
    assert_int_equal(pms_symbols_add_build_id(s, &other), PMS_OK);
    pms_symbols_resolve(s, 5, 0xffffffff81000000ull, 0, 1, &si);
    assert_string_equal(si.binary, PMS_BINARY_KERNEL);
    assert_null(si.symbol);
    pms_symbols_resolve(s, 5, 0xffffffffa0000010ull, 0, 1, &si);
    assert_string_equal(si.binary, "[usb_storage]");
    pms_symbols_resolve(s, 5, 0xffffffffff600000ull, 0, 1, &si);
    assert_string_equal(si.binary, PMS_BINARY_UNKNOWN);
    /* Recorded against a vmlinux file: perf's [kernel.vmlinux]. */
    pms_perfdata_build_id vmlinux = {"948da3c05fff6a515eab7b9dd416e30564b2ccf2", "/tmp/vmlinux", PERF_RECORD_MISC_KERNEL, -1};
    assert_int_equal(pms_symbols_add_build_id(s, &vmlinux), PMS_OK);
    pms_symbols_resolve(s, 5, 0xffffffff81000000ull, 0, 1, &si);
    assert_string_equal(si.binary, "[kernel.vmlinux]");
    pms_symbols_resolve(s, 5, 0x1234, 0, 0, &si);
    assert_string_equal(si.binary, PMS_BINARY_UNKNOWN);
    assert_int_equal(si.mapped, 0);
    pms_symbols_resolve(s, 999, base + text + 0x10, 0, 0, &si);
    assert_string_equal(si.binary, PMS_BINARY_UNKNOWN);
    pms_symbols_destroy(s);
}

/* After an exec the same addresses belong to another file: the mapping in effect at the
 * sample's time wins. */
static void test_mapping_replaced_over_time(void **state)
{
    (void)state;
    pms_symbols *s;
    assert_int_equal(pms_symbols_create(&s), PMS_OK);
    pms_mmap_event old = {.pid = 9, .start = 0x400000, .len = 0x10000, .executable = 1, .filename = "/old", .time = 10};
    pms_mmap_event new = {.pid = 9, .start = 0x400000, .len = 0x10000, .executable = 1, .filename = "/new", .time = 50};
    pms_mmap_event data = {.pid = 9, .start = 0x900000, .len = 0x10000, .executable = 0, .filename = "/data"};
    assert_int_equal(pms_symbols_add_mmap(s, &old), PMS_OK);
    assert_int_equal(pms_symbols_add_mmap(s, &new), PMS_OK);
    assert_int_equal(pms_symbols_add_mmap(s, &data), PMS_OK);
    pms_symbol_info si;
    pms_symbols_resolve(s, 9, 0x400010, 20, 0, &si);
    assert_string_equal(si.binary, "/old");
    pms_symbols_resolve(s, 9, 0x400010, 60, 0, &si);
    assert_string_equal(si.binary, "/new");
    assert_int_equal(si.file_offset, 0x10);
    assert_null(si.symbol); /* /new does not exist */
    pms_symbols_resolve(s, 9, 0x400010, 5, 0, &si); /* before both: the earliest */
    assert_string_equal(si.binary, "/old");
    pms_symbols_resolve(s, 9, 0x900010, 60, 0, &si); /* data mappings are not code */
    assert_string_equal(si.binary, PMS_BINARY_UNKNOWN);

    assert_int_equal(pms_symbols_lookup_file(s, "/nonexistent/bin", 0, &si), PMS_ENOENT);
    const char *not_elf = pms_test_write_temp(".txt", "hello", 5);
    assert_int_equal(pms_symbols_lookup_file(s, not_elf, 0, &si), PMS_EFORMAT);
    assert_non_null(strstr(pms_strerror(), not_elf));
    remove(not_elf);
    pms_symbols_destroy(s);
}

/* A child forked at time 30 inherits what its parent had mapped then; the parent's later
 * mapping over the same addresses (time 40) is not the child's, even for samples after 40
 * (perf_data_converter's perf.data.remmap-3.2 is such a recording). */
static void test_fork_inherits_maps_of_fork_time(void **state)
{
    (void)state;
    pms_symbols *s;
    assert_int_equal(pms_symbols_create(&s), PMS_OK);
    pms_mmap_event foo = {.pid = 1, .start = 0x7000, .len = 0x1000, .executable = 1, .filename = "/libfoo.so", .time = 10};
    pms_mmap_event bar = {.pid = 1, .start = 0x7000, .len = 0x1000, .executable = 1, .filename = "/libbar.so", .time = 40};
    pms_task_event fork = {.type = PERF_RECORD_FORK, .pid = 2, .ppid = 1, .tid = 2, .ptid = 1, .time = 30};
    assert_int_equal(pms_symbols_add_mmap(s, &foo), PMS_OK);
    assert_int_equal(pms_symbols_add_task(s, &fork), PMS_OK);
    assert_int_equal(pms_symbols_add_mmap(s, &bar), PMS_OK);
    pms_symbol_info si;
    pms_symbols_resolve(s, 2, 0x7010, 50, 0, &si);
    assert_string_equal(si.binary, "/libfoo.so");
    pms_symbols_resolve(s, 1, 0x7010, 50, 0, &si);
    assert_string_equal(si.binary, "/libbar.so");
    pms_symbols_resolve(s, 1, 0x7010, 35, 0, &si);
    assert_string_equal(si.binary, "/libfoo.so");
    pms_symbols_destroy(s);
}

/* A binary rebuilt since the recording (another build-id on disk) is not symbolised with
 * the new build's symbols, and is listed with both build-ids. */
static void test_build_id_mismatch(void **state)
{
    (void)state;
    const char *bin = pms_test_workload("hotspots");
    const uint64_t text = pms_test_text_offset(bin), base = 0x5651cb5a8000, hot_a = pms_test_nm_address(bin, "hot_a");
    for (int stale = 0; stale < 2; stale++) {
        pms_symbols *s;
        assert_int_equal(pms_symbols_create(&s), PMS_OK);
        char hex[64] = "", cmd[PATH_MAX + 64]; /* the build-id as binutils' readelf reads it */
        snprintf(cmd, sizeof cmd, "readelf -n '%s' | awk '/Build ID/{print $3}'", bin);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        assert_int_equal(fscanf(p, "%63s", hex), 1);
        pclose(p);
        pms_perfdata_build_id b = {"", bin, PERF_RECORD_MISC_USER, 5};
        snprintf(b.hex, sizeof b.hex, "%.40s", stale ? "00112233445566778899aabbccddeeff00112233" : hex);
        assert_int_equal(pms_symbols_add_build_id(s, &b), PMS_OK);
        pms_mmap_event m = {.pid = 5, .tid = 5, .start = base + text, .len = 0x1000, .pgoff = text,
                            .executable = 1, .filename = bin, .time = 1};
        assert_int_equal(pms_symbols_add_mmap(s, &m), PMS_OK);
        pms_symbol_info si;
        pms_symbols_resolve(s, 5, base + hot_a, 2, 0, &si);
        const char *path, *recorded, *on_disk;
        if (stale) {
            assert_null(si.symbol);
            assert_int_equal(pms_symbols_build_id_mismatches(s, 0, &path, &recorded, &on_disk), 1);
            assert_string_equal(path, bin);
            assert_string_equal(recorded, b.hex);
            assert_string_equal(on_disk, hex);
        } else {
            assert_string_equal(si.symbol, "hot_a");
            assert_int_equal(pms_symbols_build_id_mismatches(s, 0, NULL, NULL, NULL), 0);
        }
        pms_symbols_destroy(s);
    }
}

/* Absolute symbols are values, not places: libgcc_s's version nodes (GCC_3.0 ... GCC_4.7.0,
 * OBJECTs at 0 in SHN_ABS) must name none of its first pages (.init, .plt), which perf
 * leaves as addresses. The library is the one this machine's loader finds. */
static void test_absolute_symbols_name_nothing(void **state)
{
    (void)state;
    void *h = dlopen("libgcc_s.so.1", RTLD_NOW);
    assert_non_null(h);
    struct link_map *lm = NULL;
    assert_int_equal(dlinfo(h, RTLD_DI_LINKMAP, &lm), 0);
    pms_symbols *s;
    assert_int_equal(pms_symbols_create(&s), PMS_OK);
    pms_symbol_info si;
    int named = 0;
    for (uint64_t off = 0; off < 0x4000; off += 4) {
        if (pms_symbols_lookup_file(s, lm->l_name, off, &si) != PMS_OK || !si.symbol) continue;
        assert_true(strncmp(si.symbol, "GCC_", 4) != 0);
        named++;
    }
    assert_true(named > 0); /* the scan reached named code (the .plt stubs at least) */
    pms_symbols_destroy(s);
    dlclose(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_process_pie_and_libc),
        cmocka_unit_test(test_hotspots_mapped_like_the_kernel),
        cmocka_unit_test(test_mapping_replaced_over_time),
        cmocka_unit_test(test_fork_inherits_maps_of_fork_time),
        cmocka_unit_test(test_build_id_mismatch),
        cmocka_unit_test(test_absolute_symbols_name_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
