// The inner loop of the near-duplicate search (AlbumKitCore's NearDuplicateIndex): comparing
// 64-bit hashes bucket against bucket, about 520 million comparisons for 1 000 000 hashes. In C
// because the comparison is a bit count: Swift, built for x86-64 without naming a processor, counts
// bits with a dozen shifts and masks, while every x86-64 processor made since 2008 has one `popcnt`
// instruction for it. The loop is compiled twice, with and without `popcnt`, and the processor is
// asked (CPUID) which one it can run; other processors (ARM) count bits with their own instruction.
#ifndef ALBUMKIT_NEAR_DUPLICATES_H
#define ALBUMKIT_NEAR_DUPLICATES_H

#include <stddef.h>
#include <stdint.h>

/// One band of the index: 65 537 bucket starts into `values` and `numbers`, the hashes in order
/// of the band's 16 bits at bit `16 * band`, and each hash's number.
typedef struct albumkit_near_band {
    const int32_t *starts;
    const uint64_t *values;
    const int32_t *numbers;
    int band;
} albumkit_near_band;

/// Every pair of hashes at most `radius` (0 to 11) bits apart with one hash in a bucket of
/// `first..<last` of `band`: each bucket against itself and against its neighbours of higher
/// value within `radius / 4` bits, a pair kept only when no earlier band (lower `band`) has the
/// two within `radius / 4` bits (that band found it). Writes up to `capacity` pairs, each two hash
/// numbers (smaller first), at `pairs`, and returns how many there are: when that is more than
/// `capacity`, the caller calls again with room for them all. `portable` 1 uses the loop without
/// `popcnt` whatever the processor (tests run both).
size_t albumkit_near_pairs(albumkit_near_band band, int first, int last, int radius, int32_t *pairs, size_t capacity,
                           int portable);

#endif
