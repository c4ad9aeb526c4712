/* Running a command under valgrind to get its exact counts (the truth directory). */
#include "symbol/build_id.h"
#include "hotspot/truth_record.h"
#include "hotspot/truth_run.h"
#include "pmuscope/callgrind.h"
#include "pmuscope/hotspot.h"
#include "pmuscope/target.h"
#include "util/error.h"
#include "util/output.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Starts "valgrind TOOL_ARGS... argv..." without waiting. */
static int start_valgrind(pms__truth_job *job, const char *const *tool_args, size_t ntool, char *const argv[])
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
    int rc = pms_child_spawn(&job->child, cmd);
    if (rc == PMS_OK && (rc = pms_child_release(&job->child, "valgrind")) < 0)
        pms_child_abort(&job->child);
    free(cmd);
    return rc < 0 ? pms__fail_context(rc, "running %s under valgrind", argv[0]) : PMS_OK;
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
    pms__output o;
    FILE *f = (rc = pms__output_open(&o, path, 0)) ? NULL : pms__output_stream(&o);
    if (!f) {
        if (!rc) pms__output_abort(&o);
        pms_callgrind_free(cg);
        return rc ? rc : PMS_ENOMEM;
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
    if ((rc = pms__output_commit(&o))) return rc; /* "cannot write DIR/objects: reason" */
    return pms__truth_run_write(dir, argv, instructions);
}

int pms__truth_record_start(pms__truth_job *job, const char *dir, char *const argv[], int branches)
{
    memset(job, 0, sizeof *job);
    job->child.pid = -1;
    if (!argv || !argv[0])
        return pms__fail(PMS_EINVAL, "no command to run under valgrind");
    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot create truth directory %s", dir);
    job->dir = dir;
    job->argv = argv;
    char out[PATH_MAX + 32], log[PATH_MAX + 32];
    snprintf(out, sizeof out, "--callgrind-out-file=%s/callgrind.out", dir);
    snprintf(log, sizeof log, "--log-file=%s/callgrind.log", dir);
    /* --skip-plt=no: by default callgrind moves the cost of PLT stubs elsewhere;
     * --collect-jumps=yes: the branches give the basic blocks, in the same run (left out,
     * the blocks are the runs of equal counts: the same distinct counts, so the same order
     * levels and measures, and callgrind runs about 25% faster) */
    const char *callgrind[] = {"--tool=callgrind", "--dump-instr=yes", "--skip-plt=no", out, log,
                               "--collect-jumps=yes"};
    return start_valgrind(job, callgrind, branches ? 6 : 5, argv);
}

int pms__truth_record_finish(pms__truth_job *job)
{
    char log[PATH_MAX + 32], out[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/callgrind.log", job->dir);
    int status = 0, rc = pms_child_wait(&job->child, &status, NULL);
    job->child.pid = -1;
    if (rc < 0)
        return pms__fail_context(rc, "running %s under valgrind", job->argv[0]);
    if (WIFSIGNALED(status))
        return pms__fail(PMS_ECHILD, "%s under valgrind was killed by signal %d (see %s)", job->argv[0],
                        WTERMSIG(status), log);
    if (WEXITSTATUS(status) != 0)
        return pms__fail(PMS_ECHILD, "%s under valgrind exited with status %d (see %s)", job->argv[0],
                        WEXITSTATUS(status), log);
    snprintf(out, sizeof out, "%s/callgrind.out", job->dir);
    return write_manifest(job->dir, out, job->argv);
}

void pms__truth_record_abort(pms__truth_job *job)
{
    if (job->child.pid > 0)
        pms_child_abort(&job->child);
}

int pms_hotspot_truth_record(const char *dir, char *const argv[])
{
    pms__truth_job job;
    int rc = pms__truth_record_start(&job, dir, argv, 1);
    return rc < 0 ? rc : pms__truth_record_finish(&job);
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
