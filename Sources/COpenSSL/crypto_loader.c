#include "albumkit_crypto.h"

#if defined(__linux__)

#include <dlfcn.h>

#include "albumkit_loading.h"
#include <pthread.h>
#include <stdio.h>

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
    // OpenSSL 3 looks an algorithm up on every EVP_DigestInit_ex given EVP_sha256(); fetched once
    // here instead (when EVP_MD_fetch exists).
    const void *sha256_md;
    const void *md5_md;
} crypto;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static char load_error[512];

static void load(void) {
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
    void *library = albumkit_load_library(names, sizeof names / sizeof names[0], symbols,
                                          sizeof symbols / sizeof symbols[0], "OpenSSL's libcrypto", "libssl3",
                                          load_error, sizeof load_error);
    if (library == NULL) return;
    const void *(*fetch)(void *, const char *, const char *) = NULL;
    *(void **)&fetch = dlsym(library, "EVP_MD_fetch");
    crypto.sha256_md = fetch ? fetch(NULL, "SHA256", NULL) : NULL;
    crypto.md5_md = fetch ? fetch(NULL, "MD5", NULL) : NULL;
    if (crypto.sha256_md == NULL) crypto.sha256_md = crypto.sha256();
    if (crypto.md5_md == NULL) crypto.md5_md = crypto.md5();
    load_result = 0;
}

int albumkit_crypto_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

const char *albumkit_crypto_load_error(void) { return load_error; }

albumkit_digest *albumkit_digest_new(enum albumkit_digest_kind kind) {
    if (albumkit_crypto_load() != 0) return NULL;
    void *context = crypto.ctx_new();
    if (context == NULL) return NULL;
    if (crypto.init(context, kind == ALBUMKIT_DIGEST_MD5 ? crypto.md5_md : crypto.sha256_md, NULL) != 1) {
        crypto.ctx_free(context);
        return NULL;
    }
    return context;
}

// Reached only through a digest, which exists only after a successful load.
void albumkit_digest_update(albumkit_digest *digest, const void *bytes, size_t count) {
    if (count > 0) crypto.update(digest, bytes, count);
}

unsigned albumkit_digest_final(albumkit_digest *digest, unsigned char *out) {
    unsigned length = 0;
    return crypto.final(digest, out, &length) == 1 ? length : 0;
}

void albumkit_digest_free(albumkit_digest *digest) {
    if (digest != NULL) crypto.ctx_free(digest);
}

int albumkit_hmac_sha256(const void *key, int keyCount, const void *bytes, size_t count, unsigned char *out) {
    if (albumkit_crypto_load() != 0) return -1;
    unsigned length = 32;
    return crypto.hmac(crypto.sha256_md, key, keyCount, bytes, count, out, &length) != NULL ? 0 : -1;
}

#endif  // defined(__linux__)
