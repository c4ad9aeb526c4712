/* The command a truth belongs to, and the check that a recording ran the same one. */
#include "hotspot/truth_run.h"
#include "io/text_lines.h"
#include "pmuscope/hotspot.h"
#include "util/error.h"
#include "util/output.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pms__find_program(const char *argv0, char out[PATH_MAX])
{
    if (strchr(argv0, '/')) return realpath(argv0, out) ? 0 : -1;
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
        size_t len = strcspn(p, ":");
        char candidate[PATH_MAX];
        snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, len ? p : ".", argv0);
        if (access(candidate, X_OK) == 0 && realpath(candidate, out)) return 0;
        p += len + (p[len] == ':');
    }
    return -1;
}

/* One argument per line: a newline in it is written "\n", a backslash "\\". */
static void write_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n') fputs("\\n", f);
        else if (*s == '\\') fputs("\\\\", f);
        else fputc(*s, f);
    }
}

static void unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r == '\\' && (r[1] == 'n' || r[1] == '\\')) *w++ = *++r == 'n' ? '\n' : '\\';
        else *w++ = *r;
    }
    *w = '\0';
}

typedef struct run_file {
    const char *id, *binary;
    char *const *argv;
    uint64_t instructions;
} run_file;

static int write_run(FILE *f, void *ctx)
{
    const run_file *r = ctx;
    fprintf(f, "# pmuscope hotspot truth: the command valgrind ran\n");
    fprintf(f, "binary %s %s\ninstructions %" PRIu64 "\n", r->id[0] ? r->id : "-", r->binary, r->instructions);
    for (size_t i = 0; r->argv[i]; i++) {
        fputs("arg ", f);
        write_escaped(f, r->argv[i]);
        fputc('\n', f);
    }
    return PMS_OK; /* a failed write is said at the commit, naming the file */
}

int pms__truth_run_write(const char *dir, char *const argv[], uint64_t instructions)
{
    char binary[PATH_MAX], id[PMS_BUILD_ID_HEX] = "";
    if (pms__find_program(argv[0], binary) < 0)
        return pms__fail(PMS_ENOENT, "cannot find the program %s that valgrind ran", argv[0]);
    int rc = pms__elf_build_id(binary, id);
    if (rc < 0) return rc;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/run", dir);
    run_file r = {id, binary, argv, instructions};
    return pms__output_save(path, 0, write_run, &r);
}

static int add_arg(pms_truth_run *r, const char *s)
{
    char **argv = realloc(r->argv, (r->argc + 2) * sizeof *argv);
    if (!argv) return -1;
    r->argv = argv;
    if (!(argv[r->argc] = strdup(s))) return -1;
    unescape(argv[r->argc]);
    argv[++r->argc] = NULL;
    return 0;
}

/* One line of DIR/run. */
static int run_line(pms_truth_run *r, char *line, const char *path, size_t lineno)
{
    if (!strncmp(line, "arg ", 4))
        return add_arg(r, line + 4) ? pms__fail(PMS_ENOMEM, "%s: out of memory", path) : PMS_OK;
    char *space;
    if (!strncmp(line, "binary ", 7) && (space = strchr(line + 7, ' ')) && space[1] == '/' &&
        space - (line + 7) < PMS_BUILD_ID_HEX) {
        *space = '\0';
        snprintf(r->build_id, sizeof r->build_id, "%s", strcmp(line + 7, "-") ? line + 7 : "");
        snprintf(r->binary, sizeof r->binary, "%s", space + 1);
        return PMS_OK;
    }
    char *end;
    if (!strncmp(line, "instructions ", 13)) {
        errno = 0;
        r->instructions = strtoull(line + 13, &end, 10);
        if (!errno && end > line + 13 && !*end) return PMS_OK;
    }
    return pms__fail(PMS_EFORMAT, "%s: line %zu: expected \"binary BUILD-ID /path\", \"instructions N\" or \"arg WORD\"",
                    path, lineno);
}

int pms__truth_run_read(pms_truth_run *r, const char *dir, int *found)
{
    memset(r, 0, sizeof *r);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/run", dir);
    *found = access(path, F_OK) == 0 || errno != ENOENT;
    if (!*found) return PMS_OK; /* a truth recorded before runs were kept */
    pms_lines in;
    int rc = pms__lines_open(&in, path, 0);
    if (rc) return rc;
    char *line;
    size_t len;
    while (rc == PMS_OK && (rc = pms__lines_next(&in, &line, &len)) == 1)
        rc = line[0] != '#' && line[0] ? run_line(r, line, path, in.line) : PMS_OK;
    pms__lines_close(&in);
    if (rc == PMS_OK && (!r->argc || !r->binary[0]))
        rc = pms__fail(PMS_EFORMAT, "%s: lacks the binary or the command's arguments", path);
    if (rc) pms__truth_run_free(r);
    return rc;
}

void pms__truth_run_free(pms_truth_run *r)
{
    for (size_t i = 0; i < r->argc; i++) free(r->argv[i]);
    free(r->argv);
    r->argv = NULL;
    r->argc = 0;
}

/* The same program: by build-id where both have one, else by real path; by name when
 * the recording's program cannot be found from here. */
static int same_program(const pms_truth_run *r, const char *argv0)
{
    char binary[PATH_MAX], id[PMS_BUILD_ID_HEX] = "";
    if (pms__find_program(argv0, binary) < 0) {
        const char *a = strrchr(argv0, '/'), *b = strrchr(r->binary, '/');
        return !strcmp(a ? a + 1 : argv0, b ? b + 1 : r->binary);
    }
    if (r->build_id[0] && pms__elf_build_id(binary, id) == PMS_OK && id[0]) return !strcmp(id, r->build_id);
    return !strcmp(binary, r->binary);
}

/* Words joined by blanks, cut to fit. */
static void join(char *out, size_t cap, char *const words[], size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", words[i]);
}

int pms__truth_run_compare(const pms_truth_run *r, char *const cmdline[], size_t n)
{
    if (!n) return pms__fail(PMS_ENOENT, "the recording holds no command line to compare with the truth's command");
    size_t start = n;
    for (size_t i = 0; i < n && start == n; i++)
        if (!strcmp(cmdline[i], "--")) start = i + 1;
    if (start == n) /* "perf record ./prog args": the command is its last words */
        start = n >= r->argc ? n - r->argc : 0;
    size_t m = n - start;
    int same = m == r->argc && same_program(r, cmdline[start]);
    for (size_t i = 1; same && i < m; i++) same = !strcmp(cmdline[start + i], r->argv[i]);
    if (same) return PMS_OK;
    char ran[512], truth[512];
    join(ran, sizeof ran, cmdline + start, m);
    join(truth, sizeof truth, r->argv, r->argc);
    return pms__fail(PMS_EINVAL, "the recording ran \"%s\" but the truth is of \"%s\" (%s, build-id %s): exact counts "
                    "describe one command with its arguments", ran, truth, r->binary,
                    r->build_id[0] ? r->build_id : "none");
}
