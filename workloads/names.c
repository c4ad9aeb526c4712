/* Symbol names a profiler must print as perf does: functions whose ELF names are C++ and
 * Rust (legacy and v0) mangled, calls into libc's malloc and free (symbols with several
 * aliases at one address), calls through the PLT, and system calls (kernel samples).
 *   names [ROUNDS]   (default 40 rounds, about a second) */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

long cxx_spin(long n) __asm__("_ZN2ns1K4spinEl");
long rust_legacy_spin(long n) __asm__("_ZN7mycrate4spin17h0123456789abcdefE");
long rust_v0_spin(long n) __asm__("_RNvCs123_7mycrate7v0_spin");

/* Inlined into each named function, so that the samples fall in the names themselves. */
static inline __attribute__((always_inline)) long spin(long n)
{
    volatile unsigned long s = 0; /* unsigned: wraps without undefined behaviour */
    for (long i = 0; i < n; i++) s += (unsigned long)i ^ (s >> 3);
    return (long)(s & 0xffff);
}

long cxx_spin(long n) { return spin(n); }
long rust_legacy_spin(long n) { return spin(n); }
long rust_v0_spin(long n) { return spin(n); }

/* labs through the PLT (built with -fno-builtin): the stub itself takes samples. */
static __attribute__((noinline)) long through_plt(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) s += labs(i - n / 2);
    return s;
}

static __attribute__((noinline)) long allocate(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        void *p = malloc((size_t)(16 + (i & 1023)));
        s += (long)((uintptr_t)p & 1);
        free(p);
    }
    return s;
}

static __attribute__((noinline)) long syscalls(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) s += getppid();
    return s;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 40;
    unsigned long s = 0;
    for (long r = 0; r < rounds; r++) {
        s += (unsigned long)(cxx_spin(1000000) + rust_legacy_spin(1000000) + rust_v0_spin(1000000));
        s += (unsigned long)through_plt(2000000) + (unsigned long)allocate(300000) + (unsigned long)syscalls(30000);
    }
    volatile unsigned long keep = s; /* the work is not optimised away */
    (void)keep;
    return 0;
}
