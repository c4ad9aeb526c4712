/* The user registers of perf record --call-graph dwarf samples (perf's arch__user_reg_mask:
 * PERF_REGS_MASK of tools/perf/arch/<arch>/include/perf_regs.h). */
#include "pmuscope/sampler.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>
uint64_t pms_sampler_user_regs_mask(void)
{
    /* AX..R15 without the segment registers DS, ES, FS, GS, which the kernel does not
     * sample in 64-bit mode */
    uint64_t all = (1ull << PERF_REG_X86_64_MAX) - 1;
    return all & ~((1ull << PERF_REG_X86_DS) | (1ull << PERF_REG_X86_ES) | (1ull << PERF_REG_X86_FS) |
                   (1ull << PERF_REG_X86_GS));
}
#elif defined(__aarch64__)
#include <asm/perf_regs.h>
uint64_t pms_sampler_user_regs_mask(void) { return (1ull << PERF_REG_ARM64_MAX) - 1; /* X0..X30, SP, PC */ }
#else
uint64_t pms_sampler_user_regs_mask(void) { return 0; }
#endif
