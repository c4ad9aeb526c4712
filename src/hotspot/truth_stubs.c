/* The load bias of each object under valgrind, from its calls into code callgrind places in
 * no object (PLT stubs and the like: see truth_stubs.h). */
#include "hotspot/truth_stubs.h"
#include "util/error.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The link-time target of the call instruction at link-time address a of path, or 0 when
 * it is no direct call (an indirect call cannot be decoded from its bytes alone). */
static uint64_t call_target(pms_symbols *symbols, const char *path, uint64_t a)
{
    uint64_t off;
    if (pms_symbols_address_to_offset(symbols, path, a, &off) < 0) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    unsigned char ehdr[EI_NIDENT + 4], code[5];
    int ok = pread(fd, ehdr, sizeof ehdr, 0) == (ssize_t)sizeof ehdr && pread(fd, code, sizeof code, (off_t)off) == 5;
    close(fd);
    if (!ok || memcmp(ehdr, ELFMAG, SELFMAG) != 0 || ehdr[EI_DATA] != ELFDATA2LSB) return 0;
    uint16_t machine = (uint16_t)(ehdr[EI_NIDENT + 2] | ehdr[EI_NIDENT + 3] << 8);
    if (machine == EM_X86_64 && code[0] == 0xe8) { /* CALL rel32, from the next instruction */
        int32_t rel = (int32_t)((uint32_t)code[1] | (uint32_t)code[2] << 8 | (uint32_t)code[3] << 16 |
                                (uint32_t)code[4] << 24);
        return a + 5 + (uint64_t)(int64_t)rel;
    }
    uint32_t insn = (uint32_t)code[0] | (uint32_t)code[1] << 8 | (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24;
    if (machine == EM_AARCH64 && (insn & 0xfc000000u) == 0x94000000u) { /* BL imm26, in words */
        int64_t words = (int64_t)(insn & 0x03ffffffu);
        if (words & 0x02000000) words -= 0x04000000;
        return a + (uint64_t)(words * 4);
    }
    return 0;
}

int pms__truth_stub_biases(const pms_callgrind *cg, const long *obj, const char *const *paths, size_t nobjects,
                           pms_symbols *symbols, uint64_t *biases, int *known)
{
    /* known[k]: 0 none yet, 1 one bias seen, -1 calls that disagree (left unmapped) */
    memset(known, 0, nobjects * sizeof *known);
    size_t ncalls;
    const pms_cg_call *calls = pms_callgrind_calls(cg, &ncalls);
    for (size_t i = 0; i < ncalls; i++) {
        const pms_cg_call *c = &calls[i];
        if (strcmp(pms_callgrind_object(cg, c->to_object), "???") != 0 || obj[c->from_object] < 0) continue;
        size_t k = (size_t)obj[c->from_object];
        uint64_t t = call_target(symbols, paths[k], c->from_addr), off;
        /* the target must lie in the caller's own mapped file */
        if (!t || pms_symbols_address_to_offset(symbols, paths[k], t, &off) < 0) continue;
        uint64_t bias = c->to_addr - t;
        if (known[k] == 0) {
            known[k] = 1;
            biases[k] = bias;
        } else if (known[k] == 1 && biases[k] != bias) {
            known[k] = -1;
        }
    }
    int n = 0;
    for (size_t k = 0; k < nobjects; k++) {
        if (known[k] < 0) known[k] = 0;
        n += known[k];
    }
    return n;
}
