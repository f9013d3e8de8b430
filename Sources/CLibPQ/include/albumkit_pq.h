// libpq, loaded at run time: only a shared library talks to PostgreSQL, so `album` starts without
// loading libpq and the ~20 libraries it pulls in (Kerberos, LDAP, GnuTLS: 2.5 ms of every start),
// and AlbumKit builds without libpq's development files. The numbers below are libpq's stable ABI
// values; where libpq-fe.h is present, pq_loader.c checks each of them against it at compile time.
#ifndef ALBUMKIT_PQ_H
#define ALBUMKIT_PQ_H

/// A libpq connection (`PGconn *`).
typedef struct albumkit_pq_connection albumkit_pq_connection;
/// A libpq result (`PGresult *`).
typedef struct albumkit_pq_result albumkit_pq_result;

enum {
    ALBUMKIT_PQ_CONNECTION_OK = 0,
    ALBUMKIT_PQ_COMMAND_OK = 1,
    ALBUMKIT_PQ_TUPLES_OK = 2,
    ALBUMKIT_PQ_FATAL_ERROR = 7,
    ALBUMKIT_PQ_PIPELINE_SYNC = 10,
    ALBUMKIT_PQ_PIPELINE_ABORTED = 11,
    ALBUMKIT_PQ_DIAG_SQLSTATE = 'C',
    ALBUMKIT_PQ_DIAG_MESSAGE_PRIMARY = 'M',
};

/// Loads libpq once; 0 when it is there, else -1 and `albumkit_pq_load_error()` says why.
int albumkit_pq_load(void);
const char *albumkit_pq_load_error(void);

/// `PQconnectdbParams`; NULL when libpq is missing (see `albumkit_pq_load_error`) or out of memory.
albumkit_pq_connection *albumkit_pq_connect(const char *const *keywords, const char *const *values, int expandName);
int albumkit_pq_status(const albumkit_pq_connection *connection);
const char *albumkit_pq_error_message(const albumkit_pq_connection *connection);
void albumkit_pq_finish(albumkit_pq_connection *connection);
int albumkit_pq_backend_pid(const albumkit_pq_connection *connection);

albumkit_pq_result *albumkit_pq_exec(albumkit_pq_connection *connection, const char *sql);
/// `PQexecParams` with text parameters and text results.
albumkit_pq_result *albumkit_pq_exec_text(
    albumkit_pq_connection *connection, const char *sql, int count, const char *const *values);
void albumkit_pq_clear(albumkit_pq_result *result);
int albumkit_pq_result_status(const albumkit_pq_result *result);
const char *albumkit_pq_result_error_field(const albumkit_pq_result *result, int field);
int albumkit_pq_rows(const albumkit_pq_result *result);
int albumkit_pq_columns(const albumkit_pq_result *result);
int albumkit_pq_is_null(const albumkit_pq_result *result, int row, int column);
const char *albumkit_pq_value(const albumkit_pq_result *result, int row, int column);


/// Whether the loaded libpq has pipeline mode (libpq 14 and later): several statements sent before
/// their answers are read, one round trip for all. The functions below work only then.
int albumkit_pq_has_pipeline(void);
/// `PQenterPipelineMode`, `PQexitPipelineMode`, `PQpipelineSync`: 1 on success.
int albumkit_pq_enter_pipeline(albumkit_pq_connection *connection);
int albumkit_pq_exit_pipeline(albumkit_pq_connection *connection);
int albumkit_pq_pipeline_sync(albumkit_pq_connection *connection);
/// `PQsendQueryParams` with text parameters and text results: 1 when queued.
int albumkit_pq_send_text(albumkit_pq_connection *connection, const char *sql, int count, const char *const *values);
/// `PQgetResult`.
albumkit_pq_result *albumkit_pq_get_result(albumkit_pq_connection *connection);

#endif
