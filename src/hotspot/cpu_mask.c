/* The native runs of a sweep execute the code valgrind executes: glibc picks its string and
 * memory routines (IFUNC variants) and its copy strategies from the CPU it sees, and
 * valgrind's virtual CPU has fewer features (no AVX-512) and may name another vendor. What
 * glibc's loader reports (ld.so --list-diagnostics, glibc 2.33 and later) natively and
 * under valgrind gives the difference; GLIBC_TUNABLES (glibc.cpu.hwcaps and the x86 copy
 * thresholds) makes the native choices valgrind's, and running the loader again with it
 * says what still differs. */
#include "hotspot/cpu_mask.h"
#include "pmuscope/hotspot.h"
#include "pmuscope/target.h"
#include "pmuscope/error.h"
#include "util/error.h"
#include "util/file.h"

#include <elf.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FEATURE_SETS 16 /* glibc's cpu_features.features[] sets read (2.36 has 9) */

/* What the loader reported: the x86 lines that steer glibc's choices. */
typedef struct glibc_view {
    int x86;                              /* the loader printed x86.cpu_features lines */
    uint32_t active[FEATURE_SETS][4];     /* features[i].active[register] */
    int has_active[FEATURE_SETS][4];
    struct { char name[48]; int on; } preferred[64];
    size_t npreferred;
    struct { char name[40]; char value[40]; } other[16]; /* thresholds and the like */
    size_t nother;
} glibc_view;

/* Bits of cpu_features.features[set].active[reg] that glibc.cpu.hwcaps can turn off (the
 * names glibc's cpu-tunables.c accepts, at their CPUID positions; set 0 is leaf 1, set 1
 * leaf 7, set 2 leaf 0x80000001, set 3 leaf 0xd subleaf 1; registers eax, ebx, ecx, edx). */
static const struct { const char *name; unsigned set, reg, bit; } maskable[] = {
    {"SSSE3", 0, 2, 9},     {"FMA", 0, 2, 12},     {"SSE4_1", 0, 2, 19},   {"SSE4_2", 0, 2, 20},
    {"MOVBE", 0, 2, 22},    {"POPCNT", 0, 2, 23},  {"XSAVE", 0, 2, 26},    {"OSXSAVE", 0, 2, 27},
    {"AVX", 0, 2, 28},      {"CX8", 0, 3, 8},      {"CMOV", 0, 3, 15},     {"SSE2", 0, 3, 26},
    {"HTT", 0, 3, 28},      {"BMI1", 1, 1, 3},     {"AVX2", 1, 1, 5},      {"BMI2", 1, 1, 8},
    {"ERMS", 1, 1, 9},      {"RTM", 1, 1, 11},     {"AVX512F", 1, 1, 16},  {"AVX512DQ", 1, 1, 17},
    {"AVX512PF", 1, 1, 26}, {"AVX512ER", 1, 1, 27}, {"AVX512CD", 1, 1, 28}, {"AVX512BW", 1, 1, 30},
    {"AVX512VL", 1, 1, 31}, {"SHSTK", 1, 2, 7},    {"IBT", 1, 3, 20},      {"LZCNT", 2, 2, 5},
    {"FMA4", 2, 2, 16},     {"XSAVEC", 3, 0, 1},
};

/* Values that glibc.cpu.x86_<key> sets (copy strategy thresholds and the cache sizes they
 * derive from), and others compared but not settable. */
static const char *const settable[] = {"data_cache_size", "shared_cache_size", "non_temporal_threshold",
                                       "rep_movsb_threshold", "rep_stosb_threshold"};
static const char *const compared[] = {"rep_movsb_stop_threshold"};

static int is_listed(const char *key, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(key, list[i])) return 1;
    return 0;
}

