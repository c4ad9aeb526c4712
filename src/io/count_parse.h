/* Internal: exact parsing of counts (non-negative integers up to 2^64 - 1), with no trip
 * through double, for every reader that takes counts. */
#ifndef PMS_IO_COUNT_PARSE_H
#define PMS_IO_COUNT_PARSE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum pms_count_result {
    PMS_COUNT_OK,
    PMS_COUNT_NEGATIVE,  /* a '-' sign: counts are never negative */
    PMS_COUNT_TOO_LARGE, /* more than 2^64 - 1 */
    PMS_COUNT_NOT_INTEGER /* anything else that is not just decimal digits */
} pms_count_result;

/* S[0..LEN) without surrounding blanks must be decimal digits, optionally led by '+'. */
pms_count_result pms__parse_count(const char *s, size_t len, uint64_t *out);
/* What was wrong, for a message: "a negative number", "larger than 2^64 - 1", ... */
const char *pms__count_result_text(pms_count_result r);

#endif
