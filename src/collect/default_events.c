/* The events record and stat use when none is given: perf's defaults, with the hardware
 * events only where this machine counts them (no PMU in most virtual machines). */
#include "pmuscope/sampler.h"
#include "pmuscope/stat.h"

#include "pmuscope/error.h"

/* perf stat's default set: the software events everywhere, the hardware ones with a PMU. */
#define DEFAULT_SOFTWARE "task-clock,context-switches,cpu-migrations,page-faults"
#define DEFAULT_HARDWARE ",cycles,instructions,branches,branch-misses"

/* cycles, or cycles:u where perf_event_paranoid lets this user count user space only (the
 * event list is then prepared with the same fallback). */
static int probe_cycles(void)
{
    pms_event cycles;
    int user_only, rc = pms_event_parse("cycles", &cycles);
    return rc == PMS_OK ? pms_event_probe_user_fallback(&cycles, &user_only) : rc;
}

int pms_sampler_default_event(const char **event)
{
    int rc = probe_cycles();
    *event = rc == PMS_OK ? "cycles" : "cpu-clock";
    return rc;
}

const char *pms_stat_default_events(void)
{
    return probe_cycles() == PMS_OK ? DEFAULT_SOFTWARE DEFAULT_HARDWARE : DEFAULT_SOFTWARE;
}
