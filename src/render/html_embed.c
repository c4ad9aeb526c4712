/* The HTML page's embedding of files other commands wrote: SVG figures, CSV tables, text. */
#include "pmuscope/html.h"

#include "render/markup.h"
#include "util/error.h"
#include "util/file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Skips what may precede the <svg> element: whitespace, <?xml ...?>, <!DOCTYPE ...>, comments. */
static const char *skip_prolog(const char *p)
{
    for (;;) {
        p += strspn(p, " \t\r\n");
        const char *end = NULL;
        if (strncmp(p, "<?", 2) == 0)
            end = strstr(p, "?>");
        else if (strncmp(p, "<!--", 4) == 0)
            end = strstr(p, "-->");
        else if (strncasecmp(p, "<!DOCTYPE", 9) == 0)
            end = strchr(p, '>');
        else
            return p;
        if (!end) return p; /* unterminated: left for the check that follows */
        p = end + (p[1] == '!' && p[2] == '-' ? 3 : end[0] == '?' ? 2 : 1);
    }
}

static int contains_nocase(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (; *s; s++)
        if (strncasecmp(s, word, n) == 0) return 1;
    return 0;
}

int pms_html_svg_file(pms_html *h, const char *path, const char *caption)
{
    char *data;
    size_t len;
    int rc = pms__read_file(path, NULL, NULL, &data, &len);
    if (rc < 0) return rc;
    const char *start = skip_prolog(data);
    size_t off = (size_t)(start - data);
    while (len > off && strchr(" \t\r\n", data[len - 1])) data[--len] = '\0';
    if (strncmp(start, "<svg", 4) != 0)
        rc = pms__fail(PMS_EFORMAT, "%s: offset %zu: expected an SVG document starting with <svg", path, off);
    else if (len - off < 6 || strcmp(data + len - 6, "</svg>") != 0)
        rc = pms__fail(PMS_EFORMAT, "%s: offset %zu: expected the document to end with </svg> (truncated?)", path, len);
    else if (contains_nocase(start, "<script"))
        rc = pms__fail(PMS_EFORMAT, "%s: the SVG holds a script, which a self-contained report does not embed", path);
    if (rc == PMS_OK) {
        fputs("<figure>\n", h->out);
        fwrite(start, 1, len - off, h->out);
        fputc('\n', h->out);
        if (caption) {
            fputs("<figcaption>", h->out);
            pms__markup_escape(h->out, caption);
            fputs("</figcaption>\n", h->out);
        }
        fputs("</figure>\n", h->out);
        if (ferror(h->out)) rc = pms__fail(PMS_EIO, "cannot write the HTML page");
    }
    free(data);
    return rc;
}

/* Whole numbers in full, others to 4 significant digits: the page is for reading, the CSV keeps every digit. */
static void format_number(const pms_table *t, size_t row, size_t col, char *buf, size_t size)
{
    const double *v;
    if (pms_table_numeric(t, col, true, &v) < 0 || isnan(v[row])) {
        snprintf(buf, size, "%s", "");
        return;
    }
    double x = v[row];
    if (x == floor(x) && fabs(x) < 1e15)
        snprintf(buf, size, "%.0f", x);
    else
        snprintf(buf, size, "%.4g", x);
}

int pms_html_table_from(pms_html *h, const pms_table *t, size_t max_rows)
{
    size_t ncols = pms_table_cols(t), nrows = pms_table_rows(t);
    size_t shown = max_rows && max_rows < nrows ? max_rows : nrows;
    const char **cells = calloc(ncols ? ncols : 1, sizeof *cells);
    char *buf = malloc(ncols * 64 + 1);
    if (!cells || !buf) {
        free(cells);
        free(buf);
        return pms__fail(PMS_ENOMEM, "out of memory for the table of %s", pms_table_name(t));
    }
    for (size_t c = 0; c < ncols; c++) cells[c] = pms_table_col_name(t, c);
    pms_html_table_begin(h, cells, ncols);
    for (size_t r = 0; r < shown; r++) {
        for (size_t c = 0; c < ncols; c++) {
            if (pms_table_col_type(t, c) == PMS_COLUMN_STRING) {
                cells[c] = pms_table_string(t, r, c);
            } else {
                format_number(t, r, c, buf + c * 64, 64);
                cells[c] = buf + c * 64;
            }
        }
        pms_html_table_row(h, cells, ncols);
    }
    pms_html_table_end(h);
    if (shown < nrows) {
        char note[160];
        snprintf(note, sizeof note, "%zu more rows not shown (%zu in all).", nrows - shown, nrows);
        pms_html_paragraph(h, note);
    }
    free(cells);
    free(buf);
    return ferror(h->out) ? pms__fail(PMS_EIO, "cannot write the HTML page") : PMS_OK;
}

int pms_html_text_file(pms_html *h, const char *path, size_t max_lines)
{
    FILE *f = fopen(path, "r");
    if (!f) return pms__fail_errno(PMS_EIO, errno, "cannot open %s", path);
    size_t cap = 1 << 16;
    char *text = malloc(cap);
    if (!text) {
        fclose(f);
        return pms__fail(PMS_ENOMEM, "out of memory for %s", path);
    }
    size_t len = fread(text, 1, cap - 1, f);
    text[len] = '\0';
    if (len == cap - 1) snprintf(text + len - 40, 40, "\n[... cut: the rest is in the file]\n");
    char *p = text;
    for (size_t n = 0; max_lines && p && n < max_lines; n++)
        if ((p = strchr(p, '\n'))) p++;
    if (max_lines && p) *p = '\0';
    pms_html_pre(h, text);
    free(text);
    fclose(f);
    return PMS_OK;
}
