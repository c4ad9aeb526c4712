/* Running a command under valgrind to get its exact counts (the truth directory). */
#include "symbol/build_id.h"
#include "hotspot/truth_record.h"
#include "hotspot/truth_files.h"
#include "hotspot/truth_run.h"
#include "util/grow.h"
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
static int start_valgrind(pms__truth_job *job, const char *const *tool_args, size_t ntool, char *const argv[],
                          const pms_child_setup *setup)
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
    int rc = pms_child_spawn_with(&job->child, cmd, setup);
    if (rc == PMS_OK && (rc = pms_child_release(&job->child, "valgrind")) < 0)
        pms_child_abort(&job->child);
    free(cmd);
    return rc < 0 ? pms__fail_context(rc, "running %s under valgrind", argv[0]) : PMS_OK;
}

/* The objects of one profile, added to the list (paths, each once). */
static int add_objects(const pms_callgrind *cg, char ***paths, size_t *n, size_t *cap)
{
    for (size_t i = 0; i < pms_callgrind_nobjects(cg); i++) {
        const char *ob = pms_callgrind_object(cg, i);
        int seen = ob[0] != '/'; /* "???" and anonymous code: nothing to map */
        for (size_t k = 0; k < *n && !seen; k++)
            seen = !strcmp((*paths)[k], ob);
        if (seen)
            continue;
        if (pms__grow(paths, cap, *n + 1, sizeof **paths) || !((*paths)[*n] = strdup(ob)))
            return pms__fail(PMS_ENOMEM, "out of memory");
        ++*n;
    }
    return PMS_OK;
}

/* Writes DIR/objects: the build-id and path of every object callgrind saw in any process. */
static int write_objects(const char *dir, char **paths, size_t n)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/objects", dir);
    pms__output o;
    int rc;
    FILE *f = (rc = pms__output_open(&o, path, 0)) ? NULL : pms__output_stream(&o);
    if (!f) {
        if (!rc) pms__output_abort(&o);
        return rc ? rc : PMS_ENOMEM;
    }
    fprintf(f, "# pmuscope hotspot truth: build-id and path of each object that ran\n");
    for (size_t i = 0; i < n; i++) {
        char id[PMS_BUILD_ID_HEX];
        if (pms__elf_build_id(paths[i], id) == PMS_OK)
            fprintf(f, "%s %s\n", id[0] ? id : "-", paths[i]);
    }
    return pms__output_commit(&o); /* "cannot write DIR/objects: reason" */
}

/* Writes DIR/objects and DIR/run (the command and the instructions of all its processes). */
static int write_manifest(const char *dir, char *const argv[])
{
    char **names, **paths = NULL;
    size_t nnames, npaths = 0, cap = 0;
    uint64_t instructions = 0;
    int rc = pms__truth_profiles(dir, &names, &nnames);
    for (size_t i = 0; i < nnames && rc == PMS_OK; i++) {
        char path[PATH_MAX];
        pms_callgrind *cg;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if ((rc = pms_callgrind_read(&cg, path)) < 0)
            break;
        instructions += pms_callgrind_total(cg);
        rc = add_objects(cg, &paths, &npaths, &cap);
        pms_callgrind_free(cg);
    }
    if (rc == PMS_OK)
        rc = write_objects(dir, paths, npaths);
    if (rc == PMS_OK)
        rc = pms__truth_run_write(dir, argv, instructions);
    for (size_t i = 0; i < npaths; i++)
        free(paths[i]);
    free(paths);
    pms__truth_profiles_free(names, nnames);
    return rc;
}

