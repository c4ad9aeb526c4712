/* Internal: the input limit of pmuscope/input.h, for the readers that copy an input. */
#ifndef PMS_UTIL_INPUT_LIMIT_H
#define PMS_UTIL_INPUT_LIMIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The first bytes of an input a reader checks before it copies the rest. */
#define PMS_INPUT_HEAD ((size_t)64 << 10)

/* A look at the head of an input before the rest is taken: its first PMS_INPUT_HEAD bytes
 * (more may follow). 0 to go on, or the status of a message naming name and what is wrong
 * there: a check must only refuse what no continuation could make valid. */
typedef int (*pms__head_check)(const unsigned char *head, size_t len, const char *name, void *ctx);

/* Whether bytes copied so far is past the limit (never with no limit). */
bool pms__over_input_limit(uint64_t bytes);
/* "NAME: longer than the input limit of 1 GiB: ..." naming the option input_limit. */
int pms__fail_input_limit(const char *name);
/* bytes as "1 GiB", "64 KiB" or "1000 bytes" (the largest unit it is a whole number of). */
void pms__size_text(char *buf, size_t size, uint64_t bytes);

#endif
