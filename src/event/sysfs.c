/* pmu/term=value,.../ events, encoded from the PMU's sysfs format files
 * (/sys/bus/event_source/devices/PMU/{type,format/TERM,events/ALIAS}).
 * $PMS_SYSFS_ROOT stands for /sys so tests can use a fake tree. */
#include "event/event_internal.h"
#include "util/error.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEVICES "bus/event_source/devices"

const char *pms__sysfs_root(void)
{
    const char *r = getenv("PMS_SYSFS_ROOT");
    return r && *r ? r : "/sys";
}

/* Reads a small sysfs file into buf, trailing whitespace removed. Returns false if unreadable. */
static bool read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    while (n && isspace((unsigned char)buf[n - 1])) buf[--n] = '\0';
    return true;
}

static __u64 *config_field(struct perf_event_attr *attr, const char *field)
{
    if (strcmp(field, "config") == 0) return &attr->config;
    if (strcmp(field, "config1") == 0) return &attr->config1;
    if (strcmp(field, "config2") == 0) return &attr->config2;
    return NULL;
}

/* Spreads value over the bit ranges of a format ("config:0-7,32-35"), low bits first. */
static int place_bits(const char *fmtpath, const char *format, const char *term, uint64_t value,
                      struct perf_event_attr *attr)
{
    char field[16];
    const char *colon = strchr(format, ':');
    if (!colon || (size_t)(colon - format) >= sizeof field)
        return pms__fail(PMS_EFORMAT, "%s: expected 'configN:LO-HI', found '%s'", fmtpath, format);
    memcpy(field, format, (size_t)(colon - format));
    field[colon - format] = '\0';
    __u64 *dst = config_field(attr, field);
    if (!dst) return pms__fail(PMS_EFORMAT, "%s: unknown field '%s' (expected config, config1 or config2)", fmtpath, field);
    uint64_t rest = value;
    const char *p = colon + 1;
    while (*p) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (end == p) return pms__fail(PMS_EFORMAT, "%s: expected a bit number in '%s'", fmtpath, format);
        if (*end == '-') {
            p = end + 1;
            hi = strtoul(p, &end, 10);
            if (end == p) return pms__fail(PMS_EFORMAT, "%s: expected a bit number in '%s'", fmtpath, format);
        }
        if (hi < lo || hi > 63) return pms__fail(PMS_EFORMAT, "%s: bad bit range in '%s'", fmtpath, format);
        unsigned width = (unsigned)(hi - lo + 1);
        uint64_t mask = width == 64 ? UINT64_MAX : ((1ULL << width) - 1);
        *dst = (*dst & ~(mask << lo)) | ((rest & mask) << lo);
        rest = width == 64 ? 0 : rest >> width;
        p = end;
        if (*p == ',') p++;
        else if (*p) return pms__fail(PMS_EFORMAT, "%s: unexpected '%c' in '%s'", fmtpath, *p, format);
    }
    if (rest)
        return pms__fail(PMS_EINVAL, "%s=0x%llx does not fit in the bits of '%s' (%s)", term,
                        (unsigned long long)value, format, fmtpath);
    return PMS_OK;
}

static int apply_terms(const char *pmudir, const char *pmu, const char *terms, struct perf_event_attr *attr,
                       bool allow_alias);

/* Applies one term: a format term (umask=0x1), configN=value, or an alias from events/. */
static int apply_term(const char *pmudir, const char *pmu, const char *term, struct perf_event_attr *attr,
                      bool allow_alias)
{
    char name[64];
    const char *eq = strchr(term, '=');
    size_t nlen = eq ? (size_t)(eq - term) : strlen(term);
    if (nlen == 0 || nlen >= sizeof name) return pms__fail(PMS_EINVAL, "%s/: bad term '%s'", pmu, term);
    memcpy(name, term, nlen);
    name[nlen] = '\0';
    uint64_t value = 1; /* a bare flag term such as "edge" means 1 */
    if (eq) {
        char *end;
        errno = 0;
        value = strtoull(eq + 1, &end, 0);
        if (errno || end == eq + 1 || *end)
            return pms__fail(PMS_EINVAL, "%s/: term '%s': expected a number after '='", pmu, term);
    }
    __u64 *direct = config_field(attr, name);
    if (direct) {
        *direct = value;
        return PMS_OK;
    }
    char path[1024], buf[256];
    snprintf(path, sizeof path, "%s/format/%s", pmudir, name);
    if (read_line(path, buf, sizeof buf)) return place_bits(path, buf, name, value, attr);
    if (allow_alias && !eq) {
        snprintf(path, sizeof path, "%s/events/%s", pmudir, name);
        if (read_line(path, buf, sizeof buf)) return apply_terms(pmudir, pmu, buf, attr, false);
    }
    /* Name what is available so the user can correct the term. */
    char known[512] = "";
    snprintf(path, sizeof path, "%s/format", pmudir);
    DIR *d = opendir(path);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.') continue;
            size_t k = strlen(known);
            snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", de->d_name);
        }
        closedir(d);
    }
    return pms__fail(PMS_EINVAL, "%s/: unknown term '%s' (format terms of %s: %s; or config, config1, config2%s)",
                    pmu, name, pmu, *known ? known : "none", allow_alias ? ", or an event name from events/" : "");
}

