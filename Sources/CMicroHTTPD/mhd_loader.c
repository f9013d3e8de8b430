#include "albumkit_mhd.h"

// Only `album serve` on Linux answers HTTP; elsewhere this target is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#if __has_include(<microhttpd.h>)
#include <microhttpd.h>
// Where libmicrohttpd's header is installed, the numbers here are checked against it.
_Static_assert(ALBUMKIT_MHD_HEADER_KIND == MHD_HEADER_KIND, "MHD_HEADER_KIND");
_Static_assert(ALBUMKIT_MHD_COOKIE_KIND == MHD_COOKIE_KIND, "MHD_COOKIE_KIND");
_Static_assert(ALBUMKIT_MHD_GET_ARGUMENT_KIND == MHD_GET_ARGUMENT_KIND, "MHD_GET_ARGUMENT_KIND");
_Static_assert(ALBUMKIT_MHD_CONTENT_READER_END_OF_STREAM == MHD_CONTENT_READER_END_OF_STREAM, "END_OF_STREAM");
_Static_assert(ALBUMKIT_MHD_CONTENT_READER_END_WITH_ERROR == MHD_CONTENT_READER_END_WITH_ERROR, "END_WITH_ERROR");
#endif

// microhttpd.h's flags and options used here (0.9.x ABI).
enum {
    USE_ERROR_LOG = 1,
    USE_TLS = 2,
    USE_THREAD_PER_CONNECTION = 4,
    USE_INTERNAL_POLLING_THREAD = 8,
    USE_IPV6 = 16,
    USE_AUTO = 65536,
    OPTION_END = 0,
    OPTION_CONNECTION_MEMORY_LIMIT = 1,
    OPTION_CONNECTION_LIMIT = 2,
    OPTION_CONNECTION_TIMEOUT = 3,
    OPTION_NOTIFY_COMPLETED = 4,
    OPTION_PER_IP_CONNECTION_LIMIT = 5,
    OPTION_SOCK_ADDR = 6,
    OPTION_HTTPS_MEM_KEY = 8,
    OPTION_HTTPS_MEM_CERT = 9,
    OPTION_NOTIFY_CONNECTION = 27,
    CONNECTION_NOTIFY_STARTED = 0,
    CONNECTION_NOTIFY_CLOSED = 1,
    DAEMON_INFO_CURRENT_CONNECTIONS = 4,
    DAEMON_INFO_BIND_PORT = 6,
    CONNECTION_INFO_CONNECTION_FD = 6,
    CONNECTION_INFO_SOCKET_CONTEXT = 7,
    RESPMEM_MUST_COPY = 2,
    RESULT_NO = 0,
    RESULT_YES = 1,
};

typedef int (*access_handler)(void *, void *, const char *, const char *, const char *, const char *, size_t *,
                              void **);
typedef void (*completed_handler)(void *, void *, void **, int);
typedef void (*connection_handler)(void *, void *, void **, int);

static struct {
    void *(*start_daemon)(unsigned int, uint16_t, void *, void *, access_handler, void *, ...);
    void (*stop_daemon)(void *);
    const void *(*get_daemon_info)(void *, int, ...);
    const void *(*get_connection_info)(void *, int, ...);
    const char *(*lookup_value)(void *, int, const char *);
    int (*get_values)(void *, int, int (*)(void *, int, const char *, const char *), void *);
    void *(*from_buffer)(size_t, void *, int);
    void *(*from_callback)(uint64_t, size_t, ssize_t (*)(void *, uint64_t, char *, size_t), void *,
                           void (*)(void *));
    int (*add_header)(void *, const char *, const char *);
    int (*queue)(void *, unsigned int, void *);
    void (*destroy)(void *);
} mhd;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;

