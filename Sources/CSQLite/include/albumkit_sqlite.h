// SQLite for the catalog. On Linux libsqlite3 is loaded on first use (`albumkit_sqlite_load`), so
// `album --help` and `--version` start without it; the sqlite3_* functions AlbumKit calls are
// defined in sqlite_loader.c, hidden from other modules, and forward to the loaded library.
// Apple platforms link the SDK's SQLite and do not use this target.
#ifndef ALBUMKIT_SQLITE_H
#define ALBUMKIT_SQLITE_H

#include <sqlite3.h>

/// Loads libsqlite3 once; 0 when it is there, else -1 and `albumkit_sqlite_load_error()` says why.
/// Every sqlite3_* call is reached only through a connection, opened after a successful load.
int albumkit_sqlite_load(void);
const char *albumkit_sqlite_load_error(void);

/// SQLITE_TRANSIENT is a macro Swift cannot import (a cast of -1 to a function pointer).
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/// Keeps the WAL when the connection closes (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`): sqlite3_db_config
/// is variadic, which Swift cannot call.
int csqlite_keep_wal_on_close(sqlite3 *db);

#endif
