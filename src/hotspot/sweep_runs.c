/* The runs of a sweep: each reads the same input, opened for it alone (valgrind and a
 * native run started together must not share one file offset, or each reads part of it),
 * the native ones with the CPU features valgrind lacks masked, and their outputs compared:
 * runs that differ did not execute the same thing. */
#include "hotspot/sweep_runs.h"
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pms__sweep_runs_init(pms__sweep_runs *r, pms_hotspot_sweep *sw, const char *scratch)
{
    memset(r, 0, sizeof *r);
    const char *slash = strrchr(scratch, '/');
    snprintf(r->dir, sizeof r->dir, "%.*s", slash ? (int)(slash - scratch) : 1, slash ? scratch : ".");
    sw->runs_differ[0] = '\0';
    memset(&sw->cpu_mask, 0, sizeof sw->cpu_mask);
    if (mkdir(r->dir, 0777) < 0 && errno != EEXIST)
        return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot create directory %s", r->dir);
    if (sw->no_cpu_mask) return PMS_OK;
    int rc = pms_hotspot_cpu_mask_probe(&sw->cpu_mask, r->dir);
    if (rc == PMS_OK && pms_hotspot_cpu_mask_env(&sw->cpu_mask, r->env_mask, sizeof r->env_mask)) r->env[0] = r->env_mask;
    return rc;
}

static const pms_child_setup *setup(pms__sweep_runs *r, const pms_hotspot_sweep *sw, const char *name, int masked)
{
    if (snprintf(r->out, sizeof r->out, "%s/stdout.%s", r->dir, name) >= (int)sizeof r->out) r->out[0] = '\0';
    r->setup = (pms_child_setup){.stdin_path = sw->stdin_path ? sw->stdin_path : "/dev/null", .stdout_path = r->out[0] ? r->out : NULL,
                                 .env = masked && r->env[0] ? r->env : NULL};
    return &r->setup;
}

const pms_child_setup *pms__sweep_runs_valgrind(pms__sweep_runs *r, const pms_hotspot_sweep *sw)
{
    return setup(r, sw, "valgrind", 0);
}

const pms_child_setup *pms__sweep_runs_native(pms__sweep_runs *r, const pms_hotspot_sweep *sw)
{
    char name[32];
    snprintf(name, sizeof name, "%zu", r->nruns++);
    return setup(r, sw, name, 1);
}

/* 1 if files a and b hold the same bytes; their sizes in *na and *nb. */
static int same_output(const char *a, const char *b, long long *na, long long *nb)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    *na = *nb = 0;
    for (int ca = 0, cb = 0; fa && fb && (ca != EOF || cb != EOF);) {
        ca = getc(fa);
        cb = getc(fb);
        *na += ca != EOF;
        *nb += cb != EOF;
        same &= ca == cb;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

void pms__sweep_runs_finish(pms__sweep_runs *r, pms_hotspot_sweep *sw, int with_valgrind)
{
    char first[PATH_MAX + 32], other[PATH_MAX + 32];
    snprintf(first, sizeof first, "%s/stdout.%s", r->dir, with_valgrind ? "valgrind" : "0");
    for (size_t k = with_valgrind ? 0 : 1; k < r->nruns; k++) {
        long long nfirst, nother;
        snprintf(other, sizeof other, "%s/stdout.%zu", r->dir, k);
        size_t len = strlen(sw->runs_differ);
        if (!same_output(first, other, &nfirst, &nother) && len + 1 < sizeof sw->runs_differ)
            snprintf(sw->runs_differ + len, sizeof sw->runs_differ - len,
                     "%sthe standard output of native run %zu (%lld bytes) differs from %s (%lld bytes)",
                     len ? "; " : "", k + 1, nother, with_valgrind ? "valgrind's run" : "the first run's", nfirst);
        unlink(other);
    }
    unlink(first);
}
