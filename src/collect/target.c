#include "pmuscope/target.h"

#include "util/error.h"
#include "util/grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <stdio.h>
#include <unistd.h>

extern char **environ;

/* environ with env's variables set: its strings but those env names, then env's. */
static char **child_environment(char *const *env)
{
    size_t n = 0, k = 0;
    while (environ[n]) n++;
    while (env[k]) k++;
    char **out = malloc((n + k + 1) * sizeof *out);
    if (!out) return NULL;
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        int replaced = 0;
        for (size_t j = 0; j < k && !replaced; j++) {
            size_t len = strcspn(env[j], "=");
            replaced = !strncmp(environ[i], env[j], len) && environ[i][len] == '=';
        }
        if (!replaced) out[w++] = environ[i];
    }
    for (size_t j = 0; j < k; j++) out[w++] = env[j];
    out[w] = NULL;
    return out;
}

/* The setup's files and environment, made before the fork (a child only calls dup2 and exec). */
typedef struct child_io {
    int in, out;
    char **envp;
} child_io;

static void child_io_close(child_io *io)
{
    if (io->in >= 0) close(io->in);
    if (io->out >= 0) close(io->out);
    free(io->envp);
    *io = (child_io){-1, -1, NULL};
}

static int child_io_open(child_io *io, const pms_child_setup *setup)
{
    *io = (child_io){-1, -1, NULL};
    if (!setup) return PMS_OK;
    if (setup->stdin_path && (io->in = open(setup->stdin_path, O_RDONLY | O_CLOEXEC)) < 0)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s for the command's standard input",
                               setup->stdin_path);
    if (setup->stdout_path &&
        (io->out = open(setup->stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
        int e = errno;
        child_io_close(io);
        return pms__fail_errno(pms__status_from_errno(e), e, "cannot create %s for the command's standard output",
                               setup->stdout_path);
    }
    if (setup->env && !(io->envp = child_environment(setup->env))) {
        child_io_close(io);
        return pms__fail(PMS_ENOMEM, "out of memory for the command's environment");
    }
    return PMS_OK;
}

int pms_child_spawn(pms_child *c, char *const argv[]) { return pms_child_spawn_with(c, argv, NULL); }

int pms_child_spawn_with(pms_child *c, char *const argv[], const pms_child_setup *setup)
{
    int release[2], error[2];
    if (!argv || !argv[0]) return pms__fail(PMS_EINVAL, "no command given to run");
    child_io io;
    int rc = child_io_open(&io, setup);
    if (rc) return rc;
    if (pipe2(release, O_CLOEXEC) < 0) {
        child_io_close(&io);
        return pms__fail_errno(PMS_EIO, errno, "pipe");
    }
    if (pipe2(error, O_CLOEXEC) < 0) {
        int e = errno;
        close(release[0]);
        close(release[1]);
        child_io_close(&io);
        return pms__fail_errno(PMS_EIO, e, "pipe");
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(release[0]); close(release[1]); close(error[0]); close(error[1]);
        child_io_close(&io);
        return pms__fail_errno(PMS_EIO, e, "fork");
    }
    if (pid == 0) {
        /* Child: dies with the parent (a pmuscope killed leaves no command running on: it
         * could not be stopped any more). Set here, before exec; a parent that died before
         * it was set has made this process another's child already, whatever pid it now
         * has: then it ends at once. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
        /* Wait for the go byte (or EOF when the parent gives up), then exec. */
        close(release[1]);
        close(error[0]);
        char go;
        ssize_t n;
        do n = read(release[0], &go, 1); while (n < 0 && errno == EINTR);
        if (n != 1) _exit(127);
        int e = 0; /* dup2 clears close-on-exec on 0 and 1 */
        if ((io.in >= 0 && dup2(io.in, STDIN_FILENO) < 0) || (io.out >= 0 && dup2(io.out, STDOUT_FILENO) < 0))
            e = errno;
        if (!e) {
            if (io.envp) execvpe(argv[0], argv, io.envp);
            else execvp(argv[0], argv);
            e = errno;
        }
        if (write(error[1], &e, sizeof e) < 0) { /* nothing more can be done */ }
        _exit(127);
    }
    close(release[0]);
    close(error[1]);
    child_io_close(&io);
    c->pid = pid;
    c->release_fd = release[1];
    c->error_fd = error[0];
    return PMS_OK;
}

int pms_child_release(pms_child *c, const char *name)
{
    char go = 1;
    ssize_t n;
    do n = write(c->release_fd, &go, 1); while (n < 0 && errno == EINTR);
    close(c->release_fd);
    c->release_fd = -1;
    /* The error pipe closes on a successful exec; otherwise it carries errno. */
    int e = 0;
    do n = read(c->error_fd, &e, sizeof e); while (n < 0 && errno == EINTR);
    close(c->error_fd);
    c->error_fd = -1;
    if (n == (ssize_t)sizeof e) {
        waitpid(c->pid, NULL, 0);
        c->pid = -1;
        return pms__fail_errno(PMS_ECHILD, e, "cannot run '%s'", name ? name : "command");
    }
    return PMS_OK;
}

void pms_child_abort(pms_child *c)
{
    if (c->release_fd >= 0) close(c->release_fd);
    if (c->error_fd >= 0) close(c->error_fd);
    c->release_fd = c->error_fd = -1;
    if (c->pid > 0) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, NULL, 0);
        c->pid = -1;
    }
}

int pms_child_wait(pms_child *c, int *status, volatile int *interrupted)
{
    for (;;) {
        pid_t r = waitpid(c->pid, status, 0);
        if (r == c->pid) return PMS_OK;
        if (r < 0 && errno == EINTR) {
            if (interrupted && *interrupted) {
                errno = EINTR;
                return pms__fail(PMS_EIO, "interrupted while waiting for the command");
            }
            continue;
        }
        return pms__fail_errno(PMS_ECHILD, errno, "waiting for process %d", (int)c->pid);
    }
}

int pms_process_threads(pid_t pid, pid_t **tids, size_t *count)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) {
        int e = errno;
        if (e == ENOENT) return pms__fail(PMS_ENOENT, "no process with pid %d", (int)pid);
        return pms__fail_errno(pms__status_from_errno(e), e, "cannot list the threads of process %d", (int)pid);
    }
    size_t n = 0, cap = 0;
    pid_t *list = NULL;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        char *end;
        long t = strtol(de->d_name, &end, 10);
        if (*end || t <= 0) continue;
        if (pms__grow(&list, &cap, n + 1, sizeof *list)) {
            free(list);
            closedir(d);
            return pms__fail(PMS_ENOMEM, "out of memory");
        }
        list[n++] = (pid_t)t;
    }
    closedir(d);
    *tids = list;
    *count = n;
    return PMS_OK;
}

void pms_wait_status_describe(char *buf, size_t size, int wait_status)
{
    if (WIFEXITED(wait_status))
        snprintf(buf, size, "exited with status %d", WEXITSTATUS(wait_status));
    else if (WIFSIGNALED(wait_status))
        snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(wait_status), strsignal(WTERMSIG(wait_status)));
    else
        snprintf(buf, size, "ended with wait status 0x%x", (unsigned)wait_status);
}
