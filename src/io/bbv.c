/* valgrind exp-bbv basic block vectors: T: lines (BB file) and F: lines (PC file). */
#include "io/bbv_internal.h"
#include "util/error.h"
#include "io/text_lines.h"
#include "util/grow.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pms_bbv_create(pms_bbv **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? PMS_OK : pms__fail(PMS_ENOMEM, "out of memory");
}

void pms_bbv_free(pms_bbv *b)
{
    if (!b) return;
    free(b->entries);
    free(b->intervals);
    free(b->blocks);
    free(b->names);
    free(b);
}

/* Parses an unsigned number in base 10 or 16 at *p; advances *p. */
static int parse_u64(const char **p, const char *end, int base, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    while (s < end && isxdigit((unsigned char)*s) && (base == 16 || isdigit((unsigned char)*s))) {
        unsigned d = isdigit((unsigned char)*s) ? (unsigned)(*s - '0') : (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
        if (v > (UINT64_MAX - d) / (uint64_t)base) return -1;
        v = v * (uint64_t)base + d;
        s++;
    }
    if (s == *p) return -1;
    *p = s;
    *out = v;
    return 0;
}

static const char *skip_blanks(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    return s;
}

/* Makes the entries from index first to the end one interval. */
static int finish_interval(pms_bbv *b, size_t first, size_t line)
{
    if (pms__grow(&b->intervals, &b->intervals_cap, b->nintervals + 1, sizeof *b->intervals))
        return pms__fail(PMS_ENOMEM, "out of memory for basic block vectors");
    pms_bbv_slot *iv = &b->intervals[b->nintervals++];
    iv->first = first;
    iv->n = b->nentries - first;
    iv->line = line;
    iv->instructions = 0;
    for (size_t i = first; i < b->nentries; i++) {
        iv->instructions += b->entries[i].count;
        pms_bbv_block *blk = (pms_bbv_block *)pms_bbv_find_block(b, b->entries[i].block);
        if (blk) blk->instructions += b->entries[i].count;
    }
    return PMS_OK;
}

int pms_bbv_add_interval(pms_bbv *b, const pms_bbv_entry *entries, size_t n)
{
    if (pms__grow(&b->entries, &b->entries_cap, b->nentries + n, sizeof *b->entries))
        return pms__fail(PMS_ENOMEM, "out of memory for basic block vectors");
    size_t first = b->nentries;
    if (n) memcpy(b->entries + first, entries, n * sizeof *entries);
    b->nentries += n;
    return finish_interval(b, first, 0);
}

/* One T: line, "T:b:c   :b:c ...", appended as an interval. */
static int parse_t_line(pms_bbv *b, const char *name, size_t line, const char *s, const char *end)
{
    const char *start = s;
    size_t first = b->nentries;
    s++; /* 'T' */
    for (;;) {
        s = skip_blanks(s, end);
        if (s == end) break;
        pms_bbv_entry e;
        if (*s != ':')
            return pms__fail(PMS_EFORMAT, "%s: line %zu: column %zu: expected ':block:count'", name, line,
                            (size_t)(s - start) + 1);
        s++;
        if (parse_u64(&s, end, 10, &e.block) || s == end || *s != ':')
            return pms__fail(PMS_EFORMAT, "%s: line %zu: column %zu: expected a block number followed by ':'",
                            name, line, (size_t)(s - start) + 1);
        s++;
        if (parse_u64(&s, end, 10, &e.count))
            return pms__fail(PMS_EFORMAT, "%s: line %zu: column %zu: expected an instruction count after block %llu",
                            name, line, (size_t)(s - start) + 1, (unsigned long long)e.block);
        if (pms__grow(&b->entries, &b->entries_cap, b->nentries + 1, sizeof *b->entries))
            return pms__fail(PMS_ENOMEM, "out of memory for basic block vectors");
        b->entries[b->nentries++] = e;
    }
    return finish_interval(b, first, line);
}

/* Calls fn for each line (without its newline), with its 1-based number. */
typedef int (*line_fn)(pms_bbv *b, const char *name, size_t line, const char *s, const char *end);

static int for_each_line(pms_bbv *b, const char *name, const char *text, size_t len, line_fn fn)
{
    const char *p = text, *end = text + len;
    for (size_t line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if (memchr(p, '\0', (size_t)(e - p)))
            return pms__fail(PMS_EFORMAT, "%s: line %zu: unexpected NUL byte: not a text file", name, line);
        int rc = fn(b, name, line, p, e);
        if (rc) return rc;
        p = nl ? nl + 1 : end;
    }
    return PMS_OK;
}

static int bb_line(pms_bbv *b, const char *name, size_t line, const char *s, const char *end)
{
    s = skip_blanks(s, end);
    if (s == end) return PMS_OK;
    if (*s == '#') {
        static const char key[] = "Interval Size ";
        const char *k = memmem(s, (size_t)(end - s), key, sizeof key - 1);
        if (k) {
            const char *v = k + sizeof key - 1;
            uint64_t size;
            if (parse_u64(&v, end, 10, &size) == 0) b->interval_size = size;
        }
        return PMS_OK;
    }
    if (*s != 'T')
        return pms__fail(PMS_EFORMAT, "%s: line %zu: expected a 'T:' vector line or a '#' comment, found '%c'",
                        name, line, isprint((unsigned char)*s) ? *s : '?');
    return parse_t_line(b, name, line, s, end);
}

int pms_bbv_parse(pms_bbv **out, const char *name, const char *text, size_t len)
{
    pms_bbv *b;
    int rc = pms_bbv_create(&b);
    if (rc) return rc;
    rc = for_each_line(b, name, text, len, bb_line);
    if (rc) {
        pms_bbv_free(b);
        return rc;
    }
    *out = b;
    return PMS_OK;
}

int pms__bbv_head(const char *text, size_t len, const char *name, void *ctx)
{
    (void)ctx;
    pms_bbv *b = NULL;
    int rc = pms_bbv_parse(&b, name, text, len);
    pms_bbv_free(b);
    return rc;
}

/* A PC file's head: its lines parsed into a scratch set of vectors. */
static int pc_head(const char *text, size_t len, const char *name, void *ctx)
{
    (void)ctx;
    pms_bbv *b = NULL;
    int rc = pms_bbv_create(&b);
    if (!rc) rc = pms_bbv_parse_pc(b, name, text, len);
    pms_bbv_free(b);
    return rc;
}

int pms__bbv_read_file(pms_bbv **out, const char *path)
{
    char *text;
    size_t len;
    int rc = pms__read_text(path, PMS_LINES_COMPLETE, pms__bbv_head, NULL, &text, &len); /* fixed-shape lines */
    if (rc) return rc;
    rc = pms_bbv_parse(out, path, text, len);
    free(text);
    return rc;
}

/* One F: line, "F:block:hexaddr:function". */
static int pc_line(pms_bbv *b, const char *name, size_t line, const char *s, const char *end)
{
    s = skip_blanks(s, end);
    if (s == end || *s == '#') return PMS_OK;
    pms_bbv_block blk = {0};
    if (end - s < 2 || s[0] != 'F' || s[1] != ':')
        return pms__fail(PMS_EFORMAT, "%s: line %zu: expected an 'F:block:address:function' line", name, line);
    s += 2;
    if (parse_u64(&s, end, 10, &blk.block) || s == end || *s != ':')
        return pms__fail(PMS_EFORMAT, "%s: line %zu: expected a block number followed by ':'", name, line);
    s++;
    if (parse_u64(&s, end, 16, &blk.address) || s == end || *s != ':')
        return pms__fail(PMS_EFORMAT, "%s: line %zu: expected a hexadecimal address followed by ':'", name, line);
    s++;
    while (end > s && (end[-1] == '\r' || end[-1] == ' ')) end--;
    size_t nlen = (size_t)(end - s);
    if (pms__grow(&b->names, &b->names_cap, b->names_len + nlen + 1, 1) ||
        pms__grow(&b->blocks, &b->blocks_cap, b->nblocks + 1, sizeof *b->blocks))
        return pms__fail(PMS_ENOMEM, "out of memory for the PC file");
    memcpy(b->names + b->names_len, s, nlen);
    b->names[b->names_len + nlen] = '\0';
    blk.function = (const char *)(uintptr_t)b->names_len; /* an offset until the names stop moving */
    b->names_len += nlen + 1;
    b->blocks[b->nblocks++] = blk;
    return PMS_OK;
}

static int by_block(const void *a, const void *b)
{
    uint64_t x = ((const pms_bbv_block *)a)->block, y = ((const pms_bbv_block *)b)->block;
    return (x > y) - (x < y);
}

int pms_bbv_parse_pc(pms_bbv *b, const char *name, const char *text, size_t len)
{
    if (b->nblocks) return pms__fail(PMS_EINVAL, "%s: a PC file was already loaded", name);
    int rc = for_each_line(b, name, text, len, pc_line);
    if (rc) {
        b->nblocks = b->names_len = 0; /* no half-read PC file */
        return rc;
    }
    for (size_t i = 0; i < b->nblocks; i++)
        b->blocks[i].function = b->names + (uintptr_t)b->blocks[i].function;
    if (b->nblocks > 1) qsort(b->blocks, b->nblocks, sizeof *b->blocks, by_block); /* blocks is NULL when empty */
    for (size_t i = 1; i < b->nblocks; i++)
        if (b->blocks[i].block == b->blocks[i - 1].block) {
            uint64_t dup = b->blocks[i].block;
            b->nblocks = b->names_len = 0;
            return pms__fail(PMS_EFORMAT, "%s: block %llu is listed twice", name,
                            (unsigned long long)dup);
        }
    for (size_t i = 0; i < b->nblocks; i++) b->blocks[i].instructions = 0;
    for (size_t i = 0; i < b->nentries; i++) {
        pms_bbv_block *blk = (pms_bbv_block *)pms_bbv_find_block(b, b->entries[i].block);
        if (blk) blk->instructions += b->entries[i].count;
    }
    return PMS_OK;
}

int pms_bbv_load(pms_bbv **out, const char *bb_path, const char *pc_path)
{
    pms_bbv *b;
    int rc = pms__bbv_read_file(&b, bb_path);
    if (rc) return rc;
    if (pc_path) {
        char *text;
        size_t len;
        rc = pms__read_text(pc_path, PMS_LINES_COMPLETE, pc_head, NULL, &text, &len);
        if (!rc) {
            rc = pms_bbv_parse_pc(b, pc_path, text, len);
            free(text);
        }
        if (rc) {
            pms_bbv_free(b);
            return rc;
        }
    }
    *out = b;
    return PMS_OK;
}

size_t pms_bbv_nintervals(const pms_bbv *b) { return b->nintervals; }

int pms_bbv_get_interval(const pms_bbv *b, size_t i, pms_bbv_interval *out)
{
    if (i >= b->nintervals)
        return pms__fail(PMS_EINVAL, "interval %zu out of range (%zu intervals)", i, b->nintervals);
    const pms_bbv_slot *s = &b->intervals[i];
    out->entries = s->n ? b->entries + s->first : NULL; /* entries is NULL when every vector is empty */
    out->nentries = s->n;
    out->instructions = s->instructions;
    out->line = s->line;
    return PMS_OK;
}

uint64_t pms_bbv_interval_size(const pms_bbv *b) { return b->interval_size; }
size_t pms_bbv_nblocks(const pms_bbv *b) { return b->nblocks; }
const pms_bbv_block *pms_bbv_get_block(const pms_bbv *b, size_t i) { return i < b->nblocks ? &b->blocks[i] : NULL; }

const pms_bbv_block *pms_bbv_find_block(const pms_bbv *b, uint64_t block)
{
    size_t lo = 0, hi = b->nblocks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->blocks[mid].block < block) lo = mid + 1;
        else hi = mid;
    }
    return lo < b->nblocks && b->blocks[lo].block == block ? &b->blocks[lo] : NULL;
}

const char *pms_bbv_dominant_function(const pms_bbv *b, size_t first, size_t count)
{
    /* Functions of one stretch of vectors are few: a short list, compared by name. */
    struct tally {
        const char *name;
        uint64_t instructions;
    } *t = NULL;
    size_t n = 0, cap = 0;
    const char *best = NULL;
    uint64_t most = 0;
    for (size_t i = first; i < first + count && i < b->nintervals; i++) {
        const pms_bbv_slot *s = &b->intervals[i];
        for (size_t j = 0; j < s->n; j++) {
            const pms_bbv_block *blk = pms_bbv_find_block(b, b->entries[s->first + j].block);
            if (!blk) continue;
            size_t k = 0;
            while (k < n && strcmp(t[k].name, blk->function)) k++;
            if (k == n) {
                if (pms__grow(&t, &cap, n + 1, sizeof *t)) {
                    free(t);
                    return NULL;
                }
                t[n++] = (struct tally){blk->function, 0};
            }
            t[k].instructions += b->entries[s->first + j].count;
            if (t[k].instructions > most) most = t[k].instructions, best = t[k].name;
        }
    }
    free(t);
    return best;
}
