#include "albumkit_pq.h"

// Only the shared library (Linux) uses PostgreSQL; elsewhere this target is empty.
#if defined(__linux__)

#include "albumkit_loading.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
// Where libpq's header is installed, the numbers above are checked against it.
_Static_assert(ALBUMKIT_PQ_CONNECTION_OK == CONNECTION_OK, "CONNECTION_OK");
_Static_assert(ALBUMKIT_PQ_COMMAND_OK == PGRES_COMMAND_OK, "PGRES_COMMAND_OK");
_Static_assert(ALBUMKIT_PQ_TUPLES_OK == PGRES_TUPLES_OK, "PGRES_TUPLES_OK");
_Static_assert(ALBUMKIT_PQ_FATAL_ERROR == PGRES_FATAL_ERROR, "PGRES_FATAL_ERROR");
_Static_assert(ALBUMKIT_PQ_DIAG_SQLSTATE == PG_DIAG_SQLSTATE, "PG_DIAG_SQLSTATE");
_Static_assert(ALBUMKIT_PQ_DIAG_MESSAGE_PRIMARY == PG_DIAG_MESSAGE_PRIMARY, "PG_DIAG_MESSAGE_PRIMARY");
#if defined(LIBPQ_HAS_PIPELINING)
_Static_assert(ALBUMKIT_PQ_PIPELINE_SYNC == PGRES_PIPELINE_SYNC, "PGRES_PIPELINE_SYNC");
_Static_assert(ALBUMKIT_PQ_PIPELINE_ABORTED == PGRES_PIPELINE_ABORTED, "PGRES_PIPELINE_ABORTED");
#endif
#endif

static struct {
    void *(*connectdb_params)(const char *const *, const char *const *, int);
    int (*status)(const void *);
    char *(*error_message)(const void *);
    void (*finish)(void *);
    int (*backend_pid)(const void *);
    void *(*exec)(void *, const char *);
    void *(*exec_params)(void *, const char *, int, const unsigned int *, const char *const *, const int *,
                         const int *, int);
    void (*clear)(void *);
    int (*result_status)(const void *);
    char *(*result_error_field)(const void *, int);
    int (*ntuples)(const void *);
    int (*nfields)(const void *);
    int (*getisnull)(const void *, int, int);
    char *(*getvalue)(const void *, int, int);
    // Pipeline mode (libpq 14 and later); NULL with an older libpq.
    int (*enter_pipeline)(void *);
    int (*exit_pipeline)(void *);
    int (*pipeline_sync)(void *);
    int (*send_params)(void *, const char *, int, const unsigned int *, const char *const *, const int *, const int *,
                       int);
    void *(*get_result)(void *);
} pq;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;

static int load(char *error, size_t errorSize) {
    static const char *const names[] = {"libpq.so.5", "libpq.5.dylib", "libpq.dylib"};
    const albumkit_symbol symbols[] = {
        {"PQconnectdbParams", (void **)&pq.connectdb_params},
        {"PQstatus", (void **)&pq.status},
        {"PQerrorMessage", (void **)&pq.error_message},
        {"PQfinish", (void **)&pq.finish},
        {"PQbackendPID", (void **)&pq.backend_pid},
        {"PQexec", (void **)&pq.exec},
        {"PQexecParams", (void **)&pq.exec_params},
        {"PQclear", (void **)&pq.clear},
        {"PQresultStatus", (void **)&pq.result_status},
        {"PQresultErrorField", (void **)&pq.result_error_field},
        {"PQntuples", (void **)&pq.ntuples},
        {"PQnfields", (void **)&pq.nfields},
        {"PQgetisnull", (void **)&pq.getisnull},
        {"PQgetvalue", (void **)&pq.getvalue},
    };
    void *handle = albumkit_load_library(names, sizeof names / sizeof names[0], symbols,
                                         sizeof symbols / sizeof symbols[0], "libpq", "libpq5", error, errorSize);
    if (handle == NULL) return -1;
    // Optional: all five or none (then statements go one at a time).
    const albumkit_symbol pipeline[] = {
        {"PQenterPipelineMode", (void **)&pq.enter_pipeline}, {"PQexitPipelineMode", (void **)&pq.exit_pipeline},
        {"PQpipelineSync", (void **)&pq.pipeline_sync},       {"PQsendQueryParams", (void **)&pq.send_params},
        {"PQgetResult", (void **)&pq.get_result},
    };
    int complete = 1;
    for (size_t index = 0; index < sizeof pipeline / sizeof pipeline[0]; index++) {
        *pipeline[index].slot = dlsym(handle, pipeline[index].name);
        if (*pipeline[index].slot == NULL) complete = 0;
    }
    if (!complete) pq.enter_pipeline = NULL;
    return 0;
}

int albumkit_pq_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_pq_load_error(void) { return albumkit_library_error(&library); }

albumkit_pq_connection *albumkit_pq_connect(const char *const *keywords, const char *const *values, int expandName) {
    return albumkit_pq_load() == 0 ? pq.connectdb_params(keywords, values, expandName) : NULL;
}

// Every function below is reached only through a connection or a result, which exist only after a
// successful load; NULL is passed through as libpq itself accepts it.
int albumkit_pq_status(const albumkit_pq_connection *connection) { return pq.status(connection); }
const char *albumkit_pq_error_message(const albumkit_pq_connection *connection) {
    return pq.error_message(connection);
}
void albumkit_pq_finish(albumkit_pq_connection *connection) {
    if (connection != NULL) pq.finish(connection);
}
int albumkit_pq_backend_pid(const albumkit_pq_connection *connection) { return pq.backend_pid(connection); }

albumkit_pq_result *albumkit_pq_exec(albumkit_pq_connection *connection, const char *sql) {
    return pq.exec(connection, sql);
}
albumkit_pq_result *albumkit_pq_exec_text(
    albumkit_pq_connection *connection, const char *sql, int count, const char *const *values) {
    return pq.exec_params(connection, sql, count, NULL, values, NULL, NULL, 0);
}
void albumkit_pq_clear(albumkit_pq_result *result) {
    if (result != NULL) pq.clear(result);
}
int albumkit_pq_result_status(const albumkit_pq_result *result) { return pq.result_status(result); }
const char *albumkit_pq_result_error_field(const albumkit_pq_result *result, int field) {
    return pq.result_error_field(result, field);
}
int albumkit_pq_rows(const albumkit_pq_result *result) { return pq.ntuples(result); }
int albumkit_pq_columns(const albumkit_pq_result *result) { return pq.nfields(result); }
int albumkit_pq_is_null(const albumkit_pq_result *result, int row, int column) {
    return pq.getisnull(result, row, column);
}
const char *albumkit_pq_value(const albumkit_pq_result *result, int row, int column) {
    return pq.getvalue(result, row, column);
}

int albumkit_pq_has_pipeline(void) { return albumkit_pq_load() == 0 && pq.enter_pipeline != NULL; }
int albumkit_pq_enter_pipeline(albumkit_pq_connection *connection) { return pq.enter_pipeline(connection); }
int albumkit_pq_exit_pipeline(albumkit_pq_connection *connection) { return pq.exit_pipeline(connection); }
int albumkit_pq_pipeline_sync(albumkit_pq_connection *connection) { return pq.pipeline_sync(connection); }
int albumkit_pq_send_text(albumkit_pq_connection *connection, const char *sql, int count, const char *const *values) {
    return pq.send_params(connection, sql, count, NULL, values, NULL, NULL, 0);
}
albumkit_pq_result *albumkit_pq_get_result(albumkit_pq_connection *connection) { return pq.get_result(connection); }

#endif  // defined(__linux__)
