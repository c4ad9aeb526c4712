/* libFuzzer target for the perf.data reader: any bytes must give PMS_OK or an error,
 * never a crash, a sanitizer report or a leak (the look at a pipe's head as well). The profile and the symbol map take what
 * the reader hands out, as `pmuscope report` does; tables are not made, since they would
 * open the ELF files that the input names. */
#include "pmuscope/perfdata.h"
#include "pmuscope/profile.h"
#include "pmuscope/symbols.h"
#include "io/perfdata_head.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)pms__perfdata_check_head(data, size, "fuzz.data", NULL);
    pms_perfdata_reader *r;
    if (pms_perfdata_open_mem(&r, data, size, "fuzz.data") != 0) return 0;
    pms_symbols *syms = NULL;
    pms_profile *p = NULL;
    if (pms_symbols_create(&syms) == 0 && pms_profile_create(&p, syms) == 0) (void)pms_profile_read(p, r, NULL, NULL);
    pms_profile_destroy(p);
    pms_symbols_destroy(syms);
    pms_perfdata_close(r);
    return 0;
}
