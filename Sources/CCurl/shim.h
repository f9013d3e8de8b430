#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper each.
typedef size_t (*albumkit_curl_data_callback)(char *, size_t, size_t, void *);

static inline CURLcode albumkit_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode albumkit_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode albumkit_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode albumkit_curl_set_callback(CURL *handle, CURLoption option, albumkit_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline long albumkit_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