static int apply_terms(const char *pmudir, const char *pmu, const char *terms, struct perf_event_attr *attr,
                       bool allow_alias)
{
    char buf[512];
    if (strlen(terms) >= sizeof buf) return pms__fail(PMS_EINVAL, "%s/: term list too long", pmu);
    strcpy(buf, terms);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*t)) t++;
        int r = apply_term(pmudir, pmu, t, attr, allow_alias);
        if (r) return r;
    }
    return PMS_OK;
}

static void list_pmus(char *out, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/" DEVICES, pms__sysfs_root());
    out[0] = '\0';
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        size_t k = strlen(out);
        snprintf(out + k, size - k, "%s%s", k ? ", " : "", de->d_name);
    }
    closedir(d);
}

int pms__sysfs_parse(const char *spec, struct perf_event_attr *attr)
{
    const char *slash = strchr(spec, '/');
    size_t len = strlen(spec);
    if (!slash || slash == spec || len < 2 || spec[len - 1] != '/' || slash == spec + len - 1)
        return pms__fail(PMS_EINVAL, "'%s': expected pmu/term=value,.../", spec);
    char pmu[64], terms[512];
    size_t plen = (size_t)(slash - spec), tlen = len - plen - 2;
    if (plen >= sizeof pmu || tlen >= sizeof terms) return pms__fail(PMS_EINVAL, "'%s': name too long", spec);
    memcpy(pmu, spec, plen);
    pmu[plen] = '\0';
    memcpy(terms, slash + 1, tlen);
    terms[tlen] = '\0';
    if (strchr(terms, '/')) return pms__fail(PMS_EINVAL, "'%s': expected a single pmu/terms/ form", spec);

    char pmudir[1024], path[1100], buf[64];
    snprintf(pmudir, sizeof pmudir, "%s/" DEVICES "/%s", pms__sysfs_root(), pmu);
    snprintf(path, sizeof path, "%s/type", pmudir);
    if (!read_line(path, buf, sizeof buf)) {
        char known[512];
        list_pmus(known, sizeof known);
        return pms__fail(PMS_ENOENT, "%s: no PMU named '%s' on this machine (%s/" DEVICES " has: %s)", spec, pmu,
                        pms__sysfs_root(), *known ? known : "nothing");
    }
    char *end;
    unsigned long type = strtoul(buf, &end, 10);
    if (end == buf || *end) return pms__fail(PMS_EFORMAT, "%s: expected a PMU type number, found '%s'", path, buf);
    attr->type = (uint32_t)type;
    int r = apply_terms(pmudir, pmu, terms, attr, true);
    return r ? pms__fail_context(r, "%s", spec) : PMS_OK;
}

bool pms__sysfs_has_core_pmu(void)
{
    static const char *const core[] = {"cpu", "cpu_core", "cpu_atom", "armv8_pmuv3", "armv8_pmuv3_0",
                                       "armv8_cortex_a53", "armv8_cortex_a72", "armv8_neoverse_n1"};
    char path[1024];
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++) {
        snprintf(path, sizeof path, "%s/" DEVICES "/%s/type", pms__sysfs_root(), core[i]);
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
            return true;
        }
    }
    return false;
}

int pms__sysfs_foreach(pms_event_visit_fn fn, void *ctx)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/" DEVICES, pms__sysfs_root());
    DIR *d = opendir(path);
    if (!d) return 0;
    int r = 0;
    struct dirent *de;
    while (!r && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char evdir[1400];
        snprintf(evdir, sizeof evdir, "%s/%s/events", path, de->d_name);
        DIR *e = opendir(evdir);
        if (!e) continue;
        struct dirent *ev;
        while (!r && (ev = readdir(e)) != NULL) {
            /* Skip . and the .scale/.unit/.snapshot companions of an alias. */
            if (ev->d_name[0] == '.' || strchr(ev->d_name, '.')) continue;
            char name[600], file[1700], terms[256], desc[600];
            snprintf(name, sizeof name, "%s/%s/", de->d_name, ev->d_name);
            snprintf(file, sizeof file, "%s/%s", evdir, ev->d_name);
            if (!read_line(file, terms, sizeof terms)) continue;
            snprintf(desc, sizeof desc, "sysfs event of PMU %s: %s", de->d_name, terms);
            r = fn(name, desc, PMS_EVSRC_SYSFS, ctx);
        }
        closedir(e);
    }
    closedir(d);
    return r;
}

bool pms__sysfs_pmu_is_system_wide(uint32_t type, char *pmu, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/" DEVICES, pms__sysfs_root());
    DIR *d = opendir(path);
    if (!d) return false;
    bool found = false;
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char file[1400], buf[32];
        snprintf(file, sizeof file, "%s/%s/type", path, de->d_name);
        if (!read_line(file, buf, sizeof buf) || strtoul(buf, NULL, 10) != type) continue;
        /* PMUs that count per CPU only (uncore, RAPL) publish the CPUs to open them on. */
        snprintf(file, sizeof file, "%s/%s/cpumask", path, de->d_name);
        FILE *f = fopen(file, "r");
        if (f) {
            fclose(f);
            snprintf(pmu, size, "%s", de->d_name);
            found = true;
        }
    }
    closedir(d);
    return found;
}
