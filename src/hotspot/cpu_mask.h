/* Internal: the comparison behind pms_hotspot_cpu_mask_probe, on the loader's reports as text. */
#ifndef PMS_HOTSPOT_CPU_MASK_H
#define PMS_HOTSPOT_CPU_MASK_H
#include <stddef.h>

/* From the text of ld.so --list-diagnostics natively and under valgrind: the GLIBC_TUNABLES
 * value that makes the native choices valgrind's ("" if none) and what differs, in words
 * ("" if nothing). Returns 1 when both reports are x86's (the tunables apply), 0 if not,
 * below 0 on a lack of memory. */
int pms__cpu_mask_compare(const char *native, const char *vg, char *tunables, size_t tsize, char *differing,
                          size_t dsize);

#endif
