/* Internal to the region markers: the state behind pms_region_begin/end, which the report
 * (region/report_take.c) reads. */
#ifndef PMS_REGION_MARKERS_INTERNAL_H
#define PMS_REGION_MARKERS_INTERNAL_H
#include "pmuscope/counterset.h"
#include "pmuscope/multiplex.h"

#include "collect/counterset_reading.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* One region on one thread: the sums over its calls, each call a window of every event. */
typedef struct region_stats {
    char *name;
    uint64_t calls, time_ns;
    counter_reading *sum;   /* per event */
    pms_mux_windows *win;   /* per event */
    bool *backwards;        /* per event: a call whose difference went backwards */
} region_stats;

/* A region begun and not yet ended. */
typedef struct open_region {
    size_t stats;           /* its index in the thread's regions */
    uint64_t t0_ns;
} open_region;

typedef struct thread_state {
    int64_t tid;
    pms_counterset *set;          /* NULL once the thread has ended */
    size_t n;                     /* events */
    char (*names)[PMS_EVENT_NAME_MAX]; /* as the set opened them */
    bool *user;                   /* read in user space at the latest read */
    region_stats *regions;
    size_t nregions, cap;
    open_region *stack;           /* the open regions, innermost last */
    counter_reading *starts;      /* per open region: n readings at its begin */
    size_t depth, stack_cap;
    counter_reading *now;
    pthread_mutex_t lock;         /* held while regions change, and by a report */
    struct thread_state *next;
} thread_state;

/* The process's marker state, for the report. */
typedef struct markers {
    pthread_mutex_t lock;   /* guards threads and errors */
    thread_state *threads;  /* newest first */
    const pms_event *events;
    size_t nevents;
    char **unsupported;     /* per event: why this machine cannot count it, or NULL */
    char **errors;
    size_t nerrors;
    bool forked;            /* this is a child made by fork() after the first region */
} markers;

extern markers pms__markers;

/* Records a failure for the report (takes a copy). */
void pms__markers_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