static int load(char *error, size_t errorSize) {
    static const char *const names[] = {"libmicrohttpd.so.12", "libmicrohttpd.12.dylib", "libmicrohttpd.dylib"};
    const albumkit_symbol symbols[] = {
        {"MHD_start_daemon", (void **)&mhd.start_daemon},
        {"MHD_stop_daemon", (void **)&mhd.stop_daemon},
        {"MHD_get_daemon_info", (void **)&mhd.get_daemon_info},
        {"MHD_get_connection_info", (void **)&mhd.get_connection_info},
        {"MHD_lookup_connection_value", (void **)&mhd.lookup_value},
        {"MHD_get_connection_values", (void **)&mhd.get_values},
        {"MHD_create_response_from_buffer", (void **)&mhd.from_buffer},
        {"MHD_create_response_from_callback", (void **)&mhd.from_callback},
        {"MHD_add_response_header", (void **)&mhd.add_header},
        {"MHD_queue_response", (void **)&mhd.queue},
        {"MHD_destroy_response", (void **)&mhd.destroy},
    };
    void *handle = albumkit_load_library(names, sizeof names / sizeof names[0], symbols,
                                         sizeof symbols / sizeof symbols[0], "libmicrohttpd", "libmicrohttpd12",
                                         error, errorSize);
    return handle == NULL ? -1 : 0;
}

int albumkit_mhd_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_mhd_load_error(void) { return albumkit_library_error(&library); }

// Connections waiting for a request: since they opened, or since their last answer. libmicrohttpd's
// timeout counts from the last byte received, so a client sending its headers a byte at a time
// holds its connection for ever; here a connection that has waited its daemon's `requestWaitSeconds`
// for a request to begin is shut down, however its bytes come. A request that begins (its headers
// arrived) stops the clock until it is over.
typedef struct waiting {
    int socket;
    unsigned int seconds;
    // Whether it waits (not while a request is being answered), and since when (CLOCK_MONOTONIC seconds).
    int waits;
    time_t since;
    struct waiting *next;
    struct waiting **previous;
} waiting;

static pthread_mutex_t waiting_lock = PTHREAD_MUTEX_INITIALIZER;
static waiting *waiting_first = NULL;
static pthread_once_t waiting_watch_once = PTHREAD_ONCE_INIT;

static time_t now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec;
}

// Once a second, shuts down the sockets that waited too long: their connection's thread then reads
// the end and libmicrohttpd closes the connection. A socket is shut down only while its record is
// listed, under the lock its removal takes, and libmicrohttpd tells of a connection's end (which
// removes the record) before it closes the socket: the number is never another connection's.
static void *watch_waiting(void *unused) {
    (void)unused;
    for (;;) {
        sleep(1);
        time_t now = now_seconds();
        pthread_mutex_lock(&waiting_lock);
        for (waiting *each = waiting_first; each != NULL; each = each->next) {
            if (each->waits && now - each->since >= (time_t)each->seconds && each->socket >= 0) {
                shutdown(each->socket, SHUT_RDWR);
                each->waits = 0;
            }
        }
        pthread_mutex_unlock(&waiting_lock);
    }
    return NULL;
}

static void start_watching(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, watch_waiting, NULL) == 0) pthread_detach(thread);
}

static void connection_changed(void *cls, void *connection, void **socketContext, int what) {
    if (what == CONNECTION_NOTIFY_STARTED) {
        waiting *record = calloc(1, sizeof *record);
        if (record == NULL) return;
        const int *socket = mhd.get_connection_info(connection, CONNECTION_INFO_CONNECTION_FD);
        record->socket = socket == NULL ? -1 : *socket;
        record->seconds = (unsigned int)(uintptr_t)cls;
        record->waits = 1;
        record->since = now_seconds();
        pthread_once(&waiting_watch_once, start_watching);
        pthread_mutex_lock(&waiting_lock);
        record->next = waiting_first;
        record->previous = &waiting_first;
        if (waiting_first != NULL) waiting_first->previous = &record->next;
        waiting_first = record;
        pthread_mutex_unlock(&waiting_lock);
        *socketContext = record;
    } else if (what == CONNECTION_NOTIFY_CLOSED && *socketContext != NULL) {
        waiting *record = *socketContext;
        pthread_mutex_lock(&waiting_lock);
        *record->previous = record->next;
        if (record->next != NULL) record->next->previous = record->previous;
        pthread_mutex_unlock(&waiting_lock);
        free(record);
        *socketContext = NULL;
    }
}

// Starts (`waits` 1) or stops (0) the clock of the connection's wait for a request.
static void set_waiting(void *connection, int waits) {
    void *const *context = mhd.get_connection_info(connection, CONNECTION_INFO_SOCKET_CONTEXT);
    if (context == NULL || *context == NULL) return;
    waiting *record = *context;
    pthread_mutex_lock(&waiting_lock);
    record->waits = waits;
    record->since = now_seconds();
    pthread_mutex_unlock(&waiting_lock);
}

