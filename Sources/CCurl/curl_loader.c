#include "albumkit_curl.h"

// Only the shared library (Linux) uses HTTP; elsewhere this target is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <pthread.h>
#include <stdio.h>

#if __has_include(<curl/curl.h>)
#include <curl/curl.h>
// Where libcurl's header is installed, the numbers above are checked against it.
_Static_assert(ALBUMKIT_CURLE_OK == CURLE_OK, "CURLE_OK");
_Static_assert(ALBUMKIT_CURL_GLOBAL_DEFAULT == CURL_GLOBAL_DEFAULT, "CURL_GLOBAL_DEFAULT");
_Static_assert(ALBUMKIT_CURL_READFUNC_ABORT == CURL_READFUNC_ABORT, "CURL_READFUNC_ABORT");
_Static_assert((int)ALBUMKIT_CURLOPT_LOW_SPEED_LIMIT == (int)CURLOPT_LOW_SPEED_LIMIT, "LOW_SPEED_LIMIT");
_Static_assert((int)ALBUMKIT_CURLOPT_LOW_SPEED_TIME == (int)CURLOPT_LOW_SPEED_TIME, "LOW_SPEED_TIME");
_Static_assert((int)ALBUMKIT_CURLOPT_NOBODY == (int)CURLOPT_NOBODY, "NOBODY");
_Static_assert((int)ALBUMKIT_CURLOPT_UPLOAD == (int)CURLOPT_UPLOAD, "UPLOAD");
_Static_assert((int)ALBUMKIT_CURLOPT_POST == (int)CURLOPT_POST, "POST");
_Static_assert((int)ALBUMKIT_CURLOPT_CONNECTTIMEOUT == (int)CURLOPT_CONNECTTIMEOUT, "CONNECTTIMEOUT");
_Static_assert((int)ALBUMKIT_CURLOPT_NOSIGNAL == (int)CURLOPT_NOSIGNAL, "NOSIGNAL");
_Static_assert((int)ALBUMKIT_CURLOPT_WRITEDATA == (int)CURLOPT_WRITEDATA, "WRITEDATA");
_Static_assert((int)ALBUMKIT_CURLOPT_URL == (int)CURLOPT_URL, "URL");
_Static_assert((int)ALBUMKIT_CURLOPT_ERRORBUFFER == (int)CURLOPT_ERRORBUFFER, "ERRORBUFFER");
_Static_assert((int)ALBUMKIT_CURLOPT_CAINFO == (int)CURLOPT_CAINFO, "CAINFO");
_Static_assert((int)ALBUMKIT_CURLOPT_READDATA == (int)CURLOPT_READDATA, "READDATA");
_Static_assert((int)ALBUMKIT_CURLOPT_HTTPHEADER == (int)CURLOPT_HTTPHEADER, "HTTPHEADER");
_Static_assert((int)ALBUMKIT_CURLOPT_HEADERDATA == (int)CURLOPT_HEADERDATA, "HEADERDATA");
_Static_assert((int)ALBUMKIT_CURLOPT_CUSTOMREQUEST == (int)CURLOPT_CUSTOMREQUEST, "CUSTOMREQUEST");
_Static_assert((int)ALBUMKIT_CURLOPT_WRITEFUNCTION == (int)CURLOPT_WRITEFUNCTION, "WRITEFUNCTION");
_Static_assert((int)ALBUMKIT_CURLOPT_READFUNCTION == (int)CURLOPT_READFUNCTION, "READFUNCTION");
_Static_assert((int)ALBUMKIT_CURLOPT_HEADERFUNCTION == (int)CURLOPT_HEADERFUNCTION, "HEADERFUNCTION");
_Static_assert((int)ALBUMKIT_CURLOPT_INFILESIZE_LARGE == (int)CURLOPT_INFILESIZE_LARGE, "INFILESIZE_LARGE");
_Static_assert((int)ALBUMKIT_CURLOPT_POSTFIELDSIZE_LARGE == (int)CURLOPT_POSTFIELDSIZE_LARGE, "POSTFIELDSIZE_LARGE");
_Static_assert(CURLINFO_RESPONSE_CODE == 0x200002, "CURLINFO_RESPONSE_CODE");
#endif

