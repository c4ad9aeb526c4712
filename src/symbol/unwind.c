/* Unwinding perf record --call-graph dwarf samples with libdwfl, as perf's unwind-libdw.c
 * does: the sample's user registers are a thread's initial state, memory reads come from
 * the stack copy (or, outside it, from the mapped ELF files), and each frame's binary is
 * reported to libdwfl at its mapping's address before its CFI is needed.
 *
 * One Dwfl per process, kept across its samples so that each binary's CFI is read once
 * (perf makes one per sample). A module found where the process now maps another file
 * (an exec, a dlclose and dlopen) makes the Dwfl stale: it is rebuilt and the sample
 * unwound again. */
#include "symbol/unwind.h"

#include "pmuscope/error.h"
#include "symbol/build_id.h"
#include "symbol/symbols_map.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/keymap.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* perf's register numbers (asm/perf_regs.h of each architecture), as the sample lays out
 * the registers of sample_regs_user. */
enum { X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP, X86_IP, X86_R8 = 16 };
enum { ARM64_SP = 31, ARM64_PC = 32 };

typedef enum { ARCH_NONE, ARCH_X86_64, ARCH_ARM64 } reg_arch;

struct proc {
    Dwfl *dwfl;
    bool stale;
};

struct pms__unwinder {
    pms_symbols *symbols;
    pms_keymap pid_index; /* pid -> index in procs */
    struct proc *procs;
    size_t nprocs, cap;
    /* the sample being unwound */
    const pms_sample *s;
    reg_arch arch;
    uint64_t sp;
    struct proc *proc;
    uint64_t *frames;
    size_t n, max;
    uint64_t *chain; /* pms__unwind_chain's result */
    size_t chain_cap;
    char *vdso; /* this machine's vDSO image, read at the first [vdso] frame */
    size_t vdso_size;
    bool vdso_read;
};

static char *debuginfo_path;
static const Dwfl_Callbacks offline_callbacks = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
    .section_address = dwfl_offline_section_address,
};

/* The architecture of a sample's register set: aarch64's has the PC at bit 32, x86_64's
 * IP and SP in its first 9 bits (a 32-bit process's registers are not unwound). */
static reg_arch arch_of(const pms_sample *s)
{
    uint64_t m = s->user_regs_mask;
    if (s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64 || !s->user_regs) return ARCH_NONE;
    if ((m >> ARM64_PC) & 1) return ((m >> ARM64_SP) & 1) ? ARCH_ARM64 : ARCH_NONE;
    return ((m >> X86_IP) & 1) && ((m >> X86_SP) & 1) ? ARCH_X86_64 : ARCH_NONE;
}

/* Register `reg` (perf's number) of the sample, if its mask holds it. */
static bool reg_value(const pms_sample *s, unsigned reg, uint64_t *v)
{
    if (reg >= 64 || !((s->user_regs_mask >> reg) & 1)) return false;
    size_t at = (size_t)__builtin_popcountll(s->user_regs_mask & ((1ull << reg) - 1));
    if (at >= s->nr_user_regs) return false;
    *v = s->user_regs[at];
    return true;
}

int pms__unwind_user_ip_sp(const pms_sample *s, uint64_t *ip, uint64_t *sp)
{
    switch (arch_of(s)) {
    case ARCH_X86_64: return reg_value(s, X86_IP, ip) && reg_value(s, X86_SP, sp);
    case ARCH_ARM64: return reg_value(s, ARM64_PC, ip) && reg_value(s, ARM64_SP, sp);
    default: return 0;
    }
}

int pms__unwinder_create(pms__unwinder **out, pms_symbols *symbols)
{
    pms__unwinder *u = calloc(1, sizeof *u);
    if (!u) return PMS_ENOMEM;
    u->symbols = symbols;
    pms__keymap_init(&u->pid_index);
    *out = u;
    return PMS_OK;
}

void pms__unwinder_destroy(pms__unwinder *u)
{
    if (!u) return;
    for (size_t i = 0; i < u->nprocs; i++)
        if (u->procs[i].dwfl) dwfl_end(u->procs[i].dwfl);
    free(u->procs);
    free(u->chain);
    free(u->vdso);
    pms__keymap_free(&u->pid_index);
    free(u);
}

static struct proc *proc_of(pms__unwinder *u, uint32_t pid)
{
    uint64_t *v = pms__keymap_upsert(&u->pid_index, pid, 0, UINT64_MAX);
    if (!v) return NULL;
    if (*v == UINT64_MAX) {
        if (pms__grow(&u->procs, &u->cap, u->nprocs + 1, sizeof *u->procs)) return NULL;
        u->procs[u->nprocs] = (struct proc){NULL, false};
        *v = u->nprocs++;
    }
    return &u->procs[*v];
}

