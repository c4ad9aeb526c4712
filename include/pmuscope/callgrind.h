/* pmuscope: reader of valgrind callgrind profiles written with --dump-instr=yes.
 *
 * Such a file holds the self cost of every executed instruction. Its addresses are
 * those of the object file (valgrind subtracts the load bias of each object), so an
 * address plus the object's program headers gives a file offset. The reader handles
 * name compression (ob=/fl=/fn= "(id) name" and "(id)"), subposition compression
 * ("+n", "-n", "*"), call cost lines (inclusive costs, not counted as self cost),
 * jump lines and files of several parts; costs at the same instruction are summed.
 * With --collect-jumps=yes the jump, conditional jump and call lines also give where
 * control went (branch targets) and from where (branch sources): basic block bounds. */
#ifndef PMUSCOPE_CALLGRIND_H
#define PMUSCOPE_CALLGRIND_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libpmuscope.so */

/* One executed instruction. */
typedef struct pms_cg_instr {
    uint32_t object;   /* index into the objects (ob=) */
    uint32_t function; /* index into the functions (fn=) of its first cost line */
    uint64_t addr;     /* address in the object file's address space */
    uint64_t count;    /* times executed (the Ir event) */
} pms_cg_instr;

/* An instruction a branch (jump=, jcnd= or calls=) went to or came from. */
typedef struct pms_cg_branch {
    uint32_t object; /* index into the objects (cob= of a call's target) */
    uint64_t addr;   /* address in the object file's address space */
} pms_cg_branch;

/* A call (calls= line): from the call instruction to the called function's first one. */
typedef struct pms_cg_call {
    uint32_t from_object, to_object; /* indexes into the objects */
    uint64_t from_addr, to_addr;     /* each in its object file's address space */
} pms_cg_call;

typedef struct pms_callgrind pms_callgrind;

/* Reads PATH. Errors name the file and line and what was expected. */
int pms_callgrind_read(pms_callgrind **out, const char *path);
/* Reads from an open stream; name is used in messages. */
int pms_callgrind_read_stream(pms_callgrind **out, FILE *in, const char *name);
void pms_callgrind_free(pms_callgrind *cg);

/* The instructions sorted by (object, addr), one entry per instruction. */
const pms_cg_instr *pms_callgrind_instrs(const pms_callgrind *cg, size_t *count);
/* Branch targets (a basic block starts there) and sources (one ends there), sorted by
 * (object, addr), each once: of calls, and of jumps if recorded with --collect-jumps=yes. */
const pms_cg_branch *pms_callgrind_branch_targets(const pms_callgrind *cg, size_t *count);
const pms_cg_branch *pms_callgrind_branch_sources(const pms_callgrind *cg, size_t *count);
/* Every calls= line, in file order (code that callgrind places in no object, "???", such as
 * PLT stubs, has run-time addresses: a call into it from a known object gives that object's
 * load bias). */
const pms_cg_call *pms_callgrind_calls(const pms_callgrind *cg, size_t *count);
/* jump= and jcnd= lines read: 0 when callgrind ran without --collect-jumps=yes. */
size_t pms_callgrind_njumps(const pms_callgrind *cg);
size_t pms_callgrind_nobjects(const pms_callgrind *cg);
const char *pms_callgrind_object(const pms_callgrind *cg, size_t i); /* "???" when unknown */
const char *pms_callgrind_function(const pms_callgrind *cg, size_t i);
/* Sum of all instruction counts (NI). */
uint64_t pms_callgrind_total(const pms_callgrind *cg);
/* The profiled command ("cmd:" header), or "" if absent. */
const char *pms_callgrind_command(const pms_callgrind *cg);
/* Number of parts (dumps) read. */
unsigned pms_callgrind_parts(const pms_callgrind *cg);
/* The profiled process ("pid:" header), 0 if absent. */
unsigned long pms_callgrind_pid(const pms_callgrind *cg);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
