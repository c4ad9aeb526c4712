/* The files of a truth directory (truth_files.h), and their removal. */
#include "hotspot/truth_files.h"
#include "pmuscope/hotspot.h"
#include "util/error.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* callgrind.out, or callgrind.out.PID[.N] */
static int is_profile(const char *name)
{
    size_t len = strlen(PMS_TRUTH_PROFILE);
    if (strncmp(name, PMS_TRUTH_PROFILE, len)) return 0;
    if (!name[len]) return 1;
    if (name[len] != '.' || !name[len + 1]) return 0;
    for (const char *s = name + len + 1; *s; s++)
        if ((*s < '0' || *s > '9') && *s != '.') return 0;
    return 1;
}

static int select_profile(const struct dirent *d) { return is_profile(d->d_name); }

/* callgrind.out first, then by name (alphasort would put callgrind.out.1 before .10, which
 * is all the order needs: the same on every load) */
static int profile_order(const struct dirent **a, const struct dirent **b)
{
    int main_a = !strcmp((*a)->d_name, PMS_TRUTH_PROFILE), main_b = !strcmp((*b)->d_name, PMS_TRUTH_PROFILE);
    if (main_a != main_b) return main_b - main_a;
    return strcmp((*a)->d_name, (*b)->d_name);
}

int pms__truth_profiles(const char *dir, char ***names, size_t *n)
{
    struct dirent **list;
    *names = NULL;
    *n = 0;
    int count = scandir(dir, &list, select_profile, profile_order);
    if (count < 0)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot list the truth directory %s", dir);
    int rc = count ? PMS_OK : pms__fail(PMS_ENOENT, "%s holds no callgrind profile (callgrind.out)", dir);
    if (rc == PMS_OK && !(*names = calloc((size_t)count, sizeof **names))) rc = pms__fail(PMS_ENOMEM, "out of memory");
    for (int i = 0; i < count; i++) {
        if (rc == PMS_OK && !((*names)[*n] = strdup(list[i]->d_name))) rc = pms__fail(PMS_ENOMEM, "out of memory");
        else if (rc == PMS_OK) ++*n;
        free(list[i]);
    }
    free(list);
    if (rc) {
        pms__truth_profiles_free(*names, *n);
        *names = NULL;
        *n = 0;
    }
    return rc;
}

void pms__truth_profiles_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* The manifest pmuscope writes beside a truth's profiles. */
static int is_manifest(const char *name) { return !strcmp(name, "objects") || !strcmp(name, "run"); }

/* What valgrind and the manifest of a truth write: profiles, logs, the manifest. */
static int is_truth_output(const char *name)
{
    return is_profile(name) || !strncmp(name, PMS_TRUTH_LOG, strlen(PMS_TRUTH_LOG)) || is_manifest(name);
}

/* The files a truth directory and a sweep beside it write. */
static int is_truth_file(const char *name)
{
    static const char *const prefixes[] = {PMS_TRUTH_PROFILE, "sweep.data", "stdout.", "glibc-"};
    if (is_truth_output(name)) return 1;
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i]))) return 1;
    return 0;
}

/* Removes the files of dir (open as d) that which() picks. 0, or the errno of the first
 * that could not be removed (ENAMETOOLONG: its path), whose path is left in failed; no
 * message is set, so that a cleanup after a failure keeps that failure's. */
static int remove_files(DIR *d, const char *dir, int (*which)(const char *), char failed[PATH_MAX])
{
    char path[PATH_MAX];
    int err = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!which(e->d_name)) continue;
        int this_err = 0;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) this_err = ENAMETOOLONG;
        else if (unlink(path) < 0 && errno != ENOENT) this_err = errno;
        if (this_err && !err) {
            err = this_err;
            snprintf(failed, PATH_MAX, "%s/%s", dir, e->d_name);
        }
    }
    return err;
}

int pms__truth_dir_prepare(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot list the truth directory %s", dir);
    char profile[256] = "";
    int manifest = 0, rc = PMS_OK;
    for (struct dirent *e; (e = readdir(d));) {
        manifest |= is_manifest(e->d_name);
        if (!profile[0] && is_profile(e->d_name))
            snprintf(profile, sizeof profile, "%s", e->d_name);
    }
    if (profile[0] && !manifest)
        rc = pms__fail(PMS_EINVAL, "%s/%s is a callgrind profile that no pmuscope truth wrote: give a new or empty "
                       "directory for the truth (nothing was removed)", dir, profile);
    char failed[PATH_MAX];
    int err = 0;
    if (rc == PMS_OK) {
        rewinddir(d);
        err = remove_files(d, dir, is_truth_output, failed);
    }
    if (err) rc = pms__fail_errno(pms__status_from_errno(err), err, "cannot remove %s of the earlier truth", failed);
    closedir(d);
    return rc;
}

void pms_hotspot_truth_remove(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        char failed[PATH_MAX];
        (void)remove_files(d, dir, is_truth_file, failed); /* best effort: what stays keeps the folder */
        closedir(d);
    }
    rmdir(dir);
}
