// libcurl, loaded at run time: the shared library is the only user of HTTP, so AlbumKit builds and
// runs without libcurl's development files (a fresh Debian has the libcurl4 runtime, not
// libcurl4-openssl-dev). The option numbers are libcurl's stable ABI values; where curl/curl.h is
// present, curl_loader.c checks each of them against it at compile time.
#ifndef ALBUMKIT_CURL_H
#define ALBUMKIT_CURL_H

#include <stddef.h>
#include <stdint.h>

/// A libcurl easy handle (`CURL *`).
typedef void albumkit_curl_handle;
/// A libcurl header list (`struct curl_slist *`).
typedef struct albumkit_curl_list albumkit_curl_list;
/// A read, write or header callback.
typedef size_t (*albumkit_curl_data_callback)(char *, size_t, size_t, void *);

enum {
    ALBUMKIT_CURLE_OK = 0,
    ALBUMKIT_CURL_GLOBAL_DEFAULT = 3,
    ALBUMKIT_CURL_READFUNC_ABORT = 0x10000000,
};

enum albumkit_curl_option {
    ALBUMKIT_CURLOPT_LOW_SPEED_LIMIT = 19,
    ALBUMKIT_CURLOPT_LOW_SPEED_TIME = 20,
    ALBUMKIT_CURLOPT_NOBODY = 44,
    ALBUMKIT_CURLOPT_UPLOAD = 46,
    ALBUMKIT_CURLOPT_POST = 47,
    ALBUMKIT_CURLOPT_CONNECTTIMEOUT = 78,
    ALBUMKIT_CURLOPT_NOSIGNAL = 99,
    ALBUMKIT_CURLOPT_WRITEDATA = 10001,
    ALBUMKIT_CURLOPT_URL = 10002,
    ALBUMKIT_CURLOPT_ERRORBUFFER = 10010,
    ALBUMKIT_CURLOPT_READDATA = 10009,
    ALBUMKIT_CURLOPT_HTTPHEADER = 10023,
    ALBUMKIT_CURLOPT_HEADERDATA = 10029,
    ALBUMKIT_CURLOPT_CUSTOMREQUEST = 10036,
    ALBUMKIT_CURLOPT_CAINFO = 10065,
    ALBUMKIT_CURLOPT_WRITEFUNCTION = 20011,
    ALBUMKIT_CURLOPT_READFUNCTION = 20012,
    ALBUMKIT_CURLOPT_HEADERFUNCTION = 20079,
    ALBUMKIT_CURLOPT_INFILESIZE_LARGE = 30115,
    ALBUMKIT_CURLOPT_POSTFIELDSIZE_LARGE = 30120,
};

/// Loads libcurl once; 0 when it is there, else -1 and `albumkit_curl_load_error()` says why.
int albumkit_curl_load(void);
const char *albumkit_curl_load_error(void);

albumkit_curl_handle *albumkit_curl_easy_init(void);
void albumkit_curl_easy_cleanup(albumkit_curl_handle *handle);
void albumkit_curl_easy_reset(albumkit_curl_handle *handle);
int albumkit_curl_easy_perform(albumkit_curl_handle *handle);
const char *albumkit_curl_easy_strerror(int code);
albumkit_curl_list *albumkit_curl_list_append(albumkit_curl_list *list, const char *line);
void albumkit_curl_list_free(albumkit_curl_list *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper each.
int albumkit_curl_set_long(albumkit_curl_handle *handle, enum albumkit_curl_option option, long value);
int albumkit_curl_set_offset(albumkit_curl_handle *handle, enum albumkit_curl_option option, int64_t value);
int albumkit_curl_set_pointer(albumkit_curl_handle *handle, enum albumkit_curl_option option, const void *value);
int albumkit_curl_set_callback(
    albumkit_curl_handle *handle, enum albumkit_curl_option option, albumkit_curl_data_callback value);
long albumkit_curl_response_code(albumkit_curl_handle *handle);

#endif
