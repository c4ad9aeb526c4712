/* threads N ITER: N threads that each add ITER integers, then exit: a multi-threaded
 * workload whose threads run on several CPUs at once (per-CPU buffers interleave). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *spin(void *arg)
{
    volatile unsigned long x = 0;
    for (unsigned long i = 0; i < *(unsigned long *)arg; i++) x += i;
    return (void *)(uintptr_t)x; /* the sum is used: no set-but-unused warning in clang */
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: threads N ITER\n");
        return 2;
    }
    int n = atoi(argv[1]);
    unsigned long iter = strtoul(argv[2], NULL, 10);
    if (n < 1 || n > 64) {
        fprintf(stderr, "threads: N must be 1 to 64\n");
        return 2;
    }
    pthread_t t[64];
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, spin, &iter)) return 1;
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    return 0;
}
