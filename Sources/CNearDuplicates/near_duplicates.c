#include "albumkit_near_duplicates.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

// Whether the two hashes whose bits differ as `difference` are within `band_radius` bits in a
// band before `band`: then that band reports them.
static inline __attribute__((always_inline)) int close_in_earlier_band(uint64_t difference, int band,
                                                                       int band_radius) {
    for (int previous = 0; previous < band; previous++) {
        if (__builtin_popcountll((difference >> (16 * previous)) & 0xFFFF) <= band_radius) return 1;
    }
    return 0;
}

// Adds the pair of slots `a` and `b` when it is this band's to report.
static inline __attribute__((always_inline)) void keep(const albumkit_near_band *band, size_t slot, size_t other,
                                                       uint64_t difference, int band_radius, int32_t *pairs,
                                                       size_t capacity, size_t *found) {
    if (close_in_earlier_band(difference, band->band, band_radius)) return;
    if (*found < capacity) {
        int32_t first = band->numbers[slot], second = band->numbers[other];
        pairs[2 * *found] = first < second ? first : second;
        pairs[2 * *found + 1] = first < second ? second : first;
    }
    *found += 1;
}

// The loop, inlined into each of the two compilations below.
static inline __attribute__((always_inline)) size_t join(const albumkit_near_band *band, int first, int last,
                                                         int radius, int32_t *pairs, size_t capacity) {
    const int band_radius = radius / 4;
    const int32_t *starts = band->starts;
    const uint64_t *values = band->values;
    // The 16-bit masks of 1 to `band_radius` bits: a bucket's neighbours.
    int masks[136];
    int mask_count = 0;
    for (int one = 0; one < 16 && band_radius >= 1; one++) {
        masks[mask_count++] = 1 << one;
        for (int two = one + 1; two < 16 && band_radius >= 2; two++) masks[mask_count++] = (1 << one) | (1 << two);
    }
    size_t found = 0;
    for (int bucket = first; bucket < last; bucket++) {
        const size_t start = (size_t)starts[bucket], end = (size_t)starts[bucket + 1];
        if (start == end) continue;
        for (size_t slot = start; slot < end; slot++) {
            const uint64_t hash = values[slot];
            for (size_t other = slot + 1; other < end; other++) {
                const uint64_t difference = values[other] ^ hash;
                if (__builtin_popcountll(difference) <= radius)
                    keep(band, slot, other, difference, band_radius, pairs, capacity, &found);
            }
        }
        for (int m = 0; m < mask_count; m++) {
            const int neighbour = bucket ^ masks[m];
            if (neighbour < bucket) continue;
            const size_t from = (size_t)starts[neighbour], to = (size_t)starts[neighbour + 1];
            for (size_t slot = start; slot < end; slot++) {
                const uint64_t hash = values[slot];
                for (size_t other = from; other < to; other++) {
                    const uint64_t difference = values[other] ^ hash;
                    if (__builtin_popcountll(difference) <= radius)
                        keep(band, slot, other, difference, band_radius, pairs, capacity, &found);
                }
            }
        }
    }
    return found;
}

static size_t join_portable(const albumkit_near_band *band, int first, int last, int radius, int32_t *pairs,
                            size_t capacity) {
    return join(band, first, last, radius, pairs, capacity);
}

#if defined(__x86_64__)
__attribute__((target("popcnt"))) static size_t join_popcnt(const albumkit_near_band *band, int first, int last,
                                                             int radius, int32_t *pairs, size_t capacity) {
    return join(band, first, last, radius, pairs, capacity);
}

// CPUID leaf 1, ECX bit 23: the processor has `popcnt`.
static int has_popcnt(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_POPCNT) != 0;
}
#endif

size_t albumkit_near_pairs(albumkit_near_band band, int first, int last, int radius, int32_t *pairs, size_t capacity,
                           int portable) {
#if defined(__x86_64__)
    if (!portable && has_popcnt()) return join_popcnt(&band, first, last, radius, pairs, capacity);
#endif
    return join_portable(&band, first, last, radius, pairs, capacity);
}