static void parse_line(glibc_view *v, const char *line)
{
    static const char prefix[] = "x86.cpu_features.";
    unsigned set, reg;
    char name[48];
    uint32_t value;
    if (strncmp(line, prefix, sizeof prefix - 1)) return;
    v->x86 = 1;
    line += sizeof prefix - 1;
    if (sscanf(line, "features[%x].active[%x]=%" SCNx32, &set, &reg, &value) == 3) {
        if (set < FEATURE_SETS && reg < 4) {
            v->active[set][reg] = value;
            v->has_active[set][reg] = 1;
        }
    } else if (sscanf(line, "preferred.%47[A-Za-z0-9_]=%" SCNx32, name, &value) == 2) {
        if (v->npreferred < sizeof v->preferred / sizeof v->preferred[0]) {
            snprintf(v->preferred[v->npreferred].name, sizeof v->preferred[0].name, "%s", name);
            v->preferred[v->npreferred++].on = value != 0;
        }
    } else {
        const char *eq = strchr(line, '=');
        size_t len = eq ? (size_t)(eq - line) : 0;
        if (!len || len >= sizeof v->other[0].name || v->nother == sizeof v->other / sizeof v->other[0]) return;
        snprintf(v->other[v->nother].name, sizeof v->other[0].name, "%.*s", (int)len, line);
        if (!is_listed(v->other[v->nother].name, settable, sizeof settable / sizeof *settable) &&
            !is_listed(v->other[v->nother].name, compared, sizeof compared / sizeof *compared))
            return;
        snprintf(v->other[v->nother++].value, sizeof v->other[0].value, "%s", eq + 1);
    }
}

/* The lines of a report (text is cut into lines). */
static void parse_text(glibc_view *v, char *text)
{
    for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        parse_line(v, line);
}

/* The program interpreter of this process (the loader of this system's glibc). */
static int find_interpreter(struct dl_phdr_info *info, size_t size, void *path)
{
    (void)size;
    for (size_t i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_INTERP) {
            snprintf(path, PATH_MAX, "%s", (const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr));
            return 1;
        }
    return 1; /* only the main program (listed first) tells */
}

/* Runs argv with its standard output in FILE and env added; *status from waitpid (-1 if
 * it could not run). */
static int run_to_file(char *const argv[], const char *file, char *const *env, int *status)
{
    pms_child_setup setup = {.stdin_path = "/dev/null", .stdout_path = file, .env = env};
    pms_child child = {.pid = -1, .release_fd = -1, .error_fd = -1};
    *status = -1;
    int rc = pms_child_spawn_with(&child, argv, &setup);
    if (rc == PMS_OK && (rc = pms_child_release(&child, argv[0])) == PMS_OK)
        rc = pms_child_wait(&child, status, NULL);
    else if (rc != PMS_OK && child.pid > 0)
        pms_child_abort(&child);
    return rc;
}

/* What the loader reports natively (valgrind NULL) or under valgrind, with env added. */
static int glibc_view_read(glibc_view *v, const char *dir, const char *loader, int valgrind, char *const *env,
                           char *why, size_t whysize)
{
    memset(v, 0, sizeof *v);
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/glibc-%s.txt", dir, valgrind ? "valgrind" : "native");
    char *native[] = {(char *)loader, "--list-diagnostics", NULL};
    char *under[] = {"valgrind", "--tool=none", "-q", "--vgdb=no", (char *)loader, "--list-diagnostics", NULL};
    int status, rc = run_to_file(valgrind ? under : native, file, env, &status);
    char *text = NULL;
    size_t len;
    if (rc == PMS_OK && WIFEXITED(status) && WEXITSTATUS(status) == 0 && pms__read_file(file, NULL, NULL, &text, &len) == PMS_OK) {
        parse_text(v, text);
        free(text);
    } else if (rc != PMS_OK) {
        snprintf(why, whysize, "%s", pms_strerror());
    } else {
        snprintf(why, whysize, "%s --list-diagnostics %sfailed (glibc 2.33 or later prints what it chose)", loader,
                 valgrind ? "under valgrind " : "");
        rc = PMS_ENOTSUP;
    }
    unlink(file);
    return rc;
}

static int find_preferred(const glibc_view *v, const char *name)
{
    for (size_t i = 0; i < v->npreferred; i++)
        if (!strcmp(v->preferred[i].name, name)) return v->preferred[i].on;
    return -1;
}

static const char *find_other(const glibc_view *v, const char *name)
{
    for (size_t i = 0; i < v->nother; i++)
        if (!strcmp(v->other[i].name, name)) return v->other[i].value;
    return NULL;
}

