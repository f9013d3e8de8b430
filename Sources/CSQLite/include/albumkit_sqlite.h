// SQLite for the catalog, through `albumkit_sqlite3_*` names. On Linux libsqlite3 is loaded on
// first use (`albumkit_sqlite_load`), so `album --help` and `--version` start without it, and the
// names forward to the loaded library (sqlite_loader.c). On Apple platforms they are inline calls
// of the SDK's SQLite. Own names, not SQLite's: a program that also uses SQLite, or links its own
// copy, is never routed through AlbumKit's loader.
#ifndef ALBUMKIT_SQLITE_H
#define ALBUMKIT_SQLITE_H

#include <sqlite3.h>

// Each function: result type, name without the sqlite3_ prefix, parameters, arguments.
#define ALBUMKIT_SQLITE_FUNCTIONS(X)                                                                              \
    X(int, open_v2, (const char *name, sqlite3 **db, int flags, const char *vfs), (name, db, flags, vfs))         \
    X(int, close_v2, (sqlite3 * db), (db))                                                                        \
    X(int, extended_result_codes, (sqlite3 * db, int on), (db, on))                                              \
    X(int, busy_timeout, (sqlite3 * db, int ms), (db, ms))                                                        \
    X(int, exec,                                                                                                  \
      (sqlite3 * db, const char *sql, int (*callback)(void *, int, char **, char **), void *context,              \
       char **message),                                                                                           \
      (db, sql, callback, context, message))                                                                      \
    X(const char *, errmsg, (sqlite3 * db), (db))                                                                 \
    X(int, extended_errcode, (sqlite3 * db), (db))                                                                \
    X(int, system_errno, (sqlite3 * db), (db))                                                                    \
    X(int, changes, (sqlite3 * db), (db))                                                                         \
    X(int, prepare_v3,                                                                                            \
      (sqlite3 * db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, flags, statement, tail))                                                                   \
    X(int, finalize, (sqlite3_stmt * s), (s))                                                                     \
    X(int, reset, (sqlite3_stmt * s), (s))                                                                        \
    X(int, clear_bindings, (sqlite3_stmt * s), (s))                                                               \
    X(int, step, (sqlite3_stmt * s), (s))                                                                         \
    X(int, bind_null, (sqlite3_stmt * s, int i), (s, i))                                                          \
    X(int, bind_int64, (sqlite3_stmt * s, int i, sqlite3_int64 v), (s, i, v))                                     \
    X(int, bind_double, (sqlite3_stmt * s, int i, double v), (s, i, v))                                           \
    X(int, bind_text, (sqlite3_stmt * s, int i, const char *v, int n, void (*destructor)(void *)),                \
      (s, i, v, n, destructor))                                                                                   \
    X(int, column_count, (sqlite3_stmt * s), (s))                                                                 \
    X(int, column_type, (sqlite3_stmt * s, int i), (s, i))                                                        \
    X(sqlite3_int64, column_int64, (sqlite3_stmt * s, int i), (s, i))                                             \
    X(double, column_double, (sqlite3_stmt * s, int i), (s, i))                                                   \
    X(const unsigned char *, column_text, (sqlite3_stmt * s, int i), (s, i))                                      \
    X(void *, malloc, (int n), (n))                                                                               \
    X(sqlite3_vfs *, vfs_find, (const char *name), (name))                                                        \
    X(int, vfs_register, (sqlite3_vfs * vfs, int makeDefault), (vfs, makeDefault))                                \
    X(int, file_control, (sqlite3 * db, const char *schema, int op, void *argument), (db, schema, op, argument))

#if defined(__linux__)

/// Loads libsqlite3 once; 0 when it is there, else -1 and `albumkit_sqlite_load_error()` says why.
/// Every other function here is reached only after a successful load.
int albumkit_sqlite_load(void);
const char *albumkit_sqlite_load_error(void);

#define ALBUMKIT_SQLITE_DECLARE(result, name, parameters, arguments) result albumkit_sqlite3_##name parameters;
ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_SQLITE_DECLARE)
#undef ALBUMKIT_SQLITE_DECLARE
void albumkit_sqlite3_free(void *p);
/// `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE` on: sqlite3_db_config is variadic, which Swift cannot call.
int albumkit_sqlite3_keep_wal_on_close(sqlite3 *db);

#else

static inline int albumkit_sqlite_load(void) { return 0; }
static inline const char *albumkit_sqlite_load_error(void) { return ""; }

#define ALBUMKIT_SQLITE_INLINE(result, name, parameters, arguments) \
    static inline result albumkit_sqlite3_##name parameters { return sqlite3_##name arguments; }
ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_SQLITE_INLINE)
#undef ALBUMKIT_SQLITE_INLINE
static inline void albumkit_sqlite3_free(void *p) { sqlite3_free(p); }
static inline int albumkit_sqlite3_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif

/// Flushes one of the main database's files through SQLite's own file handle: the database file
/// (`SQLITE_FCNTL_FILE_POINTER`) or its write-ahead log (`SQLITE_FCNTL_JOURNAL_POINTER`).
/// (Opening and closing another descriptor on a file would drop every POSIX lock this process
/// holds on it: SQLite's locks.)
static inline int albumkit_sqlite3_sync_file(sqlite3 *db, int pointer, int flags) {
    sqlite3_file *file = 0;
    int rc = albumkit_sqlite3_file_control(db, "main", pointer, &file);
    if (rc != SQLITE_OK) return rc;
    if (file == 0 || file->pMethods == 0) return SQLITE_MISUSE;
    return file->pMethods->xSync(file, flags);
}

/// SQLITE_TRANSIENT is a macro Swift cannot import (a cast of -1 to a function pointer).
static inline sqlite3_destructor_type albumkit_sqlite3_transient(void) { return SQLITE_TRANSIENT; }

#endif
