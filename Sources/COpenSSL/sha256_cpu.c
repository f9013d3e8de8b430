// SHA-256 (FIPS 180-4) on the processor's SHA instructions (x86-64 "SHA extensions": SHA256RNDS2,
// SHA256MSG1, SHA256MSG2), so that hashing a save needs no libcrypto: loading it cost 1.5-2 ms and
// ~128 page faults per process. Used only where the processor has them; elsewhere the digests go
// through libcrypto (crypto_loader.c).
#include "albumkit_sha256_cpu.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>
#include <immintrin.h>

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// Hashes `blocks` 64-byte blocks into `state` (a..h). The instructions keep the eight words in two
// registers, {A, B, E, F} and {C, D, G, H} (A in the highest lane); SHA256RNDS2 runs two rounds
// with the two lowest lanes of its third operand as W+K, and returns the new {A, B, E, F}: after
// two rounds the old {A, B, E, F} is the new {C, D, G, H}.
__attribute__((target("sha,sse4.1,ssse3"))) static void compress(uint32_t state[8], const uint8_t *bytes,
                                                                  size_t blocks) {
    // Message words are big-endian: reverse the bytes of each 32-bit lane.
    const __m128i byteSwap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    __m128i abef = _mm_set_epi32((int)state[0], (int)state[1], (int)state[4], (int)state[5]);
    __m128i cdgh = _mm_set_epi32((int)state[2], (int)state[3], (int)state[6], (int)state[7]);
    for (; blocks > 0; blocks--, bytes += 64) {
        const __m128i savedABEF = abef, savedCDGH = cdgh;
        __m128i w[16];  // w[i]: words 4i..4i+3, the lowest lane first
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(bytes + 16 * i)), byteSwap);
        // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four words at a time: MSG1 adds s0
        // of the next words to W[t-16], the shifted pair adds W[t-7], MSG2 adds s1.
        for (int i = 4; i < 16; i++) {
            __m128i sum = _mm_add_epi32(_mm_sha256msg1_epu32(w[i - 4], w[i - 3]), _mm_alignr_epi8(w[i - 1], w[i - 2], 4));
            w[i] = _mm_sha256msg2_epu32(sum, w[i - 1]);
        }
        for (int i = 0; i < 16; i++) {
            __m128i wk = _mm_add_epi32(w[i], _mm_loadu_si128((const __m128i *)(round_constants + 4 * i)));
            __m128i next = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            cdgh = abef;
            abef = next;
            next = _mm_sha256rnds2_epu32(cdgh, abef, _mm_shuffle_epi32(wk, 0x0E));
            cdgh = abef;
            abef = next;
        }
        abef = _mm_add_epi32(abef, savedABEF);
        cdgh = _mm_add_epi32(cdgh, savedCDGH);
    }
    state[0] = (uint32_t)_mm_extract_epi32(abef, 3);
    state[1] = (uint32_t)_mm_extract_epi32(abef, 2);
    state[4] = (uint32_t)_mm_extract_epi32(abef, 1);
    state[5] = (uint32_t)_mm_extract_epi32(abef, 0);
    state[2] = (uint32_t)_mm_extract_epi32(cdgh, 3);
    state[3] = (uint32_t)_mm_extract_epi32(cdgh, 2);
    state[6] = (uint32_t)_mm_extract_epi32(cdgh, 1);
    state[7] = (uint32_t)_mm_extract_epi32(cdgh, 0);
}

static int processor_has_sha(void) {
    unsigned eax, ebx, ecx, edx;
    // Leaf 1: SSSE3 (ECX bit 9) and SSE4.1 (ECX bit 19); leaf 7: SHA (EBX bit 29).
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ecx & (1u << 9)) || !(ecx & (1u << 19))) return 0;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx & (1u << 29)) != 0;
}

#else

static void compress(uint32_t state[8], const uint8_t *bytes, size_t blocks) {
    (void)state, (void)bytes, (void)blocks;
}

static int processor_has_sha(void) { return 0; }

#endif

// 0 until checked, then 1 (the processor has them) or -1.
static int available;

int albumkit_sha256_cpu_available(void) {
    int value = __atomic_load_n(&available, __ATOMIC_RELAXED);
    if (value == 0) {
        value = processor_has_sha() ? 1 : -1;
        __atomic_store_n(&available, value, __ATOMIC_RELAXED);
    }
    return value == 1;
}

// How tests reach libcrypto's path (and its errors) on a processor that would not need it: the
// program's configuration asks for it (`ALBUMKIT_SHA256=libcrypto` in `album`'s environment).
void albumkit_sha256_cpu_refuse(void) { __atomic_store_n(&available, -1, __ATOMIC_RELAXED); }

void albumkit_sha256_cpu_init(albumkit_sha256_cpu *context) {
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(context->state, initial, sizeof initial);
    context->length = 0;
    context->buffered = 0;
}

void albumkit_sha256_cpu_update(albumkit_sha256_cpu *context, const void *bytes, size_t count) {
    const uint8_t *input = bytes;
    context->length += count;
    if (context->buffered > 0) {
        size_t take = 64 - context->buffered < count ? 64 - context->buffered : count;
        memcpy(context->buffer + context->buffered, input, take);
        context->buffered += (unsigned)take;
        input += take;
        count -= take;
        if (context->buffered < 64) return;
        compress(context->state, context->buffer, 1);
        context->buffered = 0;
    }
    if (count >= 64) {
        compress(context->state, input, count / 64);
        input += count / 64 * 64;
        count %= 64;
    }
    memcpy(context->buffer, input, count);
    context->buffered = (unsigned)count;
}

void albumkit_sha256_cpu_final(albumkit_sha256_cpu *context, unsigned char out[32]) {
    uint64_t bits = context->length * 8;
    // 0x80, zeros up to 56 bytes into a block, then the length in bits, big-endian.
    uint8_t tail[128] = {0x80};
    size_t padding = (context->buffered < 56 ? 56 : 120) - context->buffered;
    for (int i = 0; i < 8; i++) tail[padding + i] = (uint8_t)(bits >> (56 - 8 * i));
    albumkit_sha256_cpu_update(context, tail, padding + 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(context->state[i] >> 24);
        out[4 * i + 1] = (unsigned char)(context->state[i] >> 16);
        out[4 * i + 2] = (unsigned char)(context->state[i] >> 8);
        out[4 * i + 3] = (unsigned char)context->state[i];
    }
}
