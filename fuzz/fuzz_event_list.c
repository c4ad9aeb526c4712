/* libFuzzer target: event list specs (names, modifiers, groups, pmu/terms/, libpfm4 names). */
#include "pmuscope/event.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *spec = malloc(size + 1);
    if (!spec) return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    pms_event *events = NULL;
    size_t n = 0;
    if (pms_event_list_parse(spec, &events, &n) == 0) {
        /* every event is named, sized and grouped in order */
        for (size_t i = 0; i < n; i++)
            if (!events[i].name[0] || events[i].attr.size != sizeof events[i].attr ||
                (i > 0 && events[i].group < events[i - 1].group))
                abort();
        free(events);
    }
    free(spec);
    return 0;
}
