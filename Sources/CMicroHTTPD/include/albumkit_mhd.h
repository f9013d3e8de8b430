// GNU libmicrohttpd, loaded at run time: only `album serve` answers HTTP, so `album` starts
// without it and AlbumKit builds without its development files. The numbers below are
// libmicrohttpd's stable ABI values (microhttpd.h of 0.9.x); where that header is present,
// mhd_loader.c checks each of them against it at compile time.
//
// The variadic `MHD_start_daemon` is wrapped by a function with fixed arguments, and the access
// handler's repeated calls (headers, then each piece of the body, then the end) are turned into
// four callbacks: a request begins, a piece of its body arrives, its body has ended, it is over.
#ifndef ALBUMKIT_MHD_H
#define ALBUMKIT_MHD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// A running daemon (`struct MHD_Daemon *`).
typedef struct albumkit_mhd_daemon albumkit_mhd_daemon;
/// One client connection (`struct MHD_Connection *`), valid during a callback.
typedef struct albumkit_mhd_connection albumkit_mhd_connection;
/// A response being built (`struct MHD_Response *`).
typedef struct albumkit_mhd_response albumkit_mhd_response;

enum {
    ALBUMKIT_MHD_HEADER_KIND = 1,
    ALBUMKIT_MHD_COOKIE_KIND = 2,
    ALBUMKIT_MHD_GET_ARGUMENT_KIND = 8,
    ALBUMKIT_MHD_REQUEST_TERMINATED_COMPLETED_OK = 0,
    ALBUMKIT_MHD_CONTENT_READER_END_OF_STREAM = -1,
    ALBUMKIT_MHD_CONTENT_READER_END_WITH_ERROR = -2,
};

/// What the server does with each request; `context` is passed back to `begin`.
typedef struct {
    void *context;
    /// The request's line and headers have arrived: returns the request's own state (never NULL),
    /// passed to the three callbacks below.
    void *(*begin)(void *context, albumkit_mhd_connection *connection, const char *method, const char *url,
                   const char *version);
    /// 1 when the request is answered on its headers alone (refused, or it has no body to read).
    int (*refused)(void *request);
    /// A piece of the body: 0 to go on reading, 1 when the request has had enough (the rest of the
    /// body is read and dropped, then `end` makes the response).
    int (*body)(void *request, const char *data, size_t size);
    /// The body has ended (or was refused): queue the response with `albumkit_mhd_queue`; 0 on
    /// success, -1 to close the connection.
    int (*end)(void *request, albumkit_mhd_connection *connection);
    /// The request is over: `completed` is 1 when its response was sent whole, 0 when it was cut
    /// (the client went away, a timeout, the daemon stopped). The request's state is released here.
    void (*finished)(void *request, int completed);
} albumkit_mhd_handlers;

/// The daemon's limits and its TLS certificate (PEM, both or neither).
typedef struct {
    /// The address to listen on, IPv4 or IPv6 (`struct sockaddr *`), and its port (0: any free port).
    const void *address;
    unsigned int connectionLimit;
    unsigned int perAddressLimit;
    unsigned int timeoutSeconds;
    /// How long a connection may wait for a request to begin (its headers all received), from its
    /// opening or its last answer, however its bytes come; then it is shut down.
    unsigned int requestWaitSeconds;
    size_t connectionMemoryLimit;
    const char *tlsKeyPEM;
    const char *tlsCertificatePEM;
} albumkit_mhd_settings;

/// Loads libmicrohttpd once; 0 when it is there, else -1 and `albumkit_mhd_load_error()` says why.
int albumkit_mhd_load(void);
const char *albumkit_mhd_load_error(void);

/// Starts a daemon: one thread per connection (a handler may block), errors logged to stderr.
/// NULL when it cannot start (the address is taken, libmicrohttpd is missing or has no TLS).
albumkit_mhd_daemon *albumkit_mhd_start(const albumkit_mhd_settings *settings, const albumkit_mhd_handlers *handlers,
                                        int ipv6);
/// The port the daemon listens on.
int albumkit_mhd_port(albumkit_mhd_daemon *daemon);
/// The connections the daemon holds, each counted until its thread has ended and the daemon has let
/// go of it (its place among those allowed per address with it); -1 when libmicrohttpd cannot say.
int albumkit_mhd_connections(albumkit_mhd_daemon *daemon);
void albumkit_mhd_stop(albumkit_mhd_daemon *daemon);

/// A request header, cookie or query argument (`kind`), NULL when absent.
const char *albumkit_mhd_value(albumkit_mhd_connection *connection, int kind, const char *key);
/// Calls `each` with every value of `kind` (headers, cookies, query arguments).
void albumkit_mhd_values(albumkit_mhd_connection *connection, int kind,
                         void (*each)(void *context, const char *key, const char *value), void *context);

/// A response of `size` bytes copied now.
albumkit_mhd_response *albumkit_mhd_response_copy(const void *bytes, size_t size);
/// A response whose bytes `read` gives as they are sent (`size` may be unknown: UINT64_MAX); `release`
/// is called once when the response is done with.
albumkit_mhd_response *albumkit_mhd_response_stream(uint64_t size, size_t blockSize,
                                                    ssize_t (*read)(void *context, uint64_t position, char *buffer,
                                                                    size_t max),
                                                    void *context, void (*release)(void *context));
int albumkit_mhd_add_header(albumkit_mhd_response *response, const char *name, const char *value);
/// Queues `response` with `status` and releases this reference to it; 0 on success.
int albumkit_mhd_queue(albumkit_mhd_connection *connection, unsigned int status, albumkit_mhd_response *response);
void albumkit_mhd_destroy(albumkit_mhd_response *response);

/// The connection's socket (valid while the connection is), -1 when libmicrohttpd does not say.
int albumkit_mhd_connection_socket(albumkit_mhd_connection *connection);
/// 1 when the client at the other end of `socket` has closed the connection (or shut down its
/// side), 0 while it is there or for a socket of -1; does not wait.
int albumkit_mhd_peer_closed(int socket);

#endif
