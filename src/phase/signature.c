/* Signatures: addresses hashed by random projection, L1-normalised (Sembrant's thesis, 3.1.2).
 * The projection is a random 64 x log2(N) matrix over GF(2): index bit j is the parity
 * of the address masked by row j, so nearby addresses spread over all counters and the
 * same seed always gives the same mapping. */
#include "pmuscope/phase.h"
#include "util/error.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int pms_projection_init(pms_projection *p, size_t size, uint64_t seed)
{
    unsigned bits = 0;
    while (((size_t)1 << bits) < size) bits++;
    if (size < 2 || size > PMS_PHASE_MAX_SIGNATURE || ((size_t)1 << bits) != size)
        return pms__fail(PMS_EINVAL, "signature size %zu: expected a power of two from 2 to %d", size,
                        PMS_PHASE_MAX_SIGNATURE);
    p->size = size;
    p->bits = bits;
    uint64_t state = seed;
    for (unsigned j = 0; j < bits; j++) {
        do p->masks[j] = splitmix64(&state);
        while (p->masks[j] == 0);
    }
    /* index(a ^ b) = index(a) ^ index(b): tabulate each byte position once. */
    for (unsigned k = 0; k < 8; k++)
        for (unsigned v = 0; v < 256; v++) {
            uint64_t address = (uint64_t)v << (8 * k);
            uint16_t index = 0;
            for (unsigned j = 0; j < bits; j++)
                index |= (uint16_t)(__builtin_parityll(address & p->masks[j]) << j);
            p->table[k][v] = index;
        }
    return PMS_OK;
}

size_t pms_projection_index(const pms_projection *p, uint64_t address)
{
    size_t index = 0;
    for (unsigned k = 0; k < 8; k++, address >>= 8) index ^= p->table[k][address & 0xff];
    return index;
}

void pms_signature_add(const pms_projection *p, double *sig, uint64_t address, double weight)
{
    sig[pms_projection_index(p, address)] += weight;
}

double pms_signature_normalize(double *sig, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += fabs(sig[i]);
    if (sum > 0)
        for (size_t i = 0; i < n; i++) sig[i] /= sum;
    return sum;
}

double pms_signature_distance(const double *a, const double *b, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; i++) d += fabs(a[i] - b[i]);
    return d;
}
