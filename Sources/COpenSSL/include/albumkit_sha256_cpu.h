#ifndef ALBUMKIT_SHA256_CPU_H
#define ALBUMKIT_SHA256_CPU_H

#include <stddef.h>
#include <stdint.h>

// SHA-256 on the processor's SHA instructions, where it has them (sha256_cpu.c).
typedef struct albumkit_sha256_cpu {
    uint32_t state[8];
    uint64_t length;
    unsigned buffered;
    uint8_t buffer[64];
} albumkit_sha256_cpu;

// 1 when this processor has the instructions.
int albumkit_sha256_cpu_available(void);
// From now on, albumkit_sha256_cpu_available() says 0: libcrypto hashes.
void albumkit_sha256_cpu_refuse(void);

void albumkit_sha256_cpu_init(albumkit_sha256_cpu *context);
void albumkit_sha256_cpu_update(albumkit_sha256_cpu *context, const void *bytes, size_t count);
void albumkit_sha256_cpu_final(albumkit_sha256_cpu *context, unsigned char out[32]);

#endif
