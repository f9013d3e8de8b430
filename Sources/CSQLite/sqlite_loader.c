// The `albumkit_sqlite3_*` functions on Linux: forwarded to libsqlite3, loaded on first use (see
// include/albumkit_sqlite.h).

#include "albumkit_sqlite.h"

#if defined(__linux__)

#include "albumkit_loading.h"

static struct {
#define ALBUMKIT_POINTER(result, name, parameters, arguments) result(*name) parameters;
    ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_POINTER)
#undef ALBUMKIT_POINTER
    void (*free)(void *);
    int (*db_config)(sqlite3 *, int, ...);
} sqlite;

static albumkit_library library = ALBUMKIT_LIBRARY_INIT;

static int load(char *error, size_t errorSize) {
    static const char *const names[] = {"libsqlite3.so.0", "libsqlite3.so"};
    const albumkit_symbol symbols[] = {
#define ALBUMKIT_SYMBOL(result, name, parameters, arguments) {"sqlite3_" #name, (void **)&sqlite.name},
        ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_SYMBOL)
#undef ALBUMKIT_SYMBOL
        {"sqlite3_free", (void **)&sqlite.free},
        {"sqlite3_db_config", (void **)&sqlite.db_config},
    };
    return albumkit_load_library(names, sizeof names / sizeof names[0], symbols, sizeof symbols / sizeof symbols[0],
                                 "libsqlite3", "libsqlite3-0", error, errorSize) != NULL
               ? 0
               : -1;
}

int albumkit_sqlite_load(void) { return albumkit_library_load(&library, load); }

const char *albumkit_sqlite_load_error(void) { return albumkit_library_error(&library); }

#define ALBUMKIT_FORWARD(result, name, parameters, arguments) \
    result albumkit_sqlite3_##name parameters { return sqlite.name arguments; }
ALBUMKIT_SQLITE_FUNCTIONS(ALBUMKIT_FORWARD)
#undef ALBUMKIT_FORWARD

void albumkit_sqlite3_free(void *p) { sqlite.free(p); }

int albumkit_sqlite3_keep_wal_on_close(sqlite3 *db) {
    return sqlite.db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