/* Appends "SEP TEXT" to buf (cap bytes), SEP only if buf holds something; cut to fit. */
static void append(char *buf, size_t cap, const char *sep, const char *text)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap) return;
    int n = snprintf(buf + len, cap - len, "%s%s", len ? sep : "", text);
    if (n < 0) buf[len] = '\0';
}

/* The GLIBC_TUNABLES value that makes the native view valgrind's: preferences first (one
 * that needs a feature, such as Prefer_No_AVX512, is taken only while it is on), then the
 * features valgrind lacks turned off, then the thresholds. */
static void tunables_for(const glibc_view *native, const glibc_view *vg, char *out, size_t cap)
{
    char hwcaps[768] = "", word[64];
    for (size_t i = 0; i < vg->npreferred; i++) {
        int here = find_preferred(native, vg->preferred[i].name);
        if (here < 0 || here == vg->preferred[i].on) continue;
        snprintf(word, sizeof word, "%s%s", vg->preferred[i].on ? "" : "-", vg->preferred[i].name);
        append(hwcaps, sizeof hwcaps, ",", word);
    }
    for (size_t k = 0; k < sizeof maskable / sizeof *maskable; k++) {
        unsigned s = maskable[k].set, r = maskable[k].reg;
        uint32_t bit = 1u << maskable[k].bit;
        if (native->has_active[s][r] && vg->has_active[s][r] && (native->active[s][r] & bit) &&
            !(vg->active[s][r] & bit)) {
            snprintf(word, sizeof word, "-%s", maskable[k].name);
            append(hwcaps, sizeof hwcaps, ",", word);
        }
    }
    out[0] = '\0';
    if (hwcaps[0]) snprintf(out, cap, "glibc.cpu.hwcaps=%s", hwcaps);
    for (size_t i = 0; i < sizeof settable / sizeof *settable; i++) {
        const char *here = find_other(native, settable[i]), *there = find_other(vg, settable[i]);
        if (!here || !there || !strcmp(here, there)) continue;
        char t[128];
        snprintf(t, sizeof t, "glibc.cpu.x86_%s=%s", settable[i], there);
        append(out, cap, ":", t);
    }
}

static const char *maskable_name(unsigned set, unsigned reg, unsigned bit)
{
    for (size_t k = 0; k < sizeof maskable / sizeof *maskable; k++)
        if (maskable[k].set == set && maskable[k].reg == reg && maskable[k].bit == bit) return maskable[k].name;
    return NULL;
}

/* What differs between two views, in words ("" if nothing): features glibc.cpu.hwcaps
 * names, then the CPUID bits it cannot turn off, then preferences and thresholds. */
static void differences(const glibc_view *a, const glibc_view *b, char *out, size_t cap)
{
    static const char *const regs[] = {"eax", "ebx", "ecx", "edx"};
    char named[256] = "", unnamed[256] = "", word[160];
    for (unsigned s = 0; s < FEATURE_SETS; s++)
        for (unsigned r = 0; r < 4; r++) {
            if (!a->has_active[s][r] || !b->has_active[s][r] || a->active[s][r] == b->active[s][r]) continue;
            uint32_t d = a->active[s][r] ^ b->active[s][r];
            char bits[96] = "";
            for (unsigned bit = 0; bit < 32; bit++) {
                const char *name = maskable_name(s, r, bit);
                if (!(d >> bit & 1)) continue;
                if (name) {
                    append(named, sizeof named, ",", name);
                } else {
                    snprintf(word, sizeof word, "%u", bit);
                    append(bits, sizeof bits, ",", word);
                }
            }
            if (!bits[0]) continue;
            snprintf(word, sizeof word, "features[%u].%s %s", s, regs[r], bits);
            append(unnamed, sizeof unnamed, " ", word);
        }
    out[0] = '\0';
    append(out, cap, "; ", named);
    if (unnamed[0]) {
        snprintf(word, sizeof word, "CPUID bits that glibc.cpu.hwcaps cannot turn off: ");
        append(out, cap, "; ", word);
        append(out, cap, "", unnamed);
    }
    for (size_t i = 0; i < b->npreferred; i++) {
        int here = find_preferred(a, b->preferred[i].name);
        if (here >= 0 && here != b->preferred[i].on) append(out, cap, "; ", b->preferred[i].name);
    }
    for (size_t i = 0; i < b->nother; i++) {
        const char *here = find_other(a, b->other[i].name);
        if (here && strcmp(here, b->other[i].value)) append(out, cap, "; ", b->other[i].name);
    }
}