/* The vDSO (this machine's: pms__symbols_user_map checked its build-id) as a file that
 * libdwfl reads: a memfd holding the image, as perf writes it out to a file. -1 if not. */
static int vdso_fd(pms__unwinder *u)
{
    if (!u->vdso_read) {
        u->vdso_read = true;
        if (pms__vdso_image(&u->vdso, &u->vdso_size)) u->vdso = NULL;
    }
    int fd = u->vdso ? memfd_create("pmuscope-vdso", MFD_CLOEXEC) : -1;
    if (fd >= 0 && write(fd, u->vdso, u->vdso_size) != (ssize_t)u->vdso_size) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Makes sure the binary mapped at pc is a module of the Dwfl, at its mapping's address
 * (perf's base: the mapping's start less its file offset). false when no readable file
 * is mapped there, or (marking the Dwfl stale) another file is reported there. */
static bool report_module(pms__unwinder *u, Dwfl *dwfl, uint64_t pc)
{
    uint64_t start, pgoff;
    const char *path;
    if (pms__symbols_user_map(u->symbols, u->s->pid, pc, u->s->time, &start, &pgoff, &path)) return false;
    Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
    if (mod) {
        const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
        if (name && strcmp(name, path) == 0) return true;
        u->proc->stale = true;
        return false;
    }
    int fd = -1; /* -1: libdwfl opens path */
    if (strcmp(path, "[vdso]") == 0) {
        if ((fd = vdso_fd(u)) < 0) return false;
    } else {
        struct stat st; /* a file the reader may open: not a FIFO or a device a file names */
        if (stat(path, &st) || !S_ISREG(st.st_mode)) return false;
    }
    dwfl_report_begin_add(dwfl);
    mod = dwfl_report_elf(dwfl, path, path, fd, start - pgoff, false); /* it takes fd */
    dwfl_report_end(dwfl, NULL, NULL);
    if (mod && dwfl_addrmodule(dwfl, pc) == mod) return true;
    if (mod) u->proc->stale = true; /* reported, but not where the process maps it */
    return false;
}

/* Reads 8 bytes outside the stack copy from the file of the module mapped there. */
static bool read_module(Dwfl *dwfl, uint64_t addr, Dwarf_Word *result)
{
    Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
    Dwarf_Addr bias;
    Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;
    size_t nph, size;
    const char *raw = elf ? elf_rawfile(elf, &size) : NULL;
    if (!raw || elf_getphdrnum(elf, &nph)) return false;
    uint64_t vaddr = addr - bias;
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD) continue;
        if (vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz || ph.p_filesz - (vaddr - ph.p_vaddr) < 8) continue;
        uint64_t off = ph.p_offset + (vaddr - ph.p_vaddr);
        if (off > size || size - off < 8) return false;
        memcpy(result, raw + off, 8);
        return true;
    }
    return false;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
    pms__unwinder *u = arg;
    uint64_t size = u->s->user_stack_size;
    if (addr >= u->sp && addr - u->sp <= size && size - (addr - u->sp) >= 8) {
        memcpy(result, u->s->user_stack + (addr - u->sp), 8);
        return true;
    }
    return read_module(dwfl, addr, result);
}

/* libdwfl asks for the threads of the process: only the sample's. */
static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
    (void)dwfl;
    pms__unwinder *u = arg;
    if (*thread_argp) return 0;
    *thread_argp = u;
    return (pid_t)u->s->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
    (void)dwfl;
    (void)tid;
    *thread_argp = arg;
    return true;
}

static bool set_reg(Dwfl_Thread *thread, int dwarf_reg, const pms_sample *s, unsigned perf_reg)
{
    Dwarf_Word v;
    if (!reg_value(s, perf_reg, &v)) return true; /* not sampled: left undefined */
    return dwfl_thread_state_registers(thread, dwarf_reg, 1, &v);
}

/* The sample's registers by their DWARF numbers (the psABIs' register mappings). */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
    pms__unwinder *u = arg;
    const pms_sample *s = u->s;
    uint64_t ip, sp;
    if (!pms__unwind_user_ip_sp(s, &ip, &sp)) return false;
    bool ok = true;
    if (u->arch == ARCH_X86_64) {
        static const unsigned perf_of_dwarf[] = {X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI, X86_BP, X86_SP};
        for (int r = 0; r < 8 && ok; r++) ok = set_reg(thread, r, s, perf_of_dwarf[r]);
        for (int r = 8; r < 16 && ok; r++) ok = set_reg(thread, r, s, X86_R8 + (unsigned)(r - 8));
        if (ok) ok = set_reg(thread, 16, s, X86_IP); /* the return-address column: a PLT entry's CFA
                                                        expression reads it */
    } else {
        for (int r = 0; r <= ARM64_SP && ok; r++) ok = set_reg(thread, r, s, (unsigned)r);
    }
    if (ok) dwfl_thread_state_register_pc(thread, ip);
    return ok;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread,
    .get_thread = get_thread,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
};

