#include "albumkit_crypto.h"
#include "albumkit_sha256_cpu.h"

#if defined(__linux__)

#include <dlfcn.h>

#include "albumkit_loading.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    void *(*ctx_new)(void);
    void (*ctx_free)(void *);
    int (*init)(void *, const void *, void *);
    int (*update)(void *, const void *, size_t);
    int (*final)(void *, unsigned char *, unsigned *);
    const void *(*sha256)(void);
    const void *(*md5)(void);
    unsigned char *(*hmac)(const void *, const void *, int, const unsigned char *, size_t, unsigned char *,
                           unsigned *);
    const void *(*fetch)(void *, const char *, const char *);
    // SHA-256 without the EVP layer, where libcrypto still has it: the EVP layer sets up OpenSSL's
    // providers and reads its configuration first, 0.5-1 ms of every save's first hash, for the
    // same SHA-NI code.
    int (*sha256_init)(void *);
    int (*sha256_update)(void *, const void *, size_t);
    int (*sha256_final)(unsigned char *, void *);
    // OpenSSL 3 looks an algorithm up on every EVP_DigestInit_ex given EVP_sha256(); fetched once
    // instead, on the first use of the EVP layer (when EVP_MD_fetch exists).
    const void *sha256_md;
    const void *md5_md;
} crypto;

// OpenSSL's SHA256_CTX is 112 bytes (OpenSSL 1.1 and 3); room for more. `onProcessor` digests
// run on the processor's SHA instructions (sha256_cpu.c) and never load libcrypto.
struct albumkit_digest {
    void *evp;
    int onProcessor;
    albumkit_sha256_cpu processor;
    _Alignas(16) unsigned char sha256[256];
};

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;

static int load(char *error, size_t errorSize) {
    static const char *const names[] = {"libcrypto.so.3", "libcrypto.so"};
    const albumkit_symbol symbols[] = {
        {"EVP_MD_CTX_new", (void **)&crypto.ctx_new},
        {"EVP_MD_CTX_free", (void **)&crypto.ctx_free},
        {"EVP_DigestInit_ex", (void **)&crypto.init},
        {"EVP_DigestUpdate", (void **)&crypto.update},
        {"EVP_DigestFinal_ex", (void **)&crypto.final},
        {"EVP_sha256", (void **)&crypto.sha256},
        {"EVP_md5", (void **)&crypto.md5},
        {"HMAC", (void **)&crypto.hmac},
    };
    void *handle = albumkit_load_library(names, sizeof names / sizeof names[0], symbols,
                                         sizeof symbols / sizeof symbols[0], "OpenSSL's libcrypto", "libssl3", error,
                                         errorSize);
    if (handle == NULL) return -1;
    // Optional: each falls back to the EVP layer when missing.
    *(void **)&crypto.fetch = dlsym(handle, "EVP_MD_fetch");
    *(void **)&crypto.sha256_init = dlsym(handle, "SHA256_Init");
    *(void **)&crypto.sha256_update = dlsym(handle, "SHA256_Update");
    *(void **)&crypto.sha256_final = dlsym(handle, "SHA256_Final");
    if (!crypto.sha256_init || !crypto.sha256_update || !crypto.sha256_final) crypto.sha256_init = NULL;
    return 0;
}

int albumkit_crypto_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_crypto_load_error(void) { return albumkit_library_error(&library); }

static pthread_once_t evp_once = PTHREAD_ONCE_INIT;

static void fetch_digests(void) {
    crypto.sha256_md = crypto.fetch ? crypto.fetch(NULL, "SHA256", NULL) : NULL;
    crypto.md5_md = crypto.fetch ? crypto.fetch(NULL, "MD5", NULL) : NULL;
    if (crypto.sha256_md == NULL) crypto.sha256_md = crypto.sha256();
    if (crypto.md5_md == NULL) crypto.md5_md = crypto.md5();
}

// The EVP layer, ready; only after a successful load.
static void prepare_evp(void) { pthread_once(&evp_once, fetch_digests); }

int albumkit_sha256_ready(void) { return albumkit_sha256_cpu_available() ? 0 : albumkit_crypto_load(); }

albumkit_digest *albumkit_digest_new(enum albumkit_digest_kind kind) { return albumkit_digest_new_using(kind, 1); }

albumkit_digest *albumkit_digest_new_using(enum albumkit_digest_kind kind, int processor) {
    if (kind == ALBUMKIT_DIGEST_SHA256 && processor && albumkit_sha256_cpu_available()) {
        albumkit_digest *digest = calloc(1, sizeof *digest);
        if (digest == NULL) return NULL;
        digest->onProcessor = 1;
        albumkit_sha256_cpu_init(&digest->processor);
        return digest;
    }
    if (albumkit_crypto_load() != 0) return NULL;
    albumkit_digest *digest = calloc(1, sizeof *digest);
    if (digest == NULL) return NULL;
    if (kind == ALBUMKIT_DIGEST_SHA256 && crypto.sha256_init != NULL) {
        if (crypto.sha256_init(digest->sha256) == 1) return digest;
        free(digest);
        return NULL;
    }
    prepare_evp();
    digest->evp = crypto.ctx_new();
    if (digest->evp == NULL ||
        crypto.init(digest->evp, kind == ALBUMKIT_DIGEST_MD5 ? crypto.md5_md : crypto.sha256_md, NULL) != 1) {
        albumkit_digest_free(digest);
        return NULL;
    }
    return digest;
}

// Reached only through a digest, which exists only once it can hash: on the processor, or after a
// successful load.
void albumkit_digest_update(albumkit_digest *digest, const void *bytes, size_t count) {
    if (count == 0) return;
    if (digest->onProcessor) {
        albumkit_sha256_cpu_update(&digest->processor, bytes, count);
    } else if (digest->evp != NULL) {
        crypto.update(digest->evp, bytes, count);
    } else {
        crypto.sha256_update(digest->sha256, bytes, count);
    }
}

unsigned albumkit_digest_final(albumkit_digest *digest, unsigned char *out) {
    if (digest->onProcessor) {
        albumkit_sha256_cpu_final(&digest->processor, out);
        return 32;
    }
    if (digest->evp == NULL) return crypto.sha256_final(out, digest->sha256) == 1 ? 32 : 0;
    unsigned length = 0;
    return crypto.final(digest->evp, out, &length) == 1 ? length : 0;
}

void albumkit_digest_free(albumkit_digest *digest) {
    if (digest == NULL) return;
    if (digest->evp != NULL) crypto.ctx_free(digest->evp);
    free(digest);
}

int albumkit_hmac_sha256(const void *key, int keyCount, const void *bytes, size_t count, unsigned char *out) {
    if (albumkit_crypto_load() != 0) return -1;
    prepare_evp();
    unsigned length = 32;
    return crypto.hmac(crypto.sha256_md, key, keyCount, bytes, count, out, &length) != NULL ? 0 : -1;
}

#endif  // defined(__linux__)
