/* Randomised sampling periods: pfmon's mask randomisation and Sembrant's exponential
 * periods. The arithmetic is a pure function of a uniform draw; GSL supplies the draws. */
#include "pmuscope/sampler.h"

#include "util/error.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int pms_randomize_parse(const char *spec, pms_randomize *out)
{
    memset(out, 0, sizeof *out);
    if (!spec)
        return pms__with_option(pms__fail(PMS_EINVAL, "period randomisation: expected mask:BITS or exp"), "randomize");
    if (strcmp(spec, "exp") == 0) {
        out->kind = PMS_RANDOMIZE_EXP;
        return PMS_OK;
    }
    if (strncmp(spec, "mask:", 5) == 0) {
        char *end;
        long bits = strtol(spec + 5, &end, 10);
        if (end != spec + 5 && !*end && bits >= 1 && bits <= 32) {
            out->kind = PMS_RANDOMIZE_MASK;
            out->bits = (unsigned)bits;
            return PMS_OK;
        }
        return pms__with_option(pms__fail(PMS_EINVAL,
                                          "period randomisation '%s': expected a number of bits from 1 to 32 after "
                                          "'mask:'",
                                          spec),
                                "randomize");
    }
    return pms__with_option(pms__fail(PMS_EINVAL, "period randomisation '%s': expected mask:BITS or exp", spec),
                            "randomize");
}

uint64_t pms_randomize_period(const pms_randomize *r, uint64_t base, double u)
{
    if (!(u >= 0.0)) u = 0.0; /* also catches NaN */
    if (u >= 1.0) u = nextafter(1.0, 0.0);
    switch (r->kind) {
    case PMS_RANDOMIZE_MASK: {
        uint64_t span = (uint64_t)1 << r->bits;
        uint64_t add = (uint64_t)(u * (double)span);
        if (add >= span) add = span - 1;
        return base + add;
    }
    case PMS_RANDOMIZE_EXP: {
        double p = round(-(double)base * log1p(-u));
        if (p < 1.0) return 1;
        return p >= 0x1p64 ? UINT64_MAX : (uint64_t)p;
    }
    case PMS_RANDOMIZE_NONE:
    default:
        return base;
    }
}

struct pms_period_gen {
    pms_randomize r;
    uint64_t base;
    gsl_rng *rng;
};

int pms_period_gen_create(pms_period_gen **out, const pms_randomize *r, uint64_t base)
{
    pms_period_gen *g = calloc(1, sizeof *g);
    if (!g || !(g->rng = gsl_rng_alloc(gsl_rng_mt19937))) {
        free(g);
        return pms__fail(PMS_ENOMEM, "out of memory");
    }
    g->r = *r;
    g->base = base;
    unsigned long seed = (unsigned long)r->seed;
    if (seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        seed = (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20) ^ (unsigned long)getpid();
    }
    gsl_rng_set(g->rng, seed);
    *out = g;
    return PMS_OK;
}

uint64_t pms_period_gen_next(pms_period_gen *g)
{
    /* gsl_rng_uniform gives k / 2^32 for MT19937: every mask value up to 32 bits is reachable. */
    return pms_randomize_period(&g->r, g->base, gsl_rng_uniform(g->rng));
}

void pms_period_gen_set_base(pms_period_gen *g, uint64_t base) { g->base = base; }

void pms_period_gen_destroy(pms_period_gen *g)
{
    if (!g) return;
    gsl_rng_free(g->rng);
    free(g);
}
