/* Exact count parsing (see io/count_parse.h). */
#include "io/count_parse.h"

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

pms_count_result pms__parse_count(const char *s, size_t len, uint64_t *out)
{
    size_t i = 0;
    while (len && blank(s[len - 1])) len--;
    while (i < len && blank(s[i])) i++;
    if (i < len && s[i] == '-') return PMS_COUNT_NEGATIVE;
    if (i < len && s[i] == '+') i++;
    if (i == len) return PMS_COUNT_NOT_INTEGER;
    uint64_t v = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return PMS_COUNT_NOT_INTEGER;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return PMS_COUNT_TOO_LARGE;
        v = v * 10 + d;
    }
    *out = v;
    return PMS_COUNT_OK;
}

const char *pms__count_result_text(pms_count_result r)
{
    switch (r) {
    case PMS_COUNT_OK: return "a count";
    case PMS_COUNT_NEGATIVE: return "a negative number, expected a count (0 or more)";
    case PMS_COUNT_TOO_LARGE: return "larger than 2^64 - 1, the largest count";
    case PMS_COUNT_NOT_INTEGER: break;
    }
    return "not a whole number, expected a count";
}
