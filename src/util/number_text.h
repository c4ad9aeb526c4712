/* Internal: a number for a text report, or "-" when it is not finite, so that no
 * report prints nan or inf (the report says why the number is unknown). */
#ifndef PMS_UTIL_NUMBER_TEXT_H
#define PMS_UTIL_NUMBER_TEXT_H
#include <stddef.h>

typedef struct pms__num_text {
    char s[48];
} pms__num_text;

/* v formatted by fmt (one double conversion, e.g. "%.4g"), or "-"; the text lives in *buf. */
const char *pms__num(pms__num_text *buf, const char *fmt, double v);

#endif
