// Forwards the sqlite3_* functions AlbumKit uses to libsqlite3, loaded on first use (see
// include/albumkit_sqlite.h). The definitions are hidden: they serve this binary's calls only and
// never stand in for SQLite in another library.

#if defined(__linux__)

#pragma GCC visibility push(hidden)
#include "albumkit_sqlite.h"
#pragma GCC visibility pop

#include "albumkit_loading.h"
#include <pthread.h>

// Each function: result type, name without the sqlite3_ prefix, parameters, arguments.
#define ALBUMKIT_SQLITE_FUNCTIONS(X)                                                                          \
    X(int, open_v2, (const char *name, sqlite3 **db, int flags, const char *vfs), (name, db, flags, vfs))     \
    X(int, close_v2, (sqlite3 * db), (db))                                                                    \
    X(int, extended_result_codes, (sqlite3 * db, int on), (db, on))                                          \
    X(int, busy_timeout, (sqlite3 * db, int ms), (db, ms))                                                    \
    X(int, exec, (sqlite3 * db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, \
                  char **message),                                                                            \
      (db, sql, callback, context, message))                                                                  \
    X(const char *, errmsg, (sqlite3 * db), (db))                                                             \
    X(int, extended_errcode, (sqlite3 * db), (db))                                                            \
    X(int, system_errno, (sqlite3 * db), (db))                                                                \
    X(int, changes, (sqlite3 * db), (db))                                                                     \
    X(int, prepare_v3,                                                                                        \
      (sqlite3 * db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, flags, statement, tail))                                                               \
    X(int, finalize, (sqlite3_stmt * s), (s))                                                                 \
    X(int, reset, (sqlite3_stmt * s), (s))                                                                    \
    X(int, clear_bindings, (sqlite3_stmt * s), (s))                                                           \
    X(int, step, (sqlite3_stmt * s), (s))                                                                     \
    X(int, bind_null, (sqlite3_stmt * s, int i), (s, i))                                                      \
    X(int, bind_int64, (sqlite3_stmt * s, int i, sqlite3_int64 v), (s, i, v))                                 \
    X(int, bind_double, (sqlite3_stmt * s, int i, double v), (s, i, v))                                       \
    X(int, bind_text, (sqlite3_stmt * s, int i, const char *v, int n, void (*destructor)(void *)),            \
      (s, i, v, n, destructor))                                                                               \
    X(int, column_count, (sqlite3_stmt * s), (s))                                                             \
    X(int, column_type, (sqlite3_stmt * s, int i), (s, i))                                                    \
    X(sqlite3_int64, column_int64, (sqlite3_stmt * s, int i), (s, i))                                         \
    X(double, column_double, (sqlite3_stmt * s, int i), (s, i))                                               \
    X(const unsigned char *, column_text, (sqlite3_stmt * s, int i), (s, i))                                  \
    X(void *, malloc, (int n), (n))                                                                           \
    X(void, free, (void *p), (p))                                                                             \
    X(sqlite3_vfs *, vfs_find, (const char *name), (name))                                                    \
    X(int, vfs_register, (sqlite3_vfs * vfs, int makeDefault), (vfs, makeDefault))                            \
    X(int, file_control, (sqlite3 * db, const char *schema, int op, void *argument), (db, schema, op, argument))

static struct {
#define ALBUMKIT_POINTER(result, name, parameters, arguments) result(*name) parameters;
    ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_POINTER)
#undef ALBUMKIT_POINTER
    int (*db_config)(sqlite3 *, int, ...);
} sqlite;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static char load_error[512];

static void load(void) {
    static const char *const names[] = {"libsqlite3.so.0", "libsqlite3.so"};
    const albumkit_symbol symbols[] = {
#define ALBUMKIT_SYMBOL(result, name, parameters, arguments) {"sqlite3_" #name, (void **)&sqlite.name},
        ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_SYMBOL)
#undef ALBUMKIT_SYMBOL
        {"sqlite3_db_config", (void **)&sqlite.db_config},
    };
    if (albumkit_load_library(names, sizeof names / sizeof names[0], symbols, sizeof symbols / sizeof symbols[0],
                              "libsqlite3", "libsqlite3-0", load_error, sizeof load_error) != NULL) {
        load_result = 0;
    }
}

int albumkit_sqlite_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

const char *albumkit_sqlite_load_error(void) { return load_error; }

#define ALBUMKIT_FORWARD(result, name, parameters, arguments) \
    result sqlite3_##name parameters { return sqlite.name arguments; }
ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_FORWARD)
#undef ALBUMKIT_FORWARD

int csqlite_keep_wal_on_close(sqlite3 *db) {
    return sqlite.db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