// The most of a refused body read and dropped before the connection is closed instead (64 MiB).
#define DROPPED_BODY_LIMIT ((uint64_t)64 << 20)

// The state kept per request between the access handler's calls.
typedef struct {
    void *request;
    int answered;
    int refused;
    uint64_t dropped;
} request_state;

// Whether the request announces a body (a length above zero, or chunks).
static int has_body(void *connection) {
    const char *length = mhd.lookup_value(connection, ALBUMKIT_MHD_HEADER_KIND, "Content-Length");
    const char *chunked = mhd.lookup_value(connection, ALBUMKIT_MHD_HEADER_KIND, "Transfer-Encoding");
    return chunked != NULL || (length != NULL && strcmp(length, "0") != 0);
}

static int answer(void *cls, void *connection, const char *url, const char *method, const char *version,
                  const char *upload, size_t *uploadSize, void **perRequest) {
    const albumkit_mhd_handlers *handlers = cls;
    request_state *state = *perRequest;
    if (state == NULL) {
        // First call: the headers alone. Returning YES reads the body (answering `Expect: 100-continue`).
        state = calloc(1, sizeof *state);
        if (state == NULL) return RESULT_NO;
        state->request = handlers->begin(handlers->context, connection, method, url, version);
        *perRequest = state;
        set_waiting(connection, 0);
        // A request refused on its headers alone is answered now: its body is never read (libmicrohttpd
        // closes the connection after the response).
        // A request without a body is answered on the next call, once libmicrohttpd has read all of it:
        // the connection then stays open for the next request.
        if (handlers->refused(state->request) && has_body(connection)) {
            state->answered = 1;
            return handlers->end(state->request, connection) == 0 ? RESULT_YES : RESULT_NO;
        }
        return RESULT_YES;
    }
    if (state->answered) {
        *uploadSize = 0;
        return RESULT_YES;
    }
    if (*uploadSize > 0) {
        // libmicrohttpd takes a response only before the body or after all of it: a body no longer
        // wanted (refused, too large) is read and dropped, up to a limit past which the connection
        // is closed without an answer.
        if (state->refused) {
            state->dropped += *uploadSize;
            *uploadSize = 0;
            return state->dropped <= DROPPED_BODY_LIMIT ? RESULT_YES : RESULT_NO;
        }
        state->refused = handlers->body(state->request, upload, *uploadSize);
        *uploadSize = 0;
        return RESULT_YES;
    }
    state->answered = 1;
    return handlers->end(state->request, connection) == 0 ? RESULT_YES : RESULT_NO;
}

static void completed(void *cls, void *connection, void **perRequest, int reason) {
    const albumkit_mhd_handlers *handlers = cls;
    set_waiting(connection, 1);
    request_state *state = *perRequest;
    if (state == NULL) return;
    handlers->finished(state->request, reason == ALBUMKIT_MHD_REQUEST_TERMINATED_COMPLETED_OK);
    free(state);
    *perRequest = NULL;
}

albumkit_mhd_daemon *albumkit_mhd_start(const albumkit_mhd_settings *settings, const albumkit_mhd_handlers *handlers,
                                        int ipv6) {
    if (albumkit_mhd_load() != 0) return NULL;
    // The handlers outlive the daemon: the caller keeps them until it has stopped it.
    unsigned int flags = USE_AUTO | USE_INTERNAL_POLLING_THREAD | USE_THREAD_PER_CONNECTION | USE_ERROR_LOG;
    if (ipv6) flags |= USE_IPV6;
    void *cls = (void *)handlers;
    void *waits = (void *)(uintptr_t)settings->requestWaitSeconds;
    if (settings->tlsKeyPEM != NULL && settings->tlsCertificatePEM != NULL) {
        return mhd.start_daemon(flags | USE_TLS, 0, NULL, NULL, (access_handler)answer, cls,
                                OPTION_SOCK_ADDR, settings->address, OPTION_CONNECTION_LIMIT,
                                settings->connectionLimit, OPTION_PER_IP_CONNECTION_LIMIT, settings->perAddressLimit,
                                OPTION_CONNECTION_TIMEOUT, settings->timeoutSeconds, OPTION_CONNECTION_MEMORY_LIMIT,
                                settings->connectionMemoryLimit, OPTION_NOTIFY_COMPLETED,
                                (completed_handler)completed, cls, OPTION_NOTIFY_CONNECTION,
                                (connection_handler)connection_changed, waits, OPTION_HTTPS_MEM_KEY, settings->tlsKeyPEM,
                                OPTION_HTTPS_MEM_CERT, settings->tlsCertificatePEM, OPTION_END);
    }
    return mhd.start_daemon(flags, 0, NULL, NULL, (access_handler)answer, cls, OPTION_SOCK_ADDR, settings->address,
                            OPTION_CONNECTION_LIMIT, settings->connectionLimit, OPTION_PER_IP_CONNECTION_LIMIT,
                            settings->perAddressLimit, OPTION_CONNECTION_TIMEOUT, settings->timeoutSeconds,
                            OPTION_CONNECTION_MEMORY_LIMIT, settings->connectionMemoryLimit, OPTION_NOTIFY_COMPLETED,
                            (completed_handler)completed, cls, OPTION_NOTIFY_CONNECTION,
                            (connection_handler)connection_changed, waits, OPTION_END);
}

