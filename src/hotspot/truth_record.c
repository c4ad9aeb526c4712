/* Running a command under valgrind to get its exact counts (the truth directory). */
#include "symbol/build_id.h"
#include "hotspot/truth_run.h"
#include "pmuscope/callgrind.h"
#include "pmuscope/hotspot.h"
#include "pmuscope/target.h"
#include "util/error.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs "valgrind TOOL_ARGS... argv..." and waits; the exit status must be 0. */
static int run_valgrind(const char *const *tool_args, size_t ntool, char *const argv[], const char *log)
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **cmd = calloc(1 + ntool + n + 1, sizeof *cmd);
    if (!cmd)
        return pms__fail(PMS_ENOMEM, "out of memory");
    cmd[0] = "valgrind";
    for (size_t i = 0; i < ntool; i++)
        cmd[1 + i] = (char *)tool_args[i];
    for (size_t i = 0; i < n; i++)
        cmd[1 + ntool + i] = argv[i];
    pms_child c;
    int rc = pms_child_spawn(&c, cmd);
    if (rc == PMS_OK)
        rc = pms_child_release(&c, "valgrind");
    int status = 0;
    if (rc == PMS_OK)
        rc = pms_child_wait(&c, &status, NULL);
    free(cmd);
    if (rc < 0)
        return pms__fail_context(rc, "running %s under valgrind", argv[0]);
    if (WIFSIGNALED(status))
        return pms__fail(PMS_ECHILD, "%s under valgrind was killed by signal %d (see %s)", argv[0], WTERMSIG(status),
                        log);
    if (WEXITSTATUS(status) != 0)
        return pms__fail(PMS_ECHILD, "%s under valgrind exited with status %d (see %s)", argv[0], WEXITSTATUS(status),
                        log);
    return PMS_OK;
}

/* Writes DIR/objects: the build-id and path of every object callgrind saw; and DIR/run:
 * the command and its instruction count. */
static int write_manifest(const char *dir, const char *profile, char *const argv[])
{
    pms_callgrind *cg;
    int rc = pms_callgrind_read(&cg, profile);
    if (rc < 0)
        return rc;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/objects", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        pms_callgrind_free(cg);
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot create %s", path);
    }
    fprintf(f, "# pmuscope hotspot truth: build-id and path of each object that ran\n");
    for (size_t i = 0; i < pms_callgrind_nobjects(cg); i++) {
        const char *ob = pms_callgrind_object(cg, i);
        char id[PMS_BUILD_ID_HEX];
        if (ob[0] != '/' || pms__elf_build_id(ob, id) < 0)
            continue; /* "???" and anonymous code: nothing to map */
        fprintf(f, "%s %s\n", id[0] ? id : "-", ob);
    }
    uint64_t instructions = pms_callgrind_total(cg);
    pms_callgrind_free(cg);
    if (fclose(f) != 0)
        return pms__fail_errno(PMS_EIO, errno, "cannot write %s", path);
    return pms__truth_run_write(dir, argv, instructions);
}

int pms_hotspot_truth_record(const char *dir, char *const argv[])
{
    if (!argv || !argv[0])
        return pms__fail(PMS_EINVAL, "no command to run under valgrind");
    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot create truth directory %s", dir);
    char out[PATH_MAX + 32], log[PATH_MAX + 32];
    snprintf(out, sizeof out, "--callgrind-out-file=%s/callgrind.out", dir);
    snprintf(log, sizeof log, "--log-file=%s/callgrind.log", dir);
    /* --skip-plt=no: by default callgrind moves the cost of PLT stubs elsewhere;
     * --collect-jumps=yes: the branches give the basic blocks, in the same run */
    const char *callgrind[] = {"--tool=callgrind", "--dump-instr=yes", "--collect-jumps=yes", "--skip-plt=no",
                               out, log};
    int rc = run_valgrind(callgrind, 6, argv, log + strlen("--log-file="));
    if (rc == PMS_OK) {
        snprintf(out, sizeof out, "%s/callgrind.out", dir);
        rc = write_manifest(dir, out, argv);
    }
    return rc;
}

void pms_hotspot_truth_remove(const char *dir)
{
    static const char *const files[] = {"callgrind.out", "callgrind.log", "objects", "run"};
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}
