/* The demo's steps as child processes of the pmuscope binary. */
#include "demo/demo_internal.h"
#include "pmuscope/demo.h"

#include <errno.h>
#include <time.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

pid_t pms__demo_spawn(const char *program, char *const argv[], const char *out_path, const char *err_path)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) return -1;
    int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 1, out_path ? out_path : "/dev/null",
                                              O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (rc == 0) rc = posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    if (rc == 0) rc = posix_spawn(&pid, program, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return pid;
}

double pms__demo_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int pms__demo_wait(pid_t pid, double deadline)
{
    int st, signalled = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) return -1;
        double t = pms__demo_now();
        if (t > deadline + 5 && signalled == SIGTERM) kill(pid, signalled = SIGKILL);
        else if (t > deadline && !signalled) kill(pid, signalled = SIGTERM);
        nanosleep(&(struct timespec){.tv_nsec = 20 * 1000 * 1000}, NULL);
    }
    if (signalled) return PMS_DEMO_TIMED_OUT;
    if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

void pms__demo_last_line(const char *path, char *buf, size_t n)
{
    /* pmuscope's own error message if there is one (a usage error adds a pointer to --help
     * after it), else the last non-empty line */
    int have_error = 0;
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        /* a progress line is redrawn after \r: keep what follows the last one */
        const char *text = strrchr(line, '\r') ? strrchr(line, '\r') + 1 : line;
        int is_error = strncmp(text, "pmuscope: ", 10) == 0 && strncmp(text, "pmuscope: warning", 17) != 0;
        if (text[strspn(text, " \t")] && (is_error || !have_error)) snprintf(buf, n, "%s", text);
        have_error |= is_error;
    }
    fclose(f);
}
