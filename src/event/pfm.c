/* libpfm4 event names (INST_RETIRED:ANY_P, skl::L1D:REPLACEMENT, ...) through
 * pfm_get_os_event_encoding(PFM_OS_PERF_EVENT_EXT). LIBPFM_FORCE_PMU=skl makes
 * libpfm4 encode for a given PMU on machines that lack it. */
#include "event/event_internal.h"
#include "util/error.h"

#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_init_status;

static void pfm_init(void) { pfm_init_status = pfm_initialize(); }

static int pfm_ready(void)
{
    pthread_once(&pfm_once, pfm_init);
    if (pfm_init_status != PFM_SUCCESS)
        return pms__fail(PMS_ENOTSUP, "libpfm4 could not be initialised: %s", pfm_strerror(pfm_init_status));
    return PMS_OK;
}

int pms__pfm_encode(const char *name, struct perf_event_attr *attr)
{
    int r = pfm_ready();
    if (r) return r;
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    pfm_perf_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    arg.attr = &a;
    arg.size = sizeof arg;
    int ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
    if (ret != PFM_SUCCESS)
        return pms__fail(ret == PFM_ERR_NOTFOUND ? PMS_ENOENT : PMS_EINVAL, "libpfm4: '%s': %s", name,
                        pfm_strerror(ret));
    /* Keep only what names the event; sampling fields are the caller's. */
    attr->type = a.type;
    attr->config = a.config;
    attr->config1 = a.config1;
    attr->config2 = a.config2;
    attr->exclude_user = a.exclude_user;
    attr->exclude_kernel = a.exclude_kernel;
    attr->exclude_hv = a.exclude_hv;
    attr->precise_ip = a.precise_ip;
    return PMS_OK;
}

int pms__pfm_foreach(pms_event_visit_fn fn, void *ctx)
{
    if (pfm_ready()) return 0;
    pfm_pmu_t pmu;
    pfm_for_all_pmus(pmu) {
        pfm_pmu_info_t pinfo;
        memset(&pinfo, 0, sizeof pinfo);
        pinfo.size = sizeof pinfo;
        if (pfm_get_pmu_info(pmu, &pinfo) != PFM_SUCCESS || !pinfo.is_present) continue;
        for (int idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
            pfm_event_info_t einfo;
            memset(&einfo, 0, sizeof einfo);
            einfo.size = sizeof einfo;
            if (pfm_get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS) continue;
            char name[256];
            snprintf(name, sizeof name, "%s::%s", pinfo.name, einfo.name);
            int r = fn(name, einfo.desc ? einfo.desc : "", PMS_EVSRC_PFM, ctx);
            if (r) return r;
        }
    }
    return 0;
}
