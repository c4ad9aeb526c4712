/* Internal: the demo's child processes (src/demo/spawn.c). */
#ifndef PMS_DEMO_INTERNAL_H
#define PMS_DEMO_INTERNAL_H
#include <stddef.h>
#include <sys/types.h>

/* CLOCK_MONOTONIC in seconds. */
double pms__demo_now(void);
/* Starts program with argv, stdin from /dev/null, stdout to out_path (NULL: /dev/null) and
 * stderr to err_path (created). Returns the pid, or -1 with errno set. */
pid_t pms__demo_spawn(const char *program, char *const argv[], const char *out_path, const char *err_path);
/* Waits for pid until the CLOCK_MONOTONIC time deadline (seconds): its exit status,
 * 128+N when killed by signal N, -1 on error; past the deadline it sends SIGTERM (a
 * recording still closes its file), then SIGKILL 5 s later, and gives PMS_DEMO_TIMED_OUT. */
int pms__demo_wait(pid_t pid, double deadline);
/* The error message in a step's stderr: its last "pmuscope: " line that is not a
 * warning, else its last non-empty line, or "" (buf of size n). */
void pms__demo_last_line(const char *path, char *buf, size_t n);

#endif
