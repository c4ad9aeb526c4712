/* The one text line reader (see io/text_lines.h). */
#include "io/text_lines.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/input_limit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Regular files and pipes only: a device (/dev/zero, a terminal) or a directory would
 * never end or never hold text. */
static int check_kind(FILE *f, const char *name)
{
    struct stat st;
    if (fileno(f) < 0) return PMS_OK; /* a memory stream (fmemopen) */
    if (fstat(fileno(f), &st)) return pms__fail_errno(PMS_EIO, errno, "cannot stat %s", name);
    if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) return PMS_OK;
    return pms__fail(PMS_EINVAL, "%s: %s, not a regular file or a pipe: expected a text file", name,
                    S_ISDIR(st.st_mode)   ? "a directory"
                    : S_ISCHR(st.st_mode) ? "a character device"
                    : S_ISBLK(st.st_mode) ? "a block device"
                                          : "a special file");
}

int pms__lines_from_stream(pms_lines *r, FILE *f, const char *name, unsigned flags)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->f = f;
    r->flags = flags;
    r->max_len = PMS_LINES_MAX_LEN;
    r->newline = true;
    struct stat st;
    r->regular = fileno(f) < 0 || (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)); /* fmemopen: in memory */
    return check_kind(f, name);
}

int pms__lines_open(pms_lines *r, const char *path, unsigned flags)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return pms__fail_errno(pms__status_from_errno(errno), errno, "cannot open %s", path);
    int rc = pms__lines_from_stream(r, f, path, flags);
    r->owned = !is_stdin;
    if (rc) pms__lines_close(r);
    return rc;
}

void pms__lines_close(pms_lines *r)
{
    if (r->owned && r->f) fclose(r->f);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

static int fail_nul(const char *name, size_t line, uint64_t offset)
{
    return pms__fail(PMS_EFORMAT, "%s: line %zu: byte offset %llu: NUL byte, expected text", name, line,
                     (unsigned long long)offset);
}

int pms__lines_next(pms_lines *r, char **line, size_t *len)
{
    if (!r->newline) return 0; /* the last line had no newline: that was the end */
    size_t n = 0;
    int c;
    uint64_t start = r->offset;
    while ((c = getc_unlocked(r->f)) != EOF && c != '\n') {
        if (c == '\0') return fail_nul(r->name, r->line + 1, start + n);
        if (n >= r->max_len)
            return pms__fail(PMS_EFORMAT, "%s: line %zu: longer than %zu bytes, expected lines of text", r->name,
                            r->line + 1, r->max_len);
        if (n + 1 >= r->cap && pms__grow(&r->buf, &r->cap, n + 2, 1))
            return pms__fail(PMS_ENOMEM, "%s: line %zu: out of memory", r->name, r->line + 1);
        r->buf[n++] = (char)c;
    }
    if (c == EOF && ferror(r->f))
        return pms__fail_errno(PMS_EIO, errno, "%s: read error at line %zu", r->name, r->line + 1);
    r->newline = c == '\n';
    if (c == EOF && n == 0) return 0;
    r->offset += n + r->newline;
    r->line++;
    if (!r->newline && (r->flags & PMS_LINES_COMPLETE))
        return pms__fail(PMS_EFORMAT, "%s: line %zu: ends without a newline: the file was cut short", r->name,
                        r->line);
    if (!r->buf && pms__grow(&r->buf, &r->cap, 1, 1))
        return pms__fail(PMS_ENOMEM, "%s: out of memory", r->name);
    r->buf[n] = '\0';
    char *s = r->buf;
    if (r->line == 1 && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) { /* a UTF-8 byte-order mark */
        s += 3;
        n -= 3;
    }
    *line = s;
    *len = n;
    return 1;
}

int pms__text_head_check(const unsigned char *head, size_t len, const char *name, pms__text_parser parse,
                         void *ctx)
{
    const unsigned char *nul = memchr(head, 0, len); /* no text reader takes one, even past the last newline */
    if (nul) {
        size_t line = 1;
        for (const unsigned char *p = head; p < nul; p++) line += *p == '\n';
        return fail_nul(name, line, (uint64_t)(nul - head));
    }
    size_t n = len;
    while (n && head[n - 1] != '\n') n--;
    char *text = malloc(n + 1);
    if (!text) return pms__fail(PMS_ENOMEM, "out of memory");
    memcpy(text, head, n);
    text[n] = '\0';
    int rc = parse(text, n, name, ctx);
    free(text);
    return rc && !pms__failed_at_end() ? rc : PMS_OK;
}

int pms__read_text(const char *path, unsigned flags, pms__text_parser head, void *ctx, char **data, size_t *len)
{
    pms_lines r;
    int rc = pms__lines_open(&r, path, flags);
    if (rc) return rc;
    char *text = NULL, *line;
    size_t cap = 0, n = 0, linelen;
    bool looked = !head;
    while ((rc = pms__lines_next(&r, &line, &linelen)) == 1) {
        if (!r.regular && pms__over_input_limit(r.offset)) {
            rc = pms__fail_input_limit(path);
            break;
        }
        if (pms__grow(&text, &cap, n + linelen + 2, 1)) {
            rc = pms__fail(PMS_ENOMEM, "%s: out of memory reading the file", path);
            break;
        }
        memcpy(text + n, line, linelen);
        n += linelen;
        if (r.newline) text[n++] = '\n';
        if (!looked && n >= PMS_INPUT_HEAD) { /* more may follow: do the first lines parse? */
            looked = true;
            text[n] = '\0';
            if ((rc = head(text, n, path, ctx)) && !pms__failed_at_end()) break;
            rc = 1;
        }
    }
    pms__lines_close(&r);
    if (rc == 0 && !text && pms__grow(&text, &cap, 1, 1)) rc = pms__fail(PMS_ENOMEM, "%s: out of memory", path);
    if (rc) {
        free(text);
        return rc;
    }
    text[n] = '\0';
    *data = text;
    *len = n;
    return PMS_OK;
}
