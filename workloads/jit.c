/* A JIT in miniature: copies two machine-code loops into an anonymous executable mapping,
 * writes their names to /tmp/perf-PID.map (perf's convention for JIT symbols, see perf's
 * Documentation/jit-interface.txt), and runs them: jit_spin_a for about two thirds of the
 * CPU time, jit_spin_b for one third. Without that file a profiler sees only an anonymous
 * mapping. Leaves the map file behind for the profiler (the caller removes it).
 * usage: jit [SECONDS]   (CPU seconds, default 0.3) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* uint64_t f(uint64_t n): counts n down to 0 and returns 0. */
#if defined(__x86_64__)
static const unsigned char loop_code[] = {
    0x48, 0x89, 0xf8,       /* mov  rax, rdi */
    0x48, 0xff, 0xc8,       /* 1: dec rax    */
    0x75, 0xfb,             /* jnz  1b       */
    0xc3,                   /* ret           */
};
#elif defined(__aarch64__)
static const unsigned char loop_code[] = {
    0x00, 0x04, 0x00, 0xf1, /* 1: subs x0, x0, #1 */
    0xe1, 0xff, 0xff, 0x54, /* b.ne 1b             */
    0xc0, 0x03, 0x5f, 0xd6, /* ret                 */
};
#endif

#define FUNC_SPACING 256 /* jit_spin_b starts this far after jit_spin_a */

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
#if !defined(__x86_64__) && !defined(__aarch64__)
    (void)argc;
    (void)argv;
    fprintf(stderr, "jit: no machine code for this architecture\n");
    return 77;
#else
    double seconds = argc > 1 ? atof(argv[1]) : 0.3;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *code = mmap(NULL, page, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED) {
        perror("jit: mmap");
        return 1;
    }
    memcpy(code, loop_code, sizeof loop_code);
    memcpy(code + FUNC_SPACING, loop_code, sizeof loop_code);
    __builtin___clear_cache((char *)code, (char *)code + page);
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    FILE *map = fopen(path, "w");
    if (!map) {
        perror(path);
        return 1;
    }
    /* START SIZE NAME, hexadecimal without 0x */
    fprintf(map, "%lx %zx jit_spin_a\n%lx %zx jit_spin_b\n", (unsigned long)(uintptr_t)code, sizeof loop_code,
            (unsigned long)(uintptr_t)(code + FUNC_SPACING), sizeof loop_code);
    if (fclose(map)) {
        perror(path);
        return 1;
    }
    uint64_t (*spin_a)(uint64_t), (*spin_b)(uint64_t);
    void *a = code, *b = code + FUNC_SPACING;
    memcpy(&spin_a, &a, sizeof a); /* object to function pointer, as a JIT does */
    memcpy(&spin_b, &b, sizeof b);
    double start = cpu_seconds();
    while (cpu_seconds() - start < seconds) {
        spin_a(2000000);
        spin_a(2000000);
        spin_b(2000000);
    }
    printf("%s\n", path);
    return 0;
#endif
}
