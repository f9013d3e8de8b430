// OpenSSL's libcrypto (SHA-256, MD5, HMAC-SHA256), loaded on first use: `album --help` and every
// command that hashes nothing start without it (0.7 ms of each start), and AlbumKit builds without
// OpenSSL's development files. Apple platforms use CryptoKit; there this target is empty.
#ifndef ALBUMKIT_CRYPTO_H
#define ALBUMKIT_CRYPTO_H

#include <stddef.h>

/// An incremental digest (`EVP_MD_CTX *`).
typedef struct albumkit_digest albumkit_digest;

enum albumkit_digest_kind { ALBUMKIT_DIGEST_SHA256 = 0, ALBUMKIT_DIGEST_MD5 = 1 };

/// Loads libcrypto once; 0 when it is there, else -1 and `albumkit_crypto_load_error()` says why.
int albumkit_crypto_load(void);
// 0 when SHA-256 digests can be made: on the processor's SHA instructions, or with libcrypto
// (loaded here when needed); otherwise albumkit_crypto_load_error() says why.
int albumkit_sha256_ready(void);
const char *albumkit_crypto_load_error(void);

/// A new digest of `kind`; NULL when libcrypto is missing (see `albumkit_crypto_load_error`).
albumkit_digest *albumkit_digest_new(enum albumkit_digest_kind kind);
// `processor` 0: libcrypto even where the processor has SHA instructions (tests compare the two).
albumkit_digest *albumkit_digest_new_using(enum albumkit_digest_kind kind, int processor);
void albumkit_digest_update(albumkit_digest *digest, const void *bytes, size_t count);
/// Writes the digest to `out` (room for 64 bytes) and returns its length.
unsigned albumkit_digest_final(albumkit_digest *digest, unsigned char *out);
void albumkit_digest_free(albumkit_digest *digest);

/// HMAC-SHA256 of `bytes` under `key` into `out` (32 bytes); 0 on success.
int albumkit_hmac_sha256(const void *key, int keyCount, const void *bytes, size_t count, unsigned char *out);

#endif