/* Each frame: its module reported (its CFI unwinds the next), its address kept. A frame
 * where no binary is mapped (JIT code, a bogus return address at the outermost frame of a
 * clone()d thread) is kept, as perf keeps it, and ends the chain. */
static int frame_callback(Dwfl_Frame *state, void *arg)
{
    pms__unwinder *u = arg;
    Dwarf_Addr pc;
    bool activation;
    if (!dwfl_frame_pc(state, &pc, NULL)) return DWARF_CB_ABORT;
    bool reported = report_module(u, u->proc->dwfl, pc);
    if (u->proc->stale || !dwfl_frame_pc(state, &pc, &activation)) return DWARF_CB_ABORT;
    u->frames[u->n++] = activation ? pc : pc - 1; /* a return address: the call is before it */
    return reported && u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* A Dwfl for the process, its first module the one of the sample's IP (libdwfl takes the
 * architecture from it). */
static bool attach(pms__unwinder *u, uint64_t ip)
{
    struct proc *p = u->proc;
    if (p->dwfl && p->stale) {
        dwfl_end(p->dwfl);
        p->dwfl = NULL;
    }
    p->stale = false;
    if (p->dwfl) return true;
    if (!(p->dwfl = dwfl_begin(&offline_callbacks))) return false;
    if (report_module(u, p->dwfl, ip) && dwfl_attach_state(p->dwfl, NULL, (pid_t)u->s->pid, &thread_callbacks, u))
        return true;
    dwfl_end(p->dwfl);
    p->dwfl = NULL;
    return false;
}

size_t pms__unwind(pms__unwinder *u, const pms_sample *s, uint64_t *frames, size_t max)
{
    uint64_t ip;
    u->s = s;
    u->arch = arch_of(s);
    if (!max || !s->user_stack || !pms__unwind_user_ip_sp(s, &ip, &u->sp)) return 0;
    if (!(u->proc = proc_of(u, s->pid))) return 0;
    u->frames = frames;
    u->max = max;
    for (int attempt = 0; attempt < 2; attempt++) {
        u->n = 0;
        if (!attach(u, ip)) { /* no binary to unwind from at the IP: the chain is the IP */
            frames[0] = ip;
            return 1;
        }
        dwfl_getthread_frames(u->proc->dwfl, (pid_t)s->tid, frame_callback, u);
        if (!u->proc->stale) break;
    }
    return u->n;
}

int pms__unwind_chain(pms__unwinder *u, const pms_sample *s, const uint64_t **chain, uint64_t *nr)
{
    *chain = s->callchain;
    *nr = s->nr_callchain;
    if (s->nr_callchain > SIZE_MAX / 8 - PMS__UNWIND_MAX_STACK - 1) return PMS_OK;
    size_t kernel = (size_t)s->nr_callchain;
    if (pms__grow(&u->chain, &u->chain_cap, kernel + 1 + PMS__UNWIND_MAX_STACK, sizeof *u->chain)) return PMS_ENOMEM;
    size_t n = pms__unwind(u, s, u->chain + kernel + 1, PMS__UNWIND_MAX_STACK);
    if (!n) return PMS_OK;
    if (kernel) memcpy(u->chain, s->callchain, kernel * sizeof *u->chain);
    u->chain[kernel] = PERF_CONTEXT_USER;
    *chain = u->chain;
    *nr = kernel + 1 + n;
    return PMS_OK;
}

int pms__unwind_sample(pms__unwinder **u, pms_symbols *symbols, const pms_sample *s, pms_sample *out)
{
    *out = *s;
    if (!s->user_stack || !symbols) return PMS_OK;
    if (!*u && pms__unwinder_create(u, symbols)) return pms__fail(PMS_ENOMEM, "out of memory for the stack unwinder");
    if (pms__unwind_chain(*u, s, &out->callchain, &out->nr_callchain))
        return pms__fail(PMS_ENOMEM, "out of memory for the unwound callchains");
    out->user_stack = NULL;
    out->user_stack_size = 0;
    return PMS_OK;
}
