#include "pmuscope/json.h"
#include "util/utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void pms_json_init(pms_json *j, FILE *out, bool pretty)
{
    memset(j, 0, sizeof *j);
    j->out = out;
    j->pretty = pretty;
}

static void newline_indent(pms_json *j)
{
    if (!j->pretty) return;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->out);
}

/* Writes the separator that must come before a value at the current level. */
static void before_value(pms_json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth > 0 && j->depth < 64) {
        if (j->need_comma[j->depth]) fputc(',', j->out);
        j->need_comma[j->depth] = true;
        newline_indent(j);
    }
}

static void open(pms_json *j, char c)
{
    before_value(j);
    fputc(c, j->out);
    j->depth++;
    if (j->depth < 64) j->need_comma[j->depth] = false;
}

static void close(pms_json *j, char c)
{
    bool had_members = j->depth < 64 && j->need_comma[j->depth];
    j->depth--;
    if (had_members) newline_indent(j);
    fputc(c, j->out);
}

void pms_json_object_begin(pms_json *j) { open(j, '{'); }
void pms_json_object_end(pms_json *j) { close(j, '}'); }
void pms_json_array_begin(pms_json *j) { open(j, '['); }
void pms_json_array_end(pms_json *j) { close(j, ']'); }

/* Every JSON string is valid UTF-8 whatever the bytes of the name: control
 * characters become \u00XX (or \n, \r, \t), and each byte that does not belong
 * to a well-formed UTF-8 sequence becomes \ufffd, the replacement character
 * U+FFFD (the same choice as the SVG/HTML writers, render/markup.c). */
static void write_string(FILE *out, const char *s)
{
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t len = pms__utf8_sequence_len(p);
        if (len == 0) {
            fputs("\\ufffd", out);
            p++;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fwrite(p, 1, len, out);
        }
        p += len;
    }
    fputc('"', out);
}

void pms_json_key(pms_json *j, const char *key)
{
    before_value(j);
    write_string(j->out, key);
    fputs(j->pretty ? ": " : ":", j->out);
    j->after_key = true;
}

void pms_json_string(pms_json *j, const char *s)
{
    before_value(j);
    write_string(j->out, s);
}

void pms_json_double(pms_json *j, double v)
{
    before_value(j);
    if (isfinite(v)) fprintf(j->out, "%.17g", v);
    else fputs("null", j->out);
}

void pms_json_int(pms_json *j, int64_t v)
{
    before_value(j);
    fprintf(j->out, "%" PRId64, v);
}

void pms_json_uint(pms_json *j, uint64_t v)
{
    before_value(j);
    fprintf(j->out, "%" PRIu64, v);
}

void pms_json_bool(pms_json *j, bool v)
{
    before_value(j);
    fputs(v ? "true" : "false", j->out);
}

void pms_json_null(pms_json *j)
{
    before_value(j);
    fputs("null", j->out);
}

void pms_json_finish(pms_json *j) { fputc('\n', j->out); }

void pms_json_kv_string(pms_json *j, const char *key, const char *s) { pms_json_key(j, key); pms_json_string(j, s); }
/* Every null number carries a reason: callers that know better say why (pms_json_kv_number). */
void pms_json_kv_double(pms_json *j, const char *key, double v)
{
    pms_json_kv_number(j, key, v, "undefined for this input (0/0, or too few values)");
}
void pms_json_kv_int(pms_json *j, const char *key, int64_t v) { pms_json_key(j, key); pms_json_int(j, v); }
void pms_json_kv_uint(pms_json *j, const char *key, uint64_t v) { pms_json_key(j, key); pms_json_uint(j, v); }
void pms_json_kv_bool(pms_json *j, const char *key, bool v) { pms_json_key(j, key); pms_json_bool(j, v); }

void pms_json_kv_number(pms_json *j, const char *key, double v, const char *why)
{
    pms_json_key(j, key);
    pms_json_double(j, v);
    if (isfinite(v)) return;
    size_t n = strlen(key);
    char *reason_key = malloc(n + sizeof "_reason");
    if (reason_key) {
        memcpy(reason_key, key, n);
        memcpy(reason_key + n, "_reason", sizeof "_reason");
    }
    pms_json_kv_string(j, reason_key ? reason_key : "reason", why ? why : "not a finite number");
    free(reason_key);
}