int albumkit_mhd_port(albumkit_mhd_daemon *daemon) {
    const uint16_t *port = mhd.get_daemon_info(daemon, DAEMON_INFO_BIND_PORT);
    return port == NULL ? -1 : *port;
}

int albumkit_mhd_connections(albumkit_mhd_daemon *daemon) {
    const unsigned int *count = mhd.get_daemon_info(daemon, DAEMON_INFO_CURRENT_CONNECTIONS);
    return count == NULL ? -1 : (int)*count;
}

void albumkit_mhd_stop(albumkit_mhd_daemon *daemon) {
    if (daemon != NULL) mhd.stop_daemon(daemon);
}

const char *albumkit_mhd_value(albumkit_mhd_connection *connection, int kind, const char *key) {
    return mhd.lookup_value(connection, kind, key);
}

typedef struct {
    void (*each)(void *, const char *, const char *);
    void *context;
} value_visit;

static int visit_value(void *cls, int kind, const char *key, const char *value) {
    (void)kind;
    value_visit *state = cls;
    state->each(state->context, key, value);
    return RESULT_YES;
}

void albumkit_mhd_values(albumkit_mhd_connection *connection, int kind,
                         void (*each)(void *context, const char *key, const char *value), void *context) {
    value_visit state = {each, context};
    mhd.get_values(connection, kind, visit_value, &state);
}

albumkit_mhd_response *albumkit_mhd_response_copy(const void *bytes, size_t size) {
    return mhd.from_buffer(size, (void *)bytes, RESPMEM_MUST_COPY);
}

albumkit_mhd_response *albumkit_mhd_response_stream(uint64_t size, size_t blockSize,
                                                    ssize_t (*read)(void *context, uint64_t position, char *buffer,
                                                                    size_t max),
                                                    void *context, void (*release)(void *context)) {
    return mhd.from_callback(size, blockSize, read, context, release);
}

int albumkit_mhd_add_header(albumkit_mhd_response *response, const char *name, const char *value) {
    return mhd.add_header(response, name, value) == RESULT_YES ? 0 : -1;
}

int albumkit_mhd_queue(albumkit_mhd_connection *connection, unsigned int status, albumkit_mhd_response *response) {
    int result = mhd.queue(connection, status, response);
    mhd.destroy(response);
    return result == RESULT_YES ? 0 : -1;
}

void albumkit_mhd_destroy(albumkit_mhd_response *response) {
    if (response != NULL) mhd.destroy(response);
}

int albumkit_mhd_connection_socket(albumkit_mhd_connection *connection) {
    const int *socket = mhd.get_connection_info(connection, CONNECTION_INFO_CONNECTION_FD);
    return socket == NULL ? -1 : *socket;
}

// POLLRDHUP is Linux's (glibc defines it under _GNU_SOURCE only): the peer closed or shut down its side.
#ifndef POLLRDHUP
#define POLLRDHUP 0x2000
#endif

int albumkit_mhd_peer_closed(int socket) {
    if (socket < 0) return 0;
    struct pollfd watched = {.fd = socket, .events = POLLRDHUP};
    if (poll(&watched, 1, 0) <= 0) return 0;
    return (watched.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

#endif  // defined(__linux__)
