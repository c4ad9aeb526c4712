/* vDSO calls: clock_gettime and gettimeofday in a loop, answered in user space by the
 * kernel's vDSO (no system call), so that a profile of it has samples in [vdso] symbols.
 *   vdso_calls [CALLS]   (default 3,000,000 of each) */
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 3000000;
    unsigned long s = 0;
    for (long i = 0; i < calls; i++) {
        struct timespec ts;
        struct timeval tv;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        gettimeofday(&tv, NULL);
        s += (unsigned long)ts.tv_nsec + (unsigned long)tv.tv_usec;
    }
    volatile unsigned long keep = s; /* the calls are not optimised away */
    (void)keep;
    return 0;
}
