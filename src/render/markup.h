/* Internal: text escaping shared by the SVG and HTML writers. */
#ifndef PMS_REPORT_MARKUP_H
#define PMS_REPORT_MARKUP_H
#include <stdio.h>

/* Writes s with <, >, & and " escaped, for XML/HTML text and attribute values;
 * invalid UTF-8 and control characters become U+FFFD (see markup.c). */
void pms__markup_escape(FILE *out, const char *s);

#endif
