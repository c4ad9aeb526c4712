/* Internal: the recordings of several sampling events recorded in one run (a sweep). */
#ifndef PMS_HOTSPOT_RECORDINGS_H
#define PMS_HOTSPOT_RECORDINGS_H
#include "pmuscope/hotspot.h"

/* Reads the perf.data file's events 0..n-1 into out[0..n) (each as pms_hotspot_recording_read
 * reads a file's one event); on failure every out[i] is freed. */
int pms__hotspot_recordings_read(pms_hotspot_recording *out, size_t n, const char *perfdata);

#endif
