/* util/output.h, the one way pmuscope writes a file: a regular file replaced atomically
 * (the old one intact until the commit, and after an abort or a failed write), a symbolic
 * link followed, .old kept where asked, modes, a device and a FIFO written in place, and
 * every failure named. */
#include "test_support.h"
#include "pmuscope/error.h"
#include "util/error.h"
#include "util/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pms-output-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return pms_test_system("rm -rf '%s'", dir);
}

static const char *in_dir(const char *name)
{
    static char path[4][PATH_MAX];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, PATH_MAX, "%s/%s", dir, name);
    return p;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void assert_holds(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_string_equal(buf, text);
}

static int write_text(FILE *f, void *ctx)
{
    fputs(ctx, f);
    return 0;
}

/* Files in dir whose name holds ".tmp-". */
static int temporaries(void) { return pms_test_system("ls '%s' | grep -q '\\.tmp-'", dir) == 0; }

static void test_replaces_a_file_only_at_the_commit(void **state)
{
    (void)state;
    const char *path = in_dir("a.txt");
    put(path, "old");
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    pms__output o;
    assert_int_equal(pms__output_open(&o, path, 0), 0);
    assert_false(o.in_place);
    assert_true(o.seekable);
    fputs("new", pms__output_stream(&o));
    assert_int_equal(fflush(o.stream), 0);
    assert_holds(path, "old"); /* written beside it until the commit */
    assert_true(temporaries());
    assert_int_equal(pms__output_commit(&o), 0);
    assert_holds(path, "new");
    assert_int_equal(stat(path, &after), 0);
    assert_true(after.st_ino != before.st_ino); /* renamed over it, not rewritten */
    assert_false(temporaries());
}

static void test_abort_leaves_the_file_as_it_was(void **state)
{
    (void)state;
    const char *path = in_dir("b.txt");
    put(path, "old");
    pms__output o;
    assert_int_equal(pms__output_open(&o, path, 0), 0);
    assert_int_equal(pms__output_write(&o, "half", 4), 0);
    pms__output_abort(&o);
    assert_holds(path, "old");
    assert_false(temporaries());
    /* a file that was not there is not left behind either */
    const char *none = in_dir("never.txt");
    assert_int_equal(pms__output_open(&o, none, 0), 0);
    pms__output_abort(&o);
    assert_int_equal(access(none, F_OK), -1);
}

static void test_symbolic_link_followed(void **state)
{
    (void)state;
    const char *target = in_dir("target.txt"), *link = in_dir("link.txt");
    put(target, "old");
    assert_int_equal(symlink("target.txt", link), 0); /* relative, as ln -s writes them */
    pms__output o;
    assert_int_equal(pms__output_open(&o, link, 0), 0);
    fputs("new", pms__output_stream(&o));
    assert_int_equal(pms__output_commit(&o), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* still a link */
    assert_holds(target, "new");
    /* a dangling link: its target is made, as the shell's > makes it */
    const char *dangling = in_dir("dangling.txt");
    assert_int_equal(symlink("made.txt", dangling), 0);
    assert_int_equal(pms__output_save(dangling, 0, write_text, "made"), 0);
    assert_holds(in_dir("made.txt"), "made");
}

static void test_keep_old_and_modes(void **state)
{
    (void)state;
    const char *path = in_dir("p.data"), *old = in_dir("p.data.old");
    put(path, "first");
    assert_int_equal(chmod(path, 0640), 0);
    pms__output o;
    assert_int_equal(pms__output_open(&o, path, PMS_OUTPUT_KEEP_OLD), 0);
    assert_int_equal(pms__output_write(&o, "second", 6), 0);
    assert_int_equal(pms__output_commit(&o), 0);
    assert_holds(path, "second");
    assert_holds(old, "first");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640); /* the mode of the file it replaced */
    /* PRIVATE: 0600 whatever was there; an empty file is not kept as .old */
    put(path, "");
    assert_int_equal(pms__output_open(&o, path, PMS_OUTPUT_KEEP_OLD | PMS_OUTPUT_PRIVATE), 0);
    assert_int_equal(pms__output_commit(&o), 0);
    assert_holds(old, "first");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
}

static void test_publish_then_write_on(void **state)
{
    (void)state;
    const char *path = in_dir("live.data");
    pms__output o;
    assert_int_equal(pms__output_open(&o, path, 0), 0);
    assert_int_equal(pms__output_write(&o, "synced", 6), 0);
    assert_int_equal(pms__output_publish(&o), 0);
    assert_holds(path, "synced"); /* a crash from here on leaves it */
    assert_int_equal(pms__output_write(&o, "+more", 5), 0);
    pms__output_abort(&o); /* even an abort keeps what was published */
    assert_holds(path, "synced+more");
}

