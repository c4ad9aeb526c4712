/* phase_reclassify THRESHOLD SIGNATURE_SIZE CACHE TRANSITION [PARTIAL_LINE] < SIGNATURES
 * Classifies normalised signatures again, one interval a line (SIGNATURE_SIZE numbers each,
 * as `pmuscope phase --json` prints them, exactly: %.17g), with the similarity classifier
 * of those settings, and prints each interval's phase, one a line; line PARTIAL_LINE (a
 * run's last interval cut short) takes the nearest known phase, as the engine does. tests/integration/
 * phase_live.sh checks that a live run's labels are what its own signatures give again:
 * the classifier is a function of its input, however the machine's load shaped that input. */
#include "pmuscope/error.h"
#include "pmuscope/phase.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: phase_reclassify THRESHOLD SIGNATURE_SIZE CACHE TRANSITION [PARTIAL_LINE] < SIGNATURES\n");
        return 2;
    }
    pms_classifier_config cfg;
    pms_classifier_config_default(&cfg);
    cfg.threshold = strtod(argv[1], NULL);
    cfg.signature_size = strtoul(argv[2], NULL, 10);
    cfg.cache_size = strtoul(argv[3], NULL, 10);
    cfg.transition_threshold = (unsigned)strtoul(argv[4], NULL, 10);
    size_t partial = argc == 6 ? strtoul(argv[5], NULL, 10) : 0;
    pms_classifier *c;
    double *sig = calloc(cfg.signature_size ? cfg.signature_size : 1, sizeof *sig);
    if (!sig || pms_classifier_create(&c, &cfg)) {
        fprintf(stderr, "phase_reclassify: %s\n", sig ? pms_strerror() : "out of memory");
        return 1;
    }
    int rc = 0;
    for (size_t line = 1;; line++) {
        size_t k = 0;
        while (k < cfg.signature_size && scanf("%lf", &sig[k]) == 1) k++;
        if (k == 0 && feof(stdin)) break;
        if (k < cfg.signature_size) {
            fprintf(stderr, "phase_reclassify: line %zu: %zu of %zu numbers\n", line, k, cfg.signature_size);
            rc = 1;
            break;
        }
        double distance;
        int phase = line == partial ? pms_classifier_nearest(c, sig, &distance)
                                    : pms_classifier_classify(c, sig, &distance);
        if (phase < 0) {
            fprintf(stderr, "phase_reclassify: line %zu: %s\n", line, pms_strerror());
            rc = 1;
            break;
        }
        printf("%d\n", phase);
    }
    pms_classifier_destroy(c);
    free(sig);
    return rc;
}
