/* Kernel work on request: hashes a buffer again and again through the kernel's crypto API
 * (an AF_ALG socket), so that the CPU time is spent in the kernel's code for the hash,
 * which may be a loadable module (wp512.ko for "wp512"). For samples in module code.
 * usage: kernel_hash [ALGORITHM [SECONDS]]   (default wp512, 0.5 CPU seconds) */
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *alg = argc > 1 ? argv[1] : "wp512";
    double seconds = argc > 2 ? atof(argv[2]) : 0.5;
    struct sockaddr_alg sa = {.salg_family = AF_ALG, .salg_type = "hash"};
    snprintf((char *)sa.salg_name, sizeof sa.salg_name, "%s", alg);
    int tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
    if (tfm < 0 || bind(tfm, (struct sockaddr *)&sa, sizeof sa) < 0) {
        fprintf(stderr, "kernel_hash: no %s hash in this kernel's crypto API: ", alg);
        perror(tfm < 0 ? "socket(AF_ALG)" : "bind");
        return 1;
    }
    int op = accept(tfm, NULL, NULL);
    if (op < 0) {
        perror("kernel_hash: accept");
        return 1;
    }
    static unsigned char buf[16384], digest[64];
    memset(buf, 0x5a, sizeof buf);
    double start = cpu_seconds();
    unsigned long rounds = 0;
    while (cpu_seconds() - start < seconds) {
        if (write(op, buf, sizeof buf) != (ssize_t)sizeof buf || read(op, digest, sizeof digest) <= 0) {
            perror("kernel_hash: write/read");
            return 1;
        }
        rounds++;
    }
    printf("%lu rounds of %zu bytes\n", rounds, sizeof buf);
    return 0;
}