enum { albumkit_curlinfo_response_code = 0x200002 };  // CURLINFO_LONG + 2

static struct {
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    void (*easy_reset)(void *);
    int (*easy_perform)(void *);
    const char *(*easy_strerror)(int);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_getinfo)(void *, int, ...);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
    int (*global_init)(long);
} curl;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;

static int load(char *error, size_t errorSize) {
    // The OpenSSL build first (Debian's libcurl4), then the GnuTLS one.
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.4.dylib", "libcurl.dylib"};
    const albumkit_symbol symbols[] = {
        {"curl_easy_init", (void **)&curl.easy_init},
        {"curl_easy_cleanup", (void **)&curl.easy_cleanup},
        {"curl_easy_reset", (void **)&curl.easy_reset},
        {"curl_easy_perform", (void **)&curl.easy_perform},
        {"curl_easy_strerror", (void **)&curl.easy_strerror},
        {"curl_easy_setopt", (void **)&curl.easy_setopt},
        {"curl_easy_getinfo", (void **)&curl.easy_getinfo},
        {"curl_slist_append", (void **)&curl.slist_append},
        {"curl_slist_free_all", (void **)&curl.slist_free_all},
        {"curl_global_init", (void **)&curl.global_init},
    };
    if (albumkit_load_library(names, sizeof names / sizeof names[0], symbols, sizeof symbols / sizeof symbols[0],
                              "libcurl", "libcurl4", error, errorSize) == NULL) {
        return -1;
    }
    if (curl.global_init(ALBUMKIT_CURL_GLOBAL_DEFAULT) == ALBUMKIT_CURLE_OK) return 0;
    snprintf(error, errorSize, "libcurl could not initialise");
    return -1;
}

int albumkit_curl_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_curl_load_error(void) { return albumkit_library_error(&library); }

// Every function below is reached only through a handle, which exists only after a successful load.
albumkit_curl_handle *albumkit_curl_easy_init(void) { return albumkit_curl_load() == 0 ? curl.easy_init() : NULL; }
void albumkit_curl_easy_cleanup(albumkit_curl_handle *handle) { curl.easy_cleanup(handle); }
void albumkit_curl_easy_reset(albumkit_curl_handle *handle) { curl.easy_reset(handle); }
int albumkit_curl_easy_perform(albumkit_curl_handle *handle) { return curl.easy_perform(handle); }
const char *albumkit_curl_easy_strerror(int code) { return curl.easy_strerror(code); }

albumkit_curl_list *albumkit_curl_list_append(albumkit_curl_list *list, const char *line) {
    return curl.slist_append(list, line);
}
void albumkit_curl_list_free(albumkit_curl_list *list) {
    if (list != NULL) curl.slist_free_all(list);
}

int albumkit_curl_set_long(albumkit_curl_handle *handle, enum albumkit_curl_option option, long value) {
    return curl.easy_setopt(handle, (int)option, value);
}
int albumkit_curl_set_offset(albumkit_curl_handle *handle, enum albumkit_curl_option option, int64_t value) {
    return curl.easy_setopt(handle, (int)option, (long long)value);  // curl_off_t is 64-bit
}
int albumkit_curl_set_pointer(albumkit_curl_handle *handle, enum albumkit_curl_option option, const void *value) {
    return curl.easy_setopt(handle, (int)option, value);
}
int albumkit_curl_set_callback(
    albumkit_curl_handle *handle, enum albumkit_curl_option option, albumkit_curl_data_callback value) {
    return curl.easy_setopt(handle, (int)option, value);
}
long albumkit_curl_response_code(albumkit_curl_handle *handle) {
    long code = 0;
    curl.easy_getinfo(handle, albumkit_curlinfo_response_code, &code);
    return code;
}

#endif  // defined(__linux__)