int pms__truth_record_start(pms__truth_job *job, const char *dir, char *const argv[], int branches,
                            const pms_child_setup *setup)
{
    memset(job, 0, sizeof *job);
    job->child.pid = -1;
    if (!argv || !argv[0])
        return pms__fail(PMS_EINVAL, "no command to run under valgrind");
    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot create truth directory %s", dir);
    int rc = pms__truth_dir_prepare(dir);
    if (rc < 0)
        return rc;
    job->dir = dir;
    job->argv = argv;
    char out[PATH_MAX + 32], log[PATH_MAX + 32];
    snprintf(out, sizeof out, "--callgrind-out-file=%s/" PMS_TRUTH_PROFILE ".%%p", dir);
    snprintf(log, sizeof log, "--log-file=%s/" PMS_TRUTH_LOG ".%%p", dir);
    /* --skip-plt=no: by default callgrind moves the cost of PLT stubs elsewhere;
     * --trace-children=yes: a profile per process, exec'd programs included; a child made
     * by fork starts with a copy of its parent's counts, so the parent dumps its counts
     * (a part of its profile, counts zeroed) just before it forks;
     * --vgdb=no: no gdbserver FIFOs in $TMPDIR, which a killed valgrind would leave;
     * --collect-jumps=yes: the branches give the basic blocks, in the same run (left out,
     * the blocks are the runs of equal counts: the same distinct counts, so the same order
     * levels and measures, and callgrind runs about 25% faster) */
    const char *callgrind[] = {"--tool=callgrind", "--dump-instr=yes", "--skip-plt=no", out, log, "--vgdb=no",
                               "--trace-children=yes", "--dump-before=fork", "--dump-before=vfork",
                               "--dump-before=posix_spawn", "--dump-before=posix_spawnp", "--collect-jumps=yes"};
    size_t n = sizeof callgrind / sizeof *callgrind;
    return start_valgrind(job, callgrind, branches ? n : n - 1, argv, setup);
}

/* callgrind.out.PID -> callgrind.out, callgrind.log.PID -> callgrind.log: the command's own
 * process's files under the names a truth of one process has. */
static void name_main_files(const char *dir, pid_t pid)
{
    static const char *const stems[] = {PMS_TRUTH_PROFILE, PMS_TRUTH_LOG};
    for (size_t i = 0; i < 2; i++) {
        char from[PATH_MAX + 32], to[PATH_MAX + 32];
        snprintf(from, sizeof from, "%s/%s.%ld", dir, stems[i], (long)pid);
        snprintf(to, sizeof to, "%s/%s", dir, stems[i]);
        if (access(from, F_OK) == 0)
            rename(from, to);
    }
}

int pms__truth_record_finish(pms__truth_job *job, volatile int *interrupted)
{
    char log[PATH_MAX + 32];
    snprintf(log, sizeof log, "%s/" PMS_TRUTH_LOG, job->dir);
    pid_t pid = job->child.pid;
    int status = 0, rc = pms_child_wait(&job->child, &status, interrupted);
    if (rc < 0) {
        pms__truth_record_abort(job);
        return pms__fail_context(rc, "running %s under valgrind", job->argv[0]);
    }
    job->child.pid = -1;
    name_main_files(job->dir, pid);
    if (WIFSIGNALED(status))
        return pms__fail(PMS_ECHILD, "%s under valgrind was killed by signal %d (see %s)", job->argv[0],
                        WTERMSIG(status), log);
    if (WEXITSTATUS(status) != 0)
        return pms__fail(PMS_ECHILD, "%s under valgrind exited with status %d (see %s)", job->argv[0],
                        WEXITSTATUS(status), log);
    return write_manifest(job->dir, job->argv);
}

void pms__truth_record_abort(pms__truth_job *job)
{
    if (job->child.pid > 0)
        pms_child_abort(&job->child);
    job->child.pid = -1;
}

int pms_hotspot_truth_record(const char *dir, char *const argv[]) { return pms_hotspot_truth_record_with(dir, argv, NULL); }

int pms_hotspot_truth_record_with(const char *dir, char *const argv[], const pms_child_setup *setup)
{
    pms__truth_job job;
    int rc = pms__truth_record_start(&job, dir, argv, 1, setup);
    return rc < 0 ? rc : pms__truth_record_finish(&job, NULL);
}