static void test_device_and_fifo_in_place(void **state)
{
    (void)state;
    pms__output o;
    assert_int_equal(pms__output_open(&o, "/dev/null", 0), 0);
    assert_true(o.in_place);
    assert_int_equal(pms__output_write(&o, "x", 1), 0);
    assert_int_equal(pms__output_commit(&o), 0);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));

    const char *fifo = in_dir("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t reader = fork();
    if (reader == 0) _exit(pms_test_system("cat '%s' > '%s.got'", fifo, fifo) ? 1 : 0);
    assert_int_equal(pms__output_open(&o, fifo, 0), 0);
    assert_true(o.in_place);
    assert_false(o.seekable); /* what perf.data's writer turns into the pipe format */
    fputs("through", pms__output_stream(&o));
    assert_int_equal(pms__output_commit(&o), 0);
    int status;
    assert_int_equal(waitpid(reader, &status, 0), reader);
    assert_int_equal(status, 0);
    char got[PATH_MAX];
    snprintf(got, sizeof got, "%s.got", fifo);
    assert_holds(got, "through");
    assert_int_equal(stat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
}

static void test_failures_name_the_file(void **state)
{
    (void)state;
    pms__output o;
    /* ENOSPC at the flush of the stream, reported at the commit */
    assert_int_equal(pms__output_open(&o, "/dev/full", 0), 0);
    fputs("x", pms__output_stream(&o));
    assert_int_not_equal(pms__output_commit(&o), 0);
    assert_string_equal(pms_strerror(), "cannot write /dev/full: No space left on device");
    /* a directory, a missing directory */
    assert_int_not_equal(pms__output_open(&o, dir, 0), 0);
    char want[PATH_MAX];
    snprintf(want, sizeof want, "cannot write %s: Is a directory", dir);
    assert_string_equal(pms_strerror(), want);
    assert_int_equal(pms__output_open(&o, "/nonexistent-dir/x", 0), PMS_ENOENT);
    assert_string_equal(pms_strerror(), "cannot write /nonexistent-dir/x: No such file or directory");
}

/* A rename that fails at the commit (PATH became a directory; PATH.old cannot be made) keeps
 * the temporary file, the whole output, and names it: nothing written is lost. */
static void test_failed_rename_keeps_the_output(void **state)
{
    (void)state;
    const char *path = in_dir("became-dir");
    pms__output o;
    assert_int_equal(pms__output_open(&o, path, 0), 0);
    assert_int_equal(pms__output_write(&o, "whole", 5), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(pms_test_system("touch '%s/inside'", path), 0); /* rename(2) fails: EISDIR */
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", o.tmp);
    assert_int_not_equal(pms__output_commit(&o), 0);
    assert_holds(tmp, "whole");
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want, "cannot write %s: Is a directory; the output is kept in %s", path, tmp);
    assert_string_equal(pms_strerror(), want);
    assert_int_equal(unlink(tmp), 0);

    /* KEEP_OLD where PATH.old is a non-empty directory */
    const char *kept = in_dir("k.data"), *old = in_dir("k.data.old");
    put(kept, "first");
    assert_int_equal(mkdir(old, 0700), 0);
    assert_int_equal(pms_test_system("touch '%s/inside'", old), 0);
    assert_int_equal(pms__output_open(&o, kept, PMS_OUTPUT_KEEP_OLD), 0);
    assert_int_equal(pms__output_write(&o, "second", 6), 0);
    snprintf(tmp, sizeof tmp, "%s", o.tmp);
    assert_int_not_equal(pms__output_commit(&o), 0);
    assert_holds(kept, "first");
    assert_holds(tmp, "second");
    snprintf(want, sizeof want, "cannot keep %s as %s: Is a directory; the new output is kept in %s", kept, old, tmp);
    assert_string_equal(pms_strerror(), want);
    assert_int_equal(unlink(tmp), 0);
}

/* A writer that flushes itself and fails with its own message, as the region report's does. */
static int write_and_flush(FILE *f, void *ctx)
{
    fputs(ctx, f);
    if (fflush(f) != 0 || ferror(f)) return pms__fail(PMS_EIO, "cannot write the thing");
    return 0;
}

/* pms__output_save: where the file failed, its message names the file, whatever the writer said. */
static void test_save_names_the_file_that_failed(void **state)
{
    (void)state;
    assert_int_not_equal(pms__output_save("/dev/full", 0, write_and_flush, "x"), 0);
    assert_string_equal(pms_strerror(), "cannot write /dev/full: No space left on device");
    assert_int_not_equal(pms__output_save("/dev/full", 0, write_text, "x"), 0);
    assert_string_equal(pms_strerror(), "cannot write /dev/full: No space left on device");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replaces_a_file_only_at_the_commit),
        cmocka_unit_test(test_abort_leaves_the_file_as_it_was),
        cmocka_unit_test(test_symbolic_link_followed),
        cmocka_unit_test(test_keep_old_and_modes),
        cmocka_unit_test(test_publish_then_write_on),
        cmocka_unit_test(test_device_and_fifo_in_place),
        cmocka_unit_test(test_failures_name_the_file),
        cmocka_unit_test(test_failed_rename_keeps_the_output),
        cmocka_unit_test(test_save_names_the_file_that_failed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
