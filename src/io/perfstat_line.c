/* The two line forms of `perf stat -I` (see perfstat_line.h). */
#include "io/perfstat_line.h"
#include "io/table_internal.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

struct span {
    const char *p;
    size_t len;
};

static struct span trim(const char *p, size_t len)
{
    while (len && isspace((unsigned char)*p)) p++, len--;
    while (len && isspace((unsigned char)p[len - 1])) len--;
    return (struct span){p, len};
}

static bool span_is(struct span s, const char *lit) { return s.len == strlen(lit) && memcmp(s.p, lit, s.len) == 0; }

static bool span_number(struct span s, double *v)
{
    bool missing;
    return s.len && pms__parse_cell_number(s.p, s.len, v, &missing) && !missing;
}

static bool is_cpu_tag(struct span s)
{
    if (s.len < 4 || memcmp(s.p, "CPU", 3) != 0) return false;
    for (size_t i = 3; i < s.len; i++)
        if (!isdigit((unsigned char)s.p[i])) return false;
    return true;
}

static bool is_not_counted(struct span s)
{
    /* <impossible>: pmuscope's flag for a count that multiplexing made impossible */
    return span_is(s, "<not counted>") || span_is(s, "<not supported>") || span_is(s, "<impossible>");
}

/* An event name: not empty, not a number, no blanks. */
static bool valid_event(struct span s)
{
    double v;
    if (!s.len || span_number(s, &v)) return false;
    for (size_t i = 0; i < s.len; i++)
        if (isspace((unsigned char)s.p[i])) return false;
    return true;
}

bool pms__perfstat_parse_csv(const char *s, size_t len, char sep, struct perfstat_line *out)
{
    struct span f[8];
    size_t nf = 0, start = 0;
    for (size_t i = 0; i <= len && nf < 8; i++)
        if (i == len || s[i] == sep) {
            f[nf++] = trim(s + start, i - start);
            start = i + 1;
        }
    if (nf < 4 || !span_number(f[0], &out->time)) return false;
    size_t c = 1;
    out->per_cpu = is_cpu_tag(f[1]);
    if (out->per_cpu) {
        if (nf < 5) return false;
        c = 2;
    }
    if (is_not_counted(f[c]))
        out->count = NAN;
    else if (!span_number(f[c], &out->count))
        return false;
    struct span ev = f[c + 2];
    if (!valid_event(ev)) return false;
    out->event = ev.p;
    out->event_len = ev.len;
    /* time,count,unit,event,run-time,pct: the share perf's scaled count rests on */
    out->running_pct = NAN;
    double pct;
    if (nf > c + 4 && span_number(f[c + 4], &pct) && pct >= 0 && pct <= 100) out->running_pct = pct;
    return true;
}

/* A count as the plain form prints it: digits with ',' thousands separators and
 * an optional decimal part ("1,001.14"). */
static bool plain_count(struct span s, double *v)
{
    char buf[64];
    size_t n = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (s.p[i] == ',') continue;
        if (n + 1 >= sizeof buf) return false;
        buf[n++] = s.p[i];
    }
    return span_number((struct span){buf, n}, v);
}

/* perf's "(NN.NN%)" at the end of a multiplexed line, or NaN. */
static double plain_running_pct(const char *s, size_t len)
{
    struct span t = trim(s, len);
    if (t.len < 4 || t.p[t.len - 1] != ')' || t.p[t.len - 2] != '%') return NAN;
    size_t open = t.len - 2;
    while (open > 0 && t.p[open - 1] != '(') open--;
    double v;
    if (open == 0 || !span_number((struct span){t.p + open, t.len - 2 - open}, &v) || v < 0 || v > 100) return NAN;
    return v;
}

bool pms__perfstat_parse_plain(const char *s, size_t len, struct perfstat_line *out)
{
    struct span tok[8];
    size_t nt = 0, i = 0;
    out->running_pct = plain_running_pct(s, len);
    while (i < len && nt < 8) {
        while (i < len && isspace((unsigned char)s[i])) i++;
        if (i >= len || s[i] == '#' || s[i] == '(') break;
        size_t b = i;
        while (i < len && !isspace((unsigned char)s[i])) i++;
        tok[nt++] = (struct span){s + b, i - b};
    }
    if (nt < 3 || !span_number(tok[0], &out->time)) return false;
    size_t c = 1;
    out->per_cpu = is_cpu_tag(tok[1]);
    if (out->per_cpu) c = 2;
    if (c + 1 < nt && (span_is(tok[c], "<not") && (span_is(tok[c + 1], "counted>") || span_is(tok[c + 1], "supported>")))) {
        out->count = NAN;
        c += 2;
    } else if (c < nt && span_is(tok[c], "<impossible>")) {
        out->count = NAN;
        c += 1;
    } else if (c < nt && plain_count(tok[c], &out->count)) {
        c += 1;
    } else {
        return false;
    }
    /* "unit event" or "event" */
    size_t rest = nt - c;
    if (rest == 0 || rest > 2) return false;
    struct span ev = tok[nt - 1];
    if (!valid_event(ev)) return false;
    out->event = ev.p;
    out->event_len = ev.len;
    return true;
}
