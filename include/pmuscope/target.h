/* pmuscope: the program being measured, launched or attached to.
 *
 * A launched command is forked and held before exec until the caller has opened its
 * counters on the child's pid (with enable_on_exec, so counting starts at exec), then
 * released. A failure to exec is reported to the caller, not printed by the child. */
#ifndef PMUSCOPE_TARGET_H
#define PMUSCOPE_TARGET_H
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

typedef struct pms_child {
    pid_t pid;
    int release_fd; /* write end of the pipe the child waits on before exec */
    int error_fd;   /* read end of the close-on-exec pipe that carries an exec errno */
} pms_child;

/* What a launched command gets instead of what it would inherit; any member may be NULL. */
typedef struct pms_child_setup {
    const char *stdin_path;  /* opened for reading as its standard input, for this child alone */
    const char *stdout_path; /* created (truncated) as its standard output */
    char *const *env;        /* "NAME=value" strings, NULL-terminated: set in its environment
                                (replacing a variable of that name) */
} pms_child_setup;

/* Forks a child that will exec argv[0] (searched in PATH) once released. The child gets
 * SIGKILL when the calling thread ends (PR_SET_PDEATHSIG, set before exec and checked
 * against its parent having died first): a process killed leaves no command running on.
 * Call it from a thread that outlives the child (the main thread). */
int pms_child_spawn(pms_child *c, char *const argv[]);
/* The same, the child set up as `setup` says (NULL: as pms_child_spawn). The files are
 * opened here, before the fork: a file that cannot be opened fails the call (naming it). */
int pms_child_spawn_with(pms_child *c, char *const argv[], const pms_child_setup *setup);
/* Lets the child exec; fails (PMS_ECHILD, with the reason) if the exec failed. */
int pms_child_release(pms_child *c, const char *name);
/* Kills and reaps a child that was never released (on a setup failure). */
void pms_child_abort(pms_child *c);
/* Waits for the child; *status as from waitpid. Retries on EINTR unless
 * *interrupted becomes non-zero (set by a signal handler), then returns PMS_EIO
 * with errno EINTR so the caller can forward the signal and wait again. */
int pms_child_wait(pms_child *c, int *status, volatile int *interrupted);

/* How a command ended, for messages: "exited with status 3", "was killed by signal 9 (Killed)". */
void pms_wait_status_describe(char *buf, size_t size, int wait_status);

/* The CPUs of a list as the kernel and perf write them ("0-3,6") into a malloc'ed array; list
 * NULL: the online CPUs. A CPU this machine does not have is an error that names it. */
int pms_cpu_list(int **cpus, size_t *n, const char *list);

/* Lists the thread ids of process pid from /proc/pid/task into a malloc'ed array. */
int pms_process_threads(pid_t pid, pid_t **tids, size_t *count);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