/* GLIBC_TUNABLES=... with the caller's own tunables kept first. */
static void tunables_env(char *out, size_t cap, const char *ours)
{
    const char *theirs = getenv("GLIBC_TUNABLES");
    snprintf(out, cap, "GLIBC_TUNABLES=%s%s%s", theirs && theirs[0] ? theirs : "", theirs && theirs[0] ? ":" : "",
             ours);
}

int pms_hotspot_cpu_mask_probe(pms_hotspot_cpu_mask *out, const char *dir)
{
    memset(out, 0, sizeof *out);
    out->state = PMS_CPU_MASK_UNAVAILABLE;
#if !defined(__x86_64__) && !defined(__i386__)
    (void)dir;
    snprintf(out->why, sizeof out->why, "glibc.cpu.hwcaps turns CPU features off on x86 only");
    return PMS_OK;
#endif
    char loader[PATH_MAX] = "";
    dl_iterate_phdr(find_interpreter, loader);
    if (!loader[0]) {
        snprintf(out->why, sizeof out->why, "this program has no ELF interpreter to ask (a static build)");
        return PMS_OK;
    }
    glibc_view *v = calloc(3, sizeof *v);
    if (!v) return pms__fail(PMS_ENOMEM, "out of memory");
    glibc_view *native = &v[0], *vg = &v[1], *masked = &v[2];
    if (glibc_view_read(native, dir, loader, 0, NULL, out->why, sizeof out->why) == PMS_OK &&
        glibc_view_read(vg, dir, loader, 1, NULL, out->why, sizeof out->why) == PMS_OK) {
        char diff[512];
        differences(native, vg, diff, sizeof diff);
        if (!native->x86) {
            snprintf(out->why, sizeof out->why, "glibc's loader reports no x86 CPU features: only x86's glibc takes "
                                                "glibc.cpu.hwcaps");
        } else if (!diff[0]) {
            out->state = PMS_CPU_MASK_SAME;
        } else {
            tunables_for(native, vg, out->tunables, sizeof out->tunables);
            char env[sizeof out->tunables + 64];
            tunables_env(env, sizeof env, out->tunables);
            char *envv[] = {env, NULL};
            if (glibc_view_read(masked, dir, loader, 0, envv, out->why, sizeof out->why) == PMS_OK) {
                differences(masked, vg, out->remaining, sizeof out->remaining);
                out->state = PMS_CPU_MASK_APPLIED;
            }
        }
    }
    free(v);
    return PMS_OK;
}

int pms_hotspot_cpu_mask_env(const pms_hotspot_cpu_mask *m, char *out, size_t size)
{
    if (m->state != PMS_CPU_MASK_APPLIED || !m->tunables[0]) return 0;
    tunables_env(out, size, m->tunables);
    return 1;
}

/* Both reports parsed from copies of their text. */
static int views_of(glibc_view *v, const char *native, const char *vg)
{
    char *a = strdup(native), *b = strdup(vg);
    if (a && b) {
        parse_text(&v[0], a);
        parse_text(&v[1], b);
    }
    free(a);
    free(b);
    return a && b ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
}

int pms__cpu_mask_compare(const char *native, const char *vg, char *tunables, size_t tsize, char *differing,
                          size_t dsize)
{
    glibc_view *v = calloc(2, sizeof *v);
    int rc = v ? views_of(v, native, vg) : pms__fail(PMS_ENOMEM, "out of memory");
    if (rc == PMS_OK) {
        tunables_for(&v[0], &v[1], tunables, tsize);
        differences(&v[0], &v[1], differing, dsize);
        rc = v[0].x86 && v[1].x86;
    }
    free(v);
    return rc;
}
