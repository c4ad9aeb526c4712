/* pmu_as_user UID COMMAND [ARG...]: runs COMMAND as user UID (group UID, no supplementary
 * groups), so that the hardware suite can try pmuscope as a user who is not root where there
 * is no su (the guest's busybox) or no such user in /etc/passwd. */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pmu_as_user UID COMMAND [ARG...]\n");
        return 2;
    }
    char *end;
    unsigned long uid = strtoul(argv[1], &end, 10);
    if (*end || uid == 0) {
        fprintf(stderr, "pmu_as_user: '%s': expected a user id other than 0\n", argv[1]);
        return 2;
    }
    if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid)) {
        perror("pmu_as_user: cannot change user");
        return 1;
    }
    execvp(argv[2], argv + 2);
    fprintf(stderr, "pmu_as_user: %s: %s\n", argv[2], strerror(errno));
    return 127;
}
