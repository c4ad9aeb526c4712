#include "util/number_text.h"

#include <math.h>
#include <stdio.h>

const char *pms__num(pms__num_text *buf, const char *fmt, double v)
{
    if (!isfinite(v)) return "-";
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    snprintf(buf->s, sizeof buf->s, fmt, v);
#pragma GCC diagnostic pop
    return buf->s;
}
